"""The dmpmqmsg file codec: every MQMD field, properties and any body survive encode + decode."""

from __future__ import annotations

import datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mqlite.cli import dmpfile
from mqlite.message import Message, MessageDescriptor


def _full_message() -> Message:
    md = MessageDescriptor(
        Report=0x1000, MsgType=1, Expiry=6000, Feedback=3, Encoding=273, CodedCharSetId=819,
        Format="MQSTR", Priority=7, Persistence=1, MsgId=bytes(range(24)),
        CorrelId=b"CORREL".ljust(24, b"\0"), BackoutCount=2, ReplyToQ="REPLY.Q",
        ReplyToQMgr="QM2", UserIdentifier="alice", AccountingToken=bytes(range(32)),
        ApplIdentityData="ident data", PutApplType=28, PutApplName="my app.py",
        PutDate="20250101", PutTime="12345678", ApplOriginData="orig", GroupId=b"G" * 24,
        MsgSeqNumber=3, Offset=100, MsgFlags=8, OriginalLength=55,
    )
    props = {"colour": "red \"quoted\" é", "count": 42, "ratio": 0.25, "flag": True,
             "off": False, "raw": b"\x00\xff", "nothing": None}
    return Message(md, b"hello world", props)


def _roundtrip(*messages: Message) -> list[Message]:
    text = "".join(dmpfile.encode(messages, "QM1", "Q1"))
    return list(dmpfile.decode(text.splitlines(keepends=True)))


def test_every_md_field_and_property_survives() -> None:
    message = _full_message()
    [back] = _roundtrip(message)
    assert back.md == message.md
    assert back.properties == message.properties
    assert back.body == message.body


def test_layout_is_ibm_style() -> None:
    created = datetime.datetime(2025, 11, 25, 10, 51, 55)
    header = dmpfile.encode_header("QM1", "APP.IN", created)
    assert header.startswith("* Dmpmqmsg Version:")
    assert "Created:Tue Nov 25 10:51:55 2025" in header
    assert "* Qmgr  = QM1" in header and "* Queue = APP.IN" in header
    lines = dmpfile.encode_message(_full_message()).splitlines()
    assert lines[0] == "N"
    assert lines[1] == "A VER 2"
    assert "A FMT MQSTR" in lines
    assert "A PRI 7" in lines
    assert "A MSI " + bytes(range(24)).hex().upper() in lines
    assert "A AIX " + b"ident data".hex().upper() in lines
    assert lines[-1] == 'S "hello world"'
    codes = [line[2:5] for line in lines if line.startswith("A ")]
    assert codes[:4] == ["VER", "RPT", "MST", "EXP"] and codes[-1] == "ORL"


def test_defaults_roundtrip_and_empty_body() -> None:
    [back] = _roundtrip(Message(MessageDescriptor(), b""))
    assert back.md == MessageDescriptor()
    assert back.body == b""
    assert back.properties == {}


def test_binary_and_mixed_bodies_use_hex_lines() -> None:
    body = b"\x00\x01binary" + b"readable text here" + bytes(range(200, 256))
    text = dmpfile.encode_message(Message(MessageDescriptor(), body))
    assert any(line.startswith("X ") for line in text.splitlines())
    assert 'S "binaryreadable text here"' in text.splitlines()
    [back] = _roundtrip(Message(MessageDescriptor(), body))
    assert back.body == body


def test_long_text_is_split_and_trailing_spaces_survive() -> None:
    body = b"x" * 200 + b"   "
    text = dmpfile.encode_message(Message(MessageDescriptor(), body))
    data_lines = [line for line in text.splitlines() if line.startswith("S ")]
    assert len(data_lines) == 4
    assert _roundtrip(Message(MessageDescriptor(), body))[0].body == body


def test_many_messages_in_order() -> None:
    messages = [Message(MessageDescriptor(Priority=i % 10), f"m{i}".encode()) for i in range(50)]
    back = _roundtrip(*messages)
    assert [m.body for m in back] == [m.body for m in messages]
    assert [m.md.Priority for m in back] == [i % 10 for i in range(50)]


def test_hand_written_file_is_tolerated() -> None:
    text = "* a comment\n\nN\nA FMT MQSTR   \nA MSI 0102\nS \"first\"\nS \"  second\"\nN\nX 4142\n"
    first, second = dmpfile.decode(text.splitlines())
    assert first.md.Format == "MQSTR"
    assert first.md.MsgId == b"\x01\x02" + bytes(22)
    assert first.body == b"first  second"
    assert second.body == b"AB"


@pytest.mark.parametrize(
    ("text", "line_no"),
    [
        ("A PRI 1\n", 1),
        ("N\nA PRI x\n", 2),
        ("N\nA ZZZ 1\n", 2),
        ("N\nX 4G\n", 2),
        ("N\nS unquoted\n", 2),
        ("N\nQ what\n", 2),
        ("N\nA MSI " + "00" * 25 + "\n", 2),
        ("N\nP name weird 1\n", 2),
        ("N\nNX\n", 2),
    ],
)
def test_malformed_lines_are_reported_with_their_number(text: str, line_no: int) -> None:
    with pytest.raises(dmpfile.DumpFormatError) as info:
        list(dmpfile.decode(text.splitlines()))
    assert info.value.line_no == line_no


_property_values = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**63), 2**63 - 1),
    st.floats(allow_nan=False), st.text(), st.binary(),
)


@given(
    body=st.binary(max_size=300),
    props=st.dictionaries(st.from_regex(r"[A-Za-z][A-Za-z0-9._]{0,20}", fullmatch=True),
                          _property_values, max_size=5),
    reply=st.text(alphabet=st.characters(min_codepoint=33, max_codepoint=126), max_size=48),
    ident=st.text(max_size=32).map(str.rstrip),
)
def test_roundtrip_property(body: bytes, props: dict[str, object], reply: str,
                            ident: str) -> None:
    md = MessageDescriptor(ReplyToQ=reply, ApplIdentityData=ident.rstrip("\0"))
    message = Message(md, body, props)  # type: ignore[arg-type]
    [back] = _roundtrip(message)
    assert back.body == body
    assert back.properties == props
    assert back.md == md
