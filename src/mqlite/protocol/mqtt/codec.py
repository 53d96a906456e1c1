"""MQTT packets to bytes and back (3.1.1 and 5.0), strict on input: whatever the specifications
call malformed or a protocol error raises ``MqttError`` with the reason code to close with."""

from __future__ import annotations

from mqlite.protocol.mqtt import properties as P
from mqlite.protocol.mqtt import wire
from mqlite.protocol.mqtt.packets import (
    V5,
    V31,
    V311,
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
    SubAck,
    Subscribe,
    Subscription,
    UnsubAck,
    Unsubscribe,
    Will,
    _Ack,
)
from mqlite.protocol.mqtt.reasons import (
    UNSUPPORTED_PROTOCOL_VERSION,
    MqttError,
    malformed,
    protocol_error,
    v3_connack_code,
    v3_connack_reason,
)

_PROTOCOL_NAMES = {V31: "MQIsdp", V311: "MQTT", V5: "MQTT"}
_ACK_TYPES: dict[type[_Ack], int] = {PubAck: P.PUBACK, PubRec: P.PUBREC, PubRel: P.PUBREL, PubComp: P.PUBCOMP}
_ACK_CLASSES: dict[int, type[PubAck | PubRec | PubRel | PubComp]] = {
    P.PUBACK: PubAck, P.PUBREC: PubRec, P.PUBREL: PubRel, P.PUBCOMP: PubComp}
_FLAGS_TWO = (P.PUBREL, P.SUBSCRIBE, P.UNSUBSCRIBE)  # packets whose fixed-header flags are 0010


# -- decoding ------------------------------------------------------------------------------
def decode(header: int, body: bytes | memoryview, version: int) -> Packet:
    """One packet from its first byte and the bytes after the Remaining Length. ``version`` is
    the connection's protocol level (a CONNECT brings its own)."""
    if header & 0xFE == 0x30 and version != V5:  # a 3.1.1 QoS 0 PUBLISH: the hot path
        return _publish_qos0(bytes(body), bool(header & 1))
    kind, flags = header >> 4, header & 0x0F
    r = wire.Reader(body)
    if kind == P.PUBLISH:
        return _publish(r, flags, version)
    if flags != (0b0010 if kind in _FLAGS_TWO else 0):
        raise malformed(f"fixed-header flags 0x{flags:X} are reserved for packet type {kind}")
    if kind == P.CONNECT:
        return _connect(r)
    if kind in _ACK_CLASSES:
        packet_id = _packet_id(r)
        reason, props = _reason_and_properties(r, kind, version, short=2)
        r.done()
        return _ACK_CLASSES[kind](packet_id, reason, props)
    if kind == P.SUBSCRIBE:
        return _subscribe(r, version)
    if kind == P.UNSUBSCRIBE:
        packet_id = _packet_id(r)
        props = P.read(r, P.UNSUBSCRIBE) if version == V5 else {}
        filters = []
        while r.remaining():
            filters.append(r.utf8())
        if not filters:
            raise protocol_error("UNSUBSCRIBE without a topic filter")
        return Unsubscribe(packet_id, filters, props)
    if kind in (P.PINGREQ, P.PINGRESP):
        r.done()
        return PingReq() if kind == P.PINGREQ else PingResp()
    if kind == P.DISCONNECT:
        reason, props = _reason_and_properties(r, kind, version, short=0)
        r.done()
        return Disconnect(reason, props)
    if kind == P.AUTH and version == V5:
        reason, props = _reason_and_properties(r, kind, version, short=0)
        r.done()
        return Auth(reason, props)
    if kind == P.CONNACK:
        return _connack(r, version)
    if kind == P.SUBACK:
        packet_id = _packet_id(r)
        props = P.read(r, P.SUBACK) if version == V5 else {}
        reasons = [r.u8() for _ in range(r.remaining())]
        return SubAck(packet_id, reasons, props)
    if kind == P.UNSUBACK:
        packet_id = _packet_id(r)
        if version != V5:  # 3.1.1's UNSUBACK is the packet identifier alone (3.11.1)
            r.done()
            return UnsubAck(packet_id)
        props = P.read(r, P.UNSUBACK)
        reasons = [r.u8() for _ in range(r.remaining())]
        return UnsubAck(packet_id, reasons, props)
    raise malformed(f"packet type {kind} does not exist" + (" in MQTT 3.1.1" if kind == P.AUTH else ""))


def _packet_id(r: wire.Reader) -> int:
    packet_id = r.u16()
    if packet_id == 0:
        raise malformed("packet identifier 0")
    return packet_id


def _reason_and_properties(r: wire.Reader, kind: int, version: int, short: int) -> tuple[int, P.Properties]:
    """5.0's optional reason code and properties: absent when the packet ends (``short`` bytes
    of remaining length mean success with no properties)."""
    if version != V5 or not r.remaining():
        return 0, {}
    reason = r.u8()
    return reason, (P.read(r, kind) if r.remaining() else {})


