"""MQXQH, the transmission-queue header in front of a message bound for another queue manager.

IBM's layout (StrucId "XQH ", version 1, RemoteQName, RemoteQMgrName, then the original
MQMD version 1), so the channel agents of the distributed issue can read what is queued
today. Sans-IO: bytes in, bytes out.
"""

from __future__ import annotations

import struct
from typing import NamedTuple

from mqlite.core.message import MessageDescriptor

STRUC_ID = b"XQH "
FORMAT_XMIT_Q_HEADER = "MQXMIT"
_HEAD = struct.Struct("<4si48s48s")
# MQMD version 1 (324 bytes): IBM field order and sizes.
_MD1 = struct.Struct("<4si i i i i i i 8s i i 24s 24s i 48s 48s 12s 32s 32s i 28s 8s 8s 4s")
LENGTH = _HEAD.size + _MD1.size


class TransmissionHeader(NamedTuple):
    remote_q_name: str
    remote_q_mgr_name: str
    md: MessageDescriptor


def _text(value: str, size: int) -> bytes:
    return value.encode("utf-8")[:size].ljust(size, b" ")


def _str(raw: bytes) -> str:
    return raw.decode("utf-8").rstrip(" \0")


def encode_md1(md: MessageDescriptor) -> bytes:
    return _MD1.pack(
        b"MD  ", 1, md.Report, md.MsgType, md.Expiry, md.Feedback, md.Encoding, md.CodedCharSetId,
        _text(md.Format, 8), md.Priority, md.Persistence, md.MsgId, md.CorrelId, md.BackoutCount,
        _text(md.ReplyToQ, 48), _text(md.ReplyToQMgr, 48), _text(md.UserIdentifier, 12),
        md.AccountingToken, _text(md.ApplIdentityData, 32), md.PutApplType,
        _text(md.PutApplName, 28), _text(md.PutDate, 8), _text(md.PutTime, 8),
        _text(md.ApplOriginData, 4),
    )


def decode_md1(data: bytes) -> MessageDescriptor:
    f = _MD1.unpack_from(data)
    if f[0] != b"MD  ":
        raise ValueError("not an MQMD")
    return MessageDescriptor(
        Report=f[2], MsgType=f[3], Expiry=f[4], Feedback=f[5], Encoding=f[6], CodedCharSetId=f[7],
        Format=_str(f[8]), Priority=f[9], Persistence=f[10], MsgId=f[11], CorrelId=f[12],
        BackoutCount=f[13], ReplyToQ=_str(f[14]), ReplyToQMgr=_str(f[15]), UserIdentifier=_str(f[16]),
        AccountingToken=f[17], ApplIdentityData=_str(f[18]), PutApplType=f[19],
        PutApplName=_str(f[20]), PutDate=_str(f[21]), PutTime=_str(f[22]), ApplOriginData=_str(f[23]),
    )


def wrap(remote_q: str, remote_qmgr: str, md: MessageDescriptor, body: bytes) -> bytes:
    return _HEAD.pack(STRUC_ID, 1, _text(remote_q, 48), _text(remote_qmgr, 48)) + encode_md1(md) + body


def unwrap(data: bytes) -> tuple[TransmissionHeader, bytes]:
    if len(data) < LENGTH or data[:4] != STRUC_ID:
        raise ValueError("not an MQXQH")
    _, _, rq, rqm = _HEAD.unpack_from(data)
    md = decode_md1(data[_HEAD.size:])
    return TransmissionHeader(_str(rq), _str(rqm), md), data[LENGTH:]
