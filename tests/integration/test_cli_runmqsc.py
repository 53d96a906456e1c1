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


def test_emsconf_defines_topics_and_routes_and_refuses_a_bad_line(qmgr: Any, run_cli: RunCli, tmp_path: Any) -> None:
    """B §23 (A-57, A-60): topics.conf and routes.conf through ``mqlite emsconf``; a line it cannot
    take stops it before anything runs, naming file and line (exit 20)."""
    topics, routes = tmp_path / "topics.conf", tmp_path / "routes.conf"
    topics.write_text("orders global,maxmsgs=10,overflowPolicy=rejectIncoming\n")
    routes.write_text("[QM2]\nzone_name=regions\noutgoing_topic=orders selector=\"region = 'west'\"\n")
    result = run_cli("emsconf", "-m", "QM1", "--topics", str(topics), "--routes", str(routes))
    assert result.returncode == 0, result.stdout + result.stderr
    shown = run_cli("runmqsc", "QM1", input="DISPLAY TOPIC(EMS.ORDERS) ALL\nDISPLAY ROUTE(QM2) ALL\n").stdout
    assert "TOPICSTR(orders)" in shown and "GLOBAL(YES)" in shown and "OVERFLOW(REJECTINCOMING)" in shown
    assert "ZONE(REGIONS)" in shown and "OUTGOING(orders selector=\"region = 'west'\")" in shown
    routes.write_text("[QM3]\nzone_name=other\nmirror=yes\n")
    bad = run_cli("emsconf", "-m", "QM1", "--routes", str(routes))
    assert bad.returncode == 20 and f"{routes}:3: unknown route setting 'mirror'" in bad.stdout + bad.stderr
    assert "ROUTE(QM3)" not in run_cli("runmqsc", "QM1", input="DISPLAY ROUTE(*)\n").stdout
