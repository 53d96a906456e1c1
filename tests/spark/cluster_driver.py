"""The driver program of tests/spark/test_cluster_standalone.py, run as its own process against a
Spark standalone master: ``python cluster_driver.py CONFIG_JSON``.

It waits for two executors (one per worker, each in its own JVM), reads the cluster queue in a
batch, then streams it twice with ``trigger(availableNow=True)`` into parquet, putting more
messages to both instances between the runs (as the application user, over TCP), and prints one
line ``RESULT <json>``: the batch's (text, qmgr) pairs, the stream's rows, and the executors."""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Any


def session(master: str) -> Any:
    from pyspark.sql import SparkSession

    from mqlite.spark import MQDataSource

    os.environ["PYSPARK_PYTHON"] = sys.executable
    spark = (SparkSession.builder.master(master).appName("mqlite-cluster-read")
             .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
             .config("spark.executor.memory", "512m").config("spark.executor.cores", "1").config("spark.cores.max", "2")
             .config("spark.pyspark.python", sys.executable).config("spark.driver.host", "127.0.0.1")
             .config("spark.driver.bindAddress", "127.0.0.1").config("spark.sql.shuffle.partitions", "2")
             .getOrCreate())
    spark.sparkContext.setLogLevel("WARN")
    spark.dataSource.register(MQDataSource)
    return spark


def executors(spark: Any) -> int:
    """How many executors have registered with the driver (its own block manager left out)."""
    return int(spark.sparkContext._jsc.sc().getExecutorMemoryStatus().size()) - 1


def put(config: dict[str, Any], qmgr: str, texts: list[str]) -> None:
    import mqlite

    port = config["ports"][qmgr]
    with mqlite.connect(qmgr, "DEV.APP.SVRCONN", f"127.0.0.1({port})", config["user"], config["password"]) as qm:
        queue = mqlite.Queue(qm, config["options"]["queue"])
        for text in texts:
            queue.put(text)
        queue.close()


def main() -> None:
    config = json.loads(sys.argv[1])
    spark = session(config["master"])
    deadline = time.monotonic() + 180
    while executors(spark) < 2 and time.monotonic() < deadline:
        time.sleep(0.2)
    options = config["options"]
    batch = spark.read.format("mqlite").options(**options).option("partitionSize", "10").load()
    pairs = sorted([r.text, r.qmgr] for r in batch.select("text", "qmgr").collect())

    def run() -> None:
        query = (spark.readStream.format("mqlite").options(**options).option("maxMessagesPerTrigger", "40")
                 .option("partitionSize", "10").load().writeStream.format("parquet").option("path", config["out"])
                 .option("checkpointLocation", config["checkpoint"]).trigger(availableNow=True).start())
        query.awaitTermination(300)
        if query.exception() is not None:
            raise RuntimeError(str(query.exception()))

    run()
    put(config, "QMA", [f"n{i}" for i in range(20)])
    put(config, "QMB", [f"n{i}" for i in range(20, 50)])
    run()
    rows = spark.read.parquet(config["out"]).select("text", "qmgr", "msg_id").collect()
    result = {"batch": pairs, "stream": sorted([r.text, r.qmgr, bytes(r.msg_id).hex()] for r in rows),
              "executors": executors(spark), "master": spark.sparkContext.master}
    print("RESULT " + json.dumps(result), flush=True)
    spark.stop()


if __name__ == "__main__":
    main()
