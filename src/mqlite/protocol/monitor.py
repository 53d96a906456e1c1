"""IBM MQ's resource monitoring publications (``$SYS/MQ/INFO/QMGR/<qm>/Monitor/...``): the
classes, types and elements mqlite publishes, their topics, and the PCF messages of the metadata
and of the data, as amqsrua and mq-golang's ``mqmetric`` read them. Sans-IO.

- Metadata, retained: ``.../Monitor/METADATA/CLASSES`` (an MQGACF_MONITOR_CLASS group per class:
  MQIAMO_MONITOR_CLASS, MQIAMO_MONITOR_FLAGS, MQCAMO_MONITOR_CLASS, MQCAMO_MONITOR_DESC, and its
  TYPES topic as MQCA_TOPIC_STRING), ``.../METADATA/<CLASS>/TYPES`` (MQIAMO_MONITOR_CLASS and
  MQIAMO_MONITOR_FLAGS, then an MQGACF_MONITOR_TYPE group per type with its elements' topic),
  ``.../METADATA/<CLASS>/<TYPE>`` (MQIAMO_MONITOR_CLASS, MQIAMO_MONITOR_TYPE, the data topic as
  MQCA_TOPIC_STRING, ``%s`` standing for the object of a per-object class, then an
  MQGACF_MONITOR_ELEMENT group per element: its number, MQIAMO_MONITOR_DATATYPE, its description).
- Data, each interval: MQCA_Q_MGR_NAME, MQIAMO_MONITOR_CLASS, MQIAMO_MONITOR_TYPE,
  MQIAMO64_MONITOR_INTERVAL (microseconds), MQCA_Q_NAME for STATQ, then each element as an
  MQCFIN64 whose Parameter is the element's number.

Element numbers, descriptions and data types are IBM's (IBM MQ 9.x on Linux); an element mqlite
cannot measure is left out of the metadata, so a tool never expects it (``NOT_MEASURED``). A
queue name's ``/`` is ``&`` in its topic (IBM MQ 9.3). MQCFH: Type MQCFT_STATISTICS, Command
MQCMD_NONE (the tools read neither).
"""

from __future__ import annotations

import struct
from collections.abc import Mapping
from typing import NamedTuple

from mqlite import cmqc as C
from mqlite.protocol import pcf

UNIT, DELTA, MICROSEC = C.MQIAMO_MONITOR_UNIT, C.MQIAMO_MONITOR_DELTA, C.MQIAMO_MONITOR_MICROSEC
PERCENT, HUNDREDTHS, MB = C.MQIAMO_MONITOR_PERCENT, C.MQIAMO_MONITOR_HUNDREDTHS, C.MQIAMO_MONITOR_MB


class Element(NamedTuple):
    id: int  # the Parameter of its MQCFIN64 in a data publication
    datatype: int  # MQIAMO_MONITOR_*
    description: str
    key: str  # mqlite's name of the value (what the publisher fills)


class MonitorType(NamedTuple):
    id: int
    name: str
    description: str
    elements: tuple[Element, ...]


class MonitorClass(NamedTuple):
    id: int
    name: str
    description: str
    flags: int  # MQIAMO_MONITOR_FLAGS_OBJNAME: one publication per object (STATQ's queues)
    types: tuple[MonitorType, ...]


def _e(id: int, datatype: int, description: str, key: str) -> Element:
    return Element(id, datatype, description, key)


CPU = MonitorClass(0, "CPU", "Platform central processing units", C.MQIAMO_MONITOR_FLAGS_NONE, (
    MonitorType(0, "SystemSummary", "CPU performance - platform wide", (
        _e(0, PERCENT, "User CPU time percentage", "user_cpu"),
        _e(1, PERCENT, "System CPU time percentage", "system_cpu"),
        _e(2, HUNDREDTHS, "CPU load - one minute average", "load1"),
        _e(3, HUNDREDTHS, "CPU load - five minute average", "load5"),
        _e(4, HUNDREDTHS, "CPU load - fifteen minute average", "load15"),
        _e(5, PERCENT, "RAM free percentage", "ram_free"),
        _e(6, MB, "RAM total bytes", "ram_total"))),
    MonitorType(1, "QMgrSummary", "CPU performance - running queue manager", (
        _e(0, PERCENT, "User CPU time - percentage estimate for queue manager", "qm_user_cpu"),
        _e(1, PERCENT, "System CPU time - percentage estimate for queue manager", "qm_system_cpu"),
        _e(2, MB, "RAM total bytes - estimate for queue manager", "qm_ram"))),
))

