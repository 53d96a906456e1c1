"""The resource monitoring publisher (IBM's ``$SYS/MQ/INFO/QMGR/<qm>/Monitor/...`` topics, which
amqsrua and mq_prometheus subscribe to): the metadata retained at start, and every interval
(qm.ini ``TuningParameters: MonitorPublishHeartBeat``, seconds, 10 by default as at IBM) a
publication of each class/type (each queue's, for STATQ) that somebody subscribes to.

It reads the machine (/proc/stat, /proc/meminfo, the load average, the process's times and
resident size, the file systems' sizes), the store's write-ahead log and commit counters, and
core's statistics counters (``core.statistics``: wanted while a STATQ or STATMQI topic has a
subscriber, released when none has), and publishes through core's own publish path as the
queue manager, on the runtime's tick and its clock. What to publish and each value's arithmetic
are ``core.monitoring``'s; the PCF is ``protocol.monitor``'s.
"""

from __future__ import annotations

import contextlib
import logging
import os
import resource
from typing import TYPE_CHECKING, Any

from mqlite import cmqc as C
from mqlite import paths
from mqlite.core import monitoring
from mqlite.core.errors import MQError
from mqlite.core.security.topic_walk import ADMIN_TOPIC
from mqlite.message import MessageDescriptor, put_date_time
from mqlite.protocol import monitor as M
from mqlite.server.channels.agent_base import MCA_USER
from mqlite.server.runtime import Round

if TYPE_CHECKING:
    from mqlite.server.runtime import Runtime

log = logging.getLogger("mqlite.server")

DEFAULT_INTERVAL = 10.0  # seconds: IBM's MonitorPublishHeartBeat default
APPL_NAME = "amqzmuc0"  # IBM's critical-utilities process, which publishes these


def interval_from(stanzas: dict[str, dict[str, str]]) -> float:
    """qm.ini ``TuningParameters: MonitorPublishHeartBeat`` (seconds; case-sensitive, as IBM's)."""
    raw = stanzas.get("TuningParameters", {}).get("MonitorPublishHeartBeat")
    if raw is None:
        return DEFAULT_INTERVAL
    try:
        value = float(raw)
    except ValueError:
        log.error("AMQ5051E: qm.ini TuningParameters: MonitorPublishHeartBeat=%s is not a number; %g s is used",
                  raw, DEFAULT_INTERVAL)
        return DEFAULT_INTERVAL
    return max(1.0, value)


