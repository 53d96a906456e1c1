"""One conversation of a client connection: an Hconn, its requests and its replies.

A socket carries one conversation, or several when its SVRCONN channel shares conversations
(SHARECNV above 1): ``server.native.connection.ClientConnection`` is the socket (bytes, flow
control, heartbeats, the channel instance) and hands each request to the conversation whose
number its frame carries. Everything a request can do wrong ends as a reply with its reason code.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final, Protocol

from mqlite import cmqc as C
from mqlite.core.errors import ClusterLookup, MQError
from mqlite.core.handles import BROWSE_GETS
from mqlite.core.qmgr import GetResult
from mqlite.core.security.connauth import Check
from mqlite.core.security.principal import Principal
from mqlite.core.waiters import GetRequest
from mqlite.message import NULL_ID, MessageDescriptor
from mqlite.protocol import native
from mqlite.server import statistics
from mqlite.server.channels.svrconn import Instance
from mqlite.server.native.handshake import Admitted, Gate, Hello
from mqlite.server.runtime import Round, Session, Sink, encode_get_reply

if TYPE_CHECKING:
    from mqlite.server.runtime import Runtime

log = logging.getLogger("mqlite.server")
Op = native.Op
_MATCH_DEFAULT: Final = C.MQMO_MATCH_MSG_ID | C.MQMO_MATCH_CORREL_ID
_NO_LIMIT: Final = 1 << 62
_PERSISTENT: Final = C.MQPER_PERSISTENT
# (module constants: an IntEnum member read from its class costs ~300 instructions)
_CONNECT = Op.CONNECT
_COUNTED_IN_PLACE = frozenset({Op.PUT, Op.GET})  # STATMQI: by ``_put`` and ``_get``, the busiest


class _Pending:
    """Marker: the reply comes later (a waiting MQGET, a password check) or never (CREDIT)."""


PENDING = _Pending()


class ConversationSink:
    """A shared conversation's output: its frames, renumbered, onto the socket."""

    __slots__ = ("number", "transport")

    def __init__(self, transport: Sink, number: int) -> None:
        self.transport = transport
        self.number = number

    def write(self, data: bytes) -> None:
        self.transport.write(native.in_conversation(self.number, data))


class SocketSide(Protocol):
    """What a conversation needs of its socket (``server.native.connection.ClientConnection``)."""

    runtime: Runtime
    gate: Gate
    login: asyncio.Task[None] | None
    os_principal: Principal | None
    local: bool
    transport: asyncio.Transport | None

    def peer(self) -> str: ...
    def address(self) -> str: ...
    def pause_for(self, task: asyncio.Task[None]) -> None: ...
    def sharing_with(self, conversation: Conversation) -> Instance | None: ...
    def join_instance(self, conversation: Conversation, hello: Hello, admitted: Admitted,
                      principal: Principal) -> None: ...
    def leave_instance(self, conversation: Conversation) -> None: ...


