"""The command server with a real queue manager: PCF requests on SYSTEM.ADMIN.COMMAND.QUEUE
answered in IBM's response format, each checked against the same MQSC command's output; a pymqi
program using ``pymqi.PCFExecute`` unchanged (``python -m mqlite.pymqi_run``); malformed PCF
answered with its reason (or dead-lettered without a reply-to queue) while the server serves on;
authority as for MQSC, by the user in the request's MQMD."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import mqlite as pymqi
from helpers.credentials import APP
from helpers.mqsc import depth, mqsc, records
from helpers.qmgrs import QMgr
from mqlite import cmqc as C
from mqlite.protocol import dlh, pcf

RunCli = Any


@pytest.fixture
def admin(qmgr: QMgr) -> Any:
    qm = pymqi.connect(qmgr.name)
    pcf_ = pymqi.PCFExecute(qm)
    yield pcf_
    pcf_.disconnect()
    qm.disconnect()


def test_queues_through_pcf_match_mqsc(qmgr: QMgr, run_cli: RunCli, admin: Any) -> None:
    assert admin.MQCMD_PING_Q_MGR() == []
    assert admin.MQCMD_CREATE_Q({C.MQCA_Q_NAME: b"APP.ORDERS", C.MQIA_Q_TYPE: C.MQQT_LOCAL,
                                 C.MQCA_Q_DESC: b"orders (EU)", C.MQIA_MAX_Q_DEPTH: 250,
                                 C.MQIA_DEF_PERSISTENCE: C.MQPER_PERSISTENT}) == []
    admin.MQCMD_COPY_Q({C.MQCACF_FROM_Q_NAME: b"APP.ORDERS", C.MQCACF_TO_Q_NAME: b"APP.RETURNS",
                        C.MQIA_Q_TYPE: C.MQQT_LOCAL})
    admin.MQCMD_CHANGE_Q({C.MQCA_Q_NAME: b"APP.RETURNS", C.MQIA_MAX_Q_DEPTH: 20})
    shown = {r["QUEUE"]: r for r in records(mqsc(run_cli, qmgr, "DISPLAY QLOCAL(APP.*) ALL\n"), "AMQ8409I")}
    inquired = admin.MQCMD_INQUIRE_Q({C.MQCA_Q_NAME: b"APP.*"})
    assert [q[C.MQCA_Q_NAME] for q in inquired] == [b"APP.ORDERS", b"APP.RETURNS"]
    for q in inquired:
        mq = shown[q[C.MQCA_Q_NAME].decode()]
        assert q[C.MQIA_Q_TYPE] == C.MQQT_LOCAL
        assert q[C.MQIA_MAX_Q_DEPTH] == int(mq["MAXDEPTH"]) and q[C.MQIA_CURRENT_Q_DEPTH] == int(mq["CURDEPTH"])
        assert q[C.MQCA_Q_DESC] == b"orders (EU)" and mq["DEFPSIST"] == "YES"
        assert q[C.MQIA_DEF_PERSISTENCE] == C.MQPER_PERSISTENT
    assert [q[C.MQIA_MAX_Q_DEPTH] for q in inquired] == [250, 20]
    selected = admin.MQCMD_INQUIRE_Q({C.MQCA_Q_NAME: b"APP.ORDERS", C.MQIACF_Q_ATTRS: [C.MQIA_MAX_Q_DEPTH]})
    assert selected == [{C.MQCA_Q_NAME: b"APP.ORDERS", C.MQIA_Q_TYPE: C.MQQT_LOCAL, C.MQIA_MAX_Q_DEPTH: 250}]
    names = admin.MQCMD_INQUIRE_Q_NAMES({C.MQCA_Q_NAME: b"APP.*", C.MQIA_Q_TYPE: C.MQQT_LOCAL})
    assert names[0][C.MQCACF_Q_NAMES] == [b"APP.ORDERS", b"APP.RETURNS"]
    small = admin.MQCMD_INQUIRE_Q({C.MQCA_Q_NAME: b"APP.*"}, [pymqi.Filter(C.MQIA_MAX_Q_DEPTH).less(100)])
    assert [q[C.MQCA_Q_NAME] for q in small] == [b"APP.RETURNS"]

    with pymqi.Queue(admin.qm, "APP.ORDERS") as queue:
        queue.put(b"one")
        status = admin.MQCMD_INQUIRE_Q_STATUS({C.MQCA_Q_NAME: b"APP.ORDERS"})
    mq_status = records(mqsc(run_cli, qmgr, "DISPLAY QSTATUS(APP.ORDERS)\n"), "AMQ8450I")[0]
    assert status[0][C.MQIA_CURRENT_Q_DEPTH] == int(mq_status["CURDEPTH"]) == 1
    assert status[0][C.MQIACF_Q_STATUS_TYPE] == C.MQIACF_Q_STATUS

    admin.MQCMD_DELETE_Q({C.MQCA_Q_NAME: b"APP.RETURNS"})
    with pytest.raises(pymqi.MQMIError) as gone:
        admin.MQCMD_INQUIRE_Q({C.MQCA_Q_NAME: b"APP.RETURNS"})
    assert (gone.value.comp, gone.value.reason) == (C.MQCC_FAILED, C.MQRC_UNKNOWN_OBJECT_NAME)
    assert "not found" in mqsc(run_cli, qmgr, "DISPLAY QLOCAL(APP.RETURNS)\n", ok=False)
    with pytest.raises(pymqi.MQMIError) as twice:
        admin.MQCMD_CREATE_Q({C.MQCA_Q_NAME: b"APP.ORDERS", C.MQIA_Q_TYPE: C.MQQT_LOCAL})
    assert twice.value.reason in (C.MQRCCF_OBJECT_ALREADY_EXISTS, C.MQRC_OBJECT_ALREADY_EXISTS)


def test_qmgr_channels_topics_subscriptions(qmgr: QMgr, run_cli: RunCli, admin: Any) -> None:
    (qm,) = admin.MQCMD_INQUIRE_Q_MGR()
    mq = records(mqsc(run_cli, qmgr, "DISPLAY QMGR ALL\n"), "AMQ8408I")[0]
    assert qm[C.MQCA_Q_MGR_NAME] == qmgr.name.encode() and qm[C.MQIA_COMMAND_LEVEL] == int(mq["CMDLEVEL"])
    assert qm[C.MQCA_COMMAND_INPUT_Q_NAME] == b"SYSTEM.ADMIN.COMMAND.QUEUE"
    assert qm[C.MQIA_CMD_SERVER_CONTROL] == C.MQSVC_CONTROL_Q_MGR
    channels = admin.MQCMD_INQUIRE_CHANNEL({C.MQCACH_CHANNEL_NAME: b"*", C.MQIACH_CHANNEL_TYPE: C.MQCHT_SVRCONN})
    shown = records(mqsc(run_cli, qmgr, "DISPLAY CHANNEL(*) CHLTYPE(SVRCONN)\n"), "AMQ8414I")
    assert [c[C.MQCACH_CHANNEL_NAME].decode() for c in channels] == [r["CHANNEL"] for r in shown]
    assert {c[C.MQIACH_CHANNEL_TYPE] for c in channels} == {C.MQCHT_SVRCONN}
    names = admin.MQCMD_INQUIRE_CHANNEL_NAMES({C.MQCACH_CHANNEL_NAME: b"*"})
    assert set(names[0][C.MQCACH_CHANNEL_NAMES]) >= {c[C.MQCACH_CHANNEL_NAME] for c in channels}
    with pytest.raises(pymqi.MQMIError) as idle:
        admin.MQCMD_INQUIRE_CHANNEL_STATUS({C.MQCACH_CHANNEL_NAME: b"SYSTEM.DEF.SENDER"})
    assert idle.value.reason == C.MQRCCF_CHL_STATUS_NOT_FOUND
    mqsc(run_cli, qmgr, "DEFINE TOPIC(PRICES) TOPICSTR('prices/fruit')\nDEFINE QLOCAL(SUB.Q)\n"
                        "DEFINE SUB(FRUIT) TOPICSTR('prices/fruit') DEST(SUB.Q)\n")
    (topic,) = admin.MQCMD_INQUIRE_TOPIC({C.MQCA_TOPIC_NAME: b"PRICES"})
    assert topic[C.MQCA_TOPIC_STRING] == b"prices/fruit"
    (sub,) = admin.MQCMD_INQUIRE_SUBSCRIPTION({C.MQCACF_SUB_NAME: b"FRUIT"})
    mq_sub = records(mqsc(run_cli, qmgr, "DISPLAY SUB(FRUIT) ALL\n"), "AMQ8096I")[0]
    assert sub[C.MQBACF_SUB_ID].hex().upper() == mq_sub["SUBID"]
    assert sub[C.MQCACF_DESTINATION] == b"SUB.Q" and sub[C.MQCA_TOPIC_STRING] == b"prices/fruit"


_PROGRAM = '''
import os
import pymqi

qmgr = pymqi.connect(os.environ["QMGR"])
pcf = pymqi.PCFExecute(qmgr)
pcf.MQCMD_CREATE_Q({pymqi.CMQC.MQCA_Q_NAME: b"MON.A", pymqi.CMQC.MQIA_Q_TYPE: pymqi.CMQC.MQQT_LOCAL})
for q in pcf.MQCMD_INQUIRE_Q({pymqi.CMQC.MQCA_Q_NAME: b"MON.*"}):
    print("dict", q[pymqi.CMQC.MQCA_Q_NAME].decode().strip(), q[pymqi.CMQC.MQIA_CURRENT_Q_DEPTH])
args = [pymqi.CFST(Parameter=pymqi.CMQC.MQCA_Q_NAME, String=b"MON.*"),
        pymqi.CFIL(Parameter=pymqi.CMQCFC.MQIACF_Q_ATTRS, Values=[pymqi.CMQC.MQIA_MAX_Q_DEPTH])]
for q in pcf.MQCMD_INQUIRE_Q(args):
    print("list", q[pymqi.CMQC.MQCA_Q_NAME].decode().strip(), q[pymqi.CMQC.MQIA_MAX_Q_DEPTH])
try:
    pcf.MQCMD_INQUIRE_Q({pymqi.CMQC.MQCA_Q_NAME: b"NOT.THERE"})
except pymqi.MQMIError as e:
    print("error", e.comp, e.reason)
pcf.disconnect()
qmgr.disconnect()
'''


def test_pymqi_program_unchanged(qmgr: QMgr, tmp_path: Path) -> None:
    program = tmp_path / "monitor.py"
    program.write_text(_PROGRAM)
    ran = subprocess.run([sys.executable, "-m", "mqlite.pymqi_run", str(program)],
                         env={**os.environ, "QMGR": qmgr.name}, capture_output=True, text=True, timeout=120,
                         check=False)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.splitlines() == ["dict MON.A 0", "list MON.A 5000", "error 2 2085"]


def _request(qm: Any, body: bytes, reply_to: str = "PCF.REPLY", fmt: str = C.MQFMT_ADMIN) -> bytes:
    md = pymqi.MD(Format=fmt.encode(), MsgType=C.MQMT_REQUEST, ReplyToQ=reply_to.encode())
    with pymqi.Queue(qm, "SYSTEM.ADMIN.COMMAND.QUEUE", C.MQOO_OUTPUT) as queue:
        queue.put(body, md)
    return bytes(md.MsgId)


def _reply(qm: Any, msg_id: bytes) -> tuple[Any, pcf.PcfMessage]:
    md = pymqi.MD(CorrelId=msg_id)
    gmo = pymqi.GMO(Options=C.MQGMO_WAIT, WaitInterval=60_000, MatchOptions=C.MQMO_MATCH_CORREL_ID)
    with pymqi.Queue(qm, "PCF.REPLY") as queue:
        body = queue.get(None, md, gmo)
    return md, pcf.decode(body)


def test_bad_pcf_is_answered_and_the_server_serves_on(qmgr: QMgr, run_cli: RunCli) -> None:
    mqsc(run_cli, qmgr, "DEFINE QLOCAL(PCF.REPLY)\n")
    qm = pymqi.connect(qmgr.name)
    try:
        good = pcf.encode(pcf.PcfMessage(pcf.MQCFH(Type=C.MQCFT_COMMAND, Command=C.MQCMD_PING_Q_MGR)))
        cases = [
            good[:4] + (40).to_bytes(4, "little") + good[8:],  # MQCFH StrucLength 40
            pcf.encode(pcf.PcfMessage(pcf.MQCFH(Type=C.MQCFT_EVENT, Command=C.MQCMD_PING_Q_MGR))),
            pcf.encode(pcf.PcfMessage(pcf.MQCFH(Type=C.MQCFT_COMMAND, Command=C.MQCMD_INQUIRE_Q),
                                      [(C.MQCA_Q_NAME, "X")]))[:-4],  # cut short
            pcf.encode(pcf.PcfMessage(pcf.MQCFH(Type=C.MQCFT_COMMAND, Command=C.MQCMD_INQUIRE_Q),
                                      [(C.MQCA_Q_NAME, 12)])),  # a name as an integer
            pcf.encode(pcf.PcfMessage(pcf.MQCFH(Type=C.MQCFT_COMMAND, Command=9999))),
        ]
        expected = [C.MQRCCF_CFH_LENGTH_ERROR, C.MQRCCF_CFH_TYPE_ERROR, C.MQRCCF_MSG_LENGTH_ERROR,
                    C.MQRCCF_CFST_PARM_ID_ERROR, C.MQRCCF_CFH_COMMAND_ERROR]
        for body, reason in zip(cases, expected, strict=True):
            md, answer = _reply(qm, _request(qm, body))
            assert md.MsgType == C.MQMT_REPLY and md.Format.strip() == C.MQFMT_ADMIN.strip().encode()
            assert (answer.header.Type, answer.header.CompCode, answer.header.Reason) == (
                C.MQCFT_RESPONSE, C.MQCC_FAILED, reason)
            assert answer.header.Control == C.MQCFC_LAST
        _, answer = _reply(qm, _request(qm, good, fmt=C.MQFMT_STRING))
        assert answer.header.Reason == C.MQRCCF_MD_FORMAT_ERROR
        _request(qm, b"not PCF at all", reply_to="")  # nowhere to answer: dead-lettered
        gmo = pymqi.GMO(Options=C.MQGMO_WAIT, WaitInterval=60_000)
        with pymqi.Queue(qm, "SYSTEM.DEAD.LETTER.QUEUE") as dead:
            letter = dead.get(None, pymqi.MD(), gmo)
        header, rest = dlh.decode(letter)
        assert header.reason == C.MQRCCF_MSG_LENGTH_ERROR and rest == b"not PCF at all"
        assert header.dest_q_name.strip() == "SYSTEM.ADMIN.COMMAND.QUEUE"
        _, answer = _reply(qm, _request(qm, good))  # and it still serves
        assert (answer.header.CompCode, answer.header.Reason) == (C.MQCC_OK, 0)
    finally:
        qm.disconnect()


def test_authority_is_checked_as_for_mqsc(qmgr: QMgr, run_cli: RunCli) -> None:
    """APP may put on the command queue but has no +dsp on APP.SECRET: its INQUIRE is refused
    with 2035, as DISPLAY is for it in runmqsc; with +dsp it is answered."""
    mqsc(run_cli, qmgr, "DEFINE QLOCAL(APP.SECRET)\n"
                        f"SET AUTHREC PROFILE(SYSTEM.ADMIN.COMMAND.QUEUE) OBJTYPE(QUEUE) GROUP('{APP.groups}') "
                        "AUTHADD(PUT)\n"
                        f"SET AUTHREC PROFILE('PYMQPCF.*') OBJTYPE(QUEUE) GROUP('{APP.groups}') AUTHADD(GET)\n"
                        f"SET AUTHREC PROFILE(SYSTEM.DEFAULT.MODEL.QUEUE) OBJTYPE(QUEUE) GROUP('{APP.groups}') "
                        "AUTHADD(DSP,GET)\n")
    qm = pymqi.connect(qmgr.name, "DEV.APP.SVRCONN", f"127.0.0.1({qmgr.port})", APP.user, APP.password)
    app = pymqi.PCFExecute(qm)
    try:
        with pytest.raises(pymqi.MQMIError) as refused:
            app.MQCMD_INQUIRE_Q({C.MQCA_Q_NAME: b"APP.SECRET"})
        assert refused.value.reason in (C.MQRC_NOT_AUTHORIZED, C.MQRCCF_NOT_AUTHORIZED)
        mqsc(run_cli, qmgr, f"SET AUTHREC PROFILE(APP.SECRET) OBJTYPE(QUEUE) GROUP('{APP.groups}') AUTHADD(DSP)\n")
        assert app.MQCMD_INQUIRE_Q({C.MQCA_Q_NAME: b"APP.SECRET"})[0][C.MQCA_Q_NAME] == b"APP.SECRET"
    finally:
        app.disconnect()
        qm.disconnect()


def test_endmqcsv_and_strmqcsv(qmgr: QMgr, run_cli: RunCli, admin: Any) -> None:
    """Ended, the command server leaves requests on its queue; strmqcsv serves them in order."""
    (status,) = admin.MQCMD_INQUIRE_Q_MGR_STATUS()
    assert status[C.MQIACF_CMD_SERVER_STATUS] == C.MQSVC_STATUS_RUNNING
    assert status[C.MQIACF_Q_MGR_STATUS] == C.MQQMSTA_RUNNING and status[C.MQCA_Q_MGR_NAME] == qmgr.name.encode()
    assert "CMDSERV(RUNNING)" in mqsc(run_cli, qmgr, "DISPLAY QMSTATUS CMDSERV\n")
    ended = run_cli("endmqcsv", qmgr.name)
    assert ended.returncode == 0, ended.stderr
    assert "command server ended" in ended.stdout
    assert "CMDSERV(STOPPED)" in mqsc(run_cli, qmgr, "DISPLAY QMSTATUS CMDSERV\n")
    mqsc(run_cli, qmgr, "DEFINE QLOCAL(PCF.REPLY)\n")
    qm = pymqi.connect(qmgr.name)
    try:
        ping = pcf.encode(pcf.PcfMessage(pcf.MQCFH(Type=C.MQCFT_COMMAND, Command=C.MQCMD_PING_Q_MGR)))
        msg_id = _request(qm, ping)
        assert depth(run_cli, qmgr, "SYSTEM.ADMIN.COMMAND.QUEUE") == 1  # held while ended
        started = run_cli("strmqcsv", qmgr.name)
        assert started.returncode == 0, started.stderr
        _, answer = _reply(qm, msg_id)  # served once started
        assert (answer.header.Command, answer.header.CompCode) == (C.MQCMD_PING_Q_MGR, C.MQCC_OK)
    finally:
        qm.disconnect()
    (status,) = admin.MQCMD_INQUIRE_Q_MGR_STATUS()
    assert status[C.MQIACF_CMD_SERVER_STATUS] == C.MQSVC_STATUS_RUNNING


def test_channel_status_of_a_running_svrconn(qmgr: QMgr, run_cli: RunCli, admin: Any) -> None:
    client = pymqi.connect(qmgr.name, "DEV.APP.SVRCONN", f"127.0.0.1({qmgr.port})", APP.user, APP.password)
    try:
        statuses = admin.MQCMD_INQUIRE_CHANNEL_STATUS({C.MQCACH_CHANNEL_NAME: b"DEV.APP.SVRCONN"})
        shown = records(mqsc(run_cli, qmgr, "DISPLAY CHSTATUS(DEV.APP.SVRCONN) ALL\n"), "AMQ8417I")
    finally:
        client.disconnect()
    assert len(statuses) == len(shown) >= 1, (statuses, shown)
    status = statuses[0]
    assert status[C.MQCACH_CHANNEL_NAME] == b"DEV.APP.SVRCONN"
    assert status[C.MQIACH_CHANNEL_TYPE] == C.MQCHT_SVRCONN and shown[0]["CHLTYPE"] == "SVRCONN"
    assert status[C.MQIACH_CHANNEL_STATUS] == C.MQCHS_RUNNING and shown[0]["STATUS"] == "RUNNING"
    assert status[C.MQCACH_CONNECTION_NAME].decode() == shown[0]["CONNAME"]


def test_operations_listeners_and_clear(qmgr: QMgr, run_cli: RunCli, admin: Any) -> None:
    admin.MQCMD_CREATE_LISTENER({C.MQCACH_LISTENER_NAME: b"PCF.LSTR", C.MQIACH_XMIT_PROTOCOL_TYPE: C.MQXPT_TCP,
                                 C.MQIACH_PORT: 0})
    admin.MQCMD_START_CHANNEL_LISTENER({C.MQCACH_LISTENER_NAME: b"PCF.LSTR"})
    (status,) = admin.MQCMD_INQUIRE_LISTENER_STATUS({C.MQCACH_LISTENER_NAME: b"PCF.LSTR"})
    shown = records(mqsc(run_cli, qmgr, "DISPLAY LSSTATUS(PCF.LSTR) ALL\n"), "AMQ8631I")[0]
    assert status[C.MQIACH_LISTENER_STATUS] == C.MQSVC_STATUS_RUNNING and shown["STATUS"] == "RUNNING"
    assert status[C.MQIACH_PORT] == int(shown["PORT"]) > 0
    admin.MQCMD_STOP_CHANNEL_LISTENER({C.MQCACH_LISTENER_NAME: b"PCF.LSTR"})
    with pytest.raises(pymqi.MQMIError) as stopped:
        admin.MQCMD_INQUIRE_LISTENER_STATUS({C.MQCACH_LISTENER_NAME: b"PCF.LSTR"})
    assert stopped.value.reason == C.MQRCCF_LSTR_STATUS_NOT_FOUND
    mqsc(run_cli, qmgr, "DEFINE QLOCAL(PCF.FULL)\n")
    with pymqi.Queue(admin.qm, "PCF.FULL") as queue:
        queue.put(b"one")
    assert depth(run_cli, qmgr, "PCF.FULL") == 1
    admin.MQCMD_CLEAR_Q({C.MQCA_Q_NAME: b"PCF.FULL"})
    assert depth(run_cli, qmgr, "PCF.FULL") == 0
    assert admin.MQCMD_REFRESH_SECURITY({C.MQIACF_SECURITY_TYPE: C.MQSECTYPE_AUTHSERV}) == []
