"""Publications between queue managers: which neighbours get one, what the copy carries, and what
a queue manager does with one that arrives (B §3, §14, §19).

A publication goes to a neighbour when this queue manager holds a matching proxy from it and the
link rules allow (``proxy_rules.forward_to``): one copy per neighbour however many of its proxies
match (publication aggregation, B:R-FWD-3), put to the neighbour's SYSTEM.INTER.QMGR.PUBS. The
copy is the publication itself (body, MQMD, the publisher's properties) with:

- ``ibm.Rfp``: the fingerprints of the queue managers it passed, this one last (B:R-LOOP-4);
- ``mqlite.dps.*``: its topic string, the sending queue manager, its put options (retain), its
  TOPICHOST stage and a retained publication's identity.

Every destination is checked before anything is put, so a publication whose transmission queue
refuses it fails whole, local subscribers included (B:R-ERR-4 item 1, A-41). A publication that
arrives is checked for this queue manager's own fingerprint (a loop: discarded and logged,
2541), delivered to the local subscriptions whose scope is ALL (B:R-FWD-5) and passed on.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.handles import Connection
from mqlite.core.network.pubsub import proxy_rules
from mqlite.core.network.pubsub.protocol import PUBS_QUEUE, ControlProtocolError
from mqlite.core.network.pubsub.proxy_rules import RFP_PROPERTY, Link, TopicRoute
from mqlite.core.network.pubsub.service import AGENT_APPL, AGENT_USER, DistributedPubSub, PutToQmgr
from mqlite.core.network.pubsub.topic_routes import Kept
from mqlite.core.pubsub.publish import Publisher
from mqlite.core.pubsub.subscription import Subscription
from mqlite.message import NULL_ID, Message, MessageDescriptor, Properties

__all__ = ["FROM_PROPERTY", "OPTIONS_PROPERTY", "TOPIC_PROPERTY", "Forwarding"]

TOPIC_PROPERTY = "mqlite.dps.Top"
FROM_PROPERTY = "mqlite.dps.From"
OPTIONS_PROPERTY = "mqlite.dps.Pmo"
STAGE_PROPERTY = "mqlite.dps.Stage"
RID_PROPERTY = "mqlite.dps.Rid"  # a retained publication's identity: its origin and first MsgId
# Stages: no stage is a publication following proxies.
TO_HOST = "TO_HOST"  # from a publisher's queue manager to one topic host (B:R-RTE-8, A-22)
FROM_HOST = "FROM_HOST"  # from the topic host to the subscribers' queue managers, never further (R-RTE-9)
RETAINED = "RETAINED"  # a retained publication sent to a neighbour whose new proxy matches it (B:R-DRET-3)
Target = tuple[str, str]  # (queue manager, stage)
_CARRIED_OPTIONS = C.MQPMO_RETAIN
_NOT_RETAINED = C.MQSO_NEW_PUBLICATIONS_ONLY | C.MQSO_PUBLICATIONS_ON_REQUEST

# refuses(qmgr, queue) -> the reason a put there would fail now (0: it would not)
RouteCheck = Callable[[str, str], int]


class Forwarding:
    """The publisher's ``forwarder`` and the agent's handler for SYSTEM.INTER.QMGR.PUBS."""

    def __init__(self, service: DistributedPubSub, publisher: Publisher, put_to_qmgr: PutToQmgr,
                 refuses: RouteCheck) -> None:
        self.service = service
        self.publisher = publisher
        self.put_to_qmgr = put_to_qmgr
        self.refuses = refuses
        self.name = service.name
        self.sent: dict[str, int] = {}  # publications sent per neighbour, since start
        self._turn: dict[str, int] = {}  # cluster -> the next topic host in turn
        self.retained_ids: dict[str, str] = {}  # topic -> the identity of the retained publication held
        # (topic, source, source's links) -> the neighbours a publication goes to, while the
        # service's version is the one they were worked out with (asked at every publication)
        self._targets_of: Kept[tuple[str, str, frozenset[Link]], list[Target]] = Kept()
        publisher.forwarder = self
        publisher.delivery.retained_sent = self._seen
        service.on_new_proxy = self.send_retained

    @property
    def active(self) -> bool:
        return self.service.active

    # -- the publisher's side -----------------------------------------------------------------
    def plan(self, topic: str, options: int, topic_attrs: Mapping[str, Any]) -> list[Target]:
        """Where a local publication goes, each destination checked: a refusal fails it (A-41)."""
        if options & C.MQPMO_SCOPE_QMGR or topic_attrs.get("PUBSCOPE") == "QMGR":
            return []  # B:R-SCO-2, R-FWD-6
        route = self.service.route(topic)
        targets = self._targets(topic, self.name, frozenset(), route)
        if route.cluster and route.clroute == proxy_rules.TOPICHOST:
            if self.name in route.hosts:  # a host publishing: straight to the subscribers' queue managers (R-RTE-7)
                targets = [(target, FROM_HOST) for target, _ in targets]
            else:  # to one topic host, which passes it on (R-RTE-8, A-22)
                host = self._choose_host(route)
                targets = [t for t in targets if t[0] != host] + ([(host, TO_HOST)] if host else [])
        for target, _ in targets:
            reason = self.refuses(target, PUBS_QUEUE)
            if reason:
                raise MQError(reason, f"the publication on {topic!r} cannot go to {target}: its transmission "
                                      f"queue refuses it (reason {reason})")
        return targets

    def _choose_host(self, route: TopicRoute) -> str:
        """One of the topic hosts, in turn, among those that can be reached now; when none can, the
        next in turn anyway: the publication waits for it (R-RTE-10, A-23)."""
        hosts = sorted(route.hosts)
        if not hosts:
            return ""
        key = route.cluster
        start = self._turn.get(key, 0)
        order = [hosts[(start + i) % len(hosts)] for i in range(len(hosts))]
        chosen = next((h for h in order if self.service.channel_ok(h)), order[0])
        self._turn[key] = (hosts.index(chosen) + 1) % len(hosts)
        return chosen

    def send(self, conn: Connection, targets: list[Target], topic: str, md: MessageDescriptor,
             properties: Properties, body: bytes, options: int, syncpoint: bool, fingerprints: str = "") -> None:
        """One copy to each target's SYSTEM.INTER.QMGR.PUBS (in the publisher's unit of work)."""
        if not targets:
            return
        props = {k: v for k, v in properties.items() if not k.startswith("mqlite.dps.")}
        if options & C.MQPMO_RETAIN:
            rid = properties.get(RID_PROPERTY)
            props[RID_PROPERTY] = rid if isinstance(rid, str) and rid else f"{self.name}:{md.MsgId.hex()}"
        props[RFP_PROPERTY] = proxy_rules.fingerprinted(fingerprints, self.service.qmid)
        props[TOPIC_PROPERTY] = topic
        props[FROM_PROPERTY] = self.name
        carried = options & _CARRIED_OPTIONS
        if carried:
            props[OPTIONS_PROPERTY] = carried
        neighbours = self.service.neighbours()
        sync = C.MQPMO_SYNCPOINT if syncpoint else C.MQPMO_NO_SYNCPOINT
        for target, stage in targets:
            copy = md.copy()
            copy.UserIdentifier = AGENT_USER  # sent with the queue manager's own identity (B:R-DPS-8)
            copy.PutApplName = AGENT_APPL
            if all(proxy_rules.is_hierarchy(link) for link in neighbours.get(target, ())):
                copy.CorrelId = NULL_ID  # a CorrelId crosses cluster links only (B:R-HIE-10, A-29)
            staged = {**props, STAGE_PROPERTY: stage} if stage else props
            self.put_to_qmgr(conn, target, PUBS_QUEUE, copy, sync | C.MQPMO_SET_ALL_CONTEXT | C.MQPMO_NEW_MSG_ID,
                             staged, body)
            self.sent[target] = self.sent.get(target, 0) + 1

    def _targets(self, topic: str, source: str, source_links: frozenset[Link], route: TopicRoute) -> list[Target]:
        found = self._targets_of.get(self.service.version(), (topic, source, source_links),
                                     lambda: self._work_out_targets(topic, source, source_links, route))
        return list(found)

    def _work_out_targets(self, topic: str, source: str, source_links: frozenset[Link],
                          route: TopicRoute) -> list[Target]:
        service = self.service
        origins = {held.origin for held in service.matching_proxies(topic)}
        if not origins:
            return []
        neighbours = service.neighbours()
        return [(o, "") for o in sorted(origins) if o in neighbours
                and proxy_rules.forward_to(o, neighbours[o], source, source_links, route)]

    # -- publications that arrive -----------------------------------------------------------------
    def from_hierarchy(self, message: Message) -> bool:
        """Whether a publication came from a parent or child that is not also a fellow member of a
        publish/subscribe cluster: it waits while the hierarchy is off (A-25)."""
        sender = message.properties.get(FROM_PROPERTY, "")
        hierarchy = self.service.hierarchy
        relations = set(hierarchy.children) | ({hierarchy.parent.name} if hierarchy.parent is not None else set())
        return sender in relations and not any(link[0] == proxy_rules.CLUSTER
                                               for link in self.service.neighbours().get(str(sender), ()))

    def receive(self, conn: Connection, message: Message) -> str:
        """A message from SYSTEM.INTER.QMGR.PUBS, in the agent's unit of work: what became of it."""
        props = dict(message.properties)
        topic = props.pop(TOPIC_PROPERTY, None)
        sender = props.pop(FROM_PROPERTY, "")
        options = props.pop(OPTIONS_PROPERTY, 0)
        stage = props.pop(STAGE_PROPERTY, "")
        rid = props.pop(RID_PROPERTY, "")
        if (not isinstance(topic, str) or not topic or not isinstance(sender, str) or type(options) is not int
                or stage not in ("", TO_HOST, FROM_HOST, RETAINED) or not isinstance(rid, str)):
            raise ControlProtocolError("a publication without its topic string, sender, options or stage")
        fingerprints = props.get(RFP_PROPERTY, "")
        if not isinstance(fingerprints, str):
            raise ControlProtocolError("ibm.Rfp is not a string")
        service = self.service
        if proxy_rules.looped(fingerprints, service.qmid):  # B:R-LOOP-2, SC-66
            origin = proxy_rules.fingerprint_list(fingerprints)[0]
            service.log.append(f"AMQ5818W: a publication on {topic!r} from {origin} came back to "
                               f"{self.name} round a loop (fingerprints {fingerprints}): discarded (reason "
                               f"{C.MQRC_LOOPING_PUBLICATION})")
            return "looped"
        options &= _CARRIED_OPTIONS
        md = message.md
        if options & C.MQPMO_RETAIN:
            rid = rid or f"{sender}:{md.MsgId.hex()}"
            self.retained_ids[topic] = rid

            def eligible(sub: Subscription) -> bool:  # each retained publication once per subscription
                if not service.scope_all(sub) or (stage == RETAINED and sub.options & _NOT_RETAINED):
                    return False
                seen = sub.retained_seen
                if seen is not None and rid in seen:
                    return False
                sub.retained_seen = (seen or set()) | {rid}
                return True
        else:
            eligible = service.scope_all
        delivered = self.publisher.publish_received(conn, topic, md, options, props, message.body, eligible,
                                                    retained=stage == RETAINED)
        if options & C.MQPMO_RETAIN:
            props[RID_PROPERTY] = rid
        route = service.route(topic)
        links = service.neighbours().get(sender)
        if stage == FROM_HOST or links is None:
            targets: list[Target] = []  # passed on by its host already; or from no neighbour (any more)
        elif stage == TO_HOST:  # this host passes it to the members with subscribers, not back (R-RTE-9)
            cluster_link = (proxy_rules.CLUSTER, route.cluster)
            neighbours = service.neighbours()
            origins = {held.origin for held in service.matching_proxies(topic)}
            targets = [(o, FROM_HOST) for o in sorted(origins)
                       if o != sender and cluster_link in neighbours.get(o, ()) and route.pubscope_all]
        else:  # this queue manager's PUBSCOPE decides (R-FWD-6)
            targets = self._targets(topic, sender, links, route)
            if stage == RETAINED:
                targets = [(target, RETAINED) for target, _ in targets]
        self.send(conn, targets, topic, md, props, message.body, options, True, fingerprints)
        return f"delivered {delivered}, forwarded to {len(targets)}"

    # -- retained publications across queue managers (B §15, A-35) --------------------------------
    def send_retained(self, origin: str, pattern: str) -> None:
        """A new proxy from ``origin``: it gets a copy of each retained publication held here that
        the proxy matches (so its new subscriber gets what a local one would, B:R-DRET-3)."""
        tree = self.publisher.tree
        if not tree.retained_count:
            return
        for node in tree.matching(pattern, False):
            message = node.retained
            if message is None:
                continue
            props = dict(message.properties)
            props[RID_PROPERTY] = self.retained_ids.get(node.topic) or f"{self.name}:{message.md.MsgId.hex()}"
            fingerprints = props.get(RFP_PROPERTY, "")
            self.send(self.service.conn, [(origin, RETAINED)], node.topic, message.md, props, message.body,
                      C.MQPMO_RETAIN, False, fingerprints if isinstance(fingerprints, str) else "")

    def _seen(self, sub: Subscription, topic: str) -> None:
        """A local retained copy went to ``sub``: another queue manager's copy of the same one will
        not (A-35)."""
        rid = self.retained_ids.get(topic)
        if rid:
            sub.retained_seen = (sub.retained_seen or set()) | {rid}
