"""pymqi's PCF names in mqlite (client.pcf_execute): the structures pack to IBM's layouts, the
args dict and list styles and the filters become the same PCF parameters, responses unpack to
dicts keyed by parameter id (bytes for strings) and a failed response raises MQMIError."""

from __future__ import annotations

import struct

import pytest

import mqlite as pymqi
from mqlite import cmqc as C
from mqlite.client.pcf_execute import _parameters, _result
from mqlite.protocol import pcf


def words(*values: int) -> bytes:
    return struct.pack(f"<{len(values)}i", *values)


def test_structures_pack_to_ibms_layouts() -> None:
    assert pymqi.CFST(Parameter=C.MQCA_Q_NAME, String=b"Q1").pack() == words(4, 24, 2016, 1208, 2) + b"Q1\0\0"
    assert pymqi.CFIN(Parameter=C.MQIA_Q_TYPE, Value=1).pack() == words(3, 16, 20, 1)
    assert pymqi.CFIL(Parameter=C.MQIACF_Q_ATTRS, Values=[3, 15]).pack() == words(5, 24, 1002, 2, 3, 15)
    assert pymqi.CFSL(Parameter=C.MQCA_NAMES, Strings=[b"AB", b"C"]).pack() == \
        words(6, 28, 2020, 1208, 2, 2) + b"ABC "
    assert pymqi.CFBS(Parameter=C.MQBACF_SUB_ID, String=b"\x01").pack() == words(9, 20, 7016, 1) + b"\x01\0\0\0"
    assert pymqi.CFIF(Parameter=3, Operator=C.MQCFOP_GREATER, FilterValue=5).pack() == words(13, 20, 3, 4, 5)
    assert pymqi.CFSF(Parameter=2013, Operator=C.MQCFOP_LIKE, FilterValue=b"a*").pack() == \
        words(14, 28, 2013, 18, 1208, 2) + b"a*\0\0"
    header = pymqi.CFH(Type=C.MQCFT_COMMAND_XR, Version=3, Command=C.MQCMD_INQUIRE_Q, ParameterCount=2).pack()
    assert header == words(16, 36, 3, 13, 1, 1, 0, 0, 2)


def test_dict_and_list_styles_are_the_same_request() -> None:
    as_dict = _parameters({C.MQCA_Q_NAME: b"APP.*", C.MQIA_Q_TYPE: C.MQQT_LOCAL,
                           C.MQIACF_Q_ATTRS: C.MQIA_CURRENT_Q_DEPTH}, [])  # an *_ATTRS int is a list
    as_list = _parameters([pymqi.CFST(Parameter=C.MQCA_Q_NAME, String=b"APP.*"),
                           pymqi.CFIN(Parameter=C.MQIA_Q_TYPE, Value=C.MQQT_LOCAL),
                           pymqi.CFIL(Parameter=C.MQIACF_Q_ATTRS, Values=[C.MQIA_CURRENT_Q_DEPTH])], [])
    assert as_dict == as_list == [(2016, "APP.*"), (20, 1), (1002, [3])]
    grouped = _parameters([pymqi.CFGR(Parameter=8000, ParameterCount=1), pymqi.CFIN(Parameter=3, Value=7)], [])
    assert grouped == [(8000, pcf.Group([(3, 7)]))]
    filtered = _parameters({C.MQCA_Q_NAME: b"*"}, [pymqi.Filter(C.MQIA_CURRENT_Q_DEPTH).greater(10),
                                                   pymqi.Filter(C.MQCA_Q_DESC).like(b"pay*")])
    assert filtered[1:] == [(3, pcf.IntegerFilter(C.MQCFOP_GREATER, 10)),
                            (2013, pcf.StringFilter(C.MQCFOP_LIKE, "pay*"))]
    assert _parameters({C.MQBACF_SUB_ID: pymqi.ByteString(b"\x01")}, []) == [(7016, b"\x01")]


def test_unpack() -> None:
    response = pcf.encode(pcf.PcfMessage(pcf.MQCFH(Type=C.MQCFT_XR_ITEM, Command=13, Control=C.MQCFC_NOT_LAST,
                                                   CompCode=0), [(2016, "Q1"), (3, 4), (3011, ["A", "B"])]))
    res, cfh = pymqi.PCFExecute.unpack(response)
    assert res == {2016: b"Q1", 3: 4, 3011: [b"A", b"B"]} and cfh.Control == C.MQCFC_NOT_LAST
    failed = pcf.encode(pcf.PcfMessage(pcf.MQCFH(Type=C.MQCFT_XR_SUMMARY, Command=13, CompCode=2, Reason=2085)))
    with pytest.raises(pymqi.MQMIError) as raised:
        pymqi.PCFExecute.unpack(failed)
    assert (raised.value.comp, raised.value.reason) == (2, 2085)
    assert _result([(8000, pcf.Group([(3, 1)])), (8000, pcf.Group([(3, 2)]))]) == {8000: [{3: 1}, {3: 2}]}


def test_names_are_exported() -> None:
    for name in ("PCFExecute", "CFH", "CFST", "CFIN", "CFSL", "CFIL", "CFBS", "CFGR", "CFIF", "CFSF", "CFBF",
                 "ByteString", "Filter", "CMQCFC", "CMQXC", "CMQZC"):
        assert hasattr(pymqi, name), name
    assert pymqi.CMQCFC.MQCMD_INQUIRE_Q == 13 and pymqi.CMQCFC.MQIACF_Q_ATTRS == 1002
