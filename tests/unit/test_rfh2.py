"""The MQRFH2 codec (protocol/rfh2.py, rfh2_folders.py) against spec D: the byte-exact vectors of
§20.1 (D:TV-1 ... D:TV-8) in both directions, the decoder's checks (§2.4) with their reasons,
padding (R-RFH-P1/P2), byte orders (R-RFH-E1..E3), chaining (R-RFH-M1/M2), the folder syntax
(§2.5), the folder rules (§2.6), usr elements as properties, and the MQRFH version 1 (Annex A)."""

from __future__ import annotations

import struct

import pytest

from mqlite import cmqc as C
from mqlite.protocol import rfh2 as R
from mqlite.protocol.rfh2_folders import (
    Element,
    Folder,
    Rfh2Error,
    check_folders,
    element_value,
    folder_properties,
    parse,
    properties_folder,
    serialize,
    value_element,
)

LE, BE = C.MQENC_NATIVE, C.MQENC_NORMAL  # 546 and 273
MQHRF2 = C.MQFMT_RF_HEADER_2


def hexdump(text: str) -> bytes:
    """The bytes of a dump as the spec prints it: offset, 16 bytes in hex, the ASCII column."""
    return bytes.fromhex(" ".join(line[6:6 + 47] for line in text.strip().splitlines()))


TV1 = hexdump("""
0000  52 46 48 20 02 00 00 00 7c 00 00 00 22 02 00 00  RFH ....|..."...
0010  fe ff ff ff 4d 51 53 54 52 20 20 20 00 00 00 00  ....MQSTR   ....
0020  b8 04 00 00 54 00 00 00 3c 70 73 63 3e 3c 43 6f  ....T...<psc><Co
0030  6d 6d 61 6e 64 3e 50 75 62 6c 69 73 68 3c 2f 43  mmand>Publish</C
0040  6f 6d 6d 61 6e 64 3e 3c 54 6f 70 69 63 3e 53 70  ommand><Topic>Sp
0050  6f 72 74 2f 53 6f 63 63 65 72 2f 45 76 65 6e 74  ort/Soccer/Event
0060  2f 4d 61 74 63 68 53 74 61 72 74 65 64 3c 2f 54  /MatchStarted</T
0070  6f 70 69 63 3e 3c 2f 70 73 63 3e 20              opic></psc>
""")
TV2_HEAD = hexdump("""
0000  52 46 48 20 00 00 00 02 00 00 00 7c 00 00 01 11  RFH .......|....
0010  ff ff ff fe 4d 51 53 54 52 20 20 20 00 00 00 00  ....MQSTR   ....
0020  00 00 04 b8 00 00 00 54                          .......T
""")
TV3 = hexdump("""
0000  52 46 48 20 02 00 00 00 50 00 00 00 22 02 00 00  RFH ....P..."...
0010  fe ff ff ff 20 20 20 20 20 20 20 20 00 00 00 00  ....        ....
0020  b8 04 00 00 28 00 00 00 3c 70 73 63 72 3e 3c 43  ....(...<pscr><C
0030  6f 6d 70 6c 65 74 69 6f 6e 3e 6f 6b 3c 2f 43 6f  ompletion>ok</Co
0040  6d 70 6c 65 74 69 6f 6e 3e 3c 2f 70 73 63 72 3e  mpletion></pscr>
""")
TV4 = hexdump("""
0000  52 46 48 20 02 00 00 00 08 01 00 00 22 02 00 00  RFH ........"...
0010  fe ff ff ff 20 20 20 20 20 20 20 20 00 00 00 00  ....        ....
0020  b8 04 00 00 6c 00 00 00 3c 70 73 63 72 3e 3c 43  ....l...<pscr><C
0030  6f 6d 70 6c 65 74 69 6f 6e 3e 65 72 72 6f 72 3c  ompletion>error<
0040  2f 43 6f 6d 70 6c 65 74 69 6f 6e 3e 3c 52 65 73  /Completion><Res
0050  70 6f 6e 73 65 3e 3c 52 65 61 73 6f 6e 3e 33 30  ponse><Reason>30
0060  38 33 3c 2f 52 65 61 73 6f 6e 3e 3c 52 65 67 4f  83</Reason><RegO
0070  70 74 3e 42 6f 67 75 73 3c 2f 52 65 67 4f 70 74  pt>Bogus</RegOpt
0080  3e 3c 2f 52 65 73 70 6f 6e 73 65 3e 3c 2f 70 73  ></Response></ps
0090  63 72 3e 20 70 00 00 00 3c 70 73 63 3e 3c 43 6f  cr> p...<psc><Co
00a0  6d 6d 61 6e 64 3e 52 65 67 53 75 62 3c 2f 43 6f  mmand>RegSub</Co
00b0  6d 6d 61 6e 64 3e 3c 52 65 67 4f 70 74 3e 42 6f  mmand><RegOpt>Bo
00c0  67 75 73 3c 2f 52 65 67 4f 70 74 3e 3c 54 6f 70  gus</RegOpt><Top
00d0  69 63 3e 53 70 6f 72 74 2f 53 6f 63 63 65 72 2f  ic>Sport/Soccer/
00e0  23 3c 2f 54 6f 70 69 63 3e 3c 51 4e 61 6d 65 3e  #</Topic><QName>
00f0  52 45 53 55 4c 54 53 2e 51 3c 2f 51 4e 61 6d 65  RESULTS.Q</QName
0100  3e 3c 2f 70 73 63 3e 20                          ></psc>
""")

