"""Who a TCP client is (issue 14, items 1, 2 and 9): it names a SVRCONN channel and proves who it
is with a user and password from the queue manager's users file, against a real queue manager.

Connection authentication is on by default (SYSTEM.DEFAULT.AUTHINFO.IDPWOS, CHCKCLNT(REQUIRED));
a refusal is 2035 after FAILDLAY with one AMQ5534E line; an undefined channel is 2540; MAXINST
and MAXINSTC are 2537; DISPLAY CHSTATUS shows each connection; STOP CHANNEL ends them (2009).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import mqlite.client as mqlite
from helpers.credentials import APP, Credentials, add_user, grant_app
from helpers.qmgrs import QMgr
from helpers.waiting import wait_until
from mqlite import cmqc as C
from mqlite import paths

RunCli = Callable[..., Any]


def connect(qmgr: QMgr, channel: str = "DEV.APP.SVRCONN", user: str | None = APP.user,
            password: str | None = APP.password) -> mqlite.QueueManager:
    return mqlite.connect(qmgr.name, channel, f"127.0.0.1({qmgr.port})", user, password)


def refused(qmgr: QMgr, **kwargs: Any) -> int:
    with pytest.raises(mqlite.MQMIError) as error:
        connect(qmgr, **kwargs)
    assert error.value.comp == C.MQCC_FAILED
    return error.value.reason


def mqsc(run_cli: RunCli, qmgr: QMgr, text: str) -> str:
    result = run_cli("runmqsc", qmgr.name, input=text)
    assert result.returncode == 0, result.stdout
    return str(result.stdout)


def error_log(qmgr: QMgr) -> str:
    return paths.error_log_path(qmgr.name).read_text(errors="replace")


def test_password_from_the_users_file(qmgr: QMgr) -> None:
    with connect(qmgr) as qm:
        assert qm.get_handle().user == APP.user  # ADOPTCTX(YES): the authenticated user
        qm.ping()


def test_bad_credentials_are_2035_with_one_log_line_each(qmgr: QMgr) -> None:
    assert refused(qmgr, password="wrong") == C.MQRC_NOT_AUTHORIZED
    assert refused(qmgr, user="nobody.here", password="x") == C.MQRC_NOT_AUTHORIZED
    assert refused(qmgr, user=None, password=None) == C.MQRC_NOT_AUTHORIZED  # CHCKCLNT(REQUIRED)
    log = error_log(qmgr)
    assert log.count("AMQ5534E") == 3
    assert "the password is wrong" in log and "not in the queue manager's users file" in log
    assert "no password given where one is required" in log
    assert "wrong" not in log.replace("the password is wrong", "")  # the password itself is never logged
    with connect(qmgr) as qm:  # and the queue manager serves on
        qm.ping()


def test_undefined_channel_is_2540(qmgr: QMgr) -> None:
    assert refused(qmgr, channel="NO.SUCH.CHANNEL") == C.MQRC_UNKNOWN_CHANNEL_NAME
    assert "AMQ9519E: Channel 'NO.SUCH.CHANNEL' not found" in error_log(qmgr)


def test_mcauser_is_the_identity(qmgr: QMgr, run_cli: RunCli) -> None:
    mqsc(run_cli, qmgr, "ALTER CHANNEL(DEV.APP.SVRCONN) CHLTYPE(SVRCONN) MCAUSER('mapped')\n"
                        "SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('mapped') AUTHADD(CONNECT)\n")  # no administrator
    with connect(qmgr) as qm:  # authenticated as app, runs as the channel's MCAUSER
        assert qm.get_handle().user == "mapped"
        shown = mqsc(run_cli, qmgr, "DISPLAY CHSTATUS(DEV.APP.SVRCONN) MCAUSER\n")
        assert "MCAUSER(mapped)" in shown


def test_chstatus_shows_each_connection_and_stop_channel_ends_them(qmgr: QMgr, run_cli: RunCli) -> None:
    # SHARECNV(1): each connection is an instance of its own (test_sharecnv.py shares them)
    mqsc(run_cli, qmgr, "ALTER CHANNEL(DEV.APP.SVRCONN) CHLTYPE(SVRCONN) SHARECNV(1)\n")
    first, second = connect(qmgr), connect(qmgr)
    shown = mqsc(run_cli, qmgr, "DISPLAY CHSTATUS(DEV.APP.SVRCONN) ALL\n")
    assert shown.count("CHANNEL(DEV.APP.SVRCONN)") == 2
    for item in ("CHLTYPE(SVRCONN)", "CONNAME(127.0.0.1)", "STATUS(RUNNING)", "MCAUSER(app)", "CURSHCNV(1)",
                 "MAXMSGL(4194304)", "HBINT(300)", "KAINT(360)"):  # KAINT(AUTO): HBINT + 60
        assert item in shown, item
    default = mqsc(run_cli, qmgr, "DISPLAY CHSTATUS(*)\n")  # IBM's default attributes of an instance
    assert "CONNAME(127.0.0.1)" in default and "SUBSTATE(RECEIVE)" in default and "MCAUSER" not in default
    stopped = run_cli("runmqsc", qmgr.name, input="STOP CHANNEL(DEV.APP.SVRCONN) CONNAME('10.9.9.9')\n")
    assert "MQRCCF_CHANNEL_NOT_ACTIVE (4064)" in stopped.stdout  # no instance from there: none ended
    first.ping()
    assert "AMQ8019I" in mqsc(run_cli, qmgr, "STOP CHANNEL(DEV.APP.SVRCONN)\n")
    for qm in (first, second):
        with pytest.raises(mqlite.MQMIError) as broken:
            qm.ping()
        assert broken.value.reason == C.MQRC_CONNECTION_BROKEN
    assert refused(qmgr) == C.MQRC_CHANNEL_NOT_AVAILABLE  # STATUS(STOPPED) until START CHANNEL
    assert "STATUS(STOPPED)" in mqsc(run_cli, qmgr, "DISPLAY CHSTATUS(DEV.APP.SVRCONN)\n")
    mqsc(run_cli, qmgr, "START CHANNEL(DEV.APP.SVRCONN)\n")
    with connect(qmgr) as qm:
        qm.ping()


def test_maxinst_and_maxinstc_are_2537(qmgr: QMgr, run_cli: RunCli) -> None:
    mqsc(run_cli, qmgr, "ALTER CHANNEL(DEV.APP.SVRCONN) CHLTYPE(SVRCONN) MAXINST(2) MAXINSTC(1) SHARECNV(1)\n")
    with connect(qmgr):
        assert refused(qmgr) == C.MQRC_CHANNEL_NOT_AVAILABLE  # a second from 127.0.0.1: MAXINSTC(1)
    mqsc(run_cli, qmgr, "ALTER CHANNEL(DEV.APP.SVRCONN) CHLTYPE(SVRCONN) MAXINSTC(5) MAXINST(1)\n")
    with connect(qmgr):
        assert refused(qmgr) == C.MQRC_CHANNEL_NOT_AVAILABLE  # MAXINST(1)
    with connect(qmgr) as qm:  # the first one gone, there is room again
        qm.ping()
    assert "MAXINST(1) instances are running" in error_log(qmgr)


def test_channel_maxmsgl_refuses_longer_messages_with_2010(qmgr: QMgr, run_cli: RunCli) -> None:
    mqsc(run_cli, qmgr, "DEFINE QLOCAL(APP.IN)\nALTER CHANNEL(DEV.APP.SVRCONN) CHLTYPE(SVRCONN) MAXMSGL(1000)\n")
    with connect(qmgr) as qm:
        queue = mqlite.Queue(qm, "APP.IN")
        queue.put(b"x" * 1000)
        with pytest.raises(mqlite.MQMIError) as error:
            queue.put(b"x" * 1001)
        assert error.value.reason == C.MQRC_DATA_LENGTH_ERROR
        assert queue.get() == b"x" * 1000


def test_the_cd_negotiates_with_the_channel(qmgr: QMgr, run_cli: RunCli) -> None:
    """pymqi's CD: its MaxMsgLength and HeartbeatInterval meet the channel's (the lower length,
    the higher interval); CSP carries the user and password."""
    mqsc(run_cli, qmgr, "DEFINE QLOCAL(APP.IN)\n")
    cd = mqlite.CD(ChannelName=b"DEV.APP.SVRCONN", ConnectionName=f"127.0.0.1({qmgr.port})".encode(),
                   MaxMsgLength=100, HeartbeatInterval=600)
    csp = mqlite.CSP(CSPUserId=APP.user.encode(), CSPPassword=APP.password.encode())
    qm = mqlite.QueueManager(None)
    qm.connect_with_options(qmgr.name, cd=cd, csp=csp)
    try:
        with pytest.raises(mqlite.MQMIError) as error:
            mqlite.Queue(qm, "APP.IN").put(b"x" * 101)
        assert error.value.reason == C.MQRC_DATA_LENGTH_ERROR
        shown = mqsc(run_cli, qmgr, "DISPLAY CHSTATUS(DEV.APP.SVRCONN) MAXMSGL HBINT\n")
        assert "MAXMSGL(100)" in shown and "HBINT(600)" in shown
    finally:
        qm.disconnect()


def test_a_failing_client_does_not_slow_others(qmgr: QMgr, run_cli: RunCli) -> None:
    """FAILDLAY is slept on the refused connection only: another client connects and works
    meanwhile (C:issue 14 item 9)."""
    mqsc(run_cli, qmgr, "ALTER AUTHINFO(SYSTEM.DEFAULT.AUTHINFO.IDPWOS) AUTHTYPE(IDPWOS) FAILDLAY(60)\n"
                        "REFRESH SECURITY TYPE(CONNAUTH)\nDEFINE QLOCAL(APP.IN)\n")
    outcome: list[int] = []

    def attacker() -> None:
        try:
            connect(qmgr, password="guess")
        except mqlite.MQMIError as error:
            outcome.append(error.reason)

    thread = threading.Thread(target=attacker, daemon=True)
    thread.start()
    wait_until(lambda: "AMQ5534E" in error_log(qmgr), "the refusal is logged, its delay begun")
    with connect(qmgr) as qm:
        mqlite.Queue(qm, "APP.IN").put(b"served meanwhile")
        assert mqlite.Queue(qm, "APP.IN").get() == b"served meanwhile"
    assert thread.is_alive() and not outcome  # still waiting out its FAILDLAY


def test_authinfo_objects_and_refresh(qmgr: QMgr, run_cli: RunCli) -> None:
    shown = mqsc(run_cli, qmgr, "DISPLAY AUTHINFO(SYSTEM.DEFAULT.AUTHINFO.IDPWOS) ALL\nDISPLAY QMGR CONNAUTH\n")
    for item in ("AUTHTYPE(IDPWOS)", "CHCKCLNT(REQUIRED)", "CHCKLOCL(OPTIONAL)", "ADOPTCTX(YES)", "FAILDLAY(1)",
                 "CONNAUTH(SYSTEM.DEFAULT.AUTHINFO.IDPWOS)"):
        assert item in shown, item
    # A new AUTHINFO with CHCKCLNT(OPTIONAL) takes effect at REFRESH SECURITY, not before.
    mqsc(run_cli, qmgr, "DEFINE AUTHINFO(USE.MCAUSER) AUTHTYPE(IDPWOS) CHCKCLNT(OPTIONAL)\n"
                        "ALTER QMGR CONNAUTH(USE.MCAUSER)\n"
                        "ALTER CHANNEL(DEV.APP.SVRCONN) CHLTYPE(SVRCONN) MCAUSER('app')\n")
    assert refused(qmgr, user=None, password=None) == C.MQRC_NOT_AUTHORIZED
    mqsc(run_cli, qmgr, "REFRESH SECURITY TYPE(CONNAUTH)\n")
    with connect(qmgr, user=None, password=None) as qm:  # OPTIONAL: runs as the MCAUSER
        assert qm.get_handle().user == "app"
    assert refused(qmgr, password="wrong") == C.MQRC_NOT_AUTHORIZED  # a password given is checked
    result = run_cli("runmqsc", qmgr.name, input="DELETE AUTHINFO(USE.MCAUSER)\n")
    assert "AMQ8148E: WebSphere MQ object in use." in result.stdout  # the queue manager's CONNAUTH


def test_mqserver_and_the_cli_default_channel(qmgr: QMgr, run_cli: RunCli, mqlite_home: Path) -> None:
    other = add_user(mqlite_home, qmgr.name, Credentials("ops", "ops-pass-1", "mqclient"))
    result = run_cli("put", "-c", qmgr.conn, "-u", other.user, "SYSTEM.DEFAULT.LOCAL.QUEUE",
                     input="x\n", env={"MQLITE_PASSWORD": "not-it"})
    assert "MQRC_NOT_AUTHORIZED (2035)" in result.stderr
    result = run_cli("browse", "SYSTEM.DEFAULT.LOCAL.QUEUE", "-u", other.user,
                     env={"MQSERVER": f"NOT.DEFINED/TCP/127.0.0.1({qmgr.port})", "MQLITE_PASSWORD": other.password})
    assert "MQRC_UNKNOWN_CHANNEL_NAME (2540)" in result.stderr


def test_kaint_is_tcp_keepalive_on_the_connection(mqlite_home: Path) -> None:
    """KAINT(AUTO) with HBINT(300): the queue manager's end of a client connection probes after
    360 idle seconds; KAINT(0): no keepalive."""
    import socket

    from mqlite.server.embedded import embedded

    with embedded("QM1", home=mqlite_home, port=0) as server:
        add_user(mqlite_home, "QM1", APP)
        grant_app(mqlite_home, "QM1")
        host = server.host
        assert host is not None

        def server_socket() -> socket.socket:
            [connection] = [c for c in list(host.connections) if c.instance is not None]
            assert connection.transport is not None
            sock: socket.socket = connection.transport.get_extra_info("socket")
            return sock

        with mqlite.connect("QM1", host="127.0.0.1", port=server.port, **APP.kwargs):
            sock = server_socket()
            assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE) == 1
            assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE) == 360
        with mqlite.connect("QM1") as admin:
            assert admin.mqsc("ALTER CHANNEL(DEV.APP.SVRCONN) CHLTYPE(SVRCONN) KAINT(0)")[0] == 0
        wait_until(lambda: not [c for c in list(host.connections) if c.instance is not None], "the first one is gone")
        with mqlite.connect("QM1", host="127.0.0.1", port=server.port, **APP.kwargs):
            assert server_socket().getsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE) == 0
