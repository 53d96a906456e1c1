"""The PCF codec (protocol/pcf.py): IBM's MQCFH and parameter structure layouts, both byte orders,
and a clear MQRCCF_* reason for every kind of malformed message."""

from __future__ import annotations

import struct

import pytest

from mqlite import cmqc as C
from mqlite.protocol import pcf


def event(*params: tuple[int, pcf.Value]) -> pcf.PcfMessage:
    return pcf.PcfMessage(pcf.MQCFH(Reason=C.MQRC_NOT_AUTHORIZED), list(params))


def test_header_layout_is_ibms_mqcfh() -> None:
    data = pcf.encode(event((C.MQIACF_REASON_QUALIFIER, C.MQRQ_SUB_NOT_AUTHORIZED)))
    assert struct.unpack_from("<9i", data) == (C.MQCFT_EVENT, 36, 1, C.MQCMD_Q_MGR_EVENT, 1, C.MQCFC_LAST,
                                               C.MQCC_WARNING, 2035, 1)
    assert struct.unpack_from("<4i", data, 36) == (C.MQCFT_INTEGER, 16, 1020, 17)


def test_string_is_padded_to_a_multiple_of_four() -> None:
    data = pcf.encode(event((C.MQCA_Q_MGR_NAME, "QM1")))
    assert struct.unpack_from("<5i", data, 36) == (C.MQCFT_STRING, 24, C.MQCA_Q_MGR_NAME, 1208, 3)
    assert data[56:60] == b"QM1\0" and len(data) == 60


def test_string_list_members_share_one_width() -> None:  # AdminTopicNames is an MQCFSL
    data = pcf.encode(event((C.MQCACF_ADMIN_TOPIC_NAMES, ["FRUIT", "SYSTEM.BASE.TOPIC"])))
    kind, length, param, ccsid, count, width = struct.unpack_from("<6i", data, 36)
    assert (kind, param, ccsid, count, width) == (C.MQCFT_STRING_LIST, 3172, 1208, 2, 17)
    assert length == 24 + 36 and data[60:77] == b"FRUIT            "
    assert pcf.decode(data).get(C.MQCACF_ADMIN_TOPIC_NAMES) == ["FRUIT", "SYSTEM.BASE.TOPIC"]


def test_list_of_empty_strings_round_trips() -> None:
    message = event((C.MQCACF_ADMIN_TOPIC_NAMES, ["", ""]))
    assert pcf.decode(pcf.encode(message)).parameters == message.parameters


@pytest.mark.parametrize("little", [True, False])
def test_round_trip_of_every_parameter_type(little: bool) -> None:
    message = event((C.MQCA_Q_MGR_NAME, "QM1"), (C.MQIACF_OPEN_OPTIONS, -1), (7001, b"\x01\x02\x03"),
                    (1, [1, -2, 3]), (C.MQCACF_ADMIN_TOPIC_NAMES, []), (2, pcf.Group([(3, 4), (5, "x")])),
                    (C.MQCA_TOPIC_STRING, "Price/Fruit/Äpfel"))
    decoded = pcf.decode(pcf.encode(message, little), little)
    assert decoded.parameters == message.parameters
    assert decoded.header.ParameterCount == 7 and decoded.header.Reason == 2035


def test_integer64_structures_decode_to_ints() -> None:
    head = struct.pack("<9i", C.MQCFT_STATISTICS, 36, 3, 164, 1, 1, 0, 0, 2)
    in64 = struct.pack("<4iq", C.MQCFT_INTEGER64, 24, 9, 0, 2**40)
    il64 = struct.pack("<4i2q", C.MQCFT_INTEGER64_LIST, 32, 10, 2, -1, 2**33)
    assert pcf.decode(head + in64 + il64).parameters == [(9, 2**40), (10, [-1, 2**33])]


@pytest.mark.parametrize("little", [True, False])
def test_marked_64_bit_integers_go_as_mqcfin64_and_mqcfil64_whatever_their_size(little: bool) -> None:
    order = "<" if little else ">"
    body = pcf.encode(event((9, pcf.Int64(5)), (10, pcf.Int64List([1, 2])), (11, 5), (12, [1, 2])), little)
    assert body[36:] == (struct.pack(order + "4iq", C.MQCFT_INTEGER64, 24, 9, 0, 5)
                         + struct.pack(order + "4i2q", C.MQCFT_INTEGER64_LIST, 32, 10, 2, 1, 2)
                         + struct.pack(order + "4i", C.MQCFT_INTEGER, 16, 11, 5)
                         + struct.pack(order + "4i2i", C.MQCFT_INTEGER_LIST, 24, 12, 2, 1, 2))
    decoded = pcf.decode(body, little)
    assert [type(v) for _, v in decoded.parameters] == [pcf.Int64, pcf.Int64List, int, list]
    assert pcf.encode(decoded, little) == body  # decoded 64-bit fields encode back as they came


def test_byte_order_follows_the_md_encoding() -> None:
    assert pcf.little_endian(C.MQENC_NATIVE) and not pcf.little_endian(0x111)


@pytest.mark.parametrize(("data", "reason"), [
    (b"\x07\0\0\0", C.MQRCCF_MSG_LENGTH_ERROR),
    (struct.pack("<9i", 7, 40, 1, 44, 1, 1, 1, 2035, 0), C.MQRCCF_CFH_LENGTH_ERROR),
    (struct.pack("<9i", 7, 36, 9, 44, 1, 1, 1, 2035, 0), C.MQRCCF_CFH_VERSION_ERROR),
    (struct.pack("<9i", 7, 36, 1, 44, 1, 1, 1, 2035, -1), C.MQRCCF_CFH_PARM_COUNT_ERROR),
    (struct.pack("<9i", 7, 36, 1, 44, 1, 1, 1, 2035, 1), C.MQRCCF_PARM_COUNT_TOO_BIG),
    (struct.pack("<9i4i", 7, 36, 1, 44, 1, 1, 1, 2035, 1, 3, 20, 1, 0) + b"\0" * 4, C.MQRCCF_CFIN_LENGTH_ERROR),
    (struct.pack("<9i5i", 7, 36, 1, 44, 1, 1, 1, 2035, 1, 4, 20, 1, 1208, 9), C.MQRCCF_CFST_STRING_LENGTH_ERR),
    (struct.pack("<9i6i", 7, 36, 1, 44, 1, 1, 1, 2035, 1, 6, 24, 1, 1208, 2, 4), C.MQRCCF_CFSL_COUNT_ERROR),
    (struct.pack("<9i4i", 7, 36, 1, 44, 1, 1, 1, 2035, 1, 5, 16, 1, 3), C.MQRCCF_CFIL_COUNT_ERROR),
    (struct.pack("<9i4i", 7, 36, 1, 44, 1, 1, 1, 2035, 1, 99, 16, 1, 0), C.MQRCCF_STRUCTURE_TYPE_ERROR),
    (struct.pack("<9i4i", 7, 36, 1, 44, 1, 1, 1, 2035, 1, 3, 64, 1, 0), C.MQRCCF_MSG_LENGTH_ERROR),
    (struct.pack("<9i4i", 7, 36, 1, 44, 1, 1, 1, 2035, 0, 3, 16, 1, 0), C.MQRCCF_MSG_LENGTH_ERROR),
])
def test_malformed_messages_are_refused_with_their_reason(data: bytes, reason: int) -> None:
    with pytest.raises(pcf.PcfError) as refused:
        pcf.decode(data)
    assert refused.value.reason == reason
