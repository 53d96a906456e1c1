"""Throughput and latency of one message channel QM1 -> QM2 (issue 15), beside the put rate of the
same client into a local queue in the same run.

Two real queue manager processes in a temporary MQLITE_HOME (``crtmqm -p 0``, ``strmqm``), linked
as IBM links them: on QM1 a transmission queue named after QM2, a sender channel ``QM1.TO.QM2``
to QM2's TCP port and a remote queue definition ``TO.APP.IN`` for QM2's ``APP.IN``; on QM2 a
receiver channel of the same name, admitted by a CHLAUTH QMGRMAP record for QM1. The client
connects to each over its Unix socket (the local binding). What is measured:

- ``local``: one client puts N messages into a local queue on QM1 with MQPMO_ASYNC_RESPONSE (as a
  streaming producer would), the last one synchronously: for persistent messages its reply comes
  once everything before it is durable. Rate = N / (last put's reply - first put).
- ``channel``: the channel alone. STOP CHANNEL, fill QM1's transmission queue with N messages
  through ``TO.APP.IN`` (the same asynchronous puts), then START CHANNEL and time until the sender
  has had all N confirmed by the receiver (``DISPLAY CHSTATUS MSGS`` on QM1; a batch is confirmed
  once it is committed, durably, on QM2). The clock runs from START, so it includes the channel's
  start (TCP connect, HELLO, STATUS: a few milliseconds). Rate = N / drain time. The end is found
  by polling QM2's CURDEPTH with MQINQ on an open handle, then QM1's CHSTATUS, every 5 ms.
- ``end_to_end``: the channel running and idle; the client puts N messages on QM1 as for
  ``local`` and the clock stops when all N are confirmed on QM2 (``put_per_s`` is how fast the
  client got its puts accepted meanwhile).
- ``latency``: one message at a time: a synchronous put on QM1 (persistent: durable on QM1 before
  it returns) and an MQGET already waiting on QM2 (another connection, in a thread); median and
  p99 of put-call-to-get-return over 200 round trips, after 10 to warm up. ``local_latency`` is
  the reference: the same put and waiting get on one local queue of QM1, no channel.
- ``fsync_per_s``: this disk's one-write-one-fsync rate at the start of the run (the physical
  reference: every batch waits for a durable write on each queue manager).

The matrix: persistent and non-persistent x 256 B and 4 KB at BATCHSZ(50) NPMSPEED(FAST) (IBM's
defaults), then BATCHSZ 1, 50, 500 x NPMSPEED FAST and NORMAL (set on both ends) for 256 B messages,
persistent and not, throughput and latency. ``ratios`` are the channel rate over the local rate
for the same persistence and size, against the issue's target of 0.70. Every throughput figure is
taken in 3 interleaved rounds (the VM is shared and drifts) and the median reported (``runs`` has
all three); latency samples are pooled over the rounds.

Usage: ``python bench/channels.py [--quick] [--repeats N] [--pipeline 1|2] [--plot docs/channels.svg]`` (about
2.5 minutes on 2 cores; ``--quick``: one small round, about 10 s). Progress on stderr; one JSON
line on stdout.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fsync_rate import fsync_rate
from mqlite_cli import run as cli
from streaming import put_stream

import mqlite
from mqlite import cmqc as C

QM1, QM2 = "BENCH.QM1", "BENCH.QM2"
CHANNEL = "QM1.TO.QM2"
XMITQ = QM2  # IBM's convention: the transmission queue is named after the queue manager it leads to
TARGET = 0.70
POLL = 0.005
SIZES = (256, 4096)
BATCH_SIZES = (1, 50, 500)
SPEEDS = ("FAST", "NORMAL")
MAXDEPTH = 1_000_000

console = Console(stderr=True)


# -- queue managers --------------------------------------------------------------------------------
def mqsc(qm: mqlite.QueueManager, text: str) -> list[str]:
    code, lines = qm.mqsc(text)
    if code:
        raise RuntimeError("\n".join(lines))
    return lines


def setup(home: Path, pipeline: int | None = None) -> None:
    """Both queue managers started and linked (the sender STOPPED until a measurement starts it);
    ``pipeline``: qm.ini ``CHANNELS: PipeLineLength`` on both (mqlite's default is 2)."""
    for name in (QM1, QM2):
        cli(home, "crtmqm", "-p", "0", name)
        if pipeline is not None:
            (home / "qmgrs" / name / "qm.ini").write_text(f"CHANNELS:\n   PipeLineLength={pipeline}\n")
        cli(home, "strmqm", name)
    port2 = int(json.loads((home / "qmgrs" / QM2 / "listeners.json").read_text())["tcp"])
    cli(home, "runmqsc", QM1, stdin=(
        f"DEFINE QLOCAL({XMITQ}) USAGE(XMITQ) MAXDEPTH({MAXDEPTH})\n"
        f"DEFINE CHANNEL({CHANNEL}) CHLTYPE(SDR) CONNAME('127.0.0.1({port2})') XMITQ({XMITQ})\n"
        f"STOP CHANNEL({CHANNEL})\n"
        f"DEFINE QREMOTE(TO.APP.IN) RNAME(APP.IN) RQMNAME({QM2}) XMITQ({XMITQ})\n"
        f"DEFINE QLOCAL(LOCAL.Q) MAXDEPTH({MAXDEPTH})\n"))
    cli(home, "runmqsc", QM2, stdin=f"DEFINE CHANNEL({CHANNEL}) CHLTYPE(RCVR)\n"
                                    f"SET CHLAUTH({CHANNEL}) TYPE(QMGRMAP) QMNAME({QM1}) USERSRC(CHANNEL)\n"
                                    f"DEFINE QLOCAL(APP.IN) MAXDEPTH({MAXDEPTH})\n")


def qmgr_pids(home: Path) -> dict[str, int]:
    pids = {}
    for name in (QM1, QM2):
        path = home / "qmgrs" / name / "qmgr.pid"
        if path.exists():
            pids[name] = int(path.read_text().split()[0])
    return pids


class Link:
    """Administrative connections to both queue managers and the channel's controls."""

    def __init__(self) -> None:
        self.qm1 = mqlite.connect(QM1)
        self.qm2 = mqlite.connect(QM2)
        self.app_in = mqlite.Queue(self.qm2, "APP.IN", C.MQOO_INQUIRE)
        self.anomalies: list[dict[str, Any]] = []

    def close(self) -> None:
        self.app_in.close()
        self.qm1.disconnect()
        self.qm2.disconnect()

    def sender_status(self) -> tuple[str, int]:
        """The sender's STATUS and MSGS (messages confirmed since it started)."""
        _, lines = self.qm1.mqsc(f"DISPLAY CHSTATUS({CHANNEL}) STATUS MSGS\n")  # none: AMQ8420I, inactive
        shown = "\n".join(lines)
        status = re.search(r"\bSTATUS\((\w+)\)", shown)
        msgs = re.search(r"\bMSGS\((\d+)\)", shown)
        return (status[1] if status else "INACTIVE"), (int(msgs[1]) if msgs else 0)

    def stop(self) -> None:
        mqsc(self.qm1, f"STOP CHANNEL({CHANNEL})\n")
        deadline = time.monotonic() + 30
        while self.sender_status()[0] not in ("STOPPED", "INACTIVE"):
            if time.monotonic() > deadline:
                raise RuntimeError("the sender did not stop")
            time.sleep(0.01)
        deadline = time.monotonic() + 10
        while self.receiver_running():  # the receiver ends when the sender's CLOSE arrives
            if time.monotonic() > deadline:
                self.receiver_left_running()
                break
            time.sleep(0.01)

    def receiver_left_running(self) -> None:
        """The receiver outlived its stopped sender: note what both ends show, then end it from QM2."""
        shown = {"qm1": self.qm1.mqsc(f"DISPLAY CHSTATUS({CHANNEL}) ALL\n")[1],
                 "qm2": self.qm2.mqsc(f"DISPLAY CHSTATUS({CHANNEL}) ALL\n")[1],
                 "sockets": subprocess.run(["ss", "-tn"], capture_output=True, text=True, check=False).stdout}
        self.anomalies.append({"what": "receiver still running 10 s after STOP CHANNEL of its sender",
                               "at": time.strftime("%H:%M:%S"), **shown})
        console.print(f"[yellow]the receiver did not end with its sender[/]: {shown}")
        mqsc(self.qm2, f"STOP CHANNEL({CHANNEL})\n")
        mqsc(self.qm2, f"START CHANNEL({CHANNEL})\n")  # a stopped receiver refuses its partner until started
        deadline = time.monotonic() + 30
        while self.receiver_running():
            if time.monotonic() > deadline:
                raise RuntimeError("the receiver did not end after STOP CHANNEL on QM2 either")
            time.sleep(0.01)

    def receiver_running(self) -> bool:
        _, lines = self.qm2.mqsc(f"DISPLAY CHSTATUS({CHANNEL}) STATUS\n")
        shown = "\n".join(lines)
        return "STATUS(RUNNING)" in shown or "STATUS(STARTING)" in shown

    def start(self, wait_running: bool = False) -> None:
        mqsc(self.qm1, f"START CHANNEL({CHANNEL})\n")
        deadline = time.monotonic() + 30
        while wait_running and self.sender_status()[0] != "RUNNING":
            if time.monotonic() > deadline:
                raise RuntimeError("the sender did not reach RUNNING")
            time.sleep(0.005)

    def configure(self, batchsz: int, npmspeed: str) -> None:
        """BATCHSZ and NPMSPEED on both ends; the channel is left STOPPED (negotiated at its next start)."""
        self.stop()
        mqsc(self.qm1, f"ALTER CHANNEL({CHANNEL}) CHLTYPE(SDR) BATCHSZ({batchsz}) NPMSPEED({npmspeed})\n")
        mqsc(self.qm2, f"ALTER CHANNEL({CHANNEL}) CHLTYPE(RCVR) BATCHSZ({batchsz}) NPMSPEED({npmspeed})\n")

    def wait_delivered(self, count: int, confirmed_before: int = 0, timeout: float = 120) -> float:
        """Poll until QM2's APP.IN holds ``count`` and the sender has had them all confirmed; the time then."""
        deadline = time.monotonic() + timeout
        while self.app_in.depth < count:
            if time.monotonic() > deadline:
                raise RuntimeError(f"only {self.app_in.depth} of {count} messages arrived")
            time.sleep(POLL)
        while self.sender_status()[1] - confirmed_before < count:
            if time.monotonic() > deadline:
                raise RuntimeError("the last batch was not confirmed")
            time.sleep(POLL)
        return time.perf_counter()

    def clear(self) -> None:
        mqsc(self.qm2, "CLEAR QLOCAL(APP.IN)\n")
        mqsc(self.qm1, "CLEAR QLOCAL(LOCAL.Q)\n")


# -- the client's puts -----------------------------------------------------------------------------
def local_rate(link: Link, count: int, size: int, persistent: bool) -> float:
    seconds = put_stream(link.qm1, "LOCAL.Q", count, size, persistent)
    link.clear()
    return count / seconds


def channel_rate(link: Link, count: int, size: int, persistent: bool) -> float:
    """The channel alone: fill the stopped channel's transmission queue, START, time until all are across."""
    link.stop()
    put_stream(link.qm1, "TO.APP.IN", count, size, persistent)
    began = time.perf_counter()
    link.start()
    ended = link.wait_delivered(count)
    link.clear()
    return count / (ended - began)


def end_to_end(link: Link, count: int, size: int, persistent: bool) -> dict[str, float]:
    """The channel running; puts on QM1 until all are confirmed on QM2."""
    link.start(wait_running=True)
    before = link.sender_status()[1]
    began = time.perf_counter()
    put_seconds = put_stream(link.qm1, "TO.APP.IN", count, size, persistent)
    ended = link.wait_delivered(count, before)
    link.clear()
    return {"msgs_per_s": round(count / (ended - began)), "put_per_s": round(count / put_seconds)}


def latency(link: Link, rounds: int, size: int, persistent: bool, local: bool = False) -> list[float]:
    """Put one message on QM1, a waiting MQGET on QM2 gets it: ``rounds`` times, in milliseconds.
    ``local``: the reference, the same on one queue of QM1 (no channel)."""
    put_queue, get_qmgr, get_queue = ("LOCAL.Q", QM1, "LOCAL.Q") if local else ("TO.APP.IN", QM2, "APP.IN")
    if not local:
        link.start(wait_running=True)
    arrivals: queue.Queue[float] = queue.Queue()
    warm = 10
    ready = threading.Event()

    def consume() -> None:
        with mqlite.connect(get_qmgr) as qm, mqlite.Queue(qm, get_queue, C.MQOO_INPUT_SHARED) as q:
            gmo = mqlite.GMO(Options=C.MQGMO_WAIT | C.MQGMO_NO_SYNCPOINT, WaitInterval=30_000)
            ready.set()
            for _ in range(warm + rounds):
                q.get(None, mqlite.MD(), gmo)
                arrivals.put(time.perf_counter())

    consumer = threading.Thread(target=consume, daemon=True)
    consumer.start()
    ready.wait(30)
    persistence = C.MQPER_PERSISTENT if persistent else C.MQPER_NOT_PERSISTENT
    body = b"l" * size
    samples = []
    with mqlite.Queue(link.qm1, put_queue, C.MQOO_OUTPUT) as q:
        for i in range(warm + rounds):
            began = time.perf_counter()
            q.put(body, mqlite.MD(Persistence=persistence), mqlite.PMO(Options=C.MQPMO_NO_SYNCPOINT))
            arrived = arrivals.get(timeout=30)
            if i >= warm:
                samples.append((arrived - began) * 1000)
    consumer.join(30)
    return samples


def latency_summary(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {"median_ms": round(statistics.median(ordered), 3),
            "p99_ms": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))], 3)}


