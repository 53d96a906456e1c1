"""The server's listener agent: a TCP port per running LISTENER object (``core.listeners``).

Each port is a ``native.tls.NativeListener``: plain and TLS on one port, clients and message
channels alike (a connection's first frame tells them apart). A port in use refuses START
LISTENER with MQRCCF_PORT_IN_USE (3324) and one error-log line.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from mqlite import cmqc as C
from mqlite.core import attributes
from mqlite.core.errors import MQError
from mqlite.server.native.tls import NativeListener
from mqlite.server.tls import ServerTls

log = logging.getLogger("mqlite.server")


@dataclass
class _Running:
    listener: NativeListener
    port: int
    attrs: dict[str, Any]
    started: float = field(default_factory=time.time)


class ServerListeners:
    """Core's ``ListenerAgent``: opens and closes the LISTENER objects' ports."""

    def __init__(self, factory: Callable[[], asyncio.Protocol], tls: ServerTls, default_address: str,
                 on_change: Callable[[], None] = lambda: None) -> None:
        self.factory = factory
        self.tls = tls
        self.default_address = default_address  # strmqm's bind address, where IPADDR is blank
        self.on_change = on_change  # listeners.json says where each listens
        self.running: dict[str, _Running] = {}

    def start_listener(self, name: str, attrs: dict[str, Any]) -> None:
        listener = NativeListener(self.factory, self.tls)
        address = str(attrs.get("IPADDR") or "").strip() or self.default_address
        backlog = int(attrs.get("BACKLOG") or 0) or 4096
        try:
            port = listener.listen(address, int(attrs.get("PORT", 1414)), backlog)
        except OSError as error:
            headline = f"AMQ9218E: The TCP/IP listener program could not bind to port number {attrs.get('PORT')}."
            log.error("%s\n\nEXPLANATION:\nAn attempt to bind the TCP/IP socket of listener %s to port %s on "
                      "address %s was unsuccessful.\nACTION:\nThe failure could be due to another program using "
                      "the same port number. The return code from the TCP/IP (bind) call was %s.", headline, name,
                      attrs.get("PORT"), address, _return_code(error))
            raise MQError(C.MQRCCF_PORT_IN_USE, headline) from None
        self.running[name] = _Running(listener, port, dict(attrs))
        log.info("AMQ9209I: listener %s listening on TCP port %d", name, port)
        self.on_change()

    def stop_listener(self, name: str) -> bool:
        running = self.running.pop(name, None)
        if running is None:
            return False
        running.listener.close()
        log.info("AMQ9210I: listener %s on TCP port %d stopped", name, running.port)
        self.on_change()
        return True

    def listener_status(self, name: str) -> dict[str, Any] | None:
        running = self.running.get(name)
        if running is None:
            return None
        date, clock = attributes.date_and_time(running.started)
        attrs = running.attrs
        return {"LISTENER": name, "STATUS": "RUNNING", "PID": os.getpid(), "STARTDA": date, "STARTTI": clock,
                "DESCR": attrs.get("DESCR", ""), "TRPTYPE": "TCP", "CONTROL": attrs.get("CONTROL", "MANUAL"),
                "IPADDR": str(attrs.get("IPADDR") or "") or "*", "PORT": running.port,
                "BACKLOG": int(attrs.get("BACKLOG") or 0) or 4096}

    def port_of(self, name: str) -> int | None:
        running = self.running.get(name)
        return running.port if running is not None else None

    def ports(self) -> dict[str, int]:
        return {name: running.port for name, running in self.running.items()}

    def close_all(self) -> None:
        for name in list(self.running):
            self.running.pop(name).listener.close()


def _return_code(error: OSError) -> str:
    """IBM's way of giving a TCP/IP call's return code: ``98 (X'62')``."""
    return f"{error.errno} (X'{error.errno:X}')" if error.errno is not None else "unknown"