DISK = MonitorClass(1, "DISK", "Platform persistent data stores", C.MQIAMO_MONITOR_FLAGS_NONE, (
    MonitorType(0, "SystemSummary", "Disk usage - platform wide", (
        _e(6, MB, "MQ errors file system - bytes in use", "errors_fs_used"),
        _e(7, PERCENT, "MQ errors file system - free space", "errors_fs_free"))),
    MonitorType(1, "QMgrSummary", "Disk usage - running queue managers", (
        _e(0, MB, "Queue Manager file system - bytes in use", "qm_fs_used"),
        _e(1, PERCENT, "Queue Manager file system - free space", "qm_fs_free"))),
    MonitorType(2, "Log", "Disk usage - queue manager recovery log", (
        _e(0, UNIT, "Log - bytes in use", "log_used"),
        _e(2, UNIT, "Log file system - bytes in use", "log_fs_used"),
        _e(3, UNIT, "Log file system - bytes max", "log_fs_max"),
        _e(6, MICROSEC, "Log - write latency", "log_latency"))),
))

STATMQI = MonitorClass(2, "STATMQI", "API usage statistics", C.MQIAMO_MONITOR_FLAGS_NONE, (
    MonitorType(0, "CONNDISC", "MQCONN and MQDISC", (
        _e(0, DELTA, "MQCONN/MQCONNX count", "conns"),
        _e(1, DELTA, "Failed MQCONN/MQCONNX count", "conns_failed"),
        _e(2, UNIT, "Concurrent connections - high water mark", "conns_max"),
        _e(3, DELTA, "MQDISC count", "discs"))),
    MonitorType(1, "OPENCLOSE", "MQOPEN and MQCLOSE", (
        _e(0, DELTA, "MQOPEN count", "opens"),
        _e(1, DELTA, "Failed MQOPEN count", "opens_failed"),
        _e(2, DELTA, "MQCLOSE count", "closes"),
        _e(3, DELTA, "Failed MQCLOSE count", "closes_failed"))),
    MonitorType(2, "INQSET", "MQINQ and MQSET", (
        _e(0, DELTA, "MQINQ count", "inqs"),
        _e(1, DELTA, "Failed MQINQ count", "inqs_failed"),
        _e(2, DELTA, "MQSET count", "sets"),
        _e(3, DELTA, "Failed MQSET count", "sets_failed"))),
    MonitorType(3, "PUT", "MQPUT", (
        _e(0, DELTA, "Interval total MQPUT/MQPUT1 count", "put_total"),
        _e(1, DELTA, "Interval total MQPUT/MQPUT1 byte count", "put_total_bytes"),
        _e(2, DELTA, "Non-persistent message MQPUT count", "puts_np"),
        _e(3, DELTA, "Persistent message MQPUT count", "puts_p"),
        _e(4, DELTA, "Failed MQPUT count", "puts_failed"),
        _e(5, DELTA, "Non-persistent message MQPUT1 count", "put1s_np"),
        _e(6, DELTA, "Persistent message MQPUT1 count", "put1s_p"),
        _e(7, DELTA, "Failed MQPUT1 count", "put1s_failed"),
        _e(8, DELTA, "Put non-persistent messages - byte count", "put_bytes_np"),
        _e(9, DELTA, "Put persistent messages - byte count", "put_bytes_p"),
        _e(10, DELTA, "MQSTAT count", "stats"))),
    MonitorType(4, "GET", "MQGET", (
        _e(0, DELTA, "Interval total destructive get- count", "get_total"),
        _e(1, DELTA, "Interval total destructive get - byte count", "get_total_bytes"),
        _e(2, DELTA, "Non-persistent message destructive get - count", "gets_np"),
        _e(3, DELTA, "Persistent message destructive get - count", "gets_p"),
        _e(4, DELTA, "Failed MQGET - count", "gets_failed"),
        _e(5, DELTA, "Got non-persistent messages - byte count", "get_bytes_np"),
        _e(6, DELTA, "Got persistent messages - byte count", "get_bytes_p"),
        _e(7, DELTA, "Non-persistent message browse - count", "browses_np"),
        _e(8, DELTA, "Persistent message browse - count", "browses_p"),
        _e(9, DELTA, "Failed browse count", "browses_failed"),
        _e(10, DELTA, "Non-persistent message browse - byte count", "browse_bytes_np"),
        _e(11, DELTA, "Persistent message browse - byte count", "browse_bytes_p"),
        _e(12, DELTA, "Expired message count", "expired"),
        _e(13, DELTA, "Purged queue count", "purged"),
        _e(14, DELTA, "MQCB count", "cbs"),
        _e(15, DELTA, "Failed MQCB count", "cbs_failed"),
        _e(16, DELTA, "MQCTL count", "ctls"))),
    MonitorType(5, "SYNCPOINT", "Commit and rollback", (
        _e(0, DELTA, "Commit count", "commits"),
        _e(2, DELTA, "Rollback count", "backouts"))),
    MonitorType(6, "SUBSCRIBE", "Subscribe", (
        _e(6, DELTA, "Failed create/alter/resume subscription count", "subs_failed"),
        _e(10, DELTA, "MQSUBRQ count", "subrqs"),
        _e(11, DELTA, "Failed MQSUBRQ count", "subrqs_failed"))),
    MonitorType(7, "PUBLISH", "Publish", (
        _e(0, DELTA, "Topic MQPUT/MQPUT1 interval total", "topic_put_total"),
        _e(1, DELTA, "Interval total topic bytes put", "topic_put_bytes"),
        _e(4, DELTA, "Non-persistent - topic MQPUT/MQPUT1 count", "topic_puts_np"),
        _e(5, DELTA, "Persistent - topic MQPUT/MQPUT1 count", "topic_puts_p"),
        _e(6, DELTA, "Failed topic MQPUT/MQPUT1 count", "topic_puts_failed"))),
))

