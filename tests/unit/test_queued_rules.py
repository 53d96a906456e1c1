"""The queued publish/subscribe interface's rules as pure functions (core/queued/) against spec D:
the order of checks of §3.6 with the reasons of §10 (D:S-04, D:S-05, D:S-06's first steps), the
vocabulary of §3.1 and §4-§8 (D:R-Q-1), the responses of §3.7 byte-exact (D:TV-3, D:TV-4,
R-RSP-2..4), the response decision (D:R-RSP-1, D:S-03), the response MQMD (D:S-21), the topic
mapping of §3.5 (D:S-13, D:S-14) and the SubName and userid rules of §5.2/§6.2 (D:S-16, A-18,
A-19, A-22), SubIdentity's length (D:S-15 step 7) and the generated subscription name (A-9)."""

from __future__ import annotations

import pytest

from mqlite import cmqc as C
from mqlite.core.queued import names as N
from mqlite.core.queued import responses as P
from mqlite.core.queued.commands import (
    DeletePub,
    DeregSub,
    Identity,
    Publish,
    QueueKind,
    Refusal,
    RegSub,
    ReqUpdate,
    parse,
)
from mqlite.message import MessageDescriptor
from mqlite.protocol import rfh2 as R
from mqlite.protocol.rfh2_folders import Element, Folder, serialize

CONTROL, STREAM = QueueKind.CONTROL, QueueKind.STREAM
MD = MessageDescriptor(MsgType=C.MQMT_REQUEST, ReplyToQ="SUB.Q", ReplyToQMgr="")


def psc(*pairs: tuple[str, str]) -> Folder:
    return Folder.of("psc", *pairs)


def reason(result: object) -> int:
    assert isinstance(result, Refusal), result
    return result.reason


# -- §3.6 steps 3 and 4: the psc folder and its Command ---------------------------------------------
def test_d_s04_no_psc_folder_is_2339() -> None:
    assert reason(parse(None, CONTROL, MD)) == C.MQRC_RFH_PARM_MISSING
    assert reason(parse([], CONTROL, MD)) == C.MQRC_RFH_PARM_MISSING


def test_d_3_6_step3_two_psc_folders_is_2338() -> None:
    one = psc(("Command", "RegSub"), ("Topic", "T"))
    assert reason(parse([one, one], CONTROL, MD)) == C.MQRC_RFH_DUPLICATE_PARM
    assert isinstance(parse([one], CONTROL, MD), RegSub)


def test_d_3_6_step4_command_missing_is_2339() -> None:
    assert reason(parse(psc(("Topic", "T")), CONTROL, MD)) == C.MQRC_RFH_PARM_MISSING


def test_d_s04_two_commands_is_2338() -> None:
    folder = psc(("Command", "RegSub"), ("Command", "RegSub"), ("Topic", "T"))
    assert reason(parse(folder, CONTROL, MD)) == C.MQRC_RFH_DUPLICATE_PARM


def test_d_s04_unknown_command_is_2336_with_command_echoed() -> None:
    result = parse(psc(("Command", "Subscribe"), ("Topic", "T")), CONTROL, MD)
    assert result == Refusal(C.MQRC_RFH_COMMAND_ERROR, (Element("Command", "Subscribe"),))


def test_d_8_register_publisher_is_not_an_rfh2_command_2336() -> None:
    assert reason(parse(psc(("Command", "RegPub"), ("Topic", "T")), STREAM, MD)) == C.MQRC_RFH_COMMAND_ERROR


def test_d_3_6_order_command_checked_before_tags() -> None:
    folder = psc(("Command", "Subscribe"), ("Colour", "red"))
    assert reason(parse(folder, CONTROL, MD)) == C.MQRC_RFH_COMMAND_ERROR


# -- §3.6 step 5: tags -------------------------------------------------------------------------------
def test_d_s04_unknown_tag_is_2337_echoed() -> None:
    result = parse(psc(("Command", "RegSub"), ("Topic", "T"), ("Colour", "red")), CONTROL, MD)
    assert result == Refusal(C.MQRC_RFH_PARM_ERROR, (Element("Colour", "red"),))


