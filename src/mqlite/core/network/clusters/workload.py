"""The cluster workload algorithm: which instance of a cluster queue a message goes to.

A pure function over what the queue manager knows of the candidates (``Destination``) and of its
own earlier choices (``History``), in IBM's order (B:R-BIND-4; IBM's "cluster workload
management algorithm"):

1. no instance known: 2085 (MQRC_UNKNOWN_OBJECT_NAME);
2. instances not PUT(ENABLED) go (none left: 2268, MQRC_CLUSTER_PUT_INHIBITED);
3. CLWLUSEQ: with LOCAL (the queue's, or QMGR and the queue manager's LOCAL), a local instance is
   chosen for a message put here; a message that came in over a cluster channel always goes to
   the local instance when there is one (it is not sent round again);
4. CLWLRANK: the channels to the remaining queue managers below the highest channel rank go, then
   the instances below the highest queue rank;
5. suspended queue managers (SUSPEND QMGR CLUSTER) go when a resumed one remains;
6. channel state, best class first: INACTIVE or RUNNING; then BINDING, INITIALIZING, STARTING,
   STOPPING; then RETRYING; then REQUESTING, PAUSED, STOPPED (when only the worst remain, one of
   them is chosen and the message waits on the transmission queue);
7. NETPRTY: for each queue manager, its channels of the highest network priority;
8. CLWLPRTY: the highest channel priority, then the highest queue priority;
9. CLWLMRUC: at most this many of the most recently used channels stay in the choice;
10. the least recently used, weighted by CLWLWGHT: each choice adds ``WEIGHT_UNIT // weight`` to the
    chosen destination's factor, the lowest factor is chosen (ties: the one chosen longest ago,
    then the queue manager name), so a channel of weight 2w gets about twice the messages of w;
    a destination back in the choice after an absence starts level, without a backlog.

The local instance, when it takes part (CLWLUSEQ ANY), has no channel: it counts as INACTIVE or
RUNNING with the queue manager's own ranks. Everything here is a decision; the caller keeps the
returned ``History`` for the next one.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import NamedTuple

from mqlite import cmqc as C
from mqlite.core.errors import MQError

__all__ = ["WEIGHT_UNIT", "ChannelState", "Choice", "Destination", "History", "choose"]

WEIGHT_UNIT = 10_000  # a choice adds WEIGHT_UNIT // CLWLWGHT (1..99) to its destination's factor
MRUC_DEFAULT = 999_999_999
_NOTHING: Mapping[str, int] = MappingProxyType({})


class ChannelState(enum.IntEnum):
    """How good a channel's state is for a new message, best first (IBM's steps 8 to 11)."""

    INACTIVE = 0  # and RUNNING
    STARTING = 1  # BINDING, INITIALIZING, STARTING, STOPPING
    RETRYING = 2
    STOPPED = 3  # REQUESTING, PAUSED, STOPPED

    @classmethod
    def of(cls, status: str) -> ChannelState:
        """The class of a CHSTATUS STATUS value (a channel with no status is INACTIVE)."""
        return _STATE_CLASSES.get(status.upper(), cls.INACTIVE)


_STATE_CLASSES: Mapping[str, ChannelState] = {
    "INACTIVE": ChannelState.INACTIVE, "RUNNING": ChannelState.INACTIVE,
    "BINDING": ChannelState.STARTING, "INITIALIZING": ChannelState.STARTING, "STARTING": ChannelState.STARTING,
    "STOPPING": ChannelState.STARTING, "RETRYING": ChannelState.RETRYING, "REQUESTING": ChannelState.STOPPED,
    "PAUSED": ChannelState.STOPPED, "STOPPED": ChannelState.STOPPED,
}


@dataclass(frozen=True)
class Destination:
    """One instance of the cluster queue and the way to it, as the queue manager knows them."""

    qmgr: str  # the queue manager hosting the instance
    local: bool = False  # this queue manager's own instance (no channel)
    put_enabled: bool = True  # the instance's PUT attribute
    rank: int = 0  # the queue instance's CLWLRANK
    priority: int = 0  # the queue instance's CLWLPRTY
    channel: str = ""  # the cluster-sender channel to ``qmgr`` (blank for the local instance)
    channel_rank: int = 0  # CLWLRANK of that channel (its CLUSRCVR's, as published)
    channel_priority: int = 0  # CLWLPRTY of that channel
    channel_weight: int = 50  # CLWLWGHT of that channel, 1..99
    netprty: int = 0  # NETPRTY of that channel
    state: ChannelState = ChannelState.INACTIVE
    suspended: bool = False  # ``qmgr`` is suspended from the cluster
    key: str = field(default="", compare=False, repr=False)  # the history's name for it (set by itself)

    def __post_init__(self) -> None:
        object.__setattr__(self, "key", self.qmgr if not self.channel else f"{self.qmgr}/{self.channel}")


class History(NamedTuple):
    """The chooser's memory: each destination's factor and when it was last chosen. A named
    tuple, not a frozen dataclass: a put through a cluster queue makes one, and a tuple is
    several times cheaper to make."""

    factors: Mapping[str, int] = _NOTHING  # destination key -> summed weight steps
    last_used: Mapping[str, int] = _NOTHING  # destination key -> choice number
    choices: int = 0


_NO_HISTORY = History()


class Choice(NamedTuple):
    destination: Destination
    history: History


def choose(candidates: Iterable[Destination], history: History = _NO_HISTORY, *, useq_local: bool = False,
           from_cluster_channel: bool = False, mruc: int = MRUC_DEFAULT) -> Choice:
    """The destination of the next message (see the module's rules), and the history after it.

    ``useq_local``: the effective CLWLUSEQ is LOCAL (the queue's, or QMGR and the queue
    manager's); ``from_cluster_channel``: the message arrived over a cluster channel."""
    remaining = list(candidates)
    if not remaining:
        raise MQError(C.MQRC_UNKNOWN_OBJECT_NAME, "no instance of the cluster queue is known")
    remaining = [d for d in remaining if d.put_enabled]
    if not remaining:
        raise MQError(C.MQRC_CLUSTER_PUT_INHIBITED, "every instance of the cluster queue is put-inhibited")
    if len(remaining) == 1:  # one instance: nothing to weigh
        return _chosen(remaining[0], history)
    local = [d for d in remaining if d.local]
    if local and (useq_local or from_cluster_channel):
        return _chosen(local[0], history)
    if not local and _alike(remaining):  # the usual case: every rule would keep them all
        return _least_recently_used(remaining, history, mruc)
    remaining = _highest(remaining, _channel_value(remaining, "channel_rank"))
    remaining = _highest(remaining, lambda d: d.rank)
    resumed = [d for d in remaining if not d.suspended]
    if resumed:
        remaining = resumed
    best_state = min(d.state for d in remaining)
    remaining = [d for d in remaining if d.state == best_state]
    remaining = _best_netprty_per_qmgr(remaining)
    remaining = _highest(remaining, _channel_value(remaining, "channel_priority"))
    remaining = _highest(remaining, lambda d: d.priority)
    return _least_recently_used(remaining, history, mruc)


def _alike(destinations: list[Destination]) -> bool:
    """Remote destinations equal in everything steps 4 to 8 look at (they would all stay)."""
    first = destinations[0]
    shape = (first.channel_rank, first.rank, first.suspended, first.state, first.netprty, first.channel_priority,
             first.priority)
    return all((d.channel_rank, d.rank, d.suspended, d.state, d.netprty, d.channel_priority, d.priority) == shape
               for d in destinations)


def _least_recently_used(remaining: list[Destination], history: History, mruc: int) -> Choice:
    """Steps 9 and 10: CLWLMRUC, then the lowest weighted factor (ties: the one chosen longest
    ago, then the queue manager and channel names). One pass: every put through a cluster queue
    with several instances comes here."""
    if len(remaining) > mruc:
        recent = sorted(remaining, key=lambda d: history.last_used.get(d.key, -1), reverse=True)
        remaining = recent[:max(mruc, 1)]
    history = _no_backlog(remaining, history)
    factors, last_used = history.factors, history.last_used
    chosen = remaining[0]
    best = (factors.get(chosen.key, 0), last_used.get(chosen.key, -1), chosen.qmgr, chosen.channel)
    for destination in remaining[1:]:
        key = destination.key
        rank = (factors.get(key, 0), last_used.get(key, -1), destination.qmgr, destination.channel)
        if rank < best:
            chosen, best = destination, rank
    return _chosen(chosen, history)


def _no_backlog(remaining: list[Destination], history: History) -> History:
    """A destination that was out of the choice for a while (suspended, put-inhibited, its
    channel down, newly defined) comes back level with the others, not owed every message it
    missed: its factor is lifted to one weight step below the highest of the candidates. In
    steady state the factors stay within a step of each other, so nothing changes there."""
    known = history.factors
    factors = [known.get(d.key, 0) for d in remaining]
    lightest = min(d.channel_weight for d in remaining)
    floor = max(factors) - WEIGHT_UNIT // min(max(lightest, 1), 99)
    if min(factors) >= floor:
        return history
    lagging = {d.key: floor for d, factor in zip(remaining, factors, strict=True) if factor < floor}
    return history._replace(factors={**known, **lagging})


def _channel_value(destinations: list[Destination], attribute: str) -> Callable[[Destination], int]:
    """A channel attribute of each destination; the local instance, which has no channel, takes
    the highest value of the remote ones (it is never ranked below them by a channel)."""
    remote = [int(getattr(d, attribute)) for d in destinations if not d.local]
    top = max(remote) if remote else 0
    return lambda d: top if d.local else int(getattr(d, attribute))


def _highest(destinations: list[Destination], key: Callable[[Destination], int]) -> list[Destination]:
    best = max(key(d) for d in destinations)
    return [d for d in destinations if key(d) == best]


def _best_netprty_per_qmgr(destinations: list[Destination]) -> list[Destination]:
    best: dict[str, int] = {}
    for d in destinations:
        best[d.qmgr] = max(best.get(d.qmgr, d.netprty), d.netprty)
    return [d for d in destinations if d.netprty == best[d.qmgr]]


def _chosen(destination: Destination, history: History) -> Choice:
    key = destination.key
    weight = min(max(destination.channel_weight, 1), 99)
    factors = dict(history.factors)
    factors[key] = factors.get(key, 0) + WEIGHT_UNIT // weight
    last_used = dict(history.last_used)
    last_used[key] = history.choices
    return Choice(destination, History(factors, last_used, history.choices + 1))
