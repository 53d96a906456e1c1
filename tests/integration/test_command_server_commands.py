"""Issue 32 item 5, the command server's commands with a real queue manager: a PCF round trip of
each supported command (``pymqi.PCFExecute``, pymqi's loop) checked against the same command's
MQSC output (runmqsc), subscriptions, publish/subscribe and cluster status, entity authority,
ESCAPE, PING_CHANNEL and RESOLVE_CHANNEL between two queue managers, and the definitions and
status inquiries the monitoring agents use. What ``test_command_server.py`` covers (queues,
INQUIRE_Q_MGR, CHSTATUS of a SVRCONN, listeners, CLEAR, authority as for MQSC, strmqcsv) is not
repeated here."""

from __future__ import annotations

import json
import struct
from collections.abc import Callable
from typing import Any

import pytest

import mqlite as pymqi
from helpers.mqsc import mqsc, records
from helpers.qmgrs import QMgr
from mqlite import cmqc as C
from mqlite.protocol import pcf

RunCli = Any
MQIACH_MAX_INSTANCES = 1618  # cmqcfc.h (MAXINST's selector in the catalogue)


@pytest.fixture
def admin(qmgr: QMgr) -> Any:
    qm = pymqi.connect(qmgr.name)
    pcf = pymqi.PCFExecute(qm)
    yield pcf
    pcf.disconnect()
    qm.disconnect()


def _failed(call: Callable[[], Any]) -> tuple[int, int]:
    with pytest.raises(pymqi.MQMIError) as failed:
        call()
    return failed.value.comp, failed.value.reason


def test_subscriptions_through_pcf_match_define_sub(qmgr: QMgr, run_cli: RunCli, admin: Any) -> None:
    mqsc(run_cli, qmgr, "DEFINE QLOCAL(SUB.Q)\n")
    assert admin.MQCMD_CREATE_SUBSCRIPTION({
        C.MQCACF_SUB_NAME: b"FRUIT", C.MQCA_TOPIC_STRING: b"prices/fruit", C.MQCACF_DESTINATION: b"SUB.Q",
        C.MQIACF_EXPIRY: 600, C.MQCACF_SUB_USER_DATA: b"till 3", C.MQIACF_PUB_PRIORITY: 4}) == []
    shown = records(mqsc(run_cli, qmgr, "DISPLAY SUB(FRUIT) ALL\n"), "AMQ8096I")[0]
    assert (shown["TOPICSTR"], shown["DEST"]) == ("prices/fruit", "SUB.Q")
    assert (shown["EXPIRY"], shown["PUBPRTY"]) == ("600", "4")
    (sub,) = admin.MQCMD_INQUIRE_SUBSCRIPTION({C.MQCACF_SUB_NAME: b"FRUIT"})
    assert sub[C.MQCACF_SUB_USER_DATA] == b"till 3" == shown["USERDATA"].encode()
    assert (sub[C.MQIACF_EXPIRY], sub[C.MQIACF_PUB_PRIORITY]) == (600, 4)
    assert sub[C.MQIACF_PUBSUB_PROPERTIES] == C.MQPSPROP_MSGPROP and shown["PSPROP"] == "MSGPROP"
    assert sub[C.MQBACF_SUB_ID].hex().upper() == shown["SUBID"]

    admin.MQCMD_CHANGE_SUBSCRIPTION({C.MQBACF_SUB_ID: pymqi.ByteString(sub[C.MQBACF_SUB_ID]),
                                     C.MQIACF_EXPIRY: C.MQEI_UNLIMITED})
    assert records(mqsc(run_cli, qmgr, "DISPLAY SUB(FRUIT) EXPIRY\n"), "AMQ8096I")[0]["EXPIRY"] == "UNLIMITED"
    admin.MQCMD_COPY_SUBSCRIPTION({C.MQCACF_FROM_SUB_NAME: b"FRUIT", C.MQCACF_TO_SUB_NAME: b"VEG",
                                   C.MQCA_TOPIC_STRING: b"prices/veg"})
    veg = records(mqsc(run_cli, qmgr, "DISPLAY SUB(VEG) ALL\n"), "AMQ8096I")[0]
    assert (veg["TOPICSTR"], veg["DEST"], veg["USERDATA"]) == ("prices/veg", "SUB.Q", "till 3")
    admin.MQCMD_DELETE_SUBSCRIPTION({C.MQCACF_SUB_NAME: b"VEG"})
    assert "not found" in mqsc(run_cli, qmgr, "DISPLAY SUB(VEG)\n", ok=False)
    again = mqsc(run_cli, qmgr, "DELETE SUB(VEG)\n", ok=False)
    comp, reason = _failed(lambda: admin.MQCMD_DELETE_SUBSCRIPTION({C.MQCACF_SUB_NAME: b"VEG"}))
    assert (comp, reason) == (C.MQCC_FAILED, C.MQRC_NO_SUBSCRIPTION) and "AMQ8147E" in again  # (the executor's)
    (status,) = admin.MQCMD_INQUIRE_SUB_STATUS({C.MQCACF_SUB_NAME: b"FRUIT"})
    mq_status = records(mqsc(run_cli, qmgr, "DISPLAY SBSTATUS(FRUIT) ALL\n"), "AMQ8099I")[0]
    assert status[C.MQIACF_MESSAGE_COUNT] == int(mq_status["NUMMSGS"])


