"""Cluster transmission queues (seed 001; issue 16 item 3): SYSTEM.CLUSTER.TRANSMIT.QUEUE by
default, DEFCLXQ(CHANNEL), manual queues chosen by generic CLCHNAME, the deferred switch of an
association (with messages moved in order, none lost or duplicated, under load) and runswchl
(B:R-CXQ-1..5, B:SC-79, B:SC-80, B:SC-81, B:SC-82)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest

import mqlite.client as mqlite
from helpers.cluster import join_all
from helpers.mqsc import depth, mqsc
from helpers.qmgrs import QMgr
from helpers.waiting import wait_until
from mqlite import cmqc as C
from mqlite import paths

RunCli = Callable[..., Any]
SCTQ = "SYSTEM.CLUSTER.TRANSMIT.QUEUE"


@pytest.fixture
def trio(qmgr_factory: Callable[..., QMgr], run_cli: RunCli) -> tuple[QMgr, QMgr, QMgr]:
    """FR1 (full repository), QM1 hosting Q1, QM2 (no definition of Q1) putting to it."""
    fr1, qm1, qm2 = qmgr_factory("FR1"), qmgr_factory("QM1"), qmgr_factory("QM2")
    join_all(run_cli, "DEMO", [fr1], [qm1, qm2])
    mqsc(run_cli, qm2, "ALTER CHANNEL(SYSTEM.DEF.CLUSSDR) CHLTYPE(CLUSSDR) SHORTTMR(1)\n")
    mqsc(run_cli, qm1, "DEFINE QLOCAL(Q1) CLUSTER(DEMO) MAXDEPTH(50000)\n")
    wait_until(lambda: "QUEUE(Q1)" in mqsc(run_cli, fr1, "DISPLAY QCLUSTER(Q1)\n", ok=False), "FR1 knows Q1")
    return fr1, qm1, qm2


def put(qmgr: QMgr, bodies: list[bytes]) -> None:
    with mqlite.connect(qmgr.name) as conn:
        queue = mqlite.Queue(conn, "Q1")
        for body in bodies:
            queue.put(body, mqlite.MD(Persistence=C.MQPER_PERSISTENT))


def take_all(qmgr: QMgr) -> list[bytes]:
    got = []
    with mqlite.connect(qmgr.name) as conn:
        queue = mqlite.Queue(conn, "Q1")
        while True:
            try:
                got.append(queue.get())
            except mqlite.MQMIError as error:
                assert error.reason == C.MQRC_NO_MSG_AVAILABLE
                return got


def error_log(qmgr: QMgr) -> str:
    return (paths.qmgr_dir(qmgr.name) / "AMQERR01.LOG").read_text()


def test_a_put_while_the_host_is_down_waits_on_the_cluster_transmission_queue(
        trio: tuple[QMgr, QMgr, QMgr], run_cli: RunCli) -> None:
    """B:SC-79: QM2's first put to Q1 with QM1 ended: the message waits on QM2's
    SYSTEM.CLUSTER.TRANSMIT.QUEUE, the auto-defined cluster-sender DEMO.QM1 retries; QM1 back
    (on a new port it publishes), the message arrives."""
    _, qm1, qm2 = trio
    put(qm2, [b"warm-up"])  # QM2 learns where Q1 is
    wait_until(lambda: depth(run_cli, qm1, "Q1") == 1, "the first one on QM1")
    assert run_cli("endmqm", "-i", "QM1").returncode == 0
    put(qm2, [b"M1"])
    wait_until(lambda: "STATUS(RETRYING)" in mqsc(run_cli, qm2, "DISPLAY CHSTATUS(DEMO.QM1)\n", ok=False),
               "DEMO.QM1 retrying", timeout=60)
    # M1 waits on SYSTEM.CLUSTER.TRANSMIT.QUEUE (or in the batch in doubt that carried it)
    shown = mqsc(run_cli, qm2, f"DISPLAY QLOCAL({SCTQ}) CURDEPTH\nDISPLAY CHSTATUS(DEMO.QM1) INDOUBT\n")
    assert "CURDEPTH(1)" in shown or "INDOUBT(YES)" in shown, shown
    assert "DEFTYPE(CLUSSDRA)" in mqsc(run_cli, qm2, "DISPLAY CLUSQMGR(QM1) DEFTYPE\n")
    assert run_cli("strmqm", "QM1").returncode == 0
    wait_until(lambda: depth(run_cli, qm1, "Q1") == 2, "M1 on QM1", timeout=90)
    assert take_all(qm1) == [b"warm-up", b"M1"]
    assert depth(run_cli, qm2, SCTQ) == 0


def test_defclxq_channel_gives_each_cluster_sender_its_own_queue(trio: tuple[QMgr, QMgr, QMgr],
                                                                 run_cli: RunCli) -> None:
    """B:SC-80: with DEFCLXQ(CHANNEL) the message goes onto SYSTEM.CLUSTER.TRANSMIT.DEMO.QM1, a
    permanent dynamic queue made from SYSTEM.CLUSTER.TRANSMIT.MODEL.QUEUE with CLCHNAME(DEMO.QM1)."""
    _, qm1, qm2 = trio
    mqsc(run_cli, qm2, "ALTER QMGR DEFCLXQ(CHANNEL)\n")
    put(qm2, [b"own queue"])
    wait_until(lambda: depth(run_cli, qm1, "Q1") == 1, "the message on QM1")
    shown = mqsc(run_cli, qm2, "DISPLAY QLOCAL(SYSTEM.CLUSTER.TRANSMIT.DEMO.QM1) CLCHNAME DEFTYPE USAGE\n")
    assert "CLCHNAME(DEMO.QM1)" in shown and "DEFTYPE(PERMDYN)" in shown and "USAGE(XMITQ)" in shown
    assert "XMITQ(SYSTEM.CLUSTER.TRANSMIT.DEMO.QM1)" in mqsc(run_cli, qm2, "DISPLAY CHSTATUS(DEMO.QM1) XMITQ\n")
    assert depth(run_cli, qm2, SCTQ) == 0


def test_a_changed_association_switches_at_the_next_start_under_load(trio: tuple[QMgr, QMgr, QMgr],
                                                                     run_cli: RunCli) -> None:
    """B:SC-81, B:SC-82: messages wait on SYSTEM.CLUSTER.TRANSMIT.QUEUE for a stopped DEMO.QM1; a
    manual queue with the generic CLCHNAME('DEMO.*') changes nothing until the channel starts
    (runswchl -q says a switch is needed); at START the waiting messages move, in order, to the
    new queue and go from there. Then an exact CLCHNAME beats the generic one, switched by
    runswchl while an application keeps putting: every message arrives once, in order, and a unit
    of work open across that switch has its message moved once it commits (no restart needed)."""
    _, qm1, qm2 = trio
    put(qm2, [b"warm-up"])
    wait_until(lambda: depth(run_cli, qm1, "Q1") == 1, "the first one on QM1")
    take_all(qm1)
    mqsc(run_cli, qm2, "STOP CHANNEL(DEMO.QM1)\n")
    put(qm2, [b"1", b"2", b"3"])
    assert depth(run_cli, qm2, SCTQ) == 3
    mqsc(run_cli, qm2, "DEFINE QLOCAL(XMITQ.DEMO) USAGE(XMITQ) CLCHNAME('DEMO.*')\n")
    put(qm2, [b"4"])  # nothing changed yet: still SYSTEM.CLUSTER.TRANSMIT.QUEUE
    assert depth(run_cli, qm2, SCTQ) == 4 and depth(run_cli, qm2, "XMITQ.DEMO") == 0
    report = run_cli("runswchl", "-m", "QM2", "-c", "DEMO.*", "-q")
    assert report.returncode == 0, report.stdout + report.stderr
    assert "New transmission queue: 'XMITQ.DEMO'" in report.stdout and "messages to move: 4" in report.stdout
    mqsc(run_cli, qm2, "START CHANNEL(DEMO.QM1)\n")
    wait_until(lambda: depth(run_cli, qm1, "Q1") == 4, "the four on QM1")
    assert take_all(qm1) == [b"1", b"2", b"3", b"4"]
    assert depth(run_cli, qm2, SCTQ) == 0
    assert "XMITQ(XMITQ.DEMO)" in mqsc(run_cli, qm2, "DISPLAY CHSTATUS(DEMO.QM1) XMITQ\n")
    log = error_log(qm2)
    assert "AMQ7341I" in log and "AMQ7342I" in log

    # Under load: an application puts 1,500 numbered messages while the association changes.
    stop = threading.Event()
    sent: list[bytes] = []

    def producer() -> None:
        with mqlite.connect("QM2") as conn:
            queue = mqlite.Queue(conn, "Q1")
            for i in range(1500):
                queue.put(b"%06d" % i, mqlite.MD(Persistence=C.MQPER_PERSISTENT))
                sent.append(b"%06d" % i)
                if stop.is_set():
                    return

    worker = threading.Thread(target=producer)
    worker.start()
    # ... and a unit of work open across the switch: its put went to XMITQ.DEMO before it, it
    # commits after; its message follows the others at once, not at the channel's next start.
    with mqlite.connect("QM2") as uow:
        try:
            mqlite.Queue(uow, "Q1").put(b"in-uow", mqlite.MD(Persistence=C.MQPER_PERSISTENT),
                                        mqlite.PMO(Options=C.MQPMO_SYNCPOINT))
            wait_until(lambda: len(sent) > 200, "the producer under way")
            mqsc(run_cli, qm2, "DEFINE QLOCAL(XMITQ.QM1) USAGE(XMITQ) CLCHNAME(DEMO.QM1)\n")
            mqsc(run_cli, qm2, "STOP CHANNEL(DEMO.QM1)\n")
            wait_until(lambda: "STATUS(STOPPED)" in mqsc(run_cli, qm2, "DISPLAY CHSTATUS(DEMO.QM1)\n", ok=False),
                       "DEMO.QM1 stopped")
            switched = run_cli("runswchl", "-m", "QM2", "-c", "DEMO.QM1")
            assert "switched" in switched.stdout, switched.stdout
            mqsc(run_cli, qm2, "START CHANNEL(DEMO.QM1)\n")
        finally:
            worker.join(120)
        uow.commit()
    assert len(sent) == 1500
    wait_until(lambda: depth(run_cli, qm1, "Q1") >= 1501, "all 1,500 and the unit of work's on QM1", timeout=120)
    got = take_all(qm1)
    assert [body for body in got if body != b"in-uow"] == sent  # once each, in order (one channel, one instance)
    assert got.count(b"in-uow") == 1
    assert "committed on 'XMITQ.DEMO' after the switch moved" in error_log(qm2)
    assert depth(run_cli, qm2, "XMITQ.DEMO") == 0 and depth(run_cli, qm2, SCTQ) == 0
    assert "XMITQ(XMITQ.QM1)" in mqsc(run_cli, qm2, "DISPLAY CHSTATUS(DEMO.QM1) XMITQ\n")
