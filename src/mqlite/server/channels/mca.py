"""Message channel agents (MCAs): the asyncio shell that moves messages between queue managers.

The rules are elsewhere and pure: the wire protocol and its state table in
``protocol.channel``, sequence numbers, in-doubt resolution, batch ends and retries in
``core.network.channels.channel``, the sync records and the receiving end's puts in ``core.network.channels.transfer``.
This package owns sockets, tasks and timers: a sending channel is a task (``sender``), a
receiving one the protocol of a connection on the queue manager's one port (``receiver``), and
``MessageChannels`` here is what core sees as their channel agent: it starts and stops them,
shows their status, and starts a sending channel when its transmission queue has messages.

Every write that promises something (END_BATCH, CONFIRM) goes through a ``Round`` of the
runtime, so it leaves only after the store has made what it promises durable.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from mqlite import cmqc as C
from mqlite.core.channel_attributes import SENDING_TYPES
from mqlite.core.errors import MQError
from mqlite.mqsc.commands import Outcome, PingRequest
from mqlite.protocol import channel as wire
from mqlite.server.channels.admission import admit_partner
from mqlite.server.channels.agent_base import HostUnavailable, parse_conname
from mqlite.server.channels.message_status import ChannelStatus
from mqlite.server.channels.ping import ping
from mqlite.server.channels.receiver import ReceiverAgent
from mqlite.server.channels.sender import SenderAgent

if TYPE_CHECKING:
    from mqlite.server.runtime import Runtime
    from mqlite.server.tls import ServerTls

log = logging.getLogger("mqlite.server")


class MessageChannels:
    """The queue manager's message channel agents; core's channel agent for SDR, SVR, RCVR, RQSTR."""

    def __init__(self, runtime: Runtime, groups_of: Callable[[str], frozenset[str]],
                 tls: ServerTls | None = None) -> None:
        self.runtime = runtime
        self.tls = tls  # the key repository senders present their certificate from
        self.core = runtime.core
        self.groups_of = groups_of
        self.senders: dict[str, SenderAgent] = {}
        self.receivers: dict[str, set[ReceiverAgent]] = {}
        self.finished: dict[str, ChannelStatus] = {}  # the last status of senders that stopped or retried
        runtime.tick_hooks.append(self._trigger)
        self.core.cluster.on_wanted = self._cluster_wanted

    async def ping(self, request: PingRequest) -> Outcome:
        """PING CHANNEL, checked by core (a sending channel at rest with a CONNAME)."""
        return await ping(request, self.runtime.name, self.tls)

    # -- core's ChannelAgent -----------------------------------------------------------------
    def start(self, name: str, attrs: Any) -> None:
        if attrs["CHLTYPE"] == "RQSTR":
            asyncio.get_running_loop().create_task(self._request(name, attrs))
            return
        if attrs["CHLTYPE"] not in SENDING_TYPES or not str(attrs.get("CONNAME") or "").strip():
            return  # receivers are started by their partner, a server without CONNAME by its requester
        agent = self.senders.get(name)
        if agent is not None and not agent.done:
            agent.quiescing = agent.by_user = False  # START after STOP MODE(QUIESCE): it runs on
            agent.retry_now()  # a RETRYING one tries now, not at its retry timer (as IBM's does)
            return
        self.finished.pop(name, None)
        self.senders[name] = SenderAgent(self.runtime, name, self.finished.__setitem__, self.tls)

    def stop(self, name: str, client_id: str | None = None, mode: str = "QUIESCE") -> int:
        ended = 0
        agent = self.senders.get(name)
        if agent is not None and not agent.done:
            # QUIESCE: a batch in flight ends first, the agent staying (a START meanwhile lets it run on)
            agent.by_user = True
            if mode != "QUIESCE" or agent.quiesce():
                agent.cancel()
                del self.senders[name]
            ended += 1
        self.finished.pop(name, None)
        for receiver in list(self.receivers.get(name, ())):
            receiver.end(0, f"AMQ9528I: User requested closure of channel '{name}'")
            ended += 1
        return ended

    def running(self, name: str) -> bool:
        agent = self.senders.get(name)
        return (agent is not None and not agent.done) or bool(self.receivers.get(name))

    def connections(self, name: str) -> int:
        return int(self.running(name))

    def state(self, name: str) -> str:
        """A sending channel's STATUS as the cluster workload algorithm weighs it."""
        agent = self.senders.get(name)
        if agent is not None and not agent.done:
            return agent.status.status
        return "STOPPED" if self._stopped_itself(name) or self.core.channel_service.stopped(name) else "INACTIVE"

    def client_rows(self, name: str, client_pattern: str) -> list[dict[str, Any]]:
        rows = []
        agent = self.senders.get(name)
        status = agent.status if agent is not None and not agent.done else self.finished.get(name)
        if status is not None:
            queue = self.core.queues.get(status.xmitq)
            status.xqmsgsa = queue.depth if queue is not None else 0
            rows.append(status.row())
        rows.extend(receiver.status.row() for receiver in self.receivers.get(name, ()))
        return rows

    # -- triggering ------------------------------------------------------------------------------
    def _trigger(self, now: float) -> None:
        """A sending channel whose transmission queue has messages starts (IBM's triggered
        channel), unless it is stopped or already running or retrying."""
        core = self.core
        for name, attrs in list(core.channels.items()):
            if attrs["CHLTYPE"] not in SENDING_TYPES or attrs.get("_STOPPED") or not attrs.get("CONNAME"):
                continue
            agent = self.senders.get(name)
            if agent is not None and not agent.done:
                continue
            if self._stopped_itself(name):
                continue
            if attrs["CHLTYPE"] == "CLUSSDR":
                if name in core.cluster.wanted or core.cluster.waiting_for(name):
                    self.start(name, attrs)
                continue
            queue = core.queues.get(str(attrs.get("XMITQ") or ""))
            if queue is not None and queue.depth - queue.locked > 0:
                self.start(name, attrs)

    def _cluster_wanted(self, name: str) -> None:
        """A message for a cluster-sender that is not running: it starts now, not at the next
        tick (unless it was stopped: then START CHANNEL, as for any sender)."""
        attrs = self.core.channels.get(name)
        if attrs is None or attrs.get("_STOPPED") or self.running(name) or self._stopped_itself(name):
            return
        asyncio.get_running_loop().call_soon(self._start_wanted, name)

    def _stopped_itself(self, name: str) -> bool:
        """A sender that ended STOPPED (its retries spent): only START CHANNEL starts it, as at IBM."""
        ended = self.finished.get(name)
        return ended is not None and ended.status == "STOPPED"

    def _start_wanted(self, name: str) -> None:
        attrs = self.core.channels.get(name)
        if attrs is not None and not self.running(name):
            self.start(name, attrs)

    # -- receivers ---------------------------------------------------------------------------------
    def accept(self, transport: asyncio.Transport, first: bytes) -> None:
        """A connection on the queue manager's port that opened with a channel HELLO (a sender's)
        or REQUEST (a requester's)."""
        if first[5] == wire.Kind.REQUEST:
            self._requested(transport, first)
            return
        receiver = ReceiverAgent(self.runtime, transport, self.groups_of, self.receivers)
        transport.set_protocol(receiver)
        receiver.data_received(first)

    # -- requester and server (RQSTR, SVR) ----------------------------------------------------------
    async def _request(self, name: str, attrs: Any) -> None:
        """START CHANNEL of a requester: connect to its server's CONNAME and ask it to send; the
        conversation that follows has this end receiving (or, with a server that calls back, the
        server ends this connection and connects to us as a sender)."""
        host, port = parse_conname(str(attrs.get("CONNAME", "")))
        loop = asyncio.get_running_loop()
        try:
            transport, _ = await asyncio.wait_for(loop.create_connection(
                lambda: ReceiverAgent(self.runtime, None, self.groups_of, self.receivers), host, port), 20)
        except OSError as error:  # (TimeoutError included)
            log.error("%s", HostUnavailable(name, host, port, error).explanation)
            return
        transport.write(wire.encode_request(name, self.runtime.name))
        log.info("AMQ9002I: Requester channel '%s' asked %s(%d) to start sending", name, host, port)

    def _requested(self, transport: asyncio.Transport, first: bytes) -> None:
        """A requester asks server channel NAME to send: on this connection (SVR without CONNAME),
        or by calling back to its CONNAME (SVR or SDR with one). Its partner is admitted as a
        receiving channel's would be (CHLAUTH; mqlite's rule that a mapping must name it)."""
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) else ""
        try:
            decoded = wire.decode_request(first)
            if decoded is None:
                raise wire.ProtocolError(C.MQRC_UNEXPECTED_ERROR, "REQUEST frame cut short", fatal=True)
            fields, used = decoded
            name = fields["channel"]
            attrs = self.core.channels.get(name)
            if attrs is None or attrs["CHLTYPE"] not in ("SVR", "SDR") or attrs.get("_STOPPED"):
                raise MQError(C.MQRC_UNKNOWN_CHANNEL_NAME if attrs is None else C.MQRC_CHANNEL_NOT_AVAILABLE,
                              f"AMQ9520E: channel '{name}' is not a server channel that may be started here")
            admit_partner(self.core, name, attrs, address, fields["qmgr"], self.groups_of)
            if self.running(name):
                raise MQError(C.MQRC_CHANNEL_NOT_AVAILABLE, f"AMQ9514E: channel '{name}' is in use")
        except (wire.ProtocolError, MQError) as error:
            log.error("AMQ9999E: a request from %s refused: %s", address, getattr(error, "text", error))
            with contextlib.suppress(OSError):
                transport.write(wire.encode_frame([wire.Kind.REFUSE.value, error.reason, str(error.text)[:200]]))
            transport.close()
            return
        self.finished.pop(name, None)
        if str(attrs.get("CONNAME") or "").strip():  # callback: end this connection, connect as its sender
            transport.close()
            log.info("AMQ9002I: Channel '%s' calls back its requester at its CONNAME", name)
            self.start(name, attrs)
            return
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader()
        protocol = asyncio.StreamReaderProtocol(reader)
        transport.set_protocol(protocol)
        protocol.connection_made(transport)
        reader.feed_data(first[used:])
        writer = asyncio.StreamWriter(transport, protocol, reader, loop)
        self.senders[name] = SenderAgent(self.runtime, name, self.finished.__setitem__, self.tls, (reader, writer))

    def close_all(self) -> None:
        for name in list(self.senders):
            agent = self.senders.pop(name)
            if not agent.done:
                agent.cancel()
        for receivers in list(self.receivers.values()):
            for receiver in list(receivers):
                receiver.end(C.MQRC_Q_MGR_STOPPING, "AMQ9510E: the queue manager is ending")
