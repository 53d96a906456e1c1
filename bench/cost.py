"""Instructions per message of the queue manager process, counted by callgrind (issue 34).

The measuring stick: wall-clock rates on this VM move +-30% from run to run; callgrind's count of
the instructions the queue manager executes repeats to a fraction of a percent.

- The server itself (``python -m mqlite.server QM``, as strmqm starts it: MQLITE_HOME absolute,
  the queue manager's directory as working directory) runs under ``valgrind --tool=callgrind
  --trace-children=no --collect-systime=no --cache-sim=no --branch-sim=no --separate-threads=yes``;
  the clients run natively, each in its own process.
- per message = (Ir(N messages) - Ir(M messages)) / (N - M), N=3,000 and M=1,000 by default, so
  start-up and shutdown cancel. Each case runs twice (both N and M each time); the spread between
  the two per-message figures is printed.
- Busy polling off (MQLITE_BUSY_POLL_US=0), CPU placement off (MQLITE_CPU_PLACEMENT=off),
  PYTHONHASHSEED=0, and the server's wall clock frozen by bench/frozen_clock.c (LD_PRELOAD:
  CLOCK_REALTIME, gettimeofday and time answer one instant; monotonic clocks run). The shim is
  built with gcc into ~/.cache/mqlite-bench/ (or $MQLITE_BENCH_CACHE) when missing.
- Per-function costs: the N-run's callgrind files minus the M-run's, per function, exclusive and
  inclusive, divided by N - M.

    python bench/cost.py --case a            # one case, JSON on stdout
    python bench/cost.py --all               # every case
    python bench/cost.py --all --record      # and docs/PERFORMANCE.md + bench/cost_baseline.json
    python bench/cost.py --case c --src /tmp/base/src   # another tree (before a change)

A frozen wall clock: message expiry (the queue manager's clock is time.time) never comes, and
every PutDate/PutTime is the frozen instant; no case here uses expiry, TLS or anything counted in
wall-clock time. Monotonic timers (the store's group gathering, channel batch intervals, asyncio)
run as usual.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import cost_callgrind as cg  # bench/ is not a package: its directory is on the path
import cost_clients

ROOT = Path(__file__).resolve().parent.parent
BASELINE = ROOT / "bench" / "cost_baseline.json"
PERFORMANCE = ROOT / "docs" / "PERFORMANCE.md"
FROZEN_SECONDS = 1767225600  # 2026-01-01T00:00:00Z
FROZEN_PUT_DATE, FROZEN_PUT_TIME = "20260101", "00000000"


@dataclass
class Measured:
    """One callgrind run of the server: total Ir, Ir per thread file, the parsed functions."""

    count: int
    total: int
    threads: list[int]
    profile: cg.Profile


@dataclass
class Pair:
    """One N-run and one M-run of a case: per message = difference / (N - M)."""

    large: Measured
    small: Measured

    @property
    def per_message(self) -> float:
        return (self.large.total - self.small.total) / (self.large.count - self.small.count)

    def per_thread(self) -> list[float]:
        span = self.large.count - self.small.count
        return [(a - b) / span for a, b in zip(self.large.threads, self.small.threads, strict=False)]

    def as_json(self) -> dict[str, object]:
        return {"ir_large": self.large.total, "ir_small": self.small.total,
                "per_message": round(self.per_message), "per_thread": [round(x) for x in self.per_thread()]}


@dataclass
class Lab:
    """A temporary MQLITE_HOME with queue managers in it, one of them (at most) under valgrind."""

    home: Path
    src: str
    procs: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)
    outs: dict[str, Path] = field(default_factory=dict)

    def env(self, server: bool) -> dict[str, str]:
        env = {**os.environ, "MQLITE_HOME": str(self.home), "PYTHONPATH": self.src,
               "MQLITE_BUSY_POLL_US": "0", "MQLITE_CPU_PLACEMENT": "off", "PYTHONHASHSEED": "0"}
        env.pop("LD_PRELOAD", None)
        if server:
            env["LD_PRELOAD"] = str(frozen_clock())
            env["FROZEN_CLOCK_SECONDS"] = str(FROZEN_SECONDS)
        return env

    def create(self, name: str, port: int | None = None) -> None:
        """What crtmqm leaves: the directory and qm.json (``port`` 0: the system picks one)."""
        directory = self.home / "qmgrs" / name
        directory.mkdir(parents=True)
        config = {"name": name, "port": port, "created": "2026-01-01T00:00:00+00:00"}
        (directory / "qm.json").write_text(json.dumps(config))

    def start(self, name: str, valgrind: bool = False) -> None:
        command = [sys.executable, "-m", "mqlite.server", name]
        if valgrind:
            out = self.home / f"callgrind.{name}.out"
            command = [*cg.VALGRIND, "--separate-threads=yes", f"--callgrind-out-file={out}", *command]
            self.outs[name] = out
        directory = self.home / "qmgrs" / name
        log = open(directory / "bench-startup.log", "wb")  # noqa: SIM115 (the process keeps it)
        proc = subprocess.Popen(command, env=self.env(server=True), cwd=directory, stdin=subprocess.DEVNULL,
                                stdout=log, stderr=subprocess.STDOUT)
        self.procs[name] = proc
        deadline = time.monotonic() + 600  # under valgrind the start takes up to a minute
        while not cost_clients.accepts(self.home, name):
            if proc.poll() is not None:
                raise RuntimeError(f"{name} exited at start: {(directory / 'bench-startup.log').read_text()[-2000:]}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"{name} did not accept connections")
            time.sleep(0.1)

    def port(self, name: str) -> int:
        return int(json.loads((self.home / "qmgrs" / name / "listeners.json").read_text())["tcp"])

    def client(self, *args: object) -> str:
        """A native client process (bench/cost_clients.py), its stdout."""
        done = subprocess.run([sys.executable, str(Path(cost_clients.__file__)), *map(str, args)],
                              env=self.env(server=False), capture_output=True, text=True, timeout=1800)
        if done.returncode:
            raise RuntimeError(f"client {args} failed: {done.stderr[-3000:]}")
        return done.stdout

    def mqsc(self, name: str, text: str) -> str:
        return self.client("mqsc", name, text)

    def stop(self, name: str) -> Measured | None:
        """A controlled end (SIGTERM), waited for; the callgrind files read when under valgrind."""
        proc = self.procs.pop(name)
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            proc.wait(900)
        out = self.outs.pop(name, None)
        if out is None:
            return None
        files = cg.thread_files(out)
        profiles = [cg.parse(path) for path in files]
        return Measured(0, sum(p.total for p in profiles), [p.total for p in profiles], cg.merge(profiles))

    def stop_all(self) -> None:
        for name in list(self.procs):
            proc = self.procs.pop(name)
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                try:
                    proc.wait(900)
                except subprocess.TimeoutExpired:
                    proc.kill()


@contextmanager
def lab(src: str) -> Iterator[Lab]:
    import tempfile

    with tempfile.TemporaryDirectory(prefix="mqcost.") as home:
        here = Lab(Path(home), src)
        try:
            yield here
        finally:
            here.stop_all()


def frozen_clock() -> Path:
    """bench/frozen_clock.c compiled (once per source text) into the cache directory."""
    import hashlib

    source = ROOT / "bench" / "frozen_clock.c"
    digest = hashlib.sha256(source.read_bytes()).hexdigest()[:12]
    cache = Path(os.environ.get("MQLITE_BENCH_CACHE") or Path.home() / ".cache" / "mqlite-bench")
    target = cache / f"frozen_clock-{digest}.so"
    if not target.exists():
        cache.mkdir(parents=True, exist_ok=True)
        partial = target.with_suffix(f".{os.getpid()}.tmp")
        subprocess.run(["gcc", "-O2", "-Wall", "-shared", "-fPIC", "-o", str(partial), str(source), "-ldl"], check=True)
        partial.rename(target)
    return target


# -- the cases ------------------------------------------------------------------------------------
# Each is a function (lab, count) -> Measured: it sets up queue managers in the lab, drives
# ``count`` messages and returns the valgrind server's count.
Case = Callable[[Lab, int], Measured]


def server_run(count: int, workload: str, *extra: object, setup: str = "", src: str | None = None,
               keep: Path | None = None) -> Measured:
    """One queue manager under valgrind in a fresh MQLITE_HOME, ``setup`` (MQSC) applied, then one
    native bench/cost_clients.py ``workload`` of ``count`` messages: the runner the older
    one-off callgrind benches share (``keep``: a directory the callgrind files are copied to)."""
    with lab(src or os.environ.get("COST_SRC") or str(ROOT / "src")) as here:
        here.create("COST")
        here.start("COST", valgrind=True)
        if setup:
            here.mqsc("COST", setup)
        here.client(workload, "COST", count, *extra)
        if keep is not None:
            out = here.outs["COST"]
            measured = _measured(here, "COST", count)
            keep.mkdir(parents=True, exist_ok=True)
            for path in cg.thread_files(out):
                (keep / f"{count}-{int(time.time())}-{path.name}").write_bytes(path.read_bytes())
            return measured
        return _measured(here, "COST", count)


def _single(workload: str, *extra: object) -> Case:
    """One queue manager under valgrind, one native client running ``workload`` ``count`` times."""
    def run(here: Lab, count: int) -> Measured:
        here.create("COST")
        here.start("COST", valgrind=True)
        said = here.client(workload, "COST", count, *extra)
        measured = here.stop("COST")
        assert measured is not None
        measured.count = count
        if workload == "put_get":  # the server's PutDate/PutTime are the frozen instant
            stamp = json.loads(said.splitlines()[-1])
            if (stamp["PutDate"], stamp["PutTime"]) != (FROZEN_PUT_DATE, FROZEN_PUT_TIME):
                raise RuntimeError(f"the server's clock is not frozen: {stamp}")
        return measured
    return run


def _measured(here: Lab, name: str, count: int) -> Measured:
    measured = here.stop(name)
    assert measured is not None
    measured.count = count
    return measured


def _wait_depth(here: Lab, name: str, queue: str, depth: int, interval_ms: int = 50) -> None:
    here.client("wait_depth", name, depth, interval_ms, queue)


def _wait_shown(here: Lab, name: str, command: str, text: str, interval_ms: int = 250) -> None:
    here.client("wait_shown", name, 0, interval_ms, command, text)


def _channel_pair(here: Lab, under: str) -> None:
    """SND -> RCV: transmission queue RCV and a remote queue COST.REMOTE for RCV's COST.Q on SND,
    the receiver on RCV; ``under`` the one under valgrind. The sender channel is not defined yet
    (``_start_sender``): a defined sender starts by itself once its transmission queue holds a
    message, and the puts are to fill it first."""
    for name in ("RCV", "SND"):
        here.create(name, port=0)
        here.start(name, valgrind=name == under)
    here.mqsc("SND", "DEFINE QLOCAL(RCV) USAGE(XMITQ) MAXDEPTH(100000)\n"
                     "DEFINE QREMOTE(COST.REMOTE) RNAME(COST.Q) RQMNAME(RCV) XMITQ(RCV)\n")
    here.mqsc("RCV", "DEFINE CHANNEL(SND.TO.RCV) CHLTYPE(RCVR)\nDEFINE QLOCAL(COST.Q) MAXDEPTH(100000)\n"
                     "SET CHLAUTH(SND.TO.RCV) TYPE(QMGRMAP) QMNAME(SND) USERSRC(CHANNEL)\n")


def _start_sender(here: Lab) -> None:
    here.mqsc("SND", f"DEFINE CHANNEL(SND.TO.RCV) CHLTYPE(SDR) CONNAME('127.0.0.1({here.port('RCV')})') XMITQ(RCV)\n"
                     "START CHANNEL(SND.TO.RCV)\n")


def _drain(here: Lab, count: int) -> None:
    """SND's transmission queue holds ``count`` messages: start the channel, wait until RCV has
    them all and SND has none left (the last batch confirmed)."""
    _start_sender(here)
    _wait_depth(here, "RCV", "COST.Q", count)
    _wait_depth(here, "SND", "RCV", 0, 200)


def case_e(drain: bool) -> Case:
    """The sender queue manager under valgrind: ``count`` persistent puts to COST.REMOTE before
    its sender channel is defined (whole batches of BATCHSZ 50 then, whatever the timing), then
    with ``drain`` the channel sends them."""
    def run(here: Lab, count: int) -> Measured:
        _channel_pair(here, "SND")
        here.client("put_to", "SND", count, 1, "COST.REMOTE")
        if drain:
            _drain(here, count)
        return _measured(here, "SND", count)
    return run


def case_f(here: Lab, count: int) -> Measured:
    """The receiving queue manager under valgrind, the sender native: ``count`` persistent
    messages waiting on SND's transmission queue, then the channel runs (full batches)."""
    _channel_pair(here, "RCV")
    here.client("put_to", "SND", count, 1, "COST.REMOTE")
    _start_sender(here)
    _wait_depth(here, "SND", "RCV", 0)
    return _measured(here, "RCV", count)


