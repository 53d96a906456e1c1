"""Issue 31 part 5, the frictions of the command line: strmqm on a port in use says IBM's AMQ9218E
and nothing else (the traceback goes to the queue manager's error log), and a client's password
is never read from the standard input that carries its messages. Real queue manager processes
and the real ``mqlite`` command (C:R-SEC: CONNAUTH's passwords)."""

from __future__ import annotations

import os
import socket
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

from helpers.credentials import ADMIN, APP, add_user
from helpers.mqsc import depth, mqsc
from helpers.qmgrs import MQLITE, QMgr

RunCli = Callable[..., Any]


def test_strmqm_on_a_port_in_use_prints_ibms_message_only(run_cli: RunCli, mqlite_home: Path) -> None:
    with socket.create_server(("0.0.0.0", 0)) as taken:  # listening: the queue manager cannot bind it
        port = taken.getsockname()[1]
        assert run_cli("crtmqm", "-p", str(port), "QMX").returncode == 0
        started = run_cli("strmqm", "QMX")
    out = started.stdout + started.stderr
    assert started.returncode == 71, out  # IBM's strmqm: an unexpected error
    assert f"AMQ9218E: The TCP/IP listener program could not bind to port number {port}." in out, out
    assert "Traceback" not in out and 'File "' not in out and "OSError" not in out, out
    log = (mqlite_home / "qmgrs" / "QMX" / "AMQERR01.LOG").read_text()
    assert f"AMQ9218E: The TCP/IP listener program could not bind to port number {port}." in log
    assert "Traceback (most recent call last)" in log  # where the details belong


def _cli_without_terminal(home: Path, args: list[str], stdin: str,
                          env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """The ``mqlite`` command in a session of its own: no controlling terminal, no /dev/tty,
    as under cron, a pipeline in CI, or ssh without -t."""
    full = {k: v for k, v in os.environ.items() if k not in ("MQSERVER", "MQLITE_PASSWORD")}
    full.update({"MQLITE_HOME": str(home), **env})
    return subprocess.run([str(MQLITE), *args], input=stdin, capture_output=True, text=True, timeout=60,
                          env=full, start_new_session=True, check=False)


def test_a_piped_message_is_never_taken_for_the_password(qmgr: QMgr, run_cli: RunCli, mqlite_home: Path) -> None:
    """C:R-SEC (CONNAUTH CHCKCLNT REQUIRED): ``echo hi | mqlite put -c ... -u app`` has no terminal
    to prompt on; the message line must stay a message, so the command says where the password
    comes from instead of reading it from the pipe."""
    mqsc(run_cli, qmgr, "DEFINE QLOCAL(APP.IN)\n")
    args = ["put", "-c", qmgr.conn, "-m", qmgr.name, "-u", APP.user, "APP.IN"]
    refused = _cli_without_terminal(mqlite_home, args, APP.password + "\n", {})
    assert refused.returncode != 0
    assert "MQLITE_PASSWORD" in refused.stderr and "terminal" in refused.stderr, refused.stderr
    assert depth(run_cli, qmgr, "APP.IN") == 0  # the line was not used as the password (it is app's)
    put = _cli_without_terminal(mqlite_home, args, "hi\n", {"MQLITE_PASSWORD": APP.password})
    assert put.returncode == 0, put.stdout + put.stderr
    got = run_cli("get", "-m", qmgr.name, "APP.IN", "-w", "0")
    assert got.stdout.splitlines() == ["hi"]


def test_runmqsc_without_a_terminal_reads_the_password_first_as_ibms_does(qmgr: QMgr, mqlite_home: Path) -> None:
    """IBM's ``runmqsc -u`` takes the first line of its input as the password when there is no
    terminal (``(echo $PW; echo "DISPLAY QMGR") | runmqsc -c -u admin QM``): that stays so."""
    add_user(mqlite_home, qmgr.name, ADMIN)
    shown = _cli_without_terminal(mqlite_home, ["runmqsc", "-c", qmgr.conn, "-u", ADMIN.user, qmgr.name],
                                  f"{ADMIN.password}\nDISPLAY QMGR QMNAME\n", {})
    assert shown.returncode == 0, shown.stdout + shown.stderr
    assert f"QMNAME({qmgr.name})" in shown.stdout


def test_control_commands_stay_local_whatever_mqserver_says(qmgr: QMgr, run_cli: RunCli) -> None:
    """IBM's setmqaut, dspmqaut, dmpmqaut and runswchl work on a local queue manager only: an
    MQSERVER exported for the client programs (here naming a port nobody listens on) must not send
    them over TCP, where they failed with 2059 (or ran as the channel's user)."""
    with socket.create_server(("127.0.0.1", 0)) as closed:
        nowhere = closed.getsockname()[1]
    env = {"MQSERVER": f"DEV.APP.SVRCONN/TCP/127.0.0.1({nowhere})"}
    mqsc(run_cli, qmgr, "DEFINE QLOCAL(LOCAL.ONLY)\n")
    granted = run_cli("setmqaut", "-m", qmgr.name, "-n", "LOCAL.ONLY", "-t", "queue", "-p", APP.user, "+put",
                      env=env)
    assert granted.returncode == 0, granted.stdout + granted.stderr
    shown = run_cli("dspmqaut", "-m", qmgr.name, "-n", "LOCAL.ONLY", "-t", "queue", "-p", APP.user, env=env)
    assert shown.returncode == 0 and "put" in shown.stdout, shown.stdout + shown.stderr
    dumped = run_cli("dmpmqaut", "-m", qmgr.name, "-n", "LOCAL.ONLY", env=env)
    assert dumped.returncode == 0 and "LOCAL.ONLY" in dumped.stdout, dumped.stdout + dumped.stderr
    switched = run_cli("runswchl", "-m", qmgr.name, "-c", "*", "-q", env=env)
    assert switched.returncode == 0, switched.stdout + switched.stderr
