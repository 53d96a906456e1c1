"""The native client protocol: frames, events and the op table, without any I/O.

Sans-IO in the style of h11: bytes go in with ``receive_data``, events come out of
``next_event``; events go in with ``send_*`` and bytes come out. The hot paths
(put, get, credit, read-ahead pushes) have pure ``encode_*`` functions that pack
one flat list with one ``msgpack.packb`` call, in the style of nats.py.

Frame: a 4-byte big-endian unsigned length, then a msgpack array of that length
(``use_bin_type=True``: ``str`` and ``bytes`` stay apart on the wire).

- request ``[op, req_id, *args]``; ``req_id == 0`` means "no reply on success" and is
  allowed only for PUT and PUT1 (asynchronous put, IBM's MQPMO_ASYNC_RESPONSE) and
  CREDIT (which never has a reply);
- reply ``[REPLY, req_id, cc, reason, result]``;
- push (server to client) ``[PUSH_MSG, hobj, md, props, body]`` (a read-ahead message,
  already removed from the queue) and ``[PUSH_ERROR, hobj, reason]`` (an asynchronous
  put failed).

The decoder validates the shape (count and types) of every request's arguments, so
the server never sees a malformed request; ``OD`` and ``GMO`` dicts come out with
every key present (defaults filled in). Errors are ``ProtocolError(reason, text)``
with IBM reason codes:

- ``MQRC_MSG_TOO_BIG_FOR_CHANNEL`` (2218): a length prefix above ``max_frame``, raised as
  soon as the 4 prefix bytes are seen, without buffering the frame. Fatal.
- ``MQRC_UNEXPECTED_ERROR`` (2195): a frame that is not msgpack, not an array, has
  wrong element types or counts, or a frame that does not belong in this direction
  (a reply sent to a server, a request sent to a client).
- ``MQRC_FUNCTION_NOT_SUPPORTED`` (2298): an op number nobody knows.

Replies are checked by the client against ``mqlite.protocol.native_results``.

Only the oversize error is fatal (``fatal=True``: the stream cannot be resynchronised
and the connection must be closed). For the others the bad frame has been consumed
and the stream is still in step: ``req_id`` is set when it could be read, so a server
can reply with the reason and carry on ("the server never dies on bad input").
"""

from __future__ import annotations

import enum
import struct
from collections.abc import Callable
from typing import Any, Final, NamedTuple

import msgpack

from mqlite.message import MD_FIELDS, MessageDescriptor

MQRC_UNEXPECTED_ERROR: Final = 2195
MQRC_MSG_TOO_BIG_FOR_CHANNEL: Final = 2218
MQRC_FUNCTION_NOT_SUPPORTED: Final = 2298

# The text of a 2033 reply to a waiting MQGET when read-ahead messages were pushed to the
# consumer since its last get: the client reads those first, then asks again.
SENT_AHEAD: Final = "messages were sent ahead: read them first"

# 100 MB (MQ's largest MAXMSGL) plus room for the descriptor and properties.
DEFAULT_MAX_FRAME: Final = 104_857_600 + 65536
HEADER_SIZE: Final = 4
# Compact the receive buffer once this many consumed bytes sit at its front.
_COMPACT_AT = 65536
_unpack_length = struct.Struct(">I").unpack_from


class Role(enum.Enum):
    """Which end of the connection this object speaks for."""

    CLIENT = "client"
    SERVER = "server"


