"""Queue managers linked by message channels (issue 15): a sender on QM1 moves what lands on its
transmission queue to a receiver on QM2, over TCP on QM2's one port, with assured delivery
(B:R-CHN-1, B:R-CHN-4, B:R-CHN-5). Real queue manager processes on loopback."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import mqlite.client as mqlite
from helpers.mqsc import depth, mqsc
from helpers.qmgrs import QMgr
from helpers.waiting import wait_until
from mqlite import cmqc as C
from mqlite import paths
from mqlite.protocol import dlh

RunCli = Callable[..., Any]




def link(run_cli: RunCli, qm1: QMgr, qm2: QMgr, **sender: Any) -> None:
    """QM1 -> QM2: transmission queue QM2 on QM1, sender QM1.TO.QM2, receiver of that name on QM2,
    a remote queue definition on QM1 for QM2's APP.IN."""
    extra = " ".join(f"{k}({v})" for k, v in sender.items())
    mqsc(run_cli, qm1, f"DEFINE QLOCAL(QM2) USAGE(XMITQ)\n"
                       f"DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) CONNAME('127.0.0.1({qm2.port})') XMITQ(QM2) {extra}\n"
                       f"DEFINE QREMOTE(TO.APP.IN) RNAME(APP.IN) RQMNAME({qm2.name}) XMITQ(QM2)\n")
    mqsc(run_cli, qm2, "DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(RCVR)\nDEFINE QLOCAL(APP.IN)\n"
                       # secure by default: the partner must be named (its channel runs as QM2 itself)
                       "SET CHLAUTH(QM1.TO.QM2) TYPE(QMGRMAP) QMNAME(QM1) USERSRC(CHANNEL)\n")




def test_a_message_crosses_a_channel_exactly_once(qmgr_factory: Callable[..., QMgr], run_cli: RunCli) -> None:
    qm1, qm2 = qmgr_factory("QM1"), qmgr_factory("QM2")
    link(run_cli, qm1, qm2)
    with mqlite.connect("QM1") as q1:
        queue = mqlite.Queue(q1, "TO.APP.IN")
        for i in range(20):
            md = mqlite.MD(Persistence=C.MQPER_PERSISTENT if i % 2 else C.MQPER_NOT_PERSISTENT)
            queue.put(b"message %d" % i, md)
    # The sender starts by itself when its transmission queue has messages (a triggered channel).
    wait_until(lambda: depth(run_cli, qm2, "APP.IN") == 20, "all 20 messages on QM2", timeout=60)
    assert depth(run_cli, qm1, "QM2") == 0
    with mqlite.connect("QM2") as q2:
        got = [mqlite.Queue(q2, "APP.IN").get() for _ in range(20)]
    assert got == [b"message %d" % i for i in range(20)]  # in order (B:R-CHN-4)
    shown = mqsc(run_cli, qm1, "DISPLAY CHSTATUS(QM1.TO.QM2) ALL\n")
    for item in ("STATUS(RUNNING)", "MSGS(20)", "CURSEQNO(20)", "LSTSEQNO(20)", "INDOUBT(NO)", "XMITQ(QM2)",
                 f"RQMNAME({qm2.name})"):
        assert item in shown, (item, shown)
    received = mqsc(run_cli, qm2, "DISPLAY CHSTATUS(QM1.TO.QM2) ALL\n")
    assert "CHLTYPE(RCVR)" in received and "MSGS(20)" in received and "RQMNAME(QM1)" in received


