"""The asyncio client: the Pythonic surface of the blocking one, awaited.

One reader task per connection reads frames and completes each call's future by req_id, so
any number of tasks can have calls in flight on one connection; read-ahead messages go to
their handle's buffer, asynchronous-put failures are recorded
like the blocking client does. Request building and reply interpretation are shared with it
(``mqlite.client.common``); only the I/O differs.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
from collections.abc import AsyncIterator
from types import TracebackType
from typing import Any

from mqlite import cmqc
from mqlite.client import common
from mqlite.client.common import (
    AsyncPuts,
    Endpoint,
    ReadAhead,
    ReceivedMessage,
    Target,
    buffer_pushes,
    resolve_target,
)
from mqlite.client.errors import MQMIError, PYIFError
from mqlite.client.pymqi_api import _BROWSE_GMO, _INPUT, _inq_value, _props, make_q_desc
from mqlite.client.structs import GMO, MD, OD, PMO, STS, md_fill, od_fill, od_to_wire, text
from mqlite.client.sync import checked
from mqlite.protocol import native
from mqlite.protocol.native import NEED_DATA, SENT_AHEAD, Op, ProtocolError, Push, Reply, Role

__all__ = ["AsyncConnection", "Queue", "QueueManager", "connect"]


async def _open_stream(endpoint: Endpoint, timeout: float | None
                       ) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    try:
        if endpoint.unix is not None:
            return await asyncio.wait_for(asyncio.open_unix_connection(endpoint.unix), timeout)
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection(endpoint.host or "127.0.0.1", endpoint.port), timeout)
    except (OSError, TimeoutError) as e:
        reason = cmqc.MQRC_Q_MGR_NOT_AVAILABLE if endpoint.unix is not None else cmqc.MQRC_HOST_NOT_AVAILABLE
        raise MQMIError(cmqc.MQCC_FAILED, reason, text=str(e)) from None
    sock = writer.get_extra_info("socket")
    if sock is not None:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return reader, writer


class AsyncConnection:
    """One connection; ``call`` awaits the reply to its own request."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._reader, self._writer = reader, writer
        self._codec = native.NativeConnection(Role.CLIENT)
        self._pending: dict[int, asyncio.Future[Reply]] = {}
        self._next_id = 1
        self.broken: MQMIError | None = None
        self.connected = False
        self.read_ahead: dict[int, ReadAhead] = {}
        self.async_puts = AsyncPuts()
        self._task = asyncio.get_running_loop().create_task(self._read_loop())
        self.qmgr_name = self.user = self.conn_id = ""
        self.maxmsgl = 0
        self.ccsid = 1208

    @classmethod
    async def open(cls, target: Target, user: str | None = None, password: str | None = None,
                   name: str | None = None, timeout: float | None = 30.0) -> AsyncConnection:
        error: MQMIError | None = None
        for endpoint in target.endpoints:
            try:
                reader, writer = await _open_stream(endpoint, timeout)
                break
            except MQMIError as e:
                error = e
        else:
            raise error or MQMIError(cmqc.MQCC_FAILED, cmqc.MQRC_Q_MGR_NOT_AVAILABLE)
        self = cls(reader, writer)
        try:
            info = await self.call(Op.CONNECT, [target.qmgr, user, password, name or common.appl_name(),
                                                os.getpid()])
        except MQMIError:
            await self._shutdown()
            raise
        self.qmgr_name, self.user, self.conn_id = info["qmgr"], info["user"], info["conn_id"]
        self.maxmsgl, self.ccsid = info["maxmsgl"], info["ccsid"]
        self.connected = True
        return self

    async def call(self, op: Op, args: list[Any]) -> Any:
        cc, reason, result = await self.request(op, args)
        common.raise_for(cc, reason, result)
        return result

    async def request(self, op: Op, args: list[Any]) -> tuple[int, int, Any]:
        if self.broken is not None:
            raise self.failure()
        req_id = self._next_id
        self._next_id = req_id + 1 if req_id < 0x7FFFFFFF else 1
        future: asyncio.Future[Reply] = asyncio.get_running_loop().create_future()
        self._pending[req_id] = future
        try:
            self._writer.write(native.encode_request(op, req_id, args))
            await self._writer.drain()
            reply = await future
        except OSError as e:
            self._pending.pop(req_id, None)  # this caller is told below, not through its future
            if future.done() and not future.cancelled():
                future.exception()
            raise self._lost(str(e)) from None
        finally:
            self._pending.pop(req_id, None)
        return checked(op, reply)

    async def send(self, frame: bytes) -> None:
        """A frame without a reply (asynchronous put, credit); waits only for buffer space."""
        if self.broken is not None:
            raise self.failure()
        try:
            self._writer.write(frame)
            await self._writer.drain()
        except OSError as e:
            raise self._lost(str(e)) from None

    async def start_read_ahead(self, hobj: int, window: int) -> None:
        self.read_ahead[hobj] = ReadAhead(window)
        await self.send(native.encode_credit(hobj, window))

    def close_handle(self, hobj: int) -> None:
        self.read_ahead.pop(hobj, None)

    async def disconnect(self) -> None:
        if not self.connected:
            return
        self.connected = False
        try:
            if self.broken is None:
                await self.call(Op.DISCONNECT, [])
        finally:
            await self._shutdown()

    async def _shutdown(self) -> None:
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self._task
        self._writer.close()
        with contextlib.suppress(OSError):
            await self._writer.wait_closed()

    async def _read_loop(self) -> None:
        codec = self._codec
        try:
            while True:
                data = await self._reader.read(1 << 18)
                if not data:
                    raise ConnectionResetError("the queue manager closed the connection")
                codec.receive_data(data)
                while (event := codec.next_event()) is not NEED_DATA:
                    if isinstance(event, Reply):
                        future = self._pending.get(event.req_id)
                        if future is not None and not future.done():
                            future.set_result(event)
                    elif isinstance(event, Push):
                        self._on_push(event)
        except (OSError, ProtocolError) as e:
            self._lost(str(e))

    def _on_push(self, push: Push) -> None:
        if push.kind is Op.PUSH_MSG:
            buffer_pushes(self.read_ahead, [push.args])
        elif push.kind is Op.PUSH_MSGS:
            buffer_pushes(self.read_ahead, push.args[0])
        elif push.kind is Op.PUSH_ERROR:
            self.async_puts.failed(*push.args)

    def _lost(self, why: str) -> MQMIError:
        if self.broken is None:
            self.broken = MQMIError(cmqc.MQCC_FAILED, cmqc.MQRC_CONNECTION_BROKEN, text=why)
            self.connected = False
            for future in self._pending.values():
                if not future.done():
                    future.set_exception(self.failure())
            self._writer.close()
        return self.failure()

    def failure(self) -> MQMIError:
        """A fresh MQRC_CONNECTION_BROKEN for each caller (one exception object raised in
        many places would pile up every caller's traceback on it)."""
        broken = self.broken or MQMIError(cmqc.MQCC_FAILED, cmqc.MQRC_CONNECTION_BROKEN)
        return MQMIError(broken.comp, broken.reason, text=getattr(broken, "text", ""))