def test_pubsub_status_entity_authority_and_escape(qmgr: QMgr, run_cli: RunCli, admin: Any) -> None:
    (status,) = admin.MQCMD_INQUIRE_PUBSUB_STATUS({C.MQIACF_PS_STATUS_TYPE: C.MQPSST_LOCAL})
    shown = records(mqsc(run_cli, qmgr, "DISPLAY PUBSUB TYPE(LOCAL) ALL\n"), "AMQ8723I")[0]
    assert status[C.MQCA_Q_MGR_NAME].strip() == shown["QMNAME"].encode() == qmgr.name.encode()
    assert status[C.MQIACF_PUBSUB_STATUS] == C.MQPS_STATUS_ACTIVE and shown["STATUS"] == "ACTIVE"
    assert (status[C.MQIA_SUB_COUNT], status[C.MQIA_TOPIC_NODE_COUNT]) == (int(shown["SUBCOUNT"]),
                                                                          int(shown["TPCOUNT"]))

    mqsc(run_cli, qmgr, "DEFINE QLOCAL(AUTH.Q)\n"
                        "SET AUTHREC PROFILE(AUTH.Q) OBJTYPE(QUEUE) PRINCIPAL('carol') AUTHADD(GET,BROWSE)\n")
    (held,) = admin.MQCMD_INQUIRE_ENTITY_AUTH({C.MQCACF_ENTITY_NAME: b"carol", C.MQIACF_ENTITY_TYPE: C.MQZAET_PRINCIPAL,
                                               C.MQIACF_OBJECT_TYPE: C.MQOT_Q, C.MQCACF_OBJECT_NAME: b"AUTH.Q"})
    entauth = records(mqsc(run_cli, qmgr, "DISPLAY ENTAUTH PRINCIPAL('carol') OBJTYPE(QUEUE) OBJNAME(AUTH.Q)\n"),
                      "AMQ8866I")[0]
    assert set(held[C.MQIACF_AUTHORIZATION_LIST]) == {C.MQAUTH_INPUT, C.MQAUTH_BROWSE}
    assert set(entauth["AUTHLIST"].split(",")) == {"GET", "BROWSE"}
    assert held[C.MQCACF_OBJECT_NAME].strip() == b"AUTH.Q" and held[C.MQIACF_OBJECT_TYPE] == C.MQOT_Q
    recs = admin.MQCMD_INQUIRE_AUTH_RECS({C.MQIACF_AUTH_OPTIONS: 0, C.MQCACF_AUTH_PROFILE_NAME: b"AUTH.Q",
                                          C.MQIACF_OBJECT_TYPE: C.MQOT_Q})
    shown_recs = records(mqsc(run_cli, qmgr, "DISPLAY AUTHREC PROFILE(AUTH.Q) OBJTYPE(QUEUE)\n"), "AMQ8864I")
    assert sorted(r[C.MQCACF_ENTITY_NAME].strip() for r in recs) == sorted(r["ENTITY"].encode() for r in shown_recs)
    assert b"carol" in {r[C.MQCACF_ENTITY_NAME].strip() for r in recs}

    texts = admin.MQCMD_ESCAPE({C.MQIACF_ESCAPE_TYPE: C.MQET_MQSC,
                                C.MQCACF_ESCAPE_TEXT: b"DISPLAY QLOCAL(AUTH.Q) MAXDEPTH"})
    escaped = [t[C.MQCACF_ESCAPE_TEXT].decode() for t in texts]
    runmqsc = mqsc(run_cli, qmgr, "DISPLAY QLOCAL(AUTH.Q) MAXDEPTH\n")
    assert len(escaped) == 1 and escaped[0].startswith("AMQ8409I") and "MAXDEPTH(5000)" in escaped[0]
    assert all(line.strip() in runmqsc for line in escaped[0].splitlines())
    assert {t[C.MQIACF_ESCAPE_TYPE] for t in texts} == {C.MQET_MQSC}
    admin.MQCMD_ESCAPE({C.MQIACF_ESCAPE_TYPE: C.MQET_MQSC, C.MQCACF_ESCAPE_TEXT: b"ALTER QLOCAL(AUTH.Q) MAXDEPTH(9)"})
    assert "MAXDEPTH(9)" in mqsc(run_cli, qmgr, "DISPLAY QLOCAL(AUTH.Q) MAXDEPTH\n")
    assert _failed(lambda: admin.MQCMD_ESCAPE({C.MQIACF_ESCAPE_TYPE: 9, C.MQCACF_ESCAPE_TEXT: b"PING QMGR"})) == (
        C.MQCC_FAILED, C.MQRCCF_ESCAPE_TYPE_ERROR)


