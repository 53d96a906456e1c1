"""Spark draining a cluster queue of N messages from 2 instances beside the same N on one instance
(issue 16: "Spark drain of 1,000,000 messages over 2 instances beside one instance").

A temporary MQLITE_HOME with a small cluster of real queue manager processes on loopback
(``crtmqm -p 0``, ``strmqm``), built as ``tests/spark/spark_cluster.py`` builds it: FR1, the full
repository (the member the Spark jobs connect to and discover the instances from), and QMA and
QMB, partial repositories. Cluster queue CQ has an instance on QMA and one on QMB; cluster queue
CQ1, in the same cluster, has its only instance on QMA. The jobs connect as IBM's developer
configuration would: application user ``app`` over TCP (DEV.APP.SVRCONN) for the reads, ``mqadmin``
(DEV.ADMIN.SVRCONN) for the DISPLAY commands that find the instances.

The comparison: both sides read with option ``cluster=true`` through FR1, so they take the same
path (discovery, a client connection over TCP per partition, ``partitionSize`` 10,000 sequence
numbers a partition, per-instance offsets, availableNow micro-batches); only the number of
instances differs. Reading QMA's local queue without the option would not be fair to either:
the single-queue batch reader is one partition (one browse cursor: one core), and the single-queue
stream reader runs over the Unix socket without discovery.

For each side: N messages of 256 bytes (non-persistent, as ``bench/spark.py``; ``--persistent``
for persistent ones) put directly on each hosting queue manager (the local binding, MQPMO_ASYNC_RESPONSE
puts, one process per host, N/2 on each of QMA and QMB for CQ, N on QMA for CQ1), then, each in a
fresh process and JVM (``mqlite.spark.local_session``: ``local[2]``, the machine has 2 cores):

- ``batch``: ``spark.read`` (a browse: nothing removed) written to parquet. Rate = N / the job.
- ``stream``: the drain. ``spark.readStream`` with ``trigger(availableNow=True)`` into a parquet
  sink, timed from ``start()`` to the end of the query, as ``bench/spark.py`` times its query
  (its session start-up is not in it, the query's own start is). Rate = N / that time. Spark
  commits a run's last micro-batch to the source (REMOVE_THROUGH on each instance) only when a
  later run plans its next batch, so one availableNow run leaves what it read on the queues; the
  drain is then finished as an application would, by the next run: one more message (a marker,
  like the others) put on each instance and a second availableNow run (``finish_s``), after which
  every instance must hold only its marker. ``drained_msgs_per_s`` = N / (both runs).

The sink and the columns: ``.schema("body binary, msg_id binary, qmgr string")`` (the body, as
``bench/spark.py`` reads it, and what the check needs), written as (msg_id, qmgr, length of the
body) to parquet: a cheap sink, the same for both sides. (``bench/spark.py``'s mqlite sink would put
every message on one queue manager: the same writer's cost added to both sides, hiding the reads.)
The check, after the timing: the parquet output has N rows (N + the markers for the stream),
N distinct MsgIds, every body 256 bytes, and the split per queue manager that was put.

While each query runs, CPU is sampled from ``/proc`` every 0.5 s (``cpu``): seconds per queue
manager and for the Spark side (the job's process, its JVM and Python workers), how busy the
machine was, and how long each hosting instance was busy (> 3 % of a core: a browse costs the
queue manager little) and for how much of that both were: whether the executors read the two
instances side by side or one after the other.

One round, the one-instance side first. ``ratio`` = two instances over one instance.

Usage: ``python bench/spark_cluster.py [--quick] [--count N] [--persistent]`` (``--quick``: 50,000
messages, about 3 minutes, most of it Spark and JVM start-ups). Progress on stderr; one JSON line
on stdout; exit status 1 when a check failed.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import multiprocessing as mp
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
from contextlib import suppress
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cpu import TICK, machine_busy
from mqlite_cli import run as cli
from streaming import put_stream

import mqlite
from mqlite import cmqc as C
from mqlite.cli.state import process_alive

console = Console(stderr=True)
CLUSTER = "BENCHSPARK"
ENTRY = "FR1"  # the full repository: the member Spark connects to
HOSTS = ("QMA", "QMB")
QMGRS = (ENTRY, *HOSTS)
SIDES = {"one_instance": ("CQ1", ("QMA",)), "two_instances": ("CQ", HOSTS)}
APP = ("app", "app-pass-1", "mqclient")
ADMIN = ("mqadmin", "admin-pass-1", "mqm")
SIZE = 256
BODY = b"s" * SIZE
PARTITION_SIZE = 10_000  # the data source's default, stated so the partition counts can be derived
READ_SCHEMA = "body binary, msg_id binary, qmgr string"
BUSY = 0.03  # a queue manager above this share of a core in a sample interval is "busy"


# -- the cluster ---------------------------------------------------------------------------------
def port_of(home: Path, name: str) -> int:
    return int(json.loads((home / "qmgrs" / name / "listeners.json").read_text())["tcp"])


def pid_of(home: Path, name: str) -> int:
    return int((home / "qmgrs" / name / "qmgr.pid").read_text().strip())


def runmqsc(home: Path, name: str, script: str) -> str:
    return cli(home, "runmqsc", name, stdin=script)


def build(home: Path, count: int, started: dict[str, int]) -> None:
    """FR1, QMA and QMB started (``started``: name -> pid), joined in the cluster, CQ on QMA and
    QMB, CQ1 on QMA, all known to FR1."""
    for name in QMGRS:
        cli(home, "crtmqm", "-p", "0", name)
        for user, password, groups in (APP, ADMIN):
            cli(home, "passwd", "-m", name, "-g", groups, user, env={"MQLITE_PASSWORD": password})
        cli(home, "strmqm", name)
        started[name] = pid_of(home, name)
        group = APP[2]
        runmqsc(home, name,
                f"SET AUTHREC OBJTYPE(QMGR) GROUP('{group}') AUTHADD(CONNECT, INQ)\n"
                f"SET AUTHREC PROFILE('**') OBJTYPE(QUEUE) GROUP('{group}') AUTHADD(PUT, GET, BROWSE, INQ)\n"
                # Auto-defined cluster-senders retry after 1 s (their timers are SYSTEM.DEF.CLUSSDR's).
                "ALTER CHANNEL(SYSTEM.DEF.CLUSSDR) CHLTYPE(CLUSSDR) SHORTTMR(1)\n")
    for name in QMGRS:  # every receiver first, so no sender meets a partner without one
        runmqsc(home, name, ("ALTER QMGR REPOS(" + CLUSTER + ")\n" if name == ENTRY else "")
                + f"DEFINE CHANNEL({CLUSTER}.{name}) CHLTYPE(CLUSRCVR) CLUSTER({CLUSTER})\n"
                  f"SET CHLAUTH('{CLUSTER}.*') TYPE(QMGRMAP) QMNAME('*') USERSRC(CHANNEL)\n")
    for name in HOSTS:
        runmqsc(home, name, f"DEFINE CHANNEL({CLUSTER}.{ENTRY}) CHLTYPE(CLUSSDR) "
                            f"CONNAME('127.0.0.1({port_of(home, ENTRY)})') CLUSTER({CLUSTER})\n")
    depth = count + 10
    for queue, hosts in SIDES.values():
        for host in hosts:
            runmqsc(home, host, f"DEFINE QLOCAL({queue}) CLUSTER({CLUSTER}) MAXDEPTH({depth})\n")
    wanted = {queue: len(hosts) for queue, hosts in SIDES.values()}
    deadline = time.monotonic() + 90
    while True:
        members = runmqsc(home, ENTRY, "DISPLAY CLUSQMGR(*) CONNAME\n")
        known = {queue: runmqsc(home, ENTRY, f"DISPLAY QCLUSTER({queue})\n").count(f"QUEUE({queue})")
                 for queue in wanted}
        if known == wanted and all(f"CLUSQMGR({name})" in members for name in HOSTS):
            return
        if time.monotonic() > deadline:
            raise SystemExit(f"{ENTRY} did not learn the cluster: instances {known}, wanted {wanted}; {members}")
        time.sleep(0.2)


def end_all(home: Path, started: dict[str, int]) -> None:
    """endmqm -i each queue manager this run started, by name; its pid killed if it outlives that."""
    for name in reversed(list(started)):
        with suppress(SystemExit):
            cli(home, "endmqm", "-i", name)
    deadline = time.monotonic() + 10
    for pid in started.values():
        while process_alive(pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        if process_alive(pid):
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)



# -- loading (separate processes, the local binding) ------------------------------------------------
def fill(home: str, qmgr: str, queue: str, count: int, persistent: bool) -> None:
    os.environ["MQLITE_HOME"] = home
    qm = mqlite.connect(qmgr)
    put_stream(qm, queue, count, SIZE, persistent)  # the last put's reply: all are on the queue
    qm.disconnect()


def depths(queue: str, hosts: tuple[str, ...]) -> dict[str, int]:
    found = {}
    for host in hosts:
        qm = mqlite.connect(host)
        try:
            with mqlite.Queue(qm, queue, C.MQOO_INQUIRE) as q:
                found[host] = int(q.inquire(C.MQIA_CURRENT_Q_DEPTH))
        finally:
            qm.disconnect()
    return found


def put_one(host: str, queue: str, persistent: bool) -> None:
    qm = mqlite.connect(host)
    try:
        with mqlite.Queue(qm, queue, C.MQOO_OUTPUT) as q:
            q.put(BODY, mqlite.MD(Persistence=C.MQPER_PERSISTENT if persistent else C.MQPER_NOT_PERSISTENT))
    finally:
        qm.disconnect()


def load(home: Path, queue: str, split: dict[str, int], persistent: bool) -> float:
    """``split[host]`` messages on each host's instance of ``queue``, in parallel: seconds."""
    began = time.monotonic()
    spawn = mp.get_context("spawn")
    fillers = [spawn.Process(target=fill, args=(str(home), host, queue, n, persistent)) for host, n in split.items()]
    for filler in fillers:
        filler.start()
    for filler in fillers:
        filler.join()
        if filler.exitcode != 0:
            raise SystemExit(f"a filler of {queue} failed (exit code {filler.exitcode})")
    deadline = time.monotonic() + 120
    while (now := depths(queue, tuple(split))) != split:
        if time.monotonic() > deadline:
            raise SystemExit(f"{queue}: depths {now}, wanted {split}")
        time.sleep(0.1)
    return time.monotonic() - began


