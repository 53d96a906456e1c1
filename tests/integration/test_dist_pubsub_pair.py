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
from helpers.hierarchy import bodies, idle, link, proxies, publish, sent, set_parent, subscribe
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
        status = mqsc(run_cli, qm1, "DISPLAY TPSTATUS('News/UK') TYPE(SUB) ALL\n")  # issue 17 item 9
        assert "SUBTYPE(PROXY)" in status and "DESTQMGR(QM2)" in status
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
        local_only = subscribe(conn, C.MQSO_SCOPE_QMGR, topic="Weather")
        idle(run_cli, qm1, qm2)
        assert ("QM2", "Weather") not in proxies(run_cli, qm1)  # only a QMGR-scoped one: no proxy
        everywhere = mqlite.Subscription(conn, "Weather")
        idle(run_cli, qm1, qm2)
        assert ("QM2", "Weather") in proxies(run_cli, qm1)
        publish(qm1, "Weather", b"remote")
        assert bytes(everywhere.get(wait=30.0)) == b"remote"
        idle(run_cli, qm1, qm2)  # nothing in flight: what is not here now never comes
        with pytest.raises(mqlite.MQMIError):
            local_only.get(wait=0)
        publish(qm2, "Weather", b"here")
        assert bytes(local_only.get(wait=30.0)) == b"here" and bytes(everywhere.get(wait=30.0)) == b"here"
    for qmgr in (qm1, qm2):
        mqsc(run_cli, qmgr, "DELETE SUB(SW)\n", ok=False)
        mqsc(run_cli, qmgr, "DELETE TOPIC(WX)\n")
    idle(run_cli, qm1, qm2)


def test_scope_all_widens_and_define_sub_only_restricts(pair: Pair) -> None:
    """B:SC-20, B:R-SCO-4 (A-30): under SUBSCOPE(QMGR) on QM2, MQSO_SCOPE_ALL makes a proxy and gets
    QM1's publication; both scope options fail with 2046; DEFINE SUB SUBSCOPE(ALL) does not widen."""
    qm1, qm2, run_cli = pair
    mqsc(run_cli, qm2, "DEFINE TOPIC(WX20) TOPICSTR('Weather20') SUBSCOPE(QMGR)\nDEFINE QLOCAL(QD20)\n"
                       "DEFINE SUB(SD20) TOPICSTR('Weather20') DEST(QD20) SUBSCOPE(ALL)\n")
    idle(run_cli, qm1, qm2)
    assert ("QM2", "Weather20") not in proxies(run_cli, qm1)  # DEFINE SUB only restricts
    with mqlite.connect("QM2") as conn:
        with pytest.raises(mqlite.MQMIError) as refused:
            subscribe(conn, C.MQSO_SCOPE_QMGR | C.MQSO_SCOPE_ALL, topic="Weather20")
        assert refused.value.reason == C.MQRC_OPTIONS_ERROR
        wide = subscribe(conn, C.MQSO_SCOPE_ALL, topic="Weather20")
        idle(run_cli, qm1, qm2)
        assert ("QM2", "Weather20") in proxies(run_cli, qm1)
        publish(qm1, "Weather20", b"from QM1")
        assert bytes(wide.get(wait=30.0)) == b"from QM1"
        idle(run_cli, qm1, qm2)
        assert bodies(qm2, "QD20") == []  # the topic's QMGR scope still holds for SD20
    mqsc(run_cli, qm2, "DELETE SUB(SD20)\nDELETE TOPIC(WX20)\n")
    idle(run_cli, qm1, qm2)