def test_definitions_and_status_through_pcf(qmgr: QMgr, run_cli: RunCli, admin: Any) -> None:
    """Topics, channels, namelists, the queue manager, CHLAUTH: each PCF change seen by DISPLAY,
    each PCF inquiry the same as DISPLAY's record."""
    admin.MQCMD_CREATE_TOPIC({C.MQCA_TOPIC_NAME: b"T.PRICES", C.MQCA_TOPIC_STRING: b"prices",
                              C.MQCA_TOPIC_DESC: b"all prices"})
    admin.MQCMD_COPY_TOPIC({C.MQCACF_FROM_TOPIC_NAME: b"T.PRICES", C.MQCACF_TO_TOPIC_NAME: b"T.FRUIT",
                            C.MQCA_TOPIC_STRING: b"prices/fruit"})
    admin.MQCMD_CHANGE_TOPIC({C.MQCA_TOPIC_NAME: b"T.FRUIT", C.MQCA_TOPIC_DESC: b"fruit"})
    topic = records(mqsc(run_cli, qmgr, "DISPLAY TOPIC(T.FRUIT) ALL\n"), "AMQ8633I")[0]
    (inquired,) = admin.MQCMD_INQUIRE_TOPIC({C.MQCA_TOPIC_NAME: b"T.FRUIT"})
    assert inquired[C.MQCA_TOPIC_DESC].strip() == topic["DESCR"].encode() == b"fruit"
    assert inquired[C.MQCA_TOPIC_STRING] == topic["TOPICSTR"].encode() == b"prices/fruit"
    names = admin.MQCMD_INQUIRE_TOPIC_NAMES({C.MQCA_TOPIC_NAME: b"T.*"})[0][C.MQCACF_TOPIC_NAMES]
    assert [n.strip() for n in names] == [b"T.FRUIT", b"T.PRICES"]
    (tpstatus,) = admin.MQCMD_INQUIRE_TOPIC_STATUS({C.MQCA_TOPIC_STRING: b"prices/fruit"})
    shown = records(mqsc(run_cli, qmgr, "DISPLAY TPSTATUS('prices/fruit')\n"), "AMQ8754I")[0]
    assert tpstatus[C.MQIA_SUB_COUNT] == int(shown.get("SUBCOUNT", "0"))
    admin.MQCMD_DELETE_TOPIC({C.MQCA_TOPIC_NAME: b"T.FRUIT"})
    assert "not found" in mqsc(run_cli, qmgr, "DISPLAY TOPIC(T.FRUIT)\n", ok=False)

    admin.MQCMD_CREATE_CHANNEL({C.MQCACH_CHANNEL_NAME: b"PCF.SVRCONN", C.MQIACH_CHANNEL_TYPE: C.MQCHT_SVRCONN,
                                C.MQCACH_DESC: b"made by PCF"})
    admin.MQCMD_CHANGE_CHANNEL({C.MQCACH_CHANNEL_NAME: b"PCF.SVRCONN", C.MQIACH_CHANNEL_TYPE: C.MQCHT_SVRCONN,
                                MQIACH_MAX_INSTANCES: 7})
    channel = records(mqsc(run_cli, qmgr, "DISPLAY CHANNEL(PCF.SVRCONN) ALL\n"), "AMQ8414I")[0]
    (inquired,) = admin.MQCMD_INQUIRE_CHANNEL({C.MQCACH_CHANNEL_NAME: b"PCF.SVRCONN"})
    assert inquired[MQIACH_MAX_INSTANCES] == int(channel["MAXINST"]) == 7
    assert inquired[C.MQCACH_DESC].strip() == channel["DESCR"].encode() == b"made by PCF"
    admin.MQCMD_DELETE_CHANNEL({C.MQCACH_CHANNEL_NAME: b"PCF.SVRCONN"})
    assert "not found" in mqsc(run_cli, qmgr, "DISPLAY CHANNEL(PCF.SVRCONN)\n", ok=False)

    admin.MQCMD_CREATE_NAMELIST({C.MQCA_NAMELIST_NAME: b"PCF.NL", C.MQCA_NAMES: [b"A.Q", b"B.Q"]})
    admin.MQCMD_CHANGE_NAMELIST({C.MQCA_NAMELIST_NAME: b"PCF.NL", C.MQCA_NAMELIST_DESC: b"two"})
    (namelist,) = admin.MQCMD_INQUIRE_NAMELIST({C.MQCA_NAMELIST_NAME: b"PCF.NL"})
    assert [n.strip() for n in namelist[C.MQCA_NAMES]] == [b"A.Q", b"B.Q"]
    assert "DESCR(two)" in mqsc(run_cli, qmgr, "DISPLAY NAMELIST(PCF.NL) DESCR\n")
    admin.MQCMD_DELETE_NAMELIST({C.MQCA_NAMELIST_NAME: b"PCF.NL"})

    admin.MQCMD_CHANGE_Q_MGR({C.MQCA_Q_MGR_DESC: b"set by PCF"})
    assert "DESCR(set by PCF)" in mqsc(run_cli, qmgr, "DISPLAY QMGR DESCR\n")
    (qm,) = admin.MQCMD_INQUIRE_Q_MGR({C.MQIACF_Q_MGR_ATTRS: [C.MQCA_Q_MGR_DESC]})
    assert qm[C.MQCA_Q_MGR_DESC] == b"set by PCF"

    admin.MQCMD_SET_CHLAUTH_REC({C.MQCACH_CHANNEL_NAME: b"PCF.*", C.MQIACF_CHLAUTH_TYPE: C.MQCAUT_BLOCKUSER,
                                 C.MQCACH_MCA_USER_ID_LIST: [b"eve"]})
    (rule,) = admin.MQCMD_INQUIRE_CHLAUTH_RECS({C.MQCACH_CHANNEL_NAME: b"PCF.*"})
    shown = records(mqsc(run_cli, qmgr, "DISPLAY CHLAUTH('PCF.*') ALL\n"), "AMQ8878I")[0]
    assert rule[C.MQIACF_CHLAUTH_TYPE] == C.MQCAUT_BLOCKUSER and shown["TYPE"] == "BLOCKUSER"
    assert [u.strip() for u in rule[C.MQCACH_MCA_USER_ID_LIST]] == [b"eve"] and shown["USERLIST"] == "eve"

    conns = admin.MQCMD_INQUIRE_CONNECTION({C.MQBACF_GENERIC_CONNECTION_ID: pymqi.ByteString(b"")})
    shown_conns = records(mqsc(run_cli, qmgr, "DISPLAY CONN(*) TYPE(CONN)\n"), "AMQ8276I")
    assert len(conns) >= 1 and len(shown_conns) >= 1  # (runmqsc is one more connection of its own)
    assert {c[C.MQBACF_CONNECTION_ID].hex().upper() for c in conns} <= {
        r["CONN"] for r in shown_conns} | {c[C.MQBACF_CONNECTION_ID].hex().upper() for c in conns}


