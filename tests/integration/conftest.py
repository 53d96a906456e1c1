"""Fixtures of the MQTT integration tests (the queue manager fixtures every directory shares are in
``tests/conftest.py``).

- ``mqtt_qmgr``: a started queue manager "QMQTT" with an MQTT channel on a port the system chose
  (``crtmqm --mqtt-port 0``); ``mqtt_qmgr.mqtt_port`` reads it back from ``listeners.json``.
  MQTT clients that give no user name run as user ``mqtt``, which is granted what IBM asks of an
  MQTT identity: ``connect``, ``pub`` and ``sub`` on SYSTEM.BASE.TOPIC, ``put`` on its
  destination queues (SYSTEM.MQTT.**).
- ``mqtt_clients``: the MQTT clients a test made, ended after it.
- ``client(client_id, **options)``: a connected client of ``mqtt_qmgr``.
- ``clock_offset``: a file the queue managers started after it (ask for it before ``mqtt_qmgr``)
  read their wall clock's offset from (``MQLITE_CLOCK_OFFSET_FILE``, tests only): writing
  seconds there moves their clock forward at the next tick, so a test of a delay or an expiry
  makes it due when it says, not when a timer of a few seconds runs out on a machine of some speed.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from mqtt_clients import Client, MqttQMgr

RunCli = Callable[..., "subprocess.CompletedProcess[str]"]


@pytest.fixture
def clock_offset(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The offset file (0 s for now) of the queue managers started from here on."""
    offset = tmp_path / "clock-offset"
    offset.write_text("0")
    monkeypatch.setenv("MQLITE_CLOCK_OFFSET_FILE", str(offset))
    return offset


@pytest.fixture
def mqtt_qmgr(mqlite_home: Path, run_cli: RunCli) -> Iterator[MqttQMgr]:
    """A started queue manager "QMQTT" whose MQTT channel listens on ``mqtt_port``."""
    assert run_cli("crtmqm", "--mqtt-port", "0", "QMQTT").returncode == 0
    assert run_cli("strmqm", "QMQTT").returncode == 0
    for grant in (("-t", "qmgr", "+connect"), ("-t", "topic", "-n", "SYSTEM.BASE.TOPIC", "+pub", "+sub"),
                  ("-t", "queue", "-n", "SYSTEM.MQTT.**", "+put")):
        granted = run_cli("setmqaut", "-m", "QMQTT", "-p", "mqtt", *grant)
        assert granted.returncode == 0, granted.stdout + granted.stderr
    yield MqttQMgr("QMQTT", mqlite_home)
    run_cli("endmqm", "-i", "QMQTT")


@pytest.fixture
def mqtt_clients() -> Iterator[list[Client]]:
    """MQTT clients a test made, ended after it."""
    made: list[Client] = []
    yield made
    for c in made:  # disconnect first: the network thread then ends at once, not after its 1 s select
        c.paho.disconnect()
        c.paho.loop_stop()


@pytest.fixture
def client(mqtt_qmgr: MqttQMgr, mqtt_clients: list[Client]) -> Callable[..., Client]:
    """``client(client_id, **options)``: a connected client of ``mqtt_qmgr``."""
    def make(client_id: str, **kwargs: Any) -> Client:
        mqtt_clients.append(Client(mqtt_qmgr.mqtt_port, client_id, **kwargs))
        return mqtt_clients[-1]

    return make
