"""The form of a got message's properties (core/properties_delivery.py): every MQGMO_PROPERTIES_*
option with every PROPCTL value, with and without a message handle, as IBM documents MQGMO's
property options and the PropertyControl queue attribute; the MQRFH2 produced, byte for byte
(spec D §2.2 layout, R-RFH-P1 padding, R-RFH-P3 folder order, R-RFH-E1/E2 byte order, R-RFH-M1
the body's format in the last header); an MQRFH2 put in the body read back as properties (psc
and pscr are not property folders, D §2.6); a malformed one left as it was put."""

from __future__ import annotations

import struct

import pytest

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.properties_delivery import Form, deliver, form, in_reserved_folder, rfh2_of
from mqlite.message import Message, MessageDescriptor
from mqlite.protocol import rfh2 as R
from mqlite.protocol.rfh2_folders import Element, Folder, folder_property_values, property_folders, property_path

FORCE = C.MQGMO_PROPERTIES_FORCE_MQRFH2
NO_PROPS = C.MQGMO_NO_PROPERTIES
IN_HANDLE = C.MQGMO_PROPERTIES_IN_HANDLE
COMPAT_OPT = C.MQGMO_PROPERTIES_COMPATIBILITY
AS_Q_DEF = C.MQGMO_PROPERTIES_AS_Q_DEF
PROPCTLS = ("COMPAT", "NONE", "ALL", "FORCE", "V6COMPAT")
H, NH = True, False  # with a message handle, without one

# (option, PROPCTL, handle) -> form: IBM's MQGMO property options (handle ignored by NO_PROPERTIES,
# FORCE_MQRFH2 and COMPATIBILITY; PROPCTL only read for AS_Q_DEF) and PropertyControl.
EXPECTED = {
    **{(IN_HANDLE, p, H): Form.HANDLE for p in PROPCTLS},
    **{(NO_PROPS, p, h): Form.NONE for p in PROPCTLS for h in (H, NH)},
    **{(FORCE, p, h): Form.MQRFH2 for p in PROPCTLS for h in (H, NH)},
    **{(COMPAT_OPT, p, h): Form.COMPAT for p in PROPCTLS for h in (H, NH)},
    (AS_Q_DEF, "FORCE", H): Form.MQRFH2, (AS_Q_DEF, "FORCE", NH): Form.MQRFH2,
    (AS_Q_DEF, "ALL", H): Form.HANDLE, (AS_Q_DEF, "ALL", NH): Form.MQRFH2,
    (AS_Q_DEF, "COMPAT", H): Form.HANDLE, (AS_Q_DEF, "COMPAT", NH): Form.COMPAT,
    (AS_Q_DEF, "NONE", H): Form.HANDLE, (AS_Q_DEF, "NONE", NH): Form.NONE,
    (AS_Q_DEF, "V6COMPAT", H): Form.V6COMPAT_HANDLE, (AS_Q_DEF, "V6COMPAT", NH): Form.V6COMPAT,
}


@pytest.mark.parametrize(("option", "propctl", "handle"), sorted(EXPECTED, key=str))
def test_form_of_every_option_propctl_and_handle(option: int, propctl: str, handle: bool) -> None:
    assert form(option | C.MQGMO_NO_SYNCPOINT | C.MQGMO_WAIT, propctl, handle) is EXPECTED[option, propctl, handle]


@pytest.mark.parametrize("propctl", PROPCTLS)
def test_properties_in_handle_without_a_handle_is_2460(propctl: str) -> None:
    with pytest.raises(MQError) as info:
        form(IN_HANDLE, propctl, False)
    assert info.value.reason == C.MQRC_HMSG_ERROR


@pytest.mark.parametrize(("first", "second"), [(a, b) for a in (FORCE, NO_PROPS, IN_HANDLE, COMPAT_OPT)
                                               for b in (FORCE, NO_PROPS, IN_HANDLE, COMPAT_OPT) if a < b])
@pytest.mark.parametrize("handle", [H, NH])
def test_two_property_options_are_2046(first: int, second: int, handle: bool) -> None:
    with pytest.raises(MQError) as info:
        form(first | second, "COMPAT", handle)
    assert info.value.reason == C.MQRC_OPTIONS_ERROR


