"""crtmqm / strmqm / endmqm / dltmqm / dspmq against real queue manager processes (DESIGN 3)."""

from __future__ import annotations

import json
import os
import signal
import socket
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from helpers.qmgrs import listening
from mqlite.cli.state import process_alive

RunCli = Callable[..., Any]


def _status(run_cli: RunCli, name: str) -> str:
    out = run_cli("dspmq").stdout
    for line in out.splitlines():
        if line.startswith(f"QMNAME({name})"):
            return line[line.index("STATUS(") + 7 : -1]
    raise AssertionError(f"{name} not in dspmq output:\n{out}")


def _pid(home: Path, name: str) -> int:
    return int((home / "qmgrs" / name / "qmgr.pid").read_text().strip())


def _gone(pid: int, timeout: float = 60) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
            stat = Path(f"/proc/{pid}/stat").read_text()
            if stat[stat.rfind(")") + 2] == "Z":
                return True
        except (ProcessLookupError, FileNotFoundError):
            return True
        time.sleep(0.05)
    return False


def test_crtmqm_creates_and_refuses_duplicates(run_cli: RunCli, mqlite_home: Path) -> None:
    result = run_cli("crtmqm", "-p", "1414", "QM.A")
    assert result.returncode == 0, result.stderr
    assert "queue manager created" in result.stdout
    config = json.loads((mqlite_home / "qmgrs" / "QM.A" / "qm.json").read_text())
    assert config["name"] == "QM.A" and config["port"] == 1414 and config["created"]

    again = run_cli("crtmqm", "QM.A")
    assert again.returncode == 8
    assert "AMQ8110" in again.stderr

    line = run_cli("dspmq").stdout.splitlines()[0]
    assert line.startswith("QMNAME(QM.A)")
    assert line.index("STATUS(") == 58  # IBM's column
    assert line.endswith("STATUS(Ended normally)")


def test_crtmqm_rejects_bad_names(run_cli: RunCli, mqlite_home: Path) -> None:
    for bad in ("bad name", "X" * 49, "..", "QM*"):
        result = run_cli("crtmqm", bad)
        assert result.returncode != 0, bad
    assert not (mqlite_home / "qmgrs").exists() or not any((mqlite_home / "qmgrs").iterdir())
    assert run_cli("crtmqm", "a_b.c%d" + "9" * 41).returncode == 0  # 48 characters


def test_default_queue_manager(run_cli: RunCli, mqlite_home: Path) -> None:
    assert run_cli("crtmqm", "-q", "QMD").returncode == 0
    assert json.loads((mqlite_home / "mqs.json").read_text())["default"] == "QMD"
    assert run_cli("dltmqm", "QMD").returncode == 0
    assert json.loads((mqlite_home / "mqs.json").read_text())["default"] is None


def test_unknown_queue_manager(run_cli: RunCli) -> None:
    for command in ("strmqm", "endmqm", "dltmqm"):
        result = run_cli(command, "NOPE")
        assert result.returncode == 16, (command, result.stderr)
        assert "AMQ8118" in result.stderr


