"""Point-to-point throughput through the native client, with the disk's fsync rate beside it.

Runs a real queue manager process in a temporary MQLITE_HOME and drives it from separate
producer and consumer processes over the Unix socket (the local binding). Prints one JSON
line of figures. Scenarios:

- ``sync_pairs``: one application doing MQPUT then MQGET, synchronously (round trips/s);
- ``np_1x1_async``: non-persistent, 1 producer with MQPMO_ASYNC_RESPONSE, 1 consumer with
  read-ahead, end to end (first put to last get);
- ``{np,p}_{256,4096}_{1,8}``: N producers and N consumers, synchronous put and get, each
  persistent one durable before it returns;
- ``p_1024_8_producers_async``: 8 producers with MQPMO_ASYNC_RESPONSE put persistent 1 KB
  messages, timed until the last is durable (no consumers);
- ``p_256_8x8_async``: persistent, 8 producers with MQPMO_ASYNC_RESPONSE and 8 consumers getting
  under syncpoint and committing every 50 (how IBM advises streaming persistent messages);
- ``{np,p}_256_8_producers_sync``: 8 producer processes, each waiting for every put (how most MQ
  applications put persistent messages), no consumers; ``p_over_np_8_producers_sync`` is the
  persistent figure over the non-persistent one: how well synchronous callers share commits
  (three rounds of each in turn, medians; the rounds' ratios beside it); with each, the queue
  manager's CPU per put and a producer's CPU per put and how busy the CPUs were (``*_cpus_busy``);
  then the same load on Redis and PostgreSQL (``peer_*``, ``sync_peers.py``; ``--no-peers`` skips);
- ``fsync_per_s``: this disk's one-write-one-fsync rate, the physical reference;
- ``--million``: 1,000,000 persistent 1 KB messages on one queue, queue manager RSS and
  restart (recovery) time.

Usage: ``python bench/p2p.py [--quick] [--million] [--only NAME] [--no-peers] [--qmgr-cpus 0]
[--client-cpus 1]`` (``--qmgr-cpus``: the queue manager, and a peer's server, on those CPUs
only, as ``taskset -c`` would run it; ``--client-cpus``: the producers and consumers).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import sync_peers
from cpu import cpu_seconds, machine_times
from fsync_rate import fsync_rate
from processes import pinned, timed_run

import mqlite
from mqlite import cmqc as C
from mqlite import paths

QM = "BENCH.QM"


# -- queue manager process ------------------------------------------------------------------
def start_qmgr(home: str, cpus: set[int] | None = None) -> subprocess.Popen[bytes]:
    """Start the queue manager; ``cpus``: the CPUs its threads may run on (as ``taskset -c``)."""
    env = {**os.environ, "MQLITE_HOME": home}
    os.environ["MQLITE_HOME"] = home
    paths.qmgr_dir(QM).mkdir(parents=True, exist_ok=True)
    paths.write_config(QM, {"name": QM, "port": None, "created": time.time()})
    proc = subprocess.Popen([sys.executable, "-m", "mqlite.server", QM], env=env, preexec_fn=pinned(cpus))
    address = paths.socket_address(QM)
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            with socket.socket(socket.AF_UNIX) as s:
                s.connect(address)
            return proc
        except OSError:
            if proc.poll() is not None:
                raise RuntimeError("queue manager exited at start") from None
            time.sleep(0.05)
    raise RuntimeError("queue manager did not start")


def stop_qmgr(proc: subprocess.Popen[bytes]) -> None:
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def mqsc(text: str) -> None:
    qm = mqlite.connect(QM)
    try:
        code, lines = qm.mqsc(text)
        if code:
            raise RuntimeError("\n".join(lines))
    finally:
        qm.disconnect()


# -- workers (separate processes) ---------------------------------------------------------------
def producer(queue: str, count: int, size: int, persistent: bool, asynchronous: bool,
             start: mp.synchronize.Event, results: mp.Queue[float] | None = None) -> None:
    qm = mqlite.connect(QM)
    q = mqlite.Queue(qm, queue, C.MQOO_OUTPUT)
    md = mqlite.MD(Persistence=C.MQPER_PERSISTENT if persistent else C.MQPER_NOT_PERSISTENT)
    pmo = mqlite.PMO(Options=C.MQPMO_NO_SYNCPOINT | (C.MQPMO_ASYNC_RESPONSE if asynchronous else 0))
    body = b"x" * size
    start.wait()
    for _ in range(count):
        md.MsgId = C.MQMI_NONE
        q.put(body, md, pmo)
    if asynchronous:  # a synchronous persistent put: its reply comes once all before it are durable
        q.put(b"last", mqlite.MD(Persistence=C.MQPER_PERSISTENT if persistent else C.MQPER_NOT_PERSISTENT))
    if results is not None:
        results.put(time.perf_counter())
    q.close()
    qm.disconnect()


def consumer(queue: str, count: int, read_ahead: bool, start: mp.synchronize.Event,
             results: mp.Queue[float], batch: int = 1) -> None:
    """Gets ``count`` messages; with ``batch`` > 1 under syncpoint, committing every ``batch``."""
    qm = mqlite.connect(QM)
    options = C.MQOO_INPUT_SHARED | (C.MQOO_READ_AHEAD if read_ahead else 0)
    q = mqlite.Queue(qm, queue, options)
    sync = C.MQGMO_SYNCPOINT if batch > 1 else C.MQGMO_NO_SYNCPOINT
    gmo = mqlite.GMO(Options=C.MQGMO_WAIT | sync, WaitInterval=30_000)
    start.wait()
    for i in range(1, count + 1):
        md = mqlite.MD()
        q.get(None, md, gmo)
        if batch > 1 and i % batch == 0:
            qm.commit()
    if batch > 1:
        qm.commit()
    results.put(time.perf_counter())
    q.close()
    qm.disconnect()


def run_flow(queue: str, total: int, size: int, persistent: bool, pairs: int,
             asynchronous: bool = False, read_ahead: bool = False, batch: int = 1) -> float:
    """N producers and N consumers move ``total`` messages; returns messages/s end to end."""
    ctx = mp.get_context("fork")
    start = ctx.Event()
    results: mp.Queue[float] = ctx.Queue()
    per = total // pairs
    procs = [ctx.Process(target=consumer, args=(queue, per, read_ahead, start, results, batch))
             for _ in range(pairs)]
    procs += [ctx.Process(target=producer, args=(queue, per, size, persistent, asynchronous, start))
              for _ in range(pairs)]
    for p in procs:
        p.start()
    time.sleep(0.5)  # everyone connected and waiting
    began = time.perf_counter()
    start.set()
    ends = [results.get(timeout=600) for _ in range(pairs)]
    for p in procs:
        p.join()
    return per * pairs / (max(ends) - began)


def producers_only(queue: str, total: int, size: int, persistent: bool, producers: int) -> float:
    """``producers`` processes each put ``total // producers`` messages synchronously (each put
    returns once it is durable, when persistent); returns messages/s, first put to last reply."""
    per = total // producers
    return per * producers / timed_run(producer, (queue, per, size, persistent, False), producers)


def sync_pairs(queue: str, count: int) -> float:
    qm = mqlite.connect(QM)
    q = mqlite.Queue(qm, queue, C.MQOO_OUTPUT | C.MQOO_INPUT_SHARED)
    md = mqlite.MD(Persistence=C.MQPER_NOT_PERSISTENT)
    gmo = mqlite.GMO(Options=C.MQGMO_NO_WAIT)
    body = b"x" * 256
    began = time.perf_counter()
    for _ in range(count):
        md.MsgId = C.MQMI_NONE
        q.put(body, md)
        q.get(None, mqlite.MD(), gmo)
    elapsed = time.perf_counter() - began
    q.close()
    qm.disconnect()
    return count / elapsed


def durable_put(queue: str) -> None:
    qm = mqlite.connect(QM)
    mqlite.Queue(qm, queue, C.MQOO_OUTPUT).put(b"marker", mqlite.MD(Persistence=C.MQPER_PERSISTENT))
    qm.disconnect()


def load(queue: str, total: int, producers: int = 8) -> float:
    """``producers`` asynchronous producers put ``total`` persistent 1 KB messages; returns the
    seconds until the last of them is durable."""
    ctx = mp.get_context("fork")
    start = ctx.Event()
    procs = [ctx.Process(target=producer, args=(queue, total // producers, 1024, True, True, start))
             for _ in range(producers)]
    for p in procs:
        p.start()
    time.sleep(0.5)
    began = time.perf_counter()
    start.set()
    for p in procs:
        p.join()
    durable_put(queue)  # its reply waits for the store: every put before it is durable too
    return time.perf_counter() - began


def million(proc: subprocess.Popen[bytes], home: str) -> dict[str, float]:
    """1,000,000 persistent 1 KB messages: RSS of the queue manager, then restart time."""
    mqsc("DEFINE QLOCAL(BIG) MAXDEPTH(2000000) DEFPSIST(YES)\n")
    load_seconds = load("BIG", 1_000_000)
    rss_loaded = rss_mb(proc.pid)
    time.sleep(5)  # housekeeping runs: RSS once the queue manager is idle
    rss_idle = rss_mb(proc.pid)
    stop_qmgr(proc)
    began = time.perf_counter()
    proc2 = start_qmgr(home)
    restart_seconds = time.perf_counter() - began
    rss_restarted = rss_mb(proc2.pid)
    mqsc("CLEAR QLOCAL(BIG)\n")
    stop_qmgr(proc2)
    return {"million_load_msgs_per_s": round(1_000_000 / load_seconds), "million_rss_mb": round(rss_loaded, 1),
            "million_rss_idle_mb": round(rss_idle, 1),
            "million_restart_s": round(restart_seconds, 2), "million_rss_after_restart_mb": round(rss_restarted, 1)}


def producers_costed(pid: int, queue: str, total: int, persistent: bool) -> dict[str, float]:
    """``producers_only`` with 8 producers, plus what it cost: the queue manager's CPU per put and
    how busy the machine's CPUs were (a synchronous scenario that leaves CPUs idle is waiting)."""
    def children() -> float:  # the producer processes, once joined
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        return usage.ru_utime + usage.ru_stime

    cpu0, kids0, (busy0, all0) = cpu_seconds(pid), children(), machine_times()
    rate = producers_only(queue, total, 256, persistent, 8)
    cpu1, kids1, (busy1, all1) = cpu_seconds(pid), children(), machine_times()
    return {"rate": rate, "qmgr_cpu_us_per_put": (cpu1 - cpu0) / total * 1e6,
            "client_cpu_us_per_put": (kids1 - kids0) / total * 1e6,
            "cpus_busy": (busy1 - busy0) / max(all1 - all0, 1)}


