"""mqlite as a PySpark data source (Python Data Source API, no JVM code): ``format("mqlite")``.

- ``spark.read``: with ``queue``, a browse of the queue (nothing is removed); with ``topic`` (a
  topic-scheme pattern), the retained publications under it.
- ``spark.readStream``: a queue, or a durable subscription (``topic`` + ``subscription``), read
  by sequence-number offsets; what Spark has committed is removed (``StreamReader``).
- ``write`` / ``writeStream``: each partition put (``queue``) or published (``topic`` /
  ``topic_column``) in one unit of work, with deterministic MsgIds (``_RowWriter``).

Connection options: ``qmgr`` (a local queue manager, found in ``home`` or ``$MQLITE_HOME``) or
``host`` + ``port`` (+ ``channel``), ``user``, ``password``. Rows follow ``mqlite.spark.schema``;
a schema given with ``.schema(...)`` picks some of its columns (the fewer, the faster); column
``qmgr`` says which queue manager each message was read from.

Clusters: with ``cluster`` = ``"true"`` (or a cluster's name: only the instances in that
cluster), ``read`` and ``readStream`` of a ``queue`` read the cluster queue from every instance
in parallel: the queue manager given is any member of the cluster (a full repository, or a member
that does not host the queue: a partial repository hosting an instance may know no other), the
driver asks it for the instances (DISPLAY QCLUSTER, DISPLAY CLUSQMGR for their CONNAMEs) and
plans partitions per instance, each connecting to its instance's queue manager at its CONNAME as
``user`` / ``password`` through ``channel``. Streams keep an offset per instance and remove
what Spark committed from each, exactly once across restarts as for one queue
(``mqlite.spark.cluster_reader``). The DISPLAY commands run as ``adminUser`` / ``adminPassword``
when given (through ``adminChannel``, DEV.ADMIN.SVRCONN by default, over TCP), else as ``user``:
over TCP only administrators may run them. The option is explicit, not inferred from the queue
being a cluster queue: without it a queue manager hosting an instance reads its own, as before,
and a job never starts connecting to other queue managers by itself.

Every connection is made where the data is read (on the executor), never pickled.
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from pyspark.sql.datasource import (
    DataSource,
    DataSourceArrowWriter,
    DataSourceReader,
    DataSourceStreamArrowWriter,
    DataSourceStreamReader,
    DataSourceStreamWriter,
    DataSourceWriter,
    InputPartition,
    WriterCommitMessage,
)
from pyspark.sql.streaming.datasource import ReadAllAvailable, ReadLimit, ReadMaxRows
from pyspark.sql.types import StructType

from mqlite.message import MD_FIELDS, MessageDescriptor
from mqlite.spark.cluster_reader import ClusterBatchReader, ClusterStreamReader
from mqlite.spark.options import Options
from mqlite.spark.ranges import CHUNK, read_range, slices
from mqlite.spark.schema import COLUMNS, SCHEMA_DDL, WireMessage, check_columns, to_batch

__all__ = ["BatchReader", "BatchWriter", "MQDataSource", "Options", "StreamReader", "StreamWriter", "write_batches"]


class MQDataSource(DataSource):
    """``spark.dataSource.register(MQDataSource)``, then ``format("mqlite")``."""

    @classmethod
    def name(cls) -> str:
        return "mqlite"

    def schema(self) -> str:
        return SCHEMA_DDL

    def reader(self, schema: StructType) -> DataSourceReader:
        options = Options.parse(dict(self.options))
        if options.cluster is not None:
            return ClusterBatchReader(options, check_columns(schema))
        return BatchReader(options, check_columns(schema))

    def writer(self, schema: StructType, overwrite: bool) -> DataSourceWriter:
        return BatchWriter(Options.parse(dict(self.options), writing=True), schema.fieldNames())

    def streamWriter(self, schema: StructType, overwrite: bool) -> DataSourceStreamWriter:
        return StreamWriter(Options.parse(dict(self.options), writing=True), schema.fieldNames())

    def streamReader(self, schema: StructType) -> DataSourceStreamReader:
        options = Options.parse(dict(self.options))
        if options.topic is not None and not options.subscription:
            raise ValueError("mqlite: streaming from a topic needs option 'subscription' (a durable one's name)")
        if options.cluster is not None:
            return ClusterStreamReader(options, check_columns(schema))
        return StreamReader(options, check_columns(schema))


class BatchReader(DataSourceReader):
    def __init__(self, options: Options, columns: tuple[str, ...] = COLUMNS) -> None:
        self.options = options
        self.columns = columns

    def partitions(self) -> list[InputPartition]:
        return [InputPartition(0)]  # one browse cursor: one partition

    def read(self, partition: InputPartition) -> Iterator[Any]:
        qm = self.options.connect()
        what = (f"browse of queue {self.options.queue}" if self.options.queue is not None
                else f"a subscription to topic {self.options.topic!r}")
        try:
            with self.options.refusals(what, str(qm.name)):
                if self.options.queue is not None:
                    messages = _browse(qm, self.options.queue)
                else:
                    assert self.options.topic is not None
                    messages = _retained(qm, self.options.topic, self.options.selector)
                while chunk := list(itertools.islice(messages, CHUNK)):
                    yield to_batch(chunk, self.columns, str(qm.name))
        finally:
            qm.disconnect()


@dataclass(frozen=True)
class RangePartition(InputPartition):
    """Messages with ``after < seq <= through`` of one queue."""

    after: int
    through: int


class StreamReader(DataSourceStreamReader):
    """A queue, or a durable subscription's queue, read by sequence-number offsets: ``read``
    browses a range (the same range gives the same messages, so a restarted query reads exactly
    what its checkpoint says), ``commit`` removes what Spark has committed."""

    def __init__(self, options: Options, columns: tuple[str, ...] = COLUMNS) -> None:
        self.options = options
        self.columns = columns
        self.queue = options.queue or self._subscription_queue()

    def _subscription_queue(self) -> str:
        """Create the durable subscription on first use, resume it after; its queue's name."""
        from mqlite import cmqc
        from mqlite.client import public as mqlite

        assert self.options.topic is not None and self.options.subscription is not None
        qm = self.options.connect()
        what = f"durable subscription {self.options.subscription} to topic {self.options.topic!r}"
        try:
            with self.options.refusals(what, str(qm.name)):
                sub = mqlite.Subscription(qm, self.options.topic, name=self.options.subscription, durable=True,
                                          selector=self.options.selector)
            queue = sub.get_sub_queue()
            assert queue is not None
            name = str(queue.name)
            sub.close(cmqc.MQCO_KEEP_SUB, close_sub_queue=True)
            return name
        finally:
            qm.disconnect()

    def _offsets(self) -> tuple[int, int]:
        qm = self.options.connect()
        try:
            with self.options.refusals(f"inquiry of queue {self.queue}", str(qm.name)):
                offsets: tuple[int, int] = qm.queue_offsets(self.queue)
            return offsets
        finally:
            qm.disconnect()

    def initialOffset(self) -> dict[str, int]:
        return {"seq": self._offsets()[0]}

    def getDefaultReadLimit(self) -> ReadLimit:
        limit = self.options.max_per_trigger
        return ReadMaxRows(limit) if limit else ReadAllAvailable()

    def latestOffset(self, start: dict[str, int], limit: ReadLimit) -> dict[str, int]:
        newest = self._offsets()[1]
        if isinstance(limit, ReadMaxRows):
            newest = min(newest, int(start["seq"]) + limit.max_rows)
        return {"seq": max(newest, int(start["seq"]))}

    def partitions(self, start: dict[str, int], end: dict[str, int]) -> list[InputPartition]:
        first, last = int(start["seq"]), int(end["seq"])
        return [RangePartition(after, through) for after, through in slices(first, last, self.options.partition_size)]

    def read(self, partition: InputPartition) -> Iterator[Any]:
        assert isinstance(partition, RangePartition)
        qm = self.options.connect()
        try:
            with self.options.refusals(f"browse of queue {self.queue}", str(qm.name)):
                yield from read_range(qm, self.queue, partition.after, partition.through, self.columns, str(qm.name))
        finally:
            qm.disconnect()

    def commit(self, end: dict[str, int]) -> None:
        qm = self.options.connect()
        try:
            with self.options.refusals(f"input from queue {self.queue}", str(qm.name)):
                qm.remove_through(self.queue, int(end["seq"]))
        finally:
            qm.disconnect()