def test_d_4_tag_of_another_command_is_2337() -> None:
    assert reason(parse(psc(("Command", "Publish"), ("Topic", "T"), ("SubName", "S")), STREAM, MD)) == 2337
    assert reason(parse(psc(("Command", "RegSub"), ("Topic", "T"), ("PubOpt", "Local")), CONTROL, MD)) == 2337
    assert reason(parse(psc(("Command", "DeletePub"), ("Topic", "T"), ("QName", "Q")), STREAM, MD)) == 2337


def test_d_a26_deletepub_accepts_subpoint() -> None:
    assert parse(psc(("Command", "DeletePub"), ("Topic", "T"), ("SubPoint", "USD")), STREAM, MD) == \
        DeletePub(("T",), False, "USD")


def test_d_a6_correlid_tag_accepted_and_ignored() -> None:
    assert isinstance(parse(psc(("Command", "RegSub"), ("Topic", "T"), ("CorrelId", "x")), CONTROL, MD), RegSub)


def test_d_3_6_step5_group_element_is_2337() -> None:
    folder = Folder("psc", (Element("Command", "RegSub"), Element("Topic", "T"),
                            Element("QName", children=(Element("X", "y"),))))
    assert reason(parse(folder, CONTROL, MD)) == C.MQRC_RFH_PARM_ERROR


def test_d_s04_regsub_without_topic_is_2339() -> None:
    assert reason(parse(psc(("Command", "RegSub")), CONTROL, MD)) == C.MQRC_RFH_PARM_MISSING


def test_d_s04_requpdate_with_two_topics_is_2338() -> None:
    result = parse(psc(("Command", "ReqUpdate"), ("Topic", "A"), ("Topic", "B")), CONTROL, MD)
    assert result == Refusal(C.MQRC_RFH_DUPLICATE_PARM, (Element("Topic", "B"),))


def test_d_5_non_repeatable_tags_repeated_are_2338() -> None:
    for tag in ("SubName", "QName", "QMgrName", "SubPoint", "Filter", "SubIdentity"):
        folder = psc(("Command", "RegSub"), ("Topic", "T"), (tag, "a"), (tag, "b"))
        assert reason(parse(folder, CONTROL, MD)) == C.MQRC_RFH_DUPLICATE_PARM, tag
    assert reason(parse(psc(("Command", "DeletePub"), ("Topic", "T"), ("DelOpt", "Local"),
                            ("DelOpt", "None")), STREAM, MD)) == C.MQRC_RFH_DUPLICATE_PARM


def test_d_6_deregsub_filter_repeats_and_deregall_needs_no_topic() -> None:
    result = parse(psc(("Command", "DeregSub"), ("RegOpt", "DeregAll"), ("Filter", "a"), ("Filter", "b")),
                   CONTROL, MD)
    assert isinstance(result, DeregSub)
    assert result.topics == () and result.filters == ("a", "b")
    assert C.MQPSC_DEREGISTER_ALL in result.options


def test_d_6_1_deregsub_without_deregall_needs_topic_2339() -> None:
    assert reason(parse(psc(("Command", "DeregSub")), CONTROL, MD)) == C.MQRC_RFH_PARM_MISSING


def test_d_3_6_step5_order_unknown_tag_before_duplicate_before_missing() -> None:
    folder = psc(("Command", "RegSub"), ("QName", "a"), ("QName", "b"), ("Colour", "red"))
    assert reason(parse(folder, CONTROL, MD)) == C.MQRC_RFH_PARM_ERROR
    folder = psc(("Command", "RegSub"), ("QName", "a"), ("QName", "b"))
    assert reason(parse(folder, CONTROL, MD)) == C.MQRC_RFH_DUPLICATE_PARM


# -- §3.6 step 6: options ----------------------------------------------------------------------------
def test_d_tv4_d_s04_unknown_regopt_is_3083_echoed() -> None:
    folder = psc(("Command", "RegSub"), ("RegOpt", "Bogus"), ("Topic", "Sport/Soccer/#"), ("QName", "RESULTS.Q"))
    assert parse(folder, CONTROL, MD) == Refusal(C.MQRCCF_REG_OPTIONS_ERROR, (Element("RegOpt", "Bogus"),))