def _connect(r: wire.Reader) -> Connect:
    name = r.utf8()
    level = r.u8()
    if name not in ("MQTT", "MQIsdp"):
        raise protocol_error(f"protocol name {name!r}")
    if _PROTOCOL_NAMES.get(level) != name:
        raise MqttError(UNSUPPORTED_PROTOCOL_VERSION, f"protocol {name!r} level {level}")
    flags = r.u8()
    if flags & 0x01:
        raise malformed("the reserved CONNECT flag is set")
    will_flag, will_qos, will_retain = bool(flags & 0x04), (flags >> 3) & 0x03, bool(flags & 0x20)
    has_user, has_password = bool(flags & 0x80), bool(flags & 0x40)
    if will_qos == 3:
        raise malformed("will QoS 3")
    if not will_flag and (will_qos or will_retain):
        raise malformed("will QoS or retain without a will")
    if has_password and not has_user and level != V5:
        raise malformed("a password without a user name")
    keep_alive = r.u16()
    props = P.read(r, P.CONNECT) if level == V5 else {}
    client_id = r.utf8()
    will = None
    if will_flag:
        will_props = P.read(r, P.WILL) if level == V5 else {}
        topic = r.utf8()
        _check_topic_name(topic)
        will = Will(topic, r.binary(), will_qos, will_retain, will_props)
    username = r.utf8() if has_user else None
    password = r.binary() if has_password else None
    r.done()
    return Connect(client_id, level, bool(flags & 0x02), keep_alive, username, password, will, props)


def _connack(r: wire.Reader, version: int) -> ConnAck:
    flags = r.u8()
    if flags & 0xFE:
        raise malformed("reserved CONNACK flags")
    code = r.u8()
    props = P.read(r, P.CONNACK) if version == V5 else {}
    r.done()
    if version != V5:  # ConnAck.reason is a 5.0 reason, whatever the level says on the wire
        reason = v3_connack_reason(code)
        if reason is None:
            raise malformed(f"CONNACK return code {code} is reserved")
        code = reason
    return ConnAck(bool(flags & 1), code, props)


def _publish(r: wire.Reader, flags: int, version: int) -> Publish:
    qos, dup, retain = (flags >> 1) & 0x03, bool(flags & 0x08), bool(flags & 0x01)
    if qos == 3:
        raise malformed("PUBLISH with QoS 3")
    if dup and qos == 0:
        raise malformed("DUP set on a QoS 0 PUBLISH")
    topic = r.utf8()
    packet_id = _packet_id(r) if qos else None
    props = P.read(r, P.PUBLISH) if version == V5 else {}
    if topic:
        _check_topic_name(topic)
    elif "topic_alias" not in props:
        raise protocol_error("PUBLISH with an empty topic name and no topic alias")
    return Publish(topic, r.rest(), qos, retain, dup, packet_id, props)


def _publish_qos0(body: bytes, retain: bool) -> Publish:
    """What ``_publish`` makes of a 3.1.1 QoS 0 PUBLISH, with the same checks, without a Reader."""
    return publish_qos0_in(body, 0, len(body), retain)


def publish_qos0_in(data: bytes, start: int, end: int, retain: bool) -> Publish:
    """The 3.1.1 QoS 0 PUBLISH whose body is ``data[start:end]`` (the bytes after the Remaining
    Length), read in place: what ``decode`` makes of it, with the same checks."""
    if end - start < 2:
        raise malformed("a string length past the end of the packet")
    topic_end = start + 2 + ((data[start] << 8) | data[start + 1])
    if topic_end > end:
        raise malformed("a string length past the end of the packet")
    try:
        topic = data[start + 2:topic_end].decode("utf-8")
    except UnicodeDecodeError:
        raise malformed("a string that is not well-formed UTF-8") from None
    if "\0" in topic:
        raise malformed("a string containing U+0000")
    if not topic:
        raise protocol_error("an empty topic name")
    if "+" in topic or "#" in topic:
        raise MqttError(0x90, f"wildcards in the topic name {topic!r}")
    return Publish(topic, data[topic_end:end], 0, retain)


def _check_topic_name(topic: str) -> None:
    if not topic:
        raise protocol_error("an empty topic name")
    if "+" in topic or "#" in topic:
        raise MqttError(0x90, f"wildcards in the topic name {topic!r}")


def _subscribe(r: wire.Reader, version: int) -> Subscribe:
    packet_id = _packet_id(r)
    props = P.read(r, P.SUBSCRIBE) if version == V5 else {}
    subscriptions = []
    while r.remaining():
        topic_filter = r.utf8()
        options = r.u8()
        reserved = 0xC0 if version == V5 else 0xFC
        if options & reserved:
            raise malformed(f"reserved subscription option bits in 0x{options:02X}")
        qos, retain_handling = options & 0x03, (options >> 4) & 0x03
        if qos == 3 or retain_handling == 3:
            raise malformed(f"subscription options 0x{options:02X}")
        subscriptions.append(Subscription(topic_filter, qos, bool(options & 0x04), bool(options & 0x08),
                                          retain_handling))
    if not subscriptions:
        raise protocol_error("SUBSCRIBE without a topic filter")
    return Subscribe(packet_id, subscriptions, props)


