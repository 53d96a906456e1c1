"""A queue of N 256-byte messages through Spark (local[2]) into another queue, beside a plain
Python client draining a copy of the same queue in the same run (the reference).

Spark reads with mqlite's stream source (``trigger(availableNow=True)``, offsets by sequence
number) and writes with its sink (a unit of work per partition, asynchronous puts); once with the
schema narrowed to the one column the job uses (``.schema("body binary")``), once with every
column. Each Spark run has a fresh process and JVM. The plain
client gets with read-ahead and puts each message to an output queue asynchronously. Both are
timed from start to the last message on the output queue. Prints one JSON line.

Usage: ``python bench/spark.py [--count 1000000] [--quick]``
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from p2p import QM, mqsc, start_qmgr, stop_qmgr

import mqlite
from mqlite import cmqc as C

BODY = b"s" * 256


def fill(queue: str, count: int) -> None:
    qm = mqlite.connect(QM)
    q = mqlite.Queue(qm, queue, C.MQOO_OUTPUT)
    md = mqlite.MD(Persistence=C.MQPER_NOT_PERSISTENT)
    pmo = mqlite.PMO(Options=C.MQPMO_NO_SYNCPOINT | C.MQPMO_ASYNC_RESPONSE)
    for _ in range(count):
        md.MsgId = C.MQMI_NONE
        q.put(BODY, md, pmo)
    qm.ping()
    qm.disconnect()


def plain_client(count: int) -> float:
    """Get every message of REF.IN with read-ahead and put it on REF.OUT: messages per second."""
    qm = mqlite.connect(QM)
    source = mqlite.Queue(qm, "REF.IN", C.MQOO_INPUT_SHARED | C.MQOO_READ_AHEAD)
    target = mqlite.Queue(qm, "REF.OUT", C.MQOO_OUTPUT)
    pmo = mqlite.PMO(Options=C.MQPMO_NO_SYNCPOINT | C.MQPMO_ASYNC_RESPONSE)
    began = time.perf_counter()
    for _ in range(count):
        message = source.get(wait=10.0)
        target.put(bytes(message), None, pmo)
    qm.ping()
    elapsed = time.perf_counter() - began
    qm.disconnect()
    return count / elapsed


def spark_pipeline(home: str, prefix: str, count: int, columns: str | None) -> float:
    """<prefix>.IN through a streaming query into <prefix>.OUT (reading ``columns`` only, if
    given): messages per second. Runs in a process of its own, so each query gets a fresh JVM."""
    from mqlite.spark import local_session

    spark = local_session("mqlite-bench")
    options = {"qmgr": QM, "home": home}
    reader = spark.readStream.format("mqlite").options(**options).option("queue", f"{prefix}.IN")
    source = (reader.schema(columns) if columns else reader).load()
    began = time.perf_counter()
    query = (source.select("body").writeStream.format("mqlite").options(**options).option("queue", f"{prefix}.OUT")
             .option("checkpointLocation", str(Path(home) / f"cp-{prefix}")).trigger(availableNow=True).start())
    query.awaitTermination()
    elapsed = time.perf_counter() - began
    spark.stop()
    qm = mqlite.connect(QM)
    moved = mqlite.Queue(qm, f"{prefix}.OUT").depth
    qm.disconnect()
    assert moved == count, f"{moved} of {count} messages reached {prefix}.OUT"
    return count / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1_000_000)
    parser.add_argument("--quick", action="store_true", help="100,000 messages")
    args = parser.parse_args()
    count = 100_000 if args.quick else args.count
    home = tempfile.mkdtemp(prefix="mqlite-bench-")
    proc = start_qmgr(home)
    figures: dict[str, object] = {"bench": "spark", "messages": count, "cpus": os.cpu_count()}
    prefixes = ("REF", "SPARK", "ALLCOLS")
    try:
        depth = count + 10
        mqsc("".join(f"DEFINE QLOCAL({p}.{end}) MAXDEPTH({depth})\n" for p in prefixes for end in ("IN", "OUT")))
        fork = mp.get_context("fork")
        fillers = [fork.Process(target=fill, args=(f"{p}.IN", count)) for p in prefixes]
        for filler in fillers:
            filler.start()
        for filler in fillers:
            filler.join()
        plain = figures["plain_client_msgs_per_s"] = round(plain_client(count))
        with mp.get_context("spawn").Pool(1, maxtasksperchild=1) as pool:
            # The job needs only the body: the schema says so (the other columns are not built).
            picked = figures["spark_msgs_per_s"] = round(pool.apply(spark_pipeline, (home, "SPARK", count,
                                                                                     "body binary")))
            every = figures["spark_all_columns_msgs_per_s"] = round(pool.apply(spark_pipeline, (home, "ALLCOLS",
                                                                                              count, None)))
        figures["spark_over_plain"] = round(picked / plain, 2)
        figures["spark_all_columns_over_plain"] = round(every / plain, 2)
    finally:
        stop_qmgr(proc)
        shutil.rmtree(home, ignore_errors=True)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