def test_d_s04_unknown_pubopt_is_3084() -> None:
    result = parse(psc(("Command", "Publish"), ("Topic", "T"), ("PubOpt", "Bogus")), STREAM, MD)
    assert result == Refusal(C.MQRCCF_PUB_OPTIONS_ERROR, (Element("PubOpt", "Bogus"),))


def test_d_s04_unknown_delopt_is_3087() -> None:
    result = parse(psc(("Command", "DeletePub"), ("Topic", "T"), ("DelOpt", "All")), STREAM, MD)
    assert result == Refusal(C.MQRCCF_DEL_OPTIONS_ERROR, (Element("DelOpt", "All"),))


@pytest.mark.parametrize(("command", "option"), [
    ("DeregSub", "NewPubsOnly"), ("ReqUpdate", "PubOnReqOnly"), ("ReqUpdate", "DeregAll"), ("RegSub", "DeregAll"),
])
def test_d_6_d_7_d_a45_options_of_another_command_are_3083(command: str, option: str) -> None:
    folder = psc(("Command", command), ("Topic", "T"), ("RegOpt", option))
    assert reason(parse(folder, CONTROL, MD)) == C.MQRCCF_REG_OPTIONS_ERROR


def test_d_a7_dupsok_and_locked_accepted() -> None:
    folder = psc(("Command", "RegSub"), ("Topic", "T"), ("RegOpt", "DupsOK"), ("RegOpt", "Locked"))
    assert isinstance(parse(folder, CONTROL, MD), RegSub)


def test_d_s17_fullresp_with_two_topics_is_3083() -> None:
    folder = psc(("Command", "RegSub"), ("Topic", "A"), ("Topic", "B"), ("RegOpt", "FullResp"))
    assert parse(folder, CONTROL, MD) == Refusal(C.MQRCCF_REG_OPTIONS_ERROR, (Element("RegOpt", "FullResp"),))


def test_d_6_1_deregsub_fullresp_with_two_topics_or_deregall_is_3083() -> None:
    """D:S-09 (d), (e), (f): FullResp with two Topics or with DeregAll, LeaveOnly without
    SubIdentity."""
    folder = psc(("Command", "DeregSub"), ("Topic", "A"), ("Topic", "B"), ("RegOpt", "FullResp"))
    assert reason(parse(folder, CONTROL, MD)) == C.MQRCCF_REG_OPTIONS_ERROR
    folder = psc(("Command", "DeregSub"), ("RegOpt", "DeregAll"), ("RegOpt", "FullResp"))
    assert reason(parse(folder, CONTROL, MD)) == C.MQRCCF_REG_OPTIONS_ERROR
    folder = psc(("Command", "DeregSub"), ("Topic", "A"), ("RegOpt", "LeaveOnly"))
    assert reason(parse(folder, CONTROL, MD)) == C.MQRCCF_REG_OPTIONS_ERROR
    folder = psc(("Command", "DeregSub"), ("Topic", "A"), ("RegOpt", "FullResp"))
    assert isinstance(parse(folder, CONTROL, MD), DeregSub)


def test_d_5_1_addname_without_subname_is_3083() -> None:
    folder = psc(("Command", "RegSub"), ("Topic", "T"), ("RegOpt", "AddName"))
    assert reason(parse(folder, CONTROL, MD)) == C.MQRCCF_REG_OPTIONS_ERROR
    folder = psc(("Command", "RegSub"), ("Topic", "T"), ("RegOpt", "AddName"), ("SubName", "S1"))
    assert isinstance(parse(folder, CONTROL, MD), RegSub)


def test_d_3_1_none_with_others_is_ignored_and_alone_resets() -> None:
    result = parse(psc(("Command", "RegSub"), ("Topic", "T"), ("RegOpt", "None"), ("RegOpt", "Local")), CONTROL, MD)
    assert isinstance(result, RegSub) and result.options == {C.MQPSC_LOCAL}
    alone = parse(psc(("Command", "RegSub"), ("Topic", "T"), ("RegOpt", "None")), CONTROL, MD)
    omitted = parse(psc(("Command", "RegSub"), ("Topic", "T")), CONTROL, MD)
    assert isinstance(alone, RegSub) and isinstance(omitted, RegSub)
    assert alone.options == omitted.options == frozenset()
    assert alone.options_given and not omitted.options_given  # None resets, omitted keeps (§5.1)


