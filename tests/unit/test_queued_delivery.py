"""The queued interface's pure parts beside the order of checks (test_queued_rules): identity
sets (D §5.3, §6.3), version 6 commands and responses (D Annex A), and the publication forms
between command messages and the engine (D §9.1, §9.2, §16.2)."""

from __future__ import annotations

from mqlite import cmqc as C
from mqlite.core.queued import publication, registration, rfh1
from mqlite.core.queued.commands import Identity, Publish
from mqlite.core.queued.registration import Registration
from mqlite.message import Message, MessageDescriptor
from mqlite.protocol import rfh2
from mqlite.protocol.rfh2_folders import Element, parse

ID = Identity("QM1", "SUB.Q")


def reg(members: list[str], exclusive: bool = False, **kw: object) -> Registration:
    return Registration(ID, "T", members=members, exclusive=exclusive, **kw)  # type: ignore[arg-type]


def reason(result: object) -> int | None:
    refusal = result[2]  # type: ignore[index]
    return None if refusal is None else int(refusal.reason)


# -- identity sets (D:S-15) ----------------------------------------------------------------------------
def test_join_shared_adds_and_repeats_warn() -> None:
    assert registration.join(None, "app1", frozenset({"JoinShared"})) == (["app1"], False, None)
    assert registration.join(reg(["app1"]), "app2", frozenset({"JoinShared"}))[:2] == (["app1", "app2"], False)
    assert reason(registration.join(reg(["app1"]), "app1", frozenset({"JoinShared"}))) == C.MQRCCF_ALREADY_JOINED


def test_join_exclusive_rules() -> None:
    assert registration.join(reg([]), "x", frozenset({"JoinExcl"}))[:2] == (["x"], True)
    assert registration.join(reg(["x"]), "x", frozenset({"JoinExcl"}))[:2] == (["x"], True)  # shared {x} -> excl
    assert reason(registration.join(reg(["x"], True), "x", frozenset({"JoinExcl"}))) == C.MQRCCF_ALREADY_JOINED
    assert reason(registration.join(reg(["x", "y"]), "z", frozenset({"JoinExcl"}))) == C.MQRCCF_SUBSCRIPTION_IN_USE
    assert reason(registration.join(reg(["x"], True), "y", frozenset({"JoinExcl"}))) == C.MQRCCF_SUBSCRIPTION_LOCKED
    assert reason(registration.join(reg(["x"], True), "y", frozenset({"JoinShared"}))) == C.MQRCCF_SUBSCRIPTION_LOCKED
    assert registration.join(reg(["x"], True), "x", frozenset({"JoinShared"}))[:2] == (["x"], False)


def test_identity_without_join_must_be_a_member() -> None:
    assert reason(registration.join(reg(["a"]), "b", frozenset())) == C.MQRCCF_SUB_IDENTITY_ERROR
    assert registration.join(reg(["a"]), "a", frozenset()) == (["a"], False, None)


def test_alteration_only_by_the_only_member() -> None:
    assert registration.may_alter(reg(["a", "b"]), "a") is not None
    assert registration.may_alter(reg(["a"]), "a") is None
    assert registration.may_alter(reg(["a", "b"]), None) is None


def test_leave_removes_when_empty_unless_leave_only() -> None:
    assert registration.leave(reg(["a", "b"]), "a", False) == (["b"], False, None)
    assert registration.leave(reg(["a"]), "a", False) == ([], True, None)
    assert registration.leave(reg(["a"]), "a", True) == ([], False, None)
    assert registration.leave(reg(["a"]), None, False) == ([], True, None)
    assert reason(registration.leave(reg(["a"]), "z", False)) == C.MQRCCF_SUB_IDENTITY_ERROR


def test_registration_record_round_trip() -> None:
    r = Registration(Identity("QM1", "Q", b"c" * 24), "T/#", "USD", "USD", "x > 1", frozenset({"Local"}),
                     "NonPers", "S1", "ud", ["a"], True, b"t" * 32, "appl", "Sport", 1)
    back = Registration.from_record(r.to_record())
    assert back.to_record() == r.to_record()


# -- version 6 commands (D Annex A) ---------------------------------------------------------------------
def test_rfh1_pairs_become_a_psc() -> None:
    command = rfh1.to_psc([("MQPSCommand", "RegSub"), ("MQPSTopic", "A"), ("MQPSTopic", "B"),
                           ("MQPSRegOpts", str(0x00000001 | 0x00000100)), ("MQPSStreamName", "Sport"),
                           ("MQPSStringData", "s")])
    assert isinstance(command, rfh1.Rfh1Command)
    assert command.psc.values("Topic") == ["A", "B"] and command.stream == "Sport"
    assert command.psc.values("RegOpt") == ["CorrelAsId", "InformIfRet"]
    assert command.properties == {"MQPubStrIntData": "s"}
    assert rfh1.to_psc([("MQPSCommand", "RegPub"), ("MQPSTopic", "A")]).no_op  # type: ignore[union-attr]


