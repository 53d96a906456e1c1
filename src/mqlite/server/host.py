"""Hosting a queue manager on an event loop: store, recovery, listeners and an orderly end.

Used by the queue manager process (``server.main``) and by ``embedded`` in tests, notebooks
and demos; both run the same code, so what the tests see is what ``strmqm`` runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from typing import TYPE_CHECKING

from mqlite import cmqc as C
from mqlite import paths
from mqlite.core.dedupe import DuplicateWindow
from mqlite.core.errors import MQError
from mqlite.core.listeners import SYSTEM_LISTENER
from mqlite.server import command_server, exits, monitor, qm_ini, queued, statistics
from mqlite.server.channels.mca import MessageChannels
from mqlite.server.channels.svrconn import ChannelAgents, ClientChannels
from mqlite.server.channels.telemetry import DEFAULT_CHANNEL, MqttChannels
from mqlite.server.clock import Clock
from mqlite.server.cluster import RepositoryManager
from mqlite.server.dist_pubsub import DistributedPubSubAgent
from mqlite.server.listeners import ServerListeners
from mqlite.server.native import chlauth_gate, heartbeat
from mqlite.server.native import tls as native_tls
from mqlite.server.native.connection import ClientConnection
from mqlite.server.native.handshake import Gate
from mqlite.server.native.tls import NativeListener
from mqlite.server.os_identity import OS_GROUPS, creator_of
from mqlite.server.routes import RouteAgent
from mqlite.server.runtime import Round, Runtime
from mqlite.server.tls import ServerTls
from mqlite.server.users_file import UsersFile
from mqlite.store.sqlite import Store

if TYPE_CHECKING:
    from mqlite.server.mqtt.listener import MqttConnection

log = logging.getLogger("mqlite.server")
CONTROLLED_END_GRACE = 5.0


class QueueManagerHost:
    """One running queue manager: listeners on a Unix socket and optionally TCP."""

    def __init__(self, name: str, port: int | None = None, bind: str = "0.0.0.0",
                 mqtt_port: int | None = None, creator: str | None = None) -> None:
        self.name = name
        self.creator = creator  # an administrator (None: the one crtmqm recorded, see creator_of)
        self.port = port
        self.bind = bind
        self.mqtt_port = mqtt_port  # the MQTT listener (None: qm.json's "mqtt_port", if any)
        self.channels: MqttChannels | None = None
        self.message_channels: MessageChannels | None = None
        self.repository: RepositoryManager | None = None
        self.command_server: command_server.CommandServer | None = None
        self.queued: queued.QueuedDaemon | None = None
        self.dist_pubsub: DistributedPubSubAgent | None = None
        self.routes: RouteAgent | None = None
        self.monitor: monitor.MonitorPublisher | None = None
        self.listeners: ServerListeners | None = None
        self.runtime: Runtime | None = None
        self.gate: Gate | None = None  # the native connect handshake
        self.store: Store | None = None
        self.connections: set[ClientConnection] = set()
        self._servers: list[asyncio.Server | NativeListener] = []
        self.tls: ServerTls | None = None
        self.ended = asyncio.Event()
        self.end_mode = "Ended normally"
        self._fatal: asyncio.Task[None] | None = None
        self._listening = True  # until stop: listeners.json says where

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        started = time.monotonic()
        with contextlib.suppress(FileNotFoundError):  # an earlier run's, if it was killed
            paths.listeners_path(self.name).unlink()
        self.store = Store(paths.store_path(self.name))
        creator = self.creator or creator_of(self.name)
        self.runtime = Runtime(self.name, self.store, loop, Clock.from_environment(), creator=creator)
        self.runtime.on_fatal = self._end_on_store_failure
        recovered = self.runtime.recover()
        self._configure(self.runtime)
        # One users file per queue manager, for every protocol (native and MQTT).
        self.users = UsersFile(paths.users_path(self.name))
        self.gate = Gate(self.runtime.core, self.users, ClientChannels())
        self.runtime.core.security.groups_of = self.gate.groups_of  # DISPLAY ENTAUTH, MQTT users
        self.runtime.core.security.on_refresh.append(OS_GROUPS.forget)  # REFRESH SECURITY rereads OS groups
        chlauth_gate.install(self.gate)  # channel authentication records at every client CONNECT
        beating = self.gate.beating
        self.runtime.tick_hooks.append(lambda now: heartbeat.sweep(beating))  # SVRCONN HBINT
        native_tls.install(self.gate)  # TLS first among the channel checks, as IBM checks certificates first
        log.info("AMQ7229I: %d persistent messages recovered in %.2f s", recovered, time.monotonic() - started)
        core = self.runtime.core
        self.tls = ServerTls(self.name, core.attrs, core.channels.get)
        core.refresh_ssl = self.tls.refresh
        self._start_listeners(self.runtime)
        self._start_channels(self.runtime)
        self._start_cluster(self.runtime)
        self._write_listeners()
        # The Unix socket last: strmqm reports "started" once it accepts, so everything else is up.
        address = paths.socket_address(self.name)
        if not address.startswith("\0"):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(address)
        self._servers.append(await loop.create_unix_server(self._protocol, address))
        if not address.startswith("\0"):
            # Any local user may connect: whether it may stay is its ``connect`` authority's
            # decision, not the file's (the queue manager's data files stay private).
            os.chmod(address, 0o666)
        if core.qmgr_events.started():  # Queue Manager Active (STRSTPEV), written before any caller
            self.runtime.finish(Round())
        log.info("AMQ8003I: queue manager %s started", self.name)

    def _start_listeners(self, runtime: Runtime) -> None:
        """The LISTENER objects that start with the queue manager; ``crtmqm -p``'s port is
        SYSTEM.LISTENER.TCP.1 (defined at the first start, CONTROL(QMGR), as IBM's crtmqm does).
        Plain and TLS share each port: the first byte tells them apart."""
        core = runtime.core
        assert self.tls is not None
        self.listeners = ServerListeners(self._protocol, self.tls, self.bind, self._write_listeners)
        core.listener_agent = self.listeners
        if self.port is not None and SYSTEM_LISTENER not in core.listener_service.listeners:
            core.define("LISTENER", SYSTEM_LISTENER, {"TRPTYPE": "TCP", "PORT": self.port, "CONTROL": "QMGR",
                                                      "DESCR": "crtmqm -p"})
        for name in core.listeners_to_start():
            try:
                core.start_listener(name)
            except MQError as error:
                if name == SYSTEM_LISTENER:
                    raise OSError(error.text) from None  # strmqm reports the queue manager's own port
        runtime.finish(Round())
        self.port = self.listeners.port_of(SYSTEM_LISTENER)

    def _start_channels(self, runtime: Runtime) -> None:
        """Attach the channel agent and start the channels left running, and the MQTT port of
        ``crtmqm --mqtt-port`` as channel SYSTEM.MQTT.DEFAULT."""
        core = runtime.core
        assert self.gate is not None
        self.channels = MqttChannels(runtime, self.bind, self.users)
        self.channels.on_change = self._write_listeners
        self.message_channels = MessageChannels(runtime, self.gate.groups_of, self.tls)
        runtime.ping_channel = self.message_channels.ping
        runtime.channel_acceptor = self.message_channels.accept  # a channel HELLO on the native port
        core.channel_agent = ChannelAgents(core.channels, self.gate.clients, self.channels, self.message_channels)
        if self.mqtt_port is None:
            configured = paths.read_config(self.name).get("mqtt_port")
            self.mqtt_port = int(configured) if isinstance(configured, int) else None
        if self.mqtt_port is not None:
            if DEFAULT_CHANNEL not in core.channels:
                core.define_channel(DEFAULT_CHANNEL, {"CHLTYPE": "MQTT", "PORT": self.mqtt_port,
                                                      "DESCR": "MQTT port of the queue manager"})
            else:
                core.alter_channel(DEFAULT_CHANNEL, {"PORT": self.mqtt_port})
            core.start_channel(DEFAULT_CHANNEL)
        for name in core.channels_to_start():
            if not self.channels.running(name):
                try:
                    core.start_channel(name)
                except MQError as error:
                    log.error("AMQ9228E: channel %s not started: %s", name, error.text)
        runtime.finish(Round())  # the definitions and running flags written above
        if self.mqtt_port is not None:
            self.mqtt_port = self.channels.port_of(DEFAULT_CHANNEL)

    def _start_cluster(self, runtime: Runtime) -> None:
        """The repository manager; a CLUSRCVR without CONNAME publishes this queue manager's port."""
        host = self.bind if self.bind not in ("", "0.0.0.0", "::") else "127.0.0.1"
        runtime.core.cluster_state.default_conname = f"{host}({self.port})" if self.port else ""
        self.repository = RepositoryManager(runtime)
        runtime.cluster_lookup = self.repository.lookup
        self.dist_pubsub = DistributedPubSubAgent(runtime)
        self.routes = RouteAgent(runtime)
        self.command_server = command_server.start(runtime)  # stopped until strmqcsv under SCMDSERV(MANUAL)
        self.queued = queued.start(runtime)  # serving while PSMODE(ENABLED)
        statistics.start(runtime)  # STATQ/STATMQI/STATCHL: the first interval and its timer
        self.monitor = monitor.start(runtime, qm_ini.read(paths.qmgr_dir(self.name)))  # the $SYS/.../Monitor topics

    def _configure(self, runtime: Runtime) -> None:
        """qm.ini stanzas that change behaviour: the publish exit (spec C §8.2), the duplicate
        MsgId window and the message channels' PipeLineLength."""
        stanzas = qm_ini.read(paths.qmgr_dir(self.name))
        window = stanzas.get("Mqlite", {}).get("DuplicateWindow")
        if window:  # exactly-once writers: drop a committed MsgId seen again within the window
            runtime.core.duplicates = DuplicateWindow(float(window))
        pipeline = stanzas.get("CHANNELS", {}).get("PipeLineLength")
        if pipeline:
            try:  # IBM: any value above 1 means 2
                runtime.core.transfer.pipeline = 1 if int(pipeline) <= 1 else 2
            except ValueError:
                log.error("AMQ9215E: qm.ini CHANNELS: PipeLineLength=%s is not a number; 2 is used", pipeline)
        error = exits.configure_publish_exit(runtime.core, stanzas.get("PublishSubscribe", {}))
        if error is not None:
            log.error("AMQ5881E: %s; publish/subscribe is inhibited", error.text)

    def _write_listeners(self) -> None:
        """The ports listened on now, for whoever asked for port 0 (``paths.listeners_path``)."""
        if not self._listening:
            return
        channels = self.channels.running_ports() if self.channels is not None else {}
        listeners = self.listeners.ports() if self.listeners is not None else {}
        self.port = listeners.get(SYSTEM_LISTENER)
        paths.write_listeners(self.name, {"tcp": self.port, "channels": channels, "listeners": listeners})

    def _mqtt_connections(self) -> list[MqttConnection]:
        return self.channels.all_connections() if self.channels is not None else []

    def _end_on_store_failure(self) -> None:
        self._fatal = asyncio.get_running_loop().create_task(self.stop(immediate=True))
        self.end_mode = "Ended unexpectedly"

    def _protocol(self) -> ClientConnection:
        assert self.runtime is not None and self.gate is not None
        return ClientConnection(self.runtime, self.gate, self.connections)

    async def stop(self, immediate: bool = False) -> None:
        """End the queue manager: controlled waits a little for applications to leave."""
        runtime = self.runtime
        if runtime is None or runtime.ending:
            return
        if self.end_mode != "Ended unexpectedly":
            self.end_mode = "Ended immediately" if immediate else "Ended normally"
        log.info("AMQ8004I: queue manager %s ending (%s)", self.name, "immediate" if immediate else "controlled")
        for server in self._servers:
            server.close()
        if self.listeners is not None:
            self.listeners.close_all()
        if self.channels is not None:
            self.channels.close_listeners()
        if self.message_channels is not None:
            self.message_channels.close_all()
        if self.repository is not None:
            self.repository.stop()
        if self.dist_pubsub is not None:
            self.dist_pubsub.stop()
        if self.routes is not None:
            self.routes.stop()
        if self.command_server is not None:
            self.command_server.stop()
        if self.queued is not None:
            self.queued.stop()
        self._listening = False
        with contextlib.suppress(FileNotFoundError):
            paths.listeners_path(self.name).unlink()
        # Queue Manager Not Active (STRSTPEV), persistent: the restart that reads it finds it.
        runtime.core.qmgr_events.ending(C.MQRQ_Q_MGR_STOPPING if immediate else C.MQRQ_Q_MGR_QUIESCING)
        runtime.core.quiesce()
        runtime.finish(Round())
        if not immediate:
            deadline = time.monotonic() + CONTROLLED_END_GRACE
            while (self.connections or self._mqtt_connections()) and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
        runtime.ending = True
        transports = [c.transport for c in self.connections] + [c.transport for c in self._mqtt_connections()]
        for transport in transports:
            if transport is not None:
                transport.close()
        await asyncio.sleep(0.05)  # let connection_lost run: it backs out their units of work
        for conn in list(runtime.core.connections.values()):
            runtime.core.disconnect(conn, commit=False)
        if not immediate:
            statistics.end(runtime)  # the last interval's statistics messages, as IBM writes them
        runtime.finish(Round())
        runtime.stop_timer()
        assert self.store is not None
        await asyncio.get_running_loop().run_in_executor(None, self.store.close)
        stats = self.store.stats
        log.info("AMQ7230I: store wrote %d transactions in %d commits (%.1f per commit, %d by their caller), %d "
                 "operations; waited to gather %d groups (%d waits ran out)", stats.transactions, stats.commits,
                 stats.txs_per_commit, stats.inline, stats.ops, stats.waits, stats.waits_ran_out)
        address = paths.socket_address(self.name)
        if not address.startswith("\0"):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(address)
        log.info("AMQ8004I: queue manager %s ended", self.name)
        self.ended.set()