def test_cluster_queue_managers_through_pcf(qmgr: QMgr, run_cli: RunCli, admin: Any) -> None:
    mqsc(run_cli, qmgr, "ALTER QMGR REPOS(CL1)\n"
                        "DEFINE CHANNEL(TO.QM1) CHLTYPE(CLUSRCVR) CONNAME('127.0.0.1(1)') CLUSTER(CL1)\n")
    shown = records(mqsc(run_cli, qmgr, "DISPLAY CLUSQMGR(*) ALL\n"), "AMQ8441I")
    (member,) = admin.MQCMD_INQUIRE_CLUSTER_Q_MGR({C.MQCA_CLUSTER_Q_MGR_NAME: b"*"})
    assert member[C.MQCA_CLUSTER_Q_MGR_NAME].strip() == shown[0]["CLUSQMGR"].encode() == qmgr.name.encode()
    assert member[C.MQCA_CLUSTER_NAME].strip() == b"CL1" and member[C.MQCACH_CHANNEL_NAME].strip() == b"TO.QM1"
    assert member[C.MQIACF_Q_MGR_DEFINITION_TYPE] == C.MQQMDT_CLUSTER_RECEIVER and shown[0]["DEFTYPE"] == "CLUSRCVR"
    assert member[C.MQIACF_Q_MGR_TYPE] == C.MQQMT_REPOSITORY and shown[0]["QMTYPE"] == "REPOS"
    assert member[C.MQIACF_SUSPEND] == C.MQSUS_NO
    assert member[C.MQCA_Q_MGR_IDENTIFIER].strip() == shown[0]["QMID"].encode()
    assert member[C.MQCACH_CONNECTION_NAME].strip() == b"127.0.0.1(1)"
    only = admin.MQCMD_INQUIRE_CLUSTER_Q_MGR({C.MQCA_CLUSTER_Q_MGR_NAME: b"*", C.MQCA_CLUSTER_NAME: b"CL1",
                                              C.MQIACF_CLUSTER_Q_MGR_ATTRS: [C.MQIACF_SUSPEND]})
    assert set(only[0]) == {C.MQCA_CLUSTER_Q_MGR_NAME, C.MQCACH_CHANNEL_NAME, C.MQCA_CLUSTER_NAME, C.MQIACF_SUSPEND}


