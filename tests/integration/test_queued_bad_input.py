"""Bad command messages against a live queued interface (issue 32 item 7): each length and CCSID
field of a valid MQRFH2 set wrong in turn, folders that are not XML, unknown commands, then
fuzzed MQRFH2 and MQRFH commands (hypothesis, from valid ones). Every REQUEST is answered with
its reason; the daemon keeps serving, logs no unexpected error, and a persistent message put
before is still there."""

from __future__ import annotations

import struct
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mqlite as pymqi
from fuzz.mutations import mutated
from helpers.module_qmgrs import started
from helpers.mqsc import mqsc
from helpers.qmgrs import QMgr
from helpers.queued import CONTROL, DEFAULT_STREAM, command_data, get, put_command
from mqlite import cmqc as C
from mqlite.protocol import rfh2

QM = "QMBAD"
REGSUB = "<psc><Command>RegSub</Command><Topic>Bad/T</Topic><QName>SUB.Q</QName></psc>"
PUBLISH = "<psc><Command>Publish</Command><Topic>Bad/T</Topic></psc>"


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, QMgr]]:
    home: Path = tmp_path_factory.mktemp("badqueued") / "mqhome"
    with started(home, (QM,)) as (_, run_cli):
        qmgr = QMgr(QM, home)
        mqsc(run_cli, qmgr, "DEFINE QLOCAL(SUB.Q) MAXDEPTH(100000)\nDEFINE QLOCAL(REPLY.Q) MAXDEPTH(100000)\n"
             "DEFINE QLOCAL(KEEP.Q)\n")
        qm = pymqi.connect(QM)
        with pymqi.Queue(qm, "KEEP.Q") as keep:
            keep.put(b"kept", pymqi.MD(Persistence=C.MQPER_PERSISTENT))
        yield qm, qmgr
        qm.disconnect()


def _answer(qm: Any, queue: str, data: bytes, fmt: str = C.MQFMT_RF_HEADER_2) -> tuple[str | None, list[int]]:
    msg_id = put_command(qm, queue, "", data=data, fmt=fmt, reply_q="REPLY.Q")
    md = pymqi.MD(CorrelId=msg_id)
    gmo = pymqi.GMO(Options=C.MQGMO_WAIT | C.MQGMO_NO_SYNCPOINT, WaitInterval=30_000,
                    MatchOptions=C.MQMO_MATCH_CORREL_ID)
    with pymqi.Queue(qm, "REPLY.Q") as q:
        reply = q.get(None, md, gmo)
    if md.Format.decode().strip() == C.MQFMT_RF_HEADER.strip():
        header, _ = rfh2.decode_rfh1(reply, md.Encoding, md.CodedCharSetId)
        code = header.get("MQPSCompCode")
        return {"0": "ok", "1": "warning", "2": "error"}.get(code or ""), [int(v) for k, v in header.pairs
                                                                             if k == "MQPSReason"]
    decoded = rfh2.decode(reply, md.Format.decode(), md.Encoding, md.CodedCharSetId)
    pscr = decoded.command(C.MQRFH2_PUBSUB_RESP_FOLDER)
    assert pscr is not None
    return pscr.get("Completion"), [int(r.get("Reason") or 0) for r in pscr.children if r.name == "Response"]


def _serving(qm: Any, qmgr: QMgr) -> None:
    assert _answer(qm, CONTROL, command_data(REGSUB)) == ("ok", [])
    assert "AMQ6119E" not in qmgr.error_log()
    with pymqi.Queue(qm, "KEEP.Q", C.MQOO_BROWSE | C.MQOO_INQUIRE) as keep:
        assert keep.inquire(C.MQIA_CURRENT_Q_DEPTH) == 1


def _set(data: bytes, offset: int, value: int) -> bytes:
    return data[:offset] + struct.pack("<i", value) + data[offset + 4:]


VALID = command_data(REGSUB)
NV_LENGTH = 36  # the first NameValueLength


