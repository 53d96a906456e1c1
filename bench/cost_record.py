"""``bench/cost.py --record``: docs/PERFORMANCE.md's section "Issue 34: the measuring stick" and
bench/cost_baseline.json (the figures tests/integration/test_cost_regression.py holds later runs to)."""

from __future__ import annotations

import datetime
import json
import os
import subprocess
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BASELINE = ROOT / "bench" / "cost_baseline.json"
PERFORMANCE = ROOT / "docs" / "PERFORMANCE.md"
HEADING = "## Issue 34: the measuring stick"


METHOD = [
    "The method. The queue manager (`python -m mqlite.server QM`, as strmqm starts it: MQLITE_HOME",
    "absolute, its own directory as working directory) runs under `valgrind --tool=callgrind",
    "--trace-children=no --collect-systime=no --cache-sim=no --branch-sim=no --separate-threads=yes`",
    "(a file per thread: the store's writer thread's share is the busiest thread but the main one);",
    "the clients (bench/cost_clients.py) run natively, each in its own process. Busy polling off",
    "(`MQLITE_BUSY_POLL_US=0`), CPU placement off (`MQLITE_CPU_PLACEMENT=off`), `PYTHONHASHSEED=0`, and",
    "the server's wall clock frozen at 2026-01-01T00:00:00Z by bench/frozen_clock.c (LD_PRELOAD:",
    "`clock_gettime(CLOCK_REALTIME)`, `gettimeofday` and `time`; monotonic clocks run), which valgrind",
    "passes to the program it runs: case a's client checks that a message's PutDate/PutTime are",
    "20260101/00000000. What a frozen wall clock changes: expiry (the queue manager's clock is",
    "`time.time`) never comes, so no case uses Expiry; the store keeps no wall-clock time it",
    "acts on; TLS certificate validity would be judged at the frozen instant (no case uses TLS);",
    "the one-second housekeeping, the store's group gathering and channel batch intervals run on",
    "monotonic time and are untouched. Channel cases fill the transmission queue before the",
    "sender channel is defined (a defined sender starts by itself once its transmission queue",
    "holds a message) and then define and start it, so that batches are full (BATCHSZ 50) whatever the",
    "timing; e = e_drain - e_put (the sending queue manager beyond its put), g/local = g over",
    "g_local (a local persistent put on the same cluster member).",
    "bench/events_callgrind.py and bench/stats_cost.py are thin users of this runner",
    "(`cost.server_run`), so the method lives in one place; their command lines are as before, but",
    "they now measure 256-byte messages on a queue of their own with the wall clock frozen and",
    "busy polling off, so their figures are comparable with case a, not with issue 33's.",
]


SPREAD = [
    "The spread (first recording, 2026-12-02, load average 6-9 on the two shared CPUs). The",
    "single-threaded non-persistent cases repeat to 0.0004% (a), 0.06% (b) and 0.07% (d1), and the",
    "echo server exactly: the frozen clock, the fixed hash seed and busy polling off leave little",
    "to move (ASLR does not: valgrind lays the process out the same each run). Above 0.1%: the",
    "persistent cases (c 0.41%, g_local 0.56%, g 0.66%), where the per-thread figures show the",
    "writer thread steady (c: 260,803 and 260,621) and the main thread moving (357,939 and",
    "355,579), which points (not proved) at the event loop: how often it is asleep in epoll when",
    "the writer's completion arrives, and so how many wake-ups a message costs, follows the two",
    "threads' timing, which valgrind's serialisation of threads and a loaded machine change. d5's",
    "0.22% (one thread) is not explained, nor are the cases with two queue managers. f (19%) and e_put",
    "(2.6%) differ most in their M-runs' totals (57 and 64 million Ir: the fixed part, not the",
    "messages), so their per-message figures carry that /2,000. For f it is an occasional lump: two",
    "more M-runs afterwards counted 1,362.44 and 1,362.37 million, as the first did (1,362.59), and",
    "the second's 1,420.23 stands alone (a repeat of the case is what settles f: 193,329 is its",
    "figure without the lump). e = e_drain - e_put (15k) is inside",
    "the spread of its terms and is not resolved. Not the idle timers: a queue manager left idle",
    "30 s longer under callgrind costs 3.4 million Ir (~115k a second), and one with 1,000",
    "messages on a stopped channel's transmission queue no more. A frozen monotonic clock would",
    "stop every timer the server waits on, so it is not the remedy; running each two-queue-manager",
    "case more times, or with N and M further apart, is. The baseline test's 3% is above every",
    "single-queue-manager spread (a and c are the cases it holds).",
]


