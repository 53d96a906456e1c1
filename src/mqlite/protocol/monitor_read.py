"""Resource monitoring publications read back, as a subscriber does (amqsrua, mq_prometheus):
the metadata into a catalogue of classes, types and elements, a data publication into its
values, an element's value in amqsrua's words, and mq_prometheus's metric name for an element.
Sans-IO: decoded PCF in, plain values out. Nothing here assumes mqlite's own tables: what a
queue manager advertises is what is read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from mqlite import cmqc as C
from mqlite.protocol import pcf


@dataclass
class ElementInfo:
    id: int
    datatype: int
    description: str


@dataclass
class TypeInfo:
    id: int
    name: str
    description: str
    topic: str  # where its elements are described (then, once read, ``data_topic``)
    data_topic: str = ""
    elements: dict[int, ElementInfo] = field(default_factory=dict)


@dataclass
class ClassInfo:
    id: int
    name: str
    description: str
    flags: int
    topic: str  # its TYPES topic
    types: dict[int, TypeInfo] = field(default_factory=dict)

    @property
    def per_object(self) -> bool:
        return bool(self.flags & C.MQIAMO_MONITOR_FLAGS_OBJNAME)


def _fields(group: pcf.Value) -> dict[int, pcf.Value]:
    assert isinstance(group, pcf.Group)
    return dict(group.parameters)


def read_classes(message: pcf.PcfMessage) -> list[ClassInfo]:
    """The METADATA/CLASSES publication's classes."""
    out = []
    for parameter, value in message.parameters:
        if parameter == C.MQGACF_MONITOR_CLASS:
            f = _fields(value)
            out.append(ClassInfo(int(f[C.MQIAMO_MONITOR_CLASS]), str(f[C.MQCAMO_MONITOR_CLASS]),  # type: ignore[arg-type]
                                 str(f.get(C.MQCAMO_MONITOR_DESC, "")), int(f.get(C.MQIAMO_MONITOR_FLAGS, 0)),  # type: ignore[arg-type]
                                 str(f[C.MQCA_TOPIC_STRING])))
    return out


def read_types(message: pcf.PcfMessage) -> list[TypeInfo]:
    """A METADATA/<CLASS>/TYPES publication's types."""
    out = []
    for parameter, value in message.parameters:
        if parameter == C.MQGACF_MONITOR_TYPE:
            f = _fields(value)
            out.append(TypeInfo(int(f[C.MQIAMO_MONITOR_TYPE]), str(f[C.MQCAMO_MONITOR_TYPE]),  # type: ignore[arg-type]
                                str(f.get(C.MQCAMO_MONITOR_DESC, "")), str(f[C.MQCA_TOPIC_STRING])))
    return out


def read_elements(message: pcf.PcfMessage, typ: TypeInfo) -> None:
    """A METADATA/<CLASS>/<TYPE> publication into ``typ``: its data topic and its elements."""
    for parameter, value in message.parameters:
        if parameter == C.MQCA_TOPIC_STRING and isinstance(value, str):
            typ.data_topic = value
        elif parameter == C.MQGACF_MONITOR_ELEMENT:
            f = _fields(value)
            element = ElementInfo(int(f[C.MQIAMO_MONITOR_ELEMENT]), int(f[C.MQIAMO_MONITOR_DATATYPE]),  # type: ignore[arg-type]
                                  str(f.get(C.MQCAMO_MONITOR_DESC, "")))
            typ.elements[element.id] = element


@dataclass
class Data:
    """One data publication: its class, type, interval (microseconds), object and element values."""

    class_id: int
    type_id: int
    interval_us: int
    qmgr: str
    obj: str
    values: dict[int, int]


_HEAD = frozenset({C.MQIAMO_MONITOR_CLASS, C.MQIAMO_MONITOR_TYPE, C.MQIAMO64_MONITOR_INTERVAL,
                   C.MQIAMO_MONITOR_FLAGS, C.MQIACF_OBJECT_TYPE})


def read_data(message: pcf.PcfMessage) -> Data:
    data = Data(-1, -1, 0, "", "", {})
    for parameter, value in message.parameters:
        if parameter == C.MQIAMO_MONITOR_CLASS and isinstance(value, int):
            data.class_id = value
        elif parameter == C.MQIAMO_MONITOR_TYPE and isinstance(value, int):
            data.type_id = value
        elif parameter == C.MQIAMO64_MONITOR_INTERVAL and isinstance(value, int):
            data.interval_us = value
        elif parameter == C.MQCA_Q_MGR_NAME and isinstance(value, str):
            data.qmgr = value.strip()
        elif parameter == C.MQCA_Q_NAME and isinstance(value, str):
            data.obj = value.strip()
        elif parameter not in _HEAD and isinstance(value, int):
            data.values[parameter] = value
    return data


