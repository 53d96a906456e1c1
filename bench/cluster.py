"""Cluster queues (issue 16): the put rate into a cluster queue with 1, 2 and 4 instances beside
the local put rate in the same run, how soon a new cluster queue is reachable at a partial
repository, and the repository's traffic and memory with 50 queue managers and 5,000 cluster
queues.

Real queue manager processes on loopback for the first two (a temporary MQLITE_HOME): FR1, the
full repository; PUT, a partial repository where the client runs (over its Unix socket); H1..H4,
partial repositories hosting CQ1 (on H1), CQ2 (H1, H2) and CQ4 (H1..H4), every instance with
IBM's default channel attributes (BATCHSZ 50, NPMSPEED FAST). What is measured:

- ``local``: the client puts N messages (256 B) into LOCAL.Q on PUT with MQPMO_ASYNC_RESPONSE,
  the last one synchronously (its reply comes once all are on the queue, and durable if
  persistent). Rate = N / that time.
- ``remote_queue``: the same puts to a remote queue definition (RQ) whose transmission queue no
  channel serves: the cost of a message bound elsewhere (its MQXQH) without the cluster.
- ``cluster_put`` for CQ1, CQ2, CQ4: the same puts through an MQOO_BIND_NOT_FIXED handle (the
  workload algorithm chooses at every put). Rate = N / the time until the last reply; the
  messages are then on PUT's SYSTEM.CLUSTER.TRANSMIT.QUEUE or already on their way.
- ``cluster_delivered``: N / the time from the first put until all N are on the instances
  (CURDEPTH summed over the hosts, polled every 5 ms) and how they spread.
- ``reachable``: DEFINE QLOCAL(NEWn) CLUSTER(BENCH) on H2 (runmqsc returns), then the client on
  PUT opens NEWn (output) every 5 ms until the MQOPEN succeeds (the first one asks the full
  repository and waits for its answer). Median and maximum of 5.
- ``repository``: 50 queue managers (2 full repositories, 48 partial ones) as in-process
  ``ClusterState`` objects (core's repository code and its message codec, no channels: the
  repository messages are handed from one to the other) define 5,000 cluster queues (about 104
  each), then every partial repository looks up 100 of them. Messages and bytes per phase, time,
  and memory (tracemalloc's peak, and the full repository's cached records).

Every rate is the median of 3 interleaved rounds (``runs`` has them). Beside each rate, the CPU
each process spent per message (``cpu_us_per_msg_put``: PUT, H1, FR1 and the client, during the
puts; ``cpu_us_per_msg_delivered``: the queue managers until the last message arrived) and how
busy the machine's CPUs were, read from /proc (``bench/cpu.py``). There is no peer: no other
system on this machine has IBM MQ's clusters (the channel benchmark compares a channel with a
local queue in the same way).

Usage: ``python bench/cluster.py [--quick] [--count N]`` (about 2 minutes; ``--quick``: one small
round). Progress on stderr; one JSON line on stdout.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import Progress

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cpu import CpuMark
from mqlite_cli import run as cli
from streaming import put_stream

import mqlite.client as mqlite
from mqlite import cmqc as C

console = Console(stderr=True)
CLUSTER = "BENCH"
HOSTS = ("H1", "H2", "H3", "H4")
QUEUES = {"CQ1": HOSTS[:1], "CQ2": HOSTS[:2], "CQ4": HOSTS}
SIZE = 256
MAXDEPTH = 1_000_000
# the references a cluster put is measured beside: (label, queue put to, queue the messages land on)
REFERENCES = (("local", "LOCAL.Q", "LOCAL.Q"), ("remote_queue", "RQ", "XQ.NOWHERE"))


def port_of(home: Path, name: str) -> int:
    return int(json.loads((home / "qmgrs" / name / "listeners.json").read_text())["tcp"])


def setup(home: Path) -> None:
    names = ("FR1", "PUT", *HOSTS)
    for name in names:
        cli(home, "crtmqm", "-p", "0", name)
        cli(home, "strmqm", name)
    for name in names:
        cli(home, "runmqsc", name, stdin=("ALTER QMGR REPOS(BENCH)\n" if name == "FR1" else "")
            + f"DEFINE CHANNEL({CLUSTER}.{name}) CHLTYPE(CLUSRCVR) CLUSTER({CLUSTER})\n"
              f"SET CHLAUTH('{CLUSTER}.*') TYPE(QMGRMAP) QMNAME('*') USERSRC(CHANNEL)\n"
              f"DEFINE QLOCAL(LOCAL.Q) MAXDEPTH({MAXDEPTH})\n")
    # The reference for a put bound elsewhere: a remote queue definition whose transmission queue
    # no channel serves (the same MQXQH on every message, no cluster).
    cli(home, "runmqsc", "PUT", stdin=f"DEFINE QLOCAL(XQ.NOWHERE) USAGE(XMITQ) MAXDEPTH({MAXDEPTH})\n"
                                      "DEFINE QREMOTE(RQ) RNAME(X) RQMNAME(ELSEWHERE) XMITQ(XQ.NOWHERE)\n")
    fr1 = port_of(home, "FR1")
    for name in names[1:]:
        cli(home, "runmqsc", name, stdin=f"DEFINE CHANNEL({CLUSTER}.FR1) CHLTYPE(CLUSSDR) "
                                         f"CONNAME('127.0.0.1({fr1})') CLUSTER({CLUSTER})\n")
    for queue, hosts in QUEUES.items():
        for host in hosts:
            cli(home, "runmqsc", host, stdin=f"DEFINE QLOCAL({queue}) CLUSTER({CLUSTER}) MAXDEPTH({MAXDEPTH})\n")
    deadline = time.monotonic() + 60
    while sum(cli(home, "runmqsc", "FR1", stdin="DISPLAY QCLUSTER(CQ*)\n").count("TYPE(QCLUSTER)")
              for _ in (0,)) < 7:
        if time.monotonic() > deadline:
            raise SystemExit("the full repository did not learn the cluster queues")
        time.sleep(0.2)


@contextmanager
def cluster() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="mqlite-bench-cluster-") as tmp:
        home = Path(tmp)
        os.environ["MQLITE_HOME"] = str(home)
        try:
            setup(home)
            yield home
        finally:
            for name in ("PUT", *HOSTS, "FR1"):
                with suppress(SystemExit):
                    cli(home, "endmqm", "-i", name)


class Depths:
    """MQINQ of CURDEPTH on each host's instances (open handles: polling costs little)."""

    def __init__(self) -> None:
        self.conns = {host: mqlite.connect(host) for host in HOSTS}
        self.handles = {(host, queue): mqlite.Queue(self.conns[host], queue, C.MQOO_INQUIRE)
                        for queue, hosts in QUEUES.items() for host in hosts}

    def of(self, queue: str) -> dict[str, int]:
        return {host: int(self.handles[(host, queue)].inquire(C.MQIA_CURRENT_Q_DEPTH))
                for host in QUEUES[queue]}

    def clear(self) -> None:
        for host, conn in self.conns.items():
            conn.mqsc("".join(f"CLEAR QLOCAL({q})\n" for q, hosts in QUEUES.items() if host in hosts))

    def close(self) -> None:
        for handle in self.handles.values():
            handle.close()
        for conn in self.conns.values():
            conn.disconnect()