STATQ = MonitorClass(3, "STATQ", "API per-queue usage statistics", C.MQIAMO_MONITOR_FLAGS_OBJNAME, (
    MonitorType(0, "OPENCLOSE", "MQOPEN and MQCLOSE", (
        _e(0, DELTA, "MQOPEN count", "opens"),
        _e(1, DELTA, "MQCLOSE count", "closes"))),
    MonitorType(1, "INQSET", "MQINQ and MQSET", (
        _e(0, DELTA, "MQINQ count", "inqs"),
        _e(1, DELTA, "MQSET count", "sets"))),
    MonitorType(2, "PUT", "MQPUT and MQPUT1", (
        _e(0, DELTA, "MQPUT/MQPUT1 count", "put_total"),
        _e(1, DELTA, "MQPUT byte count", "put_total_bytes"),
        _e(2, DELTA, "MQPUT non-persistent message count", "puts_np"),
        _e(3, DELTA, "MQPUT persistent message count", "puts_p"),
        _e(4, DELTA, "MQPUT1 non-persistent message count", "put1s_np"),
        _e(5, DELTA, "MQPUT1 persistent message count", "put1s_p"),
        _e(6, DELTA, "non-persistent byte count", "put_bytes_np"),
        _e(7, DELTA, "persistent byte count", "put_bytes_p"))),
    MonitorType(3, "GET", "MQGET", (
        _e(0, DELTA, "MQGET count", "get_total"),
        _e(1, DELTA, "MQGET byte count", "get_total_bytes"),
        _e(2, DELTA, "destructive MQGET non-persistent message count", "gets_np"),
        _e(3, DELTA, "destructive MQGET persistent message count", "gets_p"),
        _e(4, DELTA, "destructive MQGET non-persistent byte count", "get_bytes_np"),
        _e(5, DELTA, "destructive MQGET persistent byte count", "get_bytes_p"),
        _e(6, DELTA, "MQGET browse non-persistent message count", "browses_np"),
        _e(7, DELTA, "MQGET browse persistent message count", "browses_p"),
        _e(8, DELTA, "MQGET browse non-persistent byte count", "browse_bytes_np"),
        _e(9, DELTA, "MQGET browse persistent byte count", "browse_bytes_p"),
        _e(10, DELTA, "destructive MQGET fails", "gets_failed"),
        _e(11, DELTA, "destructive MQGET fails with MQRC_NO_MSG_AVAILABLE", "gets_failed_no_msg"),
        _e(12, DELTA, "destructive MQGET fails with MQRC_TRUNCATED_MSG_FAILED", "gets_failed_truncated"),
        _e(13, DELTA, "MQGET browse fails", "browses_failed"),
        _e(14, DELTA, "MQGET browse fails with MQRC_NO_MSG_AVAILABLE", "browses_failed_no_msg"),
        _e(15, DELTA, "MQGET browse fails with MQRC_TRUNCATED_MSG_FAILED", "browses_failed_truncated"))),
    MonitorType(4, "GENERAL", "General queue metrics", (
        _e(0, DELTA, "messages expired", "expired"),
        _e(1, DELTA, "queue purged count", "purged"),
        _e(2, MICROSEC, "average queue time", "avg_q_time"),
        _e(3, UNIT, "Queue depth", "depth"))),
))

