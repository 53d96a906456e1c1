"""pymqi's ``put_rfh2``/``get_rfh2``/``pub_rfh2``: a message's MQRFH2 headers as a list of ``RFH2``.

``put_rfh2(msg, md, opts, [rfh2, ...])`` packs each header in front of the body: the first in
the MQMD's encoding, each next one in the encoding its predecessor names (IBM's chaining rule);
``get_rfh2(max_length, md, gmo, headers)`` reads them back into ``headers`` while the format
before them (the MQMD's, then each header's) is MQFMT_RF_HEADER_2, and returns what follows.
Nothing here changes the MQMD: its Format must already say MQHRF2 (pymqi: "MQMD and RFH2's
must be correct").
"""

from __future__ import annotations

from typing import Any

from mqlite import cmqc
from mqlite.client.errors import PYIFError
from mqlite.client.rfh2 import RFH2
from mqlite.client.structs import text

__all__ = ["ensure_bytes", "ensure_not_unicode", "headers_argument", "is_unicode", "pack_chain", "unpack_chain"]


def is_unicode(value: object) -> bool:
    """pymqi's helper: True for a ``str``."""
    return isinstance(value, str)


def ensure_not_unicode(value: object) -> None:
    """pymqi's helper: a ``str`` where bytes are wanted is a ``TypeError``."""
    if isinstance(value, str):
        raise TypeError(f"Python 3 style string (unicode) found but not allowed here: `{value}`. Convert to bytes.")


def ensure_bytes(value: Any, encoding: str = "ascii") -> Any:
    """pymqi's helper: a ``str`` encoded (ASCII unless told), anything else as it is."""
    return value.encode(encoding) if isinstance(value, str) else value


def headers_argument(opts: tuple[Any, ...]) -> list[Any] | None:
    """The list of RFH2 headers, the third of ``opts`` (None when there is none)."""
    if len(opts) < 3 or opts[2] is None:
        return None
    if not isinstance(opts[2], list):
        raise TypeError("Third item of opts should be a list.")
    return opts[2]


def pack_chain(msg: bytes, md: Any, headers: list[Any]) -> bytes:
    """``headers`` packed in front of ``msg``, each in the encoding of what precedes it."""
    ensure_not_unicode(msg)
    encoding = md.Encoding if md is not None else cmqc.MQENC_NATIVE
    packed = []
    for header in headers:
        if header is not None:
            packed.append(header.pack(encoding))
            encoding = header.Encoding
    return b"".join(packed) + bytes(msg)


def unpack_chain(msg: bytes, md: Any, headers: list[Any]) -> bytes:
    """The headers at the start of ``msg`` appended to ``headers``; the rest of ``msg`` returned."""
    if md is None:
        raise PYIFError("get_rfh2 needs an MD to read the format of the message data from")
    data = bytes(msg)
    fmt = text(md.Format)
    found = []
    while fmt == text(cmqc.MQFMT_RF_HEADER_2):
        header = RFH2()
        header.unpack(data)  # each header's byte order read from its Version field, as pymqi does
        found.append(header)
        data = data[header.StrucLength:]
        fmt = text(header.Format)
    headers.extend(found)
    return data
