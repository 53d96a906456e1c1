"""Core expiry, backout counting, backout requeue (BOTHRESH/BOQNAME) and dead letters (MQDLH).

IBM MQI behaviour: an expired message is never returned to MQGET and is discarded when met; the
Expiry a getter sees is the time left. BOTHRESH/BOQNAME requeue is what IBM's JMS/XMS clients do
on backout; mqlite's queue manager does it itself.
"""

from __future__ import annotations

from typing import Any

import pytest

from mqlite import cmqc as C
from mqlite.core import dead_letter
from mqlite.core.qmgr import GetResult
from mqlite.message import Message, MessageDescriptor
from mqlite.store.tx import DELETE_MESSAGE, PUT_MESSAGE

IO = C.MQOO_OUTPUT | C.MQOO_INPUT_SHARED | C.MQOO_BROWSE | C.MQOO_INQUIRE
SP_GET = C.MQGMO_SYNCPOINT


# -- expiry -----------------------------------------------------------------------------------
def test_returned_expiry_is_the_time_left(mq: Any, q: Any, clock: Any) -> None:
    md = mq.put(q, b"x", Expiry=50)  # 5 seconds, in tenths
    assert md.Expiry == 50
    clock.advance(2.0)
    result = mq.get(q, C.MQGMO_BROWSE_FIRST)
    assert result.message.md.Expiry == 30
    clock.advance(1.5)
    assert mq.get(q).message.md.Expiry == 15


def test_expired_message_is_never_returned_and_is_removed(mq: Any, q: Any, clock: Any) -> None:
    mq.put(q, b"short", Expiry=10)
    mq.put(q, b"long", Expiry=1000)
    clock.advance(1.01)
    assert mq.bodies(q) == [b"long"]
    assert mq.depth("APP.Q") == 0


def test_expired_message_is_skipped_by_browse(mq: Any, q: Any, clock: Any) -> None:
    mq.put(q, b"keep1")
    mq.put(q, b"short", Expiry=5)
    mq.put(q, b"keep2")
    assert mq.get(q, C.MQGMO_BROWSE_FIRST).body == b"keep1"
    clock.advance(1)
    assert mq.get(q, C.MQGMO_BROWSE_NEXT).body == b"keep2"
    assert mq.depth("APP.Q") == 2


def test_expired_message_is_not_found_by_msg_id(mq: Any, q: Any, clock: Any) -> None:
    md = mq.put(q, b"short", Expiry=5)
    clock.advance(1)
    with mq.raises(C.MQRC_NO_MSG_AVAILABLE):
        mq.get(q, msg_id=md.MsgId)
    assert mq.depth("APP.Q") == 0


def test_expired_message_under_browse_cursor_cannot_be_got(mq: Any, q: Any, clock: Any) -> None:
    mq.put(q, b"short", Expiry=5)
    mq.get(q, C.MQGMO_BROWSE_FIRST)
    clock.advance(1)
    with mq.raises(C.MQRC_NO_MSG_AVAILABLE):
        mq.get(q)
    with mq.raises(C.MQRC_NO_MSG_UNDER_CURSOR):
        mq.get(q, C.MQGMO_MSG_UNDER_CURSOR)


def test_expiry_runs_from_the_put_even_under_syncpoint(mq: Any, q: Any, clock: Any) -> None:
    mq.put(q, b"slow commit", pmo=C.MQPMO_SYNCPOINT, Expiry=10)
    clock.advance(2)
    mq.qm.commit(mq.conn)
    with mq.raises(C.MQRC_NO_MSG_AVAILABLE):
        mq.get(q)


def test_a_message_that_expires_while_locked_is_gone_after_backout(mq: Any, q: Any, clock: Any) -> None:
    mq.put(q, b"x", Expiry=10)
    assert mq.get(q, SP_GET).body == b"x"
    clock.advance(2)
    mq.qm.backout(mq.conn)
    with mq.raises(C.MQRC_NO_MSG_AVAILABLE):
        mq.get(q)
    assert mq.depth("APP.Q") == 0


def test_sweep_expired_removes_expired_messages_everywhere(mq: Any, q: Any, clock: Any) -> None:
    mq.define("APP.R")
    r = mq.open("APP.R", IO)
    mq.put(q, b"e1", Expiry=10)
    mq.put(q, b"keep")
    mq.put(r, b"e2", Expiry=10)
    mq.put(r, b"e3", Expiry=20)
    assert mq.qm.sweep_expired(clock.now + 0.5) == 0
    assert mq.qm.sweep_expired(clock.now + 1.5) == 2
    assert (mq.depth("APP.Q"), mq.depth("APP.R")) == (1, 1)
    assert mq.qm.sweep_expired(clock.now + 2.5) == 1
    assert mq.depth("APP.R") == 0


