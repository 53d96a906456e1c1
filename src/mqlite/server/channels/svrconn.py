"""Client channels (SVRCONN): the running instances, one per TCP connection that named a channel
(its conversations share it when the channel's SHARECNV allows: CURSHCNV counts them).

A SVRCONN channel has no listener of its own: clients reach the queue manager's TCP port and
name it in their connect. Each admitted connection is an :class:`Instance` here, so MAXINST and
MAXINSTC can be counted, DISPLAY CHSTATUS can show each (CONNAME, MCAUSER, CURSHCNV, ...) and
STOP CHANNEL can end them (the client sees 2009, MQRC_CONNECTION_BROKEN).

:class:`ChannelAgents` is what core sees as its one channel agent: it sends each call to the
SVRCONN instances, the message channel agents (``mca``) or the MQTT channels by the channel's type.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from mqlite.core import attributes
from mqlite.core.channel_attributes import MESSAGE_TYPES

log = logging.getLogger("mqlite.server")
_MESSAGE_TYPES = MESSAGE_TYPES


@dataclass(eq=False)
class Instance:
    """One connection through a SVRCONN channel, with what it negotiated."""

    channel: str
    conname: str  # the client's address
    user: str  # the identity it runs as (MCAUSER in CHSTATUS)
    appl_name: str
    maxmsgl: int
    hbint: int
    kaint: int  # seconds of TCP keepalive idle time, 0 for none
    sharecnv: int
    close: Callable[[], None]  # ends the connection (STOP CHANNEL)
    started: float = field(default_factory=time.time)
    tls: Mapping[str, Any] = field(default_factory=dict)  # SECPROT, SSLPEER, SSLCERTI (server/native/tls)
    conversations: int = 1  # connected conversations sharing it (CURSHCNV), at most ``sharecnv``

    def row(self) -> dict[str, Any]:
        """Its DISPLAY CHSTATUS record, IBM's keywords."""
        date, clock = attributes.date_and_time(self.started)
        return {"CHANNEL": self.channel, "CHLTYPE": "SVRCONN", "CONNAME": self.conname, "CURRENT": True,
                "STATUS": "RUNNING", "SUBSTATE": "RECEIVE", "MCAUSER": self.user, "RAPPLTAG": self.appl_name,
                "CURSHCNV": self.conversations if self.sharecnv else 0, "MAXSHCNV": self.sharecnv,
                "MAXMSGL": self.maxmsgl, "HBINT": self.hbint, "KAINT": self.kaint, "CHSTADA": date,
                "CHSTATI": clock, **self.tls}


class ClientChannels:
    """The instances of every SVRCONN channel, by channel name."""

    def __init__(self) -> None:
        self.instances: dict[str, set[Instance]] = {}

    def add(self, instance: Instance) -> None:
        self.instances.setdefault(instance.channel, set()).add(instance)

    def discard(self, instance: Instance) -> None:
        running = self.instances.get(instance.channel)
        if running is not None:
            running.discard(instance)
            if not running:
                del self.instances[instance.channel]

    def counts(self, channel: str, conname: str) -> tuple[int, int]:
        """(instances of ``channel``, those from the address ``conname``): MAXINST, MAXINSTC."""
        running = self.instances.get(channel, set())
        return len(running), sum(1 for i in running if i.conname == conname)

    # -- ChannelAgent, for SVRCONN channels ----------------------------------------------------
    def stop(self, name: str, client_id: str | None = None, mode: str = "QUIESCE") -> int:
        ended = [i for i in self.instances.get(name, ()) if client_id is None or i.conname == client_id]
        for instance in ended:
            instance.close()
        if ended:
            log.info("AMQ9528I: user requested closure of %d instance(s) of channel '%s'", len(ended), name)
        return len(ended)

    def connections(self, name: str) -> int:
        return len(self.instances.get(name, ()))

    def client_rows(self, name: str, client_pattern: str) -> list[dict[str, Any]]:
        return [i.row() for i in sorted(self.instances.get(name, ()), key=lambda i: i.started)
                if attributes.generic_match(client_pattern, i.conname)]


class _Agent(Protocol):
    def start(self, name: str, attrs: Mapping[str, Any]) -> None: ...
    def stop(self, name: str, client_id: str | None = None, mode: str = "QUIESCE") -> int: ...
    def running(self, name: str) -> bool: ...
    def connections(self, name: str) -> int: ...
    def client_rows(self, name: str, client_pattern: str) -> list[dict[str, Any]]: ...


class ChannelAgents:
    """core's channel agent (``core.channels.ChannelAgent``): SVRCONN channels' instances here,
    every other type to ``other`` (the MQTT channels)."""

    def __init__(self, definitions: Mapping[str, Mapping[str, Any]], clients: ClientChannels, other: _Agent,
                 message: _Agent | None = None) -> None:
        self.definitions = definitions
        self.clients = clients
        self.other = other
        self.message = message  # the message channel agents (SDR, SVR, RCVR, RQSTR)

    def _for(self, name: str) -> _Agent:
        attrs = self.definitions.get(name)
        if self.message is not None and attrs is not None and attrs.get("CHLTYPE") in _MESSAGE_TYPES:
            return self.message
        return self.other

    def _svrconn(self, name: str) -> bool:
        attrs = self.definitions.get(name)
        return attrs is not None and attrs.get("CHLTYPE") == "SVRCONN"

    def start(self, name: str, attrs: Mapping[str, Any]) -> None:
        if not self._svrconn(name):
            self._for(name).start(name, attrs)

    def stop(self, name: str, client_id: str | None = None, mode: str = "QUIESCE") -> int:
        if self._svrconn(name):
            return self.clients.stop(name, client_id)
        return self._for(name).stop(name, client_id, mode)

    def running(self, name: str) -> bool:
        return self.clients.connections(name) > 0 if self._svrconn(name) else self._for(name).running(name)

    def connections(self, name: str) -> int:
        return self.clients.connections(name) if self._svrconn(name) else self._for(name).connections(name)

    def state(self, name: str) -> str:
        """A message channel's STATUS (the cluster workload algorithm weighs it)."""
        agent = self._for(name)
        state = getattr(agent, "state", None)
        if callable(state):
            return str(state(name))
        return "RUNNING" if self.running(name) else "INACTIVE"

    def client_rows(self, name: str, client_pattern: str) -> list[dict[str, Any]]:
        if self._svrconn(name):
            return self.clients.client_rows(name, client_pattern)
        return self._for(name).client_rows(name, client_pattern)