# -- encoding ------------------------------------------------------------------------------
def encode(packet: Packet, version: int) -> bytes:
    """The bytes of ``packet`` for a connection at protocol level ``version``."""
    v5 = version == V5
    if isinstance(packet, Publish):
        flags = (0x08 if packet.dup else 0) | (packet.qos << 1) | (1 if packet.retain else 0)
        body = wire.utf8(packet.topic)
        if packet.qos:
            assert packet.packet_id is not None, "a QoS 1 or 2 PUBLISH needs a packet identifier"
            body += wire.u16(packet.packet_id)
        if v5:
            body += P.write(packet.properties)
        return _frame(P.PUBLISH << 4 | flags, body + packet.payload)
    if isinstance(packet, _Ack):
        kind = _ACK_TYPES[type(packet)]
        body = wire.u16(packet.packet_id)
        if v5 and (packet.reason or packet.properties):
            body += bytes((packet.reason,)) + (P.write(packet.properties) if packet.properties else b"")
        return _frame(kind << 4 | (0b0010 if kind == P.PUBREL else 0), body)
    if isinstance(packet, ConnAck):
        code = packet.reason if v5 else v3_connack_code(packet.reason)
        body = bytes((1 if packet.session_present else 0, code))
        return _frame(P.CONNACK << 4, body + (P.write(packet.properties) if v5 else b""))
    if isinstance(packet, SubAck):
        body = wire.u16(packet.packet_id) + (P.write(packet.properties) if v5 else b"")
        return _frame(P.SUBACK << 4, body + bytes(packet.reasons))
    if isinstance(packet, UnsubAck):
        body = wire.u16(packet.packet_id)
        if v5:
            body += P.write(packet.properties) + bytes(packet.reasons)
        return _frame(P.UNSUBACK << 4, body)
    if isinstance(packet, PingReq | PingResp):
        return bytes((P.PINGREQ << 4 if isinstance(packet, PingReq) else P.PINGRESP << 4, 0))
    if isinstance(packet, Disconnect | Auth):
        kind = P.DISCONNECT if isinstance(packet, Disconnect) else P.AUTH
        body = b""
        if v5 and (packet.reason or packet.properties):
            body = bytes((packet.reason,)) + P.write(packet.properties)
        return _frame(kind << 4, body)
    if isinstance(packet, Subscribe):
        body = wire.u16(packet.packet_id) + (P.write(packet.properties) if v5 else b"")
        for s in packet.subscriptions:
            options = s.qos | (s.no_local << 2) | (s.retain_as_published << 3) | (s.retain_handling << 4)
            body += wire.utf8(s.topic_filter) + bytes((options if v5 else s.qos,))
        return _frame(P.SUBSCRIBE << 4 | 0b0010, body)
    if isinstance(packet, Unsubscribe):
        body = wire.u16(packet.packet_id) + (P.write(packet.properties) if v5 else b"")
        return _frame(P.UNSUBSCRIBE << 4 | 0b0010, body + b"".join(wire.utf8(f) for f in packet.topic_filters))
    if isinstance(packet, Connect):
        return _encode_connect(packet)
    raise TypeError(f"not an MQTT packet: {packet!r}")


def _encode_connect(c: Connect) -> bytes:
    v5 = c.protocol_level == V5
    will = c.will
    flags = ((0x80 if c.username is not None else 0) | (0x40 if c.password is not None else 0)
             | (0x02 if c.clean_start else 0))
    if will is not None:
        flags |= 0x04 | (will.qos << 3) | (0x20 if will.retain else 0)
    body = wire.utf8(_PROTOCOL_NAMES[c.protocol_level]) + bytes((c.protocol_level, flags)) + wire.u16(c.keep_alive)
    if v5:
        body += P.write(c.properties)
    body += wire.utf8(c.client_id)
    if will is not None:
        body += (P.write(will.properties) if v5 else b"") + wire.utf8(will.topic) + wire.binary(will.payload)
    if c.username is not None:
        body += wire.utf8(c.username)
    if c.password is not None:
        body += wire.binary(c.password)
    return _frame(P.CONNECT << 4, body)


def publish_qos0(topic_field: bytes, payload: bytes, retain: bool) -> bytes:
    """A QoS 0 PUBLISH without properties (3.1.1) from its length-prefixed topic: the delivery
    fast path, the same bytes ``encode`` makes."""
    length = len(topic_field) + len(payload)
    if length < 0x4000:  # a Remaining Length of one or two bytes, made here
        head = bytes((0x31 if retain else 0x30, length)) if length < 0x80 else \
            bytes((0x31 if retain else 0x30, (length & 0x7F) | 0x80, length >> 7))
        return b"".join((head, topic_field, payload))
    return b"".join((b"\x31" if retain else b"\x30", wire.varint(length), topic_field, payload))


def _frame(header: int, body: bytes) -> bytes:
    return bytes((header,)) + wire.varint(len(body)) + body
