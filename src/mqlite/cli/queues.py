"""The few queue operations the commands need, written once over the client's pymqi-style API.

Commands speak in ``mqlite.message.Message`` (descriptor, body, properties); this module
turns those into the client's MD/PMO/GMO structures and back, so the commands (and the
dmpmqmsg file codec) do not depend on the client's structure classes.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from mqlite.client.structs import core_descriptor
from mqlite.message import MD_FIELDS, Message

if TYPE_CHECKING:
    from mqlite.client.pymqi_api import Queue, QueueManager

MQRC_NO_MSG_AVAILABLE = 2033


def open_queue(qm: QueueManager, name: str, *, output: bool = False, input: bool = False,
               browse: bool = False, inquire: bool = False, set_all_context: bool = False,
               target_qmgr: str = "") -> Queue:
    """Open ``name`` with just the options asked for (and fail-if-quiescing, as samples do)."""
    from mqlite import cmqc
    from mqlite.client import public as mqlite

    options = cmqc.MQOO_FAIL_IF_QUIESCING
    if output:
        options |= cmqc.MQOO_OUTPUT
    if input:
        options |= cmqc.MQOO_INPUT_AS_Q_DEF
    if browse:
        options |= cmqc.MQOO_BROWSE
    if inquire:
        options |= cmqc.MQOO_INQUIRE
    if set_all_context:
        options |= cmqc.MQOO_SET_ALL_CONTEXT
    if target_qmgr:  # a queue of another queue manager, reached through a transmission queue
        return mqlite.Queue(qm, mqlite.OD(ObjectName=name.encode(), ObjectQMgrName=target_qmgr.encode()), options)
    return mqlite.Queue(qm, name, options)


def close(q: Queue) -> None:
    q.close()


def put_text(q: Queue, body: bytes, persistent: bool | None = None) -> None:
    """Put one text line as amqsput does: Format MQSTR, other fields defaulted (persistence
    as the queue's DEFPSIST unless ``persistent`` says)."""
    from mqlite import cmqc
    from mqlite.client import public as mqlite

    persistence = cmqc.MQPER_PERSISTENCE_AS_Q_DEF if persistent is None else int(persistent)
    q.put(body, mqlite.MD(Format=cmqc.MQFMT_STRING, Persistence=persistence))


def put_message(q: Queue, message: Message, *, set_all_context: bool = False,
                syncpoint: bool = False) -> None:
    """Put ``message`` keeping its descriptor: ids, format, priority, persistence, expiry...

    With ``set_all_context`` the identity and origin context (user, put date/time, put
    application) are kept too; the queue must have been opened with MQOO_SET_ALL_CONTEXT.
    """
    from mqlite import cmqc
    from mqlite.client import public as mqlite

    md = mqlite.MD(**{name: getattr(message.md, name) for name in MD_FIELDS})
    options = cmqc.MQPMO_FAIL_IF_QUIESCING | (
        cmqc.MQPMO_SYNCPOINT if syncpoint else cmqc.MQPMO_NO_SYNCPOINT
    )
    if set_all_context:
        options |= cmqc.MQPMO_SET_ALL_CONTEXT
    pmo = mqlite.PMO(Options=options)
    q.put(message.body, md, pmo, properties=dict(message.properties))


def get(q: Queue, *, wait: float | None = None, browse_next: bool = False,
        syncpoint: bool = False) -> Message | None:
    """The next message (removed, or browsed), or None when none came within ``wait`` seconds."""
    from mqlite import cmqc
    from mqlite.client import MQMIError
    from mqlite.client import public as mqlite

    options = cmqc.MQGMO_FAIL_IF_QUIESCING | (
        cmqc.MQGMO_SYNCPOINT if syncpoint else cmqc.MQGMO_NO_SYNCPOINT
    )
    if browse_next:
        options |= cmqc.MQGMO_BROWSE_NEXT
    wait_ms = 0
    if wait:
        options |= cmqc.MQGMO_WAIT
        wait_ms = int(wait * 1000)
    md = mqlite.MD()
    gmo = mqlite.GMO(Options=options, WaitInterval=wait_ms)
    try:
        body = q.get(None, md, gmo)
    except MQMIError as e:
        if e.reason == MQRC_NO_MSG_AVAILABLE:
            return None
        raise
    return Message(core_descriptor(md), bytes(body), dict(getattr(body, "properties", {}) or {}))


def browse_all(q: Queue) -> Iterator[Message]:
    """Every message on the queue, in get order, left in place."""
    while (message := get(q, browse_next=True)) is not None:
        yield message


def current_depth(q: Queue) -> int | None:
    """CURDEPTH, when the queue was opened for inquire and the client can ask; else None.

    Only for the progress bar's total, so any failure just means "unknown".
    """
    from mqlite import cmqc

    try:
        depth = q.inquire(cmqc.MQIA_CURRENT_Q_DEPTH)
    except Exception:
        return None
    return depth if isinstance(depth, int) else None
