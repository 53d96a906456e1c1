"""Messages: the MQMD (message descriptor), message properties and the body.

The descriptor keeps IBM's field names (``MsgId``, ``CorrelId``...) so that the
core, the wire codec and the pymqi-style client speak of the same thing.
Character fields are ``str`` (blank-trimmed), byte fields are ``bytes``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Final

# Property values allowed by MQ: boolean, integers, floats, strings, byte strings, null.
PropertyValue = bool | int | float | str | bytes | None
Properties = dict[str, PropertyValue]

# A cluster transmission message put not fixed to its instance carries this property while it
# waits on the queue manager's cluster transmission queue; the cluster-sender drops it on send.
NOT_FIXED_PROPERTY: Final = "mqlite.bind.notfixed"

NULL_ID = bytes(24)
NULL_ACCOUNTING_TOKEN = bytes(32)

MQEI_UNLIMITED: Final = -1
MQPRI_PRIORITY_AS_Q_DEF: Final = -1
MQPER_PERSISTENCE_AS_Q_DEF: Final = 2
MQPER_NOT_PERSISTENT: Final = 0
MQPER_PERSISTENT: Final = 1
MQMT_DATAGRAM: Final = 8
MQENC_NATIVE: Final = 0x222  # 546, the value IBM uses on Linux x86
MQCCSI_UTF8: Final = 1208

# Order of the fields on the wire and in the store (positional lists are compact and fast).
MD_FIELDS: tuple[str, ...] = (
    "Report", "MsgType", "Expiry", "Feedback", "Encoding", "CodedCharSetId", "Format",
    "Priority", "Persistence", "MsgId", "CorrelId", "BackoutCount", "ReplyToQ",
    "ReplyToQMgr", "UserIdentifier", "AccountingToken", "ApplIdentityData", "PutApplType",
    "PutApplName", "PutDate", "PutTime", "ApplOriginData", "GroupId", "MsgSeqNumber",
    "Offset", "MsgFlags", "OriginalLength",
)
BYTE_FIELDS = frozenset({"MsgId", "CorrelId", "AccountingToken", "GroupId"})
_MD_FIELD_COUNT: Final = 27  # len(MD_FIELDS), folded into the compiled code
assert len(MD_FIELDS) == _MD_FIELD_COUNT


@dataclass(slots=True, init=False)
class MessageDescriptor:
    """MQMD version 2, with IBM's defaults (MQMD_DEFAULT). Its ``__init__`` is written out: compiled,
    a dataclass's generated one stays interpreted (870 ns a descriptor, against 240)."""

    Report: int = 0
    MsgType: int = MQMT_DATAGRAM
    Expiry: int = MQEI_UNLIMITED  # tenths of a second
    Feedback: int = 0
    Encoding: int = MQENC_NATIVE
    CodedCharSetId: int = MQCCSI_UTF8
    Format: str = ""
    Priority: int = MQPRI_PRIORITY_AS_Q_DEF
    Persistence: int = MQPER_PERSISTENCE_AS_Q_DEF
    MsgId: bytes = NULL_ID
    CorrelId: bytes = NULL_ID
    BackoutCount: int = 0
    ReplyToQ: str = ""
    ReplyToQMgr: str = ""
    UserIdentifier: str = ""
    AccountingToken: bytes = NULL_ACCOUNTING_TOKEN
    ApplIdentityData: str = ""
    PutApplType: int = 0
    PutApplName: str = ""
    PutDate: str = ""
    PutTime: str = ""
    ApplOriginData: str = ""
    GroupId: bytes = NULL_ID
    MsgSeqNumber: int = 1
    Offset: int = 0
    MsgFlags: int = 0
    OriginalLength: int = -1

    def __init__(self, Report: int = 0, MsgType: int = MQMT_DATAGRAM, Expiry: int = MQEI_UNLIMITED,
                 Feedback: int = 0, Encoding: int = MQENC_NATIVE, CodedCharSetId: int = MQCCSI_UTF8,
                 Format: str = "", Priority: int = MQPRI_PRIORITY_AS_Q_DEF,
                 Persistence: int = MQPER_PERSISTENCE_AS_Q_DEF, MsgId: bytes = NULL_ID, CorrelId: bytes = NULL_ID,
                 BackoutCount: int = 0, ReplyToQ: str = "", ReplyToQMgr: str = "", UserIdentifier: str = "",
                 AccountingToken: bytes = NULL_ACCOUNTING_TOKEN, ApplIdentityData: str = "", PutApplType: int = 0,
                 PutApplName: str = "", PutDate: str = "", PutTime: str = "", ApplOriginData: str = "",
                 GroupId: bytes = NULL_ID, MsgSeqNumber: int = 1, Offset: int = 0, MsgFlags: int = 0,
                 OriginalLength: int = -1) -> None:
        self.Report = Report
        self.MsgType = MsgType
        self.Expiry = Expiry
        self.Feedback = Feedback
        self.Encoding = Encoding
        self.CodedCharSetId = CodedCharSetId
        self.Format = Format
        self.Priority = Priority
        self.Persistence = Persistence
        self.MsgId = MsgId
        self.CorrelId = CorrelId
        self.BackoutCount = BackoutCount
        self.ReplyToQ = ReplyToQ
        self.ReplyToQMgr = ReplyToQMgr
        self.UserIdentifier = UserIdentifier
        self.AccountingToken = AccountingToken
        self.ApplIdentityData = ApplIdentityData
        self.PutApplType = PutApplType
        self.PutApplName = PutApplName
        self.PutDate = PutDate
        self.PutTime = PutTime
        self.ApplOriginData = ApplOriginData
        self.GroupId = GroupId
        self.MsgSeqNumber = MsgSeqNumber
        self.Offset = Offset
        self.MsgFlags = MsgFlags
        self.OriginalLength = OriginalLength

    def to_list(self) -> list[Any]:
        # Spelt out (in MD_FIELDS order): compiled, each is a read of the object's own struct;
        # an attrgetter would look every field up by name through the type.
        return [self.Report, self.MsgType, self.Expiry, self.Feedback, self.Encoding, self.CodedCharSetId,
                self.Format, self.Priority, self.Persistence, self.MsgId, self.CorrelId, self.BackoutCount,
                self.ReplyToQ, self.ReplyToQMgr, self.UserIdentifier, self.AccountingToken, self.ApplIdentityData,
                self.PutApplType, self.PutApplName, self.PutDate, self.PutTime, self.ApplOriginData, self.GroupId,
                self.MsgSeqNumber, self.Offset, self.MsgFlags, self.OriginalLength]

    @classmethod
    def from_list(cls, values: list[Any]) -> MessageDescriptor:
        if len(values) != _MD_FIELD_COUNT:
            raise ValueError(f"MQMD needs {_MD_FIELD_COUNT} fields, got {len(values)}")
        v = values
        return MessageDescriptor(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11], v[12],
                                 v[13], v[14], v[15], v[16], v[17], v[18], v[19], v[20], v[21], v[22], v[23], v[24],
                                 v[25], v[26])

    def copy(self) -> MessageDescriptor:
        return MessageDescriptor(  # every publication copy makes one: spelt out, a native call compiled
            self.Report, self.MsgType, self.Expiry, self.Feedback, self.Encoding, self.CodedCharSetId, self.Format,
            self.Priority, self.Persistence, self.MsgId, self.CorrelId, self.BackoutCount, self.ReplyToQ,
            self.ReplyToQMgr, self.UserIdentifier, self.AccountingToken, self.ApplIdentityData, self.PutApplType,
            self.PutApplName, self.PutDate, self.PutTime, self.ApplOriginData, self.GroupId, self.MsgSeqNumber,
            self.Offset, self.MsgFlags, self.OriginalLength)


