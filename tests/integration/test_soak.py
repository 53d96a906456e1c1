"""Soak: one queue manager process under a mixed load for a long time keeps its memory flat and
loses nothing (issue 13, item 6). Behind the ``slow`` marker: ``pytest -m slow tests/integration/test_soak.py``.

Point-to-point producers and consumers (persistent and not, some under syncpoint), a publisher
and a durable subscriber, an MQTT QoS 1 publisher and subscriber, and a worker making and
ending native and MQTT connections over and over, each a process of its own, paced so the run
leaves CPU to others. The queue manager's RSS is sampled all along; after warm-up (the first
fifth) the last third's highest sample must stay within a small margin of the first sample
after warm-up. Every producer numbers its messages and its consumer checks each arrives once,
in order.

``MQLITE_SOAK_SECONDS`` sets the length (default 1800); ``MQLITE_SOAK_RSS_CSV`` names a file
for the samples (seconds, RSS in MB), which ``bench/soak_plot.py`` draws.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from functools import partial
from pathlib import Path

import pytest
from mqtt_clients import MqttQMgr

import mqlite
from helpers.qmgr_process import rss_mb
from helpers.waiting import wait_until

WORKER = str(Path(__file__).with_name("soak_worker.py"))
SECONDS = float(os.environ.get("MQLITE_SOAK_SECONDS", "1800"))
pytestmark = [pytest.mark.slow, pytest.mark.timeout(SECONDS + 900)]
WARM_UP = 0.2  # share of the run before the reference sample
MARGIN = 1.10  # the last third's highest RSS may exceed the reference by 10 % ...
SLACK_MB = 4.0  # ... plus this (one sample's noise on a small process)
# role, messages (or cycles) per second, queue
WORKLOAD = [("subscribe", 0, ""), ("mqtt-subscribe", 0, ""), ("consume", 0, "SOAK.Q1"), ("consume", 0, "SOAK.Q2"),
            ("produce", 150, "SOAK.Q1"), ("produce", 150, "SOAK.Q2"), ("publish", 150, ""),
            ("mqtt-publish", 100, ""), ("churn", 5, "")]
PRODUCERS_OF = {"consume": "produce", "subscribe": "publish", "mqtt-subscribe": "mqtt-publish"}


def test_memory_stays_flat_and_nothing_is_lost(mqtt_qmgr: MqttQMgr, tmp_path: Path) -> None:
    pid_file = mqtt_qmgr.home / "qmgrs" / mqtt_qmgr.name / "qmgr.pid"  # written just after it accepts
    pid = int(wait_until(lambda: pid_file.exists() and pid_file.read_text().strip(), "the pid file is written"))
    admin = mqlite.connect(mqtt_qmgr.name)
    assert admin.mqsc("DEFINE QLOCAL(SOAK.Q1) MAXDEPTH(1000000)\nDEFINE QLOCAL(SOAK.Q2) MAXDEPTH(1000000)\n"
                      "DEFINE QLOCAL(SOAK.CHURN)\n")[0] == 0
    end_at = time.time() + SECONDS
    workers: list[tuple[str, Path, subprocess.Popen[bytes]]] = []
    try:
        for n, (role, rate, queue) in enumerate(WORKLOAD):
            result = tmp_path / f"{n}-{role}.json"
            args = [role, mqtt_qmgr.name, str(mqtt_qmgr.mqtt_port), str(end_at), str(rate), str(result), queue]
            proc = subprocess.Popen([sys.executable, WORKER, *args])
            workers.append((role, result, proc))
            if role in ("subscribe", "mqtt-subscribe"):  # subscribed before anything is published
                wait_until(partial(started, result.with_suffix(".ready"), proc), f"the {role} worker subscribed")
        samples = sample_rss(pid, end_at, Path(os.environ.get("MQLITE_SOAK_RSS_CSV", tmp_path / "rss.csv")))
        for role, _, proc in workers:
            assert proc.wait(timeout=300) == 0, f"the {role} worker failed"
    finally:
        for _, _, proc in workers:
            if proc.poll() is None:
                proc.kill()
                proc.wait()

    results = [json.loads(path.read_text()) for _, path, _ in workers]
    for outcome in results:
        assert not outcome.get("errors"), outcome
        assert outcome["count"] > 0, outcome
    sent = {role: sum(r["count"] for r in results if r["role"] == role) for role in PRODUCERS_OF.values()}
    got = {role: sum(r["count"] for r in results if r["role"] == role) for role in PRODUCERS_OF}
    for consumer, producer in PRODUCERS_OF.items():
        assert got[consumer] == sent[producer], (consumer, got, sent)
    code, lines = admin.mqsc("DISPLAY QLOCAL(SOAK.*) CURDEPTH\n")
    assert code == 0 and sum("CURDEPTH(0)" in line for line in lines) == 3, lines
    admin.disconnect()

    after_warm_up = [rss for t, rss in samples if t >= SECONDS * WARM_UP]
    reference = after_warm_up[0]
    last_third = [rss for t, rss in samples if t >= SECONDS * 2 / 3]
    assert max(last_third) <= reference * MARGIN + SLACK_MB, (
        f"RSS grew: {reference:.1f} MB after warm-up, up to {max(last_third):.1f} MB in the last third")


def started(ready: Path, proc: subprocess.Popen[bytes]) -> bool:
    return ready.exists() or proc.poll() is not None


def sample_rss(pid: int, end_at: float, csv: Path) -> list[tuple[float, float]]:
    """The queue manager's RSS every few seconds until ``end_at``, also written to ``csv``."""
    interval = max(1.0, SECONDS / 360)
    started = end_at - SECONDS
    samples: list[tuple[float, float]] = []
    with csv.open("w") as out:
        out.write("seconds,rss_mb\n")
        while time.time() < end_at:
            elapsed = time.time() - started
            samples.append((elapsed, rss_mb(pid)))
            out.write(f"{elapsed:.1f},{samples[-1][1]:.2f}\n")
            out.flush()
            time.sleep(min(interval, max(0.0, end_at - time.time())))
    return samples
