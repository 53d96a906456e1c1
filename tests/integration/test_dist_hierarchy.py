"""Publish/subscribe hierarchies (B §10, scenarios A and F): real queue managers linked by
sender/receiver channels; proxy subscriptions and publications cross them."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

import mqlite.client as mqlite
from helpers.cluster import join_all
from helpers.hierarchy import bodies, idle, link, proxies, publish, relations, sent, sent_all, set_parent
from helpers.mqsc import depth, mqsc
from helpers.qmgrs import QMgr
from helpers.waiting import wait_until
from mqlite import cmqc as C
from mqlite.protocol import dlh

RunCli = Callable[..., Any]


def test_connect_display_and_disconnect(qmgr_factory: Callable[..., QMgr], run_cli: RunCli) -> None:
    """B:SC-52, B:SC-53, B:SC-58, D:S-26: PARENT makes QM2 QM1's child, DISPLAY PUBSUB shows both ends;
    PARENT('') ends it on both; PARENT of its own name is refused."""
    qm1, qm2 = qmgr_factory("QM1"), qmgr_factory("QM2")
    link(run_cli, qm1, qm2)
    assert "AMQ8005I" in mqsc(run_cli, qm2, "alter qmgr parent(QM1)\n")
    wait_until(lambda: relations(run_cli, qm2) == {"QM2": ("LOCAL", "ACTIVE"), "QM1": ("PARENT", "ACTIVE")}
               and relations(run_cli, qm1) == {"QM1": ("LOCAL", "ACTIVE"), "QM2": ("CHILD", "ACTIVE")},
               "both ends show the relation")
    assert list(relations(run_cli, qm2, "All")) == ["QM2", "QM1"]  # the LOCAL record first
    refused = mqsc(run_cli, qm2, "ALTER QMGR PARENT(QM2)\n", ok=False)
    assert "AMQ8005I" not in refused
    assert "PARENT(QM1)" in mqsc(run_cli, qm2, "DISPLAY QMGR PARENT\n")
    assert "AMQ8005I" in mqsc(run_cli, qm2, "alter qmgr parent('')\n")
    assert "AMQ8147" in mqsc(run_cli, qm2, "display pubsub type(child)\n", ok=False)
    assert "AMQ8147" in mqsc(run_cli, qm2, "display pubsub type(parent)\n", ok=False)
    wait_until(lambda: "AMQ8147" in mqsc(run_cli, qm1, "DISPLAY PUBSUB TYPE(CHILD)\n", ok=False),
               "QM1 has no child")


def test_weather_and_traffic(qmgr_factory: Callable[..., QMgr], run_cli: RunCli) -> None:
    """B:SC-01: a subscription on each side; only the publication with a subscriber on the other
    side crosses (xfer QM2->QM1 = 1, QM1->QM2 = 0)."""
    qm1, qm2 = qmgr_factory("QM1"), qmgr_factory("QM2")
    link(run_cli, qm1, qm2)
    set_parent(run_cli, qm2, qm1)
    mqsc(run_cli, qm1, "DEFINE QLOCAL(Q3)\nDEFINE SUB(SUB3) TOPICSTR('Weather') DEST(Q3)\n")
    mqsc(run_cli, qm2, "DEFINE QLOCAL(Q4)\nDEFINE SUB(SUB4) TOPICSTR('Traffic') DEST(Q4)\n")
    wait_until(lambda: proxies(run_cli, qm2) == {("QM1", "Weather")} and proxies(run_cli, qm1) == {("QM2", "Traffic")},
               "each holds the other's proxy")
    before = sent(run_cli, qm2, "QM2.TO.QM1"), sent(run_cli, qm1, "QM1.TO.QM2")
    publish(qm2, "Weather", b"W1")
    publish(qm2, "Traffic", b"T1")
    wait_until(lambda: depth(run_cli, qm1, "Q3") == 1, "W1 at QM1")
    assert bodies(qm1, "Q3") == [b"W1"] and bodies(qm2, "Q4") == [b"T1"]
    assert sent(run_cli, qm2, "QM2.TO.QM1") - before[0] == 1
    assert sent(run_cli, qm1, "QM1.TO.QM2") - before[1] == 0


def world(qmgr_factory: Callable[..., QMgr], run_cli: RunCli) -> dict[str, QMgr]:
    """B fixture F-WORLD: HQ the parent of Asia and Europe, Europe the parent of London."""
    qmgrs = {name: qmgr_factory(name) for name in ("HQ", "ASIA", "EUROPE", "LONDON")}
    for child, parent in (("ASIA", "HQ"), ("EUROPE", "HQ"), ("LONDON", "EUROPE")):
        link(run_cli, qmgrs[child], qmgrs[parent])
        set_parent(run_cli, qmgrs[child], qmgrs[parent])
    idle(run_cli, *qmgrs.values())
    return qmgrs


CHANNELS = ("ASIA.TO.HQ", "HQ.TO.ASIA", "HQ.TO.EUROPE", "EUROPE.TO.HQ", "EUROPE.TO.LONDON", "LONDON.TO.EUROPE")


def counts(run_cli: RunCli, qmgrs: dict[str, QMgr]) -> dict[str, int]:
    found = {}
    for qmgr in qmgrs.values():
        found.update(sent_all(qmgr))
    return {channel: found.get(channel, 0) for channel in CHANNELS}


def crossed(before: dict[str, int], after: dict[str, int]) -> dict[str, int]:
    return {channel: after[channel] - before[channel] for channel in CHANNELS if after[channel] != before[channel]}


def test_proxies_fan_out_aggregate_route_and_cancel(qmgr_factory: Callable[..., QMgr], run_cli: RunCli) -> None:
    """B:SC-03 (a subscription on Asia: one proxy per hop, none echoed back), B:SC-04 (a second
    subscription on HQ: one new message, to Asia only), B:SC-05 (publications follow the proxies,
    one copy per hop), B:SC-06 (cancellation cascades), B:SC-65 (fingerprints grow per hop)."""
    qmgrs = world(qmgr_factory, run_cli)
    hq, asia, europe, london = (qmgrs[n] for n in ("HQ", "ASIA", "EUROPE", "LONDON"))
    topic = "Sport/Results"
    before = counts(run_cli, qmgrs)
    mqsc(run_cli, asia, f"DEFINE QLOCAL(Q1)\nDEFINE SUB(SUB1) TOPICSTR('{topic}') DEST(Q1)\n")
    idle(run_cli, *qmgrs.values())
    assert proxies(run_cli, hq) == {("ASIA", topic)} and proxies(run_cli, europe) == {("HQ", topic)}
    assert proxies(run_cli, london) == {("EUROPE", topic)} and proxies(run_cli, asia) == set()
    after = counts(run_cli, qmgrs)
    assert crossed(before, after) == {"ASIA.TO.HQ": 1, "HQ.TO.EUROPE": 1, "EUROPE.TO.LONDON": 1}

    mqsc(run_cli, hq, f"DEFINE QLOCAL(Q2)\nDEFINE SUB(SUB2) TOPICSTR('{topic}') DEST(Q2)\n")  # SC-04
    idle(run_cli, *qmgrs.values())
    assert crossed(after, counts(run_cli, qmgrs)) == {"HQ.TO.ASIA": 1}
    assert proxies(run_cli, asia) == {("HQ", topic)} and proxies(run_cli, europe) == {("HQ", topic)}

    mqsc(run_cli, europe, f"DEFINE QLOCAL(QE)\nDEFINE SUB(SUBE) TOPICSTR('{topic}') DEST(QE)\n")
    idle(run_cli, *qmgrs.values())
    before = counts(run_cli, qmgrs)
    publish(europe, topic, b"P1")  # SC-05
    idle(run_cli, *qmgrs.values())
    assert crossed(before, counts(run_cli, qmgrs)) == {"EUROPE.TO.HQ": 1, "HQ.TO.ASIA": 1}
    assert bodies(hq, "Q2") == [b"P1"] and bodies(asia, "Q1") == [b"P1"] and bodies(europe, "QE") == [b"P1"]
    before = counts(run_cli, qmgrs)
    publish(london, topic, b"P2")
    idle(run_cli, *qmgrs.values())
    assert crossed(before, counts(run_cli, qmgrs)) == {"LONDON.TO.EUROPE": 1, "EUROPE.TO.HQ": 1, "HQ.TO.ASIA": 1}
    assert bodies(hq, "Q2") == [b"P2"] and bodies(asia, "Q1") == [b"P2"] and bodies(europe, "QE") == [b"P2"]

    mqsc(run_cli, europe, "DELETE SUB(SUBE)\n")
    mqsc(run_cli, asia, "DELETE SUB(SUB1)\n")  # SC-06
    idle(run_cli, *qmgrs.values())
    assert proxies(run_cli, hq) == set() and proxies(run_cli, asia) == {("HQ", topic)}
    assert proxies(run_cli, europe) == {("HQ", topic)} and proxies(run_cli, london) == {("EUROPE", topic)}
    mqsc(run_cli, hq, "DELETE SUB(SUB2)\n")
    idle(run_cli, *qmgrs.values())
    assert all(proxies(run_cli, qmgr) == set() for qmgr in qmgrs.values())


def test_fingerprints_grow_per_hop(qmgr_factory: Callable[..., QMgr], run_cli: RunCli) -> None:
    """B:SC-65, B:R-LOOP-4, R-LOOP-5, R-LOOP-8: the publisher's local copy has no ibm.Rfp; one hop
    away it holds the publishing queue manager's QMID; two hops away both, in order. Republished on
    Asia with MQACTP_NEW the copy starts a new chain; with MQACTP_FORWARD it keeps the old one, and
    HQ, finding its own QMID in it, discards it and logs why."""
    qmgrs = world(qmgr_factory, run_cli)
    hq, europe = qmgrs["HQ"], qmgrs["EUROPE"]
    qmids = {name: re.search(r"QMID\(([^)]*)\)", mqsc(run_cli, qmgrs[name], "DISPLAY QMGR QMID\n")).group(1)
             for name in ("HQ", "EUROPE", "ASIA")}
    with mqlite.connect("ASIA") as a, mqlite.connect("HQ") as h, mqlite.connect("EUROPE") as e:
        subs = {name: mqlite.Subscription(conn, "Sport/Results") for name, conn in
                (("ASIA", a), ("HQ", h), ("EUROPE", e))}
        idle(run_cli, *qmgrs.values())
        wait_until(lambda: ("ASIA", "Sport/Results") in proxies(run_cli, hq), "HQ holds Asia's proxy")
        publish(europe, "Sport/Results", b"P")
        got = {name: sub.get(wait=30.0) for name, sub in subs.items()}
    assert "ibm.Rfp" not in got["EUROPE"].properties
    assert got["HQ"].properties["ibm.Rfp"] == qmids["EUROPE"]
    assert got["ASIA"].properties["ibm.Rfp"] == f"{qmids['EUROPE']},{qmids['HQ']}"

    with mqlite.connect("HQ") as h:
        copies = mqlite.Subscription(h, "Sport/Copy")
        wait_until(lambda: ("HQ", "Sport/Copy") in proxies(run_cli, qmgrs["ASIA"]), "Asia holds HQ's proxy")
        with mqlite.connect("ASIA") as a:
            republish = mqlite.Topic(a, topic_string="Sport/Copy")
            kept = dict(got["ASIA"].properties)
            republish.pub(b"new", pmo=mqlite.PMO(Version=3, Action=C.MQACTP_NEW), properties=kept)
            assert copies.get(wait=30.0).properties["ibm.Rfp"] == qmids["ASIA"]  # a new chain
            republish.pub(b"forwarded", pmo=mqlite.PMO(Version=3, Action=C.MQACTP_FORWARD), properties=kept)
            idle(run_cli, *qmgrs.values())  # nothing in flight: what is not here now never comes
            with pytest.raises(mqlite.MQMIError) as nothing:
                copies.get(wait=0)
            assert nothing.value.reason == C.MQRC_NO_MSG_AVAILABLE
            with pytest.raises(mqlite.MQMIError) as bad:
                republish.pub(b"bad", pmo=mqlite.PMO(Version=3, Action=7))
            assert bad.value.reason == C.MQRC_ACTION_ERROR
    log = hq.error_log()
    assert "AMQ5818W" in log and f"{qmids['EUROPE']},{qmids['HQ']},{qmids['ASIA']}" in log


def test_connect_and_disconnect_while_the_channel_is_stopped(qmgr_factory: Callable[..., QMgr],
                                                             run_cli: RunCli) -> None:
    """B:SC-54 (PARENT with QM2's channel stopped: STARTING, QM1 knows nothing; started, both
    ACTIVE and the proxies resynced), B:SC-55 (PARENT('') with it stopped: QM2 forgets at once,
    QM1 when the channel runs again, with the proxies it held from QM2)."""
    qm1, qm2 = qmgr_factory("QM1"), qmgr_factory("QM2")
    link(run_cli, qm1, qm2)
    mqsc(run_cli, qm2, "DEFINE QLOCAL(Q2)\nDEFINE SUB(S2) TOPICSTR('Held') DEST(Q2)\nSTOP CHANNEL(QM2.TO.QM1)\n")
    mqsc(run_cli, qm2, "ALTER QMGR PARENT(QM1)\n")
    assert relations(run_cli, qm2).get("QM1") == ("PARENT", "STARTING")
    assert "QM2" not in relations(run_cli, qm1)
    mqsc(run_cli, qm2, "START CHANNEL(QM2.TO.QM1)\n")
    wait_until(lambda: relations(run_cli, qm2).get("QM1") == ("PARENT", "ACTIVE"), "QM2 active")
    idle(run_cli, qm1, qm2)
    assert relations(run_cli, qm1).get("QM2") == ("CHILD", "ACTIVE")
    assert proxies(run_cli, qm1) == {("QM2", "Held")}

    mqsc(run_cli, qm2, "STOP CHANNEL(QM2.TO.QM1)\n")
    mqsc(run_cli, qm2, "ALTER QMGR PARENT('')\n")
    assert "QM1" not in relations(run_cli, qm2)
    assert relations(run_cli, qm1).get("QM2") == ("CHILD", "ACTIVE") and proxies(run_cli, qm1) == {("QM2", "Held")}
    mqsc(run_cli, qm2, "START CHANNEL(QM2.TO.QM1)\n")
    idle(run_cli, qm1, qm2)
    wait_until(lambda: "QM2" not in relations(run_cli, qm1) and proxies(run_cli, qm1) == set(),
               "QM1 forgot its child and its proxies")


def test_a_parent_in_compat_mode(qmgr_factory: Callable[..., QMgr], run_cli: RunCli) -> None:
    """B:SC-56, B:R-HIE-2, A-25: with QM1 in PSMODE(COMPAT) the relation stays STARTING and no
    proxy flows; ENABLED again, it becomes ACTIVE and publications are delivered."""
    qm1, qm2 = qmgr_factory("QM1"), qmgr_factory("QM2")
    link(run_cli, qm1, qm2)
    mqsc(run_cli, qm1, "ALTER QMGR PSMODE(COMPAT)\n")
    assert relations(run_cli, qm1, "LOCAL") == {"QM1": ("LOCAL", "COMPAT")}
    mqsc(run_cli, qm2, "ALTER QMGR PARENT(QM1)\nDEFINE QLOCAL(Q2)\nDEFINE SUB(S2) TOPICSTR('Compat') DEST(Q2)\n")
    wait_until(lambda: depth(run_cli, qm1, "SYSTEM.INTER.QMGR.CONTROL") >= 1, "the request waits at QM1")
    assert relations(run_cli, qm2).get("QM1") == ("PARENT", "STARTING") and proxies(run_cli, qm1) == set()
    publish(qm1, "Compat", b"before")
    mqsc(run_cli, qm1, "ALTER QMGR PSMODE(ENABLE)\n")
    wait_until(lambda: relations(run_cli, qm2).get("QM1") == ("PARENT", "ACTIVE"), "active")
    idle(run_cli, qm1, qm2)
    assert proxies(run_cli, qm1) == {("QM2", "Compat")}
    publish(qm1, "Compat", b"after")
    idle(run_cli, qm1, qm2)
    assert bodies(qm2, "Q2") == [b"after"]


def test_a_chain_shares_one_topic_space(qmgr_factory: Callable[..., QMgr], run_cli: RunCli) -> None:
    """B:SC-57, B:R-HIE-7: QM3 -> QM2 -> QM1, Alabama defined on QM1 only: a subscription to its
    string on QM3 receives QM1's publication over two hops; by the object's name it fails on
    QM3 with 2085."""
    qm1, qm2, qm3 = qmgr_factory("QM1"), qmgr_factory("QM2"), qmgr_factory("QM3")
    link(run_cli, qm1, qm2)
    link(run_cli, qm2, qm3)
    set_parent(run_cli, qm2, qm1)
    set_parent(run_cli, qm3, qm2)
    mqsc(run_cli, qm1, "DEFINE TOPIC(Alabama) TOPICSTR('USA/Alabama')\n")
    mqsc(run_cli, qm3, "DEFINE QLOCAL(Q3)\nDEFINE SUB(S3) TOPICSTR('USA/Alabama') DEST(Q3)\n")
    idle(run_cli, qm1, qm2, qm3)
    assert proxies(run_cli, qm2) == {("QM3", "USA/Alabama")} and proxies(run_cli, qm1) == {("QM2", "USA/Alabama")}
    before = sent(run_cli, qm1, "QM1.TO.QM2"), sent(run_cli, qm2, "QM2.TO.QM3")
    publish(qm1, "USA/Alabama", b"Mobile")
    idle(run_cli, qm1, qm2, qm3)
    assert bodies(qm3, "Q3") == [b"Mobile"]
    assert (sent(run_cli, qm1, "QM1.TO.QM2") - before[0], sent(run_cli, qm2, "QM2.TO.QM3") - before[1]) == (1, 1)
    with mqlite.connect("QM3") as conn:
        sd = mqlite.SD(Options=C.MQSO_CREATE | C.MQSO_MANAGED | C.MQSO_NON_DURABLE)
        sd.ObjectName = "Alabama"
        with pytest.raises(mqlite.MQMIError) as refused:
            mqlite.Subscription(conn).sub(sub_desc=sd)
    assert refused.value.reason == C.MQRC_UNKNOWN_OBJECT_NAME


def test_a_ring_delivers_twice_and_stops(qmgr_factory: Callable[..., QMgr], run_cli: RunCli) -> None:
    """B:SC-63, B:R-LOOP-3: QMB PARENT(QMA), QMC PARENT(QMB), QMA PARENT(QMC); each holds the
    proxies of both neighbours; a publication on QMA reaches QMC's subscriber twice, once each
    way round, and QMA discards both copies that come back (two loop entries in its log)."""
    qma, qmb, qmc = qmgr_factory("QMA"), qmgr_factory("QMB"), qmgr_factory("QMC")
    for a, b in ((qma, qmb), (qmb, qmc), (qmc, qma)):
        link(run_cli, a, b)
    set_parent(run_cli, qmb, qma)
    set_parent(run_cli, qmc, qmb)
    set_parent(run_cli, qma, qmc)
    mqsc(run_cli, qmc, "DEFINE QLOCAL(QR)\nDEFINE SUB(SR) TOPICSTR('Ring') DEST(QR)\n")
    idle(run_cli, qma, qmb, qmc)
    assert proxies(run_cli, qma) == {("QMB", "Ring"), ("QMC", "Ring")}
    assert proxies(run_cli, qmb) == {("QMA", "Ring"), ("QMC", "Ring")}
    assert proxies(run_cli, qmc) == {("QMA", "Ring"), ("QMB", "Ring")}
    publish(qma, "Ring", b"P")
    idle(run_cli, qma, qmb, qmc)
    assert bodies(qmc, "QR") == [b"P", b"P"]
    log = qma.error_log()
    assert log.count("round a loop") == 2 and "2541" in log


def test_two_retained_publishers(qmgr_factory: Callable[..., QMgr], run_cli: RunCli) -> None:
    """B:SC-68, B:R-DRET-1: QM2 and QM3 children of QM1; R1 retained on QM1 and R3 on QM3 on one
    topic before any subscription; a subscription on QM2 then gets both (the seed's warning:
    publish a topic's retained publications from one queue manager)."""
    qm1, qm2, qm3 = qmgr_factory("QM1"), qmgr_factory("QM2"), qmgr_factory("QM3")
    link(run_cli, qm1, qm2)
    link(run_cli, qm1, qm3)
    set_parent(run_cli, qm2, qm1)
    set_parent(run_cli, qm3, qm1)
    publish(qm1, "T", b"R1", retain=True)
    publish(qm3, "T", b"R3", retain=True)
    with mqlite.connect("QM2") as conn:
        sub = mqlite.Subscription(conn, "T")
        got = [sub.get(wait=30.0) for _ in range(2)]
        assert sorted(bytes(m) for m in got) == [b"R1", b"R3"]
        assert all(m.properties["MQIsRetained"] is True for m in got)
        idle(run_cli, qm1, qm2, qm3)  # nothing in flight: what is not here now never comes
        with pytest.raises(mqlite.MQMIError):
            sub.get(wait=0)


def test_the_receiving_channel_puts_with_its_own_authority(qmgr_factory: Callable[..., QMgr],
                                                            run_cli: RunCli) -> None:
    """B:SC-75, B:R-DSEC-1, R-DSEC-3, R-DSEC-6, A-37: QM1's receiver from QM2 runs as 'appuser',
    who may not put to SYSTEM.INTER.QMGR.*: QM2's proxy goes to QM1's dead-letter queue with 2035
    and QM1 holds nothing; granted +put (and +setall: a receiving MCA passes the message's
    context) and resynchronised, the proxy arrives and publications flow."""
    qm1, qm2 = qmgr_factory("QM1"), qmgr_factory("QM2")
    link(run_cli, qm1, qm2)
    set_parent(run_cli, qm2, qm1)
    mqsc(run_cli, qm1, "DEFINE QLOCAL(DLQ)\nALTER QMGR DEADQ(DLQ)\n"
                       "ALTER CHANNEL(QM2.TO.QM1) CHLTYPE(RCVR) MCAUSER('appuser') PUTAUT(DEF)\n")
    for grant in (("-t", "qmgr", "+connect"), ("-t", "queue", "-n", "DLQ", "+put", "+setall")):
        granted = run_cli("setmqaut", "-m", "QM1", "-p", "appuser", *grant)  # as IBM asks of an MCAUSER
        assert granted.returncode == 0, granted.stdout + granted.stderr
    mqsc(run_cli, qm2, "STOP CHANNEL(QM2.TO.QM1)\n")  # the new MCAUSER applies from the next start
    mqsc(run_cli, qm2, "START CHANNEL(QM2.TO.QM1)\n")
    mqsc(run_cli, qm2, "DEFINE QLOCAL(QX)\nDEFINE SUB(SX) TOPICSTR('Secure/X') DEST(QX)\n")
    wait_until(lambda: depth(run_cli, qm1, "DLQ") >= 1, "the proxy on QM1's dead-letter queue")
    with mqlite.connect("QM1") as conn:
        header, _ = dlh.decode(bytes(mqlite.Queue(conn, "DLQ").get()))
    assert header.reason == C.MQRC_NOT_AUTHORIZED and header.dest_q_name == "SYSTEM.INTER.QMGR.CONTROL"
    assert proxies(run_cli, qm1) == set()
    for queue in ("SYSTEM.INTER.QMGR.CONTROL", "SYSTEM.INTER.QMGR.PUBS"):
        granted = run_cli("setmqaut", "-m", "QM1", "-t", "queue", "-n", queue, "-p", "appuser", "+put",
                          "+setall")  # (a receiving MCA passes the message's context)
        assert granted.returncode == 0, granted.stdout + granted.stderr
    mqsc(run_cli, qm2, "REFRESH QMGR TYPE(PROXYSUB)\n")
    wait_until(lambda: proxies(run_cli, qm1) == {("QM2", "Secure/X")}, "the proxy at QM1")
    publish(qm1, "Secure/X", b"through")
    idle(run_cli, qm1, qm2)
    assert bodies(qm2, "QX") == [b"through"]


def test_a_cluster_and_a_hierarchy_between_one_pair(qmgr_factory: Callable[..., QMgr], run_cli: RunCli) -> None:
    """B:SC-64, B:R-PXY-9, R-PXY-10, A-07: QMA and QMB are a cluster of two (QMA its full
    repository, cluster topic 'Sports/Rugby') and QMB is QMA's child: QMB's subscription makes one
    proxy record at QMA, over both links; QMA's publication crosses once and is delivered once."""
    qma, qmb = qmgr_factory("QMA"), qmgr_factory("QMB")
    link(run_cli, qma, qmb)
    set_parent(run_cli, qmb, qma)
    join_all(run_cli, "CL", [qma], [qmb])
    mqsc(run_cli, qma, "DEFINE TOPIC(RUGBY) TOPICSTR('Sports/Rugby') CLUSTER(CL)\n")
    wait_until(lambda: "CLUSQMGR(QMA)" in mqsc(run_cli, qmb, "DISPLAY TOPIC(RUGBY) TYPE(CLUSTER)\n", ok=False),
               "QMB has the cluster topic", timeout=60)
    mqsc(run_cli, qmb, "DEFINE QLOCAL(QL)\nDEFINE SUB(SL) TOPICSTR('Sports/Rugby/Leeds') DEST(QL)\n")
    idle(run_cli, qma, qmb)
    records = mqsc(run_cli, qma, "DISPLAY SUB(*) SUBTYPE(PROXY) DESTQMGR TOPICSTR\n").count("AMQ8096I")
    assert proxies(run_cli, qma) == {("QMB", "Sports/Rugby/Leeds")} and records == 1
    before = sum(sent_all(qma).values())
    publish(qma, "Sports/Rugby/Leeds", b"try")
    idle(run_cli, qma, qmb)
    assert sum(sent_all(qma).values()) - before == 1
    assert bodies(qmb, "QL") == [b"try"]
