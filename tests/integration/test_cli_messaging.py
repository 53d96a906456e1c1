"""put / get / browse through the real `mqlite` command (DESIGN 3): local, default, client."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from typing import Any

import mqlite.client as mqlite
from helpers.credentials import APP, client_env
from helpers.qmgrs import MQLITE
from helpers.waiting import wait_until, waiting_gets

RunCli = Callable[..., Any]


def define(run_cli: RunCli, qmgr: str, *queues: str) -> None:
    mqsc = "".join(f"DEFINE QLOCAL({q})\n" for q in queues)
    result = run_cli("runmqsc", qmgr, input=mqsc)
    assert result.returncode == 0, result.stdout + result.stderr


def test_put_browse_get_round_trip(qmgr: Any, run_cli: RunCli) -> None:
    define(run_cli, qmgr.name, "APP.IN")
    put = run_cli("put", "-m", qmgr.name, "APP.IN", input="one\ntwo words\n\nlast\n")
    assert put.returncode == 0, put.stderr

    for _ in range(2):  # browsing leaves the messages where they are
        browsed = run_cli("browse", "-m", qmgr.name, "APP.IN")
        assert browsed.returncode == 0, browsed.stderr
        assert browsed.stdout == "one\ntwo words\n\nlast\n"

    got = run_cli("get", "-m", qmgr.name, "APP.IN", "-w", "0")
    assert got.returncode == 0, got.stderr
    assert got.stdout == "one\ntwo words\n\nlast\n"
    assert run_cli("browse", "-m", qmgr.name, "APP.IN").stdout == ""


def test_get_waits_then_ends(qmgr: Any, run_cli: RunCli) -> None:
    define(run_cli, qmgr.name, "APP.IN")
    empty = run_cli("get", "-m", qmgr.name, "APP.IN", "-w", "1")
    assert empty.returncode == 0 and empty.stdout == "" and empty.stderr == ""
    with mqlite.connect(qmgr.name) as admin:  # it ended its wait and left nothing behind
        assert waiting_gets(admin, "APP.IN") == 0
        assert mqlite.Queue(admin, "APP.IN").depth == 0


def test_get_receives_a_message_put_while_waiting(qmgr: Any, run_cli: RunCli, mqlite_home: Any) -> None:
    define(run_cli, qmgr.name, "APP.IN")
    getter = subprocess.Popen(
        [str(MQLITE), "get", "-m", qmgr.name, "APP.IN", "-w", "300"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=_env(mqlite_home),
    )
    assert getter.stdout is not None
    try:
        with mqlite.connect(qmgr.name) as admin:
            wait_until(lambda: waiting_gets(admin, "APP.IN") == 1, "the get command's MQGET waits")
        assert run_cli("put", "-m", qmgr.name, "APP.IN", input="late\n").returncode == 0
        assert getter.stdout.readline() == "late\n"  # printed at once, while it waits for more
    finally:
        getter.kill()  # it would wait 300 s for a next message (an upper bound: a loaded machine may start it slowly)
        getter.wait()


def test_unknown_queue_prints_the_reason(qmgr: Any, run_cli: RunCli) -> None:
    for args, stdin in ((("put",), "x\n"), (("get", "-w", "0"), None), (("browse",), None)):
        result = run_cli(*args, "-m", qmgr.name, "NO.SUCH.Q", input=stdin)
        assert result.returncode != 0, args
        assert "MQRC_UNKNOWN_OBJECT_NAME (2085)" in result.stderr, args


def test_default_queue_manager_needs_no_m(run_cli: RunCli) -> None:
    assert run_cli("crtmqm", "-q", "QMD").returncode == 0
    assert run_cli("strmqm", "QMD").returncode == 0
    define(run_cli, "QMD", "APP.IN")
    assert run_cli("put", "APP.IN", input="hello\n").returncode == 0
    assert run_cli("get", "APP.IN", "-w", "0").stdout == "hello\n"


def test_no_queue_manager_named_and_no_default(run_cli: RunCli) -> None:
    result = run_cli("put", "APP.IN", input="x\n")
    assert result.returncode != 0
    assert "MQRC_Q_MGR_NAME_ERROR (2058)" in result.stderr


def test_queue_manager_not_running(run_cli: RunCli) -> None:
    assert run_cli("crtmqm", "QMS").returncode == 0
    result = run_cli("get", "-m", "QMS", "APP.IN", "-w", "0")
    assert result.returncode != 0
    assert "MQRC_Q_MGR_NOT_AVAILABLE (2059)" in result.stderr


def test_client_mode_with_c_and_mqserver(qmgr: Any, run_cli: RunCli) -> None:
    define(run_cli, qmgr.name, "APP.IN")
    put = run_cli("put", "-c", qmgr.conn, "-u", APP.user, "-m", qmgr.name, "APP.IN", input="over tcp\n",
                  env=client_env())
    assert put.returncode == 0, put.stderr
    mqserver = f"DEV.APP.SVRCONN/TCP/127.0.0.1({qmgr.port})"
    browsed = run_cli("browse", "-u", APP.user, "APP.IN", env={"MQSERVER": mqserver, **client_env()})
    assert browsed.returncode == 0, browsed.stderr
    assert browsed.stdout == "over tcp\n"
    got = run_cli("get", "-c", f"127.0.0.1({qmgr.port})", "-u", APP.user, "APP.IN", "-w", "0", env=client_env())
    assert got.stdout == "over tcp\n", got.stderr


def test_client_mode_nobody_listening(run_cli: RunCli, refused_port: int) -> None:
    result = run_cli("get", "-c", f"127.0.0.1:{refused_port}", "APP.IN", "-w", "0")
    assert result.returncode != 0
    assert "MQRC_HOST_NOT_AVAILABLE (2538)" in result.stderr


def _env(home: Any) -> dict[str, str]:
    import os

    env = {k: v for k, v in os.environ.items() if k != "MQSERVER"}
    env["MQLITE_HOME"] = str(home)
    return env
