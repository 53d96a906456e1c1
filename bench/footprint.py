"""Issue 34's memory figures, each of a real queue manager process, in one run.

- **idle MQTT connection**: the broker's RSS with 10,000 MQTT 3.1.1 connections that CONNECT
  (keep-alive 0) and say nothing, against its RSS before, beside Mosquitto (Debian's; skipped
  when missing) in the same run (``bench/mqtt.py``'s brokers and load). Target 2 KiB.
- **subscription**: the queue manager's RSS before and after 50,000 non-durable subscriptions of
  one client connection (``bench/pubsub.py``'s topic patterns, 10 % wildcards): on 50,000 new
  topics, and on 100 topics other subscriptions already made. Target 600 B.
- **burst**: 1,000,000 persistent 1 KiB messages put by 4 asynchronous producers and drained by
  4 read-ahead consumers (``bench/memory.py``'s workers); the RSS at the start, loaded, and after
  the drain plus idle time (the queue manager gives memory back 5 s after its last work), with
  its anonymous part. Target: back within 20 % of the start.

    python bench/footprint.py                        # all three, JSON lines on stdout
    python bench/footprint.py --only mqtt,subs       # some
    python bench/footprint.py --burst 300000         # a smaller burst
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import memory as burst_load
import mqtt
from p2p import QM, mqsc, start_qmgr, stop_qmgr

SUBSCRIBER = r"""
import sys
sys.path.insert(0, sys.argv[4])
from pubsub import pattern_of
import mqlite
from mqlite import cmqc as C
first, count, topics = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
qm = mqlite.connect("BENCH.QM")
q = mqlite.Queue(qm, "FOOT.Q", C.MQOO_INPUT_AS_Q_DEF)
sd = mqlite.SD(Options=C.MQSO_CREATE | C.MQSO_NON_DURABLE)
held = []
for i in range(first, first + count):
    sd.set_vs("ObjectString", pattern_of(i % topics if topics else i))
    held.append(mqlite.Subscription(qm).sub(sub_desc=sd, sub_queue=q))
print("ready", flush=True)
sys.stdin.readline()  # non-durable: they live while this connection does
"""


def memory_of(pid: int) -> dict[str, float]:
    """RSS and its anonymous part (MiB), from /proc/PID/smaps_rollup."""
    figures = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("Rss", "Anonymous"):
            figures[key.lower() + "_mib"] = round(int(value.split()[0]) / 1024, 1)
    return figures


def idle_mqtt(count: int) -> dict[str, Any]:
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # 10,000 sockets on each side
    work = Path(tempfile.mkdtemp(prefix="mqlite-footprint-"))
    out: dict[str, Any] = {"figure": "idle_mqtt_connection", "connections": count, "target_kib": 2.0}
    for name in ("mqlite", "mosquitto"):
        try:
            with mqtt.BROKERS[name](work) as (port, pid):
                out[name] = mqtt.memory(port, pid, count)
        except (FileNotFoundError, RuntimeError) as error:
            out[name] = {"missing": str(error)[:200]}
    return out


def subscriptions(count: int) -> dict[str, Any]:
    home = tempfile.mkdtemp(prefix="mqlite-footprint-")
    proc = start_qmgr(home)
    out: dict[str, Any] = {"figure": "subscription", "subscriptions": count, "target_bytes": 600}
    try:
        mqsc("DEFINE QLOCAL(FOOT.Q) MAXDEPTH(100000000)\n")
        bench = str(Path(__file__).resolve().parent)

        def hold(first: int, n: int, topics: int) -> subprocess.Popen[str]:
            holder = subprocess.Popen([sys.executable, "-c", SUBSCRIBER, str(first), str(n), str(topics), bench],
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            assert holder.stdout is not None
            holder.stdout.readline()
            return holder

        warm = hold(0, 1000, 100)  # the connection's own objects, the tree's first levels
        time.sleep(1.0)
        holders = [warm]
        for case, topics in (("new_topics", 0), ("existing_topics", 100)):
            before = mqtt.rss_kib(proc.pid)
            holders.append(hold(1000 + len(holders) * count, count, topics))
            time.sleep(1.0)
            after = mqtt.rss_kib(proc.pid)
            out[case] = {"rss_before_mib": round(before / 1024, 1), "rss_after_mib": round(after / 1024, 1),
                         "bytes_per_subscription": round((after - before) * 1024 / count)}
        for holder in holders:
            assert holder.stdin is not None
            holder.stdin.write("\n")
            holder.stdin.flush()
            holder.wait()
    finally:
        stop_qmgr(proc)
    return out


def burst(count: int, idle: float) -> dict[str, Any]:
    home = tempfile.mkdtemp(prefix="mqlite-footprint-")
    proc = start_qmgr(home)
    out: dict[str, Any] = {"figure": "burst", "messages": count, "target_ratio": 1.2}
    try:
        mqsc("DEFINE QLOCAL(MEM.Q) MAXDEPTH(2000000) DEFREADA(YES)\n")
        time.sleep(idle)
        out["start"] = memory_of(proc.pid)
        burst_load.clients("put", count)
        out["loaded"] = memory_of(proc.pid)
        burst_load.clients("get", count + 4)  # and the four "last" markers
        time.sleep(idle)
        out["drained"] = memory_of(proc.pid)
        out["drained_over_start"] = round(out["drained"]["rss_mib"] / out["start"]["rss_mib"], 2)
    finally:
        stop_qmgr(proc)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="mqtt,subs,burst")
    parser.add_argument("--connections", type=int, default=10_000)
    parser.add_argument("--subscriptions", type=int, default=50_000)
    parser.add_argument("--burst", type=int, default=1_000_000)
    parser.add_argument("--idle", type=float, default=15.0, help="seconds idle before a burst and after its drain")
    args = parser.parse_args()
    wanted = set(args.only.split(","))
    assert QM == burst_load.QM  # the workers connect to the queue manager p2p starts
    if "mqtt" in wanted:
        print(json.dumps(idle_mqtt(args.connections)), flush=True)
    if "subs" in wanted:
        print(json.dumps(subscriptions(args.subscriptions)), flush=True)
    if "burst" in wanted:
        print(json.dumps(burst(args.burst, args.idle)), flush=True)


if __name__ == "__main__":
    main()