class Op(enum.IntEnum):
    """Frame kinds: 0 is a reply, 1..63 requests, 64..127 pushes.

    Gaps are left on purpose: 16..31 for publish/subscribe (SUB, SUBRQ, ...),
    32..47 for asynchronous consume (CB, CTL) and message handles, 48..63 spare.
    """

    REPLY = 0
    CONNECT = 1
    DISCONNECT = 2
    OPEN = 3
    CLOSE = 4
    PUT = 5
    PUT1 = 6
    GET = 7
    COMMIT = 8
    BACKOUT = 9
    INQ = 10
    SET = 11
    MQSC = 12
    STAT = 13
    CREDIT = 14
    PING = 15
    SUB = 16
    SUBRQ = 17
    PUBLISH = 18  # a PUT with an explicit PubLevel (MQPMO.PubLevel other than 9)
    OFFSETS = 19  # a queue's oldest and newest sequence numbers (stream readers)
    BROWSE_RANGE = 20  # the messages of a sequence range, left in place
    REMOVE_THROUGH = 21  # remove a committed range
    PUSH_MSG = 64
    PUSH_ERROR = 65
    PUSH_MSGS = 66  # several read-ahead messages in one frame: [[hobj, md, props, body], ...]


REQUEST_OPS: Final = frozenset(op for op in Op if 1 <= op < 64)
PUSH_KINDS: Final = frozenset(op for op in Op if op >= 64)
_REQUEST_BY_CODE: Final = {int(op): op for op in REQUEST_OPS}
# Requests that may carry req_id 0 (no reply on success / never a reply).
NO_REPLY_OK: Final = frozenset({Op.PUT, Op.PUT1, Op.PUBLISH, Op.CREDIT})


class Request(NamedTuple):
    op: Op
    req_id: int
    args: list[Any]


class Reply(NamedTuple):
    req_id: int
    cc: int
    reason: int
    result: Any


class Push(NamedTuple):
    kind: Op
    args: list[Any]


class _NeedData:
    """Sentinel type: no complete frame buffered yet."""

    _instance: _NeedData | None = None

    def __new__(cls) -> _NeedData:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "NEED_DATA"


NEED_DATA: Final = _NeedData()
Event = Request | Reply | Push | _NeedData


class ProtocolError(Exception):
    """Malformed input. ``fatal`` means the byte stream is out of step: close it."""

    def __init__(self, reason: int, text: str, *, req_id: int | None = None, fatal: bool = False) -> None:
        super().__init__(reason, text)
        self.reason = reason
        self.text = text
        self.req_id = req_id
        self.fatal = fatal

    def __str__(self) -> str:
        return f"{self.text} (reason {self.reason})"


# ---------------------------------------------------------------------------
# Shape checking. Each checker returns the (possibly normalised) value or raises _Bad.


class _Bad(Exception):
    pass


Checker = Callable[[Any], Any]


def _int(v: Any) -> int:
    if type(v) is not int:
        raise _Bad(f"expected int, got {type(v).__name__}")
    return v


def _str(v: Any) -> str:
    if type(v) is not str:
        raise _Bad(f"expected str, got {type(v).__name__}")
    return v


def _opt_str(v: Any) -> str | None:
    if v is not None and type(v) is not str:
        raise _Bad(f"expected str or nil, got {type(v).__name__}")
    return v


def _bool(v: Any) -> bool:
    if type(v) is not bool:
        raise _Bad(f"expected bool, got {type(v).__name__}")
    return v


def _bytes(v: Any) -> bytes:
    if type(v) is not bytes:
        raise _Bad(f"expected bin, got {type(v).__name__}")
    return v


_ID_LENGTHS = {"MsgId": 24, "CorrelId": 24, "GroupId": 24, "AccountingToken": 32}
_MD_DEFAULT = MessageDescriptor()
# (name, type, exact size) per MQMD field; the types are those of IBM's defaults.
_MD_SPEC: tuple[tuple[str, type, int | None], ...] = tuple(
    (name, type(getattr(_MD_DEFAULT, name)), _ID_LENGTHS.get(name)) for name in MD_FIELDS
)
MD_LENGTH: Final = len(MD_FIELDS)


_MD_TYPES = tuple(kind for _, kind, _ in _MD_SPEC)
_MD_SIZED = tuple((i, name, size) for i, (name, _, size) in enumerate(_MD_SPEC) if size is not None)


