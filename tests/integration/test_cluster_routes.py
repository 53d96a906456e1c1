"""Ways into and out of a cluster (seed 001): remote queue definitions that resolve to the
cluster transmission queue (B:SC-83, B:SC-84), a queue-manager alias advertised by a gateway to
a queue manager outside the cluster, and a queue advertised in two clusters by a namelist
(B:SC-90)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import mqlite.client as mqlite
from helpers.cluster import join_all, receive, start_channel_by_put
from helpers.mqsc import depth, mqsc
from helpers.qmgrs import QMgr
from helpers.waiting import wait_until
from mqlite import cmqc as C

RunCli = Callable[..., Any]


def put(qmgr: QMgr, queue: str, body: bytes, target_qmgr: str = "") -> None:
    with mqlite.connect(qmgr.name) as conn:
        q = mqlite.Queue(conn, mqlite.OD(ObjectName=queue, ObjectQMgrName=target_qmgr))
        q.put(body, mqlite.MD(Persistence=C.MQPER_PERSISTENT))


def test_a_remote_queue_definition_resolves_to_the_cluster(qmgr_factory: Callable[..., QMgr],
                                                          run_cli: RunCli) -> None:
    """B:SC-83: QREMOTE(A) RNAME(B) RQMNAME(QM1) on QM2, QM1 a cluster member: the message goes
    through the cluster transmission queue, not QM2's default transmission queue. B:SC-84: a
    transmission queue named QM1 wins over the cluster."""
    fr1, qm1, qm2 = qmgr_factory("FR1"), qmgr_factory("QM1"), qmgr_factory("QM2")
    join_all(run_cli, "DEMO", [fr1], [qm1, qm2])
    mqsc(run_cli, qm1, "DEFINE QLOCAL(B)\n")
    mqsc(run_cli, qm2, "DEFINE QLOCAL(DEFAULT.XMITQ) USAGE(XMITQ)\nALTER QMGR DEFXMITQ(DEFAULT.XMITQ)\n"
                       "DEFINE QREMOTE(A) RNAME(B) RQMNAME(QM1)\n")
    wait_until(lambda: "CLUSQMGR(QM1)" in mqsc(run_cli, fr1, "DISPLAY CLUSQMGR(QM1)\n", ok=False), "FR1 knows QM1")
    put(qm2, "A", b"via the cluster")
    wait_until(lambda: depth(run_cli, qm1, "B") == 1, "the message on B at QM1")
    assert depth(run_cli, qm2, "DEFAULT.XMITQ") == 0
    mqsc(run_cli, qm2, "DEFINE QLOCAL(QM1) USAGE(XMITQ)\n")
    put(qm2, "A", b"via the queue named after QM1")
    assert depth(run_cli, qm2, "QM1") == 1  # no channel serves it: it waits there
    assert depth(run_cli, qm1, "B") == 1


def test_a_gateway_advertises_a_queue_manager_outside_the_cluster(qmgr_factory: Callable[..., QMgr],
                                                                  run_cli: RunCli) -> None:
    """GW is in the cluster and has a channel to OUT, which is not; GW advertises the
    queue-manager alias OUT (QREMOTE, blank RNAME) in the cluster. QM2 puts to APP.IN at OUT
    with nothing defined: the message crosses the cluster to GW and GW's channel to OUT."""
    fr1, gw, qm2, out = (qmgr_factory(n) for n in ("FR1", "GW", "QM2", "OUT"))
    join_all(run_cli, "DEMO", [fr1], [gw, qm2])
    mqsc(run_cli, out, "DEFINE QLOCAL(APP.IN)\nDEFINE CHANNEL(GW.TO.OUT) CHLTYPE(RCVR)\n"
                       "SET CHLAUTH(GW.TO.OUT) TYPE(QMGRMAP) QMNAME(GW) USERSRC(CHANNEL)\n")
    mqsc(run_cli, gw, f"DEFINE QLOCAL(XMIT.OUT) USAGE(XMITQ)\n"
                      f"DEFINE CHANNEL(GW.TO.OUT) CHLTYPE(SDR) CONNAME('127.0.0.1({out.port})') XMITQ(XMIT.OUT)\n"
                      "DEFINE QREMOTE(OUT) RNAME(' ') RQMNAME(OUT) XMITQ(XMIT.OUT) CLUSTER(DEMO)\n")
    wait_until(lambda: "QUEUE(OUT)" in mqsc(run_cli, fr1, "DISPLAY QCLUSTER(OUT)\n", ok=False), "FR1 knows the alias")
    put(qm2, "APP.IN", b"to the world outside", target_qmgr="OUT")
    wait_until(lambda: depth(run_cli, out, "APP.IN") == 1, "the message at OUT", timeout=60)
    with mqlite.connect("OUT") as conn:
        assert mqlite.Queue(conn, "APP.IN").get() == b"to the world outside"


