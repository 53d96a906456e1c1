"""The metrics ``/metrics`` reads from a queue manager's resource monitoring publications
($SYS/MQ/INFO/QMGR/<qm>/Monitor/...), as IBM's mq_prometheus does by default (its
``usePublications``): the collector holds, per queue manager, one temporary dynamic queue and a
non-durable subscription on it for each class/type the metadata advertises (CPU, DISK,
STATMQI), and for each STATQ type the collector's selector names per monitored queue (none by
default: they cost every put and get); each scrape takes the publications that arrived since the
last one.

Names and values are mq_prometheus's: ``ibmmq_qmgr_<element>`` and ``ibmmq_queue_<element>``
(``protocol.monitor_read.metric_name``), an MQIAMO_MONITOR_DELTA element a counter (the deltas
added up since the collector subscribed), any other a gauge of its latest value, normalised to
base units (percentages from hundredths, MB to bytes, microseconds to seconds). An application
of the client layer: it only subscribes and gets.
"""

from __future__ import annotations

import contextlib
from collections.abc import Collection, Iterable
from dataclasses import dataclass

from mqlite import cmqc as C
from mqlite.client.errors import MQMIError, PYIFError
from mqlite.client.pubsub import Subscription
from mqlite.client.pymqi_api import Queue, QueueManager
from mqlite.protocol import monitor_read as R
from mqlite.protocol import pcf

MODEL_QUEUE = "SYSTEM.DEFAULT.MODEL.QUEUE"  # a temporary dynamic queue: gone with the connection
METADATA_WAIT = 10.0  # seconds for a retained metadata publication (IBM's samples wait as long)
DRAIN_LIMIT = 100_000  # publications taken in one scrape at most (a bound, never reached in use)


@dataclass
class Metric:
    """One element's family: its name, HELP (the description), type, and whether per queue."""

    name: str
    help: str
    counter: bool
    per_object: bool


def normalise(datatype: int, value: float) -> float:
    """mqmetric's ``Normalise``: base units, negatives as 0."""
    value = max(0.0, float(value))
    if datatype in (C.MQIAMO_MONITOR_PERCENT, C.MQIAMO_MONITOR_HUNDREDTHS):
        return value / 100
    if datatype == C.MQIAMO_MONITOR_MB:
        return value * 1024 * 1024
    if datatype == C.MQIAMO_MONITOR_GB:
        return value * 1024 * 1024 * 1024
    if datatype in (C.MQIAMO_MONITOR_MICROSEC, C.MQIAMO_MONITOR_TIMESTAMP):
        return value / 1_000_000
    return value


def _retained(qm: QueueManager, topic: str) -> pcf.PcfMessage:
    sub = Subscription(qm, topic)
    try:
        return pcf.decode(bytes(sub.get(wait=METADATA_WAIT)))
    finally:
        with contextlib.suppress(MQMIError, PYIFError):
            sub.close(close_sub_queue=True)


def discover(qm: QueueManager, qmgr: str) -> list[R.ClassInfo]:
    """The classes, types and elements the queue manager's metadata advertises."""
    classes = R.read_classes(_retained(qm, f"$SYS/MQ/INFO/QMGR/{qmgr}/Monitor/METADATA/CLASSES"))
    for cls in classes:
        for typ in R.read_types(_retained(qm, cls.topic)):
            R.read_elements(_retained(qm, typ.topic), typ)
            cls.types[typ.id] = typ
    return classes


class Publications:
    """One queue manager's subscriptions and what their publications said."""

    def __init__(self, qm: QueueManager, qmgr: str) -> None:
        self.qm, self.qmgr = qm, qmgr
        self.classes = {cls.id: cls for cls in discover(qm, qmgr)}
        self.queue = Queue(qm, MODEL_QUEUE, C.MQOO_INPUT_EXCLUSIVE)
        self._subs: dict[str, Subscription] = {}  # topic -> its subscription
        self._queues: set[str] = set()
        # (class id, type id, object, element id) -> the total of its deltas, or its latest value
        self.values: dict[tuple[int, int, str, int], float] = {}
        self.metrics: dict[tuple[int, int, int], Metric] = {}
        for cls in self.classes.values():
            for typ in cls.types.values():
                for element in typ.elements.values():
                    self.metrics[(cls.id, typ.id, element.id)] = Metric(
                        R.metric_name(element.description, cls.per_object), element.description,
                        element.datatype == C.MQIAMO_MONITOR_DELTA, cls.per_object)
        for cls in self.classes.values():
            if not cls.per_object:
                for typ in cls.types.values():
                    self._subscribe(typ.data_topic)

    def _subscribe(self, topic: str) -> None:
        if topic not in self._subs:
            self._subs[topic] = Subscription(self.qm, topic, queue=self.queue)

    def follow(self, queues: Iterable[str], selector: Collection[str] = ()) -> None:
        """Subscribe to each STATQ type named in ``selector`` (PUT, GET, GENERAL, OPENCLOSE,
        INQSET) of each of ``queues``; end the subscriptions of queues gone. A subscription
        switches its queue's STATQ counters on, which every put and get then pays for."""
        wanted = set(queues) if selector else set()
        for cls in self.classes.values():
            if not cls.per_object:
                continue
            for typ in cls.types.values():
                if typ.name.upper() not in selector:
                    continue
                for name in wanted - self._queues:
                    self._subscribe(typ.data_topic.replace("%s", name.replace("/", "&")))
                for name in self._queues - wanted:
                    sub = self._subs.pop(typ.data_topic.replace("%s", name.replace("/", "&")), None)
                    if sub is not None:
                        with contextlib.suppress(MQMIError, PYIFError):
                            sub.close()
        gone = self._queues - wanted
        if gone:
            self.values = {k: v for k, v in self.values.items() if k[2] not in gone}
        self._queues = wanted

    def drain(self) -> int:
        """Take every publication waiting; how many there were."""
        taken = 0
        while taken < DRAIN_LIMIT:
            try:
                body = self.queue.get(wait=0)
            except MQMIError as error:
                if error.reason == C.MQRC_NO_MSG_AVAILABLE:
                    break
                raise
            taken += 1
            try:
                data = R.read_data(pcf.decode(bytes(body)))
            except pcf.PcfError:
                continue
            for element_id, value in data.values.items():
                metric = self.metrics.get((data.class_id, data.type_id, element_id))
                if metric is None:
                    continue
                key = (data.class_id, data.type_id, data.obj, element_id)
                typ = self.classes[data.class_id].types[data.type_id]
                number = normalise(typ.elements[element_id].datatype, value)
                self.values[key] = self.values.get(key, 0.0) + number if metric.counter else number
        return taken

    def samples(self) -> list[tuple[Metric, str, float]]:
        """(metric, object or "", value) of everything published so far."""
        return [(self.metrics[(c, t, e)], obj, value) for (c, t, obj, e), value in self.values.items()]

    def close(self) -> None:
        for sub in self._subs.values():
            with contextlib.suppress(MQMIError, PYIFError):
                sub.close()
        self._subs.clear()
        with contextlib.suppress(MQMIError, PYIFError):
            self.queue.close()


def publications_for(qm: QueueManager, qmgr: str) -> Publications | None:
    """A queue manager's publications reader, or None when it publishes no metadata."""
    try:
        return Publications(qm, qmgr)
    except MQMIError as error:
        if error.reason in (C.MQRC_NO_MSG_AVAILABLE, C.MQRC_NOT_AUTHORIZED):
            return None
        raise
    except (pcf.PcfError, KeyError):
        return None
