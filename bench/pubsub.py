"""Publish/subscribe throughput, fan-out and subscription scale, with Mosquitto beside it.

Runs a real queue manager process in a temporary MQLITE_HOME and drives it from separate
publisher and subscriber processes over the Unix socket. Prints one JSON line. Scenarios:

- ``np_1x1`` / ``p_1x1``: 1 publisher (MQPMO_ASYNC_RESPONSE) -> 1 subscriber, 256 B, end to end
  (first publication to last get). Non-persistent: a managed subscription with read-ahead;
  persistent: a durable subscription, the subscriber getting under syncpoint, committing every 50.
- ``fanout_100``: 1 publisher -> 100 managed subscriptions (spread over 4 subscriber processes),
  non-persistent 256 B; deliveries/s = publications x 100 / time until the last copy is got.
- ``scale_<N>``: N subscriptions on distinct topics, 10 % of them wildcard ones, made through the
  native client by 2 processes; creation time, queue manager RSS per subscription, and the
  queue manager's publishing rate (asynchronous publications to existing topics, each matching
  one or two subscriptions) — the time per publication is compared between sizes.
- ``mosquitto_*``: the same 1 -> 1 and 1 -> 100 shapes through Mosquitto (QoS 0, 200-byte lines,
  ``mosquitto_pub -l`` / ``mosquitto_sub``), when it is installed.

Usage: ``python bench/pubsub.py [--quick] [--only NAME] [--scale 10000,100000,1000000]``
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from p2p import QM, mqsc, rss_mb, start_qmgr, stop_qmgr

import mqlite
from mqlite import cmqc as C

BODY = b"x" * 256


# -- workers (separate processes) -----------------------------------------------------------------
def publisher(topic: str, count: int, persistent: bool, start: mp.synchronize.Event) -> None:
    qm = mqlite.connect(QM)
    t = mqlite.Topic(qm, topic_string=topic)
    md = mqlite.MD(Persistence=C.MQPER_PERSISTENT if persistent else C.MQPER_NOT_PERSISTENT)
    pmo = mqlite.PMO(Options=C.MQPMO_NO_SYNCPOINT | C.MQPMO_ASYNC_RESPONSE)
    start.wait()
    for _ in range(count):
        md.MsgId = C.MQMI_NONE
        t.pub(BODY, md, pmo)
    t.pub(b"end", mqlite.MD(Persistence=md.Persistence))  # synchronous: all before it are done
    t.close()
    qm.disconnect()


def subscriber(topic: str, subs: int, count: int, persistent: bool, ready: mp.synchronize.Event,
               results: mp.Queue[float], index: int) -> None:
    qm = mqlite.connect(QM)
    subscriptions = []
    for i in range(subs):
        if persistent:
            subscriptions.append(mqlite.Subscription(qm, topic, name=f"BENCH.{index}.{i}", durable=True))
        else:
            subscriptions.append(mqlite.Subscription(qm, topic, read_ahead=True))
    ready.set()
    for sub in subscriptions:  # each gets its own copy of every publication
        for i in range(1, count + 2):  # + the synchronous "end" publication
            sub.get(wait=60.0, syncpoint=persistent)  # the Pythonic form of DESIGN 3
            if persistent and i % 50 == 0:
                qm.commit()
        if persistent:
            qm.commit()
    results.put(time.perf_counter())
    for sub in subscriptions:
        sub.close(C.MQCO_REMOVE_SUB, close_sub_queue=True)
    qm.disconnect()


def flow(topic: str, total: int, subscribers: int, processes: int, persistent: bool) -> float:
    """1 publisher -> ``subscribers`` subscriptions in ``processes`` processes; copies got per second."""
    ctx = mp.get_context("fork")
    start = ctx.Event()
    results: mp.Queue[float] = ctx.Queue()
    readies = [ctx.Event() for _ in range(processes)]
    per_process = subscribers // processes
    procs = [ctx.Process(target=subscriber, args=(topic, per_process, total, persistent, readies[i], results, i))
             for i in range(processes)]
    for p in procs:
        p.start()
    for ready in readies:
        ready.wait(120)
    pub = ctx.Process(target=publisher, args=(topic, total, persistent, start))
    pub.start()
    time.sleep(0.5)
    began = time.perf_counter()
    start.set()
    ends = [results.get(timeout=900) for _ in range(processes)]
    for p in [*procs, pub]:
        p.join()
    return total * per_process * processes / (max(ends) - began)


# -- scale ------------------------------------------------------------------------------------------
def topic_of(i: int) -> str:
    return f"region{i % 100}/desk{i // 100 % 100}/item{i}"


def pattern_of(i: int) -> str:
    if i % 10 == 0:  # 10 % wildcard subscriptions
        return f"region{i % 100}/+/item{i}" if i % 20 == 0 else f"region{i % 100}/desk{i // 100 % 100}/item{i}/#"
    return topic_of(i)


def make_subs(first: int, count: int, queue: str, made: mp.Queue[float], hold: mp.synchronize.Event) -> None:
    qm = mqlite.connect(QM)
    q = mqlite.Queue(qm, queue, C.MQOO_INPUT_AS_Q_DEF)
    sd = mqlite.SD(Options=C.MQSO_CREATE | C.MQSO_NON_DURABLE)
    for i in range(first, first + count):
        sd.set_vs("ObjectString", pattern_of(i))
        mqlite.Subscription(qm).sub(sub_desc=sd, sub_queue=q)
    made.put(time.perf_counter())
    hold.wait(3600)  # non-durable: they live while this connection does
    qm.disconnect()


def publish_rate(n: int, publications: int) -> float:
    """Asynchronous publications to existing topics: the queue manager's publishing rate."""
    qm = mqlite.connect(QM)
    pmo = mqlite.PMO(Options=C.MQPMO_NO_SYNCPOINT | C.MQPMO_ASYNC_RESPONSE)
    md = mqlite.MD(Persistence=C.MQPER_NOT_PERSISTENT)
    topics = [mqlite.Topic(qm, topic_string=topic_of((i * 7919) % n), open_opts=C.MQOO_OUTPUT) for i in range(500)]
    began = time.perf_counter()
    for i in range(publications):
        md.MsgId = C.MQMI_NONE
        topics[i % len(topics)].pub(b"p", md, pmo)
    qm.ping()  # every asynchronous publication before it has been processed
    elapsed = time.perf_counter() - began
    qm.disconnect()
    return publications / elapsed


