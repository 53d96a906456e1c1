"""The native client protocol: frames, events and the op table, without any I/O.

Sans-IO in the style of h11: bytes go in with ``receive_data``, events come out of
``next_event``; events go in with ``send_*`` and bytes come out. The hot paths
(put, get, credit, read-ahead pushes) have pure ``encode_*`` functions that pack
one flat list with one ``msgpack.packb`` call, in the style of nats.py.

Frame: a 4-byte big-endian unsigned length, then a msgpack array of that length
(``use_bin_type=True``: ``str`` and ``bytes`` stay apart on the wire).

Shared conversations (a SVRCONN channel's SHARECNV): several connections (Hconns) of one
client process may share one socket. The socket's first conversation, number 0, uses plain
frames. Any other conversation's frame sets the top bit of the length (``CONVERSATION_FLAG``)
and puts its conversation number (1..2**31-1) in the 4 bytes after it, before the payload.
A peer that does not share reads such a length as an oversize frame and refuses it (2218), so
nothing can be misread. ``NativeConnection.conversation`` is the number of the event last
returned.

- request ``[op, req_id, *args]`` (a GET's second argument is ``[MsgId, CorrelId]``, not the
  whole MQMD: all a get matches on); ``req_id == 0`` means "no reply on success" and is
  allowed only for PUT and PUT1 (asynchronous put, IBM's MQPMO_ASYNC_RESPONSE) and
  CREDIT (which never has a reply);
- reply ``[REPLY, req_id, cc, reason, result]``;
- push (server to client) ``[PUSH_MSG, hobj, md, props, body]`` (a read-ahead message,
  already removed from the queue), ``[PUSH_ERROR, hobj, reason]`` (an asynchronous
  put failed) and ``[PUSH_HEARTBEAT]`` (the channel's heartbeat: the client answers
  ``[HEARTBEAT, 0]`` at once).

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
from dataclasses import dataclass
from typing import Any, ClassVar, Final, NoReturn

import msgpack
from mypy_extensions import mypyc_attr

from mqlite.protocol.native_shapes import (
    Bad,
    Checker,
    bytes_arg,
    check_args,
    check_cd,
    check_gmo,
    check_match_ids,
    check_md,
    check_messages,
    check_od,
    check_props,
    check_sd,
    int_arg,
    int_list,
    opt_str_arg,
    selector_map,
    str_arg,
)

MQRC_UNEXPECTED_ERROR: Final = 2195
MQRC_MSG_TOO_BIG_FOR_CHANNEL: Final = 2218
MQRC_FUNCTION_NOT_SUPPORTED: Final = 2298

# The text of a 2033 reply to a waiting MQGET when read-ahead messages were pushed to the
# consumer since its last get: the client reads those first, then asks again.
SENT_AHEAD: Final = "messages were sent ahead: read them first"

# Two bits of a GET's GMO Options that IBM leaves unused (its MQGMO_* stop at 0x10000000): the
# client sets them on every MQGET, so the queue manager shapes properties as IBM's MQGET does
# (PROPCTL, the MQGMO_PROPERTIES_* options; core.properties_delivery). GMO_NO_MSG_HANDLE: the
# GMO names no message handle (MsgHandle MQHM_NONE, or a GMO below version 4, which has no
# MsgHandle); GMO_MSG_HANDLE: the application takes properties beside the body (a handle, or
# mqlite's ReceivedMessage.properties: its own API, and a GMO below version 4, hence both bits).
# A get with neither is the queue manager's own (its servers, channels, MQTT): messages as put.
GMO_NO_MSG_HANDLE: Final = 0x4000_0000
GMO_MSG_HANDLE: Final = 0x2000_0000

# 100 MB (MQ's largest MAXMSGL) plus room for the descriptor and properties.
DEFAULT_MAX_FRAME: Final = 104_857_600 + 65536
HEADER_SIZE: Final = 4
CONVERSATION_FLAG: Final = 0x8000_0000
CONVERSATION_HEADER_SIZE: Final = 8  # flagged length and the conversation number
MAX_CONVERSATION: Final = 0x7FFF_FFFF
# Compact the receive buffer once this many consumed bytes sit at its front.
_COMPACT_AT: Final = 65536
_unpack_length = struct.Struct(">I").unpack_from
_conversation_header = struct.Struct(">II")


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
    PUBLISH = 18  # a PUT with an explicit PubLevel or Action (MQPMO.PubLevel other than 9, Action not NEW)
    OFFSETS = 19  # a queue's oldest and newest sequence numbers (stream readers)
    BROWSE_RANGE = 20  # the messages of a sequence range, left in place
    REMOVE_THROUGH = 21  # remove a committed range
    HEARTBEAT = 22  # the answer to PUSH_HEARTBEAT (req_id 0, never replied to)
    PUSH_MSG = 64
    PUSH_ERROR = 65
    PUSH_MSGS = 66  # several read-ahead messages in one frame: [[hobj, md, props, body], ...]
    PUSH_HEARTBEAT = 67  # SVRCONN HBINT: is the client still there? (answered with HEARTBEAT)


REQUEST_OPS: Final = frozenset(op for op in Op if 1 <= op < 64)
PUSH_KINDS: Final = frozenset(op for op in Op if op >= 64)
_REQUEST_BY_CODE: Final = {int(op): op for op in REQUEST_OPS}
# Requests that may carry req_id 0 (no reply on success / never a reply).
NO_REPLY_OK: Final = frozenset({Op.PUT, Op.PUT1, Op.PUBLISH, Op.CREDIT, Op.HEARTBEAT})


# The events are dataclasses with their __init__ written out, not NamedTuples: compiled, a
# NamedTuple's __new__ and a dataclass's generated __init__ run as interpreted Python (one
# event per frame).
@dataclass(slots=True, init=False)
class Request:
    op: Op
    req_id: int
    args: list[Any]

    def __init__(self, op: Op, req_id: int, args: list[Any]) -> None:
        self.op = op
        self.req_id = req_id
        self.args = args


@dataclass(slots=True, init=False)
class Reply:
    req_id: int
    cc: int
    reason: int
    result: Any

    def __init__(self, req_id: int, cc: int, reason: int, result: Any) -> None:
        self.req_id = req_id
        self.cc = cc
        self.reason = reason
        self.result = result


@dataclass(slots=True, init=False)
class Push:
    kind: Op
    args: list[Any]

    def __init__(self, kind: Op, args: list[Any]) -> None:
        self.kind = kind
        self.args = args


class _NeedData:
    """Sentinel type: no complete frame buffered yet."""

    _instance: ClassVar[_NeedData | None] = None

    def __new__(cls) -> _NeedData:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "NEED_DATA"


NEED_DATA: Final = _NeedData()
NeedData = _NeedData  # its type, for the other sans-IO protocols that share the sentinel
Event = Request | Reply | Push | _NeedData


@mypyc_attr(allow_interpreted_subclasses=True)  # channel.ChannelProtocolError, when compiled
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


REQUEST_SHAPES: Final[dict[Op, tuple[Checker, ...]]] = {
    # qmgr name, user, password, application name, pid, client channel (native_shapes.CD_DEFAULTS)
    Op.CONNECT: (str_arg, opt_str_arg, opt_str_arg, str_arg, int_arg, check_cd),
    Op.DISCONNECT: (),
    Op.OPEN: (check_od, int_arg),
    Op.CLOSE: (int_arg, int_arg),
    Op.PUT: (int_arg, check_md, int_arg, check_props, bytes_arg),
    Op.PUT1: (check_od, check_md, int_arg, check_props, bytes_arg),
    Op.GET: (int_arg, check_match_ids, check_gmo, int_arg),  # [MsgId, CorrelId]: all a get matches on
    Op.COMMIT: (),
    Op.BACKOUT: (),
    Op.INQ: (int_arg, int_list),
    Op.SET: (int_arg, selector_map),
    Op.MQSC: (str_arg,),
    Op.STAT: (),
    Op.CREDIT: (int_arg, int_arg),
    Op.PING: (),
    Op.SUB: (check_sd, int_arg),
    Op.SUBRQ: (int_arg, int_arg),
    Op.PUBLISH: (int_arg, check_md, int_arg, check_props, bytes_arg, int_arg, int_arg),  # PubLevel, Action
    Op.OFFSETS: (str_arg,),
    Op.BROWSE_RANGE: (str_arg, int_arg, int_arg, int_arg),
    Op.REMOVE_THROUGH: (str_arg, int_arg),
    Op.HEARTBEAT: (),
}

_FAST_CHECKS: Final[dict[Op, Callable[[list[Any]], list[Any]]]] = {}

PUSH_SHAPES: Final[dict[Op, tuple[Checker, ...]]] = {
    Op.PUSH_MSG: (int_arg, check_md, check_props, bytes_arg),
    Op.PUSH_MSGS: (lambda v: _check_push_batch(v),),
    Op.PUSH_ERROR: (int_arg, int_arg),
    Op.PUSH_HEARTBEAT: (),
}


def _check_push_batch(v: Any) -> list[Any]:
    return check_messages(v, allow_empty=False)


def _check_put(args: list[Any]) -> list[Any]:
    """PUT's shape, checked inline: it is most of the traffic (same rules as REQUEST_SHAPES)."""
    if len(args) != 5:
        return check_args(REQUEST_SHAPES[Op.PUT], args, "PUT")
    hobj, md, options, props, body = args
    if type(hobj) is not int or type(options) is not int or type(body) is not bytes:
        return check_args(REQUEST_SHAPES[Op.PUT], args, "PUT")  # names the bad argument
    check_md(md)
    if props:
        check_props(props)
    elif type(props) is not dict:
        raise Bad("properties must be a map")
    return args


