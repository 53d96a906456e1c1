"""Overlapping publish/subscribe clusters (B §9, scenarios D): QM3 is in C1 (QM1 its full
repository, QM2) and in C2 (QM5 its full repository, QM4). Subscriptions stay in the cluster of
the topic they resolve to; nothing is passed from one cluster to the other."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from helpers.cluster import join_all
from helpers.hierarchy import bodies, idle, proxies, publish, sent_all
from helpers.mqsc import mqsc
from helpers.qmgrs import QMgr
from helpers.waiting import wait_until

RunCli = Callable[..., Any]


def test_overlapping_clusters(qmgr_factory: Callable[..., QMgr], run_cli: RunCli) -> None:
    """B:SC-38 (each subscription's proxies go to its topic's cluster only; both publications
    reach QM3), B:SC-39 (no gatewaying: QM4's subscription to C1's topic makes no proxy and gets
    nothing; nothing crosses QM3 -> QM4), B:SC-40 (one object in two clusters: QM3 logs it and its
    subscription goes to the cluster whose definition came last)."""
    qmgrs = {name: qmgr_factory(name) for name in ("QM1", "QM2", "QM3", "QM4", "QM5")}
    for qmgr in qmgrs.values():
        mqsc(run_cli, qmgr, "ALTER CHANNEL(SYSTEM.DEF.CLUSSDR) CHLTYPE(CLUSSDR) SHORTTMR(1)\n")
    join_all(run_cli, "C1", [qmgrs["QM1"]], [qmgrs["QM2"], qmgrs["QM3"]])
    join_all(run_cli, "C2", [qmgrs["QM5"]], [qmgrs["QM3"], qmgrs["QM4"]])
    mqsc(run_cli, qmgrs["QM1"], "DEFINE TOPIC(B) TOPICSTR('B') CLUSTER(C1)\n")
    mqsc(run_cli, qmgrs["QM5"], "DEFINE TOPIC(C) TOPICSTR('C') CLUSTER(C2)\n")
    wait_until(lambda: all(name in mqsc(run_cli, qmgrs["QM3"], "DISPLAY TOPIC(*) TYPE(CLUSTER)\n", ok=False)
                           for name in ("TOPIC(B)", "TOPIC(C)")), "QM3 has both cluster topics", timeout=60)
    mqsc(run_cli, qmgrs["QM3"], "DEFINE QLOCAL(QB)\nDEFINE QLOCAL(QC)\n"
                                "DEFINE SUB(SB) TOPICSTR('B/x') DEST(QB)\nDEFINE SUB(SC) TOPICSTR('C/x') DEST(QC)\n")
    idle(run_cli, *qmgrs.values())
    holding = {name: proxies(run_cli, qmgr) for name, qmgr in qmgrs.items()}
    assert {n for n, held in holding.items() if ("QM3", "B/x") in held} == {"QM1", "QM2"}
    assert {n for n, held in holding.items() if ("QM3", "C/x") in held} == {"QM4", "QM5"}
    publish(qmgrs["QM2"], "B/x", b"from C1")
    publish(qmgrs["QM4"], "C/x", b"from C2")
    idle(run_cli, *qmgrs.values())
    assert bodies(qmgrs["QM3"], "QB") == [b"from C1"] and bodies(qmgrs["QM3"], "QC") == [b"from C2"]

    mqsc(run_cli, qmgrs["QM4"], "DEFINE QLOCAL(Q4)\nDEFINE SUB(S4) TOPICSTR('B/x') DEST(Q4)\n")  # SC-39
    idle(run_cli, *qmgrs.values())
    assert all(("QM4", "B/x") not in proxies(run_cli, qmgr) for qmgr in qmgrs.values())
    before = sent_all(qmgrs["QM3"]).get("C2.QM4", 0)
    publish(qmgrs["QM2"], "B/x", b"C1 only")
    idle(run_cli, *qmgrs.values())
    assert bodies(qmgrs["QM3"], "QB") == [b"C1 only"] and bodies(qmgrs["QM4"], "Q4") == []
    assert sent_all(qmgrs["QM3"]).get("C2.QM4", 0) == before

    mqsc(run_cli, qmgrs["QM1"], "DEFINE TOPIC(TA) TOPICSTR('T') CLUSTER(C1)\n")  # SC-40
    wait_until(lambda: "CLUSQMGR(QM1)" in mqsc(run_cli, qmgrs["QM3"], "DISPLAY TOPIC(TA) TYPE(CLUSTER)\n", ok=False),
               "QM3 has C1's TA", timeout=60)
    mqsc(run_cli, qmgrs["QM5"], "DEFINE TOPIC(TA) TOPICSTR('T') CLUSTER(C2)\n")
    wait_until(lambda: "CLUSQMGR(QM5)" in mqsc(run_cli, qmgrs["QM3"], "DISPLAY TOPIC(TA) TYPE(CLUSTER)\n", ok=False),
               "QM3 has C2's TA too", timeout=60)
    mqsc(run_cli, qmgrs["QM3"], "DEFINE QLOCAL(QT)\nDEFINE SUB(ST) TOPICSTR('T/x') DEST(QT)\n")
    idle(run_cli, *qmgrs.values())
    assert {n for n, qmgr in qmgrs.items() if ("QM3", "T/x") in proxies(run_cli, qmgr)} == {"QM4", "QM5"}
    log = qmgrs["QM3"].error_log()
    assert "conflicting definitions of cluster topic" in log
