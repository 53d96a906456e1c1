"""The dmpmqmsg (formerly qload) text file: pure encode and decode, no queue manager involved.

The layout follows IBM's dmpmqmsg so files stay readable and editable by people who know it:

    * Dmpmqmsg Version:mqlite 0.1.0 Created:Tue Nov 25 10:51:55 2025
    * Qmgr  = QM1
    * Queue = APP.IN

    N
    A VER 2
    A RPT 0
    A MST 8
    ...                      one ``A`` line per MQMD field, IBM's three-letter codes
    A ORL -1
    P colour string "red"    a message property (see below)
    S "Hello, world"         data: printable text, quoted
    X 00FF10                 data: hexadecimal

``N`` starts a message. The body is the concatenation of its ``S`` and ``X`` lines in order;
a body with no data lines is empty. Lines starting with ``*`` and blank lines are comments.
Byte fields (MSI, COI, ACC, GRP) and the two free-form context fields (AIX, AOX: IBM writes
them in hex, hence the X) are hexadecimal; other character fields are the text after the
code; numbers are decimal.

Message properties are an mqlite addition (IBM's tool carries them inside an MQRFH2 header in
the data): ``P name type value`` with the MQRFH2 type names ``string`` (value JSON-quoted and
ASCII-escaped, so any text survives and the file stays ASCII), ``boolean`` (true/false),
``i8``, ``r8``, ``bin.hex`` and ``null``.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Iterable, Iterator

from mqlite.message import BYTE_FIELDS, Message, MessageDescriptor, PropertyValue

FILE_VERSION = "mqlite 0.1.0"
TEXT_CHUNK = 64  # characters of text per S line
HEX_CHUNK = 32  # bytes per X line
MIN_TEXT_RUN = 8  # shorter printable runs inside binary data stay in X lines

# IBM's codes, in IBM's order (that of amqsbcg's MQMD display).
FIELD_CODES: tuple[tuple[str, str], ...] = (
    ("RPT", "Report"), ("MST", "MsgType"), ("EXP", "Expiry"), ("FDB", "Feedback"),
    ("ENC", "Encoding"), ("CCS", "CodedCharSetId"), ("FMT", "Format"), ("PRI", "Priority"),
    ("PER", "Persistence"), ("MSI", "MsgId"), ("COI", "CorrelId"), ("BOC", "BackoutCount"),
    ("RTQ", "ReplyToQ"), ("RTM", "ReplyToQMgr"), ("USR", "UserIdentifier"),
    ("ACC", "AccountingToken"), ("AIX", "ApplIdentityData"), ("PAT", "PutApplType"),
    ("PAN", "PutApplName"), ("PTD", "PutDate"), ("PTT", "PutTime"), ("AOX", "ApplOriginData"),
    ("GRP", "GroupId"), ("MSQ", "MsgSeqNumber"), ("OFF", "Offset"), ("MSF", "MsgFlags"),
    ("ORL", "OriginalLength"),
)
_FIELD_OF = dict(FIELD_CODES)
_HEX_TEXT_FIELDS = frozenset({"ApplIdentityData", "ApplOriginData"})
_BYTE_LENGTH = {"MsgId": 24, "CorrelId": 24, "GroupId": 24, "AccountingToken": 32}
_INT_FIELDS = frozenset(
    name for name, kind in MessageDescriptor.__annotations__.items() if kind in ("int", int)
)


class DumpFormatError(ValueError):
    """The file is not a dmpmqmsg file, or line ``line_no`` is malformed."""

    def __init__(self, line_no: int, text: str) -> None:
        super().__init__(f"line {line_no}: {text}")
        self.line_no = line_no


def encode_header(qmgr: str, queue: str, created: datetime.datetime | None = None) -> str:
    when = (created or datetime.datetime.now()).strftime("%a %b %d %H:%M:%S %Y")
    return (
        f"* Dmpmqmsg Version:{FILE_VERSION} Created:{when}\n"
        f"* Qmgr  = {qmgr}\n"
        f"* Queue = {queue}\n\n"
    )


def encode_message(message: Message) -> str:
    """One message as its N, A, P and S/X lines (newline-terminated)."""
    lines = ["N", "A VER 2"]
    md = message.md
    for code, name in FIELD_CODES:
        value = getattr(md, name)
        if name in BYTE_FIELDS:
            text = bytes(value).hex().upper()
        elif name in _HEX_TEXT_FIELDS:
            text = str(value).encode().hex().upper()
        else:
            text = str(value)
        lines.append(f"A {code} {text}".rstrip())
    lines.extend(_encode_property(name, value) for name, value in message.properties.items())
    lines.extend(_encode_data(message.body))
    return "\n".join(lines) + "\n"


def _encode_property(name: str, value: PropertyValue) -> str:
    if not name or any(c.isspace() for c in name):
        raise ValueError(f"property name {name!r} cannot be written")
    if value is None:
        return f"P {name} null"
    if isinstance(value, bool):
        return f"P {name} boolean {'true' if value else 'false'}"
    if isinstance(value, int):
        return f"P {name} i8 {value}"
    if isinstance(value, float):
        return f"P {name} r8 {value!r}"
    if isinstance(value, bytes):
        return f"P {name} bin.hex {value.hex().upper()}"
    return f"P {name} string {json.dumps(value)}"


def _printable(byte: int) -> bool:
    return 0x20 <= byte <= 0x7E


def _encode_data(body: bytes) -> Iterator[str]:
    """S lines for runs of printable ASCII, X lines for the rest."""
    for is_text, run in _runs(body):
        if is_text:
            for i in range(0, len(run), TEXT_CHUNK):
                yield f'S "{run[i:i + TEXT_CHUNK].decode("ascii")}"'
        else:
            for i in range(0, len(run), HEX_CHUNK):
                yield f"X {run[i:i + HEX_CHUNK].hex().upper()}"


def _runs(body: bytes) -> Iterator[tuple[bool, bytes]]:
    """Split ``body`` into (is_text, bytes) runs; short text runs are folded into binary."""
    if body and all(_printable(b) for b in body):
        yield True, body
        return
    pending = bytearray()
    i = 0
    while i < len(body):
        j = i
        while j < len(body) and _printable(body[j]):
            j += 1
        if j - i >= MIN_TEXT_RUN:
            if pending:
                yield False, bytes(pending)
                pending.clear()
            yield True, body[i:j]
            i = j
        else:
            pending.append(body[i])
            i += 1
    if pending:
        yield False, bytes(pending)


def encode(messages: Iterable[Message], qmgr: str, queue: str) -> Iterator[str]:
    """The whole file, header first, as chunks to write."""
    yield encode_header(qmgr, queue)
    for message in messages:
        yield encode_message(message)


class _Builder:
    """The message being read: fields, properties and data lines seen since its N line."""

    def __init__(self) -> None:
        self.fields: dict[str, object] = {}
        self.properties: dict[str, PropertyValue] = {}
        self.body = bytearray()

    def build(self) -> Message:
        return Message(MessageDescriptor(**self.fields), bytes(self.body),  # type: ignore[arg-type]
                       self.properties)


def decode(lines: Iterable[str]) -> Iterator[Message]:
    """The messages of a dmpmqmsg file, read line by line (a file object will do)."""
    current: _Builder | None = None
    for line_no, raw in enumerate(lines, start=1):
        line = raw.rstrip("\r\n")
        if not line.strip() or line.startswith("*"):
            continue
        kind, rest = line[0], line[2:] if len(line) > 1 else ""
        if len(line) > 1 and line[1] != " ":
            raise DumpFormatError(line_no, f"expected a type letter and a space: {line[:40]!r}")
        if kind == "N":
            if current is not None:
                yield current.build()
            current = _Builder()
            continue
        if current is None:
            raise DumpFormatError(line_no, "data before the first N line")
        try:
            if kind == "A":
                _decode_field(current, rest)
            elif kind == "P":
                name, value = _decode_property(rest)
                current.properties[name] = value
            elif kind == "S":
                current.body += _decode_text(rest)
            elif kind == "X":
                current.body += bytes.fromhex(rest)
            else:
                raise ValueError(f"unknown line type {kind!r}")
        except (ValueError, UnicodeError) as e:
            raise DumpFormatError(line_no, str(e)) from None
    if current is not None:
        yield current.build()


def _decode_field(current: _Builder, rest: str) -> None:
    code, value = rest[:3], rest[4:].rstrip()
    if code == "VER":
        return
    name = _FIELD_OF.get(code)
    if name is None:
        raise ValueError(f"unknown MQMD field code {code!r}")
    if name in BYTE_FIELDS:
        data = bytes.fromhex(value)
        size = _BYTE_LENGTH[name]
        if len(data) > size:
            raise ValueError(f"{code} is longer than {size} bytes")
        current.fields[name] = data.ljust(size, b"\0")
    elif name in _HEX_TEXT_FIELDS:
        current.fields[name] = bytes.fromhex(value).decode().rstrip(" \0")
    elif name in _INT_FIELDS:
        current.fields[name] = _ranged(int(value), 32, code)
    else:
        current.fields[name] = value


def _decode_property(rest: str) -> tuple[str, PropertyValue]:
    parts = rest.split(" ", 2)
    name, kind = parts[0], parts[1] if len(parts) > 1 else ""
    value = parts[2] if len(parts) > 2 else ""
    if not name:
        raise ValueError("property without a name")
    if kind == "null":
        return name, None
    if kind == "boolean":
        if value.lower() not in ("true", "false"):
            raise ValueError(f"boolean property {name} is {value!r}")
        return name, value.lower() == "true"
    if kind == "i8":
        return name, _ranged(int(value), 64, name)
    if kind == "r8":
        return name, float(value)
    if kind == "bin.hex":
        return name, bytes.fromhex(value)
    if kind == "string":
        try:
            text = json.loads(value)
        except RecursionError:  # "[[[[..." thousands deep: not a string either
            raise ValueError(f"string property {name} is not a quoted string") from None
        if not isinstance(text, str):
            raise ValueError(f"string property {name} is not a quoted string")
        return name, text
    raise ValueError(f"unknown property type {kind!r}")


def _ranged(value: int, bits: int, what: str) -> int:
    """``value`` if it fits a signed integer of ``bits`` (MQLONG, MQINT64), else ValueError."""
    if not -(1 << (bits - 1)) <= value < 1 << (bits - 1):
        raise ValueError(f"{what} {value} does not fit {bits} bits")
    return value


def _decode_text(rest: str) -> bytes:
    rest = rest.rstrip()
    if len(rest) < 2 or rest[0] != '"' or rest[-1] != '"':
        raise ValueError("S data must be in double quotes")
    return rest[1:-1].encode()
