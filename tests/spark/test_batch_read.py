"""Batch reads through real PySpark (local[2]) from a real queue manager: a queue browsed, and the
retained publications under a topic pattern (issue 5 scope 2 and 3)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

import mqlite
from helpers.credentials import APP
from mqlite import CMQC as C
from mqlite.spark.schema import COLUMNS


def test_browse_a_queue_into_a_dataframe(spark: Any, qmgr: Any) -> None:
    qm = mqlite.connect(qmgr.name)
    qm.mqsc("DEFINE QLOCAL(ORDERS)")
    q = mqlite.Queue(qm, "ORDERS")
    for i in range(5):
        q.put(f"order {i}", properties={"n": i}, priority=i)
    q.put(b"\x00\x01raw", mqlite.MD(Format=b"        "))
    df = (spark.read.format("mqlite").option("qmgr", qmgr.name).option("home", str(qmgr.home))
          .option("queue", "ORDERS").load())
    assert tuple(df.columns) == COLUMNS
    rows = df.collect()
    assert len(rows) == 6 and q.depth == 6  # browsed: nothing removed
    texts = sorted(r.text for r in rows if r.text is not None)
    assert texts == [f"order {i}" for i in range(5)]
    raw = next(r for r in rows if r.text is None)
    assert bytes(raw.body) == b"\x00\x01raw"
    first = next(r for r in rows if r.text == "order 4")
    assert first.priority == 4 and first.properties["n"] == "4" and len(bytes(first.msg_id)) == 24
    assert abs(first.put_time.replace(tzinfo=None) - dt.datetime.now()) < dt.timedelta(days=1)
    qm.disconnect()


def test_read_retained_publications_over_tcp(spark: Any, qmgr: Any) -> None:
    qm = mqlite.connect(qmgr.name)
    for symbol, price in (("IBM", "150"), ("HAL", "7"), ("XYZ", "1")):
        mqlite.Topic(qm, topic_string=f"price/{symbol}").pub(price, retain=True)
    mqlite.Topic(qm, topic_string="other/thing").pub(b"x", retain=True)
    df = (spark.read.format("mqlite").option("host", "127.0.0.1").option("port", str(qmgr.port))
          .option("user", APP.user).option("password", APP.password)  # TCP clients authenticate
          .option("qmgr", qmgr.name).option("topic", "price/+").load())
    got = sorted((r.topic, r.text) for r in df.select("topic", "text").collect())
    assert got == [("price/HAL", "7"), ("price/IBM", "150"), ("price/XYZ", "1")]
    _, lines = qm.mqsc("DISPLAY SBSTATUS(*) SUBTYPE(ALL)")
    assert any("AMQ8147E" in line for line in lines)  # the reader's subscription is gone again
    qm.disconnect()


@pytest.mark.parametrize(("options", "message"), [
    ({"queue": "Q"}, "'qmgr'"), ({"qmgr": "QM1"}, "exactly one"), ({"host": "h", "queue": "Q"}, "'port'"),
])
def test_missing_options_fail_at_query_start(spark: Any, options: dict[str, str], message: str) -> None:
    reader = spark.read.format("mqlite")
    for key, value in options.items():
        reader = reader.option(key, value)
    with pytest.raises(Exception, match=message):
        reader.load().collect()


def test_unknown_queue_fails_with_its_reason(spark: Any, qmgr: Any) -> None:
    df = (spark.read.format("mqlite").option("qmgr", qmgr.name).option("home", str(qmgr.home))
          .option("queue", "NO.SUCH.QUEUE").load())
    with pytest.raises(Exception, match=str(C.MQRC_UNKNOWN_OBJECT_NAME)):
        df.collect()


def test_a_schema_given_by_the_user_picks_columns(spark: Any, qmgr: Any) -> None:
    qm = mqlite.connect(qmgr.name)
    qm.mqsc("DEFINE QLOCAL(PICKED)")
    mqlite.Queue(qm, "PICKED").put("hello", priority=3)
    df = (spark.read.format("mqlite").schema("priority int, text string").option("qmgr", qmgr.name)
          .option("home", str(qmgr.home)).option("queue", "PICKED").load())
    assert df.columns == ["priority", "text"]
    assert [tuple(r) for r in df.collect()] == [(3, "hello")]
    qm.disconnect()


@pytest.mark.parametrize(("schema", "message"), [
    ("body binary, colour string", "no column 'colour'"), ("priority string", "column 'priority' is int"),
])
def test_a_schema_with_unknown_columns_or_wrong_types_fails_at_query_start(spark: Any, schema: str,
                                                                          message: str) -> None:
    reader = spark.read.format("mqlite").schema(schema).option("qmgr", "QM1").option("queue", "Q")
    with pytest.raises(Exception, match=message):
        reader.load().collect()
