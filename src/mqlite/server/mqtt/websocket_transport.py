"""WebSocket as an asyncio transport: after the handshake, the inner protocol (an MQTT
connection) reads and writes as if on TCP, and never knows the frames are there."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from mqlite.protocol.websocket import NORMAL, WebSocketServer, encode_binary, encode_close

HANDSHAKE_TIMEOUT = 10.0


class _FramedTransport(asyncio.Transport):
    """What the inner protocol writes to: each write one binary frame on the real transport."""

    def __init__(self, outer: WebSocketProtocol, real: asyncio.Transport) -> None:
        super().__init__()
        self._outer = outer
        self._real = real

    def write(self, data: bytes | bytearray | memoryview) -> None:
        if data and not self._real.is_closing():
            self._real.write(encode_binary(bytes(data)))

    def writelines(self, list_of_data: Any) -> None:
        self.write(b"".join(list_of_data))

    def close(self) -> None:
        if not self._real.is_closing():
            self._real.write(encode_close(NORMAL))
            self._real.close()

    def abort(self) -> None:
        self._real.abort()

    def is_closing(self) -> bool:
        return self._real.is_closing()

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return self._real.get_extra_info(name, default)

    def pause_reading(self) -> None:
        self._real.pause_reading()

    def resume_reading(self) -> None:
        self._real.resume_reading()

    def is_reading(self) -> bool:
        return self._real.is_reading()

    def get_write_buffer_size(self) -> int:
        return self._real.get_write_buffer_size()

    def set_write_buffer_limits(self, high: int | None = None, low: int | None = None) -> None:
        self._real.set_write_buffer_limits(high, low)

    def can_write_eof(self) -> bool:
        return False


class WebSocketProtocol(asyncio.Protocol):
    """The TCP side: the handshake, then frames in and out around the inner protocol."""

    def __init__(self, inner_factory: Callable[[], asyncio.Protocol], max_payload: int = 16 * 1024 * 1024) -> None:
        self._factory = inner_factory
        self.codec = WebSocketServer(max_payload=max_payload)
        self.transport: asyncio.Transport | None = None
        self.inner: asyncio.Protocol | None = None
        self._timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        self._timer = asyncio.get_running_loop().call_later(HANDSHAKE_TIMEOUT, self._silent)

    def data_received(self, data: bytes) -> None:
        transport = self.transport
        assert transport is not None
        was_open = self.codec.open
        payload = self.codec.receive_data(data)
        if self.codec.outgoing:
            transport.write(b"".join(self.codec.outgoing))
            self.codec.outgoing.clear()
        if self.codec.open and not was_open:
            if self._timer is not None:
                self._timer.cancel()
            self.inner = self._factory()
            self.inner.connection_made(_FramedTransport(self, transport))
        if payload and self.inner is not None and not transport.is_closing():
            self.inner.data_received(payload)
        if self.codec.closed and not transport.is_closing():
            transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._timer is not None:
            self._timer.cancel()
        inner, self.inner = self.inner, None
        if inner is not None:
            inner.connection_lost(exc)

    def pause_writing(self) -> None:
        if self.inner is not None:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.inner is not None:
            self.inner.resume_writing()

    def _silent(self) -> None:
        if not self.codec.open and self.transport is not None:
            self.transport.close()
