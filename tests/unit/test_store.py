"""mqlite.store against real SQLite files: round trips, group commit, ordering, failures, scale."""

from __future__ import annotations

import sqlite3
import threading
import tracemalloc
from collections.abc import Callable, Iterator
from itertools import islice
from pathlib import Path

import pytest

from mqlite.message import NULL_ID, Message, MessageDescriptor
from mqlite.store import IndexRow, Store, StoreTx


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = Store(tmp_path / "qm.db")
    yield s
    s.close()


def msg(body: bytes = b"hello", **md: object) -> Message:
    return Message(MessageDescriptor(**md), body)  # type: ignore[arg-type]


def put(store: Store, queue: str, *seqs: int, **md: object) -> None:
    tx = StoreTx()
    for seq in seqs:
        tx.put_message(queue, seq, msg(f"body {seq}".encode(), **md), 0.0)
    store.write(tx)


def full_descriptor() -> MessageDescriptor:
    return MessageDescriptor(
        Report=0x0E000000,
        MsgType=1,
        Expiry=600,
        Feedback=258,
        Encoding=273,
        CodedCharSetId=819,
        Format="MQSTR",
        Priority=7,
        Persistence=1,
        MsgId=bytes(range(24)),
        CorrelId=b"C" * 24,
        BackoutCount=2,
        ReplyToQ="REPLY.Q",
        ReplyToQMgr="QM2",
        UserIdentifier="alice",
        AccountingToken=bytes(range(32)),
        ApplIdentityData="aid",
        PutApplType=6,
        PutApplName="app.py",
        PutDate="20240102",
        PutTime="03040506",
        ApplOriginData="org",
        GroupId=b"G" * 24,
        MsgSeqNumber=3,
        Offset=100,
        MsgFlags=8,
        OriginalLength=42,
    )


def test_round_trip_every_mqmd_field_and_properties(store: Store) -> None:
    props = {"s": "text", "i": -5, "big": 2**62, "f": 1.5, "b": True, "raw": b"\x00\xff", "n": None}
    original = Message(full_descriptor(), b"\x00body\xff" * 100, props)  # type: ignore[arg-type]
    tx = StoreTx()
    tx.put_message("Q1", 1, original, 1234.5)
    tx.put_message("Q1", 2, Message(MessageDescriptor(), b""), 0.0)  # defaults, empty body, no props
    store.write(tx)

    assert store.read_message("Q1", 1) == original
    assert store.read_message("Q1", 2) == Message(MessageDescriptor(), b"")
    assert store.read_message("Q1", 3) is None
    assert store.read_message("OTHER", 1) is None
    assert store.read_messages("Q1", [2, 1, 99]) == {1: original, 2: Message(MessageDescriptor(), b"")}
    assert store.read_messages("Q1", []) == {}
    assert list(store.scan_index()) == [IndexRow("Q1", 1, 7, 1234.5, 2), IndexRow("Q1", 2, -1, 0.0, 0)]


def test_store_keeps_a_snapshot_of_the_message(store: Store) -> None:
    m = msg(b"v1", Priority=3)
    tx = StoreTx()
    tx.put_message("Q", 1, m, 0.0)
    m.md.Priority = 9  # core may change its in-memory copy after building the tx
    m.properties["late"] = 1
    store.write(tx)
    stored = store.read_message("Q", 1)
    assert stored is not None
    assert stored.md.Priority == 3 and stored.properties == {}


def test_set_backout_updates_read_and_index(store: Store) -> None:
    put(store, "Q", 1, 2)
    tx = StoreTx()
    tx.set_backout("Q", 2, 3)
    store.write(tx)
    stored = store.read_message("Q", 2)
    assert stored is not None and stored.md.BackoutCount == 3
    assert [r.backout_count for r in store.scan_index("Q")] == [0, 3]