def baseline_key(build: str) -> str:
    """Where a build's figures go in the baseline: ``cases`` for the compiled hot modules (what
    make test builds), ``pure_cases`` for the pure-Python package (a tree loading its sources)."""
    return "cases" if build == "compiled" else "pure_cases"


def record(results: list[dict[str, Any]], argv: list[str]) -> None:
    baseline = json.loads(BASELINE.read_text()) if BASELINE.exists() else {"cases": {}}
    for result in results:
        if "runs" not in result:
            continue
        key = baseline_key(str(result.get("build", "pure")))
        baseline.setdefault(key, {})[result["case"]] = {
            "per_message": result["per_message"], "spread": result["spread"], "N": result["N"], "M": result["M"]}
        baseline.setdefault("commits", {})[key] = _commit()
    BASELINE.write_text(json.dumps(baseline, indent=2, sort_keys=True) + "\n")
    text = PERFORMANCE.read_text()
    start = text.find(HEADING)
    section = _section(results, argv)
    if start < 0:
        PERFORMANCE.write_text(text.rstrip("\n") + "\n\n" + section)
        return
    end = text.find("\n## ", start + len(HEADING))
    PERFORMANCE.write_text(text[:start] + section + (text[end + 1:] if end >= 0 else ""))


def _commit() -> str:
    """The measured tree's commit: COST_COMMIT when --src was a snapshot of another one."""
    if os.environ.get("COST_COMMIT"):
        return os.environ["COST_COMMIT"]
    done = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    return done.stdout.strip()


def _k(value: float) -> str:
    return f"{value / 1000:,.1f}k"


def _section(results: list[dict[str, Any]], argv: list[str]) -> str:
    when = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    lines = [HEADING, "",
             f"Written by `python bench/cost.py {' '.join(argv)}` at {when} on {_commit()} (the method: the",
             "docstring of bench/cost.py; callgrind's Ir of the queue manager process, per message =",
             "(Ir(N) - Ir(M)) / (N - M), each case run twice; spread = (max - min) / mean of the two).", "",
             "| case | Ir per message | runs | spread | N / M |", "|---|---:|---|---:|---|"]
    for result in results:
        if "runs" not in result:  # a difference of two cases above
            lines.append(f"| {result['case']}. {result['title']} | {result['per_message']:,} | (difference) | | |")
            continue
        runs = " · ".join(f"{run['per_message']:,}" for run in result["runs"])
        share = f" (writer thread {result['writer_share'] * 100:.0f}%)" if result.get("writer_share", 0) >= 0.01 else ""
        lines.append(f"| {result['case']}. {result['title']}{share} | {result['per_message']:,} | {runs} | "
                     f"{result['spread'] * 100:.2f}% | {result['N']:,} / {result['M']:,} |")
    lines += ["", *METHOD, "", *SPREAD]
    notes = [result for result in results if result.get("note")]
    if notes:
        lines.append("")
        lines += [f"- {result['case']}: {result['note']}" for result in notes]
    for result in results:
        if result["case"] not in ("a", "c") or not result.get("functions"):
            continue
        lines += ["", f"Case {result['case']}, per message, the 25 dearest functions by exclusive Ir (the N-run's "
                      "callgrind files minus the M-run's, divided by N - M; inclusive over-counts through "
                      "recursion, the interpreter loop most):", "",
                  "| function | exclusive | inclusive |", "|---|---:|---:|"]
        lines += [f"| `{row['fn']}` | {row['exclusive']:,} | {row['inclusive']:,} |" for row in result["functions"]]
    return "\n".join(lines) + "\n"
