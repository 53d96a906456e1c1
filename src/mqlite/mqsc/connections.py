"""DISPLAY CONN (IBM's "display connection information about the applications connected to the
queue manager"): ``DISPLAY CONN(generic-connid) [TYPE(CONN|HANDLE|ALL|*)] [ALL | attributes]
[WHERE(...)]``. A record always shows CONN, EXTCONN and TYPE (a handle's also OBJNAME and
OBJTYPE); ALL, or the attributes named, add the rest. The rows are the queue manager's
(``core.connection_status``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol, runtime_checkable

from mqlite import cmqc
from mqlite.core.connection_status import TYPES
from mqlite.core.errors import MQError
from mqlite.mqsc import display
from mqlite.mqsc.parser import Command, Where

__all__ = ["ConnectionAdmin", "display_conn", "stop_conn"]

_CONN_KEYS = frozenset({"PID", "APPLDESC", "APPLTAG", "APPLTYPE", "ASTATE", "CHANNEL", "CLIENTID", "CONNAME",
                        "CONNOPTS", "USERID", "UOWLOG", "UOWSTDA", "UOWSTTI", "UOWLOGDA", "UOWLOGTI", "URTYPE",
                        "EXTURID", "UOWSTATE"})
_HANDLE_KEYS = frozenset({"OBJNAME", "OBJTYPE", "ASTATE", "HSTATE", "OPENOPTS", "READA", "DEST", "DESTQMGR",
                          "TOPICSTR", "SUBNAME", "SUBID"})
_IDENTITY = {"CONN": ("CONN", "EXTCONN", "TYPE"), "HANDLE": ("CONN", "EXTCONN", "TYPE", "OBJNAME", "OBJTYPE")}

WhereMatch = Callable[[Command, Where, str, Mapping[str, Any]], bool]


@runtime_checkable
class ConnectionAdmin(Protocol):
    def connection_status(self, generic: str, status_type: str) -> list[dict[str, Any]]: ...

    def stop_connection(self, conn_id: str) -> None: ...


def stop_conn(admin: object, cmd: Command) -> list[str]:
    """STOP CONN(connection-identifier): the connection is broken, its unit of work backed out;
    its application's next call fails with 2009. The queue manager's own connections stay."""
    if not isinstance(admin, ConnectionAdmin):
        raise MQError(cmqc.MQRC_FUNCTION_NOT_SUPPORTED, "STOP CONN is not supported here")
    if not cmd.name or "*" in cmd.name:
        raise cmd.error("STOP CONN needs one connection identifier", "CONN")
    if cmd.attrs:
        raise cmd.error(f"{next(iter(cmd.attrs))} is not a STOP CONN parameter", next(iter(cmd.attrs)))
    admin.stop_connection(cmd.name)
    return [display.done_message("STOP", "CONN")]


def display_conn(admin: object, cmd: Command, where_match: WhereMatch) -> list[str]:
    if not isinstance(admin, ConnectionAdmin):
        raise MQError(cmqc.MQRC_FUNCTION_NOT_SUPPORTED, "DISPLAY CONN is not supported here")
    status_type = str(cmd.options.get("TYPE", "CONN")).upper()
    if status_type not in (*TYPES, "*"):
        raise cmd.error("TYPE must be CONN, HANDLE, ALL or *", "TYPE")
    keys = []
    for keyword, value in cmd.attrs.items():
        if value is not True:
            raise cmd.error(f"{keyword} takes no value on DISPLAY", keyword)
        if keyword not in _CONN_KEYS | _HANDLE_KEYS:
            raise cmd.error(f"{keyword} is not a connection or handle attribute", keyword)
        keys.append(keyword)
    where = cmd.where
    if where is not None and where.keyword not in _CONN_KEYS | _HANDLE_KEYS | {"CONN"}:
        raise cmd.error(f"{where.keyword} cannot filter DISPLAY CONN", "WHERE")
    out: list[str] = []
    for row in admin.connection_status(cmd.name or "*", status_type):
        if where is not None and not where_match(cmd, where, where.keyword, row):
            continue
        identity = _IDENTITY[row["TYPE"]]
        chosen = [k for k in row if k not in identity] if "ALL" in cmd.flags else keys
        out.extend(display.record("CONN", row, identity, [k for k in chosen if k in row]))
    return out
