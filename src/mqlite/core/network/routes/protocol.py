"""The control messages of routes, as values and bytes (sans-IO; B §23, A-55..A-60).

Two queue managers joined by a route talk over the channels like any partners: persistent
messages on the peer's SYSTEM.ROUTE.CONTROL, format ``MQRTECTL``:

- ``Hello``: "I have a route to you": whether the sender configured it (``active``, A-56), its
  zone and zone type, the INCOMING rules it applies to what comes from the receiver (the
  receiver applies them before a message enters the route, R-EMS-11), and whether it wants a
  Hello back (``reply``);
- ``Interest``: the topic patterns the sender subscribes to at the receiver (its internal
  subscriptions there, R-EMS-2): added and cancelled, or the whole set (``resync``).

Routed messages go to SYSTEM.ROUTE.PUBS, the message itself with the properties
``mqlite.rte.*`` (topic, sender, route sequence number, visited servers). ``decode`` checks all it
reads and raises ``ControlProtocolError`` (2110) for anything malformed, never anything else.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from mqlite.core.network import control_fields as fields
from mqlite.core.network.control_fields import ControlProtocolError
from mqlite.core.network.routes.rules import MHOP, ONEHOP, Rule

__all__ = [
    "CONTROL_QUEUE", "FORMAT", "FROM_PROPERTY", "PUBS_QUEUE", "SEQ_PROPERTY", "TOPIC_PROPERTY", "VISITED_PROPERTY",
    "Hello", "Interest", "RouteMessage", "decode", "encode",
]

FORMAT = "MQRTECTL"
VERSION = 1
CONTROL_QUEUE = "SYSTEM.ROUTE.CONTROL"
PUBS_QUEUE = "SYSTEM.ROUTE.PUBS"
TOPIC_PROPERTY = "mqlite.rte.Top"
FROM_PROPERTY = "mqlite.rte.From"
SEQ_PROPERTY = "mqlite.rte.Seq"
VISITED_PROPERTY = "mqlite.rte.Via"
_MAX_SELECTOR = 10_240


@dataclass(frozen=True)
class Hello:
    origin: str
    qmid: str
    active: bool
    zone: str
    zone_type: str
    incoming: tuple[Rule, ...] = ()
    reply: bool = False


@dataclass(frozen=True)
class Interest:
    origin: str
    add: tuple[str, ...] = ()
    cancel: tuple[str, ...] = ()
    resync: bool = False


RouteMessage = Hello | Interest


def encode(message: RouteMessage) -> bytes:
    body: dict[str, Any] = {"v": VERSION}
    if isinstance(message, Hello):
        body.update(op="hello", origin=message.origin, qmid=message.qmid, active=message.active, zone=message.zone,
                    zonetype=message.zone_type, incoming=[[r.topic, r.selector] for r in message.incoming],
                    reply=message.reply)
    else:
        body.update(op="interest", origin=message.origin, add=list(message.add), cancel=list(message.cancel),
                    resync=message.resync)
    return json.dumps(body, separators=(",", ":")).encode()


def decode(data: bytes) -> RouteMessage:
    body = fields.load(data, VERSION)
    op = body.get("op")
    if op == "hello":
        zone_type = body.get("zonetype")
        if zone_type not in (MHOP, ONEHOP):
            raise ControlProtocolError(f"zone type {str(zone_type)[:32]!r}")
        return Hello(fields.name(body, "origin"), fields.text(body, "qmid"), fields.flag(body, "active"),
                     fields.text(body, "zone"), str(zone_type), _rules(body.get("incoming", [])),
                     fields.flag(body, "reply"))
    if op == "interest":
        return Interest(fields.name(body, "origin"), fields.topics(body, "add"), fields.topics(body, "cancel"),
                        fields.flag(body, "resync"))
    raise ControlProtocolError(f"operation {str(op)[:32]!r}")


def _rules(value: Any) -> tuple[Rule, ...]:
    if not isinstance(value, list):
        raise ControlProtocolError("incoming is not a list")
    rules = []
    for item in value:
        if (not isinstance(item, list) or len(item) != 2 or not all(isinstance(part, str) and fields.encodable(part)
                                                                     for part in item)
                or not 0 < len(item[0]) <= fields.MAX_TOPIC or len(item[1]) > _MAX_SELECTOR):
            raise ControlProtocolError("an incoming rule is not [topic, selector]")
        rules.append(Rule(item[0], item[1]))
    return tuple(rules)