def test_the_cli_puts_to_a_queue_of_another_queue_manager(qmgr_factory: Callable[..., QMgr],
                                                          run_cli: RunCli) -> None:
    """``mqlite put -t QMGR`` names the target queue manager (amqsput's TargetQMgrName), and a
    queue-manager alias on QM1 leads to QM3 through QM2's channel (B:R-CHN-3)."""
    qm1, qm2 = qmgr_factory("QM1"), qmgr_factory("QM2")
    link(run_cli, qm1, qm2)
    put = run_cli("put", "-m", "QM1", "APP.IN", "-t", "QM2", "--persistent", input="named\nby qmgr\n")
    assert put.returncode == 0, put.stderr
    wait_until(lambda: depth(run_cli, qm2, "APP.IN") == 2, "both across", timeout=60)
    got = run_cli("get", "-m", "QM2", "APP.IN", "-w", "0")
    assert got.stdout.splitlines() == ["named", "by qmgr"]
    refused = run_cli("put", "-m", "QM1", "APP.IN", "-t", "NOWHERE", input="x\n")
    assert "MQRC_UNKNOWN_REMOTE_Q_MGR (2087)" in refused.stdout + refused.stderr


def test_an_unknown_destination_goes_to_the_dead_letter_queue(qmgr_factory: Callable[..., QMgr],
                                                              run_cli: RunCli) -> None:
    qm1, qm2 = qmgr_factory("QM1"), qmgr_factory("QM2")
    link(run_cli, qm1, qm2)
    mqsc(run_cli, qm1, f"DEFINE QREMOTE(TO.NOWHERE) RNAME(NO.SUCH.Q) RQMNAME({qm2.name}) XMITQ(QM2)\n")
    mqsc(run_cli, qm2, "DEFINE QLOCAL(DLQ)\nALTER QMGR DEADQ(DLQ)\n")
    with mqlite.connect("QM1") as q1:
        mqlite.Queue(q1, "TO.NOWHERE").put(b"lost?", mqlite.MD(Persistence=C.MQPER_PERSISTENT))
        mqlite.Queue(q1, "TO.APP.IN").put(b"after it", mqlite.MD(Persistence=C.MQPER_PERSISTENT))
    wait_until(lambda: depth(run_cli, qm2, "APP.IN") == 1, "the good one arrives", timeout=60)
    assert depth(run_cli, qm2, "DLQ") == 1  # the channel kept running
    with mqlite.connect("QM2") as q2:
        header, body = dlh.decode(mqlite.Queue(q2, "DLQ").get())
    assert (header.reason, header.dest_q_name, body) == (C.MQRC_UNKNOWN_OBJECT_NAME, "NO.SUCH.Q", b"lost?")


def test_a_sender_without_a_partner_retries(qmgr_factory: Callable[..., QMgr], run_cli: RunCli,
                                            refused_port: int) -> None:
    qm1 = qmgr_factory("QM1")
    mqsc(run_cli, qm1, f"DEFINE QLOCAL(QM2) USAGE(XMITQ)\n"
                       f"DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) CONNAME('127.0.0.1({refused_port})') XMITQ(QM2) "
                       "SHORTRTY(3) SHORTTMR(1)\n"
                       "START CHANNEL(QM1.TO.QM2)\n")
    wait_until(lambda: "STATUS(RETRYING)" in mqsc(run_cli, qm1, "DISPLAY CHSTATUS(QM1.TO.QM2)\n", ok=False),
               "RETRYING", timeout=60)
    log = paths.error_log_path(qm1.name).read_text()
    assert "Channel 'QM1.TO.QM2' ended abnormally" in log
    mqsc(run_cli, qm1, "STOP CHANNEL(QM1.TO.QM2)\n")
    assert "STATUS(STOPPED)" in mqsc(run_cli, qm1, "DISPLAY CHSTATUS(QM1.TO.QM2)\n", ok=False)


