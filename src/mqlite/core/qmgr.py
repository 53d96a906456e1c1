"""The queue manager engine: connections, handles and the MQI calls, without I/O.

The server drives it with calls and performs what it asks for afterwards
(``take_effects``): store transactions, replies to waiting getters, read-ahead pushes.
Administration (DEFINE/ALTER/DELETE/DISPLAY) lives in ``admin.AdminMixin``.
"""

from __future__ import annotations

import itertools
import struct
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple, cast

from mqlite import cmqc as C
from mqlite.core import dead_letter
from mqlite.core.admin import AdminMixin
from mqlite.core.errors import MQCC_WARNING, MQError
from mqlite.core.message import (
    NULL_ID,
    Message,
    MessageDescriptor,
    Properties,
    put_date_time,
)
from mqlite.core.queues import (
    AVAILABLE,
    LOCKED,
    UNCOMMITTED,
    Entry,
    LocalQueue,
    MessageReader,
    expiry_deadline,
    remaining_expiry,
)
from mqlite.core.uow import UnitOfWork
from mqlite.core.waiters import GetRequest, Waiter
from mqlite.store.tx import StoreTx

_INPUT_OPTIONS = C.MQOO_INPUT_AS_Q_DEF | C.MQOO_INPUT_SHARED | C.MQOO_INPUT_EXCLUSIVE
_BROWSE_GETS = C.MQGMO_BROWSE_FIRST | C.MQGMO_BROWSE_NEXT | C.MQGMO_BROWSE_MSG_UNDER_CURSOR
_CONTEXT_SET = C.MQPMO_SET_IDENTITY_CONTEXT | C.MQPMO_SET_ALL_CONTEXT
_CONTEXT_PASS = C.MQPMO_PASS_IDENTITY_CONTEXT | C.MQPMO_PASS_ALL_CONTEXT
MQAT_UNIX = 6


class GetResult(NamedTuple):
    """A delivered message: ``body`` may be truncated to the caller's buffer."""

    message: Message
    body: bytes
    data_length: int
    reason: int  # 0, or MQRC_TRUNCATED_MSG_ACCEPTED


class TruncatedError(MQError):
    """MQRC_TRUNCATED_MSG_FAILED: the message stays, the caller learns its length."""

    def __init__(self, message: Message, data_length: int) -> None:
        super().__init__(C.MQRC_TRUNCATED_MSG_FAILED, "buffer too small")
        self.message = message
        self.data_length = data_length


@dataclass(eq=False)
class Handle:
    """An open object (MQOPEN's Hobj)."""

    hobj: int
    name: str  # the queue it resolved to
    opened_as: str  # the name the application gave (an alias, a model, ...)
    options: int
    queue: LocalQueue | None  # None for the queue manager object
    alias_attrs: dict[str, Any] | None = None
    exclusive: bool = False
    created_dynamic: bool = False
    browse_pos: tuple[int, int] | None = None  # (level, seq) of the last browsed message
    browse_entry: Entry | None = None
    read_ahead: bool = False
    credit: int = 0
    xmitq_for: tuple[str, str] | None = None  # (remote queue, remote qmgr) when sending via xmitq
    conn: Connection | None = None


@dataclass(eq=False)
class Connection:
    """An application's connection (MQCONN's Hconn)."""

    conn_id: str
    user: str
    appl_name: str
    pid: int = 0
    handles: dict[int, Handle] = field(default_factory=dict)
    uow: UnitOfWork = field(default_factory=UnitOfWork)
    next_hobj: int = 1
    connected: bool = True


@dataclass
class Effects:
    """What the server must do after a call (see docs/ARCHITECTURE.md)."""

    tx: StoreTx | None = None
    completions: list[tuple[Waiter, GetResult | MQError]] = field(default_factory=list)
    pushes: list[tuple[Connection, int, Message]] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.tx or self.completions or self.pushes)


