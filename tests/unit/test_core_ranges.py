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
