"""Messages over routes: which peers get one, what a route stores while its peer is away, and
what a queue manager does with one that arrives (B §23, R-EMS-1..R-EMS-13).

A publication on a GLOBAL topic goes to each peer holding a matching internal subscription here,
once per peer however many match, when the zone rules allow (``route_rules.may_forward``) and it
satisfies the route's selectors (the sender's OUTGOING AND the peer's INCOMING, applied before it
enters the route). While the route is up it goes straight to the peer's SYSTEM.ROUTE.PUBS; while
it is down (or its store still holds older ones) it waits in the route's store queue
SYSTEM.ROUTE.<peer>, counted against the internal subscription that took it: there MAXMSGS /
MAXBYTES and OVERFLOW apply (R-EMS-8, A-57). The store drains in order when the route is up again.

Each message crossing a route carries the route's sequence number; the receiver discards one it
has seen (duplicate suppression, R-EMS-7), and one that has visited it already (A-60).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.handles import Connection
from mqlite.core.network.pubsub.protocol import ControlProtocolError
from mqlite.core.network.pubsub.service import AGENT_APPL, AGENT_USER, PutToQmgr
from mqlite.core.network.routes.protocol import (
    FROM_PROPERTY,
    PUBS_QUEUE,
    SEQ_PROPERTY,
    TOPIC_PROPERTY,
    VISITED_PROPERTY,
)
from mqlite.core.network.routes.rules import (
    Admit,
    RouteView,
    admit,
    may_forward,
    route_selectors,
    store_queue,
    visited_list,
    visited_text,
)
from mqlite.core.network.routes.service import InternalSub, RouteService, RouteState
from mqlite.core.pubsub.publish import Publisher
from mqlite.core.pubsub.subscription import Subscription
from mqlite.core.queues import Entry, LocalQueue
from mqlite.core.selectors import Selector, compile_selector
from mqlite.message import NULL_ID, Message, MessageDescriptor, Properties

__all__ = ["Hop", "RouteForwarding"]

PRIORITY_PROPERTY = "mqlite.rte.Pri"
ORIGIN_PROPERTY = "mqlite.rte.Oid"  # the first server's name and the publication's MsgId there
ORIGINS_KEPT = 65_536  # origins remembered to find a message that came a second way
TRANSIT_PRIORITY = 5  # one priority on the way, so a route's messages keep their order (sequence numbers)
_OWN_PREFIXES = ("mqlite.rte.", "mqlite.dps.", "ibm.Rfp")


@dataclass(frozen=True, slots=True)
class Hop:
    """One copy of a message for one peer: straight to it, or into its route's store."""

    peer: str
    held: InternalSub
    stored: bool
    verdict: Admit = Admit.STORE