@pytest.mark.parametrize(("field", "data"), [
    ("StrucLength too long", _set(VALID, 8, len(VALID) + 4)),
    ("StrucLength below 36", _set(VALID, 8, 20)),
    ("StrucLength negative", _set(VALID, 8, -1)),
    ("NameValueLength past StrucLength", _set(VALID, NV_LENGTH, 4096)),
    ("NameValueLength negative", _set(VALID, NV_LENGTH, -8)),
    ("NameValueCCSID unknown", _set(VALID, 32, 819)),
    ("Version 3", _set(VALID, 4, 3)),
    ("StrucId", b"RFX " + VALID[4:]),
    ("cut in the fixed part", VALID[:20]),
    ("not XML", _set(VALID[:36], 8, 52) + struct.pack("<i", 12) + b"<psc><<<>>> "),
])
def test_each_field_wrong_in_turn(env: tuple[Any, QMgr], field: str, data: bytes) -> None:
    qm, qmgr = env
    completion, reasons = _answer(qm, CONTROL, data)
    assert (completion, reasons) == ("error", [C.MQRC_RFH_ERROR]), field
    _serving(qm, qmgr)


def test_wrong_mqmd_ccsid_and_encoding(env: tuple[Any, QMgr]) -> None:
    """The fixed part is read in the MQMD's Encoding and CCSID (R-RFH-E1, E2): a big-endian
    Encoding or an EBCDIC CCSID the bytes are not in makes it not an MQRFH2 (2334)."""
    qm, qmgr = env
    for md_field in ({"Encoding": 0x111}, {"CodedCharSetId": 500}):
        msg_id = put_command(qm, CONTROL, REGSUB, reply_q="REPLY.Q", **{})  # a good one first
        get(qm, "REPLY.Q", correl_id=msg_id)
        md = pymqi.MD(Format=C.MQFMT_RF_HEADER_2.encode(), MsgType=C.MQMT_REQUEST, ReplyToQ=b"REPLY.Q", **md_field)
        with pymqi.Queue(qm, CONTROL) as q:
            q.put(VALID, md)
        reply = get(qm, "REPLY.Q", correl_id=bytes(md.MsgId))
        assert (reply.completion, reply.reasons) == ("error", [C.MQRC_RFH_ERROR]), md_field
    _serving(qm, qmgr)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow])
@given(data=mutated(st.sampled_from([command_data(REGSUB), command_data(PUBLISH, b"body"),
                                     command_data("<psc><Command>DeregSub</Command><RegOpt>DeregAll</RegOpt>"
                                                  "<QName>SUB.Q</QName></psc>")])),
       stream=st.booleans())
def test_fuzzed_rfh2_commands_are_answered(env: tuple[Any, QMgr], data: bytes, stream: bool) -> None:
    qm, _ = env
    completion, reasons = _answer(qm, DEFAULT_STREAM if stream else CONTROL, data)
    assert completion in ("ok", "warning", "error")
    assert completion == "ok" or reasons


def _rfh1(pairs: list[tuple[str, str]]) -> bytes:
    return rfh2.encode_rfh1(rfh2.Rfh1Header(tuple(pairs), C.MQENC_NATIVE, 0, "MQSTR"))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow])
@given(data=mutated(st.sampled_from([_rfh1([("MQPSCommand", "RegSub"), ("MQPSTopic", "Bad/T"),
                                            ("MQPSQName", "SUB.Q")]),
                                     _rfh1([("MQPSCommand", "Publish"), ("MQPSTopic", "Bad/T")])])))
def test_fuzzed_rfh1_commands_are_answered(env: tuple[Any, QMgr], data: bytes) -> None:
    qm, _ = env
    completion, _ = _answer(qm, CONTROL, data, C.MQFMT_RF_HEADER)
    assert completion in ("ok", "warning", "error")


def test_still_serving_after_the_fuzz(env: tuple[Any, QMgr]) -> None:
    qm, qmgr = env
    _serving(qm, qmgr)
