"""Who a connection runs as: a user name and the groups it belongs to.

The server works these out at connect (the OS user of a local socket and its OS groups, or a
user the users file authenticated and its groups there, or a channel's MCAUSER) and hands core a
``Principal``; core never looks anything up itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field

ADMIN_GROUP = "mqm"  # IBM's administrators' group: holds every authority on every object


@dataclass(frozen=True, slots=True)
class Principal:
    user: str
    groups: frozenset[str] = field(default_factory=frozenset)

    @property
    def in_admin_group(self) -> bool:
        return ADMIN_GROUP in self.groups
