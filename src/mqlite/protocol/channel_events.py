"""The message channel protocol's frames as value types (``protocol.channel`` is the connection).

One small frozen class per frame kind; ``as_list`` is the frame's msgpack array (the kind, then
the fields in order).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, ClassVar


class Kind(enum.IntEnum):
    """Frame kinds: 100..127, apart from the native protocol's 0..67."""

    HELLO = 100
    ACCEPT = 101
    REFUSE = 102
    STATUS = 103
    STATUS_REPLY = 104
    MSG = 105
    END_BATCH = 106
    CONFIRM = 107
    HEARTBEAT = 108
    HEARTBEAT_ACK = 109
    CLOSE = 110
    REQUEST = 111  # a requester (RQSTR) asks a server (SVR) to send: before, and outside, the conversation
    PING = 112  # PING CHANNEL: the sender's data, echoed by the receiver, instead of STATUS


_MSG = int(Kind.MSG)




# ---------------------------------------------------------------------------
# Events: one per frame kind, in the frame's field order.


class _Frame:
    """The events' base: ``as_list`` is the frame's msgpack array, the kind then the fields."""

    __slots__: tuple[str, ...] = ()
    kind: ClassVar[Kind]

    def as_list(self) -> list[Any]:
        return [self.kind.value, *(getattr(self, name) for name in self.__slots__)]


@dataclass(frozen=True, slots=True)
class Hello(_Frame):
    """The sender's offer; decoded, ``fields`` has every HELLO key (defaults filled in)."""

    kind: ClassVar[Kind] = Kind.HELLO
    fields: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Accept(_Frame):
    """The receiver's "yes": its queue manager name and the negotiated values."""

    kind: ClassVar[Kind] = Kind.ACCEPT
    fields: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Refuse(_Frame):
    """The receiver's "no" to a HELLO (an MQRC_* reason); the connection is over."""

    kind: ClassVar[Kind] = Kind.REFUSE
    reason: int
    text: str


@dataclass(frozen=True, slots=True)
class Status(_Frame):
    """The sender's sync state: last committed seq, and None or {"luwid": bytes, "seq": int}."""

    kind: ClassVar[Kind] = Kind.STATUS
    seq: int
    indoubt: dict[str, Any] | None
    reset: bool = False  # RESET CHANNEL on the sending end: the receiving end takes ``seq`` as its own

    def as_list(self) -> list[Any]:
        return [Kind.STATUS.value, {"seq": self.seq, "indoubt": self.indoubt, "reset": self.reset}]


@dataclass(frozen=True, slots=True)
class StatusReply(_Frame):
    """The receiver's last committed seq and that batch's luwid (None if it never committed one)."""

    kind: ClassVar[Kind] = Kind.STATUS_REPLY
    seq: int
    luwid: bytes | None

    def as_list(self) -> list[Any]:
        return [Kind.STATUS_REPLY.value, {"seq": self.seq, "luwid": self.luwid}]


@dataclass(slots=True)  # not frozen: a frozen dataclass's __init__ costs a microsecond per message
class Msg(_Frame):
    """One message of a batch; ``md`` is opaque here (the agent's MQMD list)."""

    kind: ClassVar[Kind] = Kind.MSG
    seq: int
    persistent: bool
    md: list[Any]
    props: dict[str, Any]
    body: bytes

    def as_list(self) -> list[Any]:  # the hot path: no getattr loop, no enum lookup
        return [_MSG, self.seq, self.persistent, self.md, self.props, self.body]


@dataclass(frozen=True, slots=True)
class EndBatch(_Frame):
    """The batch ends with MSG ``seq``; ``luwid`` names the batch (its unit of work)."""

    kind: ClassVar[Kind] = Kind.END_BATCH
    seq: int
    luwid: bytes


@dataclass(frozen=True, slots=True)
class Confirm(_Frame):
    """The receiver committed the batch (same seq and luwid as its END_BATCH)."""

    kind: ClassVar[Kind] = Kind.CONFIRM
    seq: int
    luwid: bytes


@dataclass(frozen=True, slots=True)
class Heartbeat(_Frame):
    """The idle sender asks whether the receiver is still there."""

    kind: ClassVar[Kind] = Kind.HEARTBEAT


@dataclass(frozen=True, slots=True)
class HeartbeatAck(_Frame):
    """The receiver's answer to a HEARTBEAT."""

    kind: ClassVar[Kind] = Kind.HEARTBEAT_ACK


@dataclass(frozen=True, slots=True)
class Close(_Frame):
    """The end of the connection: reason 0 is a normal end, anything else an error end."""

    kind: ClassVar[Kind] = Kind.CLOSE
    reason: int
    text: str


@dataclass(frozen=True, slots=True)
class Ping(_Frame):
    """PING CHANNEL's data (DATALEN bytes), sent after ACCEPT; the receiver sends the same back."""

    kind: ClassVar[Kind] = Kind.PING
    data: bytes


Event = (Hello | Accept | Refuse | Status | StatusReply | Msg | EndBatch | Confirm | Heartbeat | HeartbeatAck | Close
         | Ping)
