"""Combined topic spaces (B §12, scenarios G): three clusters joined by a hierarchy (SC-60,
SC-61), nine queue managers as real processes shared by the module's tests."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from helpers.cluster import join_all
from helpers.hierarchy import bodies, idle, link, proxies, publish, sent_all, set_parent
from helpers.module_qmgrs import started
from helpers.mqsc import mqsc
from helpers.qmgrs import QMgr
from helpers.waiting import wait_until

RunCli = Callable[..., Any]
Network = tuple[dict[str, QMgr], RunCli]
NAMES = tuple(f"QM{n}" for n in range(1, 10))
CLUSTERS = {"C1": ("QM1", ("QM2", "QM3")), "C2": ("QM5", ("QM4", "QM6")), "C3": ("QM8", ("QM7", "QM9"))}


@pytest.fixture(scope="module")
def network(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Network]:
    """A-32: C1 = {QM1 (full repository), QM2, QM3}, C2 = {QM4, QM5 (full), QM6}, C3 = {QM7,
    QM8 (full), QM9}; QM4 and QM7 are QM3's children over sender/receiver channels."""
    with started(tmp_path_factory.mktemp("topologies") / "mqhome", NAMES) as (qmgrs, run_cli):
        for qmgr in qmgrs.values():
            mqsc(run_cli, qmgr, "ALTER CHANNEL(SYSTEM.DEF.CLUSSDR) CHLTYPE(CLUSSDR) SHORTTMR(1)\n")
        for cluster, (full, partial) in CLUSTERS.items():
            join_all(run_cli, cluster, [qmgrs[full]], [qmgrs[name] for name in partial])
        for child in ("QM4", "QM7"):
            link(run_cli, qmgrs["QM3"], qmgrs[child])
            set_parent(run_cli, qmgrs[child], qmgrs["QM3"])
        idle(run_cli, *qmgrs.values())
        yield qmgrs, run_cli


def test_clusters_joined_by_a_hierarchy(network: Network) -> None:
    """B:SC-60, B:R-TSP-4: USA defined in each cluster (on QM1, QM5, QM8); a subscription on QM9
    puts proxies through every cluster and the hierarchy; QM5's publication crosses
    QM5 -> QM4 -> QM3 -> QM7 -> QM9, one copy per hop, and arrives once."""
    qmgrs, run_cli = network
    for host, cluster in (("QM1", "C1"), ("QM5", "C2"), ("QM8", "C3")):
        mqsc(run_cli, qmgrs[host], f"DEFINE TOPIC(USA) TOPICSTR('USA') CLUSTER({cluster})\n")
    for name in NAMES:
        wait_until(lambda name=name: "TOPIC(USA)" in mqsc(run_cli, qmgrs[name], "DISPLAY TOPIC(USA) TYPE(ALL)\n",
                                                          ok=False).replace("DISPLAY TOPIC(USA)", ""),
                   f"{name} knows USA", timeout=90)
    mqsc(run_cli, qmgrs["QM9"], "DEFINE QLOCAL(NY)\nDEFINE SUB(SNY) TOPICSTR('USA/NY') DEST(NY)\n")
    idle(run_cli, *qmgrs.values())
    holders = {name: {origin for origin, topic in proxies(run_cli, qmgr) if topic == "USA/NY"}
               for name, qmgr in qmgrs.items()}
    assert holders == {"QM1": {"QM3"}, "QM2": {"QM3"}, "QM3": {"QM7"}, "QM4": {"QM3"}, "QM5": {"QM4"},
                       "QM6": {"QM4"}, "QM7": {"QM9"}, "QM8": {"QM9"}, "QM9": set()}
    before = {name: sent_all(qmgr) for name, qmgr in qmgrs.items()}
    publish(qmgrs["QM5"], "USA/NY", b"from C2")
    idle(run_cli, *qmgrs.values())
    moved = {}
    for name, qmgr in qmgrs.items():
        for channel, count in sent_all(qmgr).items():
            if count != before[name].get(channel, 0):
                moved[channel] = count - before[name].get(channel, 0)
    assert moved == {"C2.QM4": 1, "QM4.TO.QM3": 1, "QM3.TO.QM7": 1, "C3.QM9": 1}
    assert bodies(qmgrs["QM9"], "NY") == [b"from C2"]
    mqsc(run_cli, qmgrs["QM9"], "DELETE SUB(SNY)\n")
    idle(run_cli, *qmgrs.values())


def test_a_topic_clustered_in_one_cluster_only(network: Network) -> None:
    """B:SC-61: USA defined only on QM7 (cluster C3): a subscription on QM5 makes no proxy; one on
    QM3 reaches QM3's children and, through QM7, C3; QM9's publication reaches QM3, QM5's nobody."""
    qmgrs, run_cli = network
    for host in ("QM1", "QM5", "QM8"):
        mqsc(run_cli, qmgrs[host], "DELETE TOPIC(USA)\n", ok=False)
    mqsc(run_cli, qmgrs["QM7"], "DEFINE TOPIC(USA) TOPICSTR('USA') CLUSTER(C3)\n")
    wait_until(lambda: "CLUSQMGR(QM7)" in mqsc(run_cli, qmgrs["QM9"], "DISPLAY TOPIC(USA) TYPE(CLUSTER)\n", ok=False)
               and "CLUSQMGR(" not in mqsc(run_cli, qmgrs["QM2"], "DISPLAY TOPIC(*) TYPE(CLUSTER)\n", ok=False),
               "only C3 has USA", timeout=90)
    idle(run_cli, *qmgrs.values())
    mqsc(run_cli, qmgrs["QM5"], "DEFINE QLOCAL(NY5)\nDEFINE SUB(S5) TOPICSTR('USA/NY') DEST(NY5)\n")
    mqsc(run_cli, qmgrs["QM3"], "DEFINE QLOCAL(NY3)\nDEFINE SUB(S3) TOPICSTR('USA/NY') DEST(NY3)\n")
    idle(run_cli, *qmgrs.values())
    holders = {name: {origin for origin, topic in proxies(run_cli, qmgr) if topic == "USA/NY"}
               for name, qmgr in qmgrs.items()}
    assert holders == {"QM1": set(), "QM2": set(), "QM3": set(), "QM4": {"QM3"}, "QM5": set(), "QM6": set(),
                       "QM7": {"QM3"}, "QM8": {"QM7"}, "QM9": {"QM7"}}
    publish(qmgrs["QM9"], "USA/NY", b"from C3")
    publish(qmgrs["QM5"], "USA/NY", b"from C2")
    idle(run_cli, *qmgrs.values())
    assert bodies(qmgrs["QM3"], "NY3") == [b"from C3"] and bodies(qmgrs["QM5"], "NY5") == [b"from C2"]
