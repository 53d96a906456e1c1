"""Core with a real SQLite store: body eviction once durable, read-back on delivery, and recovery.

docs/ARCHITECTURE.md ("Contract: core and its effects", "Contract: the store"): a persistent
message's body may leave memory only after ``on_durable``; delivery reads it back from the store;
at start the queue manager rebuilds each queue's index from ``scan_index``; only committed units of
work ever reach the store; non-persistent messages are lost on restart (as MQ specifies).
"""

from __future__ import annotations

from typing import Any

import pytest

from mqlite import cmqc as C
from mqlite.core import queues
from mqlite.core.queues import Entry

IO = C.MQOO_OUTPUT | C.MQOO_INPUT_SHARED | C.MQOO_BROWSE | C.MQOO_INQUIRE
PERSISTENT = C.MQPER_PERSISTENT
LIMIT = 10


@pytest.fixture
def small(monkeypatch: pytest.MonkeyPatch) -> int:
    """At most LIMIT persistent bodies resident per queue."""
    monkeypatch.setattr(queues, "RESIDENT_LIMIT", LIMIT)
    return LIMIT


@pytest.fixture
def sq(store_mq: Any) -> Any:
    """APP.Q on the store-backed queue manager, its definition durable."""
    store_mq.define("APP.Q")
    handle = store_mq.open("APP.Q", IO)
    store_mq.flush()
    return handle


def _entries(mq: Any, name: str = "APP.Q") -> list[Entry]:
    return list(mq.qm.queues[name].iter_entries())


def _evicted(mq: Any, name: str = "APP.Q") -> int:
    return sum(1 for e in _entries(mq, name) if e.message is None)


BODIES = [b"body-%03d" % i for i in range(100)]


# -- eviction ---------------------------------------------------------------------------------
def test_durable_persistent_bodies_are_evicted_and_read_back_in_order(store_mq: Any, sq: Any, small: int) -> None:
    for body in BODIES:
        store_mq.put(sq, body, Persistence=PERSISTENT)
    assert _evicted(store_mq) == 0
    store_mq.flush()
    assert _evicted(store_mq) == len(BODIES) - small
    assert store_mq.qm.queues["APP.Q"].resident == small
    assert store_mq.depth("APP.Q") == len(BODIES)
    assert store_mq.bodies(sq) == BODIES
    assert store_mq.depth("APP.Q") == 0


def test_bodies_stay_in_memory_until_the_store_says_durable(store_mq: Any, sq: Any, small: int) -> None:
    for body in BODIES:
        store_mq.put(sq, body, Persistence=PERSISTENT)
    tx = store_mq.qm.take_effects().tx
    assert tx is not None
    store_mq.store.write(tx)
    assert _evicted(store_mq) == 0  # written, but core has not been told yet
    store_mq.qm.on_durable(tx)
    assert _evicted(store_mq) == len(BODIES) - small


def test_non_persistent_bodies_are_never_evicted(store_mq: Any, sq: Any, small: int) -> None:
    for body in BODIES:
        store_mq.put(sq, body, Persistence=C.MQPER_NOT_PERSISTENT)
    assert store_mq.flush() is None  # nothing to write at all
    assert _evicted(store_mq) == 0
    assert store_mq.bodies(sq) == BODIES


def test_evicted_messages_keep_priority_order(store_mq: Any, sq: Any, small: int) -> None:
    expected: dict[int, list[bytes]] = {}
    for i, body in enumerate(BODIES):
        priority = i % 4
        store_mq.put(sq, body, Persistence=PERSISTENT, Priority=priority)
        expected.setdefault(priority, []).append(body)
    store_mq.flush()
    assert _evicted(store_mq) > 0
    results = [store_mq.get(sq) for _ in BODIES]
    assert [r.body for r in results] == [b for p in (3, 2, 1, 0) for b in expected[p]]
    assert [r.message.md.Priority for r in results] == [p for p in (3, 2, 1, 0) for _ in expected[p]]


def test_evicted_message_keeps_its_descriptor_and_properties(store_mq: Any, sq: Any, small: int) -> None:
    mds = [store_mq.put(sq, body, Persistence=PERSISTENT, props={"i": i}, CorrelId=b"%024d" % i)
           for i, body in enumerate(BODIES)]
    store_mq.flush()
    last = store_mq.qm.queues["APP.Q"].iter_entries()
    assert [e.message for e in last][-1] is None  # the newest bodies go first
    for i, md in enumerate(mds):
        got = store_mq.get(sq).message
        assert (got.md.MsgId, got.md.CorrelId, got.md.UserIdentifier) == (md.MsgId, md.CorrelId, "alice")
        assert got.properties == {"i": i}


