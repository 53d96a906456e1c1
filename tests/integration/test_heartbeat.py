"""Heartbeats on a client channel (SVRCONN HBINT, issue 14 item 2): while a client waits in
MQGET the queue manager asks it every HBINT seconds whether it is still there; a live client
answers and its wait goes on, a client that does not answer within IBM's receive timeout (twice
HBINT below 60 s) is taken for gone: its connection ends with AMQ9271E and its waiting get is
cancelled, so a message put afterwards stays on the queue."""

from __future__ import annotations

import socket
import time
from collections.abc import Callable
from typing import Any

import pytest

import mqlite.client as mqlite
from helpers.credentials import APP
from helpers.qmgrs import QMgr
from mqlite import cmqc as C
from mqlite import paths
from mqlite.protocol import native

RunCli = Callable[..., Any]
HBINT = 1


@pytest.fixture
def beating(qmgr: QMgr, run_cli: RunCli) -> QMgr:
    done = run_cli("runmqsc", qmgr.name, input=f"ALTER CHANNEL(DEV.APP.SVRCONN) CHLTYPE(SVRCONN) HBINT({HBINT})\n"
                                                "DEFINE QLOCAL(HB.Q)\n")
    assert done.returncode == 0, done.stdout
    return qmgr


def test_a_live_client_answers_and_its_wait_goes_on(beating: QMgr) -> None:
    cd = mqlite.CD(ChannelName=b"DEV.APP.SVRCONN", ConnectionName=f"127.0.0.1({beating.port})".encode(),
                   HeartbeatInterval=HBINT)
    csp = mqlite.CSP(CSPUserId=APP.user.encode(), CSPPassword=APP.password.encode())
    qm = mqlite.QueueManager(None)
    qm.connect_with_options(beating.name, cd=cd, csp=csp)
    try:
        queue = mqlite.Queue(qm, "HB.Q", C.MQOO_INPUT_SHARED)
        gmo = mqlite.GMO(Options=C.MQGMO_WAIT, WaitInterval=5_000)  # past HBINT + its 2 s receive timeout
        with pytest.raises(mqlite.MQMIError) as error:
            queue.get(None, mqlite.MD(), gmo)
        assert error.value.reason == C.MQRC_NO_MSG_AVAILABLE  # the wait ran out, the connection did not
        qm.inquire(C.MQCA_Q_MGR_NAME)  # and it still serves
    finally:
        qm.disconnect()
    assert "AMQ9271E" not in paths.error_log_path(beating.name).read_text()


def _request(sock: socket.socket, codec: native.NativeConnection, items: list[Any]) -> Any:
    sock.sendall(native.encode_frame(items))
    while True:
        event = codec.next_event()
        if isinstance(event, native.Reply):
            assert event.cc == C.MQCC_OK, event
            return event.result
        if event is native.NEED_DATA:
            data = sock.recv(65536)
            assert data, "closed"
            codec.receive_data(data)


def test_a_client_that_does_not_answer_is_ended_and_its_get_cancelled(beating: QMgr) -> None:
    codec = native.NativeConnection(native.Role.CLIENT)
    sock = socket.create_connection(("127.0.0.1", beating.port), timeout=90)
    try:
        cd = {"ChannelName": "DEV.APP.SVRCONN", "HeartbeatInterval": HBINT}
        _request(sock, codec, [int(native.Op.CONNECT), 1, beating.name, APP.user, APP.password, "mute.py", 1, cd])
        hobj = _request(sock, codec, [int(native.Op.OPEN), 2, {"ObjectName": "HB.Q"}, C.MQOO_INPUT_SHARED])[0]
        began = time.monotonic()
        sock.sendall(native.encode_frame([int(native.Op.GET), 3, hobj, [bytes(24), bytes(24)],
                                          {"Options": C.MQGMO_WAIT, "WaitInterval": -1}, 1024]))
        kinds = []
        while True:  # read, never answer: the heartbeat comes, then the end of the connection
            data = sock.recv(65536)
            if not data:
                break
            codec.receive_data(data)
            while (event := codec.next_event()) is not native.NEED_DATA:
                kinds.append(event.kind if isinstance(event, native.Push) else event)
        ended_after = time.monotonic() - began
    except ConnectionResetError:
        ended_after = time.monotonic() - began
    finally:
        sock.close()
    assert native.Op.PUSH_HEARTBEAT in kinds
    # HBINT of silence, then 2 x HBINT unanswered: never sooner; how much later depends on the
    # machine's load, so the upper bound only says it did end (the socket's timeout is longer)
    assert 2 * HBINT <= ended_after < 60, ended_after
    assert "AMQ9271E: Channel 'DEV.APP.SVRCONN' timed out" in paths.error_log_path(beating.name).read_text()
    # The waiting get went with the connection: a message put now stays on the queue.
    with mqlite.connect(beating.name, "DEV.APP.SVRCONN", f"127.0.0.1({beating.port})", APP.user, APP.password) as qm:
        mqlite.Queue(qm, "HB.Q", C.MQOO_OUTPUT).put(b"for nobody")
        assert mqlite.Queue(qm, "HB.Q", C.MQOO_INPUT_SHARED).get() == b"for nobody"
