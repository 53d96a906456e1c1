"""Telemetry channels on a real queue manager process (issue 6, "Operation" and "Security"):
DEFINE/START/STOP CHANNEL CHLTYPE(MQTT), DISPLAY CHSTATUS of its clients, channels that start
again with the queue manager, MAXINST, PROTOCOL, user names and passwords from ``mqlite
passwd``, MCAUSER and USECLTID identities, and TLS (SSLCIPH, SSLKEYR, SSLCAUTH)."""

from __future__ import annotations

import shutil
import socket
import ssl
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from mqtt_clients import V5, V311, Client

import mqlite
from helpers.mqsc import records
from helpers.qmgrs import listening
from helpers.waiting import wait_until


@pytest.fixture
def qm(qmgr_factory: Callable[..., Any], run_cli: Any) -> Any:
    made = qmgr_factory("QMC", port=False)
    grant(run_cli, made, "-p", "mqtt")  # the user of MQTT clients that give no user name
    return made


def grant(run_cli: Any, qm: Any, *entity: str) -> None:
    """What IBM asks of an MQTT identity that is no administrator (secure by default): connect,
    pub and sub on the topics, put on its destination queues."""
    for target, authorities in ((("-t", "qmgr"), ("+connect",)),
                                (("-t", "topic", "-n", "SYSTEM.BASE.TOPIC"), ("+pub", "+sub")),
                                (("-t", "queue", "-n", "SYSTEM.MQTT.**"), ("+put",))):
        result = run_cli("setmqaut", "-m", qm.name, *target, *entity, *authorities)
        assert result.returncode == 0, result.stdout + result.stderr


def mqsc(run_cli: Any, qm: Any, text: str) -> str:
    result = run_cli("runmqsc", qm.name, input=text)
    output: str = result.stdout
    return output


def channel_port(qm: Any, channel: str) -> int:
    """The port a running channel defined with PORT(0) is bound to (from ``listeners.json``)."""
    return listening(qm.home, qm.name).channels[channel]


def channel_listening(qm: Any, channel: str) -> bool:
    return channel in listening(qm.home, qm.name).channels


def refused_at_tcp(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=2).close()
    except ConnectionRefusedError:
        return True
    return False