class MonitorPublisher:
    def __init__(self, runtime: Runtime, interval: float) -> None:
        self.runtime = runtime
        self.core = runtime.core
        self.name = runtime.name
        self.interval = interval
        self.conn = self.core.connect(MCA_USER, APPL_NAME, os.getpid(), system=True)
        self._last = runtime.clock()
        self._cpu = _cpu_sample(self._last)
        self._store = (runtime.store.stats.commits, runtime.store.stats.commit_seconds)
        self._queues: dict[str, Any] = {}  # queue -> its snapshot at the last publication
        self._mqi: Any = None  # the MQI counters' snapshot at the last publication, while wanted
        self._admin_topic()
        self._publish_metadata()
        runtime.tick_hooks.append(self._tick)

    def _admin_topic(self) -> None:
        """IBM's SYSTEM.ADMIN.TOPIC, the root of ``$SYS/MQ`` (defined once, kept in the store):
        WILDCARD(BLOCK), so a subscription to ``#`` or any wildcard above it matches none of the
        monitoring topics, and the authority walk stops at it (``core.security.topic_walk``)."""
        if ADMIN_TOPIC in self.core.subscriptions.tree.objects_by_topic().values():
            return
        try:
            self.core.define("TOPIC", ADMIN_TOPIC, {"TOPICSTR": "$SYS/MQ", "WILDCARD": "BLOCK",
                                                    "DESCR": "The queue manager's system topics"})
        except MQError as error:
            log.error("AMQ8150E: SYSTEM.ADMIN.TOPIC not defined: reason %d", error.reason)
        self.runtime.finish(Round())

    # -- publishing ----------------------------------------------------------------------
    def _publish(self, topic: str, body: bytes, retain: bool = False) -> None:
        date, time = put_date_time(self.runtime.clock())
        md = MessageDescriptor(Format=C.MQFMT_ADMIN, Persistence=C.MQPER_NOT_PERSISTENT,
                               PutApplType=C.MQAT_QMGR, PutApplName=self.name[:28], PutDate=date, PutTime=time,
                               UserIdentifier=MCA_USER.user)
        # This queue manager's own figures: never forwarded to others (hierarchies, clusters, routes).
        options = C.MQPMO_NO_SYNCPOINT | C.MQPMO_NEW_MSG_ID | C.MQPMO_SCOPE_QMGR | (C.MQPMO_RETAIN if retain else 0)
        try:
            self.core.publisher.publish_for(self.conn, topic, md, options, {}, body)
        except MQError as error:  # (PSMODE(DISABLED), a full subscriber queue: the next interval tries again)
            log.debug("monitor publication on %s not made: reason %d", topic, error.reason)

    def _publish_metadata(self) -> None:
        for topic, body in M.metadata(self.name):
            self._publish(topic, body, retain=True)
        self.runtime.finish(Round())

    def _has_subscriber(self, topic: str) -> bool:
        """A subscription under ``$SYS`` matches ``topic``: one to ``#`` (or any pattern with a
        wildcard in its first level, as MQTT's rule has it) does not make the queue manager
        publish everything, nor collect every queue's counters."""
        subscriptions = self.core.subscriptions
        cached = subscriptions.topic_matches.get(topic)
        return any(sub.topic.startswith("$SYS/") for sub in (cached or subscriptions.match(topic))[1])

    def _tick(self, now: float) -> None:
        if now - self._last < self.interval:
            return
        interval_us = int((now - self._last) * 1_000_000)
        self._last = now
        wanted = monitoring.wanted(self.name, list(self.core.queues), self._has_subscriber)
        values = self._readings(now, wanted)
        for item in wanted:
            got = values.get(item.cls.name) if item.obj is None else values.get("STATQ:" + item.obj)
            if got is not None:
                self._publish(item.topic, M.data_message(self.name, item.cls, item.typ, interval_us, got, item.obj))
        self.runtime.finish(Round())

    # -- readings ------------------------------------------------------------------------
    def _readings(self, now: float, wanted: list[monitoring.Wanted]) -> dict[str, dict[str, int]]:
        classes = {item.cls.name for item in wanted}
        out: dict[str, dict[str, int]] = {}
        cpu = _cpu_sample(now)
        if "CPU" in classes:
            out["CPU"] = monitoring.cpu_values(self._cpu, cpu, os.getloadavg(), *_memory())
        self._cpu = cpu
        stats = self.runtime.store.stats
        commits, seconds = stats.commits, stats.commit_seconds
        if "DISK" in classes:
            out["DISK"] = self._disk(commits - self._store[0], seconds - self._store[1])
        self._store = (commits, seconds)
        statistics = getattr(self.core, "statistics", None)
        if statistics is not None:
            self._mqi_reading(statistics, "STATMQI" in classes, out)
            self._queue_readings(statistics, {item.obj for item in wanted if item.obj is not None}, out)
        return out

    def _disk(self, commits: int, commit_seconds: float) -> dict[str, int]:
        store_path = self.runtime.store.path
        qmgr_fs = _file_system(os.path.dirname(store_path))
        errors_fs = _file_system(str(paths.qmgr_dir(self.name)))
        wal = 0
        with contextlib.suppress(OSError):
            wal = os.stat(store_path + "-wal").st_size
        return monitoring.disk_values(qmgr_fs, errors_fs, wal, commits, commit_seconds)

    def _mqi_reading(self, statistics: Any, wanted: bool, out: dict[str, dict[str, int]]) -> None:
        if wanted and self._mqi is None:
            self._mqi = statistics.want_mqi().snapshot()  # the first interval starts now
            return
        if not wanted:
            if self._mqi is not None:
                statistics.release_mqi()
                self._mqi = None
            return
        current = statistics.mqi.snapshot()
        out["STATMQI"] = monitoring.statmqi_values(current - self._mqi)
        self._mqi = current

    def _queue_readings(self, statistics: Any, names: set[str], out: dict[str, dict[str, int]]) -> None:
        for name in [n for n in self._queues if n not in names or statistics.queue(n) is None]:
            if statistics.queue(name) is not None:
                statistics.release_queue(name)
            del self._queues[name]  # (a queue deleted and defined again starts afresh)
        for name in names:
            queue = self.core.queues.get(name)
            if queue is None:
                continue
            depth = queue.depth
            if name not in self._queues:
                counters = statistics.want_queue(name)
                if counters is not None:
                    self._queues[name] = counters.snapshot(depth)
                continue
            current = statistics.queue(name).snapshot(depth)
            out["STATQ:" + name] = monitoring.statq_values(current - self._queues[name])
            self._queues[name] = current

    def close(self) -> None:
        statistics = getattr(self.core, "statistics", None)
        if statistics is not None:
            for name in self._queues:
                statistics.release_queue(name)
            if self._mqi is not None:
                statistics.release_mqi()
        self._queues.clear()
        self._mqi = None


# -- the machine, read (Linux /proc; elsewhere zeros) ---------------------------------------------
def _cpu_sample(now: float) -> monitoring.CpuSample:
    user = system = total = 0.0
    with contextlib.suppress(OSError, ValueError, IndexError):
        with open("/proc/stat") as f:
            fields = [float(x) for x in f.readline().split()[1:]]
        user, system, total = fields[0] + fields[1], fields[2] + fields[5] + fields[6], sum(fields[:8])
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return monitoring.CpuSample(user, system, total, usage.ru_utime, usage.ru_stime, now, os.cpu_count() or 1)


def _memory() -> tuple[int, int, int]:
    """RAM total and available, and this process's resident size, in bytes."""
    info: dict[str, int] = {}
    with contextlib.suppress(OSError, ValueError), open("/proc/meminfo") as f:
        for line in f:
            key, _, rest = line.partition(":")
            info[key] = int(rest.split()[0]) * 1024
    rss = 0
    with contextlib.suppress(OSError, ValueError, IndexError), open("/proc/self/statm") as f:
        rss = int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    return info.get("MemTotal", 0), info.get("MemAvailable", 0), rss


def _file_system(path: str) -> monitoring.FileSystem:
    try:
        st = os.statvfs(path)
    except OSError:
        return monitoring.FileSystem(0, 0)
    return monitoring.FileSystem(st.f_blocks * st.f_frsize, st.f_bavail * st.f_frsize)


def start(runtime: Runtime, stanzas: dict[str, dict[str, str]]) -> MonitorPublisher:
    publisher = MonitorPublisher(runtime, interval_from(stanzas))
    log.info("AMQ8250I: resource monitoring publications every %g s", publisher.interval)
    return publisher
