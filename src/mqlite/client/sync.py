"""The blocking client connection: one conversation on a socket, pipelined requests, pushes buffered.

A synchronous call sends its request and reads frames until its own reply arrives;
asynchronous puts and credit grants are sent without waiting (the protocol guarantees no
reply on success), so thousands can be in flight. Frames that arrive meanwhile are pushes:
read-ahead messages go to their handle's buffer, asynchronous-put failures to the
connection's record. A lock makes one connection safe to share between threads, one call at
a time, as MQ's own shared connection handles are. ``Connection.run`` carries out the calls of
``mqlite.client.mqi`` on the calling thread: no thread or event-loop hop per call.

Connections of one process to the same channel share a socket when the channel allows it
(SHARECNV, negotiated with the CD's SharingConversations): ``mqlite.client.link``.
"""

from __future__ import annotations

import os
import socket
import threading
from collections import deque
from typing import Any, TypeVar

from mqlite import cmqc
from mqlite.client import link as link_registry
from mqlite.client import tls as client_tls
from mqlite.client.common import Endpoint, Target, appl_name
from mqlite.client.errors import MQMIError
from mqlite.client.link import Link
from mqlite.client.session import Call, Plan, Send, Session, Step, call, checked
from mqlite.client.tls_stream import TlsStream
from mqlite.protocol import native
from mqlite.protocol.native import Op, Push, Reply

__all__ = ["Connection", "open_socket"]

T = TypeVar("T")

_DRAIN_EVERY = 64  # asynchronous sends between two non-blocking looks at incoming pushes
# Asynchronous puts are coalesced: one sendall per burst instead of one per message, so the
# queue manager also gets them in large reads. A burst goes out when it reaches these sizes,
# before any synchronous call, or after lingering this long (a background flusher sees to it).
_COALESCE_BYTES = 64 * 1024
_COALESCE_FRAMES = 256
_LINGER_SECONDS = 0.002


def open_socket(endpoint: Endpoint, timeout: float | None = 30.0) -> socket.socket:
    """A connected socket, or MQMIError: 2059 when a local queue manager is not running,
    2538 (MQRC_HOST_NOT_AVAILABLE) when nothing answers at a TCP address."""
    if endpoint.unix is not None:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.settimeout(timeout)
            sock.connect(endpoint.unix)
        except OSError as e:
            sock.close()
            raise MQMIError(cmqc.MQCC_FAILED, cmqc.MQRC_Q_MGR_NOT_AVAILABLE, text=str(e)) from None
        sock.settimeout(None)
        return sock
    try:
        sock = socket.create_connection((endpoint.host or "127.0.0.1", endpoint.port), timeout=timeout)
    except OSError as e:
        raise MQMIError(cmqc.MQCC_FAILED, cmqc.MQRC_HOST_NOT_AVAILABLE, text=str(e)) from None
    sock.settimeout(None)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


