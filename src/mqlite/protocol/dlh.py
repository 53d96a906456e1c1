"""MQDLH, the dead-letter header IBM puts in front of an undeliverable message.

The layout is IBM's (version 1, 172 bytes, native little-endian integers) so that tools that
read IBM dead-letter queues can read ours. Sans-IO: bytes in, bytes out.
"""

from __future__ import annotations

import struct
from typing import NamedTuple

STRUC_ID = b"DLH "
VERSION_1 = 1
FORMAT_DEAD_LETTER_HEADER = "MQDEAD"
_LAYOUT = struct.Struct("<4si i 48s 48s i i 8s i 28s 8s 8s")
LENGTH = _LAYOUT.size  # 172


class DeadLetterHeader(NamedTuple):
    reason: int
    dest_q_name: str
    dest_q_mgr_name: str
    encoding: int  # of the message that follows
    ccsid: int
    format: str
    put_appl_type: int
    put_appl_name: str
    put_date: str
    put_time: str


def _text(value: str, size: int) -> bytes:
    return value.encode("utf-8")[:size].ljust(size, b" ")


def encode(header: DeadLetterHeader) -> bytes:
    return _LAYOUT.pack(
        STRUC_ID, VERSION_1, header.reason, _text(header.dest_q_name, 48),
        _text(header.dest_q_mgr_name, 48), header.encoding, header.ccsid, _text(header.format, 8),
        header.put_appl_type, _text(header.put_appl_name, 28), _text(header.put_date, 8),
        _text(header.put_time, 8),
    )


def decode(data: bytes) -> tuple[DeadLetterHeader, bytes]:
    """The header and the original message data after it."""
    if len(data) < LENGTH or data[:4] != STRUC_ID:
        raise ValueError("not an MQDLH")
    fields = _LAYOUT.unpack_from(data)
    text = [f.decode("utf-8").rstrip(" ") if isinstance(f, bytes) else f for f in fields]
    header = DeadLetterHeader(
        fields[2], str(text[3]), str(text[4]), fields[5], fields[6], str(text[7]), fields[8],
        str(text[9]), str(text[10]), str(text[11]),
    )
    return header, data[LENGTH:]
