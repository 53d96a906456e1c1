"""Programmable Command Format (PCF): the MQCFH header and the parameter structures after it, as
IBM lays them out (event messages, and later PCF commands and responses). Sans-IO: bytes in,
bytes out.

The same codec carries PCF commands to the command server (an MQCFH of type MQCFT_COMMAND or
MQCFT_COMMAND_XR) and its responses (MQCFT_RESPONSE, or MQCFT_XR_ITEM ... MQCFT_XR_SUMMARY
answering an XR command), with the filters of INQUIRE commands: ``IntegerFilter`` MQCFIF,
``StringFilter`` MQCFSF, ``ByteStringFilter`` MQCFBF.

A message is an ``MQCFH`` and a list of ``(parameter, value)`` pairs; the value's Python type
chooses the structure: ``int`` MQCFIN, ``str`` MQCFST, ``bytes`` MQCFBS, ``list[int]`` MQCFIL,
``list[str]`` MQCFSL, ``Group`` MQCFGR; ``Int64`` and ``Int64List`` (an ``int`` and a
``list[int]`` marked 64-bit) MQCFIN64 and MQCFIL64 whatever their size, as IBM sends byte counts
(a plain ``int`` past 32 bits goes as MQCFIN64 too). MQCFIN64 and MQCFIL64 decode to ``Int64`` and
``Int64List``, so what was decoded encodes back as it came. Integers are in the byte order the
message's MQMD Encoding names (reversed, little-endian, on Linux x86); strings are in the CCSID
they carry (UTF-8 when encoded here). Malformed input raises ``PcfError`` with IBM's MQRCCF_* reason for it.
"""

from __future__ import annotations

import struct
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

from mqlite import cmqc as C

MQENC_INTEGER_MASK = 0x0000000F
MQENC_INTEGER_NORMAL = 0x00000001  # big-endian
UTF8 = 1208
_MAX_PARAMETERS = 100_000  # far more than any real message: a bad count fails fast


class PcfError(ValueError):
    """Bytes that are not a PCF message: ``reason`` is IBM's MQRCCF_* code for what is wrong."""

    def __init__(self, reason: int, text: str, parameter: int | None = None) -> None:
        super().__init__(f"{text} (reason {reason})")
        self.reason = reason
        self.text = text
        self.parameter = parameter  # the parameter whose structure is wrong, where it could be read


class Group(NamedTuple):
    """MQCFGR: a parameter whose value is a list of parameters."""

    parameters: list[tuple[int, Value]]


class IntegerFilter(NamedTuple):
    """MQCFIF: ``Operator`` (MQCFOP_*) and the integer the parameter is compared with."""

    operator: int
    value: int


class StringFilter(NamedTuple):
    """MQCFSF: ``Operator`` (MQCFOP_*) and the string the parameter is compared with."""

    operator: int
    value: str


class ByteStringFilter(NamedTuple):
    """MQCFBF: ``Operator`` (MQCFOP_*) and the byte string the parameter is compared with."""

    operator: int
    value: bytes


class Int64(int):
    """An integer sent as MQCFIN64 whatever its size (IBM's 64-bit fields: MQIAMO64_*)."""

    __slots__ = ()


class Int64List(list[int]):
    """An integer list sent as MQCFIL64 whatever its values (IBM's 64-bit fields: MQIAMO64_*)."""

    __slots__ = ()


Filter = IntegerFilter | StringFilter | ByteStringFilter
Value = int | str | bytes | list[int] | list[str] | Group | Filter
REQUEST_TYPES = frozenset({C.MQCFT_COMMAND, C.MQCFT_COMMAND_XR})


@dataclass
class MQCFH:
    """The PCF header (36 bytes); ``ParameterCount`` is set from the parameters on encode."""

    Type: int = C.MQCFT_EVENT
    Command: int = C.MQCMD_Q_MGR_EVENT
    Version: int = C.MQCFH_VERSION_1
    MsgSeqNumber: int = 1
    Control: int = C.MQCFC_LAST
    CompCode: int = C.MQCC_WARNING
    Reason: int = 0
    ParameterCount: int = 0


