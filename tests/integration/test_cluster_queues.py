"""A cluster of two full and three partial repositories as real processes (issue 16): cluster
queues with several instances, the workload algorithm across them, binding, suspension, a member
killed with kill -9 (B:§22, B:SC-85, B:SC-86, B:SC-87, B:SC-88, B:SC-89)."""

from __future__ import annotations

import os
import re
import signal
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import mqlite.client as mqlite
from helpers.cluster import join_all, start_channel_by_put
from helpers.credentials import APP, add_user, grant_app
from helpers.hierarchy import bodies as drain
from helpers.module_qmgrs import runner, started
from helpers.mqsc import depth, mqsc
from helpers.qmgrs import QMgr, server_pids
from helpers.waiting import wait_until
from mqlite import cmqc as C

RunCli = Callable[..., Any]
CLUSTER = "DEMO"


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, QMgr]]:
    """FR1 and FR2 (full repositories), QM3, QM4 and QM5 (partial ones); Q1 on QM3 and QM5,
    defined once the cluster has formed; QM4 puts (it has no definition of Q1)."""

    with started(tmp_path_factory.mktemp("cluster") / "mqhome", ("FR1", "FR2", "QM3", "QM4", "QM5")) as (
            qmgrs, run_cli):
        # The auto-defined cluster-senders retry after 1 s (their timers are SYSTEM.DEF.CLUSSDR's).
        for qmgr in qmgrs.values():
            mqsc(run_cli, qmgr, "ALTER CHANNEL(SYSTEM.DEF.CLUSSDR) CHLTYPE(CLUSSDR) SHORTTMR(1)\n")
        join_all(run_cli, CLUSTER, [qmgrs["FR1"], qmgrs["FR2"]], [qmgrs["QM3"], qmgrs["QM4"], qmgrs["QM5"]])
        for name in ("QM3", "QM5"):
            mqsc(run_cli, qmgrs[name], f"DEFINE QLOCAL(Q1) CLUSTER({CLUSTER}) DEFBIND(NOTFIXED) MAXDEPTH(20000)\n")
        for fr in ("FR1", "FR2"):
            wait_until(lambda fr=fr: mqsc(run_cli, qmgrs[fr], "DISPLAY QCLUSTER(Q1)\n", ok=False).count("QUEUE(Q1)")
                       == 2, f"{fr} knows both instances", timeout=60)
        yield qmgrs


def run(qmgrs: dict[str, QMgr]) -> RunCli:
    return runner(next(iter(qmgrs.values())).home)


def knows_both(run_cli: RunCli, qmgrs: dict[str, QMgr]) -> None:
    """QM4 has asked the full repositories about Q1 (its first MQOPEN does) and knows both
    instances, and its channels to both run (the workload algorithm prefers a running channel to
    one still starting: a test of round robin needs them equal); the instances are empty. Tests
    run in any order, after any other."""
    with mqlite.connect("QM4") as conn:
        mqlite.Queue(conn, "Q1", C.MQOO_OUTPUT).close()
    wait_until(lambda: mqsc(run_cli, qmgrs["QM4"], "DISPLAY QCLUSTER(Q1)\n", ok=False).count("QUEUE(Q1)") == 2,
               "QM4 knows both instances of Q1", timeout=60)
    for name in ("QM3", "QM5"):
        start_channel_by_put(run_cli, qmgrs["QM4"], CLUSTER, name, "Q1")
    wait_until(lambda: depth(run_cli, qmgrs["QM3"], "Q1") >= 1 and depth(run_cli, qmgrs["QM5"], "Q1") >= 1,
               "the warm-up messages on both")
    drain(qmgrs["QM3"], "Q1")
    drain(qmgrs["QM5"], "Q1")