def test_ping_and_resolve_channel(qmgr_factory: Callable[..., QMgr], run_cli: RunCli) -> None:
    """PING_CHANNEL goes to the partner (answered when it has, the server serving on meanwhile),
    as PING CHANNEL does; to a partner nobody listens for, PCF fails with the reason MQSC gives;
    RESOLVE_CHANNEL with nothing in doubt is refused as RESOLVE CHANNEL is."""
    qm1, qm2 = qmgr_factory("QM1"), qmgr_factory("QM2")
    port2 = int(json.loads((qm2.home / "qmgrs" / "QM2" / "listeners.json").read_text())["tcp"])
    mqsc(run_cli, qm2, "DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(RCVR)\n"
                       "SET CHLAUTH(QM1.TO.QM2) TYPE(QMGRMAP) QMNAME(QM1) USERSRC(CHANNEL)\n")
    mqsc(run_cli, qm1, f"DEFINE QLOCAL(QM2) USAGE(XMITQ)\n"
                       f"DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) CONNAME('127.0.0.1({port2})') XMITQ(QM2)\n"
                       f"DEFINE QLOCAL(NOWHERE) USAGE(XMITQ)\n"
                       f"DEFINE CHANNEL(TO.NOWHERE) CHLTYPE(SDR) CONNAME('127.0.0.1(1)') XMITQ(NOWHERE)\n")
    qm = pymqi.connect("QM1")
    admin = pymqi.PCFExecute(qm)
    try:
        assert "AMQ8020I" in mqsc(run_cli, qm1, "PING CHANNEL(QM1.TO.QM2)\n")
        assert admin.MQCMD_PING_CHANNEL({C.MQCACH_CHANNEL_NAME: b"QM1.TO.QM2", C.MQIACH_DATA_COUNT: 100}) == []
        refused = mqsc(run_cli, qm1, "PING CHANNEL(TO.NOWHERE)\n", ok=False)
        comp, reason = _failed(lambda: admin.MQCMD_PING_CHANNEL({C.MQCACH_CHANNEL_NAME: b"TO.NOWHERE"}))
        assert comp == C.MQCC_FAILED and f"({reason})" in refused, refused
        comp, reason = _failed(lambda: admin.MQCMD_PING_CHANNEL({C.MQCACH_CHANNEL_NAME: b"QM1.TO.QM2",
                                                                 C.MQIACH_DATA_COUNT: 15}))
        assert reason == C.MQRCCF_PING_DATA_COUNT_ERROR
        assert admin.MQCMD_PING_Q_MGR() == []  # serving on
        unresolved = mqsc(run_cli, qm1, "RESOLVE CHANNEL(QM1.TO.QM2) ACTION(COMMIT)\n", ok=False)
        comp, reason = _failed(lambda: admin.MQCMD_RESOLVE_CHANNEL({C.MQCACH_CHANNEL_NAME: b"QM1.TO.QM2",
                                                                    C.MQIACH_IN_DOUBT: C.MQIDO_COMMIT}))
        assert reason == C.MQRCCF_INDOUBT_VALUE_ERROR and f"({reason})" in unresolved
        (status,) = admin.MQCMD_INQUIRE_CHANNEL({C.MQCACH_CHANNEL_NAME: b"QM1.TO.QM2"})
        assert status[C.MQIACH_CHANNEL_TYPE] == C.MQCHT_SENDER
    finally:
        admin.disconnect()
        qm.disconnect()


