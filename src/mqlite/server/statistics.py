"""Statistics in the server: the writer's first interval and its timer (``Runtime.tick_hooks``),
the last interval written when the queue manager ends normally, and the STATMQI counts of the
native protocol's MQI requests (``count``, called by ``native.conversation`` only while some
reader wants the MQI counters).

STATMQI's PUT and PUT1 counts are split by the persistence the caller asked for (its MQMD);
GET and BROWSE counts by the got message's, in ``conversation._get`` and, for a get that waited,
where the runtime sends its completion.
"""

from __future__ import annotations

from collections.abc import Sized
from typing import Any

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.statistics.counters import MQICounters
from mqlite.protocol.native import Op
from mqlite.server.runtime import Runtime

_PERSISTENCE = 8  # the MQMD's Persistence in the wire list (message.MD_FIELDS)
_BROWSE = C.MQGMO_BROWSE_FIRST | C.MQGMO_BROWSE_NEXT | C.MQGMO_BROWSE_MSG_UNDER_CURSOR
_PERSISTENT = C.MQPER_PERSISTENT
_GET, _CONNECT = Op.GET, Op.CONNECT
_PUTS = {Op.PUT1: ("put1s", "put_bytes"), Op.PUBLISH: ("topic_puts", "topic_put_bytes")}
_SIMPLE = {Op.CONNECT: "conns", Op.DISCONNECT: "discs", Op.OPEN: "opens", Op.CLOSE: "closes", Op.INQ: "inqs",
           Op.SET: "sets", Op.COMMIT: "commits", Op.BACKOUT: "backouts", Op.SUB: "subs", Op.SUBRQ: "subrqs",
           Op.STAT: "stats"}
_FAILED = {Op.CONNECT: "conns_failed", Op.OPEN: "opens_failed", Op.CLOSE: "closes_failed", Op.INQ: "inqs_failed",
           Op.SET: "sets_failed", Op.COMMIT: "commits_failed", Op.SUB: "subs_failed", Op.SUBRQ: "subrqs_failed",
           Op.STAT: "stats_failed", Op.PUT: "puts_failed", Op.PUT1: "put1s_failed",
           Op.PUBLISH: "topic_puts_failed"}


def start(runtime: Runtime) -> None:
    writer = runtime.core.statistics_writer
    core = runtime.core

    def channel_info(name: str) -> tuple[str, str]:
        """A channel's partner queue manager and address, from its status (ChlStatisticsData)."""
        try:
            rows = core.channel_status(name)
        except MQError:
            return "", ""
        row = rows[0] if rows else {}
        return str(row.get("RQMNAME", "")), str(row.get("CONNAME", ""))

    writer.channel_info = channel_info
    writer.start()
    runtime.tick_hooks.append(writer.tick)


def end(runtime: Runtime) -> None:
    """The queue manager ends normally: IBM writes the interval's statistics at shutdown."""
    runtime.core.statistics_writer.write()


def count_failure(mqi: MQICounters, op: Op, args: list[Any]) -> None:
    """One failed MQI request of the native protocol in the STATMQI counts."""
    if op == _GET:
        mqi.count("browses_failed" if int(args[2].get("Options", 0)) & _BROWSE else "gets_failed")
    elif op in _FAILED:
        mqi.count(_FAILED[op])


def count_success(mqi: MQICounters, op: Op, args: list[Any], connections: Sized) -> None:
    """One MQI request of the native protocol that succeeded, in the STATMQI counts; but an MQPUT
    and an MQGET, the busiest, are counted in place by the conversation (into ``MQICounters``'s
    attributes, or ``got`` for a browse). Written for speed all the same: int-keyed tables, no
    enum attribute lookups (an IntEnum member read from its class costs ~300 instructions in
    CPython 3.11)."""
    put = _PUTS.get(op)
    counts = mqi.counts
    if put is not None:
        i = 1 if args[1][_PERSISTENCE] == _PERSISTENT else 0
        counts[put[0]][i] += 1
        counts[put[1]][i] += len(args[4])
        return
    name = _SIMPLE.get(op)
    if name is not None:
        counts[name][0] += 1
        if op == _CONNECT:
            mqi.connections(len(connections))
