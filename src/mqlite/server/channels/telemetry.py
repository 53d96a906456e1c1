"""The channel agent: running telemetry (MQTT) channels, as IBM MQ's MQXR service runs them.

A started channel is a listener on its PORT (and LOCLADDR) speaking what its PROTOCOL lists:
MQTT 3.1, 3.1.1 and 5.0 over TCP, and MQTT over WebSocket when HTTP is listed (on the same
port: the first byte tells an HTTP request from an MQTT CONNECT), with TLS when SSLCIPH is
set. At CONNECT the channel decides who the client is and whether it may come in:

* the protocol level must be one PROTOCOL lists (else "unsupported protocol version");
* no more than MAXINST clients at once (else "quota exceeded", 3.1.1's "server unavailable");
* CHCKCLNT(REQUIRED) needs a user name and password, OPTIONAL checks a password when one is
  given, NONE checks nothing; passwords are checked against the queue manager's users file;
* the user id it works under is MCAUSER when set, else its client id with USECLTID(YES), else
  the user name it gave, else ``mqtt``.

All channels share one :class:`MqttBroker`: sessions belong to the queue manager, not to the
channel a client came through.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import ssl
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from mqlite import cmqc as C
from mqlite.core import attributes
from mqlite.core.errors import MQError
from mqlite.protocol.mqtt import Connect
from mqlite.protocol.mqtt import reasons as R
from mqlite.server.mqtt.broker import MqttBroker
from mqlite.server.mqtt.listener import CONNECT_TIMEOUT, MqttConnection
from mqlite.server.runtime import Round
from mqlite.server.tls import apply_cipher, server_context
from mqlite.server.users_file import UsersFile

if TYPE_CHECKING:
    from mqlite.server.runtime import Runtime

log = logging.getLogger("mqlite.server")
DEFAULT_CHANNEL = "SYSTEM.MQTT.DEFAULT"  # what ``crtmqm --mqtt-port`` defines and starts
_LEVELS = {"MQTTV3": 3, "MQTTV311": 4, "MQTTV5": 5}
_PROTOCOL_NAMES = {3: "MQTTV3", 4: "MQTTV311", 5: "MQTTV5"}


class MqttChannel:
    """One running MQTT channel: its listener, its admission rules and its connections."""

    def __init__(self, agent: MqttChannels, name: str, attrs: Mapping[str, Any]) -> None:
        self.agent = agent
        self.name = name
        self.attrs = dict(attrs)
        protocols = [p.upper() for p in self.attrs.get("PROTOCOL") or []]
        self.raw = any(p in _LEVELS for p in protocols)  # MQTT straight on TCP
        self.websocket = "HTTP" in protocols
        # The levels a client may speak: those listed, or all of them over WebSocket alone.
        self.levels = {_LEVELS[p] for p in protocols if p in _LEVELS} or set(_LEVELS.values())
        self.connections: set[MqttConnection] = set()
        self.server: asyncio.Server | None = None
        self.port = 0
        self.started_at = time.time()

    # -- admission ---------------------------------------------------------------------------------
    def admit(self, connect: Connect) -> tuple[str, int]:
        """The user id a connecting client works under, and 0, or "" and the refusal's reason."""
        if connect.protocol_level not in self.levels:
            return "", R.UNSUPPORTED_PROTOCOL_VERSION
        if sum(1 for c in self.connections if c.link is not None) >= int(self.attrs.get("MAXINST", 0)):
            log.warning("AMQ9513W: channel %s has MAXINST(%s) clients: one more refused",
                        self.name, self.attrs.get("MAXINST"))
            return "", R.QUOTA_EXCEEDED
        check = str(self.attrs.get("CHCKCLNT", "OPTIONAL"))
        username, password = connect.username, connect.password
        if check == "REQUIRED" and (not username or password is None):
            return "", R.BAD_USER_NAME_OR_PASSWORD
        if check != "NONE" and password is not None:
            try:
                secret = password.decode()
            except UnicodeDecodeError:
                return "", R.BAD_USER_NAME_OR_PASSWORD
            if not username or not self.agent.users.authenticate(username, secret):
                log.warning("AMQ5534E: MQTT client %r on channel %s: user %r not authenticated",
                            connect.client_id, self.name, username)
                return "", R.BAD_USER_NAME_OR_PASSWORD
        user = (str(self.attrs.get("MCAUSER") or "")
                or (connect.client_id if self.attrs.get("USECLTID") == "YES" else "")
                or username or "mqtt")
        return user[:64], 0

    # -- connections -------------------------------------------------------------------------------
    def protocol(self) -> asyncio.Protocol:
        if not self.raw:
            return self.websocket_protocol()
        if self.websocket:
            return _FirstByte(self)
        return self.mqtt_connection()

    def mqtt_connection(self) -> MqttConnection:
        connection = MqttConnection(self.agent.runtime, self.agent.broker)
        connection.registry = self.connections
        connection.channel = self
        return connection

    def websocket_protocol(self) -> asyncio.Protocol:
        from mqlite.server.mqtt.websocket_transport import WebSocketProtocol

        return WebSocketProtocol(self.mqtt_connection)

    def end_connections(self, reason: int, client_id: str | None = None) -> int:
        """End the connections (of one client id): 5.0 clients hear ``reason`` first."""
        ended = 0
        for connection in list(self.connections):
            link = connection.link
            if client_id is not None and (link is None or link.session is None
                                          or link.session.client_id != client_id):
                continue
            round_ = Round()
            if link is not None:
                link.fail(round_, reason)
            else:
                connection.close(reason)
            self.agent.runtime.finish(round_)
            ended += 1
        return ended

    def client_rows(self, pattern: str) -> list[dict[str, Any]]:
        rows = []
        for connection in self.connections:
            link = connection.link
            session = link.session if link is not None else None
            if link is None or session is None or not attributes.generic_match(pattern, session.client_id):
                continue
            queue = self.agent.runtime.core.queues.get(session.queue) if session.queue else None
            last_date, last_time = attributes.date_and_time(link.last_activity)
            start_date, start_time = attributes.date_and_time(link.connected_at)
            rows.append({
                "CHANNEL": self.name, "CHLTYPE": "MQTT", "CLIENTID": session.client_id, "STATUS": "RUNNING",
                "CONNAME": connection.conname(), "CLNTUSER": link.connect_packet.username or "",
                "MCAUSER": link.user, "KAINT": link.connect_packet.keep_alive,
                "MSGSNT": link.msgs_out, "MSGRCVD": link.msgs_in,
                "INDOUBTIN": len(session.state.awaiting_rel), "INDOUBTOUT": len(session.state.inflight),
                "PENDING": queue.depth if queue is not None else 0,
                "PROTOCOL": _PROTOCOL_NAMES.get(link.version, str(link.version)),
                "LMSGDATE": last_date, "LMSGTIME": last_time, "CHLSDATE": start_date, "CHLSTIME": start_time,
            })
        for session in self.agent.broker.sessions.values():  # persistent sessions waiting for their client
            if session.link is None and session.channel == self.name and \
                    attributes.generic_match(pattern, session.client_id):
                queue = self.agent.runtime.core.queues.get(session.queue) if session.queue else None
                rows.append({"CHANNEL": self.name, "CHLTYPE": "MQTT", "CLIENTID": session.client_id,
                             "STATUS": "DISCONNECTED", "INDOUBTIN": len(session.state.awaiting_rel),
                             "INDOUBTOUT": len(session.state.inflight),
                             "PENDING": queue.depth if queue is not None else 0})
        rows.sort(key=lambda row: str(row["CLIENTID"]))
        return rows


