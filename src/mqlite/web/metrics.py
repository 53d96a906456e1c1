"""``/metrics``: the queue managers of the installation in Prometheus's text format, with the metric
names and labels of IBM's ``mq_prometheus`` exporter (github.com/ibm-messaging/mq-metric-samples)
for what mqlite has, and mqlite's own under ``mqlite_``.

The collector is an application of the client layer like the rest of the web server: for each
queue manager it keeps one connection (``mqlite.connect``, bindings mode) and per scrape runs
one MQSC script of DISPLAY commands (QMGR, QMSTATUS, QSTATUS, CHANNEL, CHSTATUS, TPSTATUS,
SBSTATUS, LSSTATUS; the queues' definitions, DISPLAY QLOCAL, each rediscover interval as IBM's
exporter's ``rediscoverInterval``, environment ``IBMMQ_GLOBAL_REDISCOVERINTERVAL``, 1h by
default, and at once when QSTATUS shows a queue it has not read), takes the resource monitoring
publications that arrived since the last scrape (``metrics_publications``: its subscriptions to
$SYS/MQ/INFO/QMGR/<qm>/Monitor/..., as IBM's exporter's ``usePublications``), and browses the
first message of each non-empty monitored queue (its age; on a queue in priority order the first
message of the highest priority, not always the oldest). The put and get counts are DISPLAY
QSTATUS's ENQTOTAL and DEQTOTAL (mqlite's own: the queue's totals since the queue manager
started, which nobody resets), so a scrape takes nothing from anyone else's RESET QSTATS or from
the queue depth events, and costs the puts and gets nothing; as IBM's exporter's
``useResetQStats`` (environment ``IBMMQ_GLOBAL_USERESETQSTATS=true``, or
``Collector(use_reset_qstats=True)``) they come from a RESET QSTATS of each monitored queue per
scrape instead, with ``hi_depth``, and a RESET QSTATS of anyone else then takes counts from it.

The per-queue STATQ publications (``ibmmq_queue_mqput_bytes``,
``ibmmq_queue_average_queue_time_seconds``, ...) are subscribed to only for the types IBM's
exporter's ``queueSubscriptionSelector`` names (environment
``IBMMQ_FILTERS_QUEUESUBSCRIPTIONSELECTOR=PUT,GET,GENERAL,OPENCLOSE,INQSET``, or
``Collector(queue_subscription_selector=...)``). mqlite's default is none, where IBM's is all: a
subscription switches its queue's STATQ counters on, and those cost every put and get on it
about 4.6% more instructions (docs/PERFORMANCE.md, "Issue 33: the cost of metrics").

Families and labels, as IBM's exporter names them (``platform`` is ``UNIX``):

- ``ibmmq_queue_*`` {qmgr, platform, queue, usage, description, cluster}: ``depth``,
  ``attribute_max_depth``, ``input_handles``, ``output_handles``, ``uncommitted_messages``,
  ``oldest_message_age`` (seconds), ``hi_depth`` (since the last scrape, with useResetQStats),
  and the counters ``mqput_mqput1_count`` and ``mqget_count`` (IBM's names with its counter
  types, no ``_total``: totals since the queue manager started, or with useResetQStats since the
  collector began); with a queueSubscriptionSelector, the selected STATQ types' elements under
  mq_prometheus's names (``ibmmq_queue_mqput_bytes``, ``ibmmq_queue_average_queue_time_seconds``,
  ...).
- ``ibmmq_qmgr_*`` from the CPU, DISK and STATMQI publications {qmgr, platform, description}
  (``ibmmq_qmgr_user_cpu_time_percentage``, ``ibmmq_qmgr_log_write_latency_seconds``,
  ``ibmmq_qmgr_commit_count``, ...).
- ``ibmmq_channel_*`` {qmgr, platform, channel, description, type, rqmname, connname, jobname,
  sslciph}: ``status`` (MQCHS_*; a defined channel without status is INACTIVE, 0),
  ``status_squash`` (0 stopped, 1 in transition, 2 running), ``messages``, ``bytes_sent``,
  ``bytes_rcvd``, ``batches``; SYSTEM.* channels only while they have status.
- ``ibmmq_qmgr_*`` {qmgr, platform, description}: ``status`` (MQQMSTA_*, 0 when unreachable),
  ``command_server_status`` (MQSVC_STATUS_*), ``connection_count``, ``uptime`` (seconds),
  ``active_listeners``; ``ibmmq_qmgr_exporter_collection_time`` {qmgr, platform}.
- ``ibmmq_topic_subscriber_count``, ``ibmmq_topic_publisher_count`` {qmgr, platform, topic, type}
  for topic nodes with a TOPIC object, subscribers or publishers (not SYSTEM.*).
- ``ibmmq_subscription_messsages_received`` (IBM's spelling) {qmgr, platform, subscription,
  subid, topic, type}.
- mqlite's: ``mqlite_subscriptions`` {qmgr, durable}; the store's ``mqlite_store_size_bytes``,
  ``mqlite_store_commit_seconds`` (a summary: time in SQLite's COMMIT, the WAL's fsync included,
  per commit), ``mqlite_store_group_transactions`` (a summary: transactions per commit, the
  group-commit size), ``mqlite_store_operations_total``: from DISPLAY QMSTATUS, whose STORE*
  fields the command server adds.
"""

