"""The shapes of the native protocol's arguments: each checker returns the (possibly normalised)
value or raises ``Bad``. The frame decoder (``native``) and the reply checks (``native_results``)
build their tables from these."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from mqlite.message import MD_FIELDS, MessageDescriptor


class Bad(Exception):
    """A value of the wrong shape; the decoder turns it into a ProtocolError (2195)."""


Checker = Callable[[Any], Any]


def int_arg(v: Any) -> int:
    if type(v) is not int:
        raise Bad(f"expected int, got {type(v).__name__}")
    return v


def str_arg(v: Any) -> str:
    if type(v) is not str:
        raise Bad(f"expected str, got {type(v).__name__}")
    return v


def opt_str_arg(v: Any) -> str | None:
    if v is not None and type(v) is not str:
        raise Bad(f"expected str or nil, got {type(v).__name__}")
    return v


def bool_arg(v: Any) -> bool:
    if type(v) is not bool:
        raise Bad(f"expected bool, got {type(v).__name__}")
    return v


def bytes_arg(v: Any) -> bytes:
    if type(v) is not bytes:
        raise Bad(f"expected bin, got {type(v).__name__}")
    return v


_ID_LENGTHS = {"MsgId": 24, "CorrelId": 24, "GroupId": 24, "AccountingToken": 32}
_MD_DEFAULT = MessageDescriptor()
# (name, type, exact size) per MQMD field; the types are those of IBM's defaults.
_MD_SPEC: tuple[tuple[str, type, int | None], ...] = tuple(
    (name, type(getattr(_MD_DEFAULT, name)), _ID_LENGTHS.get(name)) for name in MD_FIELDS
)
MD_LENGTH: Final = len(MD_FIELDS)


_MD_TYPES: Final[tuple[type, ...]] = tuple(kind for _, kind, _ in _MD_SPEC)
_MD_SIZED: Final[tuple[tuple[int, str, int], ...]] = tuple(
    (i, name, size) for i, (name, _, size) in enumerate(_MD_SPEC) if size is not None)


def check_md(v: Any) -> list[Any]:
    """An MQMD as a list in ``MD_FIELDS`` order, each field of its type, ids of their size."""
    if type(v) is not list or len(v) != MD_LENGTH:
        raise Bad(f"MQMD must be a list of {MD_LENGTH} fields")
    items: list[Any] = v  # typed, so that compiled each index is a C array read
    types = _MD_TYPES
    for i in range(MD_LENGTH):  # compiled, a C loop of pointer comparisons
        if type(items[i]) is not types[i]:
            name, kind, _ = _MD_SPEC[i]
            raise Bad(f"MQMD.{name}: expected {kind.__name__}, got {type(items[i]).__name__}")
    for i, name, size in _MD_SIZED:
        if len(items[i]) != size:
            raise Bad(f"MQMD.{name}: expected {size} bytes")
    return items


def check_match_ids(v: Any) -> list[bytes]:
    """What a GET matches on: ``[MsgId, CorrelId]``, 24 bytes each (a get reads nothing else of
    the MQMD it is given, so it is not sent)."""
    if type(v) is not list or len(v) != 2:
        raise Bad("match ids must be a list of MsgId and CorrelId")
    items: list[Any] = v
    for i in range(2):
        if type(items[i]) is not bytes or len(items[i]) != 24:
            raise Bad(f"match ids: {('MsgId', 'CorrelId')[i]} must be 24 bytes")
    return items


_PROPERTY_TYPES = (bool, int, float, str, bytes, type(None))


def check_props(v: Any) -> dict[str, Any]:
    """Message properties: str names, MQ-typed scalar values (no nesting)."""
    if type(v) is not dict:
        raise Bad("properties must be a map")
    for name, value in v.items():
        if type(name) is not str:
            raise Bad("property names must be str")
        if type(value) not in _PROPERTY_TYPES:
            raise Bad(f"property {name!r}: unsupported type {type(value).__name__}")
    return v


def keyed(defaults: dict[str, Any], what: str) -> Checker:
    """A map with known str keys, each of its default's type; missing keys get the default."""

    def check(v: Any) -> dict[str, Any]:
        if type(v) is not dict:
            raise Bad(f"{what} must be a map")
        out = dict(defaults)
        for key, value in v.items():
            default = defaults.get(key) if type(key) is str else None
            if default is None:
                raise Bad(f"{what}: unknown field {key!r}")
            if type(value) is not type(default):
                raise Bad(f"{what}.{key}: expected {type(default).__name__}")
            out[key] = value
        return out

    return check


