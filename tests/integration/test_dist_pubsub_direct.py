"""Publish/subscribe clusters with DIRECT routing (B §7, §8, scenarios C and E; seed 000): two
full repositories and four partial ones as real processes, shared by the tests of this module
(cluster DEMO, fixture F-DEMO). Each test uses topics of its own and removes its subscriptions."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import mqlite.client as mqlite
from helpers.cluster import formed, receive, send_to
from helpers.hierarchy import bodies, idle, link, proxies, publish, relations, sent, sent_all, shown, subscribe
from helpers.module_qmgrs import started
from helpers.mqsc import depth, mqsc
from helpers.qmgrs import QMgr
from helpers.waiting import wait_until
from mqlite import cmqc as C

RunCli = Callable[..., Any]
Demo = tuple[dict[str, QMgr], RunCli]
CLUSTER = "DEMO"


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Demo]:
    names = ("FR1", "FR2", "QM1", "QM2", "QM3", "QM4")
    with started(tmp_path_factory.mktemp("direct") / "mqhome", names) as (qmgrs, run_cli):
        formed(run_cli, qmgrs, CLUSTER, ("FR1", "FR2"))
        idle(run_cli, *qmgrs.values())
        yield qmgrs, run_cli


def held(run_cli: RunCli, qmgrs: dict[str, QMgr]) -> dict[str, set[tuple[str, str]]]:
    return {name: proxies(run_cli, qmgr) for name, qmgr in qmgrs.items()}


def price_on(demo: Demo, host: str) -> None:
    """PRICE ('Price', DIRECT) defined on ``host`` alone, and every member's copy is its (the
    module's tests run in any order, after any other)."""
    qmgrs, run_cli = demo
    for name, qmgr in qmgrs.items():
        if name != host:
            mqsc(run_cli, qmgr, "DELETE TOPIC(PRICE)\n", ok=False)
    mqsc(run_cli, qmgrs[host], f"DEFINE TOPIC(PRICE) TOPICSTR('Price') CLUSTER({CLUSTER}) REPLACE\n")

    def settled() -> bool:
        for name, qmgr in qmgrs.items():
            if name == host:
                continue
            copies = re.findall(r"CLUSQMGR\((\w+)\)", shown(qmgr, "DISPLAY TOPIC(PRICE) TYPE(CLUSTER)\n"))
            if copies != [host]:
                return False
        return True

    wait_until(settled, f"every member's PRICE is {host}'s", timeout=60)
    idle(run_cli, *qmgrs.values())


def members(demo: Demo) -> int:
    """How many queue managers the cluster has (a test may have added one)."""
    qmgrs, _ = demo
    return shown(qmgrs["FR1"], "DISPLAY CLUSQMGR(*)\n").count("AMQ8441I")


def test_a_cluster_shares_only_cluster_topics(demo: Demo) -> None:
    """B:SC-02, B:R-PXY-8, R-CLU-7: without a cluster topic object nothing crosses the cluster;
    once WEATHER is defined on QM2 with CLUSTER(DEMO), QM1's subscription sends its proxy to every
    member and QM2's publication reaches it."""
    qmgrs, run_cli = demo
    qm1, qm2 = qmgrs["QM1"], qmgrs["QM2"]
    mqsc(run_cli, qm1, "DEFINE QLOCAL(Q3)\nDEFINE SUB(SUB3) TOPICSTR('Weather') DEST(Q3)\n")
    mqsc(run_cli, qm2, "DEFINE QLOCAL(Q4)\nDEFINE SUB(SUB4) TOPICSTR('Traffic') DEST(Q4)\n")
    idle(run_cli, *qmgrs.values())
    assert all(topic not in ("Weather", "Traffic") for found in held(run_cli, qmgrs).values() for _, topic in found)
    publish(qm2, "Weather", b"W1")
    idle(run_cli, *qmgrs.values())
    assert bodies(qm1, "Q3") == []
    mqsc(run_cli, qm2, f"DEFINE TOPIC(WEATHER) TOPICSTR('Weather') CLUSTER({CLUSTER})\n")
    wait_until(lambda: ("QM1", "Weather") in proxies(run_cli, qm2) and ("QM1", "Weather") in proxies(
        run_cli, qmgrs["FR1"]), "QM1's proxy at QM2 and FR1", timeout=60)
    idle(run_cli, *qmgrs.values())
    publish(qm2, "Weather", b"W2")
    idle(run_cli, *qmgrs.values())
    assert bodies(qm1, "Q3") == [b"W2"]
    mqsc(run_cli, qm1, "DELETE SUB(SUB3)\n")
    mqsc(run_cli, qm2, "DELETE SUB(SUB4)\nDELETE TOPIC(WEATHER)\n")
    idle(run_cli, *qmgrs.values())


