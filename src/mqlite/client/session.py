"""What a client connection is without its I/O: its state between calls, and the steps of a call.

Every MQI behaviour of the client is written once, as a *plan*: a generator that yields the I/O
it needs as steps and receives each step's outcome (sans-IO, in the style of h11). The blocking
connection (``sync.Connection.run``) and the asyncio one (``aio.AsyncConnection.run``) drive
the same plans; only how bytes move differs. The steps:

- ``Call(op, args)``: a request; the plan receives its reply as ``(cc, reason, result)``;
- ``Send(frame, linger)``: a frame without a reply (an asynchronous put, a credit grant);
  ``linger`` lets the blocking connection hold it a moment to send it with others;
- ``DRAIN``: take the pushes that have already arrived (the blocking connection reads them
  between calls; the asyncio one has a reader task, so for it this is nothing).

``Session`` is the state both connections keep the same way: what CONNECT answered, the
read-ahead buffers, the asynchronous puts and their reported failures.
"""

from __future__ import annotations

import itertools
import os
from collections import deque
from collections.abc import Generator
from dataclasses import dataclass, field
from typing import Any, TypeVar

from mqlite import cmqc
from mqlite.client.errors import MQMIError
from mqlite.protocol import native
from mqlite.protocol.native import Op, ProtocolError, Push, Reply
from mqlite.protocol.native_results import check_result

__all__ = ["DRAIN", "AsyncPuts", "Call", "Plan", "ReadAhead", "Send", "Session", "call", "checked", "raise_for"]

READ_AHEAD_WINDOW = 200
HEARTBEAT_ANSWER = native.encode_heartbeat()
T = TypeVar("T")


class Call(tuple[Op, list[Any]]):
    """A request, ``Call((op, args))``; the plan is sent the reply's ``(cc, reason, result)``.
    (A plain tuple: one is made per request, and a NamedTuple costs ten times as much to make.)"""

    __slots__ = ()

    @property
    def op(self) -> Op:
        return self[0]

    @property
    def args(self) -> list[Any]:
        return self[1]


class Send(tuple[bytes, bool]):
    """A frame that has no reply on success, ``Send((frame, linger))``; the plan is sent ``None``."""

    __slots__ = ()

    @property
    def frame(self) -> bytes:
        return self[0]

    @property
    def linger(self) -> bool:
        return self[1]


class _Drain:
    """Take the pushes already received, without waiting; the plan is sent ``None``."""

    def __repr__(self) -> str:
        return "DRAIN"


DRAIN = _Drain()
Step = Call | Send | _Drain
Plan = Generator[Step, Any, T]


def raise_for(cc: int, reason: int, result: Any = None) -> None:
    """Raise ``MQMIError`` for a warning or failure reply (the text the server gave is kept)."""
    if cc != cmqc.MQCC_OK:
        raise MQMIError(cc, reason, text=result if isinstance(result, str) else "")


def call(op: Op, args: list[Any]) -> Plan[Any]:
    """A request whose warning or failure raises ``MQMIError``: ``result = yield from call(...)``."""
    cc, reason, result = yield Call((op, args))
    if cc != cmqc.MQCC_OK:
        raise_for(cc, reason, result)
    return result


def checked(op: Op, reply: Reply) -> tuple[int, int, Any]:
    """A reply's code, reason and result, its result's shape checked when it has one to check
    (a success, or a GET warning/failure that still describes the message)."""
    result = reply.result
    if reply.cc == cmqc.MQCC_OK or (op is Op.GET and isinstance(result, list)):
        try:
            check_result(op, result)
        except ProtocolError as e:
            raise MQMIError(cmqc.MQCC_FAILED, e.reason, text=e.text) from None
    return reply.cc, reply.reason, result