def diagnostics(run_cli: RunCli, qmgrs: dict[str, QMgr]) -> str:
    """What each member shows of the cluster and its channels, and its error log's end."""
    from mqlite import paths

    out = []
    for name, qmgr in qmgrs.items():
        out.append(f"== {name}\n" + mqsc(run_cli, qmgr, "DISPLAY CLUSQMGR(*) CLWLWGHT QMTYPE STATUS\n"
                                                       "DISPLAY CHSTATUS(*) STATUS MSGS\n", ok=False))
        out.append("\n".join((paths.qmgr_dir(name) / "AMQERR01.LOG").read_text().splitlines()[-15:]))
    return "\n".join(out)


def wait_arrived(run_cli: RunCli, qmgrs: dict[str, QMgr], total: int) -> tuple[int, int]:
    counts = wait_until(lambda: (lambda a, b: (a, b) if a + b >= total else None)(
        depth(run_cli, qmgrs["QM3"], "Q1"), depth(run_cli, qmgrs["QM5"], "Q1")), f"{total} messages arrived", 180)
    assert counts is not None
    return counts


def test_not_fixed_puts_alternate_and_bind_on_open_keeps_one_instance(cluster: dict[str, QMgr]) -> None:
    """B:SC-85: NOT_FIXED spreads round robin; BIND_ON_OPEN sends a handle's every put to one
    instance, and the next such handle to the other."""
    run_cli = run(cluster)
    knows_both(run_cli, cluster)
    with mqlite.connect("QM4") as conn:
        spread = mqlite.Queue(conn, "Q1", C.MQOO_OUTPUT | C.MQOO_BIND_NOT_FIXED)
        for i in range(4):
            spread.put(b"spread %d" % i)
        spread.close()
    assert wait_arrived(run_cli, cluster, 4) == (2, 2)
    assert sorted(drain(cluster["QM3"], "Q1") + drain(cluster["QM5"], "Q1")) == [b"spread %d" % i for i in range(4)]
    with mqlite.connect("QM4") as conn:
        for handle in range(2):
            bound = mqlite.Queue(conn, "Q1", C.MQOO_OUTPUT | C.MQOO_BIND_ON_OPEN)
            for i in range(3):
                bound.put(b"bound %d.%d" % (handle, i))
            bound.close()
    wait_arrived(run_cli, cluster, 6)
    on_qm3, on_qm5 = drain(cluster["QM3"], "Q1"), drain(cluster["QM5"], "Q1")
    assert {tuple(m[:7] for m in on_qm3), tuple(m[:7] for m in on_qm5)} == {(b"bound 0",) * 3, (b"bound 1",) * 3}


def test_groups_stay_together_with_bind_on_group(cluster: dict[str, QMgr]) -> None:
    """B:SC-86: each message group goes to one instance, the next group to the other."""
    run_cli = run(cluster)
    knows_both(run_cli, cluster)
    with mqlite.connect("QM4") as conn:
        queue = mqlite.Queue(conn, "Q1", C.MQOO_OUTPUT | C.MQOO_BIND_ON_GROUP)
        for group in range(2):
            for i in range(3):
                md = mqlite.MD(GroupId=b"G%d" % group + b" " * 22, MsgSeqNumber=i + 1)
                md.MsgFlags = C.MQMF_MSG_IN_GROUP | (C.MQMF_LAST_MSG_IN_GROUP if i == 2 else 0)
                queue.put(b"g%d.%d" % (group, i), md)
        queue.close()
    wait_arrived(run_cli, cluster, 6)
    on_qm3, on_qm5 = drain(cluster["QM3"], "Q1"), drain(cluster["QM5"], "Q1")
    assert {tuple(sorted(on_qm3)), tuple(sorted(on_qm5))} == {(b"g0.0", b"g0.1", b"g0.2"), (b"g1.0", b"g1.1", b"g1.2")}


