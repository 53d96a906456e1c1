"""The message channel protocol: one sender/receiver channel connection, without any I/O.

Sans-IO in the style of h11: bytes go in with ``receive_data``, events come out of
``next_event``; events go in with ``send`` and bytes come out. No sockets, no clock: the
channel agent above owns the socket, the timers (HBINT, retries) and the sync state.

Framing is the native protocol's (``mqlite.protocol.native``): a 4-byte big-endian length,
then a msgpack array (``use_bin_type=True``: ``str`` and ``bytes`` stay apart). The first
item is the frame kind, 100..127, so that a listener shared with the native client
protocol (kinds 0..67) tells a channel from a client by its first frame (``is_channel_start``).

The conversation (SENDER is the end that sends the messages, RECEIVER the one that commits them)::

    SENDER                                RECEIVER
    HELLO(fields)             ->                            the sender's offer
                              <-  ACCEPT(fields) | REFUSE   negotiated values (``negotiate``)
    STATUS(seq, indoubt)      ->                            the sender's sync state
                              <-  STATUS_REPLY(seq, luwid)  the receiver's last committed batch
    MSG(seq, ...) x n         ->                            one batch, seq +1 each (wrapping)
    END_BATCH(seq, luwid)     ->
                              <-  CONFIRM(seq, luwid)       the batch is committed
    (with PIPELINE 2, the next batch's MSGs and END_BATCH may go before that CONFIRM:
     at most two batches await CONFIRM, confirmed in order)
    HEARTBEAT                 ->                            only between batches
                              <-  HEARTBEAT_ACK
    CLOSE(reason, text)      <->  CLOSE(reason, text)       either side, any time: the end

PING CHANNEL is a conversation of its own: HELLO, ACCEPT, then PING(data) from the sender instead
of STATUS; the receiver answers PING with the same data, and the sender CLOSEs. It tests what a
real start tests (the address, TLS, the partner's definition and channel authentication) and
changes no sequence number.

Both ends track the same shared state from the frames of both directions: ``TRANSITIONS``
maps (role of the frame's sender, state, kind) to the next state, and is the only place
where states change. A heartbeat is a question and an answer: the sender waits for
HEARTBEAT_ACK (state ``HEARTBEAT_ACK``) before it starts a batch, so the answer can never
cross a MSG on the wire.

Sequence numbers: the connection does not decide where a batch starts (the agent compares
the first MSG with its sync state, using ``next_seq``); it checks that each later MSG of a
batch is the previous one's ``next_seq`` (and the first MSG of a batch sent before the last
one's CONFIRM, the last one's ``next_seq``), that END_BATCH names the batch's last MSG, that a
batch has at most the negotiated BATCHSZ messages, and that CONFIRM names the oldest batch ended.

PIPELINE (IBM's qm.ini ``CHANNELS: PipeLineLength``, 1 or 2, the lower of the two ends; a
HELLO or ACCEPT without it means 1): how many ended batches may await CONFIRM at once. With 2
the sender moves the next batch while the receiver commits the last, so neither waits for the
other's disk.

HELLO keys this version does not know are dropped (a later ``version`` may add some). Once
CLOSED, stop reading: a frame after it (even the peer's own CLOSE, crossing ours) is an error.

Errors are ``ProtocolError(reason, text)`` with IBM reason codes. Bad input from the peer is
fatal (``fatal=True``): the connection is broken, its state becomes CLOSED, and every later
call raises the same error. The receiver never trusts the sender (and the sender checks the
receiver's answers too):

- ``MQRC_MSG_TOO_BIG_FOR_CHANNEL`` (2218): a length prefix above ``max_frame``, raised as
  soon as the 4 prefix bytes are seen;
- ``MQRC_UNEXPECTED_ERROR`` (2195): a frame that is not msgpack, not an array, of unknown
  kind or wrong shape ("malformed ..."), a frame not allowed in the current state, or a
  sequence error (text starting ``AMQ9526E: Message sequence number error``).

Sending what this end may not send now raises ``LocalProtocolError`` (same reasons, not
fatal) and changes nothing.
"""

from __future__ import annotations

import enum
import struct
from collections.abc import Mapping
from typing import Any, Final, NoReturn

import msgpack

from mqlite import cmqc as C
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
from mqlite.protocol.channel_shapes import (
    HELLO_DEFAULTS,
    NO_DEFAULTS,
    REQUEST_SPEC,
    check_accept,
    check_msg,
    checked_fields,
    decode,
    from_items,
)
from mqlite.protocol.channel_shapes import Bad as _Bad
from mqlite.protocol.native import NEED_DATA
from mqlite.protocol.native import NeedData as _NeedData  # one "no whole frame yet" sentinel for both