def test_expired_persistent_messages_are_deleted_from_the_store(mq: Any, q: Any, clock: Any) -> None:
    mq.put(q, b"p1", Persistence=C.MQPER_PERSISTENT, Expiry=10)
    mq.put(q, b"p2", Persistence=C.MQPER_PERSISTENT, Expiry=10)
    mq.put(q, b"np", Persistence=C.MQPER_NOT_PERSISTENT, Expiry=10)
    mq.qm.take_effects()
    clock.advance(2)
    with mq.raises(C.MQRC_NO_MSG_AVAILABLE):
        mq.get(q)
    tx = mq.qm.take_effects().tx
    assert tx is not None and tx.runs == [(DELETE_MESSAGE, [("APP.Q", 1), ("APP.Q", 2)])]


def test_sweep_of_expired_persistent_messages_deletes_them_from_the_store(mq: Any, q: Any, clock: Any) -> None:
    mq.put(q, b"p1", Persistence=C.MQPER_PERSISTENT, Expiry=10)
    mq.qm.take_effects()
    assert mq.qm.sweep_expired(clock.now + 2) == 1
    tx = mq.qm.take_effects().tx
    assert tx is not None and tx.runs == [(DELETE_MESSAGE, [("APP.Q", 1)])]


# -- backout requeue --------------------------------------------------------------------------
@pytest.fixture
def bo(mq: Any) -> Any:
    """APP.BO (backout queue) and APP.IN with BOTHRESH(2) BOQNAME(APP.BO)."""
    mq.define("APP.BO")
    mq.define("APP.IN", BOTHRESH=2, BOQNAME="APP.BO")
    handle = mq.open("APP.IN", IO)
    mq.qm.take_effects()
    return handle


def test_backout_threshold_moves_the_message_to_the_backout_queue(mq: Any, bo: Any) -> None:
    md = mq.put(bo, b"poison")
    mq.put(bo, b"next")
    mq.get(bo, SP_GET)
    mq.qm.backout(mq.conn)
    first = mq.get(bo, SP_GET)  # count 1 < 2: still on APP.IN, first in line
    assert (first.body, first.message.md.BackoutCount) == (b"poison", 1)
    mq.qm.backout(mq.conn)  # count 2 == BOTHRESH: requeued
    assert mq.depth("APP.BO") == 1
    assert mq.bodies(bo) == [b"next"]
    boq = mq.open("APP.BO", C.MQOO_INPUT_SHARED)
    moved = mq.get(boq)
    assert (moved.body, moved.message.md.MsgId, moved.message.md.BackoutCount) == (b"poison", md.MsgId, 2)


def test_no_requeue_without_bothresh(mq: Any, q: Any) -> None:
    mq.define("APP.BO")
    mq.qm.alter("QLOCAL", "APP.Q", {"BOQNAME": "APP.BO"})  # BOTHRESH(0): never
    mq.put(q, b"x")
    for _ in range(5):
        mq.get(q, SP_GET)
        mq.qm.backout(mq.conn)
    assert mq.get(q).message.md.BackoutCount == 5
    assert mq.depth("APP.BO") == 0


def test_backout_queue_missing_or_full_sends_the_message_to_the_dead_letter_queue(mq: Any) -> None:
    mq.define("APP.IN", BOTHRESH=1, BOQNAME="NO.SUCH.Q")
    h = mq.open("APP.IN", IO)
    mq.put(h, b"x")
    mq.get(h, SP_GET)
    mq.qm.backout(mq.conn)
    # IBM's JMS/XMS rule: no usable backout queue -> the dead-letter queue, with an MQDLH.
    assert mq.depth("APP.IN") == 0
    dlq = mq.open("SYSTEM.DEAD.LETTER.QUEUE", C.MQOO_INPUT_SHARED)
    header, original = dead_letter.unwrap(mq.get(dlq).message)
    assert (header.reason, header.dest_q_name, original.body) == (C.MQRC_BACKOUT_THRESHOLD_REACHED, "APP.IN", b"x")
    mq.define("APP.FULL", MAXDEPTH=1)
    full = mq.open("APP.FULL", C.MQOO_OUTPUT)
    mq.put(full, b"occupant")
    mq.qm.alter("QLOCAL", "APP.IN", {"BOQNAME": "APP.FULL"})
    mq.qm.alter("QLOCAL", "SYSTEM.DEAD.LETTER.QUEUE", {"PUT": "DISABLED"})
    mq.put(h, b"y")
    mq.get(h, SP_GET)
    mq.qm.backout(mq.conn)
    # Neither the backout queue nor the dead-letter queue can take it: it stays where it was.
    assert (mq.depth("APP.IN"), mq.depth("APP.FULL")) == (1, 1)
    assert mq.get(h).message.md.BackoutCount == 1


