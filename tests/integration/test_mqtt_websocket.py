"""MQTT over WebSocket on a real queue manager (issue 6, operation): browser-style clients on a
channel with PROTOCOL(HTTP), and on the default channel where raw MQTT and WebSocket share a
port; paho's websocket transport and the `websockets` library, interworking with TCP clients;
bad handshakes and frames end only their own connection."""

from __future__ import annotations

import asyncio
import socket
from typing import Any

import pytest
import websockets
from mqtt_clients import V5, V311, Client, MqttQMgr

from helpers.ports import unused_port


@pytest.mark.parametrize("version", [V311, V5])
def test_websocket_and_tcp_clients_on_one_port(mqtt_qmgr: MqttQMgr, mqtt_clients: list[Client], version: int) -> None:
    browser = Client(mqtt_qmgr.mqtt_port, "browser", version=version, transport="websockets")
    device = Client(mqtt_qmgr.mqtt_port, "device", version=version)
    mqtt_clients += [browser, device]
    browser.subscribe("room/#", 2)
    device.subscribe("cmd/#", 1)
    for qos in (0, 1, 2):
        device.publish(f"room/{qos}", f"t{qos}", qos=qos)
    assert [m.payload for m in browser.received(3)] == [b"t0", b"t1", b"t2"]
    browser.publish("cmd/light", "on", qos=1)
    assert device.received(1)[0].payload == b"on"


def test_a_channel_of_websocket_only(mqtt_qmgr: MqttQMgr, run_cli: Any, mqtt_clients: list[Client]) -> None:
    port = unused_port()
    out = run_cli("runmqsc", mqtt_qmgr.name, input=f"DEFINE CHANNEL(WS) CHLTYPE(MQTT) PORT({port}) PROTOCOL(HTTP)\n"
                                           "START CHANNEL(WS)\n").stdout
    assert "AMQ8018I" in out
    browser = Client(port, "ws-only", transport="websockets")
    mqtt_clients.append(browser)
    assert not browser.refused
    with socket.create_connection(("127.0.0.1", port), timeout=60) as raw:  # raw MQTT: not an HTTP request
        raw.sendall(bytes.fromhex("100c00044d5154540402001e0000"))
        assert raw.recv(64).startswith(b"HTTP/1.1 400")


def test_raw_websocket_client_sends_mqtt_frames(mqtt_qmgr: MqttQMgr) -> None:
    """The `websockets` library, as a browser would: CONNECT split over two frames."""
    async def run() -> tuple[bytes, str | None]:
        async with websockets.connect(f"ws://127.0.0.1:{mqtt_qmgr.mqtt_port}/mqtt", subprotocols=["mqtt"]) as ws:  # type: ignore[list-item]
            connect = bytes.fromhex("101000044d5154540402001e0004") + b"wsli"
            await ws.send(connect[:5])
            await ws.send(connect[5:])
            reply = await asyncio.wait_for(ws.recv(), 60)
            assert isinstance(reply, bytes)
            return reply, ws.subprotocol

    reply, subprotocol = asyncio.run(run())
    assert reply == b"\x20\x02\x00\x00" and subprotocol == "mqtt"  # CONNACK accepted


def test_bad_websocket_input_ends_only_its_connection(mqtt_qmgr: MqttQMgr, mqtt_clients: list[Client]) -> None:
    bystander = Client(mqtt_qmgr.mqtt_port, "bystander")
    mqtt_clients.append(bystander)
    bystander.subscribe("still/#", 1)
    with socket.create_connection(("127.0.0.1", mqtt_qmgr.mqtt_port), timeout=60) as raw:
        raw.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")  # no upgrade
        assert raw.recv(64).startswith(b"HTTP/1.1 426")

    async def frames(bad: bytes) -> int | None:
        async with websockets.connect(f"ws://127.0.0.1:{mqtt_qmgr.mqtt_port}/", subprotocols=["mqtt"]) as ws:  # type: ignore[list-item]
            if bad:
                await ws.send(bad.decode())  # a text frame
            try:
                await asyncio.wait_for(ws.recv(), 60)
            except websockets.ConnectionClosed as closed:
                return closed.rcvd.code if closed.rcvd is not None else None
            return None

    assert asyncio.run(frames(b"hello")) == 1003  # MQTT rides in binary frames only
    bystander.publish("still/here", "yes", qos=1)
    assert bystander.received(1)[0].payload == b"yes"