CLASSES: tuple[MonitorClass, ...] = (CPU, DISK, STATMQI, STATQ)

#: IBM's elements mqlite leaves out (class/type: descriptions), and why: the README's table.
NOT_MEASURED: Mapping[str, str] = {
    "DISK/SystemSummary": "MQ trace file system - bytes in use, - free space (mqlite has no trace); "
                          "MQ FDC file count (no FDC files); appliance and system volume figures",
    "DISK/Log": "Log - bytes max, physical and logical bytes written, current primary space in use, workload "
                "primary space utilization, bytes required for media recovery, reusable extents, extents "
                "waiting to be archived, write size (SQLite's WAL has no extents, limit or byte counts)",
    "STATMQI/SYNCPOINT": "element 1 (IBM publishes none either)",
    "STATMQI/SUBSCRIBE": "create/alter/resume/delete counts split by durability, subscriber high and "
                         "low water marks (mqlite counts subscriptions made, not their kind)",
    "STATMQI/PUBLISH": "Published to subscribers - message count, - byte count",
    "STATQ/PUT": "queue avoided puts and bytes, lock contention, rolled back MQPUT count",
    "STATQ/GET": "rolled back MQGET count",
}


def find_class(name: str) -> MonitorClass | None:
    return next((c for c in CLASSES if c.name == name), None)


def find_type(cls: MonitorClass, name: str) -> MonitorType | None:
    return next((t for t in cls.types if t.name == name), None)


# -- topics --------------------------------------------------------------------------------------
def root(qmgr: str) -> str:
    return f"$SYS/MQ/INFO/QMGR/{qmgr}/Monitor/"


def classes_topic(qmgr: str) -> str:
    return root(qmgr) + "METADATA/CLASSES"


def types_topic(qmgr: str, cls: MonitorClass) -> str:
    return f"{root(qmgr)}METADATA/{cls.name}/TYPES"


def elements_topic(qmgr: str, cls: MonitorClass, typ: MonitorType) -> str:
    return f"{root(qmgr)}METADATA/{cls.name}/{typ.name}"


def data_topic(qmgr: str, cls: MonitorClass, typ: MonitorType, obj: str | None = None) -> str:
    """The topic of the data; ``obj`` None gives the metadata's form (``%s`` for the object)."""
    if cls.flags & C.MQIAMO_MONITOR_FLAGS_OBJNAME:
        return f"{root(qmgr)}{cls.name}/{'%s' if obj is None else object_level(obj)}/{typ.name}"
    return f"{root(qmgr)}{cls.name}/{typ.name}"


def object_level(name: str) -> str:
    """An object name as a topic level: IBM MQ 9.3 writes a ``/`` in it as ``&``."""
    return name.replace("/", "&")


# -- PCF -----------------------------------------------------------------------------------------
def _header(count: int) -> bytes:
    return struct.pack("<9i", C.MQCFT_STATISTICS, C.MQCFH_STRUC_LENGTH, C.MQCFH_VERSION_3, C.MQCMD_NONE, 1,
                       C.MQCFC_LAST, C.MQCC_OK, C.MQRC_NONE, count)


def _int(parameter: int, value: int) -> bytes:
    return struct.pack("<4i", C.MQCFT_INTEGER, C.MQCFIN_STRUC_LENGTH, parameter, value)


def _int64(parameter: int, value: int) -> bytes:
    return struct.pack("<4iq", C.MQCFT_INTEGER64, C.MQCFIN64_STRUC_LENGTH, parameter, 0, value)


