"""A local queue's messages: delivery order, cursors, locking and body eviction.

Messages sit in ten priority levels (one when MSGDLVSQ is FIFO); within a level they keep
put order by a per-queue sequence number, which the store also uses as the row key and
Spark as the offset. A level is a list with a moving head: gets take from the front,
removed entries are tombstones skipped lazily and compacted in bulk, so get and put are
O(1) amortised and a browse cursor can bisect by sequence number.

A persistent message's body may be dropped from memory once it is durable ("evicted"):
the entry then keeps only what ordering and expiry need, and the body is read back from
the store when the message is delivered. That keeps a queue's depth bounded by disk.
"""

from __future__ import annotations

import bisect
import contextlib
from collections import deque
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, Final, Protocol

from mqlite.message import Message

if TYPE_CHECKING:
    from mqlite.core.waiters import Waiter

# Entry states.
UNCOMMITTED: Final = 0  # put inside a unit of work that has not committed: counted, not visible
AVAILABLE: Final = 1
LOCKED: Final = 2  # got inside a unit of work that has not committed
REMOVED: Final = 3

NEVER: Final = 0.0
NEVER_HIGH: Final = 2**63 - 1  # a DepthWatch's high while no Queue Depth High event is armed (sys.maxsize)
RESIDENT_LIMIT = 10_000  # persistent bodies kept in memory per queue
RESIDENT_BYTES = 64 * 1024 * 1024
PREFETCH: Final = 256  # evicted bodies read back from the store in one query


class MessageReader(Protocol):
    """What a queue needs from the store to bring evicted bodies back."""

    def read_messages(self, queue: str, seqs: list[int]) -> dict[int, Message]: ...

    def find_ids(self, queue: str, msg_id: bytes | None, correl_id: bytes | None) -> list[int]: ...


class Entry:
    """One message on a queue; ``message`` is None while its body is evicted.

    ``level`` is the priority level the entry was filed under when it was added (0 for every
    message of a FIFO queue), so ALTER MSGDLVSQ never loses track of queued messages.
    """

    __slots__ = ("durable", "expiry_at", "level", "message", "persistent", "seq", "state")

    def __init__(self, seq: int, level: int, message: Message | None, expiry_at: float, state: int) -> None:
        self.seq = seq
        self.level = level
        self.message = message
        self.expiry_at = expiry_at
        self.state = state
        self.durable = False
        self.persistent = message.persistent if message is not None else True

    def __repr__(self) -> str:
        return f"Entry(seq={self.seq}, level={self.level}, state={self.state})"


def _seq_key(entry: Entry) -> int:
    return entry.seq


class _Level:
    """One priority level. Entries before ``head`` are removed; entries before ``scan`` are not
    available (locked in units of work, uncommitted, removed), so a get with many consumers'
    messages locked at the front does not step over them again each time. ``removed`` counts
    the removed entries still in the list, wherever they are."""

    __slots__ = ("entries", "head", "removed", "scan")

    def __init__(self) -> None:
        self.entries: list[Entry] = []
        self.head = 0
        self.scan = 0
        self.removed = 0

    def compact(self) -> None:
        """Drop the removed entries at the front once they are a good share of the list."""
        entries, head = self.entries, self.head
        while head < len(entries) and entries[head].state == REMOVED:
            head += 1
        if head > 512 and head * 2 > len(entries):
            del entries[:head]
            self.removed -= head
            self.scan = max(0, self.scan - head)
            head = 0
        self.head = head
        if self.scan < head:
            self.scan = head

    def sweep(self) -> None:
        """Drop removed entries wherever they are (once they are most of the list): a message
        that stays at the front (locked, or never matched by the gets) must not make the list
        keep every message consumed behind it."""
        self.entries = [e for e in self.entries if e.state != REMOVED]
        self.head = self.scan = self.removed = 0

    def rescan_from(self, entry: Entry) -> None:
        """``entry`` became available again (commit of a put, backout of a get)."""
        if self.scan > self.head:
            index = bisect.bisect_left(self.entries, entry.seq, lo=self.head, hi=self.scan, key=_seq_key)
            self.scan = min(self.scan, index)


