"""MQSC attribute keywords and PCF parameters, both ways, written once as data.

Most of the table is the attribute catalogue (``core.attributes``): every catalogued attribute
carries its MQIA_*/MQCA_*/MQIACH_* selector, which is also its PCF parameter id, and its value
tokens with IBM's integers (DEFPSIST(YES) is MQIA_DEF_PERSISTENCE = MQPER_PERSISTENT). What the
catalogue lacks, status displays (QSTATUS, CHSTATUS) and the subscription's ids, is ``EXTRAS``.

``to_pcf`` turns one DISPLAY record (keyword -> the text runmqsc printed, flags as bare keywords)
into PCF parameters; ``to_mqsc`` turns a PCF parameter into an MQSC keyword and value for a
DEFINE or ALTER of a catalogued type, raising ``MQError`` with IBM's MQRCCF_* reason otherwise.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from mqlite import cmqc as C
from mqlite.core import attributes
from mqlite.core.attributes import Kind
from mqlite.core.errors import MQError
from mqlite.mqsc import display
from mqlite.mqsc.display import Record
from mqlite.protocol.pcf import Value

# A conversion of an extra: "int", "str", "hex" (bytes shown as hex), "ints" (a list of numbers),
# or a mapping of MQSC tokens to IBM's integers.
Conversion = str | Mapping[str, int]

_CHSTATUS_TOKENS = {"INACTIVE": C.MQCHS_INACTIVE, "BINDING": C.MQCHS_BINDING, "STARTING": C.MQCHS_STARTING,
                    "RUNNING": C.MQCHS_RUNNING, "STOPPING": C.MQCHS_STOPPING, "RETRYING": C.MQCHS_RETRYING,
                    "STOPPED": C.MQCHS_STOPPED, "REQUESTING": C.MQCHS_REQUESTING, "PAUSED": C.MQCHS_PAUSED,
                    "DISCONNECTED": C.MQCHS_DISCONNECTED, "INITIALIZING": C.MQCHS_INITIALIZING,
                    "SWITCHING": C.MQCHS_SWITCHING}
_YES_NO = {"NO": 0, "YES": 1}


class ParameterError(MQError):
    """A request's parameter that is wrong: the error response names it (MQIACF_PARAMETER_ID)."""

    def __init__(self, reason: int, text: str, parameter: int) -> None:
        super().__init__(reason, text)
        self.parameter = parameter


class IntTokens(dict[str, int]):
    """A conversion: these tokens, or any integer (EXPIRY(UNLIMITED) or EXPIRY(100))."""

_OBJECT_TYPES = {
    "QUEUE": C.MQOT_Q, "NAMELIST": C.MQOT_NAMELIST, "PROCESS": C.MQOT_PROCESS, "QMGR": C.MQOT_Q_MGR,
    "CHANNEL": C.MQOT_CHANNEL, "AUTHINFO": C.MQOT_AUTH_INFO, "TOPIC": C.MQOT_TOPIC,
    "COMMINFO": C.MQOT_COMM_INFO, "LISTENER": C.MQOT_LISTENER, "SERVICE": C.MQOT_SERVICE,
    "CLNTCONN": C.MQOT_CLNTCONN_CHANNEL, "RQMNAME": C.MQOT_REMOTE_Q_MGR_NAME}

