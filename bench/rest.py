"""The web server's costs (issue 33). One case so far:

- ``metrics_cost``: the native client's put rate (one producer, synchronous MQPUTs of 1 KB
  messages, non-persistent and persistent) with and without a ``/metrics`` collection every
  second. The collection is ``mqlite.web.metrics.Collector`` in a process of its own, as in the web
  server (one MQSC script of DISPLAYs, RESET QSTATS of each monitored queue, a browse of each
  non-empty one), against a queue manager with ``--queues`` application queues besides the one
  put to; ``cost_pct`` is the put rate lost (target: under 2%).

Rounds come in pairs, without and with the scrapes (the order alternating), and the cost is the
median of the pairs' ratios, since the machine's other load moves both rounds of a pair; beside
it, what a scrape costs the queue manager in CPU (``qmgr_cpu_ms_per_scrape``, measured with
nothing else running) and the collector's own CPU, both steadier than a rate on a shared machine.

Usage: ``python bench/rest.py [--quick] [--pairs N] [--seconds S] [--queues N]``; prints one JSON line.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import multiprocessing.synchronize
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from p2p import QM, mqsc, start_qmgr, stop_qmgr

import mqlite
from mqlite import cmqc as C
from mqlite.web.metrics import Collector

QUEUE = "APP.BENCH"


def scraper(home: str, every: float, active: mp.synchronize.Event, quit_: mp.synchronize.Event,
            out: mp.Queue[tuple[int, float, float, int]]) -> None:
    """While ``active``, a collection every ``every`` seconds; at ``quit_``, reports (scrapes,
    their wall seconds, their CPU seconds in this process, bytes of the last)."""
    os.environ["MQLITE_HOME"] = home
    collector = Collector(qmgrs=lambda: [QM])
    collector.text()  # connected before the first round
    out.put((0, 0.0, 0.0, 0))
    count, wall, cpu, size = 0, 0.0, 0.0, 0
    while not quit_.is_set():
        if not active.wait(0.05):
            continue
        next_at = time.monotonic()
        while active.is_set():
            started, started_cpu = time.monotonic(), time.process_time()
            size = len(collector.text())
            wall += time.monotonic() - started
            cpu += time.process_time() - started_cpu
            count += 1
            next_at += every
            while active.is_set() and time.monotonic() < next_at:
                time.sleep(min(0.01, max(0.0, next_at - time.monotonic())))
    collector.close()
    out.put((count, wall, cpu, size))


def put_rate(seconds: float, persistent: bool) -> float:
    """Synchronous puts for ``seconds``: messages a second."""
    with mqlite.connect(QM) as qm, mqlite.Queue(qm, QUEUE, C.MQOO_OUTPUT) as queue:
        md = mqlite.MD(Persistence=C.MQPER_PERSISTENT if persistent else C.MQPER_NOT_PERSISTENT)
        pmo = mqlite.PMO(Options=C.MQPMO_NO_SYNCPOINT)
        body = b"x" * 1024
        count = 0
        started = time.perf_counter()
        deadline = started + seconds
        while True:
            for _ in range(20):
                md.MsgId = C.MQMI_NONE
                queue.put(body, md, pmo)
            count += 20
            now = time.perf_counter()
            if now >= deadline:
                return count / (now - started)


def cpu_seconds(pid: int) -> float:
    """User and system CPU of process ``pid`` so far (/proc)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def metrics_cost(home: str, qmgr_pid: int, pairs: int, seconds: float, persistent: bool) -> dict[str, object]:
    """``pairs`` pairs of rounds, without and with the scrapes, the order alternating pair by
    pair; the cost is the median of the pairs' ratios (each pair close in time: the machine's
    other load moves both)."""
    ctx = mp.get_context("spawn")
    active, quit_ = ctx.Event(), ctx.Event()
    out: mp.Queue[tuple[int, float, float, int]] = ctx.Queue()
    proc = ctx.Process(target=scraper, args=(home, 1.0, active, quit_, out))
    proc.start()
    try:
        out.get(timeout=60)  # connected
        put_rate(min(seconds, 3.0), persistent)  # warm-up, not counted
        plain: list[float] = []
        scraped: list[float] = []
        for n in range(pairs):
            for with_scrapes in ((False, True) if n % 2 == 0 else (True, False)):
                mqsc(f"CLEAR QLOCAL({QUEUE})\n")
                if with_scrapes:
                    active.set()
                rate = put_rate(seconds, persistent)
                active.clear()
                (scraped if with_scrapes else plain).append(rate)
        # the queue manager's CPU for one scrape, with nothing else running
        before, wall_before = cpu_seconds(qmgr_pid), time.monotonic()
        active.set()
        time.sleep(10.5)  # ten or eleven scrapes, a second apart
        active.clear()
        qmgr_cpu, idle_wall = cpu_seconds(qmgr_pid) - before, time.monotonic() - wall_before
    finally:
        active.clear()
        quit_.set()
    count, wall, cpu, size = out.get(timeout=60)
    proc.join(60)
    ratios = [on / off for on, off in zip(scraped, plain, strict=True)]
    idle_scrapes = max(1, round(idle_wall))
    return {"puts_per_s_without": round(statistics.median(plain)), "puts_per_s_with": round(statistics.median(scraped)),
            "cost_pct": round((1 - statistics.median(ratios)) * 100, 2),
            "pair_ratios": [round(r, 3) for r in ratios],
            "scrapes": count, "scrape_ms": round(wall / count * 1000, 1) if count else None,
            "scraper_cpu_ms_per_scrape": round(cpu / count * 1000, 1) if count else None,
            "qmgr_cpu_ms_per_scrape": round(qmgr_cpu / idle_scrapes * 1000, 1),
            "qmgr_cpu_pct_at_one_scrape_a_second": round(qmgr_cpu / idle_wall * 100, 2),
            "scrape_bytes": size}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one short pair of rounds (a smoke run)")
    parser.add_argument("--pairs", type=int, default=10, help="pairs of rounds (without, with), alternating")
    parser.add_argument("--seconds", type=float, default=5.0, help="the length of a round")
    parser.add_argument("--queues", type=int, default=100, help="application queues besides the one put to")
    args = parser.parse_args()
    pairs, seconds = (1, 3.0) if args.quick else (args.pairs, args.seconds)
    home = tempfile.mkdtemp(prefix="mqlite-bench-")
    proc = start_qmgr(home)
    try:
        mqsc(f"DEFINE QLOCAL({QUEUE}) MAXDEPTH(999999999)\n"
             + "".join(f"DEFINE QLOCAL(APP.IDLE.{n:04d})\n" for n in range(args.queues)))
        with mqlite.connect(QM) as qm, mqlite.Queue(qm, "APP.IDLE.0000") as queue:
            queue.put(b"a message for the oldest-message browse")
        figures: dict[str, object] = {"bench": "rest", "case": "metrics_cost", "python": sys.version.split()[0],
                                      "cpus": os.cpu_count(), "queues": args.queues + 1, "round_seconds": seconds,
                                      "scrape_every_s": 1.0}
        figures["non_persistent"] = metrics_cost(home, proc.pid, pairs, seconds, False)
        figures["persistent"] = metrics_cost(home, proc.pid, pairs, seconds, True)
    finally:
        stop_qmgr(proc)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
