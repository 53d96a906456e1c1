"""pymqi's API over the blocking client, plus the Pythonic layer on the same classes.

``import mqlite as pymqi`` and a pymqi program runs: ``QueueManager`` is pymqi's connection
handle, ``Queue`` opens lazily on first use (MQOO_OUTPUT for put, MQOO_INPUT_AS_Q_DEF for
get), ``get`` returns the body and fills ``md`` in place, failures raise ``MQMIError``.
The same objects take keywords (``q.get(wait=1.0)``, ``q.put(body, properties=...,
persistent=True)``), are context managers and iterate, and ``get`` returns a ``bytes``
subclass carrying ``.md`` and ``.properties``: one surface for both audiences.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from types import TracebackType
from typing import Any

from mqlite import cmqc
from mqlite.client import common
from mqlite.client.common import ReceivedMessage, resolve_target
from mqlite.client.errors import MQMIError, PYIFError
from mqlite.client.handles import properties_of
from mqlite.client.structs import CD, GMO, MD, OD, PMO, SCO, STS, CharField, md_fill, od_fill, od_to_wire, text
from mqlite.client.sync import Connection
from mqlite.protocol import native
from mqlite.protocol.native import SENT_AHEAD, Op

__all__ = ["Queue", "QueueManager", "connect", "make_q_desc"]

_INPUT = cmqc.MQOO_INPUT_AS_Q_DEF | cmqc.MQOO_INPUT_SHARED | cmqc.MQOO_INPUT_EXCLUSIVE
_BROWSE_GMO = cmqc.MQGMO_BROWSE_FIRST | cmqc.MQGMO_BROWSE_NEXT | cmqc.MQGMO_BROWSE_MSG_UNDER_CURSOR

# IBM's lengths of character attributes, so MQINQ values come back blank-padded like pymqi's.
_CHAR_ATTR_LENGTHS = {
    getattr(cmqc, name): length for name, length in (
        ("MQCA_Q_MGR_NAME", 48), ("MQCA_Q_NAME", 48), ("MQCA_Q_DESC", 64), ("MQCA_Q_MGR_DESC", 64),
        ("MQCA_BASE_Q_NAME", 48), ("MQCA_REMOTE_Q_NAME", 48), ("MQCA_REMOTE_Q_MGR_NAME", 48),
        ("MQCA_XMIT_Q_NAME", 48), ("MQCA_DEAD_LETTER_Q_NAME", 48), ("MQCA_BACKOUT_REQ_Q_NAME", 48),
        ("MQCA_CREATION_DATE", 12), ("MQCA_CREATION_TIME", 8), ("MQCA_ALTERATION_DATE", 12),
        ("MQCA_ALTERATION_TIME", 8), ("MQCA_INITIATION_Q_NAME", 48), ("MQCA_PROCESS_NAME", 48),
        ("MQCA_TRIGGER_DATA", 64), ("MQCA_CLUSTER_NAME", 48), ("MQCA_Q_MGR_IDENTIFIER", 48),
        ("MQCA_DEF_XMIT_Q_NAME", 48), ("MQCA_COMMAND_INPUT_Q_NAME", 48),
    )
}


def make_q_desc(q_desc: OD | str | bytes) -> OD:
    """An OD from a queue name, or the OD itself (pymqi's ``make_q_desc``)."""
    return OD(ObjectName=q_desc) if isinstance(q_desc, str | bytes) else q_desc


def _inq_value(selector: int, value: int | str) -> Any:
    if isinstance(value, str):
        return CharField(value.encode("utf-8").ljust(_CHAR_ATTR_LENGTHS.get(selector, 0)))
    return value


def _attr_value(value: Any) -> int | str:
    return text(value) if isinstance(value, bytes | str) else int(value)


def _props(properties: dict[str, Any] | None, pmo: PMO | None) -> dict[str, Any]:
    props = properties_of(pmo.OriginalMsgHandle) if pmo is not None and pmo.OriginalMsgHandle else {}
    if properties:
        props.update({text(k) if isinstance(k, bytes) else k: v for k, v in properties.items()})
    return props


class QueueManager:
    """A connection to a queue manager (pymqi's meaning: a connection handle, MQHCONN).

    ``QueueManager("QM1")`` connects at once; ``QueueManager(None)`` waits for ``connect*``.
    """

    def __init__(self, name: str | bytes | None = "", disconnect_on_exit: bool = True,
                 bytes_encoding: str = "utf8", default_ccsid: int = 1208, *, host: str | None = None,
                 port: int | None = None, channel: str | None = None, conn_info: str | None = None,
                 user: str | None = None, password: str | None = None) -> None:
        self._conn: Connection | None = None
        self._qmobj: int | None = None
        self.name = text(name) if name is not None else ""
        self.disconnect_on_exit = disconnect_on_exit
        self.bytes_encoding = bytes_encoding
        self.default_ccsid = default_ccsid
        if name is not None or host is not None or port is not None or conn_info is not None:
            target = resolve_target(name, host=host, port=port, channel=channel, conn_info=conn_info)
            self._open(target, user, password)

    # -- connecting ----------------------------------------------------------------------------
    def _open(self, target: common.Target, user: Any, password: Any) -> None:
        if self._conn is not None and self._conn.connected:
            raise MQMIError(cmqc.MQCC_WARNING, cmqc.MQRC_ALREADY_CONNECTED)
        if user and password is None:
            raise ValueError("Password must not be None if user is provided")
        self._conn = Connection(target, text(user) if user else None,
                                text(password) if user and password is not None else None)
        self.name = self._conn.qmgr_name

    def connect(self, name: str | bytes | None) -> None:
        """Connect to queue manager ``name`` on this machine (or where MQSERVER points)."""
        self._open(resolve_target(name), None, None)

    def connect_with_options(self, name: str | bytes | None, *args: Any, **kwargs: Any) -> None:
        """pymqi's MQCONNX: ``opts``, ``cd`` (its ConnectionName makes it a client
        connection), ``sco`` (TLS, ignored), ``user`` and ``password``."""
        if len(args) > 2:
            raise TypeError(f"Invalid options: {args}")
        if args:
            kwargs["cd"] = args[0]
        if len(args) == 2:
            kwargs["sco"] = args[1]
        cd: CD | None = kwargs.get("cd")
        if cd is not None and text(cd.ConnectionName):
            target = resolve_target(name, channel=cd.ChannelName, conn_info=cd.ConnectionName)
        else:
            target = resolve_target(name)
        self._open(target, kwargs.get("user"), kwargs.get("password"))

    connectWithOptions = connect_with_options

    def connect_tcp_client(self, name: str | bytes | None, cd: CD, channel: str | bytes,
                           conn_name: str | bytes, user: str | None = None, password: str | None = None) -> None:
        """Client connection over TCP to ``conn_name`` (``host(port)``) on ``channel``."""
        cd.ChannelName = channel
        cd.ConnectionName = conn_name
        cd.ChannelType = cmqc.MQCHT_CLNTCONN
        cd.TransportType = cmqc.MQXPT_TCP
        self.connect_with_options(name, cd=cd, user=user, password=password, sco=SCO())

    connectTCPClient = connect_tcp_client

    def disconnect(self) -> None:
        """MQDISC: ends the connection (committing its unit of work, as MQ does)."""
        if self._conn is None:
            raise PYIFError("not connected")
        conn, self._conn, self._qmobj = self._conn, None, None
        conn.disconnect()  # a broken connection is just released

    def get_handle(self) -> Connection:
        if self._conn is None or not self._conn.connected:
            if self._conn is not None and self._conn.broken is not None:
                raise self._conn.failure()
            raise PYIFError("not connected")
        return self._conn

    getHandle = get_handle

    @property
    def is_connected(self) -> bool:
        """True while the queue manager answers a ping."""
        try:
            self.get_handle().ping()
        except (MQMIError, PYIFError):
            return False
        return True

    # -- units of work ---------------------------------------------------------------------------
    def begin(self) -> None:
        """MQBEGIN: units of work start implicitly with the first syncpoint call; nothing to do."""
        self.get_handle()

    def commit(self) -> None:
        """MQCMIT. If an asynchronous put of this unit of work failed, it is backed out instead
        and MQRC_BACKED_OUT (2003) raised: committing part of what was sent would lose messages."""
        conn = self.get_handle()
        puts = conn.async_puts
        if puts.in_syncpoint:
            conn.ping()  # every PUSH_ERROR sent before the reply has now been read
            puts.in_syncpoint = False
            if puts.failures:
                conn.call(Op.BACKOUT, [])
                count = len(puts.failures)
                puts.failures.clear()
                raise MQMIError(cmqc.MQCC_FAILED, cmqc.MQRC_BACKED_OUT, failures=count)
        conn.call(Op.COMMIT, [])

    def backout(self) -> None:
        conn = self.get_handle()
        conn.async_puts.in_syncpoint = False
        conn.call(Op.BACKOUT, [])

    # -- calls --------------------------------------------------------------------------------
    def put1(self, qDesc: OD | str | bytes, msg: bytes | str, md: MD | None = None,
             pmo: PMO | None = None, **kw: Any) -> None:
        """MQPUT1: open, put one message, close, in one call."""
        conn = self.get_handle()
        conn.async_puts.raise_pending()
        body, md = common.encode_body(msg, md, self.bytes_encoding, self.default_ccsid)
        options = common.put_options(pmo, syncpoint=kw.pop("syncpoint", None),
                                     asynchronous=kw.pop("asynchronous", None))
        props = _props(kw.pop("properties", None), pmo)
        wire = common.put_md(md, conn.ccsid, **kw)
        od_wire = od_to_wire(make_q_desc(qDesc))
        if options & cmqc.MQPMO_ASYNC_RESPONSE:
            options = common.prepare_async(wire, options, conn.async_puts)
            conn.send(native.encode_request(Op.PUT1, 0, [od_wire, wire, options, props, body]))
            if md is not None:
                md.MsgId = wire[9]
            return
        result = conn.call(Op.PUT1, [od_wire, wire, options, props, body])
        if md is not None:
            md_fill(md, result)

    def inquire(self, attribute: int) -> Any:
        """MQINQ on the queue manager object."""
        conn = self.get_handle()
        if self._qmobj is None:
            od = {**native.OD_DEFAULTS, "ObjectType": cmqc.MQOT_Q_MGR}
            self._qmobj = conn.call(Op.OPEN, [od, cmqc.MQOO_INQUIRE])[0]
        return _inq_value(attribute, conn.call(Op.INQ, [self._qmobj, [int(attribute)]])[0])

    def stat(self) -> STS:
        """MQSTAT(MQSTAT_TYPE_ASYNC_ERROR): asynchronous-put outcomes since last asked.

        Reading the status also clears the failures the client would otherwise raise on the
        next put: they have been reported."""
        conn = self.get_handle()
        result = conn.call(Op.STAT, [])
        conn.async_puts.failures.clear()
        comp = (cmqc.MQCC_FAILED if result["put_failure"] else
                cmqc.MQCC_WARNING if result["put_warning"] else cmqc.MQCC_OK)
        return STS(CompCode=comp, Reason=result["reason"], PutSuccessCount=result["put_success"],
                   PutWarningCount=result["put_warning"], PutFailureCount=result["put_failure"])

    def mqsc(self, command_text: str) -> tuple[int, list[str]]:
        """Run MQSC commands on the queue manager: (exit code 0/10/20, runmqsc's lines)."""
        code, lines = self.get_handle().call(Op.MQSC, [command_text])
        return int(code), list(lines)

    def ping(self) -> None:
        self.get_handle().ping()

    # -- offsets (an mqlite addition, for stream readers such as the Spark source) --------------
    def queue_offsets(self, queue: str) -> tuple[int, int]:
        """(the sequence number before the oldest available message, the newest) of a local queue."""
        oldest, newest = self.get_handle().call(Op.OFFSETS, [queue])
        return int(oldest), int(newest)

    def browse_range(self, queue: str, after: int, through: int, limit: int = 10_000
                     ) -> list[tuple[int, ReceivedMessage]]:
        """The messages with ``after < seq <= through`` (at most ``limit``), left on the queue."""
        items = self.get_handle().call(Op.BROWSE_RANGE, [queue, int(after), int(through), int(limit)])
        return [(int(seq), ReceivedMessage(body, None, props, len(body), md)) for seq, md, props, body in items]

    def remove_through(self, queue: str, through: int) -> int:
        """Remove the messages with ``seq <= through`` (a range the reader has committed)."""
        return int(self.get_handle().call(Op.REMOVE_THROUGH, [queue, int(through)]))

    # -- Python protocols -----------------------------------------------------------------------
    def __enter__(self) -> QueueManager:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self._conn is None or not self._conn.connected:
            return
        with contextlib.suppress(MQMIError, PYIFError):
            if error is not None:
                self.backout()  # an exception leaves the unit of work undone
            self.disconnect()

    def __del__(self) -> None:
        conn = getattr(self, "_conn", None)
        if conn is not None and conn.connected and getattr(self, "disconnect_on_exit", False):
            with contextlib.suppress(Exception):
                conn.disconnect()

    def __repr__(self) -> str:
        state = "connected" if self._conn is not None and self._conn.connected else "not connected"
        return f"<QueueManager {self.name!r} {state}>"


class Queue:
    """A queue (MQOPEN). Opened at once when given options, else on first use.

    With explicit options there is one handle and a call it does not allow fails with the
    queue manager's reason (e.g. MQRC_NOT_OPEN_FOR_INPUT), as in pymqi. Opened implicitly,
    the queue opens a handle per need on first use (see ``common.HandleSet``), so
    ``q.put(...)`` then ``q.get()`` just works.
    """

    def __init__(self, qMgr: QueueManager, q_desc: OD | str | bytes | None = None,
                 open_opts: int | None = None, *, read_ahead_window: int = common.READ_AHEAD_WINDOW) -> None:
        self._qm = qMgr
        self._od: OD | None = make_q_desc(q_desc) if q_desc is not None else None
        self._handles = common.HandleSet()
        self._window = read_ahead_window
        if q_desc is not None and open_opts is not None:
            self._handles.explicit = self._open(open_opts)

    # -- opening ---------------------------------------------------------------------------------
    def _open(self, options: int) -> int:
        if self._od is None:
            raise PYIFError("The Queue Descriptor has not been set.")
        conn = self._qm.get_handle()
        hobj, resolved_q, resolved_qmgr, read_ahead = conn.call(Op.OPEN, [od_to_wire(self._od), int(options)])
        od_fill(self._od, resolved_q, resolved_qmgr)
        if read_ahead and options & _INPUT:
            conn.start_read_ahead(hobj, self._window)
        return int(hobj)

    def _handle(self, needed: int) -> int:
        """The handle for ``needed`` (an MQOO_* option), opening or re-opening one if need be."""
        hobj, stale, options = self._handles.plan(needed)
        if hobj is not None:
            return hobj
        conn = self._qm.get_handle()
        old = conn.read_ahead.get(stale) if stale is not None else None
        if stale is not None:
            self._close_one(stale, cmqc.MQCO_NONE)
        hobj = self._open(options)
        self._handles.opened(hobj, options)
        if old is not None and old.messages:  # already delivered to this application: keep them
            buffer = conn.read_ahead.setdefault(hobj, common.ReadAhead(self._window))
            buffer.messages.extendleft(reversed(old.messages))
        return hobj

    def open(self, q_desc: OD | str | bytes, open_opts: int | None = None) -> None:
        """Set the queue (name or OD); open now if ``open_opts`` is given, else on first use."""
        if self._handles.all():
            raise PYIFError("The Queue is already open")
        self._od = make_q_desc(q_desc)
        if open_opts is not None:
            self._handles.explicit = self._open(open_opts)

    def close(self, options: int = cmqc.MQCO_NONE) -> None:
        """MQCLOSE (every handle); read-ahead messages not yet got are discarded, as IBM does."""
        handles = self._handles.all()
        if not handles:
            raise PYIFError("not open")
        for hobj in handles:
            self._close_one(hobj, options)

    def _close_one(self, hobj: int, options: int) -> None:
        self._handles.forget(hobj)
        conn = self._qm.get_handle()
        conn.close_handle(hobj)
        conn.call(Op.CLOSE, [hobj, int(options)])

    def get_handle(self) -> int | None:
        """The (first) MQOPEN handle, or None when the queue is not open."""
        handles = self._handles.all()
        return handles[0] if handles else None

    def set_handle(self, queue_handle: int) -> None:
        self._handles.explicit = queue_handle

    @property
    def is_open(self) -> bool:
        return bool(self._handles.all())

    @property
    def name(self) -> str:
        return text(self._od.ObjectName) if self._od is not None else ""

    # -- messages ---------------------------------------------------------------------------------
    def put(self, msg: bytes | str, md: MD | None = None, pmo: PMO | None = None, *,
            properties: dict[str, Any] | None = None, syncpoint: bool | None = None,
            asynchronous: bool | None = None, **md_fields: Any) -> None:
        """MQPUT. ``md``/``pmo`` as pymqi (``md`` is completed in place: MsgId, PutDate...).

        Keywords: ``properties``, ``persistent``, ``priority``, ``expiry`` (seconds),
        ``msg_id``, ``correl_id``, ``format``, ``reply_to``, ``reply_to_qmgr``, ``msg_type``,
        ``syncpoint``, ``asynchronous`` (MQPMO_ASYNC_RESPONSE: returns at once; a failure is
        raised by the next put on this connection, or reported by ``QueueManager.stat()``).
        """
        conn = self._qm.get_handle()
        conn.async_puts.raise_pending()
        body, md = common.encode_body(msg, md, self._qm.bytes_encoding, self._qm.default_ccsid)
        hobj = self._handle(cmqc.MQOO_OUTPUT)
        wire = common.put_md(md, conn.ccsid, **md_fields)
        options = common.put_options(pmo, syncpoint=syncpoint, asynchronous=asynchronous)
        props = _props(properties, pmo)
        if options & cmqc.MQPMO_ASYNC_RESPONSE:
            options = common.prepare_async(wire, options, conn.async_puts)
            conn.send(native.encode_put(0, hobj, wire, options, props, body))
            if md is not None:
                md.MsgId = wire[9]
            return
        result = conn.call(Op.PUT, [hobj, wire, options, props, body])
        if md is not None:
            md_fill(md, result)
        if pmo is not None and self._od is not None:
            pmo.ResolvedQName = self._od.ResolvedQName
            pmo.ResolvedQMgrName = self._od.ResolvedQMgrName

    def get(self, maxLength: int | None = None, md: MD | None = None, gmo: GMO | None = None, *,
            wait: float | None = None, msg_id: bytes | None = None, correl_id: bytes | None = None,
            syncpoint: bool | None = None) -> ReceivedMessage:
        """MQGET: the message body (``bytes`` with ``.md`` and ``.properties``); ``md`` is
        filled in place. ``wait`` in seconds (negative: forever). MQRC_NO_MSG_AVAILABLE (2033)
        is raised when none arrives."""
        conn = self._qm.get_handle()
        md_wire, gmo_wire = common.get_request(md, gmo, wait=wait, msg_id=msg_id, correl_id=correl_id,
                                               syncpoint=syncpoint, ccsid=conn.ccsid)
        browse = gmo_wire["Options"] & _BROWSE_GMO
        hobj = self._handle(cmqc.MQOO_BROWSE if browse else cmqc.MQOO_INPUT_AS_Q_DEF)
        max_length = common.max_length_of(maxLength)
        buffer = conn.read_ahead.get(hobj)
        local = buffer is not None and common.read_ahead_eligible(gmo_wire, md_wire)
        if local:
            assert buffer is not None
            if not buffer.messages:
                conn.take_pushes()
            item = buffer.take()
            if item is not None:
                return self._from_buffer(conn, hobj, buffer, item, max_length, md, gmo, gmo_wire["Options"])
        waiting = bool(gmo_wire["Options"] & cmqc.MQGMO_WAIT) and gmo_wire["WaitInterval"] != 0
        for _ in range(3):
            cc, reason, result = conn.request(Op.GET, [hobj, md_wire, gmo_wire, max_length])
            if not (local and reason == cmqc.MQRC_NO_MSG_AVAILABLE):
                break
            assert buffer is not None
            if not buffer.messages:
                # Messages released by a credit grant may follow this reply in the stream;
                # a round trip brings in everything the queue manager sent before it.
                conn.ping()
            item = buffer.take()  # pushed while our get waited
            if item is not None:
                return self._from_buffer(conn, hobj, buffer, item, max_length, md, gmo, gmo_wire["Options"])
            if not waiting or result != SENT_AHEAD:
                break
            # The queue manager answered at once because it had sent messages ahead since our
            # last get (they might have been in flight); none was for us, so now wait for real.
        return common.finish_get(cc, reason, result, md, gmo)

    @staticmethod
    def _from_buffer(conn: Connection, hobj: int, buffer: common.ReadAhead, item: list[Any],
                     max_length: int, md: MD | None, gmo: GMO | None, options: int) -> ReceivedMessage:
        cc, reason, result = common.from_buffer(item, max_length, options)
        if cc == cmqc.MQCC_FAILED:  # too long and not accepted truncated: it stays first
            buffer.messages.appendleft(item)
            buffer.taken -= 1
        due = buffer.credit_due()
        if due:
            conn.grant_credit(hobj, due)
        return common.finish_get(cc, reason, result, md, gmo)

    def get_no_jms(self, max_length: int | None = None, md: MD | None = None, gmo: GMO | None = None
                   ) -> ReceivedMessage:
        gmo = gmo if gmo is not None else GMO()
        gmo.Options = gmo.Options | cmqc.MQGMO_NO_PROPERTIES | cmqc.MQGMO_FAIL_IF_QUIESCING
        return self.get(max_length, md, gmo)

    get_no_rfh2 = get_no_jms

    def messages(self, wait: float | None = None, **get_options: Any) -> Iterator[ReceivedMessage]:
        """Get messages until none arrives within ``wait`` seconds."""
        while True:
            try:
                yield self.get(wait=wait, **get_options)
            except MQMIError as e:
                if e.reason == cmqc.MQRC_NO_MSG_AVAILABLE:
                    return
                raise

    def browse(self, wait: float | None = None) -> Iterator[ReceivedMessage]:
        """Browse the queue from the start, leaving messages in place."""
        options = cmqc.MQGMO_BROWSE_FIRST
        while True:
            try:
                message = self.get(None, None, GMO(Options=options), wait=wait)
            except MQMIError as e:
                if e.reason == cmqc.MQRC_NO_MSG_AVAILABLE:
                    return
                raise
            options = cmqc.MQGMO_BROWSE_NEXT
            yield message

    def __iter__(self) -> Iterator[ReceivedMessage]:
        return self.messages()

    # -- attributes ---------------------------------------------------------------------------------
    def inquire(self, attribute: int) -> Any:
        """MQINQ: an integer, or a blank-padded ``bytes`` for character attributes (pymqi)."""
        hobj = self._handle(cmqc.MQOO_INQUIRE)
        value = self._qm.get_handle().call(Op.INQ, [hobj, [int(attribute)]])[0]
        return _inq_value(attribute, value)

    def set(self, attribute: int, arg: Any) -> None:
        """MQSET: one attribute (the inhibit switches and trigger attributes, as MQ allows)."""
        hobj = self._handle(cmqc.MQOO_SET)
        self._qm.get_handle().call(Op.SET, [hobj, {int(attribute): _attr_value(arg)}])

    @property
    def depth(self) -> int:
        """CURDEPTH, the number of messages on the queue."""
        return int(self.inquire(cmqc.MQIA_CURRENT_Q_DEPTH))

    # -- Python protocols -----------------------------------------------------------------------
    def __enter__(self) -> Queue:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self.is_open:
            with contextlib.suppress(MQMIError, PYIFError):
                self.close()

    def __repr__(self) -> str:
        return f"<Queue {self.name!r} {'open' if self.is_open else 'closed'}>"


def connect(queue_manager: str | bytes | None = None, channel: str | bytes | None = None,
            conn_info: str | bytes | None = None, user: str | None = None, password: str | None = None,
            disconnect_on_exit: bool = True, bytes_encoding: str = "utf8", default_ccsid: int = 1208, *,
            host: str | None = None, port: int | None = None) -> QueueManager:
    """Connect and return a ``QueueManager``.

    pymqi style: ``connect("QM1")`` (local), ``connect("QM1", "SVRCONN", "host(1414)", user,
    password)`` (client). mqlite also takes ``host=``/``port=``, and with no name the default
    queue manager, else ``MQSERVER``. A local connection runs as the calling OS user.
    """
    qm = QueueManager(None, disconnect_on_exit, bytes_encoding=bytes_encoding, default_ccsid=default_ccsid)
    if conn_info is not None or host is not None or port is not None:
        target = resolve_target(queue_manager, host=host, port=port, channel=channel, conn_info=conn_info)
    else:
        target = resolve_target(queue_manager, channel=channel)
    qm._open(target, user, password)
    return qm
