"""Where the putting queue manager's time goes while a producer streams into a cluster queue
(issue 16): bench/cluster.py's six queue managers, then py-spy on the PUT server while
``--count`` messages stream into ``--queue``; prints the rate and the functions with the most
samples (their own time) as JSON. Needs py-spy (a dev dependency) and the right to attach to a
child process (root, or ptrace_scope 0)."""

from __future__ import annotations

import argparse
import collections
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import cluster as bench
from streaming import put_stream

import mqlite
from mqlite import cmqc as C


def own_time(raw: Path, most: int) -> list[tuple[str, float]]:
    """The functions with the most samples of their own (py-spy's raw format), in percent; a
    thread waiting on a condition (the store's writer between groups) is left out."""
    counts: collections.Counter[str] = collections.Counter()
    for line in raw.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if "Condition.wait" not in stack:
            counts[stack.split(";")[-1].rsplit(":", 1)[0]] += int(count)
    total = sum(counts.values()) or 1
    return [(name, round(100 * n / total, 1)) for name, n in counts.most_common(most)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queue", default="CQ1", choices=sorted(bench.QUEUES))
    parser.add_argument("--count", type=int, default=150_000)
    parser.add_argument("--persistent", action="store_true")
    parser.add_argument("--seconds", type=int, default=12, help="how long py-spy samples")
    parser.add_argument("--raw", type=Path, help="also keep py-spy's raw samples in this file")
    args = parser.parse_args()
    options = C.MQOO_OUTPUT | C.MQOO_BIND_NOT_FIXED
    with bench.cluster(), tempfile.TemporaryDirectory() as tmp:
        qm = mqlite.connect("PUT")
        put_stream(qm, args.queue, 5_000, bench.SIZE, args.persistent, options)  # channels started
        pid = subprocess.check_output(["pgrep", "-f", "mqlite.server PUT"]).split()[0].decode()
        raw = Path(tmp) / "raw.txt"
        spy = subprocess.Popen([str(Path(sys.executable).with_name("py-spy")), "record", "--format", "raw",
                                "-o", str(raw), "-r", "200", "-d", str(args.seconds), "--pid", pid],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(1)
        seconds = put_stream(qm, args.queue, args.count, bench.SIZE, args.persistent, options)
        spy.wait()
        qm.disconnect()
        if args.raw:
            args.raw.write_bytes(raw.read_bytes())
        print(json.dumps({"queue": args.queue, "persistent": args.persistent, "count": args.count,
                          "put_per_s": round(args.count / seconds), "own_time_percent": own_time(raw, 25)}))


if __name__ == "__main__":
    main()
