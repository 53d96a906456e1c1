"""Two queue managers in a hierarchy (B fixture F-H2: QM2 the child of QM1), shared by the tests
of this module: aggregation, wildcards, selectors, stopped channels, scopes, PROXYSUB(FORCE),
resynchronisation and the failure rules of the system queues (B scenarios A, B, H, J). Each test
uses topics and queues of its own and removes its subscriptions."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import mqlite.client as mqlite
from helpers.hierarchy import bodies, idle, link, proxies, publish, sent, set_parent
from helpers.module_qmgrs import started
from helpers.mqsc import depth, mqsc
from helpers.qmgrs import QMgr
from helpers.waiting import wait_until
from mqlite import cmqc as C
from mqlite.protocol import dlh

RunCli = Callable[..., Any]
Pair = tuple[QMgr, QMgr, RunCli]


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Pair]:
    with started(tmp_path_factory.mktemp("hierarchy") / "mqhome", ("QM1", "QM2")) as (qmgrs, run_cli):
        qm1, qm2 = qmgrs["QM1"], qmgrs["QM2"]
        link(run_cli, qm1, qm2)
        set_parent(run_cli, qm2, qm1)
        idle(run_cli, qm1, qm2)
        yield qm1, qm2, run_cli


def test_one_proxy_for_many_subscriptions(pair: Pair) -> None:
    """B:SC-07, B:R-PXY-1, R-PXY-2: two subscriptions to one topic make one proxy and one
    message; the first to go sends nothing, the last sends one cancel."""
    qm1, qm2, run_cli = pair
    before = sent(run_cli, qm2, "QM2.TO.QM1")
    with mqlite.connect("QM2") as conn:
        s1 = mqlite.Subscription(conn, "News/UK")
        s2 = mqlite.Subscription(conn, "News/UK")
        idle(run_cli, qm1, qm2)
        assert proxies(run_cli, qm1) == {("QM2", "News/UK")}
        assert sent(run_cli, qm2, "QM2.TO.QM1") - before == 1
        s1.close(C.MQCO_REMOVE_SUB)
        idle(run_cli, qm1, qm2)
        assert sent(run_cli, qm2, "QM2.TO.QM1") - before == 1 and proxies(run_cli, qm1) == {("QM2", "News/UK")}
        s2.close(C.MQCO_REMOVE_SUB)
        idle(run_cli, qm1, qm2)
    assert sent(run_cli, qm2, "QM2.TO.QM1") - before == 2 and proxies(run_cli, qm1) == set()


def test_one_copy_per_queue_manager_and_character_wildcards(pair: Pair) -> None:
    """B:SC-08 (two matching proxies, one copy across, each subscriber served), B:SC-09 (a
    character wildcard's proxy is cut back to '#'; what crosses in excess is filtered at QM2)."""
    qm1, qm2, run_cli = pair
    mqsc(run_cli, qm2, "DEFINE QLOCAL(QA)\nDEFINE QLOCAL(QB)\nDEFINE QLOCAL(QC)\n"
                       "DEFINE SUB(SA) TOPICSTR('Sport/#') DEST(QA)\n"
                       "DEFINE SUB(SB) TOPICSTR('Sport/+/Results') DEST(QB)\n"
                       "DEFINE SUB(SC) TOPICSTR('/aaa/bbb/c*d') WSCHEMA(CHAR) DEST(QC)\n")
    idle(run_cli, qm1, qm2)
    assert proxies(run_cli, qm1) == {("QM2", "Sport/#"), ("QM2", "Sport/+/Results"), ("QM2", "/aaa/bbb/#")}
    before = sent(run_cli, qm1, "QM1.TO.QM2")
    publish(qm1, "Sport/Football/Results", b"r")
    idle(run_cli, qm1, qm2)
    assert sent(run_cli, qm1, "QM1.TO.QM2") - before == 1
    assert depth(run_cli, qm2, "QA") == 1 and depth(run_cli, qm2, "QB") == 1
    publish(qm1, "Sport/Tennis", b"t")
    publish(qm1, "/aaa/bbb/cXd", b"match")
    publish(qm1, "/aaa/bbb/zzz", b"excess")
    idle(run_cli, qm1, qm2)
    assert sent(run_cli, qm1, "QM1.TO.QM2") - before == 4
    assert depth(run_cli, qm2, "QA") == 2 and depth(run_cli, qm2, "QB") == 1
    assert bodies(qm2, "QC") == [b"match"]
    mqsc(run_cli, qm2, "DELETE SUB(SA)\nDELETE SUB(SB)\nDELETE SUB(SC)\n")
    idle(run_cli, qm1, qm2)
    assert proxies(run_cli, qm1) == set()


def test_selectors_stay_at_the_subscriber(pair: Pair) -> None:
    """B:SC-10, A-04: the proxy carries no selector; both publications cross, one is delivered."""
    qm1, qm2, run_cli = pair
    mqsc(run_cli, qm2, "DEFINE QLOCAL(QSEL)\nDEFINE SUB(SSEL) TOPICSTR('Stock/IBM') DEST(QSEL) "
                       "SELECTOR('Price > 100')\n")
    idle(run_cli, qm1, qm2)
    assert proxies(run_cli, qm1) == {("QM2", "Stock/IBM")}
    before = sent(run_cli, qm1, "QM1.TO.QM2")
    publish(qm1, "Stock/IBM", b"cheap", properties={"Price": 50})
    publish(qm1, "Stock/IBM", b"dear", properties={"Price": 150})
    idle(run_cli, qm1, qm2)
    assert sent(run_cli, qm1, "QM1.TO.QM2") - before == 2
    assert bodies(qm2, "QSEL") == [b"dear"]
    mqsc(run_cli, qm2, "DELETE SUB(SSEL)\n")
    idle(run_cli, qm1, qm2)


def test_subscribing_with_the_channel_stopped(pair: Pair) -> None:
    """B:SC-11 (MQSUB completes, the proxy waits on the transmission queue), B:SC-12 (nothing
    published before the proxy arrived is delivered later)."""
    qm1, qm2, run_cli = pair
    mqsc(run_cli, qm2, "STOP CHANNEL(QM2.TO.QM1)\n")
    wait_until(lambda: "STOPPED" in mqsc(run_cli, qm2, "DISPLAY CHSTATUS(QM2.TO.QM1)\n", ok=False), "stopped")
    try:
        mqsc(run_cli, qm2, "DEFINE QLOCAL(QX)\nDEFINE SUB(SX) TOPICSTR('X') DEST(QX)\n")
        assert depth(run_cli, qm2, "QM1") == 1 and proxies(run_cli, qm1) == set()
        publish(qm1, "X", b"P1")
    finally:
        mqsc(run_cli, qm2, "START CHANNEL(QM2.TO.QM1)\n")
    idle(run_cli, qm1, qm2)
    assert proxies(run_cli, qm1) == {("QM2", "X")}
    publish(qm1, "X", b"P2")
    idle(run_cli, qm1, qm2)
    assert bodies(qm2, "QX") == [b"P2"]
    mqsc(run_cli, qm2, "DELETE SUB(SX)\n")
    idle(run_cli, qm1, qm2)


def test_publication_and_subscription_scopes(pair: Pair) -> None:
    """B:SC-16 (PUBSCOPE(QMGR): local subscribers only), B:SC-17 (MQPMO_SCOPE_QMGR), B:SC-18
    (SUBSCOPE(QMGR): no proxy, local publications only), B:SC-19 (MQSO_SCOPE_QMGR on one
    subscription: the other still makes the proxy; the receiving side filters)."""
    qm1, qm2, run_cli = pair
    for qmgr in (qm1, qm2):
        mqsc(run_cli, qmgr, "DEFINE TOPIC(WX) TOPICSTR('Weather')\nDEFINE QLOCAL(QW)\n"
                            "DEFINE SUB(SW) TOPICSTR('Weather') DEST(QW)\n")
    idle(run_cli, qm1, qm2)
    assert ("QM2", "Weather") in proxies(run_cli, qm1)
    mqsc(run_cli, qm1, "ALTER TOPIC(WX) PUBSCOPE(QMGR)\n")  # SC-16
    publish(qm1, "Weather", b"local only")
    idle(run_cli, qm1, qm2)
    assert bodies(qm1, "QW") == [b"local only"] and bodies(qm2, "QW") == []
    mqsc(run_cli, qm1, "ALTER TOPIC(WX) PUBSCOPE(ALL)\n")  # SC-17
    with mqlite.connect("QM1") as conn:
        mqlite.Topic(conn, topic_string="Weather").pub(b"scope qmgr", mqlite.MD(Persistence=C.MQPER_PERSISTENT),
                                                      mqlite.PMO(Options=C.MQPMO_SCOPE_QMGR))
    publish(qm1, "Weather", b"global")
    idle(run_cli, qm1, qm2)
    assert bodies(qm1, "QW") == [b"scope qmgr", b"global"] and bodies(qm2, "QW") == [b"global"]
    mqsc(run_cli, qm2, "ALTER TOPIC(WX) SUBSCOPE(QMGR)\n")  # SC-18
    idle(run_cli, qm1, qm2)
    assert ("QM2", "Weather") not in proxies(run_cli, qm1)
    publish(qm1, "Weather", b"from QM1")
    publish(qm2, "Weather", b"from QM2")
    idle(run_cli, qm1, qm2)
    assert bodies(qm2, "QW") == [b"from QM2"]
    bodies(qm1, "QW")
    mqsc(run_cli, qm2, "ALTER TOPIC(WX) SUBSCOPE(ALL)\nDELETE SUB(SW)\n")  # SC-19
    with mqlite.connect("QM2") as conn:
        sd = mqlite.SD(Options=C.MQSO_CREATE | C.MQSO_MANAGED | C.MQSO_SCOPE_QMGR | C.MQSO_NON_DURABLE)
        sd.set_vs("ObjectString", "Weather")
        local_only = mqlite.Subscription(conn)
        local_only.sub(sub_desc=sd)
        idle(run_cli, qm1, qm2)
        assert ("QM2", "Weather") not in proxies(run_cli, qm1)  # only a QMGR-scoped one: no proxy
        everywhere = mqlite.Subscription(conn, "Weather")
        idle(run_cli, qm1, qm2)
        assert ("QM2", "Weather") in proxies(run_cli, qm1)
        publish(qm1, "Weather", b"remote")
        assert bytes(everywhere.get(wait=30.0)) == b"remote"
        with pytest.raises(mqlite.MQMIError):
            local_only.get(wait=1.0)
        publish(qm2, "Weather", b"here")
        assert bytes(local_only.get(wait=30.0)) == b"here" and bytes(everywhere.get(wait=30.0)) == b"here"
    for qmgr in (qm1, qm2):
        mqsc(run_cli, qmgr, "DELETE SUB(SW)\n", ok=False)
        mqsc(run_cli, qmgr, "DELETE TOPIC(WX)\n")
    idle(run_cli, qm1, qm2)


def test_a_looped_publication_is_discarded(pair: Pair) -> None:
    """B:SC-66, B:R-LOOP-2: a publication that arrives with QM1's own fingerprint is delivered to
    nobody, not passed on, and logged with reason 2541."""
    qm1, _, run_cli = pair
    mqsc(run_cli, qm1, "DEFINE QLOCAL(QLOOP)\nDEFINE SUB(SLOOP) TOPICSTR('Loop') DEST(QLOOP)\n")
    qmid = re.search(r"QMID\(([^)]*)\)", mqsc(run_cli, qm1, "DISPLAY QMGR QMID\n"))
    assert qmid is not None
    with mqlite.connect("QM1") as conn:
        mqlite.Queue(conn, "SYSTEM.INTER.QMGR.PUBS").put(b"looped", mqlite.MD(Persistence=C.MQPER_PERSISTENT),
                                                         properties={"ibm.Rfp": f"SOMEONE_ELSE,{qmid.group(1)}",
                                                                     "mqlite.dps.Top": "Loop",
                                                                     "mqlite.dps.From": "QM2"})
    idle(run_cli, qm1)
    assert depth(run_cli, qm1, "QLOOP") == 0
    log = (qm1.home / "qmgrs" / "QM1" / "AMQERR01.LOG").read_text()
    assert "Loop" in log and "2541" in log
    mqsc(run_cli, qm1, "DELETE SUB(SLOOP)\n")


def test_bad_control_messages_go_to_the_dead_letter_queue(pair: Pair) -> None:
    """B §26, issue 17 item 9: a malformed control message is dead-lettered with reason 2110
    and the agent goes on serving."""
    qm1, qm2, run_cli = pair
    mqsc(run_cli, qm1, "DEFINE QLOCAL(DLQ)\nALTER QMGR DEADQ(DLQ)\n")
    with mqlite.connect("QM1") as conn:
        control = mqlite.Queue(conn, "SYSTEM.INTER.QMGR.CONTROL")
        for bad in (b"not json", b'{"v":1,"op":"proxies","origin":"","link":"HIERARCHY"}', b"\xff" * 100):
            control.put(bad, mqlite.MD(Persistence=C.MQPER_PERSISTENT))
    wait_until(lambda: depth(run_cli, qm1, "DLQ") == 3, "three on the dead-letter queue")
    with mqlite.connect("QM1") as conn:
        message = mqlite.Queue(conn, "DLQ").get()
    header, _ = dlh.decode(bytes(message))
    assert header.reason == C.MQRC_FORMAT_ERROR and header.dest_q_name == "SYSTEM.INTER.QMGR.CONTROL"
    mqsc(run_cli, qm2, "DEFINE QLOCAL(QAFTER)\nDEFINE SUB(SAFTER) TOPICSTR('After') DEST(QAFTER)\n")
    idle(run_cli, qm1, qm2)
    assert ("QM2", "After") in proxies(run_cli, qm1)  # still serving
    mqsc(run_cli, qm2, "DELETE SUB(SAFTER)\n")
    idle(run_cli, qm1, qm2)