class QueueManager(AdminMixin):
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
        if conn.uow:
            self.commit(conn) if commit else self.backout(conn)
        for hobj in list(conn.handles):
            try:
                self.close(conn, hobj, 0)
            except MQError:
                self._drop_handle(conn, conn.handles[hobj])
        conn.connected = False
        self.connections.pop(conn.conn_id, None)

    def _handle(self, conn: Connection, hobj: int) -> Handle:
        handle = conn.handles.get(hobj)
        if handle is None:
            raise MQError(C.MQRC_HOBJ_ERROR, f"object handle {hobj} is not open")
        return handle

    # -- MQOPEN / MQCLOSE --------------------------------------------------------------
    def open(self, conn: Connection, od: dict[str, Any], options: int) -> Handle:
        object_type = int(od.get("ObjectType", C.MQOT_Q))
        name = str(od.get("ObjectName", "")).strip()
        qmgr_name = str(od.get("ObjectQMgrName", "")).strip()
        inputs = options & _INPUT_OPTIONS
        if inputs & (inputs - 1):
            raise MQError(C.MQRC_OPTIONS_ERROR, "more than one MQOO_INPUT_* option")
        if not options & (_INPUT_OPTIONS | C.MQOO_BROWSE | C.MQOO_OUTPUT | C.MQOO_INQUIRE | C.MQOO_SET):
            raise MQError(C.MQRC_OPTIONS_ERROR, "no access option given")
        hobj = conn.next_hobj
        if object_type == C.MQOT_Q_MGR:
            if options & (_INPUT_OPTIONS | C.MQOO_BROWSE | C.MQOO_OUTPUT | C.MQOO_SET):
                raise MQError(C.MQRC_OPTION_NOT_VALID_FOR_TYPE, "the queue manager opens for inquire")
            handle = Handle(hobj, self.name, self.name, options, None)
        elif object_type == C.MQOT_Q:
            handle = self._open_queue(conn, hobj, name, qmgr_name, options, od)
        elif object_type == C.MQOT_TOPIC:
            raise MQError(C.MQRC_FUNCTION_NOT_SUPPORTED, "publish/subscribe is not available yet")
        else:
            raise MQError(C.MQRC_OBJECT_TYPE_ERROR, f"object type {object_type}")
        conn.next_hobj += 1
        handle.conn = conn
        conn.handles[hobj] = handle
        return handle

    def _open_queue(
        self, conn: Connection, hobj: int, name: str, qmgr_name: str, options: int, od: dict[str, Any]
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
            if attrs.get("TARGTYPE", "QUEUE") == "TOPIC":
                raise MQError(C.MQRC_FUNCTION_NOT_SUPPORTED, "topic aliases come with publish/subscribe")
            target = str(attrs.get("TARGET", ""))
            base = self.qdefs.get(target)
            if base is None:
                raise MQError(C.MQRC_UNKNOWN_ALIAS_BASE_Q, f"alias {name} targets unknown {target!r}")
            if base[0] == "QALIAS":
                raise MQError(C.MQRC_ALIAS_BASE_Q_TYPE_ERROR, f"alias {name} targets an alias")
            alias_attrs = attrs
            name, (qtype, attrs) = target, base
        if qtype == "QMODEL":
            if options & (_INPUT_OPTIONS | C.MQOO_BROWSE | C.MQOO_OUTPUT | C.MQOO_INQUIRE | C.MQOO_SET) == 0:
                raise MQError(C.MQRC_OPTIONS_ERROR, "no access option given")
            name = self._create_dynamic(conn, attrs, str(od.get("DynamicQName") or "AMQ.*"))
            qtype, attrs = self.qdefs[name]
            created = True
        if qtype == "QREMOTE":
            if options & (_INPUT_OPTIONS | C.MQOO_BROWSE):
                raise MQError(C.MQRC_OPTION_NOT_VALID_FOR_TYPE, "a remote queue opens for output")
            return self._open_via_xmitq(
                hobj, str(attrs.get("RNAME") or name), str(attrs.get("RQMNAME", "")), options,
                xmitq=str(attrs.get("XMITQ", "")), opened_as=name, remote_attrs=attrs,
            )
        queue = self.queues[name]
        handle = Handle(hobj, name, name if alias_attrs is None else str(od.get("ObjectName")),
                        options, queue, alias_attrs=alias_attrs, created_dynamic=created)
        if options & _INPUT_OPTIONS:
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

    def _create_dynamic(self, conn: Connection, model: dict[str, Any], pattern: str) -> str:
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
        queue.owner = conn if deftype == "TEMPDYN" else None
        return name

    def close(self, conn: Connection, hobj: int, options: int) -> None:
        handle = self._handle(conn, hobj)
        queue = handle.queue
        deleting = options & (C.MQCO_DELETE | C.MQCO_DELETE_PURGE)
        if deleting and (queue is None or not queue.dynamic):
            raise MQError(C.MQRC_OPTION_NOT_VALID_FOR_TYPE, "only dynamic queues are deleted on close")
        purge = options & C.MQCO_DELETE_PURGE
        if queue is not None and queue.dynamic == "PERMDYN" and deleting and queue.depth and not purge:
            raise MQError(C.MQRC_Q_NOT_EMPTY, f"queue {queue.name} is not empty")
        self._drop_handle(conn, handle)
        if queue is not None and queue.dynamic and not queue.deleted:
            delete = options & (C.MQCO_DELETE | C.MQCO_DELETE_PURGE) or (
                queue.dynamic == "TEMPDYN" and handle.created_dynamic
            )
            if delete:
                self._remove_queue(queue.name)

    def _drop_handle(self, conn: Connection, handle: Handle) -> None:
        conn.handles.pop(handle.hobj, None)
        queue = handle.queue
        if queue is None:
            return
        if handle.options & _INPUT_OPTIONS and handle.xmitq_for is None:
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
        properties: Properties, body: bytes,
    ) -> MessageDescriptor:
        handle = self._handle(conn, hobj)
        if not handle.options & C.MQOO_OUTPUT:
            raise MQError(C.MQRC_NOT_OPEN_FOR_OUTPUT, f"{handle.opened_as} is not open for output")
        queue = handle.queue
        assert queue is not None
        return self._put(conn, handle, queue, md, options, properties, body)

    def put1(
        self, conn: Connection, od: dict[str, Any], md: MessageDescriptor, options: int,
        properties: Properties, body: bytes,
    ) -> MessageDescriptor:
        handle = self.open(conn, od, C.MQOO_OUTPUT)
        try:
            return self.put(conn, handle.hobj, md, options, properties, body)
        finally:
            self.close(conn, handle.hobj, 0)

    def _put(
        self, conn: Connection, handle: Handle, queue: LocalQueue, md: MessageDescriptor,
        options: int, properties: Properties, body: bytes,
    ) -> MessageDescriptor:
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
        md = self._complete_md(conn, md, options, defining, now)
        if handle.xmitq_for is not None:
            from mqlite.protocol import xqh

            body = xqh.wrap(handle.xmitq_for[0], handle.xmitq_for[1], md, body)
            md = md.copy()
            md.Format = xqh.FORMAT_XMIT_Q_HEADER
        length = len(body)
        if length > int(self.attrs.get("MAXMSGL", 4194304)):
            raise MQError(C.MQRC_MSG_TOO_BIG_FOR_Q_MGR, f"{length} bytes exceed the queue manager's MAXMSGL")
        if length > int(attrs.get("MAXMSGL", 4194304)):
            raise MQError(C.MQRC_MSG_TOO_BIG_FOR_Q, f"{length} bytes exceed MAXMSGL of {queue.name}")
        if queue.depth >= int(attrs.get("MAXDEPTH", 5000)):
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

    # -- MQGET -------------------------------------------------------------------------
    def get(self, conn: Connection, hobj: int, request: GetRequest, token: object = None) -> GetResult | Waiter:
        """Get or browse a message; with MQGMO_WAIT and nothing there, return a Waiter."""
        handle = self._handle(conn, hobj)
        queue = handle.queue
        options = request.options
        browse = options & _BROWSE_GETS
        if queue is None or handle.xmitq_for is not None:
            raise MQError(C.MQRC_NOT_OPEN_FOR_INPUT, f"{handle.opened_as} is not open for input")
        if browse:
            if not handle.options & C.MQOO_BROWSE:
                raise MQError(C.MQRC_NOT_OPEN_FOR_BROWSE, f"{handle.opened_as} is not open for browse")
        elif not handle.options & _INPUT_OPTIONS:
            raise MQError(C.MQRC_NOT_OPEN_FOR_INPUT, f"{handle.opened_as} is not open for input")
        if (options & C.MQGMO_SYNCPOINT) and (options & C.MQGMO_NO_SYNCPOINT):
            raise MQError(C.MQRC_OPTIONS_ERROR, "both MQGMO_SYNCPOINT and MQGMO_NO_SYNCPOINT")
        if queue.deleted:
            raise MQError(C.MQRC_Q_DELETED, f"queue {queue.name} was deleted")
        result = self._try_get(conn, handle, queue, request)
        if result is not None:
            return result
        if not options & C.MQGMO_WAIT or request.wait_ms == 0 or options & C.MQGMO_BROWSE_MSG_UNDER_CURSOR:
            raise MQError(C.MQRC_NO_MSG_AVAILABLE, "no message available")
        if request.wait_ms < -1:
            raise MQError(C.MQRC_WAIT_INTERVAL_ERROR, f"WaitInterval {request.wait_ms}")
        now = self.clock()
        deadline = 0.0 if request.wait_ms == -1 else now + request.wait_ms / 1000
        waiter = Waiter(conn, hobj, request, deadline, token)
        queue.waiters.append(waiter)
        self.waiting.add(waiter)
        return waiter

    def _inhibited(self, handle: Handle, queue: LocalQueue) -> bool:
        alias = handle.alias_attrs
        return queue.attrs.get("GET") == "DISABLED" or (alias is not None and alias.get("GET") == "DISABLED")

    def _try_get(self, conn: Connection, handle: Handle, queue: LocalQueue, request: GetRequest) -> GetResult | None:
        options = request.options
        if self._inhibited(handle, queue):
            raise MQError(C.MQRC_GET_INHIBITED, f"gets from {handle.opened_as} are inhibited")
        now = self.clock()
        expired: list[Entry] = []
        try:
            entry = self._select(handle, queue, request, now, expired)
        finally:
            if expired:
                self._discard_expired(queue, expired)
        if entry is None:
            return None
        message = queue.load(entry)
        data_length = len(message.body)
        reason = 0
        body = message.body
        if 0 <= request.max_length < data_length:
            if not options & C.MQGMO_ACCEPT_TRUNCATED_MSG:
                raise TruncatedError(self._delivered_copy(message, entry, now), data_length)
            body = body[: request.max_length]
            reason = C.MQRC_TRUNCATED_MSG_ACCEPTED
        if options & _BROWSE_GETS:
            handle.browse_pos = (entry.level, entry.seq)
            handle.browse_entry = entry
            return GetResult(self._delivered_copy(message, entry, now), body, data_length, reason)
        syncpoint = bool(options & C.MQGMO_SYNCPOINT) or (
            bool(options & C.MQGMO_SYNCPOINT_IF_PERSISTENT) and message.persistent
        )
        delivered = self._delivered_copy(message, entry, now)
        if syncpoint:
            if len(conn.uow) >= int(self.attrs.get("MAXUMSGS", 10000)):
                raise MQError(C.MQRC_SYNCPOINT_LIMIT_REACHED, "too many messages in the unit of work")
            queue.lock(entry)
            conn.uow.gets.append((queue, entry))
        else:
            if entry.persistent:
                self._tx.delete_message(queue.name, entry.seq)
            queue.remove(entry)
        if handle.browse_entry is entry:
            handle.browse_entry = None
        return GetResult(delivered, body, data_length, reason)

    def _select(
        self, handle: Handle, queue: LocalQueue, request: GetRequest, now: float, expired: list[Entry]
    ) -> Entry | None:
        options = request.options
        if options & (C.MQGMO_MSG_UNDER_CURSOR | C.MQGMO_BROWSE_MSG_UNDER_CURSOR):
            entry = handle.browse_entry
            if entry is None or entry.state != AVAILABLE:
                raise MQError(C.MQRC_NO_MSG_UNDER_CURSOR, "no message under the browse cursor")
            return entry
        match_id, match_correl = request.match_msg_id, request.match_correl_id
        if options & C.MQGMO_BROWSE_NEXT and handle.browse_pos is not None:
            for entry in queue.iter_after(*handle.browse_pos):
                if entry.state != AVAILABLE:
                    continue
                if entry.expiry_at and entry.expiry_at <= now:
                    queue.remove(entry)
                    expired.append(entry)
                    continue
                if (match_id is None and match_correl is None) or self._matches(queue, entry, request):
                    return entry
            return None
        if match_id is None and match_correl is None:
            return queue.first_available(now, expired)
        return queue.find_match(now, expired, match_id, match_correl)

    def _matches(self, queue: LocalQueue, entry: Entry, request: GetRequest) -> bool:
        md = queue.load(entry).md
        if request.match_msg_id is not None and md.MsgId != request.match_msg_id:
            return False
        return request.match_correl_id is None or md.CorrelId == request.match_correl_id

    def _delivered_copy(self, message: Message, entry: Entry, now: float) -> Message:
        """The message as the getter sees it: remaining expiry, current backout count."""
        if not entry.expiry_at:
            return message
        md = message.md.copy()
        md.Expiry = remaining_expiry(entry, now)
        return Message(md, message.body, message.properties)

    def _discard_expired(self, queue: LocalQueue, expired: list[Entry]) -> None:
        for entry in expired:
            if entry.persistent:
                self._tx.delete_message(queue.name, entry.seq)

    # -- delivery to waiters and read-ahead consumers ------------------------------------
    def _deliver(self, queue: LocalQueue) -> None:
        """Hand newly available messages to waiting getters, then to read-ahead handles."""
        waiters = queue.waiters
        if waiters:
            for waiter in list(waiters):
                conn = waiter.conn
                handle = conn.handles.get(waiter.hobj)
                if handle is None:
                    waiters.remove(waiter)
                    self.waiting.discard(waiter)
                    continue
                try:
                    result: GetResult | MQError | None = self._try_get(conn, handle, queue, waiter.request)
                except MQError as error:
                    result = error
                if result is None:
                    continue
                waiters.remove(waiter)
                self.waiting.discard(waiter)
                waiter.done = True
                self._effects.completions.append((waiter, result))
        if queue.read_ahead:
            self._push_read_ahead(queue)

    def _push_read_ahead(self, queue: LocalQueue) -> None:
        now = self.clock()
        for handle in list(queue.read_ahead):
            if self._inhibited(handle, queue):
                continue
            conn = handle.conn
            while handle.credit > 0:
                expired: list[Entry] = []
                entry = queue.first_available(now, expired)
                if expired:
                    self._discard_expired(queue, expired)
                if entry is None or entry.message is None or entry.message.persistent:
                    return  # persistent messages go by MQGET, never ahead
                message = self._delivered_copy(entry.message, entry, now)
                queue.remove(entry)
                handle.credit -= 1
                if conn is not None:
                    self._effects.pushes.append((conn, handle.hobj, message))

    def grant_credit(self, conn: Connection, hobj: int, count: int) -> None:
        """A read-ahead consumer can take ``count`` more messages ahead of its gets."""
        handle = conn.handles.get(hobj)
        if handle is None or not handle.read_ahead or handle.queue is None:
            return
        handle.credit += max(0, count)
        queue = handle.queue
        if handle not in queue.read_ahead:
            queue.read_ahead.append(handle)
        self._push_read_ahead(queue)

    # -- syncpoint ---------------------------------------------------------------------
    def commit(self, conn: Connection) -> None:
        puts, gets = conn.uow.take()
        touched: list[LocalQueue] = []
        for queue, entry in puts:
            if entry.state != UNCOMMITTED:
                continue
            queue.commit_put(entry)
            message = entry.message
            if message is not None and message.persistent:
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

    def backout(self, conn: Connection) -> None:
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

    # -- timers ------------------------------------------------------------------------
    def tick(self, now: float) -> None:
        """Time out waiting getters whose wait interval has passed."""
        for waiter in [w for w in self.waiting if w.deadline and w.deadline <= now]:
            self.waiting.discard(waiter)
            handle = waiter.conn.handles.get(waiter.hobj)
            if handle is not None and handle.queue is not None and waiter in handle.queue.waiters:
                handle.queue.waiters.remove(waiter)
            waiter.done = True
            self._effects.completions.append((waiter, MQError(C.MQRC_NO_MSG_AVAILABLE, "no message available")))

    def sweep_expired(self, now: float) -> int:
        """Remove expired messages from every queue (MQ does this periodically too)."""
        removed = 0
        for queue in self.queues.values():
            expired = [e for e in queue.iter_entries() if e.state == AVAILABLE and e.expiry_at and e.expiry_at <= now]
            for entry in expired:
                queue.remove(entry)
            if expired:
                self._discard_expired(queue, expired)
                removed += len(expired)
        return removed

    def quiesce(self) -> None:
        """A controlled end began: refuse new connections and wake every waiting MQGET (2161)."""
        self.quiescing = True
        for queue in self.queues.values():
            if queue.waiters:
                self.fail_waiters(queue, C.MQRC_Q_MGR_QUIESCING, "the queue manager is ending")

    def cancel_wait(self, waiter: Waiter) -> None:
        """The caller went away: forget its pending MQGET."""
        self.waiting.discard(waiter)
        for queue in self.queues.values():
            if waiter in queue.waiters:
                queue.waiters.remove(waiter)
                break

    def fail_waiters(
        self, queue: LocalQueue, reason: int, text: str, through: dict[str, Any] | None = None
    ) -> None:
        """Fail the queue's waiting getters (only those waiting through alias ``through``, if given)."""
        for waiter in list(queue.waiters):
            if through is not None:
                handle = waiter.conn.handles.get(waiter.hobj)
                if handle is None or handle.alias_attrs is not through:
                    continue
            queue.waiters.remove(waiter)
            self.waiting.discard(waiter)
            waiter.done = True
            self._effects.completions.append((waiter, MQError(reason, text)))

    # -- MQINQ / MQSET -----------------------------------------------------------------
    def inquire(self, conn: Connection, hobj: int, selectors: list[int]) -> list[int | str]:
        from mqlite.core import inquire

        handle = self._handle(conn, hobj)
        if not handle.options & C.MQOO_INQUIRE:
            raise MQError(C.MQRC_NOT_OPEN_FOR_INQUIRE, f"{handle.opened_as} is not open for inquire")
        return inquire.inquire(self, handle, selectors)

    def set(self, conn: Connection, hobj: int, values: dict[int, int | str]) -> None:
        from mqlite.core import inquire

        handle = self._handle(conn, hobj)
        if not handle.options & C.MQOO_SET:
            raise MQError(C.MQRC_NOT_OPEN_FOR_SET, f"{handle.opened_as} is not open for set")
        inquire.set_attributes(self, handle, values)


_CONTEXT_OPEN_OPTIONS = (
    C.MQOO_PASS_IDENTITY_CONTEXT | C.MQOO_PASS_ALL_CONTEXT | C.MQOO_SET_IDENTITY_CONTEXT
    | C.MQOO_SET_ALL_CONTEXT | C.MQOO_ALTERNATE_USER_AUTHORITY | C.MQOO_BIND_AS_Q_DEF
    | C.MQOO_BIND_ON_OPEN | C.MQOO_BIND_NOT_FIXED
)

__all__ = ["MQCC_WARNING", "Connection", "Effects", "GetResult", "Handle", "QueueManager", "TruncatedError"]