#: Keywords the catalogue has no selector for: (keyword -> (parameter id, conversion)) by family.
EXTRAS: dict[str, dict[str, tuple[int, Conversion]]] = {
    "QSTATUS": {
        "QUEUE": (C.MQCA_Q_NAME, "str"),
        "TYPE": (C.MQIACF_Q_STATUS_TYPE, {"QUEUE": C.MQIACF_Q_STATUS, "HANDLE": C.MQIACF_Q_HANDLE}),
        "CURDEPTH": (C.MQIA_CURRENT_Q_DEPTH, "int"), "IPPROCS": (C.MQIA_OPEN_INPUT_COUNT, "int"),
        "OPPROCS": (C.MQIA_OPEN_OUTPUT_COUNT, "int"),
        "UNCOM": (C.MQIACF_UNCOMMITTED_MSGS, _YES_NO),  # NO, YES or a count
        "LGETDATE": (C.MQCACF_LAST_GET_DATE, "str"), "LGETTIME": (C.MQCACF_LAST_GET_TIME, "str"),
        "LPUTDATE": (C.MQCACF_LAST_PUT_DATE, "str"), "LPUTTIME": (C.MQCACF_LAST_PUT_TIME, "str"),
        "MSGAGE": (C.MQIACF_OLDEST_MSG_AGE, "int"), "QTIME": (C.MQIACF_Q_TIME_INDICATOR, "ints"),
    },
    "CHSTATUS": {
        "CHANNEL": (C.MQCACH_CHANNEL_NAME, "str"), "STATUS": (C.MQIACH_CHANNEL_STATUS, _CHSTATUS_TOKENS),
        "CHLTYPE": (C.MQIACH_CHANNEL_TYPE, dict(attributes.spec("CHANNEL", "CHLTYPE").tokens)),  # type: ignore[union-attr]
        "CONNAME": (C.MQCACH_CONNECTION_NAME, "str"), "MSGS": (C.MQIACH_MSGS, "int"),
        "BYTSSENT": (C.MQIACH_BYTES_SENT, "int"), "BYTSRCVD": (C.MQIACH_BYTES_RECEIVED, "int"),
        "CURSHCNV": (C.MQIACH_CURRENT_SHARING_CONVS, "int"), "MCAUSER": (C.MQCACH_MCA_USER_ID, "str"),
        "CHSTADA": (C.MQCACH_CHANNEL_START_DATE, "str"), "CHSTATI": (C.MQCACH_CHANNEL_START_TIME, "str"),
        "CURRENT": (C.MQIACH_CHANNEL_INSTANCE_TYPE, {"CURRENT": C.MQOT_CURRENT_CHANNEL}),
    },
    "SUB": {
        "SUB": (C.MQCACF_SUB_NAME, "str"), "SUBID": (C.MQBACF_SUB_ID, "hex"),
        "TOPICSTR": (C.MQCA_TOPIC_STRING, "str"), "TOPICOBJ": (C.MQCA_TOPIC_NAME, "str"),
        "DEST": (C.MQCACF_DESTINATION, "str"), "DESTQMGR": (C.MQCACF_DESTINATION_Q_MGR, "str"),
        "SUBUSER": (C.MQCACF_SUB_USER_ID, "str"), "USERDATA": (C.MQCACF_SUB_USER_DATA, "str"),
        "SELECTOR": (C.MQCACF_SUB_SELECTOR, "str"),
        "DURABLE": (C.MQIACF_DURABLE_SUBSCRIPTION, {"YES": C.MQSUB_DURABLE_YES, "NO": C.MQSUB_DURABLE_NO}),
        "SUBTYPE": (C.MQIACF_SUB_TYPE, {"API": C.MQSUBTYPE_API, "ADMIN": C.MQSUBTYPE_ADMIN, "PROXY": 3}),
        "CRDATE": (C.MQCA_CREATION_DATE, "str"), "CRTIME": (C.MQCA_CREATION_TIME, "str"),
        "ALTDATE": (C.MQCA_ALTERATION_DATE, "str"), "ALTTIME": (C.MQCA_ALTERATION_TIME, "str"),
        # PCF's integers for these are cmqc.h's (MQDC_*, MQRU_*, MQVU_*), not the catalogue's
        "DESTCLAS": (C.MQIACF_DESTINATION_CLASS, {"MANAGED": C.MQDC_MANAGED, "PROVIDED": C.MQDC_PROVIDED}),
        "DESTCORL": (C.MQBACF_DESTINATION_CORREL_ID, "hex"), "PUBACCT": (C.MQBACF_ACCOUNTING_TOKEN, "hex"),
        "PUBAPPID": (C.MQCACF_APPL_IDENTITY_DATA, "str"),
        "EXPIRY": (C.MQIACF_EXPIRY, IntTokens({"UNLIMITED": C.MQEI_UNLIMITED})),
        "PSPROP": (C.MQIACF_PUBSUB_PROPERTIES, {"NONE": C.MQPSPROP_NONE, "COMPAT": C.MQPSPROP_COMPAT,
                                                "RFH2": C.MQPSPROP_RFH2, "MSGPROP": C.MQPSPROP_MSGPROP}),
        "PUBPRTY": (C.MQIACF_PUB_PRIORITY, IntTokens({"ASPUB": C.MQPRI_PRIORITY_AS_PUBLISHED,
                                                      "ASQDEF": C.MQPRI_PRIORITY_AS_Q_DEF})),
        "REQONLY": (C.MQIACF_REQUEST_ONLY, {"YES": C.MQRU_PUBLISH_ON_REQUEST, "NO": C.MQRU_PUBLISH_ALL}),
        "SUBLEVEL": (C.MQIACF_SUB_LEVEL, "int"),
        "SUBSCOPE": (C.MQIACF_SUBSCRIPTION_SCOPE, {"ALL": C.MQTSCOPE_ALL, "QMGR": C.MQTSCOPE_QMGR}),
        "VARUSER": (C.MQIACF_VARIABLE_USER_ID, {"ANY": C.MQVU_ANY_USER, "FIXED": C.MQVU_FIXED_USER}),
        "WSCHEMA": (C.MQIACF_WILDCARD_SCHEMA, {"TOPIC": C.MQWS_TOPIC, "CHAR": C.MQWS_CHAR}),
    },
    "PUBSUB": {
        "QMNAME": (C.MQCA_Q_MGR_NAME, "str"),
        "TYPE": (C.MQIACF_PS_STATUS_TYPE, {"LOCAL": C.MQPSST_LOCAL, "PARENT": C.MQPSST_PARENT,
                                           "CHILD": C.MQPSST_CHILD}),
        "STATUS": (C.MQIACF_PUBSUB_STATUS, {"ACTIVE": C.MQPS_STATUS_ACTIVE, "INACTIVE": C.MQPS_STATUS_INACTIVE,
                                            "STARTING": C.MQPS_STATUS_STARTING, "STOPPING": C.MQPS_STATUS_STOPPING,
                                            "COMPAT": C.MQPS_STATUS_COMPAT, "ERROR": C.MQPS_STATUS_ERROR,
                                            "REFUSED": C.MQPS_STATUS_REFUSED}),
        "SUBCOUNT": (C.MQIA_SUB_COUNT, "int"), "TPCOUNT": (C.MQIA_TOPIC_NODE_COUNT, "int"),
    },
    "CLUSQMGR": {  # the rest of a record is its channel's attributes (the CHANNEL catalogue)
        "CLUSQMGR": (C.MQCA_CLUSTER_Q_MGR_NAME, "str"), "CHANNEL": (C.MQCACH_CHANNEL_NAME, "str"),
        "CLUSTER": (C.MQCA_CLUSTER_NAME, "str"), "QMID": (C.MQCA_Q_MGR_IDENTIFIER, "str"),
        "QMTYPE": (C.MQIACF_Q_MGR_TYPE, {"NORMAL": C.MQQMT_NORMAL, "REPOS": C.MQQMT_REPOSITORY}),
        "DEFTYPE": (C.MQIACF_Q_MGR_DEFINITION_TYPE, {
            "CLUSSDR": C.MQQMDT_EXPLICIT_CLUSTER_SENDER, "CLUSSDRA": C.MQQMDT_AUTO_CLUSTER_SENDER,
            "CLUSSDRB": C.MQQMDT_AUTO_EXP_CLUSTER_SENDER, "CLUSRCVR": C.MQQMDT_CLUSTER_RECEIVER}),
        "STATUS": (C.MQIACH_CHANNEL_STATUS, _CHSTATUS_TOKENS),
        "SUSPEND": (C.MQIACF_SUSPEND, {"NO": C.MQSUS_NO, "YES": C.MQSUS_YES}),
        "CLUSDATE": (C.MQCA_CLUSTER_DATE, "str"), "CLUSTIME": (C.MQCA_CLUSTER_TIME, "str"),
    },
    "CONN": {
        "CONN": (C.MQBACF_CONNECTION_ID, "hex"),
        "TYPE": (C.MQIACF_CONN_INFO_TYPE, {"CONN": C.MQIACF_CONN_INFO_CONN, "HANDLE": C.MQIACF_CONN_INFO_HANDLE}),
        "APPLTAG": (C.MQCACF_APPL_TAG, "str"), "APPLDESC": (C.MQCACF_APPL_DESC, "str"),
        "CHANNEL": (C.MQCACH_CHANNEL_NAME, "str"), "CONNAME": (C.MQCACH_CONNECTION_NAME, "str"),
        "CLIENTID": (C.MQCACH_CLIENT_ID, "str"), "PID": (C.MQIACF_PROCESS_ID, "int"),
        "USERID": (C.MQCACF_USER_IDENTIFIER, "str"), "UOWSTDA": (C.MQCACF_UOW_START_DATE, "str"),
        "UOWSTTI": (C.MQCACF_UOW_START_TIME, "str"),
    },
    "QMSTATUS": {
        "QMNAME": (C.MQCA_Q_MGR_NAME, "str"),
        "STATUS": (C.MQIACF_Q_MGR_STATUS, {"STARTING": C.MQQMSTA_STARTING, "RUNNING": C.MQQMSTA_RUNNING,
                                           "QUIESCING": C.MQQMSTA_QUIESCING, "STANDBY": C.MQQMSTA_STANDBY}),
        "CMDSERV": (C.MQIACF_CMD_SERVER_STATUS, {"STOPPED": C.MQSVC_STATUS_STOPPED, "STARTING": C.MQSVC_STATUS_STARTING,
                                                 "RUNNING": C.MQSVC_STATUS_RUNNING, "STOPPING": C.MQSVC_STATUS_STOPPING,
                                                 "RETRYING": C.MQSVC_STATUS_RETRYING}),
        "CONNS": (C.MQIACF_CONNECTION_COUNT, "int"), "STARTDA": (C.MQCACF_Q_MGR_START_DATE, "str"),
        "STARTTI": (C.MQCACF_Q_MGR_START_TIME, "str"),
    },
    "LSSTATUS": {
        "LISTENER": (C.MQCACH_LISTENER_NAME, "str"), "PORT": (C.MQIACH_PORT, "int"),
        "STATUS": (C.MQIACH_LISTENER_STATUS, {"STOPPED": C.MQSVC_STATUS_STOPPED, "STARTING": C.MQSVC_STATUS_STARTING,
                                              "RUNNING": C.MQSVC_STATUS_RUNNING, "STOPPING": C.MQSVC_STATUS_STOPPING,
                                              "RETRYING": C.MQSVC_STATUS_RETRYING}),
        "IPADDR": (C.MQCACH_IP_ADDRESS, "str"), "BACKLOG": (C.MQIACH_BACKLOG, "int"),
        "CONTROL": (C.MQIACH_LISTENER_CONTROL, {"QMGR": C.MQSVC_CONTROL_Q_MGR, "STARTONLY": C.MQSVC_CONTROL_Q_MGR_START,
                                                "MANUAL": C.MQSVC_CONTROL_MANUAL}),
        "DESCR": (C.MQCACH_LISTENER_DESC, "str"), "STARTDA": (C.MQCACH_LISTENER_START_DATE, "str"),
        "STARTTI": (C.MQCACH_LISTENER_START_TIME, "str"),
    },
    "SBSTATUS": {
        "SUB": (C.MQCACF_SUB_NAME, "str"), "SUBID": (C.MQBACF_SUB_ID, "hex"),
        "ACTCONN": (C.MQBACF_CONNECTION_ID, "hex"), "TOPICSTR": (C.MQCA_TOPIC_STRING, "str"),
        "DEST": (C.MQCACF_DESTINATION, "str"), "SUBUSER": (C.MQCACF_SUB_USER_ID, "str"),
        "DURABLE": (C.MQIACF_DURABLE_SUBSCRIPTION, {"YES": C.MQSUB_DURABLE_YES, "NO": C.MQSUB_DURABLE_NO}),
        "SUBTYPE": (C.MQIACF_SUB_TYPE, {"API": C.MQSUBTYPE_API, "ADMIN": C.MQSUBTYPE_ADMIN, "PROXY": 3}),
        "NUMMSGS": (C.MQIACF_MESSAGE_COUNT, "int"),
        "LMSGDATE": (C.MQCACF_LAST_MSG_DATE, "str"), "LMSGTIME": (C.MQCACF_LAST_MSG_TIME, "str"),
    },
    "TPSTATUS": {
        "TOPICSTR": (C.MQCA_TOPIC_STRING, "str"), "PUBCOUNT": (C.MQIA_PUB_COUNT, "int"),
        "SUBCOUNT": (C.MQIA_SUB_COUNT, "int"), "RETAINED": (C.MQIACF_RETAINED_PUBLICATION, _YES_NO),
    },
    "AUTHREC": {
        "PROFILE": (C.MQCACF_AUTH_PROFILE_NAME, "str"), "ENTITY": (C.MQCACF_ENTITY_NAME, "str"),
        "ENTTYPE": (C.MQIACF_ENTITY_TYPE, {"PRINCIPAL": C.MQZAET_PRINCIPAL, "GROUP": C.MQZAET_GROUP}),
        "OBJTYPE": (C.MQIACF_OBJECT_TYPE, _OBJECT_TYPES),
        "AUTHLIST": (C.MQIACF_AUTHORIZATION_LIST, "auths"),
    },
    "ENTAUTH": {
        "OBJECT": (C.MQCACF_OBJECT_NAME, "str"), "ENTITY": (C.MQCACF_ENTITY_NAME, "str"),
        "ENTTYPE": (C.MQIACF_ENTITY_TYPE, {"PRINCIPAL": C.MQZAET_PRINCIPAL, "GROUP": C.MQZAET_GROUP}),
        "AUTHLIST": (C.MQIACF_AUTHORIZATION_LIST, "auths"),
        "OBJTYPE": (C.MQIACF_OBJECT_TYPE, _OBJECT_TYPES),
    },
    "CHLAUTH": {
        "CHLAUTH": (C.MQCACH_CHANNEL_NAME, "str"),
        "TYPE": (C.MQIACF_CHLAUTH_TYPE, {"BLOCKUSER": C.MQCAUT_BLOCKUSER, "BLOCKADDR": C.MQCAUT_BLOCKADDR,
                                         "SSLPEERMAP": C.MQCAUT_SSLPEERMAP, "ADDRESSMAP": C.MQCAUT_ADDRESSMAP,
                                         "USERMAP": C.MQCAUT_USERMAP, "QMGRMAP": C.MQCAUT_QMGRMAP}),
        "DESCR": (C.MQCA_CHLAUTH_DESC, "str"), "ADDRESS": (C.MQCACH_CONNECTION_NAME, "str"),
        "USERLIST": (C.MQCACH_MCA_USER_ID_LIST, "strs"), "ADDRLIST": (C.MQCACH_CONNECTION_NAME_LIST, "strs"),
        "USERSRC": (C.MQIACH_USER_SOURCE, {"MAP": C.MQUSRC_MAP, "NOACCESS": C.MQUSRC_NOACCESS,
                                           "CHANNEL": C.MQUSRC_CHANNEL}),
        "WARN": (C.MQIACH_WARNING, {"NO": C.MQWARN_NO, "YES": C.MQWARN_YES}),
        "MCAUSER": (C.MQCACH_MCA_USER_ID, "str"), "CLNTUSER": (C.MQCACH_CLIENT_USER_ID, "str"),
        "SSLPEER": (C.MQCACH_SSL_PEER_NAME, "str"), "QMNAME": (C.MQCA_REMOTE_Q_MGR_NAME, "str"),
        "ALTDATE": (C.MQCA_ALTERATION_DATE, "str"), "ALTTIME": (C.MQCA_ALTERATION_TIME, "str"),
    },
}
#: MQSC authority names (AUTHLIST, AUTHADD, AUTHRMV) and IBM's MQAUTH_* values.
AUTHORITIES: dict[str, int] = {
    "ALTUSR": C.MQAUTH_ALT_USER_AUTHORITY, "BROWSE": C.MQAUTH_BROWSE, "CHG": C.MQAUTH_CHANGE,
    "CLR": C.MQAUTH_CLEAR, "CONNECT": C.MQAUTH_CONNECT, "CRT": C.MQAUTH_CREATE, "DLT": C.MQAUTH_DELETE,
    "DSP": C.MQAUTH_DISPLAY, "GET": C.MQAUTH_INPUT, "INQ": C.MQAUTH_INQUIRE, "PUT": C.MQAUTH_OUTPUT,
    "PASSALL": C.MQAUTH_PASS_ALL_CONTEXT, "PASSID": C.MQAUTH_PASS_IDENTITY_CONTEXT, "SET": C.MQAUTH_SET,
    "SETALL": C.MQAUTH_SET_ALL_CONTEXT, "SETID": C.MQAUTH_SET_IDENTITY_CONTEXT, "CTRL": C.MQAUTH_CONTROL,
    "CTRLX": C.MQAUTH_CONTROL_EXTENDED, "PUB": C.MQAUTH_PUBLISH, "SUB": C.MQAUTH_SUBSCRIBE,
    "RESUME": C.MQAUTH_RESUME, "SYSTEM": C.MQAUTH_SYSTEM, "ALL": C.MQAUTH_ALL, "ALLADM": C.MQAUTH_ALL_ADMIN,
    "ALLMQI": C.MQAUTH_ALL_MQI, "NONE": C.MQAUTH_NONE,
}


