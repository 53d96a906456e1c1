"""Channel definitions and the MQSC verbs that start, stop and show them.

The core keeps what a channel *is* (its attributes, persisted like any object, and whether an
operator left it running, so a restart of the queue manager starts it again); the server's
channel agent does what a running channel *does* (a listener, its connections). The agent is
reached through :class:`ChannelAgent`, so the core stays free of sockets and tests of the core
run without one.

Telemetry (MQTT) channels, client channels (SVRCONN) and message channels (SDR, SVR, RCVR,
RQSTR) exist. A SVRCONN channel is not started or listened on: a TCP client names it in its
connect, and every connection through it is one instance of the channel (CHSTATUS shows each;
STOP CHANNEL ends them all and, with STATUS(STOPPED), refuses new ones until START CHANNEL). A
receiving message channel (RCVR) is the same: its partner starts it by connecting, STOP CHANNEL
ends it and refuses the partner until START CHANNEL. A sending one (SDR, SVR) starts when
messages arrive on its transmission queue (as IBM's triggered channels do) or at START CHANNEL,
and STOP CHANNEL stops it until START CHANNEL.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from mqlite import cmqc as C
from mqlite.core import attributes
from mqlite.core.channel_attributes import MESSAGE_TYPES, SENDING_TYPES, TYPE_ATTRIBUTES, TYPE_DEFAULTS
from mqlite.core.errors import MQError
from mqlite.core.outbox import Outbox
from mqlite.protocol import dn
from mqlite.protocol import tls as cipherspecs

NAME_LENGTH = 20  # MQ_CHANNEL_NAME_LENGTH
PROTOCOLS = ("MQTTV3", "MQTTV311", "MQTTV5", "HTTP")  # HTTP: MQTT over WebSocket
SERVED_TYPES = ("MQTT", "SVRCONN", *MESSAGE_TYPES)
# Channels their partner starts: START/STOP only let it in or keep it out (STOPPED_KEY).
PARTNER_STARTED = ("SVRCONN", "RCVR", "RQSTR", "CLUSRCVR")
RUNNING_KEY = "_RUNNING"  # persisted beside the attributes; DISPLAY never shows "_" keys
STOPPED_KEY = "_STOPPED"  # a SVRCONN channel stopped with STATUS(STOPPED): no new instances
AUTODEF_KEY = "_AUTODEF"  # a cluster-sender the cluster defined (core.network.clusters.routing): not persisted

# The client channels a new queue manager has: IBM's two system ones, and (as IBM's developer
# configuration) one for applications and one for administrators.
SYSTEM_CHANNELS: dict[str, dict[str, Any]] = {
    "SYSTEM.DEF.SVRCONN": {"CHLTYPE": "SVRCONN"},
    "SYSTEM.AUTO.SVRCONN": {"CHLTYPE": "SVRCONN", "DESCR": "Auto-defined by"},
    "DEV.APP.SVRCONN": {"CHLTYPE": "SVRCONN", "DESCR": "Client channel for applications"},
    "DEV.ADMIN.SVRCONN": {"CHLTYPE": "SVRCONN", "DESCR": "Client channel for administrators"},
    "SYSTEM.DEF.SENDER": {"CHLTYPE": "SDR"},
    "SYSTEM.DEF.SERVER": {"CHLTYPE": "SVR"},
    "SYSTEM.DEF.RECEIVER": {"CHLTYPE": "RCVR"},
    "SYSTEM.DEF.REQUESTER": {"CHLTYPE": "RQSTR"},
    "SYSTEM.DEF.CLUSSDR": {"CHLTYPE": "CLUSSDR"},  # its retry timers are those of the auto-defined ones
    "SYSTEM.DEF.CLUSRCVR": {"CHLTYPE": "CLUSRCVR"},
}


class ChannelAgent(Protocol):
    """What runs channels: the server's, attached with ``QueueManager.channel_agent``."""

    def start(self, name: str, attrs: Mapping[str, Any]) -> None:
        """Start serving ``name`` (raise MQError when it cannot, e.g. its port is taken)."""

    def stop(self, name: str, client_id: str | None = None, mode: str = "QUIESCE") -> int:
        """Stop ``name``, or end one client's connection: how many connections ended. MODE(QUIESCE)
        lets a message channel end its batch first; FORCE and TERMINATE end it at once."""

    def running(self, name: str) -> bool: ...

    def connections(self, name: str) -> int: ...

    def client_rows(self, name: str, client_pattern: str) -> list[dict[str, Any]]:
        """The CHSTATUS rows of the clients of ``name`` whose id matches the generic pattern."""


