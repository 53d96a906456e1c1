"""One client socket and the conversations that share it (a SVRCONN channel's SHARECNV).

IBM's v7 clients run several connections (Hconns) of one process over one TCP connection when
both ends allow it: SHARECNV on the channel, SharingConversations in the client's CD; the lower
wins. A ``Link`` is that socket. Its first conversation (number 0) sends plain frames; the
others' frames carry their number (``protocol.native.in_conversation``). Whichever thread needs
input reads for all of them and files every frame in its conversation's inbox; the others wait
on a condition until their frame is there. Heartbeats belong to the socket: the reader answers
them at once, whosever call it is waiting for.

``join`` finds a link of this process, to the same target, with a conversation to spare;
``leave`` closes the socket when its last conversation ends. A link is shared only once its
first conversation is connected and has learnt the negotiated SHARECNV (above 1).
"""

from __future__ import annotations

import os
import socket
import threading
from collections import deque
from typing import Any

from mqlite import cmqc
from mqlite.client import tls as client_tls
from mqlite.client.errors import MQMIError
from mqlite.client.tls_stream import TlsStream
from mqlite.protocol import native
from mqlite.protocol.native import NEED_DATA, Op, ProtocolError, Push, Reply, Role

__all__ = ["Link", "join", "leave", "shareable"]

_RECV_SIZE = 1 << 18
Event = Reply | Push
_HEARTBEAT_ANSWER = native.encode_heartbeat()


