"""pymqi-style structures, errors and message handles: everything that needs no server."""

from __future__ import annotations

from typing import Any

import pytest

import mqlite.client as mq
from mqlite import cmqc as CMQC
from mqlite.client.structs import CharField, md_fill, md_to_wire, od_to_wire
from mqlite.message import MD_FIELDS, MessageDescriptor


def test_structures_take_keyword_attribute_and_item_access() -> None:
    md = mq.MD(Format=CMQC.MQFMT_STRING, Priority=7)
    assert md.Format == CMQC.MQFMT_STRING and md["Priority"] == 7
    md.Persistence = CMQC.MQPER_PERSISTENT
    md["CorrelId"] = b"abc"
    md.set(Expiry=100)
    assert md.get()["Persistence"] == 1 and md.CorrelId == b"abc" and md.Expiry == 100


def test_unknown_fields_are_refused_like_pymqi() -> None:
    with pytest.raises(AttributeError):
        mq.MD(Bogus=1)
    with pytest.raises(AttributeError):
        mq.GMO().set(Bogus=1)
    with pytest.raises(AttributeError):
        mq.PMO()["Bogus"] = 1
    with pytest.raises(AttributeError):
        _ = mq.OD().Bogus


def test_pymqi_defaults() -> None:
    gmo, pmo, od, md = mq.GMO(), mq.PMO(), mq.OD(), mq.MD()
    assert gmo.Options == CMQC.MQGMO_NO_WAIT
    assert gmo.MatchOptions == CMQC.MQMO_MATCH_MSG_ID | CMQC.MQMO_MATCH_CORREL_ID
    assert pmo.Options == CMQC.MQPMO_NONE and od.ObjectType == CMQC.MQOT_Q
    assert md.MsgId == b"" and md.Persistence == CMQC.MQPER_PERSISTENCE_AS_Q_DEF
    for struct in (mq.CD, mq.SD, mq.SCO, mq.SRO, mq.CMHO, mq.PD, mq.SMPO, mq.IMPO, mq.STS):
        assert struct().get()  # every one builds with defaults
    assert mq.CD(ChannelName=b"SVRCONN", ConnectionName="host(1414)").MaxMsgLength == 4194304


def test_char_fields_are_padded_bytes_equal_to_their_str() -> None:
    field = CharField(b"MQSTR   ")
    assert field == b"MQSTR   " and field == CMQC.MQFMT_STRING and field != "OTHER"
    assert CMQC.MQFMT_STRING == field  # noqa: SIM300 - the reflected comparison is the point
    assert field.text() == "MQSTR" and hash(field) == hash(b"MQSTR   ")
    assert {field: 1}[b"MQSTR   "] == 1


def test_md_to_wire_trims_text_and_sizes_ids() -> None:
    md = mq.MD(Format=b"MQSTR   ", ReplyToQ="REPLY.Q  ", MsgId=b"\x01\x02", CorrelId="abc")
    wire = md_to_wire(md, ccsid=819)
    named = dict(zip(MD_FIELDS, wire, strict=True))
    assert named["Format"] == "MQSTR" and named["ReplyToQ"] == "REPLY.Q"
    assert named["MsgId"] == b"\x01\x02" + bytes(22) and named["CorrelId"] == b"abc" + bytes(21)
    assert named["AccountingToken"] == bytes(32)
    assert named["CodedCharSetId"] == 819  # MQCCSI_Q_MGR resolved to the queue manager's
    MessageDescriptor.from_list(wire)  # the queue manager accepts it as it is


def test_md_fill_pads_like_mq() -> None:
    wire = MessageDescriptor(Format="MQSTR", ReplyToQ="R", PutDate="20260101").to_list()
    md = md_fill(mq.MD(), wire)
    assert md.Format == b"MQSTR   " and len(md.ReplyToQ) == 48 and md.ReplyToQ.strip() == b"R"
    assert md.PutDate == b"20260101" and md.MsgId == bytes(24)
    assert md_to_wire(md, 1208) == wire  # and it goes back unchanged