class Channels:
    """Channel definitions (``channels``: name -> attributes) and the operator's START/STOP; the
    running channels are the agent's (``agent``, attached by the server). A future message channel
    agent's state machine (sequence numbers, batches, in-doubt resolution) is core's too, in
    ``core/network``, driven by the server's agent through calls like these."""

    def __init__(self, clock: Callable[[], float], outbox: Outbox) -> None:
        self.clock = clock
        self.outbox = outbox
        self.channels: dict[str, dict[str, Any]] = {}
        self.agent: ChannelAgent | None = None
        # A message channel's sync records go with its definition (core.network.channels.transfer); may refuse.
        self.forget_sync: Callable[[str], None] = lambda name: None

    # -- definitions ---------------------------------------------------------------------------
    def restore(self, name: str, attrs: dict[str, Any]) -> None:
        self.channels[name] = attrs

    def bootstrap(self) -> None:
        """The system client channels of a new queue manager."""
        for name, attrs in SYSTEM_CHANNELS.items():
            if name not in self.channels:
                self.define_channel(name, dict(attrs))

    def restored(self) -> None:
        """A queue manager created before client channels existed gets the system ones (and one
        created before message channels existed, IBM's SYSTEM.DEF ones of those types)."""
        if not any(attrs["CHLTYPE"] == "SVRCONN" for attrs in self.channels.values()):
            self.bootstrap()
        for name, attrs in SYSTEM_CHANNELS.items():
            if name.startswith("SYSTEM.DEF.") and name not in self.channels:
                self.define_channel(name, dict(attrs))

    def define_channel(self, name: str, attrs: dict[str, Any], like: str | None = None,
                       replace: bool = False) -> None:
        if not name or len(name) > NAME_LENGTH:
            raise MQError(C.MQRCCF_OBJECT_NAME_ERROR, f"channel name '{name}' is not 1 to {NAME_LENGTH} characters")
        attributes.check_name("CHANNEL", name)
        existing = self.channels.get(name)
        if existing is not None and existing.get(AUTODEF_KEY):  # a manual definition takes over (CLUSSDRB)
            existing = None
        if existing is not None and not replace:
            raise MQError(C.MQRC_OBJECT_ALREADY_EXISTS, f"channel {name} already exists")
        if like is not None:
            model = self.channels.get(like)
            if model is None:
                raise MQError(C.MQRC_UNKNOWN_OBJECT_NAME, f"LIKE channel {like} not found")
            base = {k: v for k, v in model.items() if not k.startswith("_")}
        else:
            if "CHLTYPE" not in attrs:
                raise MQError(C.MQRCCF_CHANNEL_TYPE_ERROR, "DEFINE CHANNEL needs CHLTYPE")
            base = type_defaults(str(attrs["CHLTYPE"]))
        base.update(attrs)
        chltype = str(base["CHLTYPE"])
        if existing is not None and existing["CHLTYPE"] != chltype:
            raise MQError(C.MQRCCF_CHANNEL_TYPE_ERROR, f"channel {name} is of type {existing['CHLTYPE']}")
        _check(base)
        now = self.clock()
        date, clock = attributes.date_and_time(now)
        base.update(ALTDATE=date, ALTTIME=clock)
        if existing is not None and existing.get(RUNNING_KEY):
            base[RUNNING_KEY] = True  # REPLACE of a running channel: it runs on, as it was started
        self.channels[name] = base
        self.outbox.tx.put_record("object", f"CHANNEL/{name}", base)

    def alter_channel(self, name: str, attrs: dict[str, Any]) -> None:
        current = self._channel(name)
        if attrs.get("CHLTYPE", current["CHLTYPE"]) != current["CHLTYPE"]:
            raise MQError(C.MQRCCF_CHANNEL_TYPE_ERROR, f"channel {name} is of type {current['CHLTYPE']}")
        changed = {**current, **attrs}
        _check(changed)
        date, clock = attributes.date_and_time(self.clock())
        changed.update(ALTDATE=date, ALTTIME=clock)
        current.clear()
        current.update(changed)
        self.outbox.tx.put_record("object", f"CHANNEL/{name}", current)

    def receiver(self, name: str, partner_type: str) -> Mapping[str, Any]:
        """The receiving channel a partner queue manager names: 2540 when none of that name and a
        matching type (IBM's AMQ9520E/AMQ9547E), 2537 when it is stopped."""
        attrs = self.channels.get(name)
        wanted = {"SDR": ("RCVR", "RQSTR"), "SVR": ("RCVR", "RQSTR"), "CLUSSDR": ("CLUSRCVR",)}.get(partner_type, ())
        if attrs is None:
            raise MQError(C.MQRC_UNKNOWN_CHANNEL_NAME, f"AMQ9520E: Channel '{name}' is not defined remotely")
        if attrs["CHLTYPE"] not in wanted:
            raise MQError(C.MQRC_UNKNOWN_CHANNEL_NAME, f"AMQ9547E: Type of remote channel '{name}' is "
                          f"{attrs['CHLTYPE']}, not suitable for a {partner_type} channel")
        if attrs.get(STOPPED_KEY):
            raise MQError(C.MQRC_CHANNEL_NOT_AVAILABLE, f"AMQ9558E: channel '{name}' is stopped")
        return attrs

    def message_channel(self, name: str) -> Mapping[str, Any] | None:
        """A message channel's attributes (None if there is none of that name and type)."""
        attrs = self.channels.get(name)
        return attrs if attrs is not None and attrs["CHLTYPE"] in MESSAGE_TYPES else None

    def stopped(self, name: str) -> bool:
        attrs = self.channels.get(name)
        return bool(attrs is not None and attrs.get(STOPPED_KEY))

    def state(self, name: str) -> str:
        """A channel's STATUS as its agent reports it (INACTIVE with no agent running channels)."""
        agent = self.agent
        if agent is None:
            return "INACTIVE"
        state = getattr(agent, "state", None)
        return str(state(name)) if callable(state) else ("RUNNING" if agent.running(name) else "INACTIVE")

    def senders_of(self, xmitq: str) -> list[str]:
        """The sending channels (SDR, SVR) that serve transmission queue ``xmitq``."""
        return [name for name, attrs in sorted(self.channels.items())
                if attrs["CHLTYPE"] in ("SDR", "SVR") and attrs.get("XMITQ") == xmitq]

    def svrconn(self, name: str) -> Mapping[str, Any]:
        """The SVRCONN channel a TCP client names: 2540 when there is none of that name (IBM's
        AMQ9520E/AMQ9519E on the server), 2537 when it is stopped."""
        attrs = self.channels.get(name)
        if attrs is None or attrs["CHLTYPE"] != "SVRCONN":
            raise MQError(C.MQRC_UNKNOWN_CHANNEL_NAME, f"channel '{name}' is not defined as a SVRCONN channel")
        if attrs.get(STOPPED_KEY):
            raise MQError(C.MQRC_CHANNEL_NOT_AVAILABLE, f"channel '{name}' is stopped")
        return attrs

    def delete_channel(self, name: str) -> None:
        self._channel(name)
        if self.agent is not None and (self.agent.running(name) or self.agent.connections(name)):
            raise MQError(C.MQRC_OBJECT_IN_USE, f"channel {name} is running: stop it first")
        self.forget_sync(name)
        del self.channels[name]
        self.outbox.tx.delete_record("object", f"CHANNEL/{name}")

    def channel_rows(self, generic: str) -> list[dict[str, Any]]:
        rows = [{"CHANNEL": name, **attrs} for name, attrs in sorted(self.channels.items())
                if attributes.generic_match(generic, name) and not attrs.get(AUTODEF_KEY)]
        if not rows and "*" not in generic:
            raise MQError(C.MQRC_UNKNOWN_OBJECT_NAME, f"channel {generic} not found")
        return rows

    def _channel(self, name: str, auto: bool = False) -> dict[str, Any]:
        """A channel's definition; an auto-defined cluster-sender only with ``auto`` (START, STOP:
        IBM's DISPLAY CHANNEL, ALTER and DELETE do not see them)."""
        attrs = self.channels.get(name)
        if attrs is None or (attrs.get(AUTODEF_KEY) and not auto):
            raise MQError(C.MQRC_UNKNOWN_OBJECT_NAME, f"channel {name} not found")
        return attrs

    # -- START, STOP, CHSTATUS -----------------------------------------------------------------
    def start_channel(self, name: str, chltype: str | None = None) -> None:
        attrs = self._channel(name, auto=True)
        _same_type(attrs, chltype)
        if attrs["CHLTYPE"] in PARTNER_STARTED:  # no listener of its own: START lets the partner in again
            if attrs.pop(STOPPED_KEY, None):
                self._persist(name, attrs)
            if attrs["CHLTYPE"] == "RQSTR":  # and a requester asks its server to start sending
                _check_sending(name, attrs)
                self._agent().start(name, attrs)
            return
        if attrs["CHLTYPE"] in MESSAGE_TYPES:
            if attrs.pop(STOPPED_KEY, None):
                self._persist(name, attrs)
            _check_sending(name, attrs)
            self._agent().start(name, attrs)
            return
        agent = self._agent()
        if not agent.running(name):
            agent.start(name, attrs)
        self._set_running(name, attrs, True)

    def stop_channel(self, name: str, chltype: str | None = None, client_id: str | None = None,
                     status: str | None = None, mode: str | None = None) -> None:
        """STOP CHANNEL: the listener and all its clients, or (CLIENTID) one client only. A
        SVRCONN channel's instances all end; STATUS(STOPPED), the default, also refuses new ones
        (2537) until START CHANNEL, STATUS(INACTIVE) does not."""
        attrs = self._channel(name, auto=True)
        _same_type(attrs, chltype)
        agent = self._agent()
        if attrs["CHLTYPE"] in (*PARTNER_STARTED, *MESSAGE_TYPES):
            stopped = (status or "STOPPED").upper()
            if stopped not in ("STOPPED", "INACTIVE"):
                raise MQError(C.MQRCCF_PARM_VALUE_ERROR, f"STATUS({status}) must be STOPPED or INACTIVE")
            mode = (mode or "QUIESCE").upper()
            if mode not in ("QUIESCE", "FORCE", "TERMINATE"):
                raise MQError(C.MQRCCF_MODE_VALUE_ERROR, f"MODE({mode}) must be QUIESCE, FORCE or TERMINATE")
            ended = agent.stop(name, client_id, mode)
            # An inactive sending channel may be stopped (then it is not triggered until START).
            inactive_sender = attrs["CHLTYPE"] in SENDING_TYPES and stopped == "STOPPED"
            if not ended and not attrs.get(STOPPED_KEY) and not inactive_sender:
                raise MQError(C.MQRCCF_CHANNEL_NOT_ACTIVE, f"channel {name} is not active")
            if stopped == "STOPPED" and client_id is None and not attrs.get(STOPPED_KEY):
                attrs[STOPPED_KEY] = True
                self._persist(name, attrs)
            return
        if client_id is not None:
            if not agent.stop(name, client_id):
                raise MQError(C.MQRCCF_CHL_STATUS_NOT_FOUND, f"client {client_id} is not connected to {name}")
            return
        if not agent.running(name):
            raise MQError(C.MQRCCF_CHANNEL_NOT_ACTIVE, f"channel {name} is not running")
        agent.stop(name)
        self._set_running(name, attrs, False)

    def channels_to_start(self) -> list[str]:
        """The channels an operator left running: the server starts them with the queue manager."""
        return [name for name, attrs in sorted(self.channels.items()) if attrs.get(RUNNING_KEY)]

    def channel_status(self, generic: str, chltype: str | None = None,
                       client_pattern: str | None = None) -> list[dict[str, Any]]:
        """DISPLAY CHSTATUS: a summary per channel, or (CLIENTID) a row per matching client."""
        agent = self.agent
        rows: list[dict[str, Any]] = []
        for name, attrs in sorted(self.channels.items()):
            if not attributes.generic_match(generic, name) or chltype not in (None, attrs["CHLTYPE"]):
                continue
            if attrs["CHLTYPE"] in MESSAGE_TYPES:  # the agent's status of the channel, if it has one
                if agent is not None:
                    rows.extend(agent.client_rows(name, client_pattern or "*"))
                continue
            if attrs["CHLTYPE"] == "SVRCONN":  # a row per instance (connection)
                if agent is not None:
                    rows.extend(agent.client_rows(name, client_pattern or "*"))
                if attrs.get(STOPPED_KEY) and client_pattern is None:
                    rows.append({"CHANNEL": name, "CHLTYPE": "SVRCONN", "STATUS": "STOPPED"})
                continue
            running = agent is not None and agent.running(name)
            if client_pattern is not None:
                if agent is not None:
                    rows.extend(agent.client_rows(name, client_pattern))
                continue
            rows.append({"CHANNEL": name, "CHLTYPE": attrs["CHLTYPE"],
                         "CONNECTIONS": agent.connections(name) if running and agent is not None else 0,
                         "STATUS": "RUNNING" if running else "STOPPED"})
        return rows

    def _persist(self, name: str, attrs: dict[str, Any]) -> None:
        if not attrs.get(AUTODEF_KEY):  # an auto-defined one lives as long as its partner's record
            self.outbox.tx.put_record("object", f"CHANNEL/{name}", attrs)

    def _agent(self) -> ChannelAgent:
        if self.agent is None:
            raise MQError(C.MQRCCF_CHL_SYSTEM_NOT_ACTIVE, "no channel agent runs in this process")
        return self.agent

    def _set_running(self, name: str, attrs: dict[str, Any], running: bool) -> None:
        if bool(attrs.get(RUNNING_KEY)) != running:
            attrs[RUNNING_KEY] = running
            self._persist(name, attrs)


