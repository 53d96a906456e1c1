"""IBM event messages as text, the way IBM's amqsevt sample prints them: the event type and reason
by name, then each field of the event data by IBM's name, with constants (reason qualifiers,
application types, options) spelled out. Pure; shared by ``mqlite amqsevt`` (``cli.events``) and
the web console's events page, which both read the event queues through the client.
"""

from __future__ import annotations

from mqlite import cmqc as C
from mqlite.message import Message
from mqlite.protocol import pcf

# Event data field names, as IBM's event reference names them.
FIELD_NAMES = {
    C.MQCA_Q_MGR_NAME: "QMgrName", C.MQIACF_REASON_QUALIFIER: "ReasonQualifier", C.MQIACF_COMMAND: "Command",
    C.MQIACF_OPEN_OPTIONS: "Options", C.MQIACF_SUB_OPTIONS: "Options", C.MQCACF_USER_IDENTIFIER: "UserIdentifier",
    C.MQIA_APPL_TYPE: "ApplType", C.MQCACF_APPL_NAME: "ApplName", C.MQCACF_OBJECT_Q_MGR_NAME: "ObjectQMgrName",
    C.MQCA_Q_NAME: "QName", C.MQCA_PROCESS_NAME: "ProcessName", C.MQCA_NAMELIST_NAME: "NamelistName",
    C.MQCA_TOPIC_NAME: "TopicName", C.MQCA_TOPIC_STRING: "TopicString",
    C.MQCACF_ADMIN_TOPIC_NAMES: "AdminTopicNames", C.MQCACF_SUB_NAME: "SubName",
    C.MQCACF_DESTINATION: "DestQueueName", C.MQCACF_DESTINATION_Q_MGR: "DestQueueManager",
    C.MQCACH_CONNECTION_NAME: "ConnName", C.MQCACH_CHANNEL_NAME: "ChannelName",
    C.MQCACH_SSL_PEER_NAME: "SSLPeerName", C.MQCACH_CLIENT_USER_ID: "ClientUserIdentifier",
    # performance events
    C.MQCA_BASE_Q_NAME: "QName", C.MQIA_TIME_SINCE_RESET: "TimeSinceReset", C.MQIA_HIGH_Q_DEPTH: "HighQDepth",
    C.MQIA_MSG_ENQ_COUNT: "MsgEnqCount", C.MQIA_MSG_DEQ_COUNT: "MsgDeqCount",
    # channel events
    C.MQCACH_XMIT_Q_NAME: "XmitQName", C.MQIACF_ERROR_IDENTIFIER: "ErrorIdentifier",
    C.MQIACF_AUX_ERROR_DATA_INT_1: "AuxErrorDataInt1", C.MQIACF_AUX_ERROR_DATA_INT_2: "AuxErrorDataInt2",
    C.MQCACF_AUX_ERROR_DATA_STR_1: "AuxErrorDataStr1", C.MQCACF_AUX_ERROR_DATA_STR_2: "AuxErrorDataStr2",
    C.MQCACF_AUX_ERROR_DATA_STR_3: "AuxErrorDataStr3",
    # configuration events
    C.MQCACF_EVENT_USER_ID: "EventUserId", C.MQIACF_EVENT_ORIGIN: "EventOrigin", C.MQCACF_EVENT_Q_MGR: "EventQMgr",
    C.MQIACF_OBJECT_TYPE: "ObjectType", C.MQIA_QSG_DISP: "Disposition", C.MQCA_AUTH_INFO_NAME: "AuthInfoName",
    C.MQCACH_LISTENER_NAME: "ListenerName",
    # command events
    C.MQGACF_COMMAND_CONTEXT: "CommandContext", C.MQGACF_COMMAND_DATA: "CommandData",
    C.MQCACF_COMMAND_MQSC: "CommandMQSC", C.MQBACF_EVENT_ACCOUNTING_TOKEN: "EventAccountingToken",
    C.MQCACF_EVENT_APPL_IDENTITY: "EventIdentityData", C.MQIACF_EVENT_APPL_TYPE: "EventApplType",
    C.MQCACF_EVENT_APPL_NAME: "EventApplName", C.MQCACF_EVENT_APPL_ORIGIN: "EventApplOrigin",
}
# Field names that depend on the event: the alias events call parameter 2002 (MQCA_BASE_Q_NAME's
# number too) BaseObjectName, and the type errors name MQIA_Q_TYPE QType (a configuration event
# shows it as the attribute).
BY_REASON = {
    C.MQRC_UNKNOWN_ALIAS_BASE_Q: {C.MQCA_BASE_OBJECT_NAME: "BaseObjectName"},
    C.MQRC_ALIAS_BASE_Q_TYPE_ERROR: {C.MQCA_BASE_OBJECT_NAME: "BaseObjectName", C.MQIA_Q_TYPE: "QType"},
    C.MQRC_XMIT_Q_TYPE_ERROR: {C.MQIA_Q_TYPE: "QType"}, C.MQRC_DEF_XMIT_Q_TYPE_ERROR: {C.MQIA_Q_TYPE: "QType"},
}
# IBM's event names that protocol.pcf's EVENT_NAMES does not carry (queue manager events).
MORE_EVENT_NAMES = {
    C.MQRC_Q_MGR_ACTIVE: "Queue Manager Active", C.MQRC_Q_MGR_NOT_ACTIVE: "Queue Manager Not Active",
    C.MQRC_GET_INHIBITED: "Get Inhibited", C.MQRC_PUT_INHIBITED: "Put Inhibited",
    C.MQRC_UNKNOWN_OBJECT_NAME: "Unknown Object Name", C.MQRC_UNKNOWN_ALIAS_BASE_Q: "Unknown Alias Base Queue",
    C.MQRC_ALIAS_BASE_Q_TYPE_ERROR: "Alias Base Queue Type Error",
    C.MQRC_UNKNOWN_REMOTE_Q_MGR: "Unknown Remote Queue Manager", C.MQRC_UNKNOWN_XMIT_Q: "Unknown Transmission Queue",
    C.MQRC_UNKNOWN_DEF_XMIT_Q: "Unknown Default Transmission Queue",
    C.MQRC_XMIT_Q_TYPE_ERROR: "Transmission Queue Type Error",
    C.MQRC_XMIT_Q_USAGE_ERROR: "Transmission Queue Usage Error",
    C.MQRC_DEF_XMIT_Q_TYPE_ERROR: "Default Transmission Queue Type Error",
    C.MQRC_DEF_XMIT_Q_USAGE_ERROR: "Default Transmission Queue Usage Error",
    C.MQRC_REMOTE_Q_NAME_ERROR: "Remote Queue Name Error",
    C.MQRC_COMMAND_MQSC: "Command", C.MQRC_COMMAND_PCF: "Command",
}
# Integer fields whose values are constants of one family, printed by name.
_CONSTANTS = {C.MQIACF_EVENT_ORIGIN: "MQEVO_", C.MQIACF_OBJECT_TYPE: "MQOT_", C.MQIA_QSG_DISP: "MQQSGD_",
              C.MQIA_Q_TYPE: "MQQT_", C.MQIACH_CHANNEL_TYPE: "MQCHT_"}