def test_an_unknown_receiver_refuses_the_sender(qmgr_factory: Callable[..., QMgr], run_cli: RunCli) -> None:
    qm1, qm2 = qmgr_factory("QM1"), qmgr_factory("QM2")
    mqsc(run_cli, qm1, f"DEFINE QLOCAL(QM2) USAGE(XMITQ)\n"
                       f"DEFINE CHANNEL(NOT.THERE) CHLTYPE(SDR) CONNAME('127.0.0.1({qm2.port})') XMITQ(QM2)\n"
                       "START CHANNEL(NOT.THERE)\n")
    wait_until(lambda: "AMQ9520E" in paths.error_log_path(qm2.name).read_text(), "QM2 logs the refusal")
    wait_until(lambda: "STATUS(STOPPED)" in mqsc(run_cli, qm1, "DISPLAY CHSTATUS(NOT.THERE)\n", ok=False),
               "the sender stops: retrying cannot help", timeout=60)
    with mqlite.connect("QM2") as q2:  # and QM2 serves on
        q2.inquire(C.MQCA_Q_MGR_NAME)
    # A sender whose partner of that name is a sender too: IBM's AMQ9547E, and the channel stops.
    mqsc(run_cli, qm2, "DEFINE QLOCAL(XQ) USAGE(XMITQ)\n"
                       "DEFINE CHANNEL(NOT.THERE) CHLTYPE(SDR) CONNAME('127.0.0.1(1)') XMITQ(XQ)\n")
    mqsc(run_cli, qm1, "START CHANNEL(NOT.THERE)\n")
    wait_until(lambda: "AMQ9547E" in paths.error_log_path(qm2.name).read_text(), "QM2 logs the type mismatch")


def test_sequence_numbers_must_agree_and_reset_channel_makes_them(qmgr_factory: Callable[..., QMgr],
                                                                  run_cli: RunCli) -> None:
    """A receiver reset on its own is AMQ9526E at the next start (the channel stops); RESET CHANNEL
    on the sender is told to the receiver, and both go on from the new number."""
    qm1, qm2 = qmgr_factory("QM1"), qmgr_factory("QM2")
    link(run_cli, qm1, qm2)
    run_cli("put", "-m", "QM1", "TO.APP.IN", "--persistent", input="one\ntwo\n")
    wait_until(lambda: depth(run_cli, qm2, "APP.IN") == 2, "two across", timeout=60)
    mqsc(run_cli, qm1, "STOP CHANNEL(QM1.TO.QM2)\n")
    wait_until(lambda: "RUNNING" not in mqsc(run_cli, qm2, "DISPLAY CHSTATUS(*)\n", ok=False), "the receiver ends")
    assert "AMQ8023I" in mqsc(run_cli, qm2, "RESET CHANNEL(QM1.TO.QM2) SEQNUM(50)\n")
    mqsc(run_cli, qm1, "START CHANNEL(QM1.TO.QM2)\n")
    wait_until(lambda: "STATUS(STOPPED)" in mqsc(run_cli, qm1, "DISPLAY CHSTATUS(QM1.TO.QM2)\n", ok=False),
               "the sender stops on the mismatch", timeout=60)
    assert "AMQ9526E" in paths.error_log_path(qm1.name).read_text()
    assert "AMQ8023I" in mqsc(run_cli, qm1, "RESET CHANNEL(QM1.TO.QM2) SEQNUM(50)\n")
    run_cli("put", "-m", "QM1", "TO.APP.IN", "--persistent", input="three\n")
    mqsc(run_cli, qm1, "START CHANNEL(QM1.TO.QM2)\n")
    wait_until(lambda: depth(run_cli, qm2, "APP.IN") == 3, "the third across", timeout=60)
    assert "CURSEQNO(50)" in mqsc(run_cli, qm1, "DISPLAY CHSTATUS(QM1.TO.QM2) CURSEQNO\n")
    assert "LSTSEQNO(50)" in mqsc(run_cli, qm2, "DISPLAY CHSTATUS(QM1.TO.QM2) LSTSEQNO\n")
    refused = mqsc(run_cli, qm1, "RESET CHANNEL(QM1.TO.QM2)\n", ok=False)
    assert "MQRCCF_CHANNEL_IN_USE (4031)" in refused  # not while it runs