def test_weights_spread_ten_thousand_messages_as_configured(cluster: dict[str, QMgr]) -> None:
    """CLWLWGHT published by each instance's cluster-receiver: 75 on QM5's, 25 on QM3's, so QM5
    gets three quarters of 10,000 NOT_FIXED puts (tolerance: 2 percentage points)."""
    run_cli = run(cluster)
    knows_both(run_cli, cluster)
    mqsc(run_cli, cluster["QM3"], f"ALTER CHANNEL({CLUSTER}.QM3) CHLTYPE(CLUSRCVR) CLWLWGHT(25)\n")
    mqsc(run_cli, cluster["QM5"], f"ALTER CHANNEL({CLUSTER}.QM5) CHLTYPE(CLUSRCVR) CLWLWGHT(75)\n")
    try:
        wait_until(lambda: all(f"CLWLWGHT({w})" in mqsc(run_cli, cluster["QM4"], f"DISPLAY CLUSQMGR({q}) CLWLWGHT\n",
                                                       ok=False) for q, w in (("QM3", 25), ("QM5", 75))),
                   "QM4 knows the new weights", timeout=60)
    except AssertionError as error:
        raise AssertionError(f"{error}\n{diagnostics(run_cli, cluster)}") from None
    with mqlite.connect("QM4") as conn:
        queue = mqlite.Queue(conn, "Q1", C.MQOO_OUTPUT | C.MQOO_BIND_NOT_FIXED)
        for i in range(10_000):
            queue.put(b"w%d" % i)
        queue.close()
    on_qm3, on_qm5 = wait_arrived(run_cli, cluster, 10_000)
    assert on_qm3 + on_qm5 == 10_000
    assert abs(on_qm5 / 10_000 - 0.75) <= 0.02, (on_qm3, on_qm5)
    mqsc(run_cli, cluster["QM3"], "CLEAR QLOCAL(Q1)\n")
    mqsc(run_cli, cluster["QM5"], "CLEAR QLOCAL(Q1)\n")
    for name in ("QM3", "QM5"):
        mqsc(run_cli, cluster[name], f"ALTER CHANNEL({CLUSTER}.{name}) CHLTYPE(CLUSRCVR) CLWLWGHT(50)\n")


def test_a_suspended_member_stops_receiving(cluster: dict[str, QMgr]) -> None:
    """SUSPEND QMGR CLUSTER: the other members send it nothing while another instance is there;
    RESUME QMGR and it takes its share again."""
    run_cli = run(cluster)
    knows_both(run_cli, cluster)
    shown = mqsc(run_cli, cluster["QM5"], f"SUSPEND QMGR CLUSTER({CLUSTER})\n")
    assert "AMQ8569I" in shown
    wait_until(lambda: "SUSPEND(YES)" in mqsc(run_cli, cluster["QM4"], "DISPLAY CLUSQMGR(QM5) SUSPEND\n", ok=False),
               "QM4 sees QM5 suspended", timeout=60)
    with mqlite.connect("QM4") as conn:
        queue = mqlite.Queue(conn, "Q1", C.MQOO_OUTPUT | C.MQOO_BIND_NOT_FIXED)
        for i in range(10):
            queue.put(b"s%d" % i)
    assert wait_arrived(run_cli, cluster, 10) == (10, 0)
    drain(cluster["QM3"], "Q1")
    mqsc(run_cli, cluster["QM5"], f"RESUME QMGR CLUSTER({CLUSTER})\n")
    wait_until(lambda: "SUSPEND(NO)" in mqsc(run_cli, cluster["QM4"], "DISPLAY CLUSQMGR(QM5) SUSPEND\n", ok=False),
               "QM4 sees QM5 resumed", timeout=60)
    with mqlite.connect("QM4") as conn:
        queue = mqlite.Queue(conn, "Q1", C.MQOO_OUTPUT | C.MQOO_BIND_NOT_FIXED)
        for i in range(10):
            queue.put(b"r%d" % i)
    on_qm3, on_qm5 = wait_arrived(run_cli, cluster, 10)
    assert on_qm3 and on_qm5
    drain(cluster["QM3"], "Q1")
    drain(cluster["QM5"], "Q1")


