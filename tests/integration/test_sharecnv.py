"""Shared conversations (issue 14 item 2, SHARECNV): connections of one client process to the
same channel share one socket, one channel instance, up to the lower of the channel's SHARECNV
and the CD's SharingConversations; each conversation stays its own Hconn with its own identity
and unit of work. A real queue manager, real sockets; the raw-socket tests play a hostile client.
"""

from __future__ import annotations

import re
import socket
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import mqlite.client as mqlite
from helpers.credentials import APP, Credentials, add_user
from helpers.mqsc import mqsc
from helpers.qmgrs import QMgr
from mqlite import cmqc as C
from mqlite.protocol import native

RunCli = Callable[..., Any]
CHANNEL = "DEV.APP.SVRCONN"


def connect(qmgr: QMgr, user: str = APP.user, password: str = APP.password, **cd: Any) -> mqlite.QueueManager:
    if not cd:
        return mqlite.connect(qmgr.name, CHANNEL, f"127.0.0.1({qmgr.port})", user, password)
    qm = mqlite.QueueManager(None)
    qm.connect_with_options(qmgr.name, cd=mqlite.CD(ChannelName=CHANNEL.encode(),
                                                    ConnectionName=f"127.0.0.1({qmgr.port})".encode(), **cd),
                            csp=mqlite.CSP(CSPUserId=user.encode(), CSPPassword=password.encode()))
    return qm


def conversation(qm: mqlite.QueueManager) -> int:
    return int(qm.get_handle().conversation)




def instances(run_cli: RunCli, qmgr: QMgr) -> list[int]:
    """CURSHCNV of each running instance of the channel."""
    shown = str(run_cli("runmqsc", qmgr.name, input=f"DISPLAY CHSTATUS({CHANNEL}) CURSHCNV\n").stdout)
    assert "CURSHCNV" in shown or "AMQ8420I: Channel Status not found." in shown, shown
    return sorted(int(n) for n in re.findall(r"CURSHCNV\((\d+)\)", shown))


def test_connections_of_one_process_share_one_instance(qmgr: QMgr, run_cli: RunCli) -> None:
    mqsc(run_cli, qmgr, "DEFINE QLOCAL(SHARE.Q)\n")
    with connect(qmgr) as first, connect(qmgr) as second:
        assert (conversation(first), conversation(second)) == (0, 1)
        assert first.get_handle().conn_id != second.get_handle().conn_id  # two Hconns
        assert instances(run_cli, qmgr) == [2]
        assert "MAXSHCNV(10)" in mqsc(run_cli, qmgr, f"DISPLAY CHSTATUS({CHANNEL}) MAXSHCNV\n")
        # each its own unit of work: the second does not see the first's uncommitted put
        mqlite.Queue(first, "SHARE.Q").put(b"in a unit of work", None, mqlite.PMO(Options=C.MQPMO_SYNCPOINT))
        with pytest.raises(mqlite.MQMIError) as none:
            mqlite.Queue(second, "SHARE.Q").get()
        assert none.value.reason == C.MQRC_NO_MSG_AVAILABLE
        first.commit()
        assert mqlite.Queue(second, "SHARE.Q").get() == b"in a unit of work"
    assert instances(run_cli, qmgr) == []  # the instance ended with its last conversation


def test_the_lower_limit_of_channel_and_cd_wins(qmgr: QMgr, run_cli: RunCli) -> None:
    mqsc(run_cli, qmgr, f"ALTER CHANNEL({CHANNEL}) CHLTYPE(SVRCONN) SHARECNV(2)\n")
    a, b, c = connect(qmgr), connect(qmgr), connect(qmgr)
    try:
        assert [conversation(q) for q in (a, b, c)] == [0, 1, 0]  # the third needed a socket of its own
        assert instances(run_cli, qmgr) == [1, 2]
    finally:
        for q in (a, b, c):
            q.disconnect()
    one, two = connect(qmgr, SharingConversations=1), connect(qmgr, SharingConversations=1)
    try:  # the client asked for no sharing: SHARECNV(1) in effect, an instance each
        assert [conversation(q) for q in (one, two)] == [0, 0]
        assert instances(run_cli, qmgr) == [1, 1]
    finally:
        one.disconnect()
        two.disconnect()


def test_conversations_sharing_an_instance_count_once_for_maxinstc(qmgr: QMgr, run_cli: RunCli) -> None:
    mqsc(run_cli, qmgr, f"ALTER CHANNEL({CHANNEL}) CHLTYPE(SVRCONN) MAXINSTC(1) SHARECNV(3)\n")
    held = [connect(qmgr) for _ in range(3)]
    try:
        assert instances(run_cli, qmgr) == [3]
        with pytest.raises(mqlite.MQMIError) as refused:  # a fourth needs a second instance
            connect(qmgr)
        assert refused.value.reason == C.MQRC_CHANNEL_NOT_AVAILABLE
    finally:
        for q in held:
            q.disconnect()


def test_each_conversation_has_its_own_identity(qmgr: QMgr, mqlite_home: Path) -> None:
    ops = add_user(mqlite_home, qmgr.name, Credentials("ops", "ops-pass-1", "mqclient"))
    with connect(qmgr) as app, connect(qmgr, ops.user, ops.password) as other:
        assert conversation(other) == 1
        assert (app.get_handle().user, other.get_handle().user) == (APP.user, "ops")
        with pytest.raises(mqlite.MQMIError) as wrong:  # refused on the shared socket: 2035, socket kept
            connect(qmgr, ops.user, "not-the-password")
        assert wrong.value.reason == C.MQRC_NOT_AUTHORIZED
        app.ping()
        other.ping()