class _FirstByte(asyncio.Protocol):
    """A connection on a channel that speaks both: an HTTP request means WebSocket."""

    __slots__ = ("_timer", "channel", "transport")

    def __init__(self, channel: MqttChannel) -> None:
        self.channel = channel
        self.transport: asyncio.Transport | None = None
        self._timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        self._timer = asyncio.get_running_loop().call_later(CONNECT_TIMEOUT, transport.close)

    def connection_lost(self, exc: Exception | None) -> None:
        if self._timer is not None:
            self._timer.cancel()

    def data_received(self, data: bytes) -> None:
        assert self.transport is not None
        if self._timer is not None:
            self._timer.cancel()
        inner = self.channel.websocket_protocol() if data[:1] == b"G" else self.channel.mqtt_connection()
        self.transport.set_protocol(inner)
        inner.connection_made(self.transport)
        inner.data_received(data)


class MqttChannels:
    """The channel agent of one queue manager (see ``mqlite.core.channels.ChannelAgent``)."""

    def __init__(self, runtime: Runtime, bind: str, users: UsersFile) -> None:
        self.runtime = runtime
        self.bind = bind
        self.users = users
        self.broker = MqttBroker(runtime.core)
        runtime.tick_hooks.append(self.broker.sweep)
        self.running_channels: dict[str, MqttChannel] = {}
        self.on_change: Callable[[], None] | None = None  # a channel started or stopped listening

    # -- ChannelAgent ------------------------------------------------------------------------------
    def start(self, name: str, attrs: Mapping[str, Any]) -> None:
        channel = MqttChannel(self, name, attrs)
        context = _tls_context(attrs) if attrs.get("SSLCIPH") else None
        sock = _listening_socket(str(attrs.get("LOCLADDR") or "") or self.bind, int(attrs.get("PORT", 1883)),
                                 int(attrs.get("BACKLOG", 4096)))
        channel.port = sock.getsockname()[1]
        loop = asyncio.get_running_loop()

        async def serve() -> None:
            channel.server = await loop.create_server(channel.protocol, sock=sock, ssl=context,
                                                      backlog=int(attrs.get("BACKLOG", 4096)))

        def served(task: asyncio.Task[None]) -> None:
            if not task.cancelled() and task.exception() is not None:
                log.error("AMQ9218E: channel %s failed to listen: %s", name, task.exception())

        loop.create_task(serve()).add_done_callback(served)
        self.running_channels[name] = channel
        log.info("AMQ9209I: MQTT channel %s listening on port %d%s%s", name, channel.port,
                 " with TLS" if context is not None else "", ", WebSocket too" if channel.websocket else "")
        if self.on_change is not None:
            self.on_change()

    def stop(self, name: str, client_id: str | None = None, mode: str = "QUIESCE") -> int:
        channel = self.running_channels.get(name)
        if channel is None:
            return 0
        if client_id is not None:
            return channel.end_connections(R.ADMINISTRATIVE_ACTION, client_id)
        del self.running_channels[name]
        if channel.server is not None:
            channel.server.close()
        log.info("AMQ9202I: MQTT channel %s stopped", name)
        if self.on_change is not None:
            self.on_change()
        return channel.end_connections(R.ADMINISTRATIVE_ACTION)

    def running(self, name: str) -> bool:
        return name in self.running_channels

    def connections(self, name: str) -> int:
        channel = self.running_channels.get(name)
        return sum(1 for c in channel.connections if c.link is not None) if channel is not None else 0

    def client_rows(self, name: str, client_pattern: str) -> list[dict[str, Any]]:
        channel = self.running_channels.get(name)
        return channel.client_rows(client_pattern) if channel is not None else []

    # -- for the host ------------------------------------------------------------------------------
    def all_connections(self) -> list[MqttConnection]:
        return [c for channel in self.running_channels.values() for c in channel.connections]

    def close_listeners(self) -> None:
        for channel in self.running_channels.values():
            if channel.server is not None:
                channel.server.close()

    def running_ports(self) -> dict[str, int]:
        """Each running channel's bound port."""
        return {name: channel.port for name, channel in sorted(self.running_channels.items())}

    def port_of(self, name: str) -> int | None:
        channel = self.running_channels.get(name)
        return channel.port if channel is not None else None


