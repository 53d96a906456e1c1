"""The Spark rows of messages (mqlite.spark.schema), without a Spark session."""

from __future__ import annotations

import datetime as dt

from mqlite.message import MessageDescriptor
from mqlite.spark.schema import COLUMNS, SCHEMA_DDL, to_batch


def test_row_of_a_publication() -> None:
    md = MessageDescriptor(Format="MQSTR", Priority=4, Persistence=1, PutDate="20261124", PutTime="01020304",
                           ReplyToQ="REPLY", UserIdentifier="alice", MsgId=b"m" * 24, CorrelId=b"c" * 24)
    batch = to_batch([(md.to_list(), {"MQTopicString": "price/IBM", "MQIsRetained": True, "raw": b"\x01"}, b"150")])
    [row] = batch.to_pylist()
    assert row["text"] == "150" and row["topic"] == "price/IBM"
    assert row["put_time"] == dt.datetime(2026, 11, 24, 1, 2, 3, 40_000, tzinfo=dt.UTC)
    assert (row["priority"], row["persistence"], row["reply_to_q"], row["user_id"]) == (4, 1, "REPLY", "alice")
    assert dict(row["properties"]) == {"MQTopicString": "price/IBM", "MQIsRetained": "true", "raw": "01"}
    assert (row["msg_id"], row["correl_id"], row["format"]) == (b"m" * 24, b"c" * 24, "MQSTR")


def test_binary_bodies_have_no_text_and_the_schema_names_every_column() -> None:
    batch = to_batch([(MessageDescriptor(Format="").to_list(), {}, b"\xff")])
    [row] = batch.to_pylist()
    assert row["text"] is None and row["topic"] is None and row["put_time"] is None
    assert row["properties"] == []
    assert tuple(batch.schema.names) == COLUMNS
    assert len(COLUMNS) == SCHEMA_DDL.count(",") + 1 - SCHEMA_DDL.count("map<string,string>")


def test_messages_of_one_batch_keep_their_own_fields() -> None:
    """Columns are built field by field: each row must still get its own message's values,
    including put times shared between messages and properties of different lengths."""
    first = MessageDescriptor(Format="MQSTR", PutDate="20261124", PutTime="01020304", Priority=1)
    second = MessageDescriptor(Format="MQSTR", PutDate="20261124", PutTime="01020304", Priority=7)
    third = MessageDescriptor(Format="MQHRF2", PutDate="", PutTime="", Priority=2)
    rows = to_batch([(first.to_list(), {"a": 1}, b"one"), (second.to_list(), {}, b"two"),
                     (third.to_list(), {"b": "x", "c": 2.5}, b"three")]).to_pylist()
    assert [r["text"] for r in rows] == ["one", "two", None]
    assert [r["priority"] for r in rows] == [1, 7, 2]
    assert rows[0]["put_time"] == rows[1]["put_time"] is not None and rows[2]["put_time"] is None
    assert [dict(r["properties"]) for r in rows] == [{"a": "1"}, {}, {"b": "x", "c": "2.5"}]


def test_no_messages_make_an_empty_batch_of_the_schema() -> None:
    batch = to_batch([])
    assert batch.num_rows == 0 and tuple(batch.schema.names) == COLUMNS