def test_direct_routing(demo: Demo) -> None:
    """B:SC-41, B:R-RTE-2, R-RTE-3, R-CLU-13: a subscription on QM3 to a DIRECT cluster topic
    puts its proxy on every other member, QM3 gets cluster-senders to all of them; QM2's
    publication goes straight to QM3 (one copy, through nobody else)."""
    qmgrs, run_cli = demo
    qm2, qm3 = qmgrs["QM2"], qmgrs["QM3"]
    price_on(demo, "QM1")
    mqsc(run_cli, qm3, "DEFINE QLOCAL(S3Q)\nDEFINE SUB(S3) TOPICSTR('Price/Fruit') DEST(S3Q)\n")
    idle(run_cli, *qmgrs.values())
    found = held(run_cli, qmgrs)
    assert {name for name, subs in found.items() if ("QM3", "Price/Fruit") in subs} == {
        "FR1", "FR2", "QM1", "QM2", "QM4"}
    channels = mqsc(run_cli, qm3, "DISPLAY CLUSQMGR(*) CHANNEL\n")
    assert all(f"{CLUSTER}.{name}" in channels for name in ("FR1", "FR2", "QM1", "QM2", "QM4"))
    before = {name: sent(run_cli, qm2, f"{CLUSTER}.{name}") for name in ("QM1", "QM3")}
    publish(qm2, "Price/Fruit", b"apples")
    idle(run_cli, *qmgrs.values())
    assert bodies(qm3, "S3Q") == [b"apples"]
    assert sent(run_cli, qm2, f"{CLUSTER}.QM3") - before["QM3"] == 1
    assert sent(run_cli, qm2, f"{CLUSTER}.QM1") - before["QM1"] == 0
    mqsc(run_cli, qm3, "DELETE SUB(S3)\n")
    idle(run_cli, *qmgrs.values())
    assert all(("QM3", "Price/Fruit") not in subs for subs in held(run_cli, qmgrs).values())


def test_publish_everywhere_through_force(demo: Demo) -> None:
    """B:SC-51, B:R-FRC-6: PROXYSUB(FORCE) on the cluster topic: every member sends every other a
    forced proxy 'Price/#', so a publication with no subscriber anywhere goes to all five."""
    qmgrs, run_cli = demo
    price_on(demo, "QM1")
    others = members(demo) - 1
    mqsc(run_cli, qmgrs["QM1"], "ALTER TOPIC(PRICE) PROXYSUB(FORCE)\n")
    try:
        wait_until(lambda: all(sum(1 for origin, topic in proxies(run_cli, qmgr) if topic == "Price/#") == others
                               for qmgr in qmgrs.values()), "a forced proxy from every other member", timeout=60)
        idle(run_cli, *qmgrs.values())
        before = sent_all(qmgrs["QM2"])
        publish(qmgrs["QM2"], "Price/Nobody", b"everywhere")
        idle(run_cli, *qmgrs.values())
        after = sent_all(qmgrs["QM2"])
        crossed = {c: after[c] - before.get(c, 0) for c in after if after[c] != before.get(c, 0)}
        assert set(crossed.values()) == {1} and len(crossed) == others  # one copy to every other member
        assert {f"{CLUSTER}.{name}" for name in ("FR1", "FR2", "QM1", "QM3", "QM4")} <= set(crossed)
    finally:
        mqsc(run_cli, qmgrs["QM1"], "ALTER TOPIC(PRICE) PROXYSUB(FIRSTUSE)\n")
    wait_until(lambda: all(("QM1", "Price/#") not in proxies(run_cli, qmgr) for qmgr in qmgrs.values()),
               "the forced proxies cancelled", timeout=60)


