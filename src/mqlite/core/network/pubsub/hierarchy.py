"""Parent and child relationships of a publish/subscribe hierarchy: a sans-IO state machine
(B §10, R-HIE-6, A-27).

Events go in (``set_parent``, ``received``), actions come out: control messages to send and
neighbours whose proxies must be resynchronised or forgotten. The caller sends, persists
(``records``) and applies the proxy consequences.

1. ``ALTER QMGR PARENT(P)`` on C: C records P as STARTING and sends ``Register`` to P.
2. P records child C (ACTIVE) and answers ``Registered``; C marks P ACTIVE. Both resync.
3. ``PARENT('')``: C forgets P at once and sends ``Deregister``; P forgets C when it arrives.
4. ``PARENT(Q)`` while P: deregister from P, register with Q.
5. A ``Register`` or ``Registered`` that cannot be sent leaves the relation in ERROR; it is sent
   again later (``retry``).
6. PARENT of the queue manager's own name is refused; other cycles are allowed (B §14 applies).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.network.pubsub.protocol import ControlMessage, Deregister, Register, Registered
from mqlite.core.network.pubsub.proxy_rules import CHILD, PARENT, Link

__all__ = ["ACTIVE", "ERROR", "STARTING", "Forget", "Hierarchy", "Relation", "Resync", "Send"]

STARTING = "STARTING"
ACTIVE = "ACTIVE"
ERROR = "ERROR"


@dataclass
class Relation:
    name: str
    status: str = STARTING
    qmid: str = ""


@dataclass(frozen=True)
class Send:
    target: str
    message: ControlMessage


@dataclass(frozen=True)
class Resync:
    """Send ``neighbour`` every proxy this queue manager should hold there."""

    neighbour: str


@dataclass(frozen=True)
class Forget:
    """``neighbour`` is no longer a hierarchy neighbour: drop the proxies held from it."""

    neighbour: str


Action = Send | Resync | Forget


class Hierarchy:
    def __init__(self, name: str, qmid: str) -> None:
        self.name = name
        self.qmid = qmid
        self.parent: Relation | None = None
        self.children: dict[str, Relation] = {}
        self._neighbours: dict[str, Link] | None = None  # (asked at every publication; each event drops it)

    # -- events ---------------------------------------------------------------------------------
    def set_parent(self, parent: str) -> list[Action]:
        """ALTER QMGR PARENT(parent); '' disconnects."""
        self._neighbours = None
        parent = parent.strip()
        if parent == self.name:
            raise MQError(C.MQRCCF_Q_MGR_NAME_ERROR, f"a queue manager cannot be its own parent ({parent})")
        old = self.parent
        if old is not None and old.name == parent:
            return []
        actions: list[Action] = []
        if old is not None:
            self.parent = None
            if old.name not in self.children:  # (a cycle of two: still a neighbour as a child)
                actions.append(Forget(old.name))
            actions.append(Send(old.name, Deregister(self.name)))
        if parent:
            self.parent = Relation(parent)
            actions.append(Send(parent, Register(self.name, self.qmid)))
        return actions

    def received(self, message: ControlMessage) -> list[Action]:
        """A hierarchy message from SYSTEM.INTER.QMGR.CONTROL."""
        self._neighbours = None
        if isinstance(message, Register):
            child = message.child
            if child == self.name:
                return []
            known = self.children.get(child)
            self.children[child] = Relation(child, ACTIVE, message.qmid)
            actions: list[Action] = [Send(child, Registered(self.name, self.qmid))]
            if known is not None and known.qmid != message.qmid:
                actions.insert(0, Forget(child))  # a recreated child: what it had is gone
            return [*actions, Resync(child)]
        if isinstance(message, Registered):
            parent = self.parent
            if parent is None or parent.name != message.parent:
                return []  # an answer to a relation given up since
            parent.status, parent.qmid = ACTIVE, message.qmid
            return [Resync(parent.name)]
        if isinstance(message, Deregister):
            if self.children.pop(message.child, None) is None:
                return []
            still_parent = self.parent is not None and self.parent.name == message.child
            return [] if still_parent else [Forget(message.child)]
        return []

    def send_failed(self, target: str) -> None:
        """A Register or Registered could not be put on its way (no route): status ERROR."""
        self._neighbours = None
        relation = self.children.get(target) if (self.parent is None or self.parent.name != target) else self.parent
        if relation is not None:
            relation.status = ERROR

    def retry(self) -> list[Action]:
        """Relations in ERROR try again."""
        self._neighbours = None
        actions: list[Action] = []
        if self.parent is not None and self.parent.status == ERROR:
            self.parent.status = STARTING
            actions.append(Send(self.parent.name, Register(self.name, self.qmid)))
        for child in self.children.values():
            if child.status == ERROR:
                child.status = ACTIVE
                actions += [Send(child.name, Registered(self.name, self.qmid)), Resync(child.name)]
        return actions

    # -- what others read -------------------------------------------------------------------------
    def neighbours(self) -> dict[str, Link]:
        """The active relations, as links to those queue managers: the same dict until an event
        changes them (do not change it)."""
        if self._neighbours is None:
            found: dict[str, Link] = {name: (CHILD, "") for name, r in self.children.items() if r.status == ACTIVE}
            if self.parent is not None and self.parent.status == ACTIVE:
                found[self.parent.name] = (PARENT, "")
            self._neighbours = found
        return self._neighbours

    def rows(self) -> list[dict[str, Any]]:
        """DISPLAY PUBSUB's PARENT and CHILD records (B:R-DSP-1)."""
        rows = []
        if self.parent is not None:
            rows.append({"QMNAME": self.parent.name, "TYPE": "PARENT", "STATUS": self.parent.status})
        rows += [{"QMNAME": c.name, "TYPE": "CHILD", "STATUS": c.status} for c in sorted(
            self.children.values(), key=lambda r: r.name)]
        return rows

    # -- store ------------------------------------------------------------------------------------
    def records(self) -> dict[str, Any]:
        return {"parent": None if self.parent is None else [self.parent.name, self.parent.status, self.parent.qmid],
                "children": [[c.name, c.status, c.qmid] for c in self.children.values()]}

    def restore(self, record: Mapping[str, Any]) -> None:
        self._neighbours = None
        parent = record.get("parent")
        self.parent = Relation(*parent) if parent else None
        self.children = {c[0]: Relation(*c) for c in record.get("children", [])}