def _check_sending(name: str, attrs: Mapping[str, Any]) -> None:
    """A sending channel needs somewhere to send from and to before it can start."""
    if attrs["CHLTYPE"] in ("SDR", "SVR") and not str(attrs.get("XMITQ") or "").strip():
        raise MQError(C.MQRCCF_XMIT_Q_NAME_ERROR, f"channel {name} has no XMITQ")
    if attrs["CHLTYPE"] in ("SDR", "RQSTR", "CLUSSDR") and not str(attrs.get("CONNAME") or "").strip():
        raise MQError(C.MQRCCF_CONN_NAME_ERROR, f"channel {name} has no CONNAME")


def _same_type(attrs: Mapping[str, Any], chltype: str | None) -> None:
    if chltype is not None and chltype.upper() != attrs["CHLTYPE"]:
        raise MQError(C.MQRCCF_CHANNEL_TYPE_ERROR, f"the channel is of type {attrs['CHLTYPE']}, not {chltype}")


def type_defaults(chltype: str) -> dict[str, Any]:
    """A fresh channel of ``chltype``: its type's attributes with their defaults."""
    chltype = chltype.upper()
    if chltype not in SERVED_TYPES:
        raise MQError(C.MQRC_FUNCTION_NOT_SUPPORTED,
                      f"channels of type {chltype} are not served yet; MQTT and SVRCONN channels are")
    own = TYPE_ATTRIBUTES[chltype]
    base = {k: v for k, v in attributes.defaults("CHANNEL").items() if k in own}
    base.update(TYPE_DEFAULTS[chltype], CHLTYPE=chltype)
    return base