__all__ = [
    "NEED_DATA",
    "TRANSITIONS",
    "Accept",
    "ChannelConnection",
    "Close",
    "Confirm",
    "EndBatch",
    "Event",
    "Heartbeat",
    "HeartbeatAck",
    "Hello",
    "Kind",
    "LocalProtocolError",
    "Msg",
    "Ping",
    "ProtocolError",
    "Refuse",
    "Role",
    "State",
    "Status",
    "StatusReply",
    "is_channel_start",
    "negotiate",
    "next_seq",
]

# 100 MB (MQ's largest MAXMSGL) plus room for the descriptor and properties, as in native.py.
DEFAULT_MAX_FRAME: Final = 104_857_600 + 65536
HEADER_SIZE: Final = 4
SEQUENCE_ERROR: Final = "AMQ9526E: Message sequence number error"
# Compact the receive buffer once this many consumed bytes sit at its front.
_COMPACT_AT = 65536
_unpack_length = struct.Struct(">I").unpack_from
# One Packer for the module: msgpack.packb builds a new one per call (see native.py).
_pack = msgpack.Packer(use_bin_type=True).pack


class Role(enum.Enum):
    """Which end of the channel this object speaks for (also: who sent a frame)."""

    SENDER = "sender"
    RECEIVER = "receiver"

    __hash__ = object.__hash__  # members are singletons: Enum's hash of the name costs every lookup


class State(enum.Enum):
    """The connection's shared state; each waiting state is named after the frame it waits for."""

    __hash__ = object.__hash__  # as Role's: each frame looks the table up

    HELLO = "hello"  # nothing yet
    ACCEPTING = "accepting"  # HELLO seen, waiting for ACCEPT or REFUSE
    STATUS = "status"  # accepted, waiting for STATUS
    STATUS_REPLY = "status_reply"  # STATUS seen, waiting for STATUS_REPLY
    RUNNING = "running"  # no batch open
    IN_BATCH = "in_batch"  # at least one MSG of the batch seen, END_BATCH not yet
    CONFIRMING = "confirming"  # END_BATCH seen, waiting for CONFIRM
    IN_BATCH_CONFIRMING = "in_batch_confirming"  # PIPELINE 2: a batch open, the one before it awaits CONFIRM
    CONFIRMING_TWO = "confirming_two"  # PIPELINE 2: two batches ended, both await CONFIRM
    HEARTBEAT_ACK = "heartbeat_ack"  # HEARTBEAT seen, waiting for HEARTBEAT_ACK
    PINGING = "pinging"  # PING seen, waiting for the receiver's echo
    CLOSED = "closed"  # after REFUSE or CLOSE (or a fatal error)


_S, _R = Role.SENDER, Role.RECEIVER
# (who sent the frame, state, kind) -> next state. Anything not here is a protocol error.
TRANSITIONS: Final[Mapping[tuple[Role, State, Kind], State]] = {
    (_S, State.HELLO, Kind.HELLO): State.ACCEPTING,
    (_R, State.ACCEPTING, Kind.ACCEPT): State.STATUS,
    (_R, State.ACCEPTING, Kind.REFUSE): State.CLOSED,
    (_S, State.STATUS, Kind.STATUS): State.STATUS_REPLY,
    (_R, State.STATUS_REPLY, Kind.STATUS_REPLY): State.RUNNING,
    (_S, State.RUNNING, Kind.MSG): State.IN_BATCH,
    (_S, State.IN_BATCH, Kind.MSG): State.IN_BATCH,
    (_S, State.IN_BATCH, Kind.END_BATCH): State.CONFIRMING,
    (_R, State.CONFIRMING, Kind.CONFIRM): State.RUNNING,
    # PIPELINE 2 only (``_advance`` refuses these otherwise): the next batch before the CONFIRM.
    (_S, State.CONFIRMING, Kind.MSG): State.IN_BATCH_CONFIRMING,
    (_S, State.IN_BATCH_CONFIRMING, Kind.MSG): State.IN_BATCH_CONFIRMING,
    (_S, State.IN_BATCH_CONFIRMING, Kind.END_BATCH): State.CONFIRMING_TWO,
    (_R, State.IN_BATCH_CONFIRMING, Kind.CONFIRM): State.IN_BATCH,
    (_R, State.CONFIRMING_TWO, Kind.CONFIRM): State.CONFIRMING,
    (_S, State.RUNNING, Kind.HEARTBEAT): State.HEARTBEAT_ACK,
    (_R, State.HEARTBEAT_ACK, Kind.HEARTBEAT_ACK): State.RUNNING,
    (_S, State.STATUS, Kind.PING): State.PINGING,
    (_R, State.PINGING, Kind.PING): State.STATUS,
    # Either side may end the connection at any time before it is over.
    **{(role, state, Kind.CLOSE): State.CLOSED for role in Role for state in State if state is not State.CLOSED},
}


