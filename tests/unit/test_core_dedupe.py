"""The duplicate-MsgId window (core/dedupe.py): committed application MsgIds put again within the
window are accepted and dropped; backed-out ones do not count; generated MsgIds are never checked."""

from __future__ import annotations

from typing import Any

from mqlite import cmqc as C
from mqlite.core.dedupe import DuplicateWindow

ID = b"writer-0001".ljust(24, b"\0")


def test_a_committed_msgid_is_dropped_when_put_again(mq: Any, q: Any, clock: Any) -> None:
    mq.qm.duplicates = DuplicateWindow(60)
    mq.put(q, b"first", MsgId=ID)
    mq.put(q, b"retry", MsgId=ID)
    assert mq.bodies(q) == [b"first"]
    clock.advance(61)
    mq.put(q, b"after the window", MsgId=ID)
    assert mq.bodies(q) == [b"after the window"]


def test_a_backed_out_attempt_does_not_hide_its_retry(mq: Any, q: Any) -> None:
    mq.qm.duplicates = DuplicateWindow(60)
    mq.put(q, b"attempt 1", pmo=C.MQPMO_SYNCPOINT, MsgId=ID)
    mq.qm.backout(mq.conn)
    mq.put(q, b"attempt 2", pmo=C.MQPMO_SYNCPOINT, MsgId=ID)
    mq.qm.commit(mq.conn)
    mq.put(q, b"attempt 3", pmo=C.MQPMO_SYNCPOINT, MsgId=ID)
    mq.qm.commit(mq.conn)
    assert mq.bodies(q) == [b"attempt 2"]


def test_publications_and_generated_ids(mq: Any) -> None:
    mq.qm.duplicates = DuplicateWindow(60)
    _, sub = mq.managed("dedupe/t")
    mq.pub("dedupe/t", b"p1", MsgId=ID)
    mq.pub("dedupe/t", b"p1 again", MsgId=ID)
    mq.pub("dedupe/t", b"g1")
    mq.pub("dedupe/t", b"g2")  # MsgIds the queue manager makes are never duplicates
    assert [r.body for r in mq.got(sub)] == [b"p1", b"g1", b"g2"]


def test_no_window_no_dropping(mq: Any, q: Any) -> None:
    mq.put(q, b"a", MsgId=ID)
    mq.put(q, b"b", MsgId=ID)
    assert mq.bodies(q) == [b"a", b"b"]
