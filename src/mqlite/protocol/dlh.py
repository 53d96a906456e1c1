"""MQDLH, the dead-letter header IBM puts in front of an undeliverable message.

The layout is IBM's (version 1, 172 bytes, native little-endian integers) so that tools that
read IBM dead-letter queues can read ours. Sans-IO: bytes in, bytes out.
"""

from __future__ import annotations

import struct
from typing import NamedTuple

from mqlite.protocol.fields import HeaderError, fixed_text, trimmed

MQRC_DLH_ERROR = 2141

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


def encode(header: DeadLetterHeader) -> bytes:
    return _LAYOUT.pack(
        STRUC_ID, VERSION_1, header.reason, fixed_text(header.dest_q_name, 48),
        fixed_text(header.dest_q_mgr_name, 48), header.encoding, header.ccsid, fixed_text(header.format, 8),
        header.put_appl_type, fixed_text(header.put_appl_name, 28), fixed_text(header.put_date, 8),
        fixed_text(header.put_time, 8),
    )


def decode(data: bytes) -> tuple[DeadLetterHeader, bytes]:
    """The header and the original message data after it; ``HeaderError`` (2141) when ``data``
    does not start with one."""
    if len(data) < LENGTH or data[:4] != STRUC_ID:
        raise HeaderError(MQRC_DLH_ERROR, "not an MQDLH")
    f = _LAYOUT.unpack_from(data)
    header = DeadLetterHeader(
        f[2], trimmed(f[3]), trimmed(f[4]), f[5], f[6], trimmed(f[7]), f[8], trimmed(f[9]),
        trimmed(f[10]), trimmed(f[11]),
    )
    return header, data[LENGTH:]
