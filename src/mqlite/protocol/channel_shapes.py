"""What each message channel frame must look like: the checked decoding of a frame's msgpack
array into its event (``protocol.channel`` is the connection that uses it). Every rule a
partner's frame is held to is here; breaking one raises ``Bad`` with the rule's text."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

import msgpack

from mqlite.protocol.channel_events import (
    Accept,
    Close,
    Confirm,
    EndBatch,
    Event,
    Heartbeat,
    HeartbeatAck,
    Hello,
    Kind,
    Msg,
    Ping,
    Refuse,
    Status,
    StatusReply,
)

MAX_CHANNEL_NAME: Final = 20
MAX_QMGR_NAME: Final = 48
CHANNEL_TYPES: Final = frozenset({"SDR", "SVR", "RQSTR", "RCVR", "CLUSSDR", "CLUSRCVR"})
NPM_SPEEDS: Final = frozenset({"FAST", "NORMAL"})
# The values a HELLO may leave out (IBM's channel attribute defaults).
HELLO_DEFAULTS: Final[Mapping[str, Any]] = {
    "batchsz": 50, "maxmsgl": 4_194_304, "hbint": 300, "npmspeed": "FAST", "seqwrap": 999_999_999, "version": 1,
    "pipeline": 1,
}
MAX_PIPELINE: Final = 2


class Bad(Exception):
    """A rule broken (the text says which); the caller decides whether it is local or fatal."""


# ---------------------------------------------------------------------------
# Decoding: a frame's array to its event, checking every shape.

_Check = Callable[[Any], bool]


def _is_int(lo: int, hi: int | None = None) -> _Check:
    return lambda v: type(v) is int and lo <= v and (hi is None or v <= hi)  # bool is not an int here


def _is_name(longest: int) -> _Check:
    return lambda v: type(v) is str and 1 <= len(v) <= longest


def _is_luwid(v: Any) -> bool:
    return type(v) is bytes and 8 <= len(v) <= 16


def _is_indoubt(v: Any) -> bool:
    return v is None or (type(v) is dict and v.keys() == {"luwid", "seq"}
                         and _is_luwid(v["luwid"]) and type(v["seq"]) is int and v["seq"] >= 1)


_MISSING: Final = object()
_Spec = Mapping[str, tuple[_Check, str]]
_HELLO_SPEC: Final[_Spec] = {
    "channel": (_is_name(MAX_CHANNEL_NAME), f"a str of 1..{MAX_CHANNEL_NAME} characters"),
    "type": (lambda v: type(v) is str and v in CHANNEL_TYPES, "one of " + ", ".join(sorted(CHANNEL_TYPES))),
    "qmgr": (_is_name(MAX_QMGR_NAME), f"a str of 1..{MAX_QMGR_NAME} characters"),
    "batchsz": (_is_int(1, 9999), "an int in 1..9999"),
    "maxmsgl": (_is_int(0), "an int >= 0"),
    "hbint": (_is_int(0, 999_999), "an int in 0..999999"),
    "npmspeed": (lambda v: type(v) is str and v in NPM_SPEEDS, "FAST or NORMAL"),
    "seqwrap": (_is_int(100, 999_999_999), "an int in 100..999999999"),
    "version": (_is_int(1), "an int >= 1"),
    "pipeline": (_is_int(1, MAX_PIPELINE), f"an int in 1..{MAX_PIPELINE}"),
}
_ACCEPT_SPEC: Final[_Spec] = {k: _HELLO_SPEC[k] for k in ("qmgr", "batchsz", "maxmsgl", "hbint", "npmspeed", "seqwrap",
                                                           "pipeline")}
_ACCEPT_DEFAULTS: Final[Mapping[str, Any]] = {"pipeline": 1}
_STATUS_SPEC: Final[_Spec] = {
    "seq": (_is_int(0), "an int >= 0"),
    "indoubt": (_is_indoubt, "None or {'luwid': bytes of 8..16, 'seq': int >= 1}"),
    "reset": (lambda v: type(v) is bool, "a bool"),
}
_STATUS_REPLY_SPEC: Final[_Spec] = {
    "seq": (_is_int(0), "an int >= 0"),
    "luwid": (lambda v: v is None or _is_luwid(v), "None or bytes of 8..16"),
}
NO_DEFAULTS: Final[Mapping[str, Any]] = {}
REQUEST_SPEC: Final[_Spec] = {k: _HELLO_SPEC[k] for k in ("channel", "qmgr")}


def checked_fields(kind: Kind, raw: Any, spec: _Spec, defaults: Mapping[str, Any]) -> dict[str, Any]:
    """The checked fields of a map; unknown keys are dropped (a later version may add some)."""
    if type(raw) is not dict or any(type(k) is not str for k in raw):
        raise Bad(f"malformed {kind.name}: fields must be a map with str keys")
    out: dict[str, Any] = {}
    for name, (ok, wanted) in spec.items():
        value = raw.get(name, defaults.get(name, _MISSING))
        if value is _MISSING:
            raise Bad(f"malformed {kind.name}: field {name!r} is missing")
        if not ok(value):
            raise Bad(f"malformed {kind.name}: field {name!r} must be {wanted}, not {value!r:.40}")
        out[name] = value
    return out


def _arity(items: list[Any], n: int) -> None:
    if len(items) != n:
        raise Bad(f"malformed {Kind(items[0]).name}: {len(items)} items, not {n}")


def _reason_text(items: list[Any], lowest: int) -> tuple[int, str]:
    _arity(items, 3)
    if type(items[1]) is not int or items[1] < lowest or type(items[2]) is not str:
        raise Bad(f"malformed {Kind(items[0]).name}: needs a reason (int >= {lowest}) and a text (str)")
    return items[1], items[2]


def _seq_luwid(items: list[Any]) -> tuple[int, bytes]:
    _arity(items, 3)
    if type(items[1]) is not int or items[1] < 1 or not _is_luwid(items[2]):
        raise Bad(f"malformed {Kind(items[0]).name}: needs a seq (int >= 1) and a luwid (bytes of 8..16)")
    return items[1], items[2]


def check_msg(seq: Any, persistent: Any, md: Any, props: Any, body: Any) -> None:
    """A MSG's fields have its shape (``Bad`` if not): received, or about to be sent."""
    if type(seq) is not int or seq < 1:
        raise Bad("malformed MSG: seq must be an int >= 1")
    if type(persistent) is not bool or type(md) is not list or type(body) is not bytes:
        raise Bad("malformed MSG: needs persistent (bool), md (array) and body (bytes)")
    if type(props) is not dict or (props and any(type(k) is not str for k in props)):
        raise Bad("malformed MSG: props must be a map with str keys")


