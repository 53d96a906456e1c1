"""The instructions a put+get costs the queue manager, counted by callgrind (issue 33, statistics).

The queue manager (``python -m mqlite.server QM``) runs under
``valgrind --tool=callgrind --trace-children=no --collect-systime=no --cache-sim=no --branch-sim=no``;
a native client puts and gets N non-persistent messages of 100 bytes on one queue, one at a
time, and the queue manager is ended. Two runs (3,000 and 1,000 messages) cancel the start and
the end: per message = (Ir(3,000) - Ir(1,000)) / 2,000.

    python bench/stats_cost.py --statq OFF            # the queue's STATQ(OFF), QMGR STATQ(NONE)
    python bench/stats_cost.py --statq ON             # STATQ(ON): collected
    PYTHONPATH=/tmp/base/src python bench/stats_cost.py --statq OFF   # another tree (before a change)
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import mqlite
from mqlite import cmqc as C
from mqlite import paths

QM = "CG"
VALGRIND = ["valgrind", "--tool=callgrind", "--trace-children=no", "--collect-systime=no",
            "--cache-sim=no", "--branch-sim=no"]


def _wait_socket(proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        try:
            with socket.socket(socket.AF_UNIX) as s:
                s.connect(paths.socket_address(QM))
            return
        except OSError:
            if proc.poll() is not None:
                raise RuntimeError("queue manager exited at start") from None
            time.sleep(0.2)
    raise RuntimeError("queue manager did not start")


def run(count: int, statq: str) -> int:
    """Ir of the queue manager process for ``count`` put+get pairs."""
    with tempfile.TemporaryDirectory() as home:
        os.environ["MQLITE_HOME"] = home
        paths.qmgr_dir(QM).mkdir(parents=True)
        paths.write_config(QM, {"name": QM, "port": None, "created": time.time()})
        out = Path(home) / "callgrind.out"
        proc = subprocess.Popen([*VALGRIND, f"--callgrind-out-file={out}", sys.executable, "-m",
                                 "mqlite.server", QM], env={**os.environ}, stderr=subprocess.DEVNULL)
        try:
            _wait_socket(proc)
            qm = mqlite.connect(QM)
            qm.mqsc("DEFINE QLOCAL(CG.Q) REPLACE\n"
                                  + ("ALTER QMGR STATQ(ON)\nALTER QLOCAL(CG.Q) STATQ(ON)\nRESET QMGR TYPE(STATISTICS)\n"
                       if statq == "ON" else ""))
            q = mqlite.Queue(qm, "CG.Q", C.MQOO_OUTPUT | C.MQOO_INPUT_SHARED)
            body = b"x" * 100
            pmo = mqlite.PMO(Options=C.MQPMO_NO_SYNCPOINT)
            gmo = mqlite.GMO(Options=C.MQGMO_NO_SYNCPOINT | C.MQGMO_NO_WAIT)
            for _ in range(count):
                q.put(body, mqlite.MD(Persistence=C.MQPER_NOT_PERSISTENT), pmo)
                q.get(None, mqlite.MD(), gmo)
            q.close()
            qm.disconnect()
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(600)
        text = out.read_text(errors="replace")
        match = re.search(r"^summary:\s+(\d+)", text, re.M) or re.search(r"^totals:\s+(\d+)", text, re.M)
        assert match, "no callgrind summary"
        return int(match.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--statq", choices=("ON", "OFF"), default="OFF")
    parser.add_argument("--high", type=int, default=3000)
    parser.add_argument("--low", type=int, default=1000)
    args = parser.parse_args()
    high, low = run(args.high, args.statq), run(args.low, args.statq)
    per = (high - low) / (args.high - args.low)
    print(f"STATQ({args.statq}) Ir {args.high}: {high:,}  Ir {args.low}: {low:,}  per put+get: {per:,.0f}")


if __name__ == "__main__":
    main()
