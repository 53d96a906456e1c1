"""pymqi's ``RFH2``: an MQRFH2 header an application builds or reads in a message's data.

As in pymqi: ``RFH2()`` with the fixed fields as attributes (``StrucId``, ``Version``,
``StrucLength``, ``Encoding``, ``CodedCharSetId``, ``Format``, ``Flags``, ``NameValueCCSID``),
``add_folder(b"<usr>...</usr>")`` (padded with spaces to a multiple of 4, StrucLength updated),
``rfh2["usr"]`` / ``rfh2["usrLength"]`` for a folder's bytes and length, ``get_folders()`` for
their names, ``pack(encoding=...)`` and ``unpack(buffer, encoding=...)`` with the integers in the
byte order the (MQMD's) encoding names. The bytes are those of ``mqlite.protocol.rfh2``; errors
are ``PYIFError``. Two initial values are IBM's rather than pymqi's: CodedCharSetId -2
(MQCCSI_INHERIT) and NameValueCCSID 1208 (pymqi has 0, which is no NameValueCCSID IBM accepts).
``folder(name)`` (an mqlite addition) gives a folder parsed.
"""

from __future__ import annotations

import sys
from typing import Any

from mqlite import cmqc
from mqlite.client.errors import PYIFError
from mqlite.client.structs import CharField, MQOpts, padded, text
from mqlite.protocol import rfh2 as codec
from mqlite.protocol.rfh2_folders import Folder, Rfh2Error, parse

__all__ = ["RFH2"]

_NATIVE_LITTLE = sys.byteorder == "little"


def _little(encoding: int | None) -> bool:
    """pymqi's rule: a big-endian integer encoding (273 and the like) packs big-endian, anything
    else (or no encoding) in the machine's order."""
    if encoding is None:
        return _NATIVE_LITTLE
    if encoding & cmqc.MQENC_INTEGER_MASK == cmqc.MQENC_INTEGER_NORMAL:
        return False
    return encoding & cmqc.MQENC_INTEGER_MASK == cmqc.MQENC_INTEGER_REVERSED or _NATIVE_LITTLE


def _as_encoding(little: bool) -> int:
    return cmqc.MQENC_INTEGER_REVERSED if little else cmqc.MQENC_INTEGER_NORMAL


def _text_of(data: bytes, ccsid: int, little: bool) -> str:
    if ccsid in codec.UCS2_CCSIDS:
        return data.decode("utf-16-le" if little else "utf-16-be")
    return data.decode("utf-8")


