"""MQTT 5.0 properties (section 2.2.2): every identifier, its type, where it may appear.

Properties are a dict of snake_case names. Two may repeat: ``user_property`` is a list of
(name, value) pairs and ``subscription_identifier`` a list of ints (several in a PUBLISH sent to
a client, at most one in a SUBSCRIBE). Any other property given twice is a protocol error, an
unknown identifier a malformed packet, a property in a packet that may not carry it a protocol
error, as are the values the specification forbids (a Receive Maximum of 0, say).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from mqlite.protocol.mqtt import wire
from mqlite.protocol.mqtt.reasons import malformed, protocol_error

Properties = dict[str, Any]

# Packet types (the fixed header's high nibble) and the will, which has properties of its own.
CONNECT, CONNACK, PUBLISH, PUBACK, PUBREC, PUBREL, PUBCOMP = 1, 2, 3, 4, 5, 6, 7
SUBSCRIBE, SUBACK, UNSUBSCRIBE, UNSUBACK, PINGREQ, PINGRESP, DISCONNECT, AUTH = 8, 9, 10, 11, 12, 13, 14, 15
WILL = 0

_ACKS = (PUBACK, PUBREC, PUBREL, PUBCOMP)
_ALL = (CONNECT, CONNACK, PUBLISH, *_ACKS, SUBSCRIBE, SUBACK, UNSUBSCRIBE, UNSUBACK, DISCONNECT, AUTH, WILL)

# identifier: (name, type, packets it may appear in)
TABLE: Final[dict[int, tuple[str, str, tuple[int, ...]]]] = {
    0x01: ("payload_format_indicator", "byte", (PUBLISH, WILL)),
    0x02: ("message_expiry_interval", "u32", (PUBLISH, WILL)),
    0x03: ("content_type", "utf8", (PUBLISH, WILL)),
    0x08: ("response_topic", "utf8", (PUBLISH, WILL)),
    0x09: ("correlation_data", "binary", (PUBLISH, WILL)),
    0x0B: ("subscription_identifier", "varint", (PUBLISH, SUBSCRIBE)),
    0x11: ("session_expiry_interval", "u32", (CONNECT, CONNACK, DISCONNECT)),
    0x12: ("assigned_client_identifier", "utf8", (CONNACK,)),
    0x13: ("server_keep_alive", "u16", (CONNACK,)),
    0x15: ("authentication_method", "utf8", (CONNECT, CONNACK, AUTH)),
    0x16: ("authentication_data", "binary", (CONNECT, CONNACK, AUTH)),
    0x17: ("request_problem_information", "byte", (CONNECT,)),
    0x18: ("will_delay_interval", "u32", (WILL,)),
    0x19: ("request_response_information", "byte", (CONNECT,)),
    0x1A: ("response_information", "utf8", (CONNACK,)),
    0x1C: ("server_reference", "utf8", (CONNACK, DISCONNECT)),
    0x1F: ("reason_string", "utf8", (CONNACK, *_ACKS, SUBACK, UNSUBACK, DISCONNECT, AUTH)),
    0x21: ("receive_maximum", "u16", (CONNECT, CONNACK)),
    0x22: ("topic_alias_maximum", "u16", (CONNECT, CONNACK)),
    0x23: ("topic_alias", "u16", (PUBLISH,)),
    0x24: ("maximum_qos", "byte", (CONNACK,)),
    0x25: ("retain_available", "byte", (CONNACK,)),
    0x26: ("user_property", "pair", _ALL),
    0x27: ("maximum_packet_size", "u32", (CONNECT, CONNACK)),
    0x28: ("wildcard_subscription_available", "byte", (CONNACK,)),
    0x29: ("subscription_identifier_available", "byte", (CONNACK,)),
    0x2A: ("shared_subscription_available", "byte", (CONNACK,)),
}
IDENTIFIER: Final = {name: (ident, kind) for ident, (name, kind, _) in TABLE.items()}
REPEATABLE = frozenset({"user_property", "subscription_identifier"})
# Values the specification allows, where not every value of the type is.
_BOOLEAN = frozenset({"payload_format_indicator", "request_problem_information", "request_response_information",
                      "maximum_qos", "retain_available", "wildcard_subscription_available",
                      "subscription_identifier_available", "shared_subscription_available"})
_NOT_ZERO = frozenset({"receive_maximum", "maximum_packet_size", "topic_alias", "subscription_identifier"})

_READ: Final[dict[str, Callable[[wire.Reader], Any]]] = {
    "byte": wire.Reader.u8, "u16": wire.Reader.u16, "u32": wire.Reader.u32, "varint": wire.Reader.varint,
    "utf8": wire.Reader.utf8, "binary": wire.Reader.binary,
    "pair": lambda r: (r.utf8(), r.utf8()),
}
_WRITE: Final[dict[str, Callable[[Any], bytes]]] = {
    "byte": lambda v: bytes((v,)), "u16": wire.u16, "u32": wire.u32, "varint": wire.varint,
    "utf8": wire.utf8, "binary": wire.binary, "pair": lambda v: wire.utf8(v[0]) + wire.utf8(v[1]),
}


def read(reader: wire.Reader, packet: int) -> Properties:
    """The properties of ``packet`` (its length first), checked as the module says."""
    length = reader.varint()
    if length > reader.remaining():
        raise malformed("property length beyond the packet")
    end = reader.pos + length
    inner = wire.Reader(reader.data, reader.pos, end)
    found: Properties = {}
    while inner.remaining():
        ident = inner.varint()
        entry = TABLE.get(ident)
        if entry is None:
            raise malformed(f"unknown property 0x{ident:02X}")
        name, kind, allowed = entry
        if packet not in allowed:
            raise protocol_error(f"property {name} is not allowed in this packet")
        value = _READ[kind](inner)
        _check_value(name, value)
        if name in REPEATABLE:
            if name == "subscription_identifier" and packet == SUBSCRIBE and name in found:
                raise protocol_error("more than one subscription_identifier in a SUBSCRIBE")
            found.setdefault(name, []).append(value)
        elif name in found:
            raise protocol_error(f"property {name} given twice")
        else:
            found[name] = value
    reader.pos = end
    return found


def _check_value(name: str, value: Any) -> None:
    if name in _BOOLEAN and value not in (0, 1):
        raise protocol_error(f"{name} must be 0 or 1, not {value}")
    if name in _NOT_ZERO and value == 0:
        raise protocol_error(f"{name} may not be 0")


def write(properties: Properties | None) -> bytes:
    """Properties with their length in front (an empty set is the single byte 0)."""
    if not properties:
        return b"\x00"
    out = bytearray()
    for name, value in properties.items():
        ident, kind = IDENTIFIER[name]
        for item in (value if name in REPEATABLE else (value,)):
            out += wire.varint(ident) + _WRITE[kind](item)
    return wire.varint(len(out)) + bytes(out)
