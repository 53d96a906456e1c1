"""amqsbcg's report as IBM's AMQSBCG0 prints it, without I/O: the message descriptor, the
properties (PropOption 1), the body's hex dump, the summary.

The text is built the way the C sample's printf calls build it (each line started by the newline
before it, one-blank lines between sections), so a byte-for-byte comparison with IBM's output
holds for single-byte text. The hex dump leaves IBM's gap for multi-byte characters as a UTF-8
locale with four-byte characters has it (six blanks before the text column); bytes outside
printable ASCII show as ``.``, where IBM's sample prints a UTF-8 character whole.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["BUFFER_LENGTH", "CHARS_PER_LINE", "body_text", "md_text", "properties_text", "summary_text"]

CHARS_PER_LINE = 16
BUFFER_LENGTH = 65536  # IBM's sample shows at most this much of a message
_MBCS_GAP = 6  # (MB_CUR_MAX - 1) * 2 blanks, MB_CUR_MAX 4


def _pad(value: Any, length: int) -> str:
    """A character field as MQMD holds it: blank-padded (or cut) to its length."""
    if isinstance(value, bytes | bytearray):
        value = bytes(value).rstrip(b"\0").decode("utf-8", "replace")
    return str(value or "")[:length].ljust(length)


def _hex(value: bytes | None, length: int) -> str:
    return (value or b"").ljust(length, b"\0")[:length].hex().upper()


def md_text(md: Any) -> str:
    """printMD: every MQMD field, as the C sample's format strings lay them out."""
    return "".join((
        "\n****Message descriptor****\n",
        "\n  StrucId  : 'MD  '  Version : 2",
        f"\n  Report   : {md.Report}  MsgType : {md.MsgType}",
        f"\n  Expiry   : {md.Expiry}  Feedback : {md.Feedback}",
        f"\n  Encoding : {md.Encoding}  CodedCharSetId : {md.CodedCharSetId}",
        f"\n  Format : '{_pad(md.Format, 8)}'",
        f"\n  Priority : {md.Priority}  Persistence : {md.Persistence}",
        f"\n  MsgId : X'{_hex(md.MsgId, 24)}'",
        f"\n  CorrelId : X'{_hex(md.CorrelId, 24)}'",
        f"\n  BackoutCount : {md.BackoutCount}",
        f"\n  ReplyToQ       : '{_pad(md.ReplyToQ, 48)}'",
        f"\n  ReplyToQMgr    : '{_pad(md.ReplyToQMgr, 48)}'",
        "\n  ** Identity Context",
        f"\n  UserIdentifier : '{_pad(md.UserIdentifier, 12)}'",
        f"\n  AccountingToken : \n   X'{_hex(md.AccountingToken, 32)}'",
        f"\n  ApplIdentityData : '{_pad(md.ApplIdentityData, 32)}'",
        "\n  ** Origin Context",
        f"\n  PutApplType    : '{md.PutApplType}'",
        f"\n  PutApplName    : '{_pad(md.PutApplName, 28)}'",
        f"\n  PutDate  : '{_pad(md.PutDate, 8)}'    PutTime  : '{_pad(md.PutTime, 8)}'",
        f"\n  ApplOriginData : '{_pad(md.ApplOriginData, 4)}'\n",
        f"\n  GroupId : X'{_hex(md.GroupId, 24)}'",
        f"\n  MsgSeqNumber   : '{md.MsgSeqNumber}'",
        f"\n  Offset         : '{md.Offset}'",
        f"\n  MsgFlags       : '{md.MsgFlags}'",
        f"\n  OriginalLength : '{md.OriginalLength}'",
    ))


def _property(value: Any) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, bytes | bytearray):
        return "X'" + bytes(value).hex().upper() + "'"
    if isinstance(value, float):
        return f"{value:.18g}"
    if isinstance(value, int):
        return str(value)
    return f"'{value}'"


def properties_text(properties: Mapping[str, Any]) -> str:
    """printProperties: each property as ``name : value`` (strings quoted, bytes as X'..')."""
    text = "\n \n****Message properties****\n"
    if not properties:
        return text + "\n  None\n"
    return text + "".join(f"\n  {name} : {_property(value)}" for name, value in properties.items())


def body_text(body: bytes, lines_printed: int) -> tuple[str, int]:
    """The message section: its length and the hex dump, 16 bytes a line (offset, four-digit
    groups, the printable text); ``lines_printed`` carries IBM's page breaks (a blank line each
    60 lines) from message to message."""
    shown = body[:BUFFER_LENGTH]
    parts = ["\n ", "\n****   Message      ****\n ", f"\n length - {len(shown)} of {len(body)} bytes\n "]
    at = 0
    while True:
        chunk = shown[at:at + CHARS_PER_LINE]
        line = [f"\n{at:08X}: "]
        for index in range(CHARS_PER_LINE):
            if index % 2 == 0:
                line.append(" ")
            line.append(f"{chunk[index]:02X}" if index < len(chunk) else "  ")
        text = "".join(chr(b) if 0x20 <= b < 0x7F else "." for b in chunk).ljust(CHARS_PER_LINE)
        line.append(" " * _MBCS_GAP + f" '{text}'")
        parts.append("".join(line))
        lines_printed += 1
        if lines_printed >= 60:
            lines_printed = 0
            parts.append("\n ")
        at += CHARS_PER_LINE
        if at >= len(shown):
            break
    return "".join(parts), lines_printed


def summary_text(lengths: list[int]) -> str:
    """The closing summary of the messages browsed (none: no summary)."""
    if not lengths:
        return ""
    return ("\n\n****   Summary      ****\n "
            f"{len(lengths)} messages browsed.\n Smallest message {min(lengths)} bytes.\n "
            f"Largest message {max(lengths)} bytes.\n Average message {sum(lengths) // len(lengths)} bytes.\n")