# pymqi OD field names; ObjectType 1 is MQOT_Q. The client sends the application's Version (the
# engine refuses a topic below 4, spec C A-27); an OD without one is taken as current (4).
OD_DEFAULTS: Final[dict[str, Any]] = {
    "Version": 4, "ObjectType": 1, "ObjectName": "", "ObjectQMgrName": "", "DynamicQName": "AMQ.*",
    "AlternateUserId": "", "ObjectString": "", "SelectionString": "",
}
# MQGMO_NO_WAIT, WaitInterval in ms (-1 unlimited), MQMO_MATCH_MSG_ID | MQMO_MATCH_CORREL_ID.
GMO_DEFAULTS: Final[dict[str, Any]] = {"Options": 0, "WaitInterval": 0, "MatchOptions": 3}
# What CONNECT says of the client channel (IBM's MQCD field names): the SVRCONN channel it names
# (empty on a local connection, which uses none) and the values the client asks for; the server
# takes the lower of each and its channel's. TLS fields join this map when TLS does.
CD_DEFAULTS: Final[dict[str, Any]] = {
    "ChannelName": "", "MaxMsgLength": 4194304, "HeartbeatInterval": 300, "KeepAliveInterval": -1,
    "SharingConversations": 10,
}
check_od = keyed(OD_DEFAULTS, "OD")
check_cd = keyed(CD_DEFAULTS, "CD")
check_gmo = keyed(GMO_DEFAULTS, "GMO")


# MQSD fields (pymqi names). SubName None is "not initialised" (spec C §3.2: RESUME and ALTER
# need it initialised, 2440).
SD_FIELDS: Final[dict[str, tuple[type, ...]]] = {
    "Options": (int,), "ObjectName": (str,), "ObjectString": (str,), "SubName": (str, type(None)),
    "SubUserData": (str,), "SubCorrelId": (bytes,), "PubPriority": (int,), "PubAccountingToken": (bytes,),
    "PubApplIdentityData": (str,), "SelectionString": (str,), "SubLevel": (int,), "SubExpiry": (int,),
    "AlternateUserId": (str,),
}


def check_sd(v: Any) -> dict[str, Any]:
    if type(v) is not dict:
        raise Bad("SD must be a map")
    for key, value in v.items():
        types = SD_FIELDS.get(key) if type(key) is str else None
        if types is None:
            raise Bad(f"SD: unknown field {key!r}")
        if type(value) not in types:
            raise Bad(f"SD.{key}: expected {types[0].__name__}")
    return v


def int_list(v: Any) -> list[int]:
    if type(v) is not list or any(type(x) is not int for x in v):
        raise Bad("expected a list of int")
    return v


def selector_map(v: Any) -> dict[int, int | str]:
    if type(v) is not dict:
        raise Bad("expected a map of selector to value")
    for key, value in v.items():
        if type(key) is not int or type(value) not in (int, str):
            raise Bad("selectors are int, values int or str")
    return v


def check_messages(v: Any, allow_empty: bool = True) -> list[Any]:
    """A list of [number, md, props, body]: a PUSH_MSGS batch (number = hobj, never empty) or a
    BROWSE_RANGE result (number = sequence number)."""
    if type(v) is not list or (not v and not allow_empty):
        raise Bad("expected a list of messages")
    for item in v:
        if type(item) is not list or len(item) != 4 or type(item[0]) is not int or type(item[3]) is not bytes:
            raise Bad("each message is [number, md, props, body]")
        check_md(item[1])
        check_props(item[2])
    return v


def check_args(shape: tuple[Checker, ...], args: list[Any], what: str) -> list[Any]:
    if len(args) != len(shape):
        raise Bad(f"{what} takes {len(shape)} arguments, got {len(args)}")
    return [check(arg) for check, arg in zip(shape, args, strict=True)]
