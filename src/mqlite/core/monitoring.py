"""Resource monitoring's decisions (the ``$SYS/MQ/INFO/QMGR/<qm>/Monitor/...`` publications),
pure: which class/type/object publications somebody subscribes to, and each publication's
element values from two readings (counters' snapshots, CPU and disk samples). The publisher in
``server.monitor`` takes the readings and publishes; ``protocol.monitor`` lays out the PCF.

IBM publishes a class/type only while it has a subscriber, and STATQ's per queue only for the
queues whose topic has one; so does mqlite (``wanted``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

from mqlite import cmqc as C
from mqlite.core.statistics.counters import MQISnapshot, QueueSnapshot
from mqlite.protocol import monitor as M


class Wanted(NamedTuple):
    cls: M.MonitorClass
    typ: M.MonitorType
    obj: str | None  # the queue of a STATQ publication
    topic: str


def wanted(qmgr: str, queues: Iterable[str], has_subscriber: Callable[[str], bool]) -> list[Wanted]:
    """The data publications to make now: each class/type (each queue's, for STATQ) whose topic
    a subscription matches. Queues named SYSTEM.* are left out of STATQ, as IBM leaves its own."""
    out: list[Wanted] = []
    names = [q for q in queues if not q.startswith("SYSTEM.")]
    for cls in M.CLASSES:
        per_object = bool(cls.flags & C.MQIAMO_MONITOR_FLAGS_OBJNAME)
        for typ in cls.types:
            if per_object:
                for name in names:
                    topic = M.data_topic(qmgr, cls, typ, name)
                    if has_subscriber(topic):
                        out.append(Wanted(cls, typ, name, topic))
            else:
                topic = M.data_topic(qmgr, cls, typ)
                if has_subscriber(topic):
                    out.append(Wanted(cls, typ, None, topic))
    return out


# -- STATQ and STATMQI from two snapshots -------------------------------------------------------
def _pair(values: dict[str, int], key: str, pair: Any) -> None:
    values[key + "_np"], values[key + "_p"] = int(pair[0]), int(pair[1])


def statq_values(interval: QueueSnapshot) -> dict[str, int]:
    """A STATQ publication's values (``protocol.monitor.STATQ``'s keys) from ``later - earlier``."""
    v: dict[str, int] = {}
    _pair(v, "puts", interval.puts)
    _pair(v, "put1s", interval.put1s)
    _pair(v, "put_bytes", interval.put_bytes)
    _pair(v, "gets", interval.gets)
    _pair(v, "get_bytes", interval.get_bytes)
    _pair(v, "browses", interval.browses)
    _pair(v, "browse_bytes", interval.browse_bytes)
    v["put_total"] = sum(interval.puts) + sum(interval.put1s)
    v["put_total_bytes"] = sum(interval.put_bytes)
    v["get_total"] = sum(interval.gets)  # destructive gets (browses have their own elements)
    v["get_total_bytes"] = sum(interval.get_bytes)
    v["gets_failed"] = interval.get_fails
    v["browses_failed"] = interval.browse_fails
    v["gets_failed_no_msg"] = interval.get_fails_no_msg
    v["gets_failed_truncated"] = interval.get_fails_truncated
    v["browses_failed_no_msg"] = interval.browse_fails_no_msg
    v["browses_failed_truncated"] = interval.browse_fails_truncated
    v["opens"], v["closes"] = interval.opens, interval.closes
    v["inqs"], v["sets"] = interval.inqs, interval.sets
    v["expired"] = interval.expired
    v["purged"] = interval.purged
    timed = sum(interval.timed)
    v["avg_q_time"] = sum(interval.time_on_q) // timed if timed > 0 else 0
    v["depth"] = interval.depth
    return v


def statmqi_values(interval: MQISnapshot) -> dict[str, int]:
    """A STATMQI publication's values from ``later - earlier`` (the high-water mark as it stands)."""
    v: dict[str, int] = {}
    for name, value in interval.values:
        if isinstance(value, tuple):
            v[name + "_np"], v[name + "_p"] = value
            v[name] = value[0] + value[1]
        else:
            v[name] = value
    v["put_total"] = v.get("puts", 0) + v.get("put1s", 0)
    v["put_total_bytes"] = v.get("put_bytes", 0)
    v["get_total"] = v.get("gets", 0)
    v["get_total_bytes"] = v.get("get_bytes", 0)
    v["puts_failed"] = v.get("puts_failed", 0)
    v["gets_failed"] = v.get("gets_failed", 0)
    v["browses_failed"] = v.get("browses_failed", 0)
    v["topic_put_total"] = v.get("topic_puts", 0)
    return v


# -- CPU and disk from samples -------------------------------------------------------------------
class CpuSample(NamedTuple):
    """What /proc/stat and the process's times say at one moment (seconds, or clock ticks: one unit)."""

    user: float  # the machine's user (and nice) time
    system: float  # the machine's system (and irq) time
    total: float  # all its time, idle included
    qm_user: float  # this process's
    qm_system: float
    wall: float  # seconds, for the process's share
    cpus: int


def hundredths_of_percent(part: float, whole: float) -> int:
    """MQIAMO_MONITOR_PERCENT's unit: 10000 is 100%."""
    return max(0, min(10000, round(part / whole * 10000))) if whole > 0 else 0


def cpu_values(earlier: CpuSample, later: CpuSample, load: tuple[float, float, float],
               ram_total: int, ram_available: int, qm_rss: int) -> dict[str, int]:
    """CPU/SystemSummary and CPU/QMgrSummary's values over the interval between two samples;
    the queue manager's share is of the whole machine (all its CPUs), as IBM's estimate is."""
    total = later.total - earlier.total
    capacity = (later.wall - earlier.wall) * max(1, later.cpus)
    return {
        "user_cpu": hundredths_of_percent(later.user - earlier.user, total),
        "system_cpu": hundredths_of_percent(later.system - earlier.system, total),
        "load1": round(load[0] * 100), "load5": round(load[1] * 100), "load15": round(load[2] * 100),
        "ram_free": hundredths_of_percent(ram_available, ram_total),
        "ram_total": ram_total >> 20,
        "qm_user_cpu": hundredths_of_percent(later.qm_user - earlier.qm_user, capacity),
        "qm_system_cpu": hundredths_of_percent(later.qm_system - earlier.qm_system, capacity),
        "qm_ram": qm_rss >> 20,
    }


class FileSystem(NamedTuple):
    size: int  # bytes
    free: int  # bytes available to the queue manager


def disk_values(qmgr_fs: FileSystem, errors_fs: FileSystem, log_bytes: int, commits: int,
                commit_seconds: float) -> dict[str, int]:
    """DISK's values: file systems in MB and free hundredths of a percent; the recovery log is
    the store's write-ahead log (its size, its file system's, and the mean commit's latency over
    the interval: ``commits`` and ``commit_seconds`` are the interval's)."""
    return {
        "qm_fs_used": (qmgr_fs.size - qmgr_fs.free) >> 20, "qm_fs_free": hundredths_of_percent(qmgr_fs.free,
                                                                                            qmgr_fs.size),
        "errors_fs_used": (errors_fs.size - errors_fs.free) >> 20,
        "errors_fs_free": hundredths_of_percent(errors_fs.free, errors_fs.size),
        "log_used": log_bytes, "log_fs_used": qmgr_fs.size - qmgr_fs.free, "log_fs_max": qmgr_fs.size,
        "log_latency": round(commit_seconds / commits * 1_000_000) if commits > 0 else 0,
    }
