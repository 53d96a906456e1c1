"""MQRFH2, the rules and formatting header 2, byte-exact as IBM lays it out (spec D §2, Annex A).

An MQRFH2 follows the MQMD (whose Format is ``MQHRF2  ``) and precedes the body; several may be
chained, each one's Format, Encoding and CodedCharSetId describing what follows it (another
MQRFH2, or the body). Its layout (D §2.2): a 36-byte fixed part (StrucId ``RFH ``, Version 2,
StrucLength, Encoding, CodedCharSetId, Format, Flags, NameValueCCSID), then pairs of
NameValueLength and NameValueData, one folder each. The fixed part's integers are in the byte
order the *preceding* header's Encoding names, its characters in that header's CCSID (R-RFH-E1,
R-RFH-E2); NameValueData is in NameValueCCSID (UTF-8 1208, or UCS-2 1200/13488/17584 in the
integers' byte order, R-RFH-E3).

``encode`` writes headers and a body, padding each NameValueData with spaces to a multiple of 4
(R-RFH-P1); ``decode`` follows the chain, checking the structure as D §2.4 says and accepting
unpadded lengths, trailing spaces or NULs and pretty-printed folders (R-RFH-P2). Errors are
``Rfh2Error`` carrying IBM's reason, MQRC_RFH_ERROR (2334). ``decode_rfh1``/``encode_rfh1`` are
the version 1 header (Annex A). Sans-IO: bytes in, bytes out. The folders' syntax, the usr
folder as message properties and the folder rules are in ``rfh2_folders``.
"""

from __future__ import annotations

import functools
import re
import struct
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import NamedTuple

from mqlite import cmqc as C
from mqlite.protocol.rfh2_folders import Element, Folder, Rfh2Error, check_folders, parse, serialize

__all__ = [
    "FIXED_LENGTH", "NAME_VALUE_CCSIDS", "Decoded", "Element", "Folder", "Rfh1Header", "Rfh2Error",
    "Rfh2Header", "check_folders", "decode", "decode_header", "decode_rfh1", "encode", "encode_header",
    "encode_rfh1", "in_encoder_order", "little_endian", "split_header",
]

FIXED_LENGTH = C.MQRFH_STRUC_LENGTH_FIXED_2  # 36
FIXED_LENGTH_1 = C.MQRFH_STRUC_LENGTH_FIXED  # 32
FORMAT_RFH2 = C.MQFMT_RF_HEADER_2.rstrip()  # formats are kept trimmed, as in MessageDescriptor
FORMAT_RFH1 = C.MQFMT_RF_HEADER.rstrip()
UTF8 = 1208
UCS2_CCSIDS = frozenset({1200, 13488, 17584})
NAME_VALUE_CCSIDS = frozenset({UTF8, *UCS2_CCSIDS})
_FIXED = {True: struct.Struct("<4s 3i i 8s 2i"), False: struct.Struct(">4s 3i i 8s 2i")}
_LONG = {True: struct.Struct("<i"), False: struct.Struct(">i")}
# CCSIDs of the fixed part's characters (StrucId, Format): EBCDIC ones read as code page 037 (the
# characters of a format name and "RFH " are the same in every EBCDIC code page), any other as
# ASCII (819, 1208, 437, 850, 1252 and the special values 0, -1, -2 of "the queue manager's").
_EBCDIC = frozenset({37, 273, 277, 278, 280, 284, 285, 297, 500, 871, 875, 924, 1025, 1026, 1047,
                     1140, 1141, 1142, 1143, 1144, 1145, 1146, 1147, 1148, 1149})


def little_endian(encoding: int) -> bool:
    """Whether an Encoding names reversed (little-endian) integers (R-RFH-E2): integer bits 2;
    1 (normal) is big-endian; undefined (0) and anything else read as the platform's, reversed."""
    return encoding & C.MQENC_INTEGER_MASK != C.MQENC_INTEGER_NORMAL


def _char_codec(ccsid: int) -> str:
    return "cp037" if ccsid in _EBCDIC else "latin-1"


