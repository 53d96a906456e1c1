"""Resource monitoring publications ($SYS/MQ/INFO/QMGR/<qm>/Monitor/...): the metadata's PCF
layout as amqsrua and mqmetric read it, data publications from two snapshots, which
class/type/queue publications are wanted, the machine's arithmetic, and the names mq_prometheus
gives the elements. (IBM MQ 9 "Metrics published on the system topics"; no spec ID.)"""

from __future__ import annotations

import dataclasses
import struct

import pytest

from mqlite import cmqc as C
from mqlite.core import monitoring
from mqlite.core.statistics.counters import MQI_FIELDS, MQISnapshot, QueueCounters, QueueSnapshot
from mqlite.protocol import monitor as M
from mqlite.protocol import monitor_read as R
from mqlite.protocol import pcf
from mqlite.server.monitor import DEFAULT_INTERVAL, interval_from

QM = "QM1"
ROOT = "$SYS/MQ/INFO/QMGR/QM1/Monitor/"


def _parameters_raw(body: bytes) -> list[tuple[int, int]]:
    """(structure type, parameter) of each top-level parameter, read from the bytes."""
    count = struct.unpack_from("<9i", body)[8]
    offset, out = C.MQCFH_STRUC_LENGTH, []
    for _ in range(count):
        kind, length, parameter = struct.unpack_from("<3i", body, offset)
        out.append((kind, parameter))
        if kind == C.MQCFT_GROUP:
            members = struct.unpack_from("<i", body, offset + 12)[0]
            offset += length
            for _ in range(members):
                offset += struct.unpack_from("<3i", body, offset)[1]
        else:
            offset += length
    return out


def test_classes_metadata() -> None:
    body = M.classes_message(QM)
    message = pcf.decode(body)
    assert (message.header.Type, message.header.Command) == (C.MQCFT_STATISTICS, C.MQCMD_NONE)
    assert all(p == C.MQGACF_MONITOR_CLASS for p, _ in message.parameters)
    first = message.parameters[0][1]
    assert isinstance(first, pcf.Group)
    assert [p for p, _ in first.parameters] == [C.MQIAMO_MONITOR_CLASS, C.MQIAMO_MONITOR_FLAGS, C.MQCAMO_MONITOR_CLASS,
                                                C.MQCAMO_MONITOR_DESC, C.MQCA_TOPIC_STRING]
    classes = R.read_classes(message)
    assert [(c.id, c.name, c.flags) for c in classes] == [
        (0, "CPU", 0), (1, "DISK", 0), (2, "STATMQI", 0), (3, "STATQ", C.MQIAMO_MONITOR_FLAGS_OBJNAME)]
    assert classes[0].topic == ROOT + "METADATA/CPU/TYPES"
    assert classes[3].description == "API per-queue usage statistics"


@pytest.mark.parametrize("cls", M.CLASSES, ids=lambda c: c.name)
def test_types_and_elements_metadata(cls: M.MonitorClass) -> None:
    types_message = pcf.decode(M.types_message(QM, cls))
    assert types_message.parameters[:2] == [(C.MQIAMO_MONITOR_CLASS, cls.id), (C.MQIAMO_MONITOR_FLAGS, cls.flags)]
    types = R.read_types(types_message)
    assert [(t.id, t.name) for t in types] == [(t.id, t.name) for t in cls.types]
    for info, typ in zip(types, cls.types, strict=True):
        assert info.topic == f"{ROOT}METADATA/{cls.name}/{typ.name}"
        body = M.elements_message(QM, cls, typ)
        message = pcf.decode(body)
        assert message.parameters[:2] == [(C.MQIAMO_MONITOR_CLASS, cls.id), (C.MQIAMO_MONITOR_TYPE, typ.id)]
        R.read_elements(message, info)
        object_level = "%s/" if cls.name == "STATQ" else ""
        assert info.data_topic == f"{ROOT}{cls.name}/{object_level}{typ.name}"
        assert [(e.id, e.datatype, e.description) for e in info.elements.values()] == [
            (e.id, e.datatype, e.description) for e in typ.elements]
        group = message.parameters[3][1]
        assert isinstance(group, pcf.Group)
        assert [p for p, _ in group.parameters] == [C.MQIAMO_MONITOR_ELEMENT, C.MQIAMO_MONITOR_DATATYPE,
                                                    C.MQCAMO_MONITOR_DESC]
        assert all(kind == C.MQCFT_INTEGER for kind, p in _parameters_raw(body)[:2])  # amqsrua reads MQCFIN


def test_ibm_numbers_kept_for_the_elements_published() -> None:
    statq_put = M.find_type(M.STATQ, "PUT")
    assert statq_put is not None and statq_put.id == 2
    assert [(e.id, e.description) for e in statq_put.elements][:2] == [(0, "MQPUT/MQPUT1 count"),
                                                                         (1, "MQPUT byte count")]
    syncpoint = M.find_type(M.STATMQI, "SYNCPOINT")
    assert syncpoint is not None and [e.id for e in syncpoint.elements] == [0, 2]  # IBM publishes no 1
    assert len(M.metadata(QM)) == 1 + len(M.CLASSES) + sum(len(c.types) for c in M.CLASSES)