# -- Spark (each job in a fresh process: a fresh JVM) ---------------------------------------------------
def session() -> Any:
    from mqlite.spark import local_session

    return local_session("mqlite-bench-cluster", cores=2, config={"spark.sql.shuffle.partitions": "2"})


def written(spark: Any, out: str) -> dict[str, Any]:
    """What the parquet output holds: rows, distinct MsgIds, body sizes, rows per queue manager."""
    from pyspark.sql import functions as F

    rows = spark.read.parquet(out)
    total = rows.agg(F.count("*").alias("rows"), F.countDistinct("msg_id").alias("distinct"),
                     F.min("size").alias("min"), F.max("size").alias("max")).first()
    per = {r["qmgr"]: r["count"] for r in rows.groupBy("qmgr").count().collect()}
    return {"rows": total["rows"], "distinct_msg_ids": total["distinct"], "sizes": [total["min"], total["max"]],
            "per_qmgr": dict(sorted(per.items()))}


def projected(frame: Any) -> Any:
    from pyspark.sql import functions as F

    return frame.select("msg_id", "qmgr", F.length("body").alias("size"))


def spark_batch(options: dict[str, str], out: str) -> dict[str, Any]:
    spark = session()
    frame = spark.read.format("mqlite").options(**options).schema(READ_SCHEMA).load()
    began = time.monotonic()
    projected(frame).write.parquet(out)
    ended = time.monotonic()
    result = {"began": began, "ended": ended, "partitions": frame.rdd.getNumPartitions(), "out": written(spark, out)}
    spark.stop()
    return result