def _catalogue_type(family: str, row: Mapping[str, str]) -> str | None:
    """The catalogue that describes a record of ``family``: a queue's own type (QLOCAL...)."""
    if family == "QUEUE":
        kind = row.get("TYPE", "")
        return kind if kind in attributes.QUEUE_TYPES else None
    if family == "CLUSQMGR":
        return "CHANNEL"
    return family if family in attributes.OBJECT_TYPES else None


def to_pcf(family: str, row: Mapping[str, str], flags: set[str]) -> list[tuple[int, Value]]:
    """One DISPLAY record as PCF parameters, in the record's order; keywords with no PCF
    parameter are left out. ``flags`` are the bare keywords of the record (SHARE, NOTRIGGER)."""
    catalogue = _catalogue_type(family, row)
    extras = EXTRAS.get(family, _NONE)
    specs = _specs(catalogue) if catalogue else _NONE
    out: list[tuple[int, Value]] = []
    for keyword, text in row.items():
        extra = extras.get(keyword)
        if extra is not None:
            converted = _extra(extra, text)
            if converted is not None:
                out.append(converted)
            continue
        spec = specs.get(keyword)
        if spec is None:
            continue
        value = _catalogued(spec, text)
        if value is not None:
            out.append((spec.selector, value))  # type: ignore[arg-type]  # (_specs: only those with one)
    if catalogue and flags:
        for spec in _flag_specs(catalogue):
            if spec.name in flags or spec.negative in flags:
                out.append((spec.selector, int(spec.name in flags)))  # type: ignore[arg-type]
    return out


