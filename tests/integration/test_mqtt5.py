"""MQTT 5.0 features against a real queue manager (issue 13): flow control both ways (Receive
Maximum), Maximum Packet Size both ways, Server Keep Alive, Subscription Identifiers on one
delivery for overlapping subscriptions, and every subscribe option (No Local, Retain As Published,
Retain Handling 0/1/2). Section numbers are the MQTT 5.0 specification's."""

from __future__ import annotations

import socket
from collections.abc import Callable

from mqtt_clients import V5, Client, MqttQMgr, raw_connect, read_packet, v5_publish, varint

from mqlite.protocol.mqtt import ConnAck, PubAck, Publish, decode, encode


def test_connack_announces_the_servers_limits(client: Callable[..., Client]) -> None:
    """3.2.2.3: Receive Maximum, Maximum Packet Size and Topic Alias Maximum in CONNACK."""
    c = client("limits", version=V5)
    props = c.connack_properties
    assert props.ReceiveMaximum == 100 and props.TopicAliasMaximum == 100
    assert props.MaximumPacketSize == 4 * 1024 * 1024 + 1024


def test_server_keep_alive_caps_a_long_keep_alive(client: Callable[..., Client]) -> None:
    """3.2.2.3.14: a client asking for 120 s is told 60 s (Server Keep Alive); one asking for
    30 s keeps its own and hears no Server Keep Alive."""
    long = client("long-keepalive", version=V5, keepalive=120)
    assert long.connack_properties.ServerKeepAlive == 60
    short = client("short-keepalive", version=V5, keepalive=30)
    assert not hasattr(short.connack_properties, "ServerKeepAlive")


def test_an_incoming_packet_above_the_maximum_is_refused_with_0x95(mqtt_qmgr: MqttQMgr) -> None:
    """3.2.2.3.6 / 4.13: a PUBLISH larger than the server's Maximum Packet Size: DISCONNECT 0x95."""
    sock = raw_connect(mqtt_qmgr, b"too-big", level=5)
    remaining = 4 * 1024 * 1024 + 2048
    sock.sendall(bytes([0x30]) + varint(remaining) + b"\x00\x01t\x00")  # the rest never comes: the header alone decides
    kind, body = read_packet(sock)
    assert (kind, body[:1]) == (0xE0, b"\x95")
    assert read_packet(sock)[0] == -1
    sock.close()


def test_a_qos1_delivery_too_big_for_the_client_is_dropped_and_its_publish_still_acknowledged(
        client: Callable[..., Client]) -> None:
    """3.1.2.11.4: the server does not send a packet larger than the client's Maximum Packet Size;
    the client's own QoS 1 publication on that topic is still acknowledged."""
    small = client("small-max", version=V5, connect_properties={"MaximumPacketSize": 64})
    small.subscribe("mps/t", 2)
    small.publish("mps/t", b"." * 32, qos=0)
    assert small.received(1)[0].payload == b"." * 32
    info = small.paho.publish("mps/t", b"." * 64, qos=1)
    info.wait_for_publish(60)  # PUBACK came
    assert info.is_published()
    assert small.nothing_more()


def test_receive_maximum_limits_unacknowledged_deliveries(mqtt_qmgr: MqttQMgr, client: Callable[..., Client]) -> None:
    """3.3.4-7: with the client's Receive Maximum 2, a third QoS 1 delivery waits for a PUBACK."""
    sock = socket.create_connection(("127.0.0.1", mqtt_qmgr.mqtt_port), timeout=60)
    sock.sendall(encode_connect_v5(b"rm2", b"\x21\x00\x02"))  # Receive Maximum 2
    assert read_packet(sock)[0] == 0x20
    sock.sendall(bytes([0x82, 10, 0, 1, 0, 0, 4]) + b"rm/#" + b"\x01")
    assert read_packet(sock)[0] == 0x90
    pub = client("rm-pub", version=V5)
    for n in range(3):
        pub.publish("rm/t", f"m{n}", qos=1)
    first, second = (decode(*read_packet(sock), 5) for _ in range(2))
    assert isinstance(first, Publish) and isinstance(second, Publish)
    sock.sendall(bytes([0xC0, 0]))  # PINGREQ: the third publication, were it sent, would come before the PINGRESP
    assert read_packet(sock) == (0xD0, b"")  # the third waits
    assert first.packet_id is not None
    sock.sendall(encode(PubAck(first.packet_id), 5))
    third = decode(*read_packet(sock), 5)
    assert isinstance(third, Publish) and third.payload == b"m2"
    sock.close()


