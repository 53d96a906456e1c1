"""The queue manager engine: connections, handles and the MQI calls, without I/O.

The server drives it with calls and performs what it asks for afterwards
(``take_effects``): store transactions, replies to waiting getters, read-ahead pushes.
Administration (DEFINE/ALTER/DELETE/DISPLAY) lives in ``admin.AdminMixin``, MQGET and the
delivery of messages to waiting getters and read-ahead consumers in ``mqget.GetMixin``.
"""

from __future__ import annotations

import itertools
import struct
import time
from collections.abc import Callable
from typing import Any, cast

from mqlite import cmqc as C
from mqlite.core import dead_letter
from mqlite.core.admin import AdminMixin
from mqlite.core.channels import ChannelsMixin
from mqlite.core.dedupe import DuplicateWindow
from mqlite.core.descriptors import check_object_descriptor
from mqlite.core.errors import MQError
from mqlite.core.handles import INPUT_OPTIONS, Connection, Effects, GetResult, Handle, TruncatedError
from mqlite.core.mqget import GetMixin
from mqlite.core.pubsub.admin import PubSubAdminMixin
from mqlite.core.pubsub.engine import PubSubMixin
from mqlite.core.queues import (
    AVAILABLE,
    LOCKED,
    UNCOMMITTED,
    Entry,
    LocalQueue,
    MessageReader,
    expiry_deadline,
)
from mqlite.core.ranges import RangeMixin
from mqlite.core.waiters import Waiter
from mqlite.message import (
    NULL_ID,
    Message,
    MessageDescriptor,
    Properties,
    put_date_time,
)
from mqlite.store.tx import StoreTx

_CONTEXT_SET = C.MQPMO_SET_IDENTITY_CONTEXT | C.MQPMO_SET_ALL_CONTEXT
_CONTEXT_PASS = C.MQPMO_PASS_IDENTITY_CONTEXT | C.MQPMO_PASS_ALL_CONTEXT
MQAT_UNIX = 6