def test_rfh1_unknown_option_bits_are_refused() -> None:
    refused = rfh1.to_psc([("MQPSCommand", "Publish"), ("MQPSPubOpts", str(1 << 20))])
    assert not isinstance(refused, rfh1.Rfh1Command) and refused.reason == C.MQRCCF_PUB_OPTIONS_ERROR


def test_rfh1_response_pairs() -> None:
    assert rfh1.response_pairs("ok", [], [("MQPSCommand", "RegSub")]) == [("MQPSCompCode", "0")]
    response = Element("Response", children=(Element("Reason", "3081"), Element("Topic", "T")))
    assert rfh1.response_pairs("warning", [response], [("MQPSCommand", "Publish")]) == [
        ("MQPSCompCode", "1"), ("MQPSReason", "3081"), ("MQPSReasonText", "MQRCCF_NOT_AUTHORIZED"),
        ("MQPSTopic", "T"), ("MQPSCommand", "Publish")]


# -- publications (D §9) ----------------------------------------------------------------------------
def test_publish_command_to_engine_publication() -> None:
    """usr to properties, mcd/jms to ``folder.name``, PubTime/SeqNum to MQPubTime/MQPubSeqNum,
    QName/QMgrName to the ReplyToQ; the body as the first MQRFH2 describes it (D §16.2)."""
    psc = parse("<psc><Command>Publish</Command><Topic>T</Topic></psc>")
    folders = (parse("<mcd><Msd>jms_text</Msd></mcd>"), psc, parse("<usr><Price dt='i4'>5</Price></usr>"))
    data = rfh2.encode([rfh2.Rfh2Header(folders, C.MQENC_NATIVE, C.MQCCSI_INHERIT, "MQSTR")], b"body")
    decoded = rfh2.decode(data)
    command = Publish(("T",), Identity("QM1", "PUB.Q"), pub_time="2026120100000000", seq_num="7")
    pub = publication.from_command(decoded, data, MessageDescriptor(CodedCharSetId=1208), command)
    assert pub.properties == {"mcd.Msd": "jms_text", "Price": 5, "MQPubTime": "2026120100000000", "MQPubSeqNum": 7}
    assert (pub.body, pub.format, pub.reply_to_q, pub.reply_to_qmgr) == (b"body", "MQSTR", "PUB.Q", "QM1")


def test_rfh2_copy_for_a_queued_subscriber() -> None:
    """D §9.1, §9.2: one Topic in the subscriber's namespace, SubPoint, IsRetainedPub with
    InformIfRet, usr back in its folder; the broker's MQMD."""
    md = MessageDescriptor(Format="MQSTR", Persistence=1, Report=C.MQRO_COA, ReplyToQ="PUB.Q", ReplyToQMgr="QM1",
                           MsgType=C.MQMT_REQUEST)
    copy = Message(md, b"x", {"MQTopicString": "USD/NYSE/IBM", "Price": 5, "mcd.Msd": "jms_text", "MQIsRetained": True})
    r = Registration(ID, "NYSE/#", "USD", "USD", options=frozenset({"InformIfRet"}), persistence="NonPers",
                     accounting_token=b"a" * 32, appl_identity="app")
    out = publication.rfh2_copy(copy, "USD/NYSE/IBM", True, "QM1", "20261201", "00000000", r)
    decoded = rfh2.decode(out.body, out.md.Format)
    psc = decoded.command()
    assert psc is not None and psc.values("Topic") == ["NYSE/IBM"] and psc.get("SubPoint") == "USD"
    assert psc.values("PubOpt") == ["IsRetainedPub"] and psc.get("QName") == "PUB.Q"
    usr = decoded.headers[0].folder("usr")
    assert usr is not None and usr.get("Price") == "5" and decoded.headers[0].folder("mcd") is not None
    assert decoded.body == b"x" and decoded.format == "MQSTR"
    m = out.md
    assert (m.Report, m.MsgType, m.Persistence, m.ReplyToQ, m.ReplyToQMgr) == (0, C.MQMT_DATAGRAM, 0, "", "QM1")
    assert (m.PutApplType, m.PutApplName, m.AccountingToken, m.ApplIdentityData) == (C.MQAT_BROKER, "QM1",
                                                                                      b"a" * 32, "app")
    assert out.properties == {}


def test_rfh1_copy_for_a_version_6_subscriber() -> None:
    copy = Message(MessageDescriptor(Format="MQSTR"), b"x", {"MQPubStrIntData": 42})
    r = Registration(ID, "Soccer/*", "Sport", stream="Sport", version=1)
    out = publication.rfh1_copy(copy, "Sport/Soccer/Results", False, "QM1", "d", "t", r)
    header, body = rfh2.decode_rfh1(out.body)
    assert header.pairs == (("MQPSCommand", "Publish"), ("MQPSStreamName", "Sport"),
                            ("MQPSTopic", "Soccer/Results"), ("MQPSIntData", "42"))
    assert body == b"x" and out.md.Format.strip() == C.MQFMT_RF_HEADER.strip()
