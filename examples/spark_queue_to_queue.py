"""A second pipeline: orders on a queue, enriched by Spark, onto another queue, exactly once.

A queue manager runs embedded; 1,000 orders (JSON) go on ORDERS.IN; a streaming query reads them
by offsets, adds a total and a size class, and puts the result on ORDERS.OUT (one unit of work per
partition, deterministic MsgIds). The query runs twice from the same checkpoint, with new orders in
between, and the output holds every order exactly once.

Run: ``.venv/bin/python examples/spark_queue_to_queue.py``
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import mqlite


def main(orders: int = 1_000) -> None:
    home = tempfile.mkdtemp(prefix="mqlite-spark-q2q-")
    with mqlite.embedded("Q2Q.QM", home=home):
        from pyspark.sql import functions as F

        from mqlite.spark import local_session

        qm = mqlite.connect("Q2Q.QM")
        qm.mqsc("DEFINE QLOCAL(ORDERS.IN) MAXDEPTH(100000)\nDEFINE QLOCAL(ORDERS.OUT) MAXDEPTH(100000)")
        inbound = mqlite.Queue(qm, "ORDERS.IN")

        def send(first: int, count: int) -> None:
            for i in range(first, first + count):
                inbound.put(json.dumps({"order": i, "qty": i % 7 + 1, "price": 2.5 + i % 11}), persistent=True)

        spark = local_session("mqlite-q2q")
        options = {"qmgr": "Q2Q.QM", "home": home}
        order = F.from_json("text", "order long, qty long, price double")
        enriched = (spark.readStream.format("mqlite").options(**options).option("queue", "ORDERS.IN").load()
                    .select(order.alias("o"))
                    .select(F.to_json(F.struct("o.order", "o.qty", "o.price",
                                               (F.col("o.qty") * F.col("o.price")).alias("total"),
                                               F.when(F.col("o.qty") > 4, "large").otherwise("small").alias("size")))
                            .alias("body")))

        def run() -> None:
            query = (enriched.writeStream.format("mqlite").options(**options).option("queue", "ORDERS.OUT")
                     .option("checkpointLocation", str(Path(home) / "checkpoint")).trigger(availableNow=True).start())
            query.awaitTermination()

        send(0, orders // 2)
        run()
        send(orders // 2, orders - orders // 2)
        run()  # restarted from the checkpoint: only the new orders
        out = mqlite.Queue(qm, "ORDERS.OUT")
        seen = sorted(json.loads(m.text)["order"] for m in out.messages(wait=0.5))
        print(f"{orders} orders in, {len(seen)} out, {len(set(seen))} distinct, "
              f"exactly once: {seen == list(range(orders))}")
        spark.stop()
        qm.disconnect()


if __name__ == "__main__":
    main()
