"""A real pub/sub + Spark pipeline: trades in, volume-weighted prices out, exactly once.

1. A queue manager runs embedded in this process, in a new MQLITE_HOME (under $MQLITE_HOME when
   that is set), removed when the demo ends, also on a failure or Ctrl-C (examples/demo_home.py).
2. A generator publishes trades on ``trades/<symbol>`` (JSON bodies: symbol, price, volume).
3. A Spark structured-streaming query (``local[2]``) reads them from the durable subscription
   ``vwap.spark``, computes the volume-weighted average price per symbol and 10-second window,
   and publishes each result as a retained publication on ``price/summary/<symbol>``.
4. A subscriber prints the summaries.

Run it with ``make demo`` (after the point-to-point part) or ``.venv/bin/python examples/spark_vwap.py``.
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

from demo_home import demo_home
from rich.console import Console
from rich.table import Table

import mqlite

console = Console()
SYMBOLS = {"IBM": 150.0, "HAL": 7.5, "ACME": 42.0, "INITECH": 12.25}


def main(trades: int = 2_000) -> None:
    with demo_home("mqlite-spark-demo-") as home_dir:
        vwap(str(home_dir), trades)


def vwap(home: str, trades: int) -> None:
    with mqlite.embedded("SPARK.QM", home=home):
        from mqlite.spark import local_session

        console.print("[bold cyan]>>> Spark local[2] with mqlite's data source[/]")
        spark = local_session("mqlite-vwap", config={"spark.sql.shuffle.partitions": "2"})
        try:
            stream(spark, home, trades)
        finally:
            spark.stop()


def stream(spark: Any, home: str, trades: int) -> None:
    from pyspark.sql import functions as F

    options = {"qmgr": "SPARK.QM", "home": home}
    source = (spark.readStream.format("mqlite").options(**options)
              .option("topic", "trades/#").option("subscription", "vwap.spark").load())
    trade = F.from_json("text", "symbol string, price double, volume long")
    trades_df = source.select("put_time", trade.alias("t"))
    checkpoint = Path(home) / "checkpoint"

    def summarise(batch: Any, batch_id: int) -> None:
        """Each micro-batch's VWAP per symbol and 10-second window, published retained."""
        vwap = (batch.groupBy(F.window("put_time", "10 seconds"), F.col("t.symbol").alias("symbol"))
                .agg((F.sum(F.col("t.price") * F.col("t.volume")) / F.sum("t.volume")).alias("vwap"),
                     F.sum("t.volume").alias("volume"), F.count("*").alias("trades"))
                .select(F.concat(F.lit("price/summary/"), "symbol").alias("topic"),
                        F.to_json(F.struct("symbol", F.round("vwap", 4).alias("vwap"), "volume", "trades",
                                           F.col("window.start").cast("string").alias("window"))).alias("body")))
        (vwap.write.format("mqlite").options(**options).option("topic_column", "topic")
         .option("retain", "true").mode("append").save())

    def run() -> None:
        query = (trades_df.writeStream.foreachBatch(summarise).option("checkpointLocation", str(checkpoint))
                 .trigger(availableNow=True).start())
        query.awaitTermination()

    run()  # the first run creates the durable subscription vwap.spark
    qm = mqlite.connect("SPARK.QM")
    console.print(f"[bold cyan]>>> publishing {trades:,} trades on trades/<symbol>[/]")
    started = time.perf_counter()
    topics = {s: mqlite.Topic(qm, topic_string=f"trades/{s}") for s in SYMBOLS}
    rng = random.Random(7)
    for _ in range(trades):
        symbol = rng.choice(list(SYMBOLS))
        price = round(SYMBOLS[symbol] * (1 + rng.uniform(-0.01, 0.01)), 4)
        body = json.dumps({"symbol": symbol, "price": price, "volume": rng.randint(1, 500)})
        topics[symbol].pub(body, asynchronous=True)
    qm.ping()
    published = time.perf_counter() - started
    started = time.perf_counter()
    run()  # the stream: everything published since, exactly once
    spark_seconds = time.perf_counter() - started
    summaries = mqlite.Subscription(qm, "price/summary/#")  # retained: the latest of each
    table = Table("topic", "window", "VWAP", "volume", "trades")
    counted = 0
    for message in summaries.messages(wait=0.5):
        row = json.loads(message.text)
        counted += int(row["trades"])
        table.add_row(message.properties["MQTopicString"], row["window"], f"{row['vwap']:.4f}",
                      f"{row['volume']:,}", f"{row['trades']:,}")
    console.print(table)
    console.print(f"{trades:,} trades in ({trades / published:,.0f}/s published), "
                  f"{counted:,} counted out in the latest windows' summaries; Spark took {spark_seconds:.1f} s")
    summaries.close()
    qm.disconnect()


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:  # Ctrl-C: demo_home has ended its queue managers and removed its home
        raise SystemExit(130) from None