PUBLISH = Folder.of("psc", ("Command", "Publish"), ("Topic", "Sport/Soccer/Event/MatchStarted"))
OK = Folder.of("pscr", ("Completion", "ok"))
REGSUB = Folder.of("psc", ("Command", "RegSub"), ("RegOpt", "Bogus"), ("Topic", "Sport/Soccer/#"),
                   ("QName", "RESULTS.Q"))
ERROR = Folder("pscr", (Element("Completion", "error"),
                        Element("Response", children=(Element("Reason", "3083"), Element("RegOpt", "Bogus")))))


def _fixed(struc_id: bytes = b"RFH ", version: int = 2, length: int = 36, encoding: int = LE, ccsid: int = -2,
           fmt: bytes = b"MQSTR   ", nv_ccsid: int = 1208, little: bool = True) -> bytes:
    return struct.pack(("<" if little else ">") + "4s3ii8s2i", struc_id, version, length, encoding, ccsid, fmt,
                       0, nv_ccsid)


def _pair(data: bytes, little: bool = True) -> bytes:
    return struct.pack("<i" if little else ">i", len(data)) + data


# -- the byte-exact vectors ------------------------------------------------------------------------
def test_tv1_publish_little_endian_encodes_byte_exact() -> None:
    """D:TV-1, D:R-RFH-P1: the 83-byte psc folder padded with one blank, StrucLength 124."""
    assert len(serialize(PUBLISH)) == 83
    assert R.encode([R.Rfh2Header((PUBLISH,), LE, C.MQCCSI_INHERIT, "MQSTR")], b"", LE) == TV1
    assert len(TV1) == 124


def test_tv1_decodes() -> None:
    """D:TV-1 read back: the body follows at offset 124, its format MQSTR (D:R-RFH-M1)."""
    decoded = R.decode(TV1 + b"hello", MQHRF2, LE, 1208)
    assert decoded.body == b"hello"
    assert (decoded.format, decoded.encoding, decoded.ccsid) == ("MQSTR", LE, 1208)
    (header,) = decoded.headers
    assert header.folders == (PUBLISH,) and header.struc_length == 124
    assert (header.ccsid, header.flags, header.name_value_ccsid) == (C.MQCCSI_INHERIT, 0, 1208)
    assert decoded.command() == PUBLISH and decoded.command().get("Topic") == "Sport/Soccer/Event/MatchStarted"


def test_tv2_big_endian() -> None:
    """D:TV-2, D:R-RFH-E2: MQMD and RFH2 Encoding 273, every MQLONG big-endian."""
    data = R.encode([R.Rfh2Header((PUBLISH,), BE, C.MQCCSI_INHERIT, "MQSTR")], b"", BE)
    assert data[:40] == TV2_HEAD
    assert data[40:] == TV1[40:]
    decoded = R.decode(data, MQHRF2, BE, 1208)
    assert decoded.headers[0].folders == (PUBLISH,) and decoded.encoding == BE


