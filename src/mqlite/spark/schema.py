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
| qmgr | string | the queue manager the message was read from (with option ``cluster``, which instance) |

Pure functions (no Spark session needed) so the conversion is testable on its own.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

from mqlite.message import MD_FIELDS, put_hundredths

SCHEMA_DDL = (
    "body binary, text string, topic string, msg_id binary, correl_id binary, put_time timestamp, "
    "priority int, persistence int, expiry int, format string, reply_to_q string, reply_to_qmgr string, "
    "user_id string, put_appl_name string, backout_count int, properties map<string,string>, qmgr string"
)
_TYPES = dict(part.strip().split(" ", 1) for part in SCHEMA_DDL.split(", "))  # column -> Spark type
COLUMNS = tuple(_TYPES)
MQSTR = "MQSTR"
TOPIC_PROPERTIES = ("MQTopicString", "mqps.Top")  # the property a publication's topic string is in

# A message on the wire: (MQMD as a list in MD_FIELDS order, properties, body).
WireMessage = tuple[Sequence[Any], Mapping[str, Any], bytes]

_AT = {name: i for i, name in enumerate(MD_FIELDS)}
# Columns copied from the MQMD as they are, and those trimmed of MQ's blank padding.
_PLAIN = {"msg_id": "MsgId", "correl_id": "CorrelId", "priority": "Priority", "persistence": "Persistence",
          "expiry": "Expiry", "backout_count": "BackoutCount"}
_TRIMMED = {"reply_to_q": "ReplyToQ", "reply_to_qmgr": "ReplyToQMgr", "user_id": "UserIdentifier",
            "put_appl_name": "PutApplName"}


def arrow_schema() -> Any:
    """The schema as pyarrow types (readers yield Arrow record batches)."""
    import pyarrow as pa

    return pa.schema([
        ("body", pa.binary()), ("text", pa.string()), ("topic", pa.string()), ("msg_id", pa.binary()),
        ("correl_id", pa.binary()), ("put_time", pa.timestamp("us", tz="UTC")), ("priority", pa.int32()),
        ("persistence", pa.int32()), ("expiry", pa.int32()), ("format", pa.string()), ("reply_to_q", pa.string()),
        ("reply_to_qmgr", pa.string()), ("user_id", pa.string()), ("put_appl_name", pa.string()),
        ("backout_count", pa.int32()), ("properties", pa.map_(pa.string(), pa.string())), ("qmgr", pa.string()),
    ])


def check_columns(schema: Any) -> tuple[str, ...]:
    """The columns of a schema the user gave (``.schema("body binary, topic string")``): a subset
    of ``COLUMNS`` with their types, in any order. Fewer columns cost Spark less per row."""
    names = []
    for field in schema.fields:
        kind = _TYPES.get(field.name)
        if kind is None:
            raise ValueError(f"mqlite: no column {field.name!r}; the columns are {', '.join(COLUMNS)}")
        if field.dataType.simpleString() != kind:
            raise ValueError(f"mqlite: column {field.name!r} is {kind}, not {field.dataType.simpleString()}")
        names.append(field.name)
    return tuple(names)


def to_batch(messages: Sequence[WireMessage], columns: Sequence[str] = COLUMNS, qmgr: str | None = None) -> Any:
    """Messages as one Arrow record batch of ``columns``, built column by column (Spark takes it
    without per-row conversion; a row at a time costs several times more); ``qmgr``: the queue
    manager they were read from (column ``qmgr``)."""
    import pyarrow as pa

    full = arrow_schema()
    schema = pa.schema([full.field(name) for name in columns])
    parts = _Columns(messages, qmgr)
    return pa.RecordBatch.from_arrays([parts.array(field) for field in schema], schema=schema)


class _Columns:
    """The columns of a list of messages, each computed when asked for."""

    def __init__(self, messages: Sequence[WireMessage], qmgr: str | None = None) -> None:
        self.n = len(messages)
        self.qmgr = qmgr
        mds, self.props, self.bodies = (list(c) for c in zip(*messages, strict=True)) if self.n else ([], [], [])
        self.fields = list(zip(*mds, strict=True)) if self.n else [()] * len(MD_FIELDS)

    @functools.cached_property
    def formats(self) -> list[str]:
        return [f.strip() for f in self.fields[_AT["Format"]]]

    def values(self, column: str) -> list[Any] | tuple[Any, ...]:
        if column == "body":
            return self.bodies
        if column == "text":
            return [b.decode("utf-8", "replace") if f == MQSTR else None
                    for f, b in zip(self.formats, self.bodies, strict=True)]
        if column == "topic":
            return [_topic(p) if p else None for p in self.props]
        if column == "put_time":
            return _put_times(self.fields[_AT["PutDate"]], self.fields[_AT["PutTime"]])
        if column == "format":
            return self.formats
        if column == "qmgr":
            return [self.qmgr] * self.n
        if column in _TRIMMED:
            return [v.strip() for v in self.fields[_AT[_TRIMMED[column]]]]
        return self.fields[_AT[_PLAIN[column]]]

    def array(self, field: Any) -> Any:
        import pyarrow as pa

        if field.name == "properties":
            return _properties(self.props, field.type)
        return pa.array(self.values(field.name), type=field.type)


def _topic(properties: Mapping[str, Any]) -> str | None:
    for name in TOPIC_PROPERTIES:
        if name in properties:
            return str(properties[name])
    return None


def _put_times(dates: Sequence[str], times: Sequence[str]) -> list[int | None]:
    """PutDate + PutTime as microseconds since the epoch (UTC); None where they are not set.
    Messages put in the same hundredth share a stamp, so each distinct one is parsed once."""
    seen: dict[tuple[str, str], int | None] = {}
    result: list[int | None] = []
    for stamp in zip(dates, times, strict=True):
        micros = seen.get(stamp, -1)
        if micros == -1:
            hundredths = put_hundredths(*stamp)
            micros = seen[stamp] = None if hundredths is None else hundredths * 10_000
        result.append(micros)
    return result


def _properties(props: Sequence[Mapping[str, Any]], kind: Any) -> Any:
    """The properties column: a map array built from flat keys and values."""
    import pyarrow as pa

    offsets = [0]
    keys: list[str] = []
    values: list[str] = []
    for p in props:
        if p:
            for k, v in p.items():
                keys.append(str(k))
                values.append(_text(v))
        offsets.append(len(keys))
    return pa.MapArray.from_arrays(pa.array(offsets, pa.int32()), pa.array(keys, pa.string()),
                                   pa.array(values, pa.string()), type=kind)


def _text(value: Any) -> str:
    if isinstance(value, bytes):
        return value.hex()
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
