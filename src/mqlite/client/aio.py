"""The asyncio client: the Pythonic surface of the blocking one, awaited.

One reader task per connection reads frames and completes each call's future by req_id, so
any number of tasks can have calls in flight on one connection. The calls themselves are the
blocking client's (``mqlite.client.mqi``, written once without I/O): ``AsyncConnection.run``
carries out their steps with awaits where ``sync.Connection.run`` blocks.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import ssl
from collections.abc import AsyncIterator
from types import TracebackType
from typing import Any, TypeVar

from mqlite import cmqc
from mqlite.client import common
from mqlite.client import tls as client_tls
from mqlite.client.common import Endpoint, ReceivedMessage, Target, resolve_target
from mqlite.client.errors import MQMIError, PYIFError
from mqlite.client.mqi.connection import QueueManagerCore
from mqlite.client.mqi.pubsub import SubscriptionCore, TopicCore, pythonic_sd
from mqlite.client.mqi.queue import QueueCore
from mqlite.client.session import READ_AHEAD_WINDOW, Call, Plan, Send, Session, Step, call, checked
from mqlite.client.structs import GMO, MD, OD, PMO, SD, STS, text
from mqlite.protocol import native
from mqlite.protocol.native import NEED_DATA, Op, ProtocolError, Push, Reply, Role

__all__ = ["AsyncConnection", "Queue", "QueueManager", "Subscription", "Topic", "connect"]

T = TypeVar("T")


async def _open_stream(endpoint: Endpoint, timeout: float | None, target: Target | None = None
                       ) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    tls = target.tls if target is not None and endpoint.unix is None else None
    try:
        if endpoint.unix is not None:
            return await asyncio.wait_for(asyncio.open_unix_connection(endpoint.unix), timeout)
        if tls is not None:
            assert target is not None
            reader, writer = await asyncio.wait_for(asyncio.open_connection(
                endpoint.host or "127.0.0.1", endpoint.port, ssl=client_tls.context(tls),
                server_hostname=client_tls.server_name(target.channel)), timeout)
            try:
                client_tls.check_peer(writer.get_extra_info("ssl_object"), tls)
            except MQMIError:
                writer.close()
                raise
        else:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection(endpoint.host or "127.0.0.1", endpoint.port), timeout)
    except ssl.SSLError as e:
        raise MQMIError(cmqc.MQCC_FAILED, cmqc.MQRC_SSL_INITIALIZATION_ERROR, text=f"TLS handshake: {e}") from None
    except (OSError, TimeoutError) as e:
        reason = cmqc.MQRC_Q_MGR_NOT_AVAILABLE if endpoint.unix is not None else cmqc.MQRC_HOST_NOT_AVAILABLE
        raise MQMIError(cmqc.MQCC_FAILED, reason, text=str(e)) from None
    sock = writer.get_extra_info("socket")
    if sock is not None:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return reader, writer


class AsyncConnection(Session):
    """One connection; ``call`` awaits the reply to its own request."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        super().__init__()
        self._reader, self._writer = reader, writer
        self._codec = native.NativeConnection(Role.CLIENT)
        self._pending: dict[int, asyncio.Future[Reply]] = {}
        self._next_id = 1
        self._task = asyncio.get_running_loop().create_task(self._read_loop())

    @classmethod
    async def open(cls, target: Target, user: str | None = None, password: str | None = None,
                   name: str | None = None, timeout: float | None = 30.0) -> AsyncConnection:
        error: MQMIError | None = None
        for endpoint in target.endpoints:
            try:
                reader, writer = await _open_stream(endpoint, timeout, target)
                break
            except MQMIError as e:
                error = e
        else:
            raise error or MQMIError(cmqc.MQCC_FAILED, cmqc.MQRC_Q_MGR_NOT_AVAILABLE)
        self = cls(reader, writer)
        try:
            info = await self.call(Op.CONNECT, [target.qmgr, user, password, name or common.appl_name(),
                                                os.getpid(), target.channel_definition()])
        except MQMIError as e:
            await self._shutdown()
            raise client_tls.connect_failure(e, None if target.local else target.tls) from None
        self.connected_as(info)
        return self

    async def run(self, plan: Plan[T]) -> T:
        """Carry out a call's plan (``mqlite.client.session``) and return its result."""
        try:
            step = next(plan)
            while True:
                step = plan.send(await self.perform(step))
        except StopIteration as done:
            result: T = done.value
            return result

    async def perform(self, step: Step) -> tuple[int, int, Any] | None:
        """One step: a request's reply; ``None`` for a frame sent, or for DRAIN (the reader task
        has taken every push already)."""
        if type(step) is Call:
            return await self.request(step[0], step[1])
        if type(step) is Send:
            await self.send(step[0])
        return None

    async def call(self, op: Op, args: list[Any]) -> Any:
        """A call's result, or MQMIError for a warning or failure."""
        return await self.run(call(op, args))

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
            raise self._lost(str(e), client_tls.broken_reason(e)) from None

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
                    elif isinstance(event, Push) and (answer := self.on_push(event)) is not None:
                        self._writer.write(answer)  # the channel's heartbeat, answered at once
        except (OSError, ProtocolError) as e:
            self._lost(str(e), client_tls.broken_reason(e))

    def _lost(self, why: str, reason: int = cmqc.MQRC_CONNECTION_BROKEN) -> MQMIError:
        if self.broken is None:
            self.broken = MQMIError(cmqc.MQCC_FAILED, reason, text=why)
            self.connected = False
            for future in self._pending.values():
                if not future.done():
                    future.set_exception(self.failure())
            self._writer.close()
        return self.failure()


