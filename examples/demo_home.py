"""The demos' MQLITE_HOME: a new directory, under $MQLITE_HOME when it is set, removed at the end.

``demo_home(prefix)`` makes the directory, points MQLITE_HOME at it for the demo (and the
``mqlite`` commands it runs), and when the demo ends, however it ends (done, failed, Ctrl-C, or
SIGTERM/SIGHUP), ends the queue managers running from it (``endmqm -i``, then SIGKILL by the pid
in their ``qmgr.pid``) and removes it. Only processes started from that directory are ended: the
demo's own; queue managers already in $MQLITE_HOME are left alone.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from types import FrameType

from mqlite.cli.state import process_alive

MQLITE = str(Path(sys.executable).with_name("mqlite"))


def _exit_on_signal(signum: int, _frame: FrameType | None) -> None:
    raise SystemExit(128 + signum)  # unwinds through the finally below


def _servers(home: Path) -> dict[str, int]:
    """Queue manager name -> pid of each server running from ``home`` (its environment says so)."""
    found = {}
    for pid_file in (home / "qmgrs").glob("*/qmgr.pid"):
        try:
            pid = int(pid_file.read_text().split()[0])
            environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
        except (OSError, ValueError, IndexError):
            continue
        if pid != os.getpid() and f"MQLITE_HOME={home}".encode() in environ and process_alive(pid):
            found[pid_file.parent.name] = pid
    return found


def end_servers(home: Path) -> None:
    """End every queue manager running from ``home``: endmqm -i, then SIGKILL by pid."""
    servers = _servers(home)
    for name in servers:
        with contextlib.suppress(subprocess.TimeoutExpired):
            subprocess.run([MQLITE, "endmqm", "-i", name], capture_output=True, timeout=30, check=False,
                           env={**os.environ, "MQLITE_HOME": str(home)})
    deadline = time.monotonic() + 10
    for pid in servers.values():
        while process_alive(pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        if process_alive(pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


@contextlib.contextmanager
def demo_home(prefix: str) -> Iterator[Path]:
    """A fresh MQLITE_HOME for one demo, under $MQLITE_HOME if set (else the system's temp)."""
    parent = os.environ.get("MQLITE_HOME") or None
    if parent:
        Path(parent).mkdir(parents=True, exist_ok=True)
    home = Path(tempfile.mkdtemp(prefix=prefix, dir=parent)).resolve()
    handlers = {sig: signal.signal(sig, _exit_on_signal) for sig in (signal.SIGTERM, signal.SIGHUP)}
    os.environ["MQLITE_HOME"] = str(home)
    try:
        yield home
    finally:
        # Ctrl-C during the cleanup would leave it half done: it is short, so it is not interrupted.
        handlers[signal.SIGINT] = signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            end_servers(home)
            shutil.rmtree(home, ignore_errors=True)
        finally:
            if parent:
                os.environ["MQLITE_HOME"] = parent
            else:
                os.environ.pop("MQLITE_HOME", None)
            for sig, handler in handlers.items():
                signal.signal(sig, handler)
