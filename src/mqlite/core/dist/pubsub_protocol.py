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
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from mqlite import cmqc as C
from mqlite.core.errors import MQError

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
_MAX_TOPIC = 10_240


class ControlProtocolError(MQError):
    def __init__(self, text: str) -> None:
        super().__init__(C.MQRC_FORMAT_ERROR, f"malformed publish/subscribe control message: {text}")


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
    try:
        body = json.loads(data)
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise ControlProtocolError(f"not JSON ({error})") from None
    if not isinstance(body, dict):
        raise ControlProtocolError("not an object")
    if type(body.get("v")) is not int or body.get("v") != VERSION:
        raise ControlProtocolError(f"version {str(body.get('v'))[:32]!r}, not {VERSION}")
    op = body.get("op")
    if op == "proxies":
        resync = body.get("resync", False)
        if not isinstance(resync, bool):
            raise ControlProtocolError("resync is not true or false")
        added = _topics(body, "add")
        forced = _topics(body, "forced")
        if not set(forced) <= set(added):
            raise ControlProtocolError("a forced topic is not among the added ones")
        return Proxies(_name(body, "origin"), _text(body, "qmid"), _name(body, "link"), added,
                       _topics(body, "cancel"), forced, resync)
    if op == "register":
        return Register(_name(body, "child"), _text(body, "qmid"))
    if op == "registered":
        return Registered(_name(body, "parent"), _text(body, "qmid"))
    if op == "deregister":
        return Deregister(_name(body, "child"))
    raise ControlProtocolError(f"operation {str(op)[:32]!r}")


def _text(body: Mapping[str, Any], key: str) -> str:
    value = body.get(key, "")
    if not isinstance(value, str) or len(value) > 256 or not _encodable(value):
        raise ControlProtocolError(f"{key} is not a short string")
    return value


def _encodable(text: str) -> bool:
    """JSON can carry lone surrogates, which no store or wire can encode."""
    try:
        text.encode()
    except UnicodeEncodeError:
        return False
    return True


def _name(body: Mapping[str, Any], key: str) -> str:
    value = _text(body, key).strip()
    if not value or len(value) > 48:
        raise ControlProtocolError(f"{key} is not a name of 1 to 48 characters")
    return value


def _topics(body: Mapping[str, Any], key: str) -> tuple[str, ...]:
    value = body.get(key, [])
    if not isinstance(value, list) or not all(isinstance(t, str) and 0 < len(t) <= _MAX_TOPIC and _encodable(t)
                                              for t in value):
        raise ControlProtocolError(f"{key} is not a list of topic strings")
    return tuple(value)