@dataclass
class PcfMessage:
    header: MQCFH
    parameters: list[tuple[int, Value]] = field(default_factory=list)

    def get(self, parameter: int, default: Value | None = None) -> Value | None:
        for pid, value in self.parameters:
            if pid == parameter:
                return value
        return default


def _pad4(n: int) -> int:
    return (n + 3) & ~3


def little_endian(encoding: int) -> bool:
    """Whether an MQMD Encoding names reversed (little-endian) integers; IBM's default elsewhere."""
    return encoding & MQENC_INTEGER_MASK != MQENC_INTEGER_NORMAL


# -- encoding ------------------------------------------------------------------------------------
_INT32_MIN, _INT32_MAX = -(2**31), 2**31 - 1


def encode(message: PcfMessage, little: bool = True, widths: Mapping[int, int] | None = None) -> bytes:
    """The message's bytes; ``widths`` (parameter -> length): strings of those parameters blank
    padded to it, as IBM's command server pads its responses (each member of a string list too)."""
    order = "<" if little else ">"
    h = message.header
    out = [struct.pack(order + "9i", h.Type, C.MQCFH_STRUC_LENGTH, h.Version, h.Command, h.MsgSeqNumber,
                       h.Control, h.CompCode, h.Reason, len(message.parameters))]
    memo = _ENCODED[(order, widths is not None)]
    for parameter, value in message.parameters:
        kind = type(value)
        if kind is int or kind is str:  # (the same few values, response after response: encoded once)
            key = (parameter, value)
            encoded = memo.get(key)
            if encoded is None:
                if len(memo) >= _MEMO_LIMIT:
                    memo.clear()
                encoded = memo[key] = _encode_parameter(order, parameter, _padded(parameter, value, widths))
            out.append(encoded)
        else:
            out.append(_encode_parameter(order, parameter, _padded(parameter, value, widths)))
    return b"".join(out)


def _padded(parameter: int, value: Value, widths: Mapping[int, int] | None) -> Value:
    width = widths.get(parameter) if widths else None
    if width is None:
        return value
    if isinstance(value, str):
        return value.ljust(width)
    if isinstance(value, list) and value and isinstance(value[0], str):
        return [str(v).ljust(width) for v in value]
    return value


_MEMO_LIMIT = 100_000
_ENCODED: dict[tuple[str, bool], dict[tuple[int, Value], bytes]] = {
    (order, padded): {} for order in "<>" for padded in (False, True)}