def record_to_pcf(family: str, record: Record) -> list[tuple[int, Value]]:
    """A DISPLAY record as the executor chose it (``display.capture``) as PCF parameters, each
    value converted as ``to_pcf`` converts what runmqsc prints, without laying the record out
    and reading it back. Conversions are remembered: thousands of queues share most values."""
    _, row, identity, keys = record
    catalogue = _catalogue_type(family, row) or ""
    memo = _CONVERTED.get((family, catalogue))
    if memo is None or len(memo) >= _MEMO_LIMIT:
        memo = _CONVERTED[(family, catalogue)] = {}
    out: list[tuple[int, Value]] = []
    append = out.append
    for key in (*identity, *(k for k in keys if k not in identity)):
        value = row.get(key, _UNKNOWN)
        if value is _UNKNOWN:
            continue
        if type(value) in _MEMO_TYPES:
            converted = memo.get((key, value), _UNKNOWN)
            if converted is _UNKNOWN:
                converted = memo[(key, value)] = _convert(family, catalogue, key, value)
        else:
            converted = _convert(family, catalogue, key, value)
        if converted is not None:
            append(converted)  # type: ignore[arg-type]
    return out


_MEMO_TYPES = frozenset({str, int, bool})
_MEMO_LIMIT = 100_000
_UNKNOWN: Any = object()
_CONVERTED: dict[tuple[str, str], dict[tuple[str, Any], object]] = {}


