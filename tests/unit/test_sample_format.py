"""amqsbcg's report without a queue manager: IBM's hex dump layout, the MQMD block, properties."""

from __future__ import annotations

from mqlite.cli.sample_format import body_text, md_text, properties_text, summary_text
from mqlite.message import MessageDescriptor


def _dump_lines(body: bytes) -> list[str]:
    text, _ = body_text(body, 0)
    return [line for line in text.split("\n") if line[:8].isalnum() and line[8:9] == ":"]


def test_hex_dump_lines_as_amqsbcg_prints_them() -> None:
    assert _dump_lines(b"hello") == ["00000000:  6865 6C6C 6F                                  'hello           '"]
    two = _dump_lines(bytes(range(0x41, 0x41 + 16)) + b"\x00\x7f")
    assert two == ["00000000:  4142 4344 4546 4748 494A 4B4C 4D4E 4F50       'ABCDEFGHIJKLMNOP'",
                   "00000010:  007F" + " " * 42 + "'..              '"]  # the text column lines up
    assert _dump_lines(b"") == ["00000000: " + " " * 47 + "'" + " " * 16 + "'"]  # one blank line, as IBM's
    text, _ = body_text(b"x" * 70000, 0)
    assert " length - 65536 of 70000 bytes" in text.split("\n")  # IBM's 64 KB buffer


def test_page_breaks_every_sixty_lines() -> None:
    text, printed = body_text(b"y" * 16 * 40, 29)  # the first message starts at 29, as IBM's does
    lines = text.split("\n")
    breaks = [index for index, line in enumerate(lines) if line == " " and index > 5]
    assert printed == 9 and len(breaks) == 1 and lines[breaks[0] - 1].startswith("000001E0:")  # line 29 + 31


def test_the_descriptor_block() -> None:
    md = MessageDescriptor(Format="MQSTR", MsgId=b"\x01" * 24, UserIdentifier="app", PutApplName="amqsput",
                           PutDate="20261201", PutTime="21300000", Persistence=1)
    lines = md_text(md).split("\n")
    assert lines[:4] == ["", "****Message descriptor****", "", "  StrucId  : 'MD  '  Version : 2"]
    for expected in ("  Format : 'MQSTR   '", "  Priority : -1  Persistence : 1",
                     "  MsgId : X'" + "01" * 24 + "'", "  UserIdentifier : 'app         '",
                     "  AccountingToken : ", "   X'" + "00" * 32 + "'",
                     "  PutApplName    : 'amqsput                     '",
                     "  PutDate  : '20261201'    PutTime  : '21300000'", "  OriginalLength : '-1'"):
        assert expected in lines, expected


def test_properties_and_summary() -> None:
    shown = properties_text({"colour": "red", "n": 3, "ok": True, "raw": b"\x01", "nothing": None}).split("\n")
    assert shown[2] == "****Message properties****"
    assert shown[4:] == ["  colour : 'red'", "  n : 3", "  ok : TRUE", "  raw : X'01'", "  nothing : NULL"]
    assert properties_text({}).endswith("\n  None\n")
    assert summary_text([]) == ""
    assert " 2 messages browsed." in summary_text([1, 4]).split("\n")
