"""PCF commands for topics, channels, listeners, namelists, the queue manager and authority
records (mqsc.pcf_objects), each checked against what the same MQSC DISPLAY shows."""

from __future__ import annotations

import pytest

from mqlite import cmqc as C
from mqlite.core.qmgr import QueueManager
from mqlite.mqsc.commands import execute as mqsc
from mqlite.mqsc.pcf_commands import parse_records
from mqlite.mqsc.pcf_objects import execute


@pytest.fixture
def qm() -> QueueManager:
    qm = QueueManager("QM1")
    qm.bootstrap()
    return qm


def shown(qm: QueueManager, command: str) -> dict[str, str]:
    return parse_records(mqsc(qm, command))[0][0]


def ok(qm: QueueManager, command: int, params: list[tuple[int, object]]) -> list[dict[int, object]]:
    reply = execute(qm, command, params)  # type: ignore[arg-type]
    assert (reply.comp_code, reply.reason) == (C.MQCC_OK, 0), reply
    return [dict(o) for o in reply.objects]


def test_topics(qm: QueueManager) -> None:
    ok(qm, C.MQCMD_CREATE_TOPIC, [(C.MQCA_TOPIC_NAME, "T1"), (C.MQCA_TOPIC_STRING, "a/b"), (C.MQCA_TOPIC_DESC, "x")])
    ok(qm, C.MQCMD_CHANGE_TOPIC, [(C.MQCA_TOPIC_NAME, "T1"), (C.MQCA_TOPIC_DESC, "prices")])
    ok(qm, C.MQCMD_COPY_TOPIC, [(C.MQCACF_FROM_TOPIC_NAME, "T1"), (C.MQCACF_TO_TOPIC_NAME, "T2"),
                                (C.MQCA_TOPIC_STRING, "a/c")])
    assert shown(qm, "DISPLAY TOPIC(T2) ALL")["DESCR"] == "prices"
    assert ok(qm, C.MQCMD_INQUIRE_TOPIC_NAMES, [(C.MQCA_TOPIC_NAME, "T*")]) == [{C.MQCACF_TOPIC_NAMES: ["T1", "T2"]}]
    ok(qm, C.MQCMD_DELETE_TOPIC, [(C.MQCA_TOPIC_NAME, "T2")])
    assert execute(qm, C.MQCMD_DELETE_TOPIC, [(C.MQCA_TOPIC_NAME, "T2")]).reason == C.MQRC_UNKNOWN_OBJECT_NAME
    (status,) = ok(qm, C.MQCMD_INQUIRE_TOPIC_STATUS, [(C.MQCA_TOPIC_STRING, "a/b")])
    assert status[C.MQIA_SUB_COUNT] == int(shown(qm, "DISPLAY TPSTATUS('a/b') ALL")["SUBCOUNT"])


def test_channels(qm: QueueManager) -> None:
    ok(qm, C.MQCMD_CREATE_CHANNEL, [(C.MQCACH_CHANNEL_NAME, "TO.QM2"), (C.MQIACH_CHANNEL_TYPE, C.MQCHT_SENDER),
                                    (C.MQCACH_CONNECTION_NAME, "localhost(1415)"), (C.MQCACH_XMIT_Q_NAME, "QM2")])
    ok(qm, C.MQCMD_CHANGE_CHANNEL, [(C.MQCACH_CHANNEL_NAME, "TO.QM2"), (C.MQIACH_CHANNEL_TYPE, C.MQCHT_SENDER),
                                    (C.MQIACH_BATCH_SIZE, 10)])
    (channel,) = ok(qm, C.MQCMD_INQUIRE_CHANNEL, [(C.MQCACH_CHANNEL_NAME, "TO.QM2")])
    mq = shown(qm, "DISPLAY CHANNEL(TO.QM2) ALL")
    assert channel[C.MQIACH_BATCH_SIZE] == int(mq["BATCHSZ"]) == 10
    assert channel[C.MQCACH_CONNECTION_NAME] == mq["CONNAME"] == "localhost(1415)"
    assert channel[C.MQIACH_CHANNEL_TYPE] == C.MQCHT_SENDER and mq["CHLTYPE"] == "SDR"
    ok(qm, C.MQCMD_DELETE_CHANNEL, [(C.MQCACH_CHANNEL_NAME, "TO.QM2")])


