"""pymqi's ``RFH2`` class (client/rfh2.py) over the MQRFH2 codec: building, packing in both byte
orders (spec D:TV-1, D:TV-2), unpacking, folders by name, errors as ``PYIFError``."""

from __future__ import annotations

import struct

import pytest

import mqlite as pymqi
from mqlite import CMQC
from mqlite.protocol import rfh2 as codec

PSC = b"<psc><Command>Publish</Command><Topic>Sport/Soccer/Event/MatchStarted</Topic></psc>"
USR = b"<usr><Venue>Wembley</Venue><Seats dt='i4'>90000</Seats></usr>"


def test_exported_like_pymqi() -> None:
    assert pymqi.RFH2 is pymqi.client.public.RFH2 and "RFH2" in pymqi.__all__


def test_initial_values() -> None:
    rfh2 = pymqi.RFH2()
    assert rfh2.StrucId == b"RFH " and rfh2["StrucId"] == CMQC.MQRFH_STRUC_ID
    assert (rfh2.Version, rfh2.StrucLength, rfh2.Encoding, rfh2.Flags) == (2, 36, CMQC.MQENC_NATIVE, 0)
    assert (rfh2.CodedCharSetId, rfh2.NameValueCCSID) == (CMQC.MQCCSI_INHERIT, 1208)
    assert rfh2.Format == CMQC.MQFMT_NONE and rfh2.get_folders() == []
    assert len(rfh2.pack()) == 36


def test_tv1_built_the_pymqi_way() -> None:
    """D:TV-1: add_folder pads 83 bytes to 84, StrucLength 124; pack(546) is the vector."""
    rfh2 = pymqi.RFH2(Format=CMQC.MQFMT_STRING)
    rfh2.add_folder(PSC)
    assert rfh2.get_folders() == ["psc"]
    assert (rfh2["pscLength"], rfh2.pscLength, rfh2.StrucLength) == (84, 84, 124)
    assert rfh2["psc"] == PSC + b" "
    data = rfh2.pack(encoding=CMQC.MQENC_NATIVE)
    assert data == codec.encode([codec.Rfh2Header((codec.Folder.of(
        "psc", ("Command", "Publish"), ("Topic", "Sport/Soccer/Event/MatchStarted")),), format="MQSTR")])
    assert data[:8] == b"RFH \x02\x00\x00\x00"


def test_tv2_packed_big_endian() -> None:
    """D:TV-2: pack(encoding=273) writes every MQLONG big-endian; Encoding is the field's."""
    rfh2 = pymqi.RFH2(Format=b"MQSTR   ", Encoding=273)
    rfh2.add_folder(PSC)
    data = rfh2.pack(encoding=273)
    assert data[:40] == bytes.fromhex("52464820 00000002 0000007c 00000111 fffffffe 4d51535452202020 00000000"
                                      "000004b8 00000054")


@pytest.mark.parametrize("encoding", [CMQC.MQENC_NATIVE, CMQC.MQENC_NORMAL, None])
def test_unpack_what_was_packed(encoding: int | None) -> None:
    rfh2 = pymqi.RFH2(Format=CMQC.MQFMT_STRING, CodedCharSetId=1208)
    rfh2.add_folder(b"<mcd><Msd>jms_text</Msd></mcd>")
    rfh2.add_folder(USR)
    data = rfh2.pack(encoding=encoding)
    back = pymqi.RFH2()
    back.unpack(data + b"the body", encoding=encoding)
    assert back.get_folders() == ["mcd", "usr"] and back == rfh2
    assert (back.StrucLength, back.CodedCharSetId, back.Format) == (len(data), 1208, CMQC.MQFMT_STRING)
    assert (data + b"the body")[back["StrucLength"]:] == b"the body"
    usr = back.folder("usr")
    assert usr is not None and usr.get("Venue") == "Wembley" and usr.child("Seats").dt == "i4"
    assert back.folder("psc") is None


def test_unpack_a_message_the_codec_wrote() -> None:
    """A chain's first header, as a pymqi program reads it: its folders and where the next starts."""
    data = codec.encode([codec.Rfh2Header((codec.Folder.of("psc", ("Command", "RegSub")),), format="MQHRF2"),
                         codec.Rfh2Header((), format="MQSTR")], b"x", CMQC.MQENC_NORMAL)
    rfh2 = pymqi.RFH2()
    rfh2.unpack(data, CMQC.MQENC_NORMAL)
    assert rfh2.Format == CMQC.MQFMT_RF_HEADER_2 and rfh2.get_folders() == ["psc"]
    second = pymqi.RFH2()
    second.unpack(data[rfh2.StrucLength:])  # byte order guessed from Version, as pymqi does
    assert second.Format == CMQC.MQFMT_STRING and data[rfh2.StrucLength + second.StrucLength:] == b"x"


def test_ucs2_folders() -> None:
    rfh2 = pymqi.RFH2(NameValueCCSID=1200)
    rfh2.add_folder("<usr><a>€</a></usr>".encode("utf-16-le"))  # 19 characters, 38 bytes: one U+0020
    assert rfh2.usrLength == 40 and rfh2.usr.endswith(b" \x00")
    back = pymqi.RFH2()
    back.unpack(rfh2.pack(CMQC.MQENC_REVERSED), CMQC.MQENC_REVERSED)
    assert back.folder("usr").get("a") == "€"


@pytest.mark.parametrize("bad", [b"<usr>", b"not xml", "<usr></usr>"])
def test_add_folder_refuses_what_is_not_a_folder(bad: object) -> None:
    with pytest.raises(pymqi.PYIFError):
        pymqi.RFH2().add_folder(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("buffer", [
    b"RFH", b"MD  " + bytes(40), b"RFH " + bytes(20),
    b"RFH " + struct.pack("<3i", 2, 200, 546) + bytes(24),  # StrucLength past the buffer
    b"RFH " + struct.pack("<3i", 2, 44, 546) + bytes(20) + struct.pack("<ii", 1208, 40) + b"    ",
])
def test_unpack_errors(buffer: bytes) -> None:
    with pytest.raises(pymqi.PYIFError):
        pymqi.RFH2().unpack(buffer, CMQC.MQENC_NATIVE)


def test_pack_refuses_a_bad_format() -> None:
    with pytest.raises(pymqi.PYIFError):
        pymqi.RFH2(Format=b"MQ STR").pack()


def test_fields_and_folders_by_name() -> None:
    rfh2 = pymqi.RFH2()
    rfh2.add_folder(USR)
    assert rfh2.get()["usr"] == USR + b" " * (-len(USR) % 4)
    with pytest.raises(KeyError):
        _ = rfh2["jms"]
    with pytest.raises(AttributeError):
        _ = rfh2.jms
    with pytest.raises(AttributeError):
        pymqi.RFH2(Bogus=1)