def test_d_s18_last_persistence_option_wins_default_persaspub() -> None:
    result = parse(psc(("Command", "RegSub"), ("Topic", "T"), ("RegOpt", "Pers"), ("RegOpt", "NonPers")),
                   CONTROL, MD)
    assert isinstance(result, RegSub) and result.persistence == C.MQPSC_NON_PERSISTENT
    default = parse(psc(("Command", "RegSub"), ("Topic", "T")), CONTROL, MD)
    assert isinstance(default, RegSub) and default.persistence == C.MQPSC_PERSISTENT_AS_PUBLISH


def test_d_a15_isretainedpub_from_an_application_is_ignored() -> None:
    result = parse(psc(("Command", "Publish"), ("Topic", "T"), ("PubOpt", "IsRetainedPub"),
                       ("PubOpt", "RetainPub")), STREAM, MD)
    assert isinstance(result, Publish) and result.options == {C.MQPSC_RETAIN_PUB}


# -- §3.6 step 7: the queue (R-Q-1) ------------------------------------------------------------------
def test_d_r_q_1_d_s05_regsub_on_a_stream_queue_is_3079() -> None:
    assert reason(parse(psc(("Command", "RegSub"), ("Topic", "T")), STREAM, MD)) == C.MQRCCF_INCORRECT_Q


def test_d_r_q_1_d_s05_publish_on_the_control_queue_is_3079() -> None:
    assert reason(parse(psc(("Command", "Publish"), ("Topic", "T")), CONTROL, MD)) == C.MQRCCF_INCORRECT_Q
    assert reason(parse(psc(("Command", "DeletePub"), ("Topic", "T")), CONTROL, MD)) == C.MQRCCF_INCORRECT_Q
    for command in ("DeregSub", "ReqUpdate"):
        assert reason(parse(psc(("Command", command), ("Topic", "T")), STREAM, MD)) == C.MQRCCF_INCORRECT_Q


def test_d_3_6_order_options_before_queue() -> None:
    folder = psc(("Command", "RegSub"), ("Topic", "T"), ("RegOpt", "Bogus"))
    assert reason(parse(folder, STREAM, MD)) == C.MQRCCF_REG_OPTIONS_ERROR


# -- §3.6 step 8: identity (§3.4) --------------------------------------------------------------------
def test_d_3_4_identity_defaults_from_the_mqmd_and_local_name() -> None:
    result = parse(psc(("Command", "RegSub"), ("Topic", "T")), CONTROL, MD, local_qmgr="QM1")
    assert isinstance(result, RegSub) and result.identity == Identity("QM1", "SUB.Q")
    md = MessageDescriptor(ReplyToQ="R.Q   ", ReplyToQMgr="QM2   ")
    result = parse(psc(("Command", "RegSub"), ("Topic", "T")), CONTROL, md, local_qmgr="QM1")
    assert isinstance(result, RegSub) and result.identity == Identity("QM2", "R.Q")
    result = parse(psc(("Command", "RegSub"), ("Topic", "T"), ("QMgrName", "QM3"), ("QName", "MY.Q")),
                   CONTROL, md, local_qmgr="QM1")
    assert isinstance(result, RegSub) and result.identity == Identity("QM3", "MY.Q")


def test_d_a8_blank_queue_name_is_3076() -> None:
    md = MessageDescriptor(MsgType=C.MQMT_REQUEST)
    for command in ("RegSub", "DeregSub", "ReqUpdate"):
        assert reason(parse(psc(("Command", command), ("Topic", "T")), CONTROL, md)) == C.MQRCCF_Q_NAME_ERROR
    assert isinstance(parse(psc(("Command", "Publish"), ("Topic", "T")), STREAM, md), Publish)
    folder = psc(("Command", "Publish"), ("Topic", "T"), ("PubOpt", "OtherSubsOnly"))
    assert reason(parse(folder, STREAM, md)) == C.MQRCCF_Q_NAME_ERROR