class QueueManager(PubSubMixin, PubSubAdminMixin, RangeMixin, ChannelsMixin, AdminMixin, GetMixin):
    """One queue manager's state and MQI; see the module docstring."""

    def __init__(
        self,
        name: str,
        reader: MessageReader | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        super().__init__()
        self.name = name
        self.reader = reader
        self.clock = clock
        self.connections: dict[str, Connection] = {}
        self._conn_ids = itertools.count(1)
        self._tx = StoreTx()
        self._effects = Effects()
        self._msgid_counter = time.time_ns() // 1000
        self._msgid_prefix = b"AMQ " + name.encode()[:12].ljust(12, b" ")
        self.quiescing = False
        self.waiting: set[Waiter] = set()
        self.duplicates: DuplicateWindow | None = None  # qm.ini Mqlite: DuplicateWindow=SECONDS

    # -- effects -----------------------------------------------------------------------
    def take_effects(self) -> Effects:
        effects = self._effects
        if not self._tx and not effects.completions and not effects.pushes:
            return effects  # nothing happened: reuse the empty one
        if self._tx:
            effects.tx = self._tx
            self._tx = StoreTx()
        self._effects = Effects()
        return effects

    def take_deliveries(self) -> tuple[list[tuple[Waiter, GetResult | MQError]], list[tuple[Connection, int, Message]]]:
        """The wake-ups and read-ahead messages so far, leaving the store changes for ``take_effects``."""
        effects = self._effects
        completions, pushes = effects.completions, effects.pushes
        if completions or pushes:
            effects.completions, effects.pushes = [], []
        return completions, pushes

    def on_durable(self, tx: StoreTx) -> None:
        """The store made ``tx`` durable: its persistent bodies may now leave memory."""
        touched: set[LocalQueue] = set()
        for item in tx.after_durable:
            queue, entry = cast("tuple[LocalQueue, Entry]", item)
            queue.made_durable(entry)
            touched.add(queue)
        for queue in touched:
            queue.evict()

    def _persist_put(self, queue: LocalQueue, entry: Entry, message: Message) -> None:
        self._tx.put_message(queue.name, entry.seq, message, entry.expiry_at)
        self._tx.after_durable.append((queue, entry))

    # -- connections -------------------------------------------------------------------
    def connect(self, user: str, appl_name: str = "", pid: int = 0) -> Connection:
        if self.quiescing:
            raise MQError(C.MQRC_Q_MGR_QUIESCING, "the queue manager is ending")
        conn_id = f"{next(self._conn_ids):016X}"
        conn = Connection(conn_id, user, appl_name[:28], pid)
        self.connections[conn_id] = conn
        return conn

    def disconnect(self, conn: Connection, commit: bool = True) -> None:
        """MQDISC commits (normal end); a broken connection backs out."""
        if not conn.connected:
            return
        if conn.uow and commit:
            self.commit(conn)
        elif conn.uow:
            self.backout(conn)
        for hsub in list(conn.subscriptions):  # non-durable ones end, durable ones are kept
            self.close(conn, hsub, 0)
        for hobj in list(conn.handles):
            handle = conn.handles.get(hobj)
            if handle is None:
                continue
            try:
                self.close(conn, hobj, 0)
            except MQError:
                self._drop_handle(conn, handle)
        conn.connected = False
        self.connections.pop(conn.conn_id, None)
        if self.publish_exit is not None:
            self.publish_exit.end(conn.conn_id)

    def _handle(self, conn: Connection, hobj: int) -> Handle:
        handle = conn.handles.get(hobj)
        if handle is None:
            raise MQError(C.MQRC_HOBJ_ERROR, f"object handle {hobj} is not open")
        return handle

    # -- MQOPEN / MQCLOSE --------------------------------------------------------------
    def open(self, conn: Connection, od: dict[str, Any], options: int) -> Handle:
        check_object_descriptor(od)
        object_type = int(od.get("ObjectType", C.MQOT_Q))
        name = str(od.get("ObjectName", "")).strip()
        qmgr_name = str(od.get("ObjectQMgrName", "")).strip()
        inputs = options & INPUT_OPTIONS
        if inputs & (inputs - 1):
            raise MQError(C.MQRC_OPTIONS_ERROR, "more than one MQOO_INPUT_* option")
        if not options & (INPUT_OPTIONS | C.MQOO_BROWSE | C.MQOO_OUTPUT | C.MQOO_INQUIRE | C.MQOO_SET):
            raise MQError(C.MQRC_OPTIONS_ERROR, "no access option given")
        hobj = conn.next_hobj
        if object_type == C.MQOT_Q_MGR:
            if options & (INPUT_OPTIONS | C.MQOO_BROWSE | C.MQOO_OUTPUT | C.MQOO_SET):
                raise MQError(C.MQRC_OPTION_NOT_VALID_FOR_TYPE, "the queue manager opens for inquire")
            handle = Handle(hobj, self.name, self.name, options, None)
        elif object_type == C.MQOT_Q:
            handle = self._open_queue(hobj, name, qmgr_name, options, od)
        elif object_type == C.MQOT_TOPIC:
            handle = self._open_topic(hobj, od, options)
        else:
            raise MQError(C.MQRC_OBJECT_TYPE_ERROR, f"object type {object_type}")
        conn.next_hobj += 1
        handle.conn = conn
        conn.handles[hobj] = handle
        return handle

    def _open_queue(
        self, hobj: int, name: str, qmgr_name: str, options: int, od: dict[str, Any]
    ) -> Handle:
        if not name:
            raise MQError(C.MQRC_UNKNOWN_OBJECT_NAME, "no queue name given")
        if qmgr_name and qmgr_name != self.name:
            return self._open_via_xmitq(hobj, name, qmgr_name, options)
        definition = self.qdefs.get(name)
        if definition is None:
            raise MQError(C.MQRC_UNKNOWN_OBJECT_NAME, f"queue {name} is not defined")
        qtype, attrs = definition
        alias_attrs = None
        created = False
        if qtype == "QALIAS":
            if attrs.get("TARGTYPE", "QUEUE") == "TOPIC":  # an alias publishes to its topic object
                handle = self._open_topic(hobj, {"ObjectName": attrs.get("TARGET", "")}, options)
                handle.opened_as = name
                return handle
            target = str(attrs.get("TARGET", ""))
            base = self.qdefs.get(target)
            if base is None:
                raise MQError(C.MQRC_UNKNOWN_ALIAS_BASE_Q, f"alias {name} targets unknown {target!r}")
            if base[0] == "QALIAS":
                raise MQError(C.MQRC_ALIAS_BASE_Q_TYPE_ERROR, f"alias {name} targets an alias")
            alias_attrs = attrs
            name, (qtype, attrs) = target, base
        if qtype == "QMODEL":
            name = self._create_dynamic(attrs, str(od.get("DynamicQName") or "AMQ.*"))
            qtype, attrs = self.qdefs[name]
            created = True
        if qtype == "QREMOTE":
            if options & (INPUT_OPTIONS | C.MQOO_BROWSE):
                raise MQError(C.MQRC_OPTION_NOT_VALID_FOR_TYPE, "a remote queue opens for output")
            return self._open_via_xmitq(
                hobj, str(attrs.get("RNAME") or name), str(attrs.get("RQMNAME", "")), options,
                xmitq=str(attrs.get("XMITQ", "")), opened_as=name, remote_attrs=attrs,
            )
        queue = self.queues[name]
        if options & INPUT_OPTIONS and name in self.managed_queues:
            raise MQError(C.MQRC_OBJECT_IN_USE, f"{name} is the managed queue of a subscription")
        handle = Handle(hobj, name, name if alias_attrs is None else str(od.get("ObjectName")),
                        options, queue, alias_attrs=alias_attrs, created_dynamic=created)
        if options & INPUT_OPTIONS:
            self._open_input(queue, handle, options)
        if options & C.MQOO_OUTPUT:
            queue.open_output += 1
        return handle

    def _open_input(self, queue: LocalQueue, handle: Handle, options: int) -> None:
        attrs = queue.attrs
        shareable = bool(attrs.get("SHARE", True))
        if options & C.MQOO_INPUT_EXCLUSIVE:
            exclusive = True
        elif options & C.MQOO_INPUT_SHARED:
            exclusive = not shareable
        else:
            exclusive = attrs.get("DEFSOPT", "SHARED") == "EXCL" or not shareable
        if queue.exclusive_holder is not None or (exclusive and queue.open_input):
            raise MQError(C.MQRC_OBJECT_IN_USE, f"queue {queue.name} is open for exclusive input")
        handle.exclusive = exclusive
        if exclusive:
            queue.exclusive_holder = handle
        queue.open_input += 1
        readahead = str((handle.alias_attrs or attrs).get("DEFREADA", "NO"))
        if readahead != "DISABLED" and not options & C.MQOO_NO_READ_AHEAD:
            handle.read_ahead = bool(options & C.MQOO_READ_AHEAD) or readahead == "YES"

    def _open_via_xmitq(
        self, hobj: int, rname: str, rqmname: str, options: int, xmitq: str = "", opened_as: str = "",
        remote_attrs: dict[str, Any] | None = None,
    ) -> Handle:
        if options & ~(C.MQOO_OUTPUT | C.MQOO_INQUIRE | C.MQOO_FAIL_IF_QUIESCING | _CONTEXT_OPEN_OPTIONS):
            raise MQError(C.MQRC_OPTION_NOT_VALID_FOR_TYPE, "a remote queue opens for output")
        target_qmgr = rqmname or self.name
        xmitq_name = xmitq or target_qmgr
        definition = self.qdefs.get(xmitq_name)
        if definition is None and not xmitq:
            xmitq_name = str(self.attrs.get("DEFXMITQ", ""))
            definition = self.qdefs.get(xmitq_name) if xmitq_name else None
        if definition is None or definition[0] != "QLOCAL":
            if xmitq:
                raise MQError(C.MQRC_UNKNOWN_XMIT_Q, f"transmission queue {xmitq} is not defined")
            raise MQError(C.MQRC_UNKNOWN_REMOTE_Q_MGR, f"no transmission queue for {target_qmgr}")
        if definition[1].get("USAGE") != "XMITQ":
            raise MQError(C.MQRC_XMIT_Q_USAGE_ERROR, f"{xmitq_name} is not USAGE(XMITQ)")
        queue = self.queues[xmitq_name]
        if options & C.MQOO_OUTPUT:
            queue.open_output += 1
        # The first definition on the resolution path (the QREMOTE) gives DEFPSIST and DEFPRTY.
        handle = Handle(hobj, xmitq_name, opened_as or rname, options, queue, alias_attrs=remote_attrs)
        handle.xmitq_for = (rname, target_qmgr)
        return handle

    def _create_dynamic(self, model: dict[str, Any], pattern: str) -> str:
        pattern = pattern.strip()
        if pattern.endswith("*"):
            prefix = pattern[:-1]
            name = f"{prefix}{self._next_id().hex().upper()[-16:]}"[:48]
        else:
            name = pattern
        if not name or len(name) > 48:
            raise MQError(C.MQRC_DYNAMIC_Q_NAME_ERROR, f"dynamic queue name {pattern!r}")
        if name in self.qdefs:
            raise MQError(C.MQRC_OBJECT_ALREADY_EXISTS, f"queue {name} exists")
        attrs = {k: v for k, v in model.items() if k not in ("QUEUE", "TYPE")}
        deftype = str(model.get("DEFTYPE", "TEMPDYN"))
        attrs["DEFTYPE"] = deftype
        queue = self._add_local_queue(name, attrs, persist=deftype == "PERMDYN")
        queue.dynamic = deftype
        return name

    def close(self, conn: Connection, hobj: int, options: int) -> None:
        if hobj in conn.subscriptions:
            self._close_subscription(conn, hobj, options)
            return
        handle = self._handle(conn, hobj)
        if handle.topic is not None:
            self._close_topic(handle)
            conn.handles.pop(hobj, None)
            return
        if handle.managed_for is not None:
            if options & (C.MQCO_DELETE | C.MQCO_DELETE_PURGE):  # spec C R-CLS-7
                raise MQError(C.MQRC_OPTION_NOT_VALID_FOR_TYPE, "a managed queue is deleted by the queue manager")
            self._drop_handle(conn, handle)
            self._close_managed(handle)
            return
        queue = handle.queue
        deleting = options & (C.MQCO_DELETE | C.MQCO_DELETE_PURGE)
        if deleting and (queue is None or not queue.dynamic):
            raise MQError(C.MQRC_OPTION_NOT_VALID_FOR_TYPE, "only dynamic queues are deleted on close")
        purge = options & C.MQCO_DELETE_PURGE
        if queue is not None and queue.dynamic == "PERMDYN" and deleting and queue.depth and not purge:
            raise MQError(C.MQRC_Q_NOT_EMPTY, f"queue {queue.name} is not empty")
        self._drop_handle(conn, handle)
        # A dynamic queue goes with MQCO_DELETE*; a temporary one also with the handle that made it.
        ends = deleting or (queue is not None and queue.dynamic == "TEMPDYN" and handle.created_dynamic)
        if ends and queue is not None and not queue.deleted:
            self._remove_queue(queue.name)

    def _drop_handle(self, conn: Connection, handle: Handle) -> None:
        conn.handles.pop(handle.hobj, None)
        queue = handle.queue
        if queue is None:
            return
        if handle.options & INPUT_OPTIONS and handle.xmitq_for is None:
            queue.open_input -= 1
            if queue.exclusive_holder is handle:
                queue.exclusive_holder = None
        if handle.options & C.MQOO_OUTPUT:
            queue.open_output -= 1
        if queue.waiters:
            for waiter in [w for w in queue.waiters if w.conn is conn and w.hobj == handle.hobj]:
                queue.waiters.remove(waiter)
                self.waiting.discard(waiter)
                waiter.done = True  # its MQGET ends with the handle
                self._effects.completions.append((waiter, MQError(C.MQRC_HOBJ_ERROR, "the handle was closed")))
        if handle in queue.read_ahead:
            queue.read_ahead.remove(handle)

    # -- MQPUT / MQPUT1 ----------------------------------------------------------------
    def put(
        self, conn: Connection, hobj: int, md: MessageDescriptor, options: int,
        properties: Properties, body: bytes, pub_level: int = 9,
    ) -> MessageDescriptor:
        handle = self._handle(conn, hobj)
        if not handle.options & C.MQOO_OUTPUT:
            raise MQError(C.MQRC_NOT_OPEN_FOR_OUTPUT, f"{handle.opened_as} is not open for output")
        if handle.topic is not None:
            return self.publish(conn, handle, md, options, properties, body, pub_level)
        queue = handle.queue
        assert queue is not None
        return self._put(conn, handle, queue, md, options, properties, body)

    def put1(
        self, conn: Connection, od: dict[str, Any], md: MessageDescriptor, options: int,
        properties: Properties, body: bytes, pub_level: int = 9,
    ) -> MessageDescriptor:
        # MQPUT1 opens with what its context options need, as IBM derives them from the PMO.
        open_options = C.MQOO_OUTPUT
        for pmo_option, oo_option in _PUT1_CONTEXT:
            if options & pmo_option:
                open_options |= oo_option
        handle = self.open(conn, od, open_options)
        try:
            return self.put(conn, handle.hobj, md, options, properties, body, pub_level)
        finally:
            self.close(conn, handle.hobj, 0)

    def _put(
        self, conn: Connection, handle: Handle, queue: LocalQueue, md: MessageDescriptor,
        options: int, properties: Properties, body: bytes,
    ) -> MessageDescriptor:
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
            raise MQError(C.MQRC_PUT_INHIBITED, f"puts to {handle.opened_as} are inhibited")
        now = self.clock()
        if self._duplicate(conn, queue.name, md, options, now):
            return md  # accepted and dropped: this MsgId was committed here within the window
        md = self._complete_md(conn, md, options, defining, now)
        if handle.xmitq_for is not None:
            from mqlite.protocol import xqh

            body = xqh.wrap(handle.xmitq_for[0], handle.xmitq_for[1], md, body)
            md = md.copy()
            md.Format = xqh.FORMAT_XMIT_Q_HEADER
        length = len(body)
        if length > int(self.attrs.get("MAXMSGL", 4194304)):
            raise MQError(C.MQRC_MSG_TOO_BIG_FOR_Q_MGR, f"{length} bytes exceed the queue manager's MAXMSGL")
        if length > queue.max_msgl:
            raise MQError(C.MQRC_MSG_TOO_BIG_FOR_Q, f"{length} bytes exceed MAXMSGL of {queue.name}")
        if queue.depth >= queue.max_depth:
            raise MQError(C.MQRC_Q_FULL, f"queue {queue.name} is full")
        persistent = md.Persistence == C.MQPER_PERSISTENT
        if persistent and queue.dynamic == "TEMPDYN":
            raise MQError(C.MQRC_PERSISTENT_NOT_ALLOWED, f"{queue.name} is a temporary dynamic queue")
        syncpoint = bool(options & C.MQPMO_SYNCPOINT)
        if syncpoint and len(conn.uow) >= int(self.attrs.get("MAXUMSGS", 10000)):
            raise MQError(C.MQRC_SYNCPOINT_LIMIT_REACHED, "too many messages in the unit of work")
        message = Message(md, body, properties)
        entry = queue.add(message, expiry_deadline(md.Expiry, now), UNCOMMITTED if syncpoint else AVAILABLE)
        if syncpoint:
            conn.uow.puts.append((queue, entry))
        else:
            if persistent:
                self._persist_put(queue, entry, message)
            if queue.waiters or queue.read_ahead:
                self._deliver(queue)
        return md

    def _duplicate(self, conn: Connection, target: str, md: MessageDescriptor, options: int, now: float) -> bool:
        """With a duplicate window, is this application-given MsgId one already committed to
        ``target``? If not, remember it once the put is final (at once, or at commit)."""
        window = self.duplicates
        if window is None or md.MsgId == NULL_ID or options & C.MQPMO_NEW_MSG_ID:
            return False
        if window.seen(target, md.MsgId, now):
            return True
        msg_id = md.MsgId
        if options & C.MQPMO_SYNCPOINT:
            conn.uow.after_commit.append(lambda: window.record(target, msg_id, self.clock()))
        else:
            window.record(target, msg_id, now)
        return False

    def _complete_md(
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
            md.MsgId = self._next_id()
        if options & C.MQPMO_NEW_CORREL_ID:
            md.CorrelId = self._next_id()
        if md.ReplyToQ and not md.ReplyToQMgr:
            md.ReplyToQMgr = self.name
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

    def _next_id(self) -> bytes:
        self._msgid_counter += 1
        return self._msgid_prefix + struct.pack(">Q", self._msgid_counter)

    # -- syncpoint ---------------------------------------------------------------------
    def commit(self, conn: Connection) -> None:
        puts, gets = conn.uow.take()
        touched: list[LocalQueue] = []
        for queue, entry in puts:
            if entry.state != UNCOMMITTED:
                continue
            queue.commit_put(entry)
            message = entry.message
            if message is not None and message.persistent and queue.dynamic != "TEMPDYN":
                self._persist_put(queue, entry, message)
            if queue not in touched:
                touched.append(queue)
        for queue, entry in gets:
            if entry.state != LOCKED:
                continue
            if entry.persistent:
                self._tx.delete_message(queue.name, entry.seq)
            queue.remove(entry)
        for queue in touched:
            if queue.waiters or queue.read_ahead:
                self._deliver(queue)
        for action in conn.uow.take_after_commit():
            action()

    def backout(self, conn: Connection) -> None:
        conn.uow.take_after_commit()
        puts, gets = conn.uow.take()
        for queue, entry in puts:
            queue.remove(entry)
        touched: list[LocalQueue] = []
        for queue, entry in reversed(gets):
            if entry.state != LOCKED:
                continue
            queue.unlock(entry)
            self._count_backout(queue, entry)
            if queue not in touched:
                touched.append(queue)
        for queue in touched:
            if queue.waiters or queue.read_ahead:
                self._deliver(queue)

    def _count_backout(self, queue: LocalQueue, entry: Entry) -> None:
        message = queue.load(entry)
        md = message.md
        md.BackoutCount += 1
        if message.persistent:
            self._tx.set_backout(queue.name, entry.seq, md.BackoutCount)
        threshold = int(queue.attrs.get("BOTHRESH", 0))
        if threshold <= 0 or md.BackoutCount < threshold:
            return
        # A poisoned message: to BOQNAME; failing that to the dead-letter queue (as IBM's JMS and
        # XMS clients do); failing that it stays where it is.
        boqname = str(queue.attrs.get("BOQNAME", "")).strip()
        target = self.queues.get(boqname) if boqname and boqname != queue.name else None
        if target is not None and self._requeue(queue, entry, message, target):
            return
        deadq = self.queues.get(str(self.attrs.get("DEADQ", "")).strip())
        if deadq is None or deadq is queue:
            return
        wrapped = dead_letter.wrap(message, C.MQRC_BACKOUT_THRESHOLD_REACHED, queue.name, self.name, self.clock())
        self._requeue(queue, entry, wrapped, deadq)

    def _requeue(self, source: LocalQueue, entry: Entry, message: Message, target: LocalQueue) -> bool:
        """Move a message to another local queue (backout requeue, dead letters)."""
        if not self._can_accept(target, message):
            return False
        if message.persistent:
            self._tx.delete_message(source.name, entry.seq)
        source.remove(entry)
        self._enqueue(target, message, entry.expiry_at)
        return True

    @staticmethod
    def _can_accept(queue: LocalQueue, message: Message) -> bool:
        attrs = queue.attrs
        return (
            queue.depth < int(attrs.get("MAXDEPTH", 5000))
            and attrs.get("PUT") != "DISABLED"
            and len(message.body) <= int(attrs.get("MAXMSGL", 4194304))
        )

    def _enqueue(self, queue: LocalQueue, message: Message, expiry_at: float) -> Entry:
        """Put a message the queue manager itself moves (requeue, dead letter), outside syncpoint."""
        entry = queue.add(message, expiry_at, AVAILABLE)
        if message.persistent:
            self._persist_put(queue, entry, message)
        if queue.waiters or queue.read_ahead:
            self._deliver(queue)
        return entry

    def dead_letter(self, message: Message, reason: int, dest_q: str, dest_qmgr: str = "") -> bool:
        """Put an undeliverable message on the dead-letter queue with an MQDLH; False if impossible."""
        deadq = self.queues.get(str(self.attrs.get("DEADQ", "")).strip())
        if deadq is None:
            return False
        wrapped = dead_letter.wrap(message, reason, dest_q, dest_qmgr or self.name, self.clock())
        if not self._can_accept(deadq, wrapped):
            return False
        self._enqueue(deadq, wrapped, 0.0)
        return True

    # -- MQINQ / MQSET -----------------------------------------------------------------
    def inquire(self, conn: Connection, hobj: int, selectors: list[int]) -> list[int | str]:
        from mqlite.core import inquire

        handle = self._handle(conn, hobj)
        if not handle.options & C.MQOO_INQUIRE:
            raise MQError(C.MQRC_NOT_OPEN_FOR_INQUIRE, f"{handle.opened_as} is not open for inquire")
        return inquire.inquire(self.name, self.attrs, self.qdefs, handle, selectors)

    def set(self, conn: Connection, hobj: int, values: dict[int, int | str]) -> None:
        from mqlite.core import inquire

        handle = self._handle(conn, hobj)
        if not handle.options & C.MQOO_SET:
            raise MQError(C.MQRC_NOT_OPEN_FOR_SET, f"{handle.opened_as} is not open for set")
        inquire.set_attributes(self.qdefs, handle, values, self.alter)


_PUT1_CONTEXT = (
    (C.MQPMO_SET_ALL_CONTEXT, C.MQOO_SET_ALL_CONTEXT),
    (C.MQPMO_SET_IDENTITY_CONTEXT, C.MQOO_SET_IDENTITY_CONTEXT),
    (C.MQPMO_PASS_ALL_CONTEXT, C.MQOO_PASS_ALL_CONTEXT),
    (C.MQPMO_PASS_IDENTITY_CONTEXT, C.MQOO_PASS_IDENTITY_CONTEXT),
)
_CONTEXT_OPEN_OPTIONS = (
    C.MQOO_PASS_IDENTITY_CONTEXT | C.MQOO_PASS_ALL_CONTEXT | C.MQOO_SET_IDENTITY_CONTEXT
    | C.MQOO_SET_ALL_CONTEXT | C.MQOO_ALTERNATE_USER_AUTHORITY | C.MQOO_BIND_AS_Q_DEF
    | C.MQOO_BIND_ON_OPEN | C.MQOO_BIND_NOT_FIXED
)

__all__ = ["Connection", "Effects", "GetResult", "Handle", "QueueManager", "TruncatedError"]
