"""The statistics messages as IBM lays them out (pure): MQFMT_ADMIN PCF, MQCFH Type
MQCFT_STATISTICS, Command MQCMD_STATISTICS_MQI / _Q / _CHANNEL; the interval's QMgrName,
IntervalStartDate/Time, IntervalEndDate/Time, CommandLevel (and ObjectCount), then the counts
(STATMQI) or one MQCFGR group per queue (MQGACF_Q_STATISTICS_DATA) or channel
(MQGACF_CHL_STATISTICS_DATA), at most 100 groups a message, as IBM writes them.
"""

from __future__ import annotations

from dataclasses import dataclass

from mqlite import cmqc as C
from mqlite.core.statistics.counters import ChannelSnapshot, MQISnapshot, QueueSnapshot
from mqlite.protocol import pcf

STATISTICS_QUEUE = "SYSTEM.ADMIN.STATISTICS.QUEUE"
RECORDS_PER_MESSAGE = 100  # IBM: "each queue statistics message can contain up to 100 records"


@dataclass(frozen=True)
class Interval:
    """An interval's bounds as IBM's dates and times (2026-12-02, 03.15.07), local time."""

    start_date: str
    start_time: str
    end_date: str
    end_time: str


@dataclass(frozen=True)
class QueueRecord:
    name: str
    create_date: str
    create_time: str
    qtype: int  # MQQT_LOCAL
    definition_type: int  # MQQDT_PREDEFINED, _PERMANENT_DYNAMIC, _TEMPORARY_DYNAMIC
    min_depth: int
    max_depth: int
    counts: QueueSnapshot  # the interval's (a later snapshot less an earlier one)


@dataclass(frozen=True)
class ChannelRecord:
    name: str
    chltype: int  # MQCHT_*
    remote_qmgr: str
    conname: str
    counts: ChannelSnapshot


def _head(qmgr: str, interval: Interval, command_level: int) -> list[tuple[int, pcf.Value]]:
    return [(C.MQCA_Q_MGR_NAME, qmgr.ljust(48)), (C.MQCAMO_START_DATE, interval.start_date),
            (C.MQCAMO_START_TIME, interval.start_time), (C.MQCAMO_END_DATE, interval.end_date),
            (C.MQCAMO_END_TIME, interval.end_time), (C.MQIA_COMMAND_LEVEL, command_level)]


def _pcf(command: int, parameters: list[tuple[int, pcf.Value]]) -> bytes:
    header = pcf.MQCFH(Type=C.MQCFT_STATISTICS, Command=command, CompCode=C.MQCC_OK, Reason=0)
    return pcf.encode(pcf.PcfMessage(header, parameters))


def _pair(values: tuple[int, int]) -> list[int]:
    return [values[0], values[1]]


def _pair64(values: tuple[int, int]) -> pcf.Int64List:
    """One of IBM's 64-bit pairs (AvgTimeOnQ, the byte counts): MQCFIL64 whatever the values."""
    return pcf.Int64List(values)


#: The statistics fields IBM sends as MQCFIN64/MQCFIL64 (its "... statistics message data"
#: pages; amqsmon reads them as such): the MQIAMO64_* parameters.
INT64_PARAMETERS = frozenset({C.MQIAMO64_AVG_Q_TIME, C.MQIAMO64_PUT_BYTES, C.MQIAMO64_GET_BYTES,
                              C.MQIAMO64_BROWSE_BYTES, C.MQIAMO64_TOPIC_PUT_BYTES, C.MQIAMO64_BYTES})