class DepthWatch:
    """A local queue's queue depth event thresholds: the depth at or above which a put calls
    ``events`` back (``high``, never reached while no Queue Depth High event is armed), the depth
    at or below which a get does (``low``, -1 while none is armed), and when the statistics the
    events carry began (``since``). ``events`` is None while PERFMEV is off. With a queue service
    interval event armed every put and get calls back (``high`` 0, ``low`` NEVER_HIGH), and the
    callback compares the depth thresholds itself (``depth_high``, ``depth_low``); ``interval``
    is QSVCINT in seconds (-1 while QSVCIEV is NONE), ``svc_start`` the service timer's start
    (-1 while it is off)."""

    # stats: the queue's statistics counters (core.statistics.counters.QueueCounters) while a
    # reader wants them, else None (the hot path's test); kept_stats keeps them while none does.
    # enq_base, deq_base: the queue's enqueued and dequeued totals at the last reset (RESET QSTATS,
    # a performance event), so the totals themselves never go back (DISPLAY QSTATUS, /metrics).
    __slots__ = ("depth_high", "depth_low", "deq_base", "enq_base", "events", "high", "interval", "kept_stats", "low",
                 "since", "stats", "svc_start")

    def __init__(self) -> None:
        self.high = self.depth_high = NEVER_HIGH
        self.low = self.depth_low = -1
        self.events: Any = None
        self.since = 0.0
        self.enq_base = self.deq_base = 0
        self.interval = -1.0
        self.svc_start = -1.0
        self.stats: Any = None
        self.kept_stats: Any = None