def scale(proc: subprocess.Popen[bytes], n: int, publications: int) -> dict[str, float]:
    mqsc("DEFINE QLOCAL(SCALE.Q1) MAXDEPTH(100000000) REPLACE\nDEFINE QLOCAL(SCALE.Q2) MAXDEPTH(100000000) REPLACE\n")
    rss_before = rss_mb(proc.pid)
    ctx = mp.get_context("fork")
    made: mp.Queue[float] = ctx.Queue()
    hold = ctx.Event()
    half = n // 2
    workers = [ctx.Process(target=make_subs, args=(0, half, "SCALE.Q1", made, hold)),
               ctx.Process(target=make_subs, args=(half, n - half, "SCALE.Q2", made, hold))]
    began = time.perf_counter()
    for w in workers:
        w.start()
    ends = [made.get(timeout=3600) for _ in workers]
    create_s = max(ends) - began
    time.sleep(1.0)
    rss_after = rss_mb(proc.pid)
    rate = publish_rate(n, publications)
    hold.set()
    for w in workers:
        w.join()
    mqsc("DELETE QLOCAL(SCALE.Q1) PURGE\nDELETE QLOCAL(SCALE.Q2) PURGE\n")
    return {f"scale_{n}_create_s": round(create_s, 1), f"scale_{n}_subs_per_s": round(n / create_s),
            f"scale_{n}_bytes_per_sub": round((rss_after - rss_before) * 1024 * 1024 / n),
            f"scale_{n}_pubs_per_s": round(rate), f"scale_{n}_us_per_pub": round(1e6 / rate, 1)}


# -- Mosquitto, the peer ------------------------------------------------------------------------------
def mosquitto(total: int, subscribers: int) -> float | None:
    """Messages got per second end to end through Mosquitto, QoS 0, 200-byte lines."""
    broker = shutil.which("mosquitto")
    if broker is None or shutil.which("mosquitto_pub") is None:
        return None
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    conf = Path(tempfile.mkdtemp()) / "mosquitto.conf"
    conf.write_text(f"listener {port} 127.0.0.1\nallow_anonymous true\nmax_queued_messages 0\n")
    server = subprocess.Popen([broker, "-c", str(conf)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(0.5)
        subs = [subprocess.Popen(["mosquitto_sub", "-p", str(port), "-t", "bench/t", "-C", str(total)],
                                 stdout=subprocess.DEVNULL) for _ in range(subscribers)]
        time.sleep(1.0 + subscribers / 50)
        data = ("y" * 199 + "\n") * total
        began = time.perf_counter()
        pub = subprocess.Popen(["mosquitto_pub", "-p", str(port), "-t", "bench/t", "-l"], stdin=subprocess.PIPE)
        pub.communicate(data.encode())
        for sub in subs:
            sub.wait(600)
        return total * subscribers / (time.perf_counter() - began)
    finally:
        server.terminate()
        server.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer messages (a smoke run)")
    parser.add_argument("--only", help="run only scenarios whose name contains this")
    parser.add_argument("--scale", default="10000,100000", help="subscription counts for the scale runs")
    args = parser.parse_args()
    factor = 0.1 if args.quick else 1.0
    home = tempfile.mkdtemp(prefix="mqlite-bench-")
    figures: dict[str, object] = {"bench": "pubsub", "python": sys.version.split()[0], "cpus": os.cpu_count()}

    def want(name: str) -> bool:
        return args.only is None or args.only in name

    proc = start_qmgr(home)
    try:
        # Streams outrun a consumer for a while: deep managed queues, as one would configure.
        mqsc("ALTER QMODEL(SYSTEM.NDURABLE.MODEL.QUEUE) MAXDEPTH(10000000)\n"
             "ALTER QMODEL(SYSTEM.DURABLE.MODEL.QUEUE) MAXDEPTH(10000000)\n")
        if want("np_1x1"):
            figures["np_1x1"] = round(flow("bench/np", int(200_000 * factor), 1, 1, False))
        if want("p_1x1"):
            figures["p_1x1"] = round(flow("bench/p", int(40_000 * factor), 1, 1, True))
        if want("fanout_100"):
            figures["fanout_100_deliveries_per_s"] = round(flow("bench/fan", int(5_000 * factor), 100, 4, False))
        for n in (int(x) for x in args.scale.split(",") if x):
            if want(f"scale_{n}"):
                figures.update(scale(proc, int(n * factor), int(100_000 * factor)))
        figures["qmgr_rss_mb"] = round(rss_mb(proc.pid), 1)
    finally:
        if proc.poll() is None:
            stop_qmgr(proc)
        shutil.rmtree(home, ignore_errors=True)
    if want("mosquitto"):
        figures["mosquitto_1x1"] = round(mosquitto(int(200_000 * factor), 1) or 0) or None
        figures["mosquitto_fanout_100_deliveries_per_s"] = round(mosquitto(int(5_000 * factor), 100) or 0) or None
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
