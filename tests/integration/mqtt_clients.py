"""For the MQTT tests: a paho-mqtt client whose messages, CONNACK and disconnects land in queues
the test reads with a timeout, and the queue manager the ``mqtt_qmgr`` fixture starts."""

from __future__ import annotations

import queue
import socket
import ssl
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from helpers.qmgrs import listening

V311, V5 = mqtt.MQTTv311, mqtt.MQTTv5


@dataclass
class MqttQMgr:
    """A started queue manager with an MQTT channel (``crtmqm --mqtt-port 0``)."""

    name: str
    home: Path

    @property
    def mqtt_port(self) -> int:
        """SYSTEM.MQTT.DEFAULT's port now: the system picks a new one at each start."""
        return listening(self.home, self.name).channels["SYSTEM.MQTT.DEFAULT"]


class Client:
    _fences = 0  # fences sent (nothing_more), for a payload of each one's own

    def __init__(self, port: int, client_id: str, version: int = V311, clean: bool = True,
                 will: tuple[str, bytes] | None = None, expiry: int | None = None,
                 username: str | None = None, password: str | None = None,
                 tls: ssl.SSLContext | None = None, transport: str = "tcp", wait: bool = True,
                 keepalive: int = 30, connect_properties: dict[str, Any] | None = None) -> None:
        self.client_id = client_id
        kwargs: dict[str, Any] = {"client_id": client_id, "protocol": version, "transport": transport}
        if version != V5:
            kwargs["clean_session"] = clean
        self.paho = mqtt.Client(CallbackAPIVersion.VERSION2, **kwargs)
        self.messages: queue.Queue[mqtt.MQTTMessage] = queue.Queue()
        self.disconnects: queue.Queue[Any] = queue.Queue()
        self.connacks: queue.Queue[tuple[Any, Any]] = queue.Queue()
        self.paho.on_message = lambda c, u, m: self.messages.put(m)
        self.paho.on_disconnect = lambda c, u, flags, reason, props: self.disconnects.put(reason)
        self.connack_properties: Any = None
        self.paho.on_connect = lambda c, u, flags, reason, props: self._connected(flags, reason, props)
        if username is not None:
            self.paho.username_pw_set(username, password)
        if tls is not None:
            self.paho.tls_set_context(tls)
        if will is not None:
            self.paho.will_set(will[0], will[1], qos=1)
        properties = None
        if version == V5:
            properties = Properties(PacketTypes.CONNECT)
            if expiry is not None:
                properties.SessionExpiryInterval = expiry
            for name, value in (connect_properties or {}).items():
                setattr(properties, name, value)
        self.paho.reconnect_delay_set(30, 60)  # a refused client must not come straight back
        self.paho.connect("127.0.0.1", port, keepalive=keepalive, clean_start=clean if version == V5 else 3,
                          properties=properties)
        self.paho.loop_start()
        if wait:
            self.flags, self.reason = self.connacks.get(timeout=60)

    def _connected(self, flags: Any, reason: Any, properties: Any) -> None:
        self.connack_properties = properties
        self.connacks.put((flags, reason))

    @property
    def refused(self) -> bool:
        return bool(self.reason.is_failure)

    def subscribe(self, topic: str, qos: int = 0, identifier: int | None = None, **options: Any) -> None:
        """Subscribe and wait for the SUBACK (5.0: with a Subscription Identifier, if given)."""
        done: queue.Queue[Any] = queue.Queue()
        self.paho.on_subscribe = lambda c, u, mid, reasons, props: done.put(reasons)
        properties = None
        if identifier is not None:
            properties = Properties(PacketTypes.SUBSCRIBE)
            properties.SubscriptionIdentifier = identifier
        if options or properties is not None:
            self.paho.subscribe(topic, options=mqtt.SubscribeOptions(qos=qos, **options), properties=properties)
        else:
            self.paho.subscribe(topic, qos)
        self.granted = done.get(timeout=60)

    def unsubscribe(self, topic: str | list[str]) -> Any:
        """Unsubscribe and wait for the UNSUBACK: its reason codes (5.0)."""
        done: queue.Queue[Any] = queue.Queue()
        self.paho.on_unsubscribe = lambda c, u, mid, reasons, props: done.put(reasons)
        self.paho.unsubscribe(topic)
        return done.get(timeout=60)

    def publish(self, topic: str, payload: bytes | str, qos: int = 0, retain: bool = False,
                properties: Any = None) -> None:
        self.paho.publish(topic, payload, qos=qos, retain=retain, properties=properties).wait_for_publish(60)

    def received(self, count: int, timeout: float = 60.0) -> list[mqtt.MQTTMessage]:
        return [self.messages.get(timeout=timeout) for _ in range(count)]

    def nothing_more(self, via: Client | None = None, topic: str | None = None) -> bool:
        """Nothing more is coming: a fence publication, sent now, is the next message (whatever
        the server had for this client before it is delivered before it), not a quiet moment,
        which a loaded machine can outlast. The fence goes on ``topic``, one this client
        subscribes to, from ``via`` (both for a client that may not publish); by default this
        client publishes it on a topic of its own, subscribed to for the moment. A QoS 2
        delivery is handed over at its PUBREL, so one sent before the fence may still come after it."""
        own = topic is None
        topic = topic or f"fence/{self.client_id}"
        if own:
            self.subscribe(topic, 1)
        Client._fences += 1
        token = b"fence %d" % Client._fences
        (via or self).publish(topic, token, qos=1)
        before = []
        try:
            while (message := self.messages.get(timeout=60)).payload != token:
                before.append(message)
        except queue.Empty:
            raise AssertionError(f"{self.client_id}: the fence on {topic} never came") from None
        if own:
            self.unsubscribe(topic)
        return not before

    def close(self) -> None:
        self.paho.disconnect()
        self.paho.loop_stop()


# -- raw bytes, for what paho-mqtt will not send or hides ------------------------------------
def raw_connect(qm: MqttQMgr, client_id: bytes, clean: bool = True, level: int = 4) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", qm.mqtt_port), timeout=60)
    body = b"\x00\x04MQTT" + bytes([level, 0x02 if clean else 0x00]) + b"\x00\x3c"
    if level == 5:
        body += b"\x00"
    body += len(client_id).to_bytes(2, "big") + client_id
    sock.sendall(bytes([0x10, len(body)]) + body)
    header, _ = read_packet(sock)
    assert header == 0x20
    return sock


def read_packet(sock: socket.socket) -> tuple[int, bytes]:
    header = sock.recv(1)
    if not header:
        return -1, b""
    length, shift = 0, 0
    while True:
        byte = sock.recv(1)[0]
        length |= (byte & 0x7F) << shift
        if not byte & 0x80:
            break
        shift += 7
    body = b""
    while len(body) < length:
        body += sock.recv(length - len(body))
    return header[0], body


def v5_publish(topic: bytes, payload: bytes, qos: int = 0, packet_id: int = 0, props: bytes = b"\x00") -> bytes:
    body = len(topic).to_bytes(2, "big") + topic + (packet_id.to_bytes(2, "big") if qos else b"") + props + payload
    return bytes([0x30 | qos << 1]) + varint(len(body)) + body


def varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)