def _encode_parameter(order: str, parameter: int, value: Value) -> bytes:
    if isinstance(value, int):
        if isinstance(value, Int64) or not _INT32_MIN <= value <= _INT32_MAX:  # what an MQCFIN64 held goes back as one
            return struct.pack(order + "4iq", C.MQCFT_INTEGER64, C.MQCFIN64_STRUC_LENGTH, parameter, 0, value)
        return struct.pack(order + "4i", C.MQCFT_INTEGER, C.MQCFIN_STRUC_LENGTH, parameter, int(value))
    if isinstance(value, str):
        data = value.encode("utf-8")
        length = _pad4(C.MQCFST_STRUC_LENGTH_FIXED + len(data))
        head = struct.pack(order + "5i", C.MQCFT_STRING, length, parameter, UTF8, len(data))
        return (head + data).ljust(length, b"\0")
    if isinstance(value, bytes):
        length = _pad4(C.MQCFBS_STRUC_LENGTH_FIXED + len(value))
        head = struct.pack(order + "4i", C.MQCFT_BYTE_STRING, length, parameter, len(value))
        return (head + value).ljust(length, b"\0")
    if isinstance(value, IntegerFilter):
        return struct.pack(order + "5i", C.MQCFT_INTEGER_FILTER, C.MQCFIF_STRUC_LENGTH, parameter,
                           value.operator, value.value)
    if isinstance(value, StringFilter):
        data = value.value.encode("utf-8")
        length = _pad4(C.MQCFSF_STRUC_LENGTH_FIXED + len(data))
        head = struct.pack(order + "6i", C.MQCFT_STRING_FILTER, length, parameter, value.operator, UTF8, len(data))
        return (head + data).ljust(length, b"\0")
    if isinstance(value, ByteStringFilter):
        length = _pad4(C.MQCFBF_STRUC_LENGTH_FIXED + len(value.value))
        head = struct.pack(order + "5i", C.MQCFT_BYTE_STRING_FILTER, length, parameter, value.operator,
                           len(value.value))
        return (head + value.value).ljust(length, b"\0")
    if isinstance(value, Group):
        body = b"".join(_encode_parameter(order, p, v) for p, v in value.parameters)
        return struct.pack(order + "4i", C.MQCFT_GROUP, C.MQCFGR_STRUC_LENGTH, parameter,
                           len(value.parameters)) + body
    if all(isinstance(v, str) for v in value):
        strings = [str(v).encode("utf-8") for v in value]
        # at least 1 wide when there are members: decode refuses Count > 0 of width 0 (no DoS)
        width = max((len(s) for s in strings), default=0) or (1 if strings else 0)
        data = b"".join(s.ljust(width, b" ") for s in strings)  # each member blank padded to one width
        length = _pad4(C.MQCFSL_STRUC_LENGTH_FIXED + len(data))
        head = struct.pack(order + "6i", C.MQCFT_STRING_LIST, length, parameter, UTF8, len(strings), width)
        return (head + data).ljust(length, b"\0")
    numbers = [int(v) for v in value]
    if isinstance(value, Int64List) or any(not _INT32_MIN <= n <= _INT32_MAX for n in numbers):
        return struct.pack(order + f"4i{len(numbers)}q", C.MQCFT_INTEGER64_LIST,
                           C.MQCFIL_STRUC_LENGTH_FIXED + 8 * len(numbers), parameter, len(numbers), *numbers)
    return struct.pack(order + f"4i{len(numbers)}i", C.MQCFT_INTEGER_LIST,
                       C.MQCFIL_STRUC_LENGTH_FIXED + 4 * len(numbers), parameter, len(numbers), *numbers)


# -- decoding ------------------------------------------------------------------------------------
def decode(data: bytes, little: bool = True) -> PcfMessage:
    """A PCF message; ``PcfError`` when ``data`` is not one (nothing else is raised)."""
    order = "<" if little else ">"
    if len(data) < C.MQCFH_STRUC_LENGTH:
        raise PcfError(C.MQRCCF_MSG_LENGTH_ERROR, f"{len(data)} bytes is shorter than an MQCFH")
    fields = struct.unpack_from(order + "9i", data)
    if fields[1] != C.MQCFH_STRUC_LENGTH:
        raise PcfError(C.MQRCCF_CFH_LENGTH_ERROR, f"MQCFH StrucLength {fields[1]}")
    if not 1 <= fields[2] <= C.MQCFH_CURRENT_VERSION:
        raise PcfError(C.MQRCCF_CFH_VERSION_ERROR, f"MQCFH Version {fields[2]}")
    count = fields[8]
    if not 0 <= count <= _MAX_PARAMETERS:
        raise PcfError(C.MQRCCF_CFH_PARM_COUNT_ERROR, f"MQCFH ParameterCount {count}")
    header = MQCFH(Type=fields[0], Version=fields[2], Command=fields[3], MsgSeqNumber=fields[4],
                   Control=fields[5], CompCode=fields[6], Reason=fields[7], ParameterCount=count)
    parameters, offset = _decode_parameters(data, C.MQCFH_STRUC_LENGTH, count, order)
    if offset != len(data):
        raise PcfError(C.MQRCCF_MSG_LENGTH_ERROR, f"{len(data) - offset} bytes after the last parameter")
    return PcfMessage(header, parameters)