class Connection(Session):
    """One blocking connection to a queue manager (an MQ connection handle, Hconn)."""

    def __init__(self, target: Target, user: str | None = None, password: str | None = None,
                 name: str | None = None, timeout: float | None = 30.0) -> None:
        super().__init__()
        self.target = target
        self._unclosed: deque[int] = deque()  # handles of queues collected while open (close_later)
        shared = None if target.local else link_registry.join(target)
        if shared is not None:  # a conversation on a socket this process already has (SHARECNV)
            self._link, self._number = shared
        else:
            self._link, self._number = Link(self._open(target, timeout)), 0
        self._start(target, user, password, name)
        if self.broken is not None and shared is not None:
            # The shared socket had died unnoticed (a queue manager restarted under it): start
            # on a socket of its own.
            self.broken = None
            self._link, self._number = Link(self._open(target, timeout)), 0
            self._start(target, user, password, name)
        if self.broken is not None:
            raise self.failure()

    def _start(self, target: Target, user: str | None, password: str | None, name: str | None) -> None:
        """Connect this conversation: MQMIError for a refusal; ``broken`` set when the socket failed."""
        self._lock = threading.RLock()
        self._pending: list[bytes] = []  # coalesced frames not yet sent
        self._pending_size = 0
        self._flush_wakeup = threading.Condition(self._lock)
        self._flusher: threading.Thread | None = None
        self._next_id = 1
        self._sends = 0
        try:
            info = self.call(Op.CONNECT, [target.qmgr, user, password, name or appl_name(), os.getpid(),
                                          target.channel_definition()])
        except MQMIError as e:
            link_registry.leave(self._link, self._number)
            if self.broken is not None and self._number:
                return  # the caller tries again on a new socket
            raise client_tls.connect_failure(e, None if target.local else target.tls) from None
        self.connected_as(info)
        if self._number == 0 and not target.local:
            link_registry.shareable(self._link, target, int(info.get("sharecnv", 0)))

    @staticmethod
    def _open(target: Target, timeout: float | None) -> socket.socket | TlsStream:
        error: MQMIError | None = None
        sock: socket.socket | TlsStream
        for endpoint in target.endpoints:  # a CONNAME list: the first that answers
            try:
                sock = open_socket(endpoint, timeout)
                break
            except MQMIError as e:
                error = e
        else:
            raise error or MQMIError(cmqc.MQCC_FAILED, cmqc.MQRC_Q_MGR_NOT_AVAILABLE)
        if target.tls is not None and not target.local:
            sock = client_tls.wrap(sock, target.tls, target.channel)
        return sock

    @property
    def conversation(self) -> int:
        """Its number on its socket: 0 for the socket's first, more when it shares one (SHARECNV)."""
        return self._number

    # -- calls ---------------------------------------------------------------------------------
    def run(self, plan: Plan[T]) -> T:
        """Carry out a call's plan (``mqlite.client.session``) and return its result."""
        try:
            step = next(plan)
            while True:
                if type(step) is Call:  # most steps: no second call for them
                    step = plan.send(self.request(step[0], step[1]))
                else:
                    step = plan.send(self.perform(step))
        except StopIteration as done:
            result: T = done.value
            return result

    def perform(self, step: Step) -> tuple[int, int, Any] | None:
        """One step: a request's reply; ``None`` for a frame sent, or pushes drained."""
        if type(step) is Call:
            return self.request(step[0], step[1])
        if type(step) is Send:
            self.send(step[0], step[1])
        else:
            self.take_pushes()
        return None

    def call(self, op: Op, args: list[Any]) -> Any:
        """A synchronous call: its result, or MQMIError for a warning or failure."""
        return self.run(call(op, args))

    def request(self, op: Op, args: list[Any]) -> tuple[int, int, Any]:
        """A synchronous call's completion code, reason and result, without raising for them."""
        with self._lock:
            if self._unclosed:
                self._queue_closes()
            req_id = self._next_id
            self._next_id = req_id + 1 if req_id < 0x7FFFFFFF else 1
            self._send(native.encode_request(op, req_id, args))
            reply = self._wait_reply(req_id)
        return checked(op, reply)

    def close_later(self, hobj: int) -> None:
        """MQCLOSE ``hobj`` before this connection's next call: for a ``Queue`` collected while
        open (pymqi's ``Queue.__del__`` closes it). A finaliser can run in the middle of another
        call on this thread, so it only notes the handle; ``request`` sends the MQCLOSE, ahead
        of its own request, and does not wait for its reply (``_wait_reply`` skips it)."""
        if self.connected and self.broken is None:
            self._unclosed.append(hobj)

    def _queue_closes(self) -> None:
        while self._unclosed:
            hobj = self._unclosed.popleft()
            self.close_handle(hobj)
            req_id = self._next_id
            self._next_id = req_id + 1 if req_id < 0x7FFFFFFF else 1
            frame = native.encode_request(Op.CLOSE, req_id, [hobj, cmqc.MQCO_NONE])
            self._pending.append(frame)
            self._pending_size += len(frame)

    def send(self, frame: bytes, linger: bool = True) -> None:
        """Send a frame that has no reply (asynchronous put, credit); ``linger`` lets it wait
        a moment for company (see ``_COALESCE_BYTES``)."""
        with self._lock:
            if self.broken is not None:
                raise self.failure()
            self._pending.append(frame)
            self._pending_size += len(frame)
            if not linger or self._pending_size >= _COALESCE_BYTES or len(self._pending) >= _COALESCE_FRAMES:
                self._send(b"")
            elif len(self._pending) == 1:
                self._start_linger()
            self._sends += 1
            if self._sends % _DRAIN_EVERY == 0:
                self._drain()

    def _start_linger(self) -> None:
        if self._flusher is None:
            self._flusher = threading.Thread(target=self._linger_loop, name="mqlite-flush", daemon=True)
            self._flusher.start()
        self._flush_wakeup.notify()

    def _linger_loop(self) -> None:
        """Send coalesced frames that waited ``_LINGER_SECONDS`` with nothing pushing them out."""
        with self._flush_wakeup:
            while self.connected and self.broken is None:
                if not self._pending:
                    self._flush_wakeup.wait()
                    continue
                self._flush_wakeup.wait(_LINGER_SECONDS)
                if self._pending and self.broken is None:
                    try:
                        self._send(b"")
                    except MQMIError:
                        return

    def ping(self) -> None:
        """A round trip: every push sent before the reply has been read when it returns."""
        self.call(Op.PING, [])

    def disconnect(self) -> None:
        if not self.connected:
            return
        with self._lock:
            if self.broken is None:
                self._send(b"")  # coalesced frames go before the DISCONNECT, in order
            self.connected = False
            self._flush_wakeup.notify()
        try:
            if self.broken is None:
                self.call(Op.DISCONNECT, [])
        finally:
            self._close_socket()

    # -- bytes ------------------------------------------------------------------------------------
    def _send(self, frame: bytes) -> None:
        """Send ``frame`` after whatever was coalesced before it, in one system call."""
        if self.broken is not None:
            raise self.failure()
        if self._pending:
            self._pending.append(frame)
            frame = b"".join(self._pending)
            self._pending.clear()
            self._pending_size = 0
        if not frame:
            return
        try:
            self._link.send(self._number, frame)
        except MQMIError as e:
            self._lost(getattr(e, "text", ""), e.reason)

    def _wait_reply(self, req_id: int) -> Reply:
        link, number = self._link, self._number
        while True:
            try:
                event = link.next_event(number)
            except MQMIError as e:
                self._lost(getattr(e, "text", ""), e.reason)
            if type(event) is Reply:
                if event.req_id == req_id:
                    return event
                # a reply to a call abandoned mid-wait (e.g. KeyboardInterrupt): nobody wants it
            elif isinstance(event, Push):
                self.on_push(event)

    def _drain(self) -> None:
        """Take whatever pushes have arrived, without blocking (keeps the peer's buffers small)."""
        link, number = self._link, self._number
        while True:
            try:
                event = link.next_event(number, block=False)
            except MQMIError as e:
                self._lost(getattr(e, "text", ""), e.reason)
            if event is None:
                return
            if isinstance(event, Push):
                self.on_push(event)

    def _lost(self, why: str, reason: int = cmqc.MQRC_CONNECTION_BROKEN) -> Any:
        self.broken = MQMIError(cmqc.MQCC_FAILED, reason, text=why)
        self.connected = False
        with self._lock:
            self._pending.clear()
            self._flush_wakeup.notify()  # the flusher ends with the connection
        self._close_socket()
        raise self.failure()

    def _close_socket(self) -> None:
        """This conversation ends; the socket with the last of its conversations."""
        link_registry.leave(self._link, self._number)

    def fileno(self) -> int:
        return self._link.sock.fileno()

    def take_pushes(self) -> None:
        """Process pushes already received, without blocking."""
        with self._lock:
            if self.broken is None:
                self._drain()
