"""Issue 34's guard: cases a and c of bench/cost.py (callgrind's instructions per message of the
queue manager process) may not rise more than 3% over the figures recorded in
bench/cost_baseline.json (``python bench/cost.py --case a --case c --record`` writes them): the
compiled build's figures (``cases``) when the tree's hot modules are compiled, else the pure-Python
package's (``pure_cases``).

Slow (valgrind runs the server ~50x slower: a few minutes), so ``make test`` skips it:
``.venv/bin/pytest -q -p no:cacheprovider -m slow tests/integration/test_cost_regression.py``.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
from cost_record import baseline_key  # noqa: E402 (bench/ is not a package: its directory is on the path)

BASELINE = ROOT / "bench" / "cost_baseline.json"
ALLOWED_RISE = 0.03

TOOLS = bool(shutil.which("valgrind") and shutil.which("gcc"))
pytestmark = [pytest.mark.slow, pytest.mark.skipif(not TOOLS, reason="needs valgrind and gcc")]


def _build() -> str:
    """What the tree's queue managers run: its compiled hot modules or their sources."""
    done = subprocess.run([sys.executable, "-m", "mqlite.compiled", "status"],
                          capture_output=True, text=True, check=True, cwd=ROOT)
    return done.stdout.strip().splitlines()[-1]


@pytest.mark.parametrize("case", ["a", "c"])
def test_instructions_per_message_hold(case: str) -> None:
    build = _build()  # the compiled build's figures, or the pure-Python package's
    recorded = json.loads(BASELINE.read_text()).get(baseline_key(build), {}).get(case)
    if recorded is None:
        pytest.skip(f"no {case} figure recorded for the {build} build")
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "cost.py"), "--case", case, "--repeats", "1",
                           "-N", str(recorded["N"]), "-M", str(recorded["M"])],
                          capture_output=True, text=True, timeout=1800, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    measured = json.loads(done.stdout.splitlines()[0])
    limit = recorded["per_message"] * (1 + ALLOWED_RISE)
    assert measured["per_message"] <= limit, (
        f"case {case}: {measured['per_message']:,} Ir per message, recorded {recorded['per_message']:,} "
        f"(+{measured['per_message'] / recorded['per_message'] - 1:.1%}; the top functions now: "
        f"{measured['functions'][:5]})")
