"""mqlite as a PySpark data source (Python Data Source API, no JVM code): ``format("mqlite")``.

Batch reads so far: ``spark.read.format("mqlite")`` with ``queue`` browses a queue (nothing is
removed); with ``topic`` (a topic-scheme pattern) it reads the retained publications under it.
Options: ``qmgr`` (a local queue manager, found in ``home`` or ``$MQLITE_HOME``) or ``host`` +
``port`` (+ ``channel``), ``user``, ``password``, and one of ``queue`` / ``topic``. Rows follow ``mqlite.spark.schema``.

Every connection is made where the data is read (on the executor), never pickled.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from pyspark.sql.datasource import DataSource, DataSourceReader, InputPartition
from pyspark.sql.types import StructType

from mqlite.spark.schema import SCHEMA_DDL, to_row


@dataclass(frozen=True)
class Options:
    """The data source's options, checked once on the driver (a bad one fails the query at start)."""

    qmgr: str | None
    host: str | None
    port: int | None
    channel: str | None
    user: str | None
    password: str | None
    queue: str | None
    topic: str | None
    home: str | None  # MQLITE_HOME where the local queue manager lives (default: the environment's)

    @classmethod
    def parse(cls, options: dict[str, str]) -> Options:
        get = {k.lower(): v for k, v in options.items()}.get
        port = get("port")
        parsed = cls(get("qmgr"), get("host"), int(port) if port else None, get("channel"), get("user"),
                     get("password"), get("queue"), get("topic"), get("home"))
        if parsed.host is None and parsed.qmgr is None:
            raise ValueError("mqlite: give option 'qmgr' (a local queue manager) or 'host' and 'port'")
        if parsed.host is not None and parsed.port is None:
            raise ValueError("mqlite: option 'host' needs 'port'")
        if (parsed.queue is None) == (parsed.topic is None):
            raise ValueError("mqlite: give exactly one of the options 'queue' and 'topic'")
        return parsed

    def connect(self) -> Any:
        import mqlite

        if self.host is not None:
            return mqlite.connect(self.qmgr, self.channel, f"{self.host}({self.port})", self.user, self.password)
        if self.home is not None:  # Spark's Python workers may not share the driver's environment
            os.environ["MQLITE_HOME"] = self.home
        return mqlite.connect(self.qmgr, user=self.user, password=self.password)


class MQDataSource(DataSource):
    """``spark.dataSource.register(MQDataSource)``, then ``format("mqlite")``."""

    @classmethod
    def name(cls) -> str:
        return "mqlite"

    def schema(self) -> str:
        return SCHEMA_DDL

    def reader(self, schema: StructType) -> DataSourceReader:
        return BatchReader(Options.parse(dict(self.options)))


class BatchReader(DataSourceReader):
    def __init__(self, options: Options) -> None:
        self.options = options

    def partitions(self) -> list[InputPartition]:
        return [InputPartition(0)]  # one browse cursor: one partition

    def read(self, partition: InputPartition) -> Iterator[tuple[Any, ...]]:
        qm = self.options.connect()
        try:
            if self.options.queue is not None:
                yield from _browse(qm, self.options.queue)
            else:
                assert self.options.topic is not None
                yield from _retained(qm, self.options.topic)
        finally:
            qm.disconnect()


def _browse(qm: Any, queue: str) -> Iterator[tuple[Any, ...]]:
    import mqlite
    from mqlite import cmqc
    from mqlite.client.structs import core_descriptor

    q = mqlite.Queue(qm, queue, cmqc.MQOO_BROWSE | cmqc.MQOO_FAIL_IF_QUIESCING)
    try:
        for message in q.browse():
            yield to_row(core_descriptor(message.md), message.properties, bytes(message))
    finally:
        q.close()


def _retained(qm: Any, pattern: str) -> Iterator[tuple[Any, ...]]:
    """The retained publications under ``pattern``: a short-lived managed subscription receives
    them at once (spec A R-RET-12) and is removed with its queue."""
    import mqlite
    from mqlite import cmqc
    from mqlite.client.structs import core_descriptor

    sub = mqlite.Subscription(qm, pattern)
    try:
        for message in sub.messages(wait=0):
            yield to_row(core_descriptor(message.md), message.properties, bytes(message))
    finally:
        sub.close(cmqc.MQCO_REMOVE_SUB, close_sub_queue=True)