@pytest.mark.parametrize("propctl", PROPCTLS)
def test_a_get_taking_properties_beside_the_body_without_a_handle(propctl: str) -> None:
    # mqlite's GMO below version 4 (no MsgHandle, ReceivedMessage.properties): IBM's forms without
    # a handle, but the message as put where PROPCTL COMPAT, ALL or V6COMPAT would write an MQRFH2.
    assert form(AS_Q_DEF, propctl, False, beside=True) is {"FORCE": Form.MQRFH2, "NONE": Form.NONE}.get(
        propctl, Form.V6COMPAT_HANDLE)
    for option in (FORCE, NO_PROPS, COMPAT_OPT):
        assert form(option, propctl, False, beside=True) is EXPECTED[option, propctl, NH]
    with pytest.raises(MQError) as info:
        form(IN_HANDLE, propctl, False, beside=True)
    assert info.value.reason == C.MQRC_HMSG_ERROR


def test_an_unknown_propctl_reads_as_the_default_compat() -> None:
    assert form(AS_Q_DEF, "", False) is Form.COMPAT
    assert form(AS_Q_DEF, "", True) is Form.HANDLE


# -- the MQRFH2 built from properties, byte for byte ---------------------------------------------
def fixed(length: int, encoding: int, ccsid: int, fmt: bytes, little: bool = True) -> bytes:
    """The 36-byte fixed part (D §2.2), written here by hand, not by the codec."""
    order = "<" if little else ">"
    return struct.pack(order + "4s 3i i 8s 2i", b"RFH ", 2, length, encoding, ccsid, fmt.ljust(8), 0, 1208)


def pair(text: str, little: bool = True) -> bytes:
    data = text.encode("utf-8")
    data += b" " * (-len(data) % 4)  # R-RFH-P1: spaces to a multiple of 4
    return struct.pack("<i" if little else ">i", len(data)) + data


def message(props: dict[str, object], body: bytes = b"hello", **md: object) -> Message:
    fields: dict[str, object] = {"Format": "MQSTR", **md}
    return Message(MessageDescriptor(**fields), body, dict(props))  # type: ignore[arg-type]


def test_force_mqrfh2_puts_the_usr_folder_in_front_of_the_body_byte_exact() -> None:
    got = deliver(message({"colour": "red", "count": 5, "ok": True, "ratio": 2.5, "raw": b"\x01\xab", "nothing": None}),
                  Form.MQRFH2)
    usr = ("<usr><colour>red</colour><count dt='i8'>5</count><ok dt='boolean'>1</ok><ratio dt='r8'>2.5</ratio>"
           "<raw dt='bin.hex'>01AB</raw><nothing xsi:nil='true'></nothing></usr>")
    variable = pair(usr)
    assert got.body == fixed(36 + len(variable), 546, 1208, b"MQSTR") + variable + b"hello"
    assert got.md.Format == "MQHRF2" and got.md.Encoding == 546 and got.md.CodedCharSetId == 1208
    assert got.properties == {}
    decoded = R.decode(got.body, got.md.Format, got.md.Encoding, got.md.CodedCharSetId)
    assert (decoded.body, decoded.format, decoded.encoding, decoded.ccsid) == (b"hello", "MQSTR", 546, 1208)


def test_the_header_describes_the_original_body_and_follows_the_mqmd_byte_order() -> None:
    # R-RFH-E1/E2: the fixed part in the MQMD's (big-endian) Encoding; its fields the body's
    got = deliver(message({"a": 1}, b"\x00\x01", Format="", Encoding=C.MQENC_NORMAL, CodedCharSetId=819), Form.MQRFH2)
    variable = pair("<usr><a dt='i8'>1</a></usr>", little=False)
    assert got.body == fixed(36 + len(variable), 273, 819, b"", little=False) + variable + b"\x00\x01"
    assert (got.md.Format, got.md.Encoding, got.md.CodedCharSetId) == ("MQHRF2", 273, 819)


def test_folders_in_the_encoders_order_other_prefixes_as_folders_with_content_properties() -> None:
    props = {"vendor.x": "1", "b": "usr's", "jms.Dst": "queue:///Q", "mcd.Msd": "jms_text", "usr.c": "also usr",
             "MQTopicString": "sport/tennis", "deep.group.leaf": 7}
    got = deliver(message(props), Form.MQRFH2)
    texts = ["<mcd><Msd>jms_text</Msd></mcd>", "<jms><Dst>queue:///Q</Dst></jms>",
             "<usr><b>usr's</b><c>also usr</c></usr>", "<vendor content='properties'><x>1</x></vendor>",
             "<mqps><Top>sport/tennis</Top></mqps>",  # MQTopicString is mqps.Top (C §5.1, R-PROP-1)
             "<deep content='properties'><group><leaf dt='i8'>7</leaf></group></deep>"]
    variable = b"".join(pair(text) for text in texts)
    assert got.body == fixed(36 + len(variable), 546, 1208, b"MQSTR") + variable + b"hello"