def queue_group(record: QueueRecord) -> pcf.Group:
    """One QStatisticsData group, IBM's parameters in IBM's order."""
    c = record.counts
    avg = [c.time_on_q[i] // c.timed[i] if c.timed[i] else 0 for i in (0, 1)]
    return pcf.Group([
        (C.MQCA_Q_NAME, record.name.ljust(48)), (C.MQCA_CREATION_DATE, record.create_date),
        (C.MQCA_CREATION_TIME, record.create_time), (C.MQIA_Q_TYPE, record.qtype),
        (C.MQIA_DEFINITION_TYPE, record.definition_type), (C.MQIAMO_Q_MIN_DEPTH, record.min_depth),
        (C.MQIAMO_Q_MAX_DEPTH, record.max_depth), (C.MQIAMO64_AVG_Q_TIME, pcf.Int64List(avg)),
        (C.MQIAMO_PUTS, _pair(c.puts)), (C.MQIAMO_PUTS_FAILED, c.put_fails),
        (C.MQIAMO_PUT1S, _pair(c.put1s)), (C.MQIAMO_PUT1S_FAILED, c.put1_fails),
        (C.MQIAMO64_PUT_BYTES, _pair64(c.put_bytes)), (C.MQIAMO_GETS, _pair(c.gets)),
        (C.MQIAMO64_GET_BYTES, _pair64(c.get_bytes)), (C.MQIAMO_GETS_FAILED, c.get_fails),
        (C.MQIAMO_BROWSES, _pair(c.browses)), (C.MQIAMO64_BROWSE_BYTES, _pair64(c.browse_bytes)),
        (C.MQIAMO_BROWSES_FAILED, c.browse_fails), (C.MQIAMO_MSGS_NOT_QUEUED, c.not_queued),
        (C.MQIAMO_MSGS_EXPIRED, c.expired), (C.MQIAMO_MSGS_PURGED, c.purged),
    ])


def queue_messages(qmgr: str, interval: Interval, command_level: int, records: list[QueueRecord]) -> list[bytes]:
    """MQCMD_STATISTICS_Q messages, up to 100 queues each; none for no records (IBM writes no
    message for an interval with no activity)."""
    out = []
    for start in range(0, len(records), RECORDS_PER_MESSAGE):
        part = records[start:start + RECORDS_PER_MESSAGE]
        params = [*_head(qmgr, interval, command_level), (C.MQIAMO_OBJECT_COUNT, len(part))]
        params += [(C.MQGACF_Q_STATISTICS_DATA, queue_group(r)) for r in part]
        out.append(_pcf(C.MQCMD_STATISTICS_Q, params))
    return out


# STATMQI: (parameter, the counter's name), IBM's order.
MQI_PARAMETERS: tuple[tuple[int, str], ...] = (
    (C.MQIAMO_CONNS, "conns"), (C.MQIAMO_CONNS_FAILED, "conns_failed"), (C.MQIAMO_CONNS_MAX, "conns_max"),
    (C.MQIAMO_DISCS, "discs"), (C.MQIAMO_OPENS, "opens"), (C.MQIAMO_OPENS_FAILED, "opens_failed"),
    (C.MQIAMO_CLOSES, "closes"), (C.MQIAMO_CLOSES_FAILED, "closes_failed"), (C.MQIAMO_INQS, "inqs"),
    (C.MQIAMO_INQS_FAILED, "inqs_failed"), (C.MQIAMO_SETS, "sets"), (C.MQIAMO_SETS_FAILED, "sets_failed"),
    (C.MQIAMO_PUTS, "puts"), (C.MQIAMO_PUTS_FAILED, "puts_failed"), (C.MQIAMO_PUT1S, "put1s"),
    (C.MQIAMO_PUT1S_FAILED, "put1s_failed"), (C.MQIAMO64_PUT_BYTES, "put_bytes"), (C.MQIAMO_GETS, "gets"),
    (C.MQIAMO64_GET_BYTES, "get_bytes"), (C.MQIAMO_GETS_FAILED, "gets_failed"), (C.MQIAMO_BROWSES, "browses"),
    (C.MQIAMO64_BROWSE_BYTES, "browse_bytes"), (C.MQIAMO_BROWSES_FAILED, "browses_failed"),
    (C.MQIAMO_COMMITS, "commits"), (C.MQIAMO_COMMITS_FAILED, "commits_failed"), (C.MQIAMO_BACKOUTS, "backouts"),
    (C.MQIAMO_MSGS_EXPIRED, "expired"), (C.MQIAMO_MSGS_PURGED, "purged"),
    (C.MQIAMO_SUBS_DUR, "subs"), (C.MQIAMO_SUBS_FAILED, "subs_failed"), (C.MQIAMO_SUBRQS, "subrqs"),
    (C.MQIAMO_SUBRQS_FAILED, "subrqs_failed"), (C.MQIAMO_CBS, "cbs"), (C.MQIAMO_CBS_FAILED, "cbs_failed"),
    (C.MQIAMO_CTLS, "ctls"), (C.MQIAMO_CTLS_FAILED, "ctls_failed"), (C.MQIAMO_STATS, "stats"),
    (C.MQIAMO_STATS_FAILED, "stats_failed"), (C.MQIAMO_TOPIC_PUTS, "topic_puts"),
    (C.MQIAMO_TOPIC_PUTS_FAILED, "topic_puts_failed"), (C.MQIAMO64_TOPIC_PUT_BYTES, "topic_put_bytes"),
)


def mqi_message(qmgr: str, interval: Interval, command_level: int, counts: MQISnapshot) -> bytes:
    """The MQCMD_STATISTICS_MQI message of one interval."""
    params = _head(qmgr, interval, command_level)
    for parameter, name in MQI_PARAMETERS:
        value = counts[name]
        if parameter in INT64_PARAMETERS:
            params.append((parameter, pcf.Int64List(value) if isinstance(value, tuple) else pcf.Int64(value)))
        else:
            params.append((parameter, list(value) if isinstance(value, tuple) else value))
    return _pcf(C.MQCMD_STATISTICS_MQI, params)


def channel_group(record: ChannelRecord) -> pcf.Group:
    """One ChlStatisticsData group: the fields mqlite measures (no NetTime or ExitTime)."""
    c = record.counts
    batches = c.full_batches + c.incomplete_batches
    return pcf.Group([
        (C.MQCACH_CHANNEL_NAME, record.name.ljust(20)), (C.MQIACH_CHANNEL_TYPE, record.chltype),
        (C.MQCA_REMOTE_Q_MGR_NAME, record.remote_qmgr.ljust(48)), (C.MQCACH_CONNECTION_NAME, record.conname),
        (C.MQIAMO_MSGS, c.msgs), (C.MQIAMO64_BYTES, pcf.Int64(c.bytes)), (C.MQIAMO_FULL_BATCHES, c.full_batches),
        (C.MQIAMO_INCOMPLETE_BATCHES, c.incomplete_batches),
        (C.MQIAMO_AVG_BATCH_SIZE, c.batch_msgs // batches if batches else 0), (C.MQIAMO_PUT_RETRIES, c.put_retries),
    ])


def channel_messages(qmgr: str, interval: Interval, command_level: int,
                     records: list[ChannelRecord]) -> list[bytes]:
    out = []
    for start in range(0, len(records), RECORDS_PER_MESSAGE):
        part = records[start:start + RECORDS_PER_MESSAGE]
        params = [*_head(qmgr, interval, command_level), (C.MQIAMO_OBJECT_COUNT, len(part))]
        params += [(C.MQGACF_CHL_STATISTICS_DATA, channel_group(r)) for r in part]
        out.append(_pcf(C.MQCMD_STATISTICS_CHANNEL, params))
    return out
