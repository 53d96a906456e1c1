"""Reading a queue by sequence number (core/ranges.py): the offsets of stream readers."""

from __future__ import annotations

from typing import Any

from mqlite import cmqc as C


def test_offsets_browse_and_remove_through(mq: Any, q: Any) -> None:
    assert mq.qm.queue_offsets("APP.Q") == (0, 0)
    for i in range(5):
        mq.put(q, f"m{i}".encode(), Priority=9 - i)  # priorities do not change sequence order
    assert mq.qm.queue_offsets("APP.Q") == (0, 5)
    assert [(seq, m.body) for seq, m in mq.qm.browse_range("APP.Q", 1, 3)] == [(2, b"m1"), (3, b"m2")]
    assert [seq for seq, _ in mq.qm.browse_range("APP.Q", 0, 5, limit=2)] == [1, 2]
    assert mq.depth("APP.Q") == 5  # browsing removes nothing
    assert mq.qm.remove_through("APP.Q", 3) == 3
    assert mq.qm.queue_offsets("APP.Q") == (3, 5)
    assert [seq for seq, _ in mq.qm.browse_range("APP.Q", 0, 99)] == [4, 5]
    assert mq.qm.remove_through("APP.Q", 3) == 0  # committing again is harmless


def test_ranges_of_persistent_messages_reach_the_store(store_mq: Any, recover: Any) -> None:
    store_mq.define("P.Q")
    handle = store_mq.open("P.Q", C.MQOO_OUTPUT)
    for i in range(4):
        store_mq.put(handle, f"p{i}".encode(), Persistence=C.MQPER_PERSISTENT)
    store_mq.flush()
    store_mq.qm.remove_through("P.Q", 2)
    store_mq.flush()
    mq = recover()
    assert mq.qm.queue_offsets("P.Q") == (2, 4)  # sequence numbers survive the restart
    assert [m.body for _, m in mq.qm.browse_range("P.Q", 2, 4)] == [b"p2", b"p3"]


def test_unknown_queue(mq: Any) -> None:
    with mq.raises(C.MQRC_UNKNOWN_OBJECT_NAME):
        mq.qm.queue_offsets("NOPE")


def test_remove_one_browsed_message(store_mq: Any, recover: Any) -> None:
    store_mq.define("ONE.Q")
    handle = store_mq.open("ONE.Q", C.MQOO_OUTPUT)
    for i in range(4):
        store_mq.put(handle, f"p{i}".encode(), Persistence=C.MQPER_PERSISTENT)
    store_mq.flush()
    [entry] = store_mq.qm.queues["ONE.Q"].in_range(1, 2, 1, store_mq.clock.now, [])
    assert store_mq.qm.remove_entry("ONE.Q", entry) is True
    assert store_mq.qm.remove_entry("ONE.Q", entry) is False  # already gone
    store_mq.flush()
    mq = recover()
    assert [seq for seq, _ in mq.qm.browse_range("ONE.Q", 0, 9)] == [1, 3, 4]  # the removal was durable


def test_browse_batch_moves_the_cursor_over_what_is_there(mq: Any, q: Any) -> None:
    """MQGMO_BROWSE_NEXT many times at once (the MQTT delivery loop): after the first browse,
    up to ``limit`` available messages follow the cursor; expired ones are removed on the way."""
    assert mq.qm.browse_batch(mq.conn, q.hobj, 10) == []  # nothing browsed yet: ``get`` starts
    for i in range(6):
        mq.put(q, f"m{i}".encode(), Expiry=5 if i == 3 else C.MQEI_UNLIMITED)  # m3 lives 0.5 s
    assert mq.get(q, C.MQGMO_BROWSE_FIRST).body == b"m0"
    first = mq.qm.browse_batch(mq.conn, q.hobj, 2)
    assert [m.body for _, m in first] == [b"m1", b"m2"]
    assert mq.qm.queues["APP.Q"].depth == 6  # browsing removes nothing
    mq.clock.advance(1.0)
    rest = mq.qm.browse_batch(mq.conn, q.hobj, 10)
    assert [m.body for _, m in rest] == [b"m4", b"m5"]  # m3 expired on the way
    assert mq.qm.queues["APP.Q"].depth == 5
    assert mq.qm.browse_batch(mq.conn, q.hobj, 10) == []
    assert mq.qm.remove_entry("APP.Q", rest[0][0]) is True  # what was browsed can be removed


