"""One MQTT connection mapped onto core calls, as IBM MQ's telemetry service maps it: one core
connection per MQTT connection, publications as MQI publications (``publishing``), subscriptions
as MQI subscriptions onto the session's own queue (``broker``), deliveries as browses of it.

The protocol's own rules (packet ids, QoS flows, Receive Maximum, Maximum Packet Size, topic
aliases, keep-alive) are ``protocol.mqtt.session.ServerSession``'s; this module does what they
mean for the queue manager. Deliveries browse the queue (a waiting browse wakes when a
publication arrives) and remove a message only when the client has it: at once for QoS 0, at
PUBACK for QoS 1, at PUBREC for QoS 2. What is still on the queue when a client comes back is
sent again, with DUP set when it had been sent before.
"""

from __future__ import annotations

import json
import logging
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Protocol

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.mqi import caller_of
from mqlite.core.pubsub.subscription import MQSO_NOT_OWN_PUBS
from mqlite.core.qmgr import GetResult
from mqlite.core.queues import Entry
from mqlite.core.waiters import GetRequest, Waiter
from mqlite.message import Message
from mqlite.protocol.mqtt import (
    V5,
    ConnAck,
    Connect,
    Disconnect,
    MqttError,
    Packet,
    Publish,
    SubAck,
    Subscribe,
    Subscription,
    UnsubAck,
    Unsubscribe,
)
from mqlite.protocol.mqtt import reasons as R
from mqlite.protocol.mqtt.codec import publish_qos0
from mqlite.protocol.mqtt.session import NO_EXPIRY, Acknowledged, Limits, ServerSession
from mqlite.protocol.mqtt.wire import utf8 as utf8_field
from mqlite.server.mqtt.broker import (
    MODEL_QUEUE,
    QUEUE_DEPTH,
    QUEUE_PREFIX,
    MqttBroker,
    MqttSession,
    queue_name,
    subscription_name,
)
from mqlite.server.mqtt.publishing import (
    MQTT_REASONS,
    OPEN_TOPICS,
    PUBLICATION_PROPERTY,
    QOS_PROPERTY,
    int_or_zero,
    publish_on,
    qos_value,
    v5_properties,
)
from mqlite.server.mqtt.shared import SHARE_PREFIX, parse_share
from mqlite.server.runtime import Round, Session, Sink

log = logging.getLogger("mqlite.server")

LIMITS = Limits()
_BROWSE_NEXT = GetRequest(C.MQGMO_BROWSE_NEXT | C.MQGMO_WAIT | C.MQGMO_FAIL_IF_QUIESCING, None, None, -1, -1)


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


class MqttOutput(Session):
    """The runtime's view of one MQTT connection: its output, and its waiting browse."""

    __slots__ = ("last_words", "link", "said_last_words")  # an idle connection's bytes count

    def __init__(self, sink: Sink, link: MqttLink) -> None:
        super().__init__(sink)
        self.link = link
        self.on_drained: Callable[[], None] | None = None  # the connection closes once this ran
        # A DISCONNECT the server sends goes after the rest of its round (deliveries the round's
        # publications caused included), and nothing is sent after it (MQTT 5.0 [MQTT-3.14.4-1]).
        self.last_words: bytes | None = None
        self.said_last_words = False

    def emit(self, round_: Round, data: bytes) -> None:
        if self.said_last_words:
            return
        if self.last_words is not None:
            data, self.last_words, self.said_last_words = data + self.last_words, None, True
        if not self.closed:
            self.link.bytes_out += len(data)
        super().emit(round_, data)

    def flush(self) -> None:
        super().flush()
        if self.on_drained is not None and not self.pending:
            self.on_drained()

    def complete(self, round_: Round, req_id: int, result: GetResult | MQError) -> None:
        self.link.on_browse(round_, result)


class Carrier(Protocol):
    """The connection a link's packets go out on (kept as one object, where two bound methods
    would be 128 bytes more of every idle connection)."""

    def send_packet(self, round_: Round, packet: Packet) -> None:
        """Put a packet's bytes in the round."""

    def close(self, reason: int) -> None:
        """End the connection once the round's output has gone."""