def cluster_round(qm: mqlite.QueueManager, depths: Depths, pids: dict[str, int], queue: str, count: int,
                  persistent: bool) -> dict[str, Any]:
    began = time.perf_counter()
    mark = CpuMark.now(pids)
    put_seconds = put_stream(qm, queue, count, SIZE, persistent, C.MQOO_OUTPUT | C.MQOO_BIND_NOT_FIXED)
    cpu_put = mark.per_message(pids, count)
    deadline = time.monotonic() + 300
    while sum(depths.of(queue).values()) < count:
        if time.monotonic() > deadline:
            raise SystemExit(f"{queue}: not all {count} messages arrived: {depths.of(queue)}")
        time.sleep(0.005)
    delivered = time.perf_counter() - began
    cpu_delivered = mark.per_message(pids, count)
    del cpu_delivered["client"]  # (it polled the depths meanwhile)
    spread = depths.of(queue)
    depths.clear()
    return {"put_per_s": round(count / put_seconds), "delivered_per_s": round(count / delivered), "spread": spread,
            "cpu_us_per_msg_put": cpu_put, "cpu_us_per_msg_delivered": cpu_delivered}


def local_round(qm: mqlite.QueueManager, pids: dict[str, int], queue: str, count: int, persistent: bool
                ) -> dict[str, Any]:
    mark = CpuMark.now(pids)
    seconds = put_stream(qm, queue, count, SIZE, persistent)
    return {"put_per_s": round(count / seconds), "cpu_us_per_msg_put": mark.per_message(pids, count)}


