"""The SQLite store: one writer thread with group commit, readers on their callers' threads.

Why this shape:

- Durability costs one fsync per SQLite commit (WAL, ``synchronous=FULL``). One writer thread takes
  every tx that is ready, applies them all in one SQLite transaction and commits once, so N
  concurrent producers share one fsync instead of paying N. ``done`` callbacks run after that
  commit, on the writer thread. When fewer txs are ready than recent groups carried, the writer
  waits (at most one commit's time) for the rest: synchronous callers come back one by one after
  their replies, and without the wait they split into cohorts that each pay a commit
  (``gathering.py``).
- The writer does as little Python per op as it can: ``StoreTx`` has already encoded every row and
  grouped ops into runs, and the writer feeds each run (merged across the txs of the group) to one
  ``executemany`` of a prepared (cached) statement.
- If a group fails, it is rolled back and retried tx by tx, each in its own savepoint of one new
  transaction, so a bad tx fails alone and the others still commit together.
- Depth is bounded by disk: bodies stay in SQLite, ``scan_index`` streams a covering index
  (queue, seq, priority, expiry_at, backout; the table's primary key) that never touches the
  table rows holding bodies.

Id indexes (for ``find_ids``) are *partial*: all-zero MsgId/CorrelId are stored as NULL and the
indexes hold only non-NULL ids. A CorrelId is usually zero, so its index costs next to nothing on
put; a MsgId is nearly always set, so its index is a real cost: with both indexes the 8-producer
benchmark (bench/store_bench.py) put about 13% fewer msgs/s than without (6.7k vs 7.7k, MsgIds
increasing as the queue manager makes them; random MsgIds cost more). Kept, because an MQGET by
MsgId or CorrelId on a deep, evicted queue must not scan the queue.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Any, NamedTuple

import msgpack

from mqlite.message import NULL_ID, Message, MessageDescriptor
from mqlite.store.gathering import ENOUGH_OPS, GatherPolicy
from mqlite.store.multirow import STATEMENT_SHAPES, delete_statements, insert_statements
from mqlite.store.schema import (
    DELETE_HEAD,
    OP_SQL,
    ORDER,
    PURGE_MARK_SQL,
    PUT_HEAD,
    READ_MANY,
    READ_ONE,
    SCAN,
    SCHEMA,
    SCHEMA_VERSION,
)
from mqlite.store.tx import (
    DELETE_MESSAGE,
    FAIL,
    PURGE_QUEUE,
    PUT_MESSAGE,
    Row,
    StoreTx,
)
from mqlite.store.wakeup import Wakeup

log = logging.getLogger(__name__)

Done = Callable[[BaseException | None], None]

_unpackb = msgpack.unpackb

# The sqlite3 module binds int, float, str and bytearray parameters directly, but sends every
# ``bytes`` one (a message's body, MQMD, ids) through its adapter protocol, which looks for
# ``__adapt__`` on its protocol type and fails with a formatted AttributeError: ~3,300
# instructions a parameter, three a put. An adapter registered for bytes is found at once and
# returns its argument (``bytes(b)`` is ``b``); the module's shortcut for the other basic types
# stays on (it is turned off only by adapting int, float, str or bytearray). None (a NULL id or
# no properties) takes the same detour: its adapter is a C function that gives None back.
sqlite3.register_adapter(bytes, bytes)
_NO_KEYS: dict[None, None] = {}
_as_null: Callable[[None], None] = _NO_KEYS.get  # _NO_KEYS.get(None) is None
sqlite3.register_adapter(type(None), _as_null)


class IndexRow(NamedTuple):
    """One message as recovery needs it: where it sits and how it is ordered, no body."""

    queue: str
    seq: int
    priority: int
    expiry_at: float
    backout_count: int


@dataclass(slots=True)
class StoreStats:
    """Writer counters; ``transactions / commits`` shows how well group commit groups."""

    commits: int = 0  # SQLite commits that carried ops (one fsync each)
    transactions: int = 0  # txs committed
    ops: int = 0  # ops committed
    failed: int = 0  # txs whose done() got an error
    waits: int = 0  # groups the writer waited to gather
    waits_ran_out: int = 0  # ... of which the wait ended at its deadline
    inline: int = 0  # commits made on their caller's thread (``Store.commit_now``)
    commit_seconds: float = 0.0  # time in SQLite's COMMIT (the WAL write and its fsync), all commits

    @property
    def txs_per_commit(self) -> float:
        return self.transactions / self.commits if self.commits else 0.0


class _Committed(NamedTuple):
    """A group that is finished but not yet completed; ``errors`` None means all committed."""

    group: list[tuple[StoreTx, Done]]
    errors: list[BaseException | None] | None


def decode_value(data: bytes) -> Any:
    """Inverse of ``tx.encode_value``: lists come back as lists, maps may have any key type."""
    return _unpackb(data, raw=False, strict_map_key=False)


def _message(md: bytes, props: bytes | None, body: bytes, backout: int) -> Message:
    descriptor = MessageDescriptor.from_list(_unpackb(md, raw=False))
    descriptor.BackoutCount = backout  # the column is the truth: set_backout only updates it
    return Message(descriptor, body, _unpackb(props, raw=False) if props else {})


def _ignore(error: BaseException | None) -> None:
    """The done callback of a tx committed by ``commit_now`` (its caller learns the outcome)."""


class Store:
    """A queue manager's persistent state in one SQLite file."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = os.fspath(path)
        self.stats = StoreStats()
        self._conn = self._connect()
        try:
            self._setup()
        except BaseException:
            self._conn.close()
            raise
        self._cur = self._conn.cursor()
        self._lock = threading.Lock()
        self._wakeup = Wakeup(self._lock)  # the writer sleeps on it
        self._ready: deque[tuple[StoreTx, Done]] = deque()
        self._ready_ops = 0
        self._urgent = False  # a ready tx's caller can do nothing until it is durable: no gathering
        self._wake_at = 1  # the writer, waiting, wants waking once this many txs are ready
        self.writer_waiting = False  # the writer sleeps for txs (and needs no GIL until woken)
        self._shrink_writer = False  # release_memory asked the writer to shrink its cache
        self.gathering = GatherPolicy()
        self._closed = False
        self._local = threading.local()
        self._readers: list[sqlite3.Connection] = []
        self._writer_thread = threading.Thread(target=self._writer, name="mqlite-store-writer", daemon=True)
        self._writer_thread.start()

    @property
    def writer_thread_id(self) -> int | None:
        """The writer thread's OS thread id (for CPU placement)."""
        return self._writer_thread.native_id

    def _setup(self) -> None:
        conn = self._conn
        mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if mode != "wal":
            log.warning("%s: journal_mode is %s, not wal: readers will block the writer", self.path, mode)
        conn.execute("PRAGMA synchronous = FULL")
        # Freed pages of deleted bodies are zeroed only when that costs no extra I/O.
        conn.execute("PRAGMA secure_delete = FAST")
        conn.execute("PRAGMA cache_size = -32768")  # 32 MiB
        conn.execute("PRAGMA journal_size_limit = 67108864")
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise RuntimeError(f"{self.path}: store schema {version} is newer than {SCHEMA_VERSION}")
        conn.executescript(f"BEGIN; {SCHEMA} PRAGMA user_version = {SCHEMA_VERSION}; COMMIT;")

    def _connect(self) -> sqlite3.Connection:
        # Every multi-row shape of inserts and deletes, and the store's other statements.
        cached = 2 * STATEMENT_SHAPES + 32
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, cached_statements=cached)
        conn.execute("PRAGMA busy_timeout = 10000")
        return conn

    # -- writing -------------------------------------------------------------------------------

    def submit(self, tx: StoreTx, done: Done, urgent: bool = False) -> None:
        """Queue ``tx``; ``done(None)`` runs on the writer thread once it is durable, or
        ``done(exc)`` if it failed (then none of its ops were applied). ``urgent``: its caller
        can do nothing until then (a message channel's END_BATCH or CONFIRM), so the writer
        commits what is ready without waiting to gather more."""
        with self._lock:
            if self._closed:
                raise RuntimeError("store is closed")
            ready = self._ready
            ready.append((tx, done))
            self._ready_ops += len(tx)
            self._urgent |= urgent
            if len(ready) >= self._wake_at or self._ready_ops >= ENOUGH_OPS or urgent:
                self.writer_waiting = False
                self._wakeup.signal()

    def commit_now(self, tx: StoreTx, sync: bool = True) -> bool:
        """Commit ``tx`` on the calling thread if the writer is idle (waiting, nothing queued):
        True when it is durable on return, False when it must be submitted. For a caller that
        can do nothing until it is durable (a message channel's batch end): handing the commit
        to the writer thread would cost GIL handoffs with the busy caller on each side of the
        fsync; the caller's own thread sleeps through the fsync instead. An error is raised.

        ``sync=False``: written to the WAL without an fsync (``synchronous=NORMAL``): it survives
        the process being killed, not the machine failing, and the next synced commit makes it
        durable with itself. Only for what may be lost that way (a message channel's record of
        a batch that held no persistent message)."""
        with self._lock:
            if not self.writer_waiting or self._ready or self._closed or self._shrink_writer:
                return False
            if not sync:
                self._cur.execute("PRAGMA synchronous = NORMAL")
            try:
                committed = self._commit_group([(tx, _ignore)], None)
            finally:
                if not sync:
                    self._cur.execute("PRAGMA synchronous = FULL")
            if committed.errors is not None and committed.errors[0] is not None:
                raise committed.errors[0]
            self._complete(committed)  # counts it as the writer counts its groups
            self.stats.inline += 1
            return True

    def release_memory(self) -> None:
        """Give back what SQLite caches (``PRAGMA shrink_memory``): the calling thread's reader
        connection now, the writer's once it has nothing to do. For an idle queue manager."""
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is not None:
            conn.execute("PRAGMA shrink_memory")
        with self._lock:
            self._shrink_writer = True
            self._wakeup.signal()

    def write(self, tx: StoreTx) -> None:
        """Submit and wait until durable; raises what the tx failed with."""
        if threading.current_thread() is self._writer_thread:
            raise RuntimeError("Store.write from the writer thread would deadlock")
        event = threading.Event()
        box: list[BaseException | None] = []

        def done(exc: BaseException | None) -> None:
            box.append(exc)
            event.set()

        self.submit(tx, done)
        event.wait()
        if box[0] is not None:
            raise box[0]

    def flush(self) -> None:
        """Wait until everything submitted so far is durable."""
        self.write(StoreTx())

    def close(self) -> None:
        """Finish the work already submitted, stop the writer and close every connection."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._wakeup.signal()
        if threading.current_thread() is not self._writer_thread:
            self._writer_thread.join()
        with self._lock:
            readers, self._readers = self._readers, []
        for conn in readers:
            conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _writer(self) -> None:
        """Gather a group, commit it; until close() and everything submitted is done.

        A committed group is completed (its ``done`` callbacks run) just before the *next*
        group's COMMIT, not right after its own: the producers it wakes then build their next
        txs while the writer waits on the fsync, instead of competing with the writer for the
        GIL while it applies the next group. When the next group is not ready yet it is
        completed at once: its callers may be the ones the next group waits for.
        """
        committed: _Committed | None = None
        policy = self.gathering
        while True:
            if committed is not None and not self._ready_to_commit():
                self._complete(committed)
                committed = None
            group, ran_out = self._gather()
            if not group:  # closed, and everything submitted is done
                break
            started = time.perf_counter()
            committed = self._commit_group(group, committed)
            txs = sum(1 for tx, _ in group if tx)
            if txs:
                policy.committed(txs, time.perf_counter() - started, ran_out)
        if committed is not None:
            self._complete(committed)
        self._conn.close()

    def _ready_to_commit(self) -> bool:
        with self._lock:
            return bool(self._ready) and (
                self._closed or self._urgent or not self.gathering.should_wait(len(self._ready), self._ready_ops))

    def _gather(self) -> tuple[list[tuple[StoreTx, Done]], bool]:
        """Wait for a tx, then (``GatherPolicy``) briefly for the others recent groups had; take
        everything ready. Returns the group (empty once closed and drained) and whether the
        wait for the others ran out."""
        ready, policy, wakeup = self._ready, self.gathering, self._wakeup
        ran_out = False
        with self._lock:
            while not ready and not self._closed:
                if self._shrink_writer:
                    self._shrink_writer = False
                    self.writer_waiting = False
                    self._lock.release()
                    try:
                        self._conn.execute("PRAGMA shrink_memory")
                    finally:
                        self._lock.acquire()
                    continue
                self.writer_waiting = True
                wakeup.sleep()
            self.writer_waiting = False
            if ready and not self._closed and not self._urgent and policy.should_wait(len(ready), self._ready_ops):
                want = policy.want()
                deadline = time.monotonic() + policy.delay()
                self._wake_at = want
                self.stats.waits += 1
                while len(ready) < want and self._ready_ops < ENOUGH_OPS and not self._closed and not self._urgent:
                    remaining = deadline - time.monotonic()
                    if remaining <= 0:
                        ran_out = True
                        self.stats.waits_ran_out += 1
                        break
                    self.writer_waiting = True
                    wakeup.sleep(remaining)
                self.writer_waiting = False
                self._wake_at = 1
            group = list(ready)
            ready.clear()
            self._ready_ops = 0
            self._urgent = False
        return group, ran_out

    def _commit_group(self, group: list[tuple[StoreTx, Done]], earlier: _Committed | None) -> _Committed:
        """Apply and commit ``group``; complete ``earlier`` before waiting on the fsync."""
        txs = [tx for tx, _ in group]
        if not any(txs):
            if earlier is not None:
                self._complete(earlier)
            return _Committed(group, None)
        cur = self._cur
        try:
            cur.execute("BEGIN IMMEDIATE")
            self._apply(txs)
        except Exception:
            self._rollback()
            if earlier is not None:
                self._complete(earlier)
            return _Committed(group, self._commit_one_by_one(txs))
        if earlier is not None:
            self._complete(earlier)
        started = time.perf_counter()
        try:
            cur.execute("COMMIT")
        except Exception:
            self._rollback()
            return _Committed(group, self._commit_one_by_one(txs))
        self.stats.commit_seconds += time.perf_counter() - started
        return _Committed(group, None)

    def _complete(self, committed: _Committed) -> None:
        """Count a finished group and call its ``done`` callbacks."""
        stats = self.stats
        group, errors = committed
        if errors is None:
            nops = sum([len(tx) for tx, _ in group])
            if nops:
                stats.commits += 1
                stats.transactions += sum([1 for tx, _ in group if tx])
                stats.ops += nops
            for _, done in group:
                self._call(done, None)
            return
        if any(err is None for err in errors):
            stats.commits += 1
        for (tx, done), err in zip(group, errors, strict=True):
            if err is None:
                stats.transactions += 1 if tx else 0
                stats.ops += len(tx)
            else:
                stats.failed += 1
            self._call(done, err)

    def _commit_one_by_one(self, txs: list[StoreTx]) -> list[BaseException | None]:
        """After a failed group: each tx in its own savepoint, so only the bad ones fail."""
        cur = self._cur
        errors: list[BaseException | None] = []
        try:
            cur.execute("BEGIN IMMEDIATE")
            for tx in txs:
                cur.execute("SAVEPOINT tx")
                try:
                    self._apply([tx])
                except Exception as exc:
                    cur.execute("ROLLBACK TO tx")
                    errors.append(exc)
                else:
                    errors.append(None)
                cur.execute("RELEASE tx")
            cur.execute("COMMIT")
        except Exception as exc:
            self._rollback()
            failed: list[BaseException | None] = [err or exc for err in errors]
            return failed + [exc] * (len(txs) - len(failed))
        return errors

    def _apply(self, txs: list[StoreTx]) -> None:
        """Run the ops of ``txs`` in order, one executemany per run of same-kind ops."""
        run_op = -1
        run: list[list[Row]] = []
        for tx in txs:
            for op, rows in tx.runs:
                if op != run_op:
                    if run:
                        self._run(run_op, run)
                    run_op = op
                    run = [rows]
                else:
                    run.append(rows)
        if run:
            self._run(run_op, run)

    def _run(self, op: int, run: list[list[Row]]) -> None:
        if op == FAIL:
            raise run[0][0][0]
        rows = run[0] if len(run) == 1 else list(chain.from_iterable(run))
        if op in (PUT_MESSAGE, DELETE_MESSAGE):  # the hot ops: many rows per statement
            statements = (insert_statements(PUT_HEAD, rows) if op == PUT_MESSAGE
                          else delete_statements(DELETE_HEAD, rows))
            execute = self._cur.execute
            for sql, params in statements:
                execute(sql, params)
            return
        if op == PURGE_QUEUE:
            self._cur.executemany(PURGE_MARK_SQL, rows)
        self._cur.executemany(OP_SQL[op], rows)

    def _rollback(self) -> None:
        if self._conn.in_transaction:
            try:
                self._cur.execute("ROLLBACK")
            except sqlite3.Error:
                log.exception("store rollback failed")

    @staticmethod
    def _call(done: Done, err: BaseException | None) -> None:
        try:
            done(err)
        except Exception:
            log.exception("store done callback failed")

    # -- reading (one connection per calling thread) ---------------------------------------

    def _reader(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._connect()
            conn.execute("PRAGMA query_only = 1")
            with self._lock:
                if self._closed:
                    conn.close()
                    raise RuntimeError("store is closed")
                self._readers.append(conn)
            self._local.conn = conn
        return conn

    def read_message(self, queue: str, seq: int) -> Message | None:
        # fetchall, not fetchone: a statement left unfinished would pin this thread's snapshot.
        rows = self._reader().execute(READ_ONE, (queue, seq)).fetchall()
        return _message(*rows[0]) if rows else None

    def read_messages(self, queue: str, seqs: Sequence[int]) -> dict[int, Message]:
        """The messages of ``seqs`` that exist, by seq; one statement whatever the count."""
        if not seqs:
            return {}
        cur = self._reader().execute(READ_MANY, (queue, json.dumps(list(seqs))))
        return {seq: _message(md, props, body, backout) for seq, md, props, body, backout in cur}

    def scan_index(self, queue: str | None = None) -> Iterator[IndexRow]:
        """Every message's index row, by (queue, seq), streamed from a cursor (no bodies read).

        The read snapshot stays open until the iterator is exhausted or closed.
        """
        conn = self._reader()
        cur = conn.execute(SCAN + ORDER) if queue is None else conn.execute(SCAN + " WHERE queue = ?" + ORDER, (queue,))
        try:
            yield from map(IndexRow._make, cur)
        finally:
            cur.close()

    def find_ids(self, queue: str, msg_id: bytes | None, correl_id: bytes | None) -> list[int]:
        """Seqs (ascending) of the messages matching both ids; None matches any."""
        sql = "SELECT seq FROM messages WHERE queue = ?"
        args: list[Any] = [queue]
        for column, value in (("msg_id", msg_id), ("correl_id", correl_id)):
            if value is None:
                continue
            if value == NULL_ID:
                sql += f" AND {column} IS NULL"
            else:
                sql += f" AND {column} = ?"
                args.append(value)
        # Sorted here, not by ORDER BY: without table statistics SQLite would rather walk the
        # queue in seq order than use an id index and sort the (usually few) matches.
        return sorted(seq for (seq,) in self._reader().execute(sql, args))

    def queue_names(self) -> list[str]:
        """Queues that hold at least one message (one index seek per queue, however deep)."""
        cur = self._reader().execute(
            "WITH RECURSIVE q(name) AS (SELECT min(queue) FROM messages UNION ALL"
            " SELECT (SELECT min(queue) FROM messages WHERE queue > q.name) FROM q WHERE q.name IS NOT NULL)"
            " SELECT name FROM q WHERE name IS NOT NULL"
        )
        return [name for (name,) in cur]

    def max_seq(self, queue: str) -> int:
        """The queue's high-water mark: the higher of its highest stored seq and its mark (the
        numbers told to stream readers, ``StoreTx.mark_seq``, and a purge's), kept after deletes;
        0 if none. Neither a put nor a delete writes a mark."""
        row = self._reader().execute(
            "SELECT max(coalesce((SELECT max_seq FROM queue_meta WHERE queue = ?1), 0),"
            " coalesce((SELECT max(seq) FROM messages WHERE queue = ?1), 0))", (queue,)).fetchone()
        return int(row[0])

    def load_records(self, kind: str) -> dict[str, Any]:
        cur = self._reader().execute("SELECT key, value FROM records WHERE kind = ?", (kind,))
        return {key: decode_value(value) for key, value in cur}