def _check_get(args: list[Any]) -> list[Any]:
    """GET's shape, checked inline; a GMO with exactly the three known int fields is taken as is."""
    if len(args) == 4:
        hobj, match_ids, gmo, max_length = args
        if (type(hobj) is int and type(max_length) is int and type(gmo) is dict and len(gmo) == 3
                and type(gmo.get("Options")) is int and type(gmo.get("WaitInterval")) is int
                and type(gmo.get("MatchOptions")) is int):
            check_match_ids(match_ids)
            return args
    return check_args(REQUEST_SHAPES[Op.GET], args, "GET")


_FAST_CHECKS.update({Op.PUT: _check_put, Op.GET: _check_get})


# ---------------------------------------------------------------------------
# Pure encoders. Op values go in as plain ints: msgpack packs exact ints fastest.

# One Packer for the module: msgpack.packb builds a new one per call, which doubles its cost.
# Packer.pack never releases the GIL, so threads cannot interleave inside it.
_pack = msgpack.Packer(use_bin_type=True).pack
_REPLY: Final = int(Op.REPLY)
_PUT: Final = int(Op.PUT)
_GET: Final = int(Op.GET)
_CREDIT: Final = int(Op.CREDIT)
_PUSH_MSG: Final = int(Op.PUSH_MSG)
_PUSH_MSGS: Final = int(Op.PUSH_MSGS)
_PUSH_ERROR: Final = int(Op.PUSH_ERROR)


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