from __future__ import annotations

import contextlib
import math
import os
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from mqlite import cmqc as C
from mqlite import paths
from mqlite.client.errors import MQMIError, PYIFError
from mqlite.client.pymqi_api import Queue, QueueManager, connect
from mqlite.client.structs import GMO, MD
from mqlite.message import put_hundredths
from mqlite.web import mqsc_text
from mqlite.web.metrics_publications import Publications, publications_for

__all__ = ["CONTENT_TYPE", "ROUTES", "Collector", "Family", "render", "routes"]

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
PLATFORM = "UNIX"  # IBM's MQPL_UNIX without its prefix, as the exporter labels Linux
# IBM's monitoredQueues-style patterns: a generic name, "!" excluding
DEFAULT_QUEUES = ("*", "!SYSTEM.*", "!AMQ.*")
_CHANNEL_TYPES = {"SDR": "SENDER", "SVR": "SERVER", "RCVR": "RECEIVER", "RQSTR": "REQUESTER", "SVRCONN": "SVRCONN",
                  "CLNTCONN": "CLNTCONN", "CLUSSDR": "CLUSSDR", "CLUSRCVR": "CLUSRCVR", "AMQP": "AMQP"}
_SQUASH_RUNNING = {C.MQCHS_RUNNING}
_SQUASH_STOPPED = {C.MQCHS_INACTIVE, C.MQCHS_DISCONNECTED, C.MQCHS_STOPPED, C.MQCHS_PAUSED}
_QMGR_STATUS = {"STARTING": C.MQQMSTA_STARTING, "RUNNING": C.MQQMSTA_RUNNING, "QUIESCING": C.MQQMSTA_QUIESCING,
                "STANDBY": C.MQQMSTA_STANDBY}
_SERVICE_STATUS = {"STOPPED": C.MQSVC_STATUS_STOPPED, "STARTING": C.MQSVC_STATUS_STARTING,
                   "RUNNING": C.MQSVC_STATUS_RUNNING, "STOPPING": C.MQSVC_STATUS_STOPPING,
                   "RETRYING": C.MQSVC_STATUS_RETRYING}