def test_statq_openclose_inqset_and_get_failures_are_ibms() -> None:
    """amqsrua's metadata of IBM MQ 9's STATQ: OPENCLOSE type 0, INQSET type 1, GET's 2033 and
    2080 failures as elements 11, 12 (destructive) and 14, 15 (browse)."""
    shown = {t.name: (t.id, t.description, [(e.id, e.description) for e in t.elements]) for t in M.STATQ.types}
    assert shown["OPENCLOSE"] == (0, "MQOPEN and MQCLOSE", [(0, "MQOPEN count"), (1, "MQCLOSE count")])
    assert shown["INQSET"] == (1, "MQINQ and MQSET", [(0, "MQINQ count"), (1, "MQSET count")])
    assert [e for e in shown["GET"][2] if e[0] in (11, 12, 14, 15)] == [
        (11, "destructive MQGET fails with MQRC_NO_MSG_AVAILABLE"),
        (12, "destructive MQGET fails with MQRC_TRUNCATED_MSG_FAILED"),
        (14, "MQGET browse fails with MQRC_NO_MSG_AVAILABLE"),
        (15, "MQGET browse fails with MQRC_TRUNCATED_MSG_FAILED")]
    counters = QueueCounters()
    base = counters.snapshot()
    counters.opens += 2
    counters.closes += 1
    counters.inqs += 3
    counters.sets += 1
    for browse, reason in ((0, C.MQRC_NO_MSG_AVAILABLE), (0, C.MQRC_TRUNCATED_MSG_FAILED), (0, C.MQRC_Q_DELETED),
                           (1, C.MQRC_NO_MSG_AVAILABLE), (1, C.MQRC_TRUNCATED_MSG_FAILED)):
        counters.failed(browse, reason)
    values = monitoring.statq_values(counters.snapshot() - base)
    for name in ("OPENCLOSE", "INQSET", "GET"):
        typ = M.find_type(M.STATQ, name)
        assert typ is not None
        assert all(e.key in values for e in typ.elements)  # every element published has its value
    assert (values["opens"], values["closes"], values["inqs"], values["sets"]) == (2, 1, 3, 1)
    assert (values["gets_failed"], values["gets_failed_no_msg"], values["gets_failed_truncated"]) == (3, 1, 1)
    assert (values["browses_failed"], values["browses_failed_no_msg"], values["browses_failed_truncated"]) == (2, 1, 1)
    assert not dataclasses.replace(base, opens=1, closes=1, inqs=1, sets=1).active  # no statistics record for those


def _queue_snapshot(puts: int = 0, put_bytes: int = 0, gets: int = 0, depth: int = 0, waited: int = 0,
                    persistent: bool = False) -> QueueSnapshot:
    def pair(n: int) -> tuple[int, int]:
        return (0, n) if persistent else (n, 0)

    # every other field zero, whatever fields the snapshot grows
    zeros = {f.name: (0, 0) if "tuple" in str(f.type) else 0 for f in dataclasses.fields(QueueSnapshot)}
    return QueueSnapshot(**{**zeros, "puts": pair(puts), "put_bytes": pair(put_bytes), "gets": pair(gets),
                            "get_bytes": pair(gets * 10), "time_on_q": pair(waited), "timed": pair(gets),
                            "depth": depth})


def test_statq_publication_from_two_snapshots() -> None:
    earlier = _queue_snapshot(puts=3, put_bytes=30, depth=3)
    later = _queue_snapshot(puts=8, put_bytes=130, gets=2, depth=6, waited=5000)
    values = monitoring.statq_values(later - earlier)
    assert values["put_total"] == 5 and values["puts_np"] == 5 and values["puts_p"] == 0
    assert values["put_total_bytes"] == 100 and values["depth"] == 6 and values["avg_q_time"] == 2500
    typ = M.find_type(M.STATQ, "PUT")
    assert typ is not None
    body = M.data_message(QM, M.STATQ, typ, 10_000_000, values, "APP/IN")
    data = R.read_data(pcf.decode(body))
    assert (data.class_id, data.type_id, data.interval_us, data.qmgr, data.obj) == (3, 2, 10_000_000, QM, "APP/IN")
    assert data.values[0] == 5 and data.values[1] == 100 and data.values[2] == 5
    raw = _parameters_raw(body)
    assert raw[:5] == [(C.MQCFT_STRING, C.MQCA_Q_MGR_NAME), (C.MQCFT_INTEGER, C.MQIAMO_MONITOR_CLASS),
                       (C.MQCFT_INTEGER, C.MQIAMO_MONITOR_TYPE), (C.MQCFT_INTEGER64, C.MQIAMO64_MONITOR_INTERVAL),
                       (C.MQCFT_STRING, C.MQCA_Q_NAME)]
    assert all(kind == C.MQCFT_INTEGER64 for kind, _ in raw[5:])  # every element an MQCFIN64
    assert M.data_topic(QM, M.STATQ, typ, "APP/IN") == ROOT + "STATQ/APP&IN/PUT"