def _convert(family: str, catalogue: str, key: str, value: Any) -> tuple[int, Value] | None:
    extra = EXTRAS.get(family, _NONE).get(key)
    if extra is not None:
        return _extra(extra, display.format_value(value))
    spec = _specs(catalogue).get(key) if catalogue else None
    if spec is None:
        return None
    if spec.kind is Kind.FLAG:
        return (spec.selector, int(value)) if isinstance(value, bool) else None  # type: ignore[return-value]
    converted = _catalogued(spec, display.format_value(value))
    return None if converted is None else (spec.selector, converted)  # type: ignore[return-value]


_NONE: Mapping[str, Any] = {}


@cache
def _specs(catalogue: str) -> dict[str, attributes.Attr]:
    """The catalogue of ``catalogue`` by the keyword DISPLAY shows, those with a PCF parameter."""
    return {a.name: a for a in attributes.attributes(catalogue) if a.selector is not None}


@cache
def _flag_specs(catalogue: str) -> tuple[attributes.Attr, ...]:
    return tuple(a for a in attributes.attributes(catalogue) if a.kind is Kind.FLAG and a.selector is not None)


def _extra(entry: tuple[int, Conversion], text: str) -> tuple[int, Value] | None:
    parameter, conversion = entry
    text = text.strip()
    if isinstance(conversion, Mapping):
        if text in conversion:
            return parameter, conversion[text]
        return (parameter, int(text)) if text.lstrip("-").isdigit() else None
    if conversion == "int":
        return (parameter, int(text)) if text.lstrip("-").isdigit() else None
    if conversion == "ints":
        items = [t.strip() for t in text.split(",") if t.strip()]
        return (parameter, [int(t) for t in items]) if all(t.lstrip("-").isdigit() for t in items) else None
    if conversion == "strs":
        return parameter, [t.strip() for t in text.split(",") if t.strip()]
    if conversion == "auths":
        names = [t.strip().upper() for t in text.split(",") if t.strip()]
        return parameter, [AUTHORITIES[n] for n in names if n in AUTHORITIES]
    if conversion == "hex":
        try:
            return parameter, bytes.fromhex(text)
        except ValueError:
            return None
    return parameter, text