def test_listeners_and_namelists(qm: QueueManager) -> None:
    ok(qm, C.MQCMD_CREATE_LISTENER, [(C.MQCACH_LISTENER_NAME, "L1"), (C.MQIACH_XMIT_PROTOCOL_TYPE, C.MQXPT_TCP),
                                     (C.MQIACH_PORT, 1500), (C.MQIACH_LISTENER_CONTROL, C.MQSVC_CONTROL_Q_MGR)])
    (listener,) = ok(qm, C.MQCMD_INQUIRE_LISTENER, [(C.MQCACH_LISTENER_NAME, "L1")])
    assert shown(qm, "DISPLAY LISTENER(L1) ALL")["CONTROL"] == "QMGR"
    assert listener[C.MQIACH_PORT] == 1500 and listener[C.MQIACH_LISTENER_CONTROL] == C.MQSVC_CONTROL_Q_MGR
    ok(qm, C.MQCMD_CREATE_NAMELIST, [(C.MQCA_NAMELIST_NAME, "N1"), (C.MQCA_NAMES, ["A", "B"])])
    (namelist,) = ok(qm, C.MQCMD_INQUIRE_NAMELIST, [(C.MQCA_NAMELIST_NAME, "N1")])
    assert namelist[C.MQCA_NAMES] == ["A", "B"] and namelist[C.MQIA_NAME_COUNT] == 2
    ok(qm, C.MQCMD_DELETE_NAMELIST, [(C.MQCA_NAMELIST_NAME, "N1")])


def test_change_q_mgr(qm: QueueManager) -> None:
    ok(qm, C.MQCMD_CHANGE_Q_MGR, [(C.MQCA_Q_MGR_DESC, "hello"), (C.MQIA_MAX_HANDLES, 300)])
    assert shown(qm, "DISPLAY QMGR DESCR MAXHANDS")["MAXHANDS"] == "300"
    bad = execute(qm, C.MQCMD_CHANGE_Q_MGR, [(C.MQIA_COMMAND_LEVEL, 800)])  # read-only
    assert bad.reason == C.MQRCCF_CFIN_PARM_ID_ERROR


def test_authority_records(qm: QueueManager) -> None:
    mqsc(qm, "DEFINE QLOCAL(S.Q)")
    ok(qm, C.MQCMD_SET_AUTH_REC, [(C.MQCACF_AUTH_PROFILE_NAME, "S.Q"), (C.MQIACF_OBJECT_TYPE, C.MQOT_Q),
                                  (C.MQIACF_AUTH_ADD_AUTHS, [C.MQAUTH_INPUT, C.MQAUTH_OUTPUT]),
                                  (C.MQCACF_PRINCIPAL_ENTITY_NAMES, ["bob"])])
    assert shown(qm, "DISPLAY AUTHREC PROFILE(S.Q) OBJTYPE(QUEUE)")["AUTHLIST"] == "GET,PUT"
    (record,) = ok(qm, C.MQCMD_INQUIRE_AUTH_RECS, [(C.MQIACF_AUTH_OPTIONS, 0), (C.MQCACF_AUTH_PROFILE_NAME, "S.Q"),
                                                   (C.MQIACF_OBJECT_TYPE, C.MQOT_Q)])
    assert record == {C.MQCACF_AUTH_PROFILE_NAME: "S.Q", C.MQCACF_ENTITY_NAME: "bob",
                      C.MQIACF_ENTITY_TYPE: C.MQZAET_PRINCIPAL, C.MQIACF_OBJECT_TYPE: C.MQOT_Q,
                      C.MQIACF_AUTHORIZATION_LIST: [C.MQAUTH_INPUT, C.MQAUTH_OUTPUT]}
    missing = execute(qm, C.MQCMD_SET_AUTH_REC, [(C.MQCACF_AUTH_PROFILE_NAME, "S.Q"), (C.MQIACF_OBJECT_TYPE, 1),
                                                 (C.MQCACF_PRINCIPAL_ENTITY_NAMES, ["bob"])])
    assert missing.reason == C.MQRCCF_AUTH_VALUE_MISSING
    ok(qm, C.MQCMD_DELETE_AUTH_REC, [(C.MQCACF_AUTH_PROFILE_NAME, "S.Q"), (C.MQIACF_OBJECT_TYPE, C.MQOT_Q),
                                     (C.MQCACF_PRINCIPAL_ENTITY_NAMES, ["bob"])])


def test_sub_status(qm: QueueManager) -> None:
    mqsc(qm, "DEFINE QLOCAL(S.Q)")
    mqsc(qm, "DEFINE SUB(S1) TOPICSTR('a/b') DEST(S.Q)")
    (status,) = ok(qm, C.MQCMD_INQUIRE_SUB_STATUS, [(C.MQCACF_SUB_NAME, "S1")])
    mq = shown(qm, "DISPLAY SBSTATUS(S1) ALL")
    sub_id = status[C.MQBACF_SUB_ID]
    assert isinstance(sub_id, bytes) and sub_id.hex().upper() == mq["SUBID"]
    assert status[C.MQIACF_MESSAGE_COUNT] == int(mq["NUMMSGS"]) and status[C.MQIACF_SUB_TYPE] == C.MQSUBTYPE_ADMIN


