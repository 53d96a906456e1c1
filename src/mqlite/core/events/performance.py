"""Performance events: Queue Depth High, Queue Depth Low and Queue Full (IBM's "Queue depth
events") and Queue Service Interval High and OK (the rules in ``service_interval``), on
SYSTEM.ADMIN.PERFM.EVENT while the queue manager says PERFMEV(ENABLED).

The rules (IBM, "Enabling queue depth events" and "Queue depth events: example 2", table 13):

- Queue Depth High fires when a put makes the depth reach QDEPTHHI percent of MAXDEPTH; it
  disables itself and enables Queue Depth Low and Queue Full.
- Queue Depth Low fires when a get makes the depth fall to QDEPTHLO percent of MAXDEPTH; it
  disables itself and enables Queue Depth High and Queue Full.
- Queue Full fires when a put fails with MQRC_Q_FULL (2053); it disables itself and enables
  Queue Depth Low.
- Each event carries the queue's statistics since they were last reset, and resets them
  ("Performance event statistics"); none is produced for the event queues themselves.

The hot path pays one integer comparison: a queue's ``DepthWatch`` holds the depth at which
a put raises an event (``high``, never reached when events are off) and the depth at which a
get does (``low``, -1 when off); ``arm`` sets both from the attributes. A queue with a
service interval event armed calls back at every put and get (only then: QSVCIEV(NONE) costs
nothing more), and the core's tick raises the High that no put or get came to raise.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from mqlite import cmqc as C
from mqlite.core.events import service_interval as SI
from mqlite.core.queues import NEVER_HIGH as NEVER_HIGH
from mqlite.core.queues import LocalQueue
from mqlite.core.security.events import event_message
from mqlite.message import Message
from mqlite.protocol import pcf

PERFM_EVENT_QUEUE = "SYSTEM.ADMIN.PERFM.EVENT"
NEVER_LOW = -1  # DepthWatch.low of a queue with no Queue Depth Low event armed

HIGH, LOW, FULL, SERVICE = "QDPHIEV", "QDPLOEV", "QDPMAXEV", "QSVCIEV"
REASONS = {HIGH: C.MQRC_Q_DEPTH_HIGH, LOW: C.MQRC_Q_DEPTH_LOW, FULL: C.MQRC_Q_FULL}
# What each event switches afterwards (IBM's table 13): itself off, the others as listed on.
SWITCHES: Mapping[str, Mapping[str, str]] = {
    HIGH: {HIGH: "DISABLED", LOW: "ENABLED", FULL: "ENABLED"},
    LOW: {LOW: "DISABLED", HIGH: "ENABLED", FULL: "ENABLED"},
    FULL: {FULL: "DISABLED", LOW: "ENABLED"},
}


def is_event_queue(name: str) -> bool:
    """Performance events are not generated for the event queues themselves."""
    return name.startswith("SYSTEM.ADMIN.") and name.endswith(".EVENT")


def high_limit(max_depth: int, percent: int) -> int:
    """The depth at or above which a put is a Queue Depth High: QDEPTHHI percent of MAXDEPTH."""
    return -(-max_depth * percent // 100)


def low_limit(max_depth: int, percent: int) -> int:
    """The depth at or below which a get is a Queue Depth Low: QDEPTHLO percent of MAXDEPTH."""
    return max_depth * percent // 100


def thresholds(perfmev: str, name: str, attrs: Mapping[str, Any]) -> tuple[int, int]:
    """(event_high, event_low) of a local queue: the depths a put or a get must reach to fire."""
    if perfmev != "ENABLED" or is_event_queue(name):
        return NEVER_HIGH, NEVER_LOW
    max_depth = int(attrs.get("MAXDEPTH", 5000))
    high = high_limit(max_depth, int(attrs.get("QDEPTHHI", 80))) if attrs.get(HIGH) == "ENABLED" else NEVER_HIGH
    low = low_limit(max_depth, int(attrs.get("QDEPTHLO", 20))) if attrs.get(LOW) == "ENABLED" else NEVER_LOW
    return high, low


def after(event: str, attrs: Mapping[str, Any]) -> dict[str, str]:
    """The queue's event switches once ``event`` has fired."""
    return {key: str(attrs.get(key, "DISABLED")) for key in (HIGH, LOW, FULL)} | dict(SWITCHES[event])


def event_data(qmgr_name: str, queue_name: str, time_since_reset: int, high_depth: int,
               enqueued: int, dequeued: int) -> list[tuple[int, pcf.Value]]:
    """A queue depth event's data, in IBM's order: QMgrName, QName, TimeSinceReset, HighQDepth,
    MsgEnqCount, MsgDeqCount."""
    return [(C.MQCA_Q_MGR_NAME, qmgr_name), (C.MQCA_BASE_Q_NAME, queue_name),
            (C.MQIA_TIME_SINCE_RESET, time_since_reset), (C.MQIA_HIGH_Q_DEPTH, high_depth),
            (C.MQIA_MSG_ENQ_COUNT, enqueued), (C.MQIA_MSG_DEQ_COUNT, dequeued)]


