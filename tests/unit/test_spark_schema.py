"""The Spark row of a message (mqlite.spark.schema), without a Spark session."""

from __future__ import annotations

import datetime as dt

from mqlite.core.message import MessageDescriptor
from mqlite.spark.schema import COLUMNS, SCHEMA_DDL, to_row


def test_row_of_a_publication() -> None:
    md = MessageDescriptor(Format="MQSTR", Priority=4, Persistence=1, PutDate="20261124", PutTime="01020304",
                           ReplyToQ="REPLY", UserIdentifier="alice", MsgId=b"m" * 24, CorrelId=b"c" * 24)
    row = dict(zip(COLUMNS, to_row(md, {"MQTopicString": "price/IBM", "MQIsRetained": True, "raw": b"\x01"},
                                   b"150"), strict=True))
    assert row["text"] == "150" and row["topic"] == "price/IBM"
    assert row["put_time"] == dt.datetime(2026, 11, 24, 1, 2, 3, 40_000, tzinfo=dt.UTC)
    assert (row["priority"], row["persistence"], row["reply_to_q"], row["user_id"]) == (4, 1, "REPLY", "alice")
    assert row["properties"] == {"MQTopicString": "price/IBM", "MQIsRetained": "true", "raw": "01"}


def test_binary_bodies_have_no_text_and_the_schema_names_every_column() -> None:
    row = to_row(MessageDescriptor(Format=""), {}, b"\xff")
    assert row[COLUMNS.index("text")] is None and row[COLUMNS.index("topic")] is None
    assert row[COLUMNS.index("put_time")] is None
    assert len(COLUMNS) == len(row) == SCHEMA_DDL.count(",") + 1 - SCHEMA_DDL.count("map<string,string>")