@dataclass
class ReadAhead:
    """Messages the queue manager sent ahead of our gets for one handle, and our credit."""

    window: int = READ_AHEAD_WINDOW
    messages: deque[list[Any]] = field(default_factory=deque)
    taken: int = 0  # messages consumed since credit was last granted

    def take(self) -> list[Any] | None:
        if not self.messages:
            return None
        self.taken += 1
        return self.messages.popleft()

    def take_if_no_credit_due(self) -> list[Any] | None:
        """The next message, if there is one and taking it leaves no credit to grant yet."""
        if self.messages and self.taken + 1 < max(1, self.window // 2):
            self.taken += 1
            return self.messages.popleft()
        return None

    def credit_due(self) -> int:
        """Credit to grant now: in batches of half the window, so one CREDIT covers many gets."""
        if self.taken >= max(1, self.window // 2):
            due, self.taken = self.taken, 0
            return due
        return 0


class AsyncPuts:
    """Failures of asynchronous puts reported by PUSH_ERROR, and the ids the client made.

    IBM's client gives an asynchronous put its MsgId itself (the queue manager's answer
    never comes back), so the application still learns the id: so does this one.
    """

    def __init__(self) -> None:
        self.failures: deque[tuple[int, int]] = deque()  # (hobj, reason), oldest first
        self.in_syncpoint = False  # an asynchronous put was made in the current unit of work
        self._prefix = b"AMQ " + os.urandom(12)
        self._counter = itertools.count(1)

    def new_msg_id(self) -> bytes:
        return self._prefix + next(self._counter).to_bytes(8, "big")

    def failed(self, hobj: int, reason: int) -> None:
        self.failures.append((hobj, reason))

    def raise_pending(self) -> None:
        """Report the oldest unreported failure: raised by the next put on the connection.

        The put that raises was not sent, so the caller may simply retry it.
        """
        if self.failures:
            hobj, reason = self.failures.popleft()
            count = len(self.failures) + 1
            self.failures.clear()
            raise MQMIError(cmqc.MQCC_FAILED, reason, async_put=True, hobj=hobj, failures=count,
                            text=f"{count} asynchronous put(s) failed; this call was not made")


class Session:
    """A connection's state between calls, whichever way its bytes move (an MQ Hconn)."""

    def __init__(self) -> None:
        self.broken: MQMIError | None = None
        self.connected = False
        self.read_ahead: dict[int, ReadAhead] = {}
        self.async_puts = AsyncPuts()
        self.qmgr_name = self.user = self.conn_id = ""
        self.maxmsgl = 0
        self.ccsid = 1208

    def connected_as(self, info: dict[str, Any]) -> None:
        """Take in what CONNECT answered."""
        self.qmgr_name, self.user, self.conn_id = info["qmgr"], info["user"], info["conn_id"]
        self.maxmsgl, self.ccsid = info["maxmsgl"], info["ccsid"]
        self.connected = True

    def on_push(self, push: Push) -> bytes | None:
        """File read-ahead messages in their handles' buffers (a closed handle's late ones are
        dropped, as IBM does) and record asynchronous-put failures. Returns what to send back
        at once, if anything: the answer to the channel's heartbeat."""
        if push.kind is Op.PUSH_MSG:
            self._buffer([push.args])
        elif push.kind is Op.PUSH_MSGS:
            self._buffer(push.args[0])
        elif push.kind is Op.PUSH_ERROR:
            self.async_puts.failed(*push.args)
        elif push.kind is Op.PUSH_HEARTBEAT:
            return HEARTBEAT_ANSWER
        return None

    def _buffer(self, messages: list[list[Any]]) -> None:
        read_ahead = self.read_ahead
        for hobj, md, props, body in messages:
            buffer = read_ahead.get(hobj)
            if buffer is not None:
                buffer.messages.append([md, props, body])

    def start_read_ahead(self, hobj: int, window: int) -> Plan[None]:
        self.read_ahead[hobj] = ReadAhead(window)
        yield Send((native.encode_credit(hobj, window), False))

    def close_handle(self, hobj: int) -> None:
        """Forget a handle's read-ahead messages (IBM discards them at MQCLOSE)."""
        self.read_ahead.pop(hobj, None)

    def failure(self) -> MQMIError:
        """A fresh MQRC_CONNECTION_BROKEN for each caller (one exception object raised in
        many places would pile up every caller's traceback on it)."""
        broken = self.broken or MQMIError(cmqc.MQCC_FAILED, cmqc.MQRC_CONNECTION_BROKEN)
        return MQMIError(broken.comp, broken.reason, text=getattr(broken, "text", ""))
