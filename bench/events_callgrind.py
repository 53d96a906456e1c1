"""The queue manager's instructions per put+get with every event switch off (issue 33's events).

Runs ``python -m mqlite.server QM`` under ``valgrind --tool=callgrind --trace-children=no
--collect-systime=no --cache-sim=no --branch-sim=no`` in a temporary MQLITE_HOME, drives
``--small`` then ``--large`` synchronous put+get pairs (non-persistent, 256 bytes) through the
native client, ends the queue manager (SIGTERM) and reads callgrind's total Ir. Instructions per
message = (Ir(large) - Ir(small)) / (large - small): the start and the end cancel out.

Usage: ``python bench/events_callgrind.py [--small 1000] [--large 3000] [--src DIR]``
(``--src``: another checkout's ``src`` directory, for a before/after pair; EVENTS_CALLGRIND_KEEP=DIR
keeps each run's callgrind file there, for ``callgrind_annotate``).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

QM = "CG.QM"


def run(count: int, src: str) -> int:
    """Total Ir of one queue manager process that served ``count`` put+get pairs."""
    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "MQLITE_HOME": home, "PYTHONPATH": src}
        subprocess.run([sys.executable, "-c", (
            "import time; from mqlite import paths; "
            f"paths.qmgr_dir('{QM}').mkdir(parents=True); "
            f"paths.write_config('{QM}', {{'name': '{QM}', 'port': None, 'created': time.time()}})")],
            env=env, check=True)
        out = Path(home) / "callgrind.out"
        proc = subprocess.Popen(
            ["valgrind", "--tool=callgrind", "--trace-children=no", "--collect-systime=no",
             "--cache-sim=no", "--branch-sim=no", f"--callgrind-out-file={out}",
             sys.executable, "-m", "mqlite.server", QM], env=env,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        client = (
            "import mqlite; from mqlite import cmqc as C\n"
            f"qm = mqlite.connect('{QM}')\n"
            "q = mqlite.Queue(qm, 'SYSTEM.DEFAULT.LOCAL.QUEUE', C.MQOO_OUTPUT | C.MQOO_INPUT_SHARED)\n"
            "md = mqlite.MD(Persistence=C.MQPER_NOT_PERSISTENT); gmo = mqlite.GMO(Options=C.MQGMO_NO_WAIT)\n"
            f"for _ in range({count}):\n"
            "    md.MsgId = C.MQMI_NONE; q.put(b'x' * 256, md); q.get(None, mqlite.MD(), gmo)\n"
            "q.close(); qm.disconnect()\n")
        address = _address(env)
        deadline = time.monotonic() + 600
        while time.monotonic() < deadline:
            try:
                with socket.socket(socket.AF_UNIX) as s:
                    s.connect(address)
                break
            except OSError:
                if proc.poll() is not None:
                    raise RuntimeError("queue manager exited at start") from None
                time.sleep(0.2)
        subprocess.run([sys.executable, "-c", client], env=env, check=True)
        proc.send_signal(signal.SIGTERM)
        proc.wait(600)
        keep = os.environ.get("EVENTS_CALLGRIND_KEEP")  # a directory: the callgrind file kept there
        if keep:
            Path(keep).mkdir(parents=True, exist_ok=True)
            (Path(keep) / f"{Path(src).parent.name}-{count}-{int(time.time())}.out").write_bytes(out.read_bytes())
        found = re.search(r"^summary:\s+(\d+)", out.read_text(), re.M) or \
            re.search(r"^totals:\s+(\d+)", out.read_text(), re.M)
        assert found, "no callgrind total"
        return int(found.group(1))


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
        subprocess.run(["valgrind", "--tool=callgrind", "--trace-children=no", "--collect-systime=no",
                        "--cache-sim=no", "--branch-sim=no", f"--callgrind-out-file={out}",
                        sys.executable, "-c", CORE_LOOP, str(count)],
                       env={**os.environ, "PYTHONPATH": src, "PYTHONHASHSEED": "0"}, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        found = re.search(r"^(?:summary|totals):\s+(\d+)", out.read_text(), re.M)
        assert found, "no callgrind total"
        return int(found.group(1))


def _address(env: dict[str, str]) -> str:
    return subprocess.run([sys.executable, "-c", f"from mqlite import paths; print(paths.socket_address('{QM}'))"],
                          env=env, check=True, capture_output=True, text=True).stdout.strip()


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
