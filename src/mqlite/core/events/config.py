"""Configuration events (IBM's "Create object", "Change object", "Delete object", "Refresh
object"), on SYSTEM.ADMIN.CONFIG.EVENT while the queue manager says CONFIGEV(ENABLED).

Each event carries who made the change and how (EventUserId, EventOrigin, EventQMgr), the
object's identity (ObjectType, its name, Disposition) and every attribute of the object, as the
attribute catalogue's selectors and IBM's integers. A change is two messages with one CorrelId:
the attributes before (MsgSeqNumber 1, MQCFC_NOT_LAST) and after (MsgSeqNumber 2, MQCFC_LAST).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from mqlite import cmqc as C
from mqlite.core import attributes
from mqlite.core.attributes import Kind, Role
from mqlite.core.errors import MQError
from mqlite.core.security.events import event_message
from mqlite.message import Message
from mqlite.protocol import pcf

CONFIG_EVENT_QUEUE = "SYSTEM.ADMIN.CONFIG.EVENT"
QUEUE_TYPES = ("QLOCAL", "QALIAS", "QREMOTE", "QMODEL", "QUEUE")

# Admin object type -> (MQOT_*, the parameter that carries the object's name).
OBJECTS: Mapping[str, tuple[int, int]] = {
    **{qtype: (C.MQOT_Q, C.MQCA_Q_NAME) for qtype in QUEUE_TYPES},
    "QMGR": (C.MQOT_Q_MGR, C.MQCA_Q_MGR_NAME), "CHANNEL": (C.MQOT_CHANNEL, C.MQCACH_CHANNEL_NAME),
    "TOPIC": (C.MQOT_TOPIC, C.MQCA_TOPIC_NAME), "NAMELIST": (C.MQOT_NAMELIST, C.MQCA_NAMELIST_NAME),
    "AUTHINFO": (C.MQOT_AUTH_INFO, C.MQCA_AUTH_INFO_NAME), "LISTENER": (C.MQOT_LISTENER, C.MQCACH_LISTENER_NAME),
}


def produces(objtype: str) -> bool:
    """Whether a DEFINE/ALTER/DELETE of ``objtype`` is a configuration event (subscriptions and
    mqlite's own ROUTE objects are not)."""
    return objtype.upper() in OBJECTS


def attribute_parameters(catalogue: str, row: Mapping[str, Any]) -> list[tuple[int, pcf.Value]]:
    """An object's attributes (a DISPLAY row) as PCF parameters: each catalogued attribute with
    a selector, its value as MQINQ gives it; the object's name is carried apart."""
    params: list[tuple[int, pcf.Value]] = []
    for attr in attributes.attributes(catalogue):
        if attr.selector is None or attr.name not in row or (attr.role is Role.IDENTITY and attr.name != "TYPE"):
            continue
        value = row[attr.name]
        try:
            value = attributes.to_mq(catalogue, attr.name, value)
        except (KeyError, ValueError, MQError):
            continue
        if attr.kind is Kind.LIST:
            params.append((attr.selector, [str(item) for item in value or []]))
        elif isinstance(value, bool | int):
            params.append((attr.selector, int(value)))
        elif isinstance(value, str):
            params.append((attr.selector, value))
    return params


def catalogue_of(objtype: str, row: Mapping[str, Any]) -> str:
    """The catalogue that describes a row: a queue's own type, else the object type."""
    return str(row.get("TYPE", "QLOCAL")) if objtype.upper() in QUEUE_TYPES else objtype.upper()


def event_data(qmgr_name: str, user: str, objtype: str, name: str, row: Mapping[str, Any],
               origin: int = C.MQEVO_CONSOLE) -> list[tuple[int, pcf.Value]]:
    """A configuration event's data in IBM's order: EventUserId, EventOrigin, EventQMgr,
    ObjectType, the object's name, Disposition, then the object's attributes."""
    mqot, name_parameter = OBJECTS[objtype.upper()]
    return [(C.MQCACF_EVENT_USER_ID, user), (C.MQIACF_EVENT_ORIGIN, origin), (C.MQCACF_EVENT_Q_MGR, qmgr_name),
            (C.MQIACF_OBJECT_TYPE, mqot), (name_parameter, name), (C.MQIA_QSG_DISP, C.MQQSGD_Q_MGR),
            *attribute_parameters(catalogue_of(objtype, row), row)]


# REFRESH QMGR TYPE(CONFIGEV) OBJECT(...): the object types each OBJECT value covers (ALL: every
# type mqlite has; IBM's others, PROCESS, SERVICE, COMMINFO..., have no objects here).
REFRESH_TYPES: Mapping[str, tuple[str, ...]] = {
    "ALL": ("QMGR", "QUEUE", "CHANNEL", "TOPIC", "NAMELIST", "AUTHINFO", "LISTENER"),
    **{objtype: (objtype,) for objtype in OBJECTS},
    **{other: () for other in ("NONE", "PROCESS", "SERVICE", "COMMINFO", "CHLAUTH", "AUTHREC", "STGCLASS",
                                "CFSTRUCT")},
}
_NAME_KEYS = ("QUEUE", "QMNAME", "CHANNEL", "TOPIC", "NAMELIST", "AUTHINFO", "LISTENER")


def within(row: Mapping[str, Any], since: tuple[str, str] | None) -> bool:
    """Whether an object was created or changed at or after ``since`` (ALTDATE, ALTTIME), as
    INCLINT asks; every object when there is no INCLINT."""
    if since is None:
        return True
    return (str(row.get("ALTDATE", "")), str(row.get("ALTTIME", ""))) >= since


def refresh_rows(rows_of: Callable[[str, str], list[dict[str, Any]]], objtype: str, generic: str,
                 since: tuple[str, str] | None) -> list[tuple[str, str, dict[str, Any]]]:
    """(object type, name, row) of each object REFRESH QMGR TYPE(CONFIGEV) reports, in IBM's
    order of types; a queue is reported as its own type."""
    found: list[tuple[str, str, dict[str, Any]]] = []
    for kind in REFRESH_TYPES[objtype.upper()]:
        try:
            rows = rows_of(kind, "*" if kind == "QMGR" else generic)
        except MQError:
            continue  # no object of that name
        for row in rows:
            name = next((str(row[key]) for key in _NAME_KEYS if key in row), "")
            if name and within(row, since):
                found.append((str(row.get("TYPE", kind)) if kind == "QUEUE" else kind, name, row))
    return found


INTERNAL_USER = "mqm"  # EventUserId of the queue manager's own changes


class ConfigEvents:
    """Puts configuration events while CONFIGEV is ENABLED. ``user`` and ``origin``: who the
    change runs as and how it came (``acting``: the checked admin before each command, with
    MQEVO_CONSOLE for MQSC and MQEVO_MSG for a PCF command message; MQSET with MQEVO_MQSET);
    ``acted`` after each change puts them back to the queue manager's own (MQEVO_INTERNAL), so
    a change nobody announced is never reported as the last caller's."""

    def __init__(self, qmgr_name: str, qmgr_attrs: dict[str, Any], put: Callable[[str, Message], bool],
                 next_id: Callable[[], bytes], clock: Callable[[], float]) -> None:
        self.qmgr_name = qmgr_name
        self.qmgr_attrs = qmgr_attrs
        self.put = put
        self.next_id = next_id
        self.clock = clock
        self.user = INTERNAL_USER
        self.origin = C.MQEVO_INTERNAL

    def acting(self, user: str, origin: int = C.MQEVO_CONSOLE) -> None:
        self.user, self.origin = user, origin

    def acted(self) -> None:
        self.user, self.origin = INTERNAL_USER, C.MQEVO_INTERNAL

    @property
    def enabled(self) -> bool:
        return str(self.qmgr_attrs.get("CONFIGEV", "DISABLED")) == "ENABLED"

    @staticmethod
    def produces(objtype: str) -> bool:
        return produces(objtype)

    def _message(self, objtype: str, name: str, row: Mapping[str, Any], reason: int, seq: int = 1,
                 control: int = C.MQCFC_LAST) -> Message:
        params = event_data(self.qmgr_name, self.user, objtype, name, row, self.origin)
        return event_message(self.qmgr_name, params, self.clock(), reason, C.MQCMD_CONFIG_EVENT,
                             seq=seq, control=control)

    def created(self, objtype: str, name: str, row: Mapping[str, Any]) -> None:
        self.put(CONFIG_EVENT_QUEUE, self._message(objtype, name, row, C.MQRC_CONFIG_CREATE_OBJECT))

    def deleted(self, objtype: str, name: str, row: Mapping[str, Any]) -> None:
        self.put(CONFIG_EVENT_QUEUE, self._message(objtype, name, row, C.MQRC_CONFIG_DELETE_OBJECT))

    def refreshed(self, objtype: str, name: str, row: Mapping[str, Any]) -> None:
        self.put(CONFIG_EVENT_QUEUE, self._message(objtype, name, row, C.MQRC_CONFIG_REFRESH_OBJECT))

    def refresh(self, rows_of: Callable[[str, str], list[dict[str, Any]]], objtype: str, generic: str,
                inclint: int | None) -> int:
        """REFRESH QMGR TYPE(CONFIGEV): one Refresh object event per object of ``objtype``
        (OBJECT) whose name matches ``generic`` (NAME), changed within ``inclint`` minutes
        (INCLINT) if given; nothing while CONFIGEV is DISABLED. Returns how many."""
        if not self.enabled:
            return 0
        since = attributes.date_and_time(self.clock() - inclint * 60) if inclint else None
        found = refresh_rows(rows_of, objtype, generic, since)
        for kind, name, row in found:
            self.refreshed(kind, name, row)
        return len(found)

    def changed(self, objtype: str, name: str, before: Mapping[str, Any], after: Mapping[str, Any]) -> None:
        """Two messages, one CorrelId: the object before the change, then after it."""
        first = self._message(objtype, name, before, C.MQRC_CONFIG_CHANGE_OBJECT, 1, C.MQCFC_NOT_LAST)
        second = self._message(objtype, name, after, C.MQRC_CONFIG_CHANGE_OBJECT, 2, C.MQCFC_LAST)
        first.md.CorrelId = second.md.CorrelId = self.next_id()
        self.put(CONFIG_EVENT_QUEUE, first)
        self.put(CONFIG_EVENT_QUEUE, second)
