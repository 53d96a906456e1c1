"""The Sport publish/subscribe cluster of seed 003 §3.1.3 (B fixture F-CL1, scenarios SC-26..SC-28,
SC-30, SC-37): full repositories CL1A and CL1B, partial ones QMA and QMB, the topics of topics.tst
on QMA (Football and Rugby clustered, Football WILDCARD(BLOCK)), the subscriptions of wildsubs.tst
and fullsubs.tst, and pub.bat's five publications. Each test runs the seed's scripts it needs
first (they clear their queues and define their subscriptions afresh), so the order is free."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from helpers.cluster import formed
from helpers.hierarchy import bodies, idle, proxies, publish, sent_all, shown
from helpers.module_qmgrs import started
from helpers.mqsc import mqsc, records
from helpers.qmgrs import QMgr
from helpers.waiting import wait_until

RunCli = Callable[..., Any]
Sport = tuple[dict[str, QMgr], RunCli]

TOPICS_TST = """DEFINE TOPIC ('Sports')      TOPICSTR('Sports')
DEFINE TOPIC ('Football')   TOPICSTR('Sports/Football') CLUSTER(CL1) WILDCARD(BLOCK)
DEFINE TOPIC ('Arsenal')    TOPICSTR('Sports/Football/Arsenal')
DEFINE TOPIC ('Blackburn')  TOPICSTR('Sports/Football/Blackburn')
DEFINE TOPIC ('Chelsea')    TOPICSTR('Sports/Football/Chelsea')
DEFINE TOPIC ('Rugby')      TOPICSTR('Sports/Rugby') CLUSTER(CL1)
DEFINE TOPIC ('Leeds')      TOPICSTR('Sports/Rugby/Leeds')
DEFINE TOPIC ('Wigan')      TOPICSTR('Sports/Rugby/Wigan')
DEFINE TOPIC ('Warrington') TOPICSTR('Sports/Rugby/Warrington')
DEFINE TOPIC ('St. Helens') TOPICSTR('Sports/Rugby/St. Helens')
"""
WILDSUBS_TST = """DEFINE QLOCAL(QSPORTS) REPLACE
DEFINE QLOCAL(QARSENAL) REPLACE
DEFINE QLOCAL(QSLEEDS) REPLACE
CLEAR QLOCAL(QSPORTS)
CLEAR QLOCAL(QARSENAL)
CLEAR QLOCAL(QSLEEDS)
DELETE SUB (SPORTS)
DELETE SUB (SARSENAL)
DELETE SUB (SLEEDS)
DEFINE SUB (SPORTS) TOPICSTR('Sports/#') DEST(QSPORTS)
DEFINE SUB (SARSENAL) TOPICSTR('Sports/#/Arsenal') DEST(QARSENAL)
DEFINE SUB (SLEEDS) TOPICSTR('Sports/#/Leeds') DEST(QSLEEDS)
"""
FULLSUBS_TST = """DEFINE QLOCAL(QFARSENAL) REPLACE
DEFINE QLOCAL(QRLEEDS) REPLACE
CLEAR QLOCAL(QFARSENAL)
CLEAR QLOCAL(QRLEEDS)
DELETE SUB (FARSENAL)
DELETE SUB (RLEEDS)
DEFINE SUB (FARSENAL) TOPICOBJ('Football') TOPICSTR('Arsenal') DEST(QFARSENAL)
DEFINE SUB (RLEEDS) TOPICOBJ('Rugby') TOPICSTR('Leeds') DEST(QRLEEDS)
"""
PUB_BAT = ("Sports", "Sports/Football", "Sports/Football/Arsenal", "Sports/Rugby", "Sports/Rugby/Leeds")
QUEUES = ("QSPORTS", "QARSENAL", "QSLEEDS", "QFARSENAL", "QRLEEDS")
AFTER_UPSUBS = {
    "QMA": {"QSPORTS": ["Sports", "Sports/Rugby", "Sports/Rugby/Leeds"], "QARSENAL": [],
            "QSLEEDS": ["Sports/Rugby/Leeds"], "QFARSENAL": ["Sports/Football/Arsenal"],
            "QRLEEDS": ["Sports/Rugby/Leeds"]},
    "QMB": {"QSPORTS": ["Sports/Rugby/Leeds"], "QARSENAL": [], "QSLEEDS": ["Sports/Rugby/Leeds"],
            "QFARSENAL": ["Sports/Football/Arsenal"], "QRLEEDS": ["Sports/Rugby/Leeds"]},
}
CROSSING = {("QMA", "Sports/Football/Arsenal"), ("QMA", "Sports/Rugby/Leeds")}


@pytest.fixture(scope="module")
def sport(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Sport]:
    names = ("CL1A", "CL1B", "QMA", "QMB")
    with started(tmp_path_factory.mktemp("sport") / "mqhome", names) as (qmgrs, run_cli):
        formed(run_cli, qmgrs, "CL1", ("CL1A", "CL1B"))
        mqsc(run_cli, qmgrs["QMA"], TOPICS_TST)
        for name in ("CL1A", "CL1B", "QMB"):
            wait_until(lambda name=name: len(cached(qmgrs[name])) == 2, f"{name} caches Football and Rugby",
                       timeout=60)
        yield qmgrs, run_cli


def cached(qmgr: QMgr) -> dict[str, dict[str, str]]:
    """DISPLAY TOPIC(*) TYPE(CLUSTER): {name: attributes}."""
    out = shown(qmgr, "DISPLAY TOPIC(*) TYPE(CLUSTER) TOPICSTR WILDCARD\n")
    return {fields["TOPIC"]: fields for fields in records(out, "AMQ8633I")}


def scripts(sport: Sport, *texts: str, without_fullsubs: bool = False) -> None:
    qmgrs, run_cli = sport
    for name in ("QMA", "QMB"):
        if without_fullsubs:
            mqsc(run_cli, qmgrs[name], "DELETE SUB(FARSENAL)\nDELETE SUB(RLEEDS)\n", ok=False)
        for text in texts:
            mqsc(run_cli, qmgrs[name], text, ok=False)  # (the DELETEs of what is not there fail, as in the seed)
    idle(run_cli, *qmgrs.values())


def pub_bat(sport: Sport, on: str = "QMA") -> int:
    """pub.bat: the five publications on ``on``, body = topic; returns what crossed to the other
    partial repository."""
    qmgrs, run_cli = sport
    other = "QMB" if on == "QMA" else "QMA"
    channel = f"CL1.{other}"
    before = sent_all(qmgrs[on]).get(channel, 0)
    for topic in PUB_BAT:
        publish(qmgrs[on], topic, topic.encode())
    idle(run_cli, *qmgrs.values())
    return sent_all(qmgrs[on]).get(channel, 0) - before


def contents(qmgr: QMgr, queues: tuple[str, ...] = QUEUES) -> dict[str, list[str]]:
    return {queue: [body.decode() for body in bodies(qmgr, queue)] for queue in queues}


def test_cluster_topics_reach_every_member(sport: Sport) -> None:
    """B:SC-26, B:R-CTD-3: QMB, CL1A and CL1B cache Football (WILDCARD(BLOCK)) and Rugby from QMA;
    Sports, Arsenal, Leeds (not clustered) stay on QMA."""
    qmgrs, _ = sport
    for name in ("QMB", "CL1A", "CL1B"):
        copies = cached(qmgrs[name])
        assert set(copies) == {"Football", "Rugby"}, name
        assert copies["Football"]["TOPICSTR"] == "Sports/Football" and copies["Football"]["WILDCARD"] == "BLOCK"
        assert copies["Rugby"]["TOPICSTR"] == "Sports/Rugby" and copies["Rugby"]["CLUSQMGR"] == "QMA"
    assert "AMQ8147" in mqsc(sport[1], qmgrs["QMB"], "DISPLAY TOPIC('Sports')\n", ok=False)


def test_wildcard_subscriptions_only(sport: Sport) -> None:
    """B:SC-27 (seed Table 1): with only wildsubs.tst no proxy subscription exists on any of the
    four, nothing crosses, and QMB's subscribers get nothing of QMA's publications."""
    qmgrs, run_cli = sport
    scripts(sport, WILDSUBS_TST, without_fullsubs=True)
    assert all(proxies(run_cli, qmgr) == set() for qmgr in qmgrs.values())
    assert pub_bat(sport) == 0
    wild = QUEUES[:3]  # wildsubs.tst's (fullsubs.tst's may not exist yet)
    assert contents(qmgrs["QMA"], wild) == {queue: AFTER_UPSUBS["QMA"][queue] for queue in wild}
    assert contents(qmgrs["QMB"], wild) == {queue: [] for queue in wild}


def upsubs(sport: Sport) -> None:
    """upsubs.bat (A-64): wildsubs.tst and fullsubs.tst on QMA and QMB, then the seed's proxies."""
    qmgrs, run_cli = sport
    scripts(sport, WILDSUBS_TST, FULLSUBS_TST)
    wait_until(lambda: proxies(run_cli, qmgrs["QMB"]) == CROSSING, "QMB holds QMA's two proxies")
    assert proxies(run_cli, qmgrs["QMA"]) == {("QMB", topic) for _, topic in CROSSING}
    for name in ("CL1A", "CL1B"):
        assert proxies(run_cli, qmgrs[name]) == CROSSING | {("QMB", topic) for _, topic in CROSSING}