# Every family of a scrape, in the order of the text: name -> (HELP, TYPE). IBM's names, HELP texts
# and (with its exporter's overrideCType) types; mqlite's own below them.
FAMILIES: dict[str, tuple[str, str]] = {
    "ibmmq_qmgr_status": ("Queue Manager Status", "gauge"),
    "ibmmq_qmgr_command_server_status": ("Command Server Status", "gauge"),
    "ibmmq_qmgr_connection_count": ("Connection Count", "gauge"),
    "ibmmq_qmgr_uptime": ("Queue Manager Uptime", "gauge"),
    "ibmmq_qmgr_active_listeners": ("Active Listener Count", "gauge"),
    "ibmmq_qmgr_exporter_collection_time": ("Time taken for scrape (seconds)", "gauge"),
    "ibmmq_queue_depth": ("Queue depth", "gauge"),
    "ibmmq_queue_attribute_max_depth": ("Queue Max Depth", "gauge"),
    "ibmmq_queue_input_handles": ("Input Handles", "gauge"),
    "ibmmq_queue_output_handles": ("Output Handles", "gauge"),
    "ibmmq_queue_uncommitted_messages": ("Uncommitted Messages", "gauge"),
    "ibmmq_queue_oldest_message_age": ("Oldest Message Age (seconds)", "gauge"),
    "ibmmq_queue_hi_depth": ("Highest Depth (since the last scrape)", "gauge"),
    "ibmmq_queue_mqput_mqput1_count": ("Put/Put1 Count", "counter"),
    "ibmmq_queue_mqget_count": ("Get Count", "counter"),
    "ibmmq_channel_status": ("Channel Status", "gauge"),
    "ibmmq_channel_status_squash": ("Channel Status - Simplified", "gauge"),
    "ibmmq_channel_messages": ("Messages (API Calls for SVRCONN)", "gauge"),
    "ibmmq_channel_bytes_sent": ("Bytes sent", "gauge"),
    "ibmmq_channel_bytes_rcvd": ("Bytes received", "gauge"),
    "ibmmq_channel_batches": ("Completed Batches", "gauge"),
    "ibmmq_topic_subscriber_count": ("Number of subscribers", "gauge"),
    "ibmmq_topic_publisher_count": ("Number of publishers", "gauge"),
    "ibmmq_subscription_messsages_received": ("Messages received", "gauge"),
    "mqlite_subscriptions": ("Subscriptions of applications and administrators (SBSTATUS)", "gauge"),
    "mqlite_store_size_bytes": ("Bytes of the queue manager's SQLite store and its WAL", "gauge"),
    "mqlite_store_commit_seconds": ("Time in the store's SQLite COMMIT (the WAL write and its fsync) per commit",
                                    "summary"),
    "mqlite_store_group_transactions": ("Transactions per store commit (the group-commit size)", "summary"),
    "mqlite_store_operations_total": ("Store operations committed (rows written or deleted)", "counter"),
}

# The put and get counts: DISPLAY QSTATUS's totals or RESET QSTATS (useResetQStats), not STATQ's.
_COUNTS = ("ibmmq_queue_mqput_mqput1_count", "ibmmq_queue_mqget_count")
# IBM's exporter's queueSubscriptionSelector: the STATQ types there are.
STATQ_TYPES = ("PUT", "GET", "GENERAL", "OPENCLOSE", "INQSET")
# Published too, but DISPLAY's is current at the scrape (STATQ's GENERAL "Queue depth").
_FROM_DISPLAY = frozenset({"ibmmq_queue_depth"})

# -- the text format ----------------------------------------------------------------------------


@dataclass
class Family:
    """One metric family: ``samples`` are (name suffix, labels, value)."""

    name: str
    help: str
    type: str = "gauge"  # gauge | counter | summary
    samples: list[tuple[str, dict[str, str], float]] = field(default_factory=list)

    def add(self, labels: dict[str, str], value: float, suffix: str = "") -> None:
        self.samples.append((suffix, labels, value))


def _escape_label(value: str) -> str:
    return value.replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"')


def _number(value: float) -> str:
    if isinstance(value, int) or (isinstance(value, float) and value.is_integer() and abs(value) < 2**63):
        return str(int(value))
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "+Inf" if value > 0 else "-Inf"
    return repr(float(value))


def render(families: Iterable[Family]) -> str:
    """The Prometheus text exposition format (version 0.0.4) of ``families``."""
    out: list[str] = []
    for family in families:
        help_text = family.help.replace("\\", "\\\\").replace("\n", "\\n")
        out.append(f"# HELP {family.name} {help_text}")
        out.append(f"# TYPE {family.name} {family.type}")
        for suffix, labels, value in family.samples:
            text = ",".join(f'{key}="{_escape_label(val)}"' for key, val in labels.items())
            out.append(f"{family.name}{suffix}{{{text}}} {_number(value)}" if text
                       else f"{family.name}{suffix} {_number(value)}")
    return "\n".join(out) + "\n"