def format_value(element: ElementInfo, value: int, interval_us: int) -> str:
    """amqsrua's line for an element: its description and the value in its data type's unit
    (a delta with its rate per second over the interval, when the interval is 10 ms or more)."""
    d, t = element.description, element.datatype
    if t == C.MQIAMO_MONITOR_PERCENT:
        return f"{d} {value / 100:.2f}%"
    if t == C.MQIAMO_MONITOR_HUNDREDTHS:
        return f"{d} {value / 100:.2f}"
    if t == C.MQIAMO_MONITOR_KB:
        return f"{d} {value}KB"
    if t == C.MQIAMO_MONITOR_MB:
        return f"{d} {value}MB"
    if t == C.MQIAMO_MONITOR_GB:
        return f"{d} {value}GB"
    if t == C.MQIAMO_MONITOR_MICROSEC:
        return f"{d} {value} uSec"
    if t == C.MQIAMO_MONITOR_DELTA:
        rate = (value * 1_000_000 + interval_us // 2) // interval_us if interval_us >= 10_000 else 0
        return f"{d} {value} {rate}/sec" if rate else f"{d} {value}"
    return f"{d} {value}"


def format_interval(interval_us: int) -> str:
    """amqsrua's ``Interval:`` text: days, hours and minutes as they are needed, then seconds."""
    seconds, millis = divmod(interval_us, 1_000_000)
    millis //= 1000
    minutes, seconds = divmod(seconds, 60)
    hours, minutes = divmod(minutes, 60)
    days, hours = divmod(hours, 24)
    text = ""
    if minutes or hours or days:
        if hours or days:
            text += (f"{days} days," if days else "") + f"{hours} hours,"
        text += f"{minutes} minutes,"
    return text + f"{seconds}.{millis:03d} seconds"


# -- mq_prometheus's names -------------------------------------------------------------------------
#: mqmetric's names (its ``mHeur`` map) for element descriptions that the rule below would not
#: give exactly; keyed by the description lower-cased with blanks as ``_``.
_NAMES = {
    "interval_total_mqput/mqput1_byte_count": "interval_mqput_mqput1_total_bytes",
    "interval_total_mqput/mqput1_count": "interval_mqput_mqput1_total_count",
    "interval_total_destructive_get-_count": "interval_destructive_get_total_count",
    "interval_total_destructive_get_-_byte_count": "interval_destructive_get_total_bytes",
    "interval_total_topic_bytes_put": "interval_topic_put_total",
    "topic_mqput/mqput1_interval_total": "topic_mqput_mqput1_interval_total",
    "ram_total_bytes_-_estimate_for_queue_manager": "ram_total_estimate_for_queue_manager_bytes",
    "user_cpu_time_-_percentage_estimate_for_queue_manager": "user_cpu_time_estimate_for_queue_manager_percentage",
    "system_cpu_time_-_percentage_estimate_for_queue_manager":
        "system_cpu_time_estimate_for_queue_manager_percentage",
    "cpu_load_-_one_minute_average": "cpu_load_one_minute_average_percentage",
    "cpu_load_-_five_minute_average": "cpu_load_five_minute_average_percentage",
    "cpu_load_-_fifteen_minute_average": "cpu_load_fifteen_minute_average_percentage",
    "log_-_bytes_in_use": "log_in_use_bytes",
    "log_file_system_-_bytes_in_use": "log_file_system_in_use_bytes",
    "log_file_system_-_bytes_max": "log_file_system_max_bytes",
    "log_-_write_latency": "log_write_latency_seconds",
    "mq_errors_file_system_-_bytes_in_use": "mq_errors_file_system_in_use_bytes",
    "mq_errors_file_system_-_free_space": "mq_errors_file_system_free_space_percentage",
    "queue_manager_file_system_-_bytes_in_use": "queue_manager_file_system_in_use_bytes",
    "queue_manager_file_system_-_free_space": "queue_manager_file_system_free_space_percentage",
    "mqput_byte_count": "mqput_bytes",
    "mqget_byte_count": "mqget_bytes",
    "non-persistent_byte_count": "non_persistent_bytes",
    "persistent_byte_count": "persistent_bytes",
    "average_queue_time": "average_queue_time_seconds",
    "messages_expired": "expired_messages",
    "failed_mqget_-_count": "failed_mqget_count",
    "got_non-persistent_messages_-_byte_count": "got_non_persistent_messages_bytes",
    "got_persistent_messages_-_byte_count": "got_persistent_messages_bytes",
    "put_non-persistent_messages_-_byte_count": "put_non_persistent_messages_bytes",
    "put_persistent_messages_-_byte_count": "put_persistent_messages_bytes",
    "non-persistent_message_browse_-_byte_count": "non_persistent_message_browse_bytes",
    "persistent_message_browse_-_byte_count": "persistent_message_browse_bytes",
    "non-persistent_message_browse_-_count": "non_persistent_message_browse_count",
    "persistent_message_browse_-_count": "persistent_message_browse_count",
    "non-persistent_message_destructive_get_-_count": "non_persistent_message_destructive_get_count",
    "persistent_message_destructive_get_-_count": "persistent_message_destructive_get_count",
    "destructive_mqget_non-persistent_byte_count": "destructive_mqget_non_persistent_bytes",
    "destructive_mqget_persistent_byte_count": "destructive_mqget_persistent_bytes",
    "mqget_browse_non-persistent_byte_count": "mqget_browse_non_persistent_bytes",
    "mqget_browse_persistent_byte_count": "mqget_browse_persistent_bytes",
}


def metric_name(description: str, per_object: bool, namespace: str = "ibmmq") -> str:
    """mq_prometheus's name for an element: ``<namespace>_queue_`` for a per-object class's
    (``_qmgr_`` otherwise), then mqmetric's name for the description (``queue_`` not doubled)."""
    key = description.replace(" ", "_").lower()
    name = _NAMES.get(key)
    if name is None:
        name = re.sub("_+", "_", key.replace("/", "_").replace("-", "_"))
    prefix = "queue_" if per_object else "qmgr_"
    if per_object and name.startswith("queue_"):
        prefix = ""
    return f"{namespace}_{prefix}{name}"