def check_md(v: Any) -> list[Any]:
    """An MQMD as a list in ``MD_FIELDS`` order, each field of its type, ids of their size."""
    if type(v) is not list or len(v) != MD_LENGTH:
        raise _Bad(f"MQMD must be a list of {MD_LENGTH} fields")
    if tuple(map(type, v)) != _MD_TYPES:  # one C-level pass on the hot path
        for value, (name, kind, _) in zip(v, _MD_SPEC, strict=True):
            if type(value) is not kind:
                raise _Bad(f"MQMD.{name}: expected {kind.__name__}, got {type(value).__name__}")
    for i, name, size in _MD_SIZED:
        if len(v[i]) != size:
            raise _Bad(f"MQMD.{name}: expected {size} bytes")
    return v


_PROPERTY_TYPES = (bool, int, float, str, bytes, type(None))


def check_props(v: Any) -> dict[str, Any]:
    """Message properties: str names, MQ-typed scalar values (no nesting)."""
    if type(v) is not dict:
        raise _Bad("properties must be a map")
    for name, value in v.items():
        if type(name) is not str:
            raise _Bad("property names must be str")
        if type(value) not in _PROPERTY_TYPES:
            raise _Bad(f"property {name!r}: unsupported type {type(value).__name__}")
    return v


def _keyed(defaults: dict[str, Any], what: str) -> Checker:
    """A map with known str keys, each of its default's type; missing keys get the default."""

    def check(v: Any) -> dict[str, Any]:
        if type(v) is not dict:
            raise _Bad(f"{what} must be a map")
        out = dict(defaults)
        for key, value in v.items():
            default = defaults.get(key) if type(key) is str else None
            if default is None:
                raise _Bad(f"{what}: unknown field {key!r}")
            if type(value) is not type(default):
                raise _Bad(f"{what}.{key}: expected {type(default).__name__}")
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
check_od = _keyed(OD_DEFAULTS, "OD")
check_gmo = _keyed(GMO_DEFAULTS, "GMO")


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
        raise _Bad("SD must be a map")
    for key, value in v.items():
        types = SD_FIELDS.get(key) if type(key) is str else None
        if types is None:
            raise _Bad(f"SD: unknown field {key!r}")
        if type(value) not in types:
            raise _Bad(f"SD.{key}: expected {types[0].__name__}")
    return v


def _int_list(v: Any) -> list[int]:
    if type(v) is not list or any(type(x) is not int for x in v):
        raise _Bad("expected a list of int")
    return v


def _selector_map(v: Any) -> dict[int, int | str]:
    if type(v) is not dict:
        raise _Bad("expected a map of selector to value")
    for key, value in v.items():
        if type(key) is not int or type(value) not in (int, str):
            raise _Bad("selectors are int, values int or str")
    return v


REQUEST_SHAPES: Final[dict[Op, tuple[Checker, ...]]] = {
    Op.CONNECT: (_str, _opt_str, _opt_str, _str, _int),
    Op.DISCONNECT: (),
    Op.OPEN: (check_od, _int),
    Op.CLOSE: (_int, _int),
    Op.PUT: (_int, check_md, _int, check_props, _bytes),
    Op.PUT1: (check_od, check_md, _int, check_props, _bytes),
    Op.GET: (_int, check_md, check_gmo, _int),
    Op.COMMIT: (),
    Op.BACKOUT: (),
    Op.INQ: (_int, _int_list),
    Op.SET: (_int, _selector_map),
    Op.MQSC: (_str,),
    Op.STAT: (),
    Op.CREDIT: (_int, _int),
    Op.PING: (),
    Op.SUB: (check_sd, _int),
    Op.SUBRQ: (_int, _int),
    Op.PUBLISH: (_int, check_md, _int, check_props, _bytes, _int),
    Op.OFFSETS: (_str,),
    Op.BROWSE_RANGE: (_str, _int, _int, _int),
    Op.REMOVE_THROUGH: (_str, _int),
}

_FAST_CHECKS: Final[dict[Op, Callable[[list[Any]], list[Any]]]] = {}

PUSH_SHAPES: Final[dict[Op, tuple[Checker, ...]]] = {
    Op.PUSH_MSG: (_int, check_md, check_props, _bytes),
    Op.PUSH_MSGS: (lambda v: _check_push_batch(v),),
    Op.PUSH_ERROR: (_int, _int),
}


