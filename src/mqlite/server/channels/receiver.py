"""A receiving message channel (RCVR, RQSTR): the protocol of a connection on the queue manager's
port whose first frame is a channel HELLO. Each batch's messages are put in one unit of work with
the receiver's sync record (``core.network.channels.transfer``), and CONFIRM goes out once that is durable."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.network.channels.channel import first_seq_ok
from mqlite.core.network.channels.transfer import RETRYABLE, receiver_key
from mqlite.message import MD_FIELDS
from mqlite.protocol import channel as wire
from mqlite.protocol.native import NeedData
from mqlite.server import tls_rules
from mqlite.server.channels.admission import admit_partner
from mqlite.server.channels.agent_base import AgentSession, ChannelFailed
from mqlite.server.channels.message_status import ChannelStatus
from mqlite.server.runtime import Round

if TYPE_CHECKING:
    from mqlite.server.runtime import Runtime

log = logging.getLogger("mqlite.server")
MD_LENGTH = len(MD_FIELDS)


class ReceiverAgent(asyncio.Protocol):
    """The receiving end of one channel connection (RCVR or RQSTR)."""

    def __init__(self, runtime: Runtime, transport: asyncio.Transport | None,
                 groups_of: Callable[[str], frozenset[str]], running: dict[str, set[ReceiverAgent]]) -> None:
        self.runtime = runtime
        self.core = runtime.core
        self.groups_of = groups_of
        self.running = running  # the receivers running now, by channel (CHSTATUS, STOP CHANNEL)
        self.wire = wire.ChannelConnection(wire.Role.RECEIVER)
        self.name = ""
        self.sync_key = ""  # its sync record (transfer.receiver_key)
        self.attrs: Any = None
        self.fast, self.putaut, self.usedlq = True, "DEF", True
        self._delivered_now = False  # messages put outside the batch since the last round
        self._batch_persistent = False  # the open batch has a persistent message
        self._batch_bytes = 0  # message data of the open batch (STATCHL's TotalBytes)
        self.batchsz = 50  # negotiated at HELLO: a batch of this many is a full one (STATCHL)
        self.conn: Any = None
        self.status = ChannelStatus("", "RCVR")
        self.closed = False
        self.retrying = False  # a put waits for its message retry (MRRTY/MRTMR): reading paused
        self.started = False  # it issued Channel Started (its end is a Channel Stopped)
        self.by_user, self.end_error = False, ""  # STOP CHANNEL ended it; the error it ended with
        if transport is not None:  # a connection the listener accepted (set_protocol calls nothing)
            self.connection_made(transport)

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)
        self.session = AgentSession(self.transport.write)
        peer = transport.get_extra_info("peername")
        self.status.conname = str(peer[0]) if isinstance(peer, tuple) else ""

    def data_received(self, data: bytes) -> None:
        if self.closed:
            return
        self.status.bytes_received += len(data)

        def feed() -> None:
            self.wire.receive_data(data)
            self._process_events()

        self._guarded(feed)

    def _process_events(self) -> None:
        """The frames received, in order, until one waits (a message retry) or the channel ends."""
        while not self.retrying and (event := self.wire.next_event()) is not wire.NEED_DATA:
            assert not isinstance(event, NeedData)
            self._handle(event)
            if self.closed:
                return
        if self._delivered_now:  # NPMSPEED(FAST) messages are there now: a waiting MQGET gets them now
            self._delivered_now = False
            self.runtime.finish(Round())

    def _guarded(self, action: Callable[[], None]) -> None:
        """Run ``action``; what goes wrong ends this channel, never the queue manager."""
        try:
            action()
        except wire.ProtocolError as error:
            log.error("AMQ9504E: protocol error on channel '%s' from %s: %s", self.name or "?",
                      self.status.conname, error.text)
            self.end(error.reason, f"AMQ9504E: {error.text}", send=False)
        except ChannelFailed as error:
            log.error("AMQ9999E: Channel '%s' from %s ended: %s", self.name, self.status.conname, error.text)
            self.end(error.reason, error.text)
        except Exception as error:  # a partner's input must never take the queue manager down
            log.exception("AMQ9504E: Channel '%s' from %s: unexpected input (%s: %s)", self.name or "?",
                          self.status.conname, type(error).__name__, error)
            self.end(C.MQRC_UNEXPECTED_ERROR, "AMQ9504E: unexpected input")

    def _handle(self, event: wire.Event) -> None:
        if isinstance(event, wire.Hello):
            self._hello(event.fields)
        elif isinstance(event, wire.Status):
            state = self.core.transfer.receiver_status(self.sync_key, event.seq, event.reset)
            if event.reset:
                log.info("AMQ9537I: Channel '%s' reset to sequence number %d by its partner", self.name, event.seq)
            round_ = Round()  # the reply goes once a reset it reports is durable
            round_.add(self.session, self.wire.send(wire.StatusReply(state.seq, state.luwid)))
            self.runtime.finish(round_)
            self.status.status, self.status.last_seq = "RUNNING", state.seq
            if not self.started:  # the first status exchange: the channel instance has started
                self.started = True
                self.core.channel_events.started(self.name, self.status.chltype, "", self.status.conname)
                self.runtime.finish(Round())
        elif isinstance(event, wire.Msg):
            self._message(event)
        elif isinstance(event, wire.EndBatch):
            self._end_batch(event)
        elif isinstance(event, wire.Heartbeat):
            self._write(wire.HeartbeatAck())
        elif isinstance(event, wire.Ping):  # PING CHANNEL: the data goes back as it came
            self._write(event)
        elif isinstance(event, wire.Close):
            log.info("AMQ9001I: Channel '%s' ended by its partner: %s", self.name, event.text)
            self.end(0, "", send=False)

    def _hello(self, fields: dict[str, Any]) -> None:
        name, partner_type = str(fields["channel"]), str(fields["type"])
        try:
            attrs = self.core.channel_service.receiver(name, partner_type)
        except MQError as error:
            log.error("%s (from %s, queue manager %s)", error.text, self.status.conname, fields.get("qmgr"))
            self._refuse(error.reason, error.text)
            return
        try:  # SSLCIPH both ways, SSLCAUTH, SSLPEER: as for a client channel
            tls_rules.check_channel(self.transport, name, attrs, self.status.conname)
        except MQError as error:
            self._refuse(error.reason, error.text)
            return
        sslpeer, sslcerti = tls_rules.peer_certificate(self.transport)
        self.status.tls = tls_rules.status(self.transport)
        negotiated = wire.negotiate(fields, {"batchsz": int(attrs.get("BATCHSZ", 50)),
                                             "maxmsgl": int(attrs.get("MAXMSGL", 4194304)),
                                             "hbint": int(attrs.get("HBINT", 300)),
                                             "npmspeed": str(attrs.get("NPMSPEED", "FAST")),
                                             "seqwrap": int(attrs.get("SEQWRAP", 999_999_999)),
                                             "pipeline": self.core.transfer.pipeline})
        if negotiated is None:
            self._refuse(C.MQRC_CHANNEL_NOT_AVAILABLE, f"AMQ9546E: SEQWRAP of channel '{name}' differs at the two ends")
            return
        try:
            principal = admit_partner(self.core, name, attrs, self.status.conname, str(fields["qmgr"]), self.groups_of,
                                      sslpeer, sslcerti)
            self.conn = self.core.connect(principal, "runmqchl " + name, os.getpid(), channel=name, system=True)
        except MQError as error:
            self._refuse(error.reason, f"channel '{name}': {error.text}")
            return
        partner = str(fields["qmgr"])
        cluster = attrs["CHLTYPE"] == "CLUSRCVR"
        for older in [r for r in self.running.get(name, ()) if r.status.rqmname == partner or not cluster]:
            # the partner came back: its old connection is dead (a cluster-receiver has many partners)
            log.warning("AMQ9514W: Channel '%s' is in use by an earlier connection from %s: ending that one",
                        name, older.status.conname)
            older.end(C.MQRC_CONNECTION_BROKEN, "AMQ9514E: a new instance of the channel started")
        self.name, self.attrs = name, attrs
        self.sync_key = receiver_key(name, partner if cluster else "")
        self.batchsz = int(negotiated["batchsz"])
        self.fast = negotiated["npmspeed"] == "FAST"  # NPMSPEED(FAST): non-persistent messages outside the batch
        self.putaut, self.usedlq = str(attrs.get("PUTAUT", "DEF")), attrs.get("USEDLQ", "YES") == "YES"
        self.status.channel, self.status.chltype = name, str(attrs["CHLTYPE"])
        self.status.rqmname = str(fields["qmgr"])
        self.status.status = "STARTING"
        self.running.setdefault(name, set()).add(self)
        self._write(wire.Accept({**negotiated, "qmgr": self.runtime.name}))
        self.runtime.finish(Round())

    def _message(self, msg: wire.Msg) -> None:
        if self.status.cur_msgs == 0:
            state = self.core.transfer.state(self.sync_key)
            if not first_seq_ok(state.seq, msg.seq, self.wire.seqwrap):
                raise ChannelFailed(f"AMQ9526E: Message sequence number error for channel '{self.name}': sent "
                                    f"{msg.seq}, expected {wire.next_seq(state.seq, self.wire.seqwrap)}",
                                    C.MQRC_UNEXPECTED_ERROR)
        if len(msg.md) != MD_LENGTH:  # the partner's own MQMD: unused unless the message has no MQXQH
            raise ChannelFailed(f"AMQ9504E: a message with an MQMD of {len(msg.md)} fields, not {MD_LENGTH}",
                                C.MQRC_UNEXPECTED_ERROR)
        in_unit = msg.persistent or not self.fast
        self._batch_persistent |= msg.persistent
        self._deliver(msg, in_unit, int(self.attrs.get("MRRTY", 10)))

    def _deliver(self, msg: wire.Msg, in_unit: bool, retries: int) -> None:
        """Put the message; a put that may succeed later (the queue full or put-inhibited) is tried
        again ``retries`` times, MRTMR apart, the channel PAUSED meanwhile, then dead-lettered."""
        try:
            self.core.transfer.deliver(self.conn, msg.md, msg.props, msg.body, in_unit, self.putaut, self.usedlq,
                                       retry=retries > 0)
        except MQError as error:
            if retries > 0 and error.reason in RETRYABLE:
                self.retrying, self.status.status = True, "PAUSED"
                stats = self.core.statistics.channel(self.name)
                if stats is not None:  # STATCHL's PutRetryCount
                    stats.put_retries += 1
                self.transport.pause_reading()
                delay = int(self.attrs.get("MRTMR", 1000)) / 1000
                asyncio.get_running_loop().call_later(delay, self._retry, msg, in_unit, retries - 1)
                return
            self.core.backout(self.conn)
            self.runtime.finish(Round())
            raise ChannelFailed(error.text or f"reason {error.reason}", error.reason) from None
        self.status.cur_msgs += 1
        self._batch_bytes += len(msg.body)
        self.status.cur_seq = msg.seq
        self.status.last_message = time.time()
        self._delivered_now |= not in_unit

    def _retry(self, msg: wire.Msg, in_unit: bool, retries: int) -> None:
        if self.closed:
            return

        def again() -> None:
            self.retrying = False
            self._deliver(msg, in_unit, retries)
            if self.retrying or self.closed:
                return
            self.status.status = "RUNNING"
            self._process_events()  # the frames that came meanwhile
            if not self.retrying and not self.closed:
                self.transport.resume_reading()

        self._guarded(again)

    def _end_batch(self, end: wire.EndBatch) -> None:
        """Commit the batch with the sync record; CONFIRM once it is durable."""
        self.core.transfer.commit_batch(self.conn, self.sync_key, end.seq, end.luwid)
        # The partner waits for this CONFIRM; a batch without a persistent message needs no fsync.
        round_ = Round(urgent=True, unsynced_ok=not self._batch_persistent)
        self._batch_persistent = False
        round_.add(self.session, self.wire.send(wire.Confirm(end.seq, end.luwid)))
        self.runtime.finish(round_)
        stats = self.core.statistics.channel(self.name)
        if stats is not None:  # STATCHL, collected for this channel
            stats.batch(self.status.cur_msgs, self._batch_bytes, self.status.cur_msgs >= self.batchsz)
        self._batch_bytes = 0
        self.status.msgs += self.status.cur_msgs
        self.status.batches += 1
        self.status.cur_msgs = 0
        self.status.last_seq = end.seq
        self.status.status = "RUNNING"

    def _write(self, event: wire.Event) -> None:
        self.transport.write(self.wire.send(event))

    def _refuse(self, reason: int, text: str) -> None:
        with contextlib.suppress(wire.ProtocolError):
            self.transport.write(self.wire.send(wire.Refuse(reason, text)))
        self.closed = True
        self.transport.close()

    def end(self, reason: int, text: str, send: bool = True) -> None:
        if self.closed:
            return
        self.by_user = text.startswith("AMQ9528I")  # STOP CHANNEL (mca.stop's words)
        self.end_error = text if reason else ""
        if send:
            with contextlib.suppress(wire.ProtocolError):
                self.transport.write(self.wire.send(wire.Close(reason, text)))
        self.closed = True
        self.transport.close()
        self._finish()

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        if exc is not None and not self.end_error:
            self.end_error = f"AMQ9208E: Error on receive from host: {exc}"
        self._finish()

    def _finish(self) -> None:
        """The connection ended: a batch not yet ended is backed out (the sender sends it again)."""
        receivers = self.running.get(self.name)
        if receivers is not None:
            receivers.discard(self)
            if not receivers:
                del self.running[self.name]
        if self.started:  # Channel Stopped of the instance that issued Channel Started
            self.started = False
            self.core.channel_events.ended(self.name, self.status.chltype, "", self.status.conname,
                                           "STOPPED" if self.by_user else "INACTIVE", self.end_error, self.by_user)
            self.runtime.finish(Round())
        conn, self.conn = self.conn, None
        if conn is not None:
            self.core.transfer.forget_connection(conn)
        if conn is not None and conn.connected:
            self.core.disconnect(conn, commit=False)
            self.runtime.finish(Round())
