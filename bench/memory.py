"""Where the queue manager's memory goes over repeated loads: a leak, or the allocators?

Rounds of N persistent 1 KB messages (4 asynchronous producer processes) put and then drained
(4 consumer processes with read-ahead). After each load and each drain (plus a few idle seconds)
it prints one JSON line: the RSS and, with the queue manager in this process (the default, an
``mqlite.embedded`` one, which runs the same code on a plain asyncio loop), what lives in it:
Python objects (``gc``), SQLite's own allocations (``sqlite3_memory_used``: mostly page cache,
bounded by ``cache_size``), with ``--trace`` the bytes tracemalloc sees live and the top growth
by line. At the end it calls glibc's ``malloc_trim(0)``: what that gives back was free memory
the C allocator had kept, not live data.

    python bench/memory.py                       # 3 rounds of 200,000 in process
    python bench/memory.py --trace               # + tracemalloc (slower)
    PYTHONMALLOC=malloc python bench/memory.py   # Python's small objects from glibc malloc too
    python bench/memory.py --process             # a real queue manager process: RSS only
"""

from __future__ import annotations

import argparse
import collections
import ctypes
import ctypes.util
import gc
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from p2p import rss_mb, start_qmgr, stop_qmgr

import mqlite

QM = "BENCH.QM"
WORKER = r"""
import sys, mqlite
from mqlite import cmqc as C
role, n = sys.argv[1], int(sys.argv[2])
qm = mqlite.connect("BENCH.QM")
if role == "put":
    q = mqlite.Queue(qm, "MEM.Q", C.MQOO_OUTPUT)
    md = mqlite.MD(Persistence=C.MQPER_PERSISTENT)
    pmo = mqlite.PMO(Options=C.MQPMO_NO_SYNCPOINT | C.MQPMO_ASYNC_RESPONSE)
    for _ in range(n):
        md.MsgId = C.MQMI_NONE
        q.put(b"x" * 1024, md, pmo)
    q.put(b"last", mqlite.MD(Persistence=C.MQPER_PERSISTENT))  # returns once all are durable
else:
    q = mqlite.Queue(qm, "MEM.Q", C.MQOO_INPUT_SHARED | C.MQOO_READ_AHEAD)
    gmo = mqlite.GMO(Options=C.MQGMO_WAIT | C.MQGMO_NO_SYNCPOINT, WaitInterval=30000)
    for _ in range(n):
        q.get(None, mqlite.MD(), gmo)
qm.disconnect()
"""


def clients(role: str, total: int, processes: int = 4) -> None:
    procs = [subprocess.Popen([sys.executable, "-c", WORKER, role, str(total // processes)])
             for _ in range(processes)]
    for proc in procs:
        if proc.wait() != 0:
            raise RuntimeError(f"a {role} worker failed")


def sqlite_memory() -> Any:
    """sqlite3_memory_used from the SQLite library this Python's sqlite3 module loaded, or None."""
    name = ctypes.util.find_library("sqlite3")
    if name is None:
        return None
    library = ctypes.CDLL(name)
    library.sqlite3_memory_used.restype = ctypes.c_int64
    return library.sqlite3_memory_used


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--messages", type=int, default=200_000)
    parser.add_argument("--trace", action="store_true", help="tracemalloc in the queue manager's process")
    parser.add_argument("--process", action="store_true", help="a real queue manager process (RSS only)")
    parser.add_argument("--idle", type=float, default=6.0, help="seconds idle after each drain")
    args = parser.parse_args()
    home = tempfile.mkdtemp(prefix="mqlite-memory-")
    os.environ["MQLITE_HOME"] = home
    sqlite_used = None if args.process else sqlite_memory()
    if args.trace:
        tracemalloc.start(1)

    def report(phase: str, pid: int) -> None:
        gc.collect()
        figures: dict[str, Any] = {"phase": phase, "rss_mb": round(rss_mb(pid), 1),
                                   "pymalloc": os.environ.get("PYTHONMALLOC", "pymalloc")}
        if not args.process:
            figures["gc_objects"] = len(gc.get_objects())
            if sqlite_used is not None:
                figures["sqlite_mb"] = round(sqlite_used() / 2**20, 1)
            if args.trace:
                figures["python_live_mb"] = round(tracemalloc.get_traced_memory()[0] / 2**20, 1)
        print(json.dumps(figures), flush=True)

    def rounds(pid: int) -> None:
        admin = mqlite.connect(QM)
        admin.mqsc("DEFINE QLOCAL(MEM.Q) MAXDEPTH(2000000) DEFREADA(YES)\n")
        admin.disconnect()
        report("start", pid)
        first = tracemalloc.take_snapshot() if args.trace else None
        for n in range(args.rounds):
            clients("put", args.messages)
            report(f"loaded {n + 1}", pid)
            clients("get", args.messages + 4)  # and the four "last" markers
            time.sleep(args.idle)  # housekeeping runs; the queue manager is idle
            report(f"drained {n + 1}", pid)
        if first is not None:
            for stat in tracemalloc.take_snapshot().compare_to(first, "lineno")[:10]:
                print("  ", stat)

    try:
        if args.process:
            proc = start_qmgr(home)
            try:
                rounds(proc.pid)
            finally:
                stop_qmgr(proc)
        else:
            with mqlite.embedded(QM, home=home):
                rounds(os.getpid())
                kinds = collections.Counter(type(o).__name__ for o in gc.get_objects())
                print(json.dumps({"objects_by_type": kinds.most_common(8)}))
                libc = ctypes.CDLL(ctypes.util.find_library("c"))
                if hasattr(libc, "malloc_trim"):
                    libc.malloc_trim(0)
                    report("after malloc_trim(0)", os.getpid())
    finally:
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