@pytest.mark.parametrize("pub_scope_qmgr", ["PUBSCOPE", "MQPMO_SCOPE_QMGR"])
def test_on_one_queue_manager_scope_does_not_matter(pair: Pair, pub_scope_qmgr: str) -> None:
    """B:SC-21, B:R-SCO-5, R-SCO-6: publisher and subscriber on QM1: a publication of scope QMGR
    (by PUBSCOPE or by MQPMO_SCOPE_QMGR) reaches subscriptions of scope QMGR and of scope ALL."""
    qm1, qm2, run_cli = pair
    scope = "QMGR" if pub_scope_qmgr == "PUBSCOPE" else "ALL"
    mqsc(run_cli, qm1, f"DEFINE TOPIC(WX21) TOPICSTR('Weather21') PUBSCOPE({scope})\n")
    options = C.MQPMO_SCOPE_QMGR if pub_scope_qmgr == "MQPMO_SCOPE_QMGR" else 0
    with mqlite.connect("QM1") as conn:
        subs = [subscribe(conn, C.MQSO_SCOPE_QMGR, topic="Weather21"), subscribe(conn, 0, topic="Weather21")]
        mqlite.Topic(conn, topic_string="Weather21").pub(b"here", mqlite.MD(), mqlite.PMO(Options=options))
        assert [bytes(sub.get(wait=10.0)) for sub in subs] == [b"here", b"here"]  # 2 of the 4 cases each run
    mqsc(run_cli, qm1, "DELETE TOPIC(WX21)\n")
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
    log = qm1.error_log()
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


def test_proxysub_force_and_back(pair: Pair) -> None:
    """B:SC-13 (PROXYSUB(FORCE) on SYSTEM.BASE.TOPIC sends '#' with no subscriber; publications
    then cross; a subscription still sends its own proxy, and its cancel leaves '#'), B:SC-14
    (FIRSTUSE again: only the subscriptions' proxies remain)."""
    qm1, qm2, run_cli = pair
    mqsc(run_cli, qm1, 'ALTER TOPIC ("SYSTEM.BASE.TOPIC") PROXYSUB (FORCE)\n')
    try:
        idle(run_cli, qm1, qm2)
        assert proxies(run_cli, qm2) == {("QM1", "#")}
        before = sent(run_cli, qm2, "QM2.TO.QM1")
        publish(qm2, "A/B", b"to nobody")
        idle(run_cli, qm1, qm2)
        assert sent(run_cli, qm2, "QM2.TO.QM1") - before == 1
        with mqlite.connect("QM1") as conn:
            ab = mqlite.Subscription(conn, "A/B")
            ac = mqlite.Subscription(conn, "A/C")
            idle(run_cli, qm1, qm2)
            assert proxies(run_cli, qm2) == {("QM1", "#"), ("QM1", "A/B"), ("QM1", "A/C")}
            publish(qm2, "A/B", b"once")
            assert bytes(ab.get(wait=30.0)) == b"once"
            idle(run_cli, qm1, qm2)  # nothing in flight: a second copy would be here now
            with pytest.raises(mqlite.MQMIError):
                ab.get(wait=0)
            ab.close(C.MQCO_REMOVE_SUB)
            idle(run_cli, qm1, qm2)
            assert proxies(run_cli, qm2) == {("QM1", "#"), ("QM1", "A/C")}
            mqsc(run_cli, qm1, "ALTER TOPIC(SYSTEM.BASE.TOPIC) PROXYSUB(FIRSTUSE)\n")  # SC-14
            publish(qm2, "A/C", b"not lost")
            assert bytes(ac.get(wait=30.0)) == b"not lost"
            idle(run_cli, qm1, qm2)
            assert proxies(run_cli, qm2) == {("QM1", "A/C")}
            before = sent(run_cli, qm2, "QM2.TO.QM1")
            publish(qm2, "A/B", b"stays")
            idle(run_cli, qm1, qm2)
            assert sent(run_cli, qm2, "QM2.TO.QM1") == before
    finally:
        mqsc(run_cli, qm1, "ALTER TOPIC(SYSTEM.BASE.TOPIC) PROXYSUB(FIRSTUSE)\n")
        idle(run_cli, qm1, qm2)


def test_refresh_resynchronises_without_duplicates(pair: Pair) -> None:
    """B:SC-15, B:R-PXY-12: REFRESH QMGR TYPE(PROXYSUB) leaves the proxies as they were; the next
    publication is delivered once."""
    qm1, qm2, run_cli = pair
    mqsc(run_cli, qm2, "DEFINE QLOCAL(QR1)\nDEFINE SUB(SR1) TOPICSTR('Res/#') DEST(QR1)\n"
                       "DEFINE SUB(SR2) TOPICSTR('Res/+/x') DEST(QR1)\n")
    idle(run_cli, qm1, qm2)
    held = proxies(run_cli, qm1)
    assert held == {("QM2", "Res/#"), ("QM2", "Res/+/x")}
    assert "AMQ8005I" in mqsc(run_cli, qm2, "REFRESH QMGR TYPE (PROXYSUB)\n")
    idle(run_cli, qm1, qm2)
    assert proxies(run_cli, qm1) == held
    publish(qm1, "Res/a/x", b"once each")
    idle(run_cli, qm1, qm2)
    assert bodies(qm2, "QR1") == [b"once each", b"once each"]  # one per subscription
    mqsc(run_cli, qm2, "DELETE SUB(SR1)\nDELETE SUB(SR2)\n")
    idle(run_cli, qm1, qm2)