def test_get_by_msg_id_and_correl_id_finds_evicted_messages(store_mq: Any, sq: Any, small: int) -> None:
    mds = [store_mq.put(sq, body, Persistence=PERSISTENT, CorrelId=b"%024d" % (i % 3))
           for i, body in enumerate(BODIES)]
    store_mq.flush()
    assert store_mq.get(sq, msg_id=mds[57].MsgId).body == BODIES[57]
    with store_mq.raises(C.MQRC_NO_MSG_AVAILABLE):
        store_mq.get(sq, msg_id=mds[57].MsgId)
    assert store_mq.get(sq, correl_id=b"%024d" % 2).body == BODIES[2]
    assert store_mq.get(sq, correl_id=b"%024d" % 2).body == BODIES[5]
    assert store_mq.get(sq, msg_id=mds[98].MsgId, correl_id=b"%024d" % 2).body == BODIES[98]
    assert store_mq.depth("APP.Q") == len(BODIES) - 4


def test_browse_reads_evicted_bodies_without_removing(store_mq: Any, sq: Any, small: int) -> None:
    for body in BODIES:
        store_mq.put(sq, body, Persistence=PERSISTENT)
    store_mq.flush()
    seen = [store_mq.get(sq, C.MQGMO_BROWSE_FIRST).body]
    seen += [store_mq.get(sq, C.MQGMO_BROWSE_NEXT).body for _ in BODIES[1:]]
    assert seen == BODIES
    assert store_mq.depth("APP.Q") == len(BODIES)


def test_committed_syncpoint_puts_are_evicted_once_durable(store_mq: Any, sq: Any, small: int) -> None:
    for body in BODIES:
        store_mq.put(sq, body, pmo=C.MQPMO_SYNCPOINT, Persistence=PERSISTENT)
    assert store_mq.flush() is None
    store_mq.qm.commit(store_mq.conn)
    store_mq.flush()
    assert _evicted(store_mq) == len(BODIES) - small
    assert store_mq.bodies(sq) == BODIES


def test_backout_of_an_evicted_message_counts_and_keeps_it(store_mq: Any, sq: Any, small: int) -> None:
    mds = [store_mq.put(sq, body, Persistence=PERSISTENT) for body in BODIES]
    store_mq.flush()
    assert _entries(store_mq)[50].message is None
    got = store_mq.get(sq, C.MQGMO_SYNCPOINT, msg_id=mds[50].MsgId)
    assert got.body == BODIES[50]
    store_mq.qm.backout(store_mq.conn)
    store_mq.flush()
    results = [store_mq.get(sq) for _ in BODIES]
    assert [r.body for r in results] == BODIES
    assert [r.message.md.BackoutCount for r in results] == [1 if i == 50 else 0 for i in range(100)]


