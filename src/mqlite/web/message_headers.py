"""The messaging REST API's headers and query parameters, pure: IBM's ``ibm-mq-md-*`` headers
(v2: ``ibm-mq-md-correlationId``, ``-persistence``, ``-expiry``, ``-replyTo``; the short
``ibmmq-correlation-id``, ``ibmmq-persistence``, ``ibmmq-expiry`` and ``ibmmq-reply-to`` are
taken too) to MQMD fields and back.

- Correlation and message ids: 48 hexadecimal characters (optionally ``0x`` or ``ID:`` first) are
  the 24 bytes; other printable ASCII text (at most 24 characters) is its bytes, padded with nulls.
- Persistence: ``persistent`` or ``nonPersistent``.
- Expiry: ``unlimited`` or milliseconds, at most 11 digits (the MQMD counts tenths of a second,
  rounded up).
- Reply-to: ``queue`` or ``queue@qmgr``.
"""

from __future__ import annotations

import binascii
import re

MQPER_NOT_PERSISTENT = 0
MQPER_PERSISTENT = 1
MQEI_UNLIMITED = -1
ID_LENGTH = 24

HEADERS = {
    "correlationId": ("ibm-mq-md-correlationid", "ibmmq-correlation-id"),
    "persistence": ("ibm-mq-md-persistence", "ibmmq-persistence"),
    "expiry": ("ibm-mq-md-expiry", "ibmmq-expiry"),
    "replyTo": ("ibm-mq-md-replyto", "ibmmq-reply-to"),
}
# the patterns the OpenAPI document gives (openapi.py), so the server takes exactly what it documents
ID_PATTERN = r"(?:0x|ID:)?[0-9A-Fa-f]{48}|[\x20-\x7e]{1,24}"
EXPIRY_PATTERN = r"unlimited|[1-9][0-9]{0,10}"
REPLY_TO_PATTERN = r"[A-Za-z0-9._/%]{1,48}(?:@[A-Za-z0-9._/%]{1,48})?"
_HEX_ID = re.compile(r"(?:0x|ID:)?([0-9A-Fa-f]{48})")
_ID = re.compile(ID_PATTERN)


class HeaderError(ValueError):
    """A header or parameter with a value the API does not take: (its name, its value)."""

    def __init__(self, name: str, value: str) -> None:
        super().__init__(name, value)
        self.name = name
        self.value = value


def header(headers: dict[str, str], field: str) -> tuple[str, str] | None:
    """(the header's name as sent, its value) of one of ``field``'s spellings, or None."""
    for name in HEADERS[field]:
        if name in headers:
            return name, headers[name]
    return None


def parse_id(value: str, name: str = "correlationId") -> bytes:
    match = _HEX_ID.fullmatch(value)
    if match:
        return binascii.unhexlify(match[1])
    if not _ID.fullmatch(value):
        raise HeaderError(name, value)
    return value.encode().ljust(ID_LENGTH, b"\0")


def format_id(value: bytes) -> str:
    """An id as IBM's REST API shows it: 48 hexadecimal characters (lower case)."""
    return value.ljust(ID_LENGTH, b"\0")[:ID_LENGTH].hex()


def parse_persistence(value: str, name: str = "persistence") -> int:
    if value == "persistent":
        return MQPER_PERSISTENT
    if value == "nonPersistent":
        return MQPER_NOT_PERSISTENT
    raise HeaderError(name, value)


def format_persistence(value: int) -> str:
    return "persistent" if value == MQPER_PERSISTENT else "nonPersistent"


def parse_expiry(value: str, name: str = "expiry") -> int:
    """The MQMD's Expiry (tenths of a second, -1 unlimited) of a header in milliseconds."""
    if not re.fullmatch(EXPIRY_PATTERN, value):
        raise HeaderError(name, value)
    if value == "unlimited":
        return MQEI_UNLIMITED
    return min(-(-int(value) // 100), 999_999_999)


def format_expiry(value: int) -> str:
    return "unlimited" if value < 0 else str(value * 100)


def parse_reply_to(value: str, name: str = "replyTo") -> tuple[str, str]:
    if not re.fullmatch(REPLY_TO_PATTERN, value):
        raise HeaderError(name, value)
    queue, _, qmgr = value.partition("@")
    return queue, qmgr


def format_reply_to(queue: str, qmgr: str) -> str:
    queue, qmgr = queue.strip(), qmgr.strip()
    return f"{queue}@{qmgr}" if qmgr else queue


def parse_wait(value: str | None) -> int:
    """``wait=`` in milliseconds (0 when absent)."""
    if value is None:
        return 0
    if not re.fullmatch(r"[0-9]{1,10}", value) or int(value) > 2**31 - 1:
        raise HeaderError("wait", value)
    return int(value)


def charset(content_type: str) -> str | None:
    """The charset of a text media type the API takes (UTF-8 when not said), None for another type."""
    media, _, rest = content_type.partition(";")
    media = media.strip().lower()
    if not (media.startswith("text/") or media in ("application/json", "application/xml")):
        return None
    match = re.search(r"charset\s*=\s*\"?([A-Za-z0-9._-]+)", rest)
    return match[1].lower() if match else "utf-8"