def svrconn_admission(attrs: Mapping[str, Any], instances: int, from_address: int) -> str | None:
    """Why one more instance of a SVRCONN channel is refused (2537), or None: MAXINST counts
    the channel's instances, MAXINSTC those from one client address."""
    if instances >= int(attrs.get("MAXINST", attributes.defaults("CHANNEL")["MAXINST"])):
        return f"MAXINST({attrs['MAXINST']}) instances are running"
    if from_address >= int(attrs.get("MAXINSTC", attributes.defaults("CHANNEL")["MAXINSTC"])):
        return f"MAXINSTC({attrs['MAXINSTC']}) instances from this address are running"
    return None


def _check(attrs: Mapping[str, Any]) -> None:
    """What the catalogue cannot say alone: attributes of another channel type, PROTOCOL's
    items, TLS settings that go together."""
    chltype = str(attrs["CHLTYPE"])
    if chltype not in SERVED_TYPES:
        raise MQError(C.MQRC_FUNCTION_NOT_SUPPORTED,
                      f"channels of type {chltype} are not served yet; MQTT and SVRCONN channels are")
    foreign = sorted(k for k in attrs if not k.startswith("_") and k not in TYPE_ATTRIBUTES[chltype]
                     and k not in ("ALTDATE", "ALTTIME"))
    if foreign:
        raise MQError(C.MQRCCF_PARM_SYNTAX_ERROR, f"{', '.join(foreign)} not valid for CHLTYPE({chltype})")
    if chltype in ("CLUSSDR", "CLUSRCVR"):
        _check_clustered(attrs)
    if chltype != "MQTT":
        _check_tls(attrs)
        return
    protocols = attrs.get("PROTOCOL") or []
    unknown = [p for p in protocols if p.upper() not in PROTOCOLS]
    if unknown or not protocols:
        raise MQError(C.MQRCCF_PARM_VALUE_ERROR,
                      f"PROTOCOL({','.join(protocols)}) must list some of {', '.join(PROTOCOLS)}")
    if attrs.get("SSLCIPH") and not attrs.get("SSLKEYR"):
        raise MQError(C.MQRCCF_PARM_VALUE_ERROR, "SSLCIPH needs SSLKEYR, the key and certificate file")