def test_od_to_wire_takes_variable_strings() -> None:
    od = mq.OD(ObjectName=b"Q1", ObjectType=CMQC.MQOT_TOPIC)
    od.set_vs("ObjectString", b"price/fruit")
    assert od.get_vs("ObjectString") == b"price/fruit" and od.ObjectStringVSLength == 11
    wire = od_to_wire(od)
    assert wire["ObjectName"] == "Q1" and wire["ObjectString"] == "price/fruit" and wire["ObjectType"] == 8
    assert wire["DynamicQName"] == "AMQ.*"
    assert wire["Version"] == CMQC.MQOD_VERSION_1  # IBM's MQOD_DEFAULT, sent as is (C:SC-PUB-05)
    assert od_to_wire(mq.OD(Version=CMQC.MQOD_VERSION_4))["Version"] == 4


def test_mqmi_error_reads_like_pymqi() -> None:
    e = mq.MQMIError(CMQC.MQCC_FAILED, CMQC.MQRC_NO_MSG_AVAILABLE)
    assert str(e) == "MQI Error. Comp: 2, Reason 2033: FAILED: MQRC_NO_MSG_AVAILABLE"
    assert (e.comp, e.reason) == (2, 2033)
    w = mq.MQMIError(CMQC.MQCC_WARNING, CMQC.MQRC_TRUNCATED_MSG_ACCEPTED, original_length=10)
    assert w.errorAsString() == "WARNING: MQRC_TRUNCATED_MSG_ACCEPTED" and w.original_length == 10
    assert "not defined" in mq.MQMIError(2, 1).errorAsString()
    assert isinstance(e, mq.Error) and str(mq.PYIFError("not open")) == "PYMQI Error: not open"


def test_message_handle_properties() -> None:
    handle = mq.MessageHandle()
    props = handle.properties
    props.set("colour", "red")
    props.set(b"size", b"12", property_type=CMQC.MQTYPE_INT32)
    props["flag"] = True
    assert props.get("colour") == "red" and props.get("size") == 12 and props["flag"] is True
    assert props.get("colour", property_type=CMQC.MQTYPE_BYTE_STRING) == b"red"
    assert set(props.inquire("%")) == {"colour", "size", "flag"} and "size" in props
    with pytest.raises(mq.MQMIError) as e:
        props.get("missing")
    assert e.value.reason == CMQC.MQRC_PROPERTY_NOT_AVAILABLE
    with pytest.raises(mq.MQMIError) as e:
        props.get("colour", max_value_length=2)
    assert e.value.reason == CMQC.MQRC_PROPERTY_VALUE_TOO_BIG
    props.dlt("flag")
    with pytest.raises(KeyError):
        _ = props["flag"]
    assert mq.MessageHandle().msg_handle != handle.msg_handle


def test_top_level_exports_are_listed() -> None:
    from mqlite.client import public

    for name in public.__all__:
        assert hasattr(public, name), name
    assert public.CMQC.MQRC_NOT_AUTHORIZED == 2035


@pytest.mark.parametrize(("make", "versions", "reason"), [
    (mq.MD, (CMQC.MQMD_VERSION_1, CMQC.MQMD_VERSION_2), CMQC.MQRC_MD_ERROR),
    (mq.GMO, (CMQC.MQGMO_VERSION_1, CMQC.MQGMO_VERSION_4), CMQC.MQRC_GMO_ERROR),
    (mq.PMO, (CMQC.MQPMO_VERSION_1, CMQC.MQPMO_VERSION_3), CMQC.MQRC_PMO_ERROR),
    (mq.SD, (CMQC.MQSD_VERSION_1,), CMQC.MQRC_SD_ERROR),
])
def test_a_structure_version_ibm_does_not_have_is_refused(make: Any, versions: tuple[int, ...], reason: int) -> None:
    for version in versions:
        make(Version=version).check_version()  # raises nothing
    for version in (0, max(versions) + 1):
        with pytest.raises(mq.MQMIError) as error:
            make(Version=version).check_version()
        assert (error.value.comp, error.value.reason) == (CMQC.MQCC_FAILED, reason)