class _RowWriter:
    """Each partition's rows put (``queue``) or published (``topic`` / ``topic_column``) in one
    unit of work, committed when the partition is written: a failed task leaves nothing, and its
    retry sends the same deterministic MsgIds, so a queue manager with a duplicate window
    (qm.ini ``Mqlite: DuplicateWindow``) drops what an earlier attempt had committed.

    Option ``retain`` makes publications retained. Columns: ``body`` (binary or string, required),
    and if present ``properties`` (a map), ``correl_id`` (binary), ``priority``, ``persistence``
    (ints), and the topic column. Rows come as Arrow record batches and go out as asynchronous
    puts checked at the commit, without per-row MQI structures."""

    def __init__(self, options: Options, columns: list[str]) -> None:
        if "body" not in columns:
            raise ValueError("mqlite: the rows to write need a 'body' column")
        if options.topic_column is not None and options.topic_column not in columns:
            raise ValueError(f"mqlite: no column {options.topic_column!r} for option 'topic_column'")
        self.options = options
        self.columns = columns
        self.write_id = uuid.uuid4().hex  # distinct per write job; streaming uses the query id

    def write(self, iterator: Iterator[Any]) -> WriterCommitMessage:
        from pyspark import TaskContext

        context = TaskContext.get()
        partition = context.partitionId() if context is not None else 0
        query = (context.getLocalProperty("sql.streaming.queryId") if context is not None else None) or self.write_id
        batch = (context.getLocalProperty("streaming.sql.batchId") if context is not None else None) or "0"
        return _Written(write_batches(self.options, iterator, f"{query}/{batch}/{partition}"))


