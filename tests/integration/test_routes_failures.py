"""Routes when a server fails or a route's store fills (B §23: SC-95..SC-98): active-active and
active-passive routes over real queue manager processes that are stopped, killed and restarted."""

from __future__ import annotations

import os
import signal
from collections.abc import Callable
from typing import Any

import pytest

import mqlite.client as mqlite
from helpers.hierarchy import bodies
from helpers.mqsc import depth, mqsc
from helpers.qmgrs import QMgr, server_pids
from helpers.routes import global_topic, internal, join, publish_all, restart, status, stop
from helpers.waiting import wait_until
from mqlite import cmqc as C

RunCli = Callable[..., Any]


def network(qmgr_factory: Callable[..., QMgr], run_cli: RunCli, m_b_on: str = "both",
            m_topic: str = "") -> tuple[QMgr, QMgr, QMgr]:
    """A-M-B, T1 global everywhere, a durable subscriber D1 on B; the M-B route configured on
    both sides, on B only or on M only (A-56)."""
    a, m, b = (qmgr_factory(name) for name in ("A", "M", "B"))
    for qmgr in (a, m, b):
        global_topic(run_cli, qmgr, "T1", "T1", m_topic if qmgr is m else "")
    join(run_cli, a, m)
    join(run_cli, m, b, configured_on={"both": None, "B": (b,), "M": (m,)}[m_b_on])
    mqsc(run_cli, b, "DEFINE QLOCAL(D1Q) MAXDEPTH(100000)\nDEFINE SUB(D1) TOPICSTR('T1') DEST(D1Q)\n")
    wait_until(lambda: internal(m) == {("B", "T1")} and internal(a) == {("M", "T1")}, "the chain", timeout=60)
    return a, m, b


def test_active_active_route_keeps_storing_while_b_is_down(qmgr_factory: Callable[..., QMgr],
                                                           run_cli: RunCli) -> None:
    """B:SC-95, B:R-EMS-5: B stops; M keeps IS(M->B) and stores m10..m12; B back, D1 gets them
    exactly once."""
    a, m, b = network(qmgr_factory, run_cli)
    stop(run_cli, b)
    wait_until(lambda: status(m)["B"]["STATUS"] != "ACTIVE", "M sees B gone", timeout=60)
    publish_all(a, b"m10", b"m11", b"m12")
    wait_until(lambda: status(m)["B"]["STORED"] == "3", "three stored for B")
    assert internal(m) == {("B", "T1")}
    restart(run_cli, b, m)
    wait_until(lambda: depth(run_cli, b, "D1Q") == 3, "m10..m12 at B", timeout=60)
    assert bodies(b, "D1Q") == [b"m10", b"m11", b"m12"]


def test_active_passive_configured_downstream_leaves_a_gap(qmgr_factory: Callable[..., QMgr],
                                                           run_cli: RunCli) -> None:
    """B:SC-96, B:R-EMS-6, A-56: the M-B route is configured on B only. B stops: M deletes its
    internal subscriber (and A its own), m13..m15 are stored nowhere; B back, a new chain, and
    D1 gets m16 but never m13..m15."""
    a, m, b = network(qmgr_factory, run_cli, m_b_on="B")
    assert status(m)["B"]["TYPE"] == "PASSIVE" and status(b)["M"]["CONFIG"] == "ACTIVE-PASSIVE"
    stop(run_cli, b)
    wait_until(lambda: "B" not in status(m) and internal(m) == set() and internal(a) == set(),
               "M forgot the passive route and the chain is gone", timeout=60)
    publish_all(a, b"m13", b"m14", b"m15")
    restart(run_cli, b, m)
    wait_until(lambda: internal(m) == {("B", "T1")} and internal(a) == {("M", "T1")}, "a new chain", timeout=60)
    publish_all(a, b"m16")
    wait_until(lambda: depth(run_cli, b, "D1Q") >= 1, "m16 at B", timeout=60)
    assert bodies(b, "D1Q") == [b"m16"]


TOTAL = 120


