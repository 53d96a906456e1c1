"""ROUTE objects: this queue manager's configured routes (B §23, A-55..A-60).

``DEFINE ROUTE(peer) ZONE(name) ZONETYPE(MHOP|1HOP) OUTGOING('topic selector="..."', ...)
INCOMING(...)``: the route is named after the queue manager at its other end (A-55) and reaches it
the way any message for that queue manager does (a transmission queue of its name, a queue
manager alias, a cluster). Defining it makes this side *active* (A-56). The items of OUTGOING and
INCOMING are routes.conf's ``outgoing_topic=`` / ``incoming_topic=`` lines; each is checked here
(topic, selector syntax) so a bad one fails the command, not a publication later. A zone has one
type on a queue manager: a route that would give it another is refused.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mqlite import cmqc as C
from mqlite.core import attributes
from mqlite.core.defined_objects import DefinedObjects
from mqlite.core.errors import MQError
from mqlite.core.network.routes.rules import Rule, parse_rule
from mqlite.core.outbox import Outbox
from mqlite.core.selectors import compile_selector
from mqlite.core.topics.strings import check_topic_string

__all__ = ["RouteDefinitions", "rules_of"]


class RouteDefinitions(DefinedObjects):
    """ROUTE definitions (``routes``: peer -> attributes)."""

    objtype = "ROUTE"
    noun = "route"

    def __init__(self, qmgr_name: str, clock: Callable[[], float], outbox: Outbox) -> None:
        super().__init__(clock, outbox)
        self.qmgr_name = qmgr_name
        self.routes = self.objects

    # -- DefinedObjects' hooks --------------------------------------------------------------------
    def check_name(self, name: str) -> None:
        super().check_name(name)
        if name == self.qmgr_name:
            raise MQError(C.MQRCCF_Q_MGR_NAME_ERROR, f"a route leads to another queue manager, not to {name} itself")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        return attributes.validate("ROUTE", attrs)

    def prepare(self, name: str, attrs: dict[str, Any]) -> None:
        for key in ("OUTGOING", "INCOMING"):
            attrs[key] = [_checked(key, item) for item in attrs.get(key, ())]
        zone, zone_type = attrs["ZONE"].strip(), attrs["ZONETYPE"]
        if not zone:
            raise MQError(C.MQRCCF_PARM_VALUE_ERROR, "ZONE must name a zone")
        for other, other_attrs in self.routes.items():
            if other != name and other_attrs["ZONE"] == zone and other_attrs["ZONETYPE"] != zone_type:
                raise MQError(C.MQRCCF_PARM_CONFLICT, f"zone {zone} is {other_attrs['ZONETYPE']} (route {other}), "
                                                      f"not {zone_type}")
        attrs["ZONE"] = zone


def rules_of(attrs: dict[str, Any], key: str) -> tuple[Rule, ...]:
    """The parsed OUTGOING or INCOMING rules of a route's attributes."""
    return tuple(parse_rule(item) for item in attrs.get(key, ()))


def _checked(key: str, item: str) -> str:
    """One rule item, checked: a valid topic string (wildcards allowed) and selector."""
    try:
        rule = parse_rule(item)
    except ValueError as error:
        raise MQError(C.MQRCCF_PARM_VALUE_ERROR, f"{key} item {item!r}: {error}") from None
    try:
        check_topic_string(rule.topic)
    except MQError as error:
        raise MQError(error.reason, f"{key} item {item!r}: the topic is not valid: {error.text}") from None
    if rule.selector:
        try:
            compile_selector(rule.selector)
        except MQError as error:
            raise MQError(error.reason, f"{key} item {item!r}: the selector is not valid: {error.text}") from None
    return item.strip()

