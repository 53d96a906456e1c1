"""A sending message channel (SDR, SVR): the task that moves its transmission queue to the partner.

Connect, HELLO, STATUS (batches left in doubt are resolved by the partner's last LUWID), then
batches: each batch's messages are got in one unit of work; END_BATCH goes out only once the
batch's in-doubt record is durable; the CONFIRM commits the batch off the transmission queue.
With PIPELINE 2 (qm.ini ``CHANNELS: PipeLineLength``) the next batch is got, in a second unit of
work, and sent while the last one awaits its CONFIRM, so the receiver's commit and the sender's
next batch overlap instead of taking turns. A
failure retries on the short, then the long timer (RETRYING) and STOPS when the retries are
spent; DISCINT seconds with nothing to send end it (INACTIVE).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.handles import Connection, GetResult
from mqlite.core.network.channels.channel import (
    InDoubt,
    SyncState,
    batch_complete,
    disconnect_due,
    new_luwid,
    receive_timeout,
    resolve,
    retries_left,
    retry_delay,
    sequence_error,
)
from mqlite.core.network.channels.transfer import sender_key
from mqlite.core.network.clusters.routing import channel_correl
from mqlite.core.waiters import GetRequest
from mqlite.message import NOT_FIXED_PROPERTY
from mqlite.protocol import channel as wire
from mqlite.server import tls_rules
from mqlite.server.channels.agent_base import MCA_USER, AgentSession, ChannelFailed, failure, parse_conname
from mqlite.server.channels.dial import dial, expect
from mqlite.server.channels.message_status import ChannelStatus
from mqlite.server.runtime import Round
from mqlite.server.tcp import keep_alive

if TYPE_CHECKING:
    from mqlite.server.runtime import Runtime
    from mqlite.server.tls import ServerTls

log = logging.getLogger("mqlite.server")
# NPMSPEED(FAST): non-persistent messages leave the transmission queue at once (lost if the
# channel fails with them, as IBM has it); NORMAL: every message is in the batch's unit of work.
_GET_FAST = C.MQGMO_SYNCPOINT_IF_PERSISTENT | C.MQGMO_FAIL_IF_QUIESCING
_GET_NORMAL = C.MQGMO_SYNCPOINT | C.MQGMO_FAIL_IF_QUIESCING
_WRITE_CHUNK = 16384
_NOW = Round()  # output that waits for nothing but what is ahead of it
_NOW.ready = True


@dataclass
class _Unit:
    """One core connection of the channel with its transmission queue open: a batch is got in one
    such connection's unit of work (with PIPELINE 2, two of them take turns)."""

    conn: Connection
    hobj: int


@dataclass
class _Ended:
    """A batch sent and ended, awaiting its CONFIRM; ``unit`` holds its messages."""

    doubt: InDoubt
    unit: _Unit
    count: int


