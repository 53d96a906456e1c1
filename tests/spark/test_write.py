"""Writing from Spark (local[2]) into a real queue manager: batch and streaming, to a queue, a
topic and a topic column; a retried task does not duplicate (issue 5 scope 4)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import mqlite


def writer_options(qmgr: Any) -> dict[str, str]:
    return {"qmgr": qmgr.name, "home": str(qmgr.home)}


def test_batch_write_to_a_queue_and_to_topics(spark: Any, qmgr: Any) -> None:
    qm = mqlite.connect(qmgr.name)
    qm.mqsc("DEFINE QLOCAL(OUT.Q) MAXDEPTH(100000)")
    df = spark.createDataFrame([(f"row {i}", {"n": str(i)}, 1) for i in range(20)], "body string, "
                               "properties map<string,string>, persistence int").repartition(3)
    df.write.format("mqlite").options(**writer_options(qmgr)).option("queue", "OUT.Q").mode("append").save()
    q = mqlite.Queue(qm, "OUT.Q")
    got = [q.get() for _ in range(20)]
    assert sorted(m.text for m in got) == sorted(f"row {i}" for i in range(20))
    assert {m.md.Persistence for m in got} == {1} and all("n" in m.properties for m in got)
    sub = mqlite.Subscription(qm, "prices/#")
    rows = spark.createDataFrame([("prices/IBM", b"150"), ("prices/HAL", b"7")], "topic string, body binary")
    rows.write.format("mqlite").options(**writer_options(qmgr)).option("topic_column", "topic").mode("append").save()
    assert sorted((m.properties["MQTopicString"], bytes(m)) for m in sub.messages(wait=1.0)) == [
        ("prices/HAL", b"7"), ("prices/IBM", b"150")]
    qm.disconnect()


def test_columns_set_the_mqmd_and_a_row_without_a_topic_backs_its_partition_out(spark: Any, qmgr: Any) -> None:
    qm = mqlite.connect(qmgr.name)
    qm.mqsc("DEFINE QLOCAL(FIELDS.Q)")
    df = spark.createDataFrame([(b"a", b"corr-1", 7), (b"b", None, None)],
                               "body binary, correl_id binary, priority int")
    df.coalesce(1).write.format("mqlite").options(**writer_options(qmgr)).option("queue", "FIELDS.Q").mode(
        "append").save()
    q = mqlite.Queue(qm, "FIELDS.Q")
    first, second = q.get(), q.get()  # priority order: 7 before the default 0
    assert (bytes(first), first.md.Priority, first.md.CorrelId) == (b"a", 7, b"corr-1".ljust(24, b"\0"))
    assert (bytes(second), second.md.Priority, second.md.CorrelId) == (b"b", 0, b"\0" * 24)
    sub = mqlite.Subscription(qm, "news/#")
    rows = spark.createDataFrame([("news/a", b"1"), (None, b"2")], "topic string, body binary").coalesce(1)
    with pytest.raises(Exception, match="no topic in column 'topic'"):
        rows.write.format("mqlite").options(**writer_options(qmgr)).option("topic_column", "topic").mode(
            "append").save()
    assert list(sub.messages(wait=0.5)) == []  # the row before it was backed out with the partition
    qm.disconnect()


def test_write_needs_a_body_and_one_target(spark: Any, qmgr: Any) -> None:
    df = spark.createDataFrame([("x",)], "text string")
    with pytest.raises(Exception, match="'body'"):
        df.write.format("mqlite").options(**writer_options(qmgr)).option("queue", "Q").mode("append").save()
    body = spark.createDataFrame([("x",)], "body string")
    with pytest.raises(Exception, match="exactly one"):
        body.write.format("mqlite").options(**writer_options(qmgr)).mode("append").save()


def test_retried_task_does_not_duplicate(qmgr_factory: Any, mqlite_home: Path, run_cli: Any) -> None:
    """A task whose commit went through but whose success Spark never heard of is run again with
    the same (query, batch, partition) and so the same MsgIds: the queue manager's duplicate window
    drops the second copy. Without the window the retry would duplicate."""
    import pyarrow as pa

    from mqlite.spark.datasource import Options, write_batches

    qmgr = qmgr_factory("QMD", port=False)
    assert run_cli("endmqm", "QMD").returncode == 0
    (mqlite_home / "qmgrs" / "QMD" / "qm.ini").write_text("Mqlite:\n   DuplicateWindow=600\n")
    assert run_cli("strmqm", "QMD").returncode == 0
    qm = mqlite.connect("QMD")
    qm.mqsc("DEFINE QLOCAL(RETRY.Q)")
    options = Options.parse({"qmgr": "QMD", "home": str(qmgr.home), "queue": "RETRY.Q"}, writing=True)
    rows = pa.RecordBatch.from_pydict({"body": [f"r{i}" for i in range(10)]})
    assert write_batches(options, iter([rows]), "query-1/7/0") == 10  # the attempt that committed
    assert write_batches(options, iter([rows]), "query-1/7/0") == 10  # its retry: accepted, dropped
    assert mqlite.Queue(qm, "RETRY.Q").depth == 10
    assert write_batches(options, iter([rows]), "query-1/8/0") == 10  # the next batch is new data
    assert mqlite.Queue(qm, "RETRY.Q").depth == 20
    qm.disconnect()


def test_streaming_pipeline_queue_to_spark_to_topic(spark: Any, qmgr: Any, tmp_path: Path) -> None:
    qm = mqlite.connect(qmgr.name)
    qm.mqsc("DEFINE QLOCAL(TRADES) MAXDEPTH(100000)")
    trades = mqlite.Queue(qm, "TRADES")
    for i in range(60):
        trades.put(f"{'IBM' if i % 3 else 'HAL'},{100 + i}")
    summary = mqlite.Subscription(qm, "trades/#")
    source = (spark.readStream.format("mqlite").options(**writer_options(qmgr)).option("queue", "TRADES").load())
    out = source.selectExpr("concat('trades/', split(text, ',')[0]) AS topic", "text AS body")
    query = (out.writeStream.format("mqlite").options(**writer_options(qmgr)).option("topic_column", "topic")
             .option("checkpointLocation", str(tmp_path / "cp")).trigger(availableNow=True).start())
    query.awaitTermination(120)
    assert query.exception() is None
    got = [m for m in summary.messages(wait=1.0)]
    assert len(got) == 60 and len({bytes(m.md.MsgId) for m in got}) == 60
    assert {m.properties["MQTopicString"] for m in got} == {"trades/IBM", "trades/HAL"}
    qm.disconnect()
