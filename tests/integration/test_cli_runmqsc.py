"""runmqsc through the real `mqlite` command: output, exit codes 0 / 10 / 20, client mode."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from helpers.credentials import ADMIN, add_user, client_env

RunCli = Callable[..., Any]


def test_define_and_display(qmgr: Any, run_cli: RunCli) -> None:
    mqsc = "DEFINE QLOCAL(APP.Q) DESCR('Test queue') MAXDEPTH(42)\nDISPLAY QLOCAL(APP.Q) MAXDEPTH\n"
    result = run_cli("runmqsc", qmgr.name, input=mqsc)
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    assert out.startswith(f"Starting MQSC for queue manager {qmgr.name}.")
    assert "AMQ8006" in out  # queue created
    assert "QUEUE(APP.Q)" in out
    assert "MAXDEPTH(42)" in out
    assert "2 MQSC commands read." in out


def test_some_commands_fail_exit_10(qmgr: Any, run_cli: RunCli) -> None:
    mqsc = "DEFINE QLOCAL(DUP.Q)\nDEFINE QLOCAL(DUP.Q)\nDISPLAY QLOCAL(NO.SUCH.Q)\n"
    result = run_cli("runmqsc", qmgr.name, input=mqsc)
    assert result.returncode == 10, result.stdout + result.stderr
    assert "3 MQSC commands read." in result.stdout


def test_comments_and_continuations(qmgr: Any, run_cli: RunCli) -> None:
    mqsc = "* a comment\nDEFINE QLOCAL(CONT.Q) +\n  DESCR('continued')\nDISPLAY QLOCAL(CONT.Q) DESCR\n"
    result = run_cli("runmqsc", qmgr.name, input=mqsc)
    assert result.returncode == 0, result.stdout
    assert "DESCR(continued)" in result.stdout


def test_queue_manager_not_running_exits_20(run_cli: RunCli) -> None:
    assert run_cli("crtmqm", "QMS").returncode == 0
    result = run_cli("runmqsc", "QMS", input="DISPLAY QMGR\n")
    assert result.returncode == 20
    assert "AMQ8146" in result.stdout + result.stderr


def test_unknown_queue_manager_exits_20(run_cli: RunCli) -> None:
    result = run_cli("runmqsc", "NOPE", input="DISPLAY QMGR\n")
    assert result.returncode == 20
    assert "AMQ8118" in result.stdout + result.stderr


def test_default_queue_manager(run_cli: RunCli) -> None:
    assert run_cli("crtmqm", "-q", "QMD").returncode == 0
    assert run_cli("strmqm", "QMD").returncode == 0
    result = run_cli("runmqsc", input="DISPLAY QMGR QMNAME\n")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "QMNAME(QMD)" in result.stdout


def test_client_mode(qmgr: Any, run_cli: RunCli) -> None:
    add_user(qmgr.home, qmgr.name, ADMIN)  # runmqsc -c: DEV.ADMIN.SVRCONN, administrators only
    result = run_cli("runmqsc", "-c", qmgr.conn, "-u", ADMIN.user, qmgr.name, input="DEFINE QLOCAL(REMOTE.ADMIN)\n",
                     env=client_env(ADMIN))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "AMQ8006" in result.stdout