def test_a_partner_that_sends_garbage_is_cut_off_and_nothing_is_lost(qmgr_factory: Callable[..., QMgr],
                                                                     run_cli: RunCli) -> None:
    """A hostile 'sender': a proper HELLO, then a MSG out of sequence, then bytes that are no frame:
    each is refused with an AMQ9526E/AMQ9504E log line, QM2 keeps serving and keeps nothing."""
    import socket

    from mqlite.protocol import channel as wire

    qm1, qm2 = qmgr_factory("QM1"), qmgr_factory("QM2")
    link(run_cli, qm1, qm2)
    assert qm2.port is not None
    for bad in ("sequence", "garbage"):
        sender = wire.ChannelConnection(wire.Role.SENDER)
        with socket.create_connection(("127.0.0.1", qm2.port), timeout=10) as sock:
            sock.sendall(sender.send(wire.Hello({"channel": "QM1.TO.QM2", "type": "SDR", "qmgr": "QM1"})))
            data = sock.recv(65536)
            sender.receive_data(data)
            assert isinstance(sender.next_event(), wire.Accept)
            sock.sendall(sender.send(wire.Status(0, None)))
            sender.receive_data(sock.recv(65536))
            assert isinstance(sender.next_event(), wire.StatusReply)
            if bad == "sequence":  # the receiver expects 1
                sock.sendall(sender.send(wire.Msg(7, True, [], {}, b"out of order")))
            else:
                sock.sendall(b"\x00\x00\x00\x05\xc1\xc1\xc1\xc1\xc1")
            rest = b""
            while chunk := sock.recv(65536):
                rest += chunk
    log = paths.error_log_path(qm2.name).read_text()
    assert "AMQ9526E" in log and "AMQ9504E" in log
    assert depth(run_cli, qm2, "APP.IN") == 0
    run_cli("put", "-m", "QM1", "TO.APP.IN", "--persistent", input="the real one\n")
    wait_until(lambda: depth(run_cli, qm2, "APP.IN") == 1, "the real sender still gets through", timeout=60)


def test_who_may_be_a_receivers_partner(qmgr_factory: Callable[..., QMgr], run_cli: RunCli,
                                        mqlite_home: Any) -> None:
    """Secure by default (issue 15 item 5): a receiver with a blank MCAUSER admits only a partner a
    CHLAUTH mapping names; QMGRMAP USERSRC(NOACCESS) refuses one; MCAUSER makes its puts run as
    an ordinary user, whose authority then decides (a refused put goes to the dead-letter queue)."""
    from helpers.credentials import Credentials, add_user

    qm1, qm2 = qmgr_factory("QM1"), qmgr_factory("QM2")
    link(run_cli, qm1, qm2)
    mqsc(run_cli, qm2, "SET CHLAUTH(QM1.TO.QM2) TYPE(QMGRMAP) QMNAME(QM1) ACTION(REMOVE)\n")
    run_cli("put", "-m", "QM1", "TO.APP.IN", "--persistent", input="first\n")
    wait_until(lambda: "AMQ9777E" in paths.error_log_path(qm2.name).read_text(), "QM2 refuses the unnamed partner")
    wait_until(lambda: "2035" in paths.error_log_path(qm1.name).read_text(), "the sender hears why")
    mqsc(run_cli, qm2, "SET CHLAUTH(QM1.TO.QM2) TYPE(QMGRMAP) QMNAME(QM1) USERSRC(NOACCESS)\n")
    mqsc(run_cli, qm1, "STOP CHANNEL(QM1.TO.QM2)\nSTART CHANNEL(QM1.TO.QM2)\n")
    wait_until(lambda: paths.error_log_path(qm2.name).read_text().count("AMQ9777E") >= 2, "NOACCESS refuses too")
    assert depth(run_cli, qm2, "APP.IN") == 0
    # An MCAUSER with put authority on APP.* only: APP.IN gets its message, OTHER.Q's goes to the DLQ.
    add_user(mqlite_home, "QM2", Credentials("qm1mca", "unused-pass-1", "mqpartner"))
    mqsc(run_cli, qm2, "SET CHLAUTH(QM1.TO.QM2) TYPE(QMGRMAP) QMNAME(QM1) ACTION(REMOVE)\n"
                       "ALTER CHANNEL(QM1.TO.QM2) CHLTYPE(RCVR) MCAUSER('qm1mca')\n"
                       "SET AUTHREC OBJTYPE(QMGR) GROUP('mqpartner') AUTHADD(CONNECT)\n"
                       "SET AUTHREC PROFILE('APP.**') OBJTYPE(QUEUE) GROUP('mqpartner') AUTHADD(PUT, SETALL)\n"
                       "DEFINE QLOCAL(OTHER.Q)\nDEFINE QLOCAL(DLQ)\nALTER QMGR DEADQ(DLQ)\n"
                       "SET AUTHREC PROFILE('DLQ') OBJTYPE(QUEUE) GROUP('mqpartner') AUTHADD(PUT, SETALL)\n")
    mqsc(run_cli, qm1, f"DEFINE QREMOTE(TO.OTHER) RNAME(OTHER.Q) RQMNAME({qm2.name}) XMITQ(QM2)\n"
                       "STOP CHANNEL(QM1.TO.QM2)\nSTART CHANNEL(QM1.TO.QM2)\n")
    run_cli("put", "-m", "QM1", "TO.OTHER", "--persistent", input="not allowed there\n")
    wait_until(lambda: depth(run_cli, qm2, "APP.IN") == 1 and depth(run_cli, qm2, "DLQ") == 1,
               "APP.IN gets its message, the other one is dead-lettered", timeout=60)
    with mqlite.connect("QM2") as q2:
        header, body = dlh.decode(mqlite.Queue(q2, "DLQ").get())
        assert (header.reason, body) == (C.MQRC_NOT_AUTHORIZED, b"not allowed there")
        md = mqlite.MD()
        mqlite.Queue(q2, "APP.IN").get(None, md)
        assert md.UserIdentifier.strip() != b"qm1mca"  # the message keeps its own context (passed by the MCA)
    assert depth(run_cli, qm2, "OTHER.Q") == 0


