"""The Spark data source's two halves without Spark: ``StreamReader.read`` over a queue of N
256-byte messages (Arrow batches out) and ``write_batches`` putting them to another queue in
units of work of 10,000 (the default partition size). Shows what the data source's own Python
costs, apart from the JVM. Prints one JSON line.

Usage: ``python bench/spark_parts.py [--count 100000]``
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from p2p import QM, mqsc, start_qmgr, stop_qmgr
from pyspark.sql.streaming.datasource import ReadAllAvailable

from mqlite.spark.datasource import Options, StreamReader, write_batches
from spark import fill


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100_000)
    count = parser.parse_args().count
    home = tempfile.mkdtemp(prefix="mqlite-bench-")
    proc = start_qmgr(home)
    try:
        mqsc(f"DEFINE QLOCAL(PARTS.IN) MAXDEPTH({count + 10})\nDEFINE QLOCAL(PARTS.OUT) MAXDEPTH({count + 10})\n")
        fill("PARTS.IN", count)
        reader = StreamReader(Options.parse({"qmgr": QM, "home": home, "queue": "PARTS.IN"}))
        start = reader.initialOffset()
        began = time.perf_counter()
        partitions = reader.partitions(start, reader.latestOffset(start, ReadAllAvailable()))
        batches = [batch for partition in partitions for batch in reader.read(partition)]
        read = time.perf_counter() - began
        writing = Options.parse({"qmgr": QM, "home": home, "queue": "PARTS.OUT"}, writing=True)
        bodies = [b.select(["body"]) for b in batches]
        units: list[list[Any]] = [[]]  # batches grouped into partitions of partition_size rows
        for batch in bodies:
            if sum(b.num_rows for b in units[-1]) + batch.num_rows > writing.partition_size:
                units.append([])
            units[-1].append(batch)
        began = time.perf_counter()
        written = sum(write_batches(writing, iter(unit), f"bench/0/{n}") for n, unit in enumerate(units))
        write = time.perf_counter() - began
        assert written == count == sum(b.num_rows for b in batches)
        print(json.dumps({"bench": "spark_parts", "messages": count, "read_msgs_per_s": round(count / read),
                          "write_msgs_per_s": round(count / write)}))
    finally:
        stop_qmgr(proc)
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