def test_ranges_skip_and_remove_expired_messages(mq: Any, q: Any, clock: Any) -> None:
    """A stream reader never sees a message that expired (the same availability test as MQGET)."""
    mq.put(q, b"short", Expiry=10)  # one second
    mq.put(q, b"long")
    mq.put(q, b"short too", Expiry=10)
    assert [m.body for _, m in mq.qm.browse_range("APP.Q", 0, 3)] == [b"short", b"long", b"short too"]
    clock.advance(2)
    assert [(seq, m.body) for seq, m in mq.qm.browse_range("APP.Q", 0, 3)] == [(2, b"long")]
    assert mq.depth("APP.Q") == 1  # the expired ones left the queue on the way
    assert mq.qm.queue_offsets("APP.Q") == (1, 3)


# -- numbers a reader was told of are never handed out again, across restarts too ------------------

def _marks(tx: Any) -> list[tuple[str, int]]:
    """The high-water marks a store transaction raises (``StoreTx.mark_seq``)."""
    from mqlite.store.tx import MARK_SEQ

    return [row for op, rows in (tx.runs if tx is not None else []) if op == MARK_SEQ for row in rows]


def test_told_numbers_of_non_persistent_messages_survive_a_restart(store_mq: Any, recover: Any) -> None:
    """The stream reader's round: newest offset, range read, range committed; the last messages
    were non-persistent, so no stored message remembers their numbers."""
    store_mq.define("S.Q")
    store_mq.flush()
    handle = store_mq.open("S.Q", C.MQOO_OUTPUT)
    for i in range(2):
        store_mq.put(handle, f"p{i}".encode(), Persistence=C.MQPER_PERSISTENT)
    for i in range(3):
        store_mq.put(handle, f"n{i}".encode(), Persistence=C.MQPER_NOT_PERSISTENT)
    store_mq.flush()
    assert store_mq.qm.queue_offsets("S.Q") == (0, 5)
    assert _marks(store_mq.flush()) == [("S.Q", 5)]  # the reply waited for the mark
    assert store_mq.qm.remove_through("S.Q", 5) == 5
    store_mq.flush()
    mq = recover()
    assert mq.qm.queue_offsets("S.Q") == (5, 5)
    mq.put(mq.open("S.Q", C.MQOO_OUTPUT), b"after")
    assert [(seq, m.body) for seq, m in mq.qm.browse_range("S.Q", 5, 99)] == [(6, b"after")]


def test_only_telling_a_reader_writes_the_mark(store_mq: Any) -> None:
    store_mq.define("S.Q")
    store_mq.flush()
    handle = store_mq.open("S.Q", C.MQOO_OUTPUT)
    for _ in range(3):
        store_mq.put(handle, b"np")
    assert store_mq.flush() is None  # puts cost nothing: non-persistent puts write nothing
    assert store_mq.qm.queue_offsets("S.Q") == (0, 3)
    first = store_mq.qm.take_effects().tx
    assert _marks(first) == [("S.Q", 3)]
    # Told again before that mark is durable: this reply must wait for the disk too.
    assert store_mq.qm.queue_offsets("S.Q") == (0, 3)
    second = store_mq.qm.take_effects().tx
    assert _marks(second) == [("S.Q", 3)]
    for tx in (first, second):
        store_mq.store.write(tx)
        store_mq.qm.on_durable(tx)
    assert store_mq.qm.queues["S.Q"].seq_mark == 3
    assert store_mq.qm.queue_offsets("S.Q") == (0, 3)
    assert [seq for seq, _ in store_mq.qm.browse_range("S.Q", 0, 3)] == [1, 2, 3]
    assert store_mq.qm.remove_through("S.Q", 2) == 2
    assert store_mq.flush() is None  # nothing new told: no write, the replies go at once
    store_mq.put(handle, b"np")
    assert [seq for seq, _ in store_mq.qm.browse_range("S.Q", 2, 99)] == [3, 4]
    assert _marks(store_mq.flush()) == [("S.Q", 4)]  # a browse tells too
    assert store_mq.qm.remove_through("S.Q", 99) == 2  # a commit names at most what was handed out
    assert store_mq.flush() is None


