"""The queue manager's instructions per put+get with every event switch off (issue 33's events).

A thin user of bench/cost.py's runner (its method: the server under callgrind, wall clock
frozen, busy polling and CPU placement off, PYTHONHASHSEED=0): ``--small`` then ``--large``
synchronous put+get pairs (non-persistent, 256 bytes, queue COST.Q) through the native client,
callgrind's total Ir of the queue manager. Instructions per message = (Ir(large) - Ir(small)) /
(large - small): the start and the end cancel out. ``python bench/cost.py --case a`` is the same
measurement with its spread and per-function table.

Usage: ``python bench/events_callgrind.py [--small 1000] [--large 3000] [--src DIR]``
(``--src``: another checkout's ``src`` directory, for a before/after pair; EVENTS_CALLGRIND_KEEP=DIR
keeps each run's callgrind file there, for ``callgrind_annotate``).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import cost  # bench/cost.py: the method lives there
import cost_callgrind as cg


def run(count: int, src: str) -> int:
    """Total Ir of one queue manager process that served ``count`` put+get pairs (bench/cost.py's
    runner: its case a, frozen wall clock, busy polling and CPU placement off)."""
    keep = os.environ.get("EVENTS_CALLGRIND_KEEP")  # a directory: the callgrind files kept there
    return cost.server_run(count, "put_get", 0, src=src, keep=Path(keep) if keep else None).total


CORE_LOOP = """
import sys
from mqlite import cmqc as C
from mqlite.core.qmgr import QueueManager
from mqlite.core.security.service import administrator
from mqlite.message import MessageDescriptor
qm = QueueManager("CG.QM"); qm.bootstrap(); qm.take_effects()
conn = qm.connect(administrator("bench"), "bench.py")
h = qm.open(conn, {"ObjectName": "SYSTEM.DEFAULT.LOCAL.QUEUE"}, C.MQOO_OUTPUT | C.MQOO_INPUT_SHARED).hobj
from mqlite.core.waiters import GetRequest
body = b"x" * 256
for _ in range(int(sys.argv[1])):
    qm.put(conn, h, MessageDescriptor(Persistence=C.MQPER_NOT_PERSISTENT), C.MQPMO_NO_SYNCPOINT, {}, body)
    qm.get(conn, h, GetRequest(C.MQGMO_NO_WAIT | C.MQGMO_NO_SYNCPOINT, None, None, -1, 0))
    qm.take_effects()
"""


def run_core(count: int, src: str) -> int:
    """Total Ir of a process that drives the core alone through ``count`` put+get pairs (no
    event loop, no sockets: deterministic, the hot path's own instructions)."""
    with tempfile.TemporaryDirectory() as home:
        out = Path(home) / "callgrind.out"
        subprocess.run([*cg.VALGRIND, f"--callgrind-out-file={out}", sys.executable, "-c", CORE_LOOP, str(count)],
                       env={**os.environ, "PYTHONPATH": src, "PYTHONHASHSEED": "0"}, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return cg.total_ir(out)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--small", type=int, default=1000)
    parser.add_argument("--large", type=int, default=3000)
    parser.add_argument("--src", default=str(Path(__file__).resolve().parent.parent / "src"))
    parser.add_argument("--core", action="store_true", help="the core alone, in one process (deterministic)")
    args = parser.parse_args()
    measure = run_core if args.core else run
    small, large = measure(args.small, args.src), measure(args.large, args.src)
    print(json.dumps({"src": args.src, "core": args.core, "small": args.small, "large": args.large, "ir_small": small,
                      "ir_large": large, "ir_per_put_get": (large - small) / (args.large - args.small)}))


if __name__ == "__main__":
    main()