def test_tv2_read_in_the_wrong_byte_order_is_an_error() -> None:
    """D:R-RFH-E1: the integers are in the MQMD's encoding; read little-endian, Version is 2**25."""
    with pytest.raises(Rfh2Error) as caught:
        R.decode(R.encode([R.Rfh2Header((PUBLISH,), BE, -2, "MQSTR")], b"", BE), MQHRF2, LE, 1208)
    assert caught.value.reason == C.MQRC_RFH_ERROR == 2334


def test_tv3_ok_response() -> None:
    """D:TV-3: a 40-byte folder takes no padding, StrucLength 80; Format blanks."""
    assert R.encode([R.Rfh2Header((OK,), LE, -2, "")]) == TV3
    decoded = R.decode(TV3, MQHRF2, LE, 1208)
    assert decoded.headers[0].folders == (OK,) and decoded.format == "" and decoded.body == b""


def test_tv4_error_response_with_the_command_echoed() -> None:
    """D:TV-4: pscr (107 -> 108) then psc (111 -> 112), StrucLength 264; the group <Response>."""
    assert (len(serialize(ERROR)), len(serialize(REGSUB))) == (107, 111)
    assert R.encode([R.Rfh2Header((ERROR, REGSUB), LE, -2, "")]) == TV4
    header = R.decode(TV4, MQHRF2, LE, 1208).headers[0]
    assert header.folders == (ERROR, REGSUB) and header.struc_length == 264
    response = header.folder("pscr").child("Response")
    assert response is not None and response.get("Reason") == "3083" and response.get("RegOpt") == "Bogus"


def test_tv5_three_folders_length_arithmetic() -> None:
    """D:TV-5, D:R-RFH-P1, D:R-RFH-P3: 26 -> 28, 120 -> 120, 33 -> 36; StrucLength 232."""
    mcd = Folder.of("mcd", ("Msd", "none"))
    psc = Folder.of("psc", ("Command", "Publish"), ("PubOpt", "RetainPub"),
                    ("Topic", "Sport/Soccer/State/LatestScore/Team1 Team2"))
    usr = Folder.of("usr", ("Venue", "Wembley"))
    assert [len(serialize(f)) for f in (mcd, psc, usr)] == [26, 120, 33]
    data = R.encode([R.Rfh2Header((mcd, psc, usr), format="MQSTR")])
    assert struct.unpack_from("<i", data, 8)[0] == 232 == len(data)
    lengths, at = [], 36
    while at < len(data):
        (n,) = struct.unpack_from("<i", data, at)
        lengths.append(n)
        at += 4 + n
    assert lengths == [28, 120, 36]
    assert data[36 + 4 + 26:36 + 4 + 28] == b"  "
    header = R.decode(data).headers[0]
    assert header.folders == (mcd, psc, usr)
    assert header.folder("psc").get("Topic") == "Sport/Soccer/State/LatestScore/Team1 Team2"  # blank kept


def test_encoder_order_of_folders() -> None:
    """D:R-RFH-P3: the encoder's order is mcd, jms, psc/pscr, usr (others after, in their order);
    the decoder takes any order (TV-4 has pscr before psc)."""
    usr, mcd, jms, vendor = Folder.of("usr"), Folder.of("mcd"), Folder.of("jms"), Folder.of("com.acme.x")
    assert R.in_encoder_order([vendor, usr, ERROR, REGSUB, jms, mcd]) == (mcd, jms, ERROR, REGSUB, usr, vendor)
    assert R.decode(R.encode([R.Rfh2Header((usr, vendor, mcd))])).headers[0].folders == (usr, vendor, mcd)