def test_persistent_requeue_moves_the_message_in_the_store(mq: Any, bo: Any) -> None:
    mq.qm.alter("QLOCAL", "APP.IN", {"BOTHRESH": 1})
    mq.put(bo, b"p", Persistence=C.MQPER_PERSISTENT)
    mq.qm.take_effects()
    mq.get(bo, SP_GET)
    mq.qm.backout(mq.conn)
    tx = mq.qm.take_effects().tx
    assert tx is not None
    ops = {op: rows for op, rows in tx.runs}
    assert ops[DELETE_MESSAGE] == [("APP.IN", 1)]
    [put] = ops[PUT_MESSAGE]
    assert put[0] == "APP.BO" and put[-1] == b"p"


def test_requeue_to_the_backout_queue_wakes_its_waiter(mq: Any, bo: Any) -> None:
    mq.qm.alter("QLOCAL", "APP.IN", {"BOTHRESH": 1})
    other = mq.connect()
    boq = mq.open("APP.BO", C.MQOO_INPUT_SHARED, conn=other)
    waiter = mq.wait(boq, wait_ms=5000, conn=other)
    mq.put(bo, b"poison")
    mq.get(bo, SP_GET)
    mq.qm.backout(mq.conn)
    [(done, result)] = mq.qm.take_effects().completions
    assert done is waiter and isinstance(result, GetResult) and result.body == b"poison"


# -- dead letters -----------------------------------------------------------------------------
def test_dead_letter_puts_an_mqdlh_wrapped_message_on_the_dlq(mq: Any) -> None:
    original = Message(MessageDescriptor(Format="MQSTR", MsgId=b"M".ljust(24, b"\0"),
                                         Persistence=C.MQPER_NOT_PERSISTENT), b"undeliverable")
    assert mq.qm.dead_letter(original, C.MQRC_Q_FULL, "TARGET.Q") is True
    assert mq.depth("SYSTEM.DEAD.LETTER.QUEUE") == 1
    dlq = mq.open("SYSTEM.DEAD.LETTER.QUEUE", C.MQOO_INPUT_SHARED)
    got = mq.get(dlq).message
    assert got.md.Format == "MQDEAD"
    assert got.md.MsgId == b"M".ljust(24, b"\0")
    header, inner = dead_letter.unwrap(got)
    assert header.reason == C.MQRC_Q_FULL
    assert (header.dest_q_name, header.dest_q_mgr_name) == ("TARGET.Q", "QM1")
    assert header.put_date == "20231114"
    assert inner.body == b"undeliverable"
    assert inner.md.Format == "MQSTR"


def test_dead_letter_names_the_destination_queue_manager(mq: Any) -> None:
    message = Message(MessageDescriptor(), b"x")
    mq.qm.dead_letter(message, C.MQRC_UNKNOWN_OBJECT_NAME, "REMOTE.Q", "QM7")
    dlq = mq.open("SYSTEM.DEAD.LETTER.QUEUE", C.MQOO_INPUT_SHARED)
    header, _ = dead_letter.unwrap(mq.get(dlq).message)
    assert (header.reason, header.dest_q_name, header.dest_q_mgr_name) == (2085, "REMOTE.Q", "QM7")


def test_persistent_dead_letter_reaches_the_store(mq: Any) -> None:
    mq.qm.take_effects()
    mq.qm.dead_letter(Message(MessageDescriptor(Persistence=C.MQPER_PERSISTENT), b"x"), 2053, "T")
    tx = mq.qm.take_effects().tx
    assert tx is not None
    [(op, [row])] = tx.runs
    assert (op, row[0]) == (PUT_MESSAGE, "SYSTEM.DEAD.LETTER.QUEUE")


def test_no_dead_letter_without_a_dlq_or_when_it_is_full(mq: Any) -> None:
    mq.qm.alter("QMGR", "", {"DEADQ": ""})
    assert mq.qm.dead_letter(Message(MessageDescriptor(), b"x"), 2053, "T") is False
    mq.define("SMALL.DLQ", MAXDEPTH=1)
    mq.qm.alter("QMGR", "", {"DEADQ": "SMALL.DLQ"})
    assert mq.qm.dead_letter(Message(MessageDescriptor(), b"1"), 2053, "T") is True
    assert mq.qm.dead_letter(Message(MessageDescriptor(), b"2"), 2053, "T") is False
    assert mq.depth("SMALL.DLQ") == 1


def test_no_dead_letter_when_the_dlq_is_put_inhibited(mq: Any) -> None:
    mq.qm.alter("QLOCAL", "SYSTEM.DEAD.LETTER.QUEUE", {"PUT": "DISABLED"})
    assert mq.qm.dead_letter(Message(MessageDescriptor(), b"x"), 2053, "T") is False
    assert mq.depth("SYSTEM.DEAD.LETTER.QUEUE") == 0
