"""A cluster queue read from every instance in parallel (option ``cluster``).

The driver asks the member it connects to where the instances are (``cluster.discover``) and
plans partitions per instance: each connects to its instance's queue manager directly (the
CONNAME the cluster publishes, as ``user`` through ``channel``), so executors read the instances
side by side. Rows carry the instance's queue manager in column ``qmgr``.

- Batch (``ClusterBatchReader``): each instance's available messages when the query is planned,
  browsed (nothing removed), in ranges of ``partitionSize`` sequence numbers.
- Stream (``ClusterStreamReader``, ``trigger(availableNow=True)`` included: what the instances
  hold when the run starts, in micro-batches of ``maxMessagesPerTrigger`` shared between them):
  the offset is a sequence number per instance,
  ``{"qmgrs": {"QM3": 120, "QM5": 98}}``; a micro-batch reads ``start < seq <= end`` of each
  instance (the same range gives the same messages, so a restarted query reads exactly what its
  checkpoint says) and ``commit`` removes, on each instance, what Spark has committed. Instances
  are discovered again at each micro-batch (a new instance is read from its oldest message; a
  queue manager restarted on another port is found at its new CONNAME). An instance out of reach
  (its queue manager ended, a connection refused) is left for that micro-batch and read when it
  is back; what Spark committed meanwhile is removed from it at a later commit. The query fails
  only when no instance answers, or on any other error (2035, 2085...).
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from pyspark.sql.datasource import DataSourceReader, DataSourceStreamReader, InputPartition
from pyspark.sql.streaming.datasource import ReadAllAvailable, ReadLimit, ReadMaxRows, SupportsTriggerAvailableNow

from mqlite.spark.cluster import Instance, discover
from mqlite.spark.options import Options
from mqlite.spark.ranges import read_range, slices
from mqlite.spark.schema import COLUMNS

__all__ = ["ClusterBatchReader", "ClusterStreamReader", "InstanceRange", "share"]

log = logging.getLogger("mqlite.spark")

# Reasons that say a queue manager is out of reach (ended, ending, refusing connections, another
# queue manager at its old CONNAME: 2058), not that something is wrong with the query: a stream
# reads the other instances meanwhile.
_UNREACHABLE = frozenset({2009, 2058, 2059, 2161, 2162, 2202, 2203, 2537, 2538})


@dataclass(frozen=True)
class InstanceRange(InputPartition):
    """Messages with ``after < seq <= through`` of the instance on queue manager ``qmgr``."""

    qmgr: str
    conname: str
    after: int
    through: int


def _read(options: Options, columns: tuple[str, ...], partition: InputPartition) -> Iterator[Any]:
    assert isinstance(partition, InstanceRange) and options.queue is not None
    if partition.through <= partition.after:
        return
    qm = options.connect_instance(partition.qmgr, partition.conname)
    try:
        with options.refusals(f"browse of queue {options.queue}", partition.qmgr):
            yield from read_range(qm, options.queue, partition.after, partition.through, columns, partition.qmgr)
    finally:
        qm.disconnect()


def _offsets(options: Options, instance: Instance) -> tuple[int, int]:
    """(before the oldest available message, the newest) of the instance on ``instance``."""
    assert options.queue is not None
    qm = options.connect_instance(instance.qmgr, instance.conname)
    try:
        with options.refusals(f"inquiry of queue {options.queue}", instance.qmgr):
            oldest, newest = qm.queue_offsets(options.queue)
        return int(oldest), int(newest)
    finally:
        qm.disconnect()


def _unreachable(error: BaseException) -> bool:
    return getattr(error, "reason", None) in _UNREACHABLE


class ClusterBatchReader(DataSourceReader):
    """``spark.read`` of a cluster queue: every instance browsed, ``partitionSize`` sequence
    numbers a partition. An instance out of reach fails the query (a batch read is complete)."""

    def __init__(self, options: Options, columns: tuple[str, ...] = COLUMNS) -> None:
        self.options = options
        self.columns = columns

    def partitions(self) -> list[InputPartition]:
        per_instance: list[list[InstanceRange]] = []
        found = discover(self.options)
        for instance in found:
            after, through = _offsets(self.options, instance)
            per_instance.append([InstanceRange(instance.qmgr, instance.conname, first, last)
                                 for first, last in slices(after, through, self.options.partition_size)])
        parts = interleave(per_instance)
        return parts or [InstanceRange(found[0].qmgr, found[0].conname, 0, 0)]  # nothing to read: one empty

    def read(self, partition: InputPartition) -> Iterator[Any]:
        return _read(self.options, self.columns, partition)


def interleave(per_instance: list[list[InstanceRange]]) -> list[InputPartition]:
    """The instances' partitions taken in turn (QMA's first, QMB's first, QMA's second, ...):
    Spark runs tasks in this order, so its cores read different queue managers at once rather
    than all of one instance's before the next."""
    parts: list[InputPartition] = []
    for round_ in itertools.zip_longest(*per_instance):
        parts += [part for part in round_ if part is not None]
    return parts


def positions(offset: Mapping[str, Any]) -> dict[str, int]:
    """The sequence number per instance of a stream offset ``{"qmgrs": {...}}``."""
    if "qmgrs" not in offset:
        raise ValueError(f"mqlite: offset {dict(offset)} is not a cluster stream's: this checkpoint was written "
                         "by a stream without option 'cluster'")
    return {str(qmgr): int(seq) for qmgr, seq in offset["qmgrs"].items()}


