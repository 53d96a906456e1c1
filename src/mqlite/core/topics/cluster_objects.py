"""The cached copies of the cluster topic objects other queue managers defined (spec B §7.2,
§7.3): which copy the topic space uses, the hosts that hold identical definitions, the conflicts
to log, and the rows of DISPLAY TOPIC TYPE(CLUSTER). Pure: the repository hands over the whole
current set (``TopicTree.set_cluster_objects``) and the tree places the chosen copies on nodes.

Choice (B:R-CTD-5, R-CTD-8, R-CTD-9, A-18): a copy whose NAME is a local object's name is
ignored while that local object exists (kept for display); among the other copies of one name
the most recently arrived one is the object that name means here; among those, per topic
string, the most recently arrived one is used, unless a local object has that topic string.
"Identical" copies compare all attributes except the ones in ``NOT_COMPARED``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from mqlite.core import attributes

# What two definitions may differ in and still be identical (A-18: alteration date/time and the
# defining queue manager; creation date/time too, or a duplicated definition, B:R-CTD-13, would
# never be identical to the one it copies). Keys starting with "_" are never compared either.
NOT_COMPARED = frozenset({"ALTDATE", "ALTTIME", "CRDATE", "CRTIME", "CLUSQMGR", "ARRIVED", "CLUSDATE",
                          "CLUSTIME", "QMID"})
_NOT_SHOWN = frozenset({"NAME", "ARRIVED", "CLUSQMGR", "TOPIC", "TYPE"})
_LOCAL = float("inf")  # a local definition ranks above every copy (B:R-CTD-8)
ConflictKey = tuple[frozenset[str], frozenset[str]]  # (topic strings, hosts)


def comparable(attrs: Mapping[str, Any]) -> dict[str, Any]:
    """The attributes that decide whether two definitions are identical (A-18)."""
    return {k: v for k, v in attrs.items() if k not in NOT_COMPARED and not k.startswith("_")}


@dataclass(frozen=True, eq=False)
class ClusterCopy:
    """One cached copy (or, for conflicts, a local clustered object: ``host`` blank)."""

    key: str
    name: str
    topic: str
    host: str
    arrived: float
    attrs: Mapping[str, Any]

    @classmethod
    def of(cls, key: str, attrs: Mapping[str, Any]) -> ClusterCopy:
        return cls(key, str(attrs.get("NAME", "")), str(attrs.get("TOPICSTR", "")), str(attrs.get("CLUSQMGR", "")),
                   float(attrs.get("ARRIVED") or 0.0), dict(attrs))

    @classmethod
    def local(cls, name: str, attrs: Mapping[str, Any]) -> ClusterCopy:
        return cls("", name, str(attrs.get("TOPICSTR", "")), "", _LOCAL, {**attrs, "NAME": name})

    @property
    def cluster(self) -> str:
        return str(self.attrs.get("CLUSTER") or "").strip()

    def rank(self) -> tuple[float, str]:
        return self.arrived, self.key  # arrivals are serialised; the key only makes it total

    def who(self) -> str:
        return "this queue manager's own" if not self.host else f"{self.host}'s"


class ClusterObjects:
    """Every cached copy, and the ones the topic space uses."""

    def __init__(self) -> None:
        self.copies: dict[str, ClusterCopy] = {}
        self.by_name: dict[str, ClusterCopy] = {}  # object name -> the copy it means (no local of that name)
        self.effective: dict[str, ClusterCopy] = {}  # topic string -> the copy used (no local object there)
        self._conflicts: set[ConflictKey] = set()  # the ones already reported and still there

    def replace(self, objects: Mapping[str, Mapping[str, Any]]) -> None:
        self.copies = {key: ClusterCopy.of(key, attrs) for key, attrs in objects.items()}

    def select(self, local: Mapping[str, Mapping[str, Any]]) -> None:
        """Choose the copies used, given the local objects (name -> attrs)."""
        by_name: dict[str, ClusterCopy] = {}
        for copy in self.copies.values():
            if copy.name in local:  # "the remotely defined cluster topic object is ignored" (B:R-CTD-5)
                continue
            best = by_name.get(copy.name)
            if best is None or copy.rank() > best.rank():
                by_name[copy.name] = copy
        by_topic: dict[str, ClusterCopy] = {}
        for copy in by_name.values():
            if not copy.topic:  # a clustered SYSTEM.BASE.TOPIC never overrides the local one (B:R-CTD-7)
                continue
            best = by_topic.get(copy.topic)
            if best is None or copy.rank() > best.rank():
                by_topic[copy.topic] = copy
        local_topics = {str(attrs.get("TOPICSTR", "")) for attrs in local.values()}
        self.by_name = by_name
        self.effective = {topic: copy for topic, copy in by_topic.items() if topic not in local_topics}

    def identical_hosts(self, topic: str, reference: Mapping[str, Any]) -> set[str]:
        """The defining queue managers of the copies at ``topic`` identical to ``reference``."""
        wanted = comparable(reference)
        return {c.host for c in self.copies.values() if c.topic == topic and c.host and comparable(c.attrs) == wanted}

    def rows(self, generic: str) -> list[dict[str, Any]]:
        """DISPLAY TOPIC TYPE(CLUSTER): every copy whose name matches, ignored ones too (A-47)."""
        rows = []
        for copy in sorted(self.copies.values(), key=lambda c: (c.name, c.host, c.key)):
            if not attributes.generic_match(generic, copy.name):
                continue
            row: dict[str, Any] = {"TOPIC": copy.name, "TYPE": "CLUSTER", "CLUSQMGR": copy.host}
            row.update((k, v) for k, v in copy.attrs.items() if k not in _NOT_SHOWN and not k.startswith("_"))
            row["CLUSDATE"], row["CLUSTIME"] = attributes.date_and_time(copy.arrived)
            rows.append(row)
        return rows

    def conflicts(self, local: Mapping[str, Mapping[str, Any]]) -> list[str]:
        """Log lines for the conflicts not reported yet (B:R-CTD-9, R-CTD-10, R-CTD-15, A-18): two
        definitions of one topic string or one name, from different queue managers, that are not
        identical (another cluster included). The local clustered objects take part; a local
        object without CLUSTER is an override, not a conflict (B:R-CTD-11). A conflict is
        reported once while it lasts; one that went away and comes back is reported again."""
        entries = [*self.copies.values(),
                   *(ClusterCopy.local(name, attrs) for name, attrs in local.items()
                     if str(attrs.get("CLUSTER") or "").strip())]
        groups: dict[tuple[str, str], list[ClusterCopy]] = {}
        for entry in entries:
            groups.setdefault(("T", entry.topic), []).append(entry)
            groups.setdefault(("N", entry.name), []).append(entry)
        found: dict[ConflictKey, tuple[ClusterCopy, ClusterCopy]] = {}
        for group in groups.values():
            for pair in _pairs(group):
                a, b = pair
                if a.host != b.host and comparable(a.attrs) != comparable(b.attrs):
                    found.setdefault((frozenset((a.topic, b.topic)), frozenset((a.host, b.host))), pair)
        new = [pair for key, pair in found.items() if key not in self._conflicts]
        self._conflicts = set(found)
        local_topics = {str(attrs.get("TOPICSTR", "")) for attrs in local.values()}
        return sorted(_conflict_line(a, b, bool({a.name, b.name} & local.keys() or {a.topic, b.topic} & local_topics))
                      for a, b in new)


def _pairs(group: list[ClusterCopy]) -> Iterable[tuple[ClusterCopy, ClusterCopy]]:
    for i, first in enumerate(group):
        for second in group[i + 1:]:
            yield first, second


def _conflict_line(a: ClusterCopy, b: ClusterCopy, overridden: bool) -> str:
    """``overridden``: a local object of either name or topic string is what this queue manager uses."""
    older, newer = sorted((a, b), key=ClusterCopy.rank)
    names = f"cluster topic {newer.name!r}" if a.name == b.name else f"cluster topics {older.name!r} and {newer.name!r}"
    topics = (f"topic string {newer.topic!r}" if a.topic == b.topic
              else f"topic strings {older.topic!r} and {newer.topic!r}")
    clusters = (f"cluster {newer.cluster!r}" if a.cluster == b.cluster
                else f"clusters {older.cluster!r} and {newer.cluster!r}")
    if not newer.host or overridden:
        used = "this queue manager's own local definition is used"
    else:
        used = f"the most recently received, {newer.host}'s, is used"
    return (f"conflicting definitions of {names} ({topics}, {clusters}): {older.who()} and {newer.who()} "
            f"differ; {used}")
