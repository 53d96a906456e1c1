"""Publish/subscribe clusters with TOPICHOST routing (seed 000, B §8, scenarios E): the topic
hosts route every publication; members talk to the hosts only. Two full repositories and four
partial ones as real processes, shared by the tests of this module (cluster HOSTED)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from helpers.cluster import formed
from helpers.hierarchy import bodies, idle, link, proxies, publish, sent, sent_all, set_parent, shown
from helpers.module_qmgrs import started
from helpers.mqsc import depth, mqsc
from helpers.qmgrs import QMgr
from helpers.waiting import wait_until

RunCli = Callable[..., Any]
Hosted = tuple[dict[str, QMgr], RunCli]
CLUSTER = "HOSTED"
NAMES = ("FR1", "FR2", "QM1", "QM2", "QM3", "QM4")


@pytest.fixture(scope="module")
def hosted(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hosted]:
    """F-DEMO with PRICE ('Price') CLROUTE(TOPICHOST) on QM1; S3 'Price/Fruit' on QM3."""
    with started(tmp_path_factory.mktemp("topichost") / "mqhome", NAMES) as (qmgrs, run_cli):
        formed(run_cli, qmgrs, CLUSTER, ("FR1", "FR2"))
        mqsc(run_cli, qmgrs["QM1"], f"DEFINE TOPIC(PRICE) TOPICSTR('Price') CLUSTER({CLUSTER}) CLROUTE(TOPICHOST)\n")
        for name in ("QM2", "QM3", "QM4"):
            wait_until(lambda name=name: "PRICE" in mqsc(run_cli, qmgrs[name], "DISPLAY TOPIC(*) TYPE(CLUSTER)\n",
                                                         ok=False), f"{name} has the cluster topic", timeout=60)
        mqsc(run_cli, qmgrs["QM3"], "DEFINE QLOCAL(S3Q)\nDEFINE SUB(S3) TOPICSTR('Price/Fruit') DEST(S3Q)\n")
        idle(run_cli, *qmgrs.values())
        yield qmgrs, run_cli


def one_host(hosted: Hosted) -> None:
    """PRICE hosted by QM1 alone (QM4's definition, which one test makes, gone): the module's tests
    run in any order."""
    qmgrs, run_cli = hosted
    mqsc(run_cli, qmgrs["QM4"], "DELETE TOPIC(PRICE)\n", ok=False)
    wait_until(lambda: re.findall(r"CLUSQMGR\((\w+)\)", shown(qmgrs["QM2"], "DISPLAY TOPIC(PRICE) TYPE(CLUSTER)\n"))
               == ["QM1"] and ("QM3", "Price/Fruit") not in proxies(run_cli, qmgrs["QM4"]), "QM1 the only host",
               timeout=60)
    for name in ("QM2", "QM4"):  # their channels to the host running (MSGS counts from a channel's start)
        publish(qmgrs[name], "Price/Warm", b"warm-up")
    idle(run_cli, *qmgrs.values())


def crossing(run_cli: RunCli, qmgrs: dict[str, QMgr]) -> dict[tuple[str, str], int]:
    """Messages each member's cluster-senders have sent, by (from, to)."""
    found = {}
    for a in NAMES:
        counts = sent_all(qmgrs[a])
        found.update({(a, b): counts.get(f"{CLUSTER}.{b}", 0) for b in NAMES if a != b})
    return found


def moved(before: dict[tuple[str, str], int], after: dict[tuple[str, str], int]) -> dict[tuple[str, str], int]:
    return {pair: after[pair] - before[pair] for pair in after if after[pair] != before[pair]}


def test_one_host(hosted: Hosted) -> None:
    """B:SC-42 (proxies on the host only; a publication goes through the host; QM2 and QM3 never
    get a channel between them; a publication with no subscriber anywhere still goes to the host),
    B:SC-43 (the host's own publication: one hop)."""
    qmgrs, run_cli = hosted
    one_host(hosted)
    found = {name: proxies(run_cli, qmgr) for name, qmgr in qmgrs.items()}
    assert {name for name, subs in found.items() if ("QM3", "Price/Fruit") in subs} == {"QM1"}
    before = crossing(run_cli, qmgrs)
    publish(qmgrs["QM2"], "Price/Fruit", b"P")
    idle(run_cli, *qmgrs.values())
    assert bodies(qmgrs["QM3"], "S3Q") == [b"P"]
    assert moved(before, crossing(run_cli, qmgrs)) == {("QM2", "QM1"): 1, ("QM1", "QM3"): 1}
    for a, b in (("QM2", "QM3"), ("QM3", "QM2")):
        assert f"{CLUSTER}.{b}" not in mqsc(run_cli, qmgrs[a], "DISPLAY CHANNEL(*) CHLTYPE(CLUSSDR)\n", ok=False)
    before = crossing(run_cli, qmgrs)
    publish(qmgrs["QM4"], "Price/Veg", b"nobody")
    idle(run_cli, *qmgrs.values())
    assert moved(before, crossing(run_cli, qmgrs)) == {("QM4", "QM1"): 1}
    before = crossing(run_cli, qmgrs)
    publish(qmgrs["QM1"], "Price/Fruit", b"from the host")
    idle(run_cli, *qmgrs.values())
    assert moved(before, crossing(run_cli, qmgrs)) == {("QM1", "QM3"): 1}
    assert bodies(qmgrs["QM3"], "S3Q") == [b"from the host"]


def test_a_subscriber_beside_the_publisher(hosted: Hosted) -> None:
    """B:SC-45, B:R-RTE-8: QM2's own subscriber is served at once; the host does not send the
    publication back to QM2; each subscriber gets it once."""
    qmgrs, run_cli = hosted
    one_host(hosted)
    qm2 = qmgrs["QM2"]
    mqsc(run_cli, qm2, "DEFINE QLOCAL(S2Q)\nDEFINE SUB(S2) TOPICSTR('Price/Fruit') DEST(S2Q)\n")
    idle(run_cli, *qmgrs.values())
    before = crossing(run_cli, qmgrs)
    publish(qm2, "Price/Fruit", b"P")
    idle(run_cli, *qmgrs.values())
    assert bodies(qm2, "S2Q") == [b"P"] and bodies(qmgrs["QM3"], "S3Q") == [b"P"]
    assert moved(before, crossing(run_cli, qmgrs)) == {("QM2", "QM1"): 1, ("QM1", "QM3"): 1}
    mqsc(run_cli, qm2, "DELETE SUB(S2)\n")
    idle(run_cli, *qmgrs.values())


def test_a_subscriber_on_the_host_only(hosted: Hosted) -> None:
    """B:SC-44: the only subscription is on the host QM1: QM2's publication crosses to QM1 once,
    is delivered there, and QM1 passes it on to nobody."""
    qmgrs, run_cli = hosted
    one_host(hosted)
    qm1 = qmgrs["QM1"]
    mqsc(run_cli, qm1, "DEFINE QLOCAL(S1Q)\nDEFINE SUB(S1) TOPICSTR('Price/Host') DEST(S1Q)\n")
    idle(run_cli, *qmgrs.values())
    before = crossing(run_cli, qmgrs)
    publish(qmgrs["QM2"], "Price/Host", b"P")
    idle(run_cli, *qmgrs.values())
    assert bodies(qm1, "S1Q") == [b"P"]
    assert moved(before, crossing(run_cli, qmgrs)) == {("QM2", "QM1"): 1}
    mqsc(run_cli, qm1, "DELETE SUB(S1)\n")
    idle(run_cli, *qmgrs.values())


def test_two_hosts_share_and_one_fails(hosted: Hosted) -> None:
    """B:SC-46 (a second identical definition on QM4: QM2's publications alternate between the
    hosts, each arrives once), B:SC-47 (QM1 ended: all go through QM4; back: the rotation resumes)."""
    qmgrs, run_cli = hosted
    one_host(hosted)
    qm2, qm3, qm4 = qmgrs["QM2"], qmgrs["QM3"], qmgrs["QM4"]
    mqsc(run_cli, qm4, f"DEFINE TOPIC(PRICE) TOPICSTR('Price') CLUSTER({CLUSTER}) CLROUTE(TOPICHOST)\n")
    wait_until(lambda: ("QM3", "Price/Fruit") in proxies(run_cli, qm4), "QM4 holds QM3's proxy", timeout=60)
    idle(run_cli, *qmgrs.values())
    before = crossing(run_cli, qmgrs)
    for n in range(4):
        publish(qm2, "Price/Fruit", b"%d" % n)
    idle(run_cli, *qmgrs.values())
    assert sorted(bodies(qm3, "S3Q")) == [b"0", b"1", b"2", b"3"]
    assert moved(before, crossing(run_cli, qmgrs)) == {("QM2", "QM1"): 2, ("QM2", "QM4"): 2, ("QM1", "QM3"): 2,
                                                       ("QM4", "QM3"): 2}
    # B:SC-47: QM1 ended, QM2's channel to it retrying: every publication goes through QM4
    assert run_cli("endmqm", "-i", "QM1").returncode == 0
    try:
        publish(qm2, "Price/Veg", b"wake")  # (a publication for QM1 in turn shows QM2 it is gone)
        wait_until(lambda: "RETRYING" in mqsc(run_cli, qm2, f"DISPLAY CHSTATUS({CLUSTER}.QM1)\n", ok=False),
                   "QM2's channel to QM1 retrying", timeout=60)
        before = sent(run_cli, qm2, f"{CLUSTER}.QM4")
        for n in range(3):
            publish(qm2, "Price/Fruit", b"via QM4 %d" % n)
        wait_until(lambda: depth(run_cli, qm3, "S3Q") == 3, "the three at QM3")
        assert bodies(qm3, "S3Q") == [b"via QM4 0", b"via QM4 1", b"via QM4 2"]
        assert sent(run_cli, qm2, f"{CLUSTER}.QM4") - before == 3
    finally:
        assert run_cli("strmqm", "QM1").returncode == 0
    idle(run_cli, *qmgrs.values())


def test_all_hosts_unavailable(hosted: Hosted) -> None:
    """B:SC-48, B:R-RTE-10 (A-23): with both hosts ended, QM2's publication waits on its cluster
    transmission queue for a host and, once the hosts are back, reaches S3 exactly once."""
    qmgrs, run_cli = hosted
    one_host(hosted)
    qm2, qm3, qm4 = qmgrs["QM2"], qmgrs["QM3"], qmgrs["QM4"]
    mqsc(run_cli, qm4, f"DEFINE TOPIC(PRICE) TOPICSTR('Price') CLUSTER({CLUSTER}) CLROUTE(TOPICHOST)\n")
    wait_until(lambda: ("QM3", "Price/Fruit") in proxies(run_cli, qm4), "QM4 holds QM3's proxy", timeout=60)
    for n in range(2):  # QM2's channels to both hosts running
        publish(qm2, "Price/Warm", b"warm-up %d" % n)
    idle(run_cli, *qmgrs.values())
    for host in ("QM1", "QM4"):
        assert run_cli("endmqm", "-i", host).returncode == 0
    try:
        wait_until(lambda: all("RETRYING" in mqsc(run_cli, qm2, f"DISPLAY CHSTATUS({CLUSTER}.{host})\n", ok=False)
                               for host in ("QM1", "QM4")), "QM2's channels to both hosts retrying", timeout=60)
        publish(qm2, "Price/Fruit", b"P")
        assert depth(run_cli, qm2, "SYSTEM.CLUSTER.TRANSMIT.QUEUE") == 1  # waiting, not lost
        assert bodies(qm3, "S3Q") == []
    finally:
        for host in ("QM1", "QM4"):
            assert run_cli("strmqm", host).returncode == 0
    wait_until(lambda: depth(run_cli, qm3, "S3Q") == 1, "P at QM3", timeout=60)
    idle(run_cli, *qmgrs.values())
    assert bodies(qm3, "S3Q") == [b"P"]
    mqsc(run_cli, qm4, "DELETE TOPIC(PRICE)\n")
    idle(run_cli, *qmgrs.values())


def test_topichost_does_not_span_a_hierarchy(hosted: Hosted) -> None:
    """B:SC-49, B:R-RTE-12, A-05: HX, in no cluster, is QM3's child; its subscription's proxy
    stops at QM3 (none goes to the host QM1), and QM2's publication never reaches HX."""
    qmgrs, run_cli = hosted
    home = qmgrs["QM1"].home
    assert run_cli("crtmqm", "-p", "0", "HX").returncode == 0
    assert run_cli("strmqm", "HX").returncode == 0
    hx = QMgr("HX", home)
    try:
        link(run_cli, qmgrs["QM3"], hx)
        set_parent(run_cli, hx, qmgrs["QM3"])
        mqsc(run_cli, hx, "DEFINE QLOCAL(HXQ)\nDEFINE SUB(HXS) TOPICSTR('Price/x') DEST(HXQ)\n")
        idle(run_cli, hx, *qmgrs.values())
        assert ("HX", "Price/x") in proxies(run_cli, qmgrs["QM3"])
        assert all(topic != "Price/x" for _, topic in proxies(run_cli, qmgrs["QM1"]))
        publish(qmgrs["QM2"], "Price/x", b"stays in the cluster")
        idle(run_cli, hx, *qmgrs.values())
        assert bodies(hx, "HXQ") == []
    finally:
        run_cli("endmqm", "-i", "HX")