def test_d_s06_correlasid_with_mqci_none_is_3080() -> None:
    folder = psc(("Command", "RegSub"), ("Topic", "T"), ("RegOpt", "CorrelAsId"))
    assert reason(parse(folder, CONTROL, MD)) == C.MQRCCF_CORREL_ID_ERROR
    md = MessageDescriptor(ReplyToQ="SUB.Q", CorrelId=b"C" * 24)
    result = parse(folder, CONTROL, md, local_qmgr="QM1")
    assert isinstance(result, RegSub) and result.identity == Identity("QM1", "SUB.Q", b"C" * 24)
    publish = psc(("Command", "Publish"), ("Topic", "T"), ("PubOpt", "CorrelAsId"))
    assert reason(parse(publish, STREAM, MD)) == C.MQRCCF_CORREL_ID_ERROR


def test_d_3_6_order_queue_before_identity() -> None:
    md = MessageDescriptor()
    assert reason(parse(psc(("Command", "RegSub"), ("Topic", "T")), STREAM, md)) == C.MQRCCF_INCORRECT_Q


# -- §3.6 step 9: topics -----------------------------------------------------------------------------
def test_d_s04_publish_topic_with_wildcard_is_3072() -> None:
    for topic in ("Sport/#", "Sport/+/Results"):
        result = parse(psc(("Command", "Publish"), ("Topic", topic)), STREAM, MD)
        assert result == Refusal(C.MQRCCF_TOPIC_ERROR, (Element("Topic", topic),))


def test_d_s04_empty_topic_is_3072() -> None:
    assert reason(parse(psc(("Command", "Publish"), ("Topic", "")), STREAM, MD)) == C.MQRCCF_TOPIC_ERROR
    assert reason(parse(psc(("Command", "RegSub"), ("Topic", "")), CONTROL, MD)) == C.MQRCCF_TOPIC_ERROR


def test_d_a41_topic_longer_than_10240_is_3072() -> None:
    assert isinstance(parse(psc(("Command", "RegSub"), ("Topic", "a" * 10240)), CONTROL, MD), RegSub)
    assert reason(parse(psc(("Command", "RegSub"), ("Topic", "a" * 10241)), CONTROL, MD)) == C.MQRCCF_TOPIC_ERROR


def test_d_5_regsub_and_deletepub_allow_wildcards() -> None:
    assert isinstance(parse(psc(("Command", "RegSub"), ("Topic", "Sport/Soccer/#")), CONTROL, MD), RegSub)
    assert isinstance(parse(psc(("Command", "DeletePub"), ("Topic", "Sport/#")), STREAM, MD), DeletePub)


def test_d_3_6_order_identity_before_topic() -> None:
    md = MessageDescriptor()
    assert reason(parse(psc(("Command", "RegSub"), ("Topic", "")), CONTROL, md)) == C.MQRCCF_Q_NAME_ERROR


# -- the typed commands ------------------------------------------------------------------------------
def test_d_4_publish_values() -> None:
    folder = psc(("Command", "Publish"), ("Topic", "A"), ("Topic", "B"), ("PubOpt", "RetainPub"),
                 ("PubOpt", "Local"), ("PubTime", "2026120123000000"), ("SeqNum", "7"), ("SubPoint", "USD"))
    assert parse(folder, STREAM, MD, local_qmgr="QM1") == Publish(
        ("A", "B"), Identity("QM1", "SUB.Q"), frozenset({"RetainPub", "Local"}), "USD", "2026120123000000", "7")


def test_d_5_regsub_values() -> None:
    folder = psc(("Command", "RegSub"), ("Topic", "A"), ("RegOpt", "CorrelAsId"), ("RegOpt", "NonPers"),
                 ("SubUserData", "hello"), ("SubName", "S1"), ("SubIdentity", "I1"), ("Filter", "x = 1"))
    md = MessageDescriptor(ReplyToQ="SUB.Q", CorrelId=b"C" * 24)
    assert parse(folder, CONTROL, md, local_qmgr="QM1") == RegSub(
        ("A",), Identity("QM1", "SUB.Q", b"C" * 24), frozenset({"CorrelAsId"}), "NonPers", True, None, "x = 1",
        "S1", "I1", "hello")


def test_d_7_requpdate_values() -> None:
    folder = psc(("Command", "ReqUpdate"), ("Topic", "A/#"), ("RegOpt", "VariableUserId"), ("SubName", "S1"))
    assert parse(folder, CONTROL, MD, local_qmgr="QM1") == ReqUpdate(
        "A/#", Identity("QM1", "SUB.Q"), frozenset({"VariableUserId"}), None, None, "S1")


