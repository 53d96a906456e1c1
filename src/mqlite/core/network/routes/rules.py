"""The rules of TIBCO EMS-style routes as pure decisions (B §23, seed 002, A-55..A-60).

A route joins this queue manager to one peer (the route is named after it). Each side subscribes
at the other for the global topics its own subscribers, and the routes behind it, want: an
*internal subscription* IS(X->Y, T) held on X for peer Y (R-EMS-2). Nothing here holds state:

- ``parse_rule`` / ``rule_text``: one OUTGOING or INCOMING item, ``topic [selector="..."]`` as
  routes.conf writes it (A-60);
- ``route_selectors``: the selectors a message on a topic must pass to cross a route: the
  sender's outgoing ones AND the receiver's incoming ones (R-EMS-11, R-EMS-12, A-59);
- ``may_forward``: whether a message that came over one route (or from a local producer) may go
  over another: never to a server it has visited, never two hops inside one 1HOP zone (A-60);
- ``interest_for``: the topic patterns this queue manager asks of one peer (R-EMS-2), which is
  the same rule seen from the subscription side;
- ``admit``: what a subscriber's limit (MAXMSGS / MAXBYTES) and the topic's OVERFLOW policy do
  with a new message (R-EMS-8, A-57);
- ``store_queue``: the local queue that holds a route's messages while the peer is away.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from mqlite.core.topics.matching import topic_match

__all__ = [
    "MHOP",
    "ONEHOP",
    "Admit",
    "RouteView",
    "Rule",
    "admit",
    "interest_for",
    "may_forward",
    "parse_rule",
    "route_selectors",
    "rule_text",
    "store_queue",
    "visited_list",
    "visited_text",
]

MHOP = "MHOP"
ONEHOP = "1HOP"
DEFAULT_ZONE = "DEFAULT_MHOP_ZONE"
STORE_PREFIX = "SYSTEM.ROUTE."
_MAX_QUEUE_NAME = 48
_RULE = re.compile(r'\s*(?P<topic>.*?)(?:\s+selector\s*=\s*"(?P<selector>.*)")?\s*', re.S | re.I)
_STRAY_SELECTOR = re.compile(r'(^|\s)selector\s*=', re.I)  # a selector the pattern above did not take
_VISITED_SEPARATOR = ","  # queue manager names cannot contain one


@dataclass(frozen=True, slots=True)
class Rule:
    """One OUTGOING/INCOMING item: messages on topics matching ``topic`` (a pattern) cross only
    when they satisfy ``selector`` ('' = all of them)."""

    topic: str
    selector: str = ""


@dataclass(frozen=True, slots=True)
class RouteView:
    """What the forwarding rules need to know of a route."""

    peer: str
    zone: str = DEFAULT_ZONE
    zone_type: str = MHOP


def parse_rule(item: str) -> Rule:
    """``orders selector="region = 'west'"`` -> Rule('orders', "region = 'west'") (A-60)."""
    match = _RULE.fullmatch(item)
    assert match is not None  # (the pattern accepts any text)
    topic = match.group("topic").strip()
    if not topic or _STRAY_SELECTOR.search(topic):
        raise ValueError(f"{item!r} names no topic, or its selector is not selector=\"...\"")
    return Rule(topic, (match.group("selector") or "").strip())


def rule_text(rule: Rule) -> str:
    return f'{rule.topic} selector="{rule.selector}"' if rule.selector else rule.topic


def route_selectors(topic: str, outgoing: Sequence[Rule], incoming: Sequence[Rule]) -> tuple[str, ...]:
    """Every selector a message on ``topic`` must satisfy to cross a route: the sending side's
    OUTGOING rules for the topic and the receiving side's INCOMING rules for it, all of them
    (S1 AND S2, several of one side AND-ed too; no rule: no condition). R-EMS-11, R-EMS-12, A-59."""
    chosen = [rule.selector for rule in (*outgoing, *incoming) if rule.selector and topic_match(rule.topic, topic)]
    return tuple(dict.fromkeys(chosen))


def may_forward(arrived_over: RouteView | None, to: RouteView, visited: Iterable[str]) -> bool:
    """Whether a message may go over route ``to``: never to a server it has visited (which
    includes the one it came from), and, when it arrived over a route of a 1HOP zone, not over
    another route of that zone (A-60). A local producer's message (``arrived_over`` None) may go
    over every route; crossing into another zone starts that zone's count afresh."""
    if to.peer in visited:
        return False
    return not (arrived_over is not None and arrived_over.zone == to.zone and to.zone_type == ONEHOP)


def interest_for(peer: RouteView, local: Iterable[str], held: Mapping[str, Iterable[str]],
                 routes: Mapping[str, RouteView]) -> set[str]:
    """The topic patterns to subscribe to at ``peer``: those of this queue manager's own
    subscribers (``local``, global topics only), and those other peers hold internal
    subscriptions here for (``held``: peer -> patterns), when a message coming from ``peer``
    could be passed on to them (split horizon and zones, R-EMS-2, A-60)."""
    wanted = set(local)
    for other, patterns in held.items():
        route = routes.get(other)
        if other == peer.peer or route is None or not may_forward(peer, route, (peer.peer,)):
            continue
        wanted.update(patterns)
    return wanted


class Admit(Enum):
    """What happens to a new message for one subscriber (R-EMS-8, A-57)."""

    STORE = "store"  # under the limits
    DISCARD_OLDEST = "discard-oldest"  # discardOld: the oldest pending ones go to make room
    SKIP = "skip"  # default: this subscriber misses it; the others still get it, no error
    REJECT = "reject"  # rejectIncoming: nobody gets it; a local producer's put fails


def admit(policy: str, pending_msgs: int, pending_bytes: int, size: int, max_msgs: int, max_bytes: int) -> Admit:
    """A subscriber with ``pending_msgs`` messages of ``pending_bytes`` waiting, offered one of
    ``size`` bytes, under MAXMSGS / MAXBYTES (0: no limit) and OVERFLOW ``policy``."""
    full = (max_msgs > 0 and pending_msgs + 1 > max_msgs) or (max_bytes > 0 and pending_bytes + size > max_bytes)
    if not full:
        return Admit.STORE
    if policy == "DISCARDOLD":
        return Admit.DISCARD_OLDEST if max_bytes <= 0 or size <= max_bytes else Admit.SKIP
    if policy == "REJECTINCOMING":
        return Admit.REJECT
    return Admit.SKIP


def store_queue(peer: str) -> str:
    """The local queue holding the messages for ``peer`` while the route is down: SYSTEM.ROUTE.<peer>,
    shortened with a hash when that would pass 48 characters."""
    name = STORE_PREFIX + peer
    if len(name) <= _MAX_QUEUE_NAME:
        return name
    digest = hashlib.sha1(peer.encode()).hexdigest()[:8].upper()
    return f"{STORE_PREFIX}{peer[:_MAX_QUEUE_NAME - len(STORE_PREFIX) - 9]}.{digest}"


def visited_list(text: str) -> list[str]:
    return [name for name in text.split(_VISITED_SEPARATOR) if name]


def visited_text(visited: Iterable[str], this: str) -> str:
    """The visited-server list a message carries on, this server added (A-60)."""
    names = [name for name in visited if name != this]
    return _VISITED_SEPARATOR.join([*names, this])
