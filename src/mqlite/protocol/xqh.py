"""MQXQH, the transmission-queue header in front of a message bound for another queue manager.

IBM's layout (StrucId "XQH ", version 1, RemoteQName, RemoteQMgrName, then the original
MQMD version 1), so the channel agents of the distributed issue can read what is queued
today. Sans-IO: bytes in, bytes out.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from functools import lru_cache

from mqlite.message import MessageDescriptor
from mqlite.protocol.fields import HeaderError, fixed_text, trimmed

MQRC_MD_ERROR = 2026
MQRC_XQH_ERROR = 2260

STRUC_ID = b"XQH "
FORMAT_XMIT_Q_HEADER = "MQXMIT"
_HEAD = struct.Struct("<4si48s48s")
# MQMD version 1 (324 bytes): IBM field order and sizes.
_MD1 = struct.Struct("<4si i i i i i i 8s i i 24s 24s i 48s 48s 12s 32s 32s i 28s 8s 8s 4s")
LENGTH = _HEAD.size + _MD1.size


@dataclass(slots=True, init=False)  # one per arriving message: __init__ written out (compiled)
class TransmissionHeader:
    remote_q_name: str
    remote_q_mgr_name: str
    md: MessageDescriptor

    def __init__(self, remote_q_name: str, remote_q_mgr_name: str, md: MessageDescriptor) -> None:
        self.remote_q_name = remote_q_name
        self.remote_q_mgr_name = remote_q_mgr_name
        self.md = md


# The CHAR fields of a sender's messages repeat (its queue names, user, application, the date):
# padded once each, not at every message.
_fixed = lru_cache(maxsize=4096)(fixed_text)


def encode_md1(md: MessageDescriptor) -> bytes:
    fixed = _fixed
    return _MD1.pack(
        b"MD  ", 1, md.Report, md.MsgType, md.Expiry, md.Feedback, md.Encoding, md.CodedCharSetId,
        fixed(md.Format, 8), md.Priority, md.Persistence, md.MsgId, md.CorrelId, md.BackoutCount,
        fixed(md.ReplyToQ, 48), fixed(md.ReplyToQMgr, 48), fixed(md.UserIdentifier, 12),
        md.AccountingToken, fixed(md.ApplIdentityData, 32), md.PutApplType,
        fixed(md.PutApplName, 28), fixed(md.PutDate, 8), fixed_text(md.PutTime, 8),
        fixed(md.ApplOriginData, 4),
    )


def decode_md1(data: bytes, offset: int = 0) -> MessageDescriptor:
    """An MQMD version 1 (or later: the fields after version 1's are ignored) at ``offset``;
    ``HeaderError`` (2026) when ``data`` does not have one there."""
    if len(data) < offset + _MD1.size or data[offset:offset + 4] != b"MD  ":
        raise HeaderError(MQRC_MD_ERROR, "not an MQMD")
    f = _MD1.unpack_from(data, offset)
    text = _text
    return MessageDescriptor(  # positional, in MD_FIELDS order: much faster than 22 keywords
        f[2], f[3], f[4], f[5], f[6], f[7], text(f[8]), f[9], f[10], f[11], f[12], f[13], text(f[14]),
        text(f[15]), text(f[16]), f[17], text(f[18]), f[19], text(f[20]), text(f[21]), text(f[22]),
        text(f[23]),
    )


_TEXTS: dict[bytes, str] = {}  # CHAR fields seen lately: a channel's messages repeat most of them


def _text(raw: bytes) -> str:
    value = _TEXTS.get(raw)
    if value is None:
        if len(_TEXTS) >= 4096:
            _TEXTS.clear()
        value = _TEXTS[raw] = trimmed(raw)
    return value


@lru_cache(maxsize=1024)
def _head(remote_q: str, remote_qmgr: str) -> bytes:
    return _HEAD.pack(STRUC_ID, 1, fixed_text(remote_q, 48), fixed_text(remote_qmgr, 48))


def wrap(remote_q: str, remote_qmgr: str, md: MessageDescriptor, body: bytes) -> bytes:
    return b"".join((_head(remote_q, remote_qmgr), encode_md1(md), body))


def unwrap(data: bytes) -> tuple[TransmissionHeader, bytes]:
    """The header and the message data after it; ``HeaderError`` (2260, or 2026 for its MQMD)
    when ``data`` does not start with one."""
    if len(data) < LENGTH or data[:4] != STRUC_ID:
        raise HeaderError(MQRC_XQH_ERROR, "not an MQXQH")
    _, _, rq, rqm = _HEAD.unpack_from(data)
    md = decode_md1(data, _HEAD.size)
    return TransmissionHeader(_text(rq), _text(rqm), md), data[LENGTH:]
