"""One native TCP port for plain and TLS client connections, and the TLS rules of a client
channel at CONNECT.

:class:`NativeListener` accepts connections itself and looks at each one's first byte without
taking it (MSG_PEEK): a TLS ClientHello starts with 0x16 (a handshake record), which no native
frame does (a frame starts with its length's high byte, and no frame is 350 MB long). A TLS
connection is handed to the event loop with the queue manager's server context
(``server.tls.ServerTls``), a plain one without; both reach the same protocol object, so
``ClientConnection`` does not know which it has until CONNECT names a channel, when
:func:`check_channel`, the first of the handshake's channel checks (:func:`install`), applies the
channel's SSLCIPH, SSLCAUTH and SSLPEER; CHLAUTH's SSLPEERMAP comes after it.

Refusals are written to the error log, one line each (IBM's AMQ96xx numbers); the handshake's own
failures (an expired or untrusted certificate, no common cipher) end the connection before any
CONNECT, and the client reports MQRC_SSL_INITIALIZATION_ERROR (2393).
"""

from __future__ import annotations

import asyncio
import logging
import socket
import ssl
from collections.abc import Callable
from typing import Any, Protocol

from mqlite.keyrepo import KeyRepositoryError
from mqlite.server.native.chlauth_gate import AdmittedLike, HelloLike
from mqlite.server.tls import ServerTls
from mqlite.server.tls_rules import check_channel

log = logging.getLogger("mqlite.server")
TLS_RECORD_HANDSHAKE = 0x16
FIRST_BYTE_TIMEOUT = 30.0  # a connection that sends nothing is closed after this long
HANDSHAKE_TIMEOUT = 30.0
_ACCEPTS_PER_WAKE = 64


class NativeListener:
    """The native TCP listener: accepts, tells TLS from plain text, hands on to the loop."""

    def __init__(self, factory: Callable[[], asyncio.Protocol], tls: ServerTls) -> None:
        self.factory = factory
        self.tls = tls
        self.sock: socket.socket | None = None
        self._waiting: dict[int, tuple[socket.socket, asyncio.TimerHandle]] = {}
        self._loop: asyncio.AbstractEventLoop | None = None

    def listen(self, host: str, port: int, backlog: int = 4096) -> int:
        """Bind and listen now (an address in use fails here); returns the bound port."""
        self._loop = asyncio.get_running_loop()
        infos = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
        family, kind, proto, _, address = infos[0]
        sock = socket.socket(family, kind, proto)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind(address)
            sock.listen(min(backlog, socket.SOMAXCONN))
            sock.setblocking(False)
        except OSError:
            sock.close()
            raise
        self.sock = sock
        self._loop.add_reader(sock.fileno(), self._accept)
        port_bound: int = sock.getsockname()[1]
        return port_bound

    def close(self) -> None:
        if self.sock is not None and self._loop is not None:
            self._loop.remove_reader(self.sock.fileno())
            self.sock.close()
            self.sock = None
        for fd, (conn, timer) in list(self._waiting.items()):
            self._forget(fd)
            timer.cancel()
            conn.close()

    # -- accepting ------------------------------------------------------------------------------
    def _accept(self) -> None:
        assert self.sock is not None and self._loop is not None
        for _ in range(_ACCEPTS_PER_WAKE):
            try:
                conn, _ = self.sock.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError as error:  # out of file descriptors: the others are still served
                log.error("AMQ9213E: accept on the native port failed: %s", error)
                return
            conn.setblocking(False)
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            fd = conn.fileno()
            timer = self._loop.call_later(FIRST_BYTE_TIMEOUT, self._silent, fd)
            self._waiting[fd] = (conn, timer)
            self._loop.add_reader(fd, self._first_byte, fd)

    def _forget(self, fd: int) -> None:
        assert self._loop is not None
        self._loop.remove_reader(fd)
        del self._waiting[fd]

    def _silent(self, fd: int) -> None:
        conn, _ = self._waiting[fd]
        self._forget(fd)
        conn.close()

    def _first_byte(self, fd: int) -> None:
        conn, timer = self._waiting[fd]
        try:
            first = conn.recv(1, socket.MSG_PEEK)
        except (BlockingIOError, InterruptedError):
            return  # woken for nothing: keep waiting
        except OSError:
            first = b""
        self._forget(fd)
        timer.cancel()
        if not first:
            conn.close()
            return
        assert self._loop is not None
        if first[0] == TLS_RECORD_HANDSHAKE:
            self._loop.create_task(self._serve_tls(conn))
        else:
            self._loop.create_task(self._loop.connect_accepted_socket(self.factory, conn))

    async def _serve_tls(self, conn: socket.socket) -> None:
        peer = _address(conn)
        try:
            context = self.tls.context()
        except KeyRepositoryError as error:
            log.error("AMQ9657E: TLS connection from %s refused: the key repository cannot be used: %s", peer, error)
            conn.close()
            return
        assert self._loop is not None
        try:
            await self._loop.connect_accepted_socket(self.factory, conn, ssl=context,
                                                     ssl_handshake_timeout=HANDSHAKE_TIMEOUT)
        except ssl.SSLCertVerificationError as error:
            log.warning("AMQ9633E: bad certificate from %s: %s", peer, error.verify_message)
            conn.close()
        except (ssl.SSLError, OSError, TimeoutError, ConnectionError) as error:
            if _reason(error) != "CALLBACK_FAILED":  # the SNI callback has said why
                log.warning("AMQ9665E: TLS handshake with %s failed: %s", peer, _reason(error))
            conn.close()


def _address(conn: socket.socket) -> str:
    try:
        host, port = conn.getpeername()[:2]
    except OSError:
        return "?"
    return f"{host}({port})"


def _reason(error: BaseException) -> str:
    reason = getattr(error, "reason", None)
    return str(reason or error or type(error).__name__)


# -- the channel's rules at CONNECT ------------------------------------------------------------------
class GateLike(Protocol):
    """The handshake's gate (``handshake.Gate``): its list of channel checks."""

    channel_checks: list[Any]


def install(gate: GateLike) -> None:
    """Plug TLS into the connect handshake, first: IBM checks the certificate before CHLAUTH."""
    gate.channel_checks.insert(0, tls_check)


def tls_check(hello: HelloLike, admitted: AdmittedLike) -> None:
    if admitted.channel:  # a local connection uses no channel and no TLS
        check_channel(hello.transport, admitted.channel, admitted.attrs, hello.address or "?")
