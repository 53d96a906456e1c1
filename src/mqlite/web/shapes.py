"""DISPLAY records as IBM's REST JSON objects, pure.

IBM's administrative REST API groups an object's attributes by category with camelCase names
(``storage.maximumDepth``, ``general.description``, ``status.currentDepth``); each table below
maps an MQSC keyword to its (category, name, conversion). A keyword IBM has no name for here is
kept under ``extended`` by its MQSC name in lower case, so nothing DISPLAY shows is lost.

``attributes=`` and ``status=`` select what is returned: nothing selected gives the name and
type only; ``*`` every category; ``category`` one category; ``category.name`` one attribute.
An unknown selection is a ``ValueError`` (the handler's 400).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

Convert = Callable[[str], Any]


def text(value: str) -> str:
    return value


def integer(value: str) -> Any:
    try:
        return int(value)
    except ValueError:
        return value  # NOLIMIT and the like stay as IBM shows them


def number_or_text(value: str) -> Any:
    """An attribute the tables do not name: a number when it is digits, else its text."""
    return int(value) if value.isdigit() else value


def lower(value: str) -> str:
    return value.lower()


def disabled(value: str) -> bool:
    """PUT(DISABLED) -> inhibitPut true."""
    return value.upper() in ("DISABLED", "INHIBITED")


def enabled(value: str) -> bool:
    return value.upper() in ("ENABLED", "YES")


def yes(value: str) -> bool:
    return value.upper() == "YES"


def uncommitted(value: str) -> Any:
    return 0 if value.upper() == "NO" else integer(value)


def age(value: str) -> Any:
    return -1 if not value else integer(value)


QUEUE_TYPES = {"QLOCAL": "local", "QALIAS": "alias", "QREMOTE": "remote", "QMODEL": "model", "QCLUSTER": "cluster"}
CHANNEL_TYPES = {"SDR": "sender", "RCVR": "receiver", "SVR": "server", "RQSTR": "requester",
                 "SVRCONN": "serverConnection", "CLNTCONN": "clientConnection", "CLUSSDR": "clusterSender",
                 "CLUSRCVR": "clusterReceiver", "MQTT": "mqtt", "AMQP": "amqp"}

Table = dict[str, tuple[str, str, Convert]]

QUEUE: Table = {
    "DESCR": ("general", "description", text),
    "PUT": ("general", "inhibitPut", disabled),
    "GET": ("general", "inhibitGet", disabled),
    "USAGE": ("general", "isTransmissionQueue", lambda v: v.upper() == "XMITQ"),
    "MAXDEPTH": ("storage", "maximumDepth", integer),
    "MAXMSGL": ("storage", "maximumMessageLength", integer),
    "MSGDLVSQ": ("storage", "messageDeliverySequence", lower),
    "NPMCLASS": ("storage", "nonPersistentMessageClass", lower),
    "DEFPSIST": ("applicationDefaults", "persistent", yes),
    "DEFPRTY": ("applicationDefaults", "priority", integer),
    "DEFPRESP": ("applicationDefaults", "putResponse", lambda v: "synchronous" if v == "SYNC" else "asynchronous"),
    "DEFREADA": ("applicationDefaults", "readAhead", lower),
    "DEFSOPT": ("applicationDefaults", "sharedInput", lambda v: v.upper() == "SHARED"),
    "DEFBIND": ("cluster", "bind", lower),
    "CLUSTER": ("cluster", "name", text),
    "CLUSNL": ("cluster", "namelist", text),
    "CLWLPRTY": ("cluster", "workloadPriority", integer),
    "CLWLRANK": ("cluster", "workloadRank", integer),
    "CLWLUSEQ": ("cluster", "workloadQueueUse", lower),
    "CLCHNAME": ("cluster", "transmissionQueueForChannelName", text),
    "TRIGTYPE": ("trigger", "type", lower),
    "TRIGDPTH": ("trigger", "depth", integer),
    "TRIGMPRI": ("trigger", "messagePriority", integer),
    "TRIGDATA": ("trigger", "data", text),
    "INITQ": ("trigger", "initiationQueueName", text),
    "PROCESS": ("trigger", "processName", text),
    "QDEPTHHI": ("events", "depthHighPercentage", integer),
    "QDEPTHLO": ("events", "depthLowPercentage", integer),
    "QDPHIEV": ("events", "depthHighEnabled", enabled),
    "QDPLOEV": ("events", "depthLowEnabled", enabled),
    "QDPMAXEV": ("events", "depthFullEnabled", enabled),
    "QSVCIEV": ("events", "serviceIntervalEvent", lower),
    "QSVCINT": ("events", "serviceInterval", integer),
    "BOTHRESH": ("extended", "backoutThreshold", integer),
    "BOQNAME": ("extended", "backoutRequeueQueueName", text),
    "RETINTVL": ("extended", "retentionInterval", integer),
    "PROPCTL": ("extended", "propertyControl", lower),
    "SCOPE": ("extended", "scope", lower),
    "MONQ": ("dataCollection", "monitoring", lower),
    "STATQ": ("dataCollection", "statistics", lower),
    "ACCTQ": ("dataCollection", "accounting", lower),
    "TARGET": ("alias", "targetName", text),
    "TARGTYPE": ("alias", "targetType", lower),
    "RNAME": ("remote", "queueName", text),
    "RQMNAME": ("remote", "qmgrName", text),
    "XMITQ": ("remote", "transmissionQueueName", text),
    "DEFTYPE": ("model", "type", lambda v: "permanentDynamic" if v.upper() == "PERMDYN" else v.lower()),
    "CURDEPTH": ("status", "currentDepth", integer),
    "IPPROCS": ("status", "openInputCount", integer),
    "OPPROCS": ("status", "openOutputCount", integer),
}

QUEUE_STATUS: Table = {
    "CURDEPTH": ("status", "currentDepth", integer),
    "IPPROCS": ("status", "openInputCount", integer),
    "OPPROCS": ("status", "openOutputCount", integer),
    "UNCOM": ("status", "uncommittedMessages", uncommitted),
    "MSGAGE": ("status", "oldestMessageAge", age),
    "QTIME": ("status", "onQueueTime", text),
    "LGETDATE": ("status", "lastGetDate", text),
    "LGETTIME": ("status", "lastGetTime", text),
    "LPUTDATE": ("status", "lastPutDate", text),
    "LPUTTIME": ("status", "lastPutTime", text),
    "MONQ": ("status", "monitoringRate", lower),
    "MEDIALOG": ("status", "mediaRecoveryLogExtent", text),
}

SUBSCRIPTION: Table = {
    "SUBID": ("", "id", text),
    "TOPICSTR": ("", "topicString", text),
    "RESOLVED": ("", "resolvedTopicString", text),
    "TOPICOBJ": ("", "topicObject", text),
    "DEST": ("destination", "queueName", text),
    "DESTQMGR": ("destination", "qmgrName", text),
    "DESTCORL": ("destination", "correlationId", text),
    "DESTCLAS": ("destination", "type", lower),
    "DURABLE": ("general", "durable", yes),
    "SUBTYPE": ("general", "type", lower),
    "SELECTOR": ("selector", "value", text),
    "SELTYPE": ("selector", "type", lower),
    "SUBUSER": ("user", "name", text),
    "USERDATA": ("user", "data", text),
    "PUBAPPID": ("user", "applicationIdentity", text),
    "EXPIRY": ("general", "expiry", integer),
    "PSPROP": ("general", "propertyFormat", lower),
    "SUBSCOPE": ("general", "scope", lower),
    "WSCHEMA": ("general", "wildcardSchema", lower),
    "VARUSER": ("user", "variable", lower),
    "REQONLY": ("general", "publishOnRequestOnly", lambda v: v.upper() == "YES"),
    "SUBLEVEL": ("general", "level", integer),
    "PUBPRTY": ("general", "priority", lower),
    "PUBACCT": ("user", "accountingToken", text),
}

CHANNEL: Table = {
    "DESCR": ("general", "description", text),
    "MAXMSGL": ("general", "maximumMessageLength", integer),
    "HBINT": ("general", "heartbeatInterval", integer),
    "CONNAME": ("connection", "name", text),
    "XMITQ": ("transmissionQueue", "name", text),
    "TRPTYPE": ("connection", "transportType", lower),
    "PORT": ("connection", "port", integer),
    "MCAUSER": ("mca", "userId", text),
    "SSLCIPH": ("transportSecurity", "cipherSpecification", text),
    "SSLPEER": ("transportSecurity", "peerName", text),
    "SSLCAUTH": ("transportSecurity", "clientAuthentication", lower),
    "CERTLABL": ("transportSecurity", "certificateLabel", text),
    "SHARECNV": ("sharingConversations", "value", integer),
    "MAXINST": ("instanceLimits", "maximumInstances", integer),
    "MAXINSTC": ("instanceLimits", "maximumInstancesPerClient", integer),
    "BATCHSZ": ("batch", "size", integer),
    "BATCHINT": ("batch", "interval", integer),
    "DISCINT": ("general", "disconnectInterval", integer),
    "CLUSTER": ("cluster", "name", text),
    "CLUSNL": ("cluster", "namelist", text),
}

CHANNEL_STATUS: Table = {
    "STATUS": ("status", "state", lower),
    "SUBSTATE": ("status", "substate", lower),
    "CONNAME": ("status", "connectionName", text),
    "CURRENT": ("status", "current", text),
    "MSGS": ("status", "messages", integer),
    "BATCHES": ("status", "batches", integer),
    "BYTSSENT": ("status", "bytesSent", integer),
    "BYTSRCVD": ("status", "bytesReceived", integer),
    "CHSTADA": ("status", "startDate", text),
    "CHSTATI": ("status", "startTime", text),
    "LSTMSGDA": ("status", "lastMessageDate", text),
    "LSTMSGTI": ("status", "lastMessageTime", text),
    "RQMNAME": ("status", "remoteQmgrName", text),
    "CURSEQNO": ("status", "currentSequenceNumber", integer),
    "INDOUBT": ("status", "inDoubt", yes),
    "XMITQ": ("status", "transmissionQueueName", text),
}

QMGR_STATUS: Table = {
    "STATUS": ("status", "state", lower),
    "CMDSERV": ("status", "commandServerState", lower),
    "CHINIT": ("status", "channelInitiatorState", lower),
    "CONNS": ("status", "connectionCount", integer),
    "STARTDA": ("status", "startDate", text),
    "STARTTI": ("status", "startTime", text),
}

QMGR: Table = {
    "DESCR": ("general", "description", text),
    "CCSID": ("general", "codedCharacterSetId", integer),
    "CMDLEVEL": ("general", "commandLevel", integer),
    "PLATFORM": ("general", "platform", lower),
    "QMID": ("general", "identifier", text),
    "DEADQ": ("general", "deadLetterQueueName", text),
    "DEFXMITQ": ("general", "defaultTransmissionQueueName", text),
    "MAXMSGL": ("extended", "maximumMessageLength", integer),
    "MAXPRTY": ("extended", "maximumPriority", integer),
    "MAXUMSGS": ("extended", "maximumUncommittedMessages", integer),
    "MAXHANDS": ("extended", "maximumHandles", integer),
    "CHLAUTH": ("communication", "channelAuthorityRecords", enabled),
    "CONNAUTH": ("authentication", "connectionAuthentication", text),
    "PSMODE": ("publishSubscribe", "mode", lower),
    "REPOS": ("cluster", "repository", text),
    "REPOSNL": ("cluster", "repositoryNamelist", text),
    "STATINT": ("statistics", "interval", integer),
}


def shape(record: dict[str, str], table: Table, skip: Iterable[str] = (), default: str = "extended"
          ) -> dict[str, Any]:
    """A record's attributes by category (``""``: top level); ``skip``: keywords already placed;
    a keyword not in ``table`` goes to category ``default`` by its lower-case name."""
    out: dict[str, Any] = {}
    skipped = set(skip)
    for keyword, value in record.items():
        if keyword in skipped:
            continue
        category, name, convert = table.get(keyword, (default, keyword.lower(), number_or_text))
        target = out if not category else out.setdefault(category, {})
        target[name] = convert(value)
    return out


def select(shaped: dict[str, Any], selection: list[str], allowed: Iterable[str] | None = None) -> dict[str, Any]:
    """The categories or ``category.name`` attributes ``selection`` names (``*``: all).
    ValueError names a selection that is not an attribute of this object type."""
    if not selection:
        return {}
    if "*" in selection:
        return {k: v for k, v in shaped.items() if allowed is None or k in allowed}
    chosen: dict[str, Any] = {}
    for item in selection:
        category, _, name = item.partition(".")
        if allowed is not None and category not in allowed:
            raise ValueError(item)
        if category not in shaped:
            continue  # a category this object does not have (alias on a local queue)
        if not name:
            chosen[category] = shaped[category]
        elif isinstance(shaped[category], dict) and name in shaped[category]:
            chosen.setdefault(category, {})[name] = shaped[category][name]
    return chosen


def selection(value: str | None) -> list[str]:
    """``attributes=a,b.c`` -> ["a", "b.c"]; ValueError for a malformed list."""
    if not value:
        return []
    items = value.split(",")
    for item in items:
        if not re.fullmatch(r"\*|[A-Za-z]+(\.[A-Za-z]+)?", item):
            raise ValueError(item)
    return items


def categories(table: Table) -> set[str]:
    return {category for category, _, _ in table.values() if category} | {"extended"}


QUEUE_CATEGORIES = frozenset(categories(QUEUE) | {"timestamps"} - {"status"})
SUBSCRIPTION_CATEGORIES = frozenset(categories(SUBSCRIPTION))
CHANNEL_CATEGORIES = frozenset(categories(CHANNEL))
QMGR_CATEGORIES = frozenset(categories(QMGR))


def selection_pattern(allowed: Iterable[str]) -> str:
    """The regular expression of an ``attributes=`` (or ``status=``) list of these categories."""
    item = r"(\*|(" + "|".join(sorted(allowed)) + r")(\.[A-Za-z]+)?)"
    return rf"^({item}(,{item})*)?$"


def queue(record: dict[str, str], status: dict[str, str] | None, attributes: list[str],
          status_selection: list[str]) -> dict[str, Any]:
    """One queue as IBM's REST API returns it: name, type, then what was selected."""
    qtype = QUEUE_TYPES.get(record.get("TYPE", "").upper(), record.get("TYPE", "").lower())
    out: dict[str, Any] = {"name": record.get("QUEUE", ""), "type": qtype}
    shaped = shape(record, QUEUE, skip=("QUEUE", "TYPE", "CURDEPTH", "IPPROCS", "OPPROCS", "ALTDATE", "ALTTIME",
                                        "CRDATE", "CRTIME"))
    timestamps = {k: v for k, v in (("created", _stamp(record, "CRDATE", "CRTIME")),
                                    ("altered", _stamp(record, "ALTDATE", "ALTTIME"))) if v}
    if timestamps:
        shaped["timestamps"] = timestamps
    out.update(select(shaped, attributes, QUEUE_CATEGORIES))
    if status_selection:
        check_status(status_selection)
        if status is not None:
            shaped_status = shape(status, QUEUE_STATUS, skip=("QUEUE", "TYPE"), default="status")
            out.update(select(shaped_status, status_selection, {"status"}))
    return out