def _decode_msg(items: list[Any]) -> Msg:
    _arity(items, 6)
    _, seq, persistent, md, props, body = items
    check_msg(seq, persistent, md, props, body)
    return Msg(seq, persistent, md, props, body)


def _map(items: list[Any], spec: _Spec, defaults: Mapping[str, Any]) -> dict[str, Any]:
    """The checked fields of a ``[kind, {fields}]`` frame."""
    _arity(items, 2)
    return checked_fields(Kind(items[0]), items[1], spec, defaults)


def _alone(items: list[Any], event: Event) -> Event:
    """A frame that is its kind alone (HEARTBEAT, HEARTBEAT_ACK)."""
    _arity(items, 1)
    return event


PING_DATALEN: Final = (16, 32768)  # IBM's DATALEN range


def _decode_ping(items: list[Any]) -> Ping:
    _arity(items, 2)
    data = items[1]
    if type(data) is not bytes or not PING_DATALEN[0] <= len(data) <= PING_DATALEN[1]:
        raise Bad(f"malformed PING: data must be {PING_DATALEN[0]} to {PING_DATALEN[1]} bytes")
    return Ping(data)


_HEARTBEAT: Final = Heartbeat()
_HEARTBEAT_ACK: Final = HeartbeatAck()
_DECODERS: Final[Mapping[int, Callable[[list[Any]], Event]]] = {
    Kind.HELLO: lambda i: Hello(_map(i, _HELLO_SPEC, HELLO_DEFAULTS)),
    Kind.ACCEPT: lambda i: Accept(_map(i, _ACCEPT_SPEC, _ACCEPT_DEFAULTS)),
    Kind.REFUSE: lambda i: Refuse(*_reason_text(i, 1)),
    Kind.STATUS: lambda i: Status(**_map(i, _STATUS_SPEC, {"indoubt": None, "reset": False})),
    Kind.STATUS_REPLY: lambda i: StatusReply(**_map(i, _STATUS_REPLY_SPEC, {"luwid": None})),
    Kind.MSG: _decode_msg,
    Kind.END_BATCH: lambda i: EndBatch(*_seq_luwid(i)),
    Kind.CONFIRM: lambda i: Confirm(*_seq_luwid(i)),
    Kind.HEARTBEAT: lambda i: _alone(i, _HEARTBEAT),
    Kind.HEARTBEAT_ACK: lambda i: _alone(i, _HEARTBEAT_ACK),
    Kind.CLOSE: lambda i: Close(*_reason_text(i, 0)),
    Kind.PING: _decode_ping,
}


def from_items(items: Any) -> Event:
    if type(items) is not list or not items or type(items[0]) is not int:
        raise Bad("malformed frame: not an array starting with a kind")
    decode = _DECODERS.get(items[0])
    if decode is None:
        raise Bad(f"malformed frame: unknown kind {items[0]}")
    return decode(items)


def decode(payload: bytes | bytearray) -> Event:
    try:
        items = msgpack.unpackb(payload, use_list=True, raw=False, strict_map_key=False)
    except Exception as e:  # msgpack raises many types (ValueError, StackError, ExtraData...)
        raise Bad(f"malformed frame: undecodable ({type(e).__name__})") from None
    return from_items(items)


def check_accept(hello: Mapping[str, Any], accept: Mapping[str, Any]) -> None:
    """An ACCEPT must be one that ``negotiate`` could have computed from the HELLO."""
    offered = hello["maxmsgl"]
    problems = [
        accept["seqwrap"] != hello["seqwrap"] and "seqwrap differs",
        accept["batchsz"] > hello["batchsz"] and "batchsz above the offer",
        offered != 0 and accept["maxmsgl"] > offered and "maxmsgl above the offer",
        accept["hbint"] < hello["hbint"] and "hbint below the offer",
        accept["npmspeed"] == "FAST" and hello["npmspeed"] != "FAST" and "npmspeed FAST not offered",
        accept["pipeline"] > hello["pipeline"] and "pipeline above the offer",
    ]
    if any(problems):
        raise Bad("ACCEPT breaks the negotiation rules: " + ", ".join(p for p in problems if p))