class SenderAgent:
    """One running sending channel: its task, its core connection and its status."""

    def __init__(self, runtime: Runtime, name: str, on_end: Callable[[str, ChannelStatus], None],
                 tls: ServerTls | None = None,
                 accepted: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None) -> None:
        self.runtime = runtime
        # A server channel (SVR) a requester connected to: it sends on that connection, once.
        self.accepted = accepted
        self.tls = tls
        self.core = runtime.core
        self.on_end = on_end
        self.name = name
        attrs = self.core.channels[name]
        # A cluster-sender's transmission queue is chosen for it (and may be shared: it gets the
        # messages whose CorrelId names it).
        self._correl = channel_correl(name) if attrs["CHLTYPE"] == "CLUSSDR" else None
        if self._correl:  # a changed association takes effect now, with nothing in flight (B:R-CXQ-5)
            in_doubt = bool(self.core.transfer.state(sender_key(name)).indoubt)
            self.core.cluster.associations.switch(name, in_doubt=in_doubt)
            runtime.finish(Round())
        xmitq = self.core.cluster.xmitq_of(name).name if self._correl else str(attrs.get("XMITQ", ""))
        self.status = ChannelStatus(name, str(attrs["CHLTYPE"]), conname=str(attrs.get("CONNAME", "")),
                                    xmitq=xmitq)
        self.status.retries_left = (int(attrs.get("SHORTRTY", 10)), int(attrs.get("LONGRTY", 999_999_999)))
        self.core.cluster.wanted.discard(name)
        self.done = False
        self._units: list[_Unit] = []
        self._awaiting: deque[_Ended] = deque()  # oldest first
        self._writer: asyncio.StreamWriter | None = None
        self._wire: wire.ChannelConnection | None = None
        self._session = AgentSession(lambda data: None)  # a connection's own comes with it
        self._get_options = _GET_FAST
        self.quiescing = False
        self._out: list[bytes] = []  # MSG frames not yet written
        self._out_size = 0
        self._receive_timeout = receive_timeout(int(attrs.get("HBINT", 300)) or 300)
        self._heard = time.monotonic()  # when the partner last sent anything
        self._failures = 0  # attempts failed in a row (a session that reached RUNNING starts them again)
        self._retry_now = asyncio.Event()  # START CHANNEL while RETRYING: the next attempt at once
        self.by_user = False  # STOP CHANNEL ended it (Channel Stopped By User)
        self._started = False  # this instance issued Channel Started (so its end is a Channel Stopped)
        self._task = asyncio.get_running_loop().create_task(self._run())

    def cancel(self) -> None:
        self._task.cancel()

    def retry_now(self) -> None:
        """START CHANNEL of a RETRYING sender: its next attempt now, not at the retry timer (IBM's
        way); it counts as that retry."""
        if self.status.status == "RETRYING":
            self._retry_now.set()

    def quiesce(self) -> bool:
        """STOP CHANNEL MODE(QUIESCE): end after the batch in flight; True when there was none and
        it ended at once (as FORCE would)."""
        self.quiescing = True
        if self._wire is None or (self.status.cur_msgs == 0 and not self._awaiting):  # nothing in flight
            self._task.cancel()
            return True
        return False

    # -- the channel's life --------------------------------------------------------------------------
    async def _run(self) -> None:
        attrs = self.core.channels[self.name]
        try:
            while True:
                try:
                    await self._session_once(attrs)
                    self.status.status = "STOPPED" if self.quiescing else "INACTIVE"
                    log.info("AMQ9001I: Channel '%s' ended normally", self.name)
                    self._channel_ended()
                    return
                except Exception as error:  # whatever went wrong, the channel retries or stops
                    if not isinstance(error, (TimeoutError, OSError, EOFError, wire.ProtocolError, MQError,
                                              ChannelFailed)):
                        log.exception("AMQ6119E: Channel '%s': unexpected error", self.name)
                    failed = failure(error, self.name, self.status.conname)
                    if failed.explanation:  # IBM's entry of its own (AMQ9202E), then the channel's end
                        log.error("%s", failed.explanation)
                    self._abandon_connection()
                    self._failures += 1
                    retries = (int(attrs.get("SHORTRTY", 10)), int(attrs.get("SHORTTMR", 60)),
                               int(attrs.get("LONGRTY", 999_999_999)), int(attrs.get("LONGTMR", 1200)))
                    self.status.retries_left = retries_left(self._failures, retries[0], retries[2])
                    # a requester's connection is the requester's to retry; a cluster-sender
                    # retries a partner that has no cluster-receiver of its name yet (members
                    # join in any order), where a manual sender stops
                    stop = failed.stop and not (self._correl and failed.reason == C.MQRC_UNKNOWN_CHANNEL_NAME)
                    delay = None if stop or self.accepted else retry_delay(self._failures, *retries)
                    self.status.error = failed.text
                    if delay is None:
                        self.status.status = "STOPPED"
                        self.status.retries_left = (0, 0)
                        log.error("AMQ9999E: Channel '%s' ended abnormally and is STOPPED: %s", self.name, failed.text)
                        self._channel_ended(failed.text)
                        return
                    self.status.status = "RETRYING"
                    self._channel_ended(failed.text)
                    log.error("AMQ9999E: Channel '%s' ended abnormally: %s; retrying in %.0f s", self.name,
                              failed.text, delay)
                    self._retry_now.clear()
                    with contextlib.suppress(TimeoutError):  # the timer, or START CHANNEL first
                        await asyncio.wait_for(self._retry_now.wait(), delay)
        except asyncio.CancelledError:
            self.status.status = "STOPPED"
            self._channel_ended()
            await self._close_quietly(0, "channel stopped")
            raise
        finally:
            self.done = True
            self._abandon_connection(disconnect=True)
            self.on_end(self.name, self.status)

    def _channel_ended(self, error_text: str = "") -> None:
        """Channel Stopped (and Stopped By User) of an instance that issued Channel Started."""
        if self._started:
            self._started = False
            status = self.status
            self.core.channel_events.ended(self.name, status.chltype, status.xmitq, status.conname, status.status,
                                           error_text, self.by_user)
            self.runtime.finish(Round())

    async def _session_once(self, attrs: Any) -> None:
        self.status.status, self.status.substate = "BINDING", "NETBIND"
        if self.accepted is not None:  # the requester's connection
            reader, writer = self.accepted
            self._writer = writer
            peer = writer.get_extra_info("peername")
            self.status.conname = str(peer[0]) if isinstance(peer, tuple) else ""
            self.status.tls = tls_rules.status(writer.transport)
        else:
            reader, writer = await dial(self.name, attrs, self.tls)
            self._writer = writer
            self.status.tls = tls_rules.status(writer.transport)
            host, port = parse_conname(str(attrs.get("CONNAME", "")))
            self.status.conname = f"{host}({port})"
        keep_alive(writer.transport, int(attrs.get("HBINT", 300)) + 60)  # KAINT(AUTO)
        self._wire = wire.ChannelConnection(wire.Role.SENDER)
        # Output that waits for the disk (END_BATCH) belongs to this connection: released after
        # the connection broke, it must go nowhere, never onto the next connection.
        self._session = AgentSession(_writer_of(writer))
        hello = {"channel": self.name, "type": attrs["CHLTYPE"], "qmgr": self.runtime.name,
                 "batchsz": int(attrs.get("BATCHSZ", 50)), "maxmsgl": int(attrs.get("MAXMSGL", 4194304)),
                 "hbint": int(attrs.get("HBINT", 300)), "npmspeed": str(attrs.get("NPMSPEED", "FAST")),
                 "seqwrap": int(attrs.get("SEQWRAP", 999_999_999)), "pipeline": self.core.transfer.pipeline}
        self._send(wire.Hello(hello))
        accepted = await self._expect(reader, wire.Accept)
        negotiated = accepted.fields
        self._receive_timeout = receive_timeout(int(negotiated.get("hbint", 300)) or 300)
        self.status.rqmname = str(negotiated.get("qmgr", ""))
        key = sender_key(self.name)
        state = self.core.transfer.state(key)
        newest = state.indoubt[-1] if state.indoubt else None
        self._send(wire.Status(state.seq, None if newest is None else {"luwid": newest.luwid, "seq": newest.seq},
                               state.reset))
        reply = await self._expect(reader, wire.StatusReply)
        mismatch = sequence_error(state, reply.seq, reply.luwid)
        if mismatch is not None:
            raise ChannelFailed(mismatch, C.MQRC_UNEXPECTED_ERROR, stop=True)
        if state.reset:  # the partner took the new number
            state = SyncState(state.seq, state.luwid, state.indoubt)
            self.core.transfer.save(key, state)
            self.runtime.finish(Round())
        self._resolve(state, reply.luwid)
        self.status.status, self.status.substate = "RUNNING", "MQGET"
        self._started = True
        status = self.status
        self.core.channel_events.started(self.name, status.chltype, status.xmitq, status.conname)
        self.runtime.finish(Round())
        self.status.retries_left = (int(attrs.get("SHORTRTY", 10)), int(attrs.get("LONGRTY", 999_999_999)))
        self._failures = 0  # it got through: a later failure retries from the start (IBM's reset)
        self._get_options = _GET_FAST if negotiated.get("npmspeed") == "FAST" else _GET_NORMAL
        self._open_units(attrs, int(negotiated.get("pipeline", 1)))
        await self._batches(reader, attrs, negotiated)

    def _resolve(self, state: SyncState, partner_luwid: bytes | None) -> None:
        """Batches left in doubt: those the partner has are removed from the transmission queue,
        the rest are sent again. A unit of work that still holds one is committed or backed out;
        after a restart the batch is back on the queue, and one the partner has is removed."""
        if not state.indoubt:
            return
        have = resolve(state.indoubt, partner_luwid)
        held = {ended.doubt.luwid: ended.unit for ended in self._awaiting}
        for position, doubt in enumerate(state.indoubt):
            unit = held.get(doubt.luwid)
            if position < have:
                if unit is not None:
                    self.core.commit(unit.conn)
                else:
                    self.core.transfer.remove_entries(self.status.xmitq, doubt.entries)
            elif unit is not None:
                self.core.backout(unit.conn)
            log.info("AMQ9530I: Channel '%s': batch in doubt (sequence %d) %s", self.name, doubt.seq,
                     "committed" if position < have else "backed out")
        if have:
            last = state.indoubt[have - 1]
            self.core.transfer.save(sender_key(self.name), SyncState(last.seq, last.luwid))
            self.status.last_seq = last.seq
        else:
            self.core.transfer.save(sender_key(self.name), state.backed_out())
        self._awaiting.clear()
        self.status.indoubt = False
        self.runtime.finish(Round())

    def _open_units(self, attrs: Any, pipeline: int) -> None:
        while len(self._units) < pipeline:
            conn = self.core.connect(MCA_USER, "runmqchl " + self.name, os.getpid(), channel=self.name, system=True)
            handle = self.core.open(conn, {"ObjectName": self.status.xmitq},
                                    C.MQOO_INPUT_SHARED | C.MQOO_FAIL_IF_QUIESCING)
            self._units.append(_Unit(conn, handle.hobj))
        self.runtime.finish(Round())

    def _free_unit(self) -> _Unit:
        busy = [ended.unit for ended in self._awaiting]
        return next(unit for unit in self._units if all(unit is not other for other in busy))

    async def _batches(self, reader: asyncio.StreamReader, attrs: Any, negotiated: dict[str, Any]) -> None:
        key = sender_key(self.name)
        batchsz = int(negotiated.get("batchsz", 50))
        seqwrap = int(negotiated.get("seqwrap", 999_999_999))
        hbint = int(negotiated.get("hbint", 300))
        pipeline = int(negotiated.get("pipeline", 1))
        discint = int(attrs.get("DISCINT", 6000))
        batchlim = int(attrs.get("BATCHLIM", 5000))
        batchint = int(attrs.get("BATCHINT", 0))
        batchhb = int(attrs.get("BATCHHB", 0)) / 1000
        self._heard = time.monotonic()
        idle_since = time.monotonic()
        while True:
            if len(self._awaiting) >= pipeline:
                await self._confirm(reader, key)
            if self.quiescing:  # STOP CHANNEL MODE(QUIESCE) came during a batch: it has ended
                while self._awaiting:
                    await self._confirm(reader, key)
                await self._close_quietly(0, "STOP CHANNEL MODE(QUIESCE)")
                return
            unit = self._free_unit()
            # The first message of a batch: what is there now; with none, the batches sent are
            # confirmed first, then the wait (heartbeats while idle, DISCINT ends the channel).
            first = self._get_now(unit)
            if first is None and self._awaiting:
                while self._awaiting:
                    await self._confirm(reader, key)
                idle_since = time.monotonic()
                continue
            if first is None:
                first = await self._idle_get(unit, reader, min(x for x in (hbint or 3600, discint or 3600, 3600)))
            if first is None:
                if disconnect_due(time.monotonic() - idle_since, discint):
                    await self._close_quietly(0, "DISCINT")
                    return
                self._send(wire.Heartbeat())
                await self._expect(reader, wire.HeartbeatAck)
                continue
            state = self.core.transfer.state(key)
            seq = state.indoubt[-1].seq if state.indoubt else state.seq
            count = size = 0
            yielded = False
            began = time.monotonic()
            message: GetResult | None = first
            while message is not None:
                seq = wire.next_seq(seq, seqwrap)
                md = message.message.md
                body = message.body
                assert self._wire is not None
                properties = message.message.properties
                if NOT_FIXED_PROPERTY in properties:  # this queue manager's own mark, not the message's
                    properties = {k: v for k, v in properties.items() if k != NOT_FIXED_PROPERTY}
                self._queue_frame(self._wire.send_msg(seq, md.Persistence == C.MQPER_PERSISTENT, md.to_list(),
                                                      properties, body))
                count += 1
                size += len(body)
                self.status.cur_seq, self.status.cur_msgs = seq, count
                self.status.bytes_sent += len(body)
                if batch_complete(count, size, batchsz, batchlim, False, 0.0, batchint):
                    break
                message = self._get_now(unit)
                if message is None and batchint and time.monotonic() - began < batchint / 1000:
                    self._flush()  # what is ready goes now: FAST messages are put on arrival
                    message = await self._get(unit, batchint / 1000 - (time.monotonic() - began))
                elif message is None and not yielded:
                    # Once per batch, let what has arrived on the sockets meanwhile be put before
                    # the batch ends: a producer streaming puts then fills a batch instead of
                    # each message paying a batch's end of its own.
                    yielded = True
                    self._flush()
                    await asyncio.sleep(0)
                    message = self._get_now(unit)
            if batchhb and time.monotonic() - self._heard > batchhb:
                await self._batch_heartbeat(reader, key, batchhb)
            self._end_batch(unit, key, seq, count)
            stats = self.core.statistics.channel(self.name)
            if stats is not None:  # STATCHL, collected for this channel
                stats.batch(count, size, count >= batchsz)
            idle_since = time.monotonic()

    async def _batch_heartbeat(self, reader: asyncio.StreamReader, key: str, batchhb: float) -> None:
        """BATCHHB: a partner not heard from for BATCHHB is asked whether it is there before the
        batch ends. Silence (the receive timeout) fails the channel with this batch not ended, so
        it is backed out onto the transmission queue instead of being left in doubt."""
        while self._awaiting:  # a CONFIRM is an answer too
            await self._confirm(reader, key)
        if time.monotonic() - self._heard > batchhb:
            self._flush()
            self._send(wire.Heartbeat())
            await self._expect(reader, wire.HeartbeatAck)

    def _end_batch(self, unit: _Unit, key: str, seq: int, count: int) -> None:
        """END_BATCH goes once the batch's in-doubt record is durable; its CONFIRM is awaited later."""
        luwid = new_luwid()
        assert self._wire is not None
        doubt = InDoubt(luwid, seq, self.core.transfer.held_entries(unit.conn))
        self.core.transfer.save(key, self.core.transfer.state(key).in_doubt(doubt))
        self._awaiting.append(_Ended(doubt, unit, count))
        self.status.indoubt = True
        self.status.cur_msgs = 0
        # The channel waits for this record, with nothing else to do; a batch without a
        # persistent message loses nothing but its number if a machine failure loses the record.
        round_ = Round(urgent=True, unsynced_ok=not doubt.entries)
        self._flush()  # the batch's messages, then its end
        round_.add(self._session, self._wire.send(wire.EndBatch(seq, luwid)))
        self.runtime.finish(round_)
        self.status.substate = "ENDBATCH"

    async def _confirm(self, reader: asyncio.StreamReader, key: str) -> None:
        """The oldest ended batch's CONFIRM: commit it off the transmission queue."""
        ended = self._awaiting[0]
        confirm = await self._expect(reader, wire.Confirm)
        seq, luwid = ended.doubt.seq, ended.doubt.luwid
        if (confirm.seq, confirm.luwid) != (seq, luwid):
            raise ChannelFailed(f"CONFIRM of {confirm.seq} for END_BATCH of {seq}", C.MQRC_UNEXPECTED_ERROR)
        self._awaiting.popleft()
        # The batch leaves the transmission queue now; its record goes to disk with the next
        # round (the next batch's in-doubt record, or the wait when the queue is empty): until
        # then a restart finds it in doubt, and the partner's LUWID settles it as committed.
        self.core.commit(ended.unit.conn)
        self.core.transfer.save(key, self.core.transfer.state(key).committed(seq, luwid))
        self.status.indoubt = bool(self._awaiting)
        self.status.last_seq = seq
        self.status.msgs += ended.count
        self.status.batches += 1
        self.status.last_message = time.time()
        self.status.substate = "MQGET"

    def _get_now(self, unit: _Unit) -> GetResult | None:
        """The next message of the transmission queue if there is one (no waiting: the batch's
        hot path, its effects collected when the batch ends)."""
        try:
            result = self.core.get(unit.conn, unit.hobj, GetRequest(self._get_options, None, self._correl, -1, 0),
                                   (self._session, 1))
        except MQError as error:
            if error.reason == C.MQRC_NO_MSG_AVAILABLE:
                return None
            raise
        assert isinstance(result, GetResult)  # a get that does not wait never leaves a waiter
        return result

    async def _idle_get(self, unit: _Unit, reader: asyncio.StreamReader, wait_seconds: float) -> GetResult | None:
        """``_get`` while the channel is idle, watching the connection meanwhile: a partner that
        ended (its socket closed, or its CLOSE came) is noticed now, not at the next heartbeat,
        so the channel retries and whoever asks its state (cluster routing, routes) knows."""
        get = asyncio.ensure_future(self._get(unit, wait_seconds))
        try:
            while True:
                watch = asyncio.ensure_future(reader.read(65536))
                try:
                    done, _ = await asyncio.wait({get, watch}, return_when=asyncio.FIRST_COMPLETED)
                finally:
                    if not watch.done():
                        watch.cancel()
                        with contextlib.suppress(asyncio.CancelledError):
                            await watch
                if watch.done() and not watch.cancelled():
                    self._idle_frame(watch.result())  # raises unless it was part of a frame
                if get in done:
                    return get.result()
        finally:
            if not get.done():
                get.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await get

    def _idle_frame(self, data: bytes) -> None:
        """What an idle partner sent: its end, or a CLOSE / REFUSE (anything else is an error)."""
        if not data:
            raise EOFError("the partner closed the connection")
        assert self._wire is not None
        self._count_received(len(data))
        self._wire.receive_data(data)
        event = self._wire.next_event()
        if event is wire.NEED_DATA:
            return
        if isinstance(event, wire.Refuse | wire.Close):
            raise ChannelFailed(f"the partner ended the channel: {event.text} (reason {event.reason})", event.reason)
        raise wire.ProtocolError(C.MQRC_UNEXPECTED_ERROR, f"unexpected {type(event).__name__} while idle",
                                 fatal=True)

    async def _get(self, unit: _Unit, wait_seconds: float) -> GetResult | None:
        """The next message of the transmission queue in the channel's unit of work, waiting up to
        ``wait_seconds`` for one (None when none came)."""
        wait_ms = int(wait_seconds * 1000)
        options = self._get_options | (C.MQGMO_WAIT if wait_ms > 0 else 0)
        request = GetRequest(options, None, self._correl, -1, wait_ms)
        future: asyncio.Future[GetResult | MQError] = asyncio.get_running_loop().create_future()

        def completed(result: GetResult | MQError) -> None:
            if not future.done():
                future.set_result(result)

        self._session.on_complete = completed
        try:
            result = self.core.get(unit.conn, unit.hobj, request, (self._session, 1))
        except MQError as error:
            if error.reason == C.MQRC_NO_MSG_AVAILABLE:
                return None
            raise
        finally:
            self.runtime.finish(Round())
        if isinstance(result, GetResult):
            return result
        self._session.waiters[1] = result
        try:
            outcome = await future
        except asyncio.CancelledError:
            self.runtime.cancel_waiter(result)
            self._session.waiters.clear()
            raise
        if isinstance(outcome, MQError):
            if outcome.reason == C.MQRC_NO_MSG_AVAILABLE:
                return None
            raise outcome
        return outcome

    # -- bytes ------------------------------------------------------------------------------------
    def _write(self, data: bytes) -> None:
        """Everything goes out behind an END_BATCH still waiting for its in-doubt record to be
        durable (the session keeps the order): the next batch's messages must not pass it."""
        self._session.emit(_NOW, data)

    def _queue_frame(self, frame: bytes) -> None:
        """A batch's MSG frames go out together (one system call per 64 KB, not per message)."""
        self._out.append(frame)
        self._out_size += len(frame)
        if self._out_size >= _WRITE_CHUNK:
            self._flush()

    def _flush(self) -> None:
        if self._out:
            self._write(b"".join(self._out))
            self._out.clear()
            self._out_size = 0

    def _send(self, event: wire.Event) -> None:
        assert self._wire is not None
        self._write(self._wire.send(event))

    async def _expect(self, reader: asyncio.StreamReader, kind: type[Any]) -> Any:
        assert self._wire is not None
        return await expect(self._wire, reader, kind, self._receive_timeout, self._count_received)

    def _count_received(self, size: int) -> None:
        self.status.bytes_received += size
        self._heard = time.monotonic()  # (BATCHHB: the partner was there then)

    async def _close_quietly(self, reason: int, text: str) -> None:
        writer, channel = self._writer, self._wire
        if writer is None or channel is None or writer.is_closing():
            return
        with contextlib.suppress(wire.ProtocolError, OSError):
            writer.write(channel.send(wire.Close(reason, text)))
            await asyncio.wait_for(writer.drain(), 2)
        writer.close()

    def _abandon_connection(self, disconnect: bool = False) -> None:
        """The socket is gone. Batches ended and awaiting CONFIRM stay held in their units of work
        (they are in doubt); a batch not yet ended is backed out. When the agent ends, every
        unit is backed out and closed (a batch in doubt stays recorded)."""
        if self._writer is not None:
            self._writer.close()
        self._writer, self._wire = None, None
        self.status.cur_msgs = 0
        held = [ended.unit for ended in self._awaiting]
        for unit in self._units:
            if disconnect:
                with contextlib.suppress(MQError):
                    self.core.disconnect(unit.conn, commit=False)
            elif unit.conn.uow and all(unit is not other for other in held):
                self.core.backout(unit.conn)
        if disconnect:
            self._units.clear()
            self._awaiting.clear()
        self.runtime.finish(Round())


def _writer_of(writer: asyncio.StreamWriter) -> Callable[[bytes], None]:
    def write(data: bytes) -> None:
        if not writer.is_closing():
            writer.write(data)

    return write