def test_sport_example_after_upsubs(sport: Sport) -> None:
    """B:SC-28 (seed Tables 2-3, R-WCP-7): the subscriptions made through the cluster topic
    objects send proxies (two each way, four at each full repository); pub.bat on QMA sends two
    publications across and the queues hold the seed's table."""
    qmgrs, _ = sport
    upsubs(sport)
    assert pub_bat(sport) == 2
    assert contents(qmgrs["QMA"]) == AFTER_UPSUBS["QMA"]
    assert contents(qmgrs["QMB"]) == AFTER_UPSUBS["QMB"]


def test_refresh_cluster_changes_nothing(sport: Sport) -> None:
    """B:SC-37, A-21: REFRESH CLUSTER(CL1) on QMB: afterwards the same proxies and cached topics,
    and pub.bat gives SC-28's results again, nothing twice."""
    qmgrs, run_cli = sport
    upsubs(sport)
    assert "AMQ8559I" in mqsc(run_cli, qmgrs["QMB"], "REFRESH CLUSTER(CL1)\n")
    wait_until(lambda: set(cached(qmgrs["QMB"])) == {"Football", "Rugby"}
               and proxies(run_cli, qmgrs["QMB"]) == CROSSING
               and proxies(run_cli, qmgrs["QMA"]) == {("QMB", topic) for _, topic in CROSSING},
               "QMB's cluster state back", timeout=60)
    idle(run_cli, *qmgrs.values())
    assert pub_bat(sport) == 2
    assert contents(qmgrs["QMA"]) == AFTER_UPSUBS["QMA"]
    assert contents(qmgrs["QMB"]) == AFTER_UPSUBS["QMB"]


