"""MQINQ and MQSET: attribute selectors (MQIA_*/MQCA_*) to attribute values and back.

MQSC speaks in tokens (``GET(DISABLED)``); the MQI speaks in numbers (``MQQA_GET_INHIBITED``).
This table is the one place that translates between the two.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mqlite import cmqc as C
from mqlite.core.errors import MQError

if TYPE_CHECKING:
    from mqlite.core.qmgr import Handle, QueueManager

_QTYPE = {"QLOCAL": C.MQQT_LOCAL, "QMODEL": C.MQQT_MODEL, "QALIAS": C.MQQT_ALIAS, "QREMOTE": C.MQQT_REMOTE}
_ENUMS: dict[str, dict[Any, int]] = {
    "GET": {"ENABLED": C.MQQA_GET_ALLOWED, "DISABLED": C.MQQA_GET_INHIBITED},
    "PUT": {"ENABLED": C.MQQA_PUT_ALLOWED, "DISABLED": C.MQQA_PUT_INHIBITED},
    "DEFPSIST": {"NO": C.MQPER_NOT_PERSISTENT, "YES": C.MQPER_PERSISTENT},
    "SHARE": {False: C.MQQA_NOT_SHAREABLE, True: C.MQQA_SHAREABLE},
    "DEFSOPT": {"EXCL": C.MQOO_INPUT_EXCLUSIVE, "SHARED": C.MQOO_INPUT_SHARED},
    "MSGDLVSQ": {"PRIORITY": C.MQMDS_PRIORITY, "FIFO": C.MQMDS_FIFO},
    "USAGE": {"NORMAL": C.MQUS_NORMAL, "XMITQ": C.MQUS_TRANSMISSION},
    "DEFTYPE": {"PREDEFINED": C.MQQDT_PREDEFINED, "PERMDYN": C.MQQDT_PERMANENT_DYNAMIC,
                "TEMPDYN": C.MQQDT_TEMPORARY_DYNAMIC},
    "HARDENBO": {False: C.MQQA_BACKOUT_NOT_HARDENED, True: C.MQQA_BACKOUT_HARDENED},
    "DEFREADA": {"NO": C.MQREADA_NO, "YES": C.MQREADA_YES, "DISABLED": C.MQREADA_DISABLED},
}
# Selector -> attribute name, for queues and for the queue manager.
_QUEUE_SELECTORS: dict[int, str] = {
    C.MQIA_CURRENT_Q_DEPTH: "CURDEPTH", C.MQIA_MAX_Q_DEPTH: "MAXDEPTH", C.MQIA_MAX_MSG_LENGTH: "MAXMSGL",
    C.MQIA_INHIBIT_GET: "GET", C.MQIA_INHIBIT_PUT: "PUT", C.MQIA_DEF_PRIORITY: "DEFPRTY",
    C.MQIA_DEF_PERSISTENCE: "DEFPSIST", C.MQIA_OPEN_INPUT_COUNT: "IPPROCS",
    C.MQIA_OPEN_OUTPUT_COUNT: "OPPROCS", C.MQIA_BACKOUT_THRESHOLD: "BOTHRESH",
    C.MQIA_SHAREABILITY: "SHARE", C.MQIA_DEF_INPUT_OPEN_OPTION: "DEFSOPT",
    C.MQIA_MSG_DELIVERY_SEQUENCE: "MSGDLVSQ", C.MQIA_USAGE: "USAGE", C.MQIA_DEFINITION_TYPE: "DEFTYPE",
    C.MQIA_Q_TYPE: "TYPE", C.MQIA_HARDEN_GET_BACKOUT: "HARDENBO", C.MQIA_DEF_READ_AHEAD: "DEFREADA",
    C.MQCA_Q_NAME: "QUEUE", C.MQCA_Q_DESC: "DESCR", C.MQCA_BACKOUT_REQ_Q_NAME: "BOQNAME",
    C.MQCA_BASE_Q_NAME: "TARGET", C.MQCA_REMOTE_Q_NAME: "RNAME", C.MQCA_REMOTE_Q_MGR_NAME: "RQMNAME",
    C.MQCA_XMIT_Q_NAME: "XMITQ", C.MQCA_CREATION_DATE: "CRDATE", C.MQCA_CREATION_TIME: "CRTIME",
}
_QMGR_SELECTORS: dict[int, str] = {
    C.MQCA_Q_MGR_NAME: "QMNAME", C.MQCA_Q_MGR_DESC: "DESCR", C.MQCA_DEAD_LETTER_Q_NAME: "DEADQ",
    C.MQCA_DEF_XMIT_Q_NAME: "DEFXMITQ", C.MQIA_MAX_MSG_LENGTH: "MAXMSGL", C.MQIA_MAX_HANDLES: "MAXHANDS",
    C.MQIA_MAX_UNCOMMITTED_MSGS: "MAXUMSGS", C.MQIA_MAX_PRIORITY: "MAXPRTY", C.MQIA_CODED_CHAR_SET_ID: "CCSID",
    C.MQIA_COMMAND_LEVEL: "CMDLEVEL", C.MQIA_PLATFORM: "PLATFORM",
}
_SETTABLE = {C.MQIA_INHIBIT_GET: "GET", C.MQIA_INHIBIT_PUT: "PUT"}


def _value(name: str, raw: Any) -> int | str:
    if name == "TYPE":
        return _QTYPE.get(str(raw), 0)
    if name == "PLATFORM":
        return C.MQPL_UNIX
    table = _ENUMS.get(name)
    if table is not None:
        return table.get(raw, 0)
    if isinstance(raw, bool):
        return int(raw)
    return raw if isinstance(raw, int | str) else str(raw)


def inquire(qmgr: QueueManager, handle: Handle, selectors: list[int]) -> list[int | str]:
    if handle.queue is None:
        attrs: dict[str, Any] = {"QMNAME": qmgr.name, **qmgr.attrs}
        table = _QMGR_SELECTORS
    else:
        qtype, definition = qmgr.qdefs.get(handle.opened_as, qmgr.qdefs[handle.name])
        attrs = {"QUEUE": handle.opened_as, "TYPE": qtype, **definition}
        queue = handle.queue
        attrs.update(CURDEPTH=queue.depth, IPPROCS=queue.open_input, OPPROCS=queue.open_output)
        table = _QUEUE_SELECTORS
    values: list[int | str] = []
    for selector in selectors:
        name = table.get(selector)
        if name is None or name not in attrs:
            raise MQError(C.MQRC_SELECTOR_ERROR, f"selector {selector} is not valid for this object")
        values.append(_value(name, attrs[name]))
    return values


def set_attributes(qmgr: QueueManager, handle: Handle, values: dict[int, int | str]) -> None:
    if handle.queue is None:
        raise MQError(C.MQRC_SELECTOR_ERROR, "queue manager attributes are set with MQSC")
    changes: dict[str, Any] = {}
    for selector, value in values.items():
        name = _SETTABLE.get(int(selector))
        if name is None:
            raise MQError(C.MQRC_SELECTOR_ERROR, f"selector {selector} cannot be set with MQSET")
        tokens = {number: token for token, number in _ENUMS[name].items()}
        if value not in tokens:
            raise MQError(C.MQRC_SELECTOR_ERROR, f"value {value} for selector {selector}")
        changes[name] = tokens[value]
    qtype = qmgr.qdefs[handle.opened_as][0] if handle.opened_as in qmgr.qdefs else "QLOCAL"
    qmgr.alter(qtype, handle.opened_as if handle.opened_as in qmgr.qdefs else handle.name, changes)
