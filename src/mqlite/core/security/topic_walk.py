"""The topic-tree authority walk (spec C §11.3): which administrative topic objects are asked,
in what order, and whether any of them grants.

Pure: the caller passes the topic objects (TOPICSTR -> object name) and ``holds(name)``, which
answers whether the principal (or one of its groups) holds the authority on that object.

- The check string of a publication or a subscription without wildcards is its topic string;
  a wildcard subscription is checked at the fully qualified part before the first level that
  holds a wildcard (A-35: ``#``/``+`` levels in the topic scheme, an unescaped ``*``/``?`` in the
  character scheme), so a wildcard in the first level is checked at the root.
- Closest topic object first, then each one above it, SYSTEM.BASE.TOPIC last; the first grant
  wins (R-SEC-8: there are no negative grants, a lower object cannot take away what a higher
  one grants). A node that does not exist is checked from its parent, which is the same list.
- The ``$SYS/MQ`` branch (SYSTEM.ADMIN.TOPIC, the resource monitoring topics) is isolated, as
  IBM's: authority must be granted at or below SYSTEM.ADMIN.TOPIC, so the walk stops there and
  a grant on SYSTEM.BASE.TOPIC does not reach it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import NamedTuple

from mqlite.core.topics.strings import SEPARATOR, literal_prefix

BASE_TOPIC = "SYSTEM.BASE.TOPIC"
ADMIN_TOPIC = "SYSTEM.ADMIN.TOPIC"  # TOPICSTR('$SYS/MQ'), defined by the queue manager's monitor


class Walk(NamedTuple):
    granted: bool
    checked: tuple[str, ...]  # the topic objects asked, in order (an event's AdminTopicNames)


def check_levels(topic: str, char_scheme: bool = False) -> tuple[str, ...]:
    """The levels the authority is checked at: the whole topic, or the part before the first
    wildcard level of a subscription pattern (spec C §11.3, A-35)."""
    return literal_prefix(topic, char_scheme)


def check_string(topic: str, char_scheme: bool = False) -> str:
    return SEPARATOR.join(check_levels(topic, char_scheme))


def objects_on_path(levels: tuple[str, ...], by_topic: Mapping[str, str]) -> tuple[str, ...]:
    """The topic objects at or above ``levels``, closest first, SYSTEM.BASE.TOPIC last."""
    names: list[str] = []
    for depth in range(len(levels), 0, -1):
        key = SEPARATOR.join(levels[:depth])
        if not key:  # an empty first level: only the root's object has a blank TOPICSTR
            continue
        name = by_topic.get(key)
        if name is not None and name != BASE_TOPIC:
            names.append(name)
            if name == ADMIN_TOPIC:
                return tuple(names)  # $SYS/MQ: nothing above it grants
    names.append(BASE_TOPIC)
    return tuple(names)


def walk(levels: tuple[str, ...], by_topic: Mapping[str, str], holds: Callable[[str], bool]) -> Walk:
    """Ask each object on the path, closest first, until one grants (spec C §11.3)."""
    checked: list[str] = []
    for name in objects_on_path(levels, by_topic):
        checked.append(name)
        if holds(name):
            return Walk(True, tuple(checked))
    return Walk(False, tuple(checked))
