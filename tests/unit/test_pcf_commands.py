"""PCF commands on the MQSC executor (mqsc.pcf_commands, mqsc.pcf_table): each request as the
MQSC command it means, the DISPLAY records as IBM's parameters, errors with IBM's reasons."""

from __future__ import annotations

import pytest

from mqlite import cmqc as C
from mqlite.core.qmgr import QueueManager
from mqlite.mqsc import pcf_table
from mqlite.mqsc.commands import execute as mqsc
from mqlite.mqsc.pcf_commands import Reply, execute, parse_records, request_command, responses
from mqlite.protocol import pcf


@pytest.fixture
def qm() -> QueueManager:
    qm = QueueManager("QM1")
    qm.bootstrap()
    return qm


def test_inquire_q_is_display_queue_all() -> None:
    command = request_command(C.MQCMD_INQUIRE_Q, [(C.MQCA_Q_NAME, "APP.*"), (C.MQIA_Q_TYPE, C.MQQT_LOCAL),
                                                  (C.MQCA_Q_DESC, pcf.StringFilter(C.MQCFOP_LIKE, "pay*"))])
    assert (command.verb, command.objtype, command.name) == ("DISPLAY", "QUEUE", "APP.*")
    assert command.options == {"TYPE": "QLOCAL"} and "ALL" in command.flags
    assert (command.where.keyword, command.where.op, command.where.value) == ("DESCR", "LK", "pay*")  # type: ignore[union-attr]


def test_create_q_is_define_with_typed_keywords() -> None:
    command = request_command(C.MQCMD_CREATE_Q, [
        (C.MQCA_Q_NAME, "APP.A"), (C.MQIA_Q_TYPE, C.MQQT_LOCAL), (C.MQIA_DEF_PERSISTENCE, C.MQPER_PERSISTENT),
        (C.MQIA_SHAREABILITY, C.MQQA_NOT_SHAREABLE), (C.MQIA_MAX_Q_DEPTH, 10), (C.MQIACF_REPLACE, C.MQRP_YES)])
    assert (command.verb, command.objtype, command.name) == ("DEFINE", "QLOCAL", "APP.A")
    assert command.attrs == {"DEFPSIST": "YES", "NOSHARE": True, "MAXDEPTH": "10"}
    assert command.flags == {"REPLACE"}


def test_copy_q_is_define_like() -> None:
    command = request_command(C.MQCMD_COPY_Q, [(C.MQCACF_FROM_Q_NAME, "A"), (C.MQCACF_TO_Q_NAME, "B"),
                                               (C.MQIA_Q_TYPE, C.MQQT_ALIAS)])
    assert (command.verb, command.objtype, command.name, command.options) == ("DEFINE", "QALIAS", "B", {"LIKE": "A"})


