"""One publication stream three ways in one run: to a subscriber on the publisher's own queue
manager, across one publish/subscribe hierarchy link, and across one route in the style of TIBCO
EMS (issue 17's benchmark: the hierarchy link's rate beside the local rate, target at least 0.6;
the route beside both).

Four real queue manager processes on loopback in a temporary MQLITE_HOME (``crtmqm -p 0``,
``strmqm``; ended with ``endmqm -i``): P1 publishes; H2 is P1's child (sender/receiver channels
both ways, ``ALTER QMGR PARENT(P1)``); R1 and R2 are joined by a route defined on both
(active-active) over their own channels, topic 'Route' GLOBAL(YES) on both. Subscriptions
(``DEFINE SUB ... DEST(queue)``): 'Local/x' on P1, 'Hier/x' on H2, 'Route/x' on R2.

Each round publishes M persistent 256-byte publications (asynchronous puts, the last synchronous:
``bench/dpubsub.py``'s producer) for each way in turn (the order rotates per round), and measures
``publications_per_s`` = M / (first put -> the subscriber queue holds M, polled by MQINQ) and
``put_per_s``; then the queue is read to the end: every publication exactly once. The median of
``--rounds`` rounds is reported, with the ratios to the local rate, and the CPU the queue managers
used per publication.

Usage: ``python bench/links.py [--messages 2000] [--rounds 3] [--batchsz 50] [--json-only]``
(``--batchsz``: the channels' BATCHSZ, IBM's default 50). Progress on
stderr; one JSON object on stdout. Exit status 1 when a publication was lost or duplicated.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rich.console import Console

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cpu import CpuMark
from dpubsub import drain, exactly_once, publish_stream
from mqlite_cli import run as cli

import mqlite.client as mqlite
from mqlite import cmqc as C
from mqlite.cli.state import process_alive

console = Console(stderr=True)
NAMES = ("P1", "H2", "R1", "R2")
Connections = dict[str, mqlite.QueueManager]
WAYS = {  # way -> (publisher, subscriber's queue manager, topic)
    "local": ("P1", "P1", "Local/x"),
    "hierarchy": ("P1", "H2", "Hier/x"),
    "route": ("R1", "R2", "Route/x"),
}


def mqsc(conns: dict[str, mqlite.QueueManager], name: str, script: str) -> list[str]:
    code, lines = conns[name].mqsc(script)
    if code != 0:
        raise SystemExit(f"{name}: MQSC failed ({code}): {script.strip()}\n" + "\n".join(lines))
    return lines


def port(home: Path, name: str) -> int:
    return int(json.loads((home / "qmgrs" / name / "listeners.json").read_text())["tcp"])


def link(home: Path, conns: dict[str, mqlite.QueueManager], a: str, b: str, batchsz: int) -> None:
    """Channels both ways between ``a`` and ``b`` (tests/helpers/hierarchy.py ``link``)."""
    for here, there in ((a, b), (b, a)):
        mqsc(conns, here, f"DEFINE QLOCAL({there}) USAGE(XMITQ) MAXDEPTH(1000000)\n"
                          f"DEFINE CHANNEL({here}.TO.{there}) CHLTYPE(SDR) CONNAME('127.0.0.1({port(home, there)})') "
                          f"XMITQ({there}) BATCHSZ({batchsz})\n"
                          f"DEFINE CHANNEL({there}.TO.{here}) CHLTYPE(RCVR) BATCHSZ({batchsz})\n"
                          f"SET CHLAUTH({there}.TO.{here}) TYPE(QMGRMAP) QMNAME({there}) USERSRC(CHANNEL)\n")


def until(what: str, condition: Any, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise SystemExit(f"timed out waiting until {what}")
        time.sleep(0.05)


def depth(conn: mqlite.QueueManager, queue: str) -> int:
    with mqlite.Queue(conn, queue, C.MQOO_INQUIRE) as handle:
        return int(handle.inquire(C.MQIA_CURRENT_Q_DEPTH))


def shown(conns: dict[str, mqlite.QueueManager], name: str, script: str) -> str:
    return "\n".join(conns[name].mqsc(script)[1])


def set_up(home: Path, conns: dict[str, mqlite.QueueManager], batchsz: int = 50) -> None:
    link(home, conns, "P1", "H2", batchsz)
    mqsc(conns, "H2", "ALTER QMGR PARENT(P1)\n")
    link(home, conns, "R1", "R2", batchsz)
    for here, there in (("R1", "R2"), ("R2", "R1")):
        mqsc(conns, here, f"DEFINE TOPIC(ROUTE) TOPICSTR('Route') GLOBAL(YES)\nDEFINE ROUTE({there})\n")
    for way, (_, subscriber, topic) in WAYS.items():
        queue = f"{way.upper()}.Q"
        mqsc(conns, subscriber, f"DEFINE QLOCAL({queue}) MAXDEPTH(1000000)\n"
                                f"DEFINE SUB({way.upper()}) TOPICSTR('{topic}') DEST({queue})\n")
    until("H2's proxy at P1", lambda: "Hier/x" in shown(conns, "P1", "DISPLAY SUB(*) SUBTYPE(PROXY) TOPICSTR\n"))
    until("R2's internal subscription at R1",
          lambda: "Route/x" in shown(conns, "R1", "DISPLAY SUB(*) SUBTYPE(PROXY) TOPICSTR\n"))
    until("the route up", lambda: "STATUS(ACTIVE)" in shown(conns, "R1", "DISPLAY RTSTATUS(R2) STATUS\n"))


def one_way(conns: dict[str, mqlite.QueueManager], pids: dict[str, int], way: str, count: int) -> dict[str, Any]:
    publisher, subscriber, topic = WAYS[way]
    queue = f"{way.upper()}.Q"
    mark = CpuMark.now(pids)
    began, put_done, failures = publish_stream(conns[publisher], count, topic)
    until(f"{count} on {subscriber}'s {queue}", lambda: depth(conns[subscriber], queue) >= count, 300.0)
    ended = time.perf_counter()
    # each process's CPU per publication ("bench": the publisher and the depth polling)
    cpu = mark.per_message(pids, count, own="bench")
    problem = exactly_once(drain(conns[subscriber], queue), count)
    return {"publications_per_s": round(count / (ended - began)), "put_per_s": round(count / (put_done - began)),
            "cpu_ms_per_publication": round(sum(cpu[name] for name in pids) / 1000, 3),
            "cpu_us_per_publication": cpu, "put_failures": failures, "problem": problem}


@contextlib.contextmanager
def four_queue_managers(prefix: str, batchsz: int = 50,
                        warm_up: tuple[str, ...] = tuple(WAYS)) -> Iterator[tuple[dict[str, int], Connections]]:
    """P1, H2, R1 and R2 in a new MQLITE_HOME, linked (``set_up``) and warmed up (the ``warm_up``
    ways, so their channels run): yields their pids and connections; ends them all after."""
    home = Path(tempfile.mkdtemp(prefix=prefix)) / "mqhome"
    home.mkdir(parents=True)
    os.environ["MQLITE_HOME"] = str(home)
    pids: dict[str, int] = {}
    conns: dict[str, mqlite.QueueManager] = {}
    try:
        with console.status("starting four queue managers", spinner="dots") as status:
            for name in NAMES:
                cli(home, "crtmqm", "-p", "0", name)
                cli(home, "strmqm", name)
                pids[name] = int((home / "qmgrs" / name / "qmgr.pid").read_text().strip())
                conns[name] = mqlite.connect(name)
            status.update("linking: a hierarchy P1-H2, a route R1-R2")
            set_up(home, conns, batchsz)
            for way in warm_up:
                one_way(conns, pids, way, 20)
        yield pids, conns
    finally:
        for conn in conns.values():
            with contextlib.suppress(Exception):  # ending anyway
                conn.disconnect()
        for name in NAMES:
            if name in pids:
                with contextlib.suppress(SystemExit):
                    cli(home, "endmqm", "-i", name)
        for pid in pids.values():
            if process_alive(pid):
                os.kill(pid, 9)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--batchsz", type=int, default=50, help="BATCHSZ of the channels (default IBM's 50)")
    parser.add_argument("--json-only", action="store_true")
    args = parser.parse_args()
    runs: dict[str, list[dict[str, Any]]] = {way: [] for way in WAYS}
    with four_queue_managers("mqlite-links-", args.batchsz) as (pids, conns), console.status("") as status:
        for round_ in range(args.rounds):
            order = list(WAYS)[round_ % 3:] + list(WAYS)[:round_ % 3]
            for way in order:
                status.update(f"round {round_ + 1}/{args.rounds}: {way}")
                runs[way].append(one_way(conns, pids, way, args.messages))
    result: dict[str, Any] = {"messages": args.messages, "rounds": args.rounds, "size": 256, "persistent": True,
                              "batchsz": args.batchsz}
    for way, found in runs.items():
        result[way] = {key: statistics.median(r[key] for r in found)
                       for key in ("publications_per_s", "put_per_s", "cpu_ms_per_publication")}
        result[way]["cpu_us_per_publication"] = {name: statistics.median(r["cpu_us_per_publication"][name]
                                                                         for r in found)
                                                 for name in found[0]["cpu_us_per_publication"]}
        result[way]["problems"] = [r["problem"] for r in found if r["problem"]]
    local = result["local"]["publications_per_s"]
    result["hierarchy_to_local"] = round(result["hierarchy"]["publications_per_s"] / local, 2)
    result["route_to_local"] = round(result["route"]["publications_per_s"] / local, 2)
    result["runs"] = runs
    print(json.dumps(result))
    if not args.json_only:
        for way in WAYS:
            console.print(f"{way:>10}: {result[way]['publications_per_s']:>7,.0f} publications/s end to end, "
                          f"{result[way]['put_per_s']:>7,.0f} puts/s, {result[way]['cpu_ms_per_publication']} ms CPU")
        console.print(f"hierarchy/local {result['hierarchy_to_local']}, route/local {result['route_to_local']} "
                      "(target for the hierarchy: 0.6)")
    sys.exit(1 if any(result[way]["problems"] for way in WAYS) else 0)


if __name__ == "__main__":
    main()
