"""The coverage-guided run (``pytest -m fuzz``, not part of ``make test``): each target of
``fuzz_targets`` under atheris for ``MQLITE_FUZZ_SECONDS`` (default 60) from its seeds. A crash
fails the test with the input that caused it (kept in the test's tmp directory) and the trace.
Skipped when atheris is not installed (it builds only where a libFuzzer-capable clang is)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import fuzz_targets
import pytest

pytest.importorskip("atheris")

SECONDS = int(os.environ.get("MQLITE_FUZZ_SECONDS", "60"))
RUNNER = Path(__file__).with_name("atheris_main.py")
pytestmark = [pytest.mark.fuzz, pytest.mark.timeout(SECONDS * 2 + 120)]


@pytest.mark.parametrize("name", sorted(fuzz_targets.BYTE_TARGETS))
def test_atheris(name: str, tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    subprocess.run([sys.executable, str(RUNNER), name, "--write-seeds", str(corpus)], check=True,
                   cwd=RUNNER.parent)
    run = subprocess.run(
        [sys.executable, str(RUNNER), name, f"-max_total_time={SECONDS}", "-timeout=10", "-rss_limit_mb=2048",
         "-max_len=4096", f"-artifact_prefix={tmp_path}/", str(corpus)],
        cwd=RUNNER.parent, capture_output=True, text=True, timeout=SECONDS * 2 + 60, check=False)
    crashes = sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(("crash-", "timeout-", "oom-")))
    assert run.returncode == 0 and not crashes, f"{crashes}\n{run.stderr[-6000:]}"
