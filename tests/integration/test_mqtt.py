"""MQTT 3.1.1 and 5.0 against a real queue manager process (issue 6): paho-mqtt clients of both
versions, MQTT <-> MQI interworking both ways, retained publications, sessions that survive a
restart of the queue manager, wills, takeover and bad input."""

from __future__ import annotations

import queue
import random
import re
import shutil
import socket
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from mqtt_clients import V5, V311, Client, MqttQMgr, raw_connect, read_packet, v5_publish
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

import mqlite
from helpers.waiting import wait_until
from mqlite import cmqc as C
from mqlite.protocol.mqtt import decode


@pytest.mark.parametrize("version", [V311, V5])
def test_publish_and_subscribe_at_every_qos(client: Callable[..., Client], version: int) -> None:
    sub = client("sub", version=version)
    sub.subscribe("price/#", qos=2)
    pub = client("pub", version=version)
    for qos in (0, 1, 2):
        for i in range(5):
            pub.publish(f"price/{qos}", f"{qos}-{i}", qos=qos)
    got = sub.received(15)
    assert [m.payload.decode() for m in got] == [f"{q}-{i}" for q in (0, 1, 2) for i in range(5)]  # in order
    assert [m.qos for m in got] == [0] * 5 + [1] * 5 + [2] * 5  # the lower of publication and subscription
    assert sub.nothing_more()


def test_wildcards_and_the_dollar_topics(client: Callable[..., Client], mqtt_qmgr: MqttQMgr) -> None:
    sub = client("wild")
    sub.subscribe("a/+/c", 1)
    sub.subscribe("#", 0)
    pub = client("p")
    pub.publish("a/b/c", "one", qos=1)
    pub.publish("$SYS/x", "system", qos=1)  # not matched by a leading wildcard (MQTT 4.7.2)
    got = sub.received(2)
    assert sorted(m.payload for m in got) == [b"one", b"one"]  # one copy per matching subscription
    assert sub.nothing_more()


def test_mqtt_publications_reach_mqi_subscribers(client: Callable[..., Client], mqtt_qmgr: MqttQMgr) -> None:
    qm = mqlite.connect(mqtt_qmgr.name)
    s = mqlite.Subscription(qm, "sensors/#")
    pub = client("sensor", version=V5)
    props = Properties(PacketTypes.PUBLISH)
    props.UserProperty = [("unit", "C"), ("site", "lab")]
    props.ContentType = "text/plain"
    pub.publish("sensors/t1", b"21.5", qos=1, properties=props)
    pub.publish("sensors/t2", b"19.0", qos=0)
    first, second = list(s.messages(wait=2.0))[:2]
    assert (bytes(first), first.properties["MQTopicString"]) == (b"21.5", "sensors/t1")
    assert first.properties["unit"] == "C" and first.properties["site"] == "lab"
    assert first.md.Persistence == 1 and second.md.Persistence == 0  # QoS 1 persistent, QoS 0 not
    qm.disconnect()


def test_mqi_publications_reach_mqtt_subscribers(client: Callable[..., Client], mqtt_qmgr: MqttQMgr) -> None:
    sub = client("app", version=V5)
    sub.subscribe("orders/#", 2)
    qm = mqlite.connect(mqtt_qmgr.name)
    mqlite.Topic(qm, topic_string="orders/new").pub("persistent", persistent=True, properties={"n": 5})
    mqlite.Topic(qm, topic_string="orders/new").pub("not persistent", persistent=False)
    # Paho hands a QoS 2 message to the application at PUBREL, a QoS 0 one when it arrives: the
    # non-persistent one may overtake the persistent one on the client's side, though sent after.
    got = sorted(sub.received(2), key=lambda m: m.qos, reverse=True)
    assert [(m.payload, m.qos) for m in got] == [(b"persistent", 2), (b"not persistent", 0)]
    assert ("n", "5") in got[0].properties.UserProperty
    qm.disconnect()