def test_chlauth_records(qm: QueueManager) -> None:
    ok(qm, C.MQCMD_SET_CHLAUTH_REC, [(C.MQCACH_CHANNEL_NAME, "APP.*"), (C.MQIACF_CHLAUTH_TYPE, C.MQCAUT_BLOCKUSER),
                                     (C.MQCACH_MCA_USER_ID_LIST, ["eve", "mallory"]), (C.MQCA_CHLAUTH_DESC, "no eve")])
    ok(qm, C.MQCMD_SET_CHLAUTH_REC, [(C.MQCACH_CHANNEL_NAME, "APP.*"), (C.MQIACF_CHLAUTH_TYPE, C.MQCAUT_ADDRESSMAP),
                                     (C.MQCACH_CONNECTION_NAME, "10.0.0.*"), (C.MQIACH_USER_SOURCE, C.MQUSRC_NOACCESS)])
    mq = {r["TYPE"]: r for r, _ in parse_records(mqsc(qm, "DISPLAY CHLAUTH(APP.*) MATCH(EXACT) ALL"))}
    records = ok(qm, C.MQCMD_INQUIRE_CHLAUTH_RECS, [(C.MQCACH_CHANNEL_NAME, "APP.*"),
                                                    (C.MQIACH_MATCH, C.MQMATCH_EXACT)])
    by_type = {r[C.MQIACF_CHLAUTH_TYPE]: r for r in records}
    assert by_type[C.MQCAUT_BLOCKUSER][C.MQCACH_MCA_USER_ID_LIST] == ["eve", "mallory"]
    assert mq["BLOCKUSER"]["USERLIST"] == "eve,mallory" and by_type[C.MQCAUT_BLOCKUSER][C.MQCA_CHLAUTH_DESC] == "no eve"
    assert by_type[C.MQCAUT_ADDRESSMAP][C.MQCACH_CONNECTION_NAME] == mq["ADDRESSMAP"]["ADDRESS"] == "10.0.0.*"
    assert by_type[C.MQCAUT_ADDRESSMAP][C.MQIACH_USER_SOURCE] == C.MQUSRC_NOACCESS
    ok(qm, C.MQCMD_SET_CHLAUTH_REC, [(C.MQCACH_CHANNEL_NAME, "APP.*"), (C.MQIACF_CHLAUTH_TYPE, C.MQCAUT_ADDRESSMAP),
                                     (C.MQIACF_ACTION, C.MQACT_REMOVE), (C.MQCACH_CONNECTION_NAME, "10.0.0.*")])
    left = ok(qm, C.MQCMD_INQUIRE_CHLAUTH_RECS, [(C.MQCACH_CHANNEL_NAME, "APP.*"), (C.MQIACH_MATCH, C.MQMATCH_EXACT)])
    assert [r[C.MQIACF_CHLAUTH_TYPE] for r in left] == [C.MQCAUT_BLOCKUSER]
    bad = execute(qm, C.MQCMD_SET_CHLAUTH_REC, [(C.MQCACH_CHANNEL_NAME, "APP.*"), (C.MQIACF_CHLAUTH_TYPE, 99)])
    assert bad.reason == C.MQRCCF_CHLAUTH_TYPE_ERROR


def test_operations(qm: QueueManager) -> None:
    mqsc(qm, "DEFINE QLOCAL(FULL.Q)")
    ok(qm, C.MQCMD_CLEAR_Q, [(C.MQCA_Q_NAME, "FULL.Q")])
    ok(qm, C.MQCMD_RESET_CHANNEL, [(C.MQCACH_CHANNEL_NAME, "SYSTEM.DEF.SENDER"), (C.MQIACH_MSG_SEQUENCE_NUMBER, 5)])
    ok(qm, C.MQCMD_REFRESH_SECURITY, [(C.MQIACF_SECURITY_TYPE, C.MQSECTYPE_SSL)])
    # No channel agents in core alone: the executor's own reason comes back.
    stop = execute(qm, C.MQCMD_STOP_CHANNEL, [(C.MQCACH_CHANNEL_NAME, "SYSTEM.DEF.SENDER"),
                                              (C.MQIACF_MODE, C.MQMODE_QUIESCE)])
    assert stop.reason == C.MQRCCF_CHL_SYSTEM_NOT_ACTIVE
    bad = execute(qm, C.MQCMD_STOP_CHANNEL, [(C.MQCACH_CHANNEL_NAME, "X"), (C.MQIACF_MODE, 9)])
    assert bad.reason == C.MQRCCF_PARM_VALUE_ERROR