def case_f_hierarchy(here: Lab, count: int) -> Measured:
    """CHI (under valgrind) a child of PAR (native), linked as tests/helpers/hierarchy.py links
    them; a subscription on CHI (DEFINE SUB to COST.SUBQ) proxied to PAR; ``count`` persistent
    publications on PAR while PAR.TO.CHI is stopped, then the channel runs: CHI receives them and
    republishes each to COST.SUBQ."""
    for name in ("PAR", "CHI"):
        here.create(name, port=0)
        here.start(name, valgrind=name == "CHI")
    for me, other in (("PAR", "CHI"), ("CHI", "PAR")):
        here.mqsc(me, f"DEFINE QLOCAL({other}) USAGE(XMITQ) MAXDEPTH(100000)\n"
                      f"DEFINE CHANNEL({me}.TO.{other}) CHLTYPE(SDR) CONNAME('127.0.0.1({here.port(other)})') "
                      f"XMITQ({other})\nDEFINE CHANNEL({other}.TO.{me}) CHLTYPE(RCVR)\n"
                      f"SET CHLAUTH({other}.TO.{me}) TYPE(QMGRMAP) QMNAME({other}) USERSRC(CHANNEL)\n")
    here.mqsc("CHI", "ALTER QMGR PARENT(PAR)\n")
    _wait_shown(here, "PAR", "DISPLAY PUBSUB TYPE(CHILD)", "STATUS(ACTIVE)")
    here.mqsc("CHI", "DEFINE QLOCAL(COST.SUBQ) MAXDEPTH(100000)\n"
                     "DEFINE SUB(COST.SUB) TOPICSTR('COST/H') DEST(COST.SUBQ)\n")
    _wait_shown(here, "PAR", "DISPLAY SUB(*) SUBTYPE(PROXY) TOPICSTR", "COST/H")
    _wait_depth(here, "PAR", "CHI", 0)  # the proxy's traffic has gone: PAR.TO.CHI idle
    here.mqsc("PAR", "STOP CHANNEL(PAR.TO.CHI)\n")
    _wait_shown(here, "PAR", "DISPLAY CHSTATUS(PAR.TO.CHI) STATUS", "STOPPED")
    here.client("publish", "PAR", count, 1, "COST/H")
    here.mqsc("PAR", "START CHANNEL(PAR.TO.CHI)\n")
    _wait_depth(here, "PAR", "CHI", 0)
    _wait_depth(here, "CHI", "COST.SUBQ", count, 500)  # republished: polled on the measured side, rarely
    return _measured(here, "CHI", count)


