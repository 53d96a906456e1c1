"""Queue managers the tests start with the real ``mqlite`` command, in a temporary MQLITE_HOME.

Ports: a test never picks a port. It creates the queue manager with ``crtmqm -p 0`` (and
``--mqtt-port 0``), so the server binds port 0 and the system chooses; the server writes the ports
it bound to ``listeners.json`` in the queue manager's directory before it accepts connections,
and again whenever a channel starts or stops (``mqlite.paths.listeners_path``). ``listening``
reads that file; ``QMgr.port`` reads it each time, so it is right after a restart too.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from mqlite.cli.state import process_alive

MQLITE = Path(sys.executable).with_name("mqlite")
if not MQLITE.exists():  # not running from the venv: fall back to PATH
    MQLITE = Path(shutil.which("mqlite") or "mqlite")


@dataclass(frozen=True)
class Listening:
    """The ports a running queue manager listens on (its ``listeners.json``)."""

    tcp: int | None
    channels: dict[str, int]


def listening(home: Path, name: str) -> Listening:
    """What queue manager ``name`` under ``home`` listens on now (it must be running)."""
    path = home / "qmgrs" / name / "listeners.json"
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        raise AssertionError(f"{path} is missing: queue manager {name} is not running") from None
    return Listening(data["tcp"], dict(data["channels"]))


@dataclass(frozen=True)
class QMgr:
    """A queue manager a fixture created (with ``crtmqm -p 0`` unless told otherwise) and started."""

    name: str
    home: Path

    @property
    def port(self) -> int | None:
        """Its TCP port now: the system picks a new one at each start."""
        return listening(self.home, self.name).tcp

    @property
    def conn(self) -> str:
        """``-c`` value for client mode."""
        return f"127.0.0.1:{self.port}"

    def error_log(self) -> str:
        """Its error log (AMQERR01.LOG) as it is now."""
        return (self.home / "qmgrs" / self.name / "AMQERR01.LOG").read_text()


def run_mqlite(args: tuple[str, ...], home: Path, input: str | None = None, timeout: float = 60,
               env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run the real ``mqlite`` console script against ``home``; output captured as text."""
    full_env = dict(os.environ)
    full_env.pop("MQSERVER", None)  # a developer's MQSERVER must not turn tests into clients
    full_env.update({"MQLITE_HOME": str(home), **(env or {})})
    return subprocess.run(
        [str(MQLITE), *args], input=input, capture_output=True, text=True, timeout=timeout,
        env=full_env, check=False,
    )


def server_pids(home: Path) -> dict[str, int]:
    """Queue manager name -> pid, for each live server whose pid file is under ``home``."""
    pids = {}
    for pid_file in (home / "qmgrs").glob("*/qmgr.pid"):
        try:
            pid = int(pid_file.read_text().strip())
        except (OSError, ValueError):
            continue
        if process_alive(pid) and _started_from(pid, home):
            pids[pid_file.parent.name] = pid
    return pids


def _started_from(pid: int, home: Path) -> bool:
    """True when process ``pid`` runs with MQLITE_HOME=home: a server this test started."""
    try:
        environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    except OSError:
        return False
    return f"MQLITE_HOME={home.resolve()}".encode() in environ or (
        f"MQLITE_HOME={home}".encode() in environ
    )


def reap(home: Path) -> None:
    """End every queue manager still running from ``home``: endmqm -i, then SIGKILL by pid."""
    pids = server_pids(home)
    for name in pids:
        with contextlib.suppress(subprocess.TimeoutExpired):
            run_mqlite(("endmqm", "-i", name), home, timeout=20)
    deadline = time.monotonic() + 5
    for pid in pids.values():
        while process_alive(pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        if process_alive(pid):
            os.kill(pid, signal.SIGKILL)
