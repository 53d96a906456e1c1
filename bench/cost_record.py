"""``bench/cost.py --record``: docs/PERFORMANCE.md's section "Issue 34: the measuring stick" and
bench/cost_baseline.json (the figures tests/integration/test_cost_regression.py holds later runs to)."""

from __future__ import annotations

import datetime
import json
import subprocess
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BASELINE = ROOT / "bench" / "cost_baseline.json"
PERFORMANCE = ROOT / "docs" / "PERFORMANCE.md"
HEADING = "## Issue 34: the measuring stick"


def record(results: list[dict[str, Any]], argv: list[str]) -> None:
    baseline = json.loads(BASELINE.read_text()) if BASELINE.exists() else {"cases": {}}
    for result in results:
        if "runs" not in result:
            continue
        baseline["cases"][result["case"]] = {"per_message": result["per_message"], "spread": result["spread"],
                                             "N": result["N"], "M": result["M"]}
    baseline["commit"] = _commit()
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
        share = f" (writer thread {result['writer_share'] * 100:.0f}%)" if "writer_share" in result else ""
        lines.append(f"| {result['case']}. {result['title']}{share} | {result['per_message']:,} | {runs} | "
                     f"{result['spread'] * 100:.2f}% | {result['N']:,} / {result['M']:,} |")
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
