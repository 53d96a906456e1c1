"""Publish/subscribe clusters: DIRECT against TOPICHOST routing in one run, on clusters of 4, 8 and
16 queue managers (B:§8, R-RTE-1..13; seed 000's trade-off: with DIRECT every member knows and
connects to every other and a publication goes straight to each subscriber's queue manager; with
TOPICHOST the members connect only to the topic hosts and a publication takes one more hop,
through a host).

For each size N and each routing, a fresh cluster of N real queue manager processes on loopback in
a temporary MQLITE_HOME (``crtmqm -p 0``, ``strmqm``; ended with ``endmqm -i``, then killed by pid
if one outlives that): FR1 and FR2, the full repositories, and QM01..QM(N-2), partial ones, joined
as ``tests/helpers/cluster.py`` joins them (every cluster-receiver first, FR1 <-> FR2, each partial
repository's manual cluster-sender to FR1 or FR2 in turn; SYSTEM.DEF.CLUSSDR SHORTTMR(1)). Then
``DEFINE TOPIC(PRICE) TOPICSTR('Price') CLUSTER(DPUBSUB) [CLROUTE(TOPICHOST)]`` on FR1 (the topic
host), and once every member has it, ``DEFINE SUB(PRICE.ALL) TOPICSTR('Price/#')
DEST(PRICE.SUBQ)`` on every subscriber: by default every member but the publisher, QM01
(``--subscribers partials``: only the partial repositories, so the host does not subscribe).
What is measured, per (N, routing):

- ``setup_s``: from the first DEFINE SUB until every expected proxy subscription is held where it
  should be (DISPLAY SUB(*) SUBTYPE(PROXY) on every member, polled): DIRECT, each subscriber's
  proxy at every other member; TOPICHOST, each subscriber's proxy at the host only
  (``subscribe_commands_s``: the part of it the DEFINE SUB commands took, one after the other).
- ``knowledge`` once the cluster is idle again (every transmission queue, SYSTEM.INTER.QMGR.* and
  SYSTEM.CLUSTER.COMMAND.QUEUE empty): proxy subscriptions held across the cluster (and whether
  exactly the expected ones), cluster-sender channels defined across the cluster (a row of
  DISPLAY CLUSQMGR(*) for every other member a queue manager knows: manual or auto-defined) and
  running, and the messages the cluster-senders sent (sum of DISPLAY CHSTATUS MSGS; DISCINT is
  6,000 s, so no channel restarts its count during a run) while joining, for the topic object and
  for the subscriptions.
- ``throughput``: after a warm-up (20 publications delivered everywhere, then the queues
  cleared: every channel the publications need is running), the publisher puts M persistent
  256-byte publications on 'Price/Fruit' with MQPMO_ASYNC_RESPONSE, the last one synchronously
  (``bench/streaming.py``'s producer), then the bench polls each subscriber queue's CURDEPTH (the
  one furthest behind, then all) until every one holds M. ``put_per_s`` = M / the puts,
  ``publications_per_s`` = M / the time from the first put until the last queue holds M,
  ``deliveries_per_s`` = M x subscribers / that time. Then, once idle, every subscriber queue is
  read to the end: each of the M publications must be on it exactly once (``exactly_once``).
  ``--rounds`` such rounds (default 3) on the same cluster; the median of each figure is reported,
  every round in ``runs``.
- ``hops``: the messages the cluster-senders sent from the first put until the cluster was idle
  again, in all and per publication (``expected_per_publication``: DIRECT, one per remote
  subscriber; TOPICHOST, one to the host plus one per remote subscriber other than the host), and
  by sending queue manager (summed over the rounds; a round whose count is not M x expected is a
  problem); and the channel batches they took (CHSTATUS BATCHES: messages per batch, BATCHSZ 50 at
  most).
- ``latency``: a separate run of 200 persistent publications paced at 50/s (synchronous puts, the
  put's ``perf_counter`` in the body), got as they arrive by a thread of this process at the last
  partial repository (a subscriber neither the host nor the publisher): p50, p95, max in ms.
- ``cpu``: utime + stime (``/proc/<pid>/stat``) of all the queue managers from the first put until
  the last queue holds M, in all, per publication and per delivery, and that of the publisher, of
  the host (FR1) and of all the others; beside it the cluster's idle CPU (``idle_cpu_s_per_s``:
  3 s with no traffic and no polling). Each round in ``runs`` also has ``bench_cpu_s`` (this
  process: the publisher and the polling) and ``foreign_cpu_s``: what the machine was busy with
  besides (from /proc/stat; about 0 when nothing else ran — a check that the figures are not
  another program's).
- ``problems``: anything that went wrong: a proxy missing or unexpected, a publication lost or
  duplicated, a queue manager that died, error-log entries (AMQnnnnE/S, tracebacks) in any
  AMQERR01.LOG or strmqm.log (``error_log`` counts them, warnings AMQnnnnW too). The logs of a
  run with problems are copied to a directory kept after the run (``logs_kept``).

Every wait has a deadline (``--timeout``, per phase): a phase that does not finish in time ends
that (N, routing) with ``"timed_out": {"phase": ..., "after_s": ..., "detail": ...}`` and what was
measured until then; the run goes on with the next one.

Usage: ``python bench/dpubsub.py [--sizes 4,8,16] [--routings DIRECT,TOPICHOST] [--messages 2000]
[--rounds 3] [--subscribers all|partials] [--latency-count 200] [--timeout 180] [--quick]
[--json-only]`` (``--quick``: N = 4 only, M = 500, one round; about 40 s; the full run about 6
minutes on 2 cores). Progress on stderr (and a summary table, unless
``--json-only``); one JSON line per (N, routing) on stdout. Exit status 1 when a run had problems
or timed out.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import statistics
import struct
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from contextlib import nullcontext, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeElapsedColumn
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent))
import dpubsub_plot
from cpu import cpu_seconds, machine_busy, own_cpu
from mqlite_cli import run as cli

import mqlite.client as mqlite
from mqlite import cmqc as C
from mqlite.cli.state import process_alive

console = Console(stderr=True)
T = TypeVar("T")

CLUSTER = "DPUBSUB"
FULLS = ("FR1", "FR2")
HOST = "FR1"  # where the cluster topic object is defined: the topic host for TOPICHOST
TOPIC_OBJECT = "PRICE"
TOPIC_ROOT = "Price"
SUB_TOPIC = "Price/#"
PUB_TOPIC = "Price/Fruit"
SUB_NAME = "PRICE.ALL"
SUB_QUEUE = "PRICE.SUBQ"
SIZE = 256
WARMUP = 20
LATENCY_RATE = 50.0  # publications per second in the latency run
IDLE_CPU_WINDOW = 3.0
ROUTINGS = ("DIRECT", "TOPICHOST")
HEADER = struct.Struct(">Id")  # publication number, the publisher's perf_counter
ERROR_ID = re.compile(r"\bAMQ\d{4}[WES]\b")
FIELD = re.compile(r"(\w+)\(((?:[^()']|'[^']*'|\([^()]*\))*)\)")


class PhaseTimeout(Exception):
    """A phase did not finish within ``--timeout`` seconds."""

    def __init__(self, phase: str, after: float, detail: str) -> None:
        super().__init__(f"{phase}: timed out after {after:.1f} s: {detail}")
        self.phase, self.after, self.detail = phase, after, detail


def until(phase: str, timeout: float, condition: Callable[[], T], detail: Callable[[], str],
          interval: float = 0.05) -> T:
    """Poll ``condition`` until it returns something true; PhaseTimeout after ``timeout`` s."""
    began = time.monotonic()
    while True:
        result = condition()
        if result:
            return result
        if time.monotonic() - began > timeout:
            raise PhaseTimeout(phase, time.monotonic() - began, detail())
        time.sleep(interval)


def records(lines: Iterable[str], marker: str) -> list[dict[str, str]]:
    """The records of an MQSC display (each begins with its AMQnnnnI line): keyword -> value."""
    text = "\n".join(lines)
    return [{key: value.strip("'") for key, value in FIELD.findall(part)} for part in text.split(marker)[1:]]


def body(number: int) -> bytes:
    return HEADER.pack(number, time.perf_counter()).ljust(SIZE, b"p")


# -- the shape of one run ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Layout:
    """Who is who in a cluster of ``size`` queue managers with ``routing``."""

    size: int
    routing: str
    subscribers_mode: str = "all"

    @property
    def names(self) -> tuple[str, ...]:
        return (*FULLS, *self.partials)

    @property
    def partials(self) -> tuple[str, ...]:
        return tuple(f"QM{index:02d}" for index in range(1, self.size - len(FULLS) + 1))

    @property
    def publisher(self) -> str:
        return self.partials[0]

    @property
    def subscribers(self) -> tuple[str, ...]:
        pool = self.names if self.subscribers_mode == "all" else self.partials
        return tuple(name for name in pool if name != self.publisher)

    @property
    def reader(self) -> str:
        """The subscriber whose queue the latency run reads: the last partial repository."""
        return self.partials[-1]

    def expected_proxies(self) -> dict[str, set[str]]:
        """Member -> the subscribers whose proxy it must hold (B:R-RTE-3, R-RTE-6)."""
        if self.routing == "DIRECT":
            return {member: {s for s in self.subscribers if s != member} for member in self.names}
        return {member: {s for s in self.subscribers if s != HOST} if member == HOST else set()
                for member in self.names}

    def expected_hops(self) -> int:
        """Channel messages per publication from the publisher (a partial repository, not a host)."""
        if self.routing == "DIRECT":
            return len(self.subscribers)
        return 1 + len([s for s in self.subscribers if s != HOST])


# -- the queue managers -----------------------------------------------------------------------------
def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


class Cluster:
    """The queue manager processes of one run, an administrative connection to each."""

    def __init__(self, home: Path, layout: Layout, timeout: float) -> None:
        self.home, self.layout, self.timeout = home, layout, timeout
        self.pids: dict[str, int] = {}
        self.conns: dict[str, mqlite.QueueManager] = {}

    # starting and ending
    def start(self, advance: Callable[[], None]) -> None:
        def one(name: str) -> None:
            cli(self.home, "crtmqm", "-p", "0", name)
            cli(self.home, "strmqm", name)
            self.pids[name] = int((self.home / "qmgrs" / name / "qmgr.pid").read_text().strip())
            advance()

        with ThreadPoolExecutor(4) as pool:
            list(pool.map(one, self.layout.names))
        for name in self.layout.names:
            self.conns[name] = mqlite.connect(name)

    def end(self) -> None:
        for conn in self.conns.values():
            with suppress(Exception):
                conn.disconnect()
        for name in reversed(list(self.pids)):
            with suppress(SystemExit):
                cli(self.home, "endmqm", "-i", name)
        deadline = time.monotonic() + 10
        for pid in self.pids.values():
            while process_alive(pid) and time.monotonic() < deadline:
                time.sleep(0.05)
            if process_alive(pid):
                with suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)

    def dead(self) -> list[str]:
        return [name for name, pid in self.pids.items() if not process_alive(pid)]

    def cpu(self) -> float:
        return sum(cpu_seconds(pid) for pid in self.pids.values())

    def cpus(self) -> dict[str, float]:
        return {name: cpu_seconds(pid) for name, pid in self.pids.items()}

    # MQSC through the client
    def mqsc(self, name: str, script: str, ok: bool = True) -> list[str]:
        code, lines = self.conns[name].mqsc(script)
        if ok and code != 0:
            raise SystemExit(f"{name}: MQSC failed ({code}): {script.strip()}\n" + "\n".join(lines))
        return lines

    def port(self, name: str) -> int:
        return int(json.loads((self.home / "qmgrs" / name / "listeners.json").read_text())["tcp"])

    def join(self) -> None:
        """B:§22 as an administrator joins them (tests/helpers/cluster.py join_all)."""
        for name in self.layout.names:
            self.mqsc(name, "ALTER CHANNEL(SYSTEM.DEF.CLUSSDR) CHLTYPE(CLUSSDR) SHORTTMR(1)\n"
                      + (f"ALTER QMGR REPOS({CLUSTER})\n" if name in FULLS else "")
                      + f"DEFINE CHANNEL({CLUSTER}.{name}) CHLTYPE(CLUSRCVR) CLUSTER({CLUSTER})\n"
                        f"SET CHLAUTH('{CLUSTER}.*') TYPE(QMGRMAP) QMNAME('*') USERSRC(CHANNEL)\n")
        senders = [(FULLS[0], FULLS[1]), (FULLS[1], FULLS[0])]
        senders += [(name, FULLS[index % len(FULLS)]) for index, name in enumerate(self.layout.partials)]
        for name, full in senders:
            self.mqsc(name, f"DEFINE CHANNEL({CLUSTER}.{full}) CHLTYPE(CLUSSDR) "
                            f"CONNAME('127.0.0.1({self.port(full)})') CLUSTER({CLUSTER})\n")

    # what the queue managers show
    def members_known(self, name: str) -> int:
        rows = records(self.mqsc(name, "DISPLAY CLUSQMGR(*)\n", ok=False), "AMQ8441I")
        return len([r for r in rows if not r.get("CLUSQMGR", "").startswith("SYSTEM.TEMPQMGR.")])

    def has_topic(self, name: str) -> bool:
        return f"TOPIC({TOPIC_OBJECT})" in "\n".join(self.mqsc(name, "DISPLAY TOPIC(*) TYPE(CLUSTER)\n", ok=False))

    def wait_members(self, full: str) -> None:
        """Until full repository ``full`` knows every member."""
        size = self.layout.size
        until("join", self.timeout, lambda: self.members_known(full) >= size,
              lambda: f"{full} knows {self.members_known(full)} of {size} members", 0.2)

    def wait_topic(self, name: str) -> None:
        until("topic", self.timeout, lambda: self.has_topic(name), lambda: f"{name} has no cluster topic", 0.1)

    def proxies(self) -> dict[str, list[tuple[str, str]]]:
        """Member -> the proxy subscriptions it holds: (origin queue manager, topic string)."""
        held = {}
        for name in self.layout.names:
            found = records(self.mqsc(name, "DISPLAY SUB(*) SUBTYPE(PROXY) DESTQMGR TOPICSTR\n", ok=False),
                            "AMQ8096I")
            held[name] = sorted((r.get("DESTQMGR", ""), r.get("TOPICSTR", "")) for r in found)
        return held

    def busy_queues(self) -> list[str]:
        busy = []
        for name in self.layout.names:
            for r in records(self.mqsc(name, "DISPLAY QLOCAL(*) CURDEPTH USAGE\n", ok=False), "AMQ8409I"):
                queue = r.get("QUEUE", "")
                watched = r.get("USAGE") == "XMITQ" or queue.startswith(("SYSTEM.INTER.QMGR.",
                                                                          "SYSTEM.CLUSTER.COMMAND."))
                if watched and r.get("CURDEPTH", "0") != "0":
                    busy.append(f"{name}:{queue}({r.get('CURDEPTH')})")
        return busy

    def idle(self, phase: str) -> None:
        """Until every transmission queue and pub/sub or cluster command queue is empty, twice in
        a row (B "idle")."""
        calm = [0]

        def settled() -> bool:
            calm[0] = calm[0] + 1 if not self.busy_queues() else 0
            return calm[0] >= 2

        until(phase, self.timeout, settled, lambda: "busy: " + ", ".join(self.busy_queues()[:20]), interval=0.1)

    def channels(self) -> dict[str, dict[str, Any]]:
        """Member -> its cluster-senders: {"defined": n, "running": n, "sent": {partner: MSGS},
        "batches": {partner: BATCHES}}."""
        found: dict[str, dict[str, Any]] = {}
        for name in self.layout.names:
            rows = records(self.mqsc(name, "DISPLAY CLUSQMGR(*) DEFTYPE STATUS\n", ok=False), "AMQ8441I")
            senders = [r for r in rows if r.get("DEFTYPE", "").startswith("CLUSSDR")]
            status = records(self.mqsc(name, "DISPLAY CHSTATUS(*) MSGS BATCHES RQMNAME\n", ok=False), "AMQ8417I")
            senders_status = [r for r in status if r.get("CHLTYPE") == "CLUSSDR"]
            sent = {r.get("RQMNAME") or r.get("CHANNEL", ""): int(r.get("MSGS", "0")) for r in senders_status}
            batches = {r.get("RQMNAME") or r.get("CHANNEL", ""): int(r.get("BATCHES", "0")) for r in senders_status}
            found[name] = {"defined": len(senders), "running": sum(r.get("STATUS") == "RUNNING" for r in senders),
                           "auto_defined": sum(r.get("DEFTYPE") in ("CLUSSDRA", "CLUSSDRB") for r in senders),
                           "sent": sent, "batches": batches}
        return found


def total_sent(channels: dict[str, dict[str, Any]]) -> int:
    return sum(sum(c["sent"].values()) for c in channels.values())


def sent_delta(before: dict[str, dict[str, Any]], after: dict[str, dict[str, Any]], key: str = "sent"
               ) -> dict[str, int]:
    """Messages (``key`` "batches": batches) each member's cluster-senders sent between two
    snapshots (a channel that restarted in between counts from 0)."""
    moved = {}
    for name, now in after.items():
        then = before.get(name, {}).get(key, {})
        moved[name] = sum(n - then.get(p, 0) if n >= then.get(p, 0) else n for p, n in now[key].items())
    return moved


# -- the subscriber queues ----------------------------------------------------------------------------
class Depths:
    """MQINQ of CURDEPTH on every subscriber queue (handles kept open: a poll costs little)."""

    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster
        self.handles = {name: mqlite.Queue(cluster.conns[name], SUB_QUEUE, C.MQOO_INQUIRE)
                        for name in cluster.layout.subscribers}

    def of(self, name: str) -> int:
        return int(self.handles[name].inquire(C.MQIA_CURRENT_Q_DEPTH))

    def all(self) -> dict[str, int]:
        return {name: self.of(name) for name in self.handles}

    def wait_for(self, target: int, phase: str, timeout: float, progress: Callable[[int], None]) -> float:
        """Until every queue holds ``target``: the queue furthest behind is polled until it gets
        there, then all are, and so on. The perf_counter when the last one got there."""
        known = dict.fromkeys(self.handles, 0)
        began = time.monotonic()
        while True:
            name = min(known, key=lambda n: known[n])
            known[name] = self.of(name)
            if known[name] >= target:
                known = self.all()
                if min(known.values()) >= target:
                    return time.perf_counter()
            progress(sum(min(d, target) for d in known.values()))
            if time.monotonic() - began > timeout:
                raise PhaseTimeout(phase, time.monotonic() - began, f"depths {self.all()}, wanted {target} each")
            time.sleep(0.005)

    def clear(self) -> None:
        for name in self.handles:
            self.cluster.mqsc(name, f"CLEAR QLOCAL({SUB_QUEUE})\n")

    def close(self) -> None:
        for handle in self.handles.values():
            with suppress(Exception):
                handle.close()


def drain(conn: mqlite.QueueManager, queue_name: str = SUB_QUEUE) -> list[int]:
    """Every publication number on the subscriber queue, got."""
    numbers: list[int] = []
    with mqlite.Queue(conn, queue_name, C.MQOO_INPUT_EXCLUSIVE) as queue:
        while True:
            try:
                message = queue.get()
            except mqlite.MQMIError as error:
                if error.reason != C.MQRC_NO_MSG_AVAILABLE:
                    raise
                return numbers
            numbers.append(HEADER.unpack_from(message)[0])


def exactly_once(numbers: list[int], count: int) -> str | None:
    """None when ``numbers`` holds 0 .. count-1 once each; else what is wrong."""
    if len(numbers) == count and set(numbers) == set(range(count)):
        return None
    seen: dict[int, int] = {}
    for n in numbers:
        seen[n] = seen.get(n, 0) + 1
    missing = [n for n in range(count) if n not in seen]
    twice = [n for n, times in seen.items() if times > 1]
    return f"{len(numbers)} got, {len(missing)} missing (first {missing[:5]}), {len(twice)} duplicated " \
           f"(first {sorted(twice)[:5]}), {len([n for n in seen if not 0 <= n < count])} unexpected"


# -- publishing --------------------------------------------------------------------------------------
def publish_stream(conn: mqlite.QueueManager, count: int, topic_string: str = PUB_TOPIC) -> tuple[float, float, int]:
    """``count`` persistent publications, asynchronous but the last: (began, ended perf_counter,
    asynchronous put failures MQSTAT reports)."""
    md = mqlite.MD(Persistence=C.MQPER_PERSISTENT)
    pmo = mqlite.PMO(Options=C.MQPMO_NO_SYNCPOINT | C.MQPMO_ASYNC_RESPONSE)
    bodies = [body(n) for n in range(count)]
    with mqlite.Topic(conn, topic_string=topic_string, open_opts=C.MQOO_OUTPUT) as topic:
        began = time.perf_counter()
        for data in bodies[:-1]:
            md.MsgId = C.MQMI_NONE
            topic.pub(data, md, pmo)
        topic.pub(bodies[-1], mqlite.MD(Persistence=C.MQPER_PERSISTENT), mqlite.PMO(Options=C.MQPMO_NO_SYNCPOINT))
        ended = time.perf_counter()
    status = conn.stat()
    return began, ended, int(status.PutFailureCount)


def publish_paced(conn: mqlite.QueueManager, count: int, rate: float) -> None:
    with mqlite.Topic(conn, topic_string=PUB_TOPIC, open_opts=C.MQOO_OUTPUT) as topic:
        pmo = mqlite.PMO(Options=C.MQPMO_NO_SYNCPOINT)
        next_at = time.perf_counter()
        for n in range(count):
            topic.pub(body(n), mqlite.MD(Persistence=C.MQPER_PERSISTENT), pmo)
            next_at += 1 / rate
            time.sleep(max(0.0, next_at - time.perf_counter()))


class Reader(threading.Thread):
    """Gets ``count`` publications from the subscriber queue at ``qmgr`` as they arrive: the
    latency of each (perf_counter on arrival less the publisher's, in the same process)."""

    def __init__(self, qmgr: str, count: int, timeout: float) -> None:
        super().__init__(daemon=True)
        self.qmgr, self.count, self.timeout = qmgr, count, timeout
        self.latencies: dict[int, float] = {}
        self.error: str | None = None
        self.ready = threading.Event()

    def run(self) -> None:
        try:
            conn = mqlite.connect(self.qmgr)
            try:
                with mqlite.Queue(conn, SUB_QUEUE, C.MQOO_INPUT_EXCLUSIVE) as queue:
                    self.ready.set()
                    deadline = time.monotonic() + self.timeout
                    while len(self.latencies) < self.count and time.monotonic() < deadline:
                        try:
                            message = queue.get(wait=1.0)
                        except mqlite.MQMIError as error:
                            if error.reason == C.MQRC_NO_MSG_AVAILABLE:
                                continue
                            raise
                        arrived = time.perf_counter()
                        number, sent = HEADER.unpack_from(message)
                        self.latencies[number] = arrived - sent
            finally:
                conn.disconnect()
        except Exception as error:  # reported in the results
            self.error = repr(error)
        finally:
            self.ready.set()


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


# -- the error logs -------------------------------------------------------------------------------------
def log_problems(home: Path, names: Iterable[str]) -> dict[str, dict[str, int]]:
    """Queue manager -> {AMQnnnnW/E/S id or "Traceback": entries} in its AMQERR01.LOG (and rotated
    ones) and strmqm.log."""
    found: dict[str, dict[str, int]] = {}
    for name in names:
        counts: dict[str, int] = {}
        directory = home / "qmgrs" / name
        for path in [*directory.glob("AMQERR0*.LOG*"), directory / "strmqm.log"]:
            with suppress(OSError):
                text = path.read_text(errors="replace")
                for error_id in ERROR_ID.findall(text):
                    counts[error_id] = counts.get(error_id, 0) + 1
                if text.count("Traceback"):
                    counts["Traceback"] = counts.get("Traceback", 0) + text.count("Traceback")
        if counts:
            found[name] = counts
    return found


def keep_logs(home: Path, names: Iterable[str], label: str) -> str:
    kept = Path(tempfile.mkdtemp(prefix=f"mqlite-dpubsub-logs-{label}-"))
    for name in names:
        directory = home / "qmgrs" / name
        for path in [*directory.glob("AMQERR0*.LOG*"), directory / "strmqm.log"]:
            if path.exists():
                (kept / name).mkdir(exist_ok=True)
                shutil.copy2(path, kept / name / path.name)
    return str(kept)


# -- one (N, routing) ---------------------------------------------------------------------------------
class Phases:
    """A rich progress line for the run and one for the phase in progress."""

    def __init__(self, progress: Progress | None, label: str, phases: int) -> None:
        self.progress = progress
        self.run: TaskID | None = progress.add_task(label, total=phases) if progress else None
        self.phase: TaskID | None = None

    def begin(self, description: str, total: int | None = None) -> None:
        if self.progress is None or self.run is None:
            return
        if self.phase is not None:
            self.progress.remove_task(self.phase)
            self.progress.advance(self.run)
        self.phase = self.progress.add_task(f"  {description}", total=total)

    def update(self, completed: int) -> None:
        if self.progress is not None and self.phase is not None:
            self.progress.update(self.phase, completed=completed)

    def advance(self) -> None:
        if self.progress is not None and self.phase is not None:
            self.progress.advance(self.phase)

    def done(self) -> None:
        if self.progress is not None and self.run is not None:
            if self.phase is not None:
                self.progress.remove_task(self.phase)
            self.progress.remove_task(self.run)


PHASES = ("start", "join", "topic", "subscribe", "idle CPU", "warm-up", "publish", "verify", "latency", "logs")


def measure(layout: Layout, messages: int, rounds: int, latency_count: int, timeout: float,
            progress: Progress | None) -> dict[str, Any]:
    result: dict[str, Any] = {"bench": "dpubsub", "queue_managers": layout.size, "routing": layout.routing,
                              "full_repositories": len(FULLS), "partial_repositories": len(layout.partials),
                              "publisher": layout.publisher, "topic_host": HOST,
                              "subscribers": len(layout.subscribers), "subscriber_set": layout.subscribers_mode,
                              "messages": messages, "size": SIZE, "persistent": True}
    problems: list[str] = []
    home = Path(tempfile.mkdtemp(prefix=f"mqlite-bench-dpubsub-{layout.size}-{layout.routing.lower()}-"))
    os.environ["MQLITE_HOME"] = str(home)
    os.environ.pop("MQSERVER", None)
    cluster = Cluster(home, layout, timeout)
    phases = Phases(progress, f"N={layout.size} {layout.routing}", len(PHASES) + 2 * (rounds - 1))
    depths: Depths | None = None
    began = time.monotonic()
    try:
        phases.begin(f"start {layout.size} queue managers", layout.size)
        cluster.start(phases.advance)

        phases.begin("join the cluster")
        cluster.join()
        for full in FULLS:
            cluster.wait_members(full)
        cluster.idle("join")
        joined = cluster.channels()

        phases.begin(f"topic {TOPIC_OBJECT} ({layout.routing}) on {HOST}")
        clroute = " CLROUTE(TOPICHOST)" if layout.routing == "TOPICHOST" else ""
        topic_began = time.perf_counter()
        cluster.mqsc(HOST, f"DEFINE TOPIC({TOPIC_OBJECT}) TOPICSTR('{TOPIC_ROOT}') CLUSTER({CLUSTER}){clroute}\n")
        for name in layout.names:
            if name != HOST:
                cluster.wait_topic(name)
        topic_known_s = time.perf_counter() - topic_began
        cluster.idle("topic")
        topic = cluster.channels()

        expected = layout.expected_proxies()
        wanted = sum(len(origins) for origins in expected.values())
        phases.begin(f"{len(layout.subscribers)} subscriptions: {wanted} proxies", wanted)
        for name in layout.subscribers:
            cluster.mqsc(name, f"DEFINE QLOCAL({SUB_QUEUE}) MAXDEPTH({messages + latency_count + WARMUP + 1000})\n")
        subscribed = time.perf_counter()
        for name in layout.subscribers:
            cluster.mqsc(name, f"DEFINE SUB({SUB_NAME}) TOPICSTR('{SUB_TOPIC}') DEST({SUB_QUEUE})\n")
        commands_s = time.perf_counter() - subscribed

        def missing() -> dict[str, list[str]]:
            held = cluster.proxies()
            gaps = {m: sorted(o for o in origins if (o, SUB_TOPIC) not in held[m]) for m, origins in expected.items()}
            phases.update(wanted - sum(len(g) for g in gaps.values()))
            return {m: g for m, g in gaps.items() if g}

        until("subscribe", timeout, lambda: not missing(),
              lambda: f"proxies missing (member: origins): {missing()}", 0.02)
        setup_s = time.perf_counter() - subscribed
        cluster.idle("subscribe")
        held = cluster.proxies()
        setup = cluster.channels()
        unexpected = {m: [p for p in found if p[0] not in expected[m] or p[1] != SUB_TOPIC]
                      for m, found in held.items()}
        unexpected = {m: found for m, found in unexpected.items() if found}
        if unexpected:
            problems.append(f"unexpected proxy subscriptions (member: [(origin, topic)]): {unexpected}")
        result["setup_s"] = round(setup_s, 3)
        result["subscribe_commands_s"] = round(commands_s, 3)
        result["topic_known_everywhere_s"] = round(topic_known_s, 3)
        result["knowledge"] = {
            "proxies_held": sum(len(found) for found in held.values()),
            "proxies_expected": wanted,
            "proxies_by_member": {m: len(found) for m, found in held.items()},
            "cluster_senders_defined": sum(c["defined"] for c in setup.values()),
            "cluster_senders_auto_defined": sum(c["auto_defined"] for c in setup.values()),
            "cluster_senders_running": sum(c["running"] for c in setup.values()),
            "cluster_senders_defined_before_topic": sum(c["defined"] for c in joined.values()),
            "cluster_senders_defined_before_subscriptions": sum(c["defined"] for c in topic.values()),
            "messages_sent": {"join": total_sent(joined),
                              "topic": sum(sent_delta(joined, topic).values()),
                              "subscriptions": sum(sent_delta(topic, setup).values()),
                              "total": total_sent(setup)},
        }

        phases.begin(f"idle CPU ({IDLE_CPU_WINDOW:g} s)")
        cpu_before = cluster.cpu()
        time.sleep(IDLE_CPU_WINDOW)
        result["idle_cpu_s_per_s"] = round((cluster.cpu() - cpu_before) / IDLE_CPU_WINDOW, 3)

        phases.begin(f"warm-up: {WARMUP} publications", WARMUP * len(layout.subscribers))
        depths = Depths(cluster)
        publisher = cluster.conns[layout.publisher]
        publish_stream(publisher, WARMUP)
        depths.wait_for(WARMUP, "warm-up", timeout, phases.update)
        cluster.idle("warm-up")
        depths.clear()

        total = messages * len(layout.subscribers)
        rounds_done: list[dict[str, Any]] = []
        by_sender: dict[str, int] = {}
        wrong: dict[str, str] = {}
        failures = 0
        for index in range(rounds):
            label = f"round {index + 1}/{rounds}: " if rounds > 1 else ""
            phases.begin(f"{label}publish {messages:,} -> {len(layout.subscribers)} subscribers", total)
            before = cluster.channels()
            cpu_start, machine_start, own_start = cluster.cpus(), machine_busy(), own_cpu()
            first, last_put, failed = publish_stream(publisher, messages)
            delivered = depths.wait_for(messages, "publish", timeout, phases.update)
            cpu_after, machine_after, own_after = cluster.cpus(), machine_busy(), own_cpu()
            cluster.idle("publish")
            after = cluster.channels()
            seconds = delivered - first
            used = {name: cpu_after[name] - cpu_start.get(name, 0.0) for name in cpu_after}
            sent = sent_delta(before, after)
            for name, n in sent.items():
                by_sender[name] = by_sender.get(name, 0) + n
            failures += failed
            rounds_done.append({"put_per_s": round(messages / (last_put - first)),
                                "publications_per_s": round(messages / seconds),
                                "deliveries_per_s": round(total / seconds), "delivered_s": round(seconds, 3),
                                "hops": sum(sent.values()),
                                "batches": sum(sent_delta(before, after, "batches").values()),
                                "qmgr_cpu_s": round(sum(used.values()), 2),
                                "publisher_cpu_s": round(used[layout.publisher], 2),
                                "host_cpu_s": round(used[HOST], 2),
                                "others_cpu_s": round(sum(used.values()) - used[HOST] - used[layout.publisher], 2),
                                "bench_cpu_s": round(own_after - own_start, 2),
                                "foreign_cpu_s": round(machine_after - machine_start - sum(used.values())
                                                       - (own_after - own_start), 2)})

            phases.begin(f"{label}verify {len(layout.subscribers)} queues", len(layout.subscribers))
            now = depths.all()
            if any(d != messages for d in now.values()):
                problems.append(f"round {index + 1}: subscriber queue depths once idle: {now} "
                                f"(wanted {messages} each)")
            for name in layout.subscribers:
                fault = exactly_once(drain(cluster.conns[name]), messages)
                if fault:
                    wrong[f"round {index + 1} {name}"] = fault
                phases.advance()

        def median(key: str) -> float:
            return float(statistics.median(r[key] for r in rounds_done))

        cpu_used = median("qmgr_cpu_s")
        hops = sum(by_sender.values())
        result["rounds"] = rounds
        result["throughput"] = {"put_per_s": round(median("put_per_s")),
                                "publications_per_s": round(median("publications_per_s")),
                                "deliveries_per_s": round(median("deliveries_per_s")),
                                "delivered_s": round(median("delivered_s"), 3),
                                "async_put_failures": failures}
        batches = sum(r["batches"] for r in rounds_done)
        result["hops"] = {"messages": hops, "per_publication": round(hops / (messages * rounds), 3),
                          "expected_per_publication": layout.expected_hops(), "batches": batches,
                          "messages_per_batch": round(hops / batches, 1) if batches else None,
                          "by_sender": {m: n for m, n in by_sender.items() if n}}
        result["cpu"] = {"qmgr_cpu_s": round(cpu_used, 2), "ms_per_publication": round(1000 * cpu_used / messages, 3),
                         "ms_per_delivery": round(1000 * cpu_used / total, 3),
                         "publisher_cpu_s": round(median("publisher_cpu_s"), 2),
                         "host_cpu_s": round(median("host_cpu_s"), 2),
                         "others_cpu_s": round(median("others_cpu_s"), 2),
                         "bench_cpu_s": round(median("bench_cpu_s"), 2),
                         "foreign_cpu_s_max": max(r["foreign_cpu_s"] for r in rounds_done)}
        result["runs"] = rounds_done
        result["cluster_senders_running_after_publishing"] = sum(c["running"] for c in after.values())
        result["exactly_once"] = not wrong
        if failures:
            problems.append(f"{failures} asynchronous publications failed (MQSTAT)")
        if wrong:
            problems.append(f"publications lost or duplicated: {wrong}")
        if any(r["hops"] != messages * layout.expected_hops() for r in rounds_done):
            problems.append(f"channel messages per round {[r['hops'] for r in rounds_done]}, expected "
                            f"{messages * layout.expected_hops()} (M x {layout.expected_hops()})")

        phases.begin(f"latency: {latency_count} at {LATENCY_RATE:g}/s, read at {layout.reader}", latency_count)
        reader = Reader(layout.reader, latency_count, latency_count / LATENCY_RATE + timeout)
        reader.start()
        reader.ready.wait(30)
        pacing = threading.Thread(target=publish_paced, args=(publisher, latency_count, LATENCY_RATE), daemon=True)
        pacing.start()
        while reader.is_alive():
            phases.update(len(reader.latencies))
            reader.join(0.2)
        pacing.join(timeout)
        if reader.error or len(reader.latencies) < latency_count:
            problems.append(f"latency run: {len(reader.latencies)} of {latency_count} got at {layout.reader}"
                            + (f" ({reader.error})" if reader.error else ""))
        if reader.latencies:
            values = list(reader.latencies.values())
            result["latency_ms"] = {"at": layout.reader, "count": len(values),
                                    "p50": round(1000 * percentile(values, 0.5), 2),
                                    "p95": round(1000 * percentile(values, 0.95), 2),
                                    "max": round(1000 * max(values), 2),
                                    "mean": round(1000 * statistics.fmean(values), 2)}
        cluster.idle("latency")
    except PhaseTimeout as timed_out:
        result["timed_out"] = {"phase": timed_out.phase, "after_s": round(timed_out.after, 1),
                               "detail": timed_out.detail[:2000]}
        problems.append(str(timed_out)[:300])
    finally:
        phases.begin("logs and end")
        if dead := cluster.dead():
            problems.append(f"queue managers no longer running: {dead}")
        logged = log_problems(home, layout.names)
        if logged:
            result["error_log"] = logged  # warnings are shown; errors, severe ones and tracebacks are problems
            serious = {name: {k: n for k, n in counts.items() if not k.endswith("W")}
                       for name, counts in logged.items()}
            if serious := {name: counts for name, counts in serious.items() if counts}:
                problems.append(f"error-log entries: {serious}")
        if problems:
            result["logs_kept"] = keep_logs(home, layout.names, f"{layout.size}-{layout.routing.lower()}")
        if depths is not None:
            depths.close()
        cluster.end()
        shutil.rmtree(home, ignore_errors=True)
        phases.done()
    result["problems"] = problems
    result["seconds"] = round(time.monotonic() - began, 1)
    result["date"] = time.strftime("%Y-%m-%d %H:%M %Z")
    return result


# -- the run ----------------------------------------------------------------------------------------------
def summary(results: list[dict[str, Any]]) -> Table:
    table = Table(title="DIRECT against TOPICHOST", title_justify="left")
    for column in ("N", "routing", "setup s", "proxies", "CLUSSDR (running)", "ctl msgs", "put/s", "pubs/s",
                   "deliv/s", "hops/pub", "lat p50/p95 ms", "CPU ms/pub", "foreign CPU s", "problems"):
        table.add_column(column, justify="right")
    for r in results:
        k, t, h = r.get("knowledge", {}), r.get("throughput", {}), r.get("hops", {})
        lat, cpu = r.get("latency_ms", {}), r.get("cpu", {})
        table.add_row(
            str(r["queue_managers"]), r["routing"], str(r.get("setup_s", "-")),
            str(k.get("proxies_held", "-")),
            f"{k.get('cluster_senders_defined', '-')} ({k.get('cluster_senders_running', '-')})",
            str(k.get("messages_sent", {}).get("total", "-")), str(t.get("put_per_s", "-")),
            str(t.get("publications_per_s", "-")), str(t.get("deliveries_per_s", "-")),
            f"{h.get('per_publication', '-')} ({h.get('expected_per_publication', '-')})",
            f"{lat.get('p50', '-')}/{lat.get('p95', '-')}", str(cpu.get("ms_per_publication", "-")),
            str(cpu.get("foreign_cpu_s_max", "-")),
            ("timed out: " + r["timed_out"]["phase"] + "; " if "timed_out" in r else "") + str(len(r["problems"])))
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="4,8,16", help="cluster sizes (queue managers; default 4,8,16; >= 4)")
    parser.add_argument("--routings", default=",".join(ROUTINGS), help="DIRECT,TOPICHOST (default both)")
    parser.add_argument("--messages", type=int, help="publications in the throughput run (default 2,000)")
    parser.add_argument("--subscribers", choices=("all", "partials"), default="all",
                        help="who subscribes: every member but the publisher (default), or the partial "
                             "repositories but the publisher (the host does not subscribe)")
    parser.add_argument("--rounds", type=int, help="throughput rounds per cluster, the median reported "
                                                   "(default 3; 1 with --quick)")
    parser.add_argument("--latency-count", type=int, default=200, help="publications in the latency run (at 50/s)")
    parser.add_argument("--timeout", type=float, default=180.0, help="seconds a phase may take (default 180)")
    parser.add_argument("--quick", action="store_true", help="N = 4 only, M = 500")
    parser.add_argument("--json-only", action="store_true", help="no progress or table on stderr")
    parser.add_argument("--plot", type=Path, help="draw the figures to this SVG at the end (bench/dpubsub_plot.py)")
    args = parser.parse_args()
    sizes = [4] if args.quick else [int(s) for s in args.sizes.split(",") if s.strip()]
    routings = [r.strip().upper() for r in args.routings.split(",") if r.strip()]
    if any(size < 4 for size in sizes) or any(r not in ROUTINGS for r in routings):
        parser.error("sizes must be >= 4 (2 full repositories, the publisher, a partial subscriber); "
                     "routings DIRECT and/or TOPICHOST")
    messages = args.messages or (500 if args.quick else 2_000)
    args.rounds = args.rounds or (1 if args.quick else 3)
    results: list[dict[str, Any]] = []
    progress = None if args.json_only else Progress(
        TextColumn("{task.description:<52}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        console=console, transient=True)
    with progress or nullcontext():
        for size in sizes:
            for routing in routings:
                layout = Layout(size, routing, args.subscribers)
                result = measure(layout, messages, args.rounds, args.latency_count, args.timeout, progress)
                result["cpus"] = os.cpu_count()
                results.append(result)
                print(json.dumps(result), flush=True)
    if args.plot:
        dpubsub_plot.plot(results, args.plot)
    if not args.json_only:
        Console(stderr=True, width=max(console.width, 180)).print(summary(results))
        for r in results:
            for problem in r["problems"]:
                console.print(f"[red]N={r['queue_managers']} {r['routing']}: {problem[:500]}[/]")
    if any(r["problems"] for r in results):
        sys.exit(1)


if __name__ == "__main__":
    main()