def test_retained_publications_are_shared_with_mqi(client: Callable[..., Client], mqtt_qmgr: MqttQMgr,
                                                   run_cli: Any) -> None:
    pub = client("r")
    pub.publish("status/door", "open", qos=1, retain=True)
    qm = mqlite.connect(mqtt_qmgr.name)
    mqlite.Topic(qm, topic_string="status/window").pub("shut", retain=True)
    late = client("late")
    late.subscribe("status/+", 1)
    got = sorted((m.topic, m.payload, m.retain) for m in late.received(2))
    assert got == [("status/door", b"open", True), ("status/window", b"shut", True)]
    s = mqlite.Subscription(qm, "status/door")
    [retained] = list(s.messages(wait=1.0))
    assert bytes(retained) == b"open" and retained.properties.get("MQIsRetained") is True
    pub.publish("status/door", b"", qos=1, retain=True)  # an empty retained message clears it
    again = client("again")
    again.subscribe("status/door", 1)
    assert again.nothing_more()
    qm.disconnect()


def test_a_persistent_session_survives_a_queue_manager_restart(mqtt_qmgr: MqttQMgr, run_cli: Any) -> None:
    durable = Client(mqtt_qmgr.mqtt_port, "keeper", clean=False)
    durable.subscribe("jobs/#", 1)
    durable.close()
    qm = mqlite.connect(mqtt_qmgr.name)
    for i in range(3):
        mqlite.Topic(qm, topic_string="jobs/new").pub(f"job {i}", persistent=True)
    qm.disconnect()
    assert run_cli("endmqm", mqtt_qmgr.name).returncode == 0
    assert run_cli("strmqm", mqtt_qmgr.name).returncode == 0
    back = Client(mqtt_qmgr.mqtt_port, "keeper", clean=False)
    assert back.flags.session_present
    assert [m.payload for m in back.received(3)] == [b"job 0", b"job 1", b"job 2"]
    qm = mqlite.connect(mqtt_qmgr.name)
    mqlite.Topic(qm, topic_string="jobs/next").pub("job 3", persistent=True)  # the subscription is still there
    assert back.received(1)[0].payload == b"job 3"
    qm.disconnect()
    back.close()


def test_a_clean_session_leaves_nothing_behind(client: Callable[..., Client], mqtt_qmgr: MqttQMgr) -> None:
    c = client("brief")
    c.subscribe("brief/#", 1)
    qm = mqlite.connect(mqtt_qmgr.name)
    assert any("MQTT:brief" in line for line in qm.mqsc("DISPLAY SBSTATUS(*) SUBTYPE(ALL)")[1])
    c.close()
    wait_until(lambda: not any("MQTT:brief" in line for line in qm.mqsc("DISPLAY SBSTATUS(*) SUBTYPE(ALL)")[1]),
               "the clean session's subscription is gone")
    _, lines = qm.mqsc("DISPLAY QLOCAL(SYSTEM.MQTT.*)")
    assert not any("QUEUE(SYSTEM.MQTT." in line for line in lines)
    qm.disconnect()
    again = client("brief")
    assert not again.flags.session_present


def test_unacknowledged_deliveries_come_again_with_dup(mqtt_qmgr: MqttQMgr) -> None:
    """A QoS 1 delivery the client never acknowledged (its connection dropped) stays on the
    client's queue and is sent again, with DUP set, when it comes back."""
    sock = raw_connect(mqtt_qmgr, b"redo", clean=False)
    sock.sendall(bytes([0x82, 9, 0, 1, 0, 4]) + b"re/#" + b"\x01")  # SUBSCRIBE re/# QoS 1
    assert read_packet(sock)[0] == 0x90  # SUBACK
    qm = mqlite.connect(mqtt_qmgr.name)
    mqlite.Topic(qm, topic_string="re/1").pub("again", persistent=True)
    header, body = read_packet(sock)
    assert header == 0x32 and body.endswith(b"again")  # QoS 1, DUP clear
    sock.close()  # gone without PUBACK (if the server has not noticed yet, the next one takes over)
    back = Client(mqtt_qmgr.mqtt_port, "redo", clean=False)
    [redelivered] = back.received(1)
    assert redelivered.payload == b"again" and redelivered.dup
    assert back.nothing_more()
    back.close()
    qm.disconnect()


def test_the_will_is_published_when_a_client_vanishes(client: Callable[..., Client], mqtt_qmgr: MqttQMgr) -> None:
    watcher = client("watcher")
    watcher.subscribe("wills/#", 1)
    doomed = Client(mqtt_qmgr.mqtt_port, "doomed", will=("wills/doomed", b"gone"))
    doomed.paho.loop_stop()
    doomed.paho.socket().close()  # no DISCONNECT
    assert watcher.received(1)[0].payload == b"gone"
    polite = Client(mqtt_qmgr.mqtt_port, "polite", will=("wills/polite", b"gone"))
    polite.close()  # a normal DISCONNECT drops the will
    assert watcher.nothing_more()