def test_properties_no_element_can_hold_are_left_out() -> None:
    header = rfh2_of({"ok": 1, "has space": 2, "a:b": 3, "big": 1 << 70}, MessageDescriptor())
    assert header is not None and [f.name for f in header.folders] == ["usr"]
    assert [e.name for e in header.folders[0].children] == ["ok"]
    assert rfh2_of({"has space": 1}, MessageDescriptor()) is None


def test_force_with_no_properties_leaves_the_message_alone() -> None:
    plain = message({})
    for shape in Form:
        assert deliver(plain, shape) is plain  # the fast path: nothing parsed, nothing copied


# -- COMPAT, NONE, V6COMPAT --------------------------------------------------------------------
@pytest.mark.parametrize(("props", "rfh2"), [
    ({"colour": "red"}, True), ({"usr.colour": "red"}, True), ({"jms.Dlv": 2}, True), ({"mcd.Msd": "none"}, True),
    ({"mqext.Arm": "x"}, True), ({"MQTopicString": "t"}, False), ({"mqps.Top": "t"}, False),
    ({"vendor.x": 1}, False), ({"MQTopicString": "t", "colour": "red"}, True),
])
def test_compat_gives_an_mqrfh2_only_for_mcd_jms_usr_mqext(props: dict[str, object], rfh2: bool) -> None:
    assert in_reserved_folder(props) is rfh2
    got = deliver(message(props), Form.COMPAT)
    assert got.properties == {}
    if rfh2:  # all the properties go in it, the others' folders too
        decoded = R.decode(got.body, got.md.Format, got.md.Encoding, got.md.CodedCharSetId)
        assert sum(len(f.children) for f in decoded.headers[0].folders) == len(props)
        assert decoded.body == b"hello"
    else:
        assert (got.body, got.md.Format) == (b"hello", "MQSTR")


def test_none_drops_the_properties() -> None:
    got = deliver(message({"colour": "red"}), Form.NONE)
    assert (got.body, got.md.Format, got.properties) == (b"hello", "MQSTR", {})


def test_the_handle_keeps_properties_beside_the_body() -> None:
    stored = message({"colour": "red"})
    assert deliver(stored, Form.HANDLE) is stored
    assert deliver(stored, Form.V6COMPAT_HANDLE) is stored


# -- an MQRFH2 put in the body ------------------------------------------------------------------
def put_rfh2(*folders: Folder, body: bytes = b"payload", fmt: str = "MQSTR") -> Message:
    header = R.Rfh2Header(folders, 546, 1208, fmt)
    return Message(MessageDescriptor(Format="MQHRF2", CodedCharSetId=1208), R.encode([header], body), {})


USR = Folder("usr", (Element("colour", "red"), Element("n", "42", "i4")))
PSC = Folder.of("psc", ("Command", "Publish"), ("Topic", "a/b"))


def test_the_handle_takes_the_usr_folder_out_of_the_body() -> None:
    got = deliver(put_rfh2(Folder.of("mcd", ("Msd", "jms_text")), USR, Folder.of("jms", ("Dst", "queue:///Q"))),
                  Form.HANDLE)
    assert got.properties == {"colour": "red", "n": 42, "mcd.Msd": "jms_text", "jms.Dst": "queue:///Q"}
    assert (got.body, got.md.Format, got.md.Encoding, got.md.CodedCharSetId) == (b"payload", "MQSTR", 546, 1208)


def test_a_psc_folder_stays_in_the_mqrfh2_without_the_properties() -> None:
    got = deliver(put_rfh2(PSC, USR), Form.HANDLE)
    assert got.properties == {"colour": "red", "n": 42}
    variable = pair("<psc><Command>Publish</Command><Topic>a/b</Topic></psc>")
    assert got.body == fixed(36 + len(variable), 546, 1208, b"MQSTR") + variable + b"payload"
    assert got.md.Format == "MQHRF2"