def test_putaut_ctx_puts_with_the_messages_own_user(qmgr_factory: Callable[..., QMgr], run_cli: RunCli,
                                                   mqlite_home: Any) -> None:
    """PUTAUT(CTX) (B:R-DSEC / issue 15 item 5): each message is put with its own UserIdentifier's
    authority (the MCAUSER needs +altusr); a user without +put there sends it to the DLQ (2035)."""
    from helpers.credentials import Credentials, add_user

    qm1, qm2 = qmgr_factory("QM1"), qmgr_factory("QM2")
    link(run_cli, qm1, qm2)
    add_user(mqlite_home, "QM2", Credentials("qm1mca", "unused-pass-1", "mqpartner"))
    add_user(mqlite_home, "QM2", Credentials("alice", "unused-pass-2", "payers"))
    mqsc(run_cli, qm2, "ALTER CHANNEL(QM1.TO.QM2) CHLTYPE(RCVR) MCAUSER('qm1mca') PUTAUT(CTX)\n"
                       "DEFINE QLOCAL(DLQ)\nALTER QMGR DEADQ(DLQ)\n"
                       "SET AUTHREC OBJTYPE(QMGR) GROUP('mqpartner') AUTHADD(CONNECT, ALTUSR, SETALL)\n"
                       "SET AUTHREC PROFILE('**') OBJTYPE(QUEUE) GROUP('mqpartner') AUTHADD(PUT, SETALL)\n"
                       # every check of the put is the message's user's (IBM's alternate user authority)
                       "SET AUTHREC PROFILE('APP.IN') OBJTYPE(QUEUE) GROUP('payers') AUTHADD(PUT, SETALL)\n")
    with mqlite.connect("QM1") as q1:
        queue = mqlite.Queue(q1, "TO.APP.IN", C.MQOO_OUTPUT | C.MQOO_SET_IDENTITY_CONTEXT)
        for user in (b"alice", b"mallory"):
            queue.put(b"from " + user, mqlite.MD(UserIdentifier=user, Persistence=C.MQPER_PERSISTENT),
                      mqlite.PMO(Options=C.MQPMO_SET_IDENTITY_CONTEXT))
    wait_until(lambda: depth(run_cli, qm2, "APP.IN") == 1 and depth(run_cli, qm2, "DLQ") == 1,
               "alice's arrives, mallory's is dead-lettered", timeout=60)
    with mqlite.connect("QM2") as q2:
        md = mqlite.MD()
        assert mqlite.Queue(q2, "APP.IN").get(None, md) == b"from alice"
        assert md.UserIdentifier.strip() == b"alice"  # the context came through
        header, body = dlh.decode(mqlite.Queue(q2, "DLQ").get())
        assert (header.reason, body) == (C.MQRC_NOT_AUTHORIZED, b"from mallory")