# Where the name of a parameter no event field names is looked for (an object's attributes in a
# configuration event), by the kind of its value.
_PARAMETER_PREFIXES = {int: ("MQIACH_", "MQIACF_", "MQIA_"), str: ("MQCACH_", "MQCACF_", "MQCA_"),
                       bytes: ("MQBACF_", "MQBACH_", "MQBA_")}
EVENT_TYPES = {
    C.MQCMD_Q_MGR_EVENT: "Queue Manager Event", C.MQCMD_PERFM_EVENT: "Performance Event",
    C.MQCMD_CHANNEL_EVENT: "Channel Event", C.MQCMD_CONFIG_EVENT: "Configuration Event",
    C.MQCMD_COMMAND_EVENT: "Command Event", C.MQCMD_LOGGER_EVENT: "Logger Event",
}
# Authority events are "Not Authorized (type N)" by reason qualifier.
NOT_AUTHORIZED_TYPE = {
    C.MQRQ_CONN_NOT_AUTHORIZED: 1, C.MQRQ_SYS_CONN_NOT_AUTHORIZED: 1, C.MQRQ_OPEN_NOT_AUTHORIZED: 2,
    C.MQRQ_CLOSE_NOT_AUTHORIZED: 3, C.MQRQ_CMD_NOT_AUTHORIZED: 4, C.MQRQ_SUB_NOT_AUTHORIZED: 5,
    C.MQRQ_SUB_DEST_NOT_AUTHORIZED: 6,
}

_APPL_TYPES = {C.MQAT_UNIX: "MQAT_UNIX", C.MQAT_QMGR: "MQAT_QMGR"}  # the names IBM prints on Linux


def _names(prefix: str, exclude: tuple[str, ...] = ()) -> dict[int, str]:
    """Value -> IBM name of a family of constants, the first name of each value (header order)."""
    found: dict[int, str] = {}
    for name, value in vars(C).items():
        if name.startswith(prefix) and isinstance(value, int) and not name.endswith(exclude):
            found.setdefault(value, name)
    return found