def test_a_namelist_advertises_a_queue_in_two_clusters(qmgr_factory: Callable[..., QMgr],
                                                       run_cli: RunCli) -> None:
    """B:SC-90: QB with CLUSNL(CLS), CLS naming SALES and INV: a member of SALES only and a member
    of INV only both put to it. FR1 is the full repository of both (REPOSNL)."""
    fr1, qm1, sales, inv = (qmgr_factory(n) for n in ("FR1", "QM1", "QMS", "QMI"))
    for qmgr in (fr1, qm1):
        mqsc(run_cli, qmgr, "DEFINE NAMELIST(CLS) NAMES(SALES, INV)\n")
    mqsc(run_cli, fr1, "ALTER QMGR REPOSNL(CLS)\nDEFINE CHANNEL(ALL.FR1) CHLTYPE(CLUSRCVR) CLUSNL(CLS)\n"
                       "SET CHLAUTH('*.*') TYPE(QMGRMAP) QMNAME('*') USERSRC(CHANNEL)\n")
    mqsc(run_cli, qm1, "DEFINE CHANNEL(ALL.QM1) CHLTYPE(CLUSRCVR) CLUSNL(CLS)\n"
                       "SET CHLAUTH('*.*') TYPE(QMGRMAP) QMNAME('*') USERSRC(CHANNEL)\n"
                       f"DEFINE CHANNEL(ALL.FR1) CHLTYPE(CLUSSDR) CONNAME('127.0.0.1({fr1.port})') CLUSNL(CLS)\n")
    receive(run_cli, sales, "SALES")
    receive(run_cli, inv, "INV")
    mqsc(run_cli, sales, f"DEFINE CHANNEL(ALL.FR1) CHLTYPE(CLUSSDR) CONNAME('127.0.0.1({fr1.port})') CLUSTER(SALES)\n")
    mqsc(run_cli, inv, f"DEFINE CHANNEL(ALL.FR1) CHLTYPE(CLUSSDR) CONNAME('127.0.0.1({fr1.port})') CLUSTER(INV)\n")
    mqsc(run_cli, qm1, "DEFINE QLOCAL(QB) CLUSNL(CLS)\n")
    wait_until(lambda: mqsc(run_cli, fr1, "DISPLAY QCLUSTER(QB)\n", ok=False).count("QUEUE(QB)") == 2,
               "FR1 knows QB in both clusters")
    put(sales, "QB", b"from sales")
    put(inv, "QB", b"from inventory")
    wait_until(lambda: depth(run_cli, qm1, "QB") == 2, "both on QB")
    shown = mqsc(run_cli, sales, "DISPLAY QCLUSTER(QB) CLUSTER\n")
    assert "CLUSTER(SALES)" in shown and "CLUSTER(INV)" not in shown  # each member sees its own cluster's


def test_clwluseq_any_shares_puts_between_the_local_instance_and_the_others(
        qmgr_factory: Callable[..., QMgr], run_cli: RunCli) -> None:
    """B:R-BIND-4 (CLWLUSEQ): QM1 and QM2 both host Q; by default QM2's applications put to its
    own instance (CLWLUSEQ(LOCAL) through QMGR); with CLWLUSEQ(ANY) on QM2's Q the workload
    algorithm spreads them between QM2's instance and QM1's."""
    fr1, qm1, qm2 = qmgr_factory("FR1"), qmgr_factory("QM1"), qmgr_factory("QM2")
    join_all(run_cli, "DEMO", [fr1], [qm1, qm2])
    for qmgr in (qm1, qm2):
        mqsc(run_cli, qmgr, "DEFINE QLOCAL(Q) CLUSTER(DEMO) DEFBIND(NOTFIXED)\n")
    wait_until(lambda: mqsc(run_cli, fr1, "DISPLAY QCLUSTER(Q)\n", ok=False).count("QUEUE(Q)") == 2, "FR1 knows both")
    for i in range(4):
        put(qm2, "Q", b"local %d" % i)
    assert depth(run_cli, qm2, "Q") == 4 and depth(run_cli, qm1, "Q") == 0  # CLWLUSEQ(QMGR) -> LOCAL
    mqsc(run_cli, qm2, "ALTER QLOCAL(Q) CLWLUSEQ(ANY)\n")
    with mqlite.connect("QM2") as conn:
        mqlite.Queue(conn, "Q", C.MQOO_OUTPUT).close()  # (QM2 learns of QM1's instance)
    wait_until(lambda: mqsc(run_cli, qm2, "DISPLAY QCLUSTER(Q)\n", ok=False).count("QUEUE(Q)") == 2,
               "QM2 knows both instances")
    start_channel_by_put(run_cli, qm2, "DEMO", "QM1", "Q")  # both destinations equally ready
    wait_until(lambda: depth(run_cli, qm1, "Q") == 1, "the warm-up message on QM1's instance")
    with mqlite.connect("QM2") as conn:
        queue = mqlite.Queue(conn, "Q", C.MQOO_OUTPUT | C.MQOO_BIND_NOT_FIXED)
        for i in range(4):
            queue.put(b"spread %d" % i)
    wait_until(lambda: depth(run_cli, qm1, "Q") == 3, "two more on QM1's instance")
    assert depth(run_cli, qm2, "Q") == 6
