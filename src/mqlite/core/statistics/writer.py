"""The statistics-message writer: which queues, channels and MQI counts an interval collects (IBM's
STATQ, STATCHL and STATMQI rules, pure), the interval (STATINT), and the messages put on
SYSTEM.ADMIN.STATISTICS.QUEUE at each interval's end, at RESET QMGR TYPE(STATISTICS) and when the
queue manager ends normally. It is one reader of ``counters.Statistics`` (the resource-monitoring
publisher is another): it wants what it collects, keeps its own snapshots and subtracts them.

A queue switched to STATQ(ON) mid-interval is collected from the next interval (IBM: "starts
collection at the next interval"): the collected set is chosen when an interval begins.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from mqlite import cmqc as C
from mqlite.core.attributes import date_and_time
from mqlite.core.outbox import Outbox
from mqlite.core.queues import AVAILABLE, LocalQueue
from mqlite.core.statistics import messages
from mqlite.core.statistics.counters import (
    ChannelSnapshot,
    DepthWindow,
    MQISnapshot,
    QueueCounters,
    QueueSnapshot,
    Statistics,
)
from mqlite.message import Message, MessageDescriptor, put_date_time

_CHL_LEVELS = ("LOW", "MEDIUM", "HIGH")  # STATCHL levels: all collect the same fields in mqlite
_DEFTYPES = {"": C.MQQDT_PREDEFINED, "PERMDYN": C.MQQDT_PERMANENT_DYNAMIC, "TEMPDYN": C.MQQDT_TEMPORARY_DYNAMIC}
MESSAGE_CHANNEL_TYPES = ("SDR", "SVR", "RCVR", "RQSTR", "CLUSSDR", "CLUSRCVR")


def collects_queue(qmgr_statq: str, queue_statq: str) -> bool:
    """IBM's STATQ matrix: QMGR STATQ(NONE) collects no queue whatever the queue says; a queue's
    STATQ(OFF) is never collected, STATQ(ON) always (QMGR ON or OFF), STATQ(QMGR) when QMGR is ON."""
    if qmgr_statq == "NONE" or queue_statq == "OFF":
        return False
    return queue_statq == "ON" or qmgr_statq == "ON"


def collects_channel(qmgr_statchl: str, channel_statchl: str) -> bool:
    """STATCHL: QMGR NONE collects none; a channel's OFF never; LOW/MEDIUM/HIGH always; QMGR when
    the queue manager's is LOW, MEDIUM or HIGH. (mqlite's levels all collect the same fields.)"""
    if qmgr_statchl == "NONE" or channel_statchl == "OFF":
        return False
    return channel_statchl in _CHL_LEVELS or (channel_statchl == "QMGR" and qmgr_statchl in _CHL_LEVELS)


def due(start: float, now: float, statint: int) -> bool:
    """Whether the interval that began at ``start`` has ended by ``now`` (STATINT seconds)."""
    return now - start >= statint


def interval(start: float, end: float) -> messages.Interval:
    start_date, start_time = date_and_time(start)
    end_date, end_time = date_and_time(end)
    return messages.Interval(start_date, start_time, end_date, end_time)


@dataclass
class _Collected:
    queue: LocalQueue
    counters: QueueCounters
    base: QueueSnapshot
    window: DepthWindow


@dataclass
class _Interval:
    start: float
    queues: dict[str, _Collected] = field(default_factory=dict)
    mqi: MQISnapshot | None = None
    channels: dict[str, ChannelSnapshot] = field(default_factory=dict)


class StatisticsWriter:
    """Writes STATQ/STATMQI/STATCHL messages; ``tick(now)`` from the server's timer."""

    def __init__(self, name: str, attrs: dict[str, Any], queues: dict[str, LocalQueue],
                 qdefs: dict[str, tuple[str, dict[str, Any]]], channels: dict[str, dict[str, Any]],
                 statistics: Statistics, outbox: Outbox, deliver: Callable[[LocalQueue], None],
                 next_id: Callable[[], bytes], clock: Callable[[], float]) -> None:
        self.name = name
        self.attrs = attrs
        self.queues = queues
        self.qdefs = qdefs
        self.channel_defs = channels
        self.statistics = statistics
        self.outbox = outbox
        self.deliver = deliver
        self.next_id = next_id
        self.clock = clock
        self.channel_info: Callable[[str], tuple[str, str]] = lambda name: ("", "")  # (remote qmgr, conname)
        self.current = _Interval(clock())  # empty until start(): the objects are restored first

    def start(self) -> None:
        """Begin the first interval, once the queue manager's objects are restored."""
        self._end(self.current)
        self.current = self._begin(self.clock())

    def reset(self) -> None:
        """RESET QMGR TYPE(STATISTICS): what was collected so far written, a new interval begun."""
        self.write()

    # -- the interval ------------------------------------------------------------------
    def _begin(self, now: float) -> _Interval:
        current = _Interval(now)
        qmgr_statq = str(self.attrs.get("STATQ", "OFF"))
        for name, queue in self.queues.items():
            statq = str(queue.attrs.get("STATQ", "QMGR"))
            if name == messages.STATISTICS_QUEUE or not collects_queue(qmgr_statq, statq):
                continue
            counters = self.statistics.want_queue(name)
            if counters is not None:
                current.queues[name] = _Collected(queue, counters, counters.snapshot(), counters.window(queue.depth))
        if str(self.attrs.get("STATMQI", "OFF")) == "ON":
            current.mqi = self.statistics.want_mqi().snapshot()
        qmgr_statchl = str(self.attrs.get("STATCHL", "OFF"))
        for name, attrs in self.channel_defs.items():
            if attrs.get("CHLTYPE") in MESSAGE_CHANNEL_TYPES and collects_channel(
                    qmgr_statchl, str(attrs.get("STATCHL", "QMGR"))):
                current.channels[name] = self.statistics.want_channel(name).snapshot()
        return current

    def _end(self, current: _Interval) -> None:
        for name, collected in current.queues.items():
            collected.counters.close_window(collected.window)
            self.statistics.release_queue(name)
        if current.mqi is not None:
            self.statistics.release_mqi()
        for name in current.channels:
            self.statistics.release_channel(name)

    def tick(self, now: float) -> None:
        if due(self.current.start, now, int(self.attrs.get("STATINT", 1800))):
            self.write(now)

    def write(self, now: float | None = None) -> int:
        """Write the interval's messages and begin the next (RESET QMGR TYPE(STATISTICS), the
        interval's end, the end of the queue manager); the number of messages written."""
        now = self.clock() if now is None else now
        current = self.current
        bounds = interval(current.start, now)
        level = int(self.attrs.get("CMDLEVEL", 700))
        bodies: list[bytes] = []
        if current.mqi is not None and self.statistics.mqi is not None:
            counts = self.statistics.mqi.snapshot() - current.mqi
            if counts.active:  # IBM: statistics messages are written "whenever there is some activity"
                bodies.append(messages.mqi_message(self.name, bounds, level, counts))
        records = self._queue_records(current)
        bodies += messages.queue_messages(self.name, bounds, level, records)
        bodies += messages.channel_messages(self.name, bounds, level, self._channel_records(current))
        self._end(current)
        self.current = self._begin(now)
        return sum(self._put(body, now) for body in bodies)

    def _queue_records(self, current: _Interval) -> list[messages.QueueRecord]:
        records = []
        for name, c in current.queues.items():
            if self.queues.get(name) is not c.queue:  # deleted (or deleted and defined again) meanwhile
                continue
            counts = c.counters.snapshot(c.queue.depth) - c.base
            if not counts.active:
                continue  # IBM writes no record for a queue with no activity in the interval
            low, high = c.window.take(c.queue.depth)
            attrs = c.queue.attrs
            records.append(messages.QueueRecord(
                name, str(attrs.get("CRDATE", "")), str(attrs.get("CRTIME", "")), C.MQQT_LOCAL,
                _DEFTYPES.get(c.queue.dynamic, C.MQQDT_PREDEFINED), low, high, counts))
        return records

    def _channel_records(self, current: _Interval) -> list[messages.ChannelRecord]:
        records = []
        for name, base in current.channels.items():
            counters = self.statistics.channel(name)
            attrs = self.channel_defs.get(name)
            if counters is None or attrs is None:
                continue
            counts = counters.snapshot() - base
            if not counts.active:
                continue
            remote, conname = self.channel_info(name)
            records.append(messages.ChannelRecord(
                name, _CHLTYPES.get(str(attrs.get("CHLTYPE")), 0), remote, conname or str(attrs.get("CONNAME", "")),
                counts))
        return records

    def _put(self, body: bytes, now: float) -> bool:
        """Put one message on SYSTEM.ADMIN.STATISTICS.QUEUE (persistent, MQFMT_ADMIN); False if
        the queue is missing or cannot take it (statistics are best effort, as events are)."""
        queue = self.queues.get(messages.STATISTICS_QUEUE)
        if queue is None or queue.deleted or queue.attrs.get("PUT") == "DISABLED" or queue.depth >= queue.max_depth:
            return False
        date, time = put_date_time(now)
        md = MessageDescriptor(Format=C.MQFMT_ADMIN, MsgType=C.MQMT_DATAGRAM, Persistence=C.MQPER_PERSISTENT,
                               PutApplType=C.MQAT_QMGR, PutApplName=self.name[:28], PutDate=date, PutTime=time,
                               MsgId=self.next_id())
        message = Message(md, body)
        entry = queue.add(message, 0.0, AVAILABLE)
        self.outbox.persist_put(queue, entry, message)
        if queue.waiters or queue.read_ahead:
            self.deliver(queue)
        return True


_CHLTYPES = {"SDR": C.MQCHT_SENDER, "SVR": C.MQCHT_SERVER, "RCVR": C.MQCHT_RECEIVER, "RQSTR": C.MQCHT_REQUESTER,
             "CLUSSDR": C.MQCHT_CLUSSDR, "CLUSRCVR": C.MQCHT_CLUSRCVR}
