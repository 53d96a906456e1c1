"""What the fuzzers found, pinned: each input crashed or hung its decoder, or got the wrong error."""

from __future__ import annotations

import re
import struct
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mqlite import cmqc as C
from mqlite.cli import dmpfile
from mqlite.core.errors import MQError
from mqlite.core.selectors import compile_selector
from mqlite.message import MessageDescriptor
from mqlite.protocol import dlh, pcf, xqh
from mqlite.protocol.fields import HeaderError
from mqlite.protocol.mqtt import V311, ConnAck, MqttError, codec

MD = MessageDescriptor()


class CountingProperties(dict[str, Any]):
    """Message properties that count how often the selector reads them."""

    reads = 0

    def get(self, key: str, default: Any = None) -> Any:
        self.reads += 1
        return super().get(key, default)


def test_selector_unary_plus_reads_its_operand_once() -> None:
    """'+ + + ... a' evaluated its operand twice per sign: 2**n reads, a hang at n = 40."""
    props = CountingProperties(a=1)
    assert compile_selector("+ " * 40 + "a = 1")(props, MD) is True
    assert props.reads == 1


@pytest.mark.parametrize(("text", "selected"), [
    ("a=1 AND " * 1270 + "a=1", False), ("a=1 OR " * 1400 + "a=2", True), ("a+" * 3000 + "a=6002", True)])
def test_selector_long_chains_evaluate(text: str, selected: bool) -> None:
    """A chain of a thousand ANDs, ORs or +s compiled, then raised RecursionError when a
    publication was matched against it."""
    assert compile_selector(text)({"a": 2}, MD) is selected


@pytest.mark.parametrize("text", ["NOT " * 101 + "a = 1", "(" * 101 + "a = 1" + ")" * 101, "- " * 101 + "a = 1"])
def test_selector_nesting_has_a_limit(text: str) -> None:
    with pytest.raises(MQError) as caught:
        compile_selector(text)
    assert caught.value.reason == C.MQRC_SELECTOR_SYNTAX_ERROR


def test_selector_arithmetic_beyond_float_is_unknown() -> None:
    """An integer too large for a float times a float raised OverflowError."""
    big = "9" * 400
    assert compile_selector(f"{big} * 1.5 > 1")({}, MD) is False
    assert compile_selector(f"NOT ({big} * 1.5 > 1)")({}, MD) is False  # UNKNOWN, not FALSE
    assert compile_selector("a / 0.5 > 1")({"a": 10**400}, MD) is False


def test_selector_like_many_wildcards_on_a_long_string() -> None:
    """LIKE was a backtracking regular expression: '%%%...%b' on 40 a's ran for hours."""
    assert compile_selector("s LIKE '" + "%" * 20 + "b'")({"s": "a" * 40}, MD) is False
    assert compile_selector("s LIKE '%a%a%a%a%a%a%a%a%b'")({"s": "a" * 200}, MD) is False
    assert compile_selector("s LIKE '%a%a%a%a%a%a%a%a%b'")({"s": "a" * 200 + "b"}, MD) is True


def _like_reference(pattern: str, escape: str | None, text: str) -> bool:
    out, i = [], 0
    while i < len(pattern):
        if escape is not None and pattern[i] == escape and i + 1 < len(pattern):
            out.append(re.escape(pattern[i + 1]))
            i += 2
            continue
        out.append(".*" if pattern[i] == "%" else "." if pattern[i] == "_" else re.escape(pattern[i]))
        i += 1
    return re.fullmatch("".join(out), text, re.S) is not None


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab%_!", max_size=8), st.sampled_from([None, "!"]), st.text(alphabet="ab%_!", max_size=10))
def test_selector_like_matches_as_sql_says(pattern: str, escape: str | None, text: str) -> None:
    """The linear LIKE agrees with the regular expression it replaced (spec A R-SEL-5)."""
    if escape is not None and pattern.endswith(escape) and (len(pattern) - len(pattern.rstrip(escape))) % 2:
        return  # a dangling escape: a syntax error, tested in test_selectors.py
    quoted = pattern.replace("'", "''")
    selector = compile_selector(f"s LIKE '{quoted}'" + (f" ESCAPE '{escape}'" if escape else ""))
    assert selector({"s": text}, MD) is _like_reference(pattern, escape, text)