def _check_clustered(attrs: Mapping[str, Any]) -> None:
    """A cluster channel serves a cluster (CLUSTER) or the clusters of a namelist (CLUSNL), one of
    the two (IBM's MQRCCF_CLUSTER_NAME_CONFLICT when both are given)."""
    cluster, namelist = str(attrs.get("CLUSTER") or "").strip(), str(attrs.get("CLUSNL") or "").strip()
    if cluster and namelist:
        raise MQError(C.MQRCCF_CLUSTER_NAME_CONFLICT, "CLUSTER and CLUSNL cannot both be given")
    if cluster:
        attributes.check_name("CLUSTER", cluster)


def _check_tls(attrs: Mapping[str, Any]) -> None:
    """SSLCIPH must be an IBM CipherSpec and SSLPEER a valid DN filter, checked when entered."""
    cipher = str(attrs.get("SSLCIPH") or "").strip()
    if cipher and cipherspecs.lookup(cipher) is None:
        raise MQError(C.MQRCCF_SSL_CIPHER_SPEC_ERROR, f"SSLCIPH({cipher}) is not a CipherSpec")
    peer = str(attrs.get("SSLPEER") or "")
    try:
        dn.compile_filter(peer)
    except dn.DNError as error:
        raise MQError(C.MQRCCF_SSL_PEER_NAME_ERROR, f"SSLPEER: {error}") from None