def test_reset_q_stats_through_pcf_and_mqsc(qmgr: QMgr, run_cli: RunCli, admin: Any) -> None:
    """RESET_Q_STATS answers IBM's statistics (MQIA_MSG_ENQ_COUNT, MQIA_MSG_DEQ_COUNT,
    MQIA_HIGH_Q_DEPTH, MQIA_TIME_SINCE_RESET) and resets them, as RESET QSTATS does."""
    mqsc(run_cli, qmgr, "DEFINE QLOCAL(STATS.Q)\n")
    with pymqi.Queue(admin.qm, "STATS.Q") as queue:
        for body in (b"one", b"two", b"three"):
            queue.put(body)
        queue.get()
    (stats,) = admin.MQCMD_RESET_Q_STATS({C.MQCA_Q_NAME: b"STATS.Q"})
    assert stats[C.MQCA_Q_NAME].strip() == b"STATS.Q"
    assert (stats[C.MQIA_MSG_ENQ_COUNT], stats[C.MQIA_MSG_DEQ_COUNT], stats[C.MQIA_HIGH_Q_DEPTH]) == (3, 1, 3)
    assert isinstance(stats[C.MQIA_TIME_SINCE_RESET], int) and stats[C.MQIA_TIME_SINCE_RESET] >= 0
    shown = records(mqsc(run_cli, qmgr, "RESET QSTATS(STATS.Q)\n"), "AMQ8450I")[0]
    assert (shown["ENQCOUNT"], shown["DEQCOUNT"], shown["HIQDEPTH"]) == ("0", "0", "2")  # reset: depth now
    assert _failed(lambda: admin.MQCMD_RESET_Q_STATS({C.MQCA_Q_NAME: b"NO.SUCH.Q"}))[1] == C.MQRC_UNKNOWN_OBJECT_NAME


def _raw_request(qm: Any, body: bytes) -> pcf.PcfMessage:
    """``body`` put to the command queue as it is; the one answer on PCF.REPLY, decoded."""
    md = pymqi.MD(Format=C.MQFMT_ADMIN.encode(), MsgType=C.MQMT_REQUEST, ReplyToQ=b"PCF.REPLY")
    with pymqi.Queue(qm, "SYSTEM.ADMIN.COMMAND.QUEUE", C.MQOO_OUTPUT) as queue:
        queue.put(body, md)
    gmo = pymqi.GMO(Options=C.MQGMO_WAIT, WaitInterval=60_000, MatchOptions=C.MQMO_MATCH_CORREL_ID)
    with pymqi.Queue(qm, "PCF.REPLY") as replies:
        return pcf.decode(replies.get(None, pymqi.MD(CorrelId=md.MsgId), gmo))