def _decode_parameters(data: bytes, offset: int, count: int, order: str) -> tuple[list[tuple[int, Value]], int]:
    parameters: list[tuple[int, Value]] = []
    append = parameters.append
    head, integer = _HEADS[order], _INTEGERS[order]
    memo = _DECODED[order]
    end = len(data)
    for _ in range(count):
        if end - offset >= C.MQCFIN_STRUC_LENGTH:  # an MQCFIN, the commonest, read in one go
            kind, length, parameter, number = integer(data, offset)
            if kind == C.MQCFT_INTEGER and length == C.MQCFIN_STRUC_LENGTH:
                append((parameter, number))
                offset += length
                continue
        elif end - offset < 12:
            raise PcfError(C.MQRCCF_PARM_COUNT_TOO_BIG, "the message ends before its ParameterCount parameters")
        else:
            kind, length, parameter = head(data, offset)
        if length < 12 or length % 4 or offset + length > end:
            raise PcfError(C.MQRCCF_STRUCTURE_TYPE_ERROR if length < 12 else C.MQRCCF_MSG_LENGTH_ERROR,
                           f"parameter {parameter}: StrucLength {length}", parameter)
        part = data[offset:offset + length]
        if kind == C.MQCFT_GROUP:
            if length != C.MQCFGR_STRUC_LENGTH:
                raise PcfError(C.MQRCCF_CFGR_LENGTH_ERROR, f"group {parameter}: StrucLength {length}", parameter)
            (members,) = struct.unpack_from(order + "i", part, 12)
            if not 0 <= members <= _MAX_PARAMETERS:
                raise PcfError(C.MQRCCF_CFGR_PARM_COUNT_ERROR, f"group {parameter}: ParameterCount {members}",
                               parameter)
            inner, offset = _decode_parameters(data, offset + length, members, order)
            append((parameter, Group(inner)))
            continue
        if kind == C.MQCFT_STRING and length <= _MEMO_WIDTH:
            value = memo.get(part)  # (responses repeat their values: each is decoded once)
            if value is None:
                if len(memo) >= _MEMO_LIMIT:
                    memo.clear()
                value = memo[part] = _decode_value(kind, parameter, part, order)
            append((parameter, value))
        else:
            append((parameter, _decode_value(kind, parameter, part, order)))
        offset += length
    return parameters, offset


_HEADS = {order: struct.Struct(order + "3i").unpack_from for order in "<>"}
_INTEGERS = {order: struct.Struct(order + "4i").unpack_from for order in "<>"}
_MEMO_WIDTH = 128  # bytes: an integer, a name, a date; not a long string
_DECODED: dict[str, dict[bytes, Value]] = {"<": {}, ">": {}}


def _text(raw: bytes, ccsid: int) -> str:
    codec = "latin-1" if ccsid in (819, 1051) else "utf-8"
    return raw.decode(codec, "replace").rstrip(" \0")