def test_a_second_connection_takes_the_session_over(client: Callable[..., Client]) -> None:
    first = client("twin", version=V5)
    client("twin", version=V5)
    reason = first.disconnects.get(timeout=60)
    assert reason.value == 0x8E  # Session taken over


def test_v5_no_local_subscription_identifiers_and_user_properties(client: Callable[..., Client]) -> None:
    me = client("self", version=V5)
    me.subscribe("chat/#", 1, noLocal=True)
    other = client("other", version=V5)
    other.subscribe("chat/#", 1)
    props = Properties(PacketTypes.PUBLISH)
    props.UserProperty = [("lang", "en")]
    me.publish("chat/room", "hi", qos=1, properties=props)
    [got] = other.received(1)
    assert got.payload == b"hi" and ("lang", "en") in got.properties.UserProperty
    assert me.nothing_more()  # no local: its own publication is not sent back
    sub_props = Properties(PacketTypes.SUBSCRIBE)
    sub_props.SubscriptionIdentifier = 42
    done: queue.Queue[Any] = queue.Queue()
    other.paho.on_subscribe = lambda c, u, mid, reasons, p: done.put(reasons)
    other.paho.subscribe("ids/#", options=mqtt.SubscribeOptions(qos=1), properties=sub_props)
    done.get(timeout=60)
    me.publish("ids/x", "tagged", qos=1)
    [tagged] = other.received(1)
    assert tagged.properties.SubscriptionIdentifier == [42]


def test_v5_refusals_carry_reason_codes(mqtt_qmgr: MqttQMgr) -> None:
    sock = raw_connect(mqtt_qmgr, b"raw5", level=5)  # paho refuses to send a bad filter itself
    for pid, bad in enumerate((b"bad/#/filter", b"$share/g+/t", b"$share/g/t/#/x"), 7):
        sock.sendall(bytes([0x82, 6 + len(bad), 0, pid, 0, 0, len(bad)]) + bad + b"\x01")
        header, body = read_packet(sock)
        assert header == 0x90 and body == bytes([0, pid, 0, 0x8F])  # SUBACK: topic filter invalid
    sock.close()
    # Enhanced authentication (an Authentication Method in CONNECT) is not offered: CONNACK 0x8C.
    props = b"\x0a\x15\x00\x07SCRAM-1"
    body = b"\x00\x04MQTT\x05\x02\x00\x3c" + props + b"\x00\x05scram"
    sock = socket.create_connection(("127.0.0.1", mqtt_qmgr.mqtt_port), timeout=60)
    sock.sendall(bytes([0x10, len(body)]) + body)
    header, body = read_packet(sock)
    assert header == 0x20 and body[1] == 0x8C
    sock.close()


def durable_subscription(qm: MqttQMgr, name: str, until_gone: float = 0) -> bool:
    """Is the durable subscription there (``until_gone`` 0)? Else: did it go within that many seconds?"""
    conn = mqlite.connect(qm.name)
    try:
        deadline = time.monotonic() + until_gone
        while True:
            _, lines = conn.mqsc(f"DISPLAY SBSTATUS('{name}')")
            present = any("DURABLE(YES)" in line for line in lines)
            if not until_gone or not present or time.monotonic() > deadline:
                return present if not until_gone else not present
            time.sleep(0.3)
    finally:
        conn.disconnect()


# -- bad input on raw sockets -----------------------------------------------------------------
@pytest.mark.parametrize(("level", "garbage", "expected"), [
    (4, bytes([0x30, 3, 0, 1, 0]), -1),  # a topic with U+0000: malformed, closed
    (4, bytes([0x36, 5, 0, 1, 0x61, 0, 1]), -1),  # QoS 3
    (5, bytes([0x30, 3, 0, 1, 0x61]), 0xE0),  # 5.0: no property length: DISCONNECT first, then closed
    (5, bytes([0x20, 2, 0, 0]), 0xE0),  # a CONNACK from a client: protocol error
])
def test_bad_packets_end_only_their_connection(mqtt_qmgr: MqttQMgr, client: Callable[..., Client], level: int,
                                               garbage: bytes, expected: int) -> None:
    bystander = client("bystander")
    bystander.subscribe("still/#", 1)
    sock = raw_connect(mqtt_qmgr, b"bad", level=level)
    sock.sendall(garbage)
    header, body = read_packet(sock)
    assert header == expected
    if expected == 0xE0:
        assert body[0] >= 0x80  # the reason code
        assert read_packet(sock)[0] == -1  # and then the connection is closed
    sock.close()
    client("pub").publish("still/here", "yes", qos=1)  # everyone else carries on
    assert bystander.received(1)[0].payload == b"yes"