def encode_get(req_id: int, hobj: int, match_ids: list[bytes], gmo: dict[str, int], max_length: int) -> bytes:
    """A GET request: ``match_ids`` are the MsgId and CorrelId the GMO's MatchOptions may match."""
    return encode_frame([_GET, req_id, hobj, match_ids, gmo, max_length])


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


def encode_push_heartbeat() -> bytes:
    return encode_frame([int(Op.PUSH_HEARTBEAT)])


def encode_heartbeat() -> bytes:
    """The client's answer to a heartbeat (a request that is never replied to)."""
    return encode_frame([int(Op.HEARTBEAT), 0])


def in_conversation(conversation: int, data: bytes) -> bytes:
    """``data`` (whole plain frames, one or several back to back) as frames of ``conversation``:
    unchanged for conversation 0, else each frame's header replaced by the flagged one."""
    if conversation == 0:
        return data
    out = []
    pos, end = 0, len(data)
    while pos < end:
        size = _unpack_length(data, pos)[0]
        out.append(_conversation_header.pack(CONVERSATION_FLAG | size, conversation))
        out.append(data[pos + HEADER_SIZE:pos + HEADER_SIZE + size])
        pos += HEADER_SIZE + size
    return b"".join(out)


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
        args = fast(items[2:]) if fast is not None else check_args(REQUEST_SHAPES[op], items[2:], op.name)
    except Bad as e:
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
            args = check_args(PUSH_SHAPES[kind], items[1:], kind.name)
    except Bad as e:
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
        self.conversation = 0  # the conversation of the event last returned (or being decoded)

    def receive_data(self, data: bytes | bytearray | memoryview) -> None:
        """Buffer bytes read from the transport (``b""`` at end of stream is ignored); copied."""
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
        header = HEADER_SIZE
        shared = size & CONVERSATION_FLAG  # a shared conversation's frame: its number follows
        if shared:
            size &= MAX_CONVERSATION
        if size > self.max_frame:
            self._break(ProtocolError(MQRC_MSG_TOO_BIG_FOR_CHANNEL,
                                      f"frame of {size} bytes exceeds the limit of {self.max_frame}", fatal=True))
        if shared:
            if len(buf) - pos < CONVERSATION_HEADER_SIZE:
                return NEED_DATA
            conversation = _unpack_length(buf, pos + HEADER_SIZE)[0]
            if not 1 <= conversation <= MAX_CONVERSATION:  # 0 is the plain frames' number
                self._break(ProtocolError(MQRC_UNEXPECTED_ERROR, f"conversation number {conversation}", fatal=True))
            self.conversation = conversation
            header = CONVERSATION_HEADER_SIZE
        else:
            self.conversation = 0
        end = pos + header + size
        if len(buf) < end:
            return NEED_DATA
        payload = buf[pos + header:end]  # one copy, cheaper than a memoryview's bookkeeping
        self._consume(end)  # consumed even when malformed: the next frame is still in step
        return decode_payload(self.role, payload)

    def _break(self, error: ProtocolError) -> NoReturn:
        """The stream is out of step: drop what is buffered and refuse everything from now on."""
        self._broken = error
        self._buf = bytearray()
        self._pos = 0
        raise error

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
            check_args(REQUEST_SHAPES[op], args, op.name)
        except Bad as e:
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
