"""LISTENER objects: the TCP ports a queue manager serves clients and message channels on.

The core keeps the definitions (persisted like any object); the server's listener agent
(``ListenerAgent``) opens and closes the ports. ``crtmqm -p PORT`` becomes the definition of
SYSTEM.LISTENER.TCP.1 with CONTROL(QMGR), as IBM's crtmqm does: listeners with CONTROL(QMGR) or
CONTROL(STARTONLY) start with the queue manager (QMGR ones also stop with it), MANUAL ones at
START LISTENER. Every listener serves both clients and message channels: a connection's first
bytes tell them apart. PORT(0) asks the system for a free port (mqlite's, for tests).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from mqlite import cmqc as C
from mqlite.core import attributes
from mqlite.core.defined_objects import DefinedObjects
from mqlite.core.errors import MQError
from mqlite.core.outbox import Outbox

SYSTEM_LISTENER = "SYSTEM.LISTENER.TCP.1"  # crtmqm -p's
NAME_LENGTH = 48


class ListenerAgent(Protocol):
    """What opens the ports: the server's, attached with ``Listeners.agent``."""

    def start_listener(self, name: str, attrs: dict[str, Any]) -> None:
        """Listen (MQError MQRCCF_PORT_IN_USE, 3324, when the port is taken)."""

    def stop_listener(self, name: str) -> bool: ...

    def listener_status(self, name: str) -> dict[str, Any] | None:
        """Its LSSTATUS row while it runs (PORT is the port it got), else None."""


class Listeners(DefinedObjects):
    """Listener definitions and START/STOP LISTENER, DISPLAY LSSTATUS."""

    objtype = "LISTENER"
    noun = "listener"

    def __init__(self, clock: Callable[[], float], outbox: Outbox) -> None:
        super().__init__(clock, outbox)
        self.listeners = self.objects
        self.agent: ListenerAgent | None = None

    # -- DefinedObjects' hooks --------------------------------------------------------------------
    def check_name(self, name: str) -> None:
        if not name or len(name) > NAME_LENGTH:
            raise MQError(C.MQRCCF_OBJECT_NAME_ERROR, f"listener name '{name}' is not 1 to {NAME_LENGTH} characters")
        super().check_name(name)

    def new_object(self, attrs: Mapping[str, Any]) -> dict[str, Any]:
        base = attributes.defaults("LISTENER")
        base.pop("LISTENER", None)
        return base

    def check_delete(self, name: str) -> None:
        if self.agent is not None and self.agent.listener_status(name) is not None:
            raise MQError(C.MQRC_OBJECT_IN_USE, f"listener {name} is running: stop it first")

    def prepare(self, name: str, attrs: dict[str, Any]) -> None:
        if str(attrs.get("TRPTYPE", "TCP")) != "TCP":
            raise MQError(C.MQRCCF_PARM_VALUE_ERROR, f"TRPTYPE({attrs['TRPTYPE']}): only TCP listeners are served")

    # -- START, STOP, LSSTATUS ----------------------------------------------------------------------
    def start(self, name: str) -> None:
        attrs = self.get(name)
        agent = self._agent()
        if agent.listener_status(name) is not None:
            raise MQError(C.MQRCCF_LISTENER_RUNNING, f"listener {name} is already running")
        agent.start_listener(name, attrs)

    def stop(self, name: str) -> None:
        self.get(name)
        if not self._agent().stop_listener(name):
            raise MQError(C.MQRCCF_LISTENER_STOPPED, f"listener {name} is not running")

    def status_rows(self, generic: str) -> list[dict[str, Any]]:
        agent = self.agent
        rows = []
        for name in sorted(self.listeners):
            if attributes.generic_match(generic, name) and agent is not None:
                row = agent.listener_status(name)
                if row is not None:
                    rows.append(row)
        if not rows:
            raise MQError(C.MQRCCF_LSTR_STATUS_NOT_FOUND, f"no listener {generic} is running")
        return rows

    def to_start(self) -> list[str]:
        """The listeners that start with the queue manager (CONTROL QMGR or STARTONLY)."""
        return [name for name, attrs in sorted(self.listeners.items())
                if attrs.get("CONTROL") in ("QMGR", "STARTONLY")]

    def _agent(self) -> ListenerAgent:
        if self.agent is None:
            raise MQError(C.MQRCCF_CHL_SYSTEM_NOT_ACTIVE, "no listener agent runs in this process")
        return self.agent