def test_define_start_display_and_stop(run_cli: Any, qm: Any, mqtt_clients: list[Client]) -> None:
    out = mqsc(run_cli, qm, "DEFINE CHANNEL(MQTT) CHLTYPE(MQTT) TRPTYPE(TCP) PORT(0)\nSTART CHANNEL(MQTT)\n")
    assert "AMQ8014I" in out and "AMQ8018I: Start WebSphere MQ channel accepted." in out
    port = channel_port(qm, "MQTT")
    watcher = Client(port, "watcher")
    mqtt_clients.append(watcher)
    watcher.subscribe("price/#", 1)
    assert run_cli("pub", "-m", qm.name, "price/fruit/apples", input="1.20\n").returncode == 0  # MQI -> MQTT
    assert watcher.received(1)[0].payload == b"1.20"
    mqi = mqlite.connect(qm.name)
    sub = mqlite.Subscription(mqi, "alerts/#")
    watcher.publish("alerts/disk", "full", qos=1)  # MQTT -> MQI
    assert sub.get(wait=60.0) == b"full"
    mqi.disconnect()

    summary = mqsc(run_cli, qm, "DISPLAY CHSTATUS(MQTT) CHLTYPE(MQTT)\n")
    assert "CHANNEL(MQTT)" in summary and "CONNECTIONS(1)" in summary and "STATUS(RUNNING)" in summary
    detail = mqsc(run_cli, qm, "DISPLAY CHSTATUS(*) CLIENTID('watch*') ALL\n")
    for item in ("CLIENTID(watcher)", "CONNAME(127.0.0.1(", "MSGSNT(1)", "MSGRCVD(1)", "PROTOCOL(MQTTV311)",
                 "KAINT(30)", "MCAUSER(mqtt)", "PENDING(0)", "INDOUBTOUT(0)", "CHLSDATE(", "LMSGTIME("):
        assert item in detail, detail
    assert "AMQ8420I: Channel Status not found." in mqsc(run_cli, qm, "DISPLAY CHSTATUS(*) CLIENTID('nobody')\n")
    conn = mqsc(run_cli, qm, "DISPLAY CONN(*) WHERE(CHANNEL EQ MQTT) APPLTAG CONNAME\n")  # its connection too
    assert "APPLTAG(MQTT watcher)" in conn and "CONNAME(127.0.0.1(" in conn, conn
    victim = Client(port, "victim")  # STOP CONN ends a client as STOP CHANNEL ... CLIENTID does
    mqtt_clients.append(victim)
    shown = mqsc(run_cli, qm, "DISPLAY CONN(*) WHERE(APPLTAG EQ 'MQTT victim')\n")
    (conn_id,) = [r["CONN"] for r in records(shown, "AMQ8276I: Display Connection details.")]
    assert "connection stopped" in mqsc(run_cli, qm, f"STOP CONN({conn_id})\n")
    assert victim.disconnects.get(timeout=60) is not None
    victim.paho.loop_stop()

    out = mqsc(run_cli, qm, "STOP CHANNEL(MQTT) CHLTYPE(MQTT) CLIENTID('watcher')\n")
    assert "AMQ8019I" in out
    assert watcher.disconnects.get(timeout=60) is not None  # the operator ended it
    watcher.paho.loop_stop()
    assert "CONNECTIONS(0)" in mqsc(run_cli, qm, "DISPLAY CHSTATUS(MQTT)\n")
    assert "MQRCCF_CHL_STATUS_NOT_FOUND (3065)" in mqsc(run_cli, qm, "STOP CHANNEL(MQTT) CLIENTID('watcher')\n")

    away = Client(port, "away", clean=False)
    away.subscribe("price/#", 1)
    away.close()
    assert run_cli("pub", "-m", qm.name, "price/fruit/pears", input="0.90\n").returncode == 0
    waiting = mqsc(run_cli, qm, "DISPLAY CHSTATUS(MQTT) CLIENTID('*') WHERE(STATUS EQ DISCONNECTED) PENDING\n")
    assert "CLIENTID(away)" in waiting and "STATUS(DISCONNECTED)" in waiting and "PENDING(1)" in waiting

    other = Client(port, "other", version=V5)
    mqtt_clients.append(other)
    assert "AMQ8019I" in mqsc(run_cli, qm, "STOP CHANNEL(MQTT)\n")
    assert other.disconnects.get(timeout=60).value == 0x98  # 5.0: Administrative action
    assert not channel_listening(qm, "MQTT") and refused_at_tcp(port)
    assert "STATUS(STOPPED)" in mqsc(run_cli, qm, "DISPLAY CHSTATUS(MQTT)\n")
    assert "MQRCCF_CHANNEL_NOT_ACTIVE (4064)" in mqsc(run_cli, qm, "STOP CHANNEL(MQTT)\n")
    assert "AMQ8015I" in mqsc(run_cli, qm, "DELETE CHANNEL(MQTT)\n")


def test_running_channels_start_again_with_the_queue_manager(run_cli: Any, qm: Any, mqtt_clients: list[Client]) -> None:
    mqsc(run_cli, qm, "DEFINE CHANNEL(KEPT) CHLTYPE(MQTT) PORT(0)\n"
                      "DEFINE CHANNEL(IDLE) CHLTYPE(MQTT) PORT(0)\nSTART CHANNEL(KEPT)\n")
    assert "AMQ8148E" in mqsc(run_cli, qm, "DELETE CHANNEL(KEPT)\n")  # running: in use
    assert run_cli("endmqm", qm.name).returncode == 0
    assert run_cli("strmqm", qm.name).returncode == 0
    back = Client(channel_port(qm, "KEPT"), "back")
    mqtt_clients.append(back)
    assert not back.refused
    assert not channel_listening(qm, "IDLE")
    mqsc(run_cli, qm, "STOP CHANNEL(KEPT)\n")
    assert run_cli("endmqm", qm.name).returncode == 0
    assert run_cli("strmqm", qm.name).returncode == 0
    assert not channel_listening(qm, "KEPT")  # stopped by the operator: stays stopped