class QueueManager(QueueManagerCore):
    """An asyncio connection to a queue manager; ``await mqlite.aio.connect("QM1")``."""

    def __init__(self, conn: AsyncConnection) -> None:
        self._conn: AsyncConnection | None = conn
        self.name = conn.qmgr_name

    def get_handle(self) -> AsyncConnection:
        if self._conn is None or not self._conn.connected:
            raise self._conn.failure() if self._conn is not None and self._conn.broken else PYIFError("not connected")
        return self._conn

    async def disconnect(self) -> None:
        if self._conn is None:
            raise PYIFError("not connected")
        conn, self._conn = self._conn, None
        self.forget_qmgr_object()
        await conn.disconnect()

    async def commit(self) -> None:
        """MQCMIT; backs out and raises MQRC_BACKED_OUT if an asynchronous put of the unit failed."""
        conn = self.get_handle()
        await conn.run(self.plan_commit(conn))

    async def backout(self) -> None:
        conn = self.get_handle()
        await conn.run(self.plan_backout(conn))

    async def put1(self, q_desc: OD | str | bytes, msg: bytes | str, md: MD | None = None,
                   pmo: PMO | None = None, **kw: Any) -> None:
        """MQPUT1, with the blocking ``QueueManager.put1``'s arguments."""
        conn = self.get_handle()
        await conn.run(self.plan_put1(conn, q_desc, msg, md, pmo, kw))

    async def inquire(self, attribute: int) -> Any:
        conn = self.get_handle()
        return await conn.run(self.plan_inquire(conn, attribute))

    async def stat(self) -> STS:
        conn = self.get_handle()
        return await conn.run(self.plan_stat(conn))

    async def mqsc(self, command_text: str) -> tuple[int, list[str]]:
        conn = self.get_handle()
        return await conn.run(self.plan_mqsc(conn, command_text))

    async def ping(self) -> None:
        conn = self.get_handle()
        await conn.run(self.plan_ping(conn))

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