def test_a_connection_must_start_with_connect_and_speak_a_known_version(mqtt_qmgr: MqttQMgr) -> None:
    sock = socket.create_connection(("127.0.0.1", mqtt_qmgr.mqtt_port), timeout=60)
    sock.sendall(bytes([0xC0, 0]))  # PINGREQ before CONNECT
    assert read_packet(sock)[0] == -1
    sock = socket.create_connection(("127.0.0.1", mqtt_qmgr.mqtt_port), timeout=60)
    body = b"\x00\x04MQTT" + bytes([9, 2]) + b"\x00\x3c\x00\x01c"
    sock.sendall(bytes([0x10, len(body)]) + body)
    header, ack = read_packet(sock)
    assert header == 0x20 and ack[1] == 0x84  # unsupported protocol version


# -- Debian's mosquitto-clients -----------------------------------------------------------------
needs_mosquitto_clients = pytest.mark.skipif(
    shutil.which("mosquitto_sub") is None, reason="mosquitto-clients is not installed (make install adds it)")


@needs_mosquitto_clients
def test_mosquitto_sub_receives_what_mqlite_pub_and_mosquitto_pub_send(mqtt_qmgr: MqttQMgr, run_cli: Any) -> None:
    port = str(mqtt_qmgr.mqtt_port)
    sub = subprocess.Popen(["mosquitto_sub", "-p", port, "-i", "price-watcher", "-t", "price/#", "-C", "3", "-v",
                            "-q", "1"], stdout=subprocess.PIPE, text=True)
    qm = mqlite.connect(mqtt_qmgr.name)  # its subscription is there before anything is published
    wait_until(lambda: any("MQTT:price-watcher:price/#" in line
                           for line in qm.mqsc("DISPLAY SBSTATUS(*) SUBTYPE(ALL)")[1]), "mosquitto_sub has subscribed")
    qm.disconnect()
    assert run_cli("pub", "-m", mqtt_qmgr.name, "price/IBM", input="150\n").returncode == 0  # an MQI publisher
    subprocess.run(["mosquitto_pub", "-p", port, "-t", "price/HAL", "-m", "7", "-q", "1"], check=True, timeout=60)
    subprocess.run(["mosquitto_pub", "-p", port, "-t", "price/XYZ", "-m", "1", "-q", "2", "-V", "mqttv5"],
                   check=True, timeout=60)
    out, _ = sub.communicate(timeout=60)
    assert out.splitlines() == ["price/IBM 150", "price/HAL 7", "price/XYZ 1"]


@needs_mosquitto_clients
def test_an_mqi_subscriber_receives_what_mosquitto_pub_sends(mqtt_qmgr: MqttQMgr) -> None:
    qm = mqlite.connect(mqtt_qmgr.name)
    s = mqlite.Subscription(qm, "alerts/#")
    lines = "\n".join(f"alert {i}" for i in range(20)) + "\n"
    subprocess.run(["mosquitto_pub", "-p", str(mqtt_qmgr.mqtt_port), "-t", "alerts/disk", "-l", "-q", "1"],
                   input=lines, text=True, check=True, timeout=60)
    got = [bytes(m).decode() for m in s.messages(wait=2.0)]
    assert got == [f"alert {i}" for i in range(20)]
    qm.disconnect()


def test_random_bytes_after_connect_never_stop_the_queue_manager(mqtt_qmgr: MqttQMgr,
                                                                 client: Callable[..., Client]) -> None:
    """Fuzzing the running listener: whatever follows a CONNECT, the connection ends or carries
    on, and the queue manager keeps serving."""
    rng = random.Random(1234)
    for i in range(40):
        sock = raw_connect(mqtt_qmgr, f"fuzz{i}".encode(), level=rng.choice([4, 5]))
        sock.sendall(bytes(rng.randrange(256) for _ in range(rng.randrange(1, 300))))
        sock.close()
    survivor = client("survivor")
    survivor.subscribe("alive", 1)
    survivor.publish("alive", "yes", qos=1)
    assert survivor.received(1)[0].payload == b"yes"