def test_dmpmqmsg_deeply_nested_string_property() -> None:
    """json.loads of thousands of '[' raised RecursionError, not the file's DumpFormatError."""
    with pytest.raises(dmpfile.DumpFormatError) as caught:
        list(dmpfile.decode(["N\n", "P a string " + "[" * 3000 + "\n"]))
    assert caught.value.line_no == 2


@pytest.mark.parametrize("line", ["A PRI 4294967296", "A EXP -2147483649", "P n i8 9223372036854775808"])
def test_dmpmqmsg_numbers_beyond_their_fields(line: str) -> None:
    """An MQLONG field (or an i8 property) out of range was loaded, and failed later at the put."""
    with pytest.raises(dmpfile.DumpFormatError):
        list(dmpfile.decode(["N\n", line + "\n"]))


def test_md1_short_data_is_an_md_error() -> None:
    """decode_md1 of fewer than 324 bytes raised struct.error."""
    data = xqh.encode_md1(MD)[:100]
    with pytest.raises(HeaderError) as caught:
        xqh.decode_md1(data)
    assert caught.value.reason == C.MQRC_MD_ERROR


def test_headers_carry_their_reason_codes() -> None:
    with pytest.raises(HeaderError) as caught:
        dlh.decode(b"XXXX" + bytes(200))
    assert caught.value.reason == C.MQRC_DLH_ERROR
    with pytest.raises(HeaderError) as caught:
        xqh.unwrap(b"XQH " + bytes(10))
    assert caught.value.reason == C.MQRC_XQH_ERROR


def test_mqtt_311_unsuback_has_no_payload() -> None:
    """A 3.1.1 UNSUBACK with bytes after its packet identifier was read as 5.0's reason codes,
    and did not encode back to the same bytes (MQTT 3.1.1 3.11.1: remaining length 2)."""
    with pytest.raises(MqttError) as caught:
        codec.decode(0xB0, b"\x00\x01\x00", V311)
    assert caught.value.reason == 0x81


@pytest.mark.parametrize(("code", "reason"), [(0, 0), (1, 0x84), (2, 0x85), (3, 0x88), (4, 0x86), (5, 0x87)])
def test_mqtt_311_connack_code_reads_as_its_reason(code: int, reason: int) -> None:
    """Found by atheris: a 3.1.1 CONNACK's return code was kept as if it were a 5.0 reason (4, bad
    user name or password, read as 0x04) and encoded back as 3 (server unavailable)."""
    packet = codec.decode(0x20, bytes((0, code)), V311)
    assert packet == ConnAck(False, reason)
    assert codec.encode(packet, V311) == bytes((0x20, 2, 0, code))


def test_mqtt_311_connack_reserved_code_is_malformed() -> None:
    with pytest.raises(MqttError) as caught:
        codec.decode(0x20, b"\x00\x06", V311)
    assert caught.value.reason == 0x81


def test_string_list_of_zero_width_cannot_claim_billions_of_members() -> None:
    # CI's Hypothesis run (2026-11-25): Count 2**31-1 with StringLength 0 once built a list that size.
    head = struct.pack("<9i", C.MQCFT_EVENT, 36, 1, C.MQCMD_Q_MGR_EVENT, 1, 1, 0, 0, 1)
    huge = struct.pack("<6i", C.MQCFT_STRING_LIST, 24, C.MQCACF_ADMIN_TOPIC_NAMES, 1208, 2**31 - 1, 0)
    with pytest.raises(pcf.PcfError) as caught:
        pcf.decode(head + huge)
    assert caught.value.reason == C.MQRCCF_CFSL_COUNT_ERROR


@pytest.mark.parametrize("value", [2**33, -(2**40), [1, 2**40]])
def test_64_bit_values_encode_back_as_64_bit_structures(value: int | list[int]) -> None:
    # atheris (2026-11-26): an MQCFIN64 above 2**31 decoded to an int the encoder packed as an
    # MQCFIN, and struct.error escaped
    message = pcf.PcfMessage(pcf.MQCFH(), [(C.MQIACF_OPEN_OPTIONS, value)])
    assert pcf.decode(pcf.encode(message)).parameters == [(C.MQIACF_OPEN_OPTIONS, value)]
