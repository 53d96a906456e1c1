"""What a topic string resolves to as far as distribution cares (B §0.2, §7, §11, A-02): its
scopes and the cluster topic object it falls under, with that object's CLROUTE and topic hosts;
and a subscription pattern's SUBSCOPE.

Asked at every publication (the publisher's plan, the agent's delivery to subscriptions of scope
ALL), and derived only from the topic objects and the cluster records: each answer is kept until
one of those changes (the tree's ``version``, the repository's ``generation``) or the queue
manager's definitions do (``defs_version``).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

from mqlite.core.network.pubsub import proxy_rules
from mqlite.core.network.pubsub.cluster_topics import ClusterTopics
from mqlite.core.network.pubsub.proxy_rules import TopicRoute
from mqlite.core.topics.tree import TopicTree

__all__ = ["KEPT_AT_MOST", "Kept", "TopicRoutes"]

KEPT_AT_MOST = 4096  # answers kept per kind; past it they are all worked out again (many topics)

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Kept(Generic[K, V]):
    """Answers worked out once and kept while the version they were worked out with holds (at
    most ``KEPT_AT_MOST``: past it all are dropped, not the oldest, which costs nothing per hit)."""

    def __init__(self) -> None:
        self._version: object = None
        self._answers: dict[K, V] = {}

    def get(self, version: object, key: K, work_out: Callable[[], V]) -> V:
        if version != self._version:
            self._version = version
            self._answers.clear()
        try:
            return self._answers[key]  # (None may be an answer: no .get)
        except KeyError:
            if len(self._answers) >= KEPT_AT_MOST:
                self._answers.clear()
            found = self._answers[key] = work_out()
            return found


class TopicRoutes:
    def __init__(self, name: str, tree: TopicTree, clusters: ClusterTopics, defs_version: Callable[[], int]) -> None:
        self.name = name
        self.tree = tree
        self.clusters = clusters
        self.defs_version = defs_version
        self._routes: Kept[str, TopicRoute] = Kept()
        self._subscopes: Kept[tuple[str, bool], object] = Kept()

    def version(self) -> tuple[Any, ...]:
        """Changes whenever an answer may have."""
        return self.tree.version, self.clusters.generation(), self.clusters.state is None, self.defs_version()

    def route(self, topic: str) -> TopicRoute:
        """``topic`` is a topic string or a proxy's pattern."""
        return self._routes.get(self.version(), topic, lambda: self._work_out(topic))

    def subscope(self, pattern: str, char_scheme: bool) -> object:
        """The SUBSCOPE of the topic object a subscription to ``pattern`` resolves to (A-02)."""
        return self._subscopes.get(self.version(), (pattern, char_scheme), lambda: self.tree.resolved(
            self.tree.owner_of_pattern(pattern, char_scheme)).get("SUBSCOPE"))

    def _work_out(self, topic: str) -> TopicRoute:
        owner = self.tree.owner_of_pattern(topic, False)
        attrs = self.tree.resolved(owner)
        cluster = str(attrs.get("CLUSTER") or "").strip()
        clroute = str(attrs.get("CLROUTE") or "DIRECT")
        hosts: frozenset[str] = frozenset()
        if cluster and clroute == proxy_rules.TOPICHOST:  # the hosts of identical definitions
            hosts = self.tree.hosts_of(owner.topic, self.name) or self.clusters.hosts(cluster)
        return TopicRoute(subscope_all=attrs.get("SUBSCOPE") != "QMGR", pubscope_all=attrs.get("PUBSCOPE") != "QMGR",
                          cluster=cluster, clroute=clroute, hosts=hosts)
