"""Reading a queue by sequence number: offsets for stream readers such as the Spark source.

Every message on a queue has a per-queue sequence number that only grows. A stream reader asks
for the newest one, browses ranges (``after < seq <= through``, nothing removed) and, once its
consumer has committed a range, removes everything through its end. Reading a range twice gives
the same messages, which is what makes a restarted query exactly-once.

Across restarts too: a number a reader was told of (or named) is never handed out again, or a
message put after a restart could land at or below an offset a reader already committed, to be
skipped and then removed by its next commit. Stored messages keep their numbers, but the numbers
of non-persistent ones are forgotten; so before a call here tells a reader of a number above the
store's high-water mark (``LocalQueue.seq_mark``), it raises the mark in the round's store
transaction, and the reply waits for the disk. Puts pay nothing; a stream pays one small write per
call that sees new messages; numbers no reader was told of may be handed out again after a
restart (no gap in the numbers, which readers split into ranges), as nobody can tell.
"""

from __future__ import annotations

from collections.abc import Callable

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.outbox import Outbox
from mqlite.core.queues import AVAILABLE, UNCOMMITTED, Entry, LocalQueue
from mqlite.message import Message

MAX_RANGE = 10_000  # messages per browse call


class Ranges:
    """The offset calls: a queue's sequence numbers, browsing a range, removing what was read."""

    def __init__(self, queues: dict[str, LocalQueue], outbox: Outbox, clock: Callable[[], float]) -> None:
        self.queues = queues
        self.outbox = outbox
        self.clock = clock

    def _in_range(self, queue: LocalQueue, after: int, through: int, limit: int) -> list[Entry]:
        """The available messages of the range; expired ones met there leave the queue and the store."""
        expired: list[Entry] = []
        found = queue.in_range(after, through, limit, self.clock(), expired)
        tx = self.outbox.tx
        for entry in expired:
            if entry.persistent:
                tx.delete_message(queue.name, entry.seq)
        return found

    def _queue(self, name: str) -> LocalQueue:
        queue = self.queues.get(name)
        if queue is None:
            raise MQError(C.MQRC_UNKNOWN_OBJECT_NAME, f"local queue {name} is not defined")
        return queue

    def _tell(self, queue: LocalQueue, seq: int) -> None:
        """A reader learns of ``seq``: make sure the store's high-water mark covers it before the
        reply goes (a temporary dynamic queue ends with the queue manager: no mark needed)."""
        if seq > queue.seq_mark and queue.dynamic != "TEMPDYN":
            self.outbox.persist_mark(queue, seq)

    def queue_offsets(self, name: str) -> tuple[int, int]:
        """(the sequence number before the oldest available message, the newest one)."""
        queue = self._queue(name)
        newest = queue.next_seq - 1
        if queue.uncommitted:  # a unit of work's puts not committed yet: the offset stays below the
            pending = [e.seq for e in queue.iter_entries() if e.state == UNCOMMITTED]  # oldest of them,
            if pending:  # or a reader would commit past them and remove them when they land
                newest = min(newest, min(pending) - 1)
        self._tell(queue, newest)
        oldest = self._in_range(queue, 0, newest, 1)
        return (oldest[0].seq - 1 if oldest else newest), newest

    def browse_range(self, name: str, after: int, through: int, limit: int = MAX_RANGE) -> list[tuple[int, Message]]:
        """The available messages with ``after < seq <= through`` (at most ``limit``), left in place."""
        queue = self._queue(name)
        entries = self._in_range(queue, after, through, min(limit, MAX_RANGE))
        if entries:
            self._tell(queue, entries[-1].seq)
        return [(entry.seq, queue.load(entry)) for entry in entries]

    def remove_through(self, name: str, through: int) -> int:
        """Remove every available message with ``seq <= through`` (a committed range); how many."""
        queue = self._queue(name)
        self._tell(queue, min(through, queue.next_seq - 1))
        removed = 0
        while True:
            batch = self._in_range(queue, 0, through, MAX_RANGE)
            if not batch:
                return removed
            tx = self.outbox.tx
            for entry in batch:
                if entry.persistent:
                    tx.delete_message(queue.name, entry.seq)
                queue.remove(entry)
            removed += len(batch)

    def remove_entry(self, name: str, entry: Entry) -> bool:
        """Remove a message a browser holds the entry of (an MQTT delivery the client has
        acknowledged, say), if it is still available; False when it is not."""
        if entry.state != AVAILABLE:
            return False
        queue = self._queue(name)
        if entry.persistent:
            self.outbox.tx.delete_message(queue.name, entry.seq)
        queue.remove(entry)
        return True