TV6_NEGATIVES = {
    "StrucId RFH2": _fixed(struc_id=b"RFH2"),
    "Version 1 with Format MQHRF2": _fixed(version=1),
    "StrucLength 20": _fixed(length=20),
    "StrucLength > message length": _fixed(length=124) + _pair(b"<psc></psc>"),
    "NameValueLength overruns StrucLength": _fixed(length=36 + 4 + 12) + struct.pack("<i", 16) + b"<psc></psc> " * 2,
    "shorter than 36 bytes": _fixed()[:35],
    "NameValueLength negative": _fixed(length=44) + struct.pack("<i", -4) + b"    ",
    "1 to 3 bytes left for a NameValueLength": _fixed(length=38) + b"  ",
    "NameValueCCSID not Unicode": _fixed(length=36 + 4 + 12, nv_ccsid=819) + _pair(b"<psc></psc> "),
    "folder not XML": _fixed(length=36 + 4 + 8) + _pair(b"<psc>   "),
    "bad UTF-8": _fixed(length=36 + 4 + 12) + _pair(b"<a>\xff\xfe</a>  "),
}


@pytest.mark.parametrize("case", list(TV6_NEGATIVES))
def test_tv6_decoder_negatives_are_rfh_error(case: str) -> None:
    """D:TV-6, D §2.4 steps 2-4: each malformed header is MQRC_RFH_ERROR (2334)."""
    with pytest.raises(Rfh2Error) as caught:
        R.decode(TV6_NEGATIVES[case], MQHRF2, LE, 1208)
    assert caught.value.reason == C.MQRC_RFH_ERROR


@pytest.mark.parametrize("md_format", [C.MQFMT_STRING, C.MQFMT_NONE, C.MQFMT_RF_HEADER, "MQRFH2  "])
def test_tv6_not_an_rfh2_format_is_rfh_error(md_format: str) -> None:
    """D §2.4 step 1, D:A-3, D:A-5: MQMD.Format other than "MQHRF2  " (the seed's 'MQRFH2 ' too) is 2334."""
    with pytest.raises(Rfh2Error) as caught:
        R.decode(TV1, md_format, LE, 1208)
    assert caught.value.reason == 2334


def test_tv6_positive_unpadded_length() -> None:
    """D:TV-6, D:R-RFH-P2: StrucLength 122 with an unpadded 82-byte folder is accepted."""
    folder = b"<psc><Command>Publish</Command><Topic>Sport/Soccer/Event/MatchStarts</Topic></psc>"
    assert len(folder) == 82
    decoded = R.decode(_fixed(length=122) + _pair(folder) + b"body", MQHRF2, LE, 1208)
    assert decoded.headers[0].folder("psc").get("Topic") == "Sport/Soccer/Event/MatchStarts"
    assert decoded.body == b"body"


def test_tv6_positive_trailing_nuls_and_pretty_printing() -> None:
    """D:TV-6, D:R-RFH-P2: trailing NULs, and newlines/indentation between elements, are not data;
    a leaf's text is kept verbatim (D §2.5)."""
    pretty = b"<psc>\n  <Command>Publish</Command>\n  <Topic> Sport/Soccer </Topic>\n</psc>\n\0\0\0"
    nuls = b"<pscr><Completion>ok</Completion></pscr>\0\0\0\0"
    data = _fixed(length=36 + 8 + len(pretty) + len(nuls)) + _pair(pretty) + _pair(nuls)
    header = R.decode(data, MQHRF2, LE, 1208).headers[0]
    assert header.folders == (Folder.of("psc", ("Command", "Publish"), ("Topic", " Sport/Soccer ")), OK)


def test_tv7_chained_headers_first_and_last() -> None:
    """D:TV-7, D:R-RFH-M1, D:R-RFH-M2: the command from the first MQRFH2, the body's format, CCSID
    and domain from the last."""
    first = R.Rfh2Header((Folder.of("psc", ("Command", "Publish"), ("Topic", "A")),), LE, -2, MQHRF2.rstrip())
    second = R.Rfh2Header((Folder.of("mcd", ("Msd", "xml")), Folder.of("psc", ("Command", "Publish"), ("Topic", "B"))),
                          LE, 819, "MQSTR")
    data = R.encode([first, second], b"<a/>", LE, 1208)
    assert data[20:28] == b"MQHRF2  " and data[first_length(data):][:4] == b"RFH "
    decoded = R.decode(data, MQHRF2, LE, 1208)
    assert decoded.headers == [first, second]
    assert decoded.command().get("Topic") == "A"
    assert (decoded.format, decoded.ccsid, decoded.encoding) == ("MQSTR", 819, LE)
    assert decoded.content().get("Msd") == "xml"
    assert decoded.body == b"<a/>"


