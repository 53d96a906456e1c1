"""The message channel protocol's frames as value types (``protocol.channel`` is the connection).

One small frozen class per frame kind; ``as_list`` is the frame's msgpack array (the kind, then
the fields in order).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any


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
    """The events' base: ``kind`` is the frame's kind, ``as_list`` its msgpack array (the kind,
    then the fields in order). Written per class, not read from class variables: mypyc compiles
    this module, and its dataclasses take a ClassVar for a field."""

    @property
    def kind(self) -> Kind:
        raise NotImplementedError

    def as_list(self) -> list[Any]:
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class Hello(_Frame):
    """The sender's offer; decoded, ``fields`` has every HELLO key (defaults filled in)."""

    fields: dict[str, Any]

    @property
    def kind(self) -> Kind:
        return Kind.HELLO

    def as_list(self) -> list[Any]:
        return [Kind.HELLO.value, self.fields]


@dataclass(frozen=True, slots=True)
class Accept(_Frame):
    """The receiver's "yes": its queue manager name and the negotiated values."""

    fields: dict[str, Any]

    @property
    def kind(self) -> Kind:
        return Kind.ACCEPT

    def as_list(self) -> list[Any]:
        return [Kind.ACCEPT.value, self.fields]


@dataclass(frozen=True, slots=True)
class Refuse(_Frame):
    """The receiver's "no" to a HELLO (an MQRC_* reason); the connection is over."""

    reason: int
    text: str

    @property
    def kind(self) -> Kind:
        return Kind.REFUSE

    def as_list(self) -> list[Any]:
        return [Kind.REFUSE.value, self.reason, self.text]


@dataclass(frozen=True, slots=True)
class Status(_Frame):
    """The sender's sync state: last committed seq, and None or {"luwid": bytes, "seq": int}."""

    seq: int
    indoubt: dict[str, Any] | None
    reset: bool = False  # RESET CHANNEL on the sending end: the receiving end takes ``seq`` as its own

    @property
    def kind(self) -> Kind:
        return Kind.STATUS

    def as_list(self) -> list[Any]:
        return [Kind.STATUS.value, {"seq": self.seq, "indoubt": self.indoubt, "reset": self.reset}]


@dataclass(frozen=True, slots=True)
class StatusReply(_Frame):
    """The receiver's last committed seq and that batch's luwid (None if it never committed one)."""

    seq: int
    luwid: bytes | None

    @property
    def kind(self) -> Kind:
        return Kind.STATUS_REPLY

    def as_list(self) -> list[Any]:
        return [Kind.STATUS_REPLY.value, {"seq": self.seq, "luwid": self.luwid}]


@dataclass(slots=True, init=False)  # one per message: not frozen, and its __init__ written out (compiled)
class Msg(_Frame):
    """One message of a batch; ``md`` is opaque here (the agent's MQMD list)."""

    seq: int
    persistent: bool
    md: list[Any]
    props: dict[str, Any]
    body: bytes

    def __init__(self, seq: int, persistent: bool, md: list[Any], props: dict[str, Any], body: bytes) -> None:
        self.seq = seq
        self.persistent = persistent
        self.md = md
        self.props = props
        self.body = body

    @property
    def kind(self) -> Kind:
        return Kind.MSG

    def as_list(self) -> list[Any]:  # the hot path: no getattr loop, no enum lookup
        return [_MSG, self.seq, self.persistent, self.md, self.props, self.body]


@dataclass(frozen=True, slots=True)
class EndBatch(_Frame):
    """The batch ends with MSG ``seq``; ``luwid`` names the batch (its unit of work)."""

    seq: int
    luwid: bytes

    @property
    def kind(self) -> Kind:
        return Kind.END_BATCH

    def as_list(self) -> list[Any]:
        return [Kind.END_BATCH.value, self.seq, self.luwid]


@dataclass(frozen=True, slots=True)
class Confirm(_Frame):
    """The receiver committed the batch (same seq and luwid as its END_BATCH)."""

    seq: int
    luwid: bytes

    @property
    def kind(self) -> Kind:
        return Kind.CONFIRM

    def as_list(self) -> list[Any]:
        return [Kind.CONFIRM.value, self.seq, self.luwid]


@dataclass(frozen=True, slots=True)
class Heartbeat(_Frame):
    """The idle sender asks whether the receiver is still there."""

    @property
    def kind(self) -> Kind:
        return Kind.HEARTBEAT

    def as_list(self) -> list[Any]:
        return [Kind.HEARTBEAT.value]


@dataclass(frozen=True, slots=True)
class HeartbeatAck(_Frame):
    """The receiver's answer to a HEARTBEAT."""

    @property
    def kind(self) -> Kind:
        return Kind.HEARTBEAT_ACK

    def as_list(self) -> list[Any]:
        return [Kind.HEARTBEAT_ACK.value]


@dataclass(frozen=True, slots=True)
class Close(_Frame):
    """The end of the connection: reason 0 is a normal end, anything else an error end."""

    reason: int
    text: str

    @property
    def kind(self) -> Kind:
        return Kind.CLOSE

    def as_list(self) -> list[Any]:
        return [Kind.CLOSE.value, self.reason, self.text]


@dataclass(frozen=True, slots=True)
class Ping(_Frame):
    """PING CHANNEL's data (DATALEN bytes), sent after ACCEPT; the receiver sends the same back."""

    data: bytes

    @property
    def kind(self) -> Kind:
        return Kind.PING

    def as_list(self) -> list[Any]:
        return [Kind.PING.value, self.data]


Event = (Hello | Accept | Refuse | Status | StatusReply | Msg | EndBatch | Confirm | Heartbeat | HeartbeatAck | Close
         | Ping)