def test_displays_and_the_cluster_transmission_queue_is_not_for_applications(cluster: dict[str, QMgr]) -> None:
    """B:SC-88: DISPLAY QUEUE(*) CLUSINFO shows the local queues and each cluster instance;
    a cluster queue cannot be altered or deleted where it is not defined. B:SC-89: an application
    cannot put to SYSTEM.CLUSTER.TRANSMIT.QUEUE (2035). DISPLAY CLUSQMGR shows the members."""
    run_cli = run(cluster)
    knows_both(run_cli, cluster)
    qm4 = cluster["QM4"]
    shown = mqsc(run_cli, qm4, "DISPLAY QUEUE(Q*) CLUSINFO\n")
    assert re.search(r"QUEUE\(Q1\)\s+TYPE\(QCLUSTER\)\s+CLUSQMGR\(QM3\)", shown), shown
    assert re.search(r"QUEUE\(Q1\)\s+TYPE\(QCLUSTER\)\s+CLUSQMGR\(QM5\)", shown), shown
    assert "AMQ8147E" in mqsc(run_cli, qm4, "DELETE QREMOTE(Q1)\n", ok=False)
    assert "AMQ8147E" in mqsc(run_cli, qm4, "ALTER QREMOTE(Q1) DESCR('x')\n", ok=False)
    members = mqsc(run_cli, qm4, "DISPLAY CLUSQMGR(*) QMTYPE DEFTYPE\n")
    assert re.search(r"CLUSQMGR\(QM4\).*?DEFTYPE\(CLUSRCVR\)", members, re.S)
    assert re.search(r"CLUSQMGR\(QM3\).*?DEFTYPE\(CLUSSDRA\).*?QMTYPE\(NORMAL\)", members, re.S), members
    assert "QMTYPE(REPOS)" in members
    # An application (APP may put to every queue: IBM's developer grants) over TCP.
    with mqlite.connect("QM4", host="127.0.0.1", port=qm4.port, **APP.kwargs) as conn:
        with pytest.raises(mqlite.MQMIError) as refused:
            mqlite.Queue(conn, "SYSTEM.CLUSTER.TRANSMIT.QUEUE").put(b"x")
        assert refused.value.reason == C.MQRC_NOT_AUTHORIZED
        mqlite.Queue(conn, "Q1").put(b"through the cluster")  # the way in: the cluster queue
    assert sum(wait_arrived(run_cli, cluster, 1)) == 1
    drain(cluster["QM3"], "Q1")
    drain(cluster["QM5"], "Q1")


def bound_to_qm5(run_cli: RunCli, cluster: dict[str, QMgr], conn: Any) -> Any:
    """A BIND_ON_OPEN handle on Q1 bound to QM5's instance (opened while QM5 is up): the workload
    algorithm picks by round robin, so handles are opened until one lands there."""
    for _attempt in range(4):
        bound = mqlite.Queue(conn, "Q1", C.MQOO_OUTPUT | C.MQOO_BIND_ON_OPEN)
        bound.put(b"probe", mqlite.MD(Persistence=C.MQPER_PERSISTENT))
        _, on_qm5 = wait_arrived(run_cli, cluster, 1)
        drain(cluster["QM3"], "Q1")
        drain(cluster["QM5"], "Q1")
        if on_qm5:
            return bound
        bound.close()
    raise AssertionError("no handle bound to QM5")


