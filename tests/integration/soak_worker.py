"""One client process of the soak test (run as a script): a paced workload until a deadline.

``python soak_worker.py ROLE QMGR MQTT_PORT END_AT RATE RESULT_PATH [QUEUE]``

Roles: ``produce``/``consume`` (point to point on QUEUE, one producer and one consumer each:
synchronous puts, persistent and not,
every fifth batch of ten under syncpoint; gets under syncpoint, committed every ten),
``publish``/``subscribe`` (a durable subscription on soak/ps), ``mqtt-publish``/``mqtt-subscribe``
(QoS 1 on soak/mqtt), ``churn`` (native and MQTT connections made and ended over and over).
Producers number their messages and end with ``END <count>``; consumers check every number
arrives once and in order. Each worker writes a JSON result: its count and what went wrong; a
subscriber first writes ``RESULT_PATH.ready`` once subscribed.
"""

from __future__ import annotations

import json
import queue
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

import mqlite
from mqlite import cmqc as C

TOPIC = "soak/ps"
MQTT_TOPIC = "soak/mqtt"
END = "END "
GET_WAIT_MS = 60_000  # a consumer gives up when nothing arrives for a minute


class Pacer:
    """Keeps a loop at ``rate`` iterations a second on average (so the soak leaves CPU to others)."""

    def __init__(self, rate: float) -> None:
        self.interval = 1.0 / rate
        self.next = time.monotonic()

    def __call__(self) -> None:
        self.next += self.interval
        delay = self.next - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        elif delay < -1.0:  # far behind (the machine was busy): do not burst to catch up
            self.next = time.monotonic()


class Checker:
    """What a consumer saw: numbered bodies in order, then END with the count."""

    def __init__(self) -> None:
        self.expected = 0
        self.errors: list[str] = []
        self.ended = False

    def see(self, body: str) -> None:
        if body.startswith(END):
            sent = int(body[len(END):])
            if sent != self.expected:
                self.errors.append(f"producer sent {sent}, consumer got {self.expected}")
            self.ended = True
            return
        number = int(body)
        if number != self.expected and len(self.errors) < 20:
            self.errors.append(f"expected {self.expected}, got {number}")
        self.expected = number + 1


def produce(qmgr: str, queue_name: str, end_at: float, rate: float) -> dict[str, Any]:
    qm = mqlite.connect(qmgr)
    q = mqlite.Queue(qm, queue_name, C.MQOO_OUTPUT)
    pace, count = Pacer(rate), 0
    while time.time() < end_at:
        in_unit = count % 50 >= 40  # one batch of ten in five under syncpoint
        options = C.MQPMO_SYNCPOINT if in_unit else C.MQPMO_NO_SYNCPOINT
        md = mqlite.MD(Persistence=C.MQPER_PERSISTENT if count % 2 else C.MQPER_NOT_PERSISTENT)
        q.put(str(count).encode(), md, mqlite.PMO(Options=options))
        count += 1
        if in_unit and count % 50 == 0:
            qm.commit()
        pace()
    qm.commit()
    q.put(f"{END}{count}".encode(), mqlite.MD(Persistence=C.MQPER_PERSISTENT))
    qm.disconnect()
    return {"count": count}


def consume(qmgr: str, queue_name: str) -> dict[str, Any]:
    qm = mqlite.connect(qmgr)
    q = mqlite.Queue(qm, queue_name, C.MQOO_INPUT_SHARED)
    gmo = mqlite.GMO(Options=C.MQGMO_WAIT | C.MQGMO_SYNCPOINT, WaitInterval=GET_WAIT_MS)
    check = Checker()
    while not check.ended:
        check.see(q.get(None, mqlite.MD(), gmo).decode())
        if check.expected % 10 == 0 or check.ended:
            qm.commit()
    qm.commit()
    qm.disconnect()
    return {"count": check.expected, "errors": check.errors}


def publish(qmgr: str, end_at: float, rate: float) -> dict[str, Any]:
    qm = mqlite.connect(qmgr)
    topic = mqlite.Topic(qm, topic_string=TOPIC)
    pace, count = Pacer(rate), 0
    while time.time() < end_at:
        md = mqlite.MD(Persistence=C.MQPER_PERSISTENT if count % 3 == 0 else C.MQPER_NOT_PERSISTENT)
        topic.pub(str(count).encode(), md)
        count += 1
        pace()
    topic.pub(f"{END}{count}".encode(), mqlite.MD(Persistence=C.MQPER_PERSISTENT))
    qm.disconnect()
    return {"count": count}


def subscribe(qmgr: str, end_at: float, rate: float, ready: Path) -> dict[str, Any]:
    qm = mqlite.connect(qmgr)
    sub = mqlite.Subscription(qm, TOPIC, name="SOAK.SUB", durable=True)
    ready.touch()
    gmo = mqlite.GMO(Options=C.MQGMO_WAIT | C.MQGMO_NO_SYNCPOINT, WaitInterval=GET_WAIT_MS)
    check = Checker()
    while not check.ended:
        check.see(sub.get(None, mqlite.MD(), gmo).decode())
    sub.close(sub_close_options=C.MQCO_REMOVE_SUB, close_sub_queue=True)
    qm.disconnect()
    return {"count": check.expected, "errors": check.errors}