def test_local_override_with_pubscope_qmgr(sport: Sport) -> None:
    """B:SC-30 (seed §3.2.1.1.1): a local Rugby object on QMB, PUBSCOPE(QMGR) and no CLUSTER,
    takes Sports/Rugby out of the cluster there: QMB cancels its Sports/Rugby/Leeds proxy and
    Leeds publications cross neither way; PUBSCOPE(ALL) lets QMB's publications cross again
    (QMB still holds QMA's proxy)."""
    qmgrs, run_cli = sport
    qma, qmb = qmgrs["QMA"], qmgrs["QMB"]
    upsubs(sport)
    try:
        mqsc(run_cli, qmb, "DEFINE TOPIC('Rugby') TOPICSTR('Sports/Rugby') PUBSCOPE(QMGR)\n")
        idle(run_cli, *qmgrs.values())
        assert ("QMB", "Sports/Rugby/Leeds") not in proxies(run_cli, qma)
        publish(qmb, "Sports/Rugby/Leeds", b"from QMB")
        publish(qma, "Sports/Rugby/Leeds", b"from QMA")
        idle(run_cli, *qmgrs.values())
        assert bodies(qma, "QRLEEDS") == [b"from QMA"] and bodies(qmb, "QRLEEDS") == [b"from QMB"]
        mqsc(run_cli, qmb, "ALTER TOPIC('Rugby') PUBSCOPE(ALL)\n")
        idle(run_cli, *qmgrs.values())
        publish(qmb, "Sports/Rugby/Leeds", b"again from QMB")
        idle(run_cli, *qmgrs.values())
        assert bodies(qma, "QRLEEDS") == [b"again from QMB"]
    finally:
        mqsc(run_cli, qmb, "DELETE TOPIC('Rugby')\n", ok=False)
        idle(run_cli, *qmgrs.values())


def test_clustering_system_base_topic_everywhere(sport: Sport) -> None:
    """B:SC-29, R-WCP-8, A-10: with wildsubs.tst only and SYSTEM.BASE.TOPIC clustered on all four,
    QMB's wildcard subscriptions send proxies; pub.bat on QMA sends three publications across
    (Football's are blocked at QMA, the proxy holder) and QMB's queues match QMA's."""
    qmgrs, run_cli = sport
    qma, qmb = qmgrs["QMA"], qmgrs["QMB"]
    scripts(sport, WILDSUBS_TST, without_fullsubs=True)
    try:
        for qmgr in qmgrs.values():
            mqsc(run_cli, qmgr, "ALTER TOPIC(SYSTEM.BASE.TOPIC) CLUSTER(CL1)\n")
        wild = {("QMB", "Sports/#"), ("QMB", "Sports/#/Arsenal"), ("QMB", "Sports/#/Leeds")}
        wait_until(lambda: wild <= proxies(run_cli, qma), "QMA holds QMB's wildcard proxies", timeout=60)
        idle(run_cli, *qmgrs.values())
        assert pub_bat(sport) == 3
        expected = {"QSPORTS": ["Sports", "Sports/Rugby", "Sports/Rugby/Leeds"], "QARSENAL": [],
                    "QSLEEDS": ["Sports/Rugby/Leeds"]}
        assert contents(qma, tuple(expected)) == expected
        assert contents(qmb, tuple(expected)) == expected
    finally:
        for qmgr in qmgrs.values():
            mqsc(run_cli, qmgr, "ALTER TOPIC(SYSTEM.BASE.TOPIC) CLUSTER(' ')\n")
        wait_until(lambda: not any(topic.startswith("Sports/#") for _, topic in proxies(run_cli, qma)),
                   "QMB's wildcard proxies gone", timeout=60)
        idle(run_cli, *qmgrs.values())