def check_messages(v: Any, allow_empty: bool = True) -> list[Any]:
    """A list of [number, md, props, body]: a PUSH_MSGS batch (number = hobj, never empty) or a
    BROWSE_RANGE result (number = sequence number)."""
    if type(v) is not list or (not v and not allow_empty):
        raise _Bad("expected a list of messages")
    for item in v:
        if type(item) is not list or len(item) != 4 or type(item[0]) is not int or type(item[3]) is not bytes:
            raise _Bad("each message is [number, md, props, body]")
        check_md(item[1])
        check_props(item[2])
    return v


def _check_push_batch(v: Any) -> list[Any]:
    return check_messages(v, allow_empty=False)


def _check_put(args: list[Any]) -> list[Any]:
    """PUT's shape, checked inline: it is most of the traffic (same rules as REQUEST_SHAPES)."""
    if len(args) != 5:
        return _check_args(REQUEST_SHAPES[Op.PUT], args, "PUT")
    hobj, md, options, props, body = args
    if type(hobj) is not int or type(options) is not int or type(body) is not bytes:
        return _check_args(REQUEST_SHAPES[Op.PUT], args, "PUT")  # names the bad argument
    check_md(md)
    if props:
        check_props(props)
    elif type(props) is not dict:
        raise _Bad("properties must be a map")
    return args


def _check_get(args: list[Any]) -> list[Any]:
    """GET's shape, checked inline; a GMO with exactly the three known int fields is taken as is."""
    if len(args) == 4:
        hobj, md, gmo, max_length = args
        if (type(hobj) is int and type(max_length) is int and type(gmo) is dict and len(gmo) == 3
                and type(gmo.get("Options")) is int and type(gmo.get("WaitInterval")) is int
                and type(gmo.get("MatchOptions")) is int):
            check_md(md)
            return args
    return _check_args(REQUEST_SHAPES[Op.GET], args, "GET")


def _check_args(shape: tuple[Checker, ...], args: list[Any], what: str) -> list[Any]:
    if len(args) != len(shape):
        raise _Bad(f"{what} takes {len(shape)} arguments, got {len(args)}")
    return [check(arg) for check, arg in zip(shape, args, strict=True)]


_FAST_CHECKS.update({Op.PUT: _check_put, Op.GET: _check_get})


# ---------------------------------------------------------------------------
# Pure encoders. Op values go in as plain ints: msgpack packs exact ints fastest.

# One Packer for the module: msgpack.packb builds a new one per call, which doubles its cost.
# Packer.pack never releases the GIL, so threads cannot interleave inside it.
_pack = msgpack.Packer(use_bin_type=True).pack
_REPLY = int(Op.REPLY)
_PUT = int(Op.PUT)
_GET = int(Op.GET)
_CREDIT = int(Op.CREDIT)
_PUSH_MSG = int(Op.PUSH_MSG)
_PUSH_MSGS = int(Op.PUSH_MSGS)
_PUSH_ERROR = int(Op.PUSH_ERROR)


def encode_frame(items: list[Any]) -> bytes:
    """One frame: length prefix and the msgpack array of ``items``."""
    payload: bytes = _pack(items)
    return len(payload).to_bytes(4, "big") + payload


def encode_request(op: int, req_id: int, args: list[Any]) -> bytes:
    return encode_frame([int(op), req_id, *args])


def encode_put(req_id: int, hobj: int, md: list[Any], pmo_options: int,
               props: dict[str, Any], body: bytes) -> bytes:
    """A PUT request (``req_id`` 0: asynchronous, no reply on success)."""
    return encode_frame([_PUT, req_id, hobj, md, pmo_options, props, body])


def encode_get(req_id: int, hobj: int, md: list[Any], gmo: dict[str, int], max_length: int) -> bytes:
    return encode_frame([_GET, req_id, hobj, md, gmo, max_length])


