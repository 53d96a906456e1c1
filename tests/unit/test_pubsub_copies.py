"""Each delivered copy in core: MQMD and properties, publishing options, levels, grouping, ordering,
syncpoint and delivery failures (spec C §2, §5-7, §9-10: SC-PROP, SC-PO, SC-INT, SC-GR, SC-ORD,
SC-PS, SC-SUB-08; spec A R-CMP-4)."""

from __future__ import annotations

from typing import Any

import pytest

from mqlite import cmqc as C
from mqlite.core.security.service import administrator
from mqlite.message import NULL_ID

SET_CORREL = C.MQSO_SET_CORREL_ID
GROUP = C.MQSO_GROUP_SUB
C1 = b"C1".ljust(24, b"\0")
C2 = b"C2".ljust(24, b"\0")
C0 = b"C0".ljust(24, b"\0")


def bodies(mq: Any, handle: Any) -> list[bytes]:
    return [r.body for r in mq.got(handle)]


def app_queue(mq: Any, name: str = "Q", **attrs: Any) -> Any:
    mq.define(name, **attrs)
    return mq.open(name, C.MQOO_INPUT_AS_Q_DEF | C.MQOO_BROWSE)


# -- properties (SC-PROP) ----------------------------------------------------------------------
def test_topic_string_property_is_the_publication_topic(mq: Any) -> None:  # C:SC-PROP-01
    _, q = mq.managed("Sport/#")
    mq.pub("Sport/Football/Results")
    [copy] = mq.got(q)
    assert copy.message.properties["MQTopicString"] == "Sport/Football/Results"


def test_sub_user_data_only_when_set(mq: Any) -> None:  # C:SC-PROP-02
    _, with_data = mq.managed("UD/T", SubUserData="desk-7")
    _, without = mq.managed("UD/T")
    mq.pub("UD/T")
    assert mq.got(with_data)[0].message.properties["MQSubUserData"] == "desk-7"
    assert "MQSubUserData" not in mq.got(without)[0].message.properties


def test_generated_correl_id_per_subscription(mq: Any) -> None:  # C:SC-PROP-04, C:SC-SUB-08
    q = app_queue(mq)
    _, _, out1 = mq.sub("Sport/#", C.MQSO_CREATE, queue=q)
    _, _, out2 = mq.sub("Sport/Football", C.MQSO_CREATE, queue=q)
    c1, c2 = out1["SubCorrelId"], out2["SubCorrelId"]
    assert NULL_ID not in (c1, c2) and c1 != c2
    mq.pub("Sport/Football")
    assert mq.depth("Q") == 2
    assert mq.get(q, correl_id=c2).message.md.CorrelId == c2
    with mq.raises(C.MQRC_NO_MSG_AVAILABLE):
        mq.get(q, correl_id=c2)
    mq.pub("Sport/Tennis")
    assert [r.message.md.CorrelId for r in mq.got(q)] == [c1, c1]


def test_user_correl_id_and_the_publishers(mq: Any) -> None:  # C:SC-PROP-05, C:SC-PROP-06
    _, mine = mq.managed("CI/T", SET_CORREL, SubCorrelId=C1)
    _, theirs = mq.managed("CI/T", SET_CORREL, SubCorrelId=NULL_ID)
    mq.pub("CI/T", CorrelId=C0)
    assert mq.got(mine)[0].message.md.CorrelId == C1
    assert mq.got(theirs)[0].message.md.CorrelId == C0


def test_pub_priority(mq: Any) -> None:  # C:SC-PROP-07
    _, as_published = mq.managed("PR/T")
    _, fixed = mq.managed("PR/T", PubPriority=2)
    q = app_queue(mq, "PRQ", DEFPRTY=4)
    mq.sub("PR/T", C.MQSO_CREATE, queue=q, PubPriority=C.MQPRI_PRIORITY_AS_Q_DEF)
    mq.pub("PR/T", Priority=7)
    assert mq.got(as_published)[0].message.md.Priority == 7
    assert mq.got(fixed)[0].message.md.Priority == 2
    assert mq.got(q)[0].message.md.Priority == 4
    with mq.raises(C.MQRC_PRIORITY_ERROR):
        mq.managed("PR/T", PubPriority=-7)