@dataclass(slots=True, init=False)
class Message:
    """One message as the queue manager holds it (``__init__`` written out, as the descriptor's)."""

    md: MessageDescriptor
    body: bytes
    properties: Properties = field(default_factory=dict)

    def __init__(self, md: MessageDescriptor, body: bytes, properties: Properties | None = None) -> None:
        self.md = md
        self.body = body
        self.properties = {} if properties is None else properties

    @property
    def persistent(self) -> bool:
        return self.md.Persistence == MQPER_PERSISTENT

    def copy(self) -> Message:
        return Message(self.md.copy(), self.body, dict(self.properties))


_last_stamp: list[Any] = [-1, ("", "")]


def put_date_time(now: float) -> tuple[str, str]:
    """PutDate (YYYYMMDD) and PutTime (HHMMSSTH) in GMT, as MQ sets them.

    Cached per hundredth of a second: a busy queue manager stamps many messages in each.
    """
    stamp = int(now * 100)
    if stamp == _last_stamp[0]:
        return _last_stamp[1]  # type: ignore[no-any-return]
    t = time.gmtime(now)
    result = (
        f"{t.tm_year:04d}{t.tm_mon:02d}{t.tm_mday:02d}",
        f"{t.tm_hour:02d}{t.tm_min:02d}{t.tm_sec:02d}{stamp % 100:02d}",
    )
    _last_stamp[0], _last_stamp[1] = stamp, result
    return result


def put_timestamp(md: MessageDescriptor) -> float | None:
    """The epoch seconds of PutDate/PutTime, or None when they are not set."""
    hundredths = put_hundredths(md.PutDate, md.PutTime)
    return None if hundredths is None else hundredths / 100


_midnights: dict[str, int] = {}  # PutDate -> its midnight (UTC) in epoch seconds: few dates, read often


def put_hundredths(date: str, time_of_day: str) -> int | None:
    """PutDate (YYYYMMDD) and PutTime (HHMMSSTH) as hundredths of a second since the epoch (UTC),
    or None when they are not set. (A date's midnight is computed once: the statistics read this
    at every get of a collected queue.)"""
    if len(date) != 8 or len(time_of_day) < 6 or not (date.isdigit() and time_of_day[:8].isdigit()):
        return None
    midnight = _midnights.get(date)
    if midnight is None:
        import calendar

        midnight = calendar.timegm((int(date[0:4]), int(date[4:6]), int(date[6:8]), 0, 0, 0))
        if len(_midnights) > 64:
            _midnights.clear()
        _midnights[date] = midnight
    t = time_of_day
    seconds = midnight + int(t[0:2]) * 3600 + int(t[2:4]) * 60 + int(t[4:6])
    return seconds * 100 + (int(t[6:8]) if len(t) >= 8 else 0)