def test_fan_out_queue_unavailable(pair: Pair) -> None:
    """B:SC-70, B:R-ERR-1, A-39: with SYSTEM.INTER.QMGR.FANREQ PUT(DISABLED), an MQSUB that needs
    a proxy fails with 2051 and leaves nothing; one of scope QMGR is made; enabled again, it works."""
    qm1, qm2, run_cli = pair
    mqsc(run_cli, qm2, "ALTER QLOCAL(SYSTEM.INTER.QMGR.FANREQ) PUT(DISABLED)\n")
    try:
        with mqlite.connect("QM2") as conn:
            with pytest.raises(mqlite.MQMIError) as refused:
                mqlite.Subscription(conn, "Fan/X")
            assert refused.value.reason == C.MQRC_PUT_INHIBITED
            subscribe(conn, C.MQSO_SCOPE_QMGR, topic="Fan/X")
        assert "Fan/X" not in mqsc(run_cli, qm2, "DISPLAY SBSTATUS(*) TOPICSTR\n", ok=False)
    finally:
        mqsc(run_cli, qm2, "ALTER QLOCAL(SYSTEM.INTER.QMGR.FANREQ) PUT(ENABLED)\n")
    with mqlite.connect("QM2") as conn:
        sub = mqlite.Subscription(conn, "Fan/X")
        idle(run_cli, qm1, qm2)
        assert ("QM2", "Fan/X") in proxies(run_cli, qm1)
        sub.close(C.MQCO_REMOVE_SUB)
    idle(run_cli, qm1, qm2)


def test_transmission_queue_unavailable_at_the_publisher(pair: Pair) -> None:
    """B:SC-71, B:R-ERR-4 item 1, A-41: the publication fails with 2051 and nobody gets it, the
    local subscriber included; enabled again, both get the next one."""
    qm1, qm2, run_cli = pair
    for qmgr in (qm1, qm2):
        mqsc(run_cli, qmgr, "DEFINE QLOCAL(QT)\nDEFINE SUB(ST) TOPICSTR('Xmit/X') DEST(QT)\n")
    idle(run_cli, qm1, qm2)
    mqsc(run_cli, qm1, "ALTER QLOCAL(QM2) PUT(DISABLED)\n")
    try:
        with pytest.raises(mqlite.MQMIError) as refused:
            publish(qm1, "Xmit/X", b"refused")
        assert refused.value.reason == C.MQRC_PUT_INHIBITED
    finally:
        mqsc(run_cli, qm1, "ALTER QLOCAL(QM2) PUT(ENABLED)\n")
    publish(qm1, "Xmit/X", b"delivered")
    idle(run_cli, qm1, qm2)
    assert bodies(qm1, "QT") == [b"delivered"] and bodies(qm2, "QT") == [b"delivered"]
    for qmgr in (qm1, qm2):
        mqsc(run_cli, qmgr, "DELETE SUB(ST)\n")
    idle(run_cli, qm1, qm2)


