"""Streaming reads with checkpoints through real PySpark (local[2]): a queue and a durable
subscription, stopped and restarted, each message exactly once (issue 5 scope 1)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import mqlite


def run_once(spark: Any, reader: Any, out: Path, checkpoint: Path) -> None:
    """One availableNow run of the query: everything available now, then stop."""
    query = (reader.load().writeStream.format("parquet").option("path", str(out))
             .option("checkpointLocation", str(checkpoint)).trigger(availableNow=True).start())
    query.awaitTermination(120)
    assert query.exception() is None, query.exception()


def collected(spark: Any, out: Path) -> list[Any]:
    return spark.read.parquet(str(out)).select("text", "msg_id").collect()


def test_queue_stream_survives_restarts_exactly_once(spark: Any, qmgr: Any, tmp_path: Path) -> None:
    qm = mqlite.connect(qmgr.name)
    qm.mqsc("DEFINE QLOCAL(EVENTS) MAXDEPTH(100000)")
    q = mqlite.Queue(qm, "EVENTS")
    reader = (spark.readStream.format("mqlite").option("qmgr", qmgr.name).option("home", str(qmgr.home))
              .option("queue", "EVENTS").option("maxMessagesPerTrigger", "40").option("partitionSize", "15"))
    out, checkpoint = tmp_path / "out", tmp_path / "checkpoint"
    for i in range(100):
        q.put(f"e{i}", persistent=i % 2 == 0)
    run_once(spark, reader, out, checkpoint)  # several micro-batches of at most 40, 3 partitions each
    for i in range(100, 150):
        q.put(f"e{i}")
    run_once(spark, reader, out, checkpoint)  # a new run from the checkpoint: only the new ones
    rows = collected(spark, out)
    assert sorted(int(r.text[1:]) for r in rows) == list(range(150))
    assert len({bytes(r.msg_id) for r in rows}) == 150
    # What Spark committed is removed from the queue. With availableNow, Spark commits a run's
    # batches only when the next run plans its first one (NOTES.md), so the first run's 100 are
    # gone and at most this run's 50 wait for the next commit.
    assert q.depth <= 50
    assert qm.queue_offsets("EVENTS")[0] >= 100
    qm.disconnect()


def test_subscription_stream(spark: Any, qmgr: Any, tmp_path: Path) -> None:
    qm = mqlite.connect(qmgr.name)
    reader = (spark.readStream.format("mqlite").option("qmgr", qmgr.name).option("home", str(qmgr.home))
              .option("topic", "ticks/#").option("subscription", "ticks.spark"))
    out, checkpoint = tmp_path / "out", tmp_path / "checkpoint"
    run_once(spark, reader, out, checkpoint)  # creates the durable subscription
    for i in range(30):
        mqlite.Topic(qm, topic_string=f"ticks/{'IBM' if i % 2 else 'HAL'}").pub(f"t{i}")
    run_once(spark, reader, out, checkpoint)
    rows = spark.read.parquet(str(out)).select("text", "topic").collect()
    assert sorted(int(r.text[1:]) for r in rows) == list(range(30))
    assert {r.topic for r in rows} == {"ticks/IBM", "ticks/HAL"}
    _, lines = qm.mqsc("DISPLAY SBSTATUS('ticks.spark')")
    assert any("DURABLE(YES)" in line for line in lines)
    qm.disconnect()


def test_selector_filters_the_subscription_and_a_bad_one_fails_at_start(
        spark: Any, qmgr: Any, tmp_path: Path) -> None:
    qm = mqlite.connect(qmgr.name)
    base = (spark.readStream.format("mqlite").option("qmgr", qmgr.name).option("home", str(qmgr.home))
            .option("topic", "orders/#"))
    bad = base.option("subscription", "bad.sel").option("selector", "Price >")
    with pytest.raises(Exception, match="2459"):  # the query fails at its start, with the reason code
        run_once(spark, bad, tmp_path / "bad", tmp_path / "bad-cp")
    good = base.option("subscription", "big.orders").option("selector", "Qty >= 10")
    out, checkpoint = tmp_path / "out", tmp_path / "cp"
    run_once(spark, good, out, checkpoint)
    for qty in (1, 10, 5, 20):
        mqlite.Topic(qm, topic_string="orders/new").pub(f"q{qty}", properties={"Qty": qty})
    run_once(spark, good, out, checkpoint)
    assert sorted(r.text for r in spark.read.parquet(str(out)).select("text").collect()) == ["q10", "q20"]
    qm.disconnect()


def test_queue_manager_gone_fails_the_query_and_a_restart_loses_nothing(
        spark: Any, qmgr: Any, run_cli: Any, tmp_path: Path) -> None:
    qm = mqlite.connect(qmgr.name)
    qm.mqsc("DEFINE QLOCAL(DURABLE.EVENTS) DEFPSIST(YES)")
    q = mqlite.Queue(qm, "DURABLE.EVENTS")
    for i in range(30):
        q.put(f"d{i}")
    reader = (spark.readStream.format("mqlite").option("qmgr", qmgr.name).option("home", str(qmgr.home))
              .option("queue", "DURABLE.EVENTS").option("maxMessagesPerTrigger", "10"))
    out, checkpoint = tmp_path / "out", tmp_path / "cp"
    run_once(spark, reader, out, checkpoint)
    for i in range(30, 50):
        q.put(f"d{i}")
    qm.disconnect()
    assert run_cli("endmqm", "-i", qmgr.name).returncode == 0
    with pytest.raises(Exception, match=r"2059|2009|2161|2162"):  # the reason code, not a hang
        run_once(spark, reader, out, checkpoint)
    assert run_cli("strmqm", qmgr.name).returncode == 0
    run_once(spark, reader, out, checkpoint)  # from the checkpoint, after the restart
    rows = collected(spark, out)
    assert sorted(int(r.text[1:]) for r in rows) == list(range(50))
    assert len({bytes(r.msg_id) for r in rows}) == 50


@pytest.mark.parametrize(("options", "reason"), [
    ({"qmgr": "NO.SUCH.QM", "queue": "Q"}, "2058"),  # MQRC_Q_MGR_NAME_ERROR: no such queue manager
    ({"queue": "NO.SUCH.QUEUE"}, "2085"),  # MQRC_UNKNOWN_OBJECT_NAME
    ({"topic": "t/#"}, "needs option 'subscription'"),
    ({"queue": "Q", "selector": "a = 1"}, "'selector' filters a topic"),
])
def test_a_stream_with_bad_options_fails_at_start_with_the_reason(
        spark: Any, qmgr: Any, tmp_path: Path, options: dict[str, str], reason: str) -> None:
    reader = spark.readStream.format("mqlite").option("qmgr", qmgr.name).option("home", str(qmgr.home))
    for key, value in options.items():
        reader = reader.option(key, value)
    with pytest.raises(Exception, match=reason):
        run_once(spark, reader, tmp_path / "out", tmp_path / "cp")
