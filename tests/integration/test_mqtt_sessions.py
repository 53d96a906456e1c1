"""MQTT session paths against a real queue manager (issue 13's gaps): UNSUBSCRIBE, QoS 2 resends
both ways, a clean start over an earlier session, message expiry, and delayed wills that survive a
queue manager restart. Section numbers are MQTT 5.0's (3.1.1's where noted)."""

from __future__ import annotations

import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mqtt_clients import V5, V311, Client, MqttQMgr, raw_connect, read_packet
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from helpers.waiting import wait_until
from mqlite.protocol.mqtt import Publish, PubRec, PubRel, decode, encode


def mqtt_qmgr_log(qm: MqttQMgr) -> str:
    """The queue manager's error log (AMQERR01.LOG) as it is now."""
    return (qm.home / "qmgrs" / qm.name / "AMQERR01.LOG").read_text()


def test_unsubscribe_stops_deliveries_and_says_what_existed(client: Callable[..., Client]) -> None:
    """3.10.4 / 3.11.2.2: after UNSUBSCRIBE nothing more arrives; a 5.0 UNSUBACK says 0x00 for a
    subscription that existed and 0x11 for one that did not. Clean and persistent sessions both."""
    pub = client("unsub-pub")
    for clean in (True, False):
        c = client(f"unsub-{clean}", version=V5, expiry=None if clean else 300)
        c.subscribe("un/t", 1)
        pub.publish("un/t", "before", qos=1)
        assert c.received(1)[0].payload == b"before"
        reasons = c.unsubscribe(["un/t", "never/subscribed"])
        assert [r.value for r in reasons] == [0x00, 0x11]
        pub.publish("un/t", "after", qos=1)
        assert c.nothing_more()


def test_unsubscribe_311(client: Callable[..., Client]) -> None:
    c = client("unsub-311", version=V311)
    c.subscribe("un311/#", 1)
    c.unsubscribe("un311/#")  # UNSUBACK came
    client("unsub-311-pub").publish("un311/x", "after", qos=1)
    assert c.nothing_more()


def test_a_resent_qos2_publish_is_published_once(mqtt_qmgr: MqttQMgr, client: Callable[..., Client]) -> None:
    """4.3.3 (3.1.1 4.3.3): a QoS 2 PUBLISH sent again with DUP before its PUBREL is acknowledged
    again with PUBREC but not published again; PUBREL then gets PUBCOMP."""
    watcher = client("q2-watcher")
    watcher.subscribe("q2in/#", 2)
    sock = raw_connect(mqtt_qmgr, b"q2-sender")
    publish = bytes([0x34, 12, 0, 6]) + b"q2in/x" + b"\x00\x07" + b"hi"  # QoS 2, packet id 7
    sock.sendall(publish)
    assert read_packet(sock) == (0x50, b"\x00\x07")  # PUBREC
    sock.sendall(bytes([publish[0] | 0x08]) + publish[1:])  # the same again, DUP set
    assert read_packet(sock) == (0x50, b"\x00\x07")
    sock.sendall(bytes([0x62, 2, 0, 7]))  # PUBREL
    assert read_packet(sock) == (0x70, b"\x00\x07")  # PUBCOMP
    assert watcher.received(1)[0].payload == b"hi"
    assert watcher.nothing_more()
    sock.close()


def test_a_released_qos2_delivery_gets_its_pubrel_again_after_a_reconnect(
        mqtt_qmgr: MqttQMgr, client: Callable[..., Client]) -> None:
    """4.4: a client that sent PUBREC and went away before PUBCOMP gets the PUBREL again when it
    comes back, and not the publication."""
    sock = raw_connect(mqtt_qmgr, b"q2-receiver", clean=False)
    sock.sendall(bytes([0x82, 12, 0, 2, 0, 7]) + b"q2out/#" + b"\x02")
    assert read_packet(sock)[0] == 0x90
    client("q2-pub").publish("q2out/x", "once", qos=2)
    delivery = decode(*read_packet(sock), 4)
    assert isinstance(delivery, Publish) and delivery.qos == 2 and delivery.packet_id is not None
    sock.sendall(encode(PubRec(delivery.packet_id), 4))
    assert decode(*read_packet(sock), 4) == PubRel(delivery.packet_id)
    sock.close()  # no PUBCOMP
    again = raw_connect(mqtt_qmgr, b"q2-receiver", clean=False)
    assert decode(*read_packet(again), 4) == PubRel(delivery.packet_id)
    again.sendall(bytes([0xC0, 0]))  # PINGREQ: its PINGRESP comes after whatever the reconnect sent
    assert read_packet(again) == (0xD0, b"")  # and no PUBLISH before it
    again.close()


