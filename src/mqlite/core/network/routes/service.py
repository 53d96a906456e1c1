"""A queue manager's routes in the style of TIBCO EMS: their state, the internal subscriptions it
holds for each peer and the interest it sends them (B §23, seed 002, A-55..A-60).

The rules are pure and elsewhere (``route_rules``); the control messages are ``route_protocol``;
what publications do is ``route_forward``. This service keeps the state and turns events into
control messages:

- a route is *defined* here (a ROUTE object: this side is active) or *learned* (the peer's Hello
  named it; passive here, A-56). Either side says Hello; the route is *up* once the peer's Hello
  came and the channel to the peer is neither retrying nor stopped;
- a local subscription to a GLOBAL topic comes or goes (the registry's watch), an internal
  subscription comes or goes, definitions change: the interest sent to each peer is computed
  again (``route_rules.interest_for``) and the difference sent (``Interest``);
- the link to a peer fails (``tick``): an active route keeps the internal subscriptions held for
  the peer and stores its messages (R-EMS-5); a passive one drops them, so the peer misses what is
  published while it is away (R-EMS-6).

Internal subscriptions held for a peer are records ``route_is`` (kept over a restart only where
the route is defined here); the last route sequence number received from a peer, the duplicate
suppression state, is the record ``route_in``, kept only for defined routes (R-EMS-7).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from mqlite import cmqc as C
from mqlite.core import attributes
from mqlite.core.errors import ClusterLookup, MQError
from mqlite.core.handles import Connection
from mqlite.core.network.pubsub.local_interest import LocalInterest
from mqlite.core.network.pubsub.proxy_rules import proxy_topic, subscription_scope_all
from mqlite.core.network.pubsub.service import AGENT_APPL, AGENT_USER, PutToQmgr
from mqlite.core.network.routes.defs import RouteDefinitions, rules_of
from mqlite.core.network.routes.protocol import (
    CONTROL_QUEUE,
    FORMAT,
    PUBS_QUEUE,
    Hello,
    Interest,
    RouteMessage,
    encode,
)
from mqlite.core.network.routes.rules import DEFAULT_ZONE, MHOP, RouteView, Rule, interest_for, store_queue
from mqlite.core.pubsub.registry import Subscriptions
from mqlite.core.pubsub.subscription import Subscription, SubscriptionDetails
from mqlite.core.topics.index import SubscriptionIndex
from mqlite.core.topics.strings import has_topic_wildcards
from mqlite.message import MessageDescriptor

__all__ = ["InternalSub", "RouteService", "RouteState"]

IS_KIND = "route_is"
IN_KIND = "route_in"
HELLO_EVERY = 5.0  # seconds between Hellos while a defined route waits for its peer
HELLO_EXPIRY = 600  # tenths of a second
_SYSTEM_QUEUE = {"DEFPSIST": "YES", "DEFSOPT": "EXCL", "MAXDEPTH": 999_999_999, "BOTHRESH": 5, "SHARE": True}
_STORE_QUEUE = {"DEFPSIST": "YES", "MAXDEPTH": 999_999_999, "DESCR": "Messages waiting for a route"}


@dataclass(eq=False)
class InternalSub:
    """IS(this -> peer, topic): what ``peer`` subscribes to here (R-EMS-2)."""

    peer: str
    topic: str
    sub: Subscription
    pending: int = 0  # messages of it waiting in the route's store
    pending_bytes: int = 0


@dataclass(eq=False)
class RouteState:
    peer: str
    defined: bool  # a ROUTE object here: this side is active
    zone: str = "DEFAULT_MHOP_ZONE"
    zone_type: str = MHOP
    outgoing: tuple[Rule, ...] = ()
    incoming: tuple[Rule, ...] = ()
    peer_incoming: tuple[Rule, ...] = ()  # the peer's INCOMING rules for this route (R-EMS-11)
    peer_active: bool = False
    greeted: bool = False  # the peer's Hello came since the route was last down
    up: bool = False
    sent: set[str] = field(default_factory=set)  # the interest the peer holds from us
    last_in: int = 0  # the last route sequence number received (duplicate suppression)
    next_out: int = 0
    last_out: int = 0  # the last route sequence number sent (DISPLAY RTSTATUS LASTSEQ)
    forwarded: int = 0
    received: int = 0
    duplicates: int = 0
    dropped: int = 0  # not stored for this peer: its limit (OVERFLOW DEFAULT) or the topic's
    discarded: int = 0  # oldest stored ones discarded to make room (DISCARDOLD)
    last_hello: float = -HELLO_EVERY
    failing: bool = False  # control messages to the peer fail (logged once until one goes)
    since: float = 0.0

    @property
    def view(self) -> RouteView:
        return RouteView(self.peer, self.zone, self.zone_type)


class RouteService:
    def __init__(self, name: str, attrs: dict[str, Any], subscriptions: Subscriptions, definitions: RouteDefinitions,
                 put_to_qmgr: PutToQmgr, next_id: Callable[[], bytes]) -> None:
        self.name = name
        self.attrs = attrs
        self.subscriptions = subscriptions
        self.tree = subscriptions.tree
        self.objects = subscriptions.objects
        self.outbox = subscriptions.objects.outbox
        self.clock = subscriptions.clock
        self.definitions = definitions
        self.put_to_qmgr = put_to_qmgr
        self.next_id = next_id
        self.routes: dict[str, RouteState] = {}
        self.held: dict[tuple[str, str], InternalSub] = {}
        self.index: SubscriptionIndex[Subscription] = SubscriptionIndex()
        self.by_sub_id: dict[bytes, InternalSub] = {}
        self.local = LocalInterest()  # global topic pattern -> local subscriptions wanting it
        self._last_in: dict[str, int] = {}  # restored duplicate suppression state of defined routes
        self.conn = Connection("RTE", AGENT_USER, AGENT_APPL)
        # Whether the channel to a queue manager is neither retrying nor stopped.
        self.link_ok: Callable[[str], bool] = lambda qmgr: False
        self.lookup: Callable[[str], None] = lambda qmgr: None  # ask the cluster's full repositories
        self.log: list[str] = []
        self.on_routes: Callable[[], None] = lambda: None  # routes came or went (the agent's store servers)
        self.on_up: Callable[[str], None] = lambda peer: None  # a route came up: its store drains
        self.on_route_ending: Callable[[str], None] = lambda peer: None  # its store is let go before deletion

    # -- what others read -----------------------------------------------------------------------
    @property
    def qmid(self) -> str:
        return str(self.attrs.get("QMID", ""))

    @property
    def active(self) -> bool:
        """Whether a publication may have a route to take (the publish path's one test)."""
        return bool(self.held)

    def global_topic(self, topic: str) -> bool:
        """GLOBAL(YES) by inheritance for a topic string or pattern (A-58)."""
        return self.tree.resolved(self.tree.owner_of_pattern(topic, False)).get("GLOBAL") == "YES"

    def held_for(self, peer: str) -> list[InternalSub]:
        return [held for (origin, _), held in self.held.items() if origin == peer]

    # -- start, definitions ----------------------------------------------------------------------
    def start(self) -> None:
        """At queue-manager start: the route queues exist, the defined routes say Hello, the local
        subscriptions are counted, and learned routes are forgotten until their peers say Hello."""
        now = self.clock()
        for queue in (CONTROL_QUEUE, PUBS_QUEUE):
            self._ensure_queue(queue, _SYSTEM_QUEUE, now)
        for (peer, _topic), held in list(self.held.items()):
            if peer not in self.definitions.routes:
                self._drop(held)
        self.definitions_changed()

    def definitions_changed(self) -> None:
        """ROUTE or TOPIC definitions changed (or the start): routes follow their objects, the local
        interest is counted again (GLOBAL may have changed) and every peer's interest recomputed."""
        now = self.clock()
        for peer, attrs in self.definitions.routes.items():
            state = self.routes.get(peer)
            if state is None:
                state = self.routes[peer] = RouteState(peer, True, since=now, next_out=_first_sequence(now),
                                                       last_in=self._last_in.pop(peer, 0))
                self._ensure_queue(store_queue(peer), _STORE_QUEUE, now)
            said = (state.defined, state.zone, state.zone_type, state.incoming)
            state.defined = True
            state.zone, state.zone_type = str(attrs["ZONE"]), str(attrs["ZONETYPE"])
            state.outgoing, state.incoming = rules_of(attrs, "OUTGOING"), rules_of(attrs, "INCOMING")
            if said != (state.defined, state.zone, state.zone_type, state.incoming) or not state.greeted:
                self._hello(state, reply=True)
        for peer, state in list(self.routes.items()):
            if state.defined and peer not in self.definitions.routes:
                self._end_route(state, f"route {peer} deleted")
        self._count_local()
        if self.routes:
            self._recompute()
        self.on_routes()

    def _count_local(self) -> None:
        """The local interest counted afresh; with no route at all nothing is counted (a queue
        manager without routes pays nothing per subscription: the first route counts them)."""
        self.local.reset()
        if self.routes:
            for sub in self.subscriptions.subs_by_id.values():
                self.local_changed(sub, True, recompute=False)

    def _ensure_queue(self, name: str, extra: Mapping[str, Any], now: float) -> None:
        if name in self.objects.qdefs:
            return
        attrs = attributes.defaults("QLOCAL")
        attrs.update(extra)
        self.objects.store_definition(name, "QLOCAL", attrs, now)

    def _end_route(self, state: RouteState, why: str) -> None:
        """A route goes: the internal subscriptions held for its peer, what it stored, its state."""
        for held in self.held_for(state.peer):
            self._drop(held)
        self.on_route_ending(state.peer)
        queue = self.objects.queues.get(store_queue(state.peer))
        if queue is not None:
            lost = queue.depth
            try:
                self.objects.delete_queue("QLOCAL", queue.name, purge=True)
            except MQError as error:  # open or in a unit of work: emptied at the next start
                self.log.append(f"AMQ5826W: {queue.name} not deleted: {error.text} (reason {error.reason})")
            if lost:
                self.log.append(f"AMQ5827W: {lost} message(s) stored for route {state.peer} discarded: {why}")
        self.outbox.tx.delete_record(IN_KIND, state.peer)
        del self.routes[state.peer]
        self.log.append(f"AMQ5825I: route {state.peer} ended: {why}")

    # -- local subscriptions -------------------------------------------------------------------------
    def local_changed(self, sub: Subscription, added: bool, recompute: bool = True) -> None:
        """A local subscription was made or ended (the registry's watch): interest in a global
        topic (scope ALL only, MQSO_SCOPE_QMGR / SUBSCOPE(QMGR) stay here)."""
        if added:
            if not self.routes:
                return  # (counted when the first route comes)
            topic = proxy_topic(sub.topic, sub.char_scheme)
            topic_attrs = self.tree.resolved(self.tree.owner_of_pattern(topic, False))
            if topic_attrs.get("GLOBAL") != "YES" or not subscription_scope_all(sub.options,
                                                                                 topic_attrs.get("SUBSCOPE")):
                return
            count = self.local.add(sub.sub_id, topic)
        else:
            removed = self.local.remove(sub.sub_id)
            if removed is None:
                return
            count = removed[1]
        if count <= 1 and recompute:
            self._recompute()

    # -- control messages in ------------------------------------------------------------------------
    def receive(self, message: RouteMessage) -> None:
        """A message from SYSTEM.ROUTE.CONTROL, in the agent's unit of work."""
        if isinstance(message, Hello):
            self._hello_received(message)
        else:
            self._interest_received(message)

    def _hello_received(self, hello: Hello) -> None:
        now = self.clock()
        state = self.routes.get(hello.origin)
        if state is None:
            if not hello.active:  # neither side configured it: nothing to learn
                self.log.append(f"AMQ5828W: Hello from {hello.origin}, which has no route defined to "
                                f"{self.name} and none is defined here: ignored")
                return
            state = self.learn(hello.origin, hello.zone, hello.zone_type)
        elif not state.defined:
            state.zone, state.zone_type = hello.zone, hello.zone_type
        elif (hello.active and (hello.zone, hello.zone_type) != (state.zone, state.zone_type)):
            self.log.append(f"AMQ5829W: route {hello.origin}: the peer puts it in zone {hello.zone} "
                            f"({hello.zone_type}), this queue manager in {state.zone} ({state.zone_type}); "
                            "this side's zone applies here")
        state.peer_incoming = hello.incoming
        state.peer_active = hello.active
        first = not state.greeted
        state.greeted = True
        if hello.reply or first:
            self._hello(state, reply=False)
        self._resync(state)
        self._check_link(state, now)

    def learn(self, peer: str, zone: str = DEFAULT_ZONE, zone_type: str = MHOP) -> RouteState:
        """A passive route: ``peer`` configured one to this queue manager (its Hello, or a message
        it routed here before its Hello came, after a restart of this side)."""
        now = self.clock()
        first = not self.routes
        state = self.routes[peer] = RouteState(peer, False, zone, zone_type, since=now, next_out=_first_sequence(now))
        self._ensure_queue(store_queue(peer), _STORE_QUEUE, now)
        if first:
            self._count_local()
        self.on_routes()
        self.log.append(f"AMQ5824I: passive route {peer} made: {peer} configured it")
        return state

    def _interest_received(self, message: Interest) -> None:
        state = self.routes.get(message.origin)
        if state is None:
            self.log.append(f"AMQ5830W: interest from {message.origin}, which has no route here: ignored")
            return
        changed = False
        if message.resync:
            keep = set(message.add)
            for held in self.held_for(message.origin):
                if held.topic not in keep:
                    self._drop(held)
                    changed = True
        for topic in message.cancel:
            held_or_none = self.held.get((message.origin, topic))
            if held_or_none is not None:
                self._drop(held_or_none)
                changed = True
        for topic in message.add:
            if (message.origin, topic) in self.held:
                continue
            if not self.global_topic(topic):  # global on both servers
                self.log.append(f"AMQ5831W: route {message.origin} asks for {topic!r}, which is not GLOBAL here")
                continue
            self._hold(message.origin, topic, self.next_id())
            changed = True
        if changed:
            self._recompute()

    def _hold(self, peer: str, topic: str, sub_id: bytes) -> None:
        self._index(peer, topic, sub_id)
        self.outbox.tx.put_record(IS_KIND, f"{peer} {topic}", {"peer": peer, "topic": topic, "id": sub_id})

    def _drop(self, held: InternalSub) -> None:
        del self.held[(held.peer, held.topic)]
        del self.by_sub_id[held.sub.sub_id]
        self.index.remove(held.sub, held.topic, False)
        self.outbox.tx.delete_record(IS_KIND, f"{held.peer} {held.topic}")

    # -- interest out ----------------------------------------------------------------------------------
    def _wanted(self, state: RouteState) -> set[str]:
        views = {peer: route.view for peer, route in self.routes.items()}
        held: dict[str, list[str]] = {}
        for peer, topic in self.held:
            held.setdefault(peer, []).append(topic)
        return interest_for(state.view, self.local, held, views)

    def _recompute(self) -> None:
        for state in list(self.routes.values()):
            if not state.greeted:
                continue
            wanted = self._wanted(state)
            add, cancel = sorted(wanted - state.sent), sorted(state.sent - wanted)
            if add or cancel:
                state.sent = wanted
                self._send(state.peer, Interest(self.name, tuple(add), tuple(cancel)))

    def _resync(self, state: RouteState) -> None:
        state.sent = self._wanted(state)
        self._send(state.peer, Interest(self.name, tuple(sorted(state.sent)), (), resync=True))

    def _hello(self, state: RouteState, reply: bool) -> None:
        state.last_hello = self.clock()
        self._send(state.peer, Hello(self.name, self.qmid, state.defined, state.zone, state.zone_type,
                                     state.incoming, reply))

    def _send(self, peer: str, message: RouteMessage) -> None:
        md = MessageDescriptor(Format=FORMAT, Persistence=C.MQPER_PERSISTENT, ReplyToQMgr=self.name)
        if isinstance(message, Hello):  # said again until answered: stale ones need not pile up
            md.Persistence, md.Expiry = C.MQPER_NOT_PERSISTENT, HELLO_EXPIRY
        try:
            self.put_to_qmgr(self.conn, peer, CONTROL_QUEUE, md, C.MQPMO_NO_SYNCPOINT | C.MQPMO_NEW_MSG_ID, {},
                             encode(message))
        except MQError as error:  # no way to the peer yet: a Hello is tried again (tick), interest at its resync
            if isinstance(error, ClusterLookup):
                self.lookup(peer)  # a cluster member not known here yet: the full repositories are asked
            state = self.routes.get(peer)
            if state is not None:
                state.greeted = False
                if state.failing:
                    return
                state.failing = True
            self.log.append(f"AMQ5832E: route control message to {peer} not sent: {error.text or error} "
                            f"(reason {error.reason}); tried again every {HELLO_EVERY:g} s")
            return
        state = self.routes.get(peer)
        if state is not None:
            state.failing = False

    # -- the links ------------------------------------------------------------------------------------
    def tick(self, now: float) -> None:
        """The links' state: a route whose channel failed goes down; a defined one waiting for its
        peer says Hello again; one whose channel and peer are back comes up."""
        for state in list(self.routes.values()):
            self._check_link(state, now)
            if state.defined and not state.greeted and now - state.last_hello >= HELLO_EVERY:
                self._hello(state, reply=True)

    def _check_link(self, state: RouteState, now: float) -> None:
        ok = self.link_ok(state.peer)
        if state.up and not ok:
            state.up = state.greeted = False
            state.since = now
            if not state.defined:  # passive here: the peer's internal subscriptions go (R-EMS-6)
                self._end_route(state, "its peer is unreachable and the route is configured there only")
                self.on_routes()
                self._recompute()
                return
            self.log.append(f"AMQ5833W: route {state.peer} is down: messages for it are stored")
        elif not state.up and ok and state.greeted:
            state.up = True
            state.since = now
            self.log.append(f"AMQ5834I: route {state.peer} is up")
            self.on_up(state.peer)

    # -- displays --------------------------------------------------------------------------------------
    def internal_subscriptions(self) -> list[Subscription]:
        return [held.sub for held in self.held.values()]

    def status_rows(self, generic: str) -> list[dict[str, Any]]:
        """DISPLAY RTSTATUS: one row per route, defined or learned."""
        rows = []
        for peer, state in sorted(self.routes.items()):
            if not attributes.generic_match(generic, peer):
                continue
            held = self.held_for(peer)
            queue = self.objects.queues.get(store_queue(peer))
            date, time_ = attributes.date_and_time(state.since)
            rows.append({
                "ROUTE": peer, "STATUS": "ACTIVE" if state.up else ("STARTING" if state.greeted else "INACTIVE"),
                "TYPE": "ACTIVE" if state.defined else "PASSIVE",
                "CONFIG": "ACTIVE-ACTIVE" if state.defined and state.peer_active else "ACTIVE-PASSIVE",
                "ZONE": state.zone, "ZONETYPE": state.zone_type, "ISUBS": len(held),
                "PEERSUBS": len(state.sent), "STORED": queue.depth if queue is not None else 0,
                "FWDMSGS": state.forwarded, "RCVDMSGS": state.received, "DUPMSGS": state.duplicates,
                "DROPMSGS": state.dropped, "DISCMSGS": state.discarded,
                # the last sequence numbers sent to the peer and taken from it (duplicate suppression)
                "LASTSEQ": state.last_out, "RCVDSEQ": state.last_in,
                "STATCHGD": date, "STATCHGT": time_,
            })
        if not rows and "*" not in generic:
            raise MQError(C.MQRC_UNKNOWN_OBJECT_NAME, f"route {generic} not found")
        return rows

    # -- store -------------------------------------------------------------------------------------------
    def restore(self, internal: Mapping[str, Any], received: Mapping[str, Any]) -> None:
        """At start, before ``start``: the internal subscriptions held and the sequence numbers."""
        for value in internal.values():
            self._index(str(value["peer"]), str(value["topic"]), bytes(value["id"]))
        self._last_in = {str(peer): int(value) for peer, value in received.items()}

    def _index(self, peer: str, topic: str, sub_id: bytes) -> None:
        held = InternalSub(peer, topic, _internal_subscription(sub_id, peer, topic))
        self.held[(peer, topic)] = held
        self.by_sub_id[sub_id] = held
        self.index.add(held.sub, topic, False)

    def remember_last_in(self, state: RouteState) -> None:
        """Duplicate suppression state survives a restart only where the route is defined (A-56)."""
        if state.defined:
            self.outbox.tx.put_record(IN_KIND, state.peer, state.last_in)

    def matching(self, topic: str) -> list[InternalSub]:
        return [self.by_sub_id[sub.sub_id] for sub in self.index.match(topic)]

    def peers_of(self, subs: Iterable[InternalSub]) -> dict[str, list[InternalSub]]:
        by_peer: dict[str, list[InternalSub]] = {}
        for held in subs:
            by_peer.setdefault(held.peer, []).append(held)
        return by_peer


def _first_sequence(now: float) -> int:
    """Route sequence numbers rise across restarts without a write per message: each start
    begins above every number the last one could have used (microseconds since the epoch)."""
    return int(now * 1_000_000)


def _internal_subscription(sub_id: bytes, peer: str, topic: str) -> Subscription:
    """IS(this -> peer, topic), shown among the proxy subscriptions as SYSTEM.ROUTE.<peer> <topic>."""
    sub = Subscription(sub_id=sub_id, name=f"SYSTEM.ROUTE.{peer} {topic}", topic=topic, options=C.MQSO_DURABLE,
                       dest=store_queue(peer), correl_id=sub_id, sub_type=C.MQSUBTYPE_PROXY, user=AGENT_USER,
                       wildcard=has_topic_wildcards(topic))
    sub.details = SubscriptionDetails(dest_qmgr=peer)
    return sub
