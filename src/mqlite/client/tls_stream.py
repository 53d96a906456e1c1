"""TLS over a client socket through memory BIOs, so one thread may read while others write.

An ``ssl.SSLSocket`` must not be read and written by two threads at once (one OpenSSL object),
and conversations that share a socket (SHARECNV, ``client.link``) do exactly that: one thread
waits in recv for everyone while another sends its request. Here the socket is a plain one,
safe for a reader and a writer at once, and the TLS object only ever turns bytes into bytes,
under a lock that is never held across a system call. ``sendall`` keeps the ciphertext in the
order it was made (one sender at a time); ``recv_into`` fills a buffer with decrypted bytes, 0 at the end.
"""

from __future__ import annotations

import socket
import ssl
import threading
from typing import cast

__all__ = ["TlsStream", "handshake"]

_RECV_SIZE = 1 << 18


class TlsStream:
    """A connected TLS session: the socket-like calls the client's link makes."""

    def __init__(self, sock: socket.socket, tls: ssl.SSLObject, incoming: ssl.MemoryBIO,
                 outgoing: ssl.MemoryBIO) -> None:
        self.sock = sock
        self.tls = tls  # for the checks of the session (cipher, peer certificate)
        self._incoming = incoming
        self._outgoing = outgoing
        self._tls_lock = threading.Lock()  # the SSLObject: bytes to bytes, never across I/O
        self._send_lock = threading.Lock()  # ciphertext goes out in the order it was made
        self._raw = memoryview(bytearray(_RECV_SIZE))  # ciphertext read from the socket (reader only)

    def sendall(self, data: bytes) -> None:
        with self._send_lock:
            with self._tls_lock:
                self.tls.write(data)
                records = self._outgoing.read()
            self.sock.sendall(records)

    def recv_into(self, buffer: bytearray) -> int:
        """Decrypted bytes into ``buffer`` (blocking until some arrive): how many; 0 when the
        queue manager closed. ``ssl.SSLError`` for a TLS alert (a certificate refused after
        the handshake)."""
        while True:
            with self._tls_lock:
                try:
                    # with a buffer, read returns a count (typeshed says bytes)
                    return cast(int, self.tls.read(len(buffer), buffer))
                except ssl.SSLWantReadError:
                    owed = self._outgoing.pending  # e.g. an answer to a key update
                except ssl.SSLZeroReturnError:
                    return 0
            if owed:
                self._flush()
            size = self.sock.recv_into(self._raw)  # no lock held: senders go on meanwhile
            if not size:
                return 0
            with self._tls_lock:
                self._incoming.write(self._raw[:size])

    def _flush(self) -> None:
        with self._send_lock:
            with self._tls_lock:
                records = self._outgoing.read()
            if records:
                self.sock.sendall(records)

    def pending(self) -> int:
        """Decrypted bytes waiting to be read."""
        with self._tls_lock:
            return self.tls.pending()

    def fileno(self) -> int:
        return self.sock.fileno()

    def close(self) -> None:
        self.sock.close()


def handshake(sock: socket.socket, context: ssl.SSLContext, server_hostname: str) -> TlsStream:
    """The client's TLS handshake on a connected socket (blocking); ``ssl.SSLError`` or
    ``OSError`` when it fails."""
    incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
    tls = context.wrap_bio(incoming, outgoing, server_side=False, server_hostname=server_hostname)
    while True:
        try:
            tls.do_handshake()
            break
        except ssl.SSLWantReadError:
            records = outgoing.read()
            if records:
                sock.sendall(records)
            data = sock.recv(_RECV_SIZE)
            if not data:
                raise ConnectionResetError("the queue manager closed the connection during the TLS handshake") from None
            incoming.write(data)
    records = outgoing.read()
    if records:  # the client's Finished (TLS 1.3), or its certificate
        sock.sendall(records)
    return TlsStream(sock, tls, incoming, outgoing)
