"""Clusters of real queue manager processes (issue 16): full and partial repositories, cluster
queues reachable from every member with no definition, the workload algorithm at work
(B:§22, B:SC-79, B:SC-85, B:SC-87)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import mqlite.client as mqlite
from helpers.cluster import join_all
from helpers.mqsc import depth, mqsc
from helpers.qmgrs import QMgr
from helpers.waiting import wait_until
from mqlite import cmqc as C

RunCli = Callable[..., Any]


def test_a_cluster_queue_is_reachable_from_a_partial_repository(qmgr_factory: Callable[..., QMgr],
                                                              run_cli: RunCli) -> None:
    fr1, fr2, qm3, qm4 = (qmgr_factory(n) for n in ("FR1", "FR2", "QM3", "QM4"))
    join_all(run_cli, "DEMO", [fr1, fr2], [qm3, qm4])
    mqsc(run_cli, qm3, "DEFINE QLOCAL(Q1) CLUSTER(DEMO)\n")
    # QM4 has no definition of Q1: the full repositories tell it where Q1 is at its first MQOPEN.
    wait_until(lambda: "QUEUE(Q1)" in mqsc(run_cli, fr2, "DISPLAY QCLUSTER(Q1)\n", ok=False),
               "FR2 knows Q1", timeout=60)
    with mqlite.connect("QM4") as q4:
        queue = mqlite.Queue(q4, "Q1")
        for i in range(5):
            queue.put(b"to Q1 %d" % i, mqlite.MD(Persistence=C.MQPER_PERSISTENT))
    wait_until(lambda: depth(run_cli, qm3, "Q1") == 5, "all 5 on QM3", timeout=60)
