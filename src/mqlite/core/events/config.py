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


class ConfigEvents:
    """Puts configuration events while CONFIGEV is ENABLED. ``user`` and ``origin``: who the
    change runs as and how it came (``acting``: the checked admin before each command, MQSET)."""

    def __init__(self, qmgr_name: str, qmgr_attrs: dict[str, Any], put: Callable[[str, Message], bool],
                 next_id: Callable[[], bytes], clock: Callable[[], float]) -> None:
        self.qmgr_name = qmgr_name
        self.qmgr_attrs = qmgr_attrs
        self.put = put
        self.next_id = next_id
        self.clock = clock
        self.user = "mqm"
        self.origin = C.MQEVO_CONSOLE

    def acting(self, user: str, origin: int = C.MQEVO_CONSOLE) -> None:
        self.user, self.origin = user, origin

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

    def changed(self, objtype: str, name: str, before: Mapping[str, Any], after: Mapping[str, Any]) -> None:
        """Two messages, one CorrelId: the object before the change, then after it."""
        first = self._message(objtype, name, before, C.MQRC_CONFIG_CHANGE_OBJECT, 1, C.MQCFC_NOT_LAST)
        second = self._message(objtype, name, after, C.MQRC_CONFIG_CHANGE_OBJECT, 2, C.MQCFC_LAST)
        first.md.CorrelId = second.md.CorrelId = self.next_id()
        self.put(CONFIG_EVENT_QUEUE, first)
        self.put(CONFIG_EVENT_QUEUE, second)
