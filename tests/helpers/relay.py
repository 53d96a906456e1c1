"""A TCP relay of the tests' own between two queue managers, to cut their channel at will.

It listens on a port of 127.0.0.1 and forwards each connection to ``target`` (which a test may
change, say after the far end restarted on a new port). ``cut()`` ends every connection going
through it at once, as a network failure would: the bytes in flight are lost, both ends see
their socket close.
"""

from __future__ import annotations

import contextlib
import socket
import struct
import threading


class Relay:
    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self._server = socket.create_server(("127.0.0.1", 0))
        self.port: int = self._server.getsockname()[1]
        self._lock = threading.Lock()
        self._pairs: list[tuple[socket.socket, socket.socket]] = []
        self.connections = 0  # how many connections it has carried
        self.cuts = 0
        self._closed = False
        threading.Thread(target=self._accept, name="relay-accept", daemon=True).start()

    def _accept(self) -> None:
        while not self._closed:
            try:
                inbound, _ = self._server.accept()
            except OSError:
                return
            try:
                outbound = socket.create_connection(self.target, timeout=5)
                outbound.settimeout(None)
            except OSError:
                inbound.close()
                continue
            with self._lock:
                self._pairs.append((inbound, outbound))
                self.connections += 1
            for source, sink in ((inbound, outbound), (outbound, inbound)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                sink.sendall(data)
        for end in (source, sink):
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)

    def cut(self) -> int:
        """End every connection now; how many there were."""
        with self._lock:
            pairs, self._pairs = self._pairs, []
        for pair in pairs:
            for end in pair:
                with contextlib.suppress(OSError):
                    end.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                    end.shutdown(socket.SHUT_RDWR)  # wakes the pump blocked in recv on it
                    end.close()  # linger 0: a reset where the kernel still can, what a failed network looks like
        self.cuts += 1
        return len(pairs)

    def close(self) -> None:
        self._closed = True
        self._server.close()
        self.cut()
