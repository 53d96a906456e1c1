"""The MQTT control packets (3.1.1 and 5.0) as plain data. 5.0-only fields (properties, reason
codes, subscription options past QoS) are left at their defaults for 3.1.1. Slotted: a connection
keeps its CONNECT, and a slotted object is a third of one with a dictionary."""

from __future__ import annotations

from dataclasses import dataclass, field

from mqlite.protocol.mqtt.properties import Properties

V31, V311, V5 = 3, 4, 5  # protocol levels: 3.1 ("MQIsdp"), 3.1.1 and 5.0 ("MQTT")


@dataclass(slots=True)
class Will:
    topic: str
    payload: bytes
    qos: int = 0
    retain: bool = False
    properties: Properties = field(default_factory=dict)


@dataclass(slots=True)
class Connect:
    client_id: str
    protocol_level: int = V311
    clean_start: bool = True  # 3.1.1's Clean Session
    keep_alive: int = 60
    username: str | None = None
    password: bytes | None = None
    will: Will | None = None
    properties: Properties = field(default_factory=dict)


@dataclass(slots=True)
class ConnAck:
    session_present: bool = False
    reason: int = 0  # a 5.0 reason code; written as the 3.1.1 return code for older clients
    properties: Properties = field(default_factory=dict)


@dataclass(slots=True)
class Publish:
    topic: str
    payload: bytes
    qos: int = 0
    retain: bool = False
    dup: bool = False
    packet_id: int | None = None  # present exactly when qos > 0
    properties: Properties = field(default_factory=dict)


@dataclass(slots=True)
class _Ack:
    packet_id: int
    reason: int = 0
    properties: Properties = field(default_factory=dict)


class PubAck(_Ack):
    __slots__ = ()


class PubRec(_Ack):
    __slots__ = ()


class PubRel(_Ack):
    __slots__ = ()


class PubComp(_Ack):
    __slots__ = ()


@dataclass(slots=True)
class Subscription:
    topic_filter: str
    qos: int = 0
    no_local: bool = False
    retain_as_published: bool = False
    retain_handling: int = 0  # 0 send retained, 1 only for a new subscription, 2 never


@dataclass(slots=True)
class Subscribe:
    packet_id: int
    subscriptions: list[Subscription]
    properties: Properties = field(default_factory=dict)


@dataclass(slots=True)
class SubAck:
    packet_id: int
    reasons: list[int]
    properties: Properties = field(default_factory=dict)


@dataclass(slots=True)
class Unsubscribe:
    packet_id: int
    topic_filters: list[str]
    properties: Properties = field(default_factory=dict)


@dataclass(slots=True)
class UnsubAck:
    packet_id: int
    reasons: list[int] = field(default_factory=list)  # 5.0 only
    properties: Properties = field(default_factory=dict)


@dataclass(slots=True)
class PingReq:
    pass


@dataclass(slots=True)
class PingResp:
    pass


@dataclass(slots=True)
class Disconnect:
    reason: int = 0
    properties: Properties = field(default_factory=dict)


@dataclass(slots=True)
class Auth:
    reason: int = 0
    properties: Properties = field(default_factory=dict)


Packet = (Connect | ConnAck | Publish | PubAck | PubRec | PubRel | PubComp | Subscribe | SubAck | Unsubscribe
          | UnsubAck | PingReq | PingResp | Disconnect | Auth)