@pytest.mark.parametrize("callback", [False, True])
def test_a_requester_starts_its_server(qmgr_factory: Callable[..., QMgr], run_cli: RunCli, callback: bool) -> None:
    """RQSTR and SVR (issue 15 item 2): START CHANNEL on QM2's requester asks QM1's server to send.
    A server without CONNAME sends on the requester's connection; one with a CONNAME ends it and
    calls back, connecting to the requester as a sender (IBM's callback)."""
    qm1, qm2 = qmgr_factory("QM1"), qmgr_factory("QM2")
    conname = f" CONNAME('127.0.0.1({qm2.port})')" if callback else ""
    mqsc(run_cli, qm1, "DEFINE QLOCAL(QM2) USAGE(XMITQ)\n"
                       f"DEFINE CHANNEL(QM1.SVR) CHLTYPE(SVR) XMITQ(QM2){conname}\n"
                       "DEFINE QREMOTE(TO.APP.IN) RNAME(APP.IN) RQMNAME(QM2) XMITQ(QM2)\n"
                       "SET CHLAUTH(QM1.SVR) TYPE(QMGRMAP) QMNAME(QM2) USERSRC(CHANNEL)\n")
    mqsc(run_cli, qm2, f"DEFINE CHANNEL(QM1.SVR) CHLTYPE(RQSTR) CONNAME('127.0.0.1({qm1.port})')\n"
                       "DEFINE QLOCAL(APP.IN)\n"
                       "SET CHLAUTH(QM1.SVR) TYPE(QMGRMAP) QMNAME(QM1) USERSRC(CHANNEL)\n")
    if not callback:  # a server without CONNAME started by hand waits for its requester
        mqsc(run_cli, qm1, "START CHANNEL(QM1.SVR)\n")
        assert "AMQ8420I" in mqsc(run_cli, qm1, "DISPLAY CHSTATUS(QM1.SVR)\n", ok=False)
    assert "AMQ8018I" in mqsc(run_cli, qm2, "START CHANNEL(QM1.SVR)\n")
    # Nothing waits on QM1's transmission queue yet: the server runs because it was asked to.
    wait_until(lambda: "STATUS(RUNNING)" in mqsc(run_cli, qm2, "DISPLAY CHSTATUS(QM1.SVR)\n", ok=False),
               "the requester's channel runs", timeout=60)
    assert "CHLTYPE(RQSTR)" in mqsc(run_cli, qm2, "DISPLAY CHSTATUS(QM1.SVR)\n")
    run_cli("put", "-m", "QM1", "TO.APP.IN", "--persistent", input="requested\nand sent\n")
    wait_until(lambda: depth(run_cli, qm2, "APP.IN") == 2, "the server sends to the requester", timeout=60)
    assert ("calls back its requester" in paths.error_log_path(qm1.name).read_text()) is callback


