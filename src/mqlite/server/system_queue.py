"""A task that serves one of the queue manager's own queues, one message per unit of work (the
shape of IBM's repository manager and distributed publish/subscribe agents).

Each message is got under syncpoint and handed to ``handle``; what the handler did (its puts,
its store records) commits with the get, so a crash in between leaves the message on its queue
and nothing half done. A handler that raises ``MQError`` backs the unit out; ``failed`` then
decides what happens to the message: ``RETRY`` leaves it (its backout count grew), ``DISCARD``
removes it, ``DEAD_LETTER`` moves it to the dead-letter queue with the reason (removed when there
is none). ``paused`` stops the serving without ending the task (PSMODE, for example).

While ``selective`` says so, the server browses the queue and leaves where they are the messages
``holds`` picks, serving the others (PSMODE(COMPAT): hierarchy traffic waits, cluster traffic
flows, B A-25); when it stops saying so, the held messages are served in their order.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import Callable
from typing import TYPE_CHECKING

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.handles import Connection, GetResult
from mqlite.core.waiters import GetRequest, Waiter
from mqlite.server.channels.agent_base import MCA_USER, AgentSession
from mqlite.server.runtime import Round

if TYPE_CHECKING:
    from mqlite.server.runtime import Runtime

log = logging.getLogger("mqlite.server")

RETRY = "retry"
DISCARD = "discard"
DEAD_LETTER = "dead-letter"
PAUSE_SECONDS = 1.0


class SystemQueueServer:
    def __init__(self, runtime: Runtime, queue: str, appl: str, handle: Callable[[Connection, GetResult], None],
                 failed: Callable[[GetResult, MQError], str], paused: Callable[[], bool] = lambda: False,
                 finish: Callable[[], None] | None = None, holds: Callable[[GetResult], bool] | None = None,
                 selective: Callable[[], bool] = lambda: False, batch: int = 1) -> None:
        self.runtime = runtime
        self.core = runtime.core
        self.queue = queue
        self.handle = handle
        self.failed = failed
        self.paused = paused
        self.finish = finish or (lambda: runtime.finish(Round()))
        self.holds = holds
        self.selective = selective
        self.batch = batch
        self._single = 0  # messages still to serve one per unit of work (after a failure)
        self._session = AgentSession(lambda data: None)
        self._waiting: tuple[Waiter, asyncio.Future[GetResult | MQError | None]] | None = None
        self._browse_from_start = True
        self.conn = self.core.connect(MCA_USER, appl, os.getpid(), system=True)
        options = C.MQOO_INPUT_EXCLUSIVE | (C.MQOO_BROWSE if holds is not None else 0)
        self._hobj = self.core.open(self.conn, {"ObjectName": queue}, options).hobj
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while True:
            if self.paused():
                await asyncio.sleep(PAUSE_SECONDS)
                continue
            if self.holds is not None and self.selective():
                result = await self._next_not_held(self.holds)
            else:
                self._browse_from_start = True
                result = await self._get()
            if result is None:
                continue
            # Up to ``batch`` messages already waiting share the unit of work (one commit); after a
            # failure the next ones go singly, so a bad message costs the others one backout at most.
            limit = 1 if self._single > 0 or self.selective() else self.batch
            self._single = max(0, self._single - 1)
            served = 0
            try:
                while result is not None:
                    self.handle(self.conn, result)
                    served += 1
                    result = self._get_now() if served < limit else None
            except MQError as error:
                self._failed_unit(result, error, served)
                continue
            except Exception:
                log.exception("AMQ6119E: unexpected error serving %s", self.queue)
                self._failed_unit(result, MQError(C.MQRC_UNEXPECTED_ERROR, "unexpected error"), served)
                continue
            self.core.commit(self.conn)
            self.finish()

    def _failed_unit(self, result: GetResult | None, error: MQError, served: int) -> None:
        self.core.backout(self.conn)
        self.finish()
        self._browse_from_start = True  # (a message left for another try is browsed again)
        if served:
            self._single = served + 1  # the ones backed out with it come back one by one
        if result is not None:
            self._after_failure(result, error)

    def _get_now(self) -> GetResult | None:
        """The next message if one is there now, in the same unit of work."""
        try:
            got = self.core.get(self.conn, self._hobj, GetRequest(C.MQGMO_SYNCPOINT, None, None, -1, 0),
                                (self._session, 1))
        except MQError:
            return None
        return got if isinstance(got, GetResult) else None

    def _after_failure(self, result: GetResult, error: MQError) -> None:
        verdict = self.failed(result, error)
        if verdict == RETRY:
            return
        with contextlib.suppress(MQError):  # the same message again, now outside any unit of work
            again = self.core.get(self.conn, self._hobj, GetRequest(C.MQGMO_NO_SYNCPOINT, result.message.md.MsgId,
                                                                     None, -1, 0), (self._session, 2))
            if (verdict == DEAD_LETTER and isinstance(again, GetResult)
                    and not self.core.dead_letter(again.message, error.reason, self.queue)):
                log.error("AMQ9544E: message from %s could not go to the dead-letter queue: discarded",
                              self.queue)
        self.finish()

    async def _get(self) -> GetResult | None:
        return await self._wait_for(GetRequest(C.MQGMO_SYNCPOINT | C.MQGMO_WAIT, None, None, -1, 60_000))

    async def _next_not_held(self, holds: Callable[[GetResult], bool]) -> GetResult | None:
        """The next message ``holds`` does not pick, got under syncpoint; the browse cursor moves
        past the held ones, which stay where they are."""
        first = C.MQGMO_BROWSE_FIRST if self._browse_from_start else C.MQGMO_BROWSE_NEXT
        browsed = await self._wait_for(GetRequest(first | C.MQGMO_WAIT, None, None, -1, 60_000))
        if browsed is None:
            return None
        self._browse_from_start = False
        if holds(browsed):
            return None
        with contextlib.suppress(MQError):  # (this server reads the queue alone: input exclusive)
            got = self.core.get(self.conn, self._hobj, GetRequest(C.MQGMO_SYNCPOINT | C.MQGMO_MSG_UNDER_CURSOR,
                                                                  None, None, -1, 0), (self._session, 1))
            if isinstance(got, GetResult):
                return got
        return None

    async def _wait_for(self, request: GetRequest) -> GetResult | None:
        future: asyncio.Future[GetResult | MQError | None] = asyncio.get_running_loop().create_future()

        def completed(outcome: GetResult | MQError) -> None:
            if not future.done():
                future.set_result(outcome)

        self._session.on_complete = completed
        try:
            result = self.core.get(self.conn, self._hobj, request, (self._session, 1))
        except MQError as error:
            if error.reason in (C.MQRC_NO_MSG_AVAILABLE, C.MQRC_Q_MGR_QUIESCING, C.MQRC_GET_INHIBITED):
                await asyncio.sleep(0 if error.reason == C.MQRC_NO_MSG_AVAILABLE else PAUSE_SECONDS)
                return None
            raise
        finally:
            self.finish()
        if isinstance(result, GetResult):
            return result
        self._waiting = (result, future)
        try:
            outcome = await future
        except asyncio.CancelledError:
            self.runtime.cancel_waiter(result)
            raise
        finally:
            self._waiting = None
        if outcome is None:  # interrupted: look at ``paused`` again
            return None
        if isinstance(outcome, MQError):
            if outcome.reason in (C.MQRC_Q_MGR_QUIESCING, C.MQRC_GET_INHIBITED):
                await asyncio.sleep(PAUSE_SECONDS)
            return None
        return outcome

    def interrupt(self) -> None:
        """Stop waiting for a message now (``paused`` or ``selective`` changed): the loop looks
        again, and browses from the start."""
        self._browse_from_start = True
        if self._waiting is not None:
            waiter, future = self._waiting
            self.runtime.cancel_waiter(waiter)
            if not future.done():
                future.set_result(None)
            self.finish()

    def stop(self) -> None:
        self._task.cancel()

    def close(self) -> None:
        """End serving for good and let go of the queue (which may then be deleted)."""
        self.interrupt()
        self._task.cancel()
        try:
            self.core.close(self.conn, self._hobj, 0)
            self.core.disconnect(self.conn)
        except MQError as error:
            log.error("AMQ6119E: %s not released: %s", self.queue, error.text or error)
        self.finish()