def offset(value: Any) -> Any:
    """A source offset from a progress report (a JSON object, or its text)."""
    return json.loads(value) if isinstance(value, str) else value


def progress_of(query: Any) -> list[dict[str, Any]]:
    batches = []
    for progress in query.recentProgress:
        entry = json.loads(progress.json)
        source = entry["sources"][0]
        batches.append({"batch": entry["batchId"], "rows": entry["numInputRows"],
                        "start": offset(source.get("startOffset")), "end": offset(source.get("endOffset")),
                        "ms": {k: v for k, v in entry["durationMs"].items() if v}})
    return batches


def spark_stream(options: dict[str, str], out: str, checkpoint: str, hosts: tuple[str, ...],
                 persistent: bool) -> dict[str, Any]:
    spark = session()

    def run() -> list[dict[str, Any]]:
        source = spark.readStream.format("mqlite").options(**options).schema(READ_SCHEMA).load()
        query = (projected(source).writeStream.format("parquet").option("path", out)
                 .option("checkpointLocation", checkpoint).trigger(availableNow=True).start())
        query.awaitTermination()
        if query.exception() is not None:
            raise RuntimeError(str(query.exception()))
        return progress_of(query)

    began = time.monotonic()
    first = run()
    ended = time.monotonic()
    for host in hosts:  # the next run commits this one's last micro-batch when it plans its own
        put_one(host, str(options["queue"]), persistent)
    finish_began = time.monotonic()
    second = run()
    finished = time.monotonic()
    result = {"began": began, "ended": ended, "finish_began": finish_began, "finished": finished,
              "batches": first, "finish_batches": second, "out": written(spark, out)}
    spark.stop()
    return result