class RouteForwarding:
    """The publisher's ``router`` and the route agent's handler for SYSTEM.ROUTE.PUBS and stores."""

    def __init__(self, service: RouteService, publisher: Publisher, put_to_qmgr: PutToQmgr) -> None:
        self.service = service
        self.publisher = publisher
        self.put_to_qmgr = put_to_qmgr
        self.name = service.name
        self._selectors: dict[str, Selector] = {}
        self.origins: OrderedDict[str, None] = OrderedDict()  # the latest routed messages' origins
        publisher.router = self

    @property
    def active(self) -> bool:
        return self.service.active

    # -- where a message goes ------------------------------------------------------------------------
    def plan(self, topic: str, options: int, topic_attrs: Mapping[str, Any], md: MessageDescriptor,
             properties: Properties, size: int, arrived: RouteView | None = None,
             visited: tuple[str, ...] = ()) -> list[Hop]:
        """The peers a message on ``topic`` goes to, each checked against its limits. A limit with
        OVERFLOW(REJECTINCOMING) rejects the whole message (2502) before anything is delivered."""
        if (options & C.MQPMO_SCOPE_QMGR or topic_attrs.get("PUBSCOPE") == "QMGR"
                or topic_attrs.get("GLOBAL") != "YES"):
            return []
        service = self.service
        hops = []
        for peer, subs in sorted(service.peers_of(service.matching(topic)).items()):
            state = service.routes.get(peer)
            if state is None or not may_forward(arrived, state.view, visited):
                continue
            if not self._selected(topic, state, md, properties):
                continue
            held = min(subs, key=lambda h: h.topic)  # the internal subscription that takes it
            stored = not state.up or self._stored(peer) > 0
            verdict = Admit.STORE
            if stored:
                verdict = admit(str(topic_attrs.get("OVERFLOW", "DEFAULT")), held.pending, held.pending_bytes, size,
                                int(topic_attrs.get("MAXMSGS") or 0), int(topic_attrs.get("MAXBYTES") or 0))
                if verdict is Admit.REJECT:
                    raise MQError(C.MQRC_PUBLICATION_FAILURE,
                                  f"route {peer} holds as many messages on {topic!r} as its limits allow "
                                  "(OVERFLOW(REJECTINCOMING))")
                if verdict is Admit.SKIP:
                    state.dropped += 1
                    service.log.append(f"AMQ5835W: a message on {topic!r} is not stored for route {peer}: its "
                                       f"internal subscription holds {held.pending} message(s), its limit")
                    continue
            hops.append(Hop(peer, held, stored, verdict))
        return hops

    def _selected(self, topic: str, state: RouteState, md: MessageDescriptor, properties: Properties) -> bool:
        for text in route_selectors(topic, state.outgoing, state.peer_incoming):
            selector = self._selectors.get(text)
            if selector is None:
                selector = self._selectors[text] = compile_selector(text)
            if not selector(properties, md):
                return False
        return True

    def _stored(self, peer: str) -> int:
        queue = self.service.objects.queues.get(store_queue(peer))
        return 0 if queue is None else queue.depth + queue.locked

    # -- sending -----------------------------------------------------------------------------------------
    def send(self, conn: Connection, hops: list[Hop], topic: str, md: MessageDescriptor, properties: Properties,
             body: bytes, syncpoint: bool, visited: tuple[str, ...] = (), origin: str = "") -> None:
        if not hops:
            return
        props = {k: v for k, v in properties.items() if not k.startswith(_OWN_PREFIXES)}
        props[TOPIC_PROPERTY] = topic
        props[VISITED_PROPERTY] = visited_text(visited, self.name)
        props[ORIGIN_PROPERTY] = origin or f"{self.name}:{md.MsgId.hex()}"  # one identity however it travels
        sync = C.MQPMO_SYNCPOINT if syncpoint else C.MQPMO_NO_SYNCPOINT
        for hop in hops:
            copy = md.copy()
            copy.UserIdentifier = AGENT_USER
            copy.PutApplName = AGENT_APPL
            if hop.stored:
                if hop.verdict is Admit.DISCARD_OLDEST:
                    self._make_room(hop.held, len(body))
                copy.CorrelId = hop.held.sub.sub_id
                self.put_to_qmgr(conn, "", store_queue(hop.peer), copy,
                                 sync | C.MQPMO_SET_ALL_CONTEXT | C.MQPMO_NEW_MSG_ID, props, body)
                hop.held.pending += 1
                hop.held.pending_bytes += len(body)
            else:
                self._to_peer(conn, hop.peer, copy, props, body, sync)

    def _to_peer(self, conn: Connection, peer: str, md: MessageDescriptor, props: dict[str, Any], body: bytes,
                 sync: int) -> None:
        state = self.service.routes[peer]
        state.next_out += 1
        props = {**props, FROM_PROPERTY: self.name, SEQ_PROPERTY: state.next_out, PRIORITY_PROPERTY: md.Priority}
        md.Priority = TRANSIT_PRIORITY
        self.put_to_qmgr(conn, peer, PUBS_QUEUE, md, sync | C.MQPMO_SET_ALL_CONTEXT | C.MQPMO_NEW_MSG_ID, props,
                         body)
        state.forwarded += 1
        state.last_out = state.next_out

    def _make_room(self, held: InternalSub, size: int) -> None:
        """DISCARDOLD: the oldest messages of this internal subscription leave the store until the
        new one fits under its limits (the caller's ``admit`` said it can)."""
        queue = self.service.objects.queues.get(store_queue(held.peer))
        if queue is None:
            return
        topic_attrs = self.service.tree.resolved(self.service.tree.owner_of_pattern(held.topic, False))
        max_msgs, max_bytes = int(topic_attrs.get("MAXMSGS") or 0), int(topic_attrs.get("MAXBYTES") or 0)
        state = self.service.routes[held.peer]
        while held.pending and ((max_msgs and held.pending + 1 > max_msgs)
                                or (max_bytes and held.pending_bytes + size > max_bytes)):
            expired: list[Entry] = []
            entry = queue.find_match(self.service.clock(), expired, None, held.sub.sub_id)
            if entry is None:
                break
            self._remove(queue, entry, held)
            state.discarded += 1

    def _remove(self, queue: LocalQueue, entry: Entry, held: InternalSub) -> None:
        message = queue.load(entry)
        persistent = entry.persistent
        queue.remove(entry)
        if persistent:
            self.service.outbox.tx.delete_message(queue.name, entry.seq)
        held.pending = max(0, held.pending - 1)
        held.pending_bytes = max(0, held.pending_bytes - len(message.body))

    # -- the store ---------------------------------------------------------------------------------------
    def drain(self, conn: Connection, peer: str, message: Message) -> None:
        """A stored message, got in the route agent's unit of work: to the peer now. While the
        route is down the unit backs out and the message waits (MQRC_CHANNEL_NOT_AVAILABLE)."""
        state = self.service.routes.get(peer)
        if state is None or not state.up:
            raise MQError(C.MQRC_CHANNEL_NOT_AVAILABLE, f"route {peer} is not up")
        held = self.service.by_sub_id.get(message.md.CorrelId)
        if held is not None:
            held.pending = max(0, held.pending - 1)
            held.pending_bytes = max(0, held.pending_bytes - len(message.body))
        md = message.md.copy()
        md.CorrelId = NULL_ID  # (the store's CorrelId names the internal subscription)
        self._to_peer(conn, peer, md, dict(message.properties), message.body, C.MQPMO_SYNCPOINT)

    def recount(self) -> None:
        """At start: what each internal subscription has waiting in its route's store."""
        for held in self.service.held.values():
            held.pending = held.pending_bytes = 0
        for peer in self.service.routes:
            queue = self.service.objects.queues.get(store_queue(peer))
            if queue is None:
                continue
            for entry in list(queue.iter_entries()):
                message = queue.load(entry)
                taker = self.service.by_sub_id.get(message.md.CorrelId)
                if taker is not None:
                    taker.pending += 1
                    taker.pending_bytes += len(message.body)

    # -- messages that arrive ----------------------------------------------------------------------------
    def receive(self, conn: Connection, message: Message) -> str:
        """A message from SYSTEM.ROUTE.PUBS, in the agent's unit of work: what became of it."""
        props = dict(message.properties)
        topic = props.pop(TOPIC_PROPERTY, None)
        sender = props.pop(FROM_PROPERTY, None)
        seq = props.pop(SEQ_PROPERTY, None)
        via = props.pop(VISITED_PROPERTY, "")
        priority = props.pop(PRIORITY_PROPERTY, message.md.Priority)
        origin = props.pop(ORIGIN_PROPERTY, "")
        if (not isinstance(topic, str) or not topic or not isinstance(sender, str) or not sender
                or type(seq) is not int or not isinstance(via, str) or type(priority) is not int
                or not isinstance(origin, str) or not origin):
            raise ControlProtocolError("a routed message without its topic, sender, sequence number, route or origin")
        service = self.service
        state = service.routes.get(sender)
        if state is None:  # routed here, so the sender has a route to us: its Hello is on the way
            state = service.learn(sender)
        if seq <= state.last_in:  # R-EMS-7
            state.duplicates += 1
            service.log.append(f"AMQ5837W: a message on {topic!r} from route {sender} arrived again (sequence "
                               f"{seq}): discarded")
            return "duplicate"
        # Taken once the unit of work commits: one backed out is tried again, not a duplicate.
        conn.uow.after_commit.append(lambda: self._taken(state, seq, origin))
        state.received += 1
        visited = tuple(visited_list(via))
        if self.name in visited:
            service.log.append(f"AMQ5838W: a message on {topic!r} came back to {self.name} over route {sender} "
                               f"(visited {via}): discarded")
            return "looped"
        if origin in self.origins:  # a second path to here: routes of a multi-hop zone form a cycle
            state.duplicates += 1
            service.log.append(f"AMQ5845W: a message on {topic!r} from {origin.split(':')[0]} came a second way, over "
                               f"route {sender} (visited {via}): discarded; the routes of zone {state.zone} form a "
                               "cycle, which a multi-hop zone should not")
            return "second path"
        topic_attrs = service.tree.resolved(service.tree.owner_of_pattern(topic, False))
        if topic_attrs.get("GLOBAL") != "YES":
            service.log.append(f"AMQ5839W: a message on {topic!r} from route {sender}: the topic is not GLOBAL "
                               "here: discarded")
            return "not global"
        md = message.md.copy()
        md.Priority = priority
        try:
            hops = self.plan(topic, 0, topic_attrs, md, props, len(message.body), state.view, visited)
        except MQError as error:
            service.log.append(f"AMQ5840W: a message on {topic!r} from route {sender} rejected: {error.text}")
            return "rejected"
        delivered = self.publisher.publish_received(conn, topic, md, 0, props, message.body, _scope_all)
        self.send(conn, hops, topic, md, props, message.body, True, visited, origin)
        return f"delivered {delivered}, forwarded to {len(hops)}"

    def _taken(self, state: RouteState, seq: int, origin: str) -> None:
        """A routed message's unit of work committed: its sequence number is the route's last
        (kept where the route is defined, A-56) and its origin is remembered."""
        if seq > state.last_in:
            state.last_in = seq
            self.service.remember_last_in(state)
        self.origins[origin] = None
        if len(self.origins) > ORIGINS_KEPT:
            self.origins.popitem(last=False)


def _scope_all(sub: Subscription) -> bool:
    """Local subscribers of scope ALL get routed messages; internal ones are not in the registry."""
    return not sub.options & C.MQSO_SCOPE_QMGR