def _nv_codec(ccsid: int, little: bool) -> str:
    if ccsid == UTF8:
        return "utf-8"
    if ccsid in UCS2_CCSIDS:
        return "utf-16-le" if little else "utf-16-be"
    raise Rfh2Error(f"NameValueCCSID {ccsid} is not 1208, 1200, 13488 or 17584")


@dataclass(frozen=True)
class Rfh2Header:
    """One MQRFH2. ``encoding``, ``ccsid`` and ``format`` describe the data after it (``format``
    trimmed of its blanks, ``ccsid`` -2 MQCCSI_INHERIT: that of this header); ``folders`` in order.
    StrucId, Version and StrucLength are not fields: the encoder writes them."""

    folders: tuple[Folder, ...] = ()
    encoding: int = C.MQENC_NATIVE
    ccsid: int = C.MQCCSI_INHERIT
    format: str = ""
    flags: int = C.MQRFH_NONE
    name_value_ccsid: int = UTF8
    struc_length: int = field(default=0, compare=False)  # as decoded (0 when built)

    def folder(self, name: str) -> Folder | None:
        """The first folder called ``name`` (``psc``, ``mcd``, ``usr``, ...)."""
        for folder in self.folders:
            if folder.name == name:
                return folder
        return None

    def folders_named(self, name: str) -> list[Folder]:
        return [folder for folder in self.folders if folder.name == name]


class Decoded(NamedTuple):
    """What ``decode`` found: the chain of headers, the body after the last one, and the body's
    format, encoding and CCSID from the last header (R-RFH-M1; -2 resolved to the CCSID in force)."""

    headers: list[Rfh2Header]
    body: bytes
    format: str
    encoding: int
    ccsid: int

    def command(self, name: str = C.MQRFH2_PUBSUB_CMD_FOLDER) -> Folder | None:
        """The command folder (``psc``) of the first MQRFH2 (R-RFH-M2), None if it has none."""
        return self.headers[0].folder(name) if self.headers else None

    def content(self) -> Folder | None:
        """The mcd folder describing the body: the last MQRFH2's (R-RFH-M1)."""
        return self.headers[-1].folder(C.MQRFH2_MSG_CONTENT_FOLDER) if self.headers else None


# -- encoding -------------------------------------------------------------------------------------
_ORDER = {C.MQRFH2_MSG_CONTENT_FOLDER: 0, "jms": 1, C.MQRFH2_PUBSUB_CMD_FOLDER: 2, C.MQRFH2_PUBSUB_RESP_FOLDER: 2,
          C.MQRFH2_USER_FOLDER: 3}


def in_encoder_order(folders: Sequence[Folder]) -> tuple[Folder, ...]:
    """The folders in the order the queue manager writes them (R-RFH-P3, a decision: the order
    is not significant to a reader): mcd, jms, psc/pscr (as given), usr, then any others as given."""
    return tuple(sorted(folders, key=lambda folder: _ORDER.get(folder.name, 4)))


def _format_field(value: str, ccsid: int) -> bytes:
    text = value.rstrip(" ")
    if len(text) > 8 or " " in text or "\0" in text:
        raise Rfh2Error(f"format {value!r} is not a format name (8 characters, no blanks or NULs)")
    try:
        return text.ljust(8).encode(_char_codec(ccsid))
    except UnicodeEncodeError:
        raise Rfh2Error(f"format {value!r} is not a format name") from None