def check_status(status_selection: list[str]) -> None:
    """``status=`` takes ``*``, ``status`` or ``status.name``: ValueError for anything else."""
    for item in status_selection:
        if item != "*" and item.partition(".")[0] != "status":
            raise ValueError(item)


def _stamp(record: dict[str, str], date: str, time: str) -> str:
    """CRDATE(2026-12-02) CRTIME(01.01.58) -> 2026-12-02T01:01:58.000Z (IBM's timestamp form)."""
    day, clock = record.get(date, "").strip(), record.get(time, "").strip()
    if not day:
        return ""
    return f"{day}T{clock.replace('.', ':') or '00:00:00'}.000Z"


def subscription(record: dict[str, str], attributes: list[str]) -> dict[str, Any]:
    shaped = shape(record, SUBSCRIPTION, skip=("SUB", "SUBID", "TOPICSTR", "RESOLVED"))
    out: dict[str, Any] = {"name": record.get("SUB", ""), "id": record.get("SUBID", ""),
                           "resolvedTopicString": record.get("RESOLVED", record.get("TOPICSTR", "")),
                           "topicString": record.get("TOPICSTR", "")}
    out.update(select({k: v for k, v in shaped.items() if isinstance(v, dict)}, attributes,
                      SUBSCRIPTION_CATEGORIES))
    return out


