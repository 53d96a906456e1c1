"""What the resource monitoring publications cost the queue manager (issue 33): its CPU (from
/proc) over ``--seconds`` with no subscriber, then with the subscriptions ``/metrics``'s collector
makes (each CPU, DISK and STATMQI type, and each STATQ type ``--selector`` names for each of
``--queues`` queues: none by default, as the collector's default queueSubscriptionSelector), the
publications taken every second as a scrape takes them. Publications come every
MonitorPublishHeartBeat (10 s, IBM's default; ``--interval``). Prints one JSON line: the CPU
share of a core in each phase, the publications taken, and the queue manager's CPU per
publication (publishing it and the MQGET that takes it). Then what a scrape costs the queue
manager (``--scrape-rounds`` rounds of 20 scrapes each way, alternating): ``/metrics``'s
collector (DISPLAYs, the publications taken, the oldest-message browse of the one queue holding
a message) against the same DISPLAYs and a RESET QSTATS of each queue (the scrape before the
publications, less its browse and the text).

Usage: ``python bench/monitor_cost.py [--queues N] [--seconds S] [--interval S] [--scrape-rounds N]
[--selector PUT,GET,GENERAL]``
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from p2p import QM, mqsc

import mqlite
from mqlite import paths
from mqlite.web import metrics
from mqlite.web.metrics_publications import publications_for

SCRAPES = 20  # a round of scrapes


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queues", type=int, default=101, help="monitored queues")
    parser.add_argument("--seconds", type=float, default=30.0, help="the length of each phase")
    parser.add_argument("--interval", type=int, default=10, help="qm.ini MonitorPublishHeartBeat")
    parser.add_argument("--scrape-rounds", type=int, default=6, help="rounds of 20 scrapes each way")
    parser.add_argument("--selector", default="", help="the collector's queueSubscriptionSelector (default none)")
    args = parser.parse_args()
    selector = metrics.parse_selector(args.selector)
    home = tempfile.mkdtemp(prefix="mqlite-bench-")
    os.environ["MQLITE_HOME"] = home
    paths.qmgr_dir(QM).mkdir(parents=True, exist_ok=True)
    paths.write_config(QM, {"name": QM, "port": None, "created": time.time()})
    (paths.qmgr_dir(QM) / "qm.ini").write_text(f"TuningParameters:\n   MonitorPublishHeartBeat={args.interval}\n")
    proc = subprocess.Popen([sys.executable, "-m", "mqlite.server", QM], env=dict(os.environ))
    try:
        for _ in range(1200):
            try:
                with socket.socket(socket.AF_UNIX) as s:
                    s.connect(paths.socket_address(QM))
                break
            except OSError:
                time.sleep(0.05)
        names = [f"APP.Q.{n:04d}" for n in range(args.queues)]
        mqsc("".join(f"DEFINE QLOCAL({name})\n" for name in names))
        qm = mqlite.connect(QM)
        time.sleep(2)
        before, start = cpu_seconds(proc.pid), time.monotonic()
        time.sleep(args.seconds)
        idle = (cpu_seconds(proc.pid) - before) / (time.monotonic() - start)
        publications = publications_for(qm, QM)
        assert publications is not None
        publications.follow(names, selector)
        time.sleep(args.interval + 1)
        publications.drain()
        before, start = cpu_seconds(proc.pid), time.monotonic()
        taken = 0
        while time.monotonic() - start < args.seconds:
            time.sleep(1.0)
            taken += publications.drain()
        wall = time.monotonic() - start
        subscribed = (cpu_seconds(proc.pid) - before) / wall
        publications.close()
        with mqlite.Queue(qm, names[0]) as queue:
            queue.put(b"a message for the oldest-message browse")
        scrape = scrape_costs(qm, proc.pid, names, args.scrape_rounds, args.interval, selector)
        qm.disconnect()
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(60)
    print(json.dumps({"bench": "monitor_cost", "queues": args.queues, "selector": ",".join(selector),
                      "interval_s": args.interval,
                      "seconds": args.seconds, "cpus": os.cpu_count(),
                      "qmgr_cpu_pct_no_subscriber": round(idle * 100, 2),
                      "qmgr_cpu_pct_subscribed": round(subscribed * 100, 2), "publications_taken": taken,
                      "qmgr_cpu_ms_per_publication": round((subscribed - idle) * wall * 1000 / max(1, taken), 3),
                      **scrape}))


def scrape_costs(qm: mqlite.QueueManager, pid: int, names: list[str], rounds: int, interval: int,
                 selector: tuple[str, ...]) -> dict[str, object]:
    """The queue manager's CPU per scrape, ms: the collector's, and DISPLAYs with RESET QSTATS."""
    reset = "".join(f"RESET QSTATS({name})\n" for name in names)

    def before() -> None:
        qm.mqsc(metrics._SCRIPT)  # (the same DISPLAYs: $SYS left out, as the collector leaves it)
        qm.mqsc(reset)

    collector = metrics.Collector(qmgrs=lambda: [QM], queue_subscription_selector=selector)
    collector.collect()
    time.sleep(interval + 1)  # its subscriptions made, a first interval published
    collector.collect()
    costs: dict[str, list[float]] = {"publications": [], "reset_qstats": []}
    try:
        for n in range(rounds):
            for kind in (("publications", "reset_qstats") if n % 2 == 0 else ("reset_qstats", "publications")):
                start = cpu_seconds(pid)
                for _ in range(SCRAPES):
                    collector.collect() if kind == "publications" else before()
                costs[kind].append(round((cpu_seconds(pid) - start) / SCRAPES * 1000, 1))
    finally:
        collector.close()
    return {"qmgr_cpu_ms_per_scrape_publications": costs["publications"],
            "qmgr_cpu_ms_per_scrape_reset_qstats": costs["reset_qstats"]}


if __name__ == "__main__":
    main()
