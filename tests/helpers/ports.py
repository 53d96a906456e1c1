"""A TCP port a test may name before anything binds it (a README block, a DEFINE LISTENER PORT).

Binding port 0 and closing the socket hands back a port from the kernel's ephemeral range
(ip_local_port_range, 32768-60999 here), and the kernel may give that same port to the next
socket anyone binds to port 0 - another pytest-xdist worker's queue manager, a client's
outgoing connection - before the test binds it itself (CI saw AMQ9218E so). So the ports given
here are below that range, each xdist worker scanning its own slice of it, checked free by a bind.
"""

from __future__ import annotations

import itertools
import os
import socket

_FIRST, _SLICE = 20000, 800  # 20000 + 16 workers x 800 stays below 32768
_next = itertools.count()


def _worker_index() -> int:
    name = os.environ.get("PYTEST_XDIST_WORKER", "gw0")  # gw0, gw1, ...; not under xdist: gw0
    return int(name[2:]) if name[2:].isdigit() else 0


def unused_port() -> int:
    """A port no socket holds now and the kernel does not hand out for port 0."""
    base = _FIRST + (_worker_index() % 16) * _SLICE
    for _ in range(_SLICE):
        port = base + next(_next) % _SLICE
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
        return port
    raise RuntimeError(f"no free port in {base}-{base + _SLICE - 1}")
