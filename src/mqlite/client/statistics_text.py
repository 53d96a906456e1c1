"""IBM amqsmon's layout of statistics messages (MQCMD_STATISTICS_MQI/_Q/_CHANNEL), pure: the
sample's field names, one ``Name: value`` a line, each queue's or channel's group indented."""

from __future__ import annotations

from mqlite import cmqc as C
from mqlite.protocol import pcf

MONITORING_TYPES = {C.MQCMD_STATISTICS_MQI: "MQIStatistics", C.MQCMD_STATISTICS_Q: "QueueStatistics",
                    C.MQCMD_STATISTICS_CHANNEL: "ChannelStatistics"}
NAMES = {
    C.MQCA_Q_MGR_NAME: "QueueManager", C.MQCAMO_START_DATE: "IntervalStartDate",
    C.MQCAMO_START_TIME: "IntervalStartTime", C.MQCAMO_END_DATE: "IntervalEndDate",
    C.MQCAMO_END_TIME: "IntervalEndTime", C.MQIA_COMMAND_LEVEL: "CommandLevel", C.MQIAMO_OBJECT_COUNT: "ObjectCount",
    C.MQCA_Q_NAME: "QueueName", C.MQCA_CREATION_DATE: "CreateDate", C.MQCA_CREATION_TIME: "CreateTime",
    C.MQIA_Q_TYPE: "QueueType", C.MQIA_DEFINITION_TYPE: "QueueDefinitionType", C.MQIAMO_Q_MIN_DEPTH: "QMinDepth",
    C.MQIAMO_Q_MAX_DEPTH: "QMaxDepth", C.MQIAMO64_AVG_Q_TIME: "AverageQueueTime", C.MQIAMO_PUTS: "PutCount",
    C.MQIAMO_PUTS_FAILED: "PutFailCount", C.MQIAMO_PUT1S: "Put1Count", C.MQIAMO_PUT1S_FAILED: "Put1FailCount",
    C.MQIAMO64_PUT_BYTES: "PutBytes", C.MQIAMO_GETS: "GetCount", C.MQIAMO64_GET_BYTES: "GetBytes",
    C.MQIAMO_GETS_FAILED: "GetFailCount", C.MQIAMO_BROWSES: "BrowseCount", C.MQIAMO64_BROWSE_BYTES: "BrowseBytes",
    C.MQIAMO_BROWSES_FAILED: "BrowseFailCount", C.MQIAMO_MSGS_NOT_QUEUED: "NonQueuedMsgCount",
    C.MQIAMO_MSGS_EXPIRED: "ExpiredMsgCount", C.MQIAMO_MSGS_PURGED: "PurgedMsgCount",
    C.MQIAMO_CONNS: "ConnCount", C.MQIAMO_CONNS_FAILED: "ConnFailCount", C.MQIAMO_CONNS_MAX: "ConnsMax",
    C.MQIAMO_DISCS: "DiscCount", C.MQIAMO_OPENS: "OpenCount", C.MQIAMO_OPENS_FAILED: "OpenFailCount",
    C.MQIAMO_CLOSES: "CloseCount", C.MQIAMO_CLOSES_FAILED: "CloseFailCount", C.MQIAMO_INQS: "InqCount",
    C.MQIAMO_INQS_FAILED: "InqFailCount", C.MQIAMO_SETS: "SetCount", C.MQIAMO_SETS_FAILED: "SetFailCount",
    C.MQIAMO_COMMITS: "CommitCount", C.MQIAMO_COMMITS_FAILED: "CommitFailCount", C.MQIAMO_BACKOUTS: "BackCount",
    C.MQIAMO_SUBS_DUR: "SubCountDur", C.MQIAMO_SUBS_FAILED: "SubFailCount", C.MQIAMO_SUBRQS: "SubRqCount",
    C.MQIAMO_SUBRQS_FAILED: "SubRqFailCount", C.MQIAMO_CBS: "CBCount", C.MQIAMO_CBS_FAILED: "CBFailCount",
    C.MQIAMO_CTLS: "CtlCount", C.MQIAMO_CTLS_FAILED: "CtlFailCount", C.MQIAMO_STATS: "StatCount",
    C.MQIAMO_STATS_FAILED: "StatFailCount", C.MQIAMO_TOPIC_PUTS: "PutTopicCount",
    C.MQIAMO_TOPIC_PUTS_FAILED: "PutTopicFailCount", C.MQIAMO64_TOPIC_PUT_BYTES: "PutTopicBytes",
    C.MQCACH_CHANNEL_NAME: "ChannelName", C.MQIACH_CHANNEL_TYPE: "ChannelType",
    C.MQCA_REMOTE_Q_MGR_NAME: "RemoteQmgr", C.MQCACH_CONNECTION_NAME: "ConnectionName", C.MQIAMO_MSGS: "MsgCount",
    C.MQIAMO64_BYTES: "TotalBytes", C.MQIAMO_FULL_BATCHES: "FullBatchCount",
    C.MQIAMO_INCOMPLETE_BATCHES: "IncmplBatchCount", C.MQIAMO_AVG_BATCH_SIZE: "AverageBatchSize",
    C.MQIAMO_PUT_RETRIES: "PutRetryCount",
}
_QTYPES = {C.MQQT_LOCAL: "Local"}
_DEFTYPES = {C.MQQDT_PREDEFINED: "Predefined", C.MQQDT_PERMANENT_DYNAMIC: "PermanentDynamic",
             C.MQQDT_TEMPORARY_DYNAMIC: "TemporaryDynamic"}
_GROUPS = {C.MQGACF_Q_STATISTICS_DATA: "QueueStatistics", C.MQGACF_CHL_STATISTICS_DATA: "ChannelStatistics"}


def _value(parameter: int, value: pcf.Value) -> str:
    if parameter == C.MQIA_Q_TYPE and isinstance(value, int):
        return _QTYPES.get(value, str(value))
    if parameter == C.MQIA_DEFINITION_TYPE and isinstance(value, int):
        return _DEFTYPES.get(value, str(value))
    if isinstance(value, str):
        return f"'{value.strip()}'"
    if isinstance(value, list):
        return "[" + ", ".join(str(v) for v in value) + "]"
    return str(value)


def format_statistics(message: pcf.PcfMessage, queue: str | None = None, channel: str | None = None) -> str:
    """A statistics message as amqsmon prints it; with ``queue`` (or ``channel``) only that
    object's group ('' when the message has none of it)."""
    lines = [f"MonitoringType: {MONITORING_TYPES.get(message.header.Command, message.header.Command)}"]
    shown = 0
    for parameter, value in message.parameters:
        if isinstance(value, pcf.Group):
            group = dict(value.parameters)
            if queue is not None and str(group.get(C.MQCA_Q_NAME, "")).strip() != queue:
                continue
            if channel is not None and str(group.get(C.MQCACH_CHANNEL_NAME, "")).strip() != channel:
                continue
            lines.append(f"{_GROUPS.get(parameter, parameter)}: {shown}")
            lines += [f"  {NAMES.get(p, str(p))}: {_value(p, v)}" for p, v in value.parameters]
            shown += 1
        elif parameter != C.MQIAMO_OBJECT_COUNT or (queue is None and channel is None):
            lines.append(f"{NAMES.get(parameter, str(parameter))}: {_value(parameter, value)}")
    if (queue is not None or channel is not None) and not shown:
        return ""
    return "\n".join(lines) + "\n"