def test_lifecycle(run_cli: RunCli, mqlite_home: Path) -> None:
    assert run_cli("crtmqm", "-p", "0", "QM1").returncode == 0  # 0: the system picks the port

    started = run_cli("strmqm", "QM1")
    assert started.returncode == 0, started.stdout + started.stderr
    assert "'QM1' started" in started.stdout
    assert _status(run_cli, "QM1") == "Running"
    port = listening(mqlite_home, "QM1").tcp
    assert port
    with socket.create_connection(("127.0.0.1", port), timeout=5):
        pass  # the TCP listener is up, and listeners.json says where, as soon as strmqm returns

    second = run_cli("strmqm", "QM1")
    assert second.returncode == 5
    assert "running" in second.stderr

    refused = run_cli("dltmqm", "QM1")
    assert refused.returncode == 5
    assert (mqlite_home / "qmgrs" / "QM1").is_dir()

    pid = _pid(mqlite_home, "QM1")
    ended = run_cli("endmqm", "QM1")
    assert ended.returncode == 0, ended.stderr
    assert not process_alive(pid)  # endmqm returns once the queue manager has ended
    assert _status(run_cli, "QM1") == "Ended normally"
    assert not (mqlite_home / "qmgrs" / "QM1" / "qmgr.pid").exists()
    assert not (mqlite_home / "qmgrs" / "QM1" / "listeners.json").exists()  # listens nowhere now

    assert run_cli("strmqm", "QM1").returncode == 0
    pid = _pid(mqlite_home, "QM1")
    ended = run_cli("endmqm", "-i", "QM1")
    assert ended.returncode == 0, ended.stderr
    assert not process_alive(pid)
    assert _status(run_cli, "QM1") == "Ended immediately"

    not_running = run_cli("endmqm", "QM1")
    assert not_running.returncode == 40
    assert "AMQ8146" in not_running.stderr

    deleted = run_cli("dltmqm", "QM1")
    assert deleted.returncode == 0, deleted.stderr
    assert not (mqlite_home / "qmgrs" / "QM1").exists()
    assert run_cli("dspmq").stdout == ""


def test_killed_queue_manager_shows_ended_unexpectedly(
    qmgr: Any, run_cli: RunCli, mqlite_home: Path
) -> None:
    pid = _pid(mqlite_home, qmgr.name)
    os.kill(pid, signal.SIGKILL)
    assert _gone(pid)
    assert _status(run_cli, qmgr.name) == "Ended unexpectedly"
    restarted = run_cli("strmqm", qmgr.name)
    assert restarted.returncode == 0, restarted.stdout + restarted.stderr
    assert _status(run_cli, qmgr.name) == "Running"


def test_two_queue_managers_side_by_side(
    qmgr_factory: Callable[..., Any], run_cli: RunCli
) -> None:
    qmgr_factory("QMA")
    qmgr_factory("QMB", port=False)
    assert _status(run_cli, "QMA") == "Running"
    assert _status(run_cli, "QMB") == "Running"
    assert run_cli("endmqm", "-i", "QMA").returncode == 0
    assert _status(run_cli, "QMA") == "Ended immediately"
    assert _status(run_cli, "QMB") == "Running"


def test_strmqm_reports_a_server_that_cannot_start(run_cli: RunCli) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert run_cli("crtmqm", "-p", str(port), "QMX").returncode == 0
        result = run_cli("strmqm", "QMX")
    assert result.returncode != 0
    assert "could not be started" in result.stderr
    assert _status(run_cli, "QMX") == "Ended unexpectedly"


def test_listeners_file_tells_the_ports_the_system_chose(run_cli: RunCli, mqlite_home: Path) -> None:
    assert run_cli("crtmqm", "-p", "0", "--mqtt-port", "0", "QMP").returncode == 0
    assert run_cli("strmqm", "QMP").returncode == 0
    first = listening(mqlite_home, "QMP")
    assert first.tcp and set(first.channels) == {"SYSTEM.MQTT.DEFAULT"}
    started = run_cli("runmqsc", "QMP", input="DEFINE CHANNEL(EXTRA) CHLTYPE(MQTT) PORT(0)\nSTART CHANNEL(EXTRA)\n")
    assert started.returncode == 0, started.stdout
    extra = listening(mqlite_home, "QMP").channels["EXTRA"]  # written before START CHANNEL answered
    for port in (first.tcp, first.channels["SYSTEM.MQTT.DEFAULT"], extra):
        with socket.create_connection(("127.0.0.1", port), timeout=5):
            pass
    assert run_cli("runmqsc", "QMP", input="STOP CHANNEL(EXTRA)\n").returncode == 0
    assert set(listening(mqlite_home, "QMP").channels) == {"SYSTEM.MQTT.DEFAULT"}