def share(baseline: Mapping[str, int], newest: Mapping[str, int], budget: int) -> dict[str, int]:
    """The end of a micro-batch of at most ``budget`` sequence numbers in all, shared equally
    between the instances with messages past their ``baseline`` (what one leaves goes to the
    others): the sequence number each instance is read through."""
    pending = {qmgr: max(0, newest[qmgr] - baseline[qmgr]) for qmgr in newest}
    granted = dict.fromkeys(pending, 0)
    while budget > 0:
        waiting = sorted(qmgr for qmgr in pending if granted[qmgr] < pending[qmgr])
        if not waiting:
            break
        each = max(1, budget // len(waiting))
        for qmgr in waiting:
            take = min(each, pending[qmgr] - granted[qmgr], budget)
            granted[qmgr] += take
            budget -= take
    return {qmgr: baseline[qmgr] + granted[qmgr] for qmgr in newest}


class ClusterStreamReader(DataSourceStreamReader, SupportsTriggerAvailableNow):
    """``spark.readStream`` of a cluster queue: offsets per instance (module docstring)."""

    def __init__(self, options: Options, columns: tuple[str, ...] = COLUMNS) -> None:
        self.options = options
        self.columns = columns
        self.known: dict[str, str] = {}  # queue manager -> CONNAME, as last discovered
        self.removed: dict[str, int] = {}  # what this reader has removed from each instance
        self.target: dict[str, int] | None = None  # availableNow: the newest of each instance at the start

    def _discover(self) -> dict[str, str]:
        """The instances now (and remembered); those known before when the member is out of reach."""
        try:
            found = {instance.qmgr: instance.conname for instance in discover(self.options)}
        except Exception as error:
            if not (self.known and _unreachable(error)):
                raise
            log.warning("mqlite: cluster member out of reach (%s); reading the instances known before", error)
            return dict(self.known)
        self.known.update(found)
        return found

    def _newest(self) -> dict[str, tuple[int, int]]:
        """(before the oldest, the newest) of each instance that answers; raises when none does."""
        answered: dict[str, tuple[int, int]] = {}
        failure: BaseException | None = None
        for qmgr, conname in sorted(self._discover().items()):
            try:
                answered[qmgr] = _offsets(self.options, Instance(qmgr, conname))
            except Exception as error:
                if not _unreachable(error):
                    raise
                log.warning("mqlite: instance %s of %s out of reach (%s): read when it is back", qmgr,
                            self.options.queue, error)
                failure = error
        if not answered and failure is not None:
            raise failure
        return answered

    def initialOffset(self) -> dict[str, Any]:
        return {"qmgrs": {qmgr: oldest for qmgr, (oldest, _) in self._newest().items()}}

    def getDefaultReadLimit(self) -> ReadLimit:
        limit = self.options.max_per_trigger
        return ReadMaxRows(limit) if limit else ReadAllAvailable()

    def prepareForTriggerAvailableNow(self) -> None:
        """``trigger(availableNow=True)``: the run reads what each instance holds now, in as many
        micro-batches as ``maxMessagesPerTrigger`` makes; later messages (and instances) wait
        for the next run."""
        self.target = {qmgr: newest for qmgr, (_, newest) in self._newest().items()}

    def latestOffset(self, start: dict[str, Any], limit: ReadLimit) -> dict[str, Any]:
        begun = positions(start)
        now = self._newest()
        if self.target is not None:
            now = {qmgr: (oldest, min(newest, self.target[qmgr])) for qmgr, (oldest, newest) in now.items()
                   if qmgr in self.target}
        # An instance the offset does not name yet is read from its oldest message (from 0).
        newest = {qmgr: max(last, begun.get(qmgr, 0)) for qmgr, (_, last) in now.items()}
        if isinstance(limit, ReadMaxRows):
            baseline = {qmgr: max(begun.get(qmgr, 0), oldest) for qmgr, (oldest, _) in now.items()}
            newest = {qmgr: max(seq, begun.get(qmgr, 0))
                      for qmgr, seq in share(baseline, newest, limit.max_rows).items()}
        return {"qmgrs": {**begun, **newest}}  # an instance out of reach keeps its offset

    def partitions(self, start: dict[str, Any], end: dict[str, Any]) -> list[InputPartition]:
        begun, ends = positions(start), positions(end)
        per_instance: list[list[InstanceRange]] = []
        for qmgr, through in sorted(ends.items()):
            after = begun.get(qmgr, 0)
            if through <= after:
                continue
            conname = self.known.get(qmgr) or self._discover().get(qmgr)
            if conname is None:
                raise ValueError(f"mqlite: messages {after + 1}..{through} of {self.options.queue} are on queue "
                                 f"manager {qmgr}, which is no longer an instance of the cluster queue")
            per_instance.append([InstanceRange(qmgr, conname, first, last)
                                 for first, last in slices(after, through, self.options.partition_size)])
        return interleave(per_instance)

    def read(self, partition: InputPartition) -> Iterator[Any]:
        return _read(self.options, self.columns, partition)

    def commit(self, end: dict[str, Any]) -> None:
        """Remove from each instance what Spark has committed; an instance out of reach keeps it
        until a later commit (its offset only grows, so that commit removes it too)."""
        assert self.options.queue is not None
        for qmgr, through in sorted(positions(end).items()):
            if through <= self.removed.get(qmgr, 0):
                continue
            conname = self.known.get(qmgr)
            if conname is None:
                try:
                    conname = self._discover().get(qmgr)
                except Exception as error:
                    if not _unreachable(error):
                        raise
                if conname is None:
                    log.warning("mqlite: no CONNAME known for %s: its committed messages stay for now", qmgr)
                    continue
            try:
                qm = self.options.connect_instance(qmgr, conname)
                try:
                    qm.remove_through(self.options.queue, through)
                finally:
                    qm.disconnect()
            except Exception as error:
                if not _unreachable(error):
                    raise
                log.warning("mqlite: instance %s out of reach (%s): committed messages removed later", qmgr, error)
                continue
            self.removed[qmgr] = through