class ProtocolError(Exception):
    """Bad input. ``fatal`` means the connection is broken: close the socket."""

    def __init__(self, reason: int, text: str, *, fatal: bool = False) -> None:
        super().__init__(reason, text)
        self.reason = reason
        self.text = text
        self.fatal = fatal

    def __str__(self) -> str:
        return f"{self.text} (reason {self.reason})"


class LocalProtocolError(ProtocolError):
    """This end tried to send what it may not send now; nothing was sent or changed."""


# ---------------------------------------------------------------------------
# Pure helpers.


def is_channel_start(data: bytes) -> bool:
    """Whether ``data`` begins with a HELLO (or a requester's REQUEST) frame: length, msgpack
    fixarray header, fixint 100 (111)."""
    return len(data) >= 6 and 0x90 <= data[4] <= 0x9F and data[5] in (Kind.HELLO, Kind.REQUEST)


def encode_request(channel: str, qmgr: str) -> bytes:
    """A requester's first frame: "channel, start sending to me" (RQSTR to SVR). The conversation
    that follows is the usual one, the server sending HELLO as the sender."""
    return encode_frame([Kind.REQUEST.value, {"channel": channel, "qmgr": qmgr}])


def decode_request(data: bytes) -> tuple[dict[str, str], int] | None:
    """A REQUEST frame at the start of ``data``: its fields and its length, None when more bytes
    are needed; ``ProtocolError`` (fatal) when it is not one."""
    if len(data) < HEADER_SIZE:
        return None
    size = _unpack_length(data, 0)[0]
    if size > 4096:
        raise ProtocolError(C.MQRC_UNEXPECTED_ERROR, f"REQUEST frame of {size} bytes", fatal=True)
    if len(data) < HEADER_SIZE + size:
        return None
    try:
        items = msgpack.unpackb(data[HEADER_SIZE:HEADER_SIZE + size], use_list=True, raw=False)
        fields = checked_fields(Kind.REQUEST, items[1], REQUEST_SPEC, NO_DEFAULTS)
        if len(items) != 2 or items[0] != Kind.REQUEST:
            raise _Bad("malformed REQUEST")
    except (_Bad, ValueError, TypeError, IndexError, msgpack.UnpackException) as e:
        raise ProtocolError(C.MQRC_UNEXPECTED_ERROR, f"malformed REQUEST: {e}", fatal=True) from None
    return fields, HEADER_SIZE + size


def next_seq(seq: int, seqwrap: int) -> int:
    """The sequence number after ``seq`` (0 <= seq <= seqwrap): after ``seqwrap`` comes 1."""
    return 1 if seq >= seqwrap else seq + 1


def negotiate(hello_fields: Mapping[str, Any], local_attrs: Mapping[str, Any]) -> dict[str, Any] | None:
    """The values a receiver answers a HELLO with (IBM's rules), or None: SEQWRAP differs, refuse.

    ``local_attrs`` are the receiving channel's batchsz, maxmsgl, hbint, npmspeed and seqwrap
    and pipeline (missing ones take ``HELLO_DEFAULTS``). Lower batchsz, maxmsgl (0: the other
    end's) and pipeline, higher hbint, FAST only if both are FAST, equal seqwrap. The caller adds
    ``"qmgr"``.
    """
    def both(name: str) -> tuple[Any, Any]:
        return hello_fields.get(name, HELLO_DEFAULTS[name]), local_attrs.get(name, HELLO_DEFAULTS[name])

    theirs, ours = both("seqwrap")
    if theirs != ours:
        return None
    offered, allowed = both("maxmsgl")
    return {
        "batchsz": min(both("batchsz")),
        "maxmsgl": min(offered, allowed) if offered and allowed else offered or allowed,  # 0: the other end's
        "hbint": max(both("hbint")),
        "npmspeed": "FAST" if both("npmspeed") == ("FAST", "FAST") else "NORMAL",
        "seqwrap": ours,
        "pipeline": min(both("pipeline")),
    }


