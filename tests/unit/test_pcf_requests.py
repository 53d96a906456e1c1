"""PCF commands and responses byte for byte, against IBM's documented layouts (cmqcfc.h): MQCFH
36 bytes, MQCFIN 16, MQCFST 20 + the string padded to 4, MQCFIL 16 + 4 a value, MQCFIF 20,
MQCFSF 24 + the value padded to 4, MQCFBF 20 + the value padded to 4, MQCFIN64 24."""

from __future__ import annotations

from typing import Literal

import pytest

from mqlite import cmqc as C
from mqlite.protocol import pcf

LE: Literal["little"] = "little"


def words(*values: int, order: Literal["little", "big"] = LE) -> bytes:
    return b"".join(v.to_bytes(4, order, signed=True) for v in values)


def test_inquire_q_command_little_endian() -> None:
    message = pcf.PcfMessage(
        pcf.MQCFH(Type=C.MQCFT_COMMAND, Command=C.MQCMD_INQUIRE_Q, Control=C.MQCFC_LAST, CompCode=0),
        [(C.MQCA_Q_NAME, "APP.*"), (C.MQIA_Q_TYPE, C.MQQT_LOCAL), (C.MQIACF_Q_ATTRS, [C.MQCA_Q_NAME, 3])])
    expected = (
        words(1, 36, 1, 13, 1, 1, 0, 0, 3)  # MQCFH: Type, StrucLength, Version, Command, MsgSeqNumber,
        # Control, CompCode, Reason, ParameterCount
        + words(4, 28, 2016, 1208, 5) + b"APP.*\0\0\0"  # MQCFST: 20 + 5 bytes padded to 8
        + words(3, 16, 20, 1)  # MQCFIN
        + words(5, 24, 1002, 2, 2016, 3)  # MQCFIL: 16 + 2 x 4
    )
    assert pcf.encode(message) == expected
    decoded = pcf.decode_request(expected)
    assert decoded.header.Command == C.MQCMD_INQUIRE_Q and decoded.header.ParameterCount == 3
    assert decoded.parameters == message.parameters


def test_response_header_big_endian() -> None:
    header = pcf.MQCFH(Type=C.MQCFT_RESPONSE, Command=C.MQCMD_INQUIRE_Q, MsgSeqNumber=2, Control=C.MQCFC_NOT_LAST,
                       CompCode=C.MQCC_FAILED, Reason=C.MQRC_UNKNOWN_OBJECT_NAME)
    data = pcf.encode(pcf.PcfMessage(header, []), little=False)
    assert data == words(2, 36, 1, 13, 2, 0, 2, 2085, 0, order="big")
    back = pcf.decode(data, little=False).header
    assert (back.Type, back.MsgSeqNumber, back.Control, back.CompCode, back.Reason) == (2, 2, 0, 2, 2085)


@pytest.mark.parametrize(("kind", "name"), [(C.MQCFT_XR_MSG, 17), (C.MQCFT_XR_ITEM, 18), (C.MQCFT_XR_SUMMARY, 19),
                                            (C.MQCFT_COMMAND_XR, 16)])
def test_extended_response_types(kind: int, name: int) -> None:
    data = pcf.encode(pcf.PcfMessage(pcf.MQCFH(Type=kind, Version=3, Command=C.MQCMD_INQUIRE_Q_MGR), []))
    assert data[:12] == words(name, 36, 3)


def test_integer_filter() -> None:
    data = pcf.encode(pcf.PcfMessage(pcf.MQCFH(Type=C.MQCFT_COMMAND, Command=C.MQCMD_INQUIRE_Q),
                                     [(C.MQIA_CURRENT_Q_DEPTH, pcf.IntegerFilter(C.MQCFOP_GREATER, 10))]))
    assert data[36:] == words(13, 20, 3, 4, 10)
    assert pcf.decode(data).parameters == [(3, pcf.IntegerFilter(4, 10))]