def in_fresh_process(sampler: Sampler, function: Any, *args: Any) -> dict[str, Any]:
    with mp.get_context("spawn").Pool(1, maxtasksperchild=1) as pool:
        result: dict[str, Any] = pool.apply(function, args)
    result["cpu"] = sampler.summary(result["began"], result["ended"])
    return result


# -- CPU sampling ----------------------------------------------------------------------------------------


def stat_of(pid: int | str) -> tuple[int, float] | None:
    """(parent pid, CPU seconds) of a process; None when it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return int(fields[1]), (int(fields[11]) + int(fields[12])) / TICK  # ppid, utime + stime


def spark_tree() -> dict[int, float]:
    """CPU seconds of each live descendant of this process: the Spark job's process, its JVM and
    the JVM's Python workers (the queue managers are not: strmqm detaches them)."""
    stats = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (found := stat_of(entry.name)) is not None:
            stats[int(entry.name)] = found
    mine, children = {os.getpid()}, True
    while children:
        children = False
        for pid, (parent, _) in stats.items():
            if parent in mine and pid not in mine:
                mine.add(pid)
                children = True
    return {pid: stats[pid][1] for pid in mine - {os.getpid()}}


class Sampler(threading.Thread):
    """Every 0.5 s: each queue manager's CPU seconds, the Spark side's (this process's descendants)
    and the machine's busy seconds."""

    def __init__(self, pids: dict[str, int], every: float = 0.5) -> None:
        super().__init__(daemon=True)
        self.pids = pids
        self.every = every
        self.stopping = threading.Event()
        self.samples: list[tuple[float, dict[str, float], dict[int, float], float]] = []

    def run(self) -> None:
        while True:
            qmgrs = {n: found[1] if (found := stat_of(p)) else 0.0 for n, p in self.pids.items()}
            self.samples.append((time.monotonic(), qmgrs, spark_tree(), machine_busy()))
            if self.stopping.wait(self.every):
                return

    def summary(self, began: float, ended: float) -> dict[str, Any]:
        inside = [s for s in self.samples if began - self.every <= s[0] <= ended + self.every]
        if len(inside) < 2:
            return {}
        first, last = inside[0], inside[-1]
        wall = last[0] - first[0]
        busy: dict[str, list[tuple[float, float]]] = {name: [] for name in HOSTS}
        both = 0.0
        spark: dict[int, tuple[float, float]] = {}  # pid -> (CPU at the start or 0 if it started later, last seen)
        for _, _, tree, _ in inside:
            for pid, cpu in tree.items():
                spark[pid] = (spark[pid][0] if pid in spark else (cpu if tree is first[2] else 0.0), cpu)
        for (t0, c0, _, _), (t1, c1, _, _) in itertools.pairwise(inside):
            active = [name for name in HOSTS if (c1[name] - c0[name]) / (t1 - t0) > BUSY]
            for name in active:
                busy[name].append((t0 - began, t1 - began))
            if len(active) == len(HOSTS):
                both += t1 - t0
        return {"qmgr_cpu_s": {n: round(last[1][n] - first[1][n], 1) for n in QMGRS},
                "spark_cpu_s": round(sum(b - a for a, b in spark.values()), 1),
                "machine_busy_cores": round((last[3] - first[3]) / wall, 2),
                "loadavg_1min_end": round(os.getloadavg()[0], 1),
                "busy_s": {n: round(sum(b - a for a, b in spans), 1) for n, spans in busy.items() if spans},
                "busy_from_to_s": {n: [round(max(0.0, spans[0][0]), 1), round(spans[-1][1], 1)]
                                   for n, spans in busy.items() if spans},
                "both_busy_s": round(both, 1)}