def test_default_identity_context(mq: Any) -> None:  # C:SC-PROP-09
    alice = mq.qm.connect(administrator("alice"))
    bob = mq.qm.connect(administrator("bob"))
    _, q = mq.managed("ID/T", conn=alice)
    mq.pub("ID/T", conn=bob, pmo=C.MQPMO_NO_SYNCPOINT)
    [copy] = mq.got(q, conn=alice)
    assert copy.message.md.UserIdentifier == "alice"
    assert copy.message.md.ApplIdentityData == ""
    assert copy.message.md.AccountingToken == bytes(32)


def test_set_identity_context(mq: Any) -> None:  # C:SC-PROP-10
    token = b"T1".ljust(32, b"\0")
    _, q = mq.managed("ID/S", C.MQSO_SET_IDENTITY_CONTEXT, PubAccountingToken=token, PubApplIdentityData="SUBAPP")
    mq.pub("ID/S")
    md = mq.got(q)[0].message.md
    assert (md.AccountingToken, md.ApplIdentityData) == (token, "SUBAPP")


def test_persistence_is_kept(mq: Any) -> None:  # C:SC-PS-01
    _, nd = mq.managed("PS/T")
    _, d = mq.managed("PS/T", C.MQSO_DURABLE, SubName="PSD")
    q = app_queue(mq)
    mq.sub("PS/T", C.MQSO_CREATE, queue=q)
    mq.pub("PS/T", b"p", Persistence=1)
    mq.pub("PS/T", b"n", Persistence=0)
    for handle in (nd, d, q):
        assert [r.message.md.Persistence for r in mq.got(handle)] == [1, 0]


# -- publishing options (SC-PO) -----------------------------------------------------------------
def test_suppress_reply_to(mq: Any) -> None:  # C:SC-PO-01
    _, q = mq.managed("PO/R")
    mq.pub("PO/R", b"s", C.MQPMO_SUPPRESS_REPLYTO, ReplyToQ="REPLYQ")
    mq.pub("PO/R", b"k", ReplyToQ="REPLYQ")
    first, second = mq.got(q)
    assert (first.message.md.ReplyToQ, first.message.md.ReplyToQMgr) == ("", "")
    assert (second.message.md.ReplyToQ, second.message.md.ReplyToQMgr) == ("REPLYQ", "QM1")


def test_suppress_reply_to_with_a_report_needing_it(mq: Any) -> None:  # C:SC-PO-02
    _, q = mq.managed("PO/R2")
    with mq.raises(C.MQRC_MISSING_REPLY_TO_Q):
        mq.pub("PO/R2", b"x", C.MQPMO_SUPPRESS_REPLYTO, Report=C.MQRO_COA, ReplyToQ="R")
    assert bodies(mq, q) == []


def test_warn_if_no_subs_matched(mq: Any) -> None:  # C:SC-PO-03..06
    mq.pub("PO/None", b"x", C.MQPMO_WARN_IF_NO_SUBS_MATCHED | C.MQPMO_RETAIN)
    assert mq.conn.warning == C.MQRC_NO_SUBS_MATCHED
    _, q = mq.managed("PO/None")
    assert bodies(mq, q) == [b"x"]  # retained all the same (SC-PO-04)
    mq.pub("PO/None", b"y", C.MQPMO_WARN_IF_NO_SUBS_MATCHED)
    assert mq.conn.warning == 0  # SC-PO-05
    mq.managed("PO/Req", C.MQSO_PUBLICATIONS_ON_REQUEST)
    mq.pub("PO/Req", b"z", C.MQPMO_WARN_IF_NO_SUBS_MATCHED)
    assert mq.conn.warning == C.MQRC_NO_SUBS_MATCHED  # SC-PO-06


def test_grouped_or_segmented_messages_cannot_be_published(mq: Any) -> None:  # C:SC-ORD-03
    _, q = mq.managed("ORD/G")
    for flags in (C.MQMF_MSG_IN_GROUP, C.MQMF_SEGMENT):
        with mq.raises(C.MQRC_MSG_NOT_ALLOWED_IN_GROUP):
            mq.pub("ORD/G", MsgFlags=flags)
    assert bodies(mq, q) == []