def reachable(home: Path, qm: mqlite.QueueManager, rounds: int) -> list[float]:
    times = []
    for index in range(rounds):
        name = f"NEW{index}.{int(time.time())}"
        cli(home, "runmqsc", "H2", stdin=f"DEFINE QLOCAL({name}) CLUSTER({CLUSTER})\n")
        began = time.perf_counter()
        while True:
            try:
                mqlite.Queue(qm, name, C.MQOO_OUTPUT | C.MQOO_BIND_NOT_FIXED).close()
                break
            except mqlite.MQMIError as error:
                if error.reason != C.MQRC_UNKNOWN_OBJECT_NAME or time.perf_counter() - began > 60:
                    raise
                time.sleep(0.005)
        times.append(time.perf_counter() - began)
    return times


def repository_scale(members: int = 50, queues: int = 5_000, lookups: int = 100) -> dict[str, Any]:
    """The repository code of 50 queue managers in this process: messages handed over directly."""
    from mqlite.core.network.clusters.protocol import decode, encode
    from mqlite.core.network.clusters.service import ClusterState
    from mqlite.core.outbox import Outbox

    tracemalloc.start()
    clock = [1_000_000.0]
    names = ["FR1", "FR2", *(f"QM{i:02d}" for i in range(members - 2))]
    states: dict[str, ClusterState] = {}
    qdefs: dict[str, dict[str, tuple[str, dict[str, Any]]]] = {name: {} for name in names}
    wire: list[tuple[str, str, bytes]] = []
    manual = {f"{CLUSTER}.FR1": "FR1", f"{CLUSTER}.FR2": "FR2"}
    for name in names:
        channels: dict[str, dict[str, Any]] = {
            f"{CLUSTER}.{name}": {"CHLTYPE": "CLUSRCVR", "CLUSTER": CLUSTER, "CONNAME": f"{name}(1)"}}
        partner = "FR2" if name == "FR1" else "FR1" if name == "FR2" else ("FR1", "FR2")[hash(name) % 2]
        channels[f"{CLUSTER}.{partner}"] = {"CHLTYPE": "CLUSSDR", "CLUSTER": CLUSTER, "CONNAME": f"{partner}(1)"}
        state = ClusterState(name, {"REPOS": CLUSTER} if name.startswith("FR") else {}, qdefs[name], channels,
                             Outbox(), lambda: clock[0], lambda nl: ())
        state.send = (lambda sender: lambda target, cluster, message, via:
                      wire.append((sender, target or manual[via], encode(message))))(name)
        states[name] = state

    def pump() -> tuple[int, int]:
        count = size = 0
        while wire:
            _, target, data = wire.pop(0)
            count, size = count + 1, size + len(data)
            states[target].receive(decode(data))
        for state in states.values():
            state.outbox.tx.runs.clear()  # the store's share: not kept here
        return count, size

    phases: dict[str, Any] = {}

    def phase(label: str, action: Any) -> None:
        began = time.perf_counter()
        action()
        count, size = pump()
        phases[label] = {"messages": count, "bytes": size, "seconds": round(time.perf_counter() - began, 2)}

    phase("join", lambda: [(s.changed(), s.join_all()) for s in states.values()])
    partials = names[2:]

    def define() -> None:
        for index in range(queues):
            host = partials[index % len(partials)]
            qdefs[host][f"Q{index:05d}"] = ("QLOCAL", {"CLUSTER": CLUSTER, "DEFBIND": "OPEN", "PUT": "ENABLED"})
            states[host].changed(queue=f"Q{index:05d}")
            if index % 500 == 499:
                count, size = pump()
                phases.setdefault("_define", [0, 0])
                phases["_define"][0] += count
                phases["_define"][1] += size

    began = time.perf_counter()
    define()
    count, size = pump()
    total = phases.pop("_define", [0, 0])
    phases["define"] = {"messages": total[0] + count, "bytes": total[1] + size,
                        "seconds": round(time.perf_counter() - began, 2)}
    chooser = random.Random(7)
    phase("lookup", lambda: [states[p].query("QUEUE", f"Q{chooser.randrange(queues):05d}")
                             for p in partials for _ in range(lookups)])
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    fr = states["FR1"]
    known = [len(states[p].live("QUEUE")) for p in partials]
    return {"queue_managers": members, "cluster_queues": queues, "lookups_per_partial": lookups,
            "run": "embedded (ClusterState objects in one process; the real codec; no channels)",
            "phases": phases, "full_repository_records": len(fr.cache),
            "partial_known_queues_median": statistics.median(known),
            "tracemalloc_peak_mb": round(peak / 2**20, 1)}