def test_v5_topic_aliases_and_too_many_unreleased_qos2(mqtt_qmgr: MqttQMgr, client: Callable[..., Client]) -> None:
    watcher = client("alias-watcher")
    watcher.subscribe("aliased/#", 0)
    sock = raw_connect(mqtt_qmgr, b"aliaser", level=5)
    sock.sendall(v5_publish(b"aliased/topic", b"first", props=b"\x03\x23\x00\x07"))  # sets alias 7
    sock.sendall(v5_publish(b"", b"second", props=b"\x03\x23\x00\x07"))  # uses it
    assert [m.topic for m in watcher.received(2)] == ["aliased/topic", "aliased/topic"]
    sock.sendall(v5_publish(b"", b"third", props=b"\x03\x23\x00\x08"))  # an alias never set
    header, body = read_packet(sock)
    assert (header, body[0]) == (0xE0, 0x82)  # DISCONNECT, protocol error
    sock = raw_connect(mqtt_qmgr, b"flooder", level=5)
    for pid in range(1, 102):  # QoS 2 publications never released: more than our Receive Maximum of 100
        sock.sendall(v5_publish(b"flood", b"x", qos=2, packet_id=pid))
    while (packet := read_packet(sock))[0] == 0x50:  # PUBRECs, then
        pass
    assert packet[0] == 0xE0 and packet[1][0] == 0x93  # Receive Maximum exceeded


def test_v5_deliveries_bigger_than_the_clients_maximum_packet_size_are_dropped(
        mqtt_qmgr: MqttQMgr, client: Callable[..., Client]) -> None:
    sock = socket.create_connection(("127.0.0.1", mqtt_qmgr.mqtt_port), timeout=60)
    props = b"\x27" + (100).to_bytes(4, "big")  # Maximum Packet Size 100
    body = b"\x00\x04MQTT\x05\x02\x00\x3c" + bytes([len(props)]) + props + b"\x00\x05small"
    sock.sendall(bytes([0x10, len(body)]) + body)
    assert read_packet(sock)[0] == 0x20
    sock.sendall(bytes([0x82, 11, 0, 1, 0, 0, 5]) + b"big/#" + b"\x00")  # SUBSCRIBE big/# QoS 0
    assert read_packet(sock)[0] == 0x90
    pub = client("big-pub")
    pub.publish("big/one", b"y" * 500)  # too big for it: dropped
    pub.publish("big/two", b"ok")
    header, body = read_packet(sock)
    assert header == 0x30 and body.endswith(b"ok")


def test_v5_session_expiry_and_will_delay(clock_offset: Path, mqtt_qmgr: MqttQMgr,
                                          client: Callable[..., Client]) -> None:
    """A 5.0 session with an expiry of 20 minutes outlives its connection: its subscription still
    collects publications, then it ends and its queue goes. Its will, delayed 10 minutes, is kept
    when the connection vanishes, not sent at once, and comes when the delay is over. The test
    moves the queue manager's clock past each (a delay of seconds would be a race with the
    machine's speed: the session had to be seen before it expired)."""
    watcher = client("will-watcher")
    watcher.subscribe("wills/#", 1)
    props = b"\x05\x11" + (1200).to_bytes(4, "big")  # Session Expiry Interval 20 minutes
    will_props = b"\x05\x18" + (600).to_bytes(4, "big")  # Will Delay Interval 10 minutes
    body = (b"\x00\x04MQTT\x05" + bytes([0x04 | 0x08]) + b"\x00\x3c" + props + b"\x00\x07expirer" + will_props
            + b"\x00\x0dwills/expirer" + b"\x00\x04gone")
    sock = socket.create_connection(("127.0.0.1", mqtt_qmgr.mqtt_port), timeout=60)
    sock.sendall(bytes([0x10, len(body)]) + body)
    assert read_packet(sock)[0] == 0x20
    sock.sendall(bytes([0x82, 11, 0, 1, 0, 0, 5]) + b"exp/#" + b"\x01")
    assert read_packet(sock)[0] == 0x90
    sock.close()  # vanished: no DISCONNECT
    wait_until(lambda: delayed_wills(mqtt_qmgr) == 1, "the will kept for its delay")
    assert watcher.messages.empty()  # delayed, not at once
    clock_offset.write_text("900")  # the will's delay is over, the session's expiry not yet
    [will] = watcher.received(1)
    assert will.payload == b"gone"
    assert durable_subscription(mqtt_qmgr, "MQTT:expirer:exp/#")  # the session is still there
    clock_offset.write_text("1500")  # past the session's expiry
    assert durable_subscription(mqtt_qmgr, "MQTT:expirer:exp/#", until_gone=60)  # expired: gone


