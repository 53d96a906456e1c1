"""A queue manager's part in distributed publish/subscribe: its neighbours, the proxy
subscriptions it holds for them and the ones it has sent them (B §1-§5, §10, §17).

The rules are pure and elsewhere (``proxy_rules``: which neighbour gets a proxy, which gets a
publication, fingerprints; ``hierarchy``: the parent/child protocol; ``pubsub_protocol``: the
control messages). This service keeps the state and turns events into control messages:

- a local subscription of scope ALL comes or goes (``local_changed``, from the registry): the
  interest in its proxy topic string changes; the first and the last one change what this queue
  manager wants from its neighbours (aggregation, B:R-PXY-1, R-PXY-2);
- a control message arrived on SYSTEM.INTER.QMGR.CONTROL (``receive``): proxies held from its
  sender are added, cancelled or replaced (resync), hierarchy relations change;
- definitions changed (``reevaluate``): topic objects' SUBSCOPE / PROXYSUB / CLUSTER, PSMODE,
  PARENT (B:R-PXY-13, A-09); the cluster's records changed (``cluster_changed``): cluster topic
  objects, members joining or leaving.

Neighbours are the active hierarchy relations and the other members of each publish/subscribe
cluster. After each event the wanted proxies of the affected topic strings are computed again per
neighbour and link and compared with what was sent (``sent``); one ``Proxies`` message per
neighbour and link carries the difference. A message that cannot be put on its way goes to SYSTEM.INTER.QMGR.FANREQ
and is retried from there (B:R-ERR-4 item 3). Proxies held survive a restart (store records
``proxy``); what was sent is not kept: at start every neighbour gets a resync (B:R-PXY-12).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.handles import Connection
from mqlite.core.network.pubsub import proxy_rules
from mqlite.core.network.pubsub.cluster_topics import ClusterTopics
from mqlite.core.network.pubsub.hierarchy import Forget, Hierarchy, Resync, Send
from mqlite.core.network.pubsub.local_interest import LocalInterest
from mqlite.core.network.pubsub.protocol import (
    CONTROL_QUEUE,
    FANREQ_QUEUE,
    FORMAT,
    HIERARCHY,
    PUBS_QUEUE,
    ControlMessage,
    Proxies,
    Register,
    Registered,
    encode,
)
from mqlite.core.network.pubsub.proxy_rules import Link, TopicRoute
from mqlite.core.network.pubsub.topic_routes import TopicRoutes
from mqlite.core.pubsub.delivery import refusal
from mqlite.core.pubsub.registry import Subscriptions
from mqlite.core.pubsub.subscription import Subscription, SubscriptionDetails
from mqlite.core.topics.index import SubscriptionIndex
from mqlite.core.topics.strings import has_topic_wildcards, levels
from mqlite.message import Message, MessageDescriptor

__all__ = ["AGENT_USER", "DistributedPubSub", "HeldProxy", "PutToQmgr"]

_REQUEST = Message(MessageDescriptor(), b"")  # what a fan-out request is, for the queue's refusal check
PROXY_KIND = "proxy"
STATE_QUEUE = "SYSTEM.HIERARCHY.STATE"
HIERARCHY_KIND = "hier"
AGENT_USER = "mqm"  # the distributed publish/subscribe agent's identity in what it sends (B:R-DPS-8)
AGENT_APPL = "amqfcxba"

# put(conn, qmgr, queue, md, pmo options, properties, body): the queue manager-name resolution of
# an MQOPEN with ObjectQMgrName (transmission queue named after it, alias, cluster, DEFXMITQ).
PutToQmgr = Callable[[Connection, str, str, MessageDescriptor, int, dict[str, Any], bytes], None]
_NO_RELATIONS: dict[str, Link] = {}


@dataclass(eq=False)
class HeldProxy:
    """A proxy subscription this queue manager holds for ``origin`` (B:R-PXY-10)."""

    origin: str
    topic: str
    links: set[Link]
    sub: Subscription
    qmid: str = ""
    forced: bool = False


@dataclass
class _Changes:
    add: list[str] = field(default_factory=list)
    cancel: list[str] = field(default_factory=list)
    forced: list[str] = field(default_factory=list)


class DistributedPubSub:
    def __init__(self, name: str, attrs: dict[str, Any], subscriptions: Subscriptions, put_to_qmgr: PutToQmgr,
                 next_id: Callable[[], bytes]) -> None:
        self.name = name
        self.attrs = attrs
        self.subscriptions = subscriptions
        self.tree = subscriptions.tree
        self.objects = subscriptions.objects
        self.outbox = subscriptions.objects.outbox
        self.put_to_qmgr = put_to_qmgr
        self.next_id = next_id
        self.hierarchy = Hierarchy(name, "")
        self.held: dict[tuple[str, str], HeldProxy] = {}
        self.held_by_topic: dict[str, dict[str, HeldProxy]] = {}
        self.by_sub_id: dict[bytes, HeldProxy] = {}
        self.proxy_index: SubscriptionIndex[Subscription] = SubscriptionIndex()
        self.local = LocalInterest()  # proxy topic -> local subscriptions of scope ALL wanting it
        self.forced: set[str] = set()  # topic strings PROXYSUB(FORCE) objects want everywhere
        # (neighbour, HIERARCHY or cluster name) -> the proxy topics it holds from us over that link
        self.sent: dict[tuple[str, str], set[str]] = {}
        self.clusters = ClusterTopics(name, subscriptions.tree)  # the publish/subscribe clusters it is in
        self.routes = TopicRoutes(name, subscriptions.tree, self.clusters, lambda: self._defs_version)
        # Whether the channel to a queue manager is neither retrying nor stopped (B A-23; the
        # cluster routing's channel state).
        self.channel_ok: Callable[[str], bool] = lambda qmgr: True
        self.topic_hosts = False  # a TOPICHOST cluster topic exists here
        self._neighbours: tuple[tuple[Any, ...], dict[str, frozenset[Link]]] | None = None
        self._defs_version = 0  # bumped when definitions change (the neighbours' cache key)
        self._neighbours_built = 0  # bumped whenever ``neighbours`` finds them changed
        self.proxies_version = 0  # bumped whenever a proxy held here comes, changes or goes
        self.log: list[str] = []  # error-log lines for the server to write
        self.conn = Connection("DPS", AGENT_USER, AGENT_APPL)  # the agent's own puts
        self.on_mode: Callable[[bool], None] = lambda enabled: None  # PSMODE changed (ENABLED: True)
        self.on_new_proxy: Callable[[str, str], None] = lambda origin, topic: None  # (retained copies)
        # SYSTEM.HIERARCHY.STATE could not be used at start: the engine runs as under COMPAT (B:R-ERR-2, A-40)
        self.state_unavailable = False
        self._was_mode = self._mode()
        subscriptions.watch = self.local_changed
        subscriptions.check_new = self.check_fanout

    # -- what others read -----------------------------------------------------------------------
    @property
    def qmid(self) -> str:
        return str(self.attrs.get("QMID", ""))

    @property
    def hierarchy_enabled(self) -> bool:
        """Hierarchies need PSMODE(ENABLED) (B:R-HIE-2, A-25) and SYSTEM.HIERARCHY.STATE (R-ERR-2)."""
        return bool(self.attrs.get("PSMODE", "ENABLED") == "ENABLED") and not self.state_unavailable

    def _mode(self) -> tuple[str, bool]:
        return str(self.attrs.get("PSMODE", "ENABLED")), self.hierarchy_enabled

    def neighbours(self) -> dict[str, frozenset[Link]]:
        """The queue managers this one exchanges proxies and publications with, and over which
        links: its active hierarchy relations (PSMODE(ENABLED)), and the other members of each
        publish/subscribe cluster it is in (B §0.2, R-CLU-2, R-CLU-3). Asked at every
        publication: kept until the relations, the cluster's records or the definitions change."""
        # (the hierarchy's dict is the same object until its relations change: compared at once)
        relations = self.hierarchy.neighbours() if self.hierarchy_enabled else _NO_RELATIONS
        key = (self.attrs.get("PSMODE", "ENABLED"), relations, self.clusters.generation(), self._defs_version)
        if self._neighbours is not None and self._neighbours[0] == key:
            return self._neighbours[1]
        found: dict[str, set[Link]] = {}
        for neighbour, link in relations.items():
            found.setdefault(neighbour, set()).add(link)
        if self.attrs.get("PSMODE", "ENABLED") != "DISABLED":
            for cluster, members in self.clusters.members().items():
                for member in members:
                    found.setdefault(member, set()).add((proxy_rules.CLUSTER, cluster))
        neighbours = {n: frozenset(links) for n, links in found.items()}
        self._neighbours = (key, neighbours)
        self._neighbours_built += 1
        return neighbours

    def version(self) -> tuple[int, ...]:
        """Changes whenever anything a forwarding decision reads may have: the proxies held, the
        neighbours and their links, the topic objects and the cluster records. A decision cached
        with it (``Forwarding``'s targets) is valid while it is unchanged."""
        self.neighbours()  # (rebuilt, and counted, if the relations changed)
        return (self.proxies_version, self._neighbours_built, *self.routes.version())

    @property
    def active(self) -> bool:
        """Whether publications may have anywhere to go (the publish path's one test): proxies
        held here, or a TOPICHOST cluster topic (publications go to a host without them)."""
        return bool(self.held) or self.topic_hosts

    def route(self, topic: str) -> TopicRoute:
        """What ``topic`` (a topic string or a proxy's pattern) resolves to here (B §0.2, A-02):
        scopes, and the cluster topic object it falls under with its CLROUTE and topic hosts."""
        return self.routes.route(topic)

    def scope_all(self, sub: Subscription) -> bool:
        """A subscription's effective scope (B:R-SCO-3, R-SCO-4): its MQSO_SCOPE_* option, else
        the SUBSCOPE of its topic object (A-02)."""
        if sub.options & (C.MQSO_SCOPE_QMGR | C.MQSO_SCOPE_ALL):
            return proxy_rules.subscription_scope_all(sub.options, None)
        return proxy_rules.subscription_scope_all(sub.options, self.routes.subscope(sub.topic, sub.char_scheme))

    def matching_proxies(self, topic: str) -> list[HeldProxy]:
        from mqlite.core.pubsub.copies import blocked_for

        topic_levels = levels(topic)
        return [self.by_sub_id[s.sub_id] for s in self.proxy_index.match(topic) if not blocked_for(s, topic_levels)]

    # -- local subscriptions ---------------------------------------------------------------------
    def local_changed(self, sub: Subscription, added: bool) -> None:
        """A local subscription was made or ended (the registry's watch)."""
        if added:
            if not self.scope_all(sub):
                return
            topic = proxy_rules.proxy_topic(sub.topic, sub.char_scheme)
            count = self.local.add(sub.sub_id, topic)
        else:
            removed = self.local.remove(sub.sub_id)
            if removed is None:
                return
            topic, count = removed
        if count <= 1:  # the first came or the last went (B:R-PXY-1, R-PXY-2)
            self._recompute([topic])

    def check_fanout(self, sub: Subscription) -> None:
        """Before a subscription is made: when it needs a proxy somewhere and the fan-out queue
        refuses requests, MQSUB fails with the queue's reason (B:R-ERR-1, A-39, SC-70)."""
        if not self.scope_all(sub):
            return
        topic = proxy_rules.proxy_topic(sub.topic, sub.char_scheme)
        if self.local.get(topic) or topic in self.forced:
            return
        route = self.route(topic)
        origins = self._origins(topic)
        if not any(topic not in self.sent.get((n, _link_name(link)), ())
                   for n, links in self.neighbours().items()
                   for link in proxy_rules.wanted_links(n, links, True, origins, route)):
            return
        fanreq = self.objects.queues.get(FANREQ_QUEUE)
        reason = C.MQRC_UNKNOWN_OBJECT_NAME if fanreq is None else refusal(fanreq, _REQUEST)
        if reason:
            self.log.append(f"AMQ5814E: a proxy subscription for {topic!r} cannot be fanned out: "
                            f"{FANREQ_QUEUE} refuses requests (reason {reason})")
            raise MQError(reason, f"{FANREQ_QUEUE} is not available for the proxy subscription to {topic!r}")

    # -- the hierarchy -----------------------------------------------------------------------------
    def set_parent(self, parent: str) -> None:
        """ALTER QMGR PARENT: validated before the attribute changes (PARENT(own name) fails)."""
        self._apply(self.hierarchy.set_parent(parent))
        self._persist_hierarchy()

    def check_parent(self, parent: str) -> None:
        if parent.strip() == self.name:
            raise MQError(C.MQRCCF_Q_MGR_NAME_ERROR, f"PARENT({parent.strip()}) is this queue manager's own name")

    def _apply(self, actions: Iterable[Send | Resync | Forget]) -> None:
        for action in actions:
            if isinstance(action, Send):
                if not self._send(action.target, action.message):
                    self.hierarchy.send_failed(action.target)
            elif isinstance(action, Resync):
                self.resync(action.neighbour)
            else:
                self._forget(action.neighbour)

    # -- control messages in ------------------------------------------------------------------
    def hierarchy_traffic(self, message: ControlMessage) -> bool:
        """Whether a control message is the hierarchy's (relations, or proxies over one), which
        waits while the hierarchy is off (A-25)."""
        return not isinstance(message, Proxies) or message.link == HIERARCHY

    def receive(self, message: ControlMessage) -> None:
        """A message from SYSTEM.INTER.QMGR.CONTROL, in the agent's unit of work."""
        if isinstance(message, Proxies):
            self._proxies_received(message)
        else:
            self._apply(self.hierarchy.received(message))
            self._persist_hierarchy()

    def _proxies_received(self, message: Proxies) -> None:
        origin = message.origin
        links = self.neighbours().get(origin, frozenset())
        link = next((lk for lk in links if _link_name(lk) == message.link), None)
        if link is None and message.link != HIERARCHY and message.link in self.clusters.member_of():
            # a member (or a cluster topic) this one has not heard of yet: the full repository's
            # news and the member's proxies race each other; held now, used once the news comes
            link = (proxy_rules.CLUSTER, message.link)
        if link is None:  # from a queue manager that is no neighbour that way (any more): nothing to hold
            self.log.append(f"AMQ5815W: proxy subscriptions from {origin} over {message.link}, which is not a "
                            "link of this queue manager, ignored")
            return
        changed: set[str] = set()
        if message.resync:
            keep = set(message.add)
            for (held_origin, topic), held in list(self.held.items()):
                if held_origin == origin and link in held.links and topic not in keep:
                    changed.add(topic)
                    self._drop_link(held, link)
        for topic in message.cancel:
            held_or_none = self.held.get((origin, topic))
            if held_or_none is not None:
                changed.add(topic)
                self._drop_link(held_or_none, link)
        forced = set(message.forced)
        for topic in message.add:
            if self._hold(origin, topic, link, message.qmid, topic in forced):
                changed.add(topic)
                self.on_new_proxy(origin, topic)
        self._recompute(sorted(changed))

    def _hold(self, origin: str, topic: str, link: Link, qmid: str, forced: bool) -> bool:
        """Hold a proxy for ``origin``; True when it is new (one record per origin and topic
        string, whatever the links, B:R-PXY-10)."""
        self.proxies_version += 1
        held = self.held.get((origin, topic))
        if held is not None:
            new_link = link not in held.links
            held.links.add(link)
            held.forced = forced
            if new_link:
                self._persist_held(held)
            return False
        held = HeldProxy(origin, topic, {link}, _proxy_subscription(self.next_id(), origin, link, topic), qmid, forced)
        self._index(held)
        self._persist_held(held)
        return True

    def _index(self, held: HeldProxy) -> None:
        self.proxies_version += 1
        sub = held.sub
        self.subscriptions.place(sub, self.proxy_index)  # (WILDCARD(BLOCK) at the holder, A-10)
        self.held[(held.origin, held.topic)] = held
        self.held_by_topic.setdefault(held.topic, {})[held.origin] = held
        self.by_sub_id[sub.sub_id] = held

    def _drop_link(self, held: HeldProxy, link: Link) -> None:
        self.proxies_version += 1
        held.links.discard(link)
        if held.links:
            self._persist_held(held)
            return
        sub = held.sub
        self.subscriptions.release(sub, self.proxy_index)
        del self.held[(held.origin, held.topic)]
        by_origin = self.held_by_topic[held.topic]
        del by_origin[held.origin]
        if not by_origin:
            del self.held_by_topic[held.topic]
        del self.by_sub_id[sub.sub_id]
        self.outbox.tx.delete_record(PROXY_KIND, _held_key(held.origin, held.topic))

    def _forget(self, neighbour: str) -> None:
        """``neighbour`` left: the proxies held from it go, and what this queue manager asked of
        others on its behalf follows (B:R-PXY-4); nothing is sent to it any more."""
        changed: set[str] = set()
        for key in [k for k in self.sent if k[0] == neighbour]:
            changed |= self.sent.pop(key)
        for (origin, topic), held in list(self.held.items()):
            if origin == neighbour:
                changed.add(topic)
                for link in list(held.links):
                    self._drop_link(held, link)
        self._recompute(sorted(changed))

    # -- proxies out -------------------------------------------------------------------------------
    def _origins(self, topic: str) -> dict[str, frozenset[Link]]:
        return {origin: frozenset(held.links) for origin, held in self.held_by_topic.get(topic, {}).items()}

    def _recompute(self, topics: Iterable[str]) -> None:
        """Send each neighbour the proxies it should now hold from us and cancel the others, one
        message per neighbour and link."""
        neighbours = self.neighbours()
        changes: dict[tuple[str, str], _Changes] = {}
        for topic in topics:
            route = self.route(topic)
            local = bool(self.local.get(topic)) or topic in self.forced
            origins = self._origins(topic)
            for neighbour, links in neighbours.items():
                wanted = {_link_name(lk) for lk in proxy_rules.wanted_links(neighbour, links, local, origins, route)}
                for link in links:
                    key = (neighbour, _link_name(link))
                    sent = self.sent.setdefault(key, set())
                    if key[1] in wanted and topic not in sent:
                        sent.add(topic)
                        change = changes.setdefault(key, _Changes())
                        change.add.append(topic)
                        if topic in self.forced:
                            change.forced.append(topic)
                    elif key[1] not in wanted and topic in sent:
                        sent.discard(topic)
                        changes.setdefault(key, _Changes()).cancel.append(topic)
        for (neighbour, link_name), change in sorted(changes.items()):
            self._send(neighbour, Proxies(self.name, self.qmid, link_name, tuple(change.add), tuple(change.cancel),
                                          tuple(change.forced)))

    def resync(self, neighbour: str) -> None:
        """Send ``neighbour`` the whole set of proxies it should hold from us over each link
        (B:R-PXY-12)."""
        links = self.neighbours().get(neighbour)
        if links is None:
            return
        topics = set(self.local) | self.forced | set(self.held_by_topic)
        wanted: dict[str, list[str]] = {_link_name(link): [] for link in links}
        for topic in sorted(topics):
            for link in proxy_rules.wanted_links(neighbour, links, bool(self.local.get(topic)) or topic in self.forced,
                                                 self._origins(topic), self.route(topic)):
                wanted[_link_name(link)].append(topic)
        for link_name, chosen in sorted(wanted.items()):
            self.sent[(neighbour, link_name)] = set(chosen)
            self._send(neighbour, Proxies(self.name, self.qmid, link_name, tuple(chosen), (),
                                          tuple(t for t in chosen if t in self.forced), resync=True))

    def refresh(self) -> None:
        """REFRESH QMGR TYPE(PROXYSUB): resynchronise with every neighbour (B:R-PXY-12, SC-15)."""
        for neighbour in sorted(self.neighbours()):
            self.resync(neighbour)

    def reevaluate(self) -> None:
        """Definitions changed (topic objects, PSMODE): count the local subscriptions again and
        send what differs (B:R-PXY-13, A-09)."""
        self._defs_version += 1
        if self._mode() != self._was_mode:
            self._was_mode = self._mode()
            self.on_mode(self.hierarchy_enabled)
        self.local.reset()
        for sub in self.subscriptions.subs_by_id.values():
            if self.scope_all(sub):
                self.local.add(sub.sub_id, proxy_rules.proxy_topic(sub.topic, sub.char_scheme))
        self.forced = self._forced_topics()
        self.topic_hosts = any(self.clusters.hosts(c) for c in self.clusters.pubsub_clusters())
        neighbours = self.neighbours()
        links_now = {(n, _link_name(link)) for n, links in neighbours.items() for link in links}
        clusters = self.clusters.member_of()
        shared = self.clusters.pubsub_clusters()
        for gone in [key for key in self.sent if key not in links_now]:
            topics = self.sent.pop(gone)
            neighbour, link_name = gone
            if topics and link_name in clusters - shared and self.clusters.known_member(neighbour, link_name):
                # the cluster shares no topic any more, its member is still known: it is told (B:SC-35);
                # not a member just forgotten (REFRESH CLUSTER): the resynchronisation follows
                self._send(neighbour, Proxies(self.name, self.qmid, link_name, (), tuple(sorted(topics)), ()))
        for origin, held in list(self.held.items()):  # proxies held over links that are gone
            for link in [lk for lk in held.links if lk not in neighbours.get(origin[0], frozenset())]:
                if link[0] == proxy_rules.CLUSTER and link[1] in clusters and not self.clusters.left(
                        origin[0], link[1]):
                    continue  # a member not heard of yet, not one that left
                self._drop_link(held, link)
        newcomers = sorted({n for n, _ in links_now - set(self.sent)})
        topics = set(self.local) | self.forced | set(self.held_by_topic)
        for sent in self.sent.values():
            topics |= sent
        self._recompute(sorted(topics))
        for neighbour in newcomers:  # a member that joined, a relation that became active (B:R-PXY-12)
            self.resync(neighbour)

    def cluster_changed(self, records: list[Any]) -> None:
        """Cluster records changed (the repository; none named: all may have, REFRESH CLUSTER):
        cluster topic objects come into the topic space (B:R-CTD-3), members come and go, and
        proxies follow (B:R-PXY-13)."""
        kinds = {r.kind for r in records} if records else {"TOPIC", "QMGR"}
        if "TOPIC" in kinds:
            now = self.subscriptions.clock()
            self.log += self.tree.set_cluster_objects(self.clusters.topic_copies(now), now)
        if kinds & {"TOPIC", "QMGR"}:
            self.reevaluate()

    def _forced_topics(self) -> set[str]:
        """PROXYSUB(FORCE) objects, local and cluster copies, of effective SUBSCOPE(ALL): their
        topic string and below (B:R-FRC-2, R-FRC-5, R-FRC-6)."""
        forced = set()
        objects = [*self.tree.objects.values(), *self.tree.cluster_objects_effective().values()]
        for attrs in objects:
            if attrs.get("PROXYSUB") != "FORCE":
                continue
            topic = str(attrs.get("TOPICSTR", ""))
            pattern = f"{topic}/#" if topic else "#"
            if self.route(pattern).subscope_all:
                forced.add(pattern)
        return forced

    # -- sending -----------------------------------------------------------------------------------
    def _send(self, target: str, message: ControlMessage) -> bool:
        """Put a control message on its way to ``target``; a proxy change that cannot go now waits
        on the fan-out queue (False: it could not go now)."""
        body = encode(message)
        try:
            self.put_control(target, body)
            return True
        except MQError as error:
            self.log.append(f"AMQ5816E: publish/subscribe control message to {target} not sent: "
                            f"{error.text or error} (reason {error.reason})")
            if isinstance(message, (Register, Registered)):
                return False
        self._fan_out_later(target, body)
        return False

    def put_control(self, target: str, body: bytes) -> None:
        md = MessageDescriptor(Format=FORMAT, Persistence=C.MQPER_PERSISTENT, ReplyToQMgr=self.name)
        self.put_to_qmgr(self.conn, target, CONTROL_QUEUE, md, C.MQPMO_NO_SYNCPOINT | C.MQPMO_NEW_MSG_ID, {}, body)

    def _fan_out_later(self, target: str, body: bytes) -> None:
        """The proxy message waits on SYSTEM.INTER.QMGR.FANREQ, addressed by ReplyToQMgr."""
        queue = self.objects.queues.get(FANREQ_QUEUE)
        if queue is None or refusal(queue, _REQUEST):
            self.log.append(f"AMQ5817E: proxy subscription message to {target} lost: {FANREQ_QUEUE} unavailable")
            return
        md = MessageDescriptor(Format=FORMAT, Persistence=C.MQPER_PERSISTENT, ReplyToQMgr=target)
        self.put_to_qmgr(self.conn, "", FANREQ_QUEUE, md, C.MQPMO_NO_SYNCPOINT | C.MQPMO_NEW_MSG_ID, {}, body)

    # -- displays ----------------------------------------------------------------------------------
    def proxy_subscriptions(self) -> list[Subscription]:
        return [held.sub for held in self.held.values()]

    def status_rows(self) -> list[dict[str, Any]]:
        return self.hierarchy.rows()

    # -- store -------------------------------------------------------------------------------------
    def _persist_held(self, held: HeldProxy) -> None:
        self.outbox.tx.put_record(PROXY_KIND, _held_key(held.origin, held.topic), {
            "origin": held.origin, "topic": held.topic, "links": [list(link) for link in sorted(held.links)],
            "qmid": held.qmid, "forced": held.forced, "id": held.sub.sub_id})

    def _persist_hierarchy(self) -> None:
        self.outbox.tx.put_record(HIERARCHY_KIND, "relations", self.hierarchy.records())

    def restore(self, proxies: Mapping[str, Any], relations: Mapping[str, Any]) -> None:
        """At start: the relations and the proxies held (what was sent is sent again by resync)."""
        self.hierarchy = Hierarchy(self.name, self.qmid)
        record = relations.get("relations")
        if record:
            self.hierarchy.restore(record)
        for value in proxies.values():
            links = {(str(link[0]), str(link[1])) for link in value["links"]}
            link = next(iter(sorted(links)))
            sub = _proxy_subscription(value["id"], value["origin"], link, value["topic"])
            self._index(HeldProxy(value["origin"], value["topic"], links, sub, value.get("qmid", ""),
                                  bool(value.get("forced"))))

    def retry_relations(self) -> None:
        """Hierarchy messages that could not be sent (status ERROR) are tried again."""
        self._apply(self.hierarchy.retry())

    def start(self) -> None:
        """At queue-manager start: the cached cluster topic objects into the topic tree (before
        anything resolves a topic), the local subscriptions counted, every neighbour resynced."""
        self.hierarchy.qmid = self.qmid
        state = self.objects.queues.get(STATE_QUEUE)
        self.state_unavailable = state is None or state.attrs.get("GET") == "DISABLED" or (
            state.attrs.get("PUT") == "DISABLED")
        if self.state_unavailable:
            self.log.append(f"AMQ5808E: {STATE_QUEUE} is not available: the publish/subscribe engine runs in "
                            "COMPAT mode (no hierarchy) until the queue manager starts with it available")
        self._was_mode = self._mode()
        self.cluster_changed([])  # (and reevaluate)
        self._apply(self.hierarchy.retry())
        self.refresh()


def _link_name(link: Link) -> str:
    """A link as control messages name it: HIERARCHY, or the cluster's name."""
    return link[1] if link[0] == proxy_rules.CLUSTER else HIERARCHY


def _held_key(origin: str, topic: str) -> str:
    return f"{origin} {topic}"


def _proxy_subscription(sub_id: bytes, origin: str, link: Link, topic: str) -> Subscription:
    """The record of a proxy held for ``origin``: named SYSTEM.PROXY.<origin> <HIERARCHY|cluster>
    <topic>, durable, its destination the origin's SYSTEM.INTER.QMGR.PUBS (B:R-PXY-10, A-07)."""
    sub = Subscription(sub_id=sub_id, name=f"SYSTEM.PROXY.{origin} {link[1] or HIERARCHY} {topic}", topic=topic,
                       options=C.MQSO_DURABLE, dest=PUBS_QUEUE, correl_id=b"", sub_type=C.MQSUBTYPE_PROXY,
                       user=AGENT_USER, wildcard=has_topic_wildcards(topic))
    sub.details = SubscriptionDetails(dest_qmgr=origin)
    return sub