class Queue(QueueCore):
    """An asyncio queue, opened at once by ``open()`` or on first use like the blocking ``Queue``
    (with ``open_opts`` given here, the first call opens with them)."""

    _qm: QueueManager

    def __init__(self, qmgr: QueueManager, q_desc: OD | str | bytes, open_opts: int | None = None, *,
                 read_ahead_window: int = READ_AHEAD_WINDOW) -> None:
        super().__init__(qmgr, q_desc, open_opts, read_ahead_window)
        self._lock = asyncio.Lock()  # one open/re-open at a time

    async def open(self, open_opts: int | None = None) -> None:
        """Open now with ``open_opts`` (or those given at construction): one handle, no re-opens."""
        options = open_opts if open_opts is not None else self._open_options
        if options is None:
            raise PYIFError("no open options")
        conn = self._qm.get_handle()
        async with self._lock:
            await conn.run(self.plan_open_explicit(conn, None, options))

    async def _handle(self, conn: AsyncConnection, needed: int) -> int:
        hobj = self.ready_handle(needed)
        if hobj is None:
            async with self._lock:  # another task may be opening it: wait, then look again
                hobj = await conn.run(self.plan_handle(conn, needed))
        return hobj

    async def close(self, options: int = cmqc.MQCO_NONE) -> None:
        """MQCLOSE (every handle); read-ahead messages not yet got are discarded."""
        conn = self._qm.get_handle()
        await conn.run(self.plan_close(conn, options))

    async def put(self, msg: bytes | str, md: MD | None = None, pmo: PMO | None = None, *,
                  properties: dict[str, Any] | None = None, syncpoint: bool | None = None,
                  asynchronous: bool | None = None, **md_fields: Any) -> None:
        """MQPUT, with the blocking ``Queue.put``'s arguments (``pmo`` gets the resolved names)."""
        conn = self._qm.get_handle()
        hobj = await self._handle(conn, cmqc.MQOO_OUTPUT)
        step, md = self.put_step(conn, hobj, msg, md, pmo, properties, syncpoint, asynchronous, md_fields)
        self.put_done(md, await conn.perform(step), pmo)

    async def get(self, max_length: int | None = None, md: MD | None = None, gmo: GMO | None = None, *,
                  wait: float | None = None, msg_id: bytes | None = None, correl_id: bytes | None = None,
                  syncpoint: bool | None = None) -> ReceivedMessage:
        """MQGET, with the blocking ``Queue.get``'s arguments; 2033 raised when none arrives."""
        conn = self._qm.get_handle()
        md_wire, gmo_wire, needed = self.get_request(conn, md, gmo, wait, msg_id, correl_id, syncpoint)
        hobj = await self._handle(conn, needed)
        step = self.get_step(conn, hobj, md_wire, gmo_wire, max_length, md, gmo)
        if isinstance(step, Call):
            return self.get_done(await conn.request(step[0], step[1]), md, gmo)
        if step is None:
            return await conn.run(self.plan_get(conn, hobj, md_wire, gmo_wire, max_length, md, gmo))
        return step  # from the read-ahead buffer

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
        conn = self._qm.get_handle()
        hobj = await self._handle(conn, cmqc.MQOO_INQUIRE)
        return await conn.run(self.plan_inquire(conn, hobj, attribute))

    async def set(self, attribute: int, value: Any) -> None:
        conn = self._qm.get_handle()
        hobj = await self._handle(conn, cmqc.MQOO_SET)
        await conn.run(self.plan_set(conn, hobj, attribute, value))

    async def depth(self) -> int:
        return int(await self.inquire(cmqc.MQIA_CURRENT_Q_DEPTH))

    async def __aenter__(self) -> Queue:
        return self

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None,
                        tb: TracebackType | None) -> None:
        if self.is_open:
            with contextlib.suppress(MQMIError, PYIFError):
                await self.close()


class Topic(TopicCore):
    """An asyncio topic to publish on (the blocking ``Topic``'s arguments); opened by ``open()`` or
    on the first ``pub``."""

    queue_manager: QueueManager

    def __init__(self, queue_manager: QueueManager, topic_name: str | bytes | None = None,
                 topic_string: str | bytes | None = None, topic_desc: OD | None = None) -> None:
        super().__init__(queue_manager, topic_name, topic_string, topic_desc)

    async def open(self, topic_name: str | bytes | None = None, topic_string: str | bytes | None = None,
                   topic_desc: OD | None = None, open_opts: int | None = None) -> None:
        conn = self.queue_manager.get_handle()
        await conn.run(self.plan_open(conn, topic_name, topic_string, topic_desc, open_opts))

    async def pub(self, msg: bytes | str, md: MD | None = None, pmo: PMO | None = None, *,
                  retain: bool = False, properties: dict[str, Any] | None = None, syncpoint: bool | None = None,
                  asynchronous: bool | None = None, suppress_reply_to: bool = False, warn_if_no_subs: bool = False,
                  not_own_subs: bool = False, pub_level: int | None = None, **md_fields: Any) -> None:
        """MQPUT a publication, with the blocking ``Topic.pub``'s arguments."""
        conn = self.queue_manager.get_handle()
        if not self.is_open:
            await conn.run(self.plan_open(conn, None, None, None, None))
        step, md = self.pub_step(conn, msg, md, pmo, properties, syncpoint, asynchronous, retain,
                                 suppress_reply_to, warn_if_no_subs, not_own_subs, pub_level, md_fields)
        self.pub_done(md, await conn.perform(step))

    async def close(self, options: int = cmqc.MQCO_NONE) -> None:
        conn = self.queue_manager.get_handle()
        await conn.run(self.plan_close(conn, options))

    async def __aenter__(self) -> Topic:
        return self

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None,
                        tb: TracebackType | None) -> None:
        if self.is_open:
            with contextlib.suppress(MQMIError, PYIFError):
                await self.close()