def test_maxinst_and_protocol_levels(run_cli: Any, qm: Any, mqtt_clients: list[Client]) -> None:
    mqsc(run_cli, qm, "DEFINE CHANNEL(V5ONLY) CHLTYPE(MQTT) PORT(0) PROTOCOL(MQTTV5) MAXINST(1)\n"
                      "START CHANNEL(V5ONLY)\n")
    port = channel_port(qm, "V5ONLY")
    old = Client(port, "old", version=V311)
    mqtt_clients.append(old)
    assert old.refused and old.reason.value == 0x84  # 3.1.1 return code 1: unacceptable protocol version
    first = Client(port, "first", version=V5)
    mqtt_clients.append(first)
    assert not first.refused
    second = Client(port, "second", version=V5)
    mqtt_clients.append(second)
    assert second.refused and second.reason.value == 0x97  # Quota exceeded
    first.close()
    wait_until(lambda: "CONNECTIONS(0)" in mqsc(run_cli, qm, "DISPLAY CHSTATUS(V5ONLY)\n"), "the first client is gone")
    third = Client(port, "third", version=V5)
    mqtt_clients.append(third)
    assert not third.refused, third.reason


def test_user_names_passwords_and_identities(run_cli: Any, qm: Any, mqtt_clients: list[Client]) -> None:
    made = run_cli("passwd", "-m", qm.name, "alice", "-g", "apps", env={"MQLITE_PASSWORD": "wonderland"})
    assert made.returncode == 0, made.stderr
    for entity in (("-g", "apps"), ("-p", "app1"), ("-p", "dev42"), ("-p", "anon")):  # alice: her group
        grant(run_cli, qm, *entity)
    mqsc(run_cli, qm, "DEFINE CHANNEL(SECURE) CHLTYPE(MQTT) PORT(0) CHCKCLNT(REQUIRED)\nSTART CHANNEL(SECURE)\n")
    port = channel_port(qm, "SECURE")
    for username, password in ((None, None), ("alice", "guess"), ("mallory", "wonderland")):
        c = Client(port, "x", username=username, password=password)
        mqtt_clients.append(c)
        assert c.refused and c.reason.value == 0x86, (username, c.reason)  # 3.1.1 code 4
    alice = Client(port, "alice-app", clean=False, username="alice", password="wonderland")
    mqtt_clients.append(alice)
    assert not alice.refused
    alice.subscribe("orders/#", 1)
    assert "SUBUSER(alice)" in mqsc(run_cli, qm, "DISPLAY SBSTATUS('MQTT:alice-app:orders/#') SUBUSER\n")
    alice.close()

    # MCAUSER is the identity whoever connects; USECLTID(YES) makes it the client id.
    mqsc(run_cli, qm, "STOP CHANNEL(SECURE)\nALTER CHANNEL(SECURE) CHLTYPE(MQTT) MCAUSER('app1')\n"
                      "START CHANNEL(SECURE)\n")
    again = Client(channel_port(qm, "SECURE"), "alice-2", clean=False, username="alice", password="wonderland")
    mqtt_clients.append(again)
    again.subscribe("orders/#", 1)
    assert "SUBUSER(app1)" in mqsc(run_cli, qm, "DISPLAY SBSTATUS('MQTT:alice-2:orders/#') SUBUSER\n")
    mqsc(run_cli, qm, "DEFINE CHANNEL(BYID) CHLTYPE(MQTT) PORT(0) USECLTID(YES)\nSTART CHANNEL(BYID)\n")
    port2 = channel_port(qm, "BYID")
    device = Client(port2, "dev42", clean=False)
    mqtt_clients.append(device)
    device.subscribe("cmd/dev42", 1)
    assert "SUBUSER(dev42)" in mqsc(run_cli, qm, "DISPLAY SBSTATUS('MQTT:dev42:cmd/dev42') SUBUSER\n")
    # CHCKCLNT(OPTIONAL), the default: no password is fine, a wrong one is not.
    anonymous = Client(port2, "anon")
    mqtt_clients.append(anonymous)
    assert not anonymous.refused
    wrong = Client(port2, "wrong", username="alice", password="nope")
    mqtt_clients.append(wrong)
    assert wrong.refused and wrong.reason.value == 0x86