def test_the_mark_outlives_replace_and_delete(store_mq: Any, recover: Any) -> None:
    """DEFINE REPLACE keeps the queue and its numbers; a queue deleted and defined again numbers on
    from above the old one's mark (IBM has no such numbers: this keeps a reader whose checkpoint
    names the old queue's offsets from skipping the new queue's messages)."""
    store_mq.define("S.Q")
    handle = store_mq.open("S.Q", C.MQOO_OUTPUT)
    for _ in range(4):
        store_mq.put(handle, b"np")
    assert store_mq.qm.queue_offsets("S.Q") == (0, 4)
    store_mq.flush()
    store_mq.close(handle)
    store_mq.qm.define("QLOCAL", "S.Q", {"DESCR": "replaced"}, replace=True)
    store_mq.flush()
    store_mq.put(store_mq.open("S.Q", C.MQOO_OUTPUT), b"np")
    assert store_mq.qm.queue_offsets("S.Q") == (0, 5)
    store_mq.flush()
    mq = recover()
    assert mq.qm.queues["S.Q"].attrs["DESCR"] == "replaced"
    assert mq.qm.queue_offsets("S.Q") == (5, 5)
    mq.qm.delete("QLOCAL", "S.Q")
    mq.flush()
    mq.define("S.Q")
    mq.put(mq.open("S.Q", C.MQOO_OUTPUT), b"again")
    assert mq.qm.queue_offsets("S.Q") == (5, 6)
    mq.flush()
    mq = recover()
    assert mq.qm.queue_offsets("S.Q") == (6, 6)


def test_a_temporary_dynamic_queue_needs_no_mark(store_mq: Any) -> None:
    """It ends with the queue manager, so its numbers need not outlive it (and its name, made
    unique, would leave a row behind for nothing)."""
    handle = store_mq.open("SYSTEM.DEFAULT.MODEL.QUEUE", C.MQOO_OUTPUT | C.MQOO_INPUT_SHARED,
                           DynamicQName="TEMP.*")
    store_mq.put(handle, b"np")
    assert store_mq.qm.queue_offsets(handle.name) == (0, 1)
    assert _marks(store_mq.flush()) == []


def test_the_newest_offset_stays_below_a_unit_of_work_not_yet_committed(mq: Any, q: Any) -> None:
    """A put in a unit of work numbered before a committed one: a reader's offset stops below it,
    or the reader would commit past it and its REMOVE_THROUGH remove it once it lands (a Spark
    writer puts each partition in a unit of work, a stream reads the same queue)."""
    writer = mq.connect("writer")
    other = mq.open("APP.Q", C.MQOO_OUTPUT, conn=writer)
    mq.put(other, b"first, in a unit of work", pmo=C.MQPMO_SYNCPOINT, conn=writer)
    mq.put(q, b"second, at once")
    assert mq.qm.queue_offsets("APP.Q") == (0, 0)  # not past the pending one
    assert mq.qm.remove_through("APP.Q", 0) == 0
    mq.qm.commit(writer)
    assert mq.qm.queue_offsets("APP.Q") == (0, 2)
    assert [m.body for _, m in mq.qm.browse_range("APP.Q", 0, 2)] == [b"first, in a unit of work", b"second, at once"]