def delayed_wills(qm: MqttQMgr) -> int:
    """How many wills wait for their delay (SYSTEM.MQTT.WILLS' depth)."""
    with mqlite.connect(qm.name) as conn:
        _, lines = conn.mqsc("DISPLAY QLOCAL(SYSTEM.MQTT.WILLS) CURDEPTH")
    match = re.search(r"CURDEPTH\((\d+)\)", " ".join(lines))
    return int(match[1]) if match else 0


def test_v5_disconnect_changes_the_session_expiry(mqtt_qmgr: MqttQMgr) -> None:
    """MQTT 5.0 3.14.2.2.2: DISCONNECT may shorten a session's expiry (to 0: it ends now), but a
    session that had 0 cannot be given one then: that is a protocol error."""
    def connect(client_id: bytes, expiry: int) -> tuple[socket.socket, bytes]:
        props = b"\x05\x11" + expiry.to_bytes(4, "big")
        body = b"\x00\x04MQTT\x05\x00\x00\x3c" + props + len(client_id).to_bytes(2, "big") + client_id
        sock = socket.create_connection(("127.0.0.1", mqtt_qmgr.mqtt_port), timeout=60)
        sock.sendall(bytes([0x10, len(body)]) + body)
        header, connack = read_packet(sock)
        assert header == 0x20
        return sock, connack

    sock, _ = connect(b"shortlived", 3600)
    sock.sendall(bytes([0x82, 10, 0, 1, 0, 0, 4]) + b"sl/#" + b"\x01")
    assert read_packet(sock)[0] == 0x90
    sock.sendall(bytes([0xE0, 7, 0x00, 5, 0x11, 0, 0, 0, 0]))  # DISCONNECT, Session Expiry Interval 0
    sock.close()
    assert durable_subscription(mqtt_qmgr, "MQTT:shortlived:sl/#", until_gone=10)
    again, connack = connect(b"shortlived", 3600)
    assert connack[0] == 0  # no session present
    again.close()

    sock, _ = connect(b"nosession", 0)
    sock.sendall(bytes([0xE0, 7, 0x00, 5, 0x11, 0, 0, 0, 10]))  # 0 -> 10 s: not allowed
    header, body = read_packet(sock)
    assert header == 0xE0 and body[0] == 0x82  # DISCONNECT: protocol error
    sock.close()


def test_v5_outbound_topic_aliases(mqtt_qmgr: MqttQMgr, client: Callable[..., Client]) -> None:
    """MQTT 5.0 3.3.2.3.4: with the client's Topic Alias Maximum 1, the first delivery on a topic
    carries the topic and alias 1, the next one the alias alone; a new topic takes the alias over."""
    props = b"\x03\x22\x00\x01"  # Topic Alias Maximum 1
    body = b"\x00\x04MQTT\x05\x02\x00\x3c" + props + b"\x00\x05alias"
    sock = socket.create_connection(("127.0.0.1", mqtt_qmgr.mqtt_port), timeout=60)
    sock.sendall(bytes([0x10, len(body)]) + body)
    assert read_packet(sock)[0] == 0x20
    sock.sendall(bytes([0x82, 10, 0, 1, 0, 0, 4]) + b"al/#" + b"\x00")
    assert read_packet(sock)[0] == 0x90
    pub = client("alias-pub", version=V5)
    for topic in ("al/x", "al/x", "al/y", "al/x"):
        pub.publish(topic, topic)
    got = []
    for _ in range(4):
        header, packet_body = read_packet(sock)
        got.append(decode(header, packet_body, 5))
    assert [(p.topic, p.properties.get("topic_alias"), p.payload) for p in got] == [  # type: ignore[union-attr]
        ("al/x", 1, b"al/x"), ("", 1, b"al/x"), ("al/y", 1, b"al/y"), ("al/x", 1, b"al/x")]
    sock.close()