def median_cpu(rounds: list[dict[str, Any]], key: str) -> dict[str, float]:
    """Each process's median CPU per message over the rounds."""
    return {name: round(statistics.median(r[key][name] for r in rounds), 1) for name in rounds[0][key]}


def measure(quick: bool, count: int) -> dict[str, Any]:
    repeats = 1 if quick else 3
    runs: dict[str, list[Any]] = {}
    with cluster() as home:
        qm = mqlite.connect("PUT")
        depths = Depths()
        pids = {name: int((home / "qmgrs" / name / "qmgr.pid").read_text().split()[0])
                for name in ("PUT", "H1", "FR1")}
        try:
            with Progress(console=console, transient=True) as progress:
                task = progress.add_task("cluster puts", total=repeats * 2 * (1 + len(QUEUES)))
                for _ in range(repeats):
                    for persistent in (False, True):
                        key = "persistent" if persistent else "non_persistent"
                        for label, queue, stored_on in REFERENCES:
                            runs.setdefault(f"{key}.{label}", []).append(
                                local_round(qm, pids, queue, count, persistent))
                            qm.mqsc(f"CLEAR QLOCAL({stored_on})\n")
                        progress.advance(task)
                        for queue in QUEUES:
                            runs.setdefault(f"{key}.{queue}", []).append(
                                cluster_round(qm, depths, pids, queue, count, persistent))
                            progress.advance(task)
            times = reachable(home, qm, 3 if quick else 5)
        finally:
            depths.close()
            qm.disconnect()
    results: dict[str, Any] = {"count": count, "size": SIZE, "runs": runs}
    for key in ("non_persistent", "persistent"):
        local = statistics.median(r["put_per_s"] for r in runs[f"{key}.local"])
        remote = statistics.median(r["put_per_s"] for r in runs[f"{key}.remote_queue"])
        entry: dict[str, Any] = {"local_put_per_s": round(local), "remote_queue_put_per_s": round(remote),
                                 "remote_queue_over_local": round(remote / local, 2),
                                 "local_cpu_us_per_msg": median_cpu(runs[f"{key}.local"], "cpu_us_per_msg_put"),
                                 "remote_queue_cpu_us_per_msg": median_cpu(runs[f"{key}.remote_queue"],
                                                                           "cpu_us_per_msg_put")}
        for queue in QUEUES:
            rounds = runs[f"{key}.{queue}"]
            put = statistics.median(r["put_per_s"] for r in rounds)
            entry[queue] = {"put_per_s": round(put), "delivered_per_s": round(statistics.median(
                r["delivered_per_s"] for r in rounds)), "put_over_local": round(put / local, 2),
                "spread": rounds[-1]["spread"], "cpu_us_per_msg_put": median_cpu(rounds, "cpu_us_per_msg_put"),
                "cpu_us_per_msg_delivered": median_cpu(rounds, "cpu_us_per_msg_delivered")}
        results[key] = entry
    results["reachable_s"] = {"median": round(statistics.median(times), 3), "max": round(max(times), 3),
                              "target": 2.0}
    console.print("repository at scale (embedded) ...")
    results["repository"] = repository_scale(50, 500 if quick else 5_000, 10 if quick else 100)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one small round")
    parser.add_argument("--count", type=int, help="messages per put run (default 20,000; 2,000 with --quick)")
    args = parser.parse_args()
    started = time.monotonic()
    results = measure(args.quick, args.count or (2_000 if args.quick else 20_000))
    results["date"] = time.strftime("%Y-%m-%d %H:%M %Z")
    results["seconds"] = round(time.monotonic() - started, 1)
    print(json.dumps(results))


if __name__ == "__main__":
    main()
