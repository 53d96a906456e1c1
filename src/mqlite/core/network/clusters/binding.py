"""Binding a cluster queue handle to an instance (B:R-BIND-1, B:R-BIND-2): when the workload
algorithm chooses, and for how long the choice holds. Pure: the caller passes the chooser.

- MQOO_BIND_ON_OPEN: chosen at MQOPEN; every MQPUT on the handle goes there, even while that
  instance is unavailable (the messages wait on the transmission queue);
- MQOO_BIND_NOT_FIXED: chosen at every MQPUT (MQPUT1 always behaves so);
- MQOO_BIND_ON_GROUP: chosen at the first message of each message group and kept until its last
  (MQMF_LAST_MSG_IN_GROUP); messages not in a group are not fixed;
- MQOO_BIND_AS_Q_DEF (0): the queue's DEFBIND (OPEN, NOTFIXED or GROUP).

More than one bind option is MQRC_OPTIONS_ERROR (2046).
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, replace

from mqlite import cmqc as C
from mqlite.core.errors import MQError

__all__ = ["Bind", "Bound", "at_open", "at_put", "bind_mode", "fixed"]

_BIND_OPTIONS = C.MQOO_BIND_ON_OPEN | C.MQOO_BIND_NOT_FIXED | C.MQOO_BIND_ON_GROUP
_IN_GROUP = C.MQMF_MSG_IN_GROUP | C.MQMF_LAST_MSG_IN_GROUP


class Bind(enum.Enum):
    ON_OPEN = "OPEN"
    NOT_FIXED = "NOTFIXED"
    ON_GROUP = "GROUP"


def bind_mode(open_options: int, defbind: str = "OPEN", put1: bool = False) -> Bind:
    """The handle's binding from its MQOPEN options and the queue's DEFBIND."""
    chosen = open_options & _BIND_OPTIONS
    if chosen & (chosen - 1):
        raise MQError(C.MQRC_OPTIONS_ERROR, "more than one MQOO_BIND_* option")
    if put1:
        return Bind.NOT_FIXED
    if chosen == C.MQOO_BIND_ON_OPEN:
        return Bind.ON_OPEN
    if chosen == C.MQOO_BIND_NOT_FIXED:
        return Bind.NOT_FIXED
    if chosen == C.MQOO_BIND_ON_GROUP:
        return Bind.ON_GROUP
    return Bind((defbind or "OPEN").upper())


@dataclass(frozen=True)
class Bound:
    """A handle's binding and the instance it is fixed to now (None: chosen at the next put)."""

    mode: Bind
    fixed: str | None = None


def at_open(mode: Bind, choose: Callable[[], str]) -> Bound:
    return Bound(mode, choose() if mode is Bind.ON_OPEN else None)


def at_put(bound: Bound, msg_flags: int, choose: Callable[[], str]) -> tuple[str, Bound]:
    """Where this put goes, and the binding after it."""
    if bound.mode is Bind.ON_OPEN:
        assert bound.fixed is not None, "bound at MQOPEN"
        return bound.fixed, bound
    if bound.mode is Bind.NOT_FIXED or not msg_flags & _IN_GROUP:
        return choose(), bound
    destination = bound.fixed if bound.fixed is not None else choose()
    last = bool(msg_flags & C.MQMF_LAST_MSG_IN_GROUP)
    return destination, replace(bound, fixed=None if last else destination)


def fixed(bound: Bound, msg_flags: int) -> bool:
    """Whether a put's instance is fixed (its message waits for that instance) or may be chosen
    again while it waits for a channel that cannot reach its instance (``ClusterRouting.reallocate``)."""
    return bound.mode is Bind.ON_OPEN or (bound.mode is Bind.ON_GROUP and bool(msg_flags & _IN_GROUP))