def _string(parameter: int, value: str, width: int = 0) -> bytes:
    data = value.ljust(width).encode("utf-8")
    length = (C.MQCFST_STRUC_LENGTH_FIXED + len(data) + 3) & ~3
    head = struct.pack("<5i", C.MQCFT_STRING, length, parameter, pcf.UTF8, len(data))
    return (head + data).ljust(length, b"\0")


def _group(parameter: int, members: list[bytes]) -> bytes:
    return struct.pack("<4i", C.MQCFT_GROUP, C.MQCFGR_STRUC_LENGTH, parameter, len(members)) + b"".join(members)


def _message(parameters: list[bytes]) -> bytes:
    return _header(len(parameters)) + b"".join(parameters)


def classes_message(qmgr: str) -> bytes:
    return _message([_group(C.MQGACF_MONITOR_CLASS, [
        _int(C.MQIAMO_MONITOR_CLASS, c.id), _int(C.MQIAMO_MONITOR_FLAGS, c.flags),
        _string(C.MQCAMO_MONITOR_CLASS, c.name), _string(C.MQCAMO_MONITOR_DESC, c.description),
        _string(C.MQCA_TOPIC_STRING, types_topic(qmgr, c))]) for c in CLASSES])


def types_message(qmgr: str, cls: MonitorClass) -> bytes:
    return _message([_int(C.MQIAMO_MONITOR_CLASS, cls.id), _int(C.MQIAMO_MONITOR_FLAGS, cls.flags)] + [
        _group(C.MQGACF_MONITOR_TYPE, [
            _int(C.MQIAMO_MONITOR_TYPE, t.id), _string(C.MQCAMO_MONITOR_TYPE, t.name),
            _string(C.MQCAMO_MONITOR_DESC, t.description),
            _string(C.MQCA_TOPIC_STRING, elements_topic(qmgr, cls, t))]) for t in cls.types])


def elements_message(qmgr: str, cls: MonitorClass, typ: MonitorType) -> bytes:
    return _message([_int(C.MQIAMO_MONITOR_CLASS, cls.id), _int(C.MQIAMO_MONITOR_TYPE, typ.id),
                     _string(C.MQCA_TOPIC_STRING, data_topic(qmgr, cls, typ))] + [
        _group(C.MQGACF_MONITOR_ELEMENT, [
            _int(C.MQIAMO_MONITOR_ELEMENT, e.id), _int(C.MQIAMO_MONITOR_DATATYPE, e.datatype),
            _string(C.MQCAMO_MONITOR_DESC, e.description)]) for e in typ.elements])


def metadata(qmgr: str) -> list[tuple[str, bytes]]:
    """Every retained metadata publication: (topic, PCF body), CLASSES first."""
    out = [(classes_topic(qmgr), classes_message(qmgr))]
    for cls in CLASSES:
        out.append((types_topic(qmgr, cls), types_message(qmgr, cls)))
        out.extend((elements_topic(qmgr, cls, t), elements_message(qmgr, cls, t)) for t in cls.types)
    return out


def data_message(qmgr: str, cls: MonitorClass, typ: MonitorType, interval_us: int, values: Mapping[str, int],
                 obj: str | None = None) -> bytes:
    """One data publication; ``values`` by element key (a missing one is published as 0)."""
    parameters = [_string(C.MQCA_Q_MGR_NAME, qmgr, C.MQ_Q_MGR_NAME_LENGTH), _int(C.MQIAMO_MONITOR_CLASS, cls.id),
                  _int(C.MQIAMO_MONITOR_TYPE, typ.id), _int64(C.MQIAMO64_MONITOR_INTERVAL, interval_us)]
    if obj is not None:
        parameters.append(_string(C.MQCA_Q_NAME, obj, C.MQ_Q_NAME_LENGTH))
    elements = _elements_struct(typ)
    fields: list[int] = []
    for e in typ.elements:
        fields += (C.MQCFT_INTEGER64, C.MQCFIN64_STRUC_LENGTH, e.id, 0, int(values.get(e.key, 0)))
    parameters.append(elements.pack(*fields))  # (one pack for the elements: this runs for every queue)
    return _header(len(parameters) - 1 + len(typ.elements)) + b"".join(parameters)


_STRUCTS: dict[MonitorType, struct.Struct] = {}


def _elements_struct(typ: MonitorType) -> struct.Struct:
    found = _STRUCTS.get(typ)
    if found is None:
        found = _STRUCTS[typ] = struct.Struct("<" + "4iq" * len(typ.elements))
    return found