def _catalogued(spec: attributes.Attr, text: str) -> Value | None:
    text = text.strip()
    if spec.kind is Kind.STR:
        return text
    if spec.kind is Kind.LIST:
        return [t.strip() for t in text.split(",") if t.strip()]
    if text in spec.tokens:
        return spec.tokens[text]
    if spec.kind is Kind.INT and text.lstrip("-").isdigit():
        return int(text)
    return None


@cache
def by_parameter(objtype: str) -> dict[int, attributes.Attr]:
    """The catalogue of ``objtype`` by PCF parameter id."""
    return {a.selector: a for a in attributes.attributes(objtype) if a.selector is not None}


def parameter_of(objtype: str, keyword: str) -> int | None:
    """The PCF parameter id of an MQSC keyword of ``objtype`` (catalogue or extras)."""
    extra = EXTRAS.get(objtype, {}).get(keyword)
    if extra is not None:
        return extra[0]
    if objtype in attributes.OBJECT_TYPES or objtype == "QUEUE":
        return attributes.selector(objtype, keyword)
    return None


def keyword_of(objtype: str, parameter: int) -> str | None:
    """The MQSC keyword of a PCF parameter id for ``objtype`` (for WHERE and attribute lists)."""
    for keyword, (pid, _) in EXTRAS.get(objtype, {}).items():
        if pid == parameter:
            return keyword
    types = attributes.QUEUE_TYPES if objtype == "QUEUE" else (objtype,)
    for kind in types:
        if kind in attributes.OBJECT_TYPES and parameter in by_parameter(kind):
            return by_parameter(kind)[parameter].name
    return None