def test_moving_the_topic_host(demo: Demo) -> None:
    """B:SC-33, B:R-CTD-13, A-18: PRICE copied identically to QM2, deleted on QM1, then altered on
    QM2: QM3's subscriber gets each step's publication once, QM3's proxy at QM2 is never cancelled,
    the copies end up QM2's, and no conflict is logged while the two definitions are identical."""
    qmgrs, run_cli = demo
    qm1, qm2, qm3 = qmgrs["QM1"], qmgrs["QM2"], qmgrs["QM3"]
    price_on(demo, "QM1")
    mqsc(run_cli, qm3, "DEFINE QLOCAL(MOVEQ)\nDEFINE SUB(MOVES) TOPICSTR('Price/Move') DEST(MOVEQ)\n")
    idle(run_cli, *qmgrs.values())
    assert ("QM3", "Price/Move") in proxies(run_cli, qm2)
    steps = [f"DEFINE TOPIC(PRICE) TOPICSTR('Price') CLUSTER({CLUSTER})\n", "DELETE TOPIC(PRICE)\n",
             "ALTER TOPIC(PRICE) DESCR('moved')\n"]
    for n, (qmgr, step) in enumerate(zip((qm2, qm1, qm2), steps, strict=True)):
        mqsc(run_cli, qmgr, step)
        idle(run_cli, *qmgrs.values())
        assert ("QM3", "Price/Move") in proxies(run_cli, qm2)
        publish(qm2, "Price/Move", b"step %d" % n)
        idle(run_cli, *qmgrs.values())
        assert bodies(qm3, "MOVEQ") == [b"step %d" % n]
    wait_until(lambda: "CLUSQMGR(QM1)" not in mqsc(run_cli, qm3, "DISPLAY TOPIC(PRICE) TYPE(CLUSTER)\n", ok=False)
               and "CLUSQMGR(QM2)" in mqsc(run_cli, qm3, "DISPLAY TOPIC(PRICE) TYPE(CLUSTER)\n", ok=False),
               "QM3's copy is QM2's", timeout=60)
    for name in ("QM3", "QM4", "FR1"):
        log = qmgrs[name].error_log()
        assert "conflicting definitions of cluster topic" not in log
    mqsc(run_cli, qm3, "DELETE SUB(MOVES)\n")
    idle(run_cli, *qmgrs.values())


def test_a_member_joining_later_resynchronises(demo: Demo, tmp_path_factory: pytest.TempPathFactory) -> None:
    """B:SC-36, B:R-CLU-12: QM5 joins the cluster: it learns the cluster topic, every member's
    proxies reach it, and its publication goes to the subscribers' queue managers."""
    qmgrs, run_cli = demo
    price_on(demo, "QM1")
    mqsc(run_cli, qmgrs["QM3"], "DEFINE QLOCAL(J3)\nDEFINE SUB(SJ3) TOPICSTR('Price/Join') DEST(J3)\n")
    mqsc(run_cli, qmgrs["QM4"], "DEFINE QLOCAL(J4)\nDEFINE SUB(SJ4) TOPICSTR('Price/Join') DEST(J4)\n")
    idle(run_cli, *qmgrs.values())
    home = qmgrs["QM1"].home
    assert run_cli("crtmqm", "-p", "0", "QM5").returncode == 0
    assert run_cli("strmqm", "QM5").returncode == 0
    qm5 = QMgr("QM5", home)
    mqsc(run_cli, qm5, "ALTER CHANNEL(SYSTEM.DEF.CLUSSDR) CHLTYPE(CLUSSDR) SHORTTMR(1)\n")
    receive(run_cli, qm5, CLUSTER)
    send_to(run_cli, qm5, CLUSTER, qmgrs["FR2"])
    wait_until(lambda: "PRICE" in mqsc(run_cli, qm5, "DISPLAY TOPIC(*) TYPE(CLUSTER)\n", ok=False),
               "QM5 has the cluster topic", timeout=60)
    wait_until(lambda: {("QM3", "Price/Join"), ("QM4", "Price/Join")} <= proxies(run_cli, qm5),
               "QM5 holds QM3's and QM4's proxies", timeout=60)
    publish(qm5, "Price/Join", b"from the newcomer")
    idle(run_cli, *qmgrs.values(), qm5)
    assert bodies(qmgrs["QM3"], "J3") == [b"from the newcomer"] and bodies(qmgrs["QM4"], "J4") == [b"from the newcomer"]
    mqsc(run_cli, qmgrs["QM3"], "DELETE SUB(SJ3)\n")
    mqsc(run_cli, qmgrs["QM4"], "DELETE SUB(SJ4)\n")
    idle(run_cli, *qmgrs.values(), qm5)  # (QM5 stays a member: the module's end ends it)