def test_too_many_unreleased_qos2_publications_end_with_0x93_after_every_pubrec(mqtt_qmgr: MqttQMgr) -> None:
    """3.3.4-9: the 101st unreleased QoS 2 PUBLISH (our Receive Maximum is 100) ends the connection
    with DISCONNECT 0x93, and a client still sending PUBRELs as it reads gets every PUBREC and the
    DISCONNECT before the connection closes (the server drains its input instead of resetting)."""
    sock = raw_connect(mqtt_qmgr, b"flood2", level=5)
    sock.sendall(b"".join(v5_publish(b"flood", b"x", qos=2, packet_id=pid) for pid in range(1, 102)))
    pubrecs = 0
    while (packet := read_packet(sock))[0] == 0x50:
        pubrecs += 1
        sock.sendall(bytes([0x62, 2]) + packet[1][:2])  # PUBREL: the server no longer listens
    assert pubrecs == 100
    assert packet[0] == 0xE0 and packet[1][0] == 0x93
    assert read_packet(sock)[0] == -1
    sock.close()


def test_overlapping_subscriptions_give_one_delivery_with_every_identifier(client: Callable[..., Client]) -> None:
    """3.3.4: one PUBLISH for two matching subscriptions, carrying both Subscription Identifiers."""
    me = client("overlap", version=V5)
    me.subscribe("ov/t", 1, identifier=2)
    me.subscribe("ov/#", 1, identifier=3)
    client("overlap-pub", version=V5).publish("ov/t", "once", qos=1)
    [got] = me.received(1)
    assert sorted(got.properties.SubscriptionIdentifier) == [2, 3]
    assert me.nothing_more()


def test_retain_as_published(client: Callable[..., Client]) -> None:
    """3.8.3.1: with Retain As Published a live delivery keeps the publisher's RETAIN flag;
    without it the flag is 0."""
    kept = client("rap-yes", version=V5)
    kept.subscribe("rap/t", 1, retainAsPublished=True)
    plain = client("rap-no", version=V5)
    plain.subscribe("rap/t", 1)
    pub = client("rap-pub", version=V5)
    pub.publish("rap/t", "not retained", qos=1)
    pub.publish("rap/t", "retained", qos=1, retain=True)
    assert [(m.payload, m.retain) for m in kept.received(2)] == [(b"not retained", False), (b"retained", True)]
    assert [(m.payload, m.retain) for m in plain.received(2)] == [(b"not retained", False), (b"retained", False)]
    pub.publish("rap/t", b"", qos=1, retain=True)  # clears it


def test_retain_handling_0_1_and_2(client: Callable[..., Client]) -> None:
    """3.8.3.1: Retain Handling 0 sends the retained publication at every SUBSCRIBE, 1 only when
    the subscription is new, 2 never."""
    pub = client("rh-pub", version=V5)
    pub.publish("rh/t", "kept", qos=1, retain=True)
    for handling, first, again in ((0, 1, 1), (1, 1, 0), (2, 0, 0)):
        sub = client(f"rh-{handling}", version=V5)
        sub.subscribe("rh/#", 1, retainHandling=handling)
        got = sub.received(first) if first else []
        assert all(m.retain and m.payload == b"kept" for m in got)
        assert sub.nothing_more()
        sub.subscribe("rh/#", 1, retainHandling=handling)
        got = sub.received(again) if again else []
        assert all(m.retain for m in got)
        assert sub.nothing_more()
    pub.publish("rh/t", b"", qos=1, retain=True)


def test_no_local(client: Callable[..., Client]) -> None:
    """3.8.3.1: No Local: a client's own publications are not sent back to that subscription."""
    me = client("nl-me", version=V5)
    me.subscribe("nl/t", 1, noLocal=True)
    other = client("nl-other", version=V5)
    other.subscribe("nl/t", 1, noLocal=True)
    me.publish("nl/t", "mine", qos=1)
    assert other.received(1)[0].payload == b"mine"
    assert me.nothing_more()


def encode_connect_v5(client_id: bytes, properties: bytes) -> bytes:
    body = b"\x00\x04MQTT\x05\x02\x00\x3c" + bytes([len(properties)]) + properties
    body += len(client_id).to_bytes(2, "big") + client_id
    return bytes([0x10, len(body)]) + body


def test_connack_bytes_of_a_refusal_come_from_the_codec(mqtt_qmgr: MqttQMgr) -> None:
    """A CONNECT of an unknown protocol level is refused with the CONNACK the codec makes."""
    sock = socket.create_connection(("127.0.0.1", mqtt_qmgr.mqtt_port), timeout=60)
    body = b"\x00\x04MQTT" + bytes([9, 2]) + b"\x00\x3c\x00\x01c"
    sock.sendall(bytes([0x10, len(body)]) + body)
    kind, ack = read_packet(sock)
    assert bytes([kind, len(ack)]) + ack == encode(ConnAck(False, 0x84), 5)
    sock.close()
