"""Publish/subscribe hierarchies (B §10, scenarios A and F): real queue managers linked by
sender/receiver channels; proxy subscriptions and publications cross them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from helpers.hierarchy import bodies, link, proxies, publish, relations, sent, set_parent
from helpers.mqsc import depth, mqsc
from helpers.qmgrs import QMgr
from helpers.waiting import wait_until

RunCli = Callable[..., Any]


def test_connect_display_and_disconnect(qmgr_factory: Callable[..., QMgr], run_cli: RunCli) -> None:
    """B:SC-52, B:SC-53, B:SC-58: PARENT makes QM2 QM1's child, DISPLAY PUBSUB shows both ends;
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
