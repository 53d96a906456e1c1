"""MQTT 5.0 shared subscriptions ($share/<group>/<filter>, MQTT 5.0 4.8.2) on a real queue
manager: each publication to one member of the group, in turn; none lost or doubled; what
arrives while no member is connected waits for one, across a restart too."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from mqtt_clients import V5, V311, Client, MqttQMgr


def test_each_publication_goes_to_one_member_in_turn(client: Callable[..., Client]) -> None:
    a = client("worker-a", version=V5)
    b = client("worker-b", version=V311)  # 3.1.1 clients may join too, as most brokers allow
    everyone = client("auditor", version=V5)
    a.subscribe("$share/workers/jobs/#", 1)
    b.subscribe("$share/workers/jobs/#", 1)
    everyone.subscribe("jobs/#", 1)
    pub = client("boss", version=V5)
    for i in range(20):
        pub.publish(f"jobs/{i % 3}", f"job-{i}", qos=1)
    assert sorted(m.payload for m in everyone.received(20)) == sorted(f"job-{i}".encode() for i in range(20))
    got_a = [m.payload for m in a.received(10)]
    got_b = [m.payload for m in b.received(10)]
    assert sorted(got_a + got_b) == sorted(f"job-{i}".encode() for i in range(20))  # once each
    assert got_a == sorted(got_a, key=lambda p: int(p[4:]))  # each member in publication order
    assert a.nothing_more() and b.nothing_more()


def test_publications_wait_for_a_member_across_a_restart(client: Callable[..., Client], run_cli: Any,
                                                         mqtt_qmgr: MqttQMgr) -> None:
    member = client("keeper", version=V5, clean=False, expiry=3600)
    member.subscribe("$share/g1/orders/+", 1)
    member.close()
    pub = client("shop", version=V5)
    for i in range(3):
        pub.publish("orders/new", f"order-{i}", qos=1)
    pub.close()
    assert run_cli("endmqm", mqtt_qmgr.name).returncode == 0
    assert run_cli("strmqm", mqtt_qmgr.name).returncode == 0
    back = Client(mqtt_qmgr.mqtt_port, "keeper", version=V5, clean=False, expiry=3600)
    try:
        assert [m.payload for m in back.received(3)] == [b"order-0", b"order-1", b"order-2"]
        assert back.nothing_more()
    finally:
        back.close()


def test_the_last_member_leaving_ends_the_group(client: Callable[..., Client], run_cli: Any,
                                                mqtt_qmgr: MqttQMgr) -> None:
    a = client("solo", version=V5)
    a.subscribe("$share/grp/t/#", 0)
    shown = run_cli("runmqsc", mqtt_qmgr.name, input="DISPLAY SUB('MQTT$share:grp:t/#') DEST\n").stdout
    assert "DEST(SYSTEM.MQTT.SHARE." in shown
    a.unsubscribe("$share/grp/t/#")
    shown = run_cli("runmqsc", mqtt_qmgr.name, input="DISPLAY SUB('MQTT$share:grp:t/#')\n").stdout
    assert "AMQ8147E" in shown


@pytest.mark.parametrize("bad", ["$share/g", "$share//t"])
def test_bad_share_names_are_refused(client: Callable[..., Client], bad: str) -> None:
    c = client("picky", version=V5)
    c.subscribe(bad, 1)
    assert c.granted[0].value == 0x8F  # Topic Filter invalid


def test_no_local_on_a_shared_subscription_is_a_protocol_error(client: Callable[..., Client]) -> None:
    c = client("rude", version=V5)
    c.paho.subscribe("$share/g/t", options=mqtt.SubscribeOptions(qos=1, noLocal=True))
    assert c.disconnects.get(timeout=60).value == 0x82
