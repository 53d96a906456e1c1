"""Routes in the style of TIBCO EMS (B §23, scenarios M: SC-99..SC-103; SC-91..SC-94 are in
test_routes_line.py): real queue managers linked by sender/receiver channels and ROUTE objects;
a GLOBAL topic crosses them."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from helpers.hierarchy import bodies, link, shown
from helpers.mqsc import depth, mqsc
from helpers.qmgrs import QMgr
from helpers.routes import define_route, global_topic, internal, join, publish_all, status
from helpers.waiting import wait_until

RunCli = Callable[..., Any]
Line = tuple[QMgr, QMgr, QMgr]


def line(qmgr_factory: Callable[..., QMgr], run_cli: RunCli, extra: str = "",
         topic_extra: dict[str, str] | None = None) -> Line:
    """B fixture F-EMS: servers A, M and B connected by routes (Figure 37), T1 global on each."""
    a, m, b = (qmgr_factory(name) for name in ("A", "M", "B"))
    for qmgr in (a, m, b):
        global_topic(run_cli, qmgr, "T1", "T1", (topic_extra or {}).get(qmgr.name, ""))
    join(run_cli, a, m, extra=extra)
    join(run_cli, m, b, extra=extra)
    return a, m, b


def ems_configure(run_cli: RunCli, qmgr: QMgr, tmp: Path, topics: str, routes: str) -> None:
    """``mqlite emsconf``: the server's topics.conf and routes.conf, as an EMS administrator wrote them."""
    (tmp / f"{qmgr.name}.topics.conf").write_text(topics)
    (tmp / f"{qmgr.name}.routes.conf").write_text(routes)
    result = run_cli("emsconf", "-m", qmgr.name, "--topics", str(tmp / f"{qmgr.name}.topics.conf"),
                     "--routes", str(tmp / f"{qmgr.name}.routes.conf"))
    assert result.returncode == 0, result.stdout + result.stderr


def test_regional_selectors_outgoing_and_incoming(qmgr_factory: Callable[..., QMgr], run_cli: RunCli,
                                                  tmp_path: Path) -> None:
    """B:SC-99 (Figure 38: ORD's outgoing selector for EAST), B:SC-100 (WEST's incoming selector
    for ORD has the same effect), B:R-EMS-10, R-EMS-11: each region gets only its orders and
    the others never cross its route. Configured as the scenario writes it: topics.conf and
    routes.conf (A-60), through ``mqlite emsconf``."""
    ord_, west, east = (qmgr_factory(name) for name in ("ORD", "WEST", "EAST"))
    link(run_cli, ord_, west)
    link(run_cli, ord_, east)
    topics = "# orders cross routes\norders  global\n"
    ems_configure(run_cli, ord_, tmp_path, topics, "[WEST]\nurl=tcp://localhost:7223\nzone_name=default_mhop_zone\n"
                  "zone_type=mhop\n\n[EAST]\nurl=tcp://localhost:7224\n"
                  "outgoing_topic=orders selector=\"region = 'east'\"\n")
    ems_configure(run_cli, west, tmp_path, topics, "[ORD]\nurl=tcp://localhost:7222\n"
                  "incoming_topic=orders selector=\"region = 'west'\"\n")
    ems_configure(run_cli, east, tmp_path, topics, "[ORD]\nurl=tcp://localhost:7222\n")
    for region in (west, east):
        mqsc(run_cli, region, "DEFINE QLOCAL(ORDQ)\nDEFINE SUB(ORDERS) TOPICSTR('orders') DEST(ORDQ)\n")
    wait_until(lambda: internal(ord_) == {("WEST", "orders"), ("EAST", "orders")}, "both regions subscribed")
    wait_until(lambda: all(row["STATUS"] == "ACTIVE" for row in status(ord_).values()), "both routes up")
    for body, region in ((b"o1", "west"), (b"o2", "east"), (b"o3", "north")):
        publish_all(ord_, body, topic="orders", properties={"region": region})
    wait_until(lambda: depth(run_cli, west, "ORDQ") == 1 and depth(run_cli, east, "ORDQ") == 1, "one order each")
    assert bodies(west, "ORDQ") == [b"o1"] and bodies(east, "ORDQ") == [b"o2"]
    rows = status(ord_)
    assert rows["WEST"]["FWDMSGS"] == "1" and rows["EAST"]["FWDMSGS"] == "1"  # o2, o3 never went to WEST


