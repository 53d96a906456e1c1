"""Shared fixtures for integration tests: real queue managers, in a temporary MQLITE_HOME.

- ``mqlite_home``: a fresh ``$MQLITE_HOME`` (also set in this process's environment, so an
  in-process ``mqlite.connect("QM1")`` finds it). At teardown every queue manager still running
  there is ended (``endmqm -i``) and, if that fails, killed by its pid: only processes started
  from this home, never anything else.
- ``run_cli(*args, input=None, timeout=60, env=None)``: runs the real ``mqlite`` console script
  and returns the ``CompletedProcess`` (text mode, stdout and stderr captured).
- ``qmgr_factory(name="QM1", port=True)``: crtmqm (with a free TCP port unless ``port=False``)
  + strmqm; returns a ``QMgr(name, port, home)``.
- ``qmgr``: one started queue manager "QM1" with a TCP port: the usual fixture.
- ``tcp_port``: a TCP port free on 127.0.0.1 right now.

Test modules use these through fixtures only (``import conftest`` is fragile when several
test directories have one); annotate with ``Any`` or the fixture's documented shape.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from mqtt_clients import Client, MqttQMgr

from mqlite.cli.state import process_alive

MQLITE = Path(sys.executable).with_name("mqlite")
if not MQLITE.exists():  # not running from the venv: fall back to PATH
    MQLITE = Path(shutil.which("mqlite") or "mqlite")

RunCli = Callable[..., "subprocess.CompletedProcess[str]"]


@dataclass(frozen=True)
class QMgr:
    """A queue manager a fixture created and started."""

    name: str
    port: int | None
    home: Path

    @property
    def conn(self) -> str:
        """``-c`` value for client mode."""
        return f"127.0.0.1:{self.port}"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _run(args: tuple[str, ...], input: str | None, timeout: float,
         env: dict[str, str] | None) -> subprocess.CompletedProcess[str]:
    full_env = dict(os.environ)
    full_env.pop("MQSERVER", None)  # a developer's MQSERVER must not turn tests into clients
    full_env.update(env or {})
    return subprocess.run(
        [str(MQLITE), *args], input=input, capture_output=True, text=True, timeout=timeout,
        env=full_env, check=False,
    )


def _server_pids(home: Path) -> dict[str, int]:
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


def _reap(home: Path) -> None:
    """End every queue manager still running from ``home``: endmqm -i, then SIGKILL by pid."""
    pids = _server_pids(home)
    for name in pids:
        with contextlib.suppress(subprocess.TimeoutExpired):
            _run(("endmqm", "-i", name), None, 20, {"MQLITE_HOME": str(home)})
    deadline = time.monotonic() + 5
    for pid in pids.values():
        while process_alive(pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        if process_alive(pid):
            os.kill(pid, signal.SIGKILL)


@pytest.fixture
def mqlite_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    home = tmp_path / "mqhome"
    home.mkdir()
    monkeypatch.setenv("MQLITE_HOME", str(home))
    monkeypatch.delenv("MQSERVER", raising=False)
    yield home
    _reap(home)


@pytest.fixture
def run_cli(mqlite_home: Path) -> RunCli:
    def run(*args: str, input: str | None = None, timeout: float = 60,
            env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
        return _run(args, input, timeout, {"MQLITE_HOME": str(mqlite_home), **(env or {})})

    return run


@pytest.fixture
def qmgr_factory(mqlite_home: Path, run_cli: RunCli) -> Callable[..., QMgr]:
    def make(name: str = "QM1", port: bool = True) -> QMgr:
        tcp_port = free_port() if port else None
        created = run_cli("crtmqm", *(["-p", str(tcp_port)] if tcp_port else []), name)
        assert created.returncode == 0, created.stdout + created.stderr
        started = run_cli("strmqm", name)
        assert started.returncode == 0, started.stdout + started.stderr
        return QMgr(name, tcp_port, mqlite_home)

    return make


@pytest.fixture
def tcp_port() -> int:
    return free_port()


@pytest.fixture
def qmgr(qmgr_factory: Callable[..., QMgr]) -> QMgr:
    return qmgr_factory("QM1")


@pytest.fixture
def mqtt_qmgr(mqlite_home: Path, run_cli: RunCli, tcp_port: int) -> Iterator[MqttQMgr]:
    """A started queue manager "QMQTT" whose MQTT channel listens on ``mqtt_port``."""
    assert run_cli("crtmqm", "--mqtt-port", str(tcp_port), "QMQTT").returncode == 0
    assert run_cli("strmqm", "QMQTT").returncode == 0
    yield MqttQMgr("QMQTT", tcp_port, mqlite_home)
    run_cli("endmqm", "-i", "QMQTT")


@pytest.fixture
def mqtt_clients() -> Iterator[list[Client]]:
    """MQTT clients a test made, ended after it."""
    made: list[Client] = []
    yield made
    for c in made:
        c.paho.loop_stop()
        c.paho.disconnect()


@pytest.fixture
def client(mqtt_qmgr: MqttQMgr, mqtt_clients: list[Client]) -> Callable[..., Client]:
    """``client(client_id, **options)``: a connected client of ``mqtt_qmgr``."""
    def make(client_id: str, **kwargs: Any) -> Client:
        mqtt_clients.append(Client(mqtt_qmgr.mqtt_port, client_id, **kwargs))
        return mqtt_clients[-1]

    return make
