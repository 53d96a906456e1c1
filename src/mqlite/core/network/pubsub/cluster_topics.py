"""What distributed publish/subscribe reads of the clusters a queue manager is in (B §7, §8):
which are publish/subscribe clusters, their members, the topic hosts of TOPICHOST objects, and
the cached cluster topic objects as the topic tree takes them.

The repository (``cluster_service.ClusterState``) holds the records; this view only reads them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mqlite.core.network.clusters.service import ClusterState
from mqlite.core.network.pubsub.proxy_rules import TOPICHOST
from mqlite.core.topics.tree import TopicTree

__all__ = ["ClusterTopics"]

_WHEN_ALTERED = ("ALTDATE", "ALTTIME", "CRDATE", "CRTIME")


class ClusterTopics:
    def __init__(self, name: str, tree: TopicTree) -> None:
        self.name = name
        self.tree = tree
        self.state: ClusterState | None = None  # set once the cluster service is built
        self._arrived: dict[str, tuple[dict[str, Any], float]] = {}  # copy key -> (attributes, arrival)

    def pubsub_clusters(self) -> set[str]:
        """The clusters this queue manager is in that have a cluster topic object (a cluster
        becomes a publish/subscribe cluster with its first one, B:R-CLU-2)."""
        if self.state is None:
            return set()
        member_of = self.state.member_of()
        found = {r.cluster for r in self.state.live("TOPIC") if r.cluster in member_of}
        found |= {str(a.get("CLUSTER") or "").strip() for a in self.tree.objects.values()} & member_of
        return found

    def members(self) -> dict[str, set[str]]:
        """Each publish/subscribe cluster's other members this queue manager knows (B:R-CLU-3)."""
        if self.state is None:
            return {}
        return {cluster: {r.owner for r in self.state.live("QMGR", cluster=cluster)} - {self.name}
                for cluster in self.pubsub_clusters()}

    def generation(self) -> int:
        """Bumped by the repository whenever a record is kept or dropped."""
        return self.state.generation if self.state is not None else 0

    def member_of(self) -> set[str]:
        return self.state.member_of() if self.state is not None else set()

    def known_member(self, qmgr: str, cluster: str) -> bool:
        """Whether this queue manager holds ``qmgr``'s live membership record of ``cluster``."""
        if self.state is None:
            return False
        record = self.state.cache.get(("QMGR", cluster, qmgr, qmgr))
        return record is not None and not record.deleted

    def left(self, qmgr: str, cluster: str) -> bool:
        """Whether ``qmgr`` was a member of ``cluster`` and is no more (its record withdrawn)."""
        if self.state is None:
            return True
        record = self.state.cache.get(("QMGR", cluster, qmgr, qmgr))
        return record is not None and record.deleted

    def hosts(self, cluster: str) -> frozenset[str]:
        """The topic hosts of ``cluster``'s TOPICHOST objects: the queue managers that define one,
        this one included (B:R-RTE-5)."""
        hosts: set[str] = set()
        if self.state is not None:
            hosts = {r.owner for r in self.state.live("TOPIC", cluster=cluster) if r.attrs.get("CLROUTE") == TOPICHOST}
        if any(str(a.get("CLUSTER") or "").strip() == cluster and a.get("CLROUTE") == TOPICHOST
               for a in self.tree.objects.values()):
            hosts.add(self.name)
        return frozenset(hosts)

    def topic_copies(self, now: float) -> dict[str, dict[str, Any]]:
        """The cached cluster topic objects of other members, as ``TopicTree.set_cluster_objects``
        takes them: each copy with its name, cluster, defining queue manager and when a new or
        changed definition of it arrived (a refresh of an unchanged one is no arrival, A-18)."""
        if self.state is None:
            return {}
        copies: dict[str, dict[str, Any]] = {}
        arrived: dict[str, tuple[dict[str, Any], float]] = {}
        member_of = self.state.member_of()
        for record in self.state.live("TOPIC"):
            if record.owner == self.name or record.cluster not in member_of:
                continue
            key = f"{record.cluster}/{record.name}/{record.owner}"
            attrs = dict(record.attrs)
            known = self._arrived.get(key)
            when = known[1] if known is not None and same_definition(known[0], attrs) else now
            arrived[key] = (attrs, when)
            copies[key] = {**attrs, "NAME": record.name, "CLUSTER": record.cluster, "CLUSQMGR": record.owner,
                           "ARRIVED": when}
        self._arrived = arrived
        return copies


def same_definition(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """Identical cluster topic definitions: equal but for when they were made and altered (A-18)."""
    return ({k: v for k, v in a.items() if k not in _WHEN_ALTERED}
            == {k: v for k, v in b.items() if k not in _WHEN_ALTERED})