class Link:
    """A connected socket and its conversations' inboxes."""

    def __init__(self, sock: socket.socket | TlsStream, key: Any = None) -> None:
        self.sock = sock
        self.key = key  # what joining conversations must match (None: never shared)
        self.sharecnv = 0  # conversations it may carry, once its first one connected
        self.broken: MQMIError | None = None
        self._codec = native.NativeConnection(Role.CLIENT)
        self._send_lock = threading.Lock()
        self._lock = threading.Lock()  # inboxes, wakeups and the reader's role
        self._reading = False  # a thread is in recv for everyone
        self._inboxes: dict[int, deque[Event]] = {0: deque()}
        # One condition per conversation, on the one lock: the reader wakes exactly the threads
        # whose frames it filed (and one more to read next), never the whole crowd.
        self._wakeups: dict[int, threading.Condition] = {0: threading.Condition(self._lock)}
        self._idle: list[int] = []  # conversations waiting with nothing to read, oldest first
        self._next_number = 1
        # recv_into one buffer: a fresh 256 KiB ``recv`` per reply costs malloc an mmap, an
        # mremap and a munmap (three system calls and a page fault) for every 178-byte reply.
        self._inbytes = bytearray(_RECV_SIZE)
        self._inbuf = memoryview(self._inbytes)

    @property
    def conversations(self) -> int:
        return len(self._inboxes)

    def add_conversation(self) -> int:
        """A number for one more conversation (callers hold the registry's lock)."""
        number = self._next_number
        self._next_number = number + 1 if number < native.MAX_CONVERSATION else 1
        with self._lock:
            self._inboxes[number] = deque()
            self._wakeups[number] = threading.Condition(self._lock)
        return number

    def drop_conversation(self, number: int) -> int:
        """Forget a conversation's frames; returns how many conversations are left."""
        with self._lock:
            self._inboxes.pop(number, None)
            self._wakeups.pop(number, None)
            return len(self._inboxes)

    # -- bytes out ------------------------------------------------------------------------------
    def send(self, number: int, data: bytes) -> None:
        """Whole frames of conversation ``number``; MQMIError 2009 (or TLS's reason) when the
        socket is gone."""
        if self.broken is not None:
            raise self._failure()
        if number:
            data = native.in_conversation(number, data)
        try:
            with self._send_lock:
                self.sock.sendall(data)
        except OSError as e:
            self._break(str(e), client_tls.broken_reason(e))
            raise self._failure() from None

    # -- bytes in -------------------------------------------------------------------------------
    def next_event(self, number: int, block: bool = True) -> Event | None:
        """Conversation ``number``'s next reply or push: waits for one when ``block``, else None
        when none has arrived (reading what the socket already holds)."""
        while True:
            with self._lock:
                inbox = self._inboxes[number]
                while True:
                    if inbox:
                        return inbox.popleft()
                    if self.broken is not None:
                        raise self._failure()
                    if not self._reading:
                        break
                    if not block:
                        return None
                    self._idle.append(number)
                    try:
                        self._wakeups[number].wait()
                    finally:
                        if number in self._idle:
                            self._idle.remove(number)
                if not block and not client_tls.readable(self.sock):
                    return None
                self._reading = True
            self._read_for_everyone()

    def _read_for_everyone(self) -> None:
        """One recv (outside the lock), its frames filed by conversation, their threads woken."""
        answers = 0
        filed: set[int] = set()
        try:
            try:
                size = self.sock.recv_into(self._inbytes)
            except OSError as e:
                self._break(str(e), client_tls.broken_reason(e))
                return
            if not size:
                self._break("the queue manager closed the connection")
                return
            bad: ProtocolError | None = None
            with self._lock:
                codec = self._codec
                codec.receive_data(self._inbuf[:size])
                while True:
                    try:
                        event = codec.next_event()
                    except ProtocolError as e:
                        bad = e
                        break
                    if event is NEED_DATA:
                        break
                    if type(event) is Push and event.kind is Op.PUSH_HEARTBEAT:
                        answers += 1  # the socket's, not a conversation's
                        continue
                    number = codec.conversation
                    inbox = self._inboxes.get(number)
                    if inbox is not None:  # else: a conversation that has ended; nobody wants it
                        inbox.append(event)  # type: ignore[arg-type]
                        filed.add(number)
            if bad is not None:
                self._break(f"protocol error from the queue manager: {bad}")
        finally:
            with self._lock:
                self._reading = False
                for number in filed:
                    wakeup = self._wakeups.get(number)
                    if wakeup is not None:
                        wakeup.notify()
                # someone must read next: the longest-waiting thread that got nothing
                for number in self._idle:
                    if number not in filed:
                        self._wakeups[number].notify()
                        break
        if answers and self.broken is None:
            self.send(0, _HEARTBEAT_ANSWER)

    # -- the end ----------------------------------------------------------------------------------
    def _break(self, why: str, reason: int = cmqc.MQRC_CONNECTION_BROKEN) -> None:
        with self._lock:
            if self.broken is None:
                self.broken = MQMIError(cmqc.MQCC_FAILED, reason, text=why)
            for wakeup in self._wakeups.values():
                wakeup.notify_all()
        self.sock.close()  # does not raise for a broken peer
        _forget(self)

    def _failure(self) -> MQMIError:
        broken = self.broken or MQMIError(cmqc.MQCC_FAILED, cmqc.MQRC_CONNECTION_BROKEN)
        return MQMIError(broken.comp, broken.reason, text=getattr(broken, "text", ""))

    def close(self) -> None:
        self.sock.close()


# -- the process's shareable links ------------------------------------------------------------------
_registry_lock = threading.Lock()
_shareable: dict[Any, list[Link]] = {}


def join(key: Any) -> tuple[Link, int] | None:
    """A conversation on a link to ``key`` that has one to spare, or None."""
    key = (os.getpid(), key)  # a forked child opens sockets of its own
    with _registry_lock:
        for link in _shareable.get(key, ()):
            if link.broken is None and link.conversations < link.sharecnv:
                return link, link.add_conversation()
    return None


def shareable(link: Link, key: Any, sharecnv: int) -> None:
    """The link's first conversation connected with this SHARECNV: above 1, others may join."""
    link.sharecnv = sharecnv
    if sharecnv > 1:
        link.key = (os.getpid(), key)
        with _registry_lock:
            _shareable.setdefault(link.key, []).append(link)


def leave(link: Link, number: int) -> None:
    """A conversation ended; the socket closes with the last."""
    with _registry_lock:
        if link.drop_conversation(number):
            return
        _forget_locked(link)
    link.close()


def _forget(link: Link) -> None:
    with _registry_lock:
        _forget_locked(link)


def _forget_locked(link: Link) -> None:
    links = _shareable.get(link.key)
    if links is not None and link in links:
        links.remove(link)
        if not links:
            del _shareable[link.key]