def test_local_and_cluster_object_of_the_same_name(sport: Sport) -> None:
    """B:SC-31, R-CTD-5, A-09: QMB's local Alabama comes first: two records in DISPLAY TOPIC TYPE(ALL)
    and no proxy for 'USA/Alabama/Mobile'; once it is deleted the cluster copy applies and the
    proxy reaches QMA and both full repositories."""
    qmgrs, run_cli = sport
    qma, qmb = qmgrs["QMA"], qmgrs["QMB"]
    mqsc(run_cli, qmb, "DEFINE TOPIC(Alabama) TOPICSTR('USA/Alabama')\n")
    mqsc(run_cli, qma, "DEFINE TOPIC(Alabama) TOPICSTR('USA/Alabama') CLUSTER(CL1)\n")
    try:
        wait_until(lambda: "ALABAMA" in cached(qmb), "QMB caches QMA's Alabama", timeout=60)
        both = records(shown(qmb, "DISPLAY TOPIC(Alabama) TYPE(ALL)\n"), "AMQ8633I")
        assert [fields["TYPE"] for fields in both] == ["LOCAL", "CLUSTER"]
        mqsc(run_cli, qmb, "DEFINE QLOCAL(QMOBILE)\nDEFINE SUB(SMOBILE) TOPICSTR('USA/Alabama/Mobile') DEST(QMOBILE)\n")
        idle(run_cli, *qmgrs.values())
        assert ("QMB", "USA/Alabama/Mobile") not in proxies(run_cli, qma)
        mqsc(run_cli, qmb, "DELETE TOPIC(Alabama)\n")
        for name in ("QMA", "CL1A", "CL1B"):
            wait_until(lambda name=name: ("QMB", "USA/Alabama/Mobile") in proxies(run_cli, qmgrs[name]),
                       f"{name} holds QMB's Mobile proxy", timeout=60)
    finally:
        mqsc(run_cli, qmb, "DELETE SUB(SMOBILE)\nDELETE TOPIC(Alabama)\n", ok=False)
        mqsc(run_cli, qma, "DELETE TOPIC(Alabama)\n")
        wait_until(lambda: "ALABAMA" not in cached(qmb), "QMB's copy of Alabama gone", timeout=60)
        idle(run_cli, *qmgrs.values())


def test_conflicting_cluster_definitions(sport: Sport) -> None:
    """B:SC-32, R-CTD-9, R-CTD-10 (A-18, A-19): QMB later defines a differing cluster Football
    (PASSTHRU): the full repositories log the conflict and use QMB's, the newer; QMA logs it and
    keeps its own (BLOCK); QMB uses its own."""
    qmgrs, run_cli = sport
    qma, qmb = qmgrs["QMA"], qmgrs["QMB"]
    mqsc(run_cli, qmb, "DEFINE TOPIC('Football') TOPICSTR('Sports/Football') CLUSTER(CL1) WILDCARD(PASSTHRU)\n")
    try:
        for name in ("CL1A", "CL1B"):
            wait_until(lambda name=name: cached(qmgrs[name])["Football"].get("CLUSQMGR") == "QMB",
                       f"{name} uses QMB's Football", timeout=60)
            assert cached(qmgrs[name])["Football"]["WILDCARD"] == "PASSTHRU"
            wait_until(lambda name=name: "conflicting definitions" in qmgrs[name].error_log(), f"{name} logs it")
        wait_until(lambda: "conflicting definitions" in qma.error_log(), "QMA logs it", timeout=60)
        assert "WILDCARD(BLOCK)" in mqsc(run_cli, qma, "DISPLAY TOPIC('Football') WILDCARD\n")
        assert "WILDCARD(PASSTHRU)" in mqsc(run_cli, qmb, "DISPLAY TOPIC('Football') WILDCARD\n")
    finally:
        mqsc(run_cli, qmb, "DELETE TOPIC('Football')\n")
        wait_until(lambda: all(cached(qmgrs[name])["Football"].get("CLUSQMGR") == "QMA"
                               for name in ("CL1A", "CL1B", "QMB")), "QMA's Football again", timeout=60)
        idle(run_cli, *qmgrs.values())