def _decode_value(kind: int, parameter: int, part: bytes, order: str) -> Value:
    length = len(part)
    if kind == C.MQCFT_INTEGER:
        if length != C.MQCFIN_STRUC_LENGTH:
            raise PcfError(C.MQRCCF_CFIN_LENGTH_ERROR, f"MQCFIN {parameter}: StrucLength {length}", parameter)
        return int(struct.unpack_from(order + "i", part, 12)[0])
    if kind == C.MQCFT_INTEGER64:
        if length != C.MQCFIN64_STRUC_LENGTH:
            raise PcfError(C.MQRCCF_CFIN_LENGTH_ERROR, f"MQCFIN64 {parameter}: StrucLength {length}", parameter)
        return Int64(struct.unpack_from(order + "q", part, 16)[0])
    if kind == C.MQCFT_STRING:
        if length < C.MQCFST_STRUC_LENGTH_FIXED:
            raise PcfError(C.MQRCCF_CFST_LENGTH_ERROR, f"MQCFST {parameter}: StrucLength {length}", parameter)
        ccsid, size = struct.unpack_from(order + "2i", part, 12)
        if not 0 <= size <= length - C.MQCFST_STRUC_LENGTH_FIXED:
            raise PcfError(C.MQRCCF_CFST_STRING_LENGTH_ERR, f"MQCFST {parameter}: StringLength {size}", parameter)
        return _text(part[20:20 + size], ccsid)
    if kind == C.MQCFT_BYTE_STRING:
        if length < C.MQCFBS_STRUC_LENGTH_FIXED:
            raise PcfError(C.MQRCCF_CFBS_LENGTH_ERROR, f"MQCFBS {parameter}: StrucLength {length}", parameter)
        (size,) = struct.unpack_from(order + "i", part, 12)
        if not 0 <= size <= length - C.MQCFBS_STRUC_LENGTH_FIXED:
            raise PcfError(C.MQRCCF_CFBS_STRING_LENGTH_ERR, f"MQCFBS {parameter}: StringLength {size}", parameter)
        return bytes(part[16:16 + size])
    if kind == C.MQCFT_STRING_LIST:
        if length < C.MQCFSL_STRUC_LENGTH_FIXED:
            raise PcfError(C.MQRCCF_CFSL_LENGTH_ERROR, f"MQCFSL {parameter}: StrucLength {length}", parameter)
        ccsid, count, width = struct.unpack_from(order + "3i", part, 12)
        # max(width, 1): strings of width 0 still cost a list entry each, so a Count of 2**31
        # with StringLength 0 must not pass as "fits in the structure".
        if count < 0 or width < 0 or count * max(width, 1) > length - C.MQCFSL_STRUC_LENGTH_FIXED:
            raise PcfError(C.MQRCCF_CFSL_COUNT_ERROR, f"MQCFSL {parameter}: {count} strings of {width}", parameter)
        return [_text(part[24 + i * width:24 + (i + 1) * width], ccsid) for i in range(count)]
    if kind in (C.MQCFT_INTEGER_LIST, C.MQCFT_INTEGER64_LIST):
        size = 4 if kind == C.MQCFT_INTEGER_LIST else 8
        (count,) = struct.unpack_from(order + "i", part, 12)
        if count < 0 or C.MQCFIL_STRUC_LENGTH_FIXED + size * count != length:
            raise PcfError(C.MQRCCF_CFIL_COUNT_ERROR, f"integer list {parameter}: Count {count}", parameter)
        numbers = struct.unpack_from(order + f"{count}{'i' if size == 4 else 'q'}", part, 16)
        return list(numbers) if size == 4 else Int64List(numbers)
    if kind == C.MQCFT_INTEGER_FILTER:
        if length != C.MQCFIF_STRUC_LENGTH:
            raise PcfError(C.MQRCCF_CFIF_LENGTH_ERROR, f"MQCFIF {parameter}: StrucLength {length}", parameter)
        operator, number = struct.unpack_from(order + "2i", part, 12)
        return IntegerFilter(int(operator), int(number))
    if kind == C.MQCFT_STRING_FILTER:
        if length < C.MQCFSF_STRUC_LENGTH_FIXED:
            raise PcfError(C.MQRCCF_CFSF_LENGTH_ERROR, f"MQCFSF {parameter}: StrucLength {length}", parameter)
        operator, ccsid, size = struct.unpack_from(order + "3i", part, 12)
        if not 0 <= size <= length - C.MQCFSF_STRUC_LENGTH_FIXED:
            raise PcfError(C.MQRCCF_CFSF_FILTER_VAL_LEN_ERR, f"MQCFSF {parameter}: FilterValueLength {size}", parameter)
        return StringFilter(int(operator), _text(part[24:24 + size], ccsid))
    if kind == C.MQCFT_BYTE_STRING_FILTER:
        if length < C.MQCFBF_STRUC_LENGTH_FIXED:
            raise PcfError(C.MQRCCF_CFBF_LENGTH_ERROR, f"MQCFBF {parameter}: StrucLength {length}", parameter)
        operator, size = struct.unpack_from(order + "2i", part, 12)
        if not 0 <= size <= length - C.MQCFBF_STRUC_LENGTH_FIXED:
            raise PcfError(C.MQRCCF_CFBF_FILTER_VAL_LEN_ERR, f"MQCFBF {parameter}: FilterValueLength {size}", parameter)
        return ByteStringFilter(int(operator), bytes(part[20:20 + size]))
    raise PcfError(C.MQRCCF_STRUCTURE_TYPE_ERROR, f"parameter {parameter}: structure type {kind}", parameter)