def test_d_8_deletepub_local() -> None:
    assert parse(psc(("Command", "DeletePub"), ("Topic", "A"), ("DelOpt", "Local")), STREAM, MD) == \
        DeletePub(("A",), True)
    assert parse(psc(("Command", "DeletePub"), ("Topic", "A"), ("DelOpt", "None")), STREAM, MD) == DeletePub(("A",))


# -- §3.7 responses ----------------------------------------------------------------------------------
TV3 = bytes.fromhex(
    "52464820020000005000000022020000feffffff2020202020202020000000"
    "00b8040000280000003c707363723e3c436f6d706c6574696f6e3e6f6b3c2f436f"
    "6d706c6574696f6e3e3c2f707363723e")
TV4_PSC = b"<psc><Command>RegSub</Command><RegOpt>Bogus</RegOpt><Topic>Sport/Soccer/#</Topic>" \
          b"<QName>RESULTS.Q</QName></psc> "
TV4_PSCR = b"<pscr><Completion>error</Completion><Response><Reason>3083</Reason><RegOpt>Bogus</RegOpt>" \
           b"</Response></pscr> "
TV4 = (bytes.fromhex("524648200200000008010000220200 00feffffff2020202020202020000000 00b8040000".replace(" ", ""))
       + (108).to_bytes(4, "little") + TV4_PSCR + (112).to_bytes(4, "little") + TV4_PSC)


def test_d_tv3_ok_response_byte_exact() -> None:
    assert P.response_data(P.ok()) == TV3
    assert P.response_data(P.ok(), psc=TV4_PSC) == TV3  # ok: no psc copy


def test_d_tv4_error_response_byte_exact() -> None:
    folder = psc(("Command", "RegSub"), ("RegOpt", "Bogus"), ("Topic", "Sport/Soccer/#"), ("QName", "RESULTS.Q"))
    refusal = parse(folder, CONTROL, MD)
    assert isinstance(refusal, Refusal)
    data = P.response_data(P.error(refusal), psc=TV4_PSC)
    assert len(data) == 264 and data == TV4
    decoded = R.decode(data)
    assert decoded.headers[0].folders[0] == P.error(refusal)


def test_d_r_rsp_2_r_rsp_3_warning_has_one_response_per_warning() -> None:
    pscr = P.warning([Refusal(3081, (Element("Topic", "topic1"),)), Refusal(3081, (Element("Topic", "topic2"),))])
    assert serialize(pscr) == (
        "<pscr><Completion>warning</Completion><Response><Reason>3081</Reason><Topic>topic1</Topic></Response>"
        "<Response><Reason>3081</Reason><Topic>topic2</Topic></Response></pscr>")
    with pytest.raises(ValueError):
        P.warning([])


def test_d_r_rsp_2_error_has_exactly_one_response() -> None:
    assert serialize(P.error(Refusal(3150))) == \
        "<pscr><Completion>error</Completion><Response><Reason>3150</Reason></Response></pscr>"


def test_d_r_rsp_4_ok_has_no_response() -> None:
    assert P.ok().child(C.MQPSCR_RESPONSE) is None and P.completion(P.ok()) == "ok"


@pytest.mark.parametrize(("msg_type", "report", "ok", "warning", "error"), [
    (C.MQMT_REQUEST, 0, True, True, True),
    (C.MQMT_REQUEST, C.MQRO_PAN, True, True, True),
    (C.MQMT_DATAGRAM, C.MQRO_PAN, True, True, False),
    (C.MQMT_DATAGRAM, C.MQRO_NAN, False, True, True),
    (C.MQMT_DATAGRAM, C.MQRO_PAN | C.MQRO_NAN, True, True, True),
    (C.MQMT_DATAGRAM, 0, False, False, False),
    (C.MQMT_REPLY, C.MQRO_NAN, False, True, True),  # other MsgTypes as DATAGRAM (DECISION)
    (C.MQMT_REPORT, 0, False, False, False),
])
def test_d_r_rsp_1_response_required(msg_type: int, report: int, ok: bool, warning: bool, error: bool) -> None:
    md = MessageDescriptor(MsgType=msg_type, Report=report)
    assert (P.response_required(md, "ok"), P.response_required(md, "warning"),
            P.response_required(md, "error")) == (ok, warning, error)


