"""Dropping duplicate MsgIds within a window: what makes a retried writer exactly-once.

A writer that sets its own, deterministic MsgIds (the Spark sink does: query, batch, partition,
row) may send the same message again when a task is retried after its commit went through. With
a window set (qm.ini ``Mqlite: DuplicateWindow=SECONDS``), a put whose application-given MsgId
was already committed on that queue or topic within the window is accepted and dropped. Only
committed puts count, so a backed-out attempt does not hide its retry. The memory of ids does not
survive a restart of the queue manager.
"""

from __future__ import annotations

from collections import deque


class DuplicateWindow:
    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._seen: dict[tuple[str, bytes], float] = {}
        self._order: deque[tuple[float, tuple[str, bytes]]] = deque()

    def seen(self, target: str, msg_id: bytes, now: float) -> bool:
        self._forget(now)
        return (target, msg_id) in self._seen

    def record(self, target: str, msg_id: bytes, now: float) -> None:
        key = (target, msg_id)
        self._seen[key] = now
        self._order.append((now, key))

    def _forget(self, now: float) -> None:
        order, seen, horizon = self._order, self._seen, now - self.seconds
        while order and order[0][0] < horizon:
            at, key = order.popleft()
            if seen.get(key) == at:
                del seen[key]
