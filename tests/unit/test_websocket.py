"""The WebSocket codec under MQTT over WebSocket (issue 6, operation): RFC 6455 handshake and
framing, and every failure it names ending the connection with its close code or HTTP status."""

from __future__ import annotations

import os
import struct

from hypothesis import given, settings
from hypothesis import strategies as st

from mqlite.protocol.websocket import WebSocketServer, accept_key, encode_binary

KEY = "dGhlIHNhbXBsZSBub25jZQ=="


def request(*, protocol: str | None = "mqtt", version: str = "13", key: str = KEY, upgrade: bool = True) -> bytes:
    lines = ["GET /mqtt HTTP/1.1", "Host: localhost"]
    if upgrade:
        lines += ["Upgrade: websocket", "Connection: keep-alive, Upgrade"]
    lines += [f"Sec-WebSocket-Key: {key}", f"Sec-WebSocket-Version: {version}"]
    if protocol:
        lines.append(f"Sec-WebSocket-Protocol: {protocol}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def frame(opcode: int, payload: bytes, fin: bool = True, masked: bool = True, rsv: int = 0) -> bytes:
    mask = os.urandom(4) if masked else b""
    n = len(payload)
    first = (0x80 if fin else 0) | rsv | opcode
    if n < 126:
        head = struct.pack("!BB", first, (0x80 if masked else 0) | n)
    elif n < 65536:
        head = struct.pack("!BBH", first, (0x80 if masked else 0) | 126, n)
    else:
        head = struct.pack("!BBQ", first, (0x80 if masked else 0) | 127, n)
    body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload)) if masked else payload
    return head + mask + body


def opened() -> WebSocketServer:
    ws = WebSocketServer()
    assert ws.receive_data(request()) == b""
    assert ws.open
    ws.outgoing.clear()
    return ws


def test_accept_key_is_the_rfc_example() -> None:
    """RFC 6455 1.3's worked example."""
    assert accept_key(KEY) == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="


def test_handshake_chooses_mqtt() -> None:
    ws = WebSocketServer()
    ws.receive_data(request(protocol="wamp, mqtt"))
    response = ws.outgoing[0].decode()
    assert response.startswith("HTTP/1.1 101 ")
    assert "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=" in response
    assert "Sec-WebSocket-Protocol: mqtt\r\n" in response and ws.subprotocol == "mqtt"


def test_handshake_a_byte_at_a_time_then_data() -> None:
    ws = WebSocketServer()
    data = request() + frame(2, b"\x10\x0c") + frame(2, b"\x00\x04MQTT")
    got = b"".join(ws.receive_data(data[i:i + 1]) for i in range(len(data)))
    assert ws.open and got == b"\x10\x0c\x00\x04MQTT"


def test_handshake_refusals() -> None:
    cases = {
        request(upgrade=False): "426",
        request(version="8"): "426",
        request(key="short"): "400",
        request(protocol="wamp"): "400",
        b"POST / HTTP/1.1\r\nUpgrade: websocket\r\n\r\n": "400",
        bytes.fromhex("100c00044d515454"): "400",  # raw MQTT: refused at once
        b"GET / HTTP/1.1\r\nno colon here\r\n\r\n": "400",
        b"GET / HTTP/1.1\r\n" + b"X-Pad: " + b"a" * 9000: "431",
    }
    for data, status in cases.items():
        ws = WebSocketServer()
        ws.receive_data(data)
        assert ws.closed and not ws.open, data[:40]
        assert ws.outgoing[0].startswith(f"HTTP/1.1 {status}".encode()), (data[:40], ws.outgoing)


def test_lengths_of_7_16_and_64_bits() -> None:
    for size in (5, 300, 70_000):
        ws = opened()
        payload = os.urandom(size)
        assert ws.receive_data(frame(2, payload)) == payload


def test_fragments_with_a_ping_between() -> None:
    ws = opened()
    data = frame(2, b"ab", fin=False) + frame(9, b"hi") + frame(0, b"cd", fin=False) + frame(0, b"e")
    assert ws.receive_data(data) == b"abcde"
    assert ws.outgoing == [bytes([0x8A, 2]) + b"hi"]  # the pong, unmasked


def test_failures_close_with_their_codes() -> None:
    cases = [
        (frame(1, b"text"), 1003),  # MQTT is binary only
        (frame(2, b"x", masked=False), 1002),
        (frame(2, b"x", rsv=0x40), 1002),
        (frame(0, b"x"), 1002),  # a continuation with nothing to continue
        (frame(2, b"a", fin=False) + frame(2, b"b"), 1002),  # a new message inside one
        (frame(9, b"x" * 126), 1002),  # control frames are at most 125 bytes
        (frame(9, b"x", fin=False), 1002),
        (frame(5, b"x"), 1002),  # unknown opcode
        (frame(8, b"\x03"), 1002),  # a close payload of one byte
    ]
    for data, code in cases:
        ws = opened()
        ws.receive_data(data)
        assert ws.closed and ws.close_code == code, (data[:4], ws.close_code)
        assert ws.outgoing[-1][:4] == bytes([0x88, ws.outgoing[-1][1]]) + struct.pack("!H", code)


def test_too_big_and_close_handshake() -> None:
    ws = WebSocketServer(max_payload=100)
    ws.receive_data(request())
    ws.receive_data(frame(2, b"x" * 101))
    assert ws.close_code == 1009
    ws = opened()
    ws.receive_data(frame(8, struct.pack("!H", 1001)))
    assert ws.closed and ws.outgoing == [bytes([0x88, 2]) + struct.pack("!H", 1001)]
    assert ws.receive_data(frame(2, b"late")) == b""  # nothing after the close


def test_server_frames_are_unmasked_binary() -> None:
    assert encode_binary(b"abc") == b"\x82\x03abc"
    assert encode_binary(b"x" * 200)[:4] == b"\x82\x7e\x00\xc8"
    assert encode_binary(b"x" * 70_000)[:2] == b"\x82\x7f"


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300))
def test_random_bytes_after_the_handshake_never_raise(data: bytes) -> None:
    ws = opened()
    got = ws.receive_data(data)
    assert isinstance(got, bytes)
    if ws.closed:  # ended the RFC's way: a close frame is the last thing sent
        assert ws.outgoing and ws.outgoing[-1][0] == 0x88 and ws.close_code is not None
    else:
        assert len(got) <= len(data)
