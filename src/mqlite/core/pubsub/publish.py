"""Publishing: MQOPEN of a topic, MQPUT to it, retained publications (spec A §5-7, spec C §1-2).

A publication is an MQPUT on a topic handle (``Handle.topic`` is its tree node). The node's
attributes are resolved (cached per owning topic object), the subscription registry gives the
subscriptions whose pattern matches, ``copies.recipients`` narrows them, and ``CopyDelivery``
puts each copy.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.handles import Connection, Handle
from mqlite.core.mqput import Puts
from mqlite.core.objects import ObjectDefinitions
from mqlite.core.pubsub import copies
from mqlite.core.pubsub.delivery import CopyDelivery
from mqlite.core.pubsub.registry import Subscriptions
from mqlite.core.pubsub.subscription import Subscription
from mqlite.core.security.access import Access
from mqlite.core.security.events import Caller
from mqlite.core.security.principal import Principal
from mqlite.core.topics.strings import check_topic_string
from mqlite.core.topics.tree import TopicNode
from mqlite.message import Message, MessageDescriptor, Properties

_TOPIC_OPEN_OPTIONS = (C.MQOO_OUTPUT | C.MQOO_FAIL_IF_QUIESCING | C.MQOO_PASS_IDENTITY_CONTEXT
                       | C.MQOO_PASS_ALL_CONTEXT | C.MQOO_SET_IDENTITY_CONTEXT | C.MQOO_SET_ALL_CONTEXT
                       | C.MQOO_ALTERNATE_USER_AUTHORITY)
_GROUP_FLAGS = C.MQMF_MSG_IN_GROUP | C.MQMF_LAST_MSG_IN_GROUP | C.MQMF_SEGMENT | C.MQMF_LAST_SEGMENT
# Report options that need a reply-to queue (spec C R-PO-2, A-26).
_REPLY_REPORTS = (C.MQRO_COA | C.MQRO_COD | C.MQRO_EXCEPTION | C.MQRO_EXPIRATION | C.MQRO_PAN | C.MQRO_NAN)


# Fingerprints a publication collected on its way here (distributed publish/subscribe): a new
# publication starts a new chain (MQACTP_NEW, B:R-LOOP-8), so a local publisher's are dropped
# unless it forwards the message (MQACTP_FORWARD).
RFP_PROPERTY = "ibm.Rfp"


class Forwarder(Protocol):
    """Distributed publish/subscribe's part of a publication (``core.network.pubsub.forward``)."""

    @property
    def active(self) -> bool: ...

    def plan(self, topic: str, options: int, topic_attrs: Mapping[str, Any]) -> list[tuple[str, str]]: ...

    def send(self, conn: Connection, targets: list[tuple[str, str]], topic: str, md: MessageDescriptor,
             properties: Properties, body: bytes, options: int, syncpoint: bool, fingerprints: str = "") -> None: ...


class Router(Protocol):
    """Routes' part of a publication (``core.network.routes.forward``)."""

    @property
    def active(self) -> bool: ...

    def plan(self, topic: str, options: int, topic_attrs: Mapping[str, Any], md: MessageDescriptor,
             properties: Properties, size: int) -> list[Any]: ...

    def send(self, conn: Connection, hops: list[Any], topic: str, md: MessageDescriptor, properties: Properties,
             body: bytes, syncpoint: bool) -> None: ...


ADMIN_TOPIC_PREFIX = "$SYS/MQ/"  # IBM: applications may not publish here (MQRC_ADMIN_TOPIC_STRING_ERROR)