def encode_credit(hobj: int, n: int) -> bytes:
    """Grant the server ``n`` more read-ahead messages for ``hobj`` (never replied to)."""
    return encode_frame([_CREDIT, 0, hobj, n])


def encode_reply(req_id: int, cc: int, reason: int, result: Any) -> bytes:
    return encode_frame([_REPLY, req_id, cc, reason, result])


def encode_push_msg(hobj: int, md: list[Any], props: dict[str, Any], body: bytes) -> bytes:
    return encode_frame([_PUSH_MSG, hobj, md, props, body])


def encode_push_msgs(messages: list[list[Any]]) -> bytes:
    """Several read-ahead messages for one connection in one frame (a fan-out sends many)."""
    return encode_frame([_PUSH_MSGS, messages])


def encode_push_error(hobj: int, reason: int) -> bytes:
    return encode_frame([_PUSH_ERROR, hobj, reason])


# ---------------------------------------------------------------------------
# Decoding.


def _decode_request(items: list[Any]) -> Request:
    code, req_id = items[0], items[1] if len(items) > 1 else None
    if type(req_id) is not int or req_id < 0:
        raise ProtocolError(MQRC_UNEXPECTED_ERROR, "request without a valid req_id")
    op = _REQUEST_BY_CODE.get(code)
    if op is None:
        raise ProtocolError(MQRC_FUNCTION_NOT_SUPPORTED, f"unknown op {code}", req_id=req_id)
    if req_id == 0 and op not in NO_REPLY_OK:
        raise ProtocolError(MQRC_UNEXPECTED_ERROR, f"{op.name} needs a req_id", req_id=req_id)
    try:
        fast = _FAST_CHECKS.get(op)
        args = fast(items[2:]) if fast is not None else _check_args(REQUEST_SHAPES[op], items[2:], op.name)
    except _Bad as e:
        raise ProtocolError(MQRC_UNEXPECTED_ERROR, f"bad {op.name} request: {e}", req_id=req_id) from None
    return Request(op, req_id, args)


def _decode_reply(items: list[Any]) -> Reply:
    if len(items) != 5 or any(type(x) is not int for x in items[1:4]):
        raise ProtocolError(MQRC_UNEXPECTED_ERROR, "reply must be [REPLY, req_id, cc, reason, result]")
    return Reply(items[1], items[2], items[3], items[4])


def _decode_push(kind: Op, items: list[Any]) -> Push:
    try:
        if kind is Op.PUSH_MSG and len(items) == 5 and type(items[1]) is int and type(items[4]) is bytes:
            args = items[1:]  # the common case, checked inline (same rules as PUSH_SHAPES)
            check_md(args[1])
            check_props(args[2])
        elif kind is Op.PUSH_MSGS and len(items) == 2:
            args = [_check_push_batch(items[1])]
        else:
            args = _check_args(PUSH_SHAPES[kind], items[1:], kind.name)
    except _Bad as e:
        raise ProtocolError(MQRC_UNEXPECTED_ERROR, f"bad {kind.name} push: {e}") from None
    return Push(kind, args)


def decode_payload(role: Role, payload: bytes | bytearray | memoryview) -> Request | Reply | Push:
    """Decode one frame's msgpack array into the event it is, as seen by ``role``."""
    try:
        items = msgpack.unpackb(payload, use_list=True, raw=False, strict_map_key=False)
    except Exception as e:  # msgpack raises many types (ValueError, StackError, ExtraData...)
        raise ProtocolError(MQRC_UNEXPECTED_ERROR, f"undecodable frame: {type(e).__name__}") from None
    if type(items) is not list or not items or type(items[0]) is not int:
        raise ProtocolError(MQRC_UNEXPECTED_ERROR, "frame is not an array starting with an op")
    code = items[0]
    if role is Role.SERVER:
        if code == _REPLY or code in PUSH_KINDS:
            raise ProtocolError(MQRC_UNEXPECTED_ERROR, f"frame kind {code} is not sent to a server")
        return _decode_request(items)
    if code == _REPLY:
        return _decode_reply(items)
    if code in PUSH_KINDS:
        return _decode_push(Op(code), items)
    if code in REQUEST_OPS:
        raise ProtocolError(MQRC_UNEXPECTED_ERROR, f"request {Op(code).name} sent to a client")
    raise ProtocolError(MQRC_FUNCTION_NOT_SUPPORTED, f"unknown frame kind {code}")


