"""The control messages of distributed publish/subscribe, as values and bytes (sans-IO).

Queue managers tell each other about proxy subscriptions and hierarchy relationships with
persistent messages on the partner's SYSTEM.INTER.QMGR.CONTROL (B:R-CHN-2), carried by the
channels like any message, so a stopped channel only delays them. Format ``MQDPSCTL``:

- ``Proxies``: proxy subscriptions the sender (``origin``) adds and cancels at the receiver, over
  one link (HIERARCHY, or a cluster's name); ``resync`` replaces the whole set the receiver holds
  from the sender over that link (B:R-PXY-12, A-08); ``forced`` names the added ones that come
  from a PROXYSUB(FORCE) topic (R-FRC-5);
- ``Register`` / ``Registered`` / ``Deregister``: the hierarchy protocol (B:R-HIE-6, A-27).

Publications travel otherwise: as the publication itself, put to SYSTEM.INTER.QMGR.PUBS with the
properties ``PUBLICATION_PROPERTIES`` name. ``decode`` checks all it reads and raises
``ControlProtocolError`` (2110) for anything malformed, never anything else.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from mqlite.core.network import control_fields as fields
from mqlite.core.network.control_fields import ControlProtocolError

__all__ = [
    "CONTROL_QUEUE", "FANREQ_QUEUE", "FORMAT", "HIERARCHY", "PUBS_QUEUE", "ControlMessage", "ControlProtocolError",
    "Deregister", "Proxies", "Register", "Registered", "decode", "encode",
]

FORMAT = "MQDPSCTL"
VERSION = 1
HIERARCHY = "HIERARCHY"  # the link name of parent/child proxies (a cluster's proxies carry its name)
CONTROL_QUEUE = "SYSTEM.INTER.QMGR.CONTROL"
PUBS_QUEUE = "SYSTEM.INTER.QMGR.PUBS"
FANREQ_QUEUE = "SYSTEM.INTER.QMGR.FANREQ"


@dataclass(frozen=True)
class Proxies:
    origin: str
    qmid: str
    link: str  # HIERARCHY or a cluster name
    add: tuple[str, ...] = ()
    cancel: tuple[str, ...] = ()
    forced: tuple[str, ...] = ()  # the added topics a PROXYSUB(FORCE) object sends
    resync: bool = False


@dataclass(frozen=True)
class Register:
    """A child asks to join its parent (ALTER QMGR PARENT)."""

    child: str
    qmid: str


@dataclass(frozen=True)
class Registered:
    """The parent's answer: the relationship is active."""

    parent: str
    qmid: str


@dataclass(frozen=True)
class Deregister:
    """A child leaves (ALTER QMGR PARENT('') or another parent)."""

    child: str


ControlMessage = Proxies | Register | Registered | Deregister


def encode(message: ControlMessage) -> bytes:
    body: dict[str, Any] = {"v": VERSION}
    if isinstance(message, Proxies):
        body.update(op="proxies", origin=message.origin, qmid=message.qmid, link=message.link,
                    add=list(message.add), cancel=list(message.cancel), forced=list(message.forced),
                    resync=message.resync)
    elif isinstance(message, Register):
        body.update(op="register", child=message.child, qmid=message.qmid)
    elif isinstance(message, Registered):
        body.update(op="registered", parent=message.parent, qmid=message.qmid)
    else:
        body.update(op="deregister", child=message.child)
    return json.dumps(body, separators=(",", ":")).encode()


def decode(data: bytes) -> ControlMessage:
    body = fields.load(data, VERSION)
    op = body.get("op")
    if op == "proxies":
        resync = fields.flag(body, "resync")
        added = fields.topics(body, "add")
        forced = fields.topics(body, "forced")
        if not set(forced) <= set(added):
            raise ControlProtocolError("a forced topic is not among the added ones")
        return Proxies(fields.name(body, "origin"), fields.text(body, "qmid"), fields.name(body, "link"), added,
                       fields.topics(body, "cancel"), forced, resync)
    if op == "register":
        return Register(fields.name(body, "child"), fields.text(body, "qmid"))
    if op == "registered":
        return Registered(fields.name(body, "parent"), fields.text(body, "qmid"))
    if op == "deregister":
        return Deregister(fields.name(body, "child"))
    raise ControlProtocolError(f"operation {str(op)[:32]!r}")
