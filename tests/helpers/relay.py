"""A TCP relay of the tests' own between two queue managers, to cut their channel at will.

It listens on a port of 127.0.0.1 and forwards each connection to ``target`` (which a test may
change, say after the far end restarted on a new port). ``cut()`` ends every connection going
through it at once, as a network failure would: the bytes in flight are lost, both ends see
their socket close.

``cut_every(n, times)`` cuts by progress, never by the clock: from then on, each time ``n`` more
bytes have gone towards ``target`` (from a channel's sender to its receiver), the relay forwards
up to the n-th byte and cuts, ``times`` times. However fast or slow the machine, a stream of S
bytes sent after the call is cut min(times, S // n) times or more, each cut in the middle of it
(a batch sent again after a cut is more bytes, so more cuts, never fewer). ``n`` well above a
batch's bytes leaves each connection room to move on. ``forwarded`` counts the bytes towards
``target`` in all.
"""

from __future__ import annotations

import contextlib
import socket
import struct
import threading


class Relay:
    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.forwarded = 0  # bytes towards target
        self._every = 0  # cut after this many bytes towards target (0: only when told)
        self._cuts_left = 0
        self._since_cut = 0
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
            for source, sink, towards in ((inbound, outbound, True), (outbound, inbound, False)):
                threading.Thread(target=self._pump, args=(source, sink, towards), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket, towards_target: bool) -> None:
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                if not towards_target:
                    sink.sendall(data)
                    continue
                with self._lock:
                    due = self._cuts_left > 0 and len(data) >= self._every - self._since_cut
                    if due:
                        data = data[:self._every - self._since_cut]
                        self._cuts_left -= 1
                    self._since_cut = 0 if due else self._since_cut + len(data)
                    self.forwarded += len(data)
                sink.sendall(data)
                if due:
                    self.cut()  # this pump's sockets too: its next recv fails and it ends
        for end in (source, sink):
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)

    def cut_every(self, n: int, times: int) -> None:
        """From now on cut after each ``n`` bytes towards ``target``, ``times`` times."""
        assert n > 0
        with self._lock:
            self._every, self._cuts_left, self._since_cut = n, times, 0

    def cut(self) -> int:
        """End every connection now; how many there were."""
        with self._lock:
            pairs, self._pairs = self._pairs, []
            self.cuts += 1
        for pair in pairs:
            for end in pair:
                with contextlib.suppress(OSError):
                    end.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                    end.shutdown(socket.SHUT_RDWR)  # wakes the pump blocked in recv on it
                    end.close()  # linger 0: a reset where the kernel still can, what a failed network looks like
        return len(pairs)

    def close(self) -> None:
        self._closed = True
        self._server.close()
        self.cut()