def test_a_folder_with_content_properties_is_a_property_folder_others_are_not() -> None:
    mine = Folder("mine", (Element("x", "1", "i4"), Element("g", children=(Element("y", "z"),))),
                  (("content", "properties"),))
    other = Folder.of("other", ("x", "1"))
    got = deliver(put_rfh2(mine, other, Folder.of("pscr", ("Completion", "ok"))), Form.HANDLE)
    assert got.properties == {"mine.x": 1, "mine.g.y": "z"}
    kept = R.decode(got.body, got.md.Format, got.md.Encoding, got.md.CodedCharSetId)
    assert [f.name for f in kept.headers[0].folders] == ["other", "pscr"]


def test_a_chain_keeps_only_the_headers_with_other_folders() -> None:
    first = R.Rfh2Header((USR,), 546, 1208, "MQHRF2")
    second = R.Rfh2Header((PSC,), 273, 819, "MQSTR")
    stored = Message(MessageDescriptor(Format="MQHRF2"), R.encode([first, second], b"end"), {"set": "by handle"})
    got = deliver(stored, Form.HANDLE)
    assert got.properties == {"colour": "red", "n": 42, "set": "by handle"}
    decoded = R.decode(got.body, got.md.Format, got.md.Encoding, got.md.CodedCharSetId)
    assert [h.folders for h in decoded.headers] == [(PSC,)]
    assert (decoded.body, decoded.format, decoded.encoding, decoded.ccsid) == (b"end", "MQSTR", 273, 819)


def test_none_strips_the_bodys_property_folders_too() -> None:
    got = deliver(put_rfh2(USR), Form.NONE)
    assert (got.body, got.md.Format, got.properties) == (b"payload", "MQSTR", {})


def test_compat_keeps_a_put_mqrfh2_with_a_usr_folder_and_strips_one_without() -> None:
    with_usr = put_rfh2(USR)
    assert deliver(with_usr, Form.COMPAT).body == with_usr.body
    pubsub_only = put_rfh2(Folder.of("mqps", ("Top", "t")), PSC)
    got = deliver(pubsub_only, Form.COMPAT)
    decoded = R.decode(got.body, got.md.Format, got.md.Encoding, got.md.CodedCharSetId)
    assert [f.name for f in decoded.headers[0].folders] == ["psc"]


def test_force_and_v6compat_leave_a_put_mqrfh2_as_it_was_put() -> None:
    stored = put_rfh2(USR)
    for shape in (Form.MQRFH2, Form.V6COMPAT, Form.V6COMPAT_HANDLE):
        assert deliver(stored, shape) is stored


def test_force_chains_the_properties_header_before_a_put_mqrfh2() -> None:
    stored = put_rfh2(PSC)
    stored = Message(stored.md, stored.body, {"colour": "red"})
    got = deliver(stored, Form.MQRFH2)
    decoded = R.decode(got.body, got.md.Format, got.md.Encoding, got.md.CodedCharSetId)
    assert [[f.name for f in h.folders] for h in decoded.headers] == [["usr"], ["psc"]]
    assert decoded.body == b"payload" and decoded.format == "MQSTR"


@pytest.mark.parametrize("body", [b"", b"RFH \x02", b"XXXX" + bytes(40),
                                  R.encode([R.Rfh2Header((USR,))])[:-3],
                                  R.encode([R.Rfh2Header((Folder("usr", (Element("n", "x", "i4"),)),))])])
def test_a_malformed_mqrfh2_is_returned_as_it_was_put(body: bytes) -> None:
    # Chosen: the body unchanged, no error and no warning (the message can always be got).
    stored = Message(MessageDescriptor(Format="MQHRF2"), body, {})
    for shape in (Form.HANDLE, Form.NONE, Form.COMPAT):
        assert deliver(stored, shape) is stored


# -- the folder helpers (protocol/rfh2_folders.py) ------------------------------------------------
def test_property_paths_and_folders_round_trip() -> None:
    assert property_path("x") == ("usr", "x") and property_path("usr.x") == ("usr", "x")
    assert property_path("a.b.c") == ("a", "b", "c")
    assert property_path("a..b") is None and property_path("a:b") is None and property_path("") is None
    folders = property_folders([("x", 1), ("a.b.c", "v"), ("a.d", True)])
    assert {f.name: folder_property_values(f) for f in folders} == {"usr": {"x": 1}, "a": {"a.b.c": "v", "a.d": True}}
    with pytest.raises(R.Rfh2Error):
        property_folders([("a.b", 1), ("a.b.c", 2)])