def test_d_s03_datagram_report_pan_with_invalid_command_gets_no_response() -> None:
    md = MessageDescriptor(MsgType=C.MQMT_DATAGRAM, Report=C.MQRO_PAN, ReplyToQ="SUB.Q")
    result = parse(psc(("Command", "Subscribe")), CONTROL, md)
    assert isinstance(result, Refusal)
    assert not P.response_required(md, P.completion(P.error(result)))
    nan = MessageDescriptor(MsgType=C.MQMT_DATAGRAM, Report=C.MQRO_NAN, ReplyToQ="SUB.Q")
    assert P.response_required(nan, "error") and reason(parse(psc(("Command", "Subscribe")), CONTROL, nan)) == 2336


def test_d_s21_response_md_correlation_and_copies() -> None:
    command = MessageDescriptor(MsgType=C.MQMT_REQUEST, MsgId=b"M9".ljust(24, b"\0"), CorrelId=b"C9".ljust(24, b"\0"),
                                Report=C.MQRO_PASS_CORREL_ID, Priority=7, Persistence=1, Expiry=600,
                                UserIdentifier="alice", ApplIdentityData="app")
    md = P.response_md(command, "QM1" * 12)
    assert md.CorrelId == command.CorrelId and md.MsgId == C.MQMI_NONE
    assert (md.Priority, md.Persistence, md.Expiry) == (7, 1, 600)
    assert (md.MsgType, md.Report, md.Format) == (C.MQMT_REPLY, 0, C.MQFMT_RF_HEADER_2)
    assert md.PutApplType == C.MQAT_BROKER and md.PutApplName == ("QM1" * 12)[:28]
    assert (md.UserIdentifier, md.ApplIdentityData) == ("alice", "app")
    passed = P.response_md(MessageDescriptor(MsgId=command.MsgId, CorrelId=command.CorrelId,
                                             Report=C.MQRO_PASS_MSG_ID), "QM1")
    assert passed.MsgId == command.MsgId and passed.CorrelId == command.MsgId
    default = P.response_md(MessageDescriptor(MsgId=command.MsgId, CorrelId=command.CorrelId), "QM1")
    assert default.CorrelId == command.MsgId and default.MsgId == C.MQMI_NONE


# -- §3.5 topic mapping, §5.2 / §6.2 subscription names (core/queued/names.py) -----------------------
QM1_SUB = Identity("QM1", "SUB.Q")


def test_d_3_5_d_s13_stream_prefix_and_full_topic() -> None:
    assert N.full_topic("Soccer/Results", N.stream_prefix("Sport", "Sport")) == "Sport/Soccer/Results"
    assert N.full_topic("Soccer/Results", N.stream_prefix("Sport", "xyz")) == "xyz/Soccer/Results"
    assert N.stream_prefix("SYSTEM.BROKER.DEFAULT.STREAM", "anything") == ""
    assert N.full_topic("Soccer/Results", N.stream_prefix("SYSTEM.BROKER.DEFAULT.STREAM", None)) == "Soccer/Results"


def test_d_3_5_d_s14_subscription_point_prefix() -> None:
    assert N.full_topic("NYSE/IBM/SPOT", "", "USD", {"USD", "GBP"}) == "USD/NYSE/IBM/SPOT"


def test_d_s14_d_a10_unknown_subpoint_is_2337_echoed() -> None:
    assert N.full_topic("NYSE/IBM/SPOT", "", "EUR", {"USD", "GBP"}) == \
        Refusal(C.MQRC_RFH_PARM_ERROR, (Element("SubPoint", "EUR"),))


def test_d_a11_stream_then_subpoint_then_topic() -> None:
    assert N.full_topic("T", "Sport", "USD", {"USD"}) == "Sport/USD/T"


def test_d_3_5_step4_reverse_mapping_for_delivery() -> None:
    assert N.subscriber_topic("USD/NYSE/IBM/SPOT", "", "USD") == "NYSE/IBM/SPOT"
    assert N.subscriber_topic("Sport/Soccer/Results", "Sport") == "Soccer/Results"
    assert N.subscriber_topic("Soccer/Results") == "Soccer/Results"


