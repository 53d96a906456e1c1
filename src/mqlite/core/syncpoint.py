"""Units of work made final or undone (MQCMIT, MQBACK), backout counting with its requeue to
BOQNAME, and the queue manager's own moves of messages (requeue, dead letters)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mqlite import cmqc as C
from mqlite.core import dead_letter
from mqlite.core.handles import Connection
from mqlite.core.outbox import Outbox
from mqlite.core.queues import AVAILABLE, LOCKED, UNCOMMITTED, Entry, LocalQueue
from mqlite.message import Message


class Syncpoint:
    """Commit and backout of a connection's unit of work, and the dead-letter queue."""

    def __init__(self, qmgr_name: str, qmgr_attrs: dict[str, Any], queues: dict[str, LocalQueue],
                 deliver: Callable[[LocalQueue], None], outbox: Outbox, clock: Callable[[], float]) -> None:
        self.qmgr_name = qmgr_name
        self.qmgr_attrs = qmgr_attrs
        self.queues = queues
        self.deliver = deliver
        self.outbox = outbox
        self.clock = clock

    def commit(self, conn: Connection) -> None:
        puts, gets = conn.uow.take()
        touched: list[LocalQueue] = []
        outbox = self.outbox
        for queue, entry in puts:
            if entry.state != UNCOMMITTED:
                continue
            queue.commit_put(entry)
            message = entry.message
            if message is not None and message.persistent and queue.dynamic != "TEMPDYN":
                outbox.persist_put(queue, entry, message)
            if queue not in touched:
                touched.append(queue)
        for queue, entry in gets:
            if entry.state != LOCKED:
                continue
            if entry.persistent:
                outbox.tx.delete_message(queue.name, entry.seq)
            queue.remove(entry)
        for queue in touched:
            if queue.waiters or queue.read_ahead:
                self.deliver(queue)
        for action in conn.uow.take_after_commit():
            action()

    def backout(self, conn: Connection) -> None:
        conn.uow.take_after_commit()
        puts, gets = conn.uow.take()
        for queue, entry in puts:
            queue.remove(entry)
        touched: list[LocalQueue] = []
        for queue, entry in reversed(gets):
            if entry.state != LOCKED:
                continue
            queue.unlock(entry)
            self._count_backout(queue, entry)
            if queue not in touched:
                touched.append(queue)
        for queue in touched:
            if queue.waiters or queue.read_ahead:
                self.deliver(queue)

    def _count_backout(self, queue: LocalQueue, entry: Entry) -> None:
        message = queue.load(entry)
        md = message.md
        md.BackoutCount += 1
        if message.persistent:
            self.outbox.tx.set_backout(queue.name, entry.seq, md.BackoutCount)
        threshold = int(queue.attrs.get("BOTHRESH", 0))
        if threshold <= 0 or md.BackoutCount < threshold:
            return
        # A poisoned message: to BOQNAME; failing that to the dead-letter queue (as IBM's JMS and
        # XMS clients do); failing that it stays where it is.
        boqname = str(queue.attrs.get("BOQNAME", "")).strip()
        target = self.queues.get(boqname) if boqname and boqname != queue.name else None
        if target is not None and self._requeue(queue, entry, message, target):
            return
        deadq = self.dead_letter_queue()
        if deadq is None or deadq is queue:
            return
        wrapped = dead_letter.wrap(message, C.MQRC_BACKOUT_THRESHOLD_REACHED, queue.name, self.qmgr_name,
                                   self.clock())
        self._requeue(queue, entry, wrapped, deadq)

    def _requeue(self, source: LocalQueue, entry: Entry, message: Message, target: LocalQueue) -> bool:
        """Move a message to another local queue (backout requeue, dead letters)."""
        if not can_accept(target, message):
            return False
        if message.persistent:
            self.outbox.tx.delete_message(source.name, entry.seq)
        source.remove(entry)
        self._enqueue(target, message, entry.expiry_at)
        return True

    def _enqueue(self, queue: LocalQueue, message: Message, expiry_at: float) -> Entry:
        """Put a message the queue manager itself moves (requeue, dead letter), outside syncpoint."""
        entry = queue.add(message, expiry_at, AVAILABLE)
        if message.persistent:
            self.outbox.persist_put(queue, entry, message)
        if queue.waiters or queue.read_ahead:
            self.deliver(queue)
        return entry

    def dead_letter_queue(self) -> LocalQueue | None:
        return self.queues.get(str(self.qmgr_attrs.get("DEADQ", "")).strip())

    def dead_letter(self, message: Message, reason: int, dest_q: str, dest_qmgr: str = "") -> bool:
        """Put an undeliverable message on the dead-letter queue with an MQDLH; False if impossible."""
        deadq = self.dead_letter_queue()
        if deadq is None:
            return False
        wrapped = dead_letter.wrap(message, reason, dest_q, dest_qmgr or self.qmgr_name, self.clock())
        if not can_accept(deadq, wrapped):
            return False
        self._enqueue(deadq, wrapped, 0.0)
        return True


def can_accept(queue: LocalQueue, message: Message) -> bool:
    attrs = queue.attrs
    return (
        queue.depth < int(attrs.get("MAXDEPTH", 5000))
        and attrs.get("PUT") != "DISABLED"
        and len(message.body) <= int(attrs.get("MAXMSGL", 4194304))
    )
