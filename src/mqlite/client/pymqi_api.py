"""pymqi's API over the blocking client, plus the Pythonic layer on the same classes.

``import mqlite as pymqi`` and a pymqi program runs: ``QueueManager`` is pymqi's connection
handle, ``Queue`` opens lazily on first use (MQOO_OUTPUT for put, MQOO_INPUT_AS_Q_DEF for
get), ``get`` returns the body and fills ``md`` in place, failures raise ``MQMIError``.
The same objects take keywords (``q.get(wait=1.0)``, ``q.put(body, properties=...,
persistent=True)``), are context managers and iterate, and ``get`` returns a ``bytes``
subclass carrying ``.md`` and ``.properties``: one surface for both audiences.

The calls' logic is ``mqlite.client.mqi`` (shared with ``mqlite.aio``); these classes only
run it on a blocking ``sync.Connection`` and keep pymqi's signatures.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Iterator
from types import TracebackType
from typing import Any

from mqlite import cmqc
from mqlite.client import common
from mqlite.client.common import ReceivedMessage, resolve_target
from mqlite.client.errors import MQMIError, PYIFError
from mqlite.client.mqi.connection import QueueManagerCore, make_q_desc
from mqlite.client.mqi.queue import QueueCore
from mqlite.client.rfh2_chain import headers_argument, pack_chain, unpack_chain
from mqlite.client.session import READ_AHEAD_WINDOW, Call
from mqlite.client.structs import CD, CSP, GMO, MD, OD, PMO, SCO, STS, cd_fields, text
from mqlite.client.sync import Connection
from mqlite.client.tls import tls_options

__all__ = ["Queue", "QueueManager", "connect", "make_q_desc"]


class QueueManager(QueueManagerCore):
    """A connection to a queue manager (pymqi's meaning: a connection handle, MQHCONN).

    ``QueueManager("QM1")`` connects at once; ``QueueManager(None)`` waits for ``connect*``.
    """

    def __init__(self, name: str | bytes | None = "", disconnect_on_exit: bool = True,
                 bytes_encoding: str = "utf8", default_ccsid: int = 1208, *, host: str | None = None,
                 port: int | None = None, channel: str | None = None, conn_info: str | None = None,
                 user: str | None = None, password: str | None = None) -> None:
        self._conn: Connection | None = None
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
        connection; its SSLCipherSpec asks for TLS, with its SSLPeerName and CertificateLabel),
        ``sco`` (its KeyRepository and CertificateLabel), ``csp`` (an MQCSP with CSPUserId and
        CSPPassword), or ``user`` and ``password``."""
        if len(args) > 2:
            raise TypeError(f"Invalid options: {args}")
        if args:
            kwargs["cd"] = args[0]
        if len(args) == 2:
            kwargs["sco"] = args[1]
        cd: CD | None = kwargs.get("cd")
        if cd is not None and text(cd.ConnectionName):
            sco: SCO = kwargs.get("sco") or SCO()
            tls = tls_options(cd.SSLCipherSpec, sco.KeyRepository,
                              text(cd.CertificateLabel) or sco.CertificateLabel, cd.SSLPeerName)
            target = resolve_target(name, channel=cd.ChannelName, conn_info=cd.ConnectionName, tls=tls)
            target = dataclasses.replace(target, cd_fields=cd_fields(cd))
        else:
            target = resolve_target(name)
        user, password = kwargs.get("user"), kwargs.get("password")
        csp: CSP | None = kwargs.get("csp")
        if csp is not None and user is None and text(csp.CSPUserId):
            user, password = text(csp.CSPUserId), text(csp.CSPPassword)
        self._open(target, user, password)

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
        conn, self._conn = self._conn, None
        self.forget_qmgr_object()
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
        conn.run(self.plan_commit(conn))

    def backout(self) -> None:
        conn = self.get_handle()
        conn.run(self.plan_backout(conn))

    # -- calls --------------------------------------------------------------------------------
    def put1(self, qDesc: OD | str | bytes, msg: bytes | str, md: MD | None = None,
             pmo: PMO | None = None, **kw: Any) -> None:
        """MQPUT1: open, put one message, close, in one call (keywords as ``Queue.put``)."""
        conn = self.get_handle()
        conn.run(self.plan_put1(conn, qDesc, msg, md, pmo, kw))

    def inquire(self, attribute: int) -> Any:
        """MQINQ on the queue manager object."""
        conn = self.get_handle()
        return conn.run(self.plan_inquire(conn, attribute))

    def stat(self) -> STS:
        """MQSTAT(MQSTAT_TYPE_ASYNC_ERROR): asynchronous-put outcomes since last asked; reading
        them also clears the failures the next put would otherwise raise."""
        conn = self.get_handle()
        return conn.run(self.plan_stat(conn))

    def mqsc(self, command_text: str) -> tuple[int, list[str]]:
        """Run MQSC commands on the queue manager: (exit code 0/10/20, runmqsc's lines)."""
        conn = self.get_handle()
        return conn.run(self.plan_mqsc(conn, command_text))

    def ping(self) -> None:
        conn = self.get_handle()
        conn.run(self.plan_ping(conn))

    # -- offsets (an mqlite addition, for stream readers such as the Spark source) --------------
    def queue_offsets(self, queue: str) -> tuple[int, int]:
        """(the sequence number before the oldest available message, the newest) of a local queue."""
        conn = self.get_handle()
        return conn.run(self.plan_queue_offsets(conn, queue))

    def browse_range(self, queue: str, after: int, through: int, limit: int = 10_000
                     ) -> list[tuple[int, ReceivedMessage]]:
        """The messages with ``after < seq <= through`` (at most ``limit``), left on the queue."""
        conn = self.get_handle()
        return conn.run(self.plan_browse_range(conn, queue, after, through, limit))

    def remove_through(self, queue: str, through: int) -> int:
        """Remove the messages with ``seq <= through`` (a range the reader has committed)."""
        conn = self.get_handle()
        return conn.run(self.plan_remove_through(conn, queue, through))

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


class Queue(QueueCore):
    """A queue (MQOPEN). Opened at once when given options, else on first use.

    With explicit options there is one handle and a call it does not allow fails with the
    queue manager's reason (e.g. MQRC_NOT_OPEN_FOR_INPUT), as in pymqi. Opened implicitly,
    the queue opens a handle per need on first use (see ``mqi.queue.HandleSet``), so
    ``q.put(...)`` then ``q.get()`` just works.
    """

    _qm: QueueManager
    _opened_on: Connection | None = None  # the connection its handles belong to

    def __init__(self, qMgr: QueueManager, q_desc: OD | str | bytes | None = None,
                 open_opts: int | None = None, *, read_ahead_window: int = READ_AHEAD_WINDOW) -> None:
        super().__init__(qMgr, q_desc, open_opts, read_ahead_window)
        if self._open_options is not None:
            self.open(None, self._open_options)

    def _handle(self, conn: Connection, needed: int) -> int:
        hobj = self.ready_handle(needed)
        if hobj is None:
            hobj = conn.run(self.plan_handle(conn, needed))
            self._opened_on = conn
        return hobj

    def __del__(self) -> None:
        """A queue dropped while open is closed, as pymqi's ``Queue.__del__`` does (programs and
        pymqi's own tests rely on it): on the connection it was opened on, before that
        connection's next call (``sync.Connection.close_later``)."""
        conn = self._opened_on
        handles = getattr(self, "_handles", None)
        if conn is None or handles is None:
            return
        for hobj in handles.all():
            conn.close_later(hobj)

    def open(self, q_desc: OD | str | bytes | None, open_opts: int | None = None) -> None:
        """Set the queue (name or OD); open now if ``open_opts`` is given, else on first use."""
        if open_opts is None:
            if self.is_open:
                raise PYIFError("The Queue is already open")
            self._od = make_q_desc(q_desc) if q_desc is not None else self._od
            return
        conn = self._qm.get_handle()
        conn.run(self.plan_open_explicit(conn, q_desc, open_opts))
        self._opened_on = conn

    def close(self, options: int = cmqc.MQCO_NONE) -> None:
        """MQCLOSE (every handle); read-ahead messages not yet got are discarded, as IBM does."""
        conn = self._qm.get_handle()
        conn.run(self.plan_close(conn, options))

    # -- messages ---------------------------------------------------------------------------------
    def put(self, msg: bytes | str, md: MD | None = None, pmo: PMO | None = None, *,
            properties: dict[str, Any] | None = None, syncpoint: bool | None = None,
            asynchronous: bool | None = None, **md_fields: Any) -> None:
        """MQPUT. ``md``/``pmo`` as pymqi (``md`` is completed in place: MsgId, PutDate...;
        ``pmo`` gets the resolved queue and queue manager names).

        Keywords: ``properties``, ``persistent``, ``priority``, ``expiry`` (seconds),
        ``msg_id``, ``correl_id``, ``format``, ``reply_to``, ``reply_to_qmgr``, ``msg_type``,
        ``syncpoint``, ``asynchronous`` (MQPMO_ASYNC_RESPONSE: returns at once; a failure is
        raised by the next put on this connection, or reported by ``QueueManager.stat()``).
        """
        conn = self._qm.get_handle()
        hobj = self._handle(conn, cmqc.MQOO_OUTPUT)
        step, md = self.put_step(conn, hobj, msg, md, pmo, properties, syncpoint, asynchronous, md_fields)
        self.put_done(md, conn.perform(step), pmo)

    def get(self, maxLength: int | None = None, md: MD | None = None, gmo: GMO | None = None, *,
            wait: float | None = None, msg_id: bytes | None = None, correl_id: bytes | None = None,
            syncpoint: bool | None = None) -> ReceivedMessage:
        """MQGET: the message body (``bytes`` with ``.md`` and ``.properties``); ``md`` is
        filled in place. ``wait`` in seconds (negative: forever). MQRC_NO_MSG_AVAILABLE (2033)
        is raised when none arrives."""
        conn = self._qm.get_handle()
        md_wire, gmo_wire, needed = self.get_request(conn, md, gmo, wait, msg_id, correl_id, syncpoint)
        hobj = self._handle(conn, needed)
        step = self.get_step(conn, hobj, md_wire, gmo_wire, maxLength, md, gmo)
        if isinstance(step, Call):
            return self.get_done(conn.request(step[0], step[1]), md, gmo)
        if step is None:
            return conn.run(self.plan_get(conn, hobj, md_wire, gmo_wire, maxLength, md, gmo))
        return step  # from the read-ahead buffer

    def put_rfh2(self, msg: bytes, *opts: Any) -> None:
        """pymqi's ``put_rfh2(msg, md, pmo, [rfh2, ...])``: the RFH2 headers packed in front of
        ``msg`` (``mqlite.client.rfh2_chain``); the MD must already name MQFMT_RF_HEADER_2."""
        headers = headers_argument(opts)
        if headers is None:
            self.put(msg, *opts[:2])
            return
        self.put(pack_chain(msg, opts[0], headers), *opts[:2])

    def get_rfh2(self, max_length: int | None = None, *opts: Any) -> bytes:
        """pymqi's ``get_rfh2(max_length, md, gmo, headers)``: the message data after its RFH2
        headers, which are appended to the list ``headers`` as ``RFH2`` objects."""
        if len(opts) >= 3 and opts[2] is None:
            raise AttributeError("get_opts cannot be None if passed.")
        headers = headers_argument(opts)
        message = self.get(max_length, *opts[:2])
        if headers is None:
            return message
        return unpack_chain(message, opts[0], headers)

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
        conn = self._qm.get_handle()
        return conn.run(self.plan_inquire(conn, self._handle(conn, cmqc.MQOO_INQUIRE), attribute))

    def set(self, attribute: int, arg: Any) -> None:
        """MQSET: one attribute (the inhibit switches and trigger attributes, as MQ allows)."""
        conn = self._qm.get_handle()
        conn.run(self.plan_set(conn, self._handle(conn, cmqc.MQOO_SET), attribute, arg))

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
            host: str | None = None, port: int | None = None, ssl_cipher_spec: str | None = None,
            key_repository: str | None = None, cert_label: str | None = None,
            ssl_peer_name: str | None = None) -> QueueManager:
    """Connect and return a ``QueueManager``.

    pymqi style: ``connect("QM1")`` (local), ``connect("QM1", "SVRCONN", "host(1414)", user,
    password)`` (client). mqlite also takes ``host=``/``port=``, and with no name the default
    queue manager, else ``MQSERVER``. A local connection runs as the calling OS user.

    TLS (client mode): ``ssl_cipher_spec`` (an IBM CipherSpec, the channel's SSLCIPH), the
    ``key_repository`` directory (else MQSSLKEYR), the personal certificate's ``cert_label``
    (else MQCERTLABL, else ``ibmwebspheremq<user id>``) and ``ssl_peer_name``, a filter the
    queue manager's certificate must match (2398 when it does not).
    """
    tls = tls_options(ssl_cipher_spec, key_repository, cert_label, ssl_peer_name)
    qm = QueueManager(None, disconnect_on_exit, bytes_encoding=bytes_encoding, default_ccsid=default_ccsid)
    if conn_info is not None or host is not None or port is not None:
        target = resolve_target(queue_manager, host=host, port=port, channel=channel, conn_info=conn_info,
                                tls=tls)
    else:
        target = resolve_target(queue_manager, channel=channel, tls=tls)
    qm._open(target, user, password)
    return qm