@pytest.mark.parametrize(("command", "params", "reason"), [
    (C.MQCMD_INQUIRE_Q, [], C.MQRCCF_PARM_COUNT_TOO_SMALL),
    (C.MQCMD_INQUIRE_Q, [(C.MQCA_Q_NAME, 7)], C.MQRCCF_CFST_PARM_ID_ERROR),
    (C.MQCMD_INQUIRE_Q, [(C.MQCA_Q_NAME, "A"), (9999, 1)], C.MQRCCF_CFIN_PARM_ID_ERROR),
    (C.MQCMD_INQUIRE_Q, [(C.MQCA_Q_NAME, "A"), (9999, "x")], C.MQRCCF_CFST_PARM_ID_ERROR),
    (C.MQCMD_INQUIRE_Q, [(C.MQCA_Q_NAME, "A"), (C.MQIACF_Q_ATTRS, "x")], C.MQRCCF_CFIL_PARM_ID_ERROR),
    (C.MQCMD_INQUIRE_Q, [(C.MQCA_Q_NAME, "A"), (C.MQIA_Q_TYPE, 99)], C.MQRCCF_PARM_VALUE_ERROR),
    (C.MQCMD_INQUIRE_Q, [(C.MQCA_Q_NAME, "A"), (3, pcf.IntegerFilter(99, 1))], C.MQRCCF_CFIF_OPERATOR_ERROR),
    (C.MQCMD_INQUIRE_Q, [(C.MQCA_Q_NAME, "A"), (9999, pcf.StringFilter(2, "x"))], C.MQRCCF_CFSF_PARM_ID_ERROR),
    (C.MQCMD_CREATE_Q, [(C.MQCA_Q_NAME, "A")], C.MQRCCF_PARM_COUNT_TOO_SMALL),
    (C.MQCMD_CREATE_Q, [(C.MQCA_Q_NAME, "A"), (C.MQIA_Q_TYPE, 1), (C.MQIA_DEF_PERSISTENCE, 7)],
     C.MQRCCF_PARM_VALUE_ERROR),
    (C.MQCMD_CREATE_Q, [(C.MQCA_Q_NAME, "A"), (C.MQIA_Q_TYPE, 1), (C.MQIA_CURRENT_Q_DEPTH, 7)],
     C.MQRCCF_CFIN_PARM_ID_ERROR),
])
def test_bad_requests(qm: QueueManager, command: int, params: list[tuple[int, pcf.Value]], reason: int) -> None:
    reply = execute(qm, command, params)
    assert (reply.comp_code, reply.reason) == (C.MQCC_FAILED, reason)


def test_unknown_command(qm: QueueManager) -> None:
    assert execute(qm, 9999, []).reason == C.MQRCCF_CFH_COMMAND_ERROR


def test_queue_lifecycle_matches_mqsc(qm: QueueManager) -> None:
    ok = execute(qm, C.MQCMD_CREATE_Q, [(C.MQCA_Q_NAME, "APP.A"), (C.MQIA_Q_TYPE, C.MQQT_LOCAL),
                                        (C.MQCA_Q_DESC, "pay (x) q"), (C.MQIA_DEF_PERSISTENCE, C.MQPER_PERSISTENT)])
    assert ok.comp_code == C.MQCC_OK
    shown = parse_records(mqsc(qm, "DISPLAY QLOCAL(APP.A) ALL"))[0][0]
    assert shown["DESCR"] == "pay (x) q" and shown["DEFPSIST"] == "YES"
    (obj,) = execute(qm, C.MQCMD_INQUIRE_Q, [(C.MQCA_Q_NAME, "APP.*")]).objects
    got = dict(obj)
    assert got[C.MQCA_Q_NAME] == "APP.A" and got[C.MQIA_Q_TYPE] == C.MQQT_LOCAL
    assert got[C.MQCA_Q_DESC] == "pay (x) q" and got[C.MQIA_DEF_PERSISTENCE] == C.MQPER_PERSISTENT
    assert got[C.MQIA_MAX_Q_DEPTH] == int(shown["MAXDEPTH"]) and got[C.MQIA_SHAREABILITY] == 1
    assert execute(qm, C.MQCMD_CHANGE_Q, [(C.MQCA_Q_NAME, "APP.A"), (C.MQIA_MAX_Q_DEPTH, 7)]).comp_code == 0
    selected = execute(qm, C.MQCMD_INQUIRE_Q, [(C.MQCA_Q_NAME, "APP.A"), (C.MQIACF_Q_ATTRS, [C.MQIA_MAX_Q_DEPTH])])
    assert selected.objects == [[(C.MQCA_Q_NAME, "APP.A"), (C.MQIA_Q_TYPE, 1), (C.MQIA_MAX_Q_DEPTH, 7)]]
    assert execute(qm, C.MQCMD_COPY_Q, [(C.MQCACF_FROM_Q_NAME, "APP.A"), (C.MQCACF_TO_Q_NAME, "APP.B"),
                                        (C.MQIA_Q_TYPE, C.MQQT_LOCAL)]).comp_code == 0
    names = execute(qm, C.MQCMD_INQUIRE_Q_NAMES, [(C.MQCA_Q_NAME, "APP.*")]).objects
    assert names == [[(C.MQCACF_Q_NAMES, ["APP.A", "APP.B"]), (C.MQIACF_Q_TYPES, [1, 1])]]
    assert execute(qm, C.MQCMD_DELETE_Q, [(C.MQCA_Q_NAME, "APP.B")]).comp_code == 0
    assert execute(qm, C.MQCMD_DELETE_Q, [(C.MQCA_Q_NAME, "APP.B")]).reason == C.MQRC_UNKNOWN_OBJECT_NAME
    assert execute(qm, C.MQCMD_INQUIRE_Q, [(C.MQCA_Q_NAME, "NOPE")]).reason == C.MQRC_UNKNOWN_OBJECT_NAME


