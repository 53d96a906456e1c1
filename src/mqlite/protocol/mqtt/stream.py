"""An MQTT connection's byte stream, sans-IO: bytes in with ``receive_data``, packets out of
``next_event`` (``NEED_DATA`` when a packet is incomplete); packets in with ``send``, bytes out.

The server side also keeps the rules about order and direction: the first packet must be a
CONNECT and only the first; packets only a server sends are protocol errors when a client sends
them. A Remaining Length above ``max_packet_size`` is refused as soon as the fixed header is in,
before the body is buffered. Every error is an ``MqttError``: the connection must close (with a
DISCONNECT carrying the reason first, in 5.0, when it is past CONNECT)."""

from __future__ import annotations

from typing import Final

from mqlite.protocol.mqtt import codec
from mqlite.protocol.mqtt import properties as P
from mqlite.protocol.mqtt.packets import V5, V311, Connect, Packet
from mqlite.protocol.mqtt.reasons import PACKET_TOO_LARGE, MqttError, malformed, protocol_error

NEED_DATA: Final = object()
_CLIENT_SENDS = frozenset({P.CONNECT, P.PUBLISH, P.PUBACK, P.PUBREC, P.PUBREL, P.PUBCOMP, P.SUBSCRIBE,
                           P.UNSUBSCRIBE, P.PINGREQ, P.DISCONNECT, P.AUTH})
_SERVER_SENDS = frozenset({P.CONNACK, P.PUBLISH, P.PUBACK, P.PUBREC, P.PUBREL, P.PUBCOMP, P.SUBACK, P.UNSUBACK,
                           P.PINGRESP, P.DISCONNECT, P.AUTH})


class MqttStream:
    """One side of a connection: ``server=True`` reads what clients send."""

    __slots__ = ("_accepts", "_buffer", "_missing", "_parts", "_parts_size", "_pos", "connected", "max_packet_size",
                 "server", "version")

    def __init__(self, server: bool = True, max_packet_size: int = 268_435_460, version: int = V311) -> None:
        self.server = server
        self.max_packet_size = max_packet_size
        self.version = version  # set by the CONNECT on a server
        self.connected = not server  # a server has seen its CONNECT
        self._buffer = b""  # what has arrived; packets are read from ``_pos`` on
        self._pos = 0
        # A packet larger than what has arrived: the chunks after it wait here, joined once it is
        # all in (``_missing`` bytes were short), not copied again with every chunk.
        self._parts: list[bytes] = []
        self._parts_size = 0
        self._missing = 0
        self._accepts = _CLIENT_SENDS if server else _SERVER_SENDS

    def receive_data(self, data: bytes) -> None:
        if self._pos >= len(self._buffer):
            self._buffer, self._pos = bytes(data), 0
            return
        self._parts.append(bytes(data))
        self._parts_size += len(data)
        if self._parts_size < self._missing:
            return
        self._buffer = b"".join((self._buffer[self._pos:], *self._parts))
        self._pos = 0
        self._parts.clear()
        self._parts_size = self._missing = 0

    def next_event(self) -> Packet | object:
        buffer, start = self._buffer, self._pos
        size = len(buffer)
        if size - start < 2:
            self._missing = 1
            return NEED_DATA
        length, shift, pos = 0, 0, start + 1
        while True:
            if pos >= size:
                self._missing = 1
                return NEED_DATA
            byte = buffer[pos]
            length |= (byte & 0x7F) << shift
            pos += 1
            if not byte & 0x80:
                break
            if pos - start == 5:
                raise malformed("a Remaining Length longer than four bytes")
            shift += 7
        end = pos + length
        if end - start > self.max_packet_size:
            raise MqttError(PACKET_TOO_LARGE, f"a packet of {end - start} bytes, above {self.max_packet_size}")
        if size < end:
            self._missing = end - size
            return NEED_DATA
        self._pos = end
        header = buffer[start]
        if header & 0xFE == 0x30 and self.connected and self.version != V5:
            # A 3.1.1 QoS 0 PUBLISH, the hot path: what ``codec.decode`` makes of it, read in place.
            return codec.publish_qos0_in(buffer, pos, end, bool(header & 1))
        return self._decoded(header, buffer[pos:end])

    def _decoded(self, header: int, body: bytes) -> Packet:
        kind = header >> 4
        if kind not in self._accepts:
            if 1 <= kind <= 15:
                raise protocol_error(f"packet type {kind} is not sent in this direction")
            raise malformed(f"packet type {kind} does not exist")
        if self.server and not self.connected:
            if kind != P.CONNECT:
                raise protocol_error("the first packet must be CONNECT")
            packet = codec.decode(header, body, V311)
            assert isinstance(packet, Connect)
            self.version = packet.protocol_level
            self.connected = True
            return packet
        if kind == P.CONNECT:
            raise protocol_error("a second CONNECT")
        return codec.decode(header, body, self.version)

    def send(self, packet: Packet) -> bytes:
        return codec.encode(packet, self.version)