def test_order_is_kept_per_publisher(mq: Any) -> None:  # C:SC-ORD-01
    _, q = mq.managed("Ord/T", C.MQSO_DURABLE, SubName="ORD")
    handle = mq.topic("Ord/T")
    for i in range(100):
        mq.pub(handle, f"m{i}".encode())
    assert bodies(mq, q) == [f"m{i}".encode() for i in range(100)]


@pytest.mark.parametrize(("sequence", "expected"), [("PRIORITY", [b"m2", b"m1"]), ("FIFO", [b"m1", b"m2"])])
def test_priority_may_reorder(mq: Any, sequence: str, expected: list[bytes]) -> None:  # C:SC-ORD-02
    q = app_queue(mq, MSGDLVSQ=sequence)
    mq.sub("Ord/P", C.MQSO_CREATE, queue=q)
    mq.pub("Ord/P", b"m1", Priority=0)
    mq.pub("Ord/P", b"m2", Priority=9)
    assert bodies(mq, q) == expected


def test_backed_out_publication_reaches_nobody(mq: Any) -> None:  # A:R-CMP-4
    _, q = mq.managed("UOW/T")
    mq.pub("UOW/T", b"gone", C.MQPMO_SYNCPOINT)
    assert bodies(mq, q) == []
    mq.qm.backout(mq.conn)
    mq.pub("UOW/T", b"kept", C.MQPMO_SYNCPOINT)
    mq.qm.commit(mq.conn)
    assert bodies(mq, q) == [b"kept"]


def test_full_destination_goes_to_the_dead_letter_queue(mq: Any) -> None:  # C:R-ORD-3
    q = app_queue(mq, MAXDEPTH=1)
    mq.sub("DLQ/T", C.MQSO_CREATE, queue=q)
    mq.pub("DLQ/T", b"1")
    mq.pub("DLQ/T", b"2")
    assert mq.depth("Q") == 1
    assert mq.depth("SYSTEM.DEAD.LETTER.QUEUE") == 1


def test_pmsgdlv_all_fails_the_publication_when_a_copy_cannot_go_anywhere(mq: Any) -> None:
    mq.qm.alter("QMGR", "", {"DEADQ": ""})
    mq.qm.define("TOPIC", "STRICT", {"TOPICSTR": "Strict", "PMSGDLV": "ALL", "NPMSGDLV": "ALLAVAIL"})
    full = app_queue(mq, "FULL", MAXDEPTH=0)
    mq.sub("Strict/x", C.MQSO_CREATE, queue=full)
    _, ok = mq.managed("Strict/x")
    with mq.raises(C.MQRC_PUBLICATION_FAILURE):
        mq.pub("Strict/x", b"p", Persistence=1)
    assert bodies(mq, ok) == []  # nothing of a failed publication is delivered
    mq.pub("Strict/x", b"n", Persistence=0)  # ALLAVAIL: the others get it
    assert bodies(mq, ok) == [b"n"]


# -- subscription levels (SC-INT) ------------------------------------------------------------------
def test_single_interceptor(mq: Any) -> None:  # C:SC-INT-01
    _, s9 = mq.managed("Int/T", SET_CORREL, SubLevel=9, SubCorrelId=NULL_ID)
    _, s1a = mq.managed("Int/T", SET_CORREL, SubCorrelId=NULL_ID)
    _, s1b, out = mq.sub("Int/T", C.MQSO_CREATE | C.MQSO_MANAGED)
    mq.pub("Int/T", b"m", Priority=5, CorrelId=C0)
    assert bodies(mq, s1a) == [] and bodies(mq, s1b) == []
    [m] = mq.got(s9)
    assert (m.message.md.CorrelId, m.message.md.Priority) == (C0, 5)
    handle = mq.topic(str(m.message.properties["MQTopicString"]), options=C.MQOO_OUTPUT | C.MQOO_PASS_ALL_CONTEXT)
    mq.qm.put(mq.conn, handle.hobj, m.message.md.copy(), C.MQPMO_PASS_ALL_CONTEXT, {}, b"m'", 8)
    a, b = mq.got(s1a)[0].message, mq.got(s1b)[0].message
    assert (a.md.CorrelId, b.md.CorrelId) == (C0, out["SubCorrelId"])
    assert a.md.Priority == b.md.Priority == 5
    assert a.properties["MQPubLevel"] == 8
    assert bodies(mq, s9) == []


