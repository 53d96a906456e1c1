"""The subscriptions a queue manager holds, the topic tree they keep in use, and the matching of a
publication's topic to them (spec A: topics, durability, WILDCARD; spec C §0.1).

Subscriptions live in ``subs_by_id``, ``subs_by_name`` (a name may repeat on different queues),
the index (``sub_index``) and a count on their tree node. Proxy subscriptions (the ones
neighbouring queue managers hold here, MQSUBTYPE_PROXY) are not among them: distributed
publish/subscribe (``core.network.pubsub.service``) keeps them, and ``watch`` tells it when a local
subscription comes or goes (``check_new`` first, to refuse one whose proxy cannot be sent).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Mapping
from typing import Any

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.objects import ObjectDefinitions
from mqlite.core.pubsub.subscription import Subscription
from mqlite.core.topics.index import SubscriptionIndex
from mqlite.core.topics.strings import (
    build_topic_string,
    has_char_wildcards,
    has_topic_wildcards,
    levels,
    literal_prefix,
)
from mqlite.core.topics.tree import TopicTree
from mqlite.message import Message, MessageDescriptor

TREE_SWEEP_EVERY = 10.0
MATCH_CACHE = 4096  # publication topics whose matches are kept


class Subscriptions:
    """The topic tree, the subscriptions and their index, managed queues, subscription expiry."""

    def __init__(self, objects: ObjectDefinitions) -> None:
        self.objects = objects
        self.clock = objects.clock
        self.tree = TopicTree()
        self.sub_index: SubscriptionIndex[Subscription] = SubscriptionIndex()
        # Publication topics' levels and index matches, until a subscription comes or goes.
        self.topic_matches: dict[str, tuple[tuple[str, ...], tuple[Subscription, ...]]] = {}
        self.subs_by_id: dict[bytes, Subscription] = {}
        self.subs_by_name: dict[str, list[Subscription]] = {}
        self.managed_queues: dict[str, Subscription] = {}  # managed queue name -> its subscription
        self.last_tree_sweep = 0.0
        self._expiries: list[tuple[float, bytes]] = []  # heap of (expires_at, sub_id)
        self.watch: Callable[[Subscription, bool], None] | None = None  # (subscription, added)
        self.check_new: Callable[[Subscription], None] | None = None  # raises to refuse a new one

    def resolve_topic(self, object_name: str, object_string: str) -> tuple[str, str]:
        """The full topic string of an (object, string) pair (spec A §8) and the object used: a
        local object, else the cluster topic object of that name cached here (B:R-CTD-5 item 3)."""
        object_name = object_name.strip()
        if object_name:
            attrs: Mapping[str, Any] | None = self.tree.objects.get(object_name)
            if attrs is None:
                attrs = self.tree.cluster_object(object_name)
            if attrs is None:
                raise MQError(C.MQRC_UNKNOWN_OBJECT_NAME, f"topic object {object_name} is not defined")
            return build_topic_string(str(attrs.get("TOPICSTR", "")), object_string), object_name
        return build_topic_string(None, object_string), ""

    def match(self, topic: str) -> tuple[tuple[str, ...], tuple[Subscription, ...]]:
        """A topic's levels and the subscriptions whose pattern matches it, kept in ``topic_matches``
        until a subscription comes or goes (the publisher looks there first; what else decides a
        copy is checked per publication)."""
        if len(self.topic_matches) >= MATCH_CACHE:
            self.topic_matches.clear()
        found = self.topic_matches[topic] = (levels(topic), tuple(self.sub_index.match(topic)))
        return found

    def place(self, sub: Subscription, index: SubscriptionIndex[Subscription]) -> None:
        """Put a subscription in ``index`` and keep its tree node (the literal prefix of its pattern)
        in use, with its WILDCARD(BLOCK) snapshot: for this registry's subscriptions and the proxy
        subscriptions distributed publish/subscribe keeps in an index of its own."""
        if sub.char_scheme:
            pattern_levels = None
            prefix = literal_prefix(sub.topic, True)
        else:  # one split shared by the tree's and the index's nodes
            pattern_levels = levels(sub.topic)
            wild = [i for i, level in enumerate(pattern_levels) if level in ("#", "+")]
            prefix = pattern_levels[:wild[0]] if wild else pattern_levels
        sub.prefix_depth = len(prefix)
        if sub.wildcard:
            sub.blocked = self.tree.blocked_topics()
        node = self.tree.node_at(prefix, self.clock())
        node.subscribers += 1
        sub.node = node
        index.add(sub, sub.topic, sub.char_scheme, pattern_levels)

    def release(self, sub: Subscription, index: SubscriptionIndex[Subscription]) -> None:
        """The inverse of ``place``."""
        index.remove(sub, sub.topic, sub.char_scheme)
        if sub.node is not None:
            sub.node.subscribers -= 1
            self.tree.released(sub.node, self.clock())

    def add(self, sub: Subscription, persist: bool = True) -> None:
        """Index a subscription: matching, names, the tree node it keeps in use, the store."""
        self.place(sub, self.sub_index)
        self.topic_matches.clear()
        self.subs_by_id[sub.sub_id] = sub
        if sub.name:
            self.subs_by_name.setdefault(sub.name, []).append(sub)
        if sub.durable and persist:
            self.objects.outbox.tx.put_record("sub", sub.sub_id.hex(), sub.to_record())
        self.schedule_expiry(sub)
        if self.watch is not None:
            self.watch(sub, True)

    def schedule_expiry(self, sub: Subscription) -> None:
        if sub.expires_at:
            heapq.heappush(self._expiries, (sub.expires_at, sub.sub_id))

    def remove(self, sub: Subscription) -> None:
        """The subscription ends (MQCLOSE REMOVE_SUB, DELETE SUB, expiry, end of its connection).
        A managed queue goes with it once its handle is closed (spec C R-CLS-6)."""
        if self.subs_by_id.pop(sub.sub_id, None) is None:
            return
        self.release(sub, self.sub_index)
        self.topic_matches.clear()
        if sub.name:
            named = self.subs_by_name.get(sub.name, [])
            if sub in named:
                named.remove(sub)
            if not named:
                self.subs_by_name.pop(sub.name, None)
        if sub.durable:
            self.objects.outbox.tx.delete_record("sub", sub.sub_id.hex())
        if sub.managed and sub.managed_handle is None:
            self.drop_managed_queue(sub)
        if self.watch is not None:
            self.watch(sub, False)

    def drop_managed_queue(self, sub: Subscription) -> None:
        self.managed_queues.pop(sub.dest, None)
        if sub.dest in self.objects.qdefs:
            self.objects.remove_queue(sub.dest)

    # -- time ---------------------------------------------------------------------------------
    def tick(self, now: float) -> None:
        """Expire subscriptions (spec A R-SUB-5) and remove unused topic nodes (TREELIFE)."""
        expired = 0
        heap = self._expiries
        while heap and heap[0][0] <= now:
            expires_at, sub_id = heapq.heappop(heap)
            sub = self.subs_by_id.get(sub_id)
            if sub is not None and sub.expires_at == expires_at:  # else altered or gone since
                self.remove(sub)
                expired += 1
        if now - self.last_tree_sweep >= TREE_SWEEP_EVERY or expired:
            self.last_tree_sweep = now
            treelife = float(self.objects.attrs.get("TREELIFE", 1800))
            self.tree.sweep(now, treelife, self._covered_by_wildcard)

    def _covered_by_wildcard(self, topic: str) -> bool:
        return any(s.wildcard for s in self.sub_index.match(topic))

    # -- restart -------------------------------------------------------------------------------
    def restore(self, subs: dict[str, Any], retained: dict[str, Any]) -> None:
        """Rebuild the tree from retained publications and durable subscriptions (the topic
        objects came with the other definitions, spec A R-TT-9); WILDCARD(BLOCK) snapshots are
        taken afresh (TV-WB-21)."""
        now = self.clock()
        for topic, value in retained.items():
            node = self.tree.node(topic, now) if topic else self.tree.root
            node.retained = Message(MessageDescriptor.from_list(value["md"]), value["body"], dict(value["props"]))
            self.tree.retained_count += 1
        for record in subs.values():
            sub = Subscription.from_record(record)
            sub.wildcard = has_char_wildcards(sub.topic) if sub.char_scheme else has_topic_wildcards(sub.topic)
            self.add(sub, persist=False)
            if sub.managed:
                self.managed_queues[sub.dest] = sub