def stream_partitions(batches: list[dict[str, Any]], split: dict[str, int]) -> int:
    """Partitions the read's micro-batches had: ``partitionSize`` sequence numbers of an instance
    each. The first batch's start (the initial offset) is not in the progress reports: its end less
    what was put there (the instances were empty before)."""
    total = 0
    for batch in batches:
        ends = batch["end"]["qmgrs"]
        starts = batch["start"]["qmgrs"] if batch["start"] else {q: ends[q] - split.get(q, 0) for q in ends}
        total += sum(math.ceil(max(0, ends[q] - starts.get(q, 0)) / PARTITION_SIZE) for q in ends)
    return total


# -- one side ------------------------------------------------------------------------------------------
def measure_side(home: Path, side: str, count: int, persistent: bool, sampler: Sampler,
                 step: Any) -> tuple[dict[str, Any], list[str]]:
    queue, hosts = SIDES[side]
    split = {host: count // len(hosts) + (1 if index < count % len(hosts) else 0) for index, host in enumerate(hosts)}
    options = {"host": "127.0.0.1", "port": str(port_of(home, ENTRY)), "qmgr": ENTRY, "user": APP[0],
               "password": APP[1], "adminUser": ADMIN[0], "adminPassword": ADMIN[1], "queue": queue,
               "cluster": "true", "partitionSize": str(PARTITION_SIZE)}
    problems: list[str] = []

    def check(label: str, out: dict[str, Any], expected: dict[str, int]) -> None:
        total = sum(expected.values())
        if out["rows"] != total or out["distinct_msg_ids"] != total or out["per_qmgr"] != expected:
            problems.append(f"{side} {label}: {out} (wanted {total} rows, each once: {expected})")
        if out["sizes"] != [SIZE, SIZE]:
            problems.append(f"{side} {label}: body sizes {out['sizes']}")

    step(f"{side}: load {count:,} on {'+'.join(hosts)}")
    load_s = load(home, queue, split, persistent)
    step(f"{side}: batch read")
    batch = in_fresh_process(sampler, spark_batch, options, str(home / f"batch-{side}"))
    check("batch", batch["out"], split)
    if depths(queue, hosts) != split:
        problems.append(f"{side} batch: a browse removed messages: {depths(queue, hosts)}")
    step(f"{side}: stream drain")
    stream = in_fresh_process(sampler, spark_stream, options, str(home / f"stream-{side}"),
                              str(home / f"checkpoint-{side}"), hosts, persistent)
    check("stream", stream["out"], {host: n + 1 for host, n in split.items()})  # + the marker each
    left = depths(queue, hosts)
    if left != dict.fromkeys(hosts, 1):  # the markers wait for a third run, nothing else may
        problems.append(f"{side} stream: messages left after the drain: {left}")
    read_s = stream["ended"] - stream["began"]
    finish_s = stream["finished"] - stream["finish_began"]
    batch_s = batch["ended"] - batch["began"]
    read_batches = [b for b in stream["batches"] if b["rows"]]
    figures = {
        "queue": queue, "messages_per_qmgr": split, "load_msgs_per_s": round(count / load_s),
        "batch": {"msgs_per_s": round(count / batch_s), "seconds": round(batch_s, 2), "partitions": batch["partitions"],
                  "cpu": batch["cpu"]},
        "stream": {"msgs_per_s": round(count / read_s), "seconds": round(read_s, 2), "finish_s": round(finish_s, 2),
                   "drained_msgs_per_s": round(count / (read_s + finish_s)),
                   "micro_batches": len(read_batches),
                   "partitions": stream_partitions(read_batches, split),
                   "batches": read_batches, "finish_batches": stream["finish_batches"], "left": left,
                   "cpu": stream["cpu"]},
        "checked": {"batch": batch["out"], "stream": stream["out"]},
    }
    return figures, problems


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1_000_000, help="messages per side (default 1,000,000)")
    parser.add_argument("--quick", action="store_true", help="50,000 messages")
    parser.add_argument("--persistent", action="store_true", help="persistent messages (default: non-persistent)")
    args = parser.parse_args()
    count = 50_000 if args.quick else args.count
    started_at = time.monotonic()
    home = Path(tempfile.mkdtemp(prefix="mqlite-bench-sparkcluster-"))
    os.environ["MQLITE_HOME"] = str(home)
    os.environ.pop("MQSERVER", None)
    started: dict[str, int] = {}
    figures: dict[str, Any] = {"bench": "spark_cluster", "messages": count, "size": SIZE,
                               "persistent": args.persistent, "spark": "local[2]", "cpus": os.cpu_count(),
                               "partition_size": PARTITION_SIZE}
    problems: list[str] = []
    sampler: Sampler | None = None
    try:
        with Progress(TextColumn("{task.description:<44}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                      TimeElapsedColumn(), console=console) as progress:
            task = progress.add_task("build the cluster (FR1, QMA, QMB)", total=1 + 3 * len(SIDES))

            def step(description: str) -> None:
                progress.update(task, description=description, advance=1)

            build(home, count, started)
            sampler = Sampler(dict(started))
            sampler.start()
            for side in SIDES:
                figures[side], found = measure_side(home, side, count, args.persistent, sampler, step)
                problems += found
            progress.update(task, description="done", advance=1)
    finally:
        if sampler is not None:
            sampler.stopping.set()
        end_all(home, started)
        shutil.rmtree(home, ignore_errors=True)
    one, two = figures["one_instance"], figures["two_instances"]
    figures["ratio"] = {kind: round(two[kind]["msgs_per_s"] / one[kind]["msgs_per_s"], 2)
                        for kind in ("stream", "batch")}
    figures["ratio"]["stream_drained"] = round(two["stream"]["drained_msgs_per_s"]
                                               / one["stream"]["drained_msgs_per_s"], 2)
    figures["exactly_once"] = not problems
    if problems:
        figures["problems"] = problems
    figures["date"] = time.strftime("%Y-%m-%d %H:%M %Z")
    figures["seconds"] = round(time.monotonic() - started_at, 1)
    print(json.dumps(figures))
    if problems:
        for problem in problems:
            console.print(f"[red]{problem}[/]")
        sys.exit(1)


if __name__ == "__main__":
    main()