def test_publication_queue_unavailable_at_the_receiver(pair: Pair) -> None:
    """B:SC-72, B:R-ERR-3, A-40: the publications wait on QM1's transmission queue (the channel
    retries) while QM2's SYSTEM.INTER.QMGR.PUBS refuses them, then arrive in order."""
    qm1, qm2, run_cli = pair
    mqsc(run_cli, qm2, "DEFINE QLOCAL(QP)\nDEFINE SUB(SP) TOPICSTR('Pubs/X') DEST(QP)\n")
    idle(run_cli, qm1, qm2)
    mqsc(run_cli, qm1, "ALTER CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) SHORTTMR(1)\n")
    mqsc(run_cli, qm2, "ALTER QLOCAL(SYSTEM.INTER.QMGR.PUBS) PUT(DISABLED)\n")
    try:
        for n in range(3):
            publish(qm1, "Pubs/X", b"%d" % n)
        wait_until(lambda: "RETRYING" in mqsc(run_cli, qm1, "DISPLAY CHSTATUS(QM1.TO.QM2)\n", ok=False),
                   "QM1's channel retrying")
        # (the retrying channel keeps taking them into a batch that fails: they are on QM1's side)
        assert depth(run_cli, qm2, "QP") == 0 and depth(run_cli, qm2, "SYSTEM.DEAD.LETTER.QUEUE") == 0
    finally:
        mqsc(run_cli, qm2, "ALTER QLOCAL(SYSTEM.INTER.QMGR.PUBS) PUT(ENABLED)\n")
    wait_until(lambda: depth(run_cli, qm2, "QP") == 3, "the three delivered", timeout=60)
    assert bodies(qm2, "QP") == [b"0", b"1", b"2"]
    mqsc(run_cli, qm2, "DELETE SUB(SP)\n")
    idle(run_cli, qm1, qm2)


def test_a_publication_that_cannot_be_delivered_spoils_none_beside_it(pair: Pair) -> None:
    """B:R-ERR-4 item 2, A-38: publications that arrive together share the agent's unit of work;
    one whose copy can go neither to its subscriber's full queue nor to a dead-letter queue fails:
    it is backed out, tried again and, at the backout threshold, discarded (AMQ9544E, there is no
    dead-letter queue), while those beside it arrive exactly once and in order."""
    qm1, qm2, run_cli = pair
    mqsc(run_cli, qm2, "ALTER QMGR DEADQ(' ')\n"
                       "DEFINE QLOCAL(QFULL) MAXDEPTH(1)\nDEFINE SUB(SFULL) TOPICSTR('Batch/Full') DEST(QFULL)\n"
                       "DEFINE QLOCAL(QFINE)\nDEFINE SUB(SFINE) TOPICSTR('Batch/Fine') DEST(QFINE)\n")
    idle(run_cli, qm1, qm2)
    with mqlite.connect("QM1") as conn:
        fine, full = (mqlite.Topic(conn, topic_string=f"Batch/{t}") for t in ("Fine", "Full"))
        md = mqlite.MD(Persistence=C.MQPER_PERSISTENT)
        for n in range(12):
            (full if n in (3, 7) else fine).pub(b"%d" % n, md)
    wait_until(lambda: "AMQ9544E" in qm2.error_log(), "the undeliverable publication discarded", timeout=60)
    idle(run_cli, qm1, qm2)
    assert bodies(qm2, "QFINE") == [b"%d" % n for n in range(12) if n not in (3, 7)]
    assert bodies(qm2, "QFULL") == [b"3"]
    mqsc(run_cli, qm2, "DELETE SUB(SFULL)\nDELETE SUB(SFINE)\n")
    idle(run_cli, qm1, qm2)


def test_a_proxy_that_cannot_be_sent_is_dead_lettered(pair: Pair) -> None:
    """B:SC-74, B:R-ERR-4 item 3: QM2's transmission queue to QM1 refuses the proxy; MQSUB
    succeeds; the fan-out request is retried and at the backout threshold goes to the dead-letter
    queue; QM1 never gets it, until REFRESH QMGR TYPE(PROXYSUB)."""
    qm1, qm2, run_cli = pair
    mqsc(run_cli, qm2, "DEFINE QLOCAL(DLQ)\nALTER QMGR DEADQ(DLQ)\nALTER QLOCAL(QM1) PUT(DISABLED)\n")
    try:
        mqsc(run_cli, qm2, "DEFINE QLOCAL(QF)\nDEFINE SUB(SF) TOPICSTR('Fanout/X') DEST(QF)\n")
        wait_until(lambda: depth(run_cli, qm2, "DLQ") == 1, "the proxy on QM2's dead-letter queue")
        assert depth(run_cli, qm2, "SYSTEM.INTER.QMGR.FANREQ") == 0
    finally:
        mqsc(run_cli, qm2, "ALTER QLOCAL(QM1) PUT(ENABLED)\n")
    idle(run_cli, qm1, qm2)
    assert ("QM2", "Fanout/X") not in proxies(run_cli, qm1)
    mqsc(run_cli, qm2, "REFRESH QMGR TYPE(PROXYSUB)\n")
    idle(run_cli, qm1, qm2)
    assert ("QM2", "Fanout/X") in proxies(run_cli, qm1)
    mqsc(run_cli, qm2, "DELETE SUB(SF)\n")
    idle(run_cli, qm1, qm2)