def test_a_clean_start_ends_the_earlier_session(mqtt_qmgr: MqttQMgr, client: Callable[..., Client]) -> None:
    """3.1.2.4 (3.1.1 3.1.2.4): a clean start over a persistent session discards it: no session
    present, its subscription and its waiting publication are gone."""
    first = client("again", version=V311, clean=False)
    first.subscribe("cs/#", 1)
    first.close()
    client("cs-pub").publish("cs/x", "waiting", qos=1)
    fresh = client("again", version=V311, clean=True)
    assert not fresh.flags.session_present
    assert fresh.nothing_more()
    client("cs-pub2").publish("cs/y", "after", qos=1)
    assert fresh.nothing_more()  # the old subscription is gone too
    fresh.close()
    back = client("again", version=V311, clean=False)
    assert not back.flags.session_present


def test_message_expiry(clock_offset: Path, mqtt_qmgr: MqttQMgr, client: Callable[..., Client]) -> None:
    """3.3.2.3.3: a publication waiting for an offline client past its Message Expiry Interval is
    not delivered; one still alive is, with the interval it has left. The test moves the queue
    manager's clock 10 minutes on: past the short one's interval, whatever the machine's speed."""
    away = client("expiry-away", version=V5, expiry=3600)
    away.subscribe("exp/#", 1)
    away.close()
    pub = client("expiry-pub", version=V5)
    short, long = Properties(PacketTypes.PUBLISH), Properties(PacketTypes.PUBLISH)
    short.MessageExpiryInterval, long.MessageExpiryInterval = 60, 7200
    pub.publish("exp/short", "gone soon", qos=1, properties=short)
    pub.publish("exp/long", "still here", qos=1, properties=long)
    clock_offset.write_text("600")  # the short one's interval runs out
    wait_until(lambda: "the clock moves" in mqtt_qmgr_log(mqtt_qmgr), "the queue manager's clock moved on")
    back = client("expiry-away", version=V5, expiry=3600, clean=False)
    [got] = back.received(1)
    assert got.payload == b"still here"
    assert 0 < got.properties.MessageExpiryInterval <= 7200 - 600
    pub.publish("exp/fence", "fence", qos=1)  # after anything the session still held: the next one
    assert [m.payload for m in back.received(1)] == [b"fence"]


def test_a_delayed_will_survives_a_queue_manager_restart(clock_offset: Path, mqtt_qmgr: MqttQMgr, run_cli: Any,
                                                         client: Callable[..., Client]) -> None:
    """3.1.3.2.2: a will delayed 10 minutes whose client vanished just before the queue manager
    ended is published after the restart, once the delay is over (the test moves the queue
    manager's clock past it); one whose client came back is not. The delay is long enough that
    no restart on a slow machine outlasts it; the clock, not the test's patience, makes it due.
    (The wills are retained, so the watcher sees them whenever it subscribes.)"""
    def vanish(client_id: bytes, topic: bytes) -> None:
        props = b"\x05\x11" + (3600).to_bytes(4, "big")  # Session Expiry Interval an hour
        will_props = b"\x05\x18" + (600).to_bytes(4, "big")  # Will Delay Interval 10 minutes
        body = (b"\x00\x04MQTT\x05" + bytes([0x04 | 0x20]) + b"\x00\x3c" + props + len(client_id).to_bytes(2, "big")
                + client_id + will_props + len(topic).to_bytes(2, "big") + topic + b"\x00\x04gone")
        sock = socket.create_connection(("127.0.0.1", mqtt_qmgr.mqtt_port), timeout=60)
        sock.sendall(bytes([0x10, len(body)]) + body)
        assert read_packet(sock)[0] == 0x20
        sock.close()  # no DISCONNECT: the will is due in 10 minutes

    vanish(b"will-kept", b"wills/kept")
    vanish(b"will-back", b"wills/back")
    assert run_cli("endmqm", "-i", mqtt_qmgr.name).returncode == 0
    assert run_cli("strmqm", mqtt_qmgr.name).returncode == 0
    watcher = client("will-watcher", version=V5)
    watcher.subscribe("wills/#", 1)
    client("will-back", version=V5, expiry=3600, clean=False)  # came back: its will is not sent
    clock_offset.write_text("900")  # both wills' delays are over now
    [will] = watcher.received(1, timeout=60)
    assert (will.topic, will.payload) == ("wills/kept", b"gone")
    # will-back's will, were it sent, would have gone with will-kept's at the same tick: a
    # publication after them reaches the watcher after it, so the next one is that publication
    client("will-fence", version=V5).publish("wills/fence", "fence", qos=1)
    [after] = watcher.received(1, timeout=60)
    assert (after.topic, after.payload) == ("wills/fence", b"fence")