def producers_sync_rounds(pid: int, scale: float, rounds: int = 3) -> dict[str, object]:
    """8 synchronous producers, non-persistent then persistent, ``rounds`` times in turn; each
    figure is the median of its rounds, and ``p_over_np`` the median of the rounds' ratios. This
    VM's speed drifts by a third from minute to minute: a ratio of neighbouring phases is steadier
    than one of medians taken apart."""
    mqsc("DEFINE QLOCAL(SYNC.Q) MAXDEPTH(1000000)\n")
    total = int(80_000 * scale / rounds) // 8 * 8
    runs: dict[str, list[dict[str, float]]] = {"np": [], "p": []}
    for _ in range(rounds):
        for kind in ("np", "p"):
            runs[kind].append(producers_costed(pid, "SYNC.Q", total, kind == "p"))
            mqsc("CLEAR QLOCAL(SYNC.Q)\n")
    mqsc("DELETE QLOCAL(SYNC.Q) PURGE\n")
    figures: dict[str, object] = {}
    for kind, costs in runs.items():
        figures[f"{kind}_256_8_producers_sync"] = round(statistics.median(c["rate"] for c in costs))
        figures[f"{kind}_8_producers_sync_qmgr_cpu_us_per_put"] = round(
            statistics.median(c["qmgr_cpu_us_per_put"] for c in costs))
        figures[f"{kind}_8_producers_sync_client_cpu_us_per_put"] = round(
            statistics.median(c["client_cpu_us_per_put"] for c in costs))
        figures[f"{kind}_8_producers_sync_cpus_busy"] = round(statistics.median(c["cpus_busy"] for c in costs), 2)
    ratios = [p["rate"] / np_["rate"] for np_, p in zip(runs["np"], runs["p"], strict=True)]
    figures["p_over_np_8_producers_sync_rounds"] = [round(r, 2) for r in ratios]
    figures["p_over_np_8_producers_sync"] = round(statistics.median(ratios), 2)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer messages (a smoke run)")
    parser.add_argument("--million", action="store_true", help="also the 1,000,000-message depth run")
    parser.add_argument("--only", help="run only scenarios whose name contains this")
    parser.add_argument("--no-peers", action="store_true", help="no Redis and PostgreSQL peers (8_producers_sync)")
    parser.add_argument("--qmgr-cpus", help="run the queue manager on these CPUs only (e.g. 0, as taskset -c 0)")
    parser.add_argument("--client-cpus", help="run the producers and consumers on these CPUs only (e.g. 1)")
    args = parser.parse_args()
    scale = 0.1 if args.quick else 1.0
    home = tempfile.mkdtemp(prefix="mqlite-bench-")
    figures: dict[str, object] = {"bench": "p2p", "python": sys.version.split()[0], "cpus": os.cpu_count()}
    figures["fsync_per_s"] = round(fsync_rate(home, 2.0))
    cpus = {int(cpu) for cpu in args.qmgr_cpus.split(",")} if args.qmgr_cpus else None
    if cpus is not None:
        figures["qmgr_cpus"] = sorted(cpus)
    proc = start_qmgr(home, cpus)
    clients = {int(cpu) for cpu in args.client_cpus.split(",")} if args.client_cpus else None
    if clients is not None:  # this process and so every producer and consumer it forks
        os.sched_setaffinity(0, clients)
        figures["client_cpus"] = sorted(clients)
    try:
        mqsc("DEFINE QLOCAL(BENCH.Q) MAXDEPTH(1000000) DEFREADA(NO)\n"
             "DEFINE QLOCAL(BENCH.RA) MAXDEPTH(1000000) DEFREADA(YES)\n")

        def want(name: str) -> bool:
            return args.only is None or args.only in name

        if want("sync_pairs"):
            figures["sync_pairs_per_s"] = round(sync_pairs("BENCH.Q", int(20_000 * scale)))
        if want("np_1x1_async"):
            figures["np_256_1x1_async_readahead"] = round(
                run_flow("BENCH.RA", int(200_000 * scale), 256, False, 1, asynchronous=True, read_ahead=True))
        for size in (256, 4096):
            for persistent in (False, True):
                for pairs in (1, 8):
                    name = f"{'p' if persistent else 'np'}_{size}_{pairs}x{pairs}"
                    if not want(name):
                        continue
                    total = int((40_000 if persistent else 80_000) * scale) // pairs * pairs
                    figures[name] = round(run_flow("BENCH.Q", total, size, persistent, pairs))
        if want("8_producers_sync"):  # synchronous producers: do their persistent puts share commits?
            figures.update(producers_sync_rounds(proc.pid, scale))
            if not args.no_peers:  # the same load on Redis and PostgreSQL, in the same run
                figures.update(sync_peers.run(scale, server_cpus=cpus))
        if want("p_1024_8_producers_async"):  # the persistent-producers target: durable msgs/s
            mqsc("DEFINE QLOCAL(LOAD.Q) MAXDEPTH(1000000)\n")
            total = int(200_000 * scale)
            figures["p_1024_8_producers_async"] = round(total / load("LOAD.Q", total))
            figures["p_1024_8_producers_async_over_fsync"] = round(
                int(figures["p_1024_8_producers_async"]) / int(figures["fsync_per_s"]), 1)  # type: ignore[call-overload]
            mqsc("DELETE QLOCAL(LOAD.Q) PURGE\n")
        if want("p_256_8x8_async"):  # producers with MQPMO_ASYNC_RESPONSE, as IBM advises for streams
            figures["p_256_8x8_async"] = round(run_flow("BENCH.Q", int(80_000 * scale), 256, True, 8,
                                                        asynchronous=True, batch=50))
        if isinstance(figures.get("p_256_8x8"), int):
            figures["p_256_8x8_over_fsync"] = round(int(figures["p_256_8x8"]) / int(figures["fsync_per_s"]), 1)  # type: ignore[call-overload]
        if isinstance(figures.get("p_256_8x8_async"), int):
            figures["p_256_8x8_async_over_fsync"] = round(
                int(figures["p_256_8x8_async"]) / int(figures["fsync_per_s"]), 1)  # type: ignore[call-overload]
        figures["qmgr_rss_mb"] = round(rss_mb(proc.pid), 1)
        if args.million:
            figures.update(million(proc, home))
    finally:
        if proc.poll() is None:
            stop_qmgr(proc)
        shutil.rmtree(home, ignore_errors=True)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
