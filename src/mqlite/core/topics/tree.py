"""The topic tree: nodes created on demand, administrative topic objects, retained publications,
attribute inheritance (ASPARENT) and the removal of unused nodes after TREELIFE.

A node is one level of a topic string; the root (``''``, SYSTEM.BASE.TOPIC's place) is not a
level, so ``'/a'`` is the root's child ``''`` and then ``'a'`` (spec A, A-11). Nodes hold only
what makes them *used* (spec A R-TT-6): an associated topic object, a retained publication,
children, open publishers and subscriptions counted on them. Whether a wildcard subscription
still matches a node (the sixth condition) is asked of the subscription index at sweep time.

The topic space is built from the local topic objects and the cached copies of other queue
managers' cluster topic objects (spec B R-CTD-3): a node whose topic string only a cluster copy
names holds that copy (``cluster``) and counts as an administrative node; a local object at the
same topic string always wins (B:R-CTD-8). Which copies are used: ``cluster_objects``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from mqlite.core import attributes
from mqlite.core.topics.cluster_objects import ClusterCopy, ClusterObjects
from mqlite.core.topics.matching import compile_matcher
from mqlite.core.topics.strings import levels, literal_prefix
from mqlite.message import Message

BASE_TOPIC = "SYSTEM.BASE.TOPIC"
# Attributes a node takes from the closest topic object that does not say ASPARENT (spec A R-ATO-4).
# WILDCARD is not among them: it acts on its own node's subtree (R-WB-2).
INHERITED = ("DURSUB", "PUB", "SUB", "DEFPRTY", "DEFPERSIST", "DEFPRESP", "MDURMDL", "MNDURMDL",
             "NPMSGDLV", "PMSGDLV", "PUBSCOPE", "SUBSCOPE", "CLUSTER", "PROXYSUB", "CLROUTE",
             "GLOBAL", "MAXMSGS", "MAXBYTES", "OVERFLOW")
_BLANK_INHERITS = ("MDURMDL", "MNDURMDL", "CLUSTER")


class TopicNode:
    """One node; ``topic`` is rebuilt from the parent chain (the level string is shared with the
    parent's dict key, so a million nodes do not hold a million full topic strings)."""

    __slots__ = (
        "children",
        "cluster",
        "name",
        "object_name",
        "parent",
        "publishers",
        "retained",
        "subscribers",
        "unused_since",
    )

    def __init__(self, name: str, parent: TopicNode | None) -> None:
        self.name = name
        self.parent = parent
        self.children: dict[str, TopicNode] | None = None
        self.object_name: str | None = None
        self.cluster: ClusterCopy | None = None  # the cluster copy used here (no local object here)
        self.retained: Message | None = None
        self.publishers = 0
        self.subscribers = 0
        self.unused_since = 0.0

    @property
    def topic(self) -> str:
        parts: list[str] = []
        node: TopicNode | None = self
        while node is not None and node.parent is not None:
            parts.append(node.name)
            node = node.parent
        return "/".join(reversed(parts))

    @property
    def is_root(self) -> bool:
        return self.parent is None

    def depth(self) -> int:
        count, node = 0, self.parent
        while node is not None:
            count, node = count + 1, node.parent
        return count

    def in_use(self) -> bool:
        """Conditions 1-5 of spec A R-TT-6 (the wildcard one is checked by the sweep)."""
        return bool(self.object_name or self.cluster is not None or self.retained is not None or self.children
                    or self.publishers or self.subscribers or self.parent is None)


class TopicTree:
    """Nodes, their topic objects and the attribute resolution over them."""

    def __init__(self) -> None:
        self.root = TopicNode("", None)
        self.root.object_name = BASE_TOPIC
        self.objects: dict[str, dict[str, Any]] = {}  # topic object name -> attrs (TOPICSTR...)
        self._owner_cache: dict[str, dict[str, Any]] = {}  # object name (or "\0" + copy key) -> resolved attrs
        self._blocked: frozenset[str] | None = None
        self._by_topic: dict[str, str] | None = None
        self.candidates: set[TopicNode] = set()  # nodes that may be unused (checked by sweep)
        self.retained_count = 0
        self.cluster = ClusterObjects()  # cached cluster topic objects (spec B §7.2)
        self._cluster_nodes: dict[str, TopicNode] = {}  # topic string -> node holding the copy used
        self.version = 0  # bumped by ``changed``: what others derived from the objects is stale

    # -- nodes -------------------------------------------------------------------------------
    def node(self, topic: str, now: float = 0.0) -> TopicNode:
        """The node of ``topic``, created with its missing ancestors (spec A R-TT-2)."""
        return self.node_at(levels(topic), now)

    def node_at(self, topic_levels: Sequence[str], now: float = 0.0) -> TopicNode:
        """The node of a topic given as its levels (an empty sequence is the root)."""
        node = self.root
        for level in topic_levels:
            children = node.children
            if children is None:
                children = node.children = {}
            child = children.get(level)
            if child is None:
                child = children[level] = TopicNode(level, node)
                child.unused_since = now
                self.candidates.add(child)
            node = child
        return node

    def find(self, topic: str) -> TopicNode | None:
        node: TopicNode | None = self.root
        for level in levels(topic):
            children = node.children if node is not None else None
            if children is None:
                return None
            node = children.get(level)
        return node

    def walk(self, start: TopicNode | None = None, skip: frozenset[str] = frozenset()) -> Iterator[TopicNode]:
        """Every node below ``start`` (the whole tree by default), parents first; a node below
        ``start`` whose topic is in ``skip`` is left out with everything below it."""
        ends = {topic.rsplit("/", 1)[-1] for topic in skip}  # (a node's topic is built only for these)
        stack = [start or self.root]
        while stack:
            node = stack.pop()
            if node is not start and node.name in ends and node.topic in skip:
                continue
            if node is not self.root or start is not None:
                yield node
            if node.children:
                stack.extend(reversed(list(node.children.values())))

    def matching(self, pattern: str, char_scheme: bool = False, blocks: bool = False) -> Iterator[TopicNode]:
        """Existing nodes whose topic matches ``pattern`` (TPSTATUS, retained deliveries), visiting
        only the subtree below the pattern's literal prefix. ``blocks``: the WILDCARD(BLOCK)
        topics deeper than that prefix hide themselves and their subtrees (spec A R-WB-5), as
        IBM's DISPLAY TPSTATUS shows no $SYS/MQ node for '#' (SYSTEM.ADMIN.TOPIC)."""
        prefix = literal_prefix(pattern, char_scheme)
        start = self.find("/".join(prefix)) if prefix else None
        if prefix and start is None:
            return
        test = compile_matcher(pattern, char_scheme)
        skip = self.blocked_topics() if blocks else frozenset()
        for node in self.walk(start, skip):  # the root ('', SYSTEM.BASE.TOPIC) is not a topic
            if test(node.topic):
                yield node

    def released(self, node: TopicNode, now: float) -> None:
        """Something that kept ``node`` in use went away: it may now be unused."""
        if not node.in_use():
            node.unused_since = now
            self.candidates.add(node)

    def sweep(self, now: float, treelife: float, covered: Callable[[str], bool]) -> int:
        """Remove nodes unused for ``treelife`` seconds (spec A R-TT-6..8); returns how many.
        ``covered(topic)`` says whether a wildcard subscription matches the topic."""
        removed = 0
        for node in list(self.candidates):
            if node.in_use() or (node.parent is None):
                self.candidates.discard(node)
                continue
            if now - node.unused_since < treelife:
                continue
            if covered(node.topic):
                node.unused_since = now  # in use by a wildcard subscription: look again later
                continue
            self.candidates.discard(node)
            parent = node.parent
            assert parent is not None and parent.children is not None
            del parent.children[node.name]
            if not parent.children:
                parent.children = None
            removed += 1
            self.released(parent, now)  # the parent waits its own TREELIFE (spec A A-12)
        return removed

    # -- topic objects -----------------------------------------------------------------------
    def associate(self, name: str, attrs: dict[str, Any], now: float = 0.0) -> None:
        """Bind a topic object to the node of its TOPICSTR (spec A R-TT-3)."""
        self.objects[name] = attrs
        topic = str(attrs.get("TOPICSTR", ""))
        node = self.node(topic, now) if topic else self.root
        node.object_name = name
        self.changed(now)

    def dissociate(self, name: str, now: float = 0.0) -> None:
        attrs = self.objects.pop(name, None)
        if attrs is None:
            return
        topic = str(attrs.get("TOPICSTR", ""))
        node = self.find(topic) if topic else self.root
        if node is not None and node.object_name == name:
            node.object_name = None
            self.released(node, now)
        self.changed(now)

    def object_for_topic(self, topic: str) -> str | None:
        node = self.find(topic) if topic else self.root
        return node.object_name if node is not None else None

    def changed(self, now: float = 0.0) -> None:
        """A topic object was defined, altered or deleted, or the cluster copies changed: resolved
        values are stale, and which copies are used may have changed (B:R-CTD-5, SC-31)."""
        self.version += 1
        self._owner_cache.clear()
        self._blocked = None
        self._by_topic = None
        if self.cluster.copies or self._cluster_nodes:
            self._place_cluster_objects(now)

    # -- cluster topic objects (spec B §7.2, §7.3) --------------------------------------------
    def set_cluster_objects(self, objects: Mapping[str, Mapping[str, Any]], now: float = 0.0) -> list[str]:
        """The complete current set of cached cluster topic objects: key -> attributes (a local
        object's, plus NAME, CLUSQMGR and ARRIVED). Returns the log lines of new conflicts."""
        self.cluster.replace(objects)
        self.changed(now)
        return self.cluster_conflicts()

    def cluster_conflicts(self) -> list[str]:
        """Log lines for conflicting definitions not reported yet (after a local TOPIC change too)."""
        return self.cluster.conflicts(self.objects)

    def _place_cluster_objects(self, now: float) -> None:
        self.cluster.select(self.objects)
        placed: dict[str, TopicNode] = {}
        for topic, copy in self.cluster.effective.items():
            node = placed[topic] = self.node(topic, now)
            node.cluster = copy
        for topic, node in self._cluster_nodes.items():
            if topic not in placed:
                node.cluster = None
                self.released(node, now)
        self._cluster_nodes = placed

    def cluster_objects_effective(self) -> dict[str, Mapping[str, Any]]:
        """Topic string -> attributes of the cluster copy used there (no local object there)."""
        return {topic: copy.attrs for topic, copy in self.cluster.effective.items()}

    def cluster_object(self, name: str) -> Mapping[str, Any] | None:
        """The cluster copy an object name means here, when no local object has that name
        (the most recently arrived of that name, B:R-CTD-5)."""
        copy = self.cluster.by_name.get(name) if name not in self.objects else None
        return copy.attrs if copy is not None else None

    def hosts_of(self, topic: str, local_qmgr: str = "") -> frozenset[str]:
        """The queue managers defining the object used at ``topic`` (an object's exact topic
        string): the CLUSQMGRs of the copies there identical to it (A-18), and ``local_qmgr``
        when a local clustered object is the one used (B:R-RTE-13). Empty if no object is there."""
        name = self.objects_by_topic().get(topic)
        if name is not None:
            reference: Mapping[str, Any] = {**self.objects[name], "NAME": name}
            clustered = bool(str(reference.get("CLUSTER") or "").strip())
            hosts = {local_qmgr} if local_qmgr and clustered else set()
        else:
            copy = self.cluster.effective.get(topic)
            if copy is None:
                return frozenset()
            reference, hosts = copy.attrs, set()
        return frozenset(hosts | self.cluster.identical_hosts(topic, reference))

    def cluster_topic_rows(self, generic: str) -> list[dict[str, Any]]:
        """DISPLAY TOPIC TYPE(CLUSTER)'s rows: every cached copy whose name matches (A-47)."""
        return self.cluster.rows(generic)

    def admin_name(self, node: TopicNode) -> str | None:
        """The name of the object administering ``node``: local, else the cluster copy's."""
        if node.object_name is not None and node.object_name in self.objects:
            return node.object_name
        return node.cluster.name if node.cluster is not None else None

    def objects_by_topic(self) -> dict[str, str]:
        """TOPICSTR -> topic object name (the authority walk's input), rebuilt after a change."""
        if self._by_topic is None:
            self._by_topic = {str(attrs.get("TOPICSTR", "")): name for name, attrs in self.objects.items()}
        return self._by_topic

    def owner(self, node: TopicNode) -> TopicNode:
        """The closest node at or above ``node`` with a topic object, local or a cluster copy used
        there (the root if none)."""
        current: TopicNode | None = node
        while current is not None:
            local = current.object_name is not None and current.object_name in self.objects
            if local or current.cluster is not None:
                return current
            current = current.parent
        return self.root

    def owner_of_pattern(self, pattern: str, char_scheme: bool) -> TopicNode:
        """Spec A R-ATO-5: truncate at the first wildcard, then the closest object above; but an
        object whose TOPICSTR is the whole pattern comes first (spec B A-02: a subscription to
        topic object A 'Football/result/#' has A's attributes)."""
        node: TopicNode = self.root
        prefix = literal_prefix(pattern, char_scheme)
        for level in prefix:
            child = node.children.get(level) if node.children else None
            if child is None:
                break
            node = child
        if len(prefix) < len(levels(pattern)):
            exact = self.find(pattern)
            if exact is not None and self.owner(exact) is exact:
                return exact
        return self.owner(node)

    def resolved(self, node: TopicNode) -> Mapping[str, Any]:
        """Every inherited attribute's effective value for ``node`` (spec A R-ATO-4, R-ATO-9)."""
        owner = self.owner(node)
        key = owner.object_name
        if key is None or key not in self.objects:  # a cluster copy's (no local name has a NUL), or the base
            key = "\0" + owner.cluster.key if owner.cluster is not None else BASE_TOPIC
        cached = self._owner_cache.get(key)
        if cached is None:
            cached = self._owner_cache[key] = self._resolve(owner)
        return cached

    def _resolve(self, owner: TopicNode) -> dict[str, Any]:
        values: dict[str, Any] = {}
        current: TopicNode | None = owner
        while current is not None and len(values) < len(INHERITED):
            attrs = self._attrs_at(current)
            if attrs is not None:
                for attr in INHERITED:
                    if attr in values:
                        continue
                    value = attrs.get(attr, "ASPARENT")
                    if value == "ASPARENT" or (attr in _BLANK_INHERITS and not str(value).strip()):
                        continue
                    values[attr] = value
            current = current.parent
        for attr in INHERITED:  # SYSTEM.BASE.TOPIC's values, even when that object is gone
            values.setdefault(attr, attributes.SYSTEM_BASE_TOPIC.get(attr, ""))
        return values

    def _attrs_at(self, node: TopicNode) -> Mapping[str, Any] | None:
        """The attributes of the object at ``node``: the local one, else the cluster copy used."""
        attrs = self.objects.get(node.object_name) if node.object_name else None
        if attrs is None and node.cluster is not None:
            return node.cluster.attrs
        return attrs

    def blocked_topics(self) -> frozenset[str]:
        """Topic strings of the objects with WILDCARD(BLOCK), local or cluster copies used here
        (B:R-WCP-7): a subscription keeps the set that held when it was made (spec A R-WB-6), so
        it is one shared frozenset per topology."""
        if self._blocked is None:
            used = [*self.objects.values(), *(copy.attrs for copy in self.cluster.effective.values())]
            self._blocked = frozenset(
                str(attrs.get("TOPICSTR", "")) for attrs in used
                if attrs.get("WILDCARD") == "BLOCK" and attrs.get("TOPICSTR")
            )
        return self._blocked
