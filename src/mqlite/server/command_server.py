"""The command server: PCF commands on SYSTEM.ADMIN.COMMAND.QUEUE (IBM's amqpcsea).

Each request is got in a unit of work, decoded (``protocol.pcf``), run as the MQSC command that
means the same through the one executor (``mqsc.pcf_commands``) with the authority of the user
its MQMD names (``QueueManager.admin_for``: each command checked as runmqsc's are, by the
object authorities it needs), and answered on its ReplyToQ at ReplyToQMgr in IBM's response
format: MQFMT_ADMIN, MQMT_REPLY, the CorrelId the request's MsgId (its CorrelId with
MQRO_PASS_CORREL_ID), the request's Encoding, Priority and Persistence. The replies commit with
the get (unless there are more than QMGR MAXUMSGS); an inquiry's many responses (more than
``STREAMED``) are put outside the unit of work instead, a chunk at a time, so that the requester
reads the first while the rest are made. A request that is not a PCF command is answered with the
reason (MQRCCF_CFH_TYPE_ERROR, MQRCCF_CFH_LENGTH_ERROR, MQRCCF_MD_FORMAT_ERROR ...) when it names
a reply-to queue, and goes to the dead-letter queue with that reason when it does not; the server
serves on either way.

It starts with the queue manager when QMGR SCMDSERV is QMGR (IBM's default; with MANUAL it
starts stopped). ``mqlite endmqcsv`` / ``strmqcsv`` are control messages on the command queue
itself, z/OS's PCF commands MQCMD_STOP_CMD_SERVER and MQCMD_START_CMD_SERVER, from an
administrator: stopped, the server serves nothing but a START_CMD_SERVER request and leaves every
other request on the queue, in its order, for when it is started again (as IBM's requests wait
for strmqcsv); DISPLAY QMSTATUS CMDSERV and MQCMD_INQUIRE_Q_MGR_STATUS report it.

PING_CHANNEL is checked within the request's unit of work, like runmqsc's PING CHANNEL; the ping
goes over the network, so its answer is put (outside any unit of work) when the partner answered.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.handles import Connection, GetResult
from mqlite.core.security.principal import Principal
from mqlite.message import Message, MessageDescriptor
from mqlite.mqsc import pcf_commands, pcf_lengths, pcf_objects, pcf_table
from mqlite.mqsc.commands import Outcome, PingRequest, Status, Steps, script_steps
from mqlite.protocol import pcf
from mqlite.server.runtime import Round
from mqlite.server.system_queue import DEAD_LETTER, SystemQueueServer

if TYPE_CHECKING:
    from mqlite.server.runtime import Runtime

log = logging.getLogger("mqlite.server")

COMMAND_QUEUE = "SYSTEM.ADMIN.COMMAND.QUEUE"
STREAMED = 100  # responses beyond which they are streamed (an INQUIRE of many objects)
STREAM_CHUNK = 200  # responses a chunk (the client's read-ahead window)


_CONTROL = frozenset({C.MQCMD_START_CMD_SERVER, C.MQCMD_STOP_CMD_SERVER})


class CommandServer:
    def __init__(self, runtime: Runtime, running: bool = True) -> None:
        self.runtime = runtime
        self.core = runtime.core
        self.running = running
        self._tasks: set[asyncio.Task[None]] = set()  # pings and streamed responses under way
        self._server = SystemQueueServer(runtime, COMMAND_QUEUE, "amqpcsea", self._receive, self._failed,
                                         holds=self._held, selective=lambda: not self.running)

    def stop(self) -> None:
        """The queue manager ends: the serving task with it (endmqcsv is ``_control``)."""
        self._server.stop()

    def _held(self, result: GetResult) -> bool:
        """Stopped, every request but a START_CMD_SERVER stays on the queue."""
        header = pcf.peek_header(result.body, pcf.little_endian(result.message.md.Encoding))
        return header is None or header.Command != C.MQCMD_START_CMD_SERVER

    def _control(self, md: MessageDescriptor, request: pcf.PcfMessage) -> pcf_commands.Reply:
        """strmqcsv / endmqcsv: for administrators only (MQRC_NOT_AUTHORIZED otherwise)."""
        user = md.UserIdentifier.strip()
        if not self.core.security.is_admin(Principal(user, self.core.security.groups_of(user))):
            return pcf_commands.Reply([], C.MQCC_FAILED, C.MQRC_NOT_AUTHORIZED)
        if request.parameters:
            return pcf_commands.Reply([], C.MQCC_FAILED, pcf_table.parm_id_error(request.parameters[0][1]))
        running = request.header.Command == C.MQCMD_START_CMD_SERVER
        if running != self.running:
            self.running = running
            log.info("AMQ8024I: command server %s by %s", "started" if running else "ended", user or "?")
            self._server.interrupt()
        return pcf_commands.Reply()

    # -- one request -------------------------------------------------------------------------------
    def _receive(self, conn: Connection, result: GetResult) -> None:
        md = result.message.md
        little = pcf.little_endian(md.Encoding)
        header = pcf.peek_header(result.body, little)
        try:
            if md.Format.strip() != C.MQFMT_ADMIN.strip():
                raise pcf.PcfError(C.MQRCCF_MD_FORMAT_ERROR, f"format {md.Format!r} is not MQADMIN")
            request = pcf.decode_request(result.body, little)
        except pcf.PcfError as error:
            log.warning("AMQ8025W: PCF request from %s refused: %s", md.UserIdentifier.strip() or "?", error.text)
            if not md.ReplyToQ.strip():
                raise MQError(error.reason, error.text) from None  # -> the dead-letter queue
            self._reply(conn, md, pcf_commands.error_response(header, error.reason, error.parameter), little)
            return
        if request.header.Command == C.MQCMD_PING_CHANNEL and self.runtime.ping_channel is not None:
            reply = self._ping(md, request, little)
            if reply is None:
                return  # answered when the partner has
        elif request.header.Command in _CONTROL:
            reply = self._control(md, request)
        else:
            reply = self._run(md, request)
        if not md.ReplyToQ.strip():
            return
        messages = pcf_commands.responses(request.header, reply)
        if len(messages) > STREAMED:
            self._later(self._stream(md, messages, little))
        else:
            self._reply(conn, md, messages, little)

    def _later(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)  # (held until done: the loop keeps only a weak reference)
        task.add_done_callback(self._tasks.discard)

    async def _stream(self, md: MessageDescriptor, messages: list[pcf.PcfMessage], little: bool) -> None:
        """An inquiry's many responses, put outside the unit of work a chunk at a time, each
        chunk on its way to the requester while the next is encoded (an inquiry changes nothing:
        its request need not wait for them)."""
        for start in range(0, len(messages), STREAM_CHUNK):
            self._reply(self._server.conn, md, messages[start:start + STREAM_CHUNK], little, syncpoint=False)
            self.runtime.finish(Round())
            await asyncio.sleep(0)

    def _ping(self, md: MessageDescriptor, request: pcf.PcfMessage, little: bool) -> pcf_commands.Reply | None:
        """PING_CHANNEL: checked now as runmqsc's PING CHANNEL is; the ping itself goes over the
        network, so its answer is put later, outside this unit of work (None: it will be)."""
        user = md.UserIdentifier.strip()
        try:
            admin = self.core.admin_for(Principal(user, self.core.security.groups_of(user)))
            command = pcf_objects.ping_command(pcf_commands.Request(request.parameters))
        except MQError as error:
            return pcf_commands.failure(error)
        steps = script_steps(admin, f"PING CHANNEL('{command.name}') DATALEN({command.options['DATALEN']})")
        try:
            ping = next(steps)
        except StopIteration as refused:  # not a channel that can be pinged, or not allowed
            return pcf_commands.failure(pcf_commands.error_of(refused.value.lines))
        self._later(self._answer_ping(md, request.header, steps, ping, little))
        return None

    async def _answer_ping(self, md: MessageDescriptor, header: pcf.MQCFH, steps: Steps, ping: PingRequest,
                           little: bool) -> None:
        assert self.runtime.ping_channel is not None
        try:
            outcome: Outcome = await self.runtime.ping_channel(ping)
            with contextlib.suppress(StopIteration):
                steps.send(outcome)
            reply = pcf_commands.Reply() if outcome.status is Status.OK else pcf_commands.failure(
                pcf_commands.error_of(outcome.lines))
        except Exception:  # a bug must not leave the requester waiting for ever
            log.exception("AMQ6119E: unexpected error in PING CHANNEL")
            reply = pcf_commands.Reply([], C.MQCC_FAILED, C.MQRCCF_COMMAND_FAILED)
        if md.ReplyToQ.strip():
            self._reply(self._server.conn, md, pcf_commands.responses(header, reply), little, syncpoint=False)
        self.runtime.finish(Round())

    def _run(self, md: MessageDescriptor, request: pcf.PcfMessage) -> pcf_commands.Reply:
        user = md.UserIdentifier.strip()
        principal = Principal(user, self.core.security.groups_of(user))
        try:
            admin = self.core.admin_for(principal, origin=C.MQEVO_MSG)  # a PCF command message
        except MQError as error:
            return pcf_commands.Reply([], C.MQCC_FAILED, error.reason)
        try:
            reply = pcf_objects.execute(admin, request.header.Command, request.parameters)
            if reply.comp_code == C.MQCC_OK:  # a command event (CMDEV), for a command that ran
                self.core.qmgr_events.command(user, request.header.Command, parameters=request.parameters, md=md)
            return reply
        except Exception:  # a bug must not stop the server: the request is answered all the same
            log.exception("AMQ6119E: unexpected error serving PCF command %d", request.header.Command)
            return pcf_commands.Reply([], C.MQCC_FAILED, C.MQRCCF_COMMAND_FAILED)

    def _reply(self, conn: Connection, request: MessageDescriptor, messages: list[pcf.PcfMessage],
               little: bool, syncpoint: bool = True) -> None:
        """Each response put to the reply-to queue, opened once for them all (an INQUIRE of
        thousands of objects is thousands of responses)."""
        correl = request.CorrelId if request.Report & C.MQRO_PASS_CORREL_ID else request.MsgId
        if len(messages) >= int(self.core.attrs.get("MAXUMSGS", 10_000)):
            syncpoint = False  # more than a unit of work may hold (MAXUMSGS): put as they are made
        options = (C.MQPMO_SYNCPOINT if syncpoint else C.MQPMO_NO_SYNCPOINT) | (
            0 if request.Report & C.MQRO_PASS_MSG_ID else C.MQPMO_NEW_MSG_ID)
        queue, qmgr = request.ReplyToQ.strip(), request.ReplyToQMgr.strip()
        try:
            hobj: int | MQError = self.core.open(conn, {"ObjectName": queue, "ObjectQMgrName": qmgr},
                                                 C.MQOO_OUTPUT).hobj
        except MQError as error:
            hobj = error
        try:
            for message in messages:
                md = MessageDescriptor(MsgType=C.MQMT_REPLY, Format=C.MQFMT_ADMIN, Encoding=request.Encoding,
                                       CodedCharSetId=pcf.UTF8, Priority=request.Priority,
                                       Persistence=request.Persistence, Expiry=request.Expiry, CorrelId=correl,
                                       UserIdentifier=request.UserIdentifier, PutApplName="amqpcsea")
                if request.Report & C.MQRO_PASS_MSG_ID:
                    md.MsgId = request.MsgId
                body = pcf.encode(message, little, pcf_lengths.LENGTHS)
                try:
                    if isinstance(hobj, MQError):
                        raise hobj
                    self.core.put(conn, hobj, md, options, {}, body)
                except MQError as error:  # IBM: a reply that cannot be delivered is dead-lettered
                    log.warning("AMQ8027W: PCF reply to %s not delivered (%d): dead-lettered", queue, error.reason)
                    if not self.core.dead_letter(Message(md, body), error.reason, queue, qmgr):
                        log.error("AMQ9544E: PCF reply to %s lost: no dead-letter queue", queue)
        finally:
            if not isinstance(hobj, MQError):
                self.core.close(conn, hobj, 0)

    def _failed(self, result: GetResult, error: MQError) -> str:
        """A request with no reply-to queue that is not a PCF command, or one the server could
        not serve: to the dead-letter queue with its reason."""
        log.error("AMQ8028E: PCF request not served (%d): %s", error.reason, error.text or error)
        return DEAD_LETTER


def start(runtime: Runtime) -> CommandServer:
    """The command server of ``runtime``'s queue manager: running under SCMDSERV(QMGR), stopped
    (waiting for strmqcsv) under SCMDSERV(MANUAL)."""
    running = runtime.core.attrs.get("SCMDSERV", "QMGR") != "MANUAL"
    server = CommandServer(runtime, running)
    started = time.localtime()
    runtime.core.status_extras = lambda: {"CMDSERV": "RUNNING" if server.running else "STOPPED",  # DISPLAY QMSTATUS
                                          **_status_extras(runtime, started)}
    log.info("AMQ8024I: command server %s (pid %d)", "started" if running else "waiting for strmqcsv", os.getpid())
    return server


def _status_extras(runtime: Runtime, started: time.struct_time) -> dict[str, Any]:
    """DISPLAY QMSTATUS beyond STATUS and CMDSERV: IBM's CONNS, STARTDA, STARTTI, and the store's
    counters under mqlite's own keywords (the web server's ``/metrics`` reads them): STORESIZE
    (bytes of the SQLite file and its WAL), STORECOMMITS, STORETXS (transactions in those commits:
    their ratio is the group-commit size), STOREOPS, STORECOMMITUS (microseconds in COMMIT, its
    fsync included)."""
    store = runtime.store
    stats = store.stats
    size = 0
    for path in (store.path, store.path + "-wal"):
        with contextlib.suppress(OSError):
            size += os.stat(path).st_size
    return {"CONNS": sum(1 for conn in runtime.core.connections.values() if conn.connected),
            "STARTDA": time.strftime("%Y-%m-%d", started), "STARTTI": time.strftime("%H.%M.%S", started),
            "STORESIZE": size, "STORECOMMITS": stats.commits, "STORETXS": stats.transactions,
            "STOREOPS": stats.ops, "STORECOMMITUS": int(stats.commit_seconds * 1_000_000)}