def test_resident_bytes_limit_evicts_too(store_mq: Any, sq: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(queues, "RESIDENT_BYTES", 10 * 1024)
    big = [bytes([i]) * 1024 for i in range(40)]
    for body in big:
        store_mq.put(sq, body, Persistence=PERSISTENT)
    store_mq.flush()
    queue = store_mq.qm.queues["APP.Q"]
    assert queue.resident_bytes <= 10 * 1024 and _evicted(store_mq) >= 30
    assert store_mq.bodies(sq) == big


def test_the_store_is_empty_after_everything_is_got(store_mq: Any, sq: Any, small: int) -> None:
    for body in BODIES:
        store_mq.put(sq, body, Persistence=PERSISTENT)
    store_mq.flush()
    store_mq.bodies(sq)
    store_mq.flush()
    assert list(store_mq.store.scan_index("APP.Q")) == []


# -- recovery ---------------------------------------------------------------------------------
def test_recovery_returns_the_committed_persistent_messages_in_order(store_mq: Any, sq: Any, recover: Any) -> None:
    mds = []
    for i, body in enumerate(BODIES[:20]):
        mds.append(store_mq.put(sq, body, Persistence=PERSISTENT, Priority=5 if i % 5 == 0 else 1))
    store_mq.put(sq, b"volatile", Persistence=C.MQPER_NOT_PERSISTENT)
    store_mq.put(sq, b"uncommitted", pmo=C.MQPMO_SYNCPOINT, Persistence=PERSISTENT)
    store_mq.flush()

    mq2 = recover()
    assert mq2.depth("APP.Q") == 20
    h = mq2.open("APP.Q", IO)
    results = [mq2.get(h) for _ in range(20)]
    order = [i for i in range(20) if i % 5 == 0] + [i for i in range(20) if i % 5]
    assert [r.body for r in results] == [BODIES[i] for i in order]
    assert [r.message.md.MsgId for r in results] == [mds[i].MsgId for i in order]
    with mq2.raises(C.MQRC_NO_MSG_AVAILABLE):
        mq2.get(h)


def test_recovered_bodies_are_read_from_the_store_lazily(store_mq: Any, sq: Any, recover: Any) -> None:
    for body in BODIES:
        store_mq.put(sq, body, Persistence=PERSISTENT)
    store_mq.flush()
    mq2 = recover()
    assert _evicted(mq2) == len(BODIES)
    h = mq2.open("APP.Q", IO)
    assert mq2.bodies(h) == BODIES


def test_recovery_forgets_messages_got_before_the_restart(store_mq: Any, sq: Any, recover: Any) -> None:
    for body in BODIES[:5]:
        store_mq.put(sq, body, Persistence=PERSISTENT)
    store_mq.get(sq)
    store_mq.get(sq, C.MQGMO_SYNCPOINT)
    store_mq.qm.commit(store_mq.conn)
    store_mq.get(sq, C.MQGMO_SYNCPOINT)  # in flight at the "crash": still in the store
    store_mq.flush()
    mq2 = recover()
    h = mq2.open("APP.Q", IO)
    assert mq2.bodies(h) == BODIES[2:5]


def test_recovery_restores_the_backout_count(store_mq: Any, sq: Any, recover: Any) -> None:
    store_mq.put(sq, b"retry", Persistence=PERSISTENT)
    for _ in range(2):
        store_mq.get(sq, C.MQGMO_SYNCPOINT)
        store_mq.qm.backout(store_mq.conn)
    store_mq.flush()
    mq2 = recover()
    h = mq2.open("APP.Q", IO)
    assert mq2.get(h).message.md.BackoutCount == 2


def test_recovery_restores_definitions_and_qmgr_attributes(store_mq: Any, recover: Any) -> None:
    store_mq.define("APP.SMALL", MAXDEPTH=3, DESCR="small one")
    store_mq.define("APP.ALIAS", "QALIAS", TARGET="APP.SMALL")
    store_mq.define("APP.GONE")
    store_mq.qm.delete("QLOCAL", "APP.GONE")
    store_mq.qm.alter("QMGR", "", {"MAXUMSGS": 7})
    store_mq.flush()
    mq2 = recover()
    [row] = mq2.qm.objects("QLOCAL", "APP.SMALL")
    assert (row["MAXDEPTH"], row["DESCR"]) == (3, "small one")
    assert mq2.qm.objects("QALIAS", "APP.ALIAS")[0]["TARGET"] == "APP.SMALL"
    assert "APP.GONE" not in mq2.qm.qdefs
    assert mq2.qm.attrs["MAXUMSGS"] == 7
    assert "SYSTEM.DEAD.LETTER.QUEUE" in mq2.qm.queues
    h = mq2.open("APP.ALIAS", C.MQOO_OUTPUT)
    for _ in range(3):
        mq2.put(h)
    with mq2.raises(C.MQRC_Q_FULL):
        mq2.put(h)


def test_new_puts_after_recovery_come_after_the_recovered_messages(store_mq: Any, sq: Any, recover: Any) -> None:
    for body in BODIES[:3]:
        store_mq.put(sq, body, Persistence=PERSISTENT)
    store_mq.get(sq)  # the highest seq ever used must not be reused either
    store_mq.put(sq, b"last-before", Persistence=PERSISTENT)
    store_mq.flush()
    mq2 = recover()
    h = mq2.open("APP.Q", IO)
    mq2.put(h, b"after-1", Persistence=PERSISTENT)
    mq2.put(h, b"after-2", Persistence=C.MQPER_NOT_PERSISTENT)
    mq2.flush()
    assert mq2.bodies(h) == [BODIES[1], BODIES[2], b"last-before", b"after-1", b"after-2"]
    mq2.flush()
    assert list(mq2.store.scan_index("APP.Q")) == []


def test_recovered_messages_keep_their_expiry(store_mq: Any, sq: Any, recover: Any, clock: Any) -> None:
    store_mq.put(sq, b"soon", Persistence=PERSISTENT, Expiry=100)
    store_mq.put(sq, b"later", Persistence=PERSISTENT, Expiry=1000)
    store_mq.flush()
    clock.advance(20)
    mq2 = recover()
    h = mq2.open("APP.Q", IO)
    got = mq2.get(h)
    assert (got.body, got.message.md.Expiry) == (b"later", 800)
    assert mq2.depth("APP.Q") == 0


def test_dynamic_queues_across_a_restart(store_mq: Any, recover: Any) -> None:
    temp = store_mq.open("SYSTEM.DEFAULT.MODEL.QUEUE", IO, DynamicQName="TEMP.*")
    store_mq.define("PERM.MODEL", "QMODEL", DEFTYPE="PERMDYN")
    perm = store_mq.open("PERM.MODEL", IO, DynamicQName="PERM.*")
    store_mq.put(perm, b"kept", Persistence=PERSISTENT)
    store_mq.flush()
    mq2 = recover()
    assert temp.name not in mq2.qm.qdefs  # temporary dynamic queues do not survive
    assert perm.name in mq2.qm.queues
    h = mq2.open(perm.name, IO)
    assert mq2.get(h).body == b"kept"
    mq2.close(h, C.MQCO_DELETE)
    assert perm.name not in mq2.qm.qdefs
    mq2.flush()
    mq3 = recover()
    assert perm.name not in mq3.qm.qdefs


def test_a_purged_queue_has_no_messages_after_restart(store_mq: Any, sq: Any, recover: Any) -> None:
    for body in BODIES[:5]:
        store_mq.put(sq, body, Persistence=PERSISTENT)
    store_mq.close(sq)
    store_mq.qm.clear_queue("APP.Q")
    store_mq.flush()
    mq2 = recover()
    assert mq2.depth("APP.Q") == 0
