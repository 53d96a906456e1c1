"""One client connection: bytes in, native-protocol events, core calls, frames out.

Everything a request can do wrong ends as a reply with its reason code; only a byte stream
that is out of step (an oversize frame) closes the connection. The queue manager keeps
serving everyone else either way.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import time
from typing import TYPE_CHECKING, Any, cast

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.qmgr import GetResult
from mqlite.core.security.connauth import Check
from mqlite.core.security.principal import Principal
from mqlite.core.waiters import GetRequest
from mqlite.message import NULL_ID, MessageDescriptor
from mqlite.protocol import native
from mqlite.server.channels.svrconn import Instance
from mqlite.server.native import tls as native_tls
from mqlite.server.native.handshake import Admitted, Gate, Hello, keep_alive
from mqlite.server.os_identity import peer_principal
from mqlite.server.runtime import Round, Session, encode_get_reply

if TYPE_CHECKING:
    from mqlite.server.runtime import Runtime

log = logging.getLogger("mqlite.server")
Op = native.Op
_MATCH_DEFAULT = C.MQMO_MATCH_MSG_ID | C.MQMO_MATCH_CORREL_ID
ROUND_OUTPUT_LIMIT = 1 << 20  # bytes of replies one round may produce before it yields
_NO_LIMIT = 1 << 62


class ClientConnection(asyncio.Protocol):
    """The server side of one native-protocol connection."""

    def __init__(self, runtime: Runtime, gate: Gate) -> None:
        self.runtime = runtime
        self.gate = gate
        self.instance: Instance | None = None  # the SVRCONN channel instance it runs as
        self.maxmsgl = 0  # a message longer than this is refused (2010); 0 until connected
        self._login: asyncio.Task[None] | None = None
        self.codec = native.NativeConnection(native.Role.SERVER)
        self.transport: asyncio.Transport | None = None
        self.session: Session | None = None
        self.os_principal: Principal | None = None  # a local connection's OS user and groups
        self.local = False  # over the Unix socket
        self.writing_paused = False
        self.async_put = {"put_success": 0, "put_warning": 0, "put_failure": 0, "reason": 0}
        self.heard = time.monotonic()  # when the client last sent anything (heartbeats, HBINT)
        self.beat_sent = 0.0  # when our last heartbeat went, if unanswered since
        self._dispatch = {
            Op.CONNECT: self._connect, Op.DISCONNECT: self._disconnect, Op.OPEN: self._open,
            Op.CLOSE: self._close, Op.PUT: self._put, Op.PUT1: self._put1, Op.GET: self._get,
            Op.COMMIT: self._commit, Op.BACKOUT: self._backout, Op.INQ: self._inq, Op.SET: self._set,
            Op.MQSC: self._mqsc, Op.STAT: self._stat, Op.CREDIT: self._credit, Op.PING: self._ping,
            Op.SUB: self._sub, Op.SUBRQ: self._subrq, Op.PUBLISH: self._publish,
            Op.OFFSETS: self._offsets, Op.BROWSE_RANGE: self._browse_range, Op.REMOVE_THROUGH: self._remove_through,
            Op.HEARTBEAT: self._heartbeat,
        }

    # -- transport events -----------------------------------------------------------------
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # uvloop's transports do not derive from asyncio.Transport; they behave like one.
        self.transport = cast(asyncio.Transport, transport)
        self.session = Session(self.transport)
        self.runtime.readers.add(self.transport)
        if self.runtime.reading_paused:
            self.transport.pause_reading()
        self.os_principal = peer_principal(transport)
        sock = transport.get_extra_info("socket")
        self.local = sock is not None and sock.family == socket.AF_UNIX
        sock = transport.get_extra_info("socket")
        if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def pause_writing(self) -> None:
        """The client is not reading its replies: stop reading its requests until it does, so a
        client that only writes cannot fill the queue manager's memory with unsent replies."""
        self.writing_paused = True
        if self.transport is not None:
            self.transport.pause_reading()

    def resume_writing(self) -> None:
        self.writing_paused = False
        if self.transport is None or self.transport.is_closing():
            return
        if not self.runtime.reading_paused:
            self.transport.resume_reading()
        if self.codec.buffered:
            asyncio.get_running_loop().call_soon(self._process)  # requests that waited for us

    def connection_lost(self, exc: Exception | None) -> None:
        self.gate.beating.discard(self)
        if self.instance is not None:
            self.gate.clients.discard(self.instance)
            self.instance = None
        if self._login is not None:
            self._login.cancel()
        if self.transport is not None:
            self.runtime.readers.discard(self.transport)
        session = self.session
        if session is not None:
            session.closed = True
            for waiter in session.waiters.values():
                self.runtime.cancel_waiter(waiter)
            session.waiters.clear()
        conn = session.conn if session is not None else None
        if conn is not None and conn.connected:
            # A broken connection backs its unit of work out, as MQ does.
            self.runtime.core.disconnect(conn, commit=False)
            self.runtime.sessions.pop(conn.conn_id, None)
            self.runtime.finish(Round())

    def data_received(self, data: bytes) -> None:
        self.runtime.busy_poll.touch()
        self.heard = time.monotonic()
        try:
            self.codec.receive_data(data)
        except native.ProtocolError:
            return
        self._process()

    def _process(self) -> None:
        """Handle the requests buffered so far, as one round. A round stops taking requests once
        its replies pass ROUND_OUTPUT_LIMIT; the rest wait in the codec until the client has read
        them (``resume_writing``), so a few bytes of requests cannot make megabytes of replies."""
        codec = self.codec
        round_ = Round()
        more = False
        while not self.writing_paused and self._login is None:  # requests after a CONNECT wait for it
            if round_.size > ROUND_OUTPUT_LIMIT:
                more = True
                break
            try:
                event = codec.next_event()
            except native.ProtocolError as error:
                self._protocol_error(round_, error)
                if error.fatal:
                    self.runtime.finish(round_)
                    self._end_after()
                    return
                continue
            if event is native.NEED_DATA:
                break
            assert isinstance(event, native.Request)
            self._handle(round_, event)
        self.runtime.finish(round_)
        if more and not self.writing_paused and self.transport is not None and not self.transport.is_closing():
            asyncio.get_running_loop().call_soon(self._process)  # the writes drained at once

    def _protocol_error(self, round_: Round, error: native.ProtocolError) -> None:
        log.warning("AMQ9504E: protocol error from %s: %s", self._peer(), error)
        if error.req_id:
            round_.add(self._session(), native.encode_reply(error.req_id, 2, error.reason, str(error.text)))
        if error.fatal and self.transport is not None:
            self.transport.pause_reading()  # the stream is out of step: read no more

    def _end_after(self) -> None:
        """Close once the replies owed for the requests before a fatal frame (the round just
        finished, or earlier ones waiting for the disk) have been written."""
        transport, session = self.transport, self.session
        if transport is None:
            return
        if session is not None and session.pending:
            session.on_drained = transport.close
        else:
            transport.close()

    def _peer(self) -> str:
        if self.transport is None:
            return "?"
        peer = self.transport.get_extra_info("peername")
        return str(peer) if peer else "local"

    def _session(self) -> Session:
        assert self.session is not None
        return self.session

    # -- requests -----------------------------------------------------------------------------
    def _handle(self, round_: Round, request: native.Request) -> None:
        op, req_id, args = request
        session = self._session()
        if op != Op.CONNECT and session.conn is None:
            if req_id:
                round_.add(session, native.encode_reply(req_id, 2, C.MQRC_HCONN_ERROR, "not connected"))
            return
        try:
            result = self._dispatch[op](req_id, args)
        except MQError as error:
            if error.reason == C.MQRC_NOT_AUTHORIZED and op != Op.CONNECT:  # one error-log line (AMQ8077W)
                log.warning("%s (%s from %s)", error.text, op.name, self._peer())
            if req_id:
                round_.add(session, native.encode_reply(req_id, error.comp, error.reason, error.text or None))
            elif op in (Op.PUT, Op.PUT1, Op.PUBLISH):
                self.async_put["put_failure"] += 1
                self.async_put["reason"] = error.reason
                hobj = int(args[0]) if op != Op.PUT1 else 0
                round_.add(session, native.encode_push_error(hobj, error.reason))
            return
        except Exception:  # a bug must not take the queue manager down
            log.exception("AMQ6119E: unexpected error in %s", op.name)
            if req_id:
                round_.add(session, native.encode_reply(req_id, 2, C.MQRC_UNEXPECTED_ERROR, "internal error"))
            return
        # Messages this request released (read-ahead) go out before its reply, in order.
        self.runtime.collect(round_)
        if result is _PENDING:
            return
        if req_id:
            if isinstance(result, bytes):
                round_.add(session, result)
            else:
                round_.add(session, native.encode_reply(req_id, 0, 0, result))
        elif op in (Op.PUT, Op.PUT1, Op.PUBLISH):
            self.async_put["put_success"] += 1

    def _conn(self) -> Any:
        return self._session().conn

    def _connect(self, req_id: int, args: list[Any]) -> Any:
        qmgr_name, user, password, appl_name, pid, cd = args
        runtime = self.runtime
        if qmgr_name not in ("", "*", runtime.name):
            raise MQError(C.MQRC_Q_MGR_NAME_ERROR, f"this is queue manager {runtime.name}, not {qmgr_name}")
        if self._session().conn is not None or self._login is not None:
            raise MQError(C.MQRC_ALREADY_CONNECTED, "already connected", comp=1)
        if runtime.ending:
            raise MQError(C.MQRC_Q_MGR_STOPPING, "the queue manager is ending")
        hello = Hello(user, password, appl_name or "", cd, self.os_principal, self._address(), self.transport,
                      self.local)
        admitted = self.gate.admit(hello)  # the channel: 2540, 2537, CHLAUTH, TLS
        check = self.gate.check_for(hello, admitted)
        if check is Check.NONE:
            try:
                principal = self.gate.identify(hello, admitted, None)
            except MQError:
                check = Check.MISSING
            else:
                return self._connected(hello, admitted, principal, pid)
        self._await_login(req_id, hello, admitted, check, pid)
        return _PENDING

    def _await_login(self, req_id: int, hello: Hello, admitted: Admitted, check: Check, pid: int) -> None:
        """Check the password off the event loop (a refusal is answered after FAILDLAY); this
        connection reads nothing more until its CONNECT is answered. A refused connection stays
        open, not connected: the client closes it (mqlite's does) or may try again."""
        transport, session = self.transport, self._session()
        assert transport is not None
        transport.pause_reading()

        async def login() -> None:
            round_ = Round()
            try:
                principal = await self.gate.login(hello, admitted, check)
                if self.runtime.ending:
                    raise MQError(C.MQRC_Q_MGR_STOPPING, "the queue manager is ending")
                reply = native.encode_reply(req_id, 0, 0, self._connected(hello, admitted, principal, pid))
            except MQError as error:
                reply = native.encode_reply(req_id, error.comp, error.reason, error.text or None)
            finally:
                self._login = None
            round_.add(session, reply)
            self.runtime.finish(round_)
            if not transport.is_closing():
                if not self.runtime.reading_paused and not self.writing_paused:
                    transport.resume_reading()
                if self.codec.buffered:
                    self._process()

        self._login = asyncio.get_running_loop().create_task(login())

    def _connected(self, hello: Hello, admitted: Admitted, principal: Principal, pid: int) -> Any:
        """Connect to core as ``principal``; a TCP connection becomes an instance of its channel."""
        runtime = self.runtime
        try:
            conn = runtime.core.connect(principal, hello.appl_name, pid)
        except MQError as error:
            if error.reason == C.MQRC_NOT_AUTHORIZED:  # no connect authority (AMQ8077W), logged once
                log.warning("%s (from %s)", error.text, self._address() or "a local connection")
            raise
        self._session().conn = conn
        runtime.sessions[conn.conn_id] = self._session()
        # A local connection has no channel: core's own limits (2030, 2031) apply to it alone.
        self.maxmsgl = admitted.maxmsgl if admitted.channel else _NO_LIMIT
        if admitted.channel and self.transport is not None:
            self.instance = Instance(admitted.channel, hello.address, principal.user, hello.appl_name,
                                     admitted.maxmsgl, admitted.hbint, admitted.kaint, admitted.sharecnv,
                                     self.transport.close, tls=native_tls.status(self.transport))
            self.gate.clients.add(self.instance)
            keep_alive(self.transport, admitted.kaint)
            if admitted.hbint > 0:
                self.gate.beating.add(self)
        return {"qmgr": runtime.name, "user": principal.user, "conn_id": conn.conn_id,
                "maxmsgl": admitted.maxmsgl, "ccsid": int(runtime.core.attrs.get("CCSID", 1208))}

    def _address(self) -> str:
        """The client's IP address (CONNAME), or "" for a local connection."""
        if self.transport is None or self.local:
            return ""
        peer = self.transport.get_extra_info("peername")
        return str(peer[0]) if isinstance(peer, tuple) and peer else ""

    def _disconnect(self, req_id: int, args: list[Any]) -> Any:
        conn = self._conn()
        for waiter in self._session().waiters.values():
            self.runtime.cancel_waiter(waiter)
        self._session().waiters.clear()
        self.runtime.core.disconnect(conn, commit=True)
        self.runtime.sessions.pop(conn.conn_id, None)
        self._session().conn = None
        if self.instance is not None:  # the channel instance ends with the MQDISC
            self.gate.clients.discard(self.instance)
            self.instance = None
        return None

    def _open(self, req_id: int, args: list[Any]) -> Any:
        od, options = args
        handle = self.runtime.core.open(self._conn(), od, options)
        return [handle.hobj, handle.opened_as if handle.created_dynamic else handle.name,
                self.runtime.name, handle.read_ahead]

    def _close(self, req_id: int, args: list[Any]) -> Any:
        hobj, options = args
        self.runtime.core.close(self._conn(), hobj, options)  # waiting MQGETs on it end with 2019
        return None

    def _too_long(self, body: bytes) -> None:
        """Longer than the channel's negotiated MAXMSGL: IBM's client refuses it with 2010."""
        raise MQError(C.MQRC_DATA_LENGTH_ERROR,
                      f"{len(body)} bytes is more than the channel's MAXMSGL({self.maxmsgl})")

    def _put(self, req_id: int, args: list[Any]) -> Any:
        hobj, md, options, props, body = args
        if len(body) > self.maxmsgl:
            self._too_long(body)
        conn = self._conn()
        done = self.runtime.core.put(conn, hobj, MessageDescriptor.from_list(md), options, props, body)
        return self._put_reply(req_id, conn, done)

    def _publish(self, req_id: int, args: list[Any]) -> Any:
        hobj, md, options, props, body, pub_level = args
        if len(body) > self.maxmsgl:
            self._too_long(body)
        conn = self._conn()
        done = self.runtime.core.put(conn, hobj, MessageDescriptor.from_list(md), options, props, body, pub_level)
        return self._put_reply(req_id, conn, done)

    def _sub(self, req_id: int, args: list[Any]) -> Any:
        """MQSUB: [Hsub, Hobj returned (0: the caller's own), its queue name, MQSD outputs]."""
        sd, hobj = args
        hsub, returned, out = self.runtime.core.subscribe(self._conn(), sd, hobj)
        return [hsub.hobj, returned.hobj if returned is not None else 0,
                returned.name if returned is not None else "", out]

    def _subrq(self, req_id: int, args: list[Any]) -> Any:
        hsub, action = args
        return self.runtime.core.request_update(self._conn(), hsub, action)

    def _offsets(self, req_id: int, args: list[Any]) -> Any:
        return list(self.runtime.core.queue_offsets(args[0]))

    def _browse_range(self, req_id: int, args: list[Any]) -> Any:
        name, after, through, limit = args
        return [[seq, m.md.to_list(), m.properties, m.body]
                for seq, m in self.runtime.core.browse_range(name, after, through, limit)]

    def _remove_through(self, req_id: int, args: list[Any]) -> Any:
        return self.runtime.core.remove_through(args[0], args[1])  # its reply waits for the disk

    def _put1(self, req_id: int, args: list[Any]) -> Any:
        od, md, options, props, body = args
        if len(body) > self.maxmsgl:
            self._too_long(body)
        conn = self._conn()
        done = self.runtime.core.put1(conn, od, MessageDescriptor.from_list(md), options, props, body)
        return self._put_reply(req_id, conn, done)

    def _put_reply(self, req_id: int, conn: Any, done: MessageDescriptor) -> Any:
        """The completed MQMD, with MQCC_WARNING when the put warned (2049)."""
        if conn.warning:
            if not req_id:
                self.async_put["put_warning"] += 1
                self.async_put["reason"] = conn.warning
                return _PENDING  # counted, not a success
            return native.encode_reply(req_id, 1, conn.warning, done.to_list())
        return done.to_list() if req_id else None

    def _get(self, req_id: int, args: list[Any]) -> Any:
        hobj, md, gmo, max_length = args
        match = int(gmo.get("MatchOptions", _MATCH_DEFAULT))
        msg_id = md[9] if match & C.MQMO_MATCH_MSG_ID and md[9] != NULL_ID else None
        correl_id = md[10] if match & C.MQMO_MATCH_CORREL_ID and md[10] != NULL_ID else None
        request = GetRequest(int(gmo.get("Options", 0)), msg_id, correl_id, int(max_length),
                             int(gmo.get("WaitInterval", 0)))
        try:
            result = self.runtime.core.get(self._conn(), hobj, request, (self._session(), req_id))
        except MQError as error:
            if error.reason == C.MQRC_TRUNCATED_MSG_FAILED:
                return encode_get_reply(req_id, error)
            raise
        if isinstance(result, GetResult):
            return encode_get_reply(req_id, result)
        self._session().waiters[req_id] = result
        return _PENDING

    def _commit(self, req_id: int, args: list[Any]) -> Any:
        self.runtime.core.commit(self._conn())
        return None

    def _backout(self, req_id: int, args: list[Any]) -> Any:
        self.runtime.core.backout(self._conn())
        return None

    def _inq(self, req_id: int, args: list[Any]) -> Any:
        hobj, selectors = args
        return self.runtime.core.inquire(self._conn(), hobj, selectors)

    def _set(self, req_id: int, args: list[Any]) -> Any:
        hobj, values = args
        self.runtime.core.set(self._conn(), hobj, values)
        return None

    def _mqsc(self, req_id: int, args: list[Any]) -> Any:
        from mqlite.mqsc.commands import run_mqsc

        # Each command is checked against the caller's authority; over TCP only administrators.
        admin = self.runtime.core.admin_for(self._conn().principal, remote=not self.local)
        result = run_mqsc(admin, args[0])
        return [result.exit_code, result.lines]

    def _stat(self, req_id: int, args: list[Any]) -> Any:
        status = dict(self.async_put)
        for key in self.async_put:
            self.async_put[key] = 0
        return status

    def _credit(self, req_id: int, args: list[Any]) -> Any:
        hobj, count = args
        self.runtime.core.grant_credit(self._conn(), hobj, count)
        return _PENDING

    def _ping(self, req_id: int, args: list[Any]) -> Any:
        return None

    def _heartbeat(self, req_id: int, args: list[Any]) -> Any:
        return _PENDING  # the answer to our heartbeat: hearing it (data_received) was the point

    # -- heartbeats (server/native/heartbeat.Beating) -------------------------------------------
    def heartbeat_interval(self) -> int:
        return self.instance.hbint if self.instance is not None else 0

    def waiting(self) -> bool:
        return bool(self.session is not None and self.session.waiters)

    def send_heartbeat(self, frame: bytes) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(frame)

    def timed_out(self, text: str) -> None:
        """The client did not answer a heartbeat: end the connection (its waiting get is
        cancelled and its unit of work backed out, as for any broken connection)."""
        channel = self.instance.channel if self.instance is not None else ""
        log.error("AMQ9271E: Channel '%s' timed out: %s (%s)", channel, text, self._peer())
        self.gate.beating.discard(self)
        if self.transport is not None:
            self.transport.abort()  # not close(): a dead peer never takes what is buffered for it


class _Pending:
    """Marker: the reply comes later (a waiting MQGET) or never (CREDIT)."""


_PENDING = _Pending()

