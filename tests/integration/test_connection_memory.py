"""Connections that end leave nothing behind in the queue manager (found by the soak run, issue 13):
an MQTT connection's objects are freed once it has gone, whatever kind of session it had."""

from __future__ import annotations

import gc
import sys
import weakref
from pathlib import Path

import mqlite
from helpers.waiting import wait_until

sys.path.insert(0, str(Path(__file__).parent))
from soak_worker import mqtt_client, mqtt_subscribe_and_wait

QM = "MEMORY.QM"


def test_ended_mqtt_connections_are_freed(tmp_path: Path) -> None:
    with mqlite.embedded(QM, home=tmp_path, mqtt_port=0) as qm:
        host = qm.host
        with mqlite.connect(QM) as admin:  # MQTT clients without a user name run as "mqtt"
            for grant in ("OBJTYPE(QMGR) PRINCIPAL('mqtt') AUTHADD(CONNECT)",
                          "PROFILE('SYSTEM.BASE.TOPIC') OBJTYPE(TOPIC) PRINCIPAL('mqtt') AUTHADD(PUB,SUB)",
                          "PROFILE('SYSTEM.MQTT.**') OBJTYPE(QUEUE) PRINCIPAL('mqtt') AUTHADD(PUT)"):
                code, lines = admin.mqsc(f"SET AUTHREC {grant}")
                assert code == 0, lines
        assert host is not None and host.channels is not None and host.runtime is not None
        sessions_before = len(host.runtime.sessions)
        gone: list[weakref.ref[object]] = []
        for n in range(10):
            clean = n % 2 == 0  # clean sessions end with their connection; kept ones stay
            client, received = mqtt_client(qm.mqtt_port, f"mem-{n % 3}", clean)
            mqtt_subscribe_and_wait(client, f"mem/{n}")
            client.publish(f"mem/{n}", b"hello", qos=1).wait_for_publish(30)
            assert received.get(timeout=30) == b"hello"
            gone += [weakref.ref(c) for c in host.channels.all_connections()]
            client.disconnect()
            client.loop_stop()
        wait_until(lambda: not host.channels.all_connections(), "every MQTT connection has ended")

        def all_freed() -> bool:
            gc.collect()
            return all(ref() is None for ref in gone)

        wait_until(all_freed, "the ended connections were freed")
        assert len(gone) >= 10
        assert len(host.runtime.sessions) == sessions_before
