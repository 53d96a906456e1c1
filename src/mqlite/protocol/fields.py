"""Fixed-length character fields of IBM's binary headers (MQDLH, MQXQH, MQMD v1)."""

from __future__ import annotations


class HeaderError(ValueError):
    """Bytes that are not the header they should be: ``reason`` is IBM's reason code for it
    (MQRC_DLH_ERROR, MQRC_XQH_ERROR, MQRC_MD_ERROR)."""

    def __init__(self, reason: int, text: str) -> None:
        super().__init__(f"{text} (reason {reason})")
        self.reason = reason
        self.text = text


def fixed_text(value: str, size: int) -> bytes:
    """``value`` as IBM stores a CHAR(size) field: UTF-8, cut to size, blank padded."""
    return value.encode("utf-8")[:size].ljust(size, b" ")


def trimmed(raw: bytes) -> str:
    """A CHAR field back as ``str``, without its trailing blanks or NULs."""
    return raw.rstrip(b" \0").decode("utf-8", "replace")  # blanks and NULs are never inside a UTF-8 sequence
