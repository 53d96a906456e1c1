"""What a topic string resolves to as far as distribution cares (B §0.2, §7, §11, A-02): its
scopes and the cluster topic object it falls under, with that object's CLROUTE and topic hosts;
and a subscription pattern's SUBSCOPE.

Asked at every publication (the publisher's plan, the agent's delivery to subscriptions of scope
ALL), and derived only from the topic objects and the cluster records: each answer is kept until
one of those changes (the tree's ``version``, the repository's ``generation``) or the queue
manager's definitions do (``defs_version``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mqlite.core.dist import proxy_rules
from mqlite.core.dist.proxy_rules import TopicRoute
from mqlite.core.dist.pubsub_clusters import ClusterTopics
from mqlite.core.topics.tree import TopicTree

__all__ = ["KEPT_AT_MOST", "TopicRoutes"]

KEPT_AT_MOST = 4096  # answers kept per kind; past it they are all worked out again (many topics)
_UNKNOWN = object()  # (a SUBSCOPE not worked out yet: None is an answer)


class TopicRoutes:
    def __init__(self, name: str, tree: TopicTree, clusters: ClusterTopics, defs_version: Callable[[], int]) -> None:
        self.name = name
        self.tree = tree
        self.clusters = clusters
        self.defs_version = defs_version
        self._key: tuple[Any, ...] = ()
        self._routes: dict[str, TopicRoute] = {}
        self._subscopes: dict[tuple[str, bool], object] = {}

    def version(self) -> tuple[Any, ...]:
        """Changes whenever an answer may have."""
        return self.tree.version, self.clusters.generation(), self.clusters.state is None, self.defs_version()

    def _fresh(self) -> None:
        key = self.version()
        if key != self._key:
            self._key = key
            self._routes.clear()
            self._subscopes.clear()

    def route(self, topic: str) -> TopicRoute:
        """``topic`` is a topic string or a proxy's pattern."""
        self._fresh()
        found = self._routes.get(topic)
        if found is None:
            if len(self._routes) >= KEPT_AT_MOST:
                self._routes.clear()
            found = self._routes[topic] = self._work_out(topic)
        return found

    def subscope(self, pattern: str, char_scheme: bool) -> object:
        """The SUBSCOPE of the topic object a subscription to ``pattern`` resolves to (A-02)."""
        self._fresh()
        key = (pattern, char_scheme)
        found = self._subscopes.get(key, _UNKNOWN)
        if found is _UNKNOWN:
            if len(self._subscopes) >= KEPT_AT_MOST:
                self._subscopes.clear()
            found = self._subscopes[key] = self.tree.resolved(self.tree.owner_of_pattern(pattern, char_scheme)).get(
                "SUBSCOPE")
        return found

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
