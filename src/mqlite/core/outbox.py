"""What core asks the server to do after a call, collected as it happens, and the ids it makes.

Every service that changes persistent state or wakes a caller writes here: the store
transaction of everything done since the server last took the effects, the waiting MQGETs
completed, the read-ahead messages released (docs/ARCHITECTURE.md, "core and its effects").
"""

from __future__ import annotations

import struct
import time
from collections.abc import Iterable

from mqlite.core.errors import MQError
from mqlite.core.handles import Connection, Effects, GetResult
from mqlite.core.queues import Entry, LocalQueue
from mqlite.core.waiters import Waiter
from mqlite.message import Message
from mqlite.store.tx import StoreTx


class Outbox:
    """The store changes and deliveries pending for the server. ``tx`` is replaced each time the
    server takes it: read ``outbox.tx`` at each use, never keep it."""

    def __init__(self) -> None:
        self.tx = StoreTx()
        self.effects = Effects()

    def take_effects(self) -> Effects:
        effects = self.effects
        if not self.tx and not effects.completions and not effects.pushes:
            return effects  # nothing happened: reuse the empty one
        if self.tx:
            effects.tx = self.tx
            self.tx = StoreTx()
        self.effects = Effects()
        return effects

    def take_deliveries(self) -> tuple[list[tuple[Waiter, GetResult | MQError]], list[tuple[Connection, int, Message]]]:
        """The wake-ups and read-ahead messages so far, leaving the store changes for ``take_effects``."""
        effects = self.effects
        completions, pushes = effects.completions, effects.pushes
        if completions or pushes:
            effects.completions, effects.pushes = [], []
        return completions, pushes

    def persist_put(self, queue: LocalQueue, entry: Entry, message: Message) -> None:
        """Write a message that is now on ``queue`` for good; its body may leave memory once durable."""
        tx = self.tx
        tx.put_message(queue.name, entry.seq, message, entry.expiry_at)
        tx.after_durable.append((queue, entry))

    def persist_mark(self, queue: LocalQueue, seq: int) -> None:
        """Raise the queue's high-water mark in the store to ``seq``; ``queue.seq_mark`` follows
        once that is durable. The round that asked waits for it, as for any store write."""
        tx = self.tx
        tx.mark_seq(queue.name, seq)
        tx.after_durable.append((queue, seq))

    @staticmethod
    def on_durable(tx: StoreTx) -> None:
        """The store made ``tx`` durable: its persistent bodies may now leave memory."""
        Outbox.on_durable_many((tx,))

    @staticmethod
    def on_durable_many(txs: Iterable[StoreTx]) -> None:
        """The store made ``txs`` (one commit's) durable: each queue they touched evicts once."""
        touched: set[LocalQueue] = set()
        for tx in txs:
            pair: tuple[LocalQueue, Entry | int]
            for pair in tx.after_durable:
                queue, entry = pair
                if isinstance(entry, int):  # a high-water mark (``persist_mark``)
                    if entry > queue.seq_mark:
                        queue.seq_mark = entry
                    continue
                queue.made_durable(entry)
                touched.add(queue)
        for queue in touched:
            queue.evict()


class MessageIds:
    """MsgIds, CorrelIds and SubIds as IBM shapes them: ``AMQ `` + the queue manager's name + a counter."""

    def __init__(self, qmgr_name: str) -> None:
        self._counter = time.time_ns() // 1000
        self._prefix = b"AMQ " + qmgr_name.encode()[:12].ljust(12, b" ")

    def next_id(self) -> bytes:
        self._counter += 1
        return self._prefix + struct.pack(">Q", self._counter)