def to_mqsc(objtype: str, parameter: int, value: Value) -> tuple[str, Any]:
    """A PCF parameter of a DEFINE/ALTER as the MQSC keyword and the value the parser would
    have given it (a string, a list, or True for a bare flag keyword)."""
    spec = by_parameter(objtype).get(parameter)
    if spec is None or spec.readonly or spec.role is not attributes.Role.CONFIG:
        raise ParameterError(parm_id_error(value), f"parameter {parameter} is not an attribute {objtype} can be given",
                             parameter)
    if spec.kind is Kind.FLAG:
        if not isinstance(value, int):
            raise ParameterError(C.MQRCCF_CFIN_PARM_ID_ERROR, f"{spec.name} takes an integer", parameter)
        return (spec.name if value else spec.negative), True
    if spec.kind in (Kind.ENUM, Kind.INT):
        if not isinstance(value, int):
            raise ParameterError(parm_id_error(value), f"{spec.name} takes an integer", parameter)
        for token, number in spec.tokens.items():
            if number == value and (spec.kind is Kind.ENUM or not spec.low <= value <= spec.high):
                return spec.name, token
        if spec.kind is Kind.ENUM:
            raise ParameterError(C.MQRCCF_PARM_VALUE_ERROR, f"{value} is not a value of {spec.name}", parameter)
        return spec.name, str(value)
    if spec.kind is Kind.LIST:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ParameterError(C.MQRCCF_CFSL_PARM_ID_ERROR, f"{spec.name} takes a string list", parameter)
        return spec.name, [str(v) for v in value]
    if not isinstance(value, str):
        raise ParameterError(parm_id_error(value), f"{spec.name} takes a string", parameter)
    return spec.name, value


