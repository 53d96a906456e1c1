"""RESET CHANNEL and RESOLVE CHANNEL on the core alone (issue 15 item 3): what they do to a
channel's sync record and its transmission queue, without sockets (B:R-CHN-4)."""

from __future__ import annotations

from mqlite import cmqc as C
from mqlite.core.network.channels.channel import InDoubt, SyncState
from mqlite.core.network.channels.transfer import receiver_key, sender_key
from mqlite.core.qmgr import QueueManager
from mqlite.core.security.principal import Principal
from mqlite.core.waiters import GetRequest
from mqlite.message import MessageDescriptor
from mqlite.mqsc.commands import execute

ADMIN = Principal("mqm", frozenset({"mqm"}))


def linked() -> QueueManager:
    qm = QueueManager("QM1")
    qm.bootstrap()
    for line in ("DEFINE QLOCAL(QM2) USAGE(XMITQ)",
                 "DEFINE CHANNEL(TO.QM2) CHLTYPE(SDR) CONNAME('127.0.0.1(1)') XMITQ(QM2)",
                 "DEFINE CHANNEL(FROM.QM2) CHLTYPE(RCVR)",
                 "DEFINE QREMOTE(FAR) RNAME(APP.IN) RQMNAME(QM2) XMITQ(QM2)"):
        assert execute(qm, line)[-1].startswith("AMQ8"), line
    return qm


def put_far(qm: QueueManager, *bodies: bytes) -> None:
    conn = qm.connect(ADMIN, "test")
    handle = qm.open(conn, {"ObjectName": "FAR"}, C.MQOO_OUTPUT)
    for body in bodies:
        qm.put(conn, handle.hobj, MessageDescriptor(Persistence=C.MQPER_PERSISTENT), 0, {}, body)
    qm.disconnect(conn, commit=True)


def xmitq_seqs(qm: QueueManager) -> list[int]:
    return [entry.seq for level in qm.queues["QM2"].levels for entry in level.entries if entry.state == 1]


def test_reset_channel_sets_the_next_number_and_is_told_to_the_partner() -> None:
    qm = linked()
    assert execute(qm, "RESET CHANNEL(TO.QM2) SEQNUM(100)") == ["AMQ8023I: WebSphere MQ channel reset."]
    assert qm.transfer.state(sender_key("TO.QM2")) == SyncState(99, None, (), reset=True)
    assert execute(qm, "RESET CHANNEL(FROM.QM2)") == ["AMQ8023I: WebSphere MQ channel reset."]
    assert qm.transfer.state(receiver_key("FROM.QM2")) == SyncState(0, None, (), reset=False)
    # the receiving end takes a sender's reset at the next STATUS
    assert qm.transfer.receiver_status(receiver_key("FROM.QM2"), 99, reset=True).seq == 99
    assert "MQRCCF_SEQ_NUMBER_WRAP_ERROR (3043)" in "".join(execute(qm, "RESET CHANNEL(TO.QM2) SEQNUM(1000000000)"))
    assert "MQRCCF_CHANNEL_TYPE_ERROR" in "".join(execute(qm, "RESET CHANNEL(SYSTEM.DEF.SVRCONN)"))


def test_resolve_commit_removes_the_batch_and_backout_keeps_it() -> None:
    qm = linked()
    put_far(qm, b"a", b"b", b"c")
    first_two = tuple(xmitq_seqs(qm)[:2])
    luwid = b"L" * 16
    key = sender_key("TO.QM2")
    qm.transfer.save(key, SyncState(0).in_doubt(InDoubt(luwid, 2, first_two)))
    assert "MQRCCF_CHANNEL_INDOUBT (4025)" in "".join(execute(qm, "RESET CHANNEL(TO.QM2)"))  # resolve first
    assert execute(qm, "RESOLVE CHANNEL(TO.QM2) ACTION(COMMIT)") == ["AMQ8024I: WebSphere MQ channel resolved."]
    assert len(xmitq_seqs(qm)) == 1  # the partner had the first two: gone from the transmission queue
    assert qm.transfer.state(key) == SyncState(2, luwid)
    conn = qm.connect(ADMIN, "test")
    handle = qm.open(conn, {"ObjectName": "QM2"}, C.MQOO_INPUT_SHARED)
    result = qm.get(conn, handle.hobj, GetRequest(0, None, None, -1, 0))
    assert result.body.endswith(b"c")  # type: ignore[union-attr]
    qm.disconnect(conn, commit=True)