def test_retained_publications_reach_a_later_remote_subscriber(pair: Pair) -> None:
    """B:SC-67, B:R-DRET-2, R-DRET-3, A-35: QM1's retained publication reaches a subscription made
    later on QM2, flagged retained, and is kept on QM2 too; a second subscription there gets QM2's
    copy at once (no new proxy); QM1's next retained publication reaches both live."""
    qm1, qm2, run_cli = pair
    publish(qm1, "Ret/IBM", b"R1", retain=True)
    with mqlite.connect("QM2") as conn:
        before = sent(run_cli, qm2, "QM2.TO.QM1")
        s = mqlite.Subscription(conn, "Ret/IBM")
        first = s.get(wait=30.0)
        assert bytes(first) == b"R1" and first.properties["MQIsRetained"] is True
        idle(run_cli, qm1, qm2)
        assert "RETAINED(YES)" in mqsc(run_cli, qm2, "DISPLAY TPSTATUS('Ret/IBM') RETAINED\n")
        s2 = mqlite.Subscription(conn, "Ret/IBM")
        assert bytes(s2.get(wait=5.0)) == b"R1"
        idle(run_cli, qm1, qm2)
        assert sent(run_cli, qm2, "QM2.TO.QM1") - before == 1  # one proxy, for both subscriptions
        publish(qm1, "Ret/IBM", b"R2", retain=True)
        for sub in (s, s2):
            live = sub.get(wait=30.0)
            assert bytes(live) == b"R2" and not live.properties.get("MQIsRetained")
        idle(run_cli, qm1, qm2)  # nothing in flight: a second copy would be here now
        for sub in (s, s2):
            with pytest.raises(mqlite.MQMIError):
                sub.get(wait=0)
        s.close(C.MQCO_REMOVE_SUB)
        s2.close(C.MQCO_REMOVE_SUB)
    idle(run_cli, qm1, qm2)
    with mqlite.connect("QM2") as conn:
        late = mqlite.Subscription(conn, "Ret/IBM")
        assert bytes(late.get(wait=30.0)) == b"R2"
        late.close(C.MQCO_REMOVE_SUB)
    idle(run_cli, qm1, qm2)


def test_a_correl_id_does_not_cross_a_hierarchy(pair: Pair) -> None:
    """B:SC-59, B:R-HIE-10, A-29: a subscription asking for the publisher's CorrelId
    (MQSO_SET_CORREL_ID, SubCorrelId none) gets MQCI_NONE when the publication came over a
    hierarchy link, and the publisher's on its own queue manager."""
    qm1, qm2, run_cli = pair
    with mqlite.connect("QM2") as there, mqlite.connect("QM1") as here:
        remote = mqlite.Subscription(there, "Correl/X", correl_id=bytes(24))
        local = mqlite.Subscription(here, "Correl/X", correl_id=bytes(24))
        idle(run_cli, qm1, qm2)
        mqlite.Topic(here, topic_string="Correl/X").pub(b"C", persistent=True, correl_id=b"C1".ljust(24, b"\0"))
        md_here, md_there = mqlite.MD(), mqlite.MD()
        assert local.get(None, md_here, mqlite.GMO(Options=C.MQGMO_WAIT, WaitInterval=30_000)) == b"C"
        assert remote.get(None, md_there, mqlite.GMO(Options=C.MQGMO_WAIT, WaitInterval=30_000)) == b"C"
        assert bytes(md_here.CorrelId) == b"C1".ljust(24, b"\0")
        assert bytes(md_there.CorrelId) == bytes(24)
        remote.close(C.MQCO_REMOVE_SUB)
        local.close(C.MQCO_REMOVE_SUB)
    idle(run_cli, qm1, qm2)
