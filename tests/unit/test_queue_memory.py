"""A local queue lets go of what it no longer holds: the entries of consumed persistent
messages do not stay behind in its eviction bookkeeping (found by the soak run, issue 13)."""

from __future__ import annotations

import gc

from mqlite import cmqc as C
from mqlite.core.queues import AVAILABLE, Entry, LocalQueue
from mqlite.message import Message, MessageDescriptor

COUNT = 20_000
FEW = 1_000  # what a queue may keep of COUNT consumed messages (tombstones compacted in bulk)


def live_entries() -> int:
    gc.collect()
    return sum(1 for o in gc.get_objects() if isinstance(o, Entry))


def persistent_message(n: int) -> Message:
    return Message(MessageDescriptor(Persistence=C.MQPER_PERSISTENT), str(n).encode())


def put_durable_and_consume(queue: LocalQueue, count: int) -> None:
    """``count`` persistent messages put, made durable (as the store's callback does) and got."""
    for n in range(count):
        entry = queue.add(persistent_message(n), 0.0, AVAILABLE)
        queue.made_durable(entry)
        queue.evict()
        queue.remove(entry)


def test_a_drained_queue_keeps_no_entries() -> None:
    before = live_entries()
    queue = LocalQueue("Q", {"MAXDEPTH": 100_000})
    put_durable_and_consume(queue, COUNT)
    assert queue.depth == 0
    assert live_entries() - before < FEW


def test_a_message_staying_at_the_front_keeps_few_consumed_entries() -> None:
    before = live_entries()
    queue = LocalQueue("Q", {"MAXDEPTH": 100_000})
    first = queue.add(persistent_message(-1), 0.0, AVAILABLE)  # stays on the queue throughout
    queue.made_durable(first)
    put_durable_and_consume(queue, COUNT)
    assert queue.depth == 1
    assert live_entries() - before < FEW  # not one per message consumed
