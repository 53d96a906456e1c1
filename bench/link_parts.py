"""One hierarchy link taken apart (issue 17's benchmark, read per process): what each queue
manager spends per publication in each part of the way, so that ``bench/links.py``'s ratio can be
explained rather than guessed at.

The same four queue managers as ``bench/links.py`` (P1 publishes; H2 is its child, subscriber
queue HIERARCHY.Q; the route pair R1/R2 idle). M persistent 256-byte publications, asynchronous
puts, in four phases:

- ``local``: to a subscriber on P1 itself (the reference rate);
- ``publish_to_xmitq``: to H2's subscriber with P1.TO.H2 stopped: P1's publisher, its forward
  plan and the copy put on the transmission queue, no channel work;
- ``drain``: P1.TO.H2 started, nothing published: the sender on P1, the receiver and the
  SYSTEM.INTER.QMGR.PUBS agent on H2, until H2's subscriber queue holds them all;
- ``together``: publishing and the link at once (what ``bench/links.py`` measures).

Each phase gives publications/s, P1's and H2's CPU in microseconds per publication, and how busy
the machine's CPUs were. ``p1_ceiling_to_local``: the hierarchy rate over the local rate if P1's
one interpreter did nothing but its two parts at the measured costs (the publisher's copy and
the sender), with nothing ever waiting: local cost / (publish cost + sender cost).

Usage: ``python bench/link_parts.py [--messages 20000] [--rounds 1]``; one JSON object on stdout.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from rich.console import Console

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cpu import CpuMark
from dpubsub import drain, exactly_once, publish_stream
from links import depth, four_queue_managers, mqsc, shown, until

import mqlite.client as mqlite

console = Console(stderr=True)
PHASES = ("local", "publish_to_xmitq", "drain", "together")


def _phase(pids: dict[str, int], count: int, began: float, mark: CpuMark) -> dict[str, Any]:
    cpu = mark.per_message(pids, count, own="bench")
    return {"publications_per_s": round(count / (time.perf_counter() - began)),
            "cpu_us_per_publication": {name: cpu[name] for name in ("P1", "H2", "bench")},
            "cpus_busy": cpu["cpus_busy"]}


def one_round(conns: dict[str, mqlite.QueueManager], pids: dict[str, int], count: int) -> dict[str, Any]:
    found: dict[str, Any] = {}
    problems: list[str] = []

    def delivered(name: str, queue: str) -> None:
        until(f"{count} on {name}'s {queue}", lambda: depth(conns[name], queue) >= count, 600.0)

    mark, began = CpuMark.now(pids), time.perf_counter()
    publish_stream(conns["P1"], count, "Local/x")
    delivered("P1", "LOCAL.Q")
    found["local"] = _phase(pids, count, began, mark)
    problems.append(exactly_once(drain(conns["P1"], "LOCAL.Q"), count) or "")

    mqsc(conns, "P1", "STOP CHANNEL(P1.TO.H2)\n")
    until("P1.TO.H2 stopped", lambda: "STATUS(RUNNING)" not in shown(conns, "P1", "DISPLAY CHSTATUS(P1.TO.H2)\n"))
    mark, began = CpuMark.now(pids), time.perf_counter()
    publish_stream(conns["P1"], count, "Hier/x")
    delivered("P1", "H2")  # (every copy on the transmission queue)
    found["publish_to_xmitq"] = _phase(pids, count, began, mark)

    mark, began = CpuMark.now(pids), time.perf_counter()
    mqsc(conns, "P1", "START CHANNEL(P1.TO.H2)\n")
    delivered("H2", "HIERARCHY.Q")
    found["drain"] = _phase(pids, count, began, mark)
    problems.append(exactly_once(drain(conns["H2"], "HIERARCHY.Q"), count) or "")

    mark, began = CpuMark.now(pids), time.perf_counter()
    publish_stream(conns["P1"], count, "Hier/x")
    delivered("H2", "HIERARCHY.Q")
    found["together"] = _phase(pids, count, began, mark)
    problems.append(exactly_once(drain(conns["H2"], "HIERARCHY.Q"), count) or "")
    found["problems"] = [p for p in problems if p]
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=20000)
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    rounds: list[dict[str, Any]] = []
    with four_queue_managers("mqlite-link-parts-", warm_up=("local", "hierarchy")) as (pids, conns), \
            console.status("") as status:
        for number in range(args.rounds):
            status.update(f"round {number + 1}/{args.rounds}: {args.messages:,} publications per phase")
            rounds.append(one_round(conns, pids, args.messages))
    result: dict[str, Any] = {"messages": args.messages, "rounds": args.rounds, "size": 256, "persistent": True}
    for phase in PHASES:
        result[phase] = {
            "publications_per_s": statistics.median(r[phase]["publications_per_s"] for r in rounds),
            "cpu_us_per_publication": {name: statistics.median(r[phase]["cpu_us_per_publication"][name]
                                                               for r in rounds) for name in ("P1", "H2", "bench")},
            "cpus_busy": statistics.median(r[phase]["cpus_busy"] for r in rounds)}
    local_p1 = result["local"]["cpu_us_per_publication"]["P1"]
    p1_link = (result["publish_to_xmitq"]["cpu_us_per_publication"]["P1"]
               + result["drain"]["cpu_us_per_publication"]["P1"])
    result["together_to_local"] = round(result["together"]["publications_per_s"]
                                        / result["local"]["publications_per_s"], 2)
    result["p1_ceiling_to_local"] = round(local_p1 / p1_link, 2)
    result["problems"] = [p for r in rounds for p in r["problems"]]
    result["rounds_detail"] = rounds
    print(json.dumps(result))
    for phase in PHASES:
        cpu = result[phase]["cpu_us_per_publication"]
        console.print(f"{phase:>17}: {result[phase]['publications_per_s']:>7,.0f} publications/s, "
                      f"P1 {cpu['P1']:.0f} µs, H2 {cpu['H2']:.0f} µs per publication, "
                      f"CPUs {result[phase]['cpus_busy']:.0%} busy")
    console.print(f"together/local {result['together_to_local']}; P1's ceiling "
                  f"{result['p1_ceiling_to_local']} of the local rate (target 0.6)")
    sys.exit(1 if result["problems"] else 0)


if __name__ == "__main__":
    main()
