"""The cost of security, in one run: authority checking and TLS.

- Authority (``security_cost.py``): put/get, queue and topic opens, publications and subscription
  creation as an administrator (no authority is looked up: security off) beside the same work as
  an ordinary OS user whose every permission comes from authority records — 1,000 records on the
  queue manager and a topic tree 8 levels deep, a topic object at each level and the grants at the
  top one only, so every topic check walks all 8. ``*_slowdown_pct`` is the difference (target: at
  most 10%). Each figure is the best of ``--rounds`` interleaved runs. Needs root (it creates the
  OS user ``mqlitebench`` and switches to it); without root it says so and skips this part.
- Core (``security_core.py``): the same calls on core's QueueManager in one process, as both
  users, in microseconds per call: what the checks themselves add, without the client, the
  socket and the scheduling that make the end-to-end figures wander on a shared machine.
- TLS (``security_tls.py``): client put/get throughput and connections per second over a TLS
  channel beside a plain one.

Usage: ``python bench/security.py [--quick] [--rounds N] [--only core|authority|tls]``; prints one JSON
line.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import security_core
import security_cost
import security_tls
from p2p import QM, mqsc, start_qmgr, stop_qmgr

from mqlite.core.security.principal import Principal


def authority(scale: float, rounds: int) -> dict[str, object]:
    ids = security_cost.ensure_os_user()
    if ids is None:
        return {"authority": f"skipped: creating the OS user {security_cost.BENCH_USER} needs root"}
    home = tempfile.mkdtemp(prefix="mqlite-bench-")
    os.chmod(home, 0o755)  # the second OS user reaches the queue manager's socket through it
    proc = start_qmgr(home)
    try:
        mqsc(security_cost.setup_script(security_cost.BENCH_USER))
        return security_cost.measure(QM, ids, scale, rounds)
    finally:
        stop_qmgr(proc)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer operations (a smoke run)")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved runs; the best is kept")
    parser.add_argument("--only", choices=("core", "authority", "tls"))
    args = parser.parse_args()
    figures: dict[str, object] = {"bench": "security", "python": sys.version.split()[0], "cpus": os.cpu_count(),
                                  "authority_records": security_cost.RECORDS, "topic_depth": security_cost.DEPTH}
    if args.only in (None, "authority", "core"):
        user = Principal(security_cost.BENCH_USER, frozenset({"benchgrp"}))
        figures.update(security_core.measure(security_cost.setup_script(user.user), user, security_cost.TOPIC,
                                             1 if args.quick else args.rounds, 0.1 if args.quick else 1.0))
    if args.only in (None, "authority"):
        figures.update(authority(0.1 if args.quick else 1.0, 1 if args.quick else args.rounds))
    if args.only in (None, "tls"):
        figures.update(security_tls.measure(quick=args.quick))
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