@functools.lru_cache(maxsize=4096)  # a publisher's commands and a subscriber's copies repeat their folders
def _name_value_data(folder: Folder | bytes, codec: str, unit: int) -> bytes:
    if isinstance(folder, bytes):  # already encoded (pymqi's add_folder): padded, not parsed
        data = folder
    else:
        text = serialize(folder)
        if unit == 2 and any(ord(char) > 0xFFFF for char in text):
            raise Rfh2Error(f"folder {folder.name!r}: UCS-2 NameValueData cannot hold surrogates (R-RFH-E3)")
        data = text.encode(codec)
    pad = -len(data) % 4
    return data + " ".encode(codec) * (pad // unit) if pad % unit == 0 else data + b" " * pad


def encode_header(header: Rfh2Header, encoding: int = C.MQENC_NATIVE, ccsid: int = UTF8,
                  raw_folders: Sequence[bytes] | None = None) -> bytes:
    """One MQRFH2, its fixed part in ``encoding``/``ccsid`` (those of the header before it: the
    MQMD's for the first). Each folder is padded with spaces to a multiple of 4 bytes (R-RFH-P1).
    ``raw_folders`` replaces ``header.folders`` with NameValueData already encoded."""
    little = little_endian(encoding)
    unit = 2 if header.name_value_ccsid in UCS2_CCSIDS else 1
    if raw_folders is None:
        codec = _nv_codec(header.name_value_ccsid, little)
    else:  # bytes as given, whatever NameValueCCSID says; padded with the spaces of its width
        codec = ("utf-16-le" if little else "utf-16-be") if unit == 2 else "latin-1"
    long = _LONG[little]
    parts: list[bytes] = []
    for folder in raw_folders if raw_folders is not None else header.folders:
        data = _name_value_data(folder, codec, unit)
        parts.append(long.pack(len(data)))
        parts.append(data)
    variable = b"".join(parts)
    fixed = _FIXED[little].pack(
        C.MQRFH_STRUC_ID.encode(_char_codec(ccsid)), C.MQRFH_VERSION_2, FIXED_LENGTH + len(variable),
        header.encoding, header.ccsid, _format_field(header.format, ccsid), header.flags, header.name_value_ccsid,
    )
    return fixed + variable


def encode(headers: Sequence[Rfh2Header], body: bytes = b"", encoding: int = C.MQENC_NATIVE,
           ccsid: int = UTF8) -> bytes:
    """The message data of a chain of MQRFH2s and a body; ``encoding`` and ``ccsid`` are the
    MQMD's (whose Format must then be ``MQHRF2  ``). Every header but the last says ``MQHRF2``
    as its Format (the next header follows, D §2.1); each header's fixed part is in the encoding
    and CCSID of the one before (-2 inherits)."""
    parts: list[bytes] = []
    for index, header in enumerate(headers):
        if index < len(headers) - 1 and header.format != FORMAT_RFH2:
            header = replace(header, format=FORMAT_RFH2)
        parts.append(encode_header(header, encoding, ccsid))
        encoding = header.encoding
        ccsid = ccsid if header.ccsid == C.MQCCSI_INHERIT else header.ccsid
    parts.append(body)
    return b"".join(parts)


# -- decoding -------------------------------------------------------------------------------------
def _format_text(raw: bytes, ccsid: int) -> str:
    return raw.decode(_char_codec(ccsid)).rstrip(" \0")


@functools.lru_cache(maxsize=4096)  # (folders are immutable: the same bytes always parse the same)
def _folder(data: bytes, codec: str, unit: int) -> Folder | None:
    if unit == 2 and len(data) % 2:
        data = data[:-1] if data[-1:] in (b" ", b"\0") else data  # a stray padding byte
        if len(data) % 2:
            raise Rfh2Error("UCS-2 NameValueData of an odd length")
    try:
        text = data.decode(codec)
    except UnicodeDecodeError as error:
        raise Rfh2Error(f"NameValueData is not {codec}: {error.reason}") from None
    if unit == 2 and any(ord(char) > 0xFFFF for char in text):  # a pair; a lone one fails above
        raise Rfh2Error("surrogates in UCS-2 NameValueData (R-RFH-E3)")
    if not text.strip(" \t\r\n\0"):
        return None  # an empty NameValueData (length 0, or only padding): no folder
    return parse(text)


def split_header(data: bytes, offset: int, encoding: int, ccsid: int
                 ) -> tuple[tuple[str, int, int, int, int, str, int, int], list[bytes]]:
    """The fixed fields and the raw NameValueData of the MQRFH2 at ``offset`` (D §2.4 steps 2-3);
    the fields are (StrucId, Version, StrucLength, Encoding, CodedCharSetId, Format, Flags,
    NameValueCCSID)."""
    little = little_endian(encoding)
    if len(data) - offset < FIXED_LENGTH:
        raise Rfh2Error(f"{len(data) - offset} bytes, an MQRFH2 needs at least {FIXED_LENGTH}")
    struc_id, version, length, enc, chars, fmt, flags, nv_ccsid = _FIXED[little].unpack_from(data, offset)
    if struc_id != C.MQRFH_STRUC_ID.encode(_char_codec(ccsid)):
        raise Rfh2Error(f"StrucId {struc_id!r} is not 'RFH '")
    if version != C.MQRFH_VERSION_2:
        raise Rfh2Error(f"Version {version} is not MQRFH_VERSION_2")
    if not FIXED_LENGTH <= length <= len(data) - offset:
        raise Rfh2Error(f"StrucLength {length} is not between {FIXED_LENGTH} and the "
                        f"{len(data) - offset} bytes left")
    long = _LONG[little]
    raw: list[bytes] = []
    at, end = offset + FIXED_LENGTH, offset + length
    while at < end:
        if end - at < 4:
            raise Rfh2Error(f"{end - at} bytes left in StrucLength, too few for a NameValueLength")
        (size,) = long.unpack_from(data, at)
        at += 4
        if not 0 <= size <= end - at:
            raise Rfh2Error(f"NameValueLength {size} overruns StrucLength ({end - at} bytes left)")
        raw.append(data[at:at + size])
        at += size
    fields = (struc_id.decode(_char_codec(ccsid)), version, length, enc, chars, _format_text(fmt, ccsid), flags,
              nv_ccsid)
    return fields, raw


def decode_header(data: bytes, offset: int = 0, encoding: int = C.MQENC_NATIVE, ccsid: int = UTF8
                  ) -> Rfh2Header:
    """The MQRFH2 at ``offset`` (its fixed part in ``encoding``/``ccsid``, those of the header
    before it); its ``struc_length`` says where the data after it starts."""
    fields, raw = split_header(data, offset, encoding, ccsid)
    _, _, length, enc, chars, fmt, flags, nv_ccsid = fields
    codec = _nv_codec(nv_ccsid, little_endian(encoding))
    unit = 2 if nv_ccsid in UCS2_CCSIDS else 1
    folders = tuple(folder for folder in (_folder(item, codec, unit) for item in raw) if folder is not None)
    return Rfh2Header(folders, enc, chars, fmt, flags, nv_ccsid, length)


def decode(data: bytes, md_format: str = C.MQFMT_RF_HEADER_2, md_encoding: int = C.MQENC_NATIVE,
           md_ccsid: int = UTF8) -> Decoded:
    """A message's data whose MQMD says ``md_format``/``md_encoding``/``md_ccsid``: the chain of
    MQRFH2s and the body (D §2.4). ``Rfh2Error`` (2334) when the MQMD's Format is not
    ``MQHRF2  `` or a header is malformed."""
    if md_format.rstrip(" \0") != FORMAT_RFH2:
        raise Rfh2Error(f"format {md_format.rstrip()!r} is not MQHRF2: no MQRFH2")
    headers: list[Rfh2Header] = []
    offset, encoding, ccsid, fmt = 0, md_encoding, md_ccsid, FORMAT_RFH2
    while fmt == FORMAT_RFH2:
        header = decode_header(data, offset, encoding, ccsid)
        headers.append(header)
        offset += header.struc_length
        encoding, fmt = header.encoding, header.format
        ccsid = ccsid if header.ccsid == C.MQCCSI_INHERIT else header.ccsid
    return Decoded(headers, data[offset:], fmt, encoding, ccsid)


# -- MQRFH version 1 (Annex A) ----------------------------------------------------------------------
_FIXED_1 = {True: struct.Struct("<4s 3i i 8s i"), False: struct.Struct(">4s 3i i 8s i")}
_NV_TOKEN = re.compile(r'\s*(?:"((?:[^"]|"")*)"|([^\s"]+))')


@dataclass(frozen=True)
class Rfh1Header:
    """An MQRFH (version 1): ``pairs`` is its NameValueString as (name, value) in order."""

    pairs: tuple[tuple[str, str], ...] = ()
    encoding: int = C.MQENC_NATIVE
    ccsid: int = C.MQCCSI_UNDEFINED
    format: str = ""
    flags: int = C.MQRFH_NONE
    struc_length: int = field(default=0, compare=False)

    def get(self, name: str, default: str | None = None) -> str | None:
        return next((value for key, value in self.pairs if key == name), default)


def _nv_word(word: str) -> str:
    if "\0" in word:
        raise Rfh2Error(f"{word!r}: a NUL would end the NameValueString", C.MQRC_RFH_STRING_ERROR)
    if word and not any(char.isspace() or char == '"' for char in word):
        return word
    return '"' + word.replace('"', '""') + '"'


def encode_rfh1(header: Rfh1Header, encoding: int = C.MQENC_NATIVE, ccsid: int = UTF8) -> bytes:
    """An MQRFH: the NameValueString in the CCSID of the header before it (the MQMD's), values
    with blanks or quotes quoted (quotes doubled), blank padded to a multiple of 4."""
    text = " ".join(f"{_nv_word(name)} {_nv_word(value)}" for name, value in header.pairs)
    codec = "cp037" if ccsid in _EBCDIC else "utf-8"
    data = text.encode(codec)
    data += " ".encode(codec) * (-len(data) % 4)
    fixed = _FIXED_1[little_endian(encoding)].pack(
        C.MQRFH_STRUC_ID.encode(_char_codec(ccsid)), C.MQRFH_VERSION_1, FIXED_LENGTH_1 + len(data),
        header.encoding, header.ccsid, _format_field(header.format, ccsid), header.flags)
    return fixed + data


def decode_rfh1(data: bytes, encoding: int = C.MQENC_NATIVE, ccsid: int = UTF8) -> tuple[Rfh1Header, bytes]:
    """An MQRFH at the start of ``data`` and the data after it; 2334 for a bad structure, 2335
    MQRC_RFH_STRING_ERROR for a NameValueString that is not pairs."""
    little = little_endian(encoding)
    if len(data) < FIXED_LENGTH_1:
        raise Rfh2Error(f"{len(data)} bytes, an MQRFH needs at least {FIXED_LENGTH_1}")
    struc_id, version, length, enc, chars, fmt, flags = _FIXED_1[little].unpack_from(data)
    if struc_id != C.MQRFH_STRUC_ID.encode(_char_codec(ccsid)) or version != C.MQRFH_VERSION_1:
        raise Rfh2Error(f"not an MQRFH version 1 (StrucId {struc_id!r}, Version {version})")
    if not FIXED_LENGTH_1 <= length <= len(data):
        raise Rfh2Error(f"StrucLength {length} is not between {FIXED_LENGTH_1} and {len(data)}")
    raw = data[FIXED_LENGTH_1:length].split(b"\0", 1)[0]  # a NUL ends the NameValueString
    try:
        text = raw.decode("cp037" if ccsid in _EBCDIC else "utf-8")
    except UnicodeDecodeError:
        raise Rfh2Error("NameValueString is not text", C.MQRC_RFH_STRING_ERROR) from None
    words: list[str] = []
    at, end = 0, len(text.rstrip())
    while at < end:
        token = _NV_TOKEN.match(text, at)
        if token is None:
            raise Rfh2Error(f"unbalanced quote in NameValueString at {at}", C.MQRC_RFH_STRING_ERROR)
        quoted, plain = token.groups()
        words.append(quoted.replace('""', '"') if quoted is not None else plain)
        at = token.end()
    if len(words) % 2:
        raise Rfh2Error(f"NameValueString name {words[-1]!r} has no value", C.MQRC_RFH_STRING_ERROR)
    pairs = tuple(zip(words[::2], words[1::2], strict=True))
    header = Rfh1Header(pairs, enc, chars, _format_text(fmt, ccsid), flags, length)
    return header, data[length:]