def test_selectors_combine_with_and(qmgr_factory: Callable[..., QMgr], run_cli: RunCli) -> None:
    """B:SC-101, B:R-EMS-12, A-59: A's outgoing 'amount > 100' and B's incoming
    "region = 'west'" make (S1 AND S2) on the route from A to B."""
    a, b = qmgr_factory("A"), qmgr_factory("B")
    for qmgr in (a, b):
        global_topic(run_cli, qmgr, "T", "T")
    link(run_cli, a, b)
    define_route(run_cli, a, b, "OUTGOING('T selector=\"amount > 100\"')")
    define_route(run_cli, b, a, "INCOMING('T selector=\"region = ''west''\"')")
    mqsc(run_cli, b, "DEFINE QLOCAL(TQ)\nDEFINE SUB(TS) TOPICSTR('T') DEST(TQ)\n")
    wait_until(lambda: internal(a) == {("B", "T")} and status(a)["B"]["STATUS"] == "ACTIVE", "B subscribed at A")
    for body, amount, region in ((b"150-west", 150, "west"), (b"150-east", 150, "east"), (b"50-west", 50, "west")):
        publish_all(a, body, topic="T", properties={"amount": amount, "region": region})
    wait_until(lambda: depth(run_cli, b, "TQ") >= 1, "the selected one at B")
    assert bodies(b, "TQ") == [b"150-west"]
    assert status(a)["B"]["FWDMSGS"] == "1"


def test_non_global_topic_is_not_routed(qmgr_factory: Callable[..., QMgr], run_cli: RunCli) -> None:
    """B:SC-102, B:R-EMS-9, A-58: T2 is global on B only; B's subscriber makes no internal
    subscription on A and A's publications stay on A."""
    a, b = qmgr_factory("A"), qmgr_factory("B")
    global_topic(run_cli, b, "T2", "T2")
    mqsc(run_cli, a, "DEFINE TOPIC(T2) TOPICSTR('T2')\n")
    join(run_cli, a, b)
    mqsc(run_cli, b, "DEFINE QLOCAL(T2Q)\nDEFINE SUB(T2S) TOPICSTR('T2') DEST(T2Q)\n")
    wait_until(lambda: status(a)["B"]["PEERSUBS"] == "0" and status(b)["A"]["PEERSUBS"] == "1",
               "B's interest sent")
    publish_all(a, b"t2")
    assert internal(a) == set()
    assert status(a)["B"]["FWDMSGS"] == "0" and depth(run_cli, b, "T2Q") == 0
    assert "not GLOBAL here" in a.error_log()


@pytest.mark.parametrize("zone_type", ["MHOP", "1HOP"])
def test_zones(qmgr_factory: Callable[..., QMgr], run_cli: RunCli, zone_type: str) -> None:
    """B:SC-103, A-60: on the line A-M-B, a multi-hop zone brings A's messages to a subscriber on
    B; with both routes in one one-hop zone they reach M's subscriber and not B's."""
    a, m, b = line(qmgr_factory, run_cli, extra=f"ZONE(Z1) ZONETYPE({zone_type})")
    for qmgr in (m, b):
        mqsc(run_cli, qmgr, "DEFINE QLOCAL(ZQ)\nDEFINE SUB(ZS) TOPICSTR('T1') DEST(ZQ)\n")
    wait_until(lambda: ("M", "T1") in internal(a), "M subscribed at A")
    if zone_type == "MHOP":
        wait_until(lambda: internal(m) == {("B", "T1")}, "B subscribed at M")
    publish_all(a, b"z1")
    wait_until(lambda: depth(run_cli, m, "ZQ") == 1, "z1 at M")
    if zone_type == "MHOP":
        wait_until(lambda: depth(run_cli, b, "ZQ") == 1, "z1 at B")
    else:
        assert internal(m) == {("B", "T1")}  # B's interest is held at M, but never passed to A
        assert status(m)["A"]["PEERSUBS"] == "1"
        assert depth(run_cli, b, "ZQ") == 0 and status(m)["B"]["FWDMSGS"] == "0"
    assert "ZONETYPE(" + zone_type + ")" in shown(m, "DISPLAY RTSTATUS(A) ZONETYPE\n")


def test_a_cycle_in_a_multi_hop_zone_delivers_once(qmgr_factory: Callable[..., QMgr], run_cli: RunCli) -> None:
    """B:A-60, issue 17 item 6 (never twice): routes A-B, B-C and A-C in one multi-hop zone form a
    cycle (EMS forbids one); a message from A reaches C directly and through B, and C, knowing
    its origin, delivers it once and logs the second way."""
    a, b, c = (qmgr_factory(name) for name in ("A", "B", "C"))
    for qmgr in (a, b, c):
        global_topic(run_cli, qmgr, "T1", "T1")
    join(run_cli, a, b)
    join(run_cli, b, c)
    join(run_cli, a, c)
    mqsc(run_cli, c, "DEFINE QLOCAL(CQ)\nDEFINE SUB(CS) TOPICSTR('T1') DEST(CQ)\n")
    wait_until(lambda: {("B", "T1"), ("C", "T1")} <= internal(a) and ("C", "T1") in internal(b), "C's interest")
    publish_all(a, b"once")
    wait_until(lambda: status(b)["C"]["FWDMSGS"] == "1" and status(c)["B"]["RCVDMSGS"] == "1"
               and status(c)["A"]["RCVDMSGS"] == "1", "both ways taken")
    assert bodies(c, "CQ") == [b"once"]
    assert "AMQ5845W" in c.error_log()
