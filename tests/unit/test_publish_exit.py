"""The publish exit in core (spec C §8, SC-PX-01..11), with exits written as real modules."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest

from mqlite import cmqc as C
from mqlite.core.pubsub.publish_exit import PublishContext, PublishExitParms, SubscriptionContext
from mqlite.server import exits

Calls = list[tuple[int, str, str]]


def install(mq: Any, function: Any, data: str = "") -> None:
    mq.qm.set_publish_exit(function, data)


def recorder(calls: Calls, decide: Any = None) -> Any:
    def exit_function(parms: PublishExitParms, pub: PublishContext, sub: SubscriptionContext) -> None:
        calls.append((parms.ExitReason, sub.SubName, sub.DestinationQName.strip()))
        if decide is not None:
            decide(parms, pub, sub)

    return exit_function


def bodies(mq: Any, handle: Any) -> list[bytes]:
    return [r.body for r in mq.got(handle)]


def test_call_sequence(mq: Any) -> None:  # C:SC-PX-01
    calls: Calls = []
    install(mq, recorder(calls))
    mq.managed("PX/T", SubName="S1")
    mq.managed("PX/T", SubName="S2")
    publisher = mq.connect()
    idle = mq.connect()
    mq.pub("PX/T", conn=publisher)
    assert [c[0] for c in calls] == [C.MQXR_INIT, C.MQXR_PUBLICATION, C.MQXR_PUBLICATION]
    mq.pub("PX/T", conn=publisher)
    assert [c[0] for c in calls[3:]] == [C.MQXR_PUBLICATION, C.MQXR_PUBLICATION]
    mq.qm.disconnect(publisher)
    mq.qm.disconnect(idle)
    assert calls[-1][0] == C.MQXR_TERM and len(calls) == 6


def test_body_changes(mq: Any) -> None:  # C:SC-PX-02
    def decide(parms: PublishExitParms, pub: PublishContext, sub: SubscriptionContext) -> None:
        if parms.ExitReason != C.MQXR_PUBLICATION or sub.SubName == "OTHER":
            return
        assert parms.msg_in is not None
        if sub.SubName == "UPPER":
            parms.msg_in[:] = parms.msg_in.upper()
        elif sub.SubName == "SHORT":
            parms.msg_out, parms.msg_out_length = bytes(parms.msg_in), 2
        else:
            parms.msg_out = bytes(parms.msg_in) + b"def"

    install(mq, recorder([], decide))
    queues = {name: mq.managed("PX/B", SubName=name)[1] for name in ("UPPER", "SHORT", "LONG", "OTHER")}
    mq.pub("PX/B", b"abc")
    assert {n: bodies(mq, q) for n, q in queues.items()} == {
        "UPPER": [b"ABC"], "SHORT": [b"ab"], "LONG": [b"abcdef"], "OTHER": [b"abc"]}


def suppress_s2(feedback: int = C.MQFB_NONE) -> Any:
    def decide(parms: PublishExitParms, pub: PublishContext, sub: SubscriptionContext) -> None:
        if parms.ExitReason == C.MQXR_PUBLICATION and sub.SubName == "S2":
            parms.ExitResponse = C.MQXCC_SUPPRESS_FUNCTION
            parms.Feedback = feedback

    return decide


def test_suppress_with_discard(mq: Any) -> None:  # C:SC-PX-03 (a)
    install(mq, recorder([], suppress_s2()))
    _, s1 = mq.managed("PX/S", SubName="S1")
    _, s2 = mq.managed("PX/S", SubName="S2")
    mq.pub("PX/S", Report=C.MQRO_DISCARD_MSG)
    assert len(mq.got(s1)) == 1 and bodies(mq, s2) == []
    assert mq.depth("SYSTEM.DEAD.LETTER.QUEUE") == 0


@pytest.mark.parametrize(("feedback", "expected"), [(C.MQFB_NONE, C.MQFB_STOPPED_BY_PUBSUB_EXIT), (65536, 65536)])
def test_suppress_to_the_dead_letter_queue(mq: Any, feedback: int, expected: int) -> None:  # C:SC-PX-03 (b, c)
    install(mq, recorder([], suppress_s2(feedback)))
    mq.managed("PX/S", SubName="S1")
    _, s2 = mq.managed("PX/S", SubName="S2")
    mq.pub("PX/S")
    assert bodies(mq, s2) == []
    dlq = mq.open("SYSTEM.DEAD.LETTER.QUEUE", C.MQOO_INPUT_AS_Q_DEF)
    [dead] = mq.got(dlq)
    assert dead.message.md.Feedback == expected


def test_suppress_without_a_dead_letter_queue(mq: Any) -> None:  # C:SC-PX-04
    mq.qm.alter("QMGR", "", {"DEADQ": ""})
    install(mq, recorder([], suppress_s2()))
    _, s1 = mq.managed("PX/N", SubName="S1")
    _, s2 = mq.managed("PX/N", C.MQSO_DURABLE, SubName="S2")
    with mq.raises(C.MQRC_PUBLICATION_FAILURE):
        mq.pub("PX/N", b"p", Persistence=1)
    assert bodies(mq, s1) == [] and bodies(mq, s2) == []
    mq.pub("PX/N", b"n", Persistence=0)
    assert bodies(mq, s1) == [b"n"]


def test_failed_exit_fails_the_publication(mq: Any) -> None:  # C:SC-PX-05
    def decide(parms: PublishExitParms, pub: PublishContext, sub: SubscriptionContext) -> None:
        if parms.ExitReason == C.MQXR_PUBLICATION and sub.SubName == "S2":
            parms.ExitResponse = C.MQXCC_FAILED

    install(mq, recorder([], decide))
    _, s1 = mq.managed("PX/F", SubName="S1")
    mq.managed("PX/F", SubName="S2")
    with mq.raises(C.MQRC_PUBLISH_EXIT_ERROR):
        mq.pub("PX/F")
    assert bodies(mq, s1) == []


def test_destination_change(mq: Any) -> None:  # C:SC-PX-06
    mq.define("AUDITQ")

    def decide(parms: PublishExitParms, pub: PublishContext, sub: SubscriptionContext) -> None:
        if parms.ExitReason == C.MQXR_PUBLICATION:
            sub.DestinationQName = "AUDITQ"

    install(mq, recorder([], decide))
    _, s1 = mq.managed("PX/D", SubName="S1")
    mq.pub("PX/D")
    assert bodies(mq, s1) == [] and mq.depth("AUDITQ") == 1


def test_retained_deliveries_call_the_exit(mq: Any) -> None:  # C:SC-PX-07
    mq.pub("PX/R", b"r", C.MQPMO_RETAIN)
    calls: Calls = []
    install(mq, recorder(calls))
    hsub, _ = mq.managed("PX/R", SubName="N")
    assert [c[0] for c in calls] == [C.MQXR_INIT, C.MQXR_PUBLICATION]
    mq.qm.request_update(mq.conn, hsub.hobj, C.MQSR_ACTION_PUBLICATION)
    assert calls[-1][0] == C.MQXR_PUBLICATION and len(calls) == 3


def test_user_area_per_connection(mq: Any) -> None:  # C:SC-PX-08
    seen: list[bytes] = []
    areas: dict[str, bytearray] = {}

    def decide(parms: PublishExitParms, pub: PublishContext, sub: SubscriptionContext) -> None:
        if parms.ExitReason == C.MQXR_INIT:
            seen.append(bytes(parms.ExitUserArea))
        elif parms.ExitReason == C.MQXR_PUBLICATION:
            parms.ExitUserArea[0] += 1
            areas[parms.Hconn] = parms.ExitUserArea

    install(mq, recorder([], decide))
    mq.managed("PX/U")
    p1, p2 = mq.connect("p1"), mq.connect("p2")
    for _ in range(3):
        mq.pub("PX/U", conn=p1)
    for _ in range(2):
        mq.pub("PX/U", conn=p2)
    assert (areas[p1.conn_id][0], areas[p2.conn_id][0]) == (3, 2)
    assert seen == [bytes(16), bytes(16)]


def test_exit_data_and_qmgr_name(mq: Any) -> None:  # C:SC-PX-09
    got: list[tuple[str, str]] = []

    def decide(parms: PublishExitParms, pub: PublishContext, sub: SubscriptionContext) -> None:
        got.append((parms.ExitData, parms.QMgrName))

    install(mq, recorder([], decide), data="ABC")
    mq.managed("PX/E")
    mq.pub("PX/E")
    assert got[0] == ("ABC".ljust(32), "QM1".ljust(48))
    got.clear()
    install(mq, recorder([], decide))
    mq.pub("PX/E", conn=mq.connect())
    assert got[0][0] == " " * 32


def configure(mq: Any, path: Path) -> None:
    """As the server does from qm.ini's PublishSubscribe stanza."""
    exits.configure_publish_exit(mq.qm, {"PublishExitPath": str(path), "PublishExitFunction": "publish"})


