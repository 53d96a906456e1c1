"""RESET QSTATS(q): a local queue's statistics since they were last reset, then reset, as
runmqsc shows them: QUEUE, ENQCOUNT (messages put), DEQCOUNT (messages got, committed or not),
HIQDEPTH (the deepest the queue has been) and RESETINT (seconds since the last reset, or since
the queue manager started). The PCF command server's RESET_Q_STATS is this command."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from mqlite import cmqc
from mqlite.core.errors import MQError
from mqlite.mqsc import display
from mqlite.mqsc.parser import Command

__all__ = ["QueueStatsAdmin", "reset"]

_SHOWN = ("ENQCOUNT", "DEQCOUNT", "HIQDEPTH", "RESETINT")


@runtime_checkable
class QueueStatsAdmin(Protocol):
    def reset_queue_stats(self, name: str) -> dict[str, Any]: ...


def reset(admin: object, cmd: Command) -> list[str]:
    if not isinstance(admin, QueueStatsAdmin):
        raise MQError(cmqc.MQRC_FUNCTION_NOT_SUPPORTED, "RESET QSTATS is not supported here")
    for keyword in cmd.attrs:
        raise cmd.error(f"{keyword} is not valid on RESET QSTATS", keyword)
    row = admin.reset_queue_stats(cmd.name or "")
    return display.record("QSTATS", row, ("QUEUE",), _SHOWN)