def test_a_waiting_get_and_another_conversation_go_on_together(qmgr: QMgr, run_cli: RunCli) -> None:
    """One thread waits in MQGET on one conversation while another thread works on the other:
    whichever reads files the other's frames, and the waiting get receives what the other puts."""
    mqsc(run_cli, qmgr, "DEFINE QLOCAL(SHARE.Q)\nDEFINE QLOCAL(BUSY.Q)\n")
    with connect(qmgr) as waiter, connect(qmgr) as worker:
        assert conversation(worker) == 1
        got: list[bytes] = []

        def wait_for_one() -> None:
            gmo = mqlite.GMO(Options=C.MQGMO_WAIT, WaitInterval=120_000)
            got.append(mqlite.Queue(waiter, "SHARE.Q", C.MQOO_INPUT_SHARED).get(None, mqlite.MD(), gmo))

        thread = threading.Thread(target=wait_for_one)
        thread.start()
        busy = mqlite.Queue(worker, "BUSY.Q", C.MQOO_OUTPUT | C.MQOO_INPUT_SHARED)
        for i in range(200):  # round trips on the shared socket while the get waits
            busy.put(b"%d" % i)
            assert busy.get() == b"%d" % i
        mqlite.Queue(worker, "SHARE.Q").put(b"for the waiting get")
        thread.join(120)
        assert got == [b"for the waiting get"]


def test_the_first_conversation_may_end_before_the_others(qmgr: QMgr, run_cli: RunCli) -> None:
    first, second = connect(qmgr), connect(qmgr)
    first.disconnect()
    second.ping()
    assert instances(run_cli, qmgr) == [1]
    with connect(qmgr) as third:  # joins the same socket under a new number
        assert conversation(third) == 2
        assert instances(run_cli, qmgr) == [2]
    second.disconnect()


def test_stop_channel_ends_every_conversation_of_the_instance(qmgr: QMgr, run_cli: RunCli) -> None:
    first, second = connect(qmgr), connect(qmgr)
    assert "AMQ8019I" in mqsc(run_cli, qmgr, f"STOP CHANNEL({CHANNEL})\n")
    for qm in (first, second):
        with pytest.raises(mqlite.MQMIError) as broken:
            qm.ping()
        assert broken.value.reason == C.MQRC_CONNECTION_BROKEN


# -- a hostile client, on a raw socket ------------------------------------------------------------
class Raw:
    """A client that frames by hand: conversation numbers of its choosing."""

    def __init__(self, qmgr: QMgr) -> None:
        self.qmgr = qmgr
        self.sock = socket.create_connection(("127.0.0.1", qmgr.port), timeout=30)
        self.codec = native.NativeConnection(native.Role.CLIENT)

    def call(self, number: int, op: native.Op, req_id: int, *args: Any) -> tuple[int, native.Reply]:
        self.sock.sendall(native.in_conversation(number, native.encode_request(op, req_id, list(args))))
        while True:
            event = self.codec.next_event()
            if isinstance(event, native.Reply):
                return self.codec.conversation, event
            if event is native.NEED_DATA:
                data = self.sock.recv(65536)
                assert data, "the queue manager closed the connection"
                self.codec.receive_data(data)

    def connect(self, number: int, channel: str = CHANNEL) -> native.Reply:
        answered, reply = self.call(number, native.Op.CONNECT, 1, self.qmgr.name, APP.user, APP.password, "raw", 1,
                                    {"ChannelName": channel})
        assert answered == number  # the reply comes back in the conversation that asked
        return reply


def test_a_hostile_client_cannot_misuse_conversation_numbers(qmgr: QMgr, run_cli: RunCli) -> None:
    mqsc(run_cli, qmgr, "DEFINE CHANNEL(OTHER.SVRCONN) CHLTYPE(SVRCONN)\n")
    raw = Raw(qmgr)
    try:
        assert raw.connect(5).reason == C.MQRC_CHANNEL_NOT_AVAILABLE  # nothing to share yet
        number, reply = raw.call(9, native.Op.PING, 2)
        assert (number, reply.reason) == (9, C.MQRC_HCONN_ERROR)  # a conversation nobody started
        assert raw.connect(0).cc == C.MQCC_OK
        assert raw.connect(5, channel="OTHER.SVRCONN").reason == C.MQRC_CHANNEL_NOT_AVAILABLE
        assert raw.connect(5).cc == C.MQCC_OK
        assert raw.connect(5).reason == C.MQRC_ALREADY_CONNECTED
        assert instances(run_cli, qmgr) == [2]
        for extra in range(6, 14):  # 8 more: SHARECNV(10) in all
            assert raw.connect(extra).cc == C.MQCC_OK
        assert raw.connect(14).reason == C.MQRC_CHANNEL_NOT_AVAILABLE
        assert instances(run_cli, qmgr) == [10]
    finally:
        raw.sock.close()
    with connect(qmgr) as qm:  # and the queue manager serves on
        qm.ping()


def test_a_sharing_frame_to_a_socket_that_shares_nothing(qmgr: QMgr, run_cli: RunCli) -> None:
    mqsc(run_cli, qmgr, f"ALTER CHANNEL({CHANNEL}) CHLTYPE(SVRCONN) SHARECNV(1)\n")
    raw = Raw(qmgr)
    try:
        assert raw.connect(0).cc == C.MQCC_OK
        assert raw.connect(1).reason == C.MQRC_CHANNEL_NOT_AVAILABLE
        assert raw.call(0, native.Op.PING, 3)[1].cc == C.MQCC_OK  # the first conversation is untouched
    finally:
        raw.sock.close()