def _generic_match(patterns: Sequence[str], name: str) -> bool:
    """IBM's monitored-object lists: the last pattern that matches decides ("!" excludes)."""
    chosen = False
    for pattern in patterns:
        exclude = pattern.startswith("!")
        body = pattern[1:] if exclude else pattern
        if (name.startswith(body[:-1]) if body.endswith("*") else name == body):
            chosen = not exclude
    return chosen


def _int(value: str | None) -> int:
    try:
        return int(value or 0)
    except ValueError:
        return 0


# -- the collector ------------------------------------------------------------------------------

_SCRIPT = "\n".join([
    "DISPLAY QMGR DESCR", "DISPLAY QMSTATUS ALL",
    "DISPLAY QSTATUS(*) CURDEPTH IPPROCS OPPROCS UNCOM ENQTOTAL DEQTOTAL",
    "DISPLAY CHANNEL(*) CHLTYPE DESCR CONNAME", "DISPLAY CHSTATUS(*) ALL",
    # (not the $SYS topics and subscriptions: hundreds of the collector's own, and skipped anyway)
    "DISPLAY TPSTATUS('#') WHERE(TOPICSTR NL '$SYS*') ADMIN SUBCOUNT PUBCOUNT",
    "DISPLAY SBSTATUS(*) WHERE(TOPICSTR NL '$SYS*') ALL", "DISPLAY LSSTATUS(*) STATUS",
]) + "\n"
# The queues' definitions, read again each rediscover interval and whenever a queue is new.
_DEFINITIONS = "DISPLAY QLOCAL(*) MAXDEPTH USAGE DESCR CLUSTER\n"
REDISCOVER_SECONDS = 3600.0  # IBM's exporter's rediscoverInterval default, 1h


def parse_interval(text: str) -> float:
    """IBM's exporter's durations: ``1h``, ``5m``, ``30s`` or plain seconds."""
    text = text.strip().lower()
    unit = {"h": 3600.0, "m": 60.0, "s": 1.0}.get(text[-1:], 0.0)
    try:
        value = float(text[:-1]) * unit if unit else float(text)
    except ValueError:
        raise ValueError(f"rediscoverInterval: {text!r} is not a duration such as 1h, 5m or 30s") from None
    if value < 0:
        raise ValueError(f"rediscoverInterval: {text!r} is negative")
    return value


class _Families:
    """The families of one scrape: every one of FAMILIES, so that each is named even when no
    queue manager has it yet."""

    def __init__(self) -> None:
        self.by_name = {name: Family(name, text, kind) for name, (text, kind) in FAMILIES.items()}

    def __call__(self, name: str) -> Family:
        return self.by_name[name]

    def published(self, name: str, help_text: str, counter: bool) -> Family:
        """A family named by a publication's metadata (added after FAMILIES, as first seen)."""
        family = self.by_name.get(name)
        if family is None:
            family = self.by_name[name] = Family(name, help_text, "counter" if counter else "gauge")
        return family


def _use_reset_qstats() -> bool:
    return os.environ.get("IBMMQ_GLOBAL_USERESETQSTATS", "").lower() == "true"  # IBM's exporter's variable


def parse_selector(text: str) -> tuple[str, ...]:
    """A queueSubscriptionSelector, ``PUT,GET`` -> ("PUT", "GET"); an unknown type is a ValueError
    naming the types there are."""
    chosen = tuple(dict.fromkeys(t.strip().upper() for t in text.split(",") if t.strip()))
    unknown = [t for t in chosen if t not in STATQ_TYPES]
    if unknown:
        raise ValueError(f"queueSubscriptionSelector: {', '.join(unknown)} is not one of {', '.join(STATQ_TYPES)}")
    return chosen


