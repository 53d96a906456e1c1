"""DISPLAY CONN's records: each connection of the queue manager (TYPE(CONN)) and each object it
has open (TYPE(HANDLE)), as IBM's runmqsc shows them. Pure: the caller passes the connections,
the queue manager's name and which handles have an MQGET waiting.

CONN is the connection's 16-hex-digit id (IBM: the last eight bytes of its 24-byte ConnectionId)
and EXTCONN the first sixteen bytes, ``AMQC`` and the queue manager's name, in hex. A unit of
work's start (UOWSTDA, UOWSTTI) is its first put or get under syncpoint; mqlite has no recovery
log, so UOWLOG and its dates stay blank, no XA transaction manager, so EXTURID is empty, and no
queue-manager unit-of-work ids or thread ids (QMURID, TID are not shown).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from mqlite import cmqc as C
from mqlite.core import attributes
from mqlite.core.errors import MQError
from mqlite.core.handles import Connection, Handle

__all__ = ["TYPES", "connection_rows", "extconn"]

TYPES = ("CONN", "HANDLE", "ALL")

_OPEN_OPTIONS = tuple((name, int(getattr(C, name))) for name in (  # the names OPENOPTS lists, in IBM's order
    "MQOO_INPUT_AS_Q_DEF", "MQOO_INPUT_SHARED", "MQOO_INPUT_EXCLUSIVE", "MQOO_BROWSE", "MQOO_OUTPUT",
    "MQOO_INQUIRE", "MQOO_SET", "MQOO_BIND_ON_OPEN", "MQOO_BIND_NOT_FIXED", "MQOO_BIND_ON_GROUP",
    "MQOO_SAVE_ALL_CONTEXT", "MQOO_PASS_IDENTITY_CONTEXT", "MQOO_PASS_ALL_CONTEXT", "MQOO_SET_IDENTITY_CONTEXT",
    "MQOO_SET_ALL_CONTEXT", "MQOO_ALTERNATE_USER_AUTHORITY", "MQOO_FAIL_IF_QUIESCING"))


def extconn(qmgr: str) -> str:
    """The first sixteen bytes of every ConnectionId of queue manager ``qmgr``, in hex."""
    return (b"AMQC" + qmgr.encode()[:12].ljust(12)).hex().upper()


def connection_rows(connections: Iterable[Connection], qmgr: str, generic: str, status_type: str,
                    waiting: set[tuple[str, int]] | None = None) -> list[dict[str, Any]]:
    """The records of the connections whose CONN matches ``generic``; ``waiting`` holds the
    (connection id, Hobj) pairs with an MQGET waiting (HSTATE(ACTIVE))."""
    status_type = status_type.upper()
    if status_type == "*":
        status_type = "ALL"
    if status_type not in TYPES:
        raise MQError(C.MQRCCF_PARM_SYNTAX_ERROR, "TYPE must be CONN, HANDLE or ALL")
    matched = [conn for conn in sorted(connections, key=lambda c: c.conn_id)
               if conn.connected and attributes.generic_match(generic.upper(), conn.conn_id)]
    if not matched and "*" not in generic:
        raise MQError(C.MQRC_UNKNOWN_OBJECT_NAME, f"connection {generic} not found")
    ext = extconn(qmgr)
    rows: list[dict[str, Any]] = []
    for conn in matched:
        if status_type in ("CONN", "ALL"):
            rows.append(_conn_row(conn, ext))
        if status_type in ("HANDLE", "ALL"):
            rows.extend(_handle_row(conn, ext, handle, waiting or set()) for handle in _by_hobj(conn))
    return rows


def _conn_row(conn: Connection, ext: str) -> dict[str, Any]:
    uow = conn.uow
    started = uow.started if uow else 0.0
    date, time = attributes.date_and_time(started) if started else ("", "")
    return {
        "CONN": conn.conn_id, "EXTCONN": ext, "TYPE": "CONN", "PID": conn.pid,
        "APPLDESC": "", "APPLTAG": conn.appl_name, "APPLTYPE": "SYSTEM" if conn.system else "USER",
        "ASTATE": "NONE", "CHANNEL": conn.channel, "CLIENTID": "", "CONNAME": conn.conname,
        "CONNOPTS": ["MQCNO_HANDLE_SHARE_BLOCK", "MQCNO_SHARED_BINDING"] if conn.channel else ["MQCNO_SHARED_BINDING"],
        "USERID": conn.user, "UOWLOG": "", "UOWSTDA": date, "UOWSTTI": time, "UOWLOGDA": "", "UOWLOGTI": "",
        "URTYPE": "QMGR", "EXTURID": "XA_FORMATID[] XA_GTRID[] XA_BQUAL[]", "UOWSTATE": "ACTIVE" if uow else "NONE",
    }


def _by_hobj(conn: Connection) -> list[Handle]:
    return [conn.handles[hobj] for hobj in sorted(conn.handles)]


def _handle_row(conn: Connection, ext: str, handle: Handle, waiting: set[tuple[str, int]]) -> dict[str, Any]:
    if handle.topic is not None:
        objtype, objname = "TOPIC", handle.opened_as
    elif handle.queue is None:
        objtype, objname = "QMGR", ""
    else:
        objtype, objname = "QUEUE", handle.opened_as
    return {
        "CONN": conn.conn_id, "EXTCONN": ext, "TYPE": "HANDLE", "OBJNAME": objname, "OBJTYPE": objtype,
        "ASTATE": "NONE", "HSTATE": "ACTIVE" if (conn.conn_id, handle.hobj) in waiting else "INACTIVE",
        "OPENOPTS": [name for name, bit in _OPEN_OPTIONS if handle.options & bit],
        "READA": "YES" if handle.read_ahead else "NO",
        "DEST": handle.xmitq_for[0] if handle.xmitq_for else "",
        "DESTQMGR": handle.xmitq_for[1] if handle.xmitq_for else "",
        "TOPICSTR": handle.topic_string, "SUBNAME": "", "SUBID": "",
    }