def test_start_on_a_port_in_use_fails_and_the_queue_manager_carries_on(run_cli: Any, qm: Any) -> None:
    with socket.socket() as busy:
        busy.bind(("0.0.0.0", 0))
        busy.listen()
        port = busy.getsockname()[1]
        out = mqsc(run_cli, qm, f"DEFINE CHANNEL(BUSY) CHLTYPE(MQTT) PORT({port})\nSTART CHANNEL(BUSY)\n")
    assert "MQRC_CHANNEL_NOT_AVAILABLE (2537)" in out
    assert "STATUS(STOPPED)" in mqsc(run_cli, qm, "DISPLAY CHSTATUS(BUSY)\n")
    assert "AMQ8018I" in mqsc(run_cli, qm, "START CHANNEL(BUSY)\n")  # the port is free now


# -- TLS --------------------------------------------------------------------------------------------
def make_certificate(directory: Path, name: str) -> tuple[Path, Path]:
    key, cert = directory / f"{name}.key", directory / f"{name}.crt"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key),
                    "-out", str(cert), "-days", "2", "-subj", f"/CN={name}"], check=True, capture_output=True)
    return key, cert


def client_context(server_cert: Path, own: tuple[Path, Path] | None = None) -> ssl.SSLContext:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.load_verify_locations(server_cert)
    context.check_hostname = False
    if own is not None:
        context.load_cert_chain(own[1], own[0])
    return context


def tls_fails(port: int, context: ssl.SSLContext | None) -> bool:
    """Does a handshake (or, without TLS, an MQTT CONNECT) on ``port`` fail?"""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=60) as raw:
            if context is None:
                raw.sendall(bytes.fromhex("100c00044d5154540402001e0000"))
                return raw.recv(4)[:1] != b"\x20"
            with context.wrap_socket(raw) as tls:
                tls.sendall(bytes.fromhex("100c00044d5154540402001e0000"))
                return tls.recv(4)[:1] != b"\x20"
    except (OSError, ssl.SSLError):
        return True


@pytest.mark.skipif(shutil.which("openssl") is None, reason="needs the openssl command")
def test_tls_channel(run_cli: Any, qm: Any, tmp_path: Path, mqtt_clients: list[Client]) -> None:
    server_key, server_cert = make_certificate(tmp_path, "server")
    client_key, client_cert = make_certificate(tmp_path, "device")
    keyring = tmp_path / "keyring.pem"
    keyring.write_text(server_key.read_text() + server_cert.read_text() + client_cert.read_text())
    out = mqsc(run_cli, qm, f"DEFINE CHANNEL(TLS) CHLTYPE(MQTT) PORT(0) SSLCIPH(ANY_TLS12) "
                            f"SSLKEYR('{keyring}')\nSTART CHANNEL(TLS)\n")
    assert "AMQ8018I" in out, out
    port = channel_port(qm, "TLS")
    secure = Client(port, "secure", tls=client_context(server_cert))
    mqtt_clients.append(secure)
    assert not secure.refused
    secure.subscribe("t/#", 1)
    secure.publish("t/1", "over tls", qos=1)
    assert secure.received(1)[0].payload == b"over tls"
    assert tls_fails(port, None)  # plain MQTT on a TLS channel

    mqsc(run_cli, qm, "STOP CHANNEL(TLS)\nALTER CHANNEL(TLS) CHLTYPE(MQTT) SSLCAUTH(REQUIRED)\nSTART CHANNEL(TLS)\n")
    port = channel_port(qm, "TLS")
    assert tls_fails(port, client_context(server_cert))  # no client certificate
    assert not tls_fails(port, client_context(server_cert, (client_key, client_cert)))

    missing = tmp_path / "none.pem"
    bad = mqsc(run_cli, qm, f"DEFINE CHANNEL(BADTLS) CHLTYPE(MQTT) PORT(0) SSLCIPH(ANY) SSLKEYR('{missing}')\n"
                            "START CHANNEL(BADTLS)\n")
    assert "MQRC_SSL_INITIALIZATION_ERROR (2393)" in bad
