"""MQTT sessions on the queue manager's own topic tree, as IBM MQ's telemetry service has them.

Each session has a queue of its own where every one of its subscriptions puts its publications,
made at its first SUBSCRIBE: ``SYSTEM.MQTT.<hash of the client id>`` (FIFO) for a persistent
session, a temporary dynamic queue from ``SYSTEM.MQTT.MODEL.QUEUE`` for a clean one. A
subscription of a clean session is non-durable; one of a persistent session is durable, named
``MQTT:<client id>:<filter>``, so it and its queue survive disconnection and restarts of the
queue manager. The subscription's MQTT options ride in its
SubUserData, which every publication copy carries (``MQSubUserData``), so a delivery knows its
QoS and identifier without a lookup.

Deliveries browse the queue (a waiting browse wakes when a publication arrives) and remove a
message only when it is done: at once for QoS 0, at PUBACK for QoS 1, at PUBREC for QoS 2. What
is still on the queue when a client comes back is sent again, with DUP set when it had been sent
before. Publications from MQTT are published as MQI publications: QoS 0 non-persistent, QoS 1
and 2 persistent (IBM's mapping), the QoS kept in property ``mqtt.QoS`` so a subscriber gets the
lower of it and its subscription's; an MQI publication counts as QoS 2 when persistent, 0 when
not. MQTT 5 user properties become message properties and back.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import logging
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.pubsub.subscription import MQSO_NOT_OWN_PUBS
from mqlite.core.qmgr import GetResult, QueueManager
from mqlite.core.queues import Entry
from mqlite.core.waiters import GetRequest, Waiter
from mqlite.message import Message, MessageDescriptor
from mqlite.protocol.mqtt import (
    V5,
    ConnAck,
    Connect,
    Disconnect,
    Packet,
    PingReq,
    PingResp,
    PubAck,
    PubComp,
    Publish,
    PubRec,
    PubRel,
    SubAck,
    Subscribe,
    Subscription,
    UnsubAck,
    Unsubscribe,
    Will,
    encode,
)
from mqlite.protocol.mqtt import reasons as R
from mqlite.protocol.mqtt.aliases import OutboundAliases
from mqlite.protocol.mqtt.codec import publish_qos0
from mqlite.protocol.mqtt.wire import utf8 as utf8_field
from mqlite.server.mqtt.shared import SHARE_PREFIX, SharedSubscriptions, parse_share
from mqlite.server.runtime import Round, Session, Sink

MAXIMUM_PACKET_SIZE = 4 * 1024 * 1024 + 1024  # MAXMSGL and room for the headers: larger are refused (0x95)

log = logging.getLogger("mqlite.server")

QUEUE_PREFIX = "SYSTEM.MQTT."
MODEL_QUEUE = "SYSTEM.MQTT.MODEL.QUEUE"  # clean sessions' temporary queues
QUEUE_DEPTH = 100_000
SUB_PREFIX = "MQTT:"
RECEIVE_MAXIMUM = 100  # QoS 1 and 2 publications a client may have unacknowledged towards us
SEND_WINDOW = 100  # and we towards it, unless it asks for fewer
TOPIC_ALIAS_MAXIMUM = 100
SERVER_KEEP_ALIVE = 60  # the most seconds a 5.0 client may stay silent: asking for more gets this
OPEN_TOPICS = 256  # topic handles kept open per connection for publishing
# MQTT 5 publication fields kept as message properties (and given back to MQTT subscribers).
FIELD_PROPERTIES = {"content_type": "mqtt.ContentType", "response_topic": "mqtt.ResponseTopic",
                    "correlation_data": "mqtt.CorrelationData", "payload_format_indicator": "mqtt.PayloadFormat"}
_HIDDEN_PREFIXES = ("MQ", "mqps.", "mqtt.")  # properties that are not the publisher's own
# The QoS an MQTT client published with; an MQI publication counts as QoS 2 when persistent.
QOS_PROPERTY = "mqtt.QoS"
# Which publication a copy is of (5.0 publishers): a client whose subscriptions overlap gets one
# PUBLISH carrying every matching subscription's identifier (MQTT 5.0 3.3.4), not one per copy.
PUBLICATION_PROPERTY = "mqtt.Pub"
_RUN = uuid.uuid4().hex[:12]  # so a publication of this run is never taken for one of an earlier run
_publications = itertools.count(1)


def queue_name(client_id: str) -> str:
    return QUEUE_PREFIX + hashlib.sha1(client_id.encode()).hexdigest()[:32].upper()


def subscription_name(client_id: str, topic_filter: str) -> str:
    return f"{SUB_PREFIX}{client_id}:{topic_filter}"


def valid_filter(topic_filter: str) -> bool:
    """MQTT 4.7.1: '#' only as the whole last level, '+' only as a whole level, not empty."""
    if not topic_filter:
        return False
    levels = topic_filter.split("/")
    for i, level in enumerate(levels):
        if "#" in level and (level != "#" or i != len(levels) - 1):
            return False
        if "+" in level and level != "+":
            return False
    return True


@dataclass
class Inflight:
    entry: Entry  # the message on the client's queue, removed when the client has it
    qos: int
    released: bool = False  # QoS 2: PUBREC came, PUBREL sent, PUBCOMP awaited


@dataclass
class MqttSession:
    """What a client id has while the queue manager runs, across its connections."""

    client_id: str
    persistent: bool
    queue: str
    inflight: dict[int, Inflight] = field(default_factory=dict)  # by packet id, towards the client
    awaiting_rel: set[int] = field(default_factory=set)  # QoS 2 packet ids from the client
    sent_through: int = 0  # the highest sequence number sent: a resend below it has DUP set
    next_packet_id: int = 1
    link: MqttLink | None = None  # the connection it is on, if any
    channel: str = ""  # the channel it last came through (CHSTATUS shows it there when disconnected)

    def packet_id(self) -> int:
        for _ in range(65535):
            pid = self.next_packet_id
            self.next_packet_id = pid % 65535 + 1
            if pid not in self.inflight:
                return pid
        raise MQError(C.MQRC_RESOURCE_PROBLEM, "no free packet identifier")


class MqttOutput(Session):
    """The runtime's view of one MQTT connection: its output, and its waiting browse."""

    def __init__(self, sink: Sink, link: MqttLink) -> None:
        super().__init__(sink)
        self.link = link
        self.on_drained: Callable[[], None] | None = None  # the connection closes once this ran

    def emit(self, round_: Round, data: bytes) -> None:
        if not self.closed:
            self.link.bytes_out += len(data)
        super().emit(round_, data)

    def flush(self) -> None:
        super().flush()
        if self.on_drained is not None and not self.pending:
            self.on_drained()

    def complete(self, round_: Round, req_id: int, result: GetResult | MQError) -> None:
        self.link.on_browse(round_, result)


