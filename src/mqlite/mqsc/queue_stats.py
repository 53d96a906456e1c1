"""RESET QSTATS(q): a local queue's statistics since they were last reset, then reset, as
runmqsc shows them: QUEUE, ENQCOUNT (messages put), DEQCOUNT (messages got, committed or not),
HIQDEPTH (the deepest the queue has been) and RESETINT (seconds since the last reset, or since
the queue manager started). The PCF command server's RESET_Q_STATS is this command.

RESET QMGR TYPE(STATISTICS): the statistics collected so far written to
SYSTEM.ADMIN.STATISTICS.QUEUE and a new interval begun (``core.statistics.writer``); RESET QMGR's
other types (ADVANCEDACK, PUBSUB) are not supported."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from mqlite import cmqc
from mqlite.core.errors import MQError
from mqlite.mqsc import display
from mqlite.mqsc.parser import Command

__all__ = ["QueueStatsAdmin", "StatisticsAdmin", "reset"]

_SHOWN = ("ENQCOUNT", "DEQCOUNT", "HIQDEPTH", "RESETINT")


@runtime_checkable
class QueueStatsAdmin(Protocol):
    def reset_queue_stats(self, name: str) -> dict[str, Any]: ...


@runtime_checkable
class StatisticsAdmin(Protocol):
    def reset_statistics(self) -> None: ...


def reset(admin: object, cmd: Command) -> list[str]:
    if cmd.objtype == "QMGR":
        return _reset_qmgr(admin, cmd)
    if not isinstance(admin, QueueStatsAdmin):
        raise MQError(cmqc.MQRC_FUNCTION_NOT_SUPPORTED, "RESET QSTATS is not supported here")
    for keyword in cmd.attrs:
        raise cmd.error(f"{keyword} is not valid on RESET QSTATS", keyword)
    row = admin.reset_queue_stats(cmd.name or "")
    return display.record("QSTATS", row, ("QUEUE",), _SHOWN)


def _reset_qmgr(admin: object, cmd: Command) -> list[str]:
    for keyword in cmd.attrs:
        raise cmd.error(f"{keyword} is not valid on RESET QMGR", keyword)
    kind = str(cmd.options.get("TYPE", "")).upper()
    if kind in ("ADVANCELOG", "REDUCELOG", "PUBSUB"):  # IBM's other types: a recovery log mqlite has
        # not, and the hierarchy's forced removal (ALTER QMGR PARENT(' ') ends a relation here)
        raise MQError(cmqc.MQRC_FUNCTION_NOT_SUPPORTED, f"RESET QMGR TYPE({kind}) is not supported")
    if kind != "STATISTICS":
        raise cmd.error("RESET QMGR supports TYPE(STATISTICS)", "TYPE")
    if not isinstance(admin, StatisticsAdmin):
        raise MQError(cmqc.MQRC_FUNCTION_NOT_SUPPORTED, "RESET QMGR is not supported here")
    admin.reset_statistics()
    return ["AMQ8005I: WebSphere MQ queue manager changed."]