def mqtt_client(port: int, client_id: str, clean: bool = True) -> tuple[mqtt.Client, queue.Queue[bytes]]:
    """A connected paho client whose received payloads land in the returned queue."""
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=clean)
    received: queue.Queue[bytes] = queue.Queue()
    connected: queue.Queue[Any] = queue.Queue()
    client.on_message = lambda c, u, m: received.put(m.payload)
    client.on_connect = lambda c, u, flags, reason, props: connected.put(reason)
    client.connect("127.0.0.1", port, keepalive=60)
    client.loop_start()
    reason = connected.get(timeout=30)
    if reason.is_failure:
        raise RuntimeError(f"MQTT CONNECT refused: {reason}")
    return client, received


def mqtt_subscribe_and_wait(client: mqtt.Client, topic: str) -> None:
    done: queue.Queue[Any] = queue.Queue()
    client.on_subscribe = lambda c, u, mid, reasons, props: done.put(reasons)
    client.subscribe(topic, qos=1)
    done.get(timeout=30)


def mqtt_publish(port: int, end_at: float, rate: float) -> dict[str, Any]:
    client, _ = mqtt_client(port, "soak-publisher")
    pace, count = Pacer(rate), 0
    while time.time() < end_at:
        client.publish(MQTT_TOPIC, str(count).encode(), qos=1).wait_for_publish(60)
        count += 1
        pace()
    client.publish(MQTT_TOPIC, f"{END}{count}".encode(), qos=1).wait_for_publish(60)
    client.disconnect()
    client.loop_stop()
    return {"count": count}


def mqtt_subscribe(port: int, end_at: float, rate: float, ready: Path) -> dict[str, Any]:
    client, received = mqtt_client(port, "soak-subscriber")
    mqtt_subscribe_and_wait(client, MQTT_TOPIC)
    ready.touch()
    check = Checker()
    while not check.ended:
        check.see(received.get(timeout=GET_WAIT_MS / 1000).decode())
    client.disconnect()
    client.loop_stop()
    return {"count": check.expected, "errors": check.errors}


def churn(qmgr: str, port: int, end_at: float, rate: float) -> dict[str, Any]:
    """Connections made and ended: native (open, put, get, disconnect) and MQTT (a clean session
    publishing to itself, and a persistent session resumed each time)."""
    pace, cycles, errors = Pacer(rate), 0, []
    while time.time() < end_at:
        qm = mqlite.connect(qmgr)
        q = mqlite.Queue(qm, "SOAK.CHURN", C.MQOO_OUTPUT | C.MQOO_INPUT_SHARED)
        body = f"churn {cycles}".encode()
        q.put(body, mqlite.MD(Persistence=C.MQPER_PERSISTENT if cycles % 2 else C.MQPER_NOT_PERSISTENT))
        got = q.get(None, mqlite.MD(), mqlite.GMO(Options=C.MQGMO_WAIT, WaitInterval=GET_WAIT_MS))
        if got != body and len(errors) < 20:
            errors.append(f"churn got {got!r} for {body!r}")
        q.close()
        qm.disconnect()
        clean = cycles % 2 == 0
        client, received = mqtt_client(port, f"soak-churn-{cycles % 20}" if clean else "soak-churn-kept", clean)
        topic = f"soak/churn/{cycles % 20}"
        mqtt_subscribe_and_wait(client, topic)
        client.publish(topic, body, qos=1).wait_for_publish(60)
        payload = received.get(timeout=60)
        while payload != body and not clean and earlier(payload, cycles):
            payload = received.get(timeout=60)  # QoS 1 at least once: a kept session may get an
            # earlier cycle's delivery again when its PUBACK had not arrived before the disconnect
        if payload != body and len(errors) < 20:
            errors.append(f"MQTT churn got {payload!r} for {body!r}")
        if not clean:
            client.unsubscribe(topic)
        client.disconnect()
        client.loop_stop()
        cycles += 1
        pace()
    return {"count": cycles, "errors": errors}


def earlier(payload: bytes, cycle: int) -> bool:
    """A churn body from a cycle before ``cycle``."""
    prefix = b"churn "
    return payload.startswith(prefix) and payload[len(prefix):].isdigit() and int(payload[len(prefix):]) < cycle


def main() -> None:
    role, qmgr, port_text, end_text, rate_text, result_text, *rest = sys.argv[1:]
    queue_name = rest[0] if rest else ""
    port, end_at, rate, result = int(port_text), float(end_text), float(rate_text), Path(result_text)
    ready = result.with_suffix(".ready")
    roles: dict[str, Callable[[], dict[str, Any]]] = {
        "produce": lambda: produce(qmgr, queue_name, end_at, rate),
        "consume": lambda: consume(qmgr, queue_name),
        "publish": lambda: publish(qmgr, end_at, rate),
        "subscribe": lambda: subscribe(qmgr, end_at, rate, ready),
        "mqtt-publish": lambda: mqtt_publish(port, end_at, rate),
        "mqtt-subscribe": lambda: mqtt_subscribe(port, end_at, rate, ready),
        "churn": lambda: churn(qmgr, port, end_at, rate),
    }
    outcome = roles[role]()
    result.write_text(json.dumps({"role": role, **outcome}))


if __name__ == "__main__":
    main()