def test_highest_level_present_takes_it(mq: Any) -> None:  # C:SC-INT-02
    _, s5 = mq.managed("Int/U", SubLevel=5)
    _, s1 = mq.managed("Int/U")
    mq.pub("Int/U")
    assert len(mq.got(s5)) == 1 and bodies(mq, s1) == []


def test_catch_all_level_zero(mq: Any) -> None:  # C:SC-INT-03
    _, s0 = mq.managed("Int/C", SubLevel=0)
    mq.pub("Int/C", b"1")
    assert bodies(mq, s0) == [b"1"]
    _, s1 = mq.managed("Int/C")
    mq.pub("Int/C", b"2")
    assert bodies(mq, s0) == [] and bodies(mq, s1) == [b"2"]


def test_level_bounds(mq: Any) -> None:  # C:SC-INT-04
    _, s0 = mq.managed("Int/B", SubLevel=0)
    _, s1 = mq.managed("Int/B")
    mq.pub("Int/B", pub_level=0)
    assert len(mq.got(s0)) == 1 and bodies(mq, s1) == []
    with mq.raises(C.MQRC_PMO_ERROR):
        mq.pub("Int/B", pub_level=10)
    with mq.raises(C.MQRC_OPTIONS_ERROR):
        mq.managed("Int/B", SubLevel=10)


def test_retain_through_an_interceptor(mq: Any) -> None:  # C:SC-INT-05, C:SC-INT-08
    _, s9 = mq.managed("Int/R", SubLevel=9)
    mq.pub("Int/R", b"r", C.MQPMO_RETAIN)
    _, late = mq.managed("Int/R")
    assert bodies(mq, late) == []
    [m] = mq.got(s9)
    assert m.message.properties["MQPubOptions"] == C.MQPMO_RETAIN
    assert "MQPubLevel" not in m.message.properties
    options = C.MQPMO_NO_SYNCPOINT | int(m.message.properties["MQPubOptions"])  # type: ignore[call-overload]
    mq.qm.put(mq.conn, mq.topic("Int/R").hobj, m.message.md.copy(), options, {}, b"r'", 8)
    assert bodies(mq, late) == [b"r'"]
    _, newcomer = mq.managed("Int/R")
    [copy] = mq.got(newcomer)
    assert copy.body == b"r'" and copy.message.properties["MQIsRetained"] is True
    _, level5 = mq.managed("Int/R", SubLevel=5)
    assert bodies(mq, level5) == []
    hs5, _ = mq.managed("Int/R", SubLevel=5)
    with mq.raises(C.MQRC_NO_RETAINED_MSG):
        mq.qm.request_update(mq.conn, hs5.hobj, C.MQSR_ACTION_PUBLICATION)


def test_two_interceptors_at_one_level_duplicate(mq: Any) -> None:  # C:SC-INT-06
    _, a = mq.managed("Int/D", SubLevel=9)
    _, b = mq.managed("Int/D", SubLevel=9)
    _, final = mq.managed("Int/D")
    mq.pub("Int/D", b"m")
    for interceptor in (a, b):
        m = mq.got(interceptor)[0]
        mq.pub("Int/D", m.body, pub_level=8)
    assert bodies(mq, final) == [b"m", b"m"]


def test_chain_of_eight_interceptors(mq: Any) -> None:  # C:SC-INT-07
    queues = {level: mq.managed("Int/8", SubLevel=level)[1] for level in range(9, 1, -1)}
    _, final = mq.managed("Int/8")
    mq.pub("Int/8", b"m:")
    for level in range(9, 1, -1):
        [m] = mq.got(queues[level])
        suffix = b"" if m.body.endswith(b":") else b","
        mq.pub("Int/8", m.body + suffix + str(level).encode(), pub_level=level - 1)
    assert bodies(mq, final) == [b"m:9,8,7,6,5,4,3,2"]


