"""MQSC for publish/subscribe against the real core (spec A §13: TV-MC, TV-SB, TV-IN-17/18,
TV-RP-08/09, TV-TT-02..04; spec C R-FAC-1)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from mqlite import cmqc as C
from mqlite.core.qmgr import QueueManager
from mqlite.core.security.service import administrator
from mqlite.message import MessageDescriptor
from mqlite.mqsc.commands import execute, run_mqsc


@pytest.fixture
def qmgr() -> QueueManager:
    qm = QueueManager("QM1")
    qm.bootstrap()
    return qm


def run(qm: QueueManager, text: str) -> list[str]:
    return execute(qm, text)


def value(lines: list[str], key: str) -> str:
    """The value of KEY(...) in DISPLAY output."""
    for line in lines:
        m = re.search(rf"\b{key}\((.*?)\)(?:\s|$)", line)
        if m:
            return m.group(1)
    raise AssertionError(f"{key} not in {lines}")


def publish(qm: QueueManager, topic: str, body: bytes = b"x", options: int = C.MQPMO_NO_SYNCPOINT) -> None:
    conn = qm.connect(administrator("u"))
    handle = qm.open(conn, {"ObjectType": C.MQOT_TOPIC, "ObjectString": topic}, C.MQOO_OUTPUT)
    qm.put(conn, handle.hobj, MessageDescriptor(), options, {}, body)
    qm.disconnect(conn)


def test_define_alter_delete_topic(qmgr: QueueManager) -> None:  # A:TV-MC-01, A:TV-MC-02, A:TV-MC-05
    result = run_mqsc(qmgr, "DEFINE TOPIC (FOOTBALL.EUROPEAN) +\n  TOPICSTR ('Sport/Soccer') +\n  DURSUB (NO) +\n"
                            "  DESCR ('Administrative topic object to disallow durable subscriptions')\n"
                            "ALTER TOPIC (FOOTBALL.EUROPEAN) DURSUB (NO)\n")
    assert result.exit_code == 0
    shown = run(qmgr, "DISPLAY TOPIC(FOOTBALL.EUROPEAN)")
    assert (value(shown, "TOPICSTR"), value(shown, "DURSUB")) == ("Sport/Soccer", "NO")
    assert run(qmgr, "DEFINE TOPIC ('Sports') TOPICSTR('Sports')") == ["AMQ8690I: WebSphere MQ topic created."]
    assert run(qmgr, "DELETE TOPIC ('Sports')") == ["AMQ8692I: WebSphere MQ topic deleted."]
    assert run(qmgr, "DISPLAY TOPIC('Sports')") == ["AMQ8147E: WebSphere MQ object Sports not found."]


def test_mixed_case_names_with_spaces(qmgr: QueueManager) -> None:  # A:TV-MC-03, A:TV-MC-04
    run(qmgr, "DEFINE TOPIC ('Football') TOPICSTR('Sports/Football') CLUSTER(CL1) WILDCARD(BLOCK)")
    run(qmgr, "DEFINE TOPIC ('St. Helens') TOPICSTR('Sports/Rugby/St. Helens')")
    shown = run(qmgr, "DISPLAY TOPIC('Football')")
    assert value(shown, "TOPIC") == "Football"
    assert (value(shown, "CLUSTER"), value(shown, "WILDCARD")) == ("CL1", "BLOCK")
    assert value(run(qmgr, "DISPLAY TOPIC('St. Helens')"), "TOPICSTR") == "Sports/Rugby/St. Helens"


def test_subscriptions_with_mqsc(qmgr: QueueManager) -> None:  # A:TV-MC-06..10, A:TV-MC-17
    run(qmgr, "DEFINE TOPIC ('Football') TOPICSTR('Sports/Football')")
    assert run(qmgr, "DEFINE QLOCAL(QSPORTS) REPLACE") == ["AMQ8006I: WebSphere MQ queue created."]
    run(qmgr, "DEFINE QLOCAL(QFARSENAL)")
    assert run(qmgr, "DEFINE SUB (SPORTS) TOPICSTR('Sports/#') DEST(QSPORTS)") == [
        "AMQ8094I: WebSphere MQ subscription created."]
    run(qmgr, "DEFINE SUB (FARSENAL) TOPICOBJ('Football') TOPICSTR('Arsenal') DEST(QFARSENAL)")
    assert value(run(qmgr, "DISPLAY SUB(FARSENAL)"), "RESOLVED") == "Sports/Football/Arsenal"
    status = run(qmgr, "DIS SBSTATUS(*) SUBTYPE(ALL)")
    assert [v for line in status for v in re.findall(r"SUB\((\w+)\)", line)] == ["FARSENAL", "SPORTS"]
    assert value(run(qmgr, "DISPLAY SBSTATUS(SPORTS) ALL"), "SUBTYPE") == "ADMIN"
    publish(qmgr, "Sports/Football/Arsenal")
    assert qmgr.queues["QSPORTS"].depth == 1 and qmgr.queues["QFARSENAL"].depth == 1
    assert run(qmgr, "CLEAR QLOCAL(QSPORTS)") == ["AMQ8022I: WebSphere MQ queue cleared."]
    assert run(qmgr, "DELETE SUB (SPORTS)") == ["AMQ8097I: WebSphere MQ subscription deleted."]
    subid = value(run(qmgr, "DISPLAY SUB(FARSENAL) SUBID"), "SUBID")
    assert run(qmgr, f"DELETE SUB SUBID({subid})") == ["AMQ8097I: WebSphere MQ subscription deleted."]
    assert run(qmgr, "DISPLAY SBSTATUS(*) SUBTYPE(ALL)") == ["AMQ8147E: WebSphere MQ object * not found."]


def test_define_sub_needs_its_queue_and_topic_object(qmgr: QueueManager) -> None:  # C:SC-SUB-01 step 3, A-14
    result = run_mqsc(qmgr, "DEFINE SUB(S) TOPICSTR('a') DEST(NOQUEUE)\nDEFINE SUB(S) TOPICOBJ(NOTOPIC) DEST(Q)\n")
    assert result.exit_code == 10 and result.failed == 2


def test_define_sub_sends_the_retained_publication(qmgr: QueueManager) -> None:  # C:R-FAC-1, C:SC-SUB-01
    run(qmgr, "DEFINE TOPIC(IBMSTOCKPRICE) TOPICSTR('NYSE/IBM/PRICE')")
    run(qmgr, "DEFINE QLOCAL(STOCKTICKER)")
    publish(qmgr, "NYSE/IBM/PRICE", b"129", C.MQPMO_RETAIN)
    run(qmgr, "DEFINE SUB(IBMSTOCKPRICESUB) DEST(STOCKTICKER) TOPICOBJ(IBMSTOCKPRICE) REPLACE")
    assert qmgr.queues["STOCKTICKER"].depth == 1


def test_tpstatus_and_clear_topicstr(qmgr: QueueManager) -> None:  # A:TV-MC-11..15, A:TV-RP-08/09
    for topic in ["USA/Alabama/Auburn", "USA/Alabama/Mobile", "USA/Alabama/Montgomery", "USA/Alaska/Juneau"]:
        publish(qmgr, topic)
    shown = run(qmgr, "DISPLAY TPSTATUS('#') TYPE(TOPIC)")
    topics = [v for line in shown for v in re.findall(r"TOPICSTR\((.*?)\)", line)]
    assert len([t for t in topics if t.startswith("USA")]) == 7  # A:TV-TT-03
    assert "SYSTEM.BROKER.ADMIN.STREAM" in topics  # crtmqm's admin stream object (D §1.3)
    children = [v for line in run(qmgr, "DISPLAY TPSTATUS('USA/Alabama/+')")
                for v in re.findall(r"TOPICSTR\((.*?)\)", line)]
    assert children == ["USA/Alabama/Auburn", "USA/Alabama/Mobile", "USA/Alabama/Montgomery"]  # A:TV-TT-02
    assert value(run(qmgr, "DISPLAY TPSTATUS('USA/Alabama') RETAINED"), "RETAINED") == "NO"
    publish(qmgr, "USA/Alabama", b"r", C.MQPMO_RETAIN)
    assert value(run(qmgr, "DISPLAY TPSTATUS('USA/Alabama') RETAINED"), "RETAINED") == "YES"
    assert run(qmgr, "CLEAR TOPICSTR('USA/Alabama') CLTRTYPE(RETAINED)") == [
        "AMQ8887I: WebSphere MQ topic string cleared."]
    assert value(run(qmgr, "DISPLAY TPSTATUS('USA/Alabama') RETAINED"), "RETAINED") == "NO"
    conn = qmgr.connect(administrator("pub"))
    qmgr.open(conn, {"ObjectType": C.MQOT_TOPIC, "ObjectString": "USA/Alabama/Mobile"}, C.MQOO_OUTPUT)
    publishers = run(qmgr, "DISPLAY TPSTATUS('USA/Alabama/#') TYPE(PUB) ACTCON")
    assert value(publishers, "TOPICSTR") == "USA/Alabama/Mobile"
    assert value(publishers, "ACTCONN").endswith(conn.conn_id)
    qmgr.subscribe(conn, {"Options": C.MQSO_CREATE | C.MQSO_MANAGED, "ObjectString": "USA/Alabama"}, 0)
    assert value(run(qmgr, "DISPLAY TPSTATUS('USA/Alabama') TYPE(SUB) ACTCON"), "TOPICSTR") == "USA/Alabama"


def test_treelife_and_defined_nodes(qmgr: QueueManager) -> None:  # A:TV-MC-16, A:TV-TT-04, A:TV-TT-05
    assert value(run(qmgr, "DISPLAY QMGR TREELIFE"), "TREELIFE") == "1800"
    run(qmgr, "ALTER QMGR TREELIFE(900)")
    assert value(run(qmgr, "DISPLAY QMGR TREELIFE"), "TREELIFE") == "900"
    run(qmgr, "DEFINE TOPIC(Alabama) TOPICSTR('USA/Alabama')")
    assert value(run(qmgr, "DISPLAY TPSTATUS('USA/Alabama')"), "ADMIN") == "ALABAMA"


SYSTEM_BASE_TOPIC = [
    ("TV-SB-01", "TOPICSTR", " "), ("TV-SB-02", "DEFPRTY", "0"), ("TV-SB-03", "DEFPRESP", "SYNC"),
    ("TV-SB-04", "DEFPERSIST", "NO"), ("TV-SB-05", "DESCR", "Base topic for resolving attributes"),
    ("TV-SB-06", "DURSUB", "YES"), ("TV-SB-07", "MDURMDL", "SYSTEM.DURABLE.MODEL.QUEUE"),
    ("TV-SB-08", "MNDURMDL", "SYSTEM.NDURABLE.MODEL.QUEUE"), ("TV-SB-09", "MASTER", "YES"),
    ("TV-SB-10", "NPMSGDLV", "ALLAVAIL"), ("TV-SB-11", "PMSGDLV", "ALLDUR"), ("TV-SB-12", "PUB", "ENABLE"),
    ("TV-SB-13", "SUB", "ENABLE"),
]


@pytest.mark.parametrize(("vector", "key", "expected"), SYSTEM_BASE_TOPIC, ids=[v[0] for v in SYSTEM_BASE_TOPIC])
def test_system_base_topic_defaults(qmgr: QueueManager, vector: str, key: str, expected: str) -> None:  # A:TV-SB
    assert value(run(qmgr, "DISPLAY TOPIC(SYSTEM.BASE.TOPIC)"), key) == expected


def test_replace_keeps_topic_strings(qmgr: QueueManager) -> None:  # A:TV-IN-17, A:TV-IN-18
    run(qmgr, "DEFINE TOPIC(X) TOPICSTR('a')")
    run(qmgr, "DEFINE TOPIC(X) TOPICSTR('b') REPLACE")
    assert value(run(qmgr, "DISPLAY TOPIC(X)"), "TOPICSTR") == "a"
    run(qmgr, "DEFINE QLOCAL(Q)")
    run(qmgr, "DEFINE SUB(S) TOPICSTR('a') DEST(Q)")
    run(qmgr, "DEFINE SUB(S) TOPICSTR('b') DEST(Q) REPLACE")
    assert value(run(qmgr, "DISPLAY SUB(S)"), "TOPICSTR") == "a"


def test_errors(qmgr: QueueManager) -> None:
    assert run(qmgr, "DELETE SUB(NOSUCH)") == ["AMQ8147E: WebSphere MQ object NOSUCH not found."]
    bad = run(qmgr, "DEFINE SUB(S) TOPICSTR('a') DEST(Q) SUBLEVEL(12)")
    assert any("SUBLEVEL" in line for line in bad)
    assert "Syntax error" in run(qmgr, "DISPLAY TPSTATUS('a') TYPE(SUB")[0]
    assert run(qmgr, "DEFINE TOPIC(NOSTR)")[0].startswith("AMQ8101E")  # TOPICSTR is required
    run(qmgr, "DEFINE TOPIC(A1) TOPICSTR('dup')")
    assert run(qmgr, "DEFINE TOPIC(A2) TOPICSTR('dup')") == ["AMQ8150E: WebSphere MQ object already exists."]


def test_display_pubsub(qmgr: QueueManager) -> None:
    shown: list[Any] = run(qmgr, "DISPLAY PUBSUB ALL")
    assert value(shown, "STATUS") == "ACTIVE"
