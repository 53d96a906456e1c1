"""Which cluster transmission queue each cluster-sender uses now, and the switch to another
(B:R-CXQ-5, SC-82; IBM's "switching cluster transmission queues").

Puts for a channel go to the queue it is *associated* with, remembered per channel. What the
configuration selects (``cluster_xmitq.select``: CLCHNAME, DEFCLXQ) may differ after an ALTER or
a DEFINE: nothing changes then ("changes ... do not take immediate effect"). The switch happens
when the channel starts (or ``runswchl`` switches a channel at rest): with no batch of the
channel in doubt, every message waiting for the channel on the old queue moves to the new one,
in order, in one store transaction, and the association changes; the error log records its
start and end (AMQ7341I, AMQ7342I: IBM's numbers from memory). A unit of work that put messages
for the channel on the old queue and had not committed at the switch is watched: once it commits,
its messages follow the others (``sweep_strays``, on the queue manager's one-second tick), as
IBM's queue manager moves them in the background. Anything else of the channel found on another
cluster transmission queue is swept along at the next start.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from mqlite.core.network.clusters.xmitq import DEFAULT_XMITQ
from mqlite.core.objects import ObjectDefinitions
from mqlite.core.outbox import Outbox
from mqlite.core.queues import AVAILABLE, UNCOMMITTED, Entry, LocalQueue
from mqlite.message import Message

__all__ = ["STORE_KIND", "Associations", "Switch", "move_entry"]

log = logging.getLogger("mqlite.server")

STORE_KIND = "clusxq"  # channel -> the cluster transmission queue its puts go to


@dataclass(frozen=True)
class Switch:
    channel: str
    old: str
    new: str
    waiting: int  # messages for the channel on the old queue (moved, unless told not to)


class Associations:
    """The channel -> transmission queue associations and the switch between queues."""

    def __init__(self, objects: ObjectDefinitions, outbox: Outbox, clock: Callable[[], float],
                 select: Callable[[str], LocalQueue], correl: Callable[[str], bytes],
                 deliver: Callable[[LocalQueue], None]) -> None:
        self.objects = objects
        self.outbox = outbox
        self.clock = clock
        self.select = select  # what the configuration selects now (made from the model if needed)
        self.correl = correl
        self.deliver = deliver
        self.associated: dict[str, str] = {}
        self.strays: dict[str, set[str]] = {}  # channel -> old queues with its uncommitted puts

    def restore(self, records: dict[str, str]) -> None:
        self.associated.update(records)

    def queue_for(self, channel: str) -> LocalQueue:
        """Where a message for ``channel`` goes now: its associated queue (the selected one the
        first time, which then stays until a switch)."""
        name = self.associated.get(channel)
        queue = self.objects.queues.get(name) if name else None
        if queue is None:  # first use, or the associated queue was deleted: the configuration decides
            queue = self.select(channel)
            self._associate(channel, queue.name)
        return queue

    def pending(self, channel: str) -> Switch | None:
        """The switch the configuration asks for, if any (``runswchl -q`` shows these)."""
        current = self.queue_for(channel)
        wanted = self.select(channel)
        if wanted is current:
            return None
        return Switch(channel, current.name, wanted.name, self._count(current, channel))

    def switch(self, channel: str, move: bool = True, in_doubt: bool = False) -> Switch | None:
        """At the channel's start: switch to the selected queue when the configuration changed
        and no batch of the channel is in doubt; sweep stray messages of the channel onto its
        queue. The switch done, or None."""
        pending = self.pending(channel)
        if in_doubt:
            return None  # its in-doubt batch is on the old queue: IBM switches only with nothing in flight
        target = self.queue_for(channel) if pending is None else self.objects.queues[pending.new]
        if pending is not None:
            log.info("AMQ7341I: The transmission queue switch for channel '%s' from '%s' to '%s' has started "
                     "(%d messages to move)", channel, pending.old, pending.new, pending.waiting if move else 0)
        moved = 0
        for queue in self.cluster_xmitqs():
            if queue is not target and (move or pending is None or queue.name != pending.old):
                moved += self._move(channel, queue, target)
        if pending is not None:
            self._associate(channel, target.name)
            log.info("AMQ7342I: The transmission queue switch for channel '%s' to '%s' has completed: %d messages "
                     "moved", channel, target.name, moved)
        if move:
            self._watch_uncommitted(channel, target)
        return pending

    def _watch_uncommitted(self, channel: str, target: LocalQueue) -> None:
        correl = self.correl(channel)
        for queue in self.cluster_xmitqs():
            if queue is not target and _has_open_puts(queue, correl):
                self.strays.setdefault(channel, set()).add(queue.name)

    def sweep_strays(self) -> int:
        """Move what units of work open at a switch have committed since onto the channel's queue;
        stop watching an old queue once none of them is left open. The messages moved."""
        moved = 0
        for channel, names in list(self.strays.items()):
            target = self.queue_for(channel)
            correl = self.correl(channel)
            for name in list(names):
                queue = self.objects.queues.get(name)
                if queue is None or queue is target:
                    names.discard(name)
                    continue
                count = self._move(channel, queue, target)
                if count:
                    log.info("AMQ7342I: The transmission queue switch for channel '%s' to '%s' has completed: %d "
                             "messages committed on '%s' after the switch moved", channel, target.name, count, name)
                moved += count
                if not _has_open_puts(queue, correl):
                    names.discard(name)
            if not names:
                del self.strays[channel]
        return moved

    def cluster_xmitqs(self) -> list[LocalQueue]:
        """The cluster transmission queues that hold messages."""
        queues = []
        for name, (qtype, attrs) in sorted(self.objects.qdefs.items()):
            if qtype == "QLOCAL" and attrs.get("USAGE") == "XMITQ" and (name == DEFAULT_XMITQ or attrs.get("CLCHNAME")):
                queue = self.objects.queues.get(name)
                if queue is not None and queue.depth:
                    queues.append(queue)
        return queues

    def _count(self, queue: LocalQueue, channel: str) -> int:
        correl = self.correl(channel)
        return len(queue.available(self.clock(), [], limit=None,
                                   accept=lambda entry: queue.load(entry).md.CorrelId == correl))

    def _move(self, channel: str, source: LocalQueue, target: LocalQueue) -> int:
        """The channel's committed messages on ``source`` onto ``target``, in their order."""
        correl = self.correl(channel)
        expired: list = []  # type: ignore[type-arg]
        entries = source.available(self.clock(), expired, limit=None,
                                   accept=lambda entry: source.load(entry).md.CorrelId == correl)
        for entry in expired:
            if entry.persistent:
                self.outbox.tx.delete_message(source.name, entry.seq)
        for entry in entries:
            if entry.state == AVAILABLE:
                move_entry(self.outbox, source, entry, target, source.load(entry))
        if entries:
            self.deliver(target)
        return len(entries)

    def _associate(self, channel: str, queue: str) -> None:
        if self.associated.get(channel) != queue:
            self.associated[channel] = queue
            self.outbox.tx.put_record(STORE_KIND, channel, queue)


def move_entry(outbox: Outbox, source: LocalQueue, entry: Entry, target: LocalQueue, message: Message) -> None:
    """An available message off ``source`` and onto the end of ``target`` as ``message`` (the same,
    or rewritten for another destination), in the store transaction under way."""
    source.remove(entry)
    if entry.persistent:
        outbox.tx.delete_message(source.name, entry.seq)
    moved = target.add(message, entry.expiry_at, AVAILABLE)
    if message.persistent:
        outbox.persist_put(target, moved, message)


def _has_open_puts(queue: LocalQueue, correl: bytes) -> bool:
    """Whether a unit of work not yet committed put a message for the channel ``correl`` names."""
    return bool(queue.uncommitted) and any(entry.state == UNCOMMITTED and queue.load(entry).md.CorrelId == correl
                                           for entry in queue.iter_entries())