def test_a_correl_id_crosses_a_cluster(demo: Demo) -> None:
    """B:SC-59, B:R-HIE-10, A-29: over a cluster link the publisher's CorrelId reaches a
    subscription that asked for it."""
    qmgrs, run_cli = demo
    price_on(demo, "QM1")
    with mqlite.connect("QM3") as there, mqlite.connect("QM2") as here:
        remote = mqlite.Subscription(there, "Price/Correl", correl_id=bytes(24))
        idle(run_cli, *qmgrs.values())
        mqlite.Topic(here, topic_string="Price/Correl").pub(b"C", persistent=True, correl_id=b"C1".ljust(24, b"\0"))
        md = mqlite.MD()
        assert remote.get(None, md, mqlite.GMO(Options=C.MQGMO_WAIT, WaitInterval=30_000)) == b"C"
        assert bytes(md.CorrelId) == b"C1".ljust(24, b"\0")
        remote.close(C.MQCO_REMOVE_SUB)
    idle(run_cli, *qmgrs.values())


def _cluster_topics(demo: Demo, definitions: dict[str, str], on: str) -> None:
    """Define cluster topic objects (name: attributes) on ``on`` and wait until every member has
    them; an empty attribute text deletes the object and waits until no member has it."""
    qmgrs, run_cli = demo
    script = "".join(f"DEFINE TOPIC({name}) {attrs} CLUSTER({CLUSTER})\n" if attrs else f"DELETE TOPIC({name})\n"
                     for name, attrs in definitions.items())
    mqsc(run_cli, qmgrs[on], script)

    def everywhere() -> bool:
        for name, qmgr in qmgrs.items():
            if name == on:  # (its own definitions are local objects there)
                continue
            shown_names = set(re.findall(r"TOPIC\((\w+)\)", shown(qmgr, "DISPLAY TOPIC(*) TYPE(CLUSTER)\n")))
            if any((topic in shown_names) != bool(attrs) for topic, attrs in definitions.items()):
                return False
        return True

    wait_until(everywhere, "every member has the cluster topics as defined", timeout=60)
    idle(run_cli, *qmgrs.values())


def _got(sub: Any) -> list[bytes]:
    """What ``sub`` holds, once ``idle`` saw nothing in flight (so nothing more is coming)."""
    got = []
    while True:
        try:
            got.append(bytes(sub.get(wait=0)))
        except mqlite.MQMIError:
            return got


def test_football_league(demo: Demo) -> None:
    """B:SC-22, B:R-SCO-7 (A-31): NEWPORT (QM1), CARDIFF (QM2) and SWANSEA (QM3). Config A
    (SUBSCOPE(ALL)): SWANSEA's subscriber through A has proxies at the others and gets both results;
    config B (SUBSCOPE(QMGR)): no proxies, the home result only; config C: CARDIFF's subscriber
    gets its own republished result, not NEWPORT's."""
    qmgrs, run_cli = demo
    newport, cardiff, swansea = (qmgrs[n] for n in ("QM1", "QM2", "QM3"))
    _cluster_topics(demo, {"A": "TOPICSTR('Football/result/#') SUBSCOPE(ALL)"}, on="QM2")
    with mqlite.connect("QM3") as conn:
        sub = subscribe(conn, topic_object="A")
        idle(run_cli, *qmgrs.values())
        assert ("QM3", "Football/result/#") in proxies(run_cli, newport) & proxies(run_cli, cardiff)
        publish(newport, "Football/result/Newport/Cardiff", b"R1")
        publish(swansea, "Football/result/Swansea/Newport", b"R2")
        idle(run_cli, *qmgrs.values())
        assert sorted(_got(sub)) == [b"R1", b"R2"]
        sub.close(C.MQCO_REMOVE_SUB)
    _cluster_topics(demo, {"A": ""}, on="QM2")
    _cluster_topics(demo, {"B": "TOPICSTR('Football/result/#') SUBSCOPE(QMGR)"}, on="QM2")
    with mqlite.connect("QM3") as conn:
        sub = subscribe(conn, topic_object="B")
        idle(run_cli, *qmgrs.values())
        assert all(topic != "Football/result/#" for qmgr in (newport, cardiff) for _, topic in proxies(run_cli, qmgr))
        publish(newport, "Football/result/Newport/Cardiff", b"R1")
        publish(swansea, "Football/result/Swansea/Newport", b"R2")
        idle(run_cli, *qmgrs.values())
        assert _got(sub) == [b"R2"]
        sub.close(C.MQCO_REMOVE_SUB)
    _cluster_topics(demo, {"B": "", "C": "TOPICSTR('Football/myteam/#') SUBSCOPE(QMGR)"}, on="QM2")
    with mqlite.connect("QM2") as conn:
        sub = subscribe(conn, topic_object="C")
        idle(run_cli, *qmgrs.values())
        publish(newport, "Football/myteam/Newport/Cardiff", b"M2")
        publish(cardiff, "Football/myteam/Newport/Cardiff", b"M1")
        idle(run_cli, *qmgrs.values())
        assert _got(sub) == [b"M1"]
        sub.close(C.MQCO_REMOVE_SUB)
    _cluster_topics(demo, {"C": ""}, on="QM2")