def test_filters_select_like_where(qm: QueueManager) -> None:
    mqsc(qm, "DEFINE QLOCAL(F.A) MAXDEPTH(5)")
    mqsc(qm, "DEFINE QLOCAL(F.B) MAXDEPTH(50)")
    big = execute(qm, C.MQCMD_INQUIRE_Q, [(C.MQCA_Q_NAME, "F.*"),
                                          (C.MQIA_MAX_Q_DEPTH, pcf.IntegerFilter(C.MQCFOP_GREATER, 10))])
    assert [dict(o)[C.MQCA_Q_NAME] for o in big.objects] == ["F.B"]
    persistent = execute(qm, C.MQCMD_INQUIRE_Q, [(C.MQCA_Q_NAME, "F.*"), (C.MQIA_DEF_PERSISTENCE,
                                                  pcf.IntegerFilter(C.MQCFOP_EQUAL, C.MQPER_NOT_PERSISTENT))])
    assert len(persistent.objects) == 2


def test_qmgr_channels_topics_status(qm: QueueManager) -> None:
    (qmgr,) = execute(qm, C.MQCMD_INQUIRE_Q_MGR, [(C.MQIACF_Q_MGR_ATTRS, [C.MQIA_COMMAND_LEVEL,
                                                                          C.MQCA_COMMAND_INPUT_Q_NAME])]).objects
    assert dict(qmgr) == {C.MQCA_Q_MGR_NAME: "QM1", C.MQIA_COMMAND_LEVEL: 700,
                          C.MQCA_COMMAND_INPUT_Q_NAME: "SYSTEM.ADMIN.COMMAND.QUEUE"}
    (channel,) = execute(qm, C.MQCMD_INQUIRE_CHANNEL, [(C.MQCACH_CHANNEL_NAME, "SYSTEM.DEF.SENDER")]).objects
    assert dict(channel)[C.MQIACH_CHANNEL_TYPE] == C.MQCHT_SENDER
    names = execute(qm, C.MQCMD_INQUIRE_CHANNEL_NAMES, [(C.MQCACH_CHANNEL_NAME, "SYSTEM.DEF.S*"),
                                                        (C.MQIACH_CHANNEL_TYPE, C.MQCHT_SVRCONN)]).objects
    assert names == [[(C.MQCACH_CHANNEL_NAMES, ["SYSTEM.DEF.SVRCONN"])]]
    status = execute(qm, C.MQCMD_INQUIRE_CHANNEL_STATUS, [(C.MQCACH_CHANNEL_NAME, "*")])
    assert status.reason == C.MQRCCF_CHL_STATUS_NOT_FOUND
    (topic,) = execute(qm, C.MQCMD_INQUIRE_TOPIC, [(C.MQCA_TOPIC_NAME, "SYSTEM.BASE.TOPIC")]).objects
    assert dict(topic)[C.MQCA_TOPIC_NAME] == "SYSTEM.BASE.TOPIC"
    mqsc(qm, "DEFINE QLOCAL(S.Q)")
    mqsc(qm, "DEFINE SUB(S1) TOPICSTR('a/b') DEST(S.Q)")
    (sub,) = execute(qm, C.MQCMD_INQUIRE_SUBSCRIPTION, [(C.MQCACF_SUB_NAME, "S1")]).objects
    got = dict(sub)
    assert got[C.MQCA_TOPIC_STRING] == "a/b" and got[C.MQCACF_DESTINATION] == "S.Q"
    sub_id = got[C.MQBACF_SUB_ID]
    assert isinstance(sub_id, bytes) and len(sub_id) == 24
    (qstatus,) = execute(qm, C.MQCMD_INQUIRE_Q_STATUS, [(C.MQCA_Q_NAME, "S.Q")]).objects
    assert dict(qstatus)[C.MQIACF_Q_STATUS_TYPE] == C.MQIACF_Q_STATUS and dict(qstatus)[C.MQIA_CURRENT_Q_DEPTH] == 0
    assert execute(qm, C.MQCMD_PING_Q_MGR, []).comp_code == C.MQCC_OK
    (status,) = execute(qm, C.MQCMD_INQUIRE_Q_MGR_STATUS, []).objects  # DISPLAY QMSTATUS ALL
    assert dict(status) == {C.MQCA_Q_MGR_NAME: "QM1", C.MQIACF_Q_MGR_STATUS: C.MQQMSTA_RUNNING}