def test_d_s16_step2_unnamed_match_named_without_addname_is_3152() -> None:
    key = N.SubKey("T", None, QM1_SUB)
    unnamed = N.Existing(key, None, "alice")
    assert N.regsub_name("S1", key, False, None, unnamed) == \
        Refusal(C.MQRCCF_DUPLICATE_SUBSCRIPTION, (Element("SubName", "S1"),))


def test_d_s16_step3_addname_names_the_unnamed_match() -> None:
    key = N.SubKey("T", None, QM1_SUB)
    assert N.regsub_name("S1", key, True, None, N.Existing(key, None, "alice")) is None


def test_d_5_2_a_name_once_added_is_not_renamed_3152() -> None:
    key = N.SubKey("T", None, QM1_SUB)
    assert N.regsub_name("S2", key, True, None, N.Existing(key, "S1", "alice")) == \
        Refusal(C.MQRCCF_DUPLICATE_SUBSCRIPTION, (Element("SubName", "S2"),))


def test_d_s16_step6_d_a18_named_subscription_topic_cannot_change_3153() -> None:
    named = N.Existing(N.SubKey("T", None, QM1_SUB), "S1", "alice")
    for key in (N.SubKey("T2", None, QM1_SUB), N.SubKey("T", "x = 1", QM1_SUB),
                N.SubKey("T", None, Identity("QM1", "OTHER.Q")),
                N.SubKey("T", None, Identity("QM1", "SUB.Q", b"C" * 24))):
        assert N.regsub_name("S1", key, False, named, None) == \
            Refusal(C.MQRCCF_SUB_NAME_ERROR, (Element("SubName", "S1"),))
    assert N.regsub_name("S1", named.key, False, named, named) is None  # options etc. may change
    assert N.regsub_name(None, named.key, False, None, named) is None


def test_d_6_2_d_a19_deregsub_name_with_unnamed_traditional_match_is_3153() -> None:
    unnamed = N.Existing(N.SubKey("T", None, QM1_SUB), None, "alice")
    assert N.named_lookup("S1", None, unnamed) == Refusal(C.MQRCCF_SUB_NAME_ERROR, (Element("SubName", "S1"),))
    assert N.named_lookup("S1", None, None) is None  # nothing at all: the caller's 3073
    assert N.named_lookup(None, None, unnamed) is None


def test_d_s16_step5_other_user_by_subname_is_3078() -> None:
    named = N.Existing(N.SubKey("T", None, QM1_SUB), "S1", "alice")
    assert N.user_allowed(named, "mallory", by_name=True) == Refusal(C.MQRCCF_DUPLICATE_IDENTITY)
    assert N.user_allowed(named, "alice       ", by_name=True) is None


def test_d_a22_other_user_by_traditional_identity_is_3151_unless_variable_user_id() -> None:
    existing = N.Existing(N.SubKey("T", None, QM1_SUB), None, "alice")
    assert N.user_allowed(existing, "bob", by_name=False) == Refusal(C.MQRCCF_WRONG_USER)
    variable = N.Existing(existing.key, None, "alice", variable_user_id=True)
    assert N.user_allowed(variable, "bob", by_name=False) is None


def test_d_s15_step7_sub_identity_of_65_characters_is_3154() -> None:
    assert N.check_sub_identity("a" * 64) is None and N.check_sub_identity(None) is None
    assert N.check_sub_identity("a" * 65) == Refusal(C.MQRCCF_SUB_IDENTITY_ERROR, (Element("SubIdentity", "a" * 65),))


def test_d_3_4_d_a9_generated_name_deterministic_per_key() -> None:
    one = N.generated_name(QM1_SUB, "T")
    assert one.startswith("QPUBSUB:") and one == N.generated_name(Identity("QM1", "SUB.Q"), "T")
    others = {N.generated_name(QM1_SUB, "U"), N.generated_name(QM1_SUB, "T", "USD"),
              N.generated_name(QM1_SUB, "T", filter="x = 1"), N.generated_name(QM1_SUB, "T", stream="Sport"),
              N.generated_name(Identity("QM1", "SUB.Q", b"C" * 24), "T")}
    assert one not in others and len(others) == 5