class MqttLink:
    """One MQTT connection after its CONNECT: packets in, core calls, packets out. ``send``
    puts a packet's bytes in the current round; ``close`` ends the connection."""

    __slots__ = ("_req", "_topic_fields", "broker", "bytes_in", "bytes_out", "carrier", "conn", "connect_packet",
                 "connected_at", "core", "hobj", "last_activity", "msgs_in", "msgs_out", "output", "peer", "protocol",
                 "session", "subscriptions", "topics", "user", "version", "waiting", "will_sent")

    def __init__(self, broker: MqttBroker, connect: Connect, user: str, carrier: Carrier,
                 output: Callable[[MqttLink], MqttOutput]) -> None:
        self.broker = broker
        self.core = broker.core
        self.connect_packet = connect
        self.version = connect.protocol_level
        self.user = user
        self.carrier = carrier
        self.output = output(self)
        self.session: MqttSession | None = None
        self.protocol: ServerSession | None = None  # the protocol's rules, once the session is known
        self.conn: Any = None
        self.hobj = 0
        self.waiting: Waiter | None = None
        self.topics: OrderedDict[str, int] | None = None  # topic -> output handle, from the first publication
        self._topic_fields: dict[str, bytes] = {}
        self.subscriptions: dict[str, Any] = {}  # non-durable subscription handles by filter
        self.will_sent = False
        self._req = 0
        # What DISPLAY CHSTATUS shows of the connection: PUBLISH packets received and sent, bytes
        # received (counted by the listener, from the connection's start) and sent, when CONNECT
        # came, when a packet last came, and the client's address as a CONNAME ("host(port)").
        self.msgs_in = self.msgs_out = 0
        self.bytes_in = self.bytes_out = 0
        self.connected_at = self.last_activity = time.time()
        self.peer = ""

    @property
    def keep_alive(self) -> int:
        """The keep-alive granted (a 5.0 client may be given less than it asked for)."""
        return self.protocol.keep_alive if self.protocol is not None else self.connect_packet.keep_alive

    def send(self, round_: Round, packet: Packet) -> None:
        self.carrier.send_packet(round_, packet)

    def close(self, reason: int) -> None:
        self.carrier.close(reason)

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
        try:  # the client's user needs connect authority, before it may take any session over
            conn = core.connect(core.security.principal_of(self.user), f"MQTT {client_id}"[:28], 0)
        except MQError as error:
            log.warning("%s (MQTT client %r)", error.text, client_id)
            reason = R.NOT_AUTHORIZED if error.reason == C.MQRC_NOT_AUTHORIZED else R.SERVER_UNAVAILABLE
            self.send(round_, ConnAck(False, reason))
            self.close(reason)
            return
        broker.resume(client_id)
        old = broker.sessions.get(client_id)
        if old is not None and old.link is not None:  # a new connection takes the session over
            old.link.takeover(round_)
        if old is not None and (c.clean_start or not old.persistent):
            broker.discard(old)
            old = None
        self.conn = conn
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
        self.protocol = ServerSession(c, session.state, LIMITS)
        if session.queue:
            self._open_queue()
        self.send(round_, self.protocol.connack(session_present, assigned))
        for packet in self.protocol.resume():  # a QoS 2 delivery waiting for PUBCOMP
            self.send(round_, packet)
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
            handle = core.open(self.conn, {"ObjectType": C.MQOT_Q, "ObjectName": name}, options, internal=True)
        else:
            if MODEL_QUEUE not in core.qdefs:
                core.define("QMODEL", MODEL_QUEUE, {"DEFTYPE": "TEMPDYN", "MSGDLVSQ": "FIFO", "MAXDEPTH": QUEUE_DEPTH,
                                                    "DESCR": "MQTT clean sessions"})
            handle = core.open(self.conn, {"ObjectType": C.MQOT_Q, "ObjectName": MODEL_QUEUE,
                                           "DynamicQName": QUEUE_PREFIX + "TEMP.*"}, options, internal=True)
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
        protocol = self._protocol()
        try:
            event, reply = protocol.receive(packet)
        except MqttError as error:
            log.info("MQTT client %s: %s", self._session().client_id, error)
            self.fail(round_, error.reason)
            return
        if reply is not None:
            self.send(round_, reply)
        if event is None:
            return
        kind = event.__class__
        if kind is Publish:
            assert isinstance(event, Publish)
            self._publish(round_, event)
        elif kind is Acknowledged:
            assert isinstance(event, Acknowledged)
            if event.token is not None:
                self.core.remove_entry(self._session().queue, event.token)
            self.pump(round_)
        elif kind is Subscribe:
            assert isinstance(event, Subscribe)
            self.on_subscribe(round_, event)
        elif kind is Unsubscribe:
            assert isinstance(event, Unsubscribe)
            self.on_unsubscribe(round_, event)
        elif kind is Disconnect:
            assert isinstance(event, Disconnect)
            if event.reason == R.SUCCESS:
                self.will_sent = True  # a normal DISCONNECT drops the will
            self.close(-1)

    def _session(self) -> MqttSession:
        assert self.session is not None
        return self.session

    def _protocol(self) -> ServerSession:
        assert self.protocol is not None
        return self.protocol

    # -- PUBLISH from the client -----------------------------------------------------------------
    def on_publish(self, round_: Round, p: Publish) -> None:
        """A PUBLISH: a 3.1.1 QoS 0 one straight to core (the protocol has nothing to say about
        it), any other through the protocol's rules first."""
        if p.qos or p.properties:
            self.handle(round_, p)
            return
        self.msgs_in += 1
        reason = self.publish(p.topic, p.payload, 0, p.retain, p.properties)
        if reason >= 0x80 and self.version != V5:
            self.close(reason)  # 3.1.1 has no way to refuse a publication but to disconnect

    def _publish(self, round_: Round, p: Publish) -> None:
        self.msgs_in += 1
        reason = self.publish(p.topic, p.payload, p.qos, p.retain, p.properties)
        if reason >= 0x80 and self.version != V5 and p.qos < 2:
            self.close(reason)  # 3.1.1 has no way to refuse a publication but to disconnect
            return
        ack = self._protocol().acknowledge(p, reason)
        if ack is not None:
            self.send(round_, ack)

    def publish(self, topic: str, payload: bytes, qos: int, retain: bool, props: dict[str, Any]) -> int:
        """An MQI publication of an MQTT message: the MQTT reason code for the outcome."""
        if self.topics is None:
            self.topics = OrderedDict()
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
        expiry = self._protocol().session_expiry
        if self.version == V5 and session.persistent and expiry != NO_EXPIRY:
            # So the session can expire after a restart too: its interval and whose it is.
            options_data.update(x=expiry, c=session.client_id)
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
            return MQTT_REASONS.get(error.reason, failure) if self.version == V5 else failure
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
            # The group's subscription is the queue manager's; each member needs sub on its filter.
            conn = self.conn
            self.core.access.subscribe(conn.principal, caller_of(conn), share[1], C.MQZAO_SUBSCRIBE,
                                       C.MQSO_CREATE | C.MQSO_DURABLE, False, s.topic_filter)
            self.broker.shares.subscribe(self._session().client_id, share[0], share[1], options)
        except MQError as error:
            log.info("MQTT shared subscription %r refused: %s", s.topic_filter, error)
            return MQTT_REASONS.get(error.reason, failure) if self.version == V5 else failure
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
        protocol = self._protocol()
        while self.waiting is None and self.hobj and protocol.room() > 0:
            try:  # what is there already, in one go; then a browse that waits
                batch = self.core.browse_batch(self.conn, self.hobj, protocol.room())
                if batch:
                    self.deliver_batch(round_, batch)
                    continue
                self._req += 1
                result = self.core.get(self.conn, self.hobj, _BROWSE_NEXT, (self.output, self._req))
            except MQError as error:
                if error.reason != C.MQRC_NO_MSG_AVAILABLE:
                    log.info("MQTT delivery to %s stopped: %s", self._session().client_id, error)
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
            room = self._protocol().room() - 1
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
            wanted, published = qos_value(wanted, 0), qos_value(published, 2 * message.persistent)
        qos = min(wanted, published) if published >= 0 else 0
        retained = bool(props.get("MQIsRetained")) or (
            bool(sub.get("rap")) and bool(int_or_zero(props.get("MQPubOptions")) & C.MQPMO_RETAIN))
        if self.version != V5 and qos == 0:  # the common 3.1.1 case, straight to bytes
            self.core.remove_entry(session.queue, entry)
            state = session.state
            if entry.seq > state.sent_through:
                state.sent_through = entry.seq
            self.msgs_out += 1
            field = self._topic_fields.get(topic) or self._topic_field(topic)
            round_.add(self.output, publish_qos0(field, message.body, retained))
            return
        properties = v5_properties(message, sub) if self.version == V5 else {}
        packet = self._protocol().publication(topic, message.body, qos, retained, properties, entry.seq, entry)
        if packet is None or not qos:
            self.core.remove_entry(session.queue, entry)
        if packet is None:  # too big for the client (5.0 Maximum Packet Size): dropped as if sent
            log.info("MQTT publication on %r too big for %s: discarded", topic, session.client_id)
            return
        self.msgs_out += 1
        self.send(round_, packet)

    def _merged_options(self, sub: dict[str, Any], same: list[tuple[Entry, Message]]) -> dict[str, Any]:
        """One delivery for several matching subscriptions: the highest QoS, every identifier,
        retained as published if any asked for it (MQTT 5.0 3.3.4)."""
        merged = dict(sub)
        ids = [sub["id"]] if sub.get("id") else []
        for entry, copy in same:
            self.core.remove_entry(self._session().queue, entry)
            other = self.broker.subscription_options(str(copy.properties.get("MQSubUserData") or ""))
            merged["q"] = max(qos_value(merged.get("q", 0), 0), qos_value(other.get("q", 0), 0))
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

    # -- the end ---------------------------------------------------------------------------------
    def end(self) -> None:
        """The connection is gone: publish the will unless a normal DISCONNECT dropped it, leave
        core, and end a clean session."""
        session = self.session
        if session is None or session.link is not self:
            return
        will = self.connect_packet.will
        now = self.core.clock()
        expiry = self.protocol.session_expiry if self.protocol is not None else 0
        if session.persistent and self.version == V5 and expiry != NO_EXPIRY:
            self.broker.expiring[session.client_id] = now + expiry
        if will is not None and not self.will_sent:
            self.will_sent = True
            delay = int(will.properties.get("will_delay_interval", 0)) if session.persistent else 0
            if delay:  # sent when the delay ends or the session does, whichever is first (5.0 3.1.3.2.2)
                due = now + min(delay, expiry if expiry != NO_EXPIRY else delay)
                self.broker.wills.add(session.client_id, due, will, self.user)
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
