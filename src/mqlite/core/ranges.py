"""Reading a queue by sequence number: offsets for stream readers such as the Spark source.

Every message on a queue has a per-queue sequence number that only grows (the store keeps the
high-water mark across restarts). A stream reader asks for the newest one, browses ranges
(``after < seq <= through``, nothing removed) and, once its consumer has committed a range,
removes everything through its end. Reading a range twice gives the same messages, which is
what makes a restarted query exactly-once.
"""

from __future__ import annotations

from collections.abc import Callable

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.outbox import Outbox
from mqlite.core.queues import AVAILABLE, Entry, LocalQueue
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

    def queue_offsets(self, name: str) -> tuple[int, int]:
        """(the sequence number before the oldest available message, the newest one)."""
        queue = self._queue(name)
        newest = queue.next_seq - 1
        oldest = self._in_range(queue, 0, newest, 1)
        return (oldest[0].seq - 1 if oldest else newest), newest

    def browse_range(self, name: str, after: int, through: int, limit: int = MAX_RANGE) -> list[tuple[int, Message]]:
        """The available messages with ``after < seq <= through`` (at most ``limit``), left in place."""
        queue = self._queue(name)
        entries = self._in_range(queue, after, through, min(limit, MAX_RANGE))
        return [(entry.seq, queue.load(entry)) for entry in entries]

    def remove_through(self, name: str, through: int) -> int:
        """Remove every available message with ``seq <= through`` (a committed range); how many."""
        queue = self._queue(name)
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