class PerformanceEvents:
    """Arms local queues for queue depth and service interval events and puts the events when a
    queue calls back; the switches an event flips are written to the store (``persist``), as an
    ALTER writes them, so a restart keeps them."""

    def __init__(self, qmgr_name: str, qmgr_attrs: dict[str, Any], put: Callable[[str, Message], bool],
                 clock: Callable[[], float]) -> None:
        self.qmgr_name = qmgr_name
        self.qmgr_attrs = qmgr_attrs
        self.put = put
        self.clock = clock
        self.persist: Callable[[LocalQueue], None] = _nothing
        self.timed: dict[str, LocalQueue] = {}  # queues with a service interval event armed (ticked)

    def arm(self, queue: LocalQueue) -> None:
        """Set the queue's thresholds from its attributes and PERFMEV (after DEFINE, ALTER...)."""
        perfmev = str(self.qmgr_attrs.get("PERFMEV", "DISABLED"))
        watch = queue.watch
        watch.depth_high, watch.depth_low = thresholds(perfmev, queue.name, queue.attrs)
        watch.events = self if perfmev == "ENABLED" and not is_event_queue(queue.name) else None
        if watch.events is not None and queue.attrs.get("QSVCIEV", "NONE") in (SI.HIGH, SI.OK):
            watch.interval = SI.interval_seconds(queue.attrs.get("QSVCINT", 999999999))
            watch.high, watch.low = 0, NEVER_HIGH  # every put and get calls back
            if watch.svc_start == SI.OFF and queue.depth:
                watch.svc_start = self.clock()
            self.timed[queue.name] = queue
        else:
            watch.interval = -1.0
            watch.high, watch.low = watch.depth_high, watch.depth_low
            if self.timed.get(queue.name) is queue:
                del self.timed[queue.name]

    def on_high(self, queue: LocalQueue) -> None:
        """A put reached ``watch.high``: the service timer's check, then Queue Depth High's."""
        if queue.watch.interval >= 0:
            self.service(queue, SI.PUT, self.clock())
        if queue.depth >= queue.watch.depth_high:
            self.fire(queue, HIGH)

    def on_low(self, queue: LocalQueue) -> None:
        """A get reached ``watch.low``: the service timer's check, then Queue Depth Low's."""
        if queue.watch.interval >= 0:
            self.service(queue, SI.GET, self.clock())
        if queue.depth <= queue.watch.depth_low:
            self.fire(queue, LOW)

    def on_full(self, queue: LocalQueue) -> None:
        """A put failed with 2053: Queue Full, when QDPMAXEV is ENABLED."""
        if queue.attrs.get(FULL) == "ENABLED":
            self.fire(queue, FULL)

    def ticker(self, time_out: Callable[[float], None]) -> Callable[[float], None]:
        """The core's tick: ``time_out`` (waiting MQGETs), then the service interval events due."""
        def tick(now: float) -> None:
            time_out(now)
            if self.timed:
                self.tick(now)
        return tick

    def tick(self, now: float) -> None:
        """The queue manager's timer: a Queue Service Interval High due before the next put or get."""
        for name, queue in list(self.timed.items()):
            if queue.deleted or queue.watch.interval < 0:
                del self.timed[name]
            else:
                self.service(queue, SI.TICK, now)

    def service(self, queue: LocalQueue, what: str, now: float) -> None:
        watch = queue.watch
        setting, watch.svc_start, event = SI.step(str(queue.attrs.get("QSVCIEV", "NONE")), watch.svc_start,
                                                  what, now, watch.interval, queue.depth)
        if event is not None:
            self.fire(queue, SERVICE, setting, SI.REASONS[event])

    def fire(self, queue: LocalQueue, event: str, setting: str = "", reason: int = 0) -> None:
        """Put the event, reset the statistics, flip the switches (kept in the store) and arm
        the queue anew."""
        now = self.clock()
        enqueued, dequeued, high, seconds = queue.reset_stats(now)  # (the event resets them)
        params = event_data(self.qmgr_name, queue.name, seconds, high, enqueued, dequeued)
        if event == SERVICE:
            queue.attrs[SERVICE] = setting
        else:
            queue.attrs.update(after(event, queue.attrs))
            reason = REASONS[event]
        self.arm(queue)
        self.persist(queue)
        self.put(PERFM_EVENT_QUEUE, event_message(self.qmgr_name, params, now, reason, C.MQCMD_PERFM_EVENT))


def _nothing(queue: LocalQueue) -> None:
    return None