def test_v5_session_expiry_runs_on_after_a_restart(mqtt_qmgr: MqttQMgr, run_cli: Any) -> None:
    """A 5.0 session with an expiry interval whose client does not come back ends that interval
    after the queue manager's restart, its subscription and queue with it."""
    c = Client(mqtt_qmgr.mqtt_port, "brief", version=V5, clean=False, expiry=5)
    c.subscribe("brief/#", 1)
    c.close()
    assert run_cli("endmqm", mqtt_qmgr.name).returncode == 0
    assert run_cli("strmqm", mqtt_qmgr.name).returncode == 0
    assert durable_subscription(mqtt_qmgr, "MQTT:brief:brief/#")  # kept through the restart...
    assert durable_subscription(mqtt_qmgr, "MQTT:brief:brief/#", until_gone=20)  # ...and ended after 5 s


class _Transport:
    """A transport that keeps what is written (for the listener in process)."""

    def __init__(self) -> None:
        self.written: list[bytes] = []
        self.closed = False

    def write(self, data: bytes) -> None:
        self.written.append(data)

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return ("127.0.0.1", 50432) if name == "peername" else default

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True


def test_a_links_counters_for_channel_status(tmp_path: Any) -> None:
    """What DISPLAY CHSTATUS shows of a connection: PUBLISH packets and bytes each way, when it
    connected, when a packet last came, and the client's address."""
    import asyncio

    from mqlite.protocol.mqtt import V311 as LEVEL_311
    from mqlite.protocol.mqtt import Connect, Publish, Subscribe, Subscription, encode
    from mqlite.server.mqtt.broker import MqttBroker
    from mqlite.server.mqtt.listener import MqttConnection
    from mqlite.server.runtime import Runtime
    from mqlite.store.sqlite import Store

    async def run() -> None:
        store = Store(tmp_path / "store.db")
        runtime = Runtime("QCOUNT", store, asyncio.get_running_loop())
        runtime.recover()
        security = runtime.core.security
        security.set_authority(C.MQOT_Q_MGR, "QCOUNT", "mqtt", C.MQZAET_PRINCIPAL, add=C.MQZAO_CONNECT)
        security.set_authority(C.MQOT_TOPIC, "SYSTEM.BASE.TOPIC", "mqtt", C.MQZAET_PRINCIPAL,
                               add=C.MQZAO_PUBLISH | C.MQZAO_SUBSCRIBE)
        security.set_authority(C.MQOT_Q, "SYSTEM.MQTT.**", "mqtt", C.MQZAET_PRINCIPAL, add=C.MQZAO_OUTPUT)
        broker = MqttBroker(runtime.core)
        sub_t, pub_t = _Transport(), _Transport()
        sub, pub = MqttConnection(runtime, broker), MqttConnection(runtime, broker)
        sub.connection_made(sub_t)  # type: ignore[arg-type]
        pub.connection_made(pub_t)  # type: ignore[arg-type]
        before = time.time()
        sent = {sub: 0, pub: 0}
        for connection, packet in ((sub, Connect("counted-sub", LEVEL_311, True, 0)),
                                   (pub, Connect("counted-pub", LEVEL_311, True, 0)),
                                   (sub, Subscribe(1, [Subscription("count/#", 1)])),
                                   *((pub, Publish("count/me", b"x" * i, 0, False)) for i in range(3)),
                                   (pub, Publish("count/me", b"q1", 1, False, False, 7))):
            data = encode(packet, LEVEL_311)
            sent[connection] += len(data)
            connection.data_received(data)
        link, publisher = sub.link, pub.link
        assert link is not None and publisher is not None
        deadline = time.monotonic() + 60  # an upper bound: the round goes out once it is on disk
        while not (sum(map(len, sub_t.written)) == link.bytes_out and len(pub_t.written) == 2):
            assert time.monotonic() < deadline, "the QoS 1 publication's round never went out"
            await asyncio.sleep(0.01)
        assert (publisher.msgs_in, publisher.msgs_out, link.msgs_in, link.msgs_out) == (4, 0, 0, 4)
        assert (publisher.bytes_in, link.bytes_in) == (sent[pub], sent[sub])
        assert publisher.bytes_out == sum(map(len, pub_t.written))  # CONNACK, PUBACK
        assert link.bytes_out == sum(map(len, sub_t.written))  # CONNACK, SUBACK, 4 PUBLISH
        assert link.bytes_out > 4 * 2 and publisher.bytes_out == 4 + 4
        assert before <= link.connected_at <= link.last_activity <= publisher.last_activity <= time.time()
        assert link.peer == publisher.peer == "127.0.0.1(50432)"
        sub.connection_lost(None)
        pub.connection_lost(None)
        runtime.stop_timer()
        store.close()

    asyncio.run(run())
