"""Heartbeats on client channels (SVRCONN HBINT): finding a client that vanished while the
queue manager waits for it.

A client that is waiting in MQGET says nothing for as long as the wait lasts; if its machine
or network went away without closing the connection, the queue manager would hold its waiting
get (and its unit of work) until TCP keepalive noticed. So while a connection has a waiting get
and has sent nothing for the negotiated HBINT, the queue manager sends it a heartbeat
(``PUSH_HEARTBEAT``), which a live client answers at once (``HEARTBEAT``). A client that has not
answered within IBM's receive timeout (twice HBINT below 60 s, else HBINT + 60 s) is taken for
gone: the connection ends with AMQ9271E, its waiting get is cancelled and its unit of work
backed out.

IBM's v7 clients also exchange heartbeats while idle, from a receive thread of their own;
mqlite's blocking client reads only during a call, so heartbeats flow only while a get waits,
as they did for every client before v7. An idle dead client is found by KAINT (TCP keepalive).

``decide`` is the rule, a pure function; ``sweep`` applies it to the connections each tick.
"""

from __future__ import annotations

import enum
import time
from collections.abc import Iterable
from typing import Protocol

from mqlite.core.network.channels.channel import receive_timeout
from mqlite.protocol import native

HEARTBEAT = native.encode_push_heartbeat()


class Beat(enum.Enum):
    NONE = "none"
    SEND = "send"  # send a heartbeat now
    TIMED_OUT = "timed out"  # the heartbeat went unanswered: end the connection




def decide(now: float, heard: float, sent: float, hbint: float, waiting: bool) -> Beat:
    """``heard``: when the client last sent anything; ``sent``: when our last heartbeat went
    (0: none since it was last heard); ``waiting``: it has a waiting MQGET."""
    if hbint <= 0 or not waiting:
        return Beat.NONE
    if sent > heard:  # a heartbeat is out, unanswered
        return Beat.TIMED_OUT if now - sent >= receive_timeout(hbint) else Beat.NONE
    return Beat.SEND if now - heard >= hbint else Beat.NONE


class Beating(Protocol):
    """What the sweep needs of a connection (``server.native.connection.ClientConnection``)."""

    heard: float
    beat_sent: float

    def heartbeat_interval(self) -> int: ...

    def waiting(self) -> bool: ...

    def send_heartbeat(self, frame: bytes) -> None: ...

    def timed_out(self, text: str) -> None: ...


def sweep(connections: Iterable[Beating], now: float | None = None) -> None:
    """One tick: heartbeats due go out, connections whose heartbeat went unanswered end."""
    now = time.monotonic() if now is None else now
    for conn in list(connections):
        hbint = conn.heartbeat_interval()
        beat = decide(now, conn.heard, conn.beat_sent, hbint, conn.waiting())
        if beat is Beat.SEND:
            conn.beat_sent = now
            conn.send_heartbeat(HEARTBEAT)
        elif beat is Beat.TIMED_OUT:
            conn.timed_out(f"no answer to a heartbeat in {receive_timeout(hbint):g} s (HBINT {hbint})")
