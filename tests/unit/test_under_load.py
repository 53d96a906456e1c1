"""tests/helpers/under_load.py: its CPU hogs run while the command does and are gone after it, by
pid; the command's exit code is the script's."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "helpers" / "under_load.py"

# the command the hogs run beside: each hog (by the pid the script wrote) is alive and is a hog
CHECK = """
import sys
pids = [int(line) for line in open(sys.argv[1])]
assert len(pids) == 2, pids
for pid in pids:
    with open(f"/proc/{pid}/cmdline", "rb") as f:
        assert b"while 1: pass" in f.read(), pid
sys.exit(3)
"""


def gone(pid: int) -> bool:
    """No process ``pid`` any more, or (the pid taken again since) not a hog."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return b"while 1: pass" not in f.read()
    except FileNotFoundError:
        return True


def test_the_hogs_run_beside_the_command_and_end_with_it(tmp_path: Path) -> None:
    pids_file = tmp_path / "hogs"
    done = subprocess.run([sys.executable, str(SCRIPT), "--hogs", "2", "--pids-file", str(pids_file), "--",
                           sys.executable, "-c", CHECK, str(pids_file)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 3, done.stdout + done.stderr  # the command's own code: its checks held
    pids = [int(line) for line in pids_file.read_text().split()]
    assert len(pids) == 2
    assert all(gone(pid) for pid in pids), pids


def test_a_command_that_cannot_start_still_ends_the_hogs(tmp_path: Path) -> None:
    pids_file = tmp_path / "hogs"
    done = subprocess.run([sys.executable, str(SCRIPT), "--hogs", "1", "--pids-file", str(pids_file), "--",
                           str(tmp_path / "no-such-command")], capture_output=True, text=True, timeout=120)
    assert done.returncode == 127, done.stdout + done.stderr
    [pid] = [int(line) for line in pids_file.read_text().split()]
    assert gone(pid)