class QueueManager:
    """An asyncio connection to a queue manager; ``await mqlite.aio.connect("QM1")``."""

    def __init__(self, conn: AsyncConnection) -> None:
        self._conn: AsyncConnection | None = conn
        self._qmobj: int | None = None
        self.name = conn.qmgr_name
        self.bytes_encoding = "utf8"
        self.default_ccsid = 1208

    def get_handle(self) -> AsyncConnection:
        if self._conn is None or not self._conn.connected:
            raise self._conn.failure() if self._conn is not None and self._conn.broken else PYIFError("not connected")
        return self._conn

    async def disconnect(self) -> None:
        if self._conn is None:
            raise PYIFError("not connected")
        conn, self._conn = self._conn, None
        await conn.disconnect()

    async def commit(self) -> None:
        """MQCMIT; backs out and raises MQRC_BACKED_OUT if an asynchronous put of the unit failed."""
        conn = self.get_handle()
        if conn.async_puts.in_syncpoint:
            await conn.call(Op.PING, [])
            conn.async_puts.in_syncpoint = False
            if conn.async_puts.failures:
                await conn.call(Op.BACKOUT, [])
                conn.async_puts.failures.clear()
                raise MQMIError(cmqc.MQCC_FAILED, cmqc.MQRC_BACKED_OUT)
        await conn.call(Op.COMMIT, [])

    async def backout(self) -> None:
        conn = self.get_handle()
        conn.async_puts.in_syncpoint = False
        await conn.call(Op.BACKOUT, [])

    async def put1(self, q_desc: OD | str | bytes, msg: bytes | str, md: MD | None = None,
                   pmo: PMO | None = None, **kw: Any) -> None:
        conn = self.get_handle()
        conn.async_puts.raise_pending()
        body, md = common.encode_body(msg, md, self.bytes_encoding, self.default_ccsid)
        options = common.put_options(pmo, syncpoint=kw.pop("syncpoint", None),
                                     asynchronous=kw.pop("asynchronous", None))
        props = _props(kw.pop("properties", None), pmo)
        wire = common.put_md(md, conn.ccsid, **kw)
        args = [od_to_wire(make_q_desc(q_desc)), wire, options, props, body]
        if options & cmqc.MQPMO_ASYNC_RESPONSE:
            args[2] = common.prepare_async(wire, options, conn.async_puts)
            await conn.send(native.encode_request(Op.PUT1, 0, args))
            if md is not None:
                md.MsgId = wire[9]
            return
        result = await conn.call(Op.PUT1, args)
        if md is not None:
            md_fill(md, result)

    async def inquire(self, attribute: int) -> Any:
        conn = self.get_handle()
        if self._qmobj is None:
            od = {**native.OD_DEFAULTS, "ObjectType": cmqc.MQOT_Q_MGR}
            self._qmobj = (await conn.call(Op.OPEN, [od, cmqc.MQOO_INQUIRE]))[0]
        return _inq_value(attribute, (await conn.call(Op.INQ, [self._qmobj, [int(attribute)]]))[0])

    async def stat(self) -> STS:
        conn = self.get_handle()
        result = await conn.call(Op.STAT, [])
        conn.async_puts.failures.clear()
        comp = (cmqc.MQCC_FAILED if result["put_failure"] else
                cmqc.MQCC_WARNING if result["put_warning"] else cmqc.MQCC_OK)
        return STS(CompCode=comp, Reason=result["reason"], PutSuccessCount=result["put_success"],
                   PutWarningCount=result["put_warning"], PutFailureCount=result["put_failure"])

    async def mqsc(self, command_text: str) -> tuple[int, list[str]]:
        code, lines = await self.get_handle().call(Op.MQSC, [command_text])
        return int(code), list(lines)

    async def ping(self) -> None:
        await self.get_handle().call(Op.PING, [])

    async def __aenter__(self) -> QueueManager:
        return self

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None,
                        tb: TracebackType | None) -> None:
        if self._conn is None:
            return
        with contextlib.suppress(MQMIError, PYIFError):
            if error is not None and self._conn.connected:
                await self.backout()
            await self.disconnect()