def test_statmqi_publication_from_two_snapshots() -> None:
    def snapshot(puts: int, conns_max: int) -> MQISnapshot:
        values: list[tuple[str, int | tuple[int, int]]] = [
            (name, (0, 0) if n == 2 else 0) for name, n in MQI_FIELDS.items()]
        values = [(n, (puts, 1) if n == "puts" else conns_max if n == "conns_max" else v) for n, v in values]
        return MQISnapshot(tuple(values))

    values = monitoring.statmqi_values(snapshot(9, 4) - snapshot(2, 3))
    assert values["puts_np"] == 7 and values["puts_p"] == 0 and values["put_total"] == 7
    assert values["conns_max"] == 4  # a high-water mark as it stands


def test_wanted_follows_the_subscriptions() -> None:
    subscribed = {ROOT + "CPU/SystemSummary", ROOT + "STATQ/APP.IN/PUT", ROOT + "STATQ/SYSTEM.X/PUT"}
    wanted = monitoring.wanted(QM, ["APP.IN", "APP.OUT", "SYSTEM.X"], subscribed.__contains__)
    assert [(w.cls.name, w.typ.name, w.obj) for w in wanted] == [("CPU", "SystemSummary", None),
                                                                ("STATQ", "PUT", "APP.IN")]
    assert monitoring.wanted(QM, ["APP.IN"], lambda topic: False) == []


def test_cpu_and_disk_arithmetic() -> None:
    earlier = monitoring.CpuSample(100, 50, 1000, 1.0, 0.5, 10.0, 4)
    later = monitoring.CpuSample(150, 60, 1200, 3.0, 1.5, 20.0, 4)
    values = monitoring.cpu_values(earlier, later, (1.5, 0.25, 0.0), 8 << 30, 2 << 30, 300 << 20)
    assert values["user_cpu"] == 2500 and values["system_cpu"] == 500  # 25.00%, 5.00%
    assert values["qm_user_cpu"] == 500 and values["qm_system_cpu"] == 250  # of 4 CPUs for 10 s
    assert (values["load1"], values["load5"], values["ram_free"], values["ram_total"], values["qm_ram"]) == (
        150, 25, 2500, 8192, 300)
    disk = monitoring.disk_values(monitoring.FileSystem(100 << 20, 25 << 20), monitoring.FileSystem(0, 0),
                                  4096, 4, 0.002)
    assert (disk["qm_fs_used"], disk["qm_fs_free"], disk["errors_fs_free"], disk["log_latency"]) == (75, 2500, 0, 500)


def test_prometheus_names_and_amqsrua_text() -> None:
    assert R.metric_name("MQPUT/MQPUT1 count", True) == "ibmmq_queue_mqput_mqput1_count"
    assert R.metric_name("Queue depth", True) == "ibmmq_queue_depth"  # "queue_" not doubled
    assert R.metric_name("User CPU time percentage", False) == "ibmmq_qmgr_user_cpu_time_percentage"
    assert R.metric_name("Log - write latency", False) == "ibmmq_qmgr_log_write_latency_seconds"
    delta = R.ElementInfo(0, C.MQIAMO_MONITOR_DELTA, "MQPUT/MQPUT1 count")
    assert R.format_value(delta, 20, 10_000_000) == "MQPUT/MQPUT1 count 20 2/sec"
    assert R.format_value(delta, 0, 10_000_000) == "MQPUT/MQPUT1 count 0"
    assert R.format_value(R.ElementInfo(0, C.MQIAMO_MONITOR_PERCENT, "RAM free percentage"), 2550, 1) == (
        "RAM free percentage 25.50%")
    assert R.format_interval(10_000_500) == "10.000 seconds"
    assert R.format_interval(3_725_250_000) == "1 hours,2 minutes,5.250 seconds"


def test_interval_setting() -> None:
    assert interval_from({}) == DEFAULT_INTERVAL == 10.0
    assert interval_from({"TuningParameters": {"MonitorPublishHeartBeat": "30"}}) == 30.0
    assert interval_from({"TuningParameters": {"MonitorPublishHeartBeat": "x"}}) == DEFAULT_INTERVAL


def test_metrics_normalise_to_base_units() -> None:
    from mqlite.web.metrics_publications import normalise

    assert normalise(C.MQIAMO_MONITOR_PERCENT, 2550) == 25.5
    assert normalise(C.MQIAMO_MONITOR_MB, 3) == 3 * 1024 * 1024
    assert normalise(C.MQIAMO_MONITOR_MICROSEC, 1500) == 0.0015
    assert normalise(C.MQIAMO_MONITOR_DELTA, -4) == 0  # mqmetric's: a negative is nonsense