def test_string_filter() -> None:
    data = pcf.encode(pcf.PcfMessage(pcf.MQCFH(Type=C.MQCFT_COMMAND, Command=C.MQCMD_INQUIRE_Q),
                                     [(C.MQCA_Q_DESC, pcf.StringFilter(C.MQCFOP_LIKE, "pay*"))]))
    assert data[36:] == words(14, 28, 2013, 18, 1208, 4) + b"pay*"
    assert pcf.decode(data).parameters == [(2013, pcf.StringFilter(18, "pay*"))]


def test_byte_string_filter_and_byte_string() -> None:
    params: list[tuple[int, pcf.Value]] = [(7016, pcf.ByteStringFilter(C.MQCFOP_EQUAL, b"\x01\x02\x03")),
                                           (7016, b"\xff")]
    data = pcf.encode(pcf.PcfMessage(pcf.MQCFH(Type=C.MQCFT_COMMAND, Command=C.MQCMD_INQUIRE_SUBSCRIPTION), params))
    assert data[36:] == words(15, 24, 7016, 2, 3) + b"\x01\x02\x03\0" + words(9, 20, 7016, 1) + b"\xff\0\0\0"
    assert pcf.decode(data).parameters == params


def test_integer64() -> None:
    data = pcf.encode(pcf.PcfMessage(pcf.MQCFH(), [(1, 2**40), (2, [2**40, 1])]))
    assert data[36:60] == words(23, 24, 1, 0) + (2**40).to_bytes(8, LE)
    assert data[60:] == words(25, 32, 2, 2) + (2**40).to_bytes(8, LE) + (1).to_bytes(8, LE)
    assert pcf.decode(data).parameters == [(1, 2**40), (2, [2**40, 1])]


def test_group() -> None:
    data = pcf.encode(pcf.PcfMessage(pcf.MQCFH(), [(8000, pcf.Group([(3, 7)]))]))
    assert data[36:] == words(20, 16, 8000, 1) + words(3, 16, 3, 7)


@pytest.mark.parametrize(("data", "reason"), [
    (words(1, 36, 1, 13, 1, 1, 0, 0, 1) + words(13, 24, 3, 4, 10, 0), C.MQRCCF_CFIF_LENGTH_ERROR),
    (words(1, 36, 1, 13, 1, 1, 0, 0, 1) + words(14, 20, 3, 2, 1208), C.MQRCCF_CFSF_LENGTH_ERROR),
    (words(1, 36, 1, 13, 1, 1, 0, 0, 1) + words(14, 24, 3, 2, 1208, 9), C.MQRCCF_CFSF_FILTER_VAL_LEN_ERR),
    (words(1, 36, 1, 13, 1, 1, 0, 0, 1) + words(15, 20, 3, 2, 5), C.MQRCCF_CFBF_FILTER_VAL_LEN_ERR),
    (words(7, 36, 1, 13, 1, 1, 0, 0, 0), C.MQRCCF_CFH_TYPE_ERROR),
    (words(1, 36, 1, 13, 1, 7, 0, 0, 0), C.MQRCCF_CFH_CONTROL_ERROR),
    (words(1, 32, 1, 13, 1, 1, 0, 0, 0), C.MQRCCF_CFH_LENGTH_ERROR),
    (words(1, 36, 1, 13, 1, 1, 0, 0, 2) + words(3, 16, 3, 1), C.MQRCCF_PARM_COUNT_TOO_BIG),
    (words(1, 36, 1, 13, 1, 1, 0, 0, 1) + words(3, 20, 3, 1, 0), C.MQRCCF_CFIN_LENGTH_ERROR),
    (words(1, 36, 1, 13, 1, 1, 0, 0, 1) + words(99, 16, 3, 1), C.MQRCCF_STRUCTURE_TYPE_ERROR),
])
def test_bad_requests_name_their_reason(data: bytes, reason: int) -> None:
    with pytest.raises(pcf.PcfError) as raised:
        pcf.decode_request(data)
    assert raised.value.reason == reason


def test_peek_header() -> None:
    header = pcf.peek_header(words(1, 99, 1, 13, 5, 1, 0, 0, 0))
    assert header is not None and header.Command == 13 and header.MsgSeqNumber == 5
    assert pcf.peek_header(b"short") is None