class RFH2(MQOpts):
    """MQRFH2 (pymqi's ``RFH2``); folders are kept as the bytes given or read, in order."""

    _fields = (
        ("StrucId", CharField(cmqc.MQRFH_STRUC_ID.encode())), ("Version", cmqc.MQRFH_VERSION_2),
        ("StrucLength", cmqc.MQRFH_STRUC_LENGTH_FIXED_2), ("Encoding", cmqc.MQENC_NATIVE),
        ("CodedCharSetId", cmqc.MQCCSI_INHERIT), ("Format", padded(cmqc.MQFMT_NONE, 8)), ("Flags", cmqc.MQRFH_NONE),
        ("NameValueCCSID", 1208),
    )

    def __init__(self, **kw: Any) -> None:
        self.__dict__["_folders"] = []
        self.__dict__["_nv_little"] = _NATIVE_LITTLE  # UCS-2 folders' byte order: as read, else the machine's
        super().__init__(**kw)

    # -- folders ----------------------------------------------------------------------------------
    @property
    def _items(self) -> list[tuple[str, bytes]]:
        items: list[tuple[str, bytes]] = self.__dict__["_folders"]
        return items

    def _folder_name(self, data: bytes, little: bool) -> str:
        try:
            return parse(_text_of(data, self.NameValueCCSID, little)).name
        except (Rfh2Error, UnicodeDecodeError) as error:
            raise PYIFError(f"RFH2 - XML Folder not well formed. Exception: {error}") from None

    def add_folder(self, folder_data: bytes) -> None:
        """Add a folder (well-formed XML bytes in NameValueCCSID), padded with spaces to a
        multiple of 4; StrucLength follows."""
        if not isinstance(folder_data, bytes | bytearray):
            raise PYIFError(f"RFH2 - folder data must be bytes, not {type(folder_data).__name__}")
        data = bytes(folder_data)
        name = self._folder_name(data, self.__dict__["_nv_little"])
        unit = 2 if self.NameValueCCSID in codec.UCS2_CCSIDS else 1
        pad = -len(data) % 4
        if unit == 2 and pad % 2 == 0:
            space = " ".encode("utf-16-le" if self.__dict__["_nv_little"] else "utf-16-be")
            data += space * (pad // 2)
        else:
            data += b" " * pad
        self._items.append((name, data))
        self.StrucLength = self.get_length()

    def get_folders(self) -> list[str]:
        """The folders' names, in order."""
        return [name for name, _ in self._items]

    def get_length(self) -> int:
        return cmqc.MQRFH_STRUC_LENGTH_FIXED_2 + sum(4 + len(data) for _, data in self._items)

    def folder(self, name: str) -> Folder | None:
        """The first folder called ``name``, parsed (mqlite's addition)."""
        for key, data in self._items:
            if key == name:
                try:
                    return parse(_text_of(data, self.NameValueCCSID, self.__dict__["_nv_little"]))
                except (Rfh2Error, UnicodeDecodeError) as error:
                    raise PYIFError(f"RFH2 - folder {name} not well formed: {error}") from None
        return None

    def __getitem__(self, key: str) -> Any:
        for name, data in self._items:
            if key == name:
                return data
            if key == name + "Length":
                return len(data)
        return super().__getitem__(key)

    def __getattr__(self, name: str) -> Any:
        for key, data in self.__dict__.get("_folders", ()):
            if name == key:
                return data
            if name == key + "Length":
                return len(data)
        raise AttributeError(f"RFH2 has no field {name!r}")

    def get(self) -> dict[str, Any]:
        values = super().get()
        for name, data in self._items:
            values.setdefault(name + "Length", len(data))
            values.setdefault(name, data)
        return values

    # -- bytes ------------------------------------------------------------------------------------
    def pack(self, encoding: int | None = None) -> bytes:
        """The header's bytes, its integers big-endian if ``encoding`` (the MQMD's) says so."""
        header = codec.Rfh2Header((), self.Encoding, self.CodedCharSetId, text(self.Format), self.Flags,
                                  self.NameValueCCSID)
        try:
            data = codec.encode_header(header, _as_encoding(_little(encoding)), raw_folders=[d for _, d in self._items])
        except Rfh2Error as error:
            raise PYIFError(f"RFH2 - {error.text}") from None
        self.StrucLength = len(data)
        return data

    def unpack(self, buff: bytes, encoding: int | None = None) -> None:
        """Read the MQRFH2 at the start of ``buff`` (what follows it is ignored): the integers
        in ``encoding``'s byte order (the MQMD's); without one, guessed from Version as pymqi does."""
        if not isinstance(buff, bytes | bytearray):
            raise PYIFError(f"RFH2 - buffer must be bytes, not {type(buff).__name__}")
        buff = bytes(buff)
        if buff[:4] != cmqc.MQRFH_STRUC_ID.encode():
            raise PYIFError(f"RFH2 - StrucId not MQRFH_STRUC_ID. Value: {buff[:4]!r}")
        if len(buff) < cmqc.MQRFH_STRUC_LENGTH_FIXED_2:
            raise PYIFError(f"RFH2 - Buffer too short. Should be 36+ bytes instead of {len(buff)}")
        little = _little(encoding) if encoding is not None else buff[4:5] != b"\x00"
        try:
            fields, raw = codec.split_header(buff, 0, _as_encoding(little), 1208)
        except Rfh2Error as error:
            raise PYIFError(f"RFH2 - {error.text}") from None
        struc_id, version, length, enc, ccsid, fmt, flags, nv_ccsid = fields
        self.set(StrucId=CharField(struc_id.encode()), Version=version, StrucLength=length, Encoding=enc,
                 CodedCharSetId=ccsid, Format=padded(fmt, 8), Flags=flags, NameValueCCSID=nv_ccsid)
        self._items.clear()
        self.__dict__["_nv_little"] = little
        for data in raw:
            if data.strip(b" \0"):
                self._items.append((self._folder_name(data, little), data))