OVERLAPPING = {  # B:R-OVT-3, defined on QM1
    "A": "TOPICSTR('Football/result/#') SUBSCOPE(QMGR)",
    "B": "TOPICSTR('Football/#') SUBSCOPE(ALL)",
    "C": "TOPICSTR('Football/result/Newport/Cardiff') PUBSCOPE(ALL) SUBSCOPE(ALL)",
    "D": "TOPICSTR('Football/matches/Newport/Cardiff') PUBSCOPE(ALL) SUBSCOPE(QMGR)",
}


@pytest.mark.parametrize("grouped", [False, True], ids=["ungrouped", "grouped"])
def test_overlapping_topics(demo: Demo, grouped: bool) -> None:
    """B:SC-23 (ungrouped: proxies Football/# and the Newport/Cardiff result only; two publications
    cross; QA 0, QB 2, QC 1, QD 0), B:SC-24 (A-33, grouped: the closest match of the group decides
    with its own scope: one publication, topic C's, reaches QG)."""
    qmgrs, run_cli = demo
    qm1, qm2 = qmgrs["QM1"], qmgrs["QM2"]
    _cluster_topics(demo, OVERLAPPING, on="QM1")
    mqsc(run_cli, qm2, "DEFINE QLOCAL(QG)\n")
    with mqlite.connect("QM2") as conn:
        if grouped:
            queue = mqlite.Queue(conn, "QG")
            subs = [subscribe(conn, C.MQSO_GROUP_SUB | C.MQSO_SET_CORREL_ID, topic_object=name, queue=queue,
                              correl=b"G".ljust(24, b"\0"))
                    for name in OVERLAPPING]
        else:
            subs = [subscribe(conn, topic_object=name) for name in OVERLAPPING]
        idle(run_cli, *qmgrs.values())
        assert {topic for origin, topic in proxies(run_cli, qm1) if origin == "QM2"} == {
            "Football/#", "Football/result/Newport/Cardiff"}
        before = sent(run_cli, qm1, f"{CLUSTER}.QM2")
        publish(qm1, "Football/result/Newport/Cardiff", b"C")
        publish(qm1, "Football/matches/Newport/Cardiff", b"D")
        idle(run_cli, *qmgrs.values())
        assert sent(run_cli, qm1, f"{CLUSTER}.QM2") - before == 2
        if grouped:
            assert bodies(qm2, "QG") == [b"C"]
        else:
            assert {name: sorted(_got(sub)) for name, sub in zip(OVERLAPPING, subs, strict=True)} == {
                "A": [], "B": [b"C", b"D"], "C": [b"C"], "D": []}
        for sub in subs:
            sub.close(C.MQCO_REMOVE_SUB)
    mqsc(run_cli, qm2, "DELETE QLOCAL(QG)\n")
    _cluster_topics(demo, dict.fromkeys(OVERLAPPING, ""), on="QM1")


def _conflicts(qmgr: QMgr) -> int:
    return qmgr.error_log().count("conflicting definitions")