def _flags(value: int, prefix: str) -> str:
    """An options word as IBM's flag names joined with '+', and its number."""
    names = [name for bit, name in sorted(_names(prefix, ("_MASK", "_NONE")).items())
             if bit > 0 and bit & (bit - 1) == 0 and value & bit]
    return f"{'+'.join(names) or 'NONE'} ({value})"


def _value(parameter: int, value: pcf.Value) -> str:
    if parameter == C.MQIACF_REASON_QUALIFIER and isinstance(value, int):
        return f"{_names('MQRQ_').get(value, value)} ({value})"
    if parameter == C.MQIACF_COMMAND and isinstance(value, int):
        return f"{_names('MQCMD_').get(value, value)} ({value})"
    if parameter in (C.MQIA_APPL_TYPE, C.MQIACF_EVENT_APPL_TYPE) and isinstance(value, int):
        return f"{_APPL_TYPES.get(value) or _names('MQAT_').get(value, value)} ({value})"
    if parameter == C.MQIACF_OPEN_OPTIONS and isinstance(value, int):
        return _flags(value, "MQOO_")
    if parameter == C.MQIACF_SUB_OPTIONS and isinstance(value, int):
        return _flags(value, "MQSO_")
    if parameter in _CONSTANTS and isinstance(value, int):
        return f"{_names(_CONSTANTS[parameter]).get(value, value)} ({value})"
    if isinstance(value, bytes):
        return value.hex().upper()
    return str(value)


def format_event(message: Message, number: int = 1, queue: str = "") -> str:
    """One event message as text; a message that is not PCF is reported, not raised."""
    md = message.md
    head = f"**** Message #{number} ({len(message.body)} Bytes) on Queue {queue} ****"
    try:
        event = pcf.decode(message.body, pcf.little_endian(md.Encoding))
    except pcf.PcfError as error:
        return f"{head}\nNot an event message: {error}\n"
    from mqlite.reasons import reason_name

    h = event.header
    kind = EVENT_TYPES.get(h.Command, f"Command {h.Command}")
    qualifier = event.get(C.MQIACF_REASON_QUALIFIER)
    lines = [head, f"Event Type                       : {kind} [{h.Command}]"]
    reason = f"{reason_name(h.Reason)} [{h.Reason}]"
    if h.Reason == C.MQRC_NOT_AUTHORIZED and isinstance(qualifier, int) and qualifier in NOT_AUTHORIZED_TYPE:
        reason += f" Not Authorized (type {NOT_AUTHORIZED_TYPE[qualifier]})"
    elif h.Reason in pcf.EVENT_NAMES or h.Reason in MORE_EVENT_NAMES:
        reason += f" {pcf.EVENT_NAMES.get(h.Reason) or MORE_EVENT_NAMES[h.Reason]}"
        if h.Reason == C.MQRC_CONFIG_CHANGE_OBJECT:  # two messages: the object before, then after
            reason += " (before)" if h.Control == C.MQCFC_NOT_LAST else " (after)"
    lines.append(f"Reason                           : {reason}")
    if md.PutDate:
        date, time = md.PutDate, md.PutTime
        lines.append(f"Event created                    : {date[:4]}/{date[4:6]}/{date[6:]} "
                     f"{time[:2]}:{time[2:4]}:{time[4:6]}.{time[6:8]} GMT")
    lines.extend(_field_lines(event.parameters, "  ", {**FIELD_NAMES, **BY_REASON.get(h.Reason, {})}))
    return "\n".join(lines) + "\n"


def _parameter_name(parameter: int, value: pcf.Value) -> str:
    """IBM's constant name of a parameter no event field names (an object attribute's selector)."""
    kind = int if isinstance(value, int) or (isinstance(value, list) and value and isinstance(value[0], int)) \
        else bytes if isinstance(value, bytes) else str
    for prefix in _PARAMETER_PREFIXES[kind]:
        name = _names(prefix).get(parameter)
        if name is not None:
            return name
    return f"Parameter {parameter}"


def _field_lines(parameters: list[tuple[int, pcf.Value]], indent: str,
                 names: dict[int, str] | None = None) -> list[str]:
    names = FIELD_NAMES if names is None else names
    lines: list[str] = []
    for parameter, value in parameters:
        name = names.get(parameter) or _parameter_name(parameter, value)
        label = f"{indent}{name:<31}: "
        if isinstance(value, pcf.Group):
            lines.append(f"{indent}{name}:")
            lines.extend(_field_lines(value.parameters, indent + "  ", names))
        elif isinstance(value, list):
            items = [_value(parameter, item) for item in value] or [""]
            lines.append(label + items[0])
            lines.extend(" " * len(label) + item for item in items[1:])
        else:
            lines.append(label + _value(parameter, value))
    return lines