def test_wrong_types_counts_and_lengths_are_answered_with_the_parameter(qmgr: QMgr, run_cli: RunCli) -> None:
    """Issue 32 item 7: each malformed request answered with IBM's reason and, where the structure
    at fault could be read, MQIACF_PARAMETER_ID naming it; the server serves on after each.
    Strings in the answers are padded as IBM pads them (MQCA_Q_NAME to 48)."""
    mqsc(run_cli, qmgr, "DEFINE QLOCAL(PCF.REPLY)\nDEFINE QLOCAL(PAD.Q)\n")
    header = pcf.MQCFH(Type=C.MQCFT_COMMAND, Command=C.MQCMD_INQUIRE_Q)
    name = pcf.encode(pcf.PcfMessage(header, [(C.MQCA_Q_NAME, "PAD.Q")]))
    attrs = pcf.encode(pcf.PcfMessage(header, [(C.MQCA_Q_NAME, "PAD.Q"), (C.MQIACF_Q_ATTRS, [C.MQIA_MAX_Q_DEPTH])]))

    def field(data: bytes, at: int, value: int) -> bytes:
        return data[:at] + struct.pack("<i", value) + data[at + 4:]

    cases = [  # (request, reason, the parameter named)
        (field(name, 32, 3), C.MQRCCF_PARM_COUNT_TOO_BIG, None),  # MQCFH ParameterCount 3 of 1
        (field(name, 36 + 16, 400), C.MQRCCF_CFST_STRING_LENGTH_ERR, C.MQCA_Q_NAME),  # MQCFST StringLength
        (field(name, 36, 99), C.MQRCCF_STRUCTURE_TYPE_ERROR, C.MQCA_Q_NAME),  # structure type 99
        (field(attrs, 64 + 12, 5), C.MQRCCF_CFIL_COUNT_ERROR, C.MQIACF_Q_ATTRS),  # MQCFIL Count 5 of 1
        (pcf.encode(pcf.PcfMessage(header, [(C.MQCA_Q_NAME, "PAD.Q"), (C.MQIA_Q_TYPE, "QLOCAL")])),
         C.MQRCCF_CFIN_PARM_ID_ERROR, C.MQIA_Q_TYPE),  # a string where an integer belongs
        (pcf.encode(pcf.PcfMessage(header, [(C.MQCA_Q_NAME, "PAD.Q"), (C.MQIA_Q_TYPE, 77)])),
         C.MQRCCF_PARM_VALUE_ERROR, C.MQIA_Q_TYPE),
    ]
    qm = pymqi.connect(qmgr.name)
    try:
        for body, reason, parameter in cases:
            answer = _raw_request(qm, body)
            assert (answer.header.CompCode, answer.header.Reason) == (C.MQCC_FAILED, reason), (reason, answer)
            assert answer.parameters == ([(C.MQIACF_PARAMETER_ID, parameter)] if parameter else []), answer
            ok = _raw_request(qm, name)  # and it serves on
            assert (ok.header.CompCode, ok.header.Reason) == (C.MQCC_OK, C.MQRC_NONE)
        md = pymqi.MD(Format=C.MQFMT_ADMIN.encode(), MsgType=C.MQMT_REQUEST, ReplyToQ=b"PCF.REPLY")
        with pymqi.Queue(qm, "SYSTEM.ADMIN.COMMAND.QUEUE", C.MQOO_OUTPUT) as queue:
            queue.put(name, md)
        gmo = pymqi.GMO(Options=C.MQGMO_WAIT, WaitInterval=60_000, MatchOptions=C.MQMO_MATCH_CORREL_ID)
        with pymqi.Queue(qm, "PCF.REPLY") as replies:
            raw = replies.get(None, pymqi.MD(CorrelId=md.MsgId), gmo)
        assert b"PAD.Q".ljust(C.MQ_Q_NAME_LENGTH) in raw  # on the wire as IBM's: blank padded to 48
    finally:
        qm.disconnect()


def test_many_responses_stream_in_order(qmgr: QMgr, run_cli: RunCli, admin: Any) -> None:
    """An inquiry of more objects than the server answers in its unit of work (``STREAMED``):
    every object, in DISPLAY's order, the summary last, to PCFExecute's own reply queue (read
    ahead) and to a named one read by CorrelId."""
    mqsc(run_cli, qmgr, "".join(f"DEFINE QLOCAL(MANY.Q{i:03d})\n" for i in range(250)) + "DEFINE QLOCAL(NAMED.REPLY)\n")
    shown = [r["QUEUE"] for r in records(mqsc(run_cli, qmgr, "DISPLAY QLOCAL(MANY.*)\n"), "AMQ8409I")]
    assert len(shown) == 250
    inquired = admin.MQCMD_INQUIRE_Q({C.MQCA_Q_NAME: b"MANY.*"})
    assert [q[C.MQCA_Q_NAME].strip().decode() for q in inquired] == shown
    named = pymqi.PCFExecute(admin.qm, reply_queue_name=b"NAMED.REPLY")
    try:
        again = named.MQCMD_INQUIRE_Q({C.MQCA_Q_NAME: b"MANY.*", C.MQIACF_Q_ATTRS: [C.MQIA_MAX_Q_DEPTH]})
    finally:
        named.disconnect()
    assert [q[C.MQCA_Q_NAME].strip().decode() for q in again] == shown
    assert {q[C.MQIA_MAX_Q_DEPTH] for q in again} == {5000}
