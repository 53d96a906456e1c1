"""MQTT's data representations (MQTT 5.0 section 1.5, the same in 3.1.1): integers, the Variable
Byte Integer, UTF-8 strings, binary data and string pairs, read strictly and written."""

from __future__ import annotations

from mqlite.protocol.mqtt.reasons import MqttError, malformed

MAX_VARINT = 268_435_455  # four bytes of seven bits


class Reader:
    """Reads one packet's bytes; anything short or invalid is a malformed packet."""

    __slots__ = ("data", "end", "pos")

    def __init__(self, data: bytes | memoryview, pos: int = 0, end: int | None = None) -> None:
        self.data = data
        self.pos = pos
        self.end = len(data) if end is None else end

    def remaining(self) -> int:
        return self.end - self.pos

    def _take(self, n: int) -> bytes:
        if self.pos + n > self.end:
            raise malformed("packet ends inside a field")
        chunk = bytes(self.data[self.pos:self.pos + n])
        self.pos += n
        return chunk

    def u8(self) -> int:
        if self.pos >= self.end:
            raise malformed("packet ends inside a field")
        value = self.data[self.pos]
        self.pos += 1
        return value

    def u16(self) -> int:
        return int.from_bytes(self._take(2), "big")

    def u32(self) -> int:
        return int.from_bytes(self._take(4), "big")

    def varint(self) -> int:
        value, shift = 0, 0
        for _ in range(4):
            byte = self.u8()
            value |= (byte & 0x7F) << shift
            if not byte & 0x80:
                return value
            shift += 7
        raise malformed("a Variable Byte Integer longer than four bytes")

    def binary(self) -> bytes:
        return self._take(self.u16())

    def utf8(self) -> str:
        raw = self._take(self.u16())
        try:
            text = raw.decode("utf-8")  # rejects surrogates and overlong forms
        except UnicodeDecodeError:
            raise malformed("a string that is not well-formed UTF-8") from None
        if "\0" in text:
            raise malformed("a string containing U+0000")
        return text

    def rest(self) -> bytes:
        return self._take(self.remaining())

    def done(self) -> None:
        if self.pos != self.end:
            raise malformed(f"{self.remaining()} bytes after the last field")


def varint(value: int) -> bytes:
    if not 0 <= value <= MAX_VARINT:
        raise MqttError(0x83, f"{value} does not fit a Variable Byte Integer")
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def u16(value: int) -> bytes:
    return value.to_bytes(2, "big")


def u32(value: int) -> bytes:
    return value.to_bytes(4, "big")


def binary(value: bytes) -> bytes:
    if len(value) > 0xFFFF:
        raise MqttError(0x83, "binary data longer than 65,535 bytes")
    return len(value).to_bytes(2, "big") + value


def utf8(value: str) -> bytes:
    return binary(value.encode("utf-8"))