# -- grouping (SC-GR) ---------------------------------------------------------------------------
def grouped(mq: Any, q: Any, pattern: str, correl: bytes, user_data: str, extra: int = 0) -> None:
    mq.sub(pattern, C.MQSO_CREATE | GROUP | SET_CORREL | extra, queue=q, SubCorrelId=correl, SubUserData=user_data)


def test_group_delivers_one_copy_from_the_closest_match(mq: Any) -> None:  # C:SC-GR-01
    q = app_queue(mq)
    grouped(mq, q, "Sport/#", C1, "G1")
    grouped(mq, q, "Sport/Football/#", C1, "G2")
    mq.pub("Sport/Football/Results")
    [copy] = mq.got(q)
    assert copy.message.properties["MQSubUserData"] == "G2" and copy.message.md.CorrelId == C1
    mq.pub("Sport/Tennis")
    assert [r.message.properties["MQSubUserData"] for r in mq.got(q)] == ["G1"]


def test_without_group_two_copies(mq: Any) -> None:  # C:SC-GR-02
    q = app_queue(mq)
    mq.sub("Sport/#", C.MQSO_CREATE | SET_CORREL, queue=q, SubCorrelId=C1)
    mq.sub("Sport/Football/#", C.MQSO_CREATE | SET_CORREL, queue=q, SubCorrelId=C1)
    mq.pub("Sport/Football/Results")
    assert mq.depth("Q") == 2


def test_not_own_pubs_of_the_chosen_member_wins(mq: Any) -> None:  # C:SC-GR-03
    from mqlite.core.pubsub.subscription import MQSO_NOT_OWN_PUBS

    q = app_queue(mq)
    grouped(mq, q, "Sport/#", C1, "G1")
    grouped(mq, q, "Sport/Football/#", C1, "G2", MQSO_NOT_OWN_PUBS)
    mq.pub("Sport/Football/Results")
    assert mq.depth("Q") == 0
    mq.pub("Sport/Football/Results", conn=mq.connect())
    assert mq.depth("Q") == 1


def test_invalid_groups(mq: Any) -> None:  # C:SC-GR-04
    q = app_queue(mq)
    with mq.raises(C.MQRC_OPTIONS_ERROR):
        mq.managed("G/T", GROUP | SET_CORREL, SubCorrelId=C1)
    with mq.raises(C.MQRC_OPTIONS_ERROR):
        mq.sub("G/T", C.MQSO_CREATE | GROUP | SET_CORREL, queue=q, SubCorrelId=NULL_ID)
    grouped(mq, q, "Sport/#", C1, "G1")
    grouped(mq, q, "Sport/Football/#", C2, "G5")
    mq.pub("Sport/Football/Results")
    assert mq.depth("Q") == 2


def test_not_own_subs_on_the_put(mq: Any) -> None:
    _, mine = mq.managed("Own/T")
    _, theirs = mq.managed("Own/T", conn=mq.connect())
    mq.pub("Own/T", b"x", C.MQPMO_NOT_OWN_SUBS)
    assert bodies(mq, mine) == []
    assert len(mq.got(theirs, conn=theirs.conn)) == 1


def test_property_synonyms_name_the_same_values() -> None:  # C:SC-PROP-11, C:R-PROP-1
    from mqlite.client.common import PROPERTY_SYNONYMS, Properties
    from mqlite.core.pubsub.copies import PROPERTY_SYNONYMS as CORE_SYNONYMS

    assert PROPERTY_SYNONYMS == CORE_SYNONYMS  # the client and the queue manager agree on all nine
    props = Properties({name: f"v-{name}" for name in PROPERTY_SYNONYMS})
    for name, rfh2 in PROPERTY_SYNONYMS.items():
        assert props[name] == props[rfh2] == props.get(rfh2) == f"v-{name}"
        assert rfh2 in props
    assert Properties({}).get("mqps.Top") is None