def test_responses_layout() -> None:
    reply = Reply([[(1, 2)], [(1, 3)]])
    plain = responses(pcf.MQCFH(Type=C.MQCFT_COMMAND, Command=13), reply)
    assert [(m.header.Type, m.header.MsgSeqNumber, m.header.Control) for m in plain] == [
        (C.MQCFT_RESPONSE, 1, C.MQCFC_NOT_LAST), (C.MQCFT_RESPONSE, 2, C.MQCFC_LAST)]
    xr = responses(pcf.MQCFH(Type=C.MQCFT_COMMAND_XR, Command=13, Version=3), reply)
    assert [(m.header.Type, m.header.Control) for m in xr] == [
        (C.MQCFT_XR_ITEM, 0), (C.MQCFT_XR_ITEM, 0), (C.MQCFT_XR_SUMMARY, 1)]
    failed = responses(pcf.MQCFH(Type=C.MQCFT_COMMAND, Command=13), Reply([], C.MQCC_FAILED, 2085))
    assert [(m.header.CompCode, m.header.Reason, m.header.Control) for m in failed] == [(2, 2085, 1)]


def test_table_both_ways() -> None:
    assert pcf_table.to_mqsc("QLOCAL", C.MQIA_DEF_PERSISTENCE, C.MQPER_PERSISTENT) == ("DEFPSIST", "YES")
    assert pcf_table.keyword_of("QUEUE", C.MQIA_CURRENT_Q_DEPTH) == "CURDEPTH"
    assert pcf_table.parameter_of("CHSTATUS", "STATUS") == C.MQIACH_CHANNEL_STATUS
    assert pcf_table.to_pcf("CHSTATUS", {"CHANNEL": "C", "STATUS": "RUNNING"}, set()) == [
        (C.MQCACH_CHANNEL_NAME, "C"), (C.MQIACH_CHANNEL_STATUS, C.MQCHS_RUNNING)]


def test_inquire_connection_is_display_conn(qm: QueueManager) -> None:
    from mqlite.core.security.principal import Principal

    qm.connect(Principal("mqm", frozenset({"mqm"})), "payroll", 4242)
    shown = parse_records(mqsc(qm, "DISPLAY CONN(*) ALL"))
    (conn,) = execute(qm, C.MQCMD_INQUIRE_CONNECTION, [(C.MQBACF_GENERIC_CONNECTION_ID, b"")]).objects
    got = dict(conn)
    conn_id = got[C.MQBACF_CONNECTION_ID]
    assert isinstance(conn_id, bytes) and conn_id.hex().upper() == shown[0][0]["CONN"]
    assert got[C.MQCACF_APPL_TAG] == "payroll" and got[C.MQIACF_PROCESS_ID] == 4242
    assert got[C.MQIACF_CONN_INFO_TYPE] == C.MQIACF_CONN_INFO_CONN
    bad = execute(qm, C.MQCMD_INQUIRE_CONNECTION, [(C.MQIACF_CONN_INFO_TYPE, 7)])
    assert bad.reason == C.MQRCCF_PARM_VALUE_ERROR