def _listening_socket(host: str, port: int, backlog: int) -> socket.socket:
    """Bound and listening now, so START CHANNEL can report a port in use at once."""
    try:
        infos = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
        family, kind, proto, _, address = infos[0]
        sock = socket.socket(family, kind, proto)
    except OSError as error:
        raise MQError(C.MQRC_HOST_NOT_AVAILABLE, f"address {host}: {error}") from None
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(min(max(backlog, 1), socket.SOMAXCONN))
        sock.setblocking(False)
    except OSError as error:
        sock.close()
        raise MQError(C.MQRC_CHANNEL_NOT_AVAILABLE, f"cannot listen on {host or '*'} port {port}: {error}") from None
    return sock


def _tls_context(attrs: Mapping[str, Any]) -> ssl.SSLContext:
    """TLS from the channel: SSLKEYR is a PEM file with the key, its certificate and the CA
    certificates that client certificates are checked against; SSLKEYP its pass phrase; SSLCIPH
    an IBM CipherSpec name or an OpenSSL cipher list; SSLCAUTH whether clients need a certificate."""
    keyring = str(attrs.get("SSLKEYR") or "")
    context = server_context()
    try:
        context.load_cert_chain(keyring, password=str(attrs.get("SSLKEYP") or "") or None)
        apply_cipher(context, str(attrs["SSLCIPH"]))
        auth = str(attrs.get("SSLCAUTH") or "NEVER")
        if auth != "NEVER":
            context.load_verify_locations(keyring)
            context.verify_mode = ssl.CERT_REQUIRED if auth == "REQUIRED" else ssl.CERT_OPTIONAL
    except (OSError, ssl.SSLError, ValueError) as error:
        raise MQError(C.MQRC_SSL_INITIALIZATION_ERROR, f"TLS for the channel: {error}") from None
    return context

