"""The MQGETs waiting for a message, across every queue: adding, completing, failing, timing out."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.handles import BROWSE_GETS
from mqlite.core.outbox import Outbox
from mqlite.core.queues import LocalQueue
from mqlite.core.waiters import Waiter


class WaitingGetters:
    """Every pending MQGET (``waiting``, for the server's timer) and the queue each waits on."""

    def __init__(self, outbox: Outbox) -> None:
        self.outbox = outbox
        self.waiting: set[Waiter] = set()
        # MQGETs that began waiting, ever: the server's timer looks for a new earliest deadline
        # only when this moved (an ended wait can only make its next wake-up early, and harmless).
        self.added = 0
        self.qmgr_events: Any = None  # core.events.qmgr_events.QueueManagerEvents (the facade's)

    def add(self, queue: LocalQueue, waiter: Waiter) -> None:
        queue.waiters.append(waiter)
        self.waiting.add(waiter)
        self.added += 1

    def end(self, queue: LocalQueue, waiter: Waiter, result: Any) -> None:
        """The waiter's MQGET ends with ``result`` (a GetResult or an MQError)."""
        queue.waiters.remove(waiter)
        self.waiting.discard(waiter)
        waiter.done = True
        self.outbox.effects.completions.append((waiter, result))

    @staticmethod
    def failed(queue: LocalQueue, waiter: Waiter, reason: int) -> None:
        """A waiting MQGET that ends without a message is a failed MQGET to the statistics (STATQ
        GetFailCount and the monitoring topics' failures by reason), as an immediate one is."""
        stats = queue.watch.stats
        if stats is not None:
            stats.failed(waiter.request.options & BROWSE_GETS, reason)

    def fail(self, queue: LocalQueue, reason: int, text: str, through: dict[str, Any] | None = None) -> None:
        """Fail the queue's waiting getters (only those waiting through alias ``through``, if given)."""
        for waiter in list(queue.waiters):
            handle = waiter.conn.handles.get(waiter.hobj)
            if through is not None and (handle is None or handle.alias_attrs is not through):
                continue
            self.end(queue, waiter, MQError(reason, text))
            self.failed(queue, waiter, reason)
            if reason == C.MQRC_GET_INHIBITED and self.qmgr_events is not None:
                # IBM raises Get Inhibited for a waiting MQGET the inhibit ends too (INHIBTEV)
                name = handle.opened_as if handle is not None else queue.name
                self.qmgr_events.inhibited(waiter.conn, C.MQRC_GET_INHIBITED, name)

    def fail_handle(self, queue: LocalQueue, conn: object, hobj: int) -> None:
        """The handle closed: its MQGETs end with 2019."""
        for waiter in [w for w in queue.waiters if w.conn is conn and w.hobj == hobj]:
            self.end(queue, waiter, MQError(C.MQRC_HOBJ_ERROR, "the handle was closed"))
            self.failed(queue, waiter, C.MQRC_HOBJ_ERROR)

    def time_out(self, now: float) -> None:
        """Time out waiting getters whose wait interval has passed (2033)."""
        for waiter in [w for w in self.waiting if w.deadline and w.deadline <= now]:
            self.waiting.discard(waiter)
            handle = waiter.conn.handles.get(waiter.hobj)
            if handle is not None and handle.queue is not None and waiter in handle.queue.waiters:
                handle.queue.waiters.remove(waiter)
                self.failed(handle.queue, waiter, C.MQRC_NO_MSG_AVAILABLE)
            waiter.done = True
            self.outbox.effects.completions.append((waiter, MQError(C.MQRC_NO_MSG_AVAILABLE, "no message available")))

    def cancel(self, waiter: Waiter, queues: Iterable[LocalQueue]) -> None:
        """The caller went away: forget its pending MQGET."""
        self.waiting.discard(waiter)
        for queue in queues:
            if waiter in queue.waiters:
                queue.waiters.remove(waiter)
                break
