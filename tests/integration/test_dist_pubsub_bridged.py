"""Bridged clusters (B:SC-62, R-TSP-5, A-32): three clusters and QM10, in none of them, the
parent of QM3, QM4 and QM7. Every SYSTEM.BASE.TOPIC is SUBSCOPE(QMGR) PUBSCOPE(QMGR), so only
topics under USA (defined in each cluster and on QM10 with both scopes ALL) cross between the
clusters; Atlanta stays in cluster C1 and anything else on its queue manager. Ten queue managers
as real processes: behind the slow marker (``pytest -m slow``)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from helpers.cluster import join_all
from helpers.hierarchy import bodies, idle, link, proxies, publish, set_parent
from helpers.module_qmgrs import started
from helpers.mqsc import mqsc
from helpers.qmgrs import QMgr
from helpers.waiting import wait_until

pytestmark = pytest.mark.slow

RunCli = Callable[..., Any]
Network = tuple[dict[str, QMgr], RunCli]
NAMES = tuple(f"QM{n}" for n in range(1, 11))
CLUSTERS = {"C1": ("QM1", ("QM2", "QM3")), "C2": ("QM5", ("QM4", "QM6")), "C3": ("QM8", ("QM7", "QM9"))}
SCOPES_ALL = "SUBSCOPE(ALL) PUBSCOPE(ALL)"


@pytest.fixture(scope="module")
def bridged(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Network]:
    with started(tmp_path_factory.mktemp("bridged") / "mqhome", NAMES) as (qmgrs, run_cli):
        for qmgr in qmgrs.values():
            mqsc(run_cli, qmgr, "ALTER CHANNEL(SYSTEM.DEF.CLUSSDR) CHLTYPE(CLUSSDR) SHORTTMR(1)\n"
                                "ALTER TOPIC(SYSTEM.BASE.TOPIC) SUBSCOPE(QMGR) PUBSCOPE(QMGR)\n")
        for cluster, (full, partial) in CLUSTERS.items():
            join_all(run_cli, cluster, [qmgrs[full]], [qmgrs[name] for name in partial])
        for child in ("QM3", "QM4", "QM7"):
            link(run_cli, qmgrs["QM10"], qmgrs[child])
            set_parent(run_cli, qmgrs[child], qmgrs["QM10"])
        for host, cluster in (("QM1", "C1"), ("QM5", "C2"), ("QM8", "C3")):
            mqsc(run_cli, qmgrs[host], f"DEFINE TOPIC(USA) TOPICSTR('USA') CLUSTER({cluster}) {SCOPES_ALL}\n")
        mqsc(run_cli, qmgrs["QM10"], f"DEFINE TOPIC(USA) TOPICSTR('USA') {SCOPES_ALL}\n")
        mqsc(run_cli, qmgrs["QM1"], f"DEFINE TOPIC(ATLANTA) TOPICSTR('Atlanta') CLUSTER(C1) {SCOPES_ALL}\n")
        for name in NAMES:
            if name != "QM10":
                wait_until(lambda name=name: "TOPIC(USA)" in mqsc(
                    run_cli, qmgrs[name], "DISPLAY TOPIC(USA) TYPE(ALL)\n", ok=False).replace("DISPLAY TOPIC(USA)", ""),
                    f"{name} knows USA", timeout=90)
        idle(run_cli, *qmgrs.values())
        yield qmgrs, run_cli


def _holders(run_cli: RunCli, qmgrs: dict[str, QMgr], topic: str) -> dict[str, set[str]]:
    return {name: found for name, qmgr in qmgrs.items()
            if (found := {origin for origin, held in proxies(run_cli, qmgr) if held == topic})}


def test_usa_crosses_the_bridge(bridged: Network) -> None:
    """B:SC-62: 'USA/x' subscribed on QM8 and published on QM2 travels QM2 -> QM3 -> QM10 -> QM7 ->
    QM8 and arrives once."""
    qmgrs, run_cli = bridged
    mqsc(run_cli, qmgrs["QM8"], "DEFINE QLOCAL(X8)\nDEFINE SUB(SX8) TOPICSTR('USA/x') DEST(X8)\n")
    idle(run_cli, *qmgrs.values())
    assert {"QM3", "QM10", "QM7"} <= set(_holders(run_cli, qmgrs, "USA/x"))
    publish(qmgrs["QM2"], "USA/x", b"over the bridge")
    wait_until(lambda: bodies(qmgrs["QM8"], "X8") == [b"over the bridge"], "the publication at QM8", timeout=60)
    idle(run_cli, *qmgrs.values())
    assert bodies(qmgrs["QM8"], "X8") == []  # once
    mqsc(run_cli, qmgrs["QM8"], "DELETE SUB(SX8)\n")
    idle(run_cli, *qmgrs.values())


def test_atlanta_stays_in_its_cluster_and_local_topics_at_home(bridged: Network) -> None:
    """B:SC-62: 'Atlanta/x' subscribed on QM1 has proxies at QM2, QM3 and, from QM3, QM10, none
    beyond; QM5's 'Atlanta/x' subscriber never gets QM2's publication; 'Local/x' never leaves."""
    qmgrs, run_cli = bridged
    mqsc(run_cli, qmgrs["QM1"], "DEFINE QLOCAL(A1)\nDEFINE SUB(SA1) TOPICSTR('Atlanta/x') DEST(A1)\n"
                                "DEFINE QLOCAL(L1)\nDEFINE SUB(SL1) TOPICSTR('Local/x') DEST(L1)\n")
    mqsc(run_cli, qmgrs["QM5"], "DEFINE QLOCAL(A5)\nDEFINE SUB(SA5) TOPICSTR('Atlanta/x') DEST(A5)\n")
    idle(run_cli, *qmgrs.values())
    assert _holders(run_cli, qmgrs, "Atlanta/x") == {"QM2": {"QM1"}, "QM3": {"QM1"}, "QM10": {"QM3"}}
    assert _holders(run_cli, qmgrs, "Local/x") == {}
    publish(qmgrs["QM2"], "Atlanta/x", b"A")
    publish(qmgrs["QM2"], "Local/x", b"L")
    idle(run_cli, *qmgrs.values())
    assert bodies(qmgrs["QM1"], "A1") == [b"A"] and bodies(qmgrs["QM5"], "A5") == []
    assert bodies(qmgrs["QM1"], "L1") == []
    mqsc(run_cli, qmgrs["QM1"], "DELETE SUB(SA1)\nDELETE SUB(SL1)\n")
    mqsc(run_cli, qmgrs["QM5"], "DELETE SUB(SA5)\n")
    idle(run_cli, *qmgrs.values())