def test_not_fixed_messages_waiting_for_a_retrying_channel_go_elsewhere(cluster: dict[str, QMgr]) -> None:
    """Issue 16 item 4, as IBM's queue manager does it (B's decision A-23 / R-BIND-5 let them wait):
    QM5 frozen (SIGSTOP), QM4 puts 5 messages bound to QM5 and 400 not fixed, half of them for
    QM5's channel, which can have at most two batches of 50 in flight. QM5 killed: once the channel
    is RETRYING, the not-fixed messages still waiting go to QM3, the bound ones and the batches in
    doubt wait; QM5 restarted, every message has arrived once."""
    run_cli = run(cluster)
    knows_both(run_cli, cluster)
    qm5 = cluster["QM5"]
    persistent = mqlite.MD(Persistence=C.MQPER_PERSISTENT)
    with mqlite.connect("QM4") as conn:
        bound = bound_to_qm5(run_cli, cluster, conn)
        pid = server_pids(qm5.home)["QM5"]
        os.kill(pid, signal.SIGSTOP)
        try:
            for i in range(5):
                bound.put(b"bound %d" % i, persistent)
            spread = mqlite.Queue(conn, "Q1", C.MQOO_OUTPUT | C.MQOO_BIND_NOT_FIXED)
            for i in range(400):
                spread.put(b"spread %03d" % i, persistent)
            spread.close()
            bound.close()
        finally:
            os.kill(pid, signal.SIGKILL)  # (a stopped process dies too)
    wait_until(lambda: "STATUS(RETRYING)" in mqsc(run_cli, cluster["QM4"], f"DISPLAY CHSTATUS({CLUSTER}.QM5)\n",
                                                  ok=False), "QM4's channel to QM5 retrying", timeout=60)
    # Round robin gave QM3 200; at least 100 of QM5's 200 were not in flight and come too.
    wait_until(lambda: depth(run_cli, cluster["QM3"], "Q1") >= 300, "the waiting unbound ones on QM3", timeout=60)
    assert "reallocated to" in cluster["QM4"].error_log()
    with mqlite.connect("QM3") as conn, mqlite.Queue(conn, "Q1", C.MQOO_BROWSE) as browsing:
        first = browsing.get(None, None, mqlite.GMO(Options=C.MQGMO_BROWSE_FIRST))
        assert not [name for name in first.properties if name.startswith("mqlite.")]  # QM4's mark stays home
    assert run_cli("strmqm", "QM5").returncode == 0
    wait_arrived(run_cli, cluster, 405)
    on_qm5 = drain(qm5, "Q1")
    assert {b"bound %d" % i for i in range(5)} <= set(on_qm5)
    everything = sorted(drain(cluster["QM3"], "Q1") + on_qm5)
    assert everything == sorted([b"bound %d" % i for i in range(5)] + [b"spread %03d" % i for i in range(400)])


def test_a_member_killed_keeps_bound_messages_and_the_rest_go_elsewhere(cluster: dict[str, QMgr]) -> None:
    """B:SC-87 (A-23, A-54): QM5 killed with kill -9; a handle bound to QM5 puts messages that
    wait on QM4's cluster transmission queue; once QM4's channel to QM5 is RETRYING, NOT_FIXED
    puts go to QM3 only; QM5 restarted (on a new port, which it publishes), the bound messages
    arrive exactly once."""
    run_cli = run(cluster)
    knows_both(run_cli, cluster)
    qm5 = cluster["QM5"]
    with mqlite.connect("QM4") as conn:
        bound = bound_to_qm5(run_cli, cluster, conn)
        os.kill(server_pids(qm5.home)["QM5"], signal.SIGKILL)
        for i in range(5):
            bound.put(b"bound %d" % i, mqlite.MD(Persistence=C.MQPER_PERSISTENT))
        wait_until(lambda: "STATUS(RETRYING)" in mqsc(run_cli, cluster["QM4"], f"DISPLAY CHSTATUS({CLUSTER}.QM5)\n",
                                                      ok=False), "QM4's channel to QM5 retrying", timeout=60)
        spread = mqlite.Queue(conn, "Q1", C.MQOO_OUTPUT | C.MQOO_BIND_NOT_FIXED)
        for i in range(10):
            spread.put(b"spread %d" % i, mqlite.MD(Persistence=C.MQPER_PERSISTENT))
    wait_until(lambda: depth(run_cli, cluster["QM3"], "Q1") == 10, "the unbound ones on QM3", timeout=60)
    assert run_cli("strmqm", "QM5").returncode == 0
    wait_until(lambda: depth(run_cli, qm5, "Q1") == 5, "the bound ones on QM5", timeout=90)
    assert sorted(drain(qm5, "Q1")) == [b"bound %d" % i for i in range(5)]
    assert sorted(drain(cluster["QM3"], "Q1")) == sorted(b"spread %d" % i for i in range(10))


