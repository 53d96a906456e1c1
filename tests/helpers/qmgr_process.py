"""A queue manager process started the way strmqm does, for tests that must kill or restart it.

Tests own the process they start and end only it, by its pid.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from mqlite import paths


def create(name: str) -> None:
    """What crtmqm leaves behind (in the current MQLITE_HOME): the directory and qm.json."""
    paths.qmgr_dir(name).mkdir(parents=True)
    paths.write_config(name, {"name": name, "port": None, "created": time.time()})


def start(name: str, home: Path, timeout: float = 120.0) -> subprocess.Popen[bytes]:
    """Run ``python -m mqlite.server NAME`` and return once it accepts connections."""
    proc = subprocess.Popen([sys.executable, "-m", "mqlite.server", name],
                            env={**os.environ, "MQLITE_HOME": str(home)})
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.socket(socket.AF_UNIX) as s:
                s.connect(paths.socket_address(name))
            return proc
        except OSError:
            assert proc.poll() is None, "queue manager exited during start"
            time.sleep(0.05)
    proc.kill()
    raise AssertionError("queue manager did not start")


def stop(proc: subprocess.Popen[bytes]) -> None:
    """A controlled end (SIGTERM), waited for."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=120)


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0