@dataclass
class _Written(WriterCommitMessage):
    rows: int


class BatchWriter(_RowWriter, DataSourceArrowWriter):
    """``df.write.format("mqlite")``."""


class StreamWriter(_RowWriter, DataSourceStreamArrowWriter):
    """The same per-partition units of work for each micro-batch; MsgIds from the query id (kept
    in the checkpoint) and the batch id, so a batch Spark replays after a restart is recognised."""

    def commit(self, messages: list[WriterCommitMessage | None], batchId: int) -> None:
        return None

    def abort(self, messages: list[WriterCommitMessage | None], batchId: int) -> None:
        return None


_MD_POSITION = {name: i for i, name in enumerate(MD_FIELDS)}


def write_batches(options: Options, batches: Iterator[Any], prefix: str) -> int:
    """Put or publish every row of ``batches`` (Arrow record batches) in one unit of work; MsgId i
    of the partition is sha256(prefix/i). Returns the number of rows."""
    from mqlite import cmqc
    from mqlite.client import common
    from mqlite.protocol import native, native_shapes
    from mqlite.protocol.native import Op

    qm = options.connect()
    conn = qm.get_handle()
    opened: dict[str, int] = {}

    def handle(target: str) -> int:
        hobj = opened.get(target)
        if hobj is None:
            od = {**native_shapes.OD_DEFAULTS, "ObjectName": target} if options.queue else {
                **native_shapes.OD_DEFAULTS, "ObjectType": cmqc.MQOT_TOPIC, "ObjectString": target}
            hobj = opened[target] = int(conn.call(Op.OPEN, [od, cmqc.MQOO_OUTPUT])[0])
        return hobj

    template = MessageDescriptor(CodedCharSetId=conn.ccsid).to_list()
    put_options = cmqc.MQPMO_SYNCPOINT | cmqc.MQPMO_ASYNC_RESPONSE | (cmqc.MQPMO_RETAIN if options.retain else 0)
    fixed = 0 if options.topic_column else handle(options.queue or str(options.topic))  # 0: per row
    count = 0
    try:
        for batch in batches:
            columns = batch.to_pydict()
            overrides = [(_MD_POSITION[field], convert, columns[column])
                         for column, field, convert in _MD_COLUMNS if column in columns]
            properties = columns.get("properties")
            topics = columns[options.topic_column] if options.topic_column else None
            frames = []
            for i, body in enumerate(columns["body"]):
                wire = template.copy()
                if type(body) is str:
                    body = body.encode("utf-8")
                    wire[_FORMAT] = "MQSTR"
                elif body is None:
                    body = b""
                wire[_MSG_ID] = hashlib.sha256(f"{prefix}/{count}".encode()).digest()[:24]
                for at, convert, values in overrides:
                    if values[i] is not None:
                        wire[at] = convert(values[i])
                hobj = fixed if topics is None else handle(_row_topic(options, topics[i]))
                props = dict(properties[i]) if properties is not None and properties[i] else {}
                common.prepare_async(wire, put_options, conn.async_puts)
                frames.append(native.encode_put(0, hobj, wire, put_options, props, body))
                count += 1
                if len(frames) == _FRAMES_PER_SEND:
                    conn.send(b"".join(frames))
                    frames.clear()
            if frames:
                conn.send(b"".join(frames))
        qm.commit()  # reads the asynchronous puts' failures first: any one backs the partition out
        return count
    except BaseException:
        with contextlib.suppress(Exception):
            qm.backout()
        raise
    finally:
        with contextlib.suppress(Exception):
            qm.disconnect()


