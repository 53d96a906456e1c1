"""MQPUT to a queue: checks, the MQMD completed as MQPUT completes it, the duplicate-MsgId window.

The publishing path (``pubsub.publish``) shares ``complete_md`` and ``duplicate`` with it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from mqlite import cmqc as C
from mqlite.core.dedupe import DuplicateWindow
from mqlite.core.errors import MQError
from mqlite.core.handles import Connection, Handle
from mqlite.core.outbox import MessageIds, Outbox
from mqlite.core.queues import AVAILABLE, UNCOMMITTED, LocalQueue, expiry_deadline
from mqlite.message import NOT_FIXED_PROPERTY, NULL_ID, Message, MessageDescriptor, Properties, put_date_time

_CONTEXT_SET: Final = C.MQPMO_SET_IDENTITY_CONTEXT | C.MQPMO_SET_ALL_CONTEXT
_CONTEXT_PASS: Final = C.MQPMO_PASS_IDENTITY_CONTEXT | C.MQPMO_PASS_ALL_CONTEXT
MQAT_UNIX: Final = 6


class Puts:
    """Putting messages on local queues, outside or inside a unit of work."""

    qmgr_events: Any = None  # core.events.qmgr_events.QueueManagerEvents: Put Inhibited (set by the facade)

    def __init__(self, qmgr_name: str, qmgr_attrs: dict[str, Any], deliver: Callable[[LocalQueue], None],
                 outbox: Outbox, ids: MessageIds, clock: Callable[[], float]) -> None:
        self.qmgr_name = qmgr_name
        self.qmgr_attrs = qmgr_attrs
        self.deliver = deliver
        self.outbox = outbox
        self.next_id = ids.next_id
        self.clock = clock
        self.duplicates: DuplicateWindow | None = None  # qm.ini Mqlite: DuplicateWindow=SECONDS

    def put(
        self, conn: Connection, handle: Handle, queue: LocalQueue, md: MessageDescriptor,
        options: int, properties: Properties, body: bytes,
    ) -> MessageDescriptor:
        """MQPUT of one message to ``queue`` (what ``handle`` resolved to)."""
        conn.warning = 0
        if (options & C.MQPMO_SYNCPOINT) and (options & C.MQPMO_NO_SYNCPOINT):
            raise MQError(C.MQRC_OPTIONS_ERROR, "both MQPMO_SYNCPOINT and MQPMO_NO_SYNCPOINT")
        if queue.deleted:
            raise MQError(C.MQRC_Q_DELETED, f"queue {queue.name} was deleted")
        if options & C.MQPMO_SET_ALL_CONTEXT and not handle.options & C.MQOO_SET_ALL_CONTEXT:
            raise MQError(C.MQRC_NOT_OPEN_FOR_SET_ALL, "MQPMO_SET_ALL_CONTEXT needs MQOO_SET_ALL_CONTEXT")
        if options & C.MQPMO_SET_IDENTITY_CONTEXT and not handle.options & (
            C.MQOO_SET_IDENTITY_CONTEXT | C.MQOO_SET_ALL_CONTEXT
        ):
            raise MQError(C.MQRC_NOT_OPEN_FOR_SET_IDENT, "MQPMO_SET_IDENTITY_CONTEXT needs MQOO_SET_IDENTITY_CONTEXT")
        attrs = queue.attrs
        defining = handle.alias_attrs or attrs
        if attrs.get("PUT") == "DISABLED" or defining.get("PUT") == "DISABLED":
            if self.qmgr_events is not None:  # (only on the failure: the put path pays nothing)
                self.qmgr_events.inhibited(conn, C.MQRC_PUT_INHIBITED, handle.opened_as,
                                           handle.xmitq_for[1] if handle.xmitq_for else "")
            raise MQError(C.MQRC_PUT_INHIBITED, f"puts to {handle.opened_as} are inhibited")
        now = self.clock()
        if self.duplicates is not None and self.duplicate(conn, queue.name, md, options, now):
            return md  # accepted and dropped: this MsgId was committed here within the window
        md = self.complete_md(conn, md, options, defining, now)
        if handle.xmitq_for is not None:
            from mqlite.protocol import xqh

            body = xqh.wrap(handle.xmitq_for[0], handle.xmitq_for[1], md, body)
            md = md.copy()
            md.Format = xqh.FORMAT_XMIT_Q_HEADER
            if handle.xmit_correl is not None:  # a cluster transmission queue: the channel's own
                md.CorrelId = handle.xmit_correl
                if handle.xmit_not_fixed:  # kept with the message: it may be reallocated while it waits
                    properties = {**properties, NOT_FIXED_PROPERTY: True}
        length = len(body)
        if length > int(self.qmgr_attrs.get("MAXMSGL", 4194304)):
            raise MQError(C.MQRC_MSG_TOO_BIG_FOR_Q_MGR, f"{length} bytes exceed the queue manager's MAXMSGL")
        if length > queue.max_msgl:
            raise MQError(C.MQRC_MSG_TOO_BIG_FOR_Q, f"{length} bytes exceed MAXMSGL of {queue.name}")
        if queue.depth >= queue.max_depth:
            if queue.watch.events is not None:
                queue.watch.events.on_full(queue)
            raise MQError(C.MQRC_Q_FULL, f"queue {queue.name} is full")
        persistent = md.Persistence == C.MQPER_PERSISTENT
        if persistent and queue.dynamic == "TEMPDYN":
            raise MQError(C.MQRC_PERSISTENT_NOT_ALLOWED, f"{queue.name} is a temporary dynamic queue")
        syncpoint = bool(options & C.MQPMO_SYNCPOINT)
        if syncpoint and len(conn.uow) >= int(self.qmgr_attrs.get("MAXUMSGS", 10000)):
            raise MQError(C.MQRC_SYNCPOINT_LIMIT_REACHED, "too many messages in the unit of work")
        message = Message(md, body, properties)
        entry = queue.add(message, expiry_deadline(md.Expiry, now), UNCOMMITTED if syncpoint else AVAILABLE)
        stats = queue.watch.stats  # statistics (core.statistics): None unless a reader collects them
        if stats is not None:
            stats.put(persistent, length, queue.depth)
        if syncpoint:
            conn.uow.add_put(queue, entry, now)
        else:
            if persistent:
                self.outbox.persist_put(queue, entry, message)
            if queue.waiters or queue.read_ahead:
                self.deliver(queue)
        return md

    def duplicate(self, conn: Connection, target: str, md: MessageDescriptor, options: int, now: float) -> bool:
        """With a duplicate window, is this application-given MsgId one already committed to
        ``target``? If not, remember it once the put is final (at once, or at commit)."""
        window = self.duplicates
        if window is None or md.MsgId == NULL_ID or options & C.MQPMO_NEW_MSG_ID:
            return False
        if window.seen(target, md.MsgId, now):
            return True
        msg_id = md.MsgId
        if options & C.MQPMO_SYNCPOINT:
            clock = self.clock
            conn.uow.after_commit.append(lambda: window.record(target, msg_id, clock()))
        else:
            window.record(target, msg_id, now)
        return False

    def complete_md(
        self, conn: Connection, md: MessageDescriptor, options: int, defining: dict[str, Any], now: float
    ) -> MessageDescriptor:
        """Resolve AS_Q_DEF values, generate ids and set the context, as MQPUT does."""
        if md.Persistence == C.MQPER_PERSISTENCE_AS_Q_DEF:
            md.Persistence = C.MQPER_PERSISTENT if defining.get("DEFPSIST") == "YES" else C.MQPER_NOT_PERSISTENT
        elif md.Persistence not in (C.MQPER_PERSISTENT, C.MQPER_NOT_PERSISTENT):
            raise MQError(C.MQRC_PERSISTENCE_ERROR, f"Persistence {md.Persistence}")
        if md.Priority == C.MQPRI_PRIORITY_AS_Q_DEF:
            md.Priority = int(defining.get("DEFPRTY", 0))
        elif md.Priority < 0:
            raise MQError(C.MQRC_PRIORITY_ERROR, f"Priority {md.Priority}")
        elif md.Priority > 9:  # kept as given, delivered as MAXPRTY (9), and the caller is warned
            conn.warning = C.MQRC_PRIORITY_EXCEEDS_MAXIMUM
        if md.Expiry <= 0 and md.Expiry != C.MQEI_UNLIMITED:
            raise MQError(C.MQRC_EXPIRY_ERROR, f"Expiry {md.Expiry}")
        if options & C.MQPMO_NEW_MSG_ID or md.MsgId == NULL_ID:
            md.MsgId = self.next_id()
        if options & C.MQPMO_NEW_CORREL_ID:
            md.CorrelId = self.next_id()
        if md.ReplyToQ and not md.ReplyToQMgr:
            md.ReplyToQMgr = self.qmgr_name
        if options & C.MQPMO_NO_CONTEXT:
            md.UserIdentifier = md.ApplIdentityData = md.PutApplName = md.ApplOriginData = ""
            md.AccountingToken = bytes(32)
            md.PutApplType = 0
            md.PutDate = md.PutTime = ""
        elif not options & (_CONTEXT_SET | _CONTEXT_PASS):
            md.UserIdentifier = conn.user[:12]
            md.ApplIdentityData = ""
            md.PutApplType = MQAT_UNIX
            md.PutApplName = conn.appl_name
            md.ApplOriginData = ""
            md.PutDate, md.PutTime = put_date_time(now)
        elif not options & C.MQPMO_SET_ALL_CONTEXT:
            md.PutApplType = MQAT_UNIX
            md.PutApplName = conn.appl_name
            md.PutDate, md.PutTime = put_date_time(now)
        return md