@pytest.mark.parametrize("configured", ["both", pytest.param("M", marks=pytest.mark.slow)])
def test_kill_9_mid_stream(qmgr_factory: Callable[..., QMgr], run_cli: RunCli, configured: str) -> None:
    """B:SC-97, B:R-EMS-7: B is killed (SIGKILL) while A publishes and started again. Active-active:
    D1 gets every message exactly once. Configured upstream only (on M): M keeps its internal
    subscriber, so nothing is lost (a duplicate would be allowed; mqlite's channels deliver once)."""
    _a, m, b = network(qmgr_factory, run_cli, m_b_on=configured)
    with mqlite.connect("A") as conn:
        topic = mqlite.Topic(conn, topic_string="T1")
        for n in range(TOTAL):
            topic.pub(b"%d" % n, persistent=True)
            if n == TOTAL // 3:
                os.kill(server_pids(b.home)["B"], signal.SIGKILL)
    restart(run_cli, b, m)
    wait_until(lambda: depth(run_cli, b, "D1Q") >= TOTAL, f"all {TOTAL} at B", timeout=120, interval=0.5)
    got = [int(body) for body in bodies(b, "D1Q")]
    if configured == "both":
        assert got == list(range(TOTAL))  # nothing lost, nothing twice, in order
    else:
        assert set(got) == set(range(TOTAL))  # nothing lost


def test_limits_and_overflow_policies(qmgr_factory: Callable[..., QMgr], run_cli: RunCli) -> None:
    """B:SC-98, B:R-EMS-8, A-57: on M, T1 has MAXMSGS(2); while M-B is down, DISCARDOLD keeps the
    newest two, DEFAULT the oldest two (M's own producer gets no error and M's subscriber its
    message), REJECTINCOMING the oldest two and M's producer gets 2502 and nobody its message."""
    a, m, b = network(qmgr_factory, run_cli, m_topic="MAXMSGS(2) OVERFLOW(DISCARDOLD)")
    mqsc(run_cli, m, "DEFINE QLOCAL(MQ)\nDEFINE SUB(MS) TOPICSTR('T1') DEST(MQ)\n")

    def outage(*sent: bytes) -> None:
        mqsc(run_cli, m, "STOP CHANNEL(M.TO.B)\n")
        wait_until(lambda: status(m)["B"]["STATUS"] != "ACTIVE", "route M-B down")
        publish_all(a, *sent)
        wait_until(lambda: depth(run_cli, m, "MQ") >= len(sent), "A's messages at M")

    def reconnect(expected: list[bytes]) -> None:
        mqsc(run_cli, m, "START CHANNEL(M.TO.B)\n")
        wait_until(lambda: depth(run_cli, b, "D1Q") >= len(expected) and status(m)["B"]["STORED"] == "0",
                   "the store drained", timeout=60)
        assert bodies(b, "D1Q") == expected
        bodies(m, "MQ")

    outage(b"m1", b"m2", b"m3", b"m4", b"m5")
    assert status(m)["B"]["STORED"] == "2" and status(m)["B"]["DISCMSGS"] == "3"
    reconnect([b"m4", b"m5"])

    mqsc(run_cli, m, "ALTER TOPIC(T1) OVERFLOW(DEFAULT)\n")
    outage(b"n1", b"n2", b"n3", b"n4", b"n5")
    publish_all(m, b"local")  # no error for M's producer; M's subscriber gets it
    assert status(m)["B"]["DROPMSGS"] == "4"
    assert b"local" in bodies(m, "MQ")
    reconnect([b"n1", b"n2"])

    mqsc(run_cli, m, "ALTER TOPIC(T1) OVERFLOW(REJECTINCOMING)\n")
    outage(b"r1", b"r2")
    with pytest.raises(mqlite.MQMIError) as refused:
        publish_all(m, b"refused")
    assert refused.value.reason == C.MQRC_PUBLICATION_FAILURE
    publish_all(a, b"r3")  # from the route: rejected at M, logged
    wait_until(lambda: "AMQ5840W" in m.error_log(), "the rejection logged")
    assert bodies(m, "MQ") == [b"r1", b"r2"]  # neither the refused one nor r3
    reconnect([b"r1", b"r2"])