def test_resolve_backout_leaves_the_messages_to_go_again() -> None:
    qm = linked()
    put_far(qm, b"a", b"b")
    key = sender_key("TO.QM2")
    qm.transfer.save(key, SyncState(5, b"P" * 16).in_doubt(InDoubt(b"L" * 16, 7, tuple(xmitq_seqs(qm)))))
    execute(qm, "RESOLVE CHANNEL(TO.QM2) ACTION(BACKOUT)")
    assert len(xmitq_seqs(qm)) == 2 and qm.transfer.state(key) == SyncState(5, b"P" * 16)


def test_resolve_refuses_what_it_cannot_do() -> None:
    qm = linked()
    text = "".join(execute(qm, "RESOLVE CHANNEL(TO.QM2) ACTION(COMMIT)"))
    assert "MQRCCF_INDOUBT_VALUE_ERROR (3053)" in text  # nothing in doubt
    assert "MQRCCF_ACTION_VALUE_ERROR (3091)" in "".join(execute(qm, "RESOLVE CHANNEL(TO.QM2) ACTION(MAYBE)"))
    assert "MQRCCF_CHANNEL_TYPE_ERROR" in "".join(execute(qm, "RESOLVE CHANNEL(FROM.QM2) ACTION(COMMIT)"))
    assert "AMQ8405I" in "".join(execute(qm, "RESOLVE CHANNEL(TO.QM2)"))  # ACTION is required: a syntax error


def test_ping_channel_pauses_the_script_for_the_network_and_goes_on() -> None:
    """PING CHANNEL is checked here (type, state, DATALEN) and handed to whoever runs the script:
    its outcome lands in order, and the script goes on after it (issue 15 item 3)."""
    from mqlite.mqsc.commands import Outcome, PingRequest, Status, run_mqsc

    qm = linked()
    asked: list[PingRequest] = []

    def ping(request: PingRequest) -> Outcome:
        asked.append(request)
        return Outcome(Status.OK, ["AMQ8020I: Ping WebSphere MQ channel complete."])

    result = run_mqsc(qm, "PING CHANNEL(TO.QM2) DATALEN(100)\nDISPLAY QLOCAL(QM2) CURDEPTH\n", ping)
    assert [(r.channel, r.datalen, r.attrs["CONNAME"]) for r in asked] == [("TO.QM2", 100, "127.0.0.1(1)")]
    text = "\n".join(result.lines)
    assert text.index("AMQ8020I") < text.index("CURDEPTH(0)") and result.exit_code == 0
    refused = run_mqsc(qm, "PING CHANNEL(FROM.QM2)\nPING CHANNEL(TO.QM2) DATALEN(8)\nPING CHANNEL(NONE)\n", ping)
    text = "\n".join(refused.lines)
    assert "MQRCCF_CHANNEL_TYPE_ERROR (3034)" in text and "MQRCCF_PING_DATA_COUNT_ERROR (3031)" in text
    assert "AMQ8147E: WebSphere MQ object NONE not found." in text and len(asked) == 1 and refused.exit_code == 10
    alone = run_mqsc(qm, "PING CHANNEL(TO.QM2)\n")  # no channel agents in this process
    assert "(reason 3168)" in "\n".join(alone.lines) and alone.exit_code == 10


def test_delete_channel_takes_its_sync_records_but_not_a_batch_in_doubt() -> None:
    """DELETE CHANNEL: a channel defined again under the name starts at sequence number 0, as
    IBM's; while a batch is in doubt it is refused (4025) and nothing changes."""
    qm = linked()
    put_far(qm, b"a")
    key = sender_key("TO.QM2")
    qm.transfer.save(key, SyncState(0).in_doubt(InDoubt(b"L" * 16, 1, tuple(xmitq_seqs(qm)))))
    assert "MQRCCF_CHANNEL_INDOUBT (4025)" in "".join(execute(qm, "DELETE CHANNEL(TO.QM2)"))
    assert "TO.QM2" in qm.channels
    execute(qm, "RESOLVE CHANNEL(TO.QM2) ACTION(BACKOUT)")
    qm.transfer.save(receiver_key("TO.QM2"), SyncState(9, b"R" * 16))
    assert qm.transfer.state(key) == SyncState(0)
    assert execute(qm, "DELETE CHANNEL(TO.QM2)") == ["AMQ8015I: WebSphere MQ channel deleted."]
    assert key not in qm.transfer.sync and receiver_key("TO.QM2") not in qm.transfer.sync
    assert execute(qm, "DEFINE CHANNEL(TO.QM2) CHLTYPE(SDR) CONNAME('h(1)') XMITQ(QM2)")[-1].startswith("AMQ8014I")
    assert qm.transfer.state(key) == SyncState()
