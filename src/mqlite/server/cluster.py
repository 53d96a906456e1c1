"""The repository manager: the task that serves SYSTEM.CLUSTER.COMMAND.QUEUE (IBM's amqrrmfa).

It gets each repository message in a unit of work, hands it to core's cluster state (which
merges records, answers queries and puts what it passes on onto the cluster transmission
queues) and commits: the message and everything it caused are one store transaction. It also
starts the cluster at queue-manager start (this queue manager's records, published or sent to
a full repository through the manual cluster-senders), ages the cache daily and republishes the
queue manager's own records well inside IBM's 27 days (A-20), and answers the MQOPENs waiting
for a full repository (``lookup``).
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from mqlite.core.errors import MQError
from mqlite.core.handles import Connection, GetResult
from mqlite.core.network.clusters.protocol import decode
from mqlite.core.network.clusters.routing import COMMAND_QUEUE
from mqlite.server.runtime import Round
from mqlite.server.system_queue import DISCARD, SystemQueueServer

if TYPE_CHECKING:
    from mqlite.server.runtime import Runtime

log = logging.getLogger("mqlite.server")

LOOKUP_SECONDS = 10.0  # how long an MQOPEN waits for the full repositories to answer
AGE_EVERY = 3600.0  # the cache's 27/54/81/90-day clock is looked at hourly
REPUBLISH_EVERY = 10 * 86_400.0  # own records again, well inside the members' 27-day warning


class RepositoryManager:
    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime
        self.core = runtime.core
        self._waiting: dict[str, list[asyncio.Future[bool]]] = {}
        self.core.cluster_state.on_answer = self._answered
        self._last_age = self._last_publish = runtime.clock()
        runtime.tick_hooks.append(self._tick)
        runtime.log_sources.append(self.core.cluster_state.log)  # written at the end of each round
        self._start()
        self._server = SystemQueueServer(runtime, COMMAND_QUEUE, "amqrrmfa", self._receive, self._failed,
                                         finish=self._finish)

    def _start(self) -> None:
        """This queue manager's records as its definitions are now, published; with no full
        repository known, sent through the manual cluster-senders."""
        state = self.core.cluster_state
        state.changed()
        state.join_all()
        self._finish()

    def _receive(self, conn: Connection, result: GetResult) -> None:
        self.core.cluster_state.receive(decode(result.body))

    def _failed(self, result: GetResult, error: MQError) -> str:
        """Malformed, or it cannot be passed on: logged, and put aside (it would fail again)."""
        log.error("AMQ9430E: repository message from %s not processed: %s",
                  result.message.md.ReplyToQMgr.strip() or "a cluster member", error.text or error)
        return DISCARD

    def _finish(self) -> None:
        self.runtime.finish(Round())  # (which writes the state's log lines)

    def _tick(self, now: float) -> None:
        associations = self.core.cluster.associations
        if associations.strays:  # units of work open at a switch that may have committed since
            associations.sweep_strays()
        self.core.cluster.reallocate_retrying()
        state = self.core.cluster_state
        if now - self._last_age >= AGE_EVERY:
            self._last_age = now
            state.age()
        if now - self._last_publish >= REPUBLISH_EVERY:
            self._last_publish = now
            state.republish()

    # -- MQOPEN of a name not known yet ----------------------------------------------------------
    async def lookup(self, name: str, kind: str = "QUEUE") -> bool:
        """Ask the full repositories about queue (or queue manager) ``name`` and wait for the
        first answer (False: none could be asked, or none answered in time)."""
        if not self.core.cluster_state.query(kind, name):
            return False
        self._finish()
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(name, []).append(future)
        try:
            return await asyncio.wait_for(future, LOOKUP_SECONDS)
        except TimeoutError:
            return False
        finally:
            waiting = self._waiting.get(name, [])
            if future in waiting:
                waiting.remove(future)
            if not waiting:
                self._waiting.pop(name, None)

    def _answered(self, name: str) -> None:
        for future in self._waiting.pop(name, []):
            if not future.done():
                future.set_result(True)

    def stop(self) -> None:
        self._server.stop()