class Collector:
    """Scrapes queue managers through the client. ``qmgrs`` gives the names (default: those
    created under MQLITE_HOME); ``connect_to`` makes a connection (default bindings mode);
    ``queue_subscription_selector`` the STATQ types subscribed to per monitored queue (default
    the environment's IBMMQ_FILTERS_QUEUESUBSCRIPTIONSELECTOR, else none); ``rediscover`` the
    seconds between readings of the queues' definitions (default IBMMQ_GLOBAL_REDISCOVERINTERVAL,
    else 1h; a queue new in DISPLAY QSTATUS is read at once)."""

    def __init__(self, qmgrs: Callable[[], Sequence[str]] = paths.installed_qmgrs,
                 connect_to: Callable[[str], QueueManager] = connect, queues: Sequence[str] = DEFAULT_QUEUES,
                 clock: Callable[[], float] = time.time, use_reset_qstats: bool | None = None,
                 queue_subscription_selector: Sequence[str] | None = None, rediscover: float | None = None) -> None:
        self.qmgrs, self.connect_to, self.queues, self.clock = qmgrs, connect_to, tuple(queues), clock
        self.use_reset_qstats = _use_reset_qstats() if use_reset_qstats is None else use_reset_qstats
        selector = queue_subscription_selector
        self.selector = parse_selector(os.environ.get("IBMMQ_FILTERS_QUEUESUBSCRIPTIONSELECTOR", "")
                                       if selector is None else ",".join(selector))
        interval = os.environ.get("IBMMQ_GLOBAL_REDISCOVERINTERVAL", "")
        self.rediscover = rediscover if rediscover is not None else (
            parse_interval(interval) if interval else REDISCOVER_SECONDS)
        self._definitions: dict[str, tuple[float, dict[str, dict[str, str]]]] = {}  # qmgr -> (read at, queues)
        self._conns: dict[str, QueueManager] = {}
        self._publications: dict[str, Publications | None] = {}  # by queue manager, with its connection
        self._puts: dict[tuple[str, str], int] = {}
        self._gets: dict[tuple[str, str], int] = {}
        self._lock = threading.Lock()

    def text(self) -> str:
        return render(self.collect())

    def collect(self) -> list[Family]:
        with self._lock:
            families = _Families()
            for name in self.qmgrs():
                started = time.perf_counter()
                if self._scrape(families, name):
                    families("ibmmq_qmgr_exporter_collection_time").add(
                        {"qmgr": name, "platform": PLATFORM}, time.perf_counter() - started)
            return list(families.by_name.values())

    def close(self) -> None:
        with self._lock:
            for publications in self._publications.values():
                if publications is not None:
                    publications.close()
            self._publications.clear()
            for qm in self._conns.values():
                with contextlib.suppress(MQMIError, PYIFError, OSError):
                    qm.disconnect()
            self._conns.clear()

    def _scrape(self, families: _Families, name: str) -> bool:
        qmgr_labels = {"qmgr": name, "platform": PLATFORM}
        try:
            gathered = self._gather(name)
        except (MQMIError, PYIFError, OSError, ValueError):
            families("ibmmq_qmgr_status").add({**qmgr_labels, "description": ""}, 0)
            return False
        qmgr, qmstatus, queues, channels, chstatus, tpstatus, sbstatus, lsstatus, resets, ages = gathered
        description = qmgr[0].get("DESCR", "") if qmgr else ""
        self._qmgr(families, {**qmgr_labels, "description": description}, qmstatus[0] if qmstatus else {}, lsstatus)
        self._queues(families, qmgr_labels, queues, resets, ages)
        self._published(families, {**qmgr_labels, "description": description}, queues)
        self._channels(families, qmgr_labels, channels, chstatus)
        self._pubsub(families, qmgr_labels, tpstatus, sbstatus)
        return True

    def _gather(self, name: str) -> tuple[Any, ...]:
        """What a scrape asks of queue manager ``name``; a kept connection that fails (the queue
        manager was restarted) is replaced once at once."""
        while True:
            kept = self._conns.get(name)
            try:
                qm = kept if kept is not None else self._conns.setdefault(name, self.connect_to(name))
                _, lines = qm.mqsc(_SCRIPT)
                qmgr, qmstatus, *rest = mqsc_text.records_by_command(lines)
                if len(rest) != 6:
                    raise ValueError(f"{name}: an answer to each DISPLAY was expected")
                monitored = [q for q in rest[0] if _generic_match(self.queues, q.get("QUEUE", ""))]
                definitions = self._queue_definitions(qm, name, monitored)
                # a queue's status (CURDEPTH, IPPROCS, OPPROCS: current) with its definition
                queues = [{**q, **definitions.get(q.get("QUEUE", ""), {})} for q in monitored]
                resets = self._reset(qm, queues) if self.use_reset_qstats else {}
                self._take_publications(name, qm, queues)
                ages = {q["QUEUE"]: self._age(qm, q["QUEUE"]) for q in queues if _int(q.get("CURDEPTH")) > 0}
                return (qmgr, qmstatus, queues, *rest[1:], resets, ages)
            except (MQMIError, PYIFError, OSError, ValueError):
                dropped = self._conns.pop(name, None)
                self._publications.pop(name, None)  # (its queue and subscriptions went with the connection)
                if dropped is not None:
                    with contextlib.suppress(MQMIError, PYIFError, OSError):
                        dropped.disconnect()
                if kept is None:
                    raise

    def _queue_definitions(self, qm: QueueManager, name: str,
                           status: list[dict[str, str]]) -> dict[str, dict[str, str]]:
        """The monitored queues' MAXDEPTH, USAGE, DESCR and CLUSTER, as IBM's exporter keeps them:
        read again when the rediscover interval has passed or a queue is new (an ALTER shows at
        the next reading)."""
        now = time.monotonic()
        kept = self._definitions.get(name)
        if kept is not None and now - kept[0] < self.rediscover and all(q.get("QUEUE") in kept[1] for q in status):
            return kept[1]
        _, lines = qm.mqsc(_DEFINITIONS)
        sections = mqsc_text.records_by_command(lines)
        definitions = {q.get("QUEUE", ""): q for q in (sections[0] if sections else [])}
        self._definitions[name] = (now, definitions)
        return definitions

    def _take_publications(self, name: str, qm: QueueManager, queues: list[dict[str, str]]) -> None:
        """The publications since the last scrape, the subscriptions following the monitored queues."""
        if name not in self._publications:
            self._publications[name] = publications_for(qm, name)
        publications = self._publications[name]
        if publications is not None:
            publications.follow((q.get("QUEUE", "") for q in queues), self.selector)
            publications.drain()

    def _published(self, families: _Families, base: dict[str, str], queues: list[dict[str, str]]) -> None:
        """The publications' families; queues' samples with the labels of their DISPLAY."""
        publications = self._publications.get(base["qmgr"])
        if publications is None:
            return
        by_queue = {q.get("QUEUE", ""): q for q in queues}
        for metric, obj, number in publications.samples():
            if metric.name in _FROM_DISPLAY or metric.name in _COUNTS:
                continue
            if metric.per_object:
                q = by_queue.get(obj)
                if q is None:
                    continue
                labels = {"qmgr": base["qmgr"], "platform": base["platform"], "queue": obj,
                          "usage": q.get("USAGE", "NORMAL"), "description": q.get("DESCR", ""),
                          "cluster": q.get("CLUSTER", "")}
            else:
                labels = base
            families.published(metric.name, metric.help, metric.counter).add(labels, number)

    def _reset(self, qm: QueueManager, queues: list[dict[str, str]]) -> dict[str, dict[str, str]]:
        if not queues:
            return {}
        _, lines = qm.mqsc("".join(f"RESET QSTATS({q['QUEUE']})\n" for q in queues))
        return {rec.get("QUEUE", ""): rec for section in mqsc_text.records_by_command(lines) for rec in section}

    def _age(self, qm: QueueManager, queue: str) -> float:
        """Seconds since the first message on ``queue`` was put (browsed, its body not read)."""
        md = MD()
        gmo = GMO(Options=C.MQGMO_BROWSE_FIRST | C.MQGMO_NO_WAIT | C.MQGMO_ACCEPT_TRUNCATED_MSG
                  | C.MQGMO_NO_SYNCPOINT)
        try:
            handle = Queue(qm, queue, C.MQOO_BROWSE)
        except MQMIError:
            return 0.0
        try:
            handle.get(0, md, gmo)
        except MQMIError as error:
            if error.reason != C.MQRC_TRUNCATED_MSG_ACCEPTED:
                return 0.0
        finally:
            handle.close()
        hundredths = put_hundredths(md.PutDate.decode("ascii", "replace").strip(),
                                    md.PutTime.decode("ascii", "replace").strip())
        if hundredths is None:
            return 0.0
        return max(0.0, float(int(self.clock() - hundredths / 100)))

    def _qmgr(self, families: _Families, labels: dict[str, str], status: dict[str, str],
              listeners: list[dict[str, str]]) -> None:
        families("ibmmq_qmgr_status").add(labels, _QMGR_STATUS.get(status.get("STATUS", ""), 0))
        if "CMDSERV" in status:
            families("ibmmq_qmgr_command_server_status").add(
                labels, _SERVICE_STATUS.get(status["CMDSERV"], 0))
        if "CONNS" in status:
            families("ibmmq_qmgr_connection_count").add(labels, _int(status["CONNS"]))
        if "STARTDA" in status and "STARTTI" in status:
            try:
                started = time.mktime(time.strptime(status["STARTDA"] + " " + status["STARTTI"], "%Y-%m-%d %H.%M.%S"))
                families("ibmmq_qmgr_uptime").add(labels, max(0, int(self.clock() - started)))
            except ValueError:
                pass
        families("ibmmq_qmgr_active_listeners").add(
            labels, sum(1 for ls in listeners if ls.get("STATUS") == "RUNNING"))
        store = {"qmgr": labels["qmgr"]}
        if "STORESIZE" in status:
            families("mqlite_store_size_bytes").add(
                store, _int(status["STORESIZE"]))
        if "STORECOMMITS" in status:
            commits = _int(status["STORECOMMITS"])
            latency = families("mqlite_store_commit_seconds")
            latency.add(store, _int(status.get("STORECOMMITUS")) / 1_000_000, "_sum")
            latency.add(store, commits, "_count")
            group = families("mqlite_store_group_transactions")
            group.add(store, _int(status.get("STORETXS")), "_sum")
            group.add(store, commits, "_count")
            families("mqlite_store_operations_total").add(store, _int(status.get("STOREOPS")))

    def _queues(self, families: _Families, base: dict[str, str], queues: list[dict[str, str]],
                resets: dict[str, dict[str, str]], ages: dict[str, float]) -> None:
        qmgr = base["qmgr"]
        for q in queues:
            name = q.get("QUEUE", "")
            labels = {**base, "queue": name, "usage": q.get("USAGE", "NORMAL"), "description": q.get("DESCR", ""),
                      "cluster": q.get("CLUSTER", "")}
            families("ibmmq_queue_depth").add(labels, _int(q.get("CURDEPTH")))
            families("ibmmq_queue_attribute_max_depth").add(labels, _int(q.get("MAXDEPTH")))
            families("ibmmq_queue_input_handles").add(labels, _int(q.get("IPPROCS")))
            families("ibmmq_queue_output_handles").add(labels, _int(q.get("OPPROCS")))
            families("ibmmq_queue_uncommitted_messages").add(labels, _int(q.get("UNCOM")))
            families("ibmmq_queue_oldest_message_age").add(labels, ages.get(name, 0))
            if not self.use_reset_qstats:
                families("ibmmq_queue_mqput_mqput1_count").add(labels, _int(q.get("ENQTOTAL")))
                families("ibmmq_queue_mqget_count").add(labels, _int(q.get("DEQTOTAL")))
                continue
            reset = resets.get(name)
            key = (qmgr, name)
            if reset is not None:
                self._puts[key] = self._puts.get(key, 0) + _int(reset.get("ENQCOUNT"))
                self._gets[key] = self._gets.get(key, 0) + _int(reset.get("DEQCOUNT"))
                families("ibmmq_queue_hi_depth").add(labels, _int(reset.get("HIQDEPTH")))
            families("ibmmq_queue_mqput_mqput1_count").add(labels, self._puts.get(key, 0))
            families("ibmmq_queue_mqget_count").add(labels, self._gets.get(key, 0))

    @staticmethod
    def _channels(families: _Families, base: dict[str, str], channels: list[dict[str, str]],
                  chstatus: list[dict[str, str]]) -> None:
        defined = {c.get("CHANNEL", ""): c for c in channels if c.get("CHLTYPE") != "MQTT"}
        seen = set()
        rows: list[tuple[dict[str, str], dict[str, str]]] = []
        for status in chstatus:
            name = status.get("CHANNEL", "")
            if status.get("CHLTYPE") == "MQTT":
                continue
            seen.add(name)
            rows.append((defined.get(name, {}), status))
        rows.extend((definition, {}) for name, definition in defined.items()
                    if name not in seen and not name.startswith("SYSTEM."))
        for definition, status in rows:
            kind = status.get("CHLTYPE") or definition.get("CHLTYPE", "")
            labels = {**base, "channel": status.get("CHANNEL") or definition.get("CHANNEL", ""),
                      "description": definition.get("DESCR", ""), "type": _CHANNEL_TYPES.get(kind, kind),
                      "rqmname": status.get("RQMNAME", ""),
                      "connname": status.get("CONNAME") or definition.get("CONNAME", ""),
                      "jobname": status.get("JOBNAME", ""), "sslciph": status.get("SSLCIPH", "")}
            code = int(getattr(C, "MQCHS_" + status.get("STATUS", "INACTIVE"), C.MQCHS_INACTIVE))
            squash = 2 if code in _SQUASH_RUNNING else 0 if code in _SQUASH_STOPPED else 1
            families("ibmmq_channel_status").add(labels, code)
            families("ibmmq_channel_status_squash").add(labels, squash)
            for key, metric in [("MSGS", "messages"), ("BYTSSENT", "bytes_sent"), ("BYTSRCVD", "bytes_rcvd"),
                                ("BATCHES", "batches")]:
                families(f"ibmmq_channel_{metric}").add(labels, _int(status.get(key)))

    @staticmethod
    def _pubsub(families: _Families, base: dict[str, str], topics: list[dict[str, str]],
                subs: list[dict[str, str]]) -> None:
        for topic in topics:
            string = topic.get("TOPICSTR", "")
            subscribers, publishers = _int(topic.get("SUBCOUNT")), _int(topic.get("PUBCOUNT"))
            if string.startswith(("SYSTEM.", "$SYS")) or not (topic.get("ADMIN") or subscribers or publishers):
                continue
            labels = {**base, "topic": string, "type": "TOPIC"}
            families("ibmmq_topic_subscriber_count").add(labels, subscribers)
            families("ibmmq_topic_publisher_count").add(labels, publishers)
        durable = {"YES": 0, "NO": 0}
        for sub in subs:
            durable["YES" if sub.get("DURABLE") == "YES" else "NO"] += 1
            labels = {**base, "subscription": sub.get("SUB", ""), "subid": sub.get("SUBID", ""),
                      "topic": sub.get("TOPICSTR", ""), "type": sub.get("SUBTYPE", "")}
            families("ibmmq_subscription_messsages_received").add(labels, _int(sub.get("NUMMSGS")))
        count = families("mqlite_subscriptions")
        for flag, n in durable.items():
            count.add({"qmgr": base["qmgr"], "durable": flag}, n)


# -- the route ----------------------------------------------------------------------------------

_shared: list[Collector] = []
_shared_lock = threading.Lock()


def shared_collector() -> Collector:
    """The web server's one collector (with useResetQStats its put and get totals live as long
    as it does); a ValueError when the environment's configuration is wrong."""
    with _shared_lock:
        if not _shared:
            _shared.append(Collector())
        return _shared[0]


def routes(collector: Callable[[], Collector] = shared_collector) -> list[BaseRoute]:
    """``GET /metrics``: a scrape, collected on a worker thread (the client is blocking)."""

    async def metrics(request: Request) -> Response:
        try:
            text: Any = await run_in_threadpool(lambda: collector().text())
        except ValueError as error:  # (a bad IBMMQ_* setting: said, not a traceback)
            return Response(f"{error}\n", status_code=500, media_type="text/plain")
        return Response(text, media_type=CONTENT_TYPE)

    return [Route("/metrics", metrics, methods=["GET"])]


ROUTES: list[BaseRoute] = routes()  # app.py's hook (EXTRA_ROUTE_MODULES) adds these
