"""TCP settings the queue manager's connections share (client and message channels)."""

from __future__ import annotations

import asyncio
import contextlib
import socket


def keep_alive(transport: asyncio.BaseTransport, seconds: int) -> None:
    """KAINT as TCP keepalive: probes after ``seconds`` idle (0: none)."""
    sock = transport.get_extra_info("socket")
    if sock is None or sock.family not in (socket.AF_INET, socket.AF_INET6):
        return
    with contextlib.suppress(OSError):
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1 if seconds else 0)
        if seconds and hasattr(socket, "TCP_KEEPIDLE"):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE, seconds)