_FORMAT, _MSG_ID = _MD_POSITION["Format"], _MD_POSITION["MsgId"]
_FRAMES_PER_SEND = 128  # asynchronous puts handed to the connection at once
# Optional columns a written row may set MQMD fields from.
_MD_COLUMNS: tuple[tuple[str, str, Any], ...] = (
    ("correl_id", "CorrelId", lambda v: bytes(v).ljust(24, b"\0")[:24]),
    ("priority", "Priority", int),
    ("persistence", "Persistence", int),
)


def _row_topic(options: Options, topic: Any) -> str:
    if not topic:
        raise ValueError(f"mqlite: a row has no topic in column {options.topic_column!r}")
    return str(topic)


def _browse(qm: Any, queue: str) -> Iterator[WireMessage]:
    from mqlite import cmqc
    from mqlite.client import public as mqlite
    from mqlite.client.structs import core_descriptor

    q = mqlite.Queue(qm, queue, cmqc.MQOO_BROWSE | cmqc.MQOO_FAIL_IF_QUIESCING)
    try:
        for message in q.browse():
            yield core_descriptor(message.md).to_list(), message.properties, bytes(message)
    finally:
        q.close()


def _retained(qm: Any, pattern: str, selector: str | None) -> Iterator[WireMessage]:
    """The retained publications under ``pattern``: a short-lived managed subscription receives
    them at once (spec A R-RET-12) and is removed with its queue."""
    from mqlite import cmqc
    from mqlite.client import public as mqlite
    from mqlite.client.structs import core_descriptor

    sub = mqlite.Subscription(qm, pattern, selector=selector)
    try:
        for message in sub.messages(wait=0):
            yield core_descriptor(message.md).to_list(), message.properties, bytes(message)
    finally:
        sub.close(cmqc.MQCO_REMOVE_SUB, close_sub_queue=True)
