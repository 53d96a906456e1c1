"""What the console's pages show, gathered through the client as the caller (``access``): each
function connects to a queue manager with the caller's user and password and runs DISPLAY
commands, so the queue manager's own authority checks decide what a user sees."""

from __future__ import annotations

import contextlib
from typing import Any

from mqlite import cmqc
from mqlite.client import MQMIError
from mqlite.client.event_text import format_event
from mqlite.client.pymqi_api import Queue
from mqlite.client.structs import GMO, MD, core_descriptor
from mqlite.message import Message
from mqlite.web import access
from mqlite.web.access import Caller
from mqlite.web.admin import run_display
from mqlite.web.console.network import QmgrView
from mqlite.web.errors import RestError
from mqlite.web.mqsc_text import quote

BROWSE_LIMIT = 50
EVENT_QUEUES = ("SYSTEM.ADMIN.QMGR.EVENT", "SYSTEM.ADMIN.PERFM.EVENT", "SYSTEM.ADMIN.CHANNEL.EVENT",
                "SYSTEM.ADMIN.CONFIG.EVENT")
EVENT_LIMIT = 100  # the last ones of each queue are shown


def qmgrs() -> list[tuple[str, bool]]:
    return [(name, access.running(name)) for name in access.qmgr_names()]


def displays(qmgr: str, caller: Caller, commands: list[str]) -> list[list[dict[str, str]]]:
    with access.connected(qmgr, caller) as qm:
        return [run_display(qm, command, qmgr, caller.user) for command in commands]


def queues(qmgr: str, caller: Caller, pattern: str = "*") -> list[dict[str, str]]:
    (found,) = displays(qmgr, caller, [f"DISPLAY QUEUE({quote(pattern, True)}) TYPE CURDEPTH MAXDEPTH DESCR"])
    return found


def queue(qmgr: str, caller: Caller, name: str) -> tuple[dict[str, str], list[dict[str, Any]]]:
    """A queue's attributes and its first BROWSE_LIMIT messages (browsed: none is taken)."""
    with access.connected(qmgr, caller) as qm:
        records = run_display(qm, f"DISPLAY QUEUE({quote(name, True)}) ALL", qmgr, caller.user, missing_ok=False,
                              name=name)
        record = records[0] if records else {}
        messages: list[dict[str, Any]] = []
        if record.get("TYPE") == "QLOCAL":
            messages = _browse(qm, name)
    return record, messages


def _browse(qm: Any, name: str) -> list[dict[str, Any]]:
    try:
        handle = Queue(qm, name, cmqc.MQOO_BROWSE | cmqc.MQOO_FAIL_IF_QUIESCING)
    except MQMIError as e:
        if e.reason == 2035:
            return []
        raise
    found: list[dict[str, Any]] = []
    try:
        option = cmqc.MQGMO_BROWSE_FIRST
        while len(found) < BROWSE_LIMIT:
            md = MD()
            gmo = GMO(Options=option | cmqc.MQGMO_NO_WAIT | cmqc.MQGMO_ACCEPT_TRUNCATED_MSG)
            try:
                body = bytes(handle.get(4096, md, gmo))
            except MQMIError as e:
                if e.reason == cmqc.MQRC_TRUNCATED_MSG_ACCEPTED:
                    body = b""
                elif e.reason == cmqc.MQRC_NO_MSG_AVAILABLE:
                    break
                else:
                    raise
            option = cmqc.MQGMO_BROWSE_NEXT
            found.append({"msgid": bytes(md.MsgId).hex(), "format": _text(md.Format), "put": _text(md.PutDate) + " " +
                          _text(md.PutTime), "persistent": md.Persistence == cmqc.MQPER_PERSISTENT,
                          "body": body[:200].decode("utf-8", "replace")})
    finally:
        with contextlib.suppress(MQMIError, OSError):
            handle.close()
    return found


def _text(value: Any) -> str:
    return value.decode("ascii", "replace").strip() if isinstance(value, bytes) else str(value).strip()


def network_views(caller: Caller) -> list[QmgrView]:
    views = []
    for name, running in qmgrs():
        view = QmgrView(name, running, reachable=running)
        if running:
            try:
                view.channels, view.chstatus, view.clusqmgrs = displays(name, caller, [
                    "DISPLAY CHANNEL(*) CHLTYPE CONNAME XMITQ", "DISPLAY CHSTATUS(*) STATUS RQMNAME",
                    "DISPLAY CLUSQMGR(*) CLUSTER STATUS QMTYPE"])
            except RestError:
                view.reachable = False
        views.append(view)
    return views


def events(qmgr: str, caller: Caller) -> dict[str, list[str]]:
    """Each event queue's messages (browsed, the event queues keep them) as amqsevt prints them,
    the newest EVENT_LIMIT; a queue the caller may not browse, or that is missing, is left out."""
    shown: dict[str, list[str]] = {}
    with access.connected(qmgr, caller) as qm:
        for name in EVENT_QUEUES:
            try:
                handle = Queue(qm, name, cmqc.MQOO_BROWSE | cmqc.MQOO_FAIL_IF_QUIESCING)
            except MQMIError:
                continue
            texts: list[str] = []
            try:
                option = cmqc.MQGMO_BROWSE_FIRST
                while True:
                    md = MD()
                    try:
                        body = bytes(handle.get(None, md, GMO(Options=option | cmqc.MQGMO_NO_WAIT)))
                    except MQMIError as e:
                        if e.reason == cmqc.MQRC_NO_MSG_AVAILABLE:
                            break
                        raise
                    option = cmqc.MQGMO_BROWSE_NEXT
                    texts.append(format_event(Message(core_descriptor(md), body), len(texts) + 1, name))
            finally:
                with contextlib.suppress(MQMIError, OSError):
                    handle.close()
            shown[name] = texts[-EVENT_LIMIT:]
    return shown