def encode_frame(items: list[Any]) -> bytes:
    """One frame: length prefix and the msgpack array of ``items`` (no checks: see ``send``)."""
    payload: bytes = _pack(items)
    return len(payload).to_bytes(4, "big") + payload


_MSG: Final = int(Kind.MSG)

# ---------------------------------------------------------------------------
# The connection.


class ChannelConnection:
    """One end of a message channel connection: a byte buffer, the state and the batch rules."""

    def __init__(self, role: Role, max_frame: int = DEFAULT_MAX_FRAME) -> None:
        self.role = role
        self.peer = Role.RECEIVER if role is Role.SENDER else Role.SENDER
        self.max_frame = max_frame
        self.state = State.HELLO
        self.hello: dict[str, Any] | None = None  # the HELLO's fields (sent or received)
        self.negotiated: dict[str, Any] | None = None  # the ACCEPT's fields
        self.error: ProtocolError | None = None  # the fatal error that broke the connection
        self._batch_size = 0  # MSGs in the open batch
        self._last_seq = 0  # seq of the open batch's last MSG
        self._unconfirmed: tuple[tuple[int, bytes], ...] = ()  # (seq, luwid) of each END_BATCH awaiting CONFIRM
        self._buf = bytearray()
        self._pos = 0
        # The negotiated values the batch rules use (HELLO_DEFAULTS until ACCEPT), kept as ints:
        # each MSG checks them.
        self.seqwrap = int(HELLO_DEFAULTS["seqwrap"])
        self.batchsz = int(HELLO_DEFAULTS["batchsz"])
        self.pipeline = int(HELLO_DEFAULTS["pipeline"])

    @property
    def buffered(self) -> int:
        """Bytes received and not yet turned into events."""
        return len(self._buf) - self._pos

    def receive_data(self, data: bytes) -> None:
        """Buffer bytes read from the transport (``b""`` at end of stream is ignored)."""
        if self.error is not None:
            raise self.error
        self._buf += data

    def next_event(self) -> Event | _NeedData:
        """The next complete frame from the peer as an event, or ``NEED_DATA``."""
        if self.error is not None:
            raise self.error
        buf, pos = self._buf, self._pos
        if len(buf) - pos < HEADER_SIZE:
            return NEED_DATA
        size: int = _unpack_length(buf, pos)[0]
        if size > self.max_frame:  # before buffering it: a bad prefix must not make us wait for 4 GB
            self._break(C.MQRC_MSG_TOO_BIG_FOR_CHANNEL, f"frame of {size} bytes exceeds the limit of {self.max_frame}")
        end = pos + HEADER_SIZE + size
        if len(buf) < end:
            return NEED_DATA
        payload = buf[pos + HEADER_SIZE:end]  # one copy (msgpack reads a bytearray as well)
        self._consume(end)
        try:
            event = decode(payload)
            self._advance(self.peer, event)
        except _Bad as e:
            self._break(C.MQRC_UNEXPECTED_ERROR, str(e))
        return event

    def send(self, event: Event) -> bytes:
        """The frame of ``event``, if this end may send it now; the state moves on."""
        if type(event) is Msg:
            return self.send_msg(event.seq, event.persistent, event.md, event.props, event.body)
        if self.error is not None:
            raise self.error
        try:
            checked = from_items(event.as_list())  # the same shape rules as for received frames
            data = self._frame(checked.kind, checked.as_list())  # a HELLO goes with its defaults filled in
            self._advance(self.role, checked)  # last: it changes the state only if every check passed
        except _Bad as e:
            raise LocalProtocolError(C.MQRC_UNEXPECTED_ERROR, str(e)) from None
        return data

    def send_msg(self, seq: int, persistent: bool, md: list[Any], props: dict[str, Any], body: bytes) -> bytes:
        """``send(Msg(seq, persistent, md, props, body))`` without making the event: a sender's
        every message."""
        if self.error is not None:
            raise self.error
        try:
            check_msg(seq, persistent, md, props, body)
            data = self._frame(Kind.MSG, [_MSG, seq, persistent, md, props, body])
            self._advance_msg(self.role, seq)
        except _Bad as e:
            raise LocalProtocolError(C.MQRC_UNEXPECTED_ERROR, str(e)) from None
        return data

    def _frame(self, kind: Kind, items: list[Any]) -> bytes:
        try:
            data = encode_frame(items)
        except (TypeError, ValueError, OverflowError) as e:  # e.g. a set in md, an int above 2**64
            raise _Bad(f"cannot encode {kind.name}: {e}") from None
        if len(data) - HEADER_SIZE > self.max_frame:
            raise LocalProtocolError(C.MQRC_MSG_TOO_BIG_FOR_CHANNEL,
                                     f"frame of {len(data) - HEADER_SIZE} bytes exceeds {self.max_frame}")
        return data

    def _advance(self, by: Role, event: Event) -> None:
        """Check ``event`` sent by ``by`` against the table and the batch rules, then apply it.

        Raises ``_Bad`` having changed nothing.
        """
        if type(event) is Msg:  # first: nearly every frame is one
            self._advance_msg(by, event.seq)
            return
        state = self.state
        new = TRANSITIONS.get((by, state, event.kind))
        if new is None:
            raise _Bad(f"unexpected {event.kind.name} from the {by.value} in state {state.name}")
        hello, negotiated, seqwrap = self.hello, self.negotiated, self.seqwrap
        batch_size, unconfirmed = self._batch_size, self._unconfirmed
        if isinstance(event, Hello):
            hello = event.fields
        elif isinstance(event, Accept):
            assert hello is not None  # ACCEPTING comes only after HELLO
            check_accept(hello, event.fields)
            negotiated = event.fields
        elif isinstance(event, Status):
            if event.seq > seqwrap or (event.indoubt is not None and event.indoubt["seq"] > seqwrap):
                raise _Bad(f"{SEQUENCE_ERROR}: STATUS seq above SEQWRAP {seqwrap}")
        elif isinstance(event, StatusReply):
            if event.seq > seqwrap:
                raise _Bad(f"{SEQUENCE_ERROR}: STATUS_REPLY seq {event.seq} above SEQWRAP {seqwrap}")
        elif isinstance(event, EndBatch):
            if event.seq != self._last_seq:
                raise _Bad(f"{SEQUENCE_ERROR}: END_BATCH seq {event.seq}, the batch's last MSG is {self._last_seq}")
            batch_size, unconfirmed = 0, (*unconfirmed, (event.seq, event.luwid))
        elif isinstance(event, Confirm):
            if not unconfirmed or (event.seq, event.luwid) != unconfirmed[0]:
                raise _Bad(f"CONFIRM of seq {event.seq} does not match the oldest END_BATCH awaiting one "
                           f"{unconfirmed[:1]}")
            unconfirmed = unconfirmed[1:]
        # Every check passed: apply.
        self.state, self.hello, self._batch_size, self._unconfirmed = new, hello, batch_size, unconfirmed
        if negotiated is not None and negotiated is not self.negotiated:
            self.negotiated = negotiated
            self.seqwrap, self.batchsz = int(negotiated["seqwrap"]), int(negotiated["batchsz"])
            self.pipeline = int(negotiated.get("pipeline", 1))

    def _advance_msg(self, by: Role, seq: int) -> None:
        """``_advance`` for a MSG of ``seq``: the table, the sequence and BATCHSZ."""
        state = self.state
        new = TRANSITIONS.get((by, state, Kind.MSG))
        if new is None:
            raise _Bad(f"unexpected MSG from the {by.value} in state {state.name}")
        last_seq, seqwrap = self._last_seq, self.seqwrap
        if seq > seqwrap:
            raise _Bad(f"{SEQUENCE_ERROR}: MSG seq {seq} above SEQWRAP {seqwrap}")
        if state is not State.RUNNING:
            if state is State.CONFIRMING and self.pipeline < 2:
                raise _Bad(f"MSG before the CONFIRM of the last batch (PIPELINE {self.pipeline})")
            if seq != (1 if last_seq >= seqwrap else last_seq + 1):
                raise _Bad(f"{SEQUENCE_ERROR}: MSG seq {seq} after {last_seq}, "
                           f"expected {next_seq(last_seq, seqwrap)}")
        if self._batch_size >= self.batchsz:
            raise _Bad(f"batch longer than the negotiated BATCHSZ {self.batchsz}")
        self.state = new
        self._batch_size += 1
        self._last_seq = seq

    def _break(self, reason: int, text: str) -> NoReturn:
        """The peer broke the protocol: drop what is buffered and refuse everything from now on."""
        self.error = ProtocolError(reason, text, fatal=True)
        self.state = State.CLOSED
        self._buf = bytearray()
        self._pos = 0
        raise self.error

    def _consume(self, end: int) -> None:
        if end == len(self._buf):
            self._buf.clear()
            self._pos = 0
        elif end >= _COMPACT_AT:
            del self._buf[:end]
            self._pos = 0
        else:
            self._pos = end