def test_a_message_with_a_malformed_descriptor_ends_the_channel_not_the_queue_manager(
        qmgr_factory: Callable[..., QMgr], run_cli: RunCli) -> None:
    import socket

    from mqlite.protocol import channel as wire

    qm1, qm2 = qmgr_factory("QM1"), qmgr_factory("QM2")
    link(run_cli, qm1, qm2)
    assert qm2.port is not None
    sender = wire.ChannelConnection(wire.Role.SENDER)
    with socket.create_connection(("127.0.0.1", qm2.port), timeout=10) as sock:
        for event, answer in ((wire.Hello({"channel": "QM1.TO.QM2", "type": "SDR", "qmgr": "QM1"}), wire.Accept),
                              (wire.Status(0, None), wire.StatusReply)):
            sock.sendall(sender.send(event))
            sender.receive_data(sock.recv(65536))
            assert isinstance(sender.next_event(), answer)
        sock.sendall(sender.send(wire.Msg(1, True, ["not", "an", "MQMD"], {}, b"x")))
        while sock.recv(65536):
            pass
    assert "AMQ9504E" in paths.error_log_path(qm2.name).read_text()
    run_cli("put", "-m", "QM1", "TO.APP.IN", "--persistent", input="still served\n")
    wait_until(lambda: depth(run_cli, qm2, "APP.IN") == 1, "the real sender gets through", timeout=60)


def test_ping_channel_reaches_the_partner_and_checks_what_a_start_checks(
        qmgr_factory: Callable[..., QMgr], run_cli: RunCli) -> None:
    """PING CHANNEL (issue 15 item 3): HELLO, ACCEPT and the data echoed, nothing else: no sequence
    number moves and no message. IBM's refusals: not a sending channel (3034), running (4031),
    DATALEN out of range (3031), no partner listening (4009), a partner without the channel (2540)."""
    qm1, qm2 = qmgr_factory("QM1"), qmgr_factory("QM2")
    link(run_cli, qm1, qm2)
    mqsc(run_cli, qm1, "STOP CHANNEL(QM1.TO.QM2)\n")  # at rest, and not triggered by what follows
    run_cli("put", "-m", "QM1", "TO.APP.IN", input="waits\n")
    shown = mqsc(run_cli, qm1, "PING CHANNEL(QM1.TO.QM2)\nPING CHANNEL(QM1.TO.QM2) DATALEN(32768)\n")
    assert shown.count("AMQ8020I: Ping WebSphere MQ channel complete.") == 2
    assert depth(run_cli, qm1, "QM2") == 1 and depth(run_cli, qm2, "APP.IN") == 0  # the message did not move
    refused = mqsc(run_cli, qm1, "PING CHANNEL(QM1.TO.QM2) DATALEN(15)\n", ok=False)
    assert "MQRCCF_PING_DATA_COUNT_ERROR (3031)" in refused
    assert "MQRCCF_CHANNEL_TYPE_ERROR (3034)" in mqsc(run_cli, qm2, "PING CHANNEL(QM1.TO.QM2)\n", ok=False)
    # their own empty transmission queue: on QM2, with a message waiting, they would be triggered
    mqsc(run_cli, qm1, "DEFINE QLOCAL(EMPTY.XMITQ) USAGE(XMITQ)\n"
                       "DEFINE CHANNEL(NOBODY) CHLTYPE(SDR) CONNAME('127.0.0.1(1)') XMITQ(EMPTY.XMITQ)\n"
                       f"DEFINE CHANNEL(UNKNOWN.THERE) CHLTYPE(SDR) CONNAME('127.0.0.1({qm2.port})') "
                       "XMITQ(EMPTY.XMITQ)\n")
    assert "MQRCCF_ALLOCATE_FAILED (4009)" in mqsc(run_cli, qm1, "PING CHANNEL(NOBODY)\n", ok=False)
    assert "(2540)" in mqsc(run_cli, qm1, "PING CHANNEL(UNKNOWN.THERE)\n", ok=False)
    mqsc(run_cli, qm1, "START CHANNEL(QM1.TO.QM2)\n")
    wait_until(lambda: depth(run_cli, qm2, "APP.IN") == 1, "the message crossed", timeout=60)
    assert "MQRCCF_CHANNEL_IN_USE (4031)" in mqsc(run_cli, qm1, "PING CHANNEL(QM1.TO.QM2)\n", ok=False)
    assert "LSTSEQNO(1)" in mqsc(run_cli, qm1, "DISPLAY CHSTATUS(QM1.TO.QM2) LSTSEQNO\n")  # pings took no number