def first_length(data: bytes) -> int:
    return int(struct.unpack_from("<i", data, 8)[0])


def test_tv7_the_encoder_chains_the_formats() -> None:
    """D §2.1: a header followed by another says MQHRF2 whatever it was given."""
    data = R.encode([R.Rfh2Header((OK,), format="MQSTR"), R.Rfh2Header((OK,), format="MQSTR")])
    assert data[20:28] == b"MQHRF2  "
    assert [h.format for h in R.decode(data).headers] == ["MQHRF2", "MQSTR"]


def test_tv7_chain_changes_byte_order_and_inherits_ccsid() -> None:
    """D §2.4 step 5, D:R-RFH-E1: the second header is read in the first's Encoding; CCSID -2 inherits."""
    first = R.Rfh2Header((OK,), BE, C.MQCCSI_INHERIT, "MQHRF2")
    second = R.Rfh2Header((PUBLISH,), LE, C.MQCCSI_INHERIT, "MQSTR")
    data = R.encode([first, second], b"x", LE, 1208)
    assert data[:8] == b"RFH \x02\x00\x00\x00" and data[80:88] == b"RFH \x00\x00\x00\x02"
    decoded = R.decode(data, MQHRF2, LE, 1208)
    assert decoded.headers == [first, second] and decoded.ccsid == 1208 and decoded.body == b"x"


@pytest.mark.parametrize(("encoding", "little"), [(LE, True), (BE, False)])
def test_tv8_ucs2_name_value_data(encoding: int, little: bool) -> None:
    """D:TV-8, D:R-RFH-E3: NameValueCCSID 1200 in the integers' byte order; 42 chars (84 bytes)
    take no padding, 41 chars (82 bytes) one U+0020."""
    psc = "3c 00 70 00 73 00 63 00 3e 00" if little else "00 3c 00 70 00 73 00 63 00 3e"
    f42 = Folder.of("psc", ("Topic", "Sport/Soccer/Abc"))  # 5 + 7 + 16 + 8 + 6 = 42 characters
    f41 = Folder.of("psc", ("Topic", "Sport/Soccer/Ab"))
    assert (len(serialize(f42)), len(serialize(f41))) == (42, 41)
    for folder, length, pad in ((f42, 84, b""), (f41, 84, b" \0" if little else b"\0 ")):
        data = R.encode([R.Rfh2Header((folder,), encoding, -2, "MQSTR", name_value_ccsid=1200)], b"", encoding)
        assert data[36:40] == struct.pack("<i" if little else ">i", length)
        assert data[40:50] == bytes.fromhex(psc)
        assert data[-2:] == pad or pad == b""
        assert R.decode(data, MQHRF2, encoding, 1208).headers[0].folders == (folder,)


@pytest.mark.parametrize("ccsid", [1200, 13488, 17584, 1208])
def test_every_name_value_ccsid_round_trips(ccsid: int) -> None:
    """D §2.2 NameValueCCSID: 1200, 13488, 17584 (UCS-2), 1208 (UTF-8), with non-ASCII text."""
    folder = Folder.of("usr", ("Price", "10 €"), ("Name", "Zoë"))
    header = R.Rfh2Header((folder,), name_value_ccsid=ccsid, format="MQSTR")
    assert R.decode(R.encode([header])).headers == [header]


def test_ucs2_refuses_surrogates() -> None:
    """D:R-RFH-E3: surrogates are not supported in UCS-2 NameValueData, either way."""
    with pytest.raises(Rfh2Error):
        R.encode([R.Rfh2Header((Folder.of("usr", ("a", "\U0001f600")),), name_value_ccsid=1200)])
    data = _fixed(length=36 + 4 + 12, nv_ccsid=1200) + _pair("<a>".encode("utf-16-le") + b"\x00\xd8" + b" \0")
    with pytest.raises(Rfh2Error):
        R.decode(data)
    emoji = R.encode([R.Rfh2Header((Folder.of("usr", ("a", "\U0001f600")),))])  # UTF-8 has no such limit
    assert R.decode(emoji).headers[0].folder("usr").get("a") == "\U0001f600"


