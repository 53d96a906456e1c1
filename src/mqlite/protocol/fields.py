"""Fixed-length character fields of IBM's binary headers (MQDLH, MQXQH, MQMD v1)."""

from __future__ import annotations


def fixed_text(value: str, size: int) -> bytes:
    """``value`` as IBM stores a CHAR(size) field: UTF-8, cut to size, blank padded."""
    return value.encode("utf-8")[:size].ljust(size, b" ")


def trimmed(raw: bytes) -> str:
    """A CHAR field back as ``str``, without its trailing blanks or NULs."""
    return raw.decode("utf-8", "replace").rstrip(" \0")