class MqttBroker:
    """The MQTT sessions of one queue manager, by client id."""

    def __init__(self, core: QueueManager) -> None:
        self.core = core
        self.sessions: dict[str, MqttSession] = {}
        self._options: dict[str, dict[str, Any]] = {}  # SubUserData, parsed once per text
        self.expiring: dict[str, float] = {}  # 5.0 sessions without a connection: when they end
        self.wills: dict[str, tuple[float, Will, str]] = {}  # delayed wills: when, what, whose
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
        self.wills.pop(client_id, None)

    def sweep(self, now: float) -> None:
        """Send the delayed wills that are due and end the sessions that expired (5.0)."""
        for client_id, (due, will, user) in list(self.wills.items()):
            if due <= now:
                del self.wills[client_id]
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
        conn = self.core.connect(user, "MQTT will", 0)
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


class MqttLink:
    """One MQTT connection after its CONNECT: packets in, core calls, packets out. ``send``
    puts a packet's bytes in the current round; ``close`` ends the connection."""

    def __init__(self, broker: MqttBroker, connect: Connect, user: str, send: Callable[[Round, Packet], None],
                 close: Callable[[int], None], output: Callable[[MqttLink], MqttOutput]) -> None:
        self.broker = broker
        self.core = broker.core
        self.connect_packet = connect
        self.version = connect.protocol_level
        self.user = user
        self._send = send
        self.close = close
        self.output = output(self)
        self.session: MqttSession | None = None
        self.conn: Any = None
        self.hobj = 0
        self.waiting: Waiter | None = None
        self.window = min(SEND_WINDOW, int(connect.properties.get("receive_maximum", SEND_WINDOW)))
        self.max_packet = int(connect.properties.get("maximum_packet_size", 0)) or None
        # 5.0: a client asking for a longer keep-alive than the server's gets the server's (3.2.2.3.14).
        self.keep_alive = connect.keep_alive
        if self.version == V5 and self.keep_alive > SERVER_KEEP_ALIVE:
            self.keep_alive = SERVER_KEEP_ALIVE
        self.topics: OrderedDict[str, int] = OrderedDict()  # topic -> output handle
        self.aliases: dict[int, str] = {}  # inbound topic aliases (5.0)
        self._topic_fields: dict[str, bytes] = {}
        alias_maximum = int(connect.properties.get("topic_alias_maximum", 0))
        self.out_aliases = OutboundAliases(alias_maximum) if self.version == V5 and alias_maximum else None
        self.subscriptions: dict[str, Any] = {}  # non-durable subscription handles by filter
        self.will_sent = False
        self._req = 0
        self.session_expiry = int(connect.properties.get("session_expiry_interval", 0))  # 5.0; DISCONNECT may change it
        # What DISPLAY CHSTATUS shows of the connection: PUBLISH packets received and sent, bytes
        # received (counted by the listener, from the connection's start) and sent, when CONNECT
        # came, when a packet last came, and the client's address as a CONNAME ("host(port)").
        self.msgs_in = self.msgs_out = 0
        self.bytes_in = self.bytes_out = 0
        self.connected_at = self.last_activity = time.time()
        self.peer = ""

    def send(self, round_: Round, packet: Packet) -> None:
        self._send(round_, packet)

    def fail(self, round_: Round, reason: int) -> None:
        """End the connection for a protocol violation: 5.0 clients hear the reason first."""
        if self.version == V5:
            self.send(round_, Disconnect(reason))
        self.close(reason)

    # -- CONNECT ---------------------------------------------------------------------------------
    def start(self, round_: Round) -> None:
        """Accept the CONNECT: take over or resume the session, answer CONNACK, deliver."""
        c = self.connect_packet
        broker, core = self.broker, self.core
        client_id, assigned = c.client_id, None
        persistent = not c.clean_start if self.version != V5 else \
            int(c.properties.get("session_expiry_interval", 0)) > 0
        if not client_id:
            if self.version != V5 and not c.clean_start:
                self.send(round_, ConnAck(False, R.CLIENT_IDENTIFIER_NOT_VALID))
                self.close(R.CLIENT_IDENTIFIER_NOT_VALID)
                return
            client_id = assigned = "mqlite-" + uuid.uuid4().hex[:16]
        broker.resume(client_id)
        old = broker.sessions.get(client_id)
        if old is not None and old.link is not None:  # a new connection takes the session over
            old.link.takeover(round_)
        if old is not None and (c.clean_start or not old.persistent):
            broker.discard(old)
            old = None
        self.conn = core.connect(self.user, f"MQTT {client_id}"[:28], 0)
        durable_queue = queue_name(client_id)
        if c.clean_start and durable_queue in core.queues:  # a persistent session of an earlier run ends
            broker.remove_durable_subscriptions(client_id)
            core.delete("QLOCAL", durable_queue, purge=True)
        kept = not c.clean_start and durable_queue in core.queues
        session_present = old is not None or kept
        session = old or MqttSession(client_id, persistent, durable_queue if kept else "")
        session.persistent = persistent or kept
        session.link = self
        broker.sessions[client_id] = session
        self.session = session
        if session.queue:
            self._open_queue()
        properties: dict[str, Any] = {}
        if self.version == V5:
            properties = {"receive_maximum": RECEIVE_MAXIMUM, "topic_alias_maximum": TOPIC_ALIAS_MAXIMUM,
                          "maximum_packet_size": MAXIMUM_PACKET_SIZE, "shared_subscription_available": 1}
            if self.keep_alive != c.keep_alive:
                properties["server_keep_alive"] = self.keep_alive
            if assigned:
                properties["assigned_client_identifier"] = assigned
        self.send(round_, ConnAck(session_present, R.SUCCESS, properties))
        for pid, flight in sorted(session.inflight.items()):  # a QoS 2 delivery waiting for PUBCOMP
            if flight.released:
                self.send(round_, PubRel(pid))
        session.inflight = {pid: f for pid, f in session.inflight.items() if f.released}
        self.pump(round_)
        broker.shares.pump(round_, client_id)

    def _open_queue(self) -> None:
        """The queue the session's subscriptions deliver to, made on first need: a permanent
        FIFO queue for a persistent session, a temporary dynamic one (gone with the connection,
        its messages never written to disk) for a clean one."""
        session, core = self._session(), self.core
        options = C.MQOO_BROWSE | C.MQOO_INPUT_SHARED | C.MQOO_FAIL_IF_QUIESCING
        if session.persistent:
            name = queue_name(session.client_id)
            if name not in core.queues:
                core.define("QLOCAL", name, {"MSGDLVSQ": "FIFO", "MAXDEPTH": QUEUE_DEPTH,
                                             "DESCR": f"MQTT client {session.client_id}"[:64]})
            handle = core.open(self.conn, {"ObjectType": C.MQOT_Q, "ObjectName": name}, options)
        else:
            if MODEL_QUEUE not in core.qdefs:
                core.define("QMODEL", MODEL_QUEUE, {"DEFTYPE": "TEMPDYN", "MSGDLVSQ": "FIFO", "MAXDEPTH": QUEUE_DEPTH,
                                                    "DESCR": "MQTT clean sessions"})
            handle = core.open(self.conn, {"ObjectType": C.MQOT_Q, "ObjectName": MODEL_QUEUE,
                                           "DynamicQName": QUEUE_PREFIX + "TEMP.*"}, options)
        session.queue = handle.opened_as if handle.created_dynamic else handle.name
        self.hobj = handle.hobj

    def takeover(self, round_: Round) -> None:
        """Another connection with this client id came: this one ends (MQTT 3.1.4-3)."""
        if self.version == V5:
            self.send(round_, Disconnect(R.SESSION_TAKEN_OVER))
        self.close(R.SESSION_TAKEN_OVER)
        self.end()

    # -- packets ---------------------------------------------------------------------------------
    def handle(self, round_: Round, packet: Packet) -> None:
        if isinstance(packet, Publish):
            self.on_publish(round_, packet)
        elif isinstance(packet, PubAck):
            self.on_ack(round_, packet.packet_id, PubAck)
        elif isinstance(packet, PubRec):
            self.on_ack(round_, packet.packet_id, PubRec)
        elif isinstance(packet, PubComp):
            self.on_ack(round_, packet.packet_id, PubComp)
        elif isinstance(packet, PubRel):
            session = self._session()
            known = packet.packet_id in session.awaiting_rel
            session.awaiting_rel.discard(packet.packet_id)
            self.send(round_, PubComp(packet.packet_id, 0 if known else R.PACKET_IDENTIFIER_NOT_FOUND))
        elif isinstance(packet, Subscribe):
            self.on_subscribe(round_, packet)
        elif isinstance(packet, Unsubscribe):
            self.on_unsubscribe(round_, packet)
        elif isinstance(packet, PingReq):
            self.send(round_, PingResp())
        elif isinstance(packet, Disconnect):
            expiry = packet.properties.get("session_expiry_interval")
            if expiry is not None:
                if expiry and not self.session_expiry:  # MQTT 5.0 3.14.2-2: 0 cannot become more
                    self.fail(round_, R.PROTOCOL_ERROR)
                    return
                self.session_expiry = int(expiry)
            if packet.reason == R.SUCCESS:
                self.will_sent = True  # a normal DISCONNECT drops the will
            self.close(-1)
        else:  # AUTH without an authentication method
            self.fail(round_, R.PROTOCOL_ERROR)

    def _session(self) -> MqttSession:
        assert self.session is not None
        return self.session

    # -- PUBLISH from the client -----------------------------------------------------------------
    def on_publish(self, round_: Round, p: Publish) -> None:
        self.msgs_in += 1
        topic = p.topic
        qos = p.qos
        alias = p.properties.get("topic_alias") if p.properties else None
        if alias is not None:
            if alias > TOPIC_ALIAS_MAXIMUM:
                self.fail(round_, R.TOPIC_ALIAS_INVALID)
                return
            if topic:
                self.aliases[alias] = topic
            elif alias not in self.aliases:
                self.fail(round_, R.PROTOCOL_ERROR)
                return
            else:
                topic = self.aliases[alias]
        if qos == 2:
            session = self._session()
            if p.packet_id in session.awaiting_rel:  # a resend of one we have
                self.send(round_, PubRec(p.packet_id))
                return
            if len(session.awaiting_rel) >= RECEIVE_MAXIMUM:  # MQTT 5.0 3.3.4-9
                self.fail(round_, R.RECEIVE_MAXIMUM_EXCEEDED)
                return
        reason = self.publish(topic, p.payload, qos, p.retain, p.properties)
        if reason >= 0x80 and self.version != V5 and qos < 2:
            self.close(reason)  # 3.1.1 has no way to refuse a publication but to disconnect
            return
        if not qos:
            return
        session = self._session()
        if qos == 1:
            assert p.packet_id is not None
            self.send(round_, PubAck(p.packet_id, reason))
        elif p.qos == 2:
            assert p.packet_id is not None
            if reason < 0x80:
                session.awaiting_rel.add(p.packet_id)
            self.send(round_, PubRec(p.packet_id, reason))

    def publish(self, topic: str, payload: bytes, qos: int, retain: bool, props: dict[str, Any]) -> int:
        """An MQI publication of an MQTT message: the MQTT reason code for the outcome."""
        reason = publish_on(self.core, self.conn, self.topics, topic, payload, qos, retain, props,
                            marked=self.version == V5)
        if reason >= 0x80:
            log.info("MQTT publication on %r from %s refused (0x%02X)", topic, self._session().client_id, reason)
        return reason if self.version == V5 or reason >= 0x80 else R.SUCCESS

    # -- SUBSCRIBE / UNSUBSCRIBE -----------------------------------------------------------------
    def on_subscribe(self, round_: Round, packet: Subscribe) -> None:
        if any(s.no_local and s.topic_filter.startswith(SHARE_PREFIX) for s in packet.subscriptions):
            self.fail(round_, R.PROTOCOL_ERROR)  # MQTT 5.0 3.8.3-4: no local on a shared subscription
            return
        ids = packet.properties.get("subscription_identifier", [])
        reasons = [self.subscribe(s, ids[0] if ids else None) for s in packet.subscriptions]
        self.send(round_, SubAck(packet.packet_id, reasons))
        self.pump(round_)
        self.broker.shares.pump(round_, self._session().client_id)

    def subscribe(self, s: Subscription, identifier: int | None) -> int:
        session = self._session()
        if not self.hobj:
            self._open_queue()
        failure = R.UNSPECIFIED_ERROR if self.version == V5 else R.V3_SUBACK_FAILURE
        if s.topic_filter.startswith(SHARE_PREFIX):
            return self._subscribe_shared(s, identifier, failure)
        if not valid_filter(s.topic_filter):
            return R.TOPIC_FILTER_INVALID if self.version == V5 else failure
        name = subscription_name(session.client_id, s.topic_filter)
        existing = name in self.core.subs_by_name or s.topic_filter in self.subscriptions
        options = C.MQSO_WILDCARD_TOPIC | C.MQSO_FAIL_IF_QUIESCING
        options |= C.MQSO_DURABLE if session.persistent else C.MQSO_NON_DURABLE
        options |= (C.MQSO_ALTER | C.MQSO_RESUME) if existing else C.MQSO_CREATE
        if s.no_local:
            options |= MQSO_NOT_OWN_PUBS
        if s.retain_handling == 2 or (s.retain_handling == 1 and existing):
            options |= C.MQSO_NEW_PUBLICATIONS_ONLY
        options_data: dict[str, Any] = {"f": s.topic_filter, "q": s.qos, "rap": s.retain_as_published,
                                        "id": identifier}
        if self.version == V5 and session.persistent and self.session_expiry != 0xFFFFFFFF:
            # So the session can expire after a restart too: its interval and whose it is.
            options_data.update(x=self.session_expiry, c=session.client_id)
        data = json.dumps(options_data, separators=(",", ":"))
        sd = {"Options": options, "ObjectString": s.topic_filter, "SubName": name, "SubUserData": data}
        try:
            old = self.subscriptions.pop(s.topic_filter, None)
            if old is not None and not session.persistent:  # a non-durable one is replaced
                self.core.close(self.conn, old, C.MQCO_REMOVE_SUB)
                sd["Options"] = (options & ~(C.MQSO_ALTER | C.MQSO_RESUME)) | C.MQSO_CREATE
            hsub, _, _ = self.core.subscribe(self.conn, sd, self.hobj)
        except MQError as error:
            log.info("MQTT subscription %r of %s refused: %s", s.topic_filter, session.client_id, error)
            return _MQTT_REASON.get(error.reason, failure) if self.version == V5 else failure
        if session.persistent:
            self.core.close(self.conn, hsub.hobj, C.MQCO_KEEP_SUB)  # durable: it delivers without a handle
        else:
            self.subscriptions[s.topic_filter] = hsub.hobj
        return s.qos

    def _subscribe_shared(self, s: Subscription, identifier: int | None, failure: int) -> int:
        share = parse_share(s.topic_filter)
        if share is None or not valid_filter(share[1]):
            return R.TOPIC_FILTER_INVALID if self.version == V5 else failure
        options = {"f": share[1], "q": s.qos, "rap": s.retain_as_published, "id": identifier}
        try:
            self.broker.shares.subscribe(self._session().client_id, share[0], share[1], options)
        except MQError as error:
            log.info("MQTT shared subscription %r refused: %s", s.topic_filter, error)
            return _MQTT_REASON.get(error.reason, failure) if self.version == V5 else failure
        return s.qos

    def on_unsubscribe(self, round_: Round, packet: Unsubscribe) -> None:
        session = self._session()
        reasons = []
        for topic_filter in packet.topic_filters:
            share = parse_share(topic_filter) if topic_filter.startswith(SHARE_PREFIX) else None
            if share is not None:
                found = self.broker.shares.unsubscribe(session.client_id, *share)
                reasons.append(R.SUCCESS if found else R.NO_SUBSCRIPTION_EXISTED)
                continue
            hsub = self.subscriptions.pop(topic_filter, None)
            name = subscription_name(session.client_id, topic_filter)
            if hsub is not None:
                self.core.close(self.conn, hsub, C.MQCO_REMOVE_SUB)
                reasons.append(R.SUCCESS)
            elif name in self.core.subs_by_name:
                self.core.delete_sub(name)
                reasons.append(R.SUCCESS)
            else:
                reasons.append(R.NO_SUBSCRIPTION_EXISTED)
        self.send(round_, UnsubAck(packet.packet_id, reasons if self.version == V5 else []))

    # -- delivery to the client --------------------------------------------------------------------
    def pump(self, round_: Round) -> None:
        """Browse and send what the window allows; a browse that finds nothing waits."""
        session = self._session()
        while self.waiting is None and self.hobj and len(session.inflight) < self.window:
            try:  # what is there already, in one go; then a browse that waits
                batch = self.core.browse_batch(self.conn, self.hobj, self.window - len(session.inflight))
                if batch:
                    self.deliver_batch(round_, batch)
                    continue
                self._req += 1
                result = self.core.get(self.conn, self.hobj, _BROWSE_NEXT, (self.output, self._req))
            except MQError as error:
                if error.reason != C.MQRC_NO_MSG_AVAILABLE:
                    log.info("MQTT delivery to %s stopped: %s", session.client_id, error)
                return
            if isinstance(result, Waiter):
                self.waiting = result
                self.output.waiters[self._req] = result
                return
            self.deliver(round_, self.conn.handles[self.hobj].browse_entry, result.message)

    def on_browse(self, round_: Round, result: GetResult | MQError) -> None:
        """The waiting browse completed."""
        self.waiting = None
        if isinstance(result, GetResult) and self.conn is not None:
            first = (self.conn.handles[self.hobj].browse_entry, result.message)
            room = self.window - len(self._session().inflight) - 1
            if self.version == V5 and room > 0 and PUBLICATION_PROPERTY in result.message.properties:
                try:  # the other copies of the same publication, if any, go in the same PUBLISH
                    rest = self.core.browse_batch(self.conn, self.hobj, room)
                except MQError:
                    rest = []
                self.deliver_batch(round_, [first, *rest])
            else:
                self.deliver(round_, *first)
        self.pump(round_)

    def deliver_batch(self, round_: Round, batch: list[tuple[Entry, Message]]) -> None:
        """Send browsed messages; for a 5.0 client, adjacent copies of one publication (from
        overlapping subscriptions) as one PUBLISH."""
        if self.version != V5:
            for entry, message in batch:
                self.deliver(round_, entry, message)
            return
        i = 0
        while i < len(batch):
            entry, message = batch[i]
            mark = message.properties.get(PUBLICATION_PROPERTY)
            j = i + 1
            if mark is not None:
                while j < len(batch) and batch[j][1].properties.get(PUBLICATION_PROPERTY) == mark:
                    j += 1
            self.deliver(round_, entry, message, batch[i + 1:j])
            i = j

    def deliver(self, round_: Round, entry: Entry, message: Message,
                same: list[tuple[Entry, Message]] | None = None) -> None:
        """Send one browsed message (QoS 0: removed now; 1 and 2: when acknowledged), with the
        other copies of its publication in ``same`` (removed now, their options merged in)."""
        session = self.session
        assert session is not None
        props = message.properties
        topic = props.get("MQTopicString", "")
        if topic.__class__ is not str:
            topic = str(topic)
        user_data = props.get("MQSubUserData") or ""
        if user_data.__class__ is not str:
            user_data = str(user_data)
        sub = self.broker.subscription_options(user_data)
        if same:
            sub = self._merged_options(sub, same)
        if topic[:1] == "$" and str(sub.get("f", ""))[:1] in ("#", "+"):  # MQTT 4.7.2: not for leading wildcards
            self.core.remove_entry(session.queue, entry)
            return
        published = props.get(QOS_PROPERTY)  # absent: an MQI publication, QoS 2 when persistent
        wanted = sub.get("q", 0)
        if published.__class__ is not int or wanted.__class__ is not int:  # set by an MQI application?
            wanted, published = _int(wanted, 0), _int(published, 2 * message.persistent)
        qos = min(wanted, published) if published >= 0 else 0
        retained = bool(props.get("MQIsRetained")) or (
            bool(sub.get("rap")) and bool(_int_or_zero(props.get("MQPubOptions")) & C.MQPMO_RETAIN))
        properties: dict[str, Any] = {}
        if self.version == V5:
            properties = self._v5_properties(message, sub)
        elif qos == 0:  # the common 3.1.1 case, straight to bytes
            self.core.remove_entry(session.queue, entry)
            if entry.seq > session.sent_through:
                session.sent_through = entry.seq
            self.msgs_out += 1
            field = self._topic_fields.get(topic) or self._topic_field(topic)
            round_.add(self.output, publish_qos0(field, message.body, retained))
            return
        packet = Publish(topic, message.body, qos, retained, False, 1 if qos else None, properties)
        if self.max_packet is not None and len(encode(packet, self.version)) > self.max_packet:
            # Too big for the client (5.0 Maximum Packet Size): discarded as if sent (3.1.2-25).
            log.info("MQTT publication on %r too big for %s: discarded", topic, session.client_id)
            self.core.remove_entry(session.queue, entry)
            return
        seq = entry.seq
        if qos:
            pid = session.packet_id()
            packet.packet_id, packet.dup = pid, seq <= session.sent_through
            session.inflight[pid] = Inflight(entry, qos)
        else:
            self.core.remove_entry(session.queue, entry)
        session.sent_through = max(session.sent_through, seq)
        self.msgs_out += 1
        if self.out_aliases is not None:
            self.out_aliases.apply(packet)
        self.send(round_, packet)

    def _merged_options(self, sub: dict[str, Any], same: list[tuple[Entry, Message]]) -> dict[str, Any]:
        """One delivery for several matching subscriptions: the highest QoS, every identifier,
        retained as published if any asked for it (MQTT 5.0 3.3.4)."""
        merged = dict(sub)
        ids = [sub["id"]] if sub.get("id") else []
        for entry, copy in same:
            self.core.remove_entry(self._session().queue, entry)
            other = self.broker.subscription_options(str(copy.properties.get("MQSubUserData") or ""))
            merged["q"] = max(_int(merged.get("q", 0), 0), _int(other.get("q", 0), 0))
            merged["rap"] = bool(merged.get("rap")) or bool(other.get("rap"))
            if other.get("id") and other["id"] not in ids:
                ids.append(other["id"])
        merged["id"] = ids
        return merged

    def _topic_field(self, topic: str) -> bytes:
        """The topic as a PUBLISH carries it (length-prefixed UTF-8), made once per topic."""
        field = self._topic_fields.get(topic)
        if field is None:
            if len(self._topic_fields) >= OPEN_TOPICS:
                self._topic_fields.clear()
            field = self._topic_fields[topic] = utf8_field(topic)
        return field

    def _v5_properties(self, message: Any, sub: dict[str, Any]) -> dict[str, Any]:
        props = message.properties
        out: dict[str, Any] = {}
        for key, name in FIELD_PROPERTIES.items():
            if name in props:
                out[key] = props[name]
        identifier = sub.get("id")
        if identifier:
            out["subscription_identifier"] = [int(i) for i in identifier] if isinstance(identifier, list) \
                else [int(identifier)]
        expiry = message.md.Expiry
        if expiry != C.MQEI_UNLIMITED:
            out["message_expiry_interval"] = max(0, int(expiry) // 10)
        users = [(str(k), _text(v)) for k, v in props.items() if not str(k).startswith(_HIDDEN_PREFIXES)]
        if users:
            out["user_property"] = users
        return out

    def on_ack(self, round_: Round, pid: int, kind: type) -> None:
        session = self._session()
        flight = session.inflight.get(pid)
        if flight is None:
            if kind is PubRec:
                self.send(round_, PubRel(pid, R.PACKET_IDENTIFIER_NOT_FOUND))
            return
        if kind is PubAck and flight.qos == 1:
            del session.inflight[pid]
            self.core.remove_entry(session.queue, flight.entry)
        elif kind is PubRec and flight.qos == 2 and not flight.released:
            flight.released = True
            self.core.remove_entry(session.queue, flight.entry)
            self.send(round_, PubRel(pid))
        elif kind is PubComp and flight.released:
            del session.inflight[pid]
        self.pump(round_)

    # -- the end ---------------------------------------------------------------------------------
    def end(self) -> None:
        """The connection is gone: publish the will unless a normal DISCONNECT dropped it, leave
        core, and end a clean session."""
        session = self.session
        if session is None or session.link is not self:
            return
        will = self.connect_packet.will
        now = self.core.clock()
        expiry = self.session_expiry
        if session.persistent and self.version == V5 and expiry != 0xFFFFFFFF:
            self.broker.expiring[session.client_id] = now + expiry
        if will is not None and not self.will_sent:
            self.will_sent = True
            delay = int(will.properties.get("will_delay_interval", 0)) if session.persistent else 0
            if delay:  # sent when the delay ends or the session does, whichever is first (5.0 3.1.3.2.2)
                due = now + min(delay, expiry if expiry != 0xFFFFFFFF else delay)
                self.broker.wills[session.client_id] = (due, will, self.user)
            else:
                self.publish(will.topic, will.payload, will.qos, will.retain, will.properties)
        if self.waiting is not None:
            self.core.cancel_wait(self.waiting)
            self.waiting = None
        self.output.waiters.clear()
        if self.conn is not None:
            self.core.disconnect(self.conn, commit=True)
            self.conn = None
            self.hobj = 0
        session.link = None
        if not session.persistent:
            self.broker.discard(session)


def publish_on(core: QueueManager, conn: Any, topics: OrderedDict[str, int] | None, topic: str, payload: bytes,
               qos: int, retain: bool, props: dict[str, Any], marked: bool = False) -> int:
    """Publish an MQTT message through ``conn`` (keeping topic handles open in ``topics``, if
    given): the MQTT 5.0 reason code for the outcome. ``marked``: its copies say which
    publication they are of (``PUBLICATION_PROPERTY``)."""
    if retain and not payload:  # MQTT: an empty retained message clears the retained one
        core.clear_retained(topic)
        return R.SUCCESS
    hobj = topics.get(topic) if topics is not None else None
    try:
        if hobj is None:
            handle = core.open(conn, {"ObjectType": C.MQOT_TOPIC, "ObjectString": topic},
                               C.MQOO_OUTPUT | C.MQOO_FAIL_IF_QUIESCING)
            hobj = handle.hobj
            if topics is not None:
                topics[topic] = hobj
                if len(topics) > OPEN_TOPICS:
                    _, oldest = topics.popitem(last=False)
                    core.close(conn, oldest, 0)
        elif topics is not None:
            topics.move_to_end(topic)
        if props:  # 5.0 properties; a 3.1.1 publication has none and skips all this
            md = MessageDescriptor(Persistence=1 if qos else 0,
                                   Format="MQSTR" if props.get("payload_format_indicator") == 1 else "")
            expiry = props.get("message_expiry_interval")
            if expiry is not None:
                md.Expiry = min(int(expiry) * 10, 0x7FFFFFFF)
            properties: dict[str, Any] = {name: value for name, value in props.get("user_property", [])}
            for key, name in FIELD_PROPERTIES.items():
                if key in props:
                    properties[name] = props[key]
        else:
            md = MessageDescriptor()
            md.Persistence = 1 if qos else 0
            properties = {}
        properties[QOS_PROPERTY] = qos
        if marked:
            properties[PUBLICATION_PROPERTY] = f"{_RUN}{next(_publications)}"
        options = C.MQPMO_NO_SYNCPOINT | C.MQPMO_FAIL_IF_QUIESCING | (C.MQPMO_RETAIN if retain else 0)
        core.put(conn, hobj, md, options, properties, payload)
    except MQError as error:
        return _MQTT_REASON.get(error.reason, R.UNSPECIFIED_ERROR)
    return R.NO_MATCHING_SUBSCRIBERS if conn.warning == C.MQRC_NO_SUBS_MATCHED else R.SUCCESS


def _int_or_zero(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


def _int(value: Any, default: int) -> int:
    """A QoS from a property or SubUserData an MQI application could have set to anything."""
    try:
        return max(0, min(2, int(value)))
    except (TypeError, ValueError):
        return default


def _text(value: Any) -> str:
    if isinstance(value, bytes):
        return value.hex()
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


_BROWSE_NEXT = GetRequest(C.MQGMO_BROWSE_NEXT | C.MQGMO_WAIT | C.MQGMO_FAIL_IF_QUIESCING, None, None, -1, -1)

# MQI reasons as MQTT 5.0 reason codes.
_MQTT_REASON = {
    C.MQRC_NOT_AUTHORIZED: R.NOT_AUTHORIZED,
    C.MQRC_PUT_INHIBITED: R.IMPLEMENTATION_SPECIFIC_ERROR,
    C.MQRC_PUBLICATION_FAILURE: R.IMPLEMENTATION_SPECIFIC_ERROR,
    C.MQRC_Q_FULL: R.QUOTA_EXCEEDED,
    C.MQRC_MSG_TOO_BIG_FOR_Q: R.PACKET_TOO_LARGE,
    C.MQRC_TOPIC_STRING_ERROR: R.TOPIC_NAME_INVALID,
    C.MQRC_Q_MGR_STOPPING: R.SERVER_SHUTTING_DOWN,
}