def test_replacing_a_failed_host(demo: Demo) -> None:
    """B:SC-34, R-CTD-9, R-CTD-10, A-18, A-19: with QM1 ended, QM2 defines a differing PRICE; QM1
    comes back: the other members keep QM2's (the newer definition), QM1 keeps its own, and both
    sides log the conflict; once QM1 deletes its PRICE nothing more is logged."""
    qmgrs, run_cli = demo
    qm1, qm2 = qmgrs["QM1"], qmgrs["QM2"]
    price_on(demo, "QM1")
    assert run_cli("endmqm", "-i", "QM1").returncode == 0
    try:
        mqsc(run_cli, qm2, f"DEFINE TOPIC(PRICE) TOPICSTR('Price') CLUSTER({CLUSTER}) DEFPRTY(7)\n")
    finally:
        assert run_cli("strmqm", "QM1").returncode == 0

    def uses_qm2s(name: str) -> bool:  # QM2's PRICE has DEFPRTY(7), QM1's inherits 0
        return "DEFPRTY(7)" in shown(qmgrs[name], "DISPLAY TPSTATUS('Price') DEFPRTY\n")

    wait_until(lambda: _conflicts(qm1) > 0 and any(_conflicts(qmgrs[n]) for n in ("QM3", "QM4", "FR1", "FR2")),
               "the conflict logged on QM1 and the members", timeout=60)
    for name in ("QM3", "QM4"):
        wait_until(lambda name=name: uses_qm2s(name), f"{name} uses QM2's PRICE", timeout=60)
    assert "DEFPRTY(0)" in shown(qm1, "DISPLAY TPSTATUS('Price') DEFPRTY\n")  # QM1 keeps its own
    mqsc(run_cli, qm1, "DELETE TOPIC(PRICE)\n")
    idle(run_cli, *qmgrs.values())
    logged = {name: _conflicts(qmgr) for name, qmgr in qmgrs.items()}
    mqsc(run_cli, qm2, "ALTER TOPIC(PRICE) DESCR('newer')\n")  # a change that goes to every member
    wait_until(lambda: all("DESCR(newer)" in shown(qmgrs[n], "DISPLAY TOPIC(PRICE) TYPE(CLUSTER) DESCR\n")
                           for n in ("QM1", "QM3", "QM4")), "every member has QM2's change", timeout=60)
    idle(run_cli, *qmgrs.values())
    assert {name: _conflicts(qmgr) for name, qmgr in qmgrs.items()} == logged


def test_compat_mode_keeps_the_cluster_running(demo: Demo) -> None:
    """B A-25, R-HIE-2: under PSMODE(COMPAT) QM3's hierarchy traffic waits (HX's request to become
    its child stays on SYSTEM.INTER.QMGR.CONTROL, the relation STARTING) while its cluster traffic
    flows past it: QM4's proxy is held, QM2's publication delivered. ENABLED again, HX is a child."""
    qmgrs, run_cli = demo
    qm2, qm3, qm4 = qmgrs["QM2"], qmgrs["QM3"], qmgrs["QM4"]
    price_on(demo, "QM1")
    home = qm3.home
    assert run_cli("crtmqm", "-p", "0", "HX").returncode == 0
    assert run_cli("strmqm", "HX").returncode == 0
    hx = QMgr("HX", home)
    try:
        link(run_cli, qm3, hx)
        mqsc(run_cli, qm3, "ALTER QMGR PSMODE(COMPAT)\n")
        mqsc(run_cli, hx, "ALTER QMGR PARENT(QM3)\n")
        wait_until(lambda: depth(run_cli, qm3, "SYSTEM.INTER.QMGR.CONTROL") >= 1, "HX's request waits at QM3")
        mqsc(run_cli, qm4, "DEFINE QLOCAL(C4)\nDEFINE SUB(SC4) TOPICSTR('Price/Compat') DEST(C4)\n")
        mqsc(run_cli, qm3, "DEFINE QLOCAL(C3)\nDEFINE SUB(SC3) TOPICSTR('Price/Compat') DEST(C3)\n")
        wait_until(lambda: ("QM4", "Price/Compat") in proxies(run_cli, qm3), "QM3 holds QM4's proxy", timeout=60)
        wait_until(lambda: ("QM3", "Price/Compat") in proxies(run_cli, qm2), "QM2 holds QM3's proxy", timeout=60)
        publish(qm2, "Price/Compat", b"P")
        wait_until(lambda: bodies(qm3, "C3") == [b"P"], "QM2's publication at QM3", timeout=60)
        assert depth(run_cli, qm3, "SYSTEM.INTER.QMGR.CONTROL") >= 1  # the hierarchy's still waits
        assert relations(run_cli, hx).get("QM3") == ("PARENT", "STARTING")
        mqsc(run_cli, qm3, "ALTER QMGR PSMODE(ENABLED)\n")
        wait_until(lambda: relations(run_cli, hx).get("QM3") == ("PARENT", "ACTIVE"), "HX is QM3's child")
    finally:
        mqsc(run_cli, qm3, "ALTER QMGR PSMODE(ENABLED)\nDELETE SUB(SC3)\n", ok=False)
        mqsc(run_cli, qm4, "DELETE SUB(SC4)\n", ok=False)
        mqsc(run_cli, hx, "ALTER QMGR PARENT('')\n", ok=False)
        run_cli("endmqm", "-i", "HX")
    idle(run_cli, *qmgrs.values())