def channel(record: dict[str, str], status: list[dict[str, str]], attributes: list[str],
            status_selection: list[str]) -> dict[str, Any]:
    ctype = record.get("CHLTYPE", "").upper()
    out: dict[str, Any] = {"name": record.get("CHANNEL", ""), "type": CHANNEL_TYPES.get(ctype, ctype.lower())}
    shaped = shape(record, CHANNEL, skip=("CHANNEL", "CHLTYPE"))
    out.update(select(shaped, attributes, CHANNEL_CATEGORIES))
    if status_selection:
        check_status(status_selection)
        rows = status or [{"STATUS": "INACTIVE"}]
        shaped_rows = [shape(row, CHANNEL_STATUS, skip=("CHANNEL", "CHLTYPE"), default="status") for row in rows]
        selected = [select(row, status_selection, {"status"}) for row in shaped_rows]
        out["status"] = [row.get("status", {}) for row in selected]
    return out


def qmgr(name: str, running: bool, record: dict[str, str] | None, status: dict[str, str] | None,
         attributes: list[str], status_selection: list[str]) -> dict[str, Any]:
    """A queue manager: ``state`` running or ended (IBM's), then what was selected."""
    out: dict[str, Any] = {"name": name, "state": "running" if running else "ended"}
    if record is not None:
        out.update(select(shape(record, QMGR, skip=("QMNAME",)), attributes, QMGR_CATEGORIES))
    if status_selection:
        check_status(status_selection)
        shaped = (shape(status, QMGR_STATUS, skip=("QMNAME",), default="status") if status
                  else {"status": {"state": "ended"}})
        out.update(select(shaped, status_selection, {"status"}))
    return out