def case_g(local: bool) -> Case:
    """PUT (under valgrind), a partial repository of cluster COST, FR (native) its full repository
    hosting cluster queue COST.CQ. ``count`` persistent puts to COST.CQ while PUT's
    cluster-sender to FR is stopped, then the channel sends them; with ``local`` the same puts to
    a local queue on PUT instead (the local put g is compared with)."""
    def run(here: Lab, count: int) -> Measured:
        for name in ("FR", "PUT"):
            here.create(name, port=0)
            here.start(name, valgrind=name == "PUT")
        chlauth = "SET CHLAUTH('COST.*') TYPE(QMGRMAP) QMNAME('*') USERSRC(CHANNEL)\n"
        here.mqsc("FR", "ALTER QMGR REPOS(COST)\nDEFINE CHANNEL(COST.FR) CHLTYPE(CLUSRCVR) CLUSTER(COST)\n"
                        f"{chlauth}DEFINE QLOCAL(COST.CQ) CLUSTER(COST) MAXDEPTH(100000)\n")
        here.mqsc("PUT", f"DEFINE CHANNEL(COST.PUT) CHLTYPE(CLUSRCVR) CLUSTER(COST)\n{chlauth}"
                         f"DEFINE CHANNEL(COST.FR) CHLTYPE(CLUSSDR) CONNAME('127.0.0.1({here.port('FR')})') "
                         "CLUSTER(COST)\nDEFINE QLOCAL(COST.Q) MAXDEPTH(100000)\n")
        _wait_shown(here, "FR", "DISPLAY CLUSQMGR(PUT)", "CLUSQMGR(PUT)")
        here.client("put_to", "PUT", 1, 1, "COST.CQ")  # the first open asks FR; then the queue is known
        _wait_depth(here, "FR", "COST.CQ", 1)
        _wait_depth(here, "PUT", "SYSTEM.CLUSTER.TRANSMIT.QUEUE", 0, 500)
        if local:
            here.client("put_to", "PUT", count, 1, "COST.Q")
            return _measured(here, "PUT", count)
        here.mqsc("PUT", "STOP CHANNEL(COST.FR)\n")
        _wait_shown(here, "PUT", "DISPLAY CHSTATUS(COST.FR) STATUS", "STOPPED", 500)
        here.client("put_to", "PUT", count, 1, "COST.CQ")
        here.mqsc("PUT", "START CHANNEL(COST.FR)\n")
        _wait_depth(here, "FR", "COST.CQ", count + 1)
        _wait_depth(here, "PUT", "SYSTEM.CLUSTER.TRANSMIT.QUEUE", 0, 500)
        return _measured(here, "PUT", count)
    return run