class NativeConnection:
    """One end of a native-protocol connection: a byte buffer and the framing rules."""

    def __init__(self, role: Role, max_frame: int = DEFAULT_MAX_FRAME) -> None:
        self.role = role
        self.max_frame = max_frame
        self._buf = bytearray()
        self._pos = 0
        self._broken: ProtocolError | None = None

    def receive_data(self, data: bytes) -> None:
        """Buffer bytes read from the transport (``b""`` at end of stream is ignored)."""
        if self._broken is not None:
            raise self._broken
        self._buf += data

    @property
    def buffered(self) -> int:
        """Bytes received and not yet turned into events."""
        return len(self._buf) - self._pos

    def next_event(self) -> Event:
        """The next complete frame as an event, or ``NEED_DATA``."""
        if self._broken is not None:
            raise self._broken
        buf, pos = self._buf, self._pos
        if len(buf) - pos < HEADER_SIZE:
            return NEED_DATA
        size: int = _unpack_length(buf, pos)[0]
        if size > self.max_frame:
            self._broken = ProtocolError(
                MQRC_MSG_TOO_BIG_FOR_CHANNEL,
                f"frame of {size} bytes exceeds the limit of {self.max_frame}", fatal=True)
            self._buf = bytearray()
            self._pos = 0
            raise self._broken
        end = pos + HEADER_SIZE + size
        if len(buf) < end:
            return NEED_DATA
        payload = buf[pos + HEADER_SIZE:end]  # one copy, cheaper than a memoryview's bookkeeping
        self._consume(end)  # consumed even when malformed: the next frame is still in step
        return decode_payload(self.role, payload)

    def _consume(self, end: int) -> None:
        if end == len(self._buf):
            self._buf.clear()
            self._pos = 0
        elif end >= _COMPACT_AT:
            del self._buf[:end]
            self._pos = 0
        else:
            self._pos = end

    def events(self) -> list[Request | Reply | Push]:
        """Every complete event buffered now (stops at the first ``ProtocolError``)."""
        out: list[Request | Reply | Push] = []
        while True:
            event = self.next_event()
            if isinstance(event, _NeedData):
                return out
            out.append(event)

    # Sending: each method checks that the frame belongs in this direction.

    def send_request(self, op: Op, req_id: int, args: list[Any]) -> bytes:
        if self.role is not Role.CLIENT:
            raise ProtocolError(MQRC_UNEXPECTED_ERROR, "only a client sends requests")
        if op not in REQUEST_OPS:
            raise ProtocolError(MQRC_FUNCTION_NOT_SUPPORTED, f"{op!r} is not a request")
        try:
            _check_args(REQUEST_SHAPES[op], args, op.name)
        except _Bad as e:
            raise ProtocolError(MQRC_UNEXPECTED_ERROR, f"bad {op.name} request: {e}", req_id=req_id) from None
        return encode_request(op, req_id, args)

    def send_reply(self, req_id: int, cc: int, reason: int, result: Any) -> bytes:
        if self.role is not Role.SERVER:
            raise ProtocolError(MQRC_UNEXPECTED_ERROR, "only a server sends replies")
        return encode_reply(req_id, cc, reason, result)

    def send_push(self, kind: Op, args: list[Any]) -> bytes:
        if self.role is not Role.SERVER:
            raise ProtocolError(MQRC_UNEXPECTED_ERROR, "only a server sends pushes")
        if kind not in PUSH_KINDS:
            raise ProtocolError(MQRC_FUNCTION_NOT_SUPPORTED, f"{kind!r} is not a push")
        return encode_frame([int(kind), *args])