def extra_to_mqsc(family: str, parameter: int, value: Value) -> tuple[str, Any]:
    """A PCF parameter of a command on a family with no catalogue (SET_CHLAUTH_REC) as its MQSC
    keyword and value, through ``EXTRAS``."""
    for keyword, (pid, conversion) in EXTRAS.get(family, {}).items():
        if pid != parameter:
            continue
        if isinstance(conversion, Mapping):
            if not isinstance(value, int):
                raise ParameterError(parm_id_error(value), f"{keyword} takes an integer", parameter)
            token = next((t for t, n in conversion.items() if n == value), None)
            if token is None and isinstance(conversion, IntTokens):
                return keyword, str(value)
            if token is None:
                raise ParameterError(C.MQRCCF_PARM_VALUE_ERROR, f"{value!r} is not a value of {keyword}", parameter)
            return keyword, token
        if conversion == "strs" and isinstance(value, list) and all(isinstance(v, str) for v in value):
            return keyword, [str(v).strip() for v in value]
        if conversion == "str" and isinstance(value, str):
            return keyword, value.strip()
        if conversion == "int" and isinstance(value, int):
            return keyword, str(value)
        if conversion == "hex" and isinstance(value, bytes):
            return keyword, value.hex().upper()
        raise ParameterError(parm_id_error(value), f"{keyword} does not take {type(value).__name__}", parameter)
    raise ParameterError(parm_id_error(value), f"parameter {parameter} is not valid here", parameter)


def parm_id_error(value: Value) -> int:
    """IBM's reason for a parameter id a command does not take, by the structure it came in."""
    if isinstance(value, int):
        return C.MQRCCF_CFIN_PARM_ID_ERROR
    if isinstance(value, str):
        return C.MQRCCF_CFST_PARM_ID_ERROR
    if isinstance(value, bytes):
        return C.MQRCCF_CFBS_PARM_ID_ERROR
    if isinstance(value, list):
        return C.MQRCCF_CFSL_PARM_ID_ERROR if value and isinstance(value[0], str) else C.MQRCCF_CFIL_PARM_ID_ERROR
    return C.MQRCCF_CFGR_PARM_ID_ERROR