class Conversation:
    """The server side of one Hconn on a client connection."""

    def __init__(self, socket: SocketSide, number: int, sink: Sink) -> None:
        self.socket = socket
        self.runtime = socket.runtime
        self.gate = socket.gate
        self.number = number
        self.session = Session(sink)
        self.maxmsgl = 0  # a message longer than this is refused (2010); 0 until connected
        self.async_put = {"put_success": 0, "put_warning": 0, "put_failure": 0, "reason": 0}
        self.stopped = False  # by STOP CONN: every later call is answered 2009
        self.statistics = self.runtime.core.statistics  # its ``mqi``: None unless STATMQI is collected
        self._dispatch: dict[Op, Callable[[int, list[Any]], Any]] = {
            Op.CONNECT: self._connect, Op.DISCONNECT: self._disconnect, Op.OPEN: self._open,
            Op.CLOSE: self._close, Op.PUT: self._put, Op.PUT1: self._put1, Op.GET: self._get,
            Op.COMMIT: self._commit, Op.BACKOUT: self._backout, Op.INQ: self._inq, Op.SET: self._set,
            Op.MQSC: self._mqsc, Op.STAT: self._stat, Op.CREDIT: self._credit, Op.PING: self._ping,
            Op.SUB: self._sub, Op.SUBRQ: self._subrq, Op.PUBLISH: self._publish,
            Op.OFFSETS: self._offsets, Op.BROWSE_RANGE: self._browse_range, Op.REMOVE_THROUGH: self._remove_through,
            Op.HEARTBEAT: self._heartbeat,
        }

    @property
    def connected(self) -> bool:
        return self.session.conn is not None

    def handle(self, round_: Round, request: native.Request) -> None:
        op, req_id, args = request.op, request.req_id, request.args
        session = self.session
        if op != _CONNECT and session.conn is None:
            if req_id and self.stopped:
                round_.add(session, _stopped_reply(req_id))
            elif req_id:
                round_.add(session, native.encode_reply(req_id, 2, C.MQRC_HCONN_ERROR, "not connected"))
            return
        try:
            result = self._dispatch[op](req_id, args)
        except MQError as error:
            if self.statistics.mqi is not None:
                statistics.count_failure(self.statistics.mqi, op, args)
            if error.reason == C.MQRC_NOT_AUTHORIZED and op != Op.CONNECT:  # one error-log line (AMQ8077W)
                log.warning("%s (%s from %s)", error.text, op.name, self.socket.peer())
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
        mqi = self.statistics.mqi
        if mqi is not None and op not in _COUNTED_IN_PLACE:
            statistics.count_success(mqi, op, args, self.runtime.core.connections)
        # Messages this request released (read-ahead) go out before its reply, in order.
        self.runtime.collect(round_)
        if result is PENDING:
            return
        if req_id:
            if isinstance(result, bytes):
                round_.add(session, result)
            else:
                round_.add(session, native.encode_reply(req_id, 0, 0, result))
        elif op in (Op.PUT, Op.PUT1, Op.PUBLISH):
            self.async_put["put_success"] += 1

    def ended(self) -> None:
        """The socket closed: a waiting get is cancelled and the unit of work backed out, as MQ does."""
        self.session.closed = True
        if self._abandon(None):
            self.runtime.finish(Round())

    def stop(self) -> None:
        """STOP CONN: the unit of work backed out, a waiting MQGET and every later call of this
        conversation answered 2009 (MQRC_CONNECTION_BROKEN); the socket's other conversations go on."""
        session, conn = self.session, self.session.conn
        if conn is None:
            return
        round_ = Round()
        self._abandon(round_)
        session.conn, session.on_stop, self.stopped = None, None, True
        self.socket.leave_instance(self)
        log.info("Connection %s (%s, user %s) stopped by STOP CONN", conn.conn_id, conn.appl_name, conn.user)
        self.runtime.finish(round_)

    def _abandon(self, stopped: Round | None) -> bool:
        """Cancel the waiting MQGETs (with STOP CONN's round, ``stopped``, each answered 2009 in it),
        back out and disconnect the core connection; whether there was one to disconnect."""
        session = self.session
        for req_id, waiter in session.waiters.items():
            self.runtime.cancel_waiter(waiter)
            if stopped is not None:
                stopped.add(session, _stopped_reply(req_id))
        session.waiters.clear()
        conn = session.conn
        if conn is None or not conn.connected:
            return False
        self.runtime.core.disconnect(conn, commit=False)
        self.runtime.sessions.pop(conn.conn_id, None)
        return True

    def _conn(self) -> Any:
        return self.session.conn

    # -- MQCONN and MQDISC ----------------------------------------------------------------------
    def _connect(self, req_id: int, args: list[Any]) -> Any:
        qmgr_name, user, password, appl_name, pid, cd = args
        runtime, socket = self.runtime, self.socket
        if qmgr_name not in ("", "*", runtime.name):
            raise MQError(C.MQRC_Q_MGR_NAME_ERROR, f"this is queue manager {runtime.name}, not {qmgr_name}")
        if self.session.conn is not None:
            raise MQError(C.MQRC_ALREADY_CONNECTED, "already connected", comp=1)
        if runtime.ending:
            raise MQError(C.MQRC_Q_MGR_STOPPING, "the queue manager is ending")
        hello = Hello(user, password, appl_name or "", cd, socket.os_principal, socket.address(), socket.transport,
                      socket.local)
        admitted = self.gate.admit(hello, joining=socket.sharing_with(self))  # 2540, 2537, CHLAUTH, TLS
        check = self.gate.check_for(hello, admitted)
        if check is Check.NONE:
            try:
                principal = self.gate.identify(hello, admitted, None)
            except MQError:
                check = Check.MISSING
            else:
                return self._connected(hello, admitted, principal, pid)
        self._await_login(req_id, hello, admitted, check, pid)
        return PENDING

    def _await_login(self, req_id: int, hello: Hello, admitted: Admitted, check: Check, pid: int) -> None:
        """Check the password off the event loop (a refusal is answered after FAILDLAY); the socket
        reads nothing more until this CONNECT is answered. A refused conversation stays open, not
        connected: the client ends it (mqlite's does) or may try again."""
        socket, session = self.socket, self.session

        async def login() -> None:
            round_ = Round()
            try:
                principal = await self.gate.login(hello, admitted, check)
                if self.runtime.ending:
                    raise MQError(C.MQRC_Q_MGR_STOPPING, "the queue manager is ending")
                reply = native.encode_reply(req_id, 0, 0, self._connected(hello, admitted, principal, pid))
            except MQError as error:
                reply = native.encode_reply(req_id, error.comp, error.reason, error.text or None)
            round_.add(session, reply)
            self.runtime.finish(round_)

        socket.pause_for(asyncio.get_running_loop().create_task(login()))

    def _connected(self, hello: Hello, admitted: Admitted, principal: Principal, pid: int) -> Any:
        """Connect to core as ``principal``; over TCP the conversation joins its channel instance."""
        runtime = self.runtime
        try:
            conn = runtime.core.connect(principal, hello.appl_name, pid, channel=admitted.channel,
                                        conname=hello.address if admitted.channel else "")
        except MQError as error:
            if error.reason == C.MQRC_NOT_AUTHORIZED:  # no connect authority (AMQ8077W), logged once
                log.warning("%s (from %s)", error.text, hello.address or "a local connection")
            raise
        self.session.conn = conn
        self.session.on_stop = self.stop
        runtime.sessions[conn.conn_id] = self.session
        # A local connection has no channel: core's own limits (2030, 2031) apply to it alone.
        self.maxmsgl = admitted.maxmsgl if admitted.channel else _NO_LIMIT
        if admitted.channel:
            self.socket.join_instance(self, hello, admitted, principal)
        return {"qmgr": runtime.name, "user": principal.user, "conn_id": conn.conn_id,
                "maxmsgl": admitted.maxmsgl, "ccsid": int(runtime.core.attrs.get("CCSID", 1208)),
                "sharecnv": admitted.sharecnv}

    def _disconnect(self, req_id: int, args: list[Any]) -> Any:
        conn = self._conn()
        for waiter in self.session.waiters.values():
            self.runtime.cancel_waiter(waiter)
        self.session.waiters.clear()
        self.runtime.core.disconnect(conn, commit=True)
        self.runtime.sessions.pop(conn.conn_id, None)
        self.session.conn = None
        self.socket.leave_instance(self)  # the channel instance ends with its last MQDISC
        return None

    # -- the MQI --------------------------------------------------------------------------------
    def _open(self, req_id: int, args: list[Any]) -> Any:
        od, options = args

        def open_() -> Any:
            handle = self.runtime.core.open(self._conn(), od, options)
            return [handle.hobj, handle.opened_as if handle.created_dynamic else handle.name,
                    self.runtime.name, handle.read_ahead, handle.created_dynamic]

        try:
            return open_()
        except ClusterLookup as unknown:
            return self._after_lookup(req_id, unknown, open_)

    def _after_lookup(self, req_id: int, unknown: ClusterLookup, retry: Callable[[], Any]) -> Any:
        """A queue name this queue manager does not know may be a cluster queue it has not met
        yet: the full repositories are asked, and the call is made again once they answered
        (still 2085 if none knows it, B:R-CLQ-4)."""
        lookup = self.runtime.cluster_lookup
        if lookup is None:
            raise unknown

        async def ask() -> None:
            round_ = Round()
            try:
                await lookup(unknown.name, unknown.kind)
                result = retry()
                reply = result if isinstance(result, bytes) else native.encode_reply(req_id, 0, 0, result)
            except MQError as error:
                reply = native.encode_reply(req_id, error.comp, error.reason, error.text or None)
            except Exception:  # a bug must not leave the caller waiting for ever
                log.exception("AMQ6119E: unexpected error in a cluster lookup")
                reply = native.encode_reply(req_id, 2, C.MQRC_UNEXPECTED_ERROR, "internal error")
            self.runtime.collect(round_)
            if req_id:
                round_.add(self.session, reply)
            self.runtime.finish(round_)

        self.socket.pause_for(asyncio.get_running_loop().create_task(ask()))
        return PENDING

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
        mqi = self.statistics.mqi
        if mqi is not None:  # STATMQI, inline (a call costs ~700 instructions more; a failure: ``handle``)
            if done.Persistence == _PERSISTENT:  # the completed MQMD: AS_Q_DEF resolved
                mqi.puts_p += 1
                mqi.put_bytes_p += len(body)
            else:
                mqi.puts_np += 1
                mqi.put_bytes_np += len(body)
        return self._put_reply(req_id, conn, done)

    def _publish(self, req_id: int, args: list[Any]) -> Any:
        hobj, md, options, props, body, pub_level, action = args
        if len(body) > self.maxmsgl:
            self._too_long(body)
        conn = self._conn()
        done = self.runtime.core.put(conn, hobj, MessageDescriptor.from_list(md), options, props, body, pub_level,
                                     action)
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

        def put1() -> Any:
            done = self.runtime.core.put1(conn, od, MessageDescriptor.from_list(md), options, props, body)
            return self._put_reply(req_id, conn, done)

        try:
            return put1()
        except ClusterLookup as unknown:
            return self._after_lookup(req_id, unknown, put1)

    def _put_reply(self, req_id: int, conn: Any, done: MessageDescriptor) -> Any:
        """The completed MQMD, with MQCC_WARNING when the put warned (2049)."""
        if conn.warning:
            if not req_id:
                self.async_put["put_warning"] += 1
                self.async_put["reason"] = conn.warning
                return PENDING  # counted, not a success
            return native.encode_reply(req_id, 1, conn.warning, done.to_list())
        return done.to_list() if req_id else None

    def _get(self, req_id: int, args: list[Any]) -> Any:
        hobj, match_ids, gmo, max_length = args
        match = int(gmo.get("MatchOptions", _MATCH_DEFAULT))
        msg_id = match_ids[0] if match & C.MQMO_MATCH_MSG_ID and match_ids[0] != NULL_ID else None
        correl_id = match_ids[1] if match & C.MQMO_MATCH_CORREL_ID and match_ids[1] != NULL_ID else None
        request = GetRequest(int(gmo.get("Options", 0)), msg_id, correl_id, int(max_length),
                             int(gmo.get("WaitInterval", 0)))
        try:
            result = self.runtime.core.get(self._conn(), hobj, request, (self.session, req_id))
        except MQError as error:
            if error.reason == C.MQRC_TRUNCATED_MSG_FAILED:
                if self.statistics.mqi is not None:
                    self.statistics.mqi.got(error, bool(request.options & BROWSE_GETS))
                return encode_get_reply(req_id, error)
            raise
        if isinstance(result, GetResult):
            mqi = self.statistics.mqi
            if mqi is not None:  # STATMQI (a failure is counted by ``handle``)
                if request.options & BROWSE_GETS:
                    mqi.got(result, True)
                elif result.message.md.Persistence == _PERSISTENT:  # (MQICounters.get, inline)
                    mqi.gets_p += 1
                    mqi.get_bytes_p += result.data_length
                else:
                    mqi.gets_np += 1
                    mqi.get_bytes_np += result.data_length
            return encode_get_reply(req_id, result)
        self.session.waiters[req_id] = result
        return PENDING

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
        from mqlite.mqsc.commands import script_steps

        # Each command is checked against the caller's authority; over TCP only administrators.
        admin = self.runtime.core.admin_for(self._conn().principal, remote=not self.socket.local)
        steps = script_steps(admin, args[0])
        try:
            request = next(steps)
        except StopIteration as finished:
            return [finished.value.exit_code, finished.value.lines]
        # A PING CHANNEL: the script goes on once the partner answered (the reply comes later).
        asyncio.get_running_loop().create_task(self._mqsc_with_pings(req_id, steps, request))
        return PENDING

    async def _mqsc_with_pings(self, req_id: int, steps: Any, request: Any) -> None:
        from mqlite.mqsc.commands import Outcome, Status

        ping = self.runtime.ping_channel
        try:
            while True:
                outcome = await ping(request) if ping is not None else Outcome(
                    Status.FAILED, ["AMQ8101E: WebSphere MQ error has occurred: no channel agents (reason 3168)."])
                request = steps.send(outcome)
        except StopIteration as finished:
            reply = native.encode_reply(req_id, 0, 0, [finished.value.exit_code, finished.value.lines])
        except Exception:  # a bug must not leave the client waiting for ever
            log.exception("AMQ6119E: unexpected error in MQSC")
            reply = native.encode_reply(req_id, 2, C.MQRC_UNEXPECTED_ERROR, "internal error")
        round_ = Round()
        round_.add(self.session, reply)
        self.runtime.finish(round_)

    def _stat(self, req_id: int, args: list[Any]) -> Any:
        status = dict(self.async_put)
        for key in self.async_put:
            self.async_put[key] = 0
        return status

    def _credit(self, req_id: int, args: list[Any]) -> Any:
        hobj, count = args
        self.runtime.core.grant_credit(self._conn(), hobj, count)
        return PENDING

    def _ping(self, req_id: int, args: list[Any]) -> Any:
        return None

    def _heartbeat(self, req_id: int, args: list[Any]) -> Any:
        return PENDING  # the answer to our heartbeat: hearing it (data_received) was the point


def _stopped_reply(req_id: int) -> bytes:
    """The answer to a call of a connection STOP CONN ended (or that was waiting when it came)."""
    return native.encode_reply(req_id, 2, C.MQRC_CONNECTION_BROKEN, "the connection was stopped (STOP CONN)")