class LocalQueue:
    """The messages and runtime state of one local queue (definition attributes live in ``attrs``)."""

    def __init__(self, name: str, attrs: dict[str, Any], reader: MessageReader | None = None) -> None:
        self.name = name
        self.attrs = attrs
        self.reader = reader
        self.levels = [_Level() for _ in range(10)]
        self.depth = 0  # CURDEPTH: available + uncommitted puts (a got message leaves at MQGET)
        self.expiring = 0  # live entries with an expiry (the periodic sweep skips queues with none)
        self.uncommitted = 0
        self.locked = 0  # got inside units of work that have not committed
        self.next_seq = 1
        # The store's durable high-water mark of this queue's numbers (raised by ``Ranges._tell``): no number
        # a stream reader was told of is above it, so a restart numbers on from above it.
        self.seq_mark = 0
        self.waiters: deque[Waiter] = deque()
        self.read_ahead: list[Any] = []  # handles streaming non-persistent messages ahead
        self.open_input = 0
        self.open_output = 0
        self.exclusive_holder: object | None = None
        self.resident = 0  # persistent durable bodies in memory
        self.resident_bytes = 0
        self.evicted = 0
        self._eviction_candidates: list[Entry] = []
        self.dynamic: str = ""  # "", "TEMPDYN" or "PERMDYN"
        self.deleted = False
        self.fifo = attrs.get("MSGDLVSQ") == "FIFO"
        self.max_depth = int(attrs.get("MAXDEPTH", 5000))
        self.max_msgl = int(attrs.get("MAXMSGL", 4194304))
        # Puts and destructive gets (committed or not) since the queue manager started (never
        # reset: ``reset_stats`` keeps its bases in ``watch``), and the deepest the queue has been
        # since the last reset.
        self.enqueued = 0
        self.dequeued = 0
        self.high_depth = 0
        # The statistics' start and the queue depth events' thresholds (core.events.performance).
        # (One attribute: a LocalQueue has 29 instance attributes, and from the 30th CPython 3.11
        # no longer keeps them in a shared-key dict, which costs every put and get ~1,800 instructions.)
        self.watch = DepthWatch()
        # CorrelId -> its entries per level, in put order: built at the first get by CorrelId (a
        # cluster transmission queue's senders each take their own), kept up to date after.
        self._by_correl: dict[bytes, list[deque[Entry]]] | None = None

    @property
    def stats_since(self) -> float:
        """When RESET QSTATS's (and the performance events') counting began."""
        return self.watch.since

    @stats_since.setter
    def stats_since(self, value: float) -> None:
        self.watch.since = value

    def reset_stats(self, now: float) -> tuple[int, int, int, int]:
        """RESET QSTATS (and a performance event): ENQCOUNT, DEQCOUNT, HIQDEPTH and the seconds
        since the last reset, and counting anew from ``now``."""
        watch = self.watch
        counts = (self.enqueued - watch.enq_base, self.dequeued - watch.deq_base, self.high_depth,
                  max(0, int(now - watch.since)))
        watch.enq_base, watch.deq_base = self.enqueued, self.dequeued
        self.high_depth, watch.since = self.depth, now
        return counts

    # -- attributes used on hot paths ---------------------------------------------------
    def refresh(self) -> None:
        """Re-read the attributes cached for the hot paths (after DEFINE REPLACE / ALTER)."""
        # Messages already queued keep their level; new ones follow the new sequence.
        self.fifo = self.attrs.get("MSGDLVSQ") == "FIFO"
        self.max_depth = int(self.attrs.get("MAXDEPTH", 5000))  # not settable by MQSET: ALTER refreshes
        self.max_msgl = int(self.attrs.get("MAXMSGL", 4194304))

    def level_of(self, priority: int) -> int:
        return 0 if self.fifo else (9 if priority > 9 else priority if priority > 0 else 0)

    # -- adding ------------------------------------------------------------------------
    def add(self, message: Message, expiry_at: float, state: int, seq: int | None = None) -> Entry:
        if seq is None:
            seq = self.next_seq
        if seq >= self.next_seq:
            self.next_seq = seq + 1
        index = self.level_of(message.md.Priority)
        entry = Entry(seq, index, message, expiry_at, state)
        if expiry_at:
            self.expiring += 1
        level = self.levels[index]
        if level.removed > 512 and level.removed * 2 > len(level.entries):
            level.sweep()  # here, not in remove(): nobody is walking the list during a put
        entries = level.entries
        if entries and entries[-1].seq > seq:  # recovery may interleave; keep seq order
            bisect.insort(entries, entry, key=_seq_key)
            self.levels[index].scan = self.levels[index].head
            self._by_correl = None  # (rebuilt in order at the next get by CorrelId)
        else:
            entries.append(entry)
            if self._by_correl is not None:
                self._index(entry, message.md.CorrelId)
        self.depth += 1
        self.enqueued += 1
        if self.depth > self.high_depth:
            self.high_depth = self.depth
        if state == UNCOMMITTED:
            self.uncommitted += 1
        if self.depth >= self.watch.high:
            self.watch.events.on_high(self)
        return entry

    def add_evicted(self, seq: int, priority: int, expiry_at: float) -> Entry:
        """An index entry recovered from the store: durable, body on disk only."""
        index = self.level_of(priority)
        entry = Entry(seq, index, None, expiry_at, AVAILABLE)
        entry.durable = True
        if expiry_at:
            self.expiring += 1
        entries = self.levels[index].entries
        if entries and entries[-1].seq > seq:
            bisect.insort(entries, entry, key=_seq_key)
            self.levels[index].scan = self.levels[index].head
        else:
            entries.append(entry)
        self._by_correl = None  # its CorrelId is on disk: the index is built when none is evicted
        if seq >= self.next_seq:
            self.next_seq = seq + 1
        self.depth += 1
        self.high_depth = max(self.high_depth, self.depth)
        self.evicted += 1
        return entry

    def commit_put(self, entry: Entry) -> None:
        entry.state = AVAILABLE
        self.uncommitted -= 1
        self.levels[entry.level].rescan_from(entry)

    def lock(self, entry: Entry) -> None:
        """Got under syncpoint: off the queue for everyone until commit or backout."""
        entry.state = LOCKED
        self.depth -= 1
        self.dequeued += 1  # (a backout does not take it back, as IBM counts)
        self.locked += 1
        if self.depth <= self.watch.low:
            self.watch.events.on_low(self)
        if self._by_correl is not None:  # out of the CorrelId index: a channel's batch in flight
            self._unindex(entry)         # is not stepped over by each get of the next one

    def unlock(self, entry: Entry) -> None:
        """Backed out: the message is available again, where it was."""
        entry.state = AVAILABLE
        self.depth += 1
        self.locked -= 1
        self.levels[entry.level].rescan_from(entry)
        if self._by_correl is not None:
            self._reindex(entry)

    # -- removing ----------------------------------------------------------------------
    def remove(self, entry: Entry) -> None:
        if entry.state == REMOVED:
            return
        if entry.state == UNCOMMITTED:
            self.uncommitted -= 1
        if entry.state == LOCKED:
            self.locked -= 1
        else:
            self.depth -= 1
            if entry.state == AVAILABLE:
                self.dequeued += 1  # got outside a unit of work (or expired)
                if self.depth <= self.watch.low:
                    self.watch.events.on_low(self)
        if entry.expiry_at:
            self.expiring -= 1
        entry.state = REMOVED
        if entry.message is None:
            self.evicted -= 1
        elif entry.durable and entry.message.persistent:
            self.resident -= 1
            self.resident_bytes -= len(entry.message.body)
        entry.message = None  # the getter holds its own reference; free the memory here
        if not (self.depth or self.locked or self.uncommitted) and self._eviction_candidates:
            self._eviction_candidates = []  # the queue is empty: every candidate was consumed
        level = self.levels[entry.level]
        level.removed += 1
        if level.entries and level.head < len(level.entries) and level.entries[level.head] is entry:
            level.compact()

    def clear(self) -> list[Entry]:
        """Remove every committed message (CLEAR QLOCAL); returns what was removed."""
        removed = [e for e in self.iter_entries() if e.state == AVAILABLE]
        low, self.watch.low = self.watch.low, -1  # a CLEAR is not a get: no Queue Depth Low
        for entry in removed:
            self.remove(entry)
        self.watch.low = low
        self.dequeued -= len(removed)  # (cleared, not got)
        if self.watch.stats is not None:  # statistics' PurgeCount (core.statistics)
            self.watch.stats.purged += len(removed)
        return removed

    # -- finding -----------------------------------------------------------------------
    def iter_entries(self) -> Iterator[Entry]:
        """Every live entry in delivery order (highest priority first, then put order)."""
        for level in reversed(self.levels):
            entries = level.entries
            for i in range(level.head, len(entries)):
                entry = entries[i]
                if entry.state != REMOVED:
                    yield entry

    def iter_after(self, start_level: int, seq: int) -> Iterator[Entry]:
        """Live entries that come after position (level, seq) in delivery order."""
        for index in range(start_level, -1, -1):
            level = self.levels[index]
            entries = level.entries
            start = level.head
            if index == start_level:
                start = max(start, bisect.bisect_right(entries, seq, key=_seq_key))
            for i in range(start, len(entries)):
                entry = entries[i]
                if entry.state != REMOVED:
                    yield entry

    def in_range(self, after: int, through: int, limit: int, now: float, expired: list[Entry]) -> list[Entry]:
        """Available, unexpired entries with ``after < seq <= through``, in sequence order, at most
        ``limit`` (offsets for stream readers: sequence numbers only grow, across restarts too);
        expired ones in the range are removed into ``expired``, as ``available`` does."""
        found = self.available(now, expired, limit=None, seqs=(after, through))
        found.sort(key=_seq_key)
        return found[:limit]

    def iter_seqs(self, after: int, through: int) -> Iterator[Entry]:
        """Live entries with ``after < seq <= through``, level by level (not in sequence order)."""
        for level in self.levels:
            entries = level.entries
            start = max(level.head, bisect.bisect_right(entries, after, lo=level.head, key=_seq_key))
            for i in range(start, len(entries)):
                entry = entries[i]
                if entry.seq > through:
                    break
                if entry.state != REMOVED:
                    yield entry

    def first_available(self, now: float, expired: list[Entry]) -> Entry | None:
        """The next message to deliver; expired ones met on the way are removed into ``expired``."""
        for level in reversed(self.levels):
            entries = level.entries
            if not entries:  # most of a queue's ten priority levels, most of the time
                continue
            i = level.scan if level.scan > level.head else level.head
            n = len(entries)
            while i < n:
                entry = entries[i]
                if entry.state == AVAILABLE:
                    if entry.expiry_at and entry.expiry_at <= now:
                        self.remove(entry)
                        expired.append(entry)
                    else:
                        level.scan = i
                        return entry
                i += 1
            level.scan = n
            if level.head < n and entries[level.head].state == REMOVED:
                level.compact()
        return None

    def available(self, now: float, expired: list[Entry], after: tuple[int, int] | None = None,
                  limit: int | None = 1, accept: Callable[[Entry], bool] | None = None,
                  seqs: tuple[int, int] | None = None) -> list[Entry]:
        """Up to ``limit`` (None: all) available, unexpired entries that ``accept`` takes: in
        delivery order from the head or after the browse position ``after`` (level, seq), or
        those with sequence numbers in ``seqs`` (after, through]. Expired entries met on the way
        are removed and added to ``expired``, for the caller to delete from the store. Every
        reader of a queue scans through here, but the head-of-queue get (``first_available``),
        which keeps a cursor for speed."""
        found: list[Entry] = []
        dead: list[Entry] = []
        if seqs is not None:
            walk = self.iter_seqs(*seqs)
        else:
            walk = self.iter_entries() if after is None else self.iter_after(*after)
        for entry in walk:
            if entry.state != AVAILABLE:
                continue
            if entry.expiry_at and entry.expiry_at <= now:
                dead.append(entry)
                continue
            if accept is None or accept(entry):
                found.append(entry)
                if limit is not None and len(found) >= limit:
                    break
        for entry in dead:  # after the scan: removing may compact the list being walked
            self.remove(entry)
        expired.extend(dead)
        return found

    def _index(self, entry: Entry, correl: bytes) -> None:
        self._correl_level(correl, entry.level).append(entry)

    def _correl_level(self, correl: bytes, level: int) -> deque[Entry]:
        """The index's entries of ``correl`` at priority ``level``: a CorrelId's list holds the
        levels up to the highest it has used (one on a FIFO queue), so a get looks at those only."""
        assert self._by_correl is not None
        levels = self._by_correl.get(correl)
        if levels is None:
            levels = self._by_correl[correl] = []
        while len(levels) <= level:
            levels.append(deque())
        return levels[level]

    def _unindex(self, entry: Entry) -> None:
        assert self._by_correl is not None
        if entry.message is None:
            self._by_correl = None  # its CorrelId is on disk: rebuilt when it is needed again
            return
        levels = self._by_correl.get(entry.message.md.CorrelId)
        entries = levels[entry.level] if levels is not None and entry.level < len(levels) else None
        if entries and entries[0] is entry:  # the usual case: the head of a channel's messages
            entries.popleft()
        elif entries:
            with contextlib.suppress(ValueError):
                entries.remove(entry)

    def _reindex(self, entry: Entry) -> None:
        """A backed-out entry back into the CorrelId index, in sequence order (where it was)."""
        assert self._by_correl is not None
        if entry.message is None:
            self._by_correl = None
            return
        entries = self._correl_level(entry.message.md.CorrelId, entry.level)
        # backed-out messages were at the front: the first later one is near
        position = next((i for i, other in enumerate(entries) if other.seq > entry.seq), len(entries))
        entries.insert(position, entry)

    def _find_correl(self, now: float, expired: list[Entry], correl: bytes) -> Entry | None:
        """The first available message with this CorrelId, through the index: the removed ones at
        the front go, uncommitted puts are stepped over (locked gets are out of the index)."""
        if self._by_correl is None:
            self._by_correl = {}
            for entry in self.iter_entries():
                assert entry.message is not None  # (built only when nothing is evicted)
                self._index(entry, entry.message.md.CorrelId)
        levels = self._by_correl.get(correl)
        if levels is None:
            return None
        for entries in reversed(levels):  # the highest priority first
            while entries and entries[0].state == REMOVED:
                entries.popleft()
            for entry in entries:
                if entry.state != AVAILABLE:
                    continue
                if entry.expiry_at and entry.expiry_at <= now:
                    self.remove(entry)
                    expired.append(entry)
                    continue
                return entry
        return None

    def find_match(
        self, now: float, expired: list[Entry], msg_id: bytes | None, correl_id: bytes | None
    ) -> Entry | None:
        """The first available message with these ids (None = any)."""
        if msg_id is None and correl_id is not None and (self._by_correl is not None or not self.evicted):
            return self._find_correl(now, expired, correl_id)
        on_disk: set[int] = set()
        if self.evicted and self.reader is not None:
            on_disk = set(self.reader.find_ids(self.name, msg_id, correl_id))

        def matches(entry: Entry) -> bool:
            message = entry.message
            if message is None:
                return entry.seq in on_disk
            md = message.md
            return (msg_id is None or md.MsgId == msg_id) and (correl_id is None or md.CorrelId == correl_id)

        found = self.available(now, expired, accept=matches)
        return found[0] if found else None

    # -- bodies ------------------------------------------------------------------------
    def load(self, entry: Entry) -> Message:
        """The message of an entry, reading evicted bodies back (with the next ones)."""
        message = entry.message
        if message is not None:
            return message
        if self.reader is None:
            raise RuntimeError(f"queue {self.name}: evicted message {entry.seq} and no store")
        batch = [entry]
        for other in self.iter_after(entry.level, entry.seq):
            if len(batch) >= PREFETCH:
                break
            if other.message is None and other.state == AVAILABLE:
                batch.append(other)
        found = self.reader.read_messages(self.name, [e.seq for e in batch])
        for other in batch:
            loaded = found.get(other.seq)
            if loaded is not None and other.message is None:
                other.message = loaded
                self.evicted -= 1
                self.resident += 1
                self.resident_bytes += len(loaded.body)
        if entry.message is None:
            raise RuntimeError(f"queue {self.name}: message {entry.seq} missing from the store")
        return entry.message

    def made_durable(self, entry: Entry) -> None:
        """The store holds this persistent message now: its body may leave memory."""
        if entry.durable or entry.message is None:
            return
        entry.durable = True
        if entry.state == REMOVED:
            return
        self.resident += 1
        self.resident_bytes += len(entry.message.body)
        self._eviction_candidates.append(entry)

    def evict(self) -> int:
        """Drop the newest resident persistent bodies while over the memory budget."""
        evicted = 0
        candidates = self._eviction_candidates
        while (self.resident > RESIDENT_LIMIT or self.resident_bytes > RESIDENT_BYTES) and candidates:
            entry = candidates.pop()
            message = entry.message
            if message is None or entry.state != AVAILABLE:
                continue
            self.resident -= 1
            self.resident_bytes -= len(message.body)
            entry.message = None
            self.evicted += 1
            evicted += 1
        # Forget entries consumed meanwhile once they are most of the list: it holds at most about
        # twice the resident bodies, so a queue that drained does not keep its entries.
        if len(candidates) > 2 * self.resident + 64:
            self._eviction_candidates = [e for e in candidates if e.state == AVAILABLE and e.message]
        return evicted


def expiry_deadline(expiry_tenths: int, now: float) -> float:
    """The absolute time a message expires (MQMD Expiry is in tenths of a second)."""
    return now + expiry_tenths / 10 if expiry_tenths > 0 else NEVER


def remaining_expiry(entry: Entry, now: float) -> int:
    """The Expiry field a getter sees: the time left, in tenths."""
    if not entry.expiry_at:
        return -1
    return max(1, int((entry.expiry_at - now) * 10 + 0.999))

