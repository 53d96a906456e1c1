"""The distributed publish/subscribe agents (IBM's amqfcxba): three tasks serving
SYSTEM.INTER.QMGR.CONTROL (proxy subscriptions, hierarchy relations), SYSTEM.INTER.QMGR.PUBS
(publications from other queue managers) and SYSTEM.INTER.QMGR.FANREQ (proxy messages that could
not be sent when they were made), each message in a unit of work (B §17, R-SYSQ-1).

- A malformed message from a partner goes to the dead-letter queue with its reason (2110); the
  queue manager keeps serving.
- A publication or fan-out request that fails is backed out and tried again; at the queue's
  backout threshold (BOTHRESH, 5) it goes to the dead-letter queue (B:R-ERR-4 items 2 and 3).
- PSMODE (A-25): under DISABLED nothing is served, the messages wait; under COMPAT the
  hierarchy's traffic waits (its relations are not used) while the clusters' is served.

At start the service counts the local subscriptions again and resynchronises every neighbour
(B:R-PXY-12); relations in ERROR are retried every minute.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.handles import Connection, GetResult
from mqlite.core.network.pubsub.protocol import CONTROL_QUEUE, FANREQ_QUEUE, PUBS_QUEUE, decode
from mqlite.server.runtime import Round
from mqlite.server.system_queue import DEAD_LETTER, RETRY, SystemQueueServer

if TYPE_CHECKING:
    from mqlite.server.runtime import Runtime

log = logging.getLogger("mqlite.server")

RETRY_RELATIONS_EVERY = 60.0
DEFAULT_BACKOUT_THRESHOLD = 5  # B A-38
PUBS_BATCH = 50  # publications that arrived together share a unit of work (one store commit)


class DistributedPubSubAgent:
    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime
        self.core = runtime.core
        self.service = self.core.dist_pubsub
        self.forwarding = self.core.forwarding
        self._last_retry = 0.0
        runtime.tick_hooks.append(self._tick)
        runtime.log_sources.append(self.service.log)
        self.service.start()
        self._finish()
        self._servers = [
            SystemQueueServer(runtime, CONTROL_QUEUE, "amqfcxba", self._control, self._bad_input,
                              self._paused, self._finish, self._hierarchy_control, self._compat),
            SystemQueueServer(runtime, PUBS_QUEUE, "amqfcxba", self._publication,
                              self._retry_or_dead_letter(PUBS_QUEUE), self._paused, self._finish,
                              self._hierarchy_publication, self._compat, batch=PUBS_BATCH),
            SystemQueueServer(runtime, FANREQ_QUEUE, "amqfcxba", self._fan_out,
                              self._retry_or_dead_letter(FANREQ_QUEUE), self._paused, self._finish,
                              self._hierarchy_control, self._compat),
        ]
        self.service.on_mode = self._mode_changed

    def _mode_changed(self, enabled: bool) -> None:
        for server in self._servers:
            server.interrupt()

    def _paused(self) -> bool:
        return bool(self.service.attrs.get("PSMODE", "ENABLED") == "DISABLED")

    def _compat(self) -> bool:
        """The hierarchy is off (PSMODE(COMPAT), or SYSTEM.HIERARCHY.STATE unusable), the clusters on."""
        return not self.service.hierarchy_enabled

    def _hierarchy_control(self, result: GetResult) -> bool:
        try:
            return self.service.hierarchy_traffic(decode(result.message.body))
        except MQError:
            return False  # malformed: served, so that it goes to the dead-letter queue

    def _hierarchy_publication(self, result: GetResult) -> bool:
        return self.forwarding.from_hierarchy(result.message)

    def _control(self, conn: Connection, result: GetResult) -> None:
        self.service.receive(decode(result.body))

    def _publication(self, conn: Connection, result: GetResult) -> None:
        self.forwarding.receive(conn, result.message)

    def _fan_out(self, conn: Connection, result: GetResult) -> None:
        """A proxy message that waited: to its neighbour's control queue now (ReplyToQMgr)."""
        self.service.put_control(result.message.md.ReplyToQMgr.strip(), result.body)

    def _bad_input(self, result: GetResult, error: MQError) -> str:
        log.error("AMQ5819E: publish/subscribe control message from %s rejected: %s (reason %d); it goes to "
                  "the dead-letter queue", result.message.md.ReplyToQMgr.strip() or "a queue manager",
                  error.text or error, error.reason)
        return DEAD_LETTER

    def _retry_or_dead_letter(self, queue: str) -> Callable[[GetResult, MQError], str]:
        def failed(result: GetResult, error: MQError) -> str:
            tries = result.message.md.BackoutCount + 1
            attrs = self.core.qdefs.get(queue, ("", {}))[1]
            threshold = int(attrs.get("BOTHRESH") or DEFAULT_BACKOUT_THRESHOLD)
            if error.reason == C.MQRC_FORMAT_ERROR or tries >= threshold:
                log.error("AMQ5820E: message on %s not processed after %d attempts: %s (reason %d); it goes to "
                          "the dead-letter queue", queue, tries, error.text or error, error.reason)
                return DEAD_LETTER
            return RETRY

        return failed

    def _finish(self) -> None:
        self.runtime.finish(Round())  # (which writes the service's log lines)

    def _tick(self, now: float) -> None:
        if now - self._last_retry >= RETRY_RELATIONS_EVERY:
            self._last_retry = now
            self.service.retry_relations()
            self._finish()

    def stop(self) -> None:
        for server in self._servers:
            server.stop()
