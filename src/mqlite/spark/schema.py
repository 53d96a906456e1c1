"""The rows mqlite's Spark data source reads: one per message, MQMD fields as columns.

| column | type | from |
|---|---|---|
| body | binary | the message body |
| text | string | the body decoded as UTF-8 when the Format is MQSTR, else null |
| topic | string | the MQTopicString property of a publication, else null |
| msg_id, correl_id | binary | MsgId, CorrelId (24 bytes) |
| put_time | timestamp | PutDate + PutTime (UTC, hundredths of a second) |
| priority, persistence, expiry | int | Priority, Persistence (0/1), Expiry (tenths of a second, -1 unlimited) |
| format, reply_to_q, reply_to_qmgr, user_id, put_appl_name | string | the MQMD character fields, trimmed |
| backout_count | int | BackoutCount |
| properties | map<string,string> | the message properties, values as strings |

Pure functions (no Spark session needed) so the conversion is testable on its own.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from mqlite.core.message import MessageDescriptor, put_timestamp

SCHEMA_DDL = (
    "body binary, text string, topic string, msg_id binary, correl_id binary, put_time timestamp, "
    "priority int, persistence int, expiry int, format string, reply_to_q string, reply_to_qmgr string, "
    "user_id string, put_appl_name string, backout_count int, properties map<string,string>"
)
COLUMNS = tuple(part.strip().split(" ", 1)[0] for part in SCHEMA_DDL.split(", "))
MQSTR = "MQSTR"


def put_time(md: MessageDescriptor) -> dt.datetime | None:
    stamp = put_timestamp(md)
    return None if stamp is None else dt.datetime.fromtimestamp(stamp, dt.UTC)


def to_row(md: MessageDescriptor, properties: Mapping[str, Any], body: bytes) -> tuple[Any, ...]:
    """One message as a row in ``COLUMNS`` order."""
    text = body.decode("utf-8", "replace") if md.Format.strip() == MQSTR else None
    topic = properties.get("MQTopicString", properties.get("mqps.Top"))
    return (
        body, text, None if topic is None else str(topic), md.MsgId, md.CorrelId, put_time(md),
        md.Priority, md.Persistence, md.Expiry, md.Format.strip(), md.ReplyToQ.strip(),
        md.ReplyToQMgr.strip(), md.UserIdentifier.strip(), md.PutApplName.strip(), md.BackoutCount,
        {str(k): _text(v) for k, v in properties.items()},
    )


def arrow_schema() -> Any:
    """The schema as pyarrow types (for readers that yield Arrow record batches)."""
    import pyarrow as pa

    return pa.schema([
        ("body", pa.binary()), ("text", pa.string()), ("topic", pa.string()), ("msg_id", pa.binary()),
        ("correl_id", pa.binary()), ("put_time", pa.timestamp("us", tz="UTC")), ("priority", pa.int32()),
        ("persistence", pa.int32()), ("expiry", pa.int32()), ("format", pa.string()), ("reply_to_q", pa.string()),
        ("reply_to_qmgr", pa.string()), ("user_id", pa.string()), ("put_appl_name", pa.string()),
        ("backout_count", pa.int32()), ("properties", pa.map_(pa.string(), pa.string())),
    ])


def to_batch(rows: list[tuple[Any, ...]]) -> Any:
    """Rows (``to_row``'s tuples) as one Arrow record batch: Spark takes it without per-row pickling."""
    import pyarrow as pa

    schema = arrow_schema()
    columns = list(zip(*rows, strict=True)) if rows else [()] * len(COLUMNS)
    arrays = []
    for field, column in zip(schema, columns, strict=True):
        values = list(column)
        if field.name == "properties":
            values = [list(v.items()) for v in values]
        arrays.append(pa.array(values, type=field.type))
    return pa.RecordBatch.from_arrays(arrays, schema=schema)


def _text(value: Any) -> str:
    if isinstance(value, bytes):
        return value.hex()
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
