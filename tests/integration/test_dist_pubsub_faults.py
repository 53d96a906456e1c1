"""Distributed publish/subscribe under faults (issue 17, B:R-CHN-4, A-44): a hierarchy and a
cluster under a steady load of persistent publications while the hierarchy's link is cut again
and again and the cluster subscriber's queue manager is killed with SIGKILL: every publication
reaches each durable subscription once, in order.

QM1 publishes; QM2 is its child (QM1's sender reaches QM2 through a relay the test cuts); QM3
shares the DIRECT cluster topic FAULT with QM1 in cluster FAULTS (FR its full repository)."""

from __future__ import annotations

import os
import re
import signal
from collections.abc import Callable
from typing import Any

import mqlite.client as mqlite
from helpers.cluster import join_all
from helpers.hierarchy import proxies, set_parent
from helpers.mqsc import depth, mqsc
from helpers.qmgrs import QMgr, server_pids
from helpers.relay import Relay
from helpers.waiting import wait_until
from mqlite import cmqc as C

RunCli = Callable[..., Any]
TOTAL = 2000
# The relay cuts QM1's channel to QM2 after each CUT_EVERY bytes it carries, CUTS times: the
# publications' own bytes drive it (about 700 each, 1.4 MB in all), so on any machine, fast or
# loaded, every cut falls among them and the last 0.4 MB or more run uncut to the end. A batch
# (50 publications, 35 kB) fits in CUT_EVERY several times over, so each connection moves on.
CUT_EVERY = 100_000
CUTS = 10


def drain(qmgr: str) -> list[int]:
    got = []
    with mqlite.connect(qmgr) as qm, mqlite.Queue(qm, "FQ") as queue:
        while True:
            try:
                got.append(int(queue.get()))
            except mqlite.MQMIError as error:
                assert error.reason == C.MQRC_NO_MSG_AVAILABLE
                return got


def settled(run_cli: RunCli, qm1: QMgr, qm2: QMgr, qm3: QMgr) -> bool:
    """Every publication is committed at both subscribers' queues and nothing is in flight: QM1's
    transmission queues are empty and its senders to QM2 and QM3 have no batch open (CURMSGS) or
    unconfirmed (INDOUBT; a receiver commits before it confirms), so nothing more (a duplicate)
    can arrive. Read in this order, with the relay's cuts over: a sender takes messages off the
    queue into a batch, ends it, has it confirmed, each step seen by the next check."""
    if depth(run_cli, qm1, "QM2") or depth(run_cli, qm1, "SYSTEM.CLUSTER.TRANSMIT.QUEUE"):
        return False
    for channel in ("QM1.TO.QM2", "FAULTS.QM3"):
        status = mqsc(run_cli, qm1, f"DISPLAY CHSTATUS({channel}) CURMSGS INDOUBT\n", ok=False)
        if "INDOUBT(YES)" in status or re.search(r"CURMSGS\([1-9]", status):
            return False
    return depth(run_cli, qm2, "FQ") >= TOTAL and depth(run_cli, qm3, "FQ") >= TOTAL


def test_cuts_and_kill_9_lose_and_duplicate_no_publication(qmgr_factory: Callable[..., QMgr],
                                                           run_cli: RunCli) -> None:
    fr, qm1, qm2, qm3 = (qmgr_factory(name) for name in ("FR", "QM1", "QM2", "QM3"))
    assert qm2.port is not None and qm1.port is not None
    relay = Relay(("127.0.0.1", qm2.port))
    try:
        mqsc(run_cli, qm1, f"DEFINE QLOCAL(QM2) USAGE(XMITQ) MAXDEPTH(100000)\n"
                           f"DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) CONNAME('127.0.0.1({relay.port})') XMITQ(QM2) "
                           "SHORTRTY(100000) SHORTTMR(0)\n"
                           "DEFINE CHANNEL(QM2.TO.QM1) CHLTYPE(RCVR)\n"
                           "SET CHLAUTH(QM2.TO.QM1) TYPE(QMGRMAP) QMNAME(QM2) USERSRC(CHANNEL)\n")
        mqsc(run_cli, qm2, f"DEFINE QLOCAL(QM1) USAGE(XMITQ)\n"
                           f"DEFINE CHANNEL(QM2.TO.QM1) CHLTYPE(SDR) CONNAME('127.0.0.1({qm1.port})') XMITQ(QM1)\n"
                           "DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(RCVR)\n"
                           "SET CHLAUTH(QM1.TO.QM2) TYPE(QMGRMAP) QMNAME(QM1) USERSRC(CHANNEL)\n")
        set_parent(run_cli, qm2, qm1)
        for qmgr in (fr, qm1, qm3):
            mqsc(run_cli, qmgr, "ALTER CHANNEL(SYSTEM.DEF.CLUSSDR) CHLTYPE(CLUSSDR) SHORTTMR(1)\n")
        join_all(run_cli, "FAULTS", [fr], [qm1, qm3])
        mqsc(run_cli, qm1, "DEFINE TOPIC(FAULT) TOPICSTR('Fault') CLUSTER(FAULTS)\n")
        wait_until(lambda: "FAULT" in mqsc(run_cli, qm3, "DISPLAY TOPIC(*) TYPE(CLUSTER)\n", ok=False),
                   "QM3 has the cluster topic", timeout=60)
        for qmgr in (qm2, qm3):
            mqsc(run_cli, qmgr, "DEFINE QLOCAL(FQ) MAXDEPTH(100000)\n"
                                "DEFINE SUB(FSUB) TOPICSTR('Fault/T') DEST(FQ)\n")
        wait_until(lambda: {("QM2", "Fault/T"), ("QM3", "Fault/T")} <= proxies(run_cli, qm1),
                   "QM1 holds both proxies", timeout=60)

        relay.cut_every(CUT_EVERY, CUTS)  # by progress, not by the clock: mid-stream on any machine
        with mqlite.connect("QM1") as conn:
            topic = mqlite.Topic(conn, topic_string="Fault/T")
            for n in range(TOTAL):
                topic.pub(b"%d" % n, persistent=True, asynchronous=n != TOTAL - 1)
                if n == TOTAL // 3:  # the cluster subscriber's queue manager dies mid-stream
                    os.kill(server_pids(qm3.home)["QM3"], signal.SIGKILL)
                if n == TOTAL // 2:
                    assert run_cli("strmqm", "QM3").returncode == 0
        wait_until(lambda: settled(run_cli, qm1, qm2, qm3), f"all {TOTAL} at QM2 and QM3, nothing in flight",
                   timeout=180, interval=0.5)
        assert relay.cuts == CUTS and relay.connections > CUTS  # cut again and again, and back each time
        for name in ("QM2", "QM3"):
            got = drain(name)
            assert sorted(got) == list(range(TOTAL)), f"{name}: lost or twice"  # nothing lost, nothing twice
            assert got == list(range(TOTAL)), f"{name}: out of order"
    finally:
        relay.close()