def test_group_commit_groups_concurrent_submissions(store: Store) -> None:
    threads, per_thread = 8, 300
    results: list[BaseException | None] = []
    done_threads: set[str] = set()
    lock = threading.Lock()

    def done(exc: BaseException | None) -> None:
        with lock:
            results.append(exc)
            done_threads.add(threading.current_thread().name)

    def producer(t: int) -> None:
        for i in range(per_thread):
            tx = StoreTx()
            tx.put_message(f"Q{t}", i + 1, msg(b"x" * 1024), 0.0)
            store.submit(tx, done)

    workers = [threading.Thread(target=producer, args=(t,)) for t in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    store.flush()
    total = threads * per_thread
    assert len(results) == total and all(r is None for r in results)
    assert done_threads == {"mqlite-store-writer"}
    stats = store.stats
    assert stats.transactions == total and stats.ops == total and stats.failed == 0
    assert stats.commits < stats.transactions, stats
    assert sum(1 for _ in store.scan_index()) == total


def test_ops_apply_in_order_within_and_across_txs(store: Store) -> None:
    tx = StoreTx()
    tx.put_message("Q", 1, msg(), 0.0)
    tx.delete_message("Q", 1)  # put then delete in one tx: gone
    tx.put_message("Q", 2, msg(), 0.0)
    tx.set_backout("Q", 2, 1)  # backout after its put
    tx.put_record("obj", "A", 1)
    tx.delete_record("obj", "A")
    tx.put_record("obj", "B", 1)
    tx.put_record("obj", "B", 2)  # last write wins
    store.write(tx)
    assert [(r.seq, r.backout_count) for r in store.scan_index()] == [(2, 1)]
    assert store.load_records("obj") == {"B": 2}

    # Across txs submitted back to back (they may share a commit): submission order holds.
    events: list[int] = []
    txs = [StoreTx() for _ in range(5)]
    txs[0].put_message("P", 1, msg(), 0.0)
    txs[0].put_message("P", 2, msg(), 0.0)
    txs[1].purge_queue("P")
    txs[2].put_message("P", 3, msg(), 0.0)
    txs[3].delete_message("Q", 2)
    txs[4].put_record("obj", "B", 3)

    def note(i: int) -> Callable[[BaseException | None], None]:
        return lambda exc: events.append(i if exc is None else -i)

    for i, t in enumerate(txs):
        store.submit(t, note(i))
    store.flush()
    assert events == [0, 1, 2, 3, 4]
    assert [(r.queue, r.seq) for r in store.scan_index()] == [("P", 3)]
    assert store.load_records("obj") == {"B": 3}


def test_max_seq_is_a_high_water_mark(tmp_path: Path) -> None:
    path = tmp_path / "qm.db"
    with Store(path) as store:
        assert store.max_seq("Q") == 0
        put(store, "Q", 1, 2, 5)
        put(store, "R", 7)
        tx = StoreTx()
        tx.delete_message("Q", 5)
        tx.delete_message("Q", 2)
        tx.purge_queue("R")
        store.write(tx)
        # A delete marks nothing (no reader was told of 2 or 5: they may come again); a purge marks.
        assert store.max_seq("Q") == 1 and store.max_seq("R") == 7
        put(store, "Q", 3)
        assert store.max_seq("Q") == 3
        tx = StoreTx()
        tx.mark_seq("Q", 6)  # told to a stream reader: never handed out again
        tx.delete_message("Q", 3)
        store.write(tx)
        assert store.max_seq("Q") == 6
        put(store, "T", 4, 8)  # stored, never deleted: the messages hold the mark
        assert store.max_seq("T") == 8
        assert store.queue_names() == ["Q", "T"]
    with Store(path) as store:
        assert store.max_seq("Q") == 6 and store.max_seq("R") == 7 and store.max_seq("S") == 0
        assert store.max_seq("T") == 8
        assert [(r.queue, r.seq) for r in store.scan_index()] == [("Q", 1), ("T", 4), ("T", 8)]


def test_neither_a_put_nor_a_delete_writes_a_high_water_row(tmp_path: Path) -> None:
    """A group of puts or of deletes (a persistent MQGET's) touches no page of ``queue_meta``: one
    WAL frame and one statement fewer per commit. The stored messages hold their seqs; the
    numbers of deleted ones no reader was told of may come again after a restart."""
    path = tmp_path / "qm.db"
    with Store(path) as store:
        put(store, "Q", 1, 2, 3)
        marks = sqlite3.connect(path).execute("SELECT queue, max_seq FROM queue_meta").fetchall()
        assert marks == []
        tx = StoreTx()
        tx.delete_message("Q", 3)
        tx.delete_message("Q", 2)
        store.write(tx)
        marks = sqlite3.connect(path).execute("SELECT queue, max_seq FROM queue_meta").fetchall()
        assert marks == []
        assert store.max_seq("Q") == 1


def test_mark_seq_raises_the_high_water_mark_only(tmp_path: Path) -> None:
    """Numbers of messages never stored (told to a stream reader) raise the same mark."""
    path = tmp_path / "qm.db"
    with Store(path) as store:
        put(store, "Q", 3)
        tx = StoreTx()
        tx.mark_seq("Q", 9)
        tx.mark_seq("R", 4)
        assert tx and len(tx) == 2 and not tx.only_records("sync")
        store.write(tx)
        lower = StoreTx()
        lower.mark_seq("Q", 5)
        store.write(lower)
        put(store, "R", 2)
    with Store(path) as store:
        assert store.max_seq("Q") == 9 and store.max_seq("R") == 4
        assert [(r.queue, r.seq) for r in store.scan_index()] == [("Q", 3), ("R", 2)]


def test_records(store: Store) -> None:
    value = {"DESCR": "a queue", "MAXDEPTH": 5000, "nested": [1, {"x": b"\x01"}], 7: True, "f": None}
    tx = StoreTx()
    tx.put_record("object", "Q1", value)
    tx.put_record("object", "Q2", [1, 2])
    tx.put_record("qmgr", "Q1", "other kind, same key")
    store.write(tx)
    assert store.load_records("object") == {"Q1": value, "Q2": [1, 2]}
    assert store.load_records("qmgr") == {"Q1": "other kind, same key"}
    assert store.load_records("none") == {}
    tx = StoreTx()
    tx.delete_record("object", "Q1")
    tx.delete_record("object", "missing")  # deleting nothing is not an error
    store.write(tx)
    assert store.load_records("object") == {"Q2": [1, 2]}


def test_a_failing_tx_fails_alone_and_the_writer_goes_on(store: Store) -> None:
    put(store, "Q", 1)
    results: dict[str, BaseException | None] = {}
    gate = threading.Event()
    order: list[str] = []

    def first(exc: BaseException | None) -> None:
        gate.wait(60)  # hold the writer so the next txs pile up into one group (set at once: an upper bound)

    def record(name: str) -> Callable[[BaseException | None], None]:
        def done(exc: BaseException | None) -> None:
            results[name] = exc
            order.append(name)

        return done

    store.submit(StoreTx(), first)
    bad_value = StoreTx()
    bad_value.put_message("Q", 10, msg(), 0.0)
    bad_value.put_record("obj", "bad", object())  # msgpack cannot encode it
    duplicate = StoreTx()
    duplicate.put_message("Q", 11, msg(), 0.0)
    duplicate.put_message("Q", 1, msg(), 0.0)  # (Q, 1) exists: primary key violation
    good = [StoreTx() for _ in range(3)]
    for i, tx in enumerate(good):
        tx.put_message("Q", 20 + i, msg(), 0.0)
    store.submit(good[0], record("good0"))
    store.submit(bad_value, record("bad_value"))
    store.submit(good[1], record("good1"))
    store.submit(duplicate, record("duplicate"))
    store.submit(good[2], record("good2"))
    gate.set()
    store.flush()

    assert order == ["good0", "bad_value", "good1", "duplicate", "good2"]
    assert isinstance(results["bad_value"], TypeError)
    assert "UNIQUE" in str(results["duplicate"])
    assert results["good0"] is None and results["good1"] is None and results["good2"] is None
    # Nothing of the failed txs was applied, everything of the good ones was.
    assert [r.seq for r in store.scan_index("Q")] == [1, 20, 21, 22]
    assert store.load_records("obj") == {}
    assert store.stats.failed == 2
    with pytest.raises(TypeError):
        store.write(bad_value)
    put(store, "Q", 30)  # the writer still works
    assert store.max_seq("Q") == 30


def test_find_ids(store: Store) -> None:
    a, b = b"A" * 24, b"B" * 24
    tx = StoreTx()
    tx.put_message("Q", 1, msg(MsgId=a, CorrelId=b), 0.0)
    tx.put_message("Q", 2, msg(MsgId=b), 0.0)
    tx.put_message("Q", 3, msg(MsgId=a), 0.0)
    tx.put_message("Q", 4, msg(CorrelId=b), 0.0)
    tx.put_message("OTHER", 5, msg(MsgId=a, CorrelId=b), 0.0)
    store.write(tx)
    assert store.find_ids("Q", a, None) == [1, 3]
    assert store.find_ids("Q", None, b) == [1, 4]
    assert store.find_ids("Q", a, b) == [1]
    assert store.find_ids("Q", b, b) == []
    assert store.find_ids("Q", None, None) == [1, 2, 3, 4]
    assert store.find_ids("Q", None, NULL_ID) == [2, 3]
    assert store.find_ids("Q", NULL_ID, None) == [4]
    assert store.find_ids("NONE", a, None) == []


def test_reads_from_several_threads(store: Store) -> None:
    put(store, "Q", *range(1, 101))
    seen: list[int] = []

    def reader() -> None:
        n = sum(1 for _ in store.scan_index("Q"))
        m = len(store.read_messages("Q", list(range(1, 101))))
        seen.append(n + m)

    workers = [threading.Thread(target=reader) for _ in range(4)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert seen == [200] * 4


def test_close_drains_pending_work_then_refuses(tmp_path: Path) -> None:
    store = Store(tmp_path / "qm.db")
    results: list[BaseException | None] = []
    for i in range(200):
        tx = StoreTx()
        tx.put_message("Q", i + 1, msg(), 0.0)
        store.submit(tx, results.append)
    store.close()
    assert results == [None] * 200
    with pytest.raises(RuntimeError):
        store.submit(StoreTx(), results.append)
    store.close()  # twice is fine
    with Store(tmp_path / "qm.db") as again:
        assert again.max_seq("Q") == 200


def test_a_raising_done_callback_does_not_stop_the_writer(store: Store) -> None:
    def boom(exc: BaseException | None) -> None:
        raise ValueError("callback bug")

    tx = StoreTx()
    tx.put_message("Q", 1, msg(), 0.0)
    store.submit(tx, boom)
    put(store, "Q", 2)
    assert [r.seq for r in store.scan_index()] == [1, 2]


def test_store_tx_data() -> None:
    tx = StoreTx()
    assert not tx and len(tx) == 0
    tx.put_message("Q", 3, msg(), 0.0)
    tx.put_message("Q", 2, msg(), 0.0)
    tx.delete_message("Q", 1)
    tx.after_durable.append("core's")
    other = StoreTx()
    other.delete_message("Q", 2)
    other.put_message("R", 9, msg(), 0.0)
    other.after_durable.append("other's")
    tx.extend(other)
    assert tx and len(tx) == 5 and len(other) == 2
    assert [(op, len(rows)) for op, rows in tx.runs] == [(0, 2), (1, 2), (0, 1)]
    assert tx.after_durable == ["core's"]  # the store leaves core's bookkeeping alone


def test_scan_index_streams_100k_rows_with_low_memory(store: Store) -> None:
    """A cursor, not a list: memory stays flat however deep the queue (its rate: bench/timing.py)."""
    n = 100_000
    tx = StoreTx()
    body = b"b" * 100
    for seq in range(1, n + 1):
        tx.put_message("DEEP" if seq % 10 else "SIDE", seq, Message(MessageDescriptor(Priority=seq % 10), body), 0.0)
    store.write(tx)

    first = list(islice(store.scan_index(), 3))  # a cursor: the first rows come without the rest
    assert first == [
        IndexRow("DEEP", 1, 1, 0.0, 0),
        IndexRow("DEEP", 2, 2, 0.0, 0),
        IndexRow("DEEP", 3, 3, 0.0, 0),
    ]

    tracemalloc.start()
    count = 0
    last = None
    for row in store.scan_index():
        count += 1
        last = row
        if count == 50_000:  # other reads on this thread while the scan's cursor is open
            assert store.read_message("DEEP", 1) is not None
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert count == n and last == IndexRow("SIDE", n, 0, 0.0, 0)
    assert peak < 1_000_000, f"scan held {peak} bytes"
    assert sum(1 for _ in store.scan_index("SIDE")) == n // 10


@pytest.mark.slow
def test_a_million_persistent_1k_messages(tmp_path: Path) -> None:
    n, chunk = 1_000_000, 10_000
    body = b"m" * 1024
    with Store(tmp_path / "qm.db") as store:
        for base in range(0, n, chunk):
            tx = StoreTx()
            for seq in range(base + 1, base + chunk + 1):
                tx.put_message("DEEP.Q", seq, Message(MessageDescriptor(Persistence=1), body), 0.0)
            store.write(tx)
        tracemalloc.start()
        count = sum(1 for _ in store.scan_index("DEEP.Q"))
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        assert count == n and store.max_seq("DEEP.Q") == n
        assert peak < 1_000_000
        stored = store.read_message("DEEP.Q", n // 2)
        assert stored is not None and stored.body == body


_SCAN_PLAN = "EXPLAIN QUERY PLAN SELECT queue, seq, priority, expiry_at, backout FROM messages ORDER BY queue, seq"
_V1_MESSAGES = """
CREATE TABLE messages (
    queue TEXT NOT NULL, seq INTEGER NOT NULL, priority INTEGER NOT NULL, expiry_at REAL NOT NULL,
    msg_id BLOB, correl_id BLOB, backout INTEGER NOT NULL, md BLOB NOT NULL, props BLOB, body BLOB NOT NULL,
    PRIMARY KEY (queue, seq)
);
CREATE INDEX messages_index ON messages (queue, seq, priority, expiry_at, backout);
"""


def test_the_primary_key_is_the_covering_index_of_the_start_up_scan(tmp_path: Path) -> None:
    """A put updates three b-trees (the table, its key, the MsgId index), not four: the key
    (queue, seq, priority, expiry_at, backout) is what the start-up scan reads, never the rows."""
    path = tmp_path / "qm.db"
    with Store(path) as store:
        put(store, "Q", 1, 2)
    conn = sqlite3.connect(path)
    query = "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'messages'"
    indexes = {name for (name,) in conn.execute(query)}
    assert indexes == {"sqlite_autoindex_messages_1", "messages_msg_id", "messages_correl_id"}
    (plan,) = [row[3] for row in conn.execute(_SCAN_PLAN)]
    assert plan == "SCAN messages USING COVERING INDEX sqlite_autoindex_messages_1"


def test_a_store_made_with_the_earlier_key_still_works(tmp_path: Path) -> None:
    """A store of an earlier mqlite (key (queue, seq) and a separate covering index) is read and
    written with the same statements, and its start-up scan still never reads a row."""
    path = tmp_path / "qm.db"
    conn = sqlite3.connect(path)
    conn.executescript(_V1_MESSAGES)
    conn.close()
    with Store(path) as store:
        put(store, "Q", 1, 2, 3)
        tx = StoreTx()
        tx.delete_message("Q", 2)
        tx.set_backout("Q", 3, 4)
        store.write(tx)
        assert [(r.seq, r.backout_count) for r in store.scan_index("Q")] == [(1, 0), (3, 4)]
        message = store.read_message("Q", 3)
        assert message is not None and message.body == b"body 3"
    (plan,) = [row[3] for row in sqlite3.connect(path).execute(_SCAN_PLAN)]
    assert plan == "SCAN messages USING COVERING INDEX messages_index"
