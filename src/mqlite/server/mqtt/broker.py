"""The MQTT sessions of one queue manager, by client id, as IBM MQ's telemetry service keeps them.

Each session has a queue of its own where every one of its subscriptions puts its publications,
made at its first SUBSCRIBE: ``SYSTEM.MQTT.<hash of the client id>`` (FIFO) for a persistent
session, a temporary dynamic queue from ``SYSTEM.MQTT.MODEL.QUEUE`` for a clean one. A
subscription of a clean session is non-durable; one of a persistent session is durable, named
``MQTT:<client id>:<filter>``, so it and its queue survive disconnection and restarts of the
queue manager. The subscription's MQTT options ride in its SubUserData, which every publication
copy carries (``MQSubUserData``), so a delivery knows its QoS and identifier without a lookup.

The broker also keeps what outlives a connection: 5.0 sessions waiting to expire (their interval
rides in their subscriptions' SubUserData, so they expire after a restart too) and delayed wills
(kept durably by ``server.mqtt.wills``, so they are sent after a restart too).
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass, field
from typing import Any, Protocol

from mqlite.core.errors import MQError
from mqlite.core.qmgr import QueueManager
from mqlite.core.security.principal import Principal
from mqlite.protocol.mqtt import Will
from mqlite.protocol.mqtt.session import SessionState
from mqlite.server.mqtt.publishing import publish_on
from mqlite.server.mqtt.shared import SharedSubscriptions
from mqlite.server.mqtt.wills import DelayedWills
from mqlite.server.runtime import Round

log = logging.getLogger("mqlite.server")

QUEUE_PREFIX = "SYSTEM.MQTT."
MODEL_QUEUE = "SYSTEM.MQTT.MODEL.QUEUE"  # clean sessions' temporary queues
QUEUE_DEPTH = 100_000
SUB_PREFIX = "MQTT:"


def queue_name(client_id: str) -> str:
    return QUEUE_PREFIX + hashlib.sha1(client_id.encode()).hexdigest()[:32].upper()


def subscription_name(client_id: str, topic_filter: str) -> str:
    return f"{SUB_PREFIX}{client_id}:{topic_filter}"


class Attached(Protocol):
    """The connection a session is on (``server.mqtt.link.MqttLink``)."""

    def takeover(self, round_: Round) -> None:
        """Another connection with this client id came: this one ends."""
        ...


@dataclass(slots=True)
class MqttSession:
    """What a client id has while the queue manager runs, across its connections."""

    client_id: str
    persistent: bool
    queue: str
    state: SessionState = field(default_factory=SessionState)  # packet ids, QoS flows in progress
    link: Attached | None = None  # the connection it is on, if any
    channel: str = ""  # the channel it last came through (CHSTATUS shows it there when disconnected)


class MqttBroker:
    """The MQTT sessions of one queue manager, by client id."""

    def __init__(self, core: QueueManager) -> None:
        self.core = core
        self.sessions: dict[str, MqttSession] = {}
        self._options: dict[str, dict[str, Any]] = {}  # SubUserData, parsed once per text
        self.expiring: dict[str, float] = {}  # 5.0 sessions without a connection: when they end
        self.wills = DelayedWills(core)  # delayed wills, kept durably
        self.shares = SharedSubscriptions(core, self._share_member)
        self._expire_after_restart()

    def _share_member(self, client_id: str) -> tuple[str, bool] | None:
        """A shared subscription's member while connected: its session's queue, and whether
        the session is persistent."""
        session = self.sessions.get(client_id)
        if session is None or session.link is None or not session.queue:
            return None
        return session.queue, session.persistent

    def _expire_after_restart(self) -> None:
        """5.0 sessions of an earlier run end their expiry interval after this start, unless
        their client comes back (the interval rides in their subscriptions' SubUserData)."""
        now = self.core.clock()
        for name, subs in self.core.subs_by_name.items():
            if not name.startswith(SUB_PREFIX) or not subs:
                continue
            options = self.subscription_options(subs[0].user_data)
            interval, client_id = options.get("x"), options.get("c")
            if isinstance(interval, int) and isinstance(client_id, str) and client_id not in self.sessions:
                self.expiring[client_id] = max(self.expiring.get(client_id, 0), now + interval)

    def resume(self, client_id: str) -> None:
        """A client connected again: its session does not expire, its delayed will is not sent."""
        self.expiring.pop(client_id, None)
        self.wills.cancel(client_id)

    def sweep(self, now: float) -> None:
        """Send the delayed wills that are due and end the sessions that expired (5.0)."""
        for will, user in self.wills.due(now):
            self.publish_will(will, user)
        for client_id, deadline in list(self.expiring.items()):
            if deadline <= now:
                del self.expiring[client_id]
                session = self.sessions.get(client_id)
                if session is None:  # of an earlier run, its client never came back
                    self.discard(MqttSession(client_id, True, queue_name(client_id)))
                elif session.link is None:
                    self.discard(session)

    def publish_will(self, will: Will, user: str) -> None:
        conn = self.core.connect(Principal(user), "MQTT will", 0, system=True)
        try:
            publish_on(self.core, conn, None, will.topic, will.payload, will.qos, will.retain, will.properties)
        finally:
            self.core.disconnect(conn, commit=True)

    def discard(self, session: MqttSession) -> None:
        """A clean start, or the end of a session: its subscriptions and queue go (a clean
        session's temporary queue and non-durable subscriptions went with its connection)."""
        self.shares.forget(session.client_id)
        if session.persistent:
            self.remove_durable_subscriptions(session.client_id)
            name = queue_name(session.client_id)
            if name in self.core.queues:
                try:
                    self.core.delete("QLOCAL", name, purge=True)
                except MQError as error:  # still open elsewhere: emptied instead
                    log.debug("MQTT queue %s kept: %s", name, error)
                    self.core.clear_queue(name)
        self.sessions.pop(session.client_id, None)

    def remove_durable_subscriptions(self, client_id: str) -> None:
        prefix = subscription_name(client_id, "")
        for name in [n for n in self.core.subs_by_name if n.startswith(prefix)]:
            self.core.delete_sub(name)

    def subscription_options(self, user_data: str) -> dict[str, Any]:
        """The MQTT options a delivery's ``MQSubUserData`` carries ({} when it is not ours)."""
        options = self._options.get(user_data)
        if options is None:
            try:
                parsed = json.loads(user_data) if user_data else {}
            except ValueError:
                parsed = {}
            options = parsed if isinstance(parsed, dict) else {}
            if len(self._options) > 10_000:
                self._options.clear()
            self._options[user_data] = options
        return options
