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
from mqlite.protocol.mqtt.packets import V311, Connect, Packet
from mqlite.protocol.mqtt.reasons import PACKET_TOO_LARGE, MqttError, malformed, protocol_error

NEED_DATA: Final = object()
_CLIENT_SENDS = frozenset({P.CONNECT, P.PUBLISH, P.PUBACK, P.PUBREC, P.PUBREL, P.PUBCOMP, P.SUBSCRIBE,
                           P.UNSUBSCRIBE, P.PINGREQ, P.DISCONNECT, P.AUTH})
_SERVER_SENDS = frozenset({P.CONNACK, P.PUBLISH, P.PUBACK, P.PUBREC, P.PUBREL, P.PUBCOMP, P.SUBACK, P.UNSUBACK,
                           P.PINGRESP, P.DISCONNECT, P.AUTH})


class MqttStream:
    """One side of a connection: ``server=True`` reads what clients send."""

    def __init__(self, server: bool = True, max_packet_size: int = 268_435_460, version: int = V311) -> None:
        self.server = server
        self.max_packet_size = max_packet_size
        self.version = version  # set by the CONNECT on a server
        self.connected = not server  # a server has seen its CONNECT
        self._buffer = bytearray()
        self._accepts = _CLIENT_SENDS if server else _SERVER_SENDS

    def receive_data(self, data: bytes) -> None:
        self._buffer += data

    def next_event(self) -> Packet | object:
        buffer = self._buffer
        if len(buffer) < 2:
            return NEED_DATA
        length, shift, pos = 0, 0, 1
        while True:
            if pos >= len(buffer):
                return NEED_DATA
            byte = buffer[pos]
            length |= (byte & 0x7F) << shift
            pos += 1
            if not byte & 0x80:
                break
            if pos == 5:
                raise malformed("a Remaining Length longer than four bytes")
            shift += 7
        if pos + length > self.max_packet_size:
            raise MqttError(PACKET_TOO_LARGE, f"a packet of {pos + length} bytes, above {self.max_packet_size}")
        if len(buffer) < pos + length:
            return NEED_DATA
        header = buffer[0]
        body = bytes(buffer[pos:pos + length])
        del buffer[:pos + length]
        return self._decoded(header, body)

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