def test_load_failures(mq: Any, tmp_path: Path) -> None:  # C:SC-PX-10
    configure(mq, tmp_path / "missing.py")
    with mq.raises(C.MQRC_PUBSUB_INHIBITED):
        mq.pub("PX/L")
    with mq.raises(C.MQRC_PUBSUB_INHIBITED):
        mq.managed("PX/L")
    mq.define("P2P")
    mq.put(mq.open("P2P", C.MQOO_OUTPUT), b"point to point still works")
    module = tmp_path / "fussy_exit.py"
    module.write_text(textwrap.dedent("""
        from mqlite import cmqc as C

        def publish(parms, pub, sub):
            if parms.ExitReason == C.MQXR_INIT and parms.Hconn.endswith("2"):
                parms.ExitResponse = C.MQXCC_FAILED
    """))
    configure(mq, module)
    _, q = mq.managed("PX/L")  # connection ...1 initialises fine
    bad = mq.connect()
    assert bad.conn_id.endswith("2")
    with mq.raises(C.MQRC_PUBLISH_EXIT_ERROR):
        mq.pub("PX/L", conn=bad)
    mq.pub("PX/L", conn=mq.connect())
    assert len(mq.got(q)) == 1


def test_context_contents(mq: Any) -> None:  # C:SC-PX-11
    mq.qm.define("TOPIC", "STOCKS", {"TOPICSTR": "NYSE"})
    contexts: list[tuple[PublishContext, SubscriptionContext]] = []

    def decide(parms: PublishExitParms, pub: PublishContext, sub: SubscriptionContext) -> None:
        if parms.ExitReason == C.MQXR_PUBLICATION:
            contexts.append((pub, sub))

    install(mq, recorder([], decide))
    _, q, _ = mq.sub("IBM/PRICE", C.MQSO_CREATE | C.MQSO_MANAGED, name="N1", object_name="STOCKS")
    mq.pub("NYSE/IBM/PRICE")
    [(pub, sub)] = contexts
    assert pub.PubTopicString == "NYSE/IBM/PRICE"
    assert (sub.ObjectName, sub.ObjectString, sub.SubName, sub.SubType, sub.SubLevel) == (
        "STOCKS", "IBM/PRICE", "N1", C.MQSUBTYPE_API, 1)
    assert sub.DestinationQName.strip() == q.name