def case_echo(here: Lab, count: int) -> Measured:
    """bench/cost_echo.py's bare uvloop server under valgrind, its plain-socket client native."""
    import socket

    echo = str(Path(__file__).resolve().parent / "cost_echo.py")
    path = str(here.home / "echo.sock")
    out = here.home / "callgrind.echo.out"
    here.procs["ECHO"] = proc = subprocess.Popen(
        [*cg.VALGRIND, "--separate-threads=yes", f"--callgrind-out-file={out}", sys.executable, echo, "serve", path],
        env=here.env(server=True), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    here.outs["ECHO"] = out
    deadline = time.monotonic() + 600
    while True:
        try:
            with socket.socket(socket.AF_UNIX) as probe:
                probe.connect(path)
            break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the echo server did not start") from None
            time.sleep(0.1)
    subprocess.run([sys.executable, echo, "drive", path, str(count)], env=here.env(server=False), check=True,
                   timeout=1800)
    return _measured(here, "ECHO", count)


def case_a_collected(here: Lab, count: int) -> Measured:
    """Case a on a queue whose STATQ counters are collected (STATQ(ON), an interval begun by RESET
    QMGR TYPE(STATISTICS)): what a queue the metrics collector or a statistics reader watches pays."""
    here.create("COST")
    here.start("COST", valgrind=True)
    here.mqsc("COST", "DEFINE QLOCAL(STATQ.Q) MAXDEPTH(100000) STATQ(ON)\nRESET QMGR TYPE(STATISTICS)\n")
    here.client("put_get", "COST", count, 0, "STATQ.Q")
    return _measured(here, "COST", count)


def case_a_scraped(here: Lab, count: int) -> Measured:
    """Case a while /metrics's collector is subscribed as it is by default (CPU, DISK and STATMQI,
    no STATQ), scraped before and after: what every put and get pays for being watched. Its
    STATMQI subscription switches the MQI counters on at the next heartbeat, which the frozen
    wall clock holds back, so STATMQI(ON) and RESET QMGR TYPE(STATISTICS) switch the same counters
    on here. The publications themselves (every MonitorPublishHeartBeat) are
    bench/monitor_cost.py's."""
    here.create("COST")
    here.start("COST", valgrind=True)
    here.mqsc("COST", "ALTER QMGR STATMQI(ON)\nRESET QMGR TYPE(STATISTICS)\n")
    here.client("put_get", "COST", count, 0, cost_clients.QUEUE, "scraped")
    return _measured(here, "COST", count)


def case_scrape(here: Lab, count: int) -> Measured:
    """``count`` /metrics scrapes (the collector's, as the web server makes them) of a queue
    manager with 101 application queues, one holding a message: per message is per scrape."""
    here.create("COST")
    here.start("COST", valgrind=True)
    here.client("scrape", "COST", count, 101)
    return _measured(here, "COST", count)


CASES: dict[str, tuple[str, Case]] = {
    "a": ("non-persistent synchronous put + get", _single("put_get", 0)),
    "a_collected": ("case a on a queue whose statistics counters are collected", case_a_collected),
    "a_scraped": ("case a while /metrics's collector is subscribed (its default: no STATQ)", case_a_scraped),
    "b": ("non-persistent asynchronous put + read-ahead get", _single("async_put_read_ahead", 0)),
    "c": ("persistent synchronous put + get", _single("put_get", 1)),
    "d1": ("one publication to 1 subscriber + its get", _single("pub_get", 1)),
    "d5": ("one publication to 5 subscribers + their gets", _single("pub_get", 5)),
    "e_put": ("persistent put to a remote queue, sending queue manager, channel stopped", case_e(False)),
    "e_drain": ("the same, then the sender channel sends them", case_e(True)),
    "f": ("receiving queue manager, persistent messages in channel batches of 50", case_f),
    "f_hier": ("a persistent publication arriving over a hierarchy link, child queue manager", case_f_hierarchy),
    "g_local": ("persistent put to a local queue, cluster member", case_g(True)),
    "g": ("persistent put to a remote cluster queue instance, putting queue manager, channel included",
          case_g(False)),
    "scrape": ("one /metrics scrape, 101 application queues (per message: per scrape)", case_scrape),
    "echo": ("bare uvloop echo server, case a's frames (the limit, for scale)", case_echo),
}


def measure(case: Case, large: int, small: int) -> Pair:
    src = os.environ.get("COST_SRC") or str(ROOT / "src")
    with lab(src) as here:
        big = case(here, large)
    with lab(src) as here:
        little = case(here, small)
    return Pair(big, little)


def spread(values: list[float]) -> float:
    """(max - min) / mean, as a fraction."""
    mean = sum(values) / len(values)
    return (max(values) - min(values)) / mean if mean else 0.0


def build_measured() -> str:
    """The measured tree's build as its queue manager sees it (mqlite.hot_modules: ``compiled``,
    or its sources: ``pure``, ``stale``, ``absent``), with the server's environment."""
    with lab(os.environ.get("COST_SRC") or str(ROOT / "src")) as here:
        done = subprocess.run([sys.executable, "-m", "mqlite.compiled", "status"],
                              env=here.env(server=False), capture_output=True, text=True, check=True)
    return done.stdout.strip().splitlines()[-1]


def run_case(key: str, large: int, small: int, repeats: int = 2) -> dict[str, object]:
    title, case = CASES[key]
    pairs = [measure(case, large, small) for _ in range(repeats)]
    per = [p.per_message for p in pairs]
    result: dict[str, object] = {
        "case": key, "title": title, "N": large, "M": small, "build": build_measured(),
        "runs": [p.as_json() for p in pairs], "per_message": round(sum(per) / len(per)),
        "spread": round(spread(per), 5)}
    annotate(result)
    threads = [sum(column) / len(column) for column in zip(*(p.per_thread() for p in pairs), strict=False)]
    if key in WRITER_CASES and len(threads) > 1:  # the store's writer: the busiest thread but the main one
        result["writer_thread"] = round(max(threads[1:]))
        result["writer_share"] = round(max(threads[1:]) / (sum(per) / len(per)), 3)
    ceiling = max(per)  # inclusive over-counts through mutual recursion: never above the whole
    functions = cg.difference(pairs[0].large.profile, pairs[0].small.profile, large - small)
    result["functions"] = [{"fn": name, "exclusive": round(excl), "inclusive": round(min(incl, ceiling))}
                           for name, excl, incl in functions[:25]]
    return result


def annotate(result: dict[str, object]) -> None:
    """A spread above 1% noted with where it is: the fixed part (the M-runs) or the rest."""
    runs: list[dict[str, int]] = result["runs"]  # type: ignore[assignment]
    if float(result["spread"]) <= 0.01 or len(runs) < 2:  # type: ignore[arg-type]
        return
    small, large = [r["ir_small"] for r in runs], [r["ir_large"] for r in runs]
    result["note"] = (f"spread {float(result['spread']):.1%}: the M-runs' totals differ by "  # type: ignore[arg-type]
                      f"{max(small) - min(small):,} Ir, the N-runs' by {max(large) - min(large):,}")


def derived(results: dict[str, dict[str, object]]) -> list[dict[str, object]]:
    """The figures that are differences of cases: d's further subscriber, e beyond its put."""
    out: list[dict[str, object]] = []

    def per(key: str) -> float:
        return float(results[key]["per_message"])  # type: ignore[arg-type]

    if "d1" in results and "d5" in results:
        out.append({"case": "d+", "title": "each further subscriber ((d5 - d1) / 4)",
                    "per_message": round((per("d5") - per("d1")) / 4)})
    if "e_drain" in results and "e_put" in results:
        noise = max(per(k) * float(results[k]["spread"]) for k in ("e_put", "e_drain"))  # type: ignore[arg-type]
        e = {"case": "e", "title": "a persistent message through a sender channel, beyond its put",
             "per_message": round(per("e_drain") - per("e_put"))}
        if abs(per("e_drain") - per("e_put")) < noise:
            e["note"] = f"e is within the spread of its two terms (+-{noise:,.0f} Ir): not resolved by these runs"
        out.append(e)
    if "g" in results and "g_local" in results:
        out.append({"case": "g/local", "title": "cluster put with its channel over a local put (ratio)",
                    "per_message": round(per("g") / per("g_local"), 3)})
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--case", action="append", default=[], help="a, b, c, d, ... (repeatable)")
    parser.add_argument("--all", action="store_true")
    parser.add_argument("-N", "--large", type=int, default=3000)
    parser.add_argument("-M", "--small", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--src", help="another checkout's src directory (before/after pairs)")
    parser.add_argument("--record", action="store_true", help="write docs/PERFORMANCE.md's section and the baseline")
    parser.add_argument("--results", action="append", default=[], metavar="FILE",
                        help="add an earlier run's JSON lines (stdout) to what is printed and recorded")
    args = parser.parse_args()
    if args.src:
        os.environ["COST_SRC"] = str(Path(args.src).resolve())
    keys = list(CASES) if args.all else [k for key in args.case for k in GROUPS.get(key, [key])]
    if keys:  # bytecode cached first: else the first run alone would pay for compiling the tree
        subprocess.run([sys.executable, "-m", "compileall", "-q", os.environ.get("COST_SRC") or str(ROOT / "src")],
                       check=False, stdout=subprocess.DEVNULL)
    results: list[dict[str, object]] = []
    for name in args.results:  # earlier runs' JSON lines (derived figures are worked out again)
        results += [line for line in map(json.loads, Path(name).read_text().splitlines()) if "runs" in line]
    for earlier in results:
        annotate(earlier)
    for key in keys:
        result = run_case(key, args.large, args.small, args.repeats)
        results.append(result)
        print(json.dumps(result), flush=True)
    for extra in derived({str(r["case"]): r for r in results}):
        results.append(extra)
        print(json.dumps(extra), flush=True)
    order = ["a", "b", "c", "d1", "d5", "d+", "e_put", "e_drain", "e", "f", "f_hier", "g_local", "g", "g/local", "echo"]
    results.sort(key=lambda r: order.index(str(r["case"])) if r["case"] in order else len(order))
    if args.record:
        import cost_record

        shown, skip = [], False  # the command line as one would repeat it: no earlier results' files
        for arg in sys.argv[1:]:
            if skip or arg == "--results":
                skip = not skip
                continue
            shown.append("--src <tree>/src" if arg == "--src" else arg)
        shown = [a for a in shown if a != args.src]
        if args.results and not args.all:  # the cases the recorded results are of
            measured = [str(r["case"]) for r in results if "runs" in r]
            shown = (["--all"] if set(measured) == set(CASES) else [f"--case {c}" for c in measured]) + shown
        cost_record.record(results, shown)


GROUPS = {"d": ["d1", "d5"], "e": ["e_put", "e_drain"], "f": ["f", "f_hier"], "g": ["g_local", "g"]}
WRITER_CASES = {"c", "e_put", "g_local", "f_hier", "e_drain", "f", "g"}

if __name__ == "__main__":
    main()
