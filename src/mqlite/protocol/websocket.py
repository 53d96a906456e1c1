"""WebSocket, server side (RFC 6455), sans-IO: the opening handshake and the framing, for MQTT
over WebSocket (MQTT 5.0 section 6, 3.1.1 section 6).

MQTT rides in binary frames; a packet may span frames and a frame may hold several packets, so
payloads go to the MQTT stream as they come, without reassembling messages. Anything the RFC
calls a failure ends the connection with the close code it names (1002 protocol error, 1003 a
text frame, which MQTT does not use, 1009 too big); a bad handshake gets an HTTP error.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import struct
from dataclasses import dataclass, field

GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
SUBPROTOCOLS = ("mqtt", "mqttv3.1")
MAX_HEAD = 8192  # bytes of an HTTP request head
PROTOCOL_ERROR, UNSUPPORTED_DATA, INVALID_DATA, TOO_BIG, NORMAL = 1002, 1003, 1007, 1009, 1000
_CONTINUATION, _TEXT, _BINARY, _CLOSE, _PING, _PONG = 0x0, 0x1, 0x2, 0x8, 0x9, 0xA


def accept_key(key: str) -> str:
    """Sec-WebSocket-Accept for a Sec-WebSocket-Key (RFC 6455 4.2.2)."""
    return base64.b64encode(hashlib.sha1((key + GUID).encode()).digest()).decode()


def encode_frame(opcode: int, payload: bytes) -> bytes:
    """One final, unmasked frame (servers do not mask, RFC 6455 5.1)."""
    n = len(payload)
    if n < 126:
        head = struct.pack("!BB", 0x80 | opcode, n)
    elif n < 65536:
        head = struct.pack("!BBH", 0x80 | opcode, 126, n)
    else:
        head = struct.pack("!BBQ", 0x80 | opcode, 127, n)
    return head + payload


def encode_binary(payload: bytes) -> bytes:
    return encode_frame(_BINARY, payload)


def encode_close(code: int, reason: str = "") -> bytes:
    return encode_frame(_CLOSE, struct.pack("!H", code) + reason.encode()[:120])


def _http_response(status: str, extra: str = "") -> bytes:
    return (f"HTTP/1.1 {status}\r\nContent-Length: 0\r\nConnection: close\r\n{extra}\r\n").encode()


@dataclass
class WebSocketServer:
    """Feed it bytes from the client; it returns application data and collects bytes to send.

    ``open`` turns True when the handshake succeeded, ``closed`` when the connection must end
    (after ``outgoing`` has been written); ``subprotocol`` is the one chosen, if any."""

    max_payload: int = 16 * 1024 * 1024
    outgoing: list[bytes] = field(default_factory=list)
    open: bool = False
    closed: bool = False
    subprotocol: str | None = None
    close_code: int | None = None
    _buffer: bytearray = field(default_factory=bytearray)
    _in_message: bool = False

    def receive_data(self, data: bytes) -> bytes:
        """Take ``data``; return the application bytes it completed (b"" if none)."""
        if self.closed:
            return b""
        self._buffer += data
        if not self.open:
            self._handshake()
            if not self.open:
                return b""
        out = bytearray()
        while not self.closed:
            payload = self._frame()
            if payload is None:
                break
            out += payload
        return bytes(out)

    # -- the opening handshake -------------------------------------------------------------------
    def _handshake(self) -> None:
        start = bytes(self._buffer[:4])
        if not b"GET ".startswith(start):  # not HTTP at all (raw MQTT, say): no need to wait
            self._refuse("400 Bad Request")
            return
        end = self._buffer.find(b"\r\n\r\n")
        if end < 0:
            if len(self._buffer) > MAX_HEAD:
                self._refuse("431 Request Header Fields Too Large")
            return
        head = bytes(self._buffer[:end]).decode("latin-1")
        del self._buffer[:end + 4]
        lines = head.split("\r\n")
        request = lines[0].split(" ")
        headers: dict[str, str] = {}
        for line in lines[1:]:
            name, colon, value = line.partition(":")
            if not colon:
                self._refuse("400 Bad Request")
                return
            key = name.strip().lower()
            headers[key] = f"{headers[key]}, {value.strip()}" if key in headers else value.strip()
        if len(request) != 3 or request[0] != "GET" or not request[2].startswith("HTTP/1."):
            self._refuse("400 Bad Request")
            return
        if "upgrade" not in headers:  # a plain HTTP request on a WebSocket port
            self._refuse("426 Upgrade Required", "Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\n")
            return
        tokens = {t.strip().lower() for t in headers.get("connection", "").split(",")}
        key = headers.get("sec-websocket-key", "")
        if "websocket" not in headers["upgrade"].lower() or "upgrade" not in tokens or not _valid_key(key):
            self._refuse("400 Bad Request")
            return
        if headers.get("sec-websocket-version") != "13":
            self._refuse("426 Upgrade Required", "Sec-WebSocket-Version: 13\r\n")
            return
        offered = [p.strip() for p in headers.get("sec-websocket-protocol", "").split(",") if p.strip()]
        chosen = next((p for p in offered if p.lower() in SUBPROTOCOLS), None)
        if offered and chosen is None:
            self._refuse("400 Bad Request")  # it wants something other than MQTT
            return
        self.subprotocol = chosen
        extra = f"Sec-WebSocket-Protocol: {chosen}\r\n" if chosen else ""
        self.outgoing.append((f"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                              f"Sec-WebSocket-Accept: {accept_key(key)}\r\n{extra}\r\n").encode())
        self.open = True

    def _refuse(self, status: str, extra: str = "") -> None:
        self.outgoing.append(_http_response(status, extra))
        self.closed = True

    # -- frames ----------------------------------------------------------------------------------
    def _frame(self) -> bytes | None:
        """The application bytes of the next whole frame (b"" for a control frame), or None
        when more input is needed or the connection failed."""
        buf = self._buffer
        if len(buf) < 2:
            return None
        b0, b1 = buf[0], buf[1]
        fin, opcode, length = b0 & 0x80, b0 & 0x0F, b1 & 0x7F
        if b0 & 0x70:
            return self._fail(PROTOCOL_ERROR, "reserved bits set")
        if not b1 & 0x80:
            return self._fail(PROTOCOL_ERROR, "client frames must be masked")
        offset = 2
        if length == 126:
            if len(buf) < 4:
                return None
            length, offset = struct.unpack_from("!H", buf, 2)[0], 4
        elif length == 127:
            if len(buf) < 10:
                return None
            length, offset = struct.unpack_from("!Q", buf, 2)[0], 10
            if length >> 63:
                return self._fail(PROTOCOL_ERROR, "length with its top bit set")
        if opcode >= 0x8 and (not fin or length > 125):
            return self._fail(PROTOCOL_ERROR, "control frames are final and at most 125 bytes")
        if length > self.max_payload:
            return self._fail(TOO_BIG, "frame too big")
        if len(buf) < offset + 4 + length:
            return None
        mask = bytes(buf[offset:offset + 4])
        payload = _unmask(bytes(buf[offset + 4:offset + 4 + length]), mask)
        del buf[:offset + 4 + length]
        if opcode in (_BINARY, _CONTINUATION):
            if (opcode == _CONTINUATION) != self._in_message:
                return self._fail(PROTOCOL_ERROR, "continuation out of place")
            self._in_message = not fin
            return payload
        if opcode == _TEXT:
            return self._fail(UNSUPPORTED_DATA, "MQTT is carried in binary frames")
        if opcode == _PING:
            self.outgoing.append(encode_frame(_PONG, payload))
            return b""
        if opcode == _PONG:
            return b""
        if opcode == _CLOSE:
            if length == 1:
                return self._fail(PROTOCOL_ERROR, "close payload of one byte")
            code = struct.unpack_from("!H", payload)[0] if length >= 2 else NORMAL
            self.close_code = code
            self.outgoing.append(encode_close(code if length >= 2 else NORMAL))
            self.closed = True
            return None
        return self._fail(PROTOCOL_ERROR, f"unknown opcode {opcode}")

    def _fail(self, code: int, reason: str) -> bytes | None:
        self.close_code = code
        self.outgoing.append(encode_close(code, reason))
        self.closed = True
        return None


def _valid_key(key: str) -> bool:
    try:
        return len(base64.b64decode(key, validate=True)) == 16
    except (binascii.Error, ValueError):
        return False


def _unmask(data: bytes, mask: bytes) -> bytes:
    """XOR with the 4-byte mask, a whole int at a time (much faster than byte by byte)."""
    if not data:
        return data
    repeated = (mask * (len(data) // 4 + 1))[:len(data)]
    return (int.from_bytes(data, "big") ^ int.from_bytes(repeated, "big")).to_bytes(len(data), "big")
