"""The route agents (B §23): tasks serving SYSTEM.ROUTE.CONTROL (Hellos and interest from peers),
SYSTEM.ROUTE.PUBS (messages that came over a route) and each route's store SYSTEM.ROUTE.<peer>
(messages that wait for their peer), each message in a unit of work.

- A malformed message from a peer goes to the dead-letter queue with its reason (2110); the queue
  manager keeps serving.
- A routed message that fails is backed out and tried again; at the queue's backout threshold
  (BOTHRESH, 5) it goes to the dead-letter queue.
- A store is served only while its route is up: the messages wait, in order, until then.

Every tick the service looks at the links: a route whose channel failed goes down, a defined one
waiting for its peer says Hello again.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.handles import Connection, GetResult
from mqlite.core.network.routes.protocol import CONTROL_QUEUE, PUBS_QUEUE, decode
from mqlite.core.network.routes.rules import store_queue
from mqlite.server.runtime import Round
from mqlite.server.system_queue import DEAD_LETTER, RETRY, SystemQueueServer

if TYPE_CHECKING:
    from mqlite.server.runtime import Runtime

log = logging.getLogger("mqlite.server")

_APPL = "amqrte"
DEFAULT_BACKOUT_THRESHOLD = 5


class RouteAgent:
    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime
        self.core = runtime.core
        self.service = self.core.routes
        self.forwarding = self.core.route_forwarding
        self._stores: dict[str, SystemQueueServer] = {}
        runtime.log_sources.append(self.service.log)
        runtime.tick_hooks.append(self._tick)
        self.service.on_routes = self._routes_changed
        self.service.on_route_ending = self._stop_store
        self.service.on_up = self._up
        self.service.start()
        self.forwarding.recount()
        self._finish()
        self._servers = [
            SystemQueueServer(runtime, CONTROL_QUEUE, _APPL, self._control, self._bad_input, finish=self._finish),
            SystemQueueServer(runtime, PUBS_QUEUE, _APPL, self._routed, self._retry_or_dead_letter,
                              finish=self._finish),
        ]
        self._routes_changed()

    # -- the stores ---------------------------------------------------------------------------------------
    def _routes_changed(self) -> None:
        for peer in self.service.routes:
            if peer not in self._stores and store_queue(peer) in self.core.queues:
                self._stores[peer] = SystemQueueServer(
                    self.runtime, store_queue(peer), _APPL, self._drainer(peer), self._wait_for_route,
                    lambda peer=peer: self._down(peer), self._finish)  # type: ignore[misc]
        for peer in [p for p in self._stores if p not in self.service.routes]:
            self._stop_store(peer)

    def _stop_store(self, peer: str) -> None:
        server = self._stores.pop(peer, None)
        if server is not None:
            server.close()

    def _down(self, peer: str) -> bool:
        state = self.service.routes.get(peer)
        return state is None or not state.up

    def _up(self, peer: str) -> None:
        server = self._stores.get(peer)
        if server is not None:
            server.interrupt()

    def _drainer(self, peer: str):  # type: ignore[no-untyped-def]
        def drain(conn: Connection, result: GetResult) -> None:
            self.forwarding.drain(conn, peer, result.message)

        return drain

    def _wait_for_route(self, result: GetResult, error: MQError) -> str:
        if error.reason != C.MQRC_CHANNEL_NOT_AVAILABLE:
            log.error("AMQ5841E: a stored message for a route could not be sent: %s (reason %d); tried again",
                      error.text or error, error.reason)
        return RETRY

    # -- the system queues --------------------------------------------------------------------------------
    def _control(self, conn: Connection, result: GetResult) -> None:
        self.service.receive(decode(result.body))

    def _routed(self, conn: Connection, result: GetResult) -> None:
        self.forwarding.receive(conn, result.message)

    def _bad_input(self, result: GetResult, error: MQError) -> str:
        log.error("AMQ5842E: route control message from %s rejected: %s (reason %d); it goes to the "
                  "dead-letter queue", result.message.md.ReplyToQMgr.strip() or "a queue manager",
                  error.text or error, error.reason)
        return DEAD_LETTER

    def _retry_or_dead_letter(self, result: GetResult, error: MQError) -> str:
        tries = result.message.md.BackoutCount + 1
        attrs = self.core.qdefs.get(PUBS_QUEUE, ("", {}))[1]
        threshold = int(attrs.get("BOTHRESH") or DEFAULT_BACKOUT_THRESHOLD)
        if error.reason == C.MQRC_FORMAT_ERROR or tries >= threshold:
            log.error("AMQ5843E: message on %s not processed after %d attempts: %s (reason %d); it goes to the "
                      "dead-letter queue", PUBS_QUEUE, tries, error.text or error, error.reason)
            return DEAD_LETTER
        return RETRY

    def _finish(self) -> None:
        self.runtime.finish(Round())

    def _tick(self, now: float) -> None:
        self.service.tick(now)
        self._finish()

    def stop(self) -> None:
        for server in [*self._servers, *self._stores.values()]:
            server.stop()