def test_ebcdic_fixed_part() -> None:
    """D §2.2 StrucId, D:R-RFH-E1: with an EBCDIC MQMD CCSID, StrucId is D9 C6 C8 40 and Format EBCDIC."""
    data = R.encode([R.Rfh2Header((PUBLISH,), format="MQSTR")], b"", BE, 500)
    assert data[:4] == bytes.fromhex("d9c6c840") and data[20:28] == "MQSTR   ".encode("cp500")
    assert R.decode(data, MQHRF2, BE, 500).headers[0].folders == (PUBLISH,)


# -- padding and lengths ---------------------------------------------------------------------------
@pytest.mark.parametrize("size", range(1, 9))
def test_padding_to_a_multiple_of_four(size: int) -> None:
    """D:R-RFH-P1: spaces after the closing tag; StrucLength = 36 + sum(4 + NameValueLength)."""
    folder = Folder.of("u", ("v", "x" * size))
    data = R.encode([R.Rfh2Header((folder,))])
    text = serialize(folder).encode()
    assert len(data) % 4 == 0 and first_length(data) == len(data)
    assert data[40:] == text + b" " * (-len(text) % 4)


def test_empty_header_and_empty_folder() -> None:
    """An MQRFH2 with no folders is the fixed part; an empty NameValueData is no folder."""
    assert len(R.encode([R.Rfh2Header()])) == 36
    assert R.decode(_fixed(length=40) + struct.pack("<i", 0)).headers[0].folders == ()
    assert R.decode(_fixed(length=44) + _pair(b"  \0\0")).headers[0].folders == ()


def test_bad_formats_are_refused_on_encode() -> None:
    """D §2.2 Format: 8 characters at most, no embedded blanks or NULs."""
    for bad in ("MQ STR", "TOOLONGNAME", "MQ\0STR"):
        with pytest.raises(Rfh2Error):
            R.encode([R.Rfh2Header(format=bad)])


# -- the folder syntax (§2.5) ----------------------------------------------------------------------
def test_entities_escaped_and_unescaped() -> None:
    """D §2.5: the encoder escapes &, <, >; the decoder reads the five entities and character references."""
    folder = Folder.of("usr", ("q", "a<b & c>d 'x' \"y\""))
    assert serialize(folder) == "<usr><q>a&lt;b &amp; c&gt;d 'x' \"y\"</q></usr>"
    assert parse(serialize(folder)) == folder
    assert parse("<usr><q>&lt;&gt;&amp;&quot;&apos;&#65;&#x42;</q></usr>").get("q") == "<>&\"'AB"
    assert parse("<usr><q><![CDATA[<raw> & stuff]]></q></usr>").get("q") == "<raw> & stuff"
    for bad in ("<usr><q>&bogus;</q></usr>", "<usr><q>a & b</q></usr>", "<usr><q>&#xD800;</q></usr>"):
        with pytest.raises(Rfh2Error):
            parse(bad)


def test_control_characters_are_written_as_references() -> None:
    folder = Folder.of("usr", ("q", "a\0b\x01c\td"))
    assert serialize(folder) == "<usr><q>a&#x0;b&#x1;c\td</q></usr>"
    assert parse(serialize(folder)) == folder


def test_dt_and_other_attributes() -> None:
    """D §2.5: dt='...' in single or double quotes; other attributes kept in order."""
    folder = parse("<jms><Tms dt='i8'>1234</Tms><Dlv dt=\"i4\">2</Dlv><n xsi:nil='true' a=\"&lt;\"/></jms>")
    assert folder.children == (Element("Tms", "1234", "i8"), Element("Dlv", "2", "i4"),
                               Element("n", "", None, (), (("xsi:nil", "true"), ("a", "<"))))
    assert parse(serialize(folder)) == folder


def test_names_case_sensitive_and_repeats_kept_in_order() -> None:
    """D §2.5: names are case-sensitive; repeated elements keep their order (RegOpt options)."""
    folder = parse("<psc><RegOpt>A</RegOpt><regopt>x</regopt><RegOpt>B</RegOpt></psc>")
    assert folder.values("RegOpt") == ["A", "B"] and folder.get("regopt") == "x"


