"""The MQTT listener's connections: bytes in, MQTT packets, the session's calls, bytes out.

Bad input of any kind ends only its own connection, with the reason code MQTT 5.0 gives it (a
DISCONNECT carrying it for a 5.0 client past CONNECT; a CONNACK refusal before); the queue
manager and every other connection carry on. A client silent for one and a half keep-alive
intervals is disconnected (MQTT 3.1.2.10).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Protocol, cast

from mqlite.protocol.mqtt import V5, ConnAck, Connect, Disconnect, MqttError, MqttStream, Packet, Publish, encode
from mqlite.protocol.mqtt import reasons as R
from mqlite.protocol.mqtt.session import keep_alive_deadline
from mqlite.protocol.mqtt.stream import NEED_DATA
from mqlite.server.mqtt.broker import MqttBroker
from mqlite.server.mqtt.link import LIMITS, MqttLink, MqttOutput
from mqlite.server.runtime import Round

if TYPE_CHECKING:
    from mqlite.server.runtime import Runtime

log = logging.getLogger("mqlite.server")
CONNECT_TIMEOUT = 10.0  # seconds a new connection has to send its CONNECT
# After the server ends a connection it stops sending and reads (and drops) what the client still
# sends, for at most this long, before it closes: closing with unread input resets the connection,
# and the client could lose the last packets (a DISCONNECT with its reason) before reading them.
LINGER = 2.0


class Gate(Protocol):
    """Who may connect, and as whom: the channel a connection came through."""

    name: str

    def admit(self, connect: Connect) -> tuple[str, int]:
        """The user id a connecting client works under and 0, or "" and the refusal's reason."""
        ...