def test_a_member_joining_later_is_reachable_and_a_wrong_conname_is_reported(cluster: dict[str, QMgr]) -> None:
    """A sixth queue manager joins the running cluster with a CLUSRCVR whose CONNAME is wrong:
    QM4's message to its new queue waits (the channel RETRYING, shown by DISPLAY CLUSQMGR and
    in the error log), nothing crashes; the CONNAME corrected (blank: its own port, published),
    the message arrives. Then FR1 ends: a queue defined meanwhile is still found through FR2."""
    from helpers.cluster import send_to

    run_cli = run(cluster)
    home = cluster["QM4"].home
    assert run_cli("crtmqm", "-p", "0", "QM6").returncode == 0
    add_user(home, "QM6", APP)
    assert run_cli("strmqm", "QM6").returncode == 0
    grant_app(home, "QM6")
    qm6 = QMgr("QM6", home)
    mqsc(run_cli, qm6, f"DEFINE CHANNEL({CLUSTER}.QM6) CHLTYPE(CLUSRCVR) CLUSTER({CLUSTER}) CONNAME('127.0.0.1(1)')\n"
                       f"SET CHLAUTH('{CLUSTER}.*') TYPE(QMGRMAP) QMNAME('*') USERSRC(CHANNEL)\n"
                       f"DEFINE QLOCAL(Q6) CLUSTER({CLUSTER})\n")
    send_to(run_cli, qm6, CLUSTER, cluster["FR2"])
    wait_until(lambda: "QUEUE(Q6)" in mqsc(run_cli, cluster["FR2"], "DISPLAY QCLUSTER(Q6)\n", ok=False),
               "FR2 knows Q6", timeout=60)
    with mqlite.connect("QM4") as conn:
        mqlite.Queue(conn, "Q6").put(b"to the newcomer", mqlite.MD(Persistence=C.MQPER_PERSISTENT))
    wait_until(lambda: "STATUS(RETRYING)" in mqsc(run_cli, cluster["QM4"], "DISPLAY CLUSQMGR(QM6) STATUS\n", ok=False),
               "QM4's channel to QM6 retrying", timeout=60)
    from mqlite import paths
    assert f"Channel '{CLUSTER}.QM6'" in (paths.qmgr_dir("QM4") / "AMQERR01.LOG").read_text()
    mqsc(run_cli, qm6, f"ALTER CHANNEL({CLUSTER}.QM6) CHLTYPE(CLUSRCVR) CONNAME(' ')\n")
    wait_until(lambda: depth(run_cli, qm6, "Q6") == 1, "the message on QM6", timeout=90)

    assert run_cli("endmqm", "-i", "FR1").returncode == 0
    try:
        mqsc(run_cli, qm6, f"DEFINE QLOCAL(Q7) CLUSTER({CLUSTER})\n")
        wait_until(lambda: "QUEUE(Q7)" in mqsc(run_cli, cluster["FR2"], "DISPLAY QCLUSTER(Q7)\n", ok=False),
                   "FR2 knows Q7", timeout=60)
        with mqlite.connect("QM4") as conn:
            mqlite.Queue(conn, "Q7").put(b"with a full repository down")
        wait_until(lambda: depth(run_cli, qm6, "Q7") == 1, "the message on Q7", timeout=60)
    finally:
        assert run_cli("strmqm", "FR1").returncode == 0