@pytest.mark.parametrize("bad", [
    "", "   ", "psc", "<psc>", "<psc></pscr>", "<psc><a></psc></a>", "<psc></psc><x/>", "<psc></psc>junk",
    "text<psc></psc>", "<psc>text</psc>", "<psc><a>1</a>text</psc>", "<1psc></1psc>", "<psc a='1' a='2'></psc>",
    "<psc><!-- c --></psc>", "<" + "<a>" * 100,
])
def test_malformed_folders(bad: str) -> None:
    with pytest.raises(Rfh2Error) as caught:
        parse(bad)
    assert caught.value.reason == C.MQRC_RFH_ERROR


def test_nesting_is_bounded() -> None:
    deep = "<a>" * 70 + "</a>" * 70
    with pytest.raises(Rfh2Error):
        parse(deep)


# -- the folder rules (§2.6) -----------------------------------------------------------------------
def test_folder_rules() -> None:
    """D §2.6: one psc, one pscr, one usr per MQRFH2; usr elements simple and not repeated; mcd
    domains mrm and idoc need Set, Type and Fmt."""
    check_folders([PUBLISH, OK, Folder.of("usr", ("a", "1")), Folder.of("mcd", ("Msd", "xml")),
                   Folder.of("mcd", ("Msd", "mrm"), ("Set", "S"), ("Type", "T"), ("Fmt", "F"))])
    for bad in ([PUBLISH, PUBLISH], [OK, OK], [Folder.of("usr"), Folder.of("usr")],
                [Folder.of("usr", ("a", "1"), ("a", "2"))], [Folder("usr", (Element("g", children=(Element("x"),)),))],
                [Folder.of("mcd", ("Msd", "idoc"), ("Set", "S"))]):
        with pytest.raises(Rfh2Error) as caught:
            check_folders(bad)
        assert caught.value.reason == C.MQRC_RFH_ERROR


# -- usr elements as message properties ------------------------------------------------------------
@pytest.mark.parametrize(("element", "value"), [
    (Element("s", "text"), "text"), (Element("s", " x ", "string"), " x "),
    (Element("b", "1", "boolean"), True), (Element("b", "false", "boolean"), False),
    (Element("i", "-128", "i1"), -128), (Element("i", "32767", "i2"), 32767), (Element("i", "-5", "i4"), -5),
    (Element("i", str(2**63 - 1), "i8"), 2**63 - 1), (Element("i", "7", "int"), 7),
    (Element("f", "1.5", "r4"), 1.5), (Element("f", "-2.5E3", "r8"), -2500.0),
    (Element("h", "0aFF", "bin.hex"), b"\x0a\xff"), (Element("h", "", "bin.hex"), b""),
    (Element("n", "", None, (), (("xsi:nil", "true"),)), None), (Element("n", "", "null"), None),
])
def test_element_values_by_dt(element: Element, value: object) -> None:
    """The MQRFH2 datatypes as IBM maps them to property types (MQTYPE_*)."""
    assert element_value(element) == value and type(element_value(element)) is type(value)


@pytest.mark.parametrize("element", [
    Element("i", "128", "i1"), Element("i", "x", "i4"), Element("i", "1.5", "i8"), Element("b", "yes", "boolean"),
    Element("h", "abc", "bin.hex"), Element("f", "one", "r8"), Element("x", "1", "date"),
    Element("g", children=(Element("x"),)),
])
def test_bad_element_values(element: Element) -> None:
    with pytest.raises(Rfh2Error) as caught:
        element_value(element)
    assert caught.value.reason == C.MQRC_RFH_FORMAT_ERROR


def test_properties_round_trip_through_a_usr_folder() -> None:
    properties = {"s": "a<b", "i": -(2**40), "f": 0.1, "t": True, "b": b"\x00\x01", "n": None, "e": ""}
    folder = properties_folder(properties)
    assert folder.name == "usr" and folder.child("i") == Element("i", str(-(2**40)), "i8")
    assert folder.child("n") == value_element("n", None)
    again = folder_properties(parse(serialize(folder)))
    assert again == properties and list(again) == list(properties)
    assert folder_properties(R.decode(R.encode([R.Rfh2Header((folder,))])).headers[0].folder("usr")) == properties