class Subscription(SubscriptionCore):
    """An asyncio subscription, with the blocking ``Subscription``'s arguments. The Pythonic form,
    ``Subscription(qm, "price/#", name="desk1", durable=True)``, subscribes on first use (``get``,
    ``messages``, ``async with``) or at ``await sub.sub()``; the pymqi form at ``sub()``."""

    queue_manager: QueueManager
    sub_queue: Queue | None
    queue_type = Queue

    def __init__(self, queue_manager: QueueManager, sub_desc: SD | str | None = None,
                 sub_name: str | bytes | None = None, sub_queue: Queue | None = None,
                 sub_opts: int | None = None, topic_name: str | bytes | None = None,
                 topic_string: str | bytes | None = None, *, name: str | None = None, durable: bool = False,
                 selector: str | None = None, user_data: str | None = None, wildcard: str = "topic",
                 new_publications_only: bool = False, publications_on_request: bool = False,
                 level: int | None = None, expiry: float | None = None, correl_id: bytes | None = None,
                 queue: Queue | None = None, read_ahead: bool = False) -> None:
        super().__init__(queue_manager, sub_desc if isinstance(sub_desc, SD) else None,
                         sub_name if sub_name is not None else name, sub_queue if sub_queue is not None else queue,
                         sub_opts, topic_name, topic_string)
        self._on_first_use = isinstance(sub_desc, str)
        if isinstance(sub_desc, str):
            self.sub_desc = pythonic_sd(
                sub_desc, name=self.sub_name, durable=durable, managed=self.sub_queue is None, selector=selector,
                user_data=user_data, wildcard=wildcard, new_publications_only=new_publications_only,
                publications_on_request=publications_on_request, level=level, expiry=expiry,
                correl_id=correl_id, read_ahead=read_ahead, topic_name=topic_name)

    async def sub(self, sub_desc: SD | None = None, sub_queue: Queue | None = None,
                  sub_name: str | bytes | None = None, sub_opts: int | None = None,
                  topic_name: str | bytes | None = None, topic_string: str | bytes | None = None) -> None:
        """MQSUB, as the blocking ``Subscription.sub``."""
        self._on_first_use = False
        conn = self.queue_manager.get_handle()
        await conn.run(self.plan_sub(conn, sub_desc, sub_queue, sub_name, sub_opts, topic_name, topic_string))

    async def _queue(self) -> Queue:
        if self._on_first_use:
            await self.sub()
        if self.sub_queue is None:
            raise PYIFError("not subscribed")
        return self.sub_queue

    async def get(self, max_length: int | None = None, md: MD | None = None, gmo: GMO | None = None,
                  **get_options: Any) -> ReceivedMessage:
        """MQGET from the subscription's queue (as ``Queue.get``: ``wait=`` seconds, 2033 if none)."""
        return await (await self._queue()).get(max_length, md, gmo, **get_options)

    async def messages(self, wait: float | None = None) -> AsyncIterator[ReceivedMessage]:
        """Publications until none arrives within ``wait`` seconds."""
        async for message in (await self._queue()).messages(wait=wait):
            yield message

    def __aiter__(self) -> AsyncIterator[ReceivedMessage]:
        return self.messages()

    async def request_update(self) -> int:
        """MQSUBRQ: send the retained publications now; how many were sent (2437 if none)."""
        conn = self.queue_manager.get_handle()
        return await conn.run(self.plan_request_update(conn))

    async def close(self, sub_close_options: int = cmqc.MQCO_NONE, close_sub_queue: bool = False,
                    close_sub_queue_options: int = cmqc.MQCO_NONE) -> None:
        """MQCLOSE of the subscription (MQCO_KEEP_SUB / MQCO_REMOVE_SUB) and, if asked, of its queue."""
        conn = self.queue_manager.get_handle()
        await conn.run(self.plan_close(conn, sub_close_options, close_sub_queue, close_sub_queue_options))

    async def __aenter__(self) -> Subscription:
        if self._on_first_use:
            await self.sub()
        return self

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None,
                        tb: TracebackType | None) -> None:
        """A durable subscription is kept, a non-durable one removed; a managed queue closed."""
        if self.is_open:
            with contextlib.suppress(MQMIError, PYIFError):
                await self.close(close_sub_queue=self.closes_managed_queue())


async def connect(queue_manager: str | bytes | None = None, channel: str | bytes | None = None,
                  conn_info: str | bytes | None = None, user: str | None = None, password: str | None = None,
                  *, host: str | None = None, port: int | None = None, ssl_cipher_spec: str | None = None,
                  key_repository: str | None = None, cert_label: str | None = None,
                  ssl_peer_name: str | None = None) -> QueueManager:
    """Connect like ``mqlite.connect`` (TLS options too) and return an asyncio ``QueueManager``."""
    tls = client_tls.tls_options(ssl_cipher_spec, key_repository, cert_label, ssl_peer_name)
    target = resolve_target(queue_manager, host=host, port=port, channel=channel, conn_info=conn_info, tls=tls)
    if user and password is None:
        raise ValueError("Password must not be None if user is provided")
    conn = await AsyncConnection.open(target, text(user) if user else None,
                                      text(password) if user and password is not None else None)
    return QueueManager(conn)
