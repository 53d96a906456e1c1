"""The server side of an MQTT session, sans-IO: packet identifiers, the QoS 1 and 2 flows both
ways, Receive Maximum both ways, Maximum Packet Size towards the client, topic aliases both ways,
and the keep-alive the server grants. No sockets, no clocks, no queue manager: packets in,
events and packets out (encode them with the connection's ``MqttStream``).

What a client id keeps between its connections is a :class:`SessionState`; each connection of
it is a :class:`ServerSession` over that state. Inbound, ``receive(packet)`` gives the event
for the layer above (a publication with its topic alias resolved, a SUBSCRIBE, an
acknowledgement of a delivery, ...) and the reply the protocol itself owes (PUBCOMP, PUBREL,
PINGRESP); a violation raises ``MqttError`` with the reason to close with. Outbound,
``publication`` turns a delivery into the PUBLISH to send (or None when the client's Maximum
Packet Size forbids it), holding it in flight until the acknowledgement the flow table below
says ends it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mqlite.protocol.mqtt import reasons as R
from mqlite.protocol.mqtt.aliases import OutboundAliases
from mqlite.protocol.mqtt.codec import encode
from mqlite.protocol.mqtt.packets import (
    V5,
    Auth,
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
)
from mqlite.protocol.mqtt.properties import Properties
from mqlite.protocol.mqtt.reasons import MqttError, protocol_error

NO_EXPIRY = 0xFFFFFFFF  # a 5.0 Session Expiry Interval that never ends
MAX_PACKET_ID = 65535

# A delivery towards the client waits for one acknowledgement after another:
WAIT_PUBACK, WAIT_PUBREC, WAIT_PUBCOMP = "wait PUBACK", "wait PUBREC", "wait PUBCOMP"
FIRST_WAIT = {1: WAIT_PUBACK, 2: WAIT_PUBREC}
# The flow rules in one place: (what the delivery waits for, the acknowledgement that came) ->
# (what it waits for next, None when it is over; whether the client now has the message; the
# packet the server answers with). Any other acknowledgement of a known packet id is ignored.
OUTBOUND_FLOW: dict[tuple[str, type[Packet]], tuple[str | None, bool, type[PubRel] | None]] = {
    (WAIT_PUBACK, PubAck): (None, True, None),
    (WAIT_PUBREC, PubRec): (WAIT_PUBCOMP, True, PubRel),
    (WAIT_PUBCOMP, PubComp): (None, False, None),
}


@dataclass(frozen=True)
class Limits:
    """What the server allows its clients (announced in a 5.0 CONNACK)."""

    receive_maximum: int = 100  # QoS 1 and 2 publications a client may have unacknowledged towards us
    send_window: int = 100  # and we towards it, unless it asks for fewer
    topic_alias_maximum: int = 100
    maximum_packet_size: int = 4 * 1024 * 1024 + 1024
    server_keep_alive: int = 60  # the longest keep-alive a 5.0 client is granted


@dataclass(slots=True)
class Flight:
    """A QoS 1 or 2 delivery the client has not finished acknowledging."""

    token: Any  # the layer above's handle on the message (removed when the client has it)
    state: str  # WAIT_PUBACK, WAIT_PUBREC or WAIT_PUBCOMP


@dataclass(slots=True)
class SessionState:
    """What a client id keeps between its connections while the server runs."""

    inflight: dict[int, Flight] = field(default_factory=dict)  # towards the client, by packet id
    # QoS 2 packet ids from the client, as a dict's keys: an empty set is 216 bytes, a dict 64
    awaiting_rel: dict[int, None] = field(default_factory=dict)
    sent_through: int = 0  # the highest sequence number sent: a resend at or below it has DUP set
    next_packet_id: int = 1

    def packet_id(self) -> int:
        """The next packet identifier not in flight."""
        for _ in range(MAX_PACKET_ID):
            pid = self.next_packet_id
            self.next_packet_id = pid % MAX_PACKET_ID + 1
            if pid not in self.inflight:
                return pid
        raise MqttError(R.QUOTA_EXCEEDED, "no free packet identifier")


@dataclass
class Acknowledged:
    """An acknowledgement moved a delivery on: ``token`` is the message the client now has (None
    when only the window moved, at PUBCOMP)."""

    token: Any


Event = Publish | Acknowledged | Packet  # SUBSCRIBE, UNSUBSCRIBE, DISCONNECT pass through as they are


def granted_keep_alive(version: int, asked: int, maximum: int) -> int:
    """The keep-alive a client gets: its own, but a 5.0 client asking for more than the server's
    maximum gets the maximum (MQTT 5.0 3.2.2.3.14: the CONNACK says so)."""
    return maximum if version == V5 and asked > maximum else asked


def keep_alive_deadline(keep_alive: int) -> float:
    """Seconds of silence after which the server ends the connection (MQTT 3.1.2-24); 0: never."""
    return keep_alive * 1.5


class ServerSession:
    """One connection of a session, after its CONNECT."""

    __slots__ = ("aliases", "asked_keep_alive", "keep_alive", "limits", "max_packet", "out_aliases", "session_expiry",
                 "state", "version", "window")

    def __init__(self, connect: Connect, state: SessionState, limits: Limits = Limits()) -> None:
        props = connect.properties
        self.version = connect.protocol_level
        self.state = state
        self.limits = limits
        self.window = min(limits.send_window, int(props.get("receive_maximum", limits.send_window)))
        self.max_packet: int | None = int(props.get("maximum_packet_size", 0)) or None
        self.keep_alive = granted_keep_alive(self.version, connect.keep_alive, limits.server_keep_alive)
        self.asked_keep_alive = connect.keep_alive
        self.session_expiry = int(props.get("session_expiry_interval", 0))  # 5.0; DISCONNECT may change it
        self.aliases: dict[int, str] = {}  # the client's topic aliases
        alias_maximum = int(props.get("topic_alias_maximum", 0))
        self.out_aliases = OutboundAliases(alias_maximum) if self.version == V5 and alias_maximum else None

    # -- CONNACK and resuming ----------------------------------------------------------------------
    def connack(self, session_present: bool, assigned_client_id: str | None = None) -> ConnAck:
        properties: Properties = {}
        if self.version == V5:
            limits = self.limits
            properties = {"receive_maximum": limits.receive_maximum, "topic_alias_maximum": limits.topic_alias_maximum,
                          "maximum_packet_size": limits.maximum_packet_size, "shared_subscription_available": 1}
            if self.keep_alive != self.asked_keep_alive:
                properties["server_keep_alive"] = self.keep_alive
            if assigned_client_id:
                properties["assigned_client_identifier"] = assigned_client_id
        return ConnAck(session_present, R.SUCCESS, properties)

    def resume(self) -> list[Packet]:
        """A session's new connection: PUBRELs for the QoS 2 deliveries waiting for PUBCOMP; the
        deliveries never acknowledged are forgotten here (the layer above sends them again)."""
        state = self.state
        released = sorted(pid for pid, flight in state.inflight.items() if flight.state == WAIT_PUBCOMP)
        state.inflight = {pid: state.inflight[pid] for pid in released}
        return [PubRel(pid) for pid in released]

    # -- from the client ---------------------------------------------------------------------------
    def receive(self, packet: Packet) -> tuple[Event | None, Packet | None]:
        """The event for the layer above and the reply the protocol owes, for one packet."""
        kind = packet.__class__
        if kind is Publish:
            assert isinstance(packet, Publish)
            return self._publish(packet)
        if kind is PubAck or kind is PubRec or kind is PubComp:
            assert isinstance(packet, PubAck | PubRec | PubComp)
            return self._acknowledgement(packet)
        if kind is PubRel:
            assert isinstance(packet, PubRel)
            known = packet.packet_id in self.state.awaiting_rel
            self.state.awaiting_rel.pop(packet.packet_id, None)
            return None, PubComp(packet.packet_id, R.SUCCESS if known else R.PACKET_IDENTIFIER_NOT_FOUND)
        if kind is PingReq:
            return None, PingResp()
        if kind is Disconnect:
            assert isinstance(packet, Disconnect)
            expiry = packet.properties.get("session_expiry_interval")
            if expiry is not None:
                if expiry and not self.session_expiry:  # MQTT 5.0 3.14.2-2: 0 cannot become more
                    raise protocol_error("a DISCONNECT gives a Session Expiry Interval to a session without one")
                self.session_expiry = int(expiry)
            return packet, None
        if kind is Auth:  # no authentication method was agreed at CONNECT
            raise protocol_error("AUTH without an authentication method")
        return packet, None  # SUBSCRIBE, UNSUBSCRIBE

    def _publish(self, p: Publish) -> tuple[Event | None, Packet | None]:
        alias = p.properties.get("topic_alias") if p.properties else None
        if alias is not None:
            if alias > self.limits.topic_alias_maximum:
                raise MqttError(R.TOPIC_ALIAS_INVALID, f"topic alias {alias} above the maximum")
            if p.topic:
                self.aliases[alias] = p.topic
            elif alias in self.aliases:
                p.topic = self.aliases[alias]
            else:
                raise protocol_error(f"topic alias {alias} was never set")
        if p.qos == 2:
            awaiting = self.state.awaiting_rel
            if p.packet_id in awaiting:  # a resend of one we have: acknowledged again, not published
                assert p.packet_id is not None
                return None, PubRec(p.packet_id)
            if len(awaiting) >= self.limits.receive_maximum:  # MQTT 5.0 3.3.4-9
                raise MqttError(R.RECEIVE_MAXIMUM_EXCEEDED, "more unreleased QoS 2 publications than Receive Maximum")
        return p, None

    def acknowledge(self, p: Publish, reason: int) -> Packet | None:
        """The PUBACK or PUBREC for the client's publication once the layer above has taken it
        with ``reason`` (None for QoS 0). A QoS 2 one taken waits for its PUBREL."""
        if not p.qos:
            return None
        assert p.packet_id is not None
        if p.qos == 1:
            return PubAck(p.packet_id, reason)
        if reason < 0x80:
            self.state.awaiting_rel[p.packet_id] = None
        return PubRec(p.packet_id, reason)

    def _acknowledgement(self, packet: PubAck | PubRec | PubComp) -> tuple[Event | None, Packet | None]:
        pid = packet.packet_id
        flight = self.state.inflight.get(pid)
        if flight is None:
            return None, (PubRel(pid, R.PACKET_IDENTIFIER_NOT_FOUND) if packet.__class__ is PubRec else None)
        rule = OUTBOUND_FLOW.get((flight.state, packet.__class__))
        if rule is None:
            return None, None
        next_state, delivered, reply = rule
        if next_state is None:
            del self.state.inflight[pid]
        else:
            flight.state = next_state
        return Acknowledged(flight.token if delivered else None), (reply(pid) if reply is not None else None)

    # -- to the client -----------------------------------------------------------------------------
    def room(self) -> int:
        """How many more QoS 1 and 2 deliveries the client's Receive Maximum allows now."""
        return self.window - len(self.state.inflight)

    def publication(self, topic: str, payload: bytes, qos: int, retain: bool, properties: Properties,
                    seq: int, token: Any) -> Publish | None:
        """The PUBLISH for a delivery numbered ``seq`` (DUP when that number was sent before),
        held in flight at QoS 1 and 2; None when it is larger than the client's Maximum Packet
        Size: it is then dropped as if sent (MQTT 5.0 3.1.2-25)."""
        state = self.state
        packet = Publish(topic, payload, qos, retain, False, 1 if qos else None, properties)
        if self.max_packet is not None and len(encode(packet, self.version)) > self.max_packet:
            return None
        if qos:
            pid = state.packet_id()
            packet.packet_id, packet.dup = pid, seq <= state.sent_through
            state.inflight[pid] = Flight(token, FIRST_WAIT[qos])
        if seq > state.sent_through:
            state.sent_through = seq
        if self.out_aliases is not None:
            self.out_aliases.apply(packet)
        return packet
