"""Routes on the line A - M - B of seed 002's Figure 37 (B fixture F-EMS: routes defined on both
ends, T1 GLOBAL on each), shared by the tests of this module: each uses a topic of its own below
T1 and leaves the routes up (B:SC-91..SC-94)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

import mqlite.client as mqlite
from helpers.hierarchy import bodies
from helpers.module_qmgrs import started
from helpers.mqsc import depth, mqsc
from helpers.qmgrs import QMgr
from helpers.routes import global_topic, internal, join, publish_all, status
from helpers.waiting import wait_until
from mqlite import cmqc as C

RunCli = Callable[..., Any]
Line = tuple[QMgr, QMgr, QMgr, RunCli]


@pytest.fixture(scope="module")
def line(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Line]:
    with started(tmp_path_factory.mktemp("routes") / "mqhome", ("A", "M", "B")) as (qmgrs, run_cli):
        a, m, b = qmgrs["A"], qmgrs["M"], qmgrs["B"]
        for qmgr in (a, m, b):
            global_topic(run_cli, qmgr, "T1", "T1")
        join(run_cli, a, m)
        join(run_cli, m, b)
        yield a, m, b, run_cli


def chained(a: QMgr, m: QMgr, topic: str) -> bool:
    return ("B", topic) in internal(m) and ("M", topic) in internal(a)


def durable_on_b(line: Line, name: str, topic: str) -> None:
    a, m, b, run_cli = line
    mqsc(run_cli, b, f"DEFINE QLOCAL({name}Q)\nDEFINE SUB({name}) TOPICSTR('{topic}') DEST({name}Q)\n")
    wait_until(lambda: chained(a, m, topic), "the chain of internal subscriptions", timeout=60)


def test_internal_subscriber_chain(line: Line) -> None:
    """B:SC-91, B:R-EMS-2: a durable subscriber on B makes IS(M->B, T1) on M and IS(A->M, T1) on
    A (a topic below T1 here); m1..m3 from A reach it once each, through M."""
    a, m, b, run_cli = line
    sent_a, sent_m = int(status(a)["M"]["FWDMSGS"]), int(status(m)["B"]["FWDMSGS"])
    durable_on_b(line, "D91", "T1/chain")
    publish_all(a, b"m1", b"m2", b"m3", topic="T1/chain")
    wait_until(lambda: depth(run_cli, b, "D91Q") == 3, "m1..m3 at B")
    assert bodies(b, "D91Q") == [b"m1", b"m2", b"m3"]
    assert int(status(a)["M"]["FWDMSGS"]) - sent_a == 3 and int(status(m)["B"]["FWDMSGS"]) - sent_m == 3
    assert status(m)["B"]["CONFIG"] == "ACTIVE-ACTIVE"
    routes = mqsc(run_cli, m, "DISPLAY ROUTE(*) ZONE ZONETYPE\n")
    assert "ROUTE(A)" in routes and "ROUTE(B)" in routes and "ZONETYPE(MHOP)" in routes


def test_disconnected_route_stores_and_forwards(line: Line) -> None:
    """B:SC-92, B:R-EMS-1: with the M-B link broken M stores m4..m6 for B; reconnected, B gets
    each exactly once."""
    a, m, b, run_cli = line
    durable_on_b(line, "D92", "T1/store")
    mqsc(run_cli, m, "STOP CHANNEL(M.TO.B)\n")
    try:
        wait_until(lambda: status(m)["B"]["STATUS"] != "ACTIVE", "route M-B down")
        publish_all(a, b"m4", b"m5", b"m6", topic="T1/store")
        wait_until(lambda: status(m)["B"]["STORED"] == "3", "three stored on M for B")
        assert depth(run_cli, m, "SYSTEM.ROUTE.B") == 3 and depth(run_cli, b, "D92Q") == 0
    finally:
        mqsc(run_cli, m, "START CHANNEL(M.TO.B)\n")
    wait_until(lambda: depth(run_cli, b, "D92Q") == 3, "m4..m6 at B")
    assert bodies(b, "D92Q") == [b"m4", b"m5", b"m6"]
    wait_until(lambda: status(m)["B"]["STATUS"] == "ACTIVE" and status(m)["B"]["STORED"] == "0", "route M-B up")


def test_non_durable_subscriber_exits(line: Line) -> None:
    """B:SC-93, B:R-EMS-3: a non-durable subscriber's close deletes the whole chain; a message
    published meanwhile is missed by the next subscriber, the one after reaches it."""
    a, m, _b, _ = line
    topic = "T1/nondurable"
    with mqlite.connect("B") as conn:
        n1 = mqlite.Subscription(conn, topic)
        wait_until(lambda: chained(a, m, topic), "the chain for N1")
        n1.close(C.MQCO_REMOVE_SUB)
    wait_until(lambda: ("M", topic) not in internal(a) and ("B", topic) not in internal(m), "the chain gone")
    publish_all(a, b"m7", topic=topic)
    with mqlite.connect("B") as conn:
        n2 = mqlite.Subscription(conn, topic)
        wait_until(lambda: chained(a, m, topic), "a new chain for N2")
        publish_all(a, b"m8", topic=topic)
        assert n2.get(wait=60) == b"m8"
        publish_all(a, b"m9", topic=topic)  # after m8 on the same way: m7 or a second m8 would come first
        assert n2.get(wait=60) == b"m9"
        with pytest.raises(mqlite.MQMIError) as none:
            n2.get(wait=0)
        assert none.value.reason == C.MQRC_NO_MSG_AVAILABLE


def test_durable_subscriber_exits(line: Line) -> None:
    """B:SC-94, B:R-EMS-4: a durable subscriber's client exits, the chain stays; m7..m9 wait on
    B and the client, back under the same name, gets them."""
    a, m, _b, _ = line
    topic = "T1/durable"
    with mqlite.connect("B") as conn:
        sub = mqlite.Subscription(conn, topic, name="D94", durable=True)
        wait_until(lambda: chained(a, m, topic), "the chain for D94")
        sub.close()
    publish_all(a, b"m7", b"m8", b"m9", topic=topic)
    assert chained(a, m, topic)
    with mqlite.connect("B") as conn:
        again = mqlite.Subscription(conn, topic, name="D94", durable=True)
        assert [again.get(wait=10) for _ in range(3)] == [b"m7", b"m8", b"m9"]
        again.close(C.MQCO_REMOVE_SUB)