class MqttConnection(asyncio.Protocol):
    __slots__ = ("__weakref__", "_heard", "_timer", "broker", "bytes_in", "channel", "closing", "link", "registry",
                 "runtime", "stream", "transport")

    def __init__(self, runtime: Runtime, broker: MqttBroker) -> None:
        self.runtime = runtime
        self.broker = broker
        self.stream = MqttStream(server=True, max_packet_size=LIMITS.maximum_packet_size)
        self.transport: asyncio.Transport | None = None
        self.link: MqttLink | None = None
        self.closing = False
        self._timer: asyncio.TimerHandle | None = None
        self._heard = True
        self.registry: set[MqttConnection] | None = None  # the channel's, to count, show and close
        self.channel: Gate | None = None  # who may connect, and as whom
        self.bytes_in = 0  # everything the client sent (its link shows it from CONNECT on)

    # -- transport events ------------------------------------------------------------------------
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)
        self.runtime.readers.add(self.transport)
        if self.registry is not None:
            self.registry.add(self)
        # No TCP_NODELAY here: asyncio's and uvloop's TCP transports set it on every socket (asking
        # for the socket made a Python object of it for each connection).
        self._timer = asyncio.get_running_loop().call_later(CONNECT_TIMEOUT, self._connect_timeout)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.transport is not None:
            self.runtime.readers.discard(self.transport)
        if self.registry is not None:
            self.registry.discard(self)
        if self._timer is not None:
            self._timer.cancel()
        self._end_link()

    def _end_link(self) -> None:
        """The session leaves the connection (a will goes, a clean session ends)."""
        link, self.link = self.link, None
        if link is not None:
            conn_id = getattr(link.conn, "conn_id", "")  # before end(), which lets go of conn
            if link.output is not None:
                link.output.closed = True
            link.end()
            self.runtime.sessions.pop(conn_id, None)
            self.runtime.finish(Round())

    def data_received(self, data: bytes) -> None:
        if self.closing and self.link is None:  # lingering after the end: input is dropped
            return
        self._heard = True
        self.bytes_in += len(data)
        stream = self.stream
        stream.receive_data(data)
        round_ = Round()
        try:
            while not self.closing:
                packet = stream.next_event()
                if packet is NEED_DATA:
                    break
                link = self.link
                if packet.__class__ is Publish and link is not None:  # the common case, straight there
                    link.on_publish(round_, packet)
                else:
                    self._handle(round_, cast(Packet, packet))
        except MqttError as error:
            log.warning("AMQ9504E: MQTT protocol error from %s: %s", self._peer(), error)
            self._refuse(round_, error.reason)
        except Exception:  # a bug must not take the queue manager down
            log.exception("AMQ6119E: unexpected error on an MQTT connection")
            self._refuse(round_, R.UNSPECIFIED_ERROR)
        link = self.link
        if link is not None:  # what DISPLAY CHSTATUS shows
            link.bytes_in = self.bytes_in
            link.last_activity = time.time()
        self.runtime.finish(round_)

    # -- packets ---------------------------------------------------------------------------------
    def _handle(self, round_: Round, packet: Packet) -> None:
        if isinstance(packet, Connect):
            self._on_connect(round_, packet)
        elif self.link is not None:
            self.link.handle(round_, packet)

    def _on_connect(self, round_: Round, connect: Connect) -> None:
        if self.runtime.ending:
            self.send_packet(round_, ConnAck(False, R.SERVER_UNAVAILABLE))
            self.close(-1)
            return
        if "authentication_method" in connect.properties:  # 5.0 enhanced authentication: none offered
            self.send_packet(round_, ConnAck(False, R.BAD_AUTHENTICATION_METHOD))
            self.close(R.BAD_AUTHENTICATION_METHOD)
            return
        user = connect.username or "mqtt"
        if self.channel is not None:
            user, refusal = self.channel.admit(connect)
            if refusal:
                self.send_packet(round_, ConnAck(False, refusal))
                self.close(refusal)
                return
        self.link = MqttLink(self.broker, connect, user, self, self._output)
        self.link.peer = self.conname()
        self.link.start(round_)
        if self.channel is not None and self.link is not None and self.link.session is not None:
            self.link.session.channel = self.channel.name
        if self.link is not None and self.link.conn is not None:
            self.runtime.sessions[self.link.conn.conn_id] = self.link.output
            # DISPLAY CONN shows the telemetry channel and the client's address
            self.link.conn.channel = self.channel.name if self.channel is not None else ""
            self.link.conn.conname = self.link.peer
            self.link.output.on_stop = self._stopped_by_operator
        if self.link is not None:
            self._arm_keep_alive(self.link.keep_alive)

    def _output(self, link: MqttLink) -> MqttOutput:
        assert self.transport is not None
        return MqttOutput(self.transport, link)

    def send_packet(self, round_: Round, packet: Packet) -> None:
        data = self.stream.send(packet)
        link = self.link
        if link is not None and isinstance(packet, Disconnect):
            link.output.last_words = data  # after whatever else this round sends it: nothing follows
            round_.add(link.output, b"")
        elif link is not None:
            round_.add(link.output, data)
        elif self.transport is not None:
            self.transport.write(data)

    # -- errors and the end ----------------------------------------------------------------------
    def _refuse(self, round_: Round, reason: int) -> None:
        """End the connection for bad input: CONNACK refusal before CONNECT went through, a 5.0
        DISCONNECT with the reason after."""
        if self.link is None:
            if self.stream.connected or reason == R.UNSUPPORTED_PROTOCOL_VERSION:
                version = self.stream.version if self.stream.connected else V5
                if self.transport is not None:
                    self.transport.write(encode(ConnAck(False, reason), version))
        elif self.stream.version == V5:
            self.send_packet(round_, Disconnect(reason))
        self.close(reason)

    def _stopped_by_operator(self) -> None:
        """STOP CONN: as STOP CHANNEL ... CLIENTID ends a client (a 5.0 client hears 0x98 first)."""
        if self.link is not None:
            round_ = Round()
            self.link.fail(round_, R.ADMINISTRATIVE_ACTION)
            self.runtime.finish(round_)

    def close(self, reason: int) -> None:
        """End the connection once the round's output has gone (``reason`` is for the log)."""
        if self.closing:
            return
        self.closing = True
        asyncio.get_running_loop().call_soon(self._close_when_flushed)

    def _close_when_flushed(self) -> None:
        """Close once the output already in rounds is out (a round may wait for the disk)."""
        output = self.link.output if self.link is not None else None
        if output is not None and output.pending:
            output.on_drained = self._close_transport
        else:
            self._close_transport()

    def _close_transport(self) -> None:
        transport = self.transport
        if transport is None or transport.is_closing():
            return
        self._end_link()
        if transport.can_write_eof():  # our side ends now; theirs when they close, or at LINGER
            try:
                transport.write_eof()
            except OSError:  # the client has gone already (asyncio's transport raises ENOTCONN)
                transport.close()
                return
            if self._timer is not None:
                self._timer.cancel()
            self._timer = asyncio.get_running_loop().call_later(LINGER, transport.close)
        else:
            transport.close()

    def conname(self) -> str:
        """The client's address as IBM shows a CONNAME: ``127.0.0.1(50432)``."""
        peer = self.transport.get_extra_info("peername") if self.transport is not None else None
        return f"{peer[0]}({peer[1]})" if isinstance(peer, tuple) and len(peer) >= 2 else ""

    def _peer(self) -> str:
        peer = self.transport.get_extra_info("peername") if self.transport is not None else None
        return str(peer) if peer else "?"

    # -- timers ----------------------------------------------------------------------------------
    def _connect_timeout(self) -> None:
        if self.link is None:
            self.close(R.MAXIMUM_CONNECT_TIME)

    def _arm_keep_alive(self, keep_alive: int) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if keep_alive:
            self._heard = False
            self._timer = asyncio.get_running_loop().call_later(
                keep_alive_deadline(keep_alive), self._keep_alive, keep_alive)

    def _keep_alive(self, keep_alive: int) -> None:
        if not self._heard:
            log.info("MQTT client at %s silent for %d s: disconnected", self._peer(), keep_alive_deadline(keep_alive))
            if self.link is not None and self.stream.version == V5 and self.transport is not None:
                data = self.stream.send(Disconnect(R.KEEP_ALIVE_TIMEOUT))
                self.link.bytes_out += len(data)
                self.transport.write(data)
            self.close(R.KEEP_ALIVE_TIMEOUT)
            return
        self._heard = False
        self._timer = asyncio.get_running_loop().call_later(
            keep_alive_deadline(keep_alive), self._keep_alive, keep_alive)