# -- the run ---------------------------------------------------------------------------------------
def label(persistent: bool, size: int) -> str:
    return f"{'p' if persistent else 'np'}_{size}"


@contextmanager
def queue_managers(pipeline: int | None = None) -> Iterator[tuple[Path, Link]]:
    with tempfile.TemporaryDirectory(prefix="mqlite-bench-channels-") as tmp:
        home = Path(tmp)
        os.environ["MQLITE_HOME"] = str(home)
        try:
            setup(home, pipeline)
            link = Link()
            try:
                yield home, link
            finally:
                link.close()
        except BaseException:
            for name in (QM1, QM2):  # what the queue managers said, before the directory goes
                log = home / "qmgrs" / name / "AMQERR01.LOG"
                if log.exists():
                    console.print(f"[bold]{name} AMQERR01.LOG (end)[/]\n" + log.read_text()[-4000:], markup=True)
            raise
        finally:
            for name in (QM2, QM1):
                subprocess.run([sys.executable, "-m", "mqlite.cli.main", "endmqm", "-i", name],
                               env={**os.environ, "MQLITE_HOME": str(home)}, capture_output=True, check=False)


def measure(quick: bool, repeats: int, pipeline: int | None = None) -> dict[str, Any]:
    """Every figure ``repeats`` times, rounds interleaved (the shared VM drifts); medians reported."""
    n = 2_000 if quick else 20_000  # per throughput figure at BATCHSZ 50 and 500
    n_batch1 = {False: 500, True: 300} if quick else {False: 4_000, True: 2_000}
    rounds = 40 if quick else 200
    per_repeat = -(-rounds // repeats)
    matrix = [(p, s) for p in (False, True) for s in SIZES]
    sweep = [(b, speed, p) for b in BATCH_SIZES for speed in SPEEDS for p in (False, True)]
    runs: dict[str, list[float]] = {}
    waits: dict[tuple[int, str, bool], list[float]] = {}
    local_waits: dict[bool, list[float]] = {}
    steps = repeats * (len(matrix) * 3 + 2 + len(sweep) * 2)
    progress = Progress(TextColumn("{task.description:<46}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                        TimeElapsedColumn(), console=console)
    with queue_managers(pipeline) as (home, link), progress:
        pids = qmgr_pids(home)
        fsyncs = fsync_rate(home, 1.0)  # the disk's one-write-one-fsync rate now, the physical reference
        task = progress.add_task("starting", total=steps)

        def record(key: str, text: str, figure: Callable[..., Any], *args: Any) -> None:
            progress.update(task, description=f"round {round_ + 1}/{repeats}: {text}")
            runs.setdefault(key, []).append(figure(link, *args))
            progress.advance(task)

        for round_ in range(repeats):
            # The matrix at IBM's defaults, BATCHSZ(50) NPMSPEED(FAST).
            link.configure(50, "FAST")
            for persistent, size in matrix:
                name = label(persistent, size)
                record(f"local/{name}", f"local {name}", local_rate, n, size, persistent)
                record(f"channel/{name}", f"channel {name}", channel_rate, n, size, persistent)
                record(f"end_to_end/{name}", f"end to end {name}", end_to_end, n, size, persistent)
                if size == 256:  # the reference for the channel's latency: put and waiting get on one queue
                    progress.update(task, description=f"round {round_ + 1}/{repeats}: local latency {name}")
                    local_waits.setdefault(persistent, []).extend(latency(link, per_repeat, 256, persistent, True))
                    progress.advance(task)
            # BATCHSZ x NPMSPEED, 256-byte messages: throughput, then latency.
            for batchsz, speed, persistent in sweep:
                if not persistent:
                    link.configure(batchsz, speed)
                count = n_batch1[persistent] if batchsz == 1 else n
                name = f"{label(persistent, 256)} BATCHSZ {batchsz} {speed}"
                record(f"sweep/{batchsz}/{speed}/{persistent}", f"channel {name}", channel_rate, count, 256, persistent)
                progress.update(task, description=f"round {round_ + 1}/{repeats}: latency {name}")
                waits.setdefault((batchsz, speed, persistent), []).extend(latency(link, per_repeat, 256, persistent))
                progress.advance(task)
        progress.update(task, description="done")
    return summarize(runs, waits, {"cpus": os.cpu_count(), "repeats": repeats, "messages": n,
                                   "pipeline": pipeline or 2,
                                   "messages_batchsz_1": {"np": n_batch1[False], "p": n_batch1[True]},
                                   "latency_round_trips": per_repeat * repeats, "qmgr_pids": pids,
                                   "fsync_per_s": round(fsyncs), "anomalies": link.anomalies,
                                   "local_latency": {("p" if p else "np"): latency_summary(w)
                                                     for p, w in local_waits.items()}})


def summarize(runs: dict[str, list[Any]], waits: dict[tuple[int, str, bool], list[float]],
              results: dict[str, Any]) -> dict[str, Any]:
    """Medians of the runs, the ratios against the target, the sweep's rows."""
    def median(key: str) -> int:
        return round(statistics.median(runs[key]))

    results.update(target_ratio=TARGET, local={}, channel={}, end_to_end={}, ratios={}, sweep=[], runs={})
    for name in (label(p, s) for p in (False, True) for s in SIZES):
        local, channel = median(f"local/{name}"), median(f"channel/{name}")
        e2e = [r["msgs_per_s"] for r in runs[f"end_to_end/{name}"]]
        results["local"][name], results["channel"][name] = local, channel
        results["end_to_end"][name] = {
            "msgs_per_s": round(statistics.median(e2e)),
            "put_per_s": round(statistics.median(r["put_per_s"] for r in runs[f"end_to_end/{name}"]))}
        results["ratios"][name] = {"channel_over_local": round(channel / local, 3),
                                   "end_to_end_over_local": round(results["end_to_end"][name]["msgs_per_s"] / local, 3),
                                   "met": channel / local >= TARGET}
        results["runs"][name] = {"local": runs[f"local/{name}"], "channel": [round(r) for r in runs[f"channel/{name}"]],
                                 "end_to_end": e2e}
    for kind in ("np", "p"):
        ratios = [results["ratios"][label(kind == "p", s)]["channel_over_local"] for s in SIZES]
        results[f"target_{kind}"] = {"worst_ratio": min(ratios), "target": TARGET, "met": min(ratios) >= TARGET}
    for (batchsz, speed, persistent), samples in waits.items():
        key = f"sweep/{batchsz}/{speed}/{persistent}"
        results["sweep"].append({"batchsz": batchsz, "npmspeed": speed, "persistence": "p" if persistent else "np",
                                 "msgs_per_s": median(key), "runs": [round(r) for r in runs[key]],
                                 **latency_summary(samples)})
    for kind in ("local", "channel"):
        for values in results["runs"].values():
            values[kind] = [round(v) for v in values[kind]]
    return results


# -- the plot --------------------------------------------------------------------------------------
SERIES = [("np", "FAST"), ("np", "NORMAL"), ("p", "FAST"), ("p", "NORMAL")]
NAMES = {"np": "non-persistent", "p": "persistent"}


def sweep_value(results: dict[str, Any], persistence: str, speed: str, batchsz: int, key: str) -> float:
    for row in results["sweep"]:
        if (row["persistence"], row["npmspeed"], row["batchsz"]) == (persistence, speed, batchsz):
            return float(row[key])
    return 0.0


def plot(results: dict[str, Any], target: Path) -> None:
    try:
        import matplotlib
    except ImportError:
        target.write_text(plain_svg(results))
        return
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax0, ax1, ax2) = plt.subplots(1, 3, figsize=(15, 4.6))
    names = list(results["local"])
    width = 0.27
    for i, (key, title) in enumerate((("local", "local queue (client puts)"), ("channel", "channel drain"),
                                      ("end_to_end", "end to end"))):
        values = [results[key][c]["msgs_per_s"] if key == "end_to_end" else results[key][c] for c in names]
        ax0.bar([x + (i - 1) * width for x in range(len(names))], values, width, label=title)
    for x, c in enumerate(names):  # the target: 70% of the local rate
        ax0.hlines(TARGET * results["local"][c], x - 0.4, x + 0.4, colors="black", linestyles="dashed",
                   label=f"{TARGET:.0%} of local (target)" if x == 0 else None)
    ax0.set_xticks(range(len(names)), [c.replace("_", " ") + " B" for c in names])
    ax0.set_ylabel("messages per second")
    ax0.set_title("BATCHSZ 50, NPMSPEED FAST")
    ax0.legend(fontsize=8)
    width = 0.2
    for i, (persistence, speed) in enumerate(SERIES):
        xs = [x + (i - 1.5) * width for x in range(len(BATCH_SIZES))]
        rates = [sweep_value(results, persistence, speed, b, "msgs_per_s") for b in BATCH_SIZES]
        medians = [sweep_value(results, persistence, speed, b, "median_ms") for b in BATCH_SIZES]
        p99 = [sweep_value(results, persistence, speed, b, "p99_ms") for b in BATCH_SIZES]
        text = f"{NAMES[persistence]}, {speed}"
        bars = ax1.bar(xs, rates, width, label=text)
        ax1.bar_label(bars, [f"{r / 1000:.1f}k" for r in rates], fontsize=6)
        ax2.bar(xs, medians, width, label=text)
        ax2.scatter(xs, p99, marker="_", s=120, color="black", zorder=3, label="p99" if i == 0 else None)
    for persistence, style in (("np", "dotted"), ("p", "dashed")):
        if persistence in results.get("local_latency", {}):
            ax2.axhline(results["local_latency"][persistence]["median_ms"], color="grey", linestyle=style,
                        label=f"local queue, {NAMES[persistence]} (median)")
    for ax in (ax1, ax2):
        ax.set_xticks(range(len(BATCH_SIZES)), [f"BATCHSZ {b}" for b in BATCH_SIZES])
        ax.legend(fontsize=8)
    ax1.set_ylabel("messages per second")
    ax1.set_title("channel drain by BATCHSZ, 256 B")
    ax2.set_ylabel("milliseconds, put on QM1 to get on QM2")
    ax2.set_title("latency by BATCHSZ, 256 B (bar median, dash p99)")
    fig.suptitle(f"mqlite message channel QM1 -> QM2, {results['cpus']} cores")
    fig.tight_layout()
    fig.savefig(target)


def plain_svg(results: dict[str, Any]) -> str:
    """Without matplotlib: the BATCHSZ sweep's throughput as bars, by hand."""
    rows = [(f"{NAMES[p]} {s} BATCHSZ {b}", sweep_value(results, p, s, b, "msgs_per_s"),
             sweep_value(results, p, s, b, "median_ms")) for p, s in SERIES for b in BATCH_SIZES]
    top = max(r[1] for r in rows) or 1.0
    bars = []
    for i, (text, rate, median) in enumerate(rows):
        y = 30 + i * 22
        bars.append(f'<text x="5" y="{y + 14}" font-size="12">{text}</text>'
                    f'<rect x="260" y="{y}" width="{400 * rate / top:.1f}" height="16" fill="#4477aa"/>'
                    f'<text x="{265 + 400 * rate / top:.1f}" y="{y + 14}" font-size="12">{rate:,.0f}/s, '
                    f'{median:.2f} ms median</text>')
    height = 40 + len(rows) * 22
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="900" height="{height}">'
            '<text x="5" y="18" font-size="14">mqlite channel QM1 -&gt; QM2, 256 B, messages per second</text>'
            + "".join(bars) + "</svg>\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run: fewer messages and round trips")
    parser.add_argument("--plot", type=Path, help="write an SVG of the figures here")
    parser.add_argument("--repeats", type=int, help="rounds of every figure (default 3, 1 with --quick)")
    parser.add_argument("--pipeline", type=int, choices=(1, 2),
                        help="qm.ini CHANNELS: PipeLineLength on both queue managers (default: mqlite's, 2)")
    args = parser.parse_args()
    started = time.monotonic()
    results = measure(args.quick, args.repeats or (1 if args.quick else 3), args.pipeline)
    results["date"] = time.strftime("%Y-%m-%d %H:%M %Z")
    results["seconds"] = round(time.monotonic() - started, 1)
    if args.plot:
        plot(results, args.plot)
    print(json.dumps(results))


if __name__ == "__main__":
    main()