class Publisher:
    """Topic handles and publications."""

    def __init__(self, objects: ObjectDefinitions, subscriptions: Subscriptions, delivery: CopyDelivery,
                 puts: Puts, access: Access) -> None:
        self.qmgr_attrs = objects.attrs
        self.qdefs = objects.qdefs
        self.outbox = objects.outbox
        self.clock: Callable[[], float] = objects.clock
        self.subscriptions = subscriptions
        self.tree = subscriptions.tree
        self.match = subscriptions.match
        self.topic_matches = subscriptions.topic_matches
        self.delivery = delivery
        self.puts = puts
        self.access = access
        self.forwarder: Forwarder | None = None  # other queue managers' subscribers, when there are any
        self.router: Router | None = None  # routes to other queue managers, when they hold subscriptions

    # -- MQOPEN of a topic ---------------------------------------------------------------
    def open_topic(self, hobj: int, od: dict[str, Any], options: int, principal: Principal,
                   caller: Caller) -> Handle:
        """MQOPEN of a topic for publishing: ``pub`` (and each context option's authority) by the
        tree walk before the node exists, so a refused publisher creates no node (R-SEC-10)."""
        if int(od.get("Version", C.MQOD_VERSION_4)) < C.MQOD_VERSION_4:
            raise MQError(C.MQRC_OD_ERROR, "topics need MQOD version 4")
        if options & ~_TOPIC_OPEN_OPTIONS or not options & C.MQOO_OUTPUT:
            raise MQError(C.MQRC_OPTION_NOT_VALID_FOR_TYPE, "a topic opens for output (publishing)")
        topic, object_name = self.subscriptions.resolve_topic(str(od.get("ObjectName") or ""),
                                                              str(od.get("ObjectString") or ""))
        check_topic_string(topic)
        if topic.startswith(ADMIN_TOPIC_PREFIX):  # the queue manager's own (server.monitor publishes there)
            raise MQError(C.MQRC_ADMIN_TOPIC_STRING_ERROR, "publishing under $SYS/MQ/ is not permitted")
        self.delivery.check_enabled()
        self.access.open_topic(principal, caller, topic, options, object_name)
        return self._topic_handle(hobj, topic, object_name or topic, options)

    def _topic_handle(self, hobj: int, topic: str, opened_as: str, options: int) -> Handle:
        """A handle on ``topic``'s node, which it keeps in use until ``close_topic``."""
        node = self.tree.node(topic, self.clock())
        node.publishers += 1
        handle = Handle(hobj, topic, opened_as, options, None)
        handle.topic = node
        handle.topic_string = topic
        return handle

    def close_topic(self, handle: Handle) -> None:
        node = handle.topic
        if node is not None:
            node.publishers -= 1
            self.tree.released(node, self.clock())

    # -- publishing ---------------------------------------------------------------------
    def publish(
        self, conn: Connection, handle: Handle, md: MessageDescriptor, options: int,
        properties: Properties, body: bytes, pub_level: int = copies.DEFAULT_PUB_LEVEL,
        action: int = C.MQACTP_NEW, exclude: Callable[[Subscription], bool] | None = None,
    ) -> MessageDescriptor:
        """MQPUT to a topic handle. ``action`` MQACTP_FORWARD: a message republished as it came
        keeps its routing fingerprints (``ibm.Rfp``), so a loop is still found (B:R-LOOP-8).
        ``exclude``: subscriptions that get no copy (the queued interface's OtherSubsOnly)."""
        conn.warning = 0
        node = handle.topic
        assert node is not None
        if (options & C.MQPMO_SYNCPOINT) and (options & C.MQPMO_NO_SYNCPOINT):
            raise MQError(C.MQRC_OPTIONS_ERROR, "both MQPMO_SYNCPOINT and MQPMO_NO_SYNCPOINT")
        if not 0 <= pub_level <= 9:
            raise MQError(C.MQRC_PMO_ERROR, f"PubLevel {pub_level} is outside 0..9")
        if action not in (C.MQACTP_NEW, C.MQACTP_FORWARD, C.MQACTP_REPLY, C.MQACTP_REPORT):
            raise MQError(C.MQRC_ACTION_ERROR, f"MQPMO.Action {action} is not an MQACTP_* value")
        if md.MsgFlags & _GROUP_FLAGS or options & C.MQPMO_LOGICAL_ORDER:
            raise MQError(C.MQRC_MSG_NOT_ALLOWED_IN_GROUP, "grouped or segmented messages cannot be published")
        if options & C.MQPMO_SUPPRESS_REPLYTO and md.Report & _REPLY_REPORTS:
            raise MQError(C.MQRC_MISSING_REPLY_TO_Q, "MQPMO_SUPPRESS_REPLYTO with a report that needs a reply")
        self.delivery.check_enabled()
        topic_attrs = self.tree.resolved(node)
        if topic_attrs.get("PUB") == "INHIBITED":
            raise MQError(C.MQRC_PUT_INHIBITED, f"publishing on {handle.topic_string!r} is inhibited")
        if len(body) > int(self.qmgr_attrs.get("MAXMSGL", 4194304)):
            raise MQError(C.MQRC_MSG_TOO_BIG_FOR_Q_MGR, f"{len(body)} bytes exceed the queue manager's MAXMSGL")
        now = self.clock()
        defining = {"DEFPSIST": "YES" if topic_attrs.get("DEFPERSIST") == "YES" else "NO",
                    "DEFPRTY": topic_attrs.get("DEFPRTY", 0)}
        puts = self.puts
        if puts.duplicates is not None and puts.duplicate(conn, "topic:" + handle.topic_string, md, options, now):
            return md  # a retried publication already committed within the duplicate window
        md = puts.complete_md(conn, md, options, defining, now)
        if options & C.MQPMO_SUPPRESS_REPLYTO:
            md.ReplyToQ = md.ReplyToQMgr = ""
        retain = bool(options & C.MQPMO_RETAIN)
        if retain:
            self._check_retainable()
        topic = handle.topic_string
        fingerprints = properties.get(RFP_PROPERTY, "") if action == C.MQACTP_FORWARD else ""
        if not isinstance(fingerprints, str):
            raise MQError(C.MQRC_PROPERTY_TYPE_ERROR, "ibm.Rfp is not a string")
        if RFP_PROPERTY in properties and not fingerprints:
            properties = {k: v for k, v in properties.items() if k != RFP_PROPERTY}
        cached = self.topic_matches.get(topic)  # inline: once per publication
        if cached is None:
            cached = self.match(topic)
        topic_levels, matched = cached
        if exclude is not None:
            matched = tuple(sub for sub in matched if not exclude(sub))
        chosen, level = copies.recipients(matched, topic_levels, md, properties, conn, options, pub_level, now)
        forwarder = self.forwarder
        # Where the copies for other queue managers go is checked before any copy is put (B A-41).
        targets = forwarder.plan(topic, options, topic_attrs) if forwarder is not None and forwarder.active else []
        router = self.router
        hops = router.plan(topic, options, topic_attrs, md, properties, len(body)) if (
            router is not None and router.active) else []
        syncpoint = bool(options & C.MQPMO_SYNCPOINT)
        delivered = self.delivery.deliver_copies(conn, chosen, md, properties, body, topic, options, pub_level,
                                         topic_attrs, syncpoint, now)
        if targets:
            assert forwarder is not None
            forwarder.send(conn, targets, topic, md, properties, body, options, syncpoint, fingerprints)
            delivered += len(targets)  # handed to a queue manager with subscribers counts (B:R-FWD-11)
        if hops:
            assert router is not None
            router.send(conn, hops, topic, md, properties, body, syncpoint)
            delivered += len(hops)
        # Intercepted by a level above 1, a retained publication is retained only when the
        # interceptor republishes it (spec C R-INT-9).
        if retain and level <= 1:
            stored = Message(md.copy(), body, dict(properties))
            if syncpoint:
                conn.uow.after_commit.append(lambda: self._retain(node, stored))
            else:
                self._retain(node, stored)
        if not delivered and options & C.MQPMO_WARN_IF_NO_SUBS_MATCHED:
            conn.warning = C.MQRC_NO_SUBS_MATCHED
        return md

    def publish_for(self, conn: Connection, topic: str, md: MessageDescriptor, options: int, properties: Properties,
                    body: bytes, exclude: Callable[[Subscription], bool] | None = None) -> MessageDescriptor:
        """A publication a queue manager service makes on a user's behalf (the queued interface's
        Publish, whose authority it checked itself): an MQPUT to ``topic`` through a handle of
        its own, with all context set from ``md``."""
        check_topic_string(topic)
        handle = self._topic_handle(0, topic, topic, C.MQOO_OUTPUT | C.MQOO_SET_ALL_CONTEXT)
        try:
            return self.publish(conn, handle, md, options | C.MQPMO_SET_ALL_CONTEXT, properties, body,
                                exclude=exclude)
        finally:
            self.close_topic(handle)

    def publish_received(self, conn: Connection, topic: str, md: MessageDescriptor, options: int,
                         properties: Properties, body: bytes, eligible: Callable[[Subscription], bool],
                         retained: bool = False) -> int:
        """A publication another queue manager passed here: another MQPUT to the topic under this
        queue manager's authority, for the ``eligible`` subscriptions (scope ALL, B:R-FWD-4,
        R-FWD-5), in ``conn``'s unit of work; retained here too when it was (B:R-DRET-3).
        ``retained``: a copy of a retained publication for subscriptions that had not got it
        (delivered flagged MQIsRetained)."""
        now = self.clock()
        cached = self.topic_matches.get(topic)
        if cached is None:
            cached = self.match(topic)
        topic_levels, matched = cached
        # A group's closest match decides for the group, with its own scope (B A-33): grouped
        # subscriptions are judged after grouping, the others before.
        chosen, _ = copies.recipients([s for s in matched if s.options & C.MQSO_GROUP_SUB or eligible(s)],
                                      topic_levels, md, properties, None, options, copies.DEFAULT_PUB_LEVEL, now,
                                      retained_delivery=retained)
        chosen = [s for s in chosen if not s.options & C.MQSO_GROUP_SUB or eligible(s)]
        topic_attrs = self.tree.resolved(self.tree.owner_of_pattern(topic, False))
        delivered = self.delivery.deliver_copies(conn, chosen, md, properties, body, topic, options,
                                                 copies.DEFAULT_PUB_LEVEL, topic_attrs, True, now, retained=retained)
        if options & C.MQPMO_RETAIN:
            stored = Message(md.copy(), body, dict(properties))
            node = self.tree.node(topic, now)
            conn.uow.after_commit.append(lambda: self._retain(node, stored))
        return delivered

    def _check_retainable(self) -> None:
        """IBM keeps retained publications on SYSTEM.RETAINED.PUB.QUEUE: when that queue refuses
        puts, nothing can be retained and the publication fails (spec A R-RET-4, TV-RP-10)."""
        definition = self.qdefs.get("SYSTEM.RETAINED.PUB.QUEUE")
        if definition is not None and definition[1].get("PUT") == "DISABLED":
            raise MQError(C.MQRC_PUT_NOT_RETAINED, "retained publications cannot be stored (PUT disabled)")

    def _retain(self, node: TopicNode, message: Message) -> None:
        """One retained publication per topic: a new one replaces the old (spec A R-RET-3)."""
        had_persistent = node.retained is not None and node.retained.persistent
        if node.retained is None:
            self.tree.retained_count += 1
        node.retained = message
        topic = node.topic
        if message.persistent:
            self.outbox.tx.put_record("retained", topic, {"md": message.md.to_list(), "props": message.properties,
                                                    "body": message.body})
        elif had_persistent:
            self.outbox.tx.delete_record("retained", topic)

    def clear_retained(self, topic: str) -> bool:
        """CLEAR TOPICSTR(...) CLTRTYPE(RETAINED); False when there was none."""
        node = self.tree.find(topic)
        if node is None or node.retained is None:
            return False
        if node.retained.persistent:
            self.outbox.tx.delete_record("retained", topic)
        node.retained = None
        self.tree.retained_count -= 1
        self.tree.released(node, self.clock())
        return True