def test_property_names_that_cannot_be_elements() -> None:
    for bad in ("a:b", "1a", "a b", ""):
        with pytest.raises(Rfh2Error) as caught:
            properties_folder({bad: 1})
        assert caught.value.reason == C.MQRC_PROPERTY_NAME_ERROR
    with pytest.raises(Rfh2Error):
        folder_properties(Folder.of("usr", ("a", "1"), ("a", "2")))


def test_integers_past_64_bits_are_no_property() -> None:
    with pytest.raises(Rfh2Error) as caught:
        value_element("i", 2**63)
    assert caught.value.reason == C.MQRC_PROPERTY_TYPE_ERROR


def test_special_floats() -> None:
    for value in (float("inf"), float("-inf")):
        assert element_value(value_element("f", value)) == value
    assert element_value(value_element("f", float("nan"))) != 0  # NaN


# -- constants -------------------------------------------------------------------------------------
def test_constants() -> None:
    """D §2.2, §2.6 [EXT]: IBM's names and values."""
    assert (C.MQRFH_STRUC_ID, C.MQRFH_VERSION_2, C.MQRFH_STRUC_LENGTH_FIXED_2) == ("RFH ", 2, 36)
    assert (C.MQFMT_RF_HEADER_2, C.MQFMT_RF_HEADER, C.MQCCSI_INHERIT) == ("MQHRF2  ", "MQHRF   ", -2)
    assert (C.MQRFH2_PUBSUB_CMD_FOLDER, C.MQRFH2_PUBSUB_RESP_FOLDER, C.MQRFH2_MSG_CONTENT_FOLDER,
            C.MQRFH2_USER_FOLDER) == ("psc", "pscr", "mcd", "usr")
    assert (C.MQRC_RFH_ERROR, C.MQRC_RFH_STRING_ERROR, C.MQRC_RFH_FORMAT_ERROR) == (2334, 2335, 2421)
    assert (C.MQPSC_COMMAND, C.MQPSC_PUBLISH, C.MQPSC_NO_ALTERATION, C.MQPSCR_OK) == ("Command", "Publish",
                                                                                         "NoAlter", "ok")


# -- MQRFH version 1 (Annex A) ---------------------------------------------------------------------
def test_rfh1_round_trip_and_layout() -> None:
    """D Annex A: 32-byte fixed part, NameValueString of blank-separated pairs, quoted values
    (quotes doubled), padded to a multiple of 4, in the preceding header's CCSID and encoding."""
    header = R.Rfh1Header((("MQPSCommand", "Publish"), ("MQPSTopic", 'Sport "A" B'), ("MQPSQName", "")),
                          format="MQSTR")
    data = R.encode_rfh1(header)
    assert data[:8] == b"RFH \x01\x00\x00\x00" and len(data) % 4 == 0 and first_length(data) == len(data)
    assert data[32:].rstrip() == b'MQPSCommand Publish MQPSTopic "Sport ""A"" B" MQPSQName ""'
    again, rest = R.decode_rfh1(data + b"body")
    assert again == header and rest == b"body" and again.get("MQPSTopic") == 'Sport "A" B'
    big, _ = R.decode_rfh1(R.encode_rfh1(header, BE, 500), BE, 500)
    assert big == header


def test_rfh1_errors() -> None:
    """D Annex A: a bad structure is 2334, a NameValueString that is not pairs 2335."""
    good = R.encode_rfh1(R.Rfh1Header((("a", "b"),)))

    def rfh1(text: bytes, version: int = 1, length: int | None = None) -> bytes:
        size = 32 + len(text) if length is None else length
        return struct.pack("<4s3ii8si", b"RFH ", version, size, LE, 0, b"MQSTR   ", 0) + text

    for bad, reason in ((good[:31], 2334), (rfh1(b"a b ", version=2), 2334), (rfh1(b"a b ", length=40), 2334),
                        (rfh1(b"a b ", length=28), 2334), (rfh1(b'a "b   '), 2335), (rfh1(b"a b c   "), 2335),
                        (rfh1(b"a \xff  "), 2335)):
        with pytest.raises(Rfh2Error) as caught:
            R.decode_rfh1(bad)
        assert caught.value.reason == reason, bad
    assert R.decode_rfh1(rfh1(b"a b\0junk"))[0].pairs == (("a", "b"),)  # a NUL ends the string