def decode_request(data: bytes, little: bool = True) -> PcfMessage:
    """A PCF command for the command server: ``decode``, then an MQCFH of type MQCFT_COMMAND or
    MQCFT_COMMAND_XR (else MQRCCF_CFH_TYPE_ERROR) whose Control is MQCFC_LAST or MQCFC_NOT_LAST
    (else MQRCCF_CFH_CONTROL_ERROR)."""
    message = decode(data, little)
    if message.header.Type not in REQUEST_TYPES:
        raise PcfError(C.MQRCCF_CFH_TYPE_ERROR, f"MQCFH Type {message.header.Type} is not a command")
    if message.header.Control not in (C.MQCFC_LAST, C.MQCFC_NOT_LAST):
        raise PcfError(C.MQRCCF_CFH_CONTROL_ERROR, f"MQCFH Control {message.header.Control}")
    return message


def peek_header(data: bytes, little: bool = True) -> MQCFH | None:
    """The MQCFH at the start of ``data`` as it stands (for answering a message ``decode``
    refused with its own Command), or None when there are not 36 bytes."""
    if len(data) < C.MQCFH_STRUC_LENGTH:
        return None
    f = struct.unpack_from(("<" if little else ">") + "9i", data)
    return MQCFH(Type=f[0], Version=f[2], Command=f[3], MsgSeqNumber=f[4], Control=f[5], CompCode=f[6],
                 Reason=f[7], ParameterCount=f[8])


# -- event messages ------------------------------------------------------------------------------
#: IBM's event names by the Reason of the event's MQCFH (the event reference's "Event name").
EVENT_NAMES: Mapping[int, str] = {
    C.MQRC_NOT_AUTHORIZED: "Not Authorized",
    C.MQRC_Q_DEPTH_HIGH: "Queue Depth High", C.MQRC_Q_DEPTH_LOW: "Queue Depth Low",
    C.MQRC_Q_FULL: "Queue Full", C.MQRC_Q_SERVICE_INTERVAL_HIGH: "Queue Service Interval High",
    C.MQRC_Q_SERVICE_INTERVAL_OK: "Queue Service Interval OK",
    C.MQRC_CHANNEL_STARTED: "Channel Started", C.MQRC_CHANNEL_STOPPED: "Channel Stopped",
    C.MQRC_CHANNEL_STOPPED_BY_USER: "Channel Stopped By User",
    C.MQRC_CHANNEL_NOT_ACTIVATED: "Channel Not Activated", C.MQRC_CHANNEL_ACTIVATED: "Channel Activated",
    C.MQRC_CHANNEL_BLOCKED: "Channel Blocked", C.MQRC_CHANNEL_BLOCKED_WARNING: "Channel Blocked",
    C.MQRC_CONFIG_CREATE_OBJECT: "Create object", C.MQRC_CONFIG_CHANGE_OBJECT: "Change object",
    C.MQRC_CONFIG_DELETE_OBJECT: "Delete object", C.MQRC_CONFIG_REFRESH_OBJECT: "Refresh object",
}


def event(command: int, reason: int, parameters: list[tuple[int, Value]], seq: int = 1,
          control: int = C.MQCFC_LAST) -> PcfMessage:
    """An event message's PCF: MQCFH Type MQCFT_EVENT, CompCode MQCC_WARNING, the event's
    Command (MQCMD_*_EVENT) and Reason; ``seq`` and ``control`` number the messages of an event
    that takes several (a Change object's before, MQCFC_NOT_LAST, and after)."""
    return PcfMessage(MQCFH(Type=C.MQCFT_EVENT, Command=command, Reason=reason, MsgSeqNumber=seq,
                            Control=control, CompCode=C.MQCC_WARNING), parameters)