class Queue:
    """An asyncio queue, opened at once by ``open()`` or on first use like the blocking ``Queue``."""

    def __init__(self, qmgr: QueueManager, q_desc: OD | str | bytes, open_opts: int | None = None, *,
                 read_ahead_window: int = common.READ_AHEAD_WINDOW) -> None:
        self._qm = qmgr
        self._od = make_q_desc(q_desc)
        self._explicit = open_opts
        self._handles = common.HandleSet()
        self._window = read_ahead_window
        self._lock = asyncio.Lock()  # one open/re-open at a time

    @property
    def name(self) -> str:
        return text(self._od.ObjectName)

    @property
    def is_open(self) -> bool:
        return bool(self._handles.all())

    async def open(self, open_opts: int | None = None) -> None:
        """Open now with ``open_opts`` (or those given at construction): one handle, no re-opens."""
        options = open_opts if open_opts is not None else self._explicit
        if options is None:
            raise PYIFError("no open options")
        if self.is_open:
            raise PYIFError("The Queue is already open")
        self._explicit = options
        self._handles.explicit = await self._open(options)

    async def _open(self, options: int) -> int:
        conn = self._qm.get_handle()
        hobj, resolved_q, resolved_qmgr, read_ahead = await conn.call(Op.OPEN, [od_to_wire(self._od), options])
        od_fill(self._od, resolved_q, resolved_qmgr)
        if read_ahead and options & _INPUT:
            await conn.start_read_ahead(hobj, self._window)
        return int(hobj)

    async def _handle(self, needed: int) -> int:
        async with self._lock:
            if self._explicit is not None and not self.is_open:
                self._handles.explicit = await self._open(self._explicit)
            hobj, stale, options = self._handles.plan(needed)
            if hobj is not None:
                return hobj
            conn = self._qm.get_handle()
            old = conn.read_ahead.get(stale) if stale is not None else None
            if stale is not None:
                await self._close_one(stale, cmqc.MQCO_NONE)
            hobj = await self._open(options)
            self._handles.opened(hobj, options)
            if old is not None and old.messages:
                buffer = conn.read_ahead.setdefault(hobj, ReadAhead(self._window))
                buffer.messages.extendleft(reversed(old.messages))
            return hobj

    async def close(self, options: int = cmqc.MQCO_NONE) -> None:
        """MQCLOSE (every handle); read-ahead messages not yet got are discarded."""
        handles = self._handles.all()
        if not handles:
            raise PYIFError("not open")
        for hobj in handles:
            await self._close_one(hobj, options)

    async def _close_one(self, hobj: int, options: int) -> None:
        self._handles.forget(hobj)
        conn = self._qm.get_handle()
        conn.close_handle(hobj)
        await conn.call(Op.CLOSE, [hobj, options])

    async def put(self, msg: bytes | str, md: MD | None = None, pmo: PMO | None = None, *,
                  properties: dict[str, Any] | None = None, syncpoint: bool | None = None,
                  asynchronous: bool | None = None, **md_fields: Any) -> None:
        """MQPUT, with the blocking ``Queue.put``'s arguments."""
        conn = self._qm.get_handle()
        conn.async_puts.raise_pending()
        body, md = common.encode_body(msg, md, self._qm.bytes_encoding, self._qm.default_ccsid)
        hobj = await self._handle(cmqc.MQOO_OUTPUT)
        wire = common.put_md(md, conn.ccsid, **md_fields)
        options = common.put_options(pmo, syncpoint=syncpoint, asynchronous=asynchronous)
        props = _props(properties, pmo)
        if options & cmqc.MQPMO_ASYNC_RESPONSE:
            options = common.prepare_async(wire, options, conn.async_puts)
            await conn.send(native.encode_put(0, hobj, wire, options, props, body))
            if md is not None:
                md.MsgId = wire[9]
            return
        result = await conn.call(Op.PUT, [hobj, wire, options, props, body])
        if md is not None:
            md_fill(md, result)

    async def get(self, max_length: int | None = None, md: MD | None = None, gmo: GMO | None = None, *,
                  wait: float | None = None, msg_id: bytes | None = None, correl_id: bytes | None = None,
                  syncpoint: bool | None = None) -> ReceivedMessage:
        """MQGET, with the blocking ``Queue.get``'s arguments; 2033 raised when none arrives."""
        conn = self._qm.get_handle()
        md_wire, gmo_wire = common.get_request(md, gmo, wait=wait, msg_id=msg_id, correl_id=correl_id,
                                               syncpoint=syncpoint, ccsid=conn.ccsid)
        browse = gmo_wire["Options"] & _BROWSE_GMO
        hobj = await self._handle(cmqc.MQOO_BROWSE if browse else cmqc.MQOO_INPUT_AS_Q_DEF)
        length = common.max_length_of(max_length)
        buffer = conn.read_ahead.get(hobj)
        if buffer is not None and common.read_ahead_eligible(gmo_wire, md_wire):
            return await self._get_ahead(conn, hobj, buffer, md_wire, gmo_wire, length, md, gmo)
        cc, reason, result = await conn.request(Op.GET, [hobj, md_wire, gmo_wire, length])
        return common.finish_get(cc, reason, result, md, gmo)

    async def _get_ahead(self, conn: AsyncConnection, hobj: int, buffer: ReadAhead, md_wire: list[Any],
                         gmo_wire: dict[str, int], length: int, md: MD | None, gmo: GMO | None
                         ) -> ReceivedMessage:
        """A get on a read-ahead handle: the buffer first, else the queue manager (persistent
        messages never come ahead), and a message pushed meanwhile wins over 2033."""
        item = buffer.take()
        waiting = bool(gmo_wire["Options"] & cmqc.MQGMO_WAIT) and gmo_wire["WaitInterval"] != 0
        attempts = 3  # an immediate 2033 after messages went ahead is retried (see Queue.get)
        while item is None:
            attempts -= 1
            cc, reason, result = await conn.request(Op.GET, [hobj, md_wire, gmo_wire, length])
            if reason == cmqc.MQRC_NO_MSG_AVAILABLE and not buffer.messages:
                await conn.call(Op.PING, [])  # brings in pushes sent before its reply
            if reason != cmqc.MQRC_NO_MSG_AVAILABLE:
                return common.finish_get(cc, reason, result, md, gmo)
            item = buffer.take()
            if item is None and (not waiting or not attempts or result != SENT_AHEAD):
                return common.finish_get(cc, reason, result, md, gmo)
        cc, reason, result = common.from_buffer(item, length, gmo_wire["Options"])
        if cc == cmqc.MQCC_FAILED:
            buffer.messages.appendleft(item)
            buffer.taken -= 1
        due = buffer.credit_due()
        if due:
            await conn.send(native.encode_credit(hobj, due))
        return common.finish_get(cc, reason, result, md, gmo)

    async def messages(self, wait: float | None = None, **get_options: Any) -> AsyncIterator[ReceivedMessage]:
        """Get messages until none arrives within ``wait`` seconds."""
        while True:
            try:
                message = await self.get(wait=wait, **get_options)
            except MQMIError as e:
                if e.reason == cmqc.MQRC_NO_MSG_AVAILABLE:
                    return
                raise
            yield message

    async def browse(self, wait: float | None = None) -> AsyncIterator[ReceivedMessage]:
        """Browse from the start, leaving messages in place."""
        options = cmqc.MQGMO_BROWSE_FIRST
        while True:
            try:
                message = await self.get(None, None, GMO(Options=options), wait=wait)
            except MQMIError as e:
                if e.reason == cmqc.MQRC_NO_MSG_AVAILABLE:
                    return
                raise
            options = cmqc.MQGMO_BROWSE_NEXT
            yield message

    def __aiter__(self) -> AsyncIterator[ReceivedMessage]:
        return self.messages()

    async def inquire(self, attribute: int) -> Any:
        hobj = await self._handle(cmqc.MQOO_INQUIRE)
        return _inq_value(attribute, (await self._qm.get_handle().call(Op.INQ, [hobj, [int(attribute)]]))[0])

    async def set(self, attribute: int, value: Any) -> None:
        hobj = await self._handle(cmqc.MQOO_SET)
        arg = text(value) if isinstance(value, bytes | str) else int(value)
        await self._qm.get_handle().call(Op.SET, [hobj, {int(attribute): arg}])

    async def depth(self) -> int:
        return int(await self.inquire(cmqc.MQIA_CURRENT_Q_DEPTH))

    async def __aenter__(self) -> Queue:
        return self

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None,
                        tb: TracebackType | None) -> None:
        if self.is_open:
            with contextlib.suppress(MQMIError, PYIFError):
                await self.close()


async def connect(queue_manager: str | bytes | None = None, channel: str | bytes | None = None,
                  conn_info: str | bytes | None = None, user: str | None = None, password: str | None = None,
                  *, host: str | None = None, port: int | None = None) -> QueueManager:
    """Connect like ``mqlite.connect`` and return an asyncio ``QueueManager``."""
    target = resolve_target(queue_manager, host=host, port=port, channel=channel, conn_info=conn_info)
    if user and password is None:
        raise ValueError("Password must not be None if user is provided")
    conn = await AsyncConnection.open(target, text(user) if user else None,
                                      text(password) if user and password is not None else None)
    return QueueManager(conn)
