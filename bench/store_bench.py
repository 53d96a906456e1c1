"""Store micro benchmark: N threads each put 1 KB persistent messages and wait until durable.

This is the store's share of "a persistent put returns only once it is on disk": every producer
has one tx in flight, so without group commit the rate could not exceed the disk's fsync rate.
Prints one JSON line: msgs/s, txs per commit, and the ratios to two baselines measured in the same
run: this disk's raw one-fsync-per-write rate (bench/fsync_rate.py) and the store with a single
producer (one SQLite commit per message, which writes several pages, so it is below the first).

    .venv/bin/python bench/store_bench.py [--threads 8] [--seconds 5] [--dir DIR] [--consume]
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import struct
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from fsync_rate import fsync_rate

from mqlite.message import MQPER_PERSISTENT, Message, MessageDescriptor
from mqlite.store import Store, StoreTx


def run(directory: str, threads: int, seconds: float, consume: bool, size: int) -> dict[str, object]:
    """Put (and with ``consume`` also delete, one tx later) from ``threads`` producers."""
    store = Store(os.path.join(directory, "bench.db"))
    body = os.urandom(size)
    seqs = itertools.count(1)
    counts = [0] * threads
    stop = threading.Event()
    prefix = b"AMQ BENCH       "

    def producer(index: int) -> None:
        event = threading.Event()
        errors: list[BaseException] = []

        def done(exc: BaseException | None) -> None:
            if exc is not None:
                errors.append(exc)
            event.set()

        previous = 0
        n = 0
        while not stop.is_set():
            seq = next(seqs)
            md = MessageDescriptor(MsgId=prefix + struct.pack(">Q", seq), Persistence=MQPER_PERSISTENT)
            tx = StoreTx()
            tx.put_message("BENCH.Q", seq, Message(md, body), 0.0)
            if consume and previous:
                tx.delete_message("BENCH.Q", previous)
            previous = seq
            event.clear()
            store.submit(tx, done)
            event.wait()
            if errors:
                raise errors[0]
            n += 1
        counts[index] = n

    workers = [threading.Thread(target=producer, args=(i,)) for i in range(threads)]
    start = time.perf_counter()
    for w in workers:
        w.start()
    time.sleep(seconds)
    stop.set()
    for w in workers:
        w.join()
    elapsed = time.perf_counter() - start
    store.close()
    stats = store.stats
    total = sum(counts)
    return {
        "msgs_per_s": round(total / elapsed),
        "txs_per_commit": round(stats.txs_per_commit, 2),
        "commits_per_s": round(stats.commits / elapsed),
        "messages": total,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--size", type=int, default=1024)
    parser.add_argument("--dir", default=None, help="where the database goes (default: a temp dir)")
    parser.add_argument("--consume", action="store_true", help="each tx also deletes its previous put")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as directory:
        fsyncs = fsync_rate(directory, 2.0)
        # One producer: one SQLite commit per message, the rate group commit has to beat.
        os.mkdir(os.path.join(directory, "single"))
        os.mkdir(os.path.join(directory, "group"))
        single = run(os.path.join(directory, "single"), 1, 2.0, args.consume, args.size)["msgs_per_s"]
        result = run(os.path.join(directory, "group"), args.threads, args.seconds, args.consume, args.size)
    rate = result["msgs_per_s"]
    assert isinstance(rate, int) and isinstance(single, int)
    result.update(
        threads=args.threads,
        size=args.size,
        consume=args.consume,
        fsync_per_s=round(fsyncs),
        ratio_to_fsync=round(rate / fsyncs, 2),
        single_producer_msgs_per_s=single,
        ratio_to_single_producer=round(rate / single, 2),
    )
    print(json.dumps(result))


if __name__ == "__main__":
    main()
