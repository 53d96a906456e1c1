"""Publish/subscribe in the queue manager: MQOPEN of topics, publishing, MQSUB, MQSUBRQ, the
closing of subscriptions and their expiry, retained publications, restart.

The rules come from spec A (topics, retained publications, durability, WILDCARD) and spec C §1-10
(MQSUB create/resume/alter, copies, levels, grouping, options). Each copy is put on its
subscription's destination queue with the queue manager's ordinary put path, inside the
publisher's unit of work when the publication is under syncpoint (so a backed-out publication
reaches nobody, spec A R-CMP-4).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.handles import Connection, Handle, SubscriptionHandle
from mqlite.core.pubsub import copies
from mqlite.core.pubsub.publish_exit import ExitFunction, PublishExit
from mqlite.core.pubsub.subscription import STORED_OPTIONS, Subscription
from mqlite.core.queues import AVAILABLE, UNCOMMITTED, LocalQueue, expiry_deadline
from mqlite.core.selectors import compile_selector
from mqlite.core.topics.index import SubscriptionIndex
from mqlite.core.topics.strings import (
    build_topic_string,
    char_tokens,
    check_topic_string,
    has_char_wildcards,
    has_topic_wildcards,
    levels,
    literal_prefix,
)
from mqlite.core.topics.tree import TopicNode, TopicTree
from mqlite.message import NULL_ACCOUNTING_TOKEN, NULL_ID, Message, MessageDescriptor, Properties
from mqlite.store.tx import StoreTx

if TYPE_CHECKING:
    from mqlite.core.dedupe import DuplicateWindow
    from mqlite.core.handles import Effects

_TOPIC_OPEN_OPTIONS = (C.MQOO_OUTPUT | C.MQOO_FAIL_IF_QUIESCING | C.MQOO_PASS_IDENTITY_CONTEXT
                       | C.MQOO_PASS_ALL_CONTEXT | C.MQOO_SET_IDENTITY_CONTEXT | C.MQOO_SET_ALL_CONTEXT
                       | C.MQOO_ALTERNATE_USER_AUTHORITY)
_GROUP_FLAGS = C.MQMF_MSG_IN_GROUP | C.MQMF_LAST_MSG_IN_GROUP | C.MQMF_SEGMENT | C.MQMF_LAST_SEGMENT
# Report options that need a reply-to queue (spec C R-PO-2, A-26).
_REPLY_REPORTS = (C.MQRO_COA | C.MQRO_COD | C.MQRO_EXCEPTION | C.MQRO_EXPIRATION | C.MQRO_PAN | C.MQRO_NAN)
_MANAGED_PREFIX = {True: "SYSTEM.MANAGED.DURABLE.", False: "SYSTEM.MANAGED.NDURABLE."}
TREE_SWEEP_EVERY = 10.0
MATCH_CACHE = 4096  # publication topics whose matches are kept


class PublishFailed(MQError):
    """A copy could not be delivered and the topic's PMSGDLV/NPMSGDLV says the publication fails."""


class PubSubMixin:
    """The publish/subscribe half of ``QueueManager``."""

    if TYPE_CHECKING:  # the rest of QueueManager
        name: str
        attrs: dict[str, Any]
        qdefs: dict[str, tuple[str, dict[str, Any]]]
        queues: dict[str, LocalQueue]
        clock: Callable[[], float]
        _tx: StoreTx
        _effects: Effects
        duplicates: DuplicateWindow | None

        def _next_id(self) -> bytes: ...
        def _complete_md(self, conn: Connection, md: MessageDescriptor, options: int,
                         defining: dict[str, Any], now: float) -> MessageDescriptor: ...
        def _duplicate(self, conn: Connection, target: str, md: MessageDescriptor, options: int,
                       now: float) -> bool: ...
        def _create_dynamic(self, model: dict[str, Any], pattern: str) -> str: ...
        def _remove_queue(self, name: str) -> None: ...
        def _deliver(self, queue: LocalQueue) -> None: ...
        def _persist_put(self, queue: LocalQueue, entry: Any, message: Message) -> None: ...
        def dead_letter(self, message: Message, reason: int, dest_q: str, dest_qmgr: str = "") -> bool: ...
        def _open_input(self, queue: LocalQueue, handle: Handle, options: int) -> None: ...
        def _drop_handle(self, conn: Connection, handle: Handle) -> None: ...

    def __init__(self) -> None:
        super().__init__()
        self.tree = TopicTree()
        self.sub_index: SubscriptionIndex[Subscription] = SubscriptionIndex()
        # Publication topics' levels and index matches, until a subscription comes or goes.
        self._topic_matches: dict[str, tuple[tuple[str, ...], tuple[Subscription, ...]]] = {}
        self.subs_by_id: dict[bytes, Subscription] = {}
        self.subs_by_name: dict[str, list[Subscription]] = {}
        self.managed_queues: dict[str, Subscription] = {}
        self._last_tree_sweep = 0.0
        self._expiries: list[tuple[float, bytes]] = []  # heap of (expires_at, sub_id)
        self.publish_exit: PublishExit | None = None
        self.publish_exit_error: MQError | None = None  # configured but not loadable: 2531

    # -- MQOPEN of a topic ---------------------------------------------------------------
    def resolve_topic(self, object_name: str, object_string: str) -> tuple[str, str]:
        """The full topic string of an (object, string) pair (spec A §8) and the object used."""
        object_name = object_name.strip()
        if object_name:
            attrs = self.tree.objects.get(object_name)
            if attrs is None:
                raise MQError(C.MQRC_UNKNOWN_OBJECT_NAME, f"topic object {object_name} is not defined")
            return build_topic_string(str(attrs.get("TOPICSTR", "")), object_string), object_name
        return build_topic_string(None, object_string), ""

    def _open_topic(self, hobj: int, od: dict[str, Any], options: int) -> Handle:
        if int(od.get("Version", C.MQOD_VERSION_4)) < C.MQOD_VERSION_4:
            raise MQError(C.MQRC_OD_ERROR, "topics need MQOD version 4")
        if options & ~_TOPIC_OPEN_OPTIONS or not options & C.MQOO_OUTPUT:
            raise MQError(C.MQRC_OPTION_NOT_VALID_FOR_TYPE, "a topic opens for output (publishing)")
        topic, object_name = self.resolve_topic(str(od.get("ObjectName") or ""), str(od.get("ObjectString") or ""))
        check_topic_string(topic)
        self._check_pubsub_enabled()
        node = self.tree.node(topic, self.clock())
        node.publishers += 1
        handle = Handle(hobj, topic, object_name or topic, options, None)
        handle.topic = node
        handle.topic_string = topic
        return handle

    def _check_pubsub_enabled(self) -> None:
        if self.attrs.get("PSMODE", "ENABLED") == "DISABLED":
            raise MQError(C.MQRC_PUBSUB_INHIBITED, "publish/subscribe is disabled (PSMODE)")
        if self.publish_exit_error is not None:
            raise MQError(C.MQRC_PUBSUB_INHIBITED, self.publish_exit_error.text)

    def set_publish_exit(self, function: ExitFunction | None, data: str = "") -> None:
        """The publish exit (spec C §8): called for every copy, with ``data`` as its ExitData."""
        self.publish_exit = PublishExit(function, self.name, data) if function is not None else None
        self.publish_exit_error = None

    def inhibit_pubsub(self, text: str) -> None:
        """A configured publish exit cannot be used: pub/sub calls fail with 2531 (spec C R-PX-12)."""
        self.publish_exit = None
        self.publish_exit_error = MQError(C.MQRC_PUBSUB_INHIBITED, text)

    def _close_topic(self, handle: Handle) -> None:
        node = handle.topic
        if node is not None:
            node.publishers -= 1
            self.tree.released(node, self.clock())

    # -- publishing ---------------------------------------------------------------------
    def publish(
        self, conn: Connection, handle: Handle, md: MessageDescriptor, options: int,
        properties: Properties, body: bytes, pub_level: int = copies.DEFAULT_PUB_LEVEL,
    ) -> MessageDescriptor:
        """MQPUT to a topic handle."""
        conn.warning = 0
        node = handle.topic
        assert node is not None
        if (options & C.MQPMO_SYNCPOINT) and (options & C.MQPMO_NO_SYNCPOINT):
            raise MQError(C.MQRC_OPTIONS_ERROR, "both MQPMO_SYNCPOINT and MQPMO_NO_SYNCPOINT")
        if not 0 <= pub_level <= 9:
            raise MQError(C.MQRC_PMO_ERROR, f"PubLevel {pub_level} is outside 0..9")
        if md.MsgFlags & _GROUP_FLAGS or options & C.MQPMO_LOGICAL_ORDER:
            raise MQError(C.MQRC_MSG_NOT_ALLOWED_IN_GROUP, "grouped or segmented messages cannot be published")
        if options & C.MQPMO_SUPPRESS_REPLYTO and md.Report & _REPLY_REPORTS:
            raise MQError(C.MQRC_MISSING_REPLY_TO_Q, "MQPMO_SUPPRESS_REPLYTO with a report that needs a reply")
        self._check_pubsub_enabled()
        topic_attrs = self.tree.resolved(node)
        if topic_attrs.get("PUB") == "INHIBITED":
            raise MQError(C.MQRC_PUT_INHIBITED, f"publishing on {handle.topic_string!r} is inhibited")
        if len(body) > int(self.attrs.get("MAXMSGL", 4194304)):
            raise MQError(C.MQRC_MSG_TOO_BIG_FOR_Q_MGR, f"{len(body)} bytes exceed the queue manager's MAXMSGL")
        now = self.clock()
        defining = {"DEFPSIST": "YES" if topic_attrs.get("DEFPERSIST") == "YES" else "NO",
                    "DEFPRTY": topic_attrs.get("DEFPRTY", 0)}
        if self.duplicates is not None and self._duplicate(conn, "topic:" + handle.topic_string, md, options, now):
            return md  # a retried publication already committed within the duplicate window
        md = self._complete_md(conn, md, options, defining, now)
        if options & C.MQPMO_SUPPRESS_REPLYTO:
            md.ReplyToQ = md.ReplyToQMgr = ""
        retain = bool(options & C.MQPMO_RETAIN)
        if retain:
            self._check_retainable()
        topic = handle.topic_string
        cached = self._topic_matches.get(topic)
        if cached is None:
            cached = self._match(topic)
        topic_levels, matched = cached
        chosen, level = copies.recipients(matched, topic_levels, md, properties, conn, options, pub_level, now)
        syncpoint = bool(options & C.MQPMO_SYNCPOINT)
        delivered = self._deliver_copies(conn, chosen, md, properties, body, topic, options, pub_level,
                                         topic_attrs, syncpoint, now)
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

    def _match(self, topic: str) -> tuple[tuple[str, ...], tuple[Subscription, ...]]:
        """A topic's levels and the subscriptions whose pattern matches it, kept in ``_matches``
        (emptied whenever the index changes; what else decides a copy is checked per publication)."""
        if len(self._topic_matches) >= MATCH_CACHE:
            self._topic_matches.clear()
        found = self._topic_matches[topic] = (levels(topic), tuple(self.sub_index.match(topic)))
        return found

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
            self._tx.put_record("retained", topic, {"md": message.md.to_list(), "props": message.properties,
                                                    "body": message.body})
        elif had_persistent:
            self._tx.delete_record("retained", topic)

    def clear_retained(self, topic: str) -> bool:
        """CLEAR TOPICSTR(...) CLTRTYPE(RETAINED); False when there was none."""
        node = self.tree.find(topic)
        if node is None or node.retained is None:
            return False
        if node.retained.persistent:
            self._tx.delete_record("retained", topic)
        node.retained = None
        self.tree.retained_count -= 1
        self.tree.released(node, self.clock())
        return True

    def _deliver_copies(
        self, conn: Connection | None, chosen: list[Subscription], md: MessageDescriptor, properties: Properties,
        body: bytes, topic: str, options: int, pub_level: int, topic_attrs: Any, syncpoint: bool,
        now: float, retained: bool = False,
    ) -> int:
        """Put each subscription's copy on its destination. All destinations are checked before any
        copy is put, so a publication that must fail (PMSGDLV/NPMSGDLV) leaves nothing behind."""
        if not chosen:
            return 0
        rule = topic_attrs.get("PMSGDLV" if md.Persistence == C.MQPER_PERSISTENT else "NPMSGDLV", "ALLAVAIL")
        planned: list[tuple[Subscription, LocalQueue | None, Message, int, str]] = []
        for sub in chosen:
            queue = self.queues.get(sub.dest)
            queue_priority = 0
            if sub.pub_priority == C.MQPRI_PRIORITY_AS_Q_DEF and queue is not None:
                queue_priority = int(queue.attrs.get("DEFPRTY", 0))
            message = copies.publication_copy(sub, md, properties, body, topic, options, pub_level,
                                              self._next_id(), queue_priority, retained)
            dest = sub.dest
            reason = 0
            if self.publish_exit is not None:
                verdict = self.publish_exit.publication(
                    conn.conn_id if conn is not None else "ADMIN", message, topic, sub.dest,
                    sub.view.dest_qmgr or self.name, _exit_fields(sub))
                message, dest = verdict.message, verdict.dest_q or sub.dest
                if verdict.suppressed:  # spec C R-PX-6
                    if message.md.Report & C.MQRO_DISCARD_MSG:
                        continue
                    message.md.Feedback = verdict.feedback or C.MQFB_STOPPED_BY_PUBSUB_EXIT
                    reason = message.md.Feedback
                queue = self.queues.get(dest)
            if not reason:
                reason = self._refusal(queue, message) if queue is not None else C.MQRC_UNKNOWN_OBJECT_NAME
            planned.append((sub, queue, message, reason, dest))
        for sub, _queue, message, reason, _dest in planned:
            must_deliver = rule == "ALL" or (rule == "ALLDUR" and sub.durable)
            if reason and must_deliver and not self._dead_letter_possible(message):
                raise PublishFailed(C.MQRC_PUBLICATION_FAILURE,
                                        f"publication not delivered to subscription {sub.name or sub.sub_id.hex()}: "
                                        f"reason {reason}")
        delivered = 0
        for sub, queue, message, reason, dest in planned:
            if reason:
                if self.dead_letter(message, reason, dest):
                    delivered += 1  # a copy on the dead-letter queue counts as delivered (spec C A-26)
                continue
            assert queue is not None
            self._put_copy(conn, queue, message, syncpoint, now)
            sub.messages += 1
            sub.last_message = now
            delivered += 1
        return delivered

    @staticmethod
    def _refusal(queue: LocalQueue, message: Message) -> int:
        """Why ``queue`` would refuse ``message`` (0 if it takes it)."""
        if queue.deleted:
            return C.MQRC_Q_DELETED
        if queue.attrs.get("PUT") == "DISABLED":  # MQSET may change it: read it each time
            return C.MQRC_PUT_INHIBITED
        if queue.depth >= queue.max_depth:
            return C.MQRC_Q_FULL
        if len(message.body) > queue.max_msgl:
            return C.MQRC_MSG_TOO_BIG_FOR_Q
        return 0

    def _dead_letter_possible(self, message: Message) -> bool:
        deadq = self.queues.get(str(self.attrs.get("DEADQ", "")).strip())
        return deadq is not None and not self._refusal(deadq, message)

    def _put_copy(self, conn: Connection | None, queue: LocalQueue, message: Message, syncpoint: bool,
                  now: float) -> None:
        entry = queue.add(message, expiry_deadline(message.md.Expiry, now), UNCOMMITTED if syncpoint else AVAILABLE)
        if syncpoint and conn is not None:
            conn.uow.puts.append((queue, entry))
            return
        # A temporary dynamic (managed non-durable) queue ends with the queue manager: its
        # persistent copies are never written (spec C SC-PS-01 keeps their persistence).
        if message.persistent and queue.dynamic != "TEMPDYN":
            self._persist_put(queue, entry, message)
        if queue.waiters or queue.read_ahead:
            self._deliver(queue)

    # -- MQSUB ------------------------------------------------------------------------------
    def subscribe(
        self, conn: Connection, sd: dict[str, Any], hobj: int,
    ) -> tuple[SubscriptionHandle, Handle | None, dict[str, Any]]:
        """MQSUB: the subscription handle, the queue handle (managed, or opened for a resume with
        MQHO_NONE; None when the caller passed its own) and the MQSD output fields."""
        options = int(sd.get("Options", 0))
        name = sd.get("SubName")
        create, resume, alter = (bool(options & o) for o in (C.MQSO_CREATE, C.MQSO_RESUME, C.MQSO_ALTER))
        managed = bool(options & C.MQSO_MANAGED)
        durable = bool(options & C.MQSO_DURABLE)
        self._check_pubsub_enabled()
        if not (create or resume or alter):
            raise MQError(C.MQRC_OPTIONS_ERROR, "one of MQSO_CREATE, MQSO_RESUME, MQSO_ALTER is needed")
        if (resume or alter) and name is None:
            raise MQError(C.MQRC_SUB_NAME_ERROR, "MQSO_RESUME and MQSO_ALTER need SubName")
        name = str(name or "").rstrip()
        if durable and not name:
            raise MQError(C.MQRC_SUB_NAME_ERROR, "a durable subscription needs a SubName")
        if options & C.MQSO_ANY_USERID and options & C.MQSO_FIXED_USERID:
            raise MQError(C.MQRC_OPTIONS_ERROR, "MQSO_ANY_USERID with MQSO_FIXED_USERID")
        if options & C.MQSO_WILDCARD_CHAR and options & C.MQSO_WILDCARD_TOPIC:
            raise MQError(C.MQRC_OPTIONS_ERROR, "MQSO_WILDCARD_CHAR with MQSO_WILDCARD_TOPIC")
        queue_handle: Handle | None = None
        if hobj:
            queue_handle = conn.handles.get(hobj)
            if queue_handle is None or queue_handle.queue is None or queue_handle.managed_for is not None:
                raise MQError(C.MQRC_HOBJ_ERROR, f"object handle {hobj} is not a queue you opened")
            if managed:
                raise MQError(C.MQRC_HOBJ_ERROR, "MQSO_MANAGED takes no queue handle (MQHO_NONE)")
        existing = self.subs_by_name.get(name, []) if name else []
        sub: Subscription | None = None
        if queue_handle is not None:
            on_queue = [s for s in existing if s.dest == queue_handle.name]
            if on_queue:
                sub = on_queue[0]
                if not (alter or resume):
                    raise MQError(C.MQRC_SUB_ALREADY_EXISTS, f"subscription {name} already exists on {sub.dest}")
            elif existing and alter:
                sub = existing[0]  # moved to the new queue below (CRA-06)
            elif create:
                sub = None
            elif existing:
                raise MQError(C.MQRC_HOBJ_ERROR, f"subscription {name} is not on queue {queue_handle.name}")
            else:
                raise MQError(C.MQRC_NO_SUBSCRIPTION, f"subscription {name} does not exist on {queue_handle.name}")
        elif existing:
            if len(existing) > 1 and (resume or alter):
                raise MQError(C.MQRC_HOBJ_ERROR, f"several subscriptions are named {name}: pass the queue handle")
            if not (resume or alter):
                raise MQError(C.MQRC_SUB_ALREADY_EXISTS if managed else C.MQRC_HOBJ_ERROR,
                              f"subscription {name} already exists")
            sub = existing[0]
        elif managed and create:
            sub = None
        elif create or alter:
            raise MQError(C.MQRC_HOBJ_ERROR, "no queue handle: pass one, or MQSO_MANAGED to create a managed queue")
        else:
            raise MQError(C.MQRC_NO_SUBSCRIPTION, f"subscription {name} does not exist")
        if sub is None:
            return self._create_subscription(conn, sd, options, name, queue_handle)
        return self._resume_subscription(conn, sub, sd, options, alter, queue_handle)

    def _create_subscription(
        self, conn: Connection, sd: dict[str, Any], options: int, name: str, queue_handle: Handle | None,
    ) -> tuple[SubscriptionHandle, Handle | None, dict[str, Any]]:
        managed = bool(options & C.MQSO_MANAGED)
        durable = bool(options & C.MQSO_DURABLE)
        char_scheme = bool(options & C.MQSO_WILDCARD_CHAR)
        object_name = str(sd.get("ObjectName") or "")
        object_string = str(sd.get("ObjectString") or "")
        topic, _ = self.resolve_topic(object_name, object_string)
        sub = self._new_subscription(
            topic, char_scheme, durable, name, conn.user, level=int(sd.get("SubLevel", 1)),
            options=options, selection=str(sd.get("SelectionString") or ""),
            correl_id=bytes(sd.get("SubCorrelId") or NULL_ID), pub_priority=int(sd.get("PubPriority", -3)),
            user_data=str(sd.get("SubUserData") or ""), expiry=int(sd.get("SubExpiry", C.MQEI_UNLIMITED)),
        )
        token = bytes(sd.get("PubAccountingToken") or NULL_ACCOUNTING_TOKEN)
        identity = str(sd.get("PubApplIdentityData") or "")
        if object_name.strip() or token != NULL_ACCOUNTING_TOKEN or identity:  # details only when needed
            info = sub.info
            info.object_name, info.object_string = object_name.strip(), object_string
            info.pub_accounting_token, info.pub_appl_identity = token, identity
        returned: Handle | None = None
        if managed:
            attrs = self.tree.resolved(self.tree.owner_of_pattern(topic, char_scheme))
            model = str(attrs.get("MDURMDL" if durable else "MNDURMDL"))
            returned = self._create_managed_queue(conn, sub, model, options)
        else:
            assert queue_handle is not None
            sub.dest = queue_handle.name
        self._add_subscription(sub)
        hsub = self._hold(conn, sub)
        if not options & (C.MQSO_NEW_PUBLICATIONS_ONLY | C.MQSO_PUBLICATIONS_ON_REQUEST):
            self._send_retained(conn, sub)
        return hsub, returned, self._sd_output(sub, returned)

    def _new_subscription(
        self, topic: str, char_scheme: bool, durable: bool, name: str, user: str, *, level: int = 1,
        options: int = 0, selection: str = "", correl_id: bytes = NULL_ID, pub_priority: int = -3,
        user_data: str = "", expiry: int = C.MQEI_UNLIMITED, sub_type: int = C.MQSUBTYPE_API,
    ) -> Subscription:
        """Validate a new subscription's attributes (the MQSUB and DEFINE SUB rules they share)."""
        check_topic_string(topic)
        wildcard = has_char_wildcards(topic) if char_scheme else has_topic_wildcards(topic)
        if char_scheme:
            char_tokens(topic)  # a bad escape is MQRC_TOPIC_STRING_ERROR
        if not 0 <= level <= 9:
            raise MQError(C.MQRC_OPTIONS_ERROR, f"SubLevel {level} is outside 0..9")
        if pub_priority < 0 and pub_priority not in (C.MQPRI_PRIORITY_AS_PUBLISHED, C.MQPRI_PRIORITY_AS_Q_DEF):
            raise MQError(C.MQRC_PRIORITY_ERROR, f"PubPriority {pub_priority}")
        if pub_priority > 9:
            raise MQError(C.MQRC_PRIORITY_ERROR, f"PubPriority {pub_priority}")
        if options & C.MQSO_GROUP_SUB and (options & C.MQSO_MANAGED or not options & C.MQSO_SET_CORREL_ID
                                           or correl_id == NULL_ID):
            raise MQError(C.MQRC_OPTIONS_ERROR, "MQSO_GROUP_SUB needs an unmanaged queue and a SubCorrelId")
        if expiry <= 0 and expiry != C.MQEI_UNLIMITED:
            raise MQError(C.MQRC_EXPIRY_ERROR, f"SubExpiry {expiry}")
        owner = self.tree.owner_of_pattern(topic, char_scheme)
        topic_attrs = self.tree.resolved(owner)
        if topic_attrs.get("SUB") == "INHIBITED":
            raise MQError(C.MQRC_SUB_INHIBITED, f"subscriptions to {topic!r} are inhibited")
        if durable and topic_attrs.get("DURSUB") == "NO":
            raise MQError(C.MQRC_DURABILITY_NOT_ALLOWED, f"durable subscriptions to {topic!r} are not allowed")
        if durable and name in self.subs_by_name and options & C.MQSO_MANAGED:
            raise MQError(C.MQRC_SUB_ALREADY_EXISTS, f"subscription {name} already exists")
        selector = compile_selector(selection) if selection.strip() else None
        sub_id = self._next_id()
        now = self.clock()
        sub = Subscription(
            sub_id=sub_id, name=name, topic=topic,
            options=(options & STORED_OPTIONS) | (C.MQSO_DURABLE if durable else 0),
            dest="", correl_id=correl_id if options & C.MQSO_SET_CORREL_ID else sub_id, sub_type=sub_type,
            level=level, pub_priority=pub_priority, user=user, user_data=user_data, selector=selector,
            expiry=expiry, expires_at=now + expiry / 10 if expiry > 0 else 0.0, wildcard=wildcard,
        )
        sub.created = now
        return sub

    def _add_subscription(self, sub: Subscription, persist: bool = True) -> None:
        """Index a subscription: matching, names, the tree node it keeps in use, the store."""
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
        self.sub_index.add(sub, sub.topic, sub.char_scheme, pattern_levels)
        self._topic_matches.clear()
        self.subs_by_id[sub.sub_id] = sub
        if sub.name:
            self.subs_by_name.setdefault(sub.name, []).append(sub)
        if sub.durable and persist:
            self._tx.put_record("sub", sub.sub_id.hex(), sub.to_record())
        self.schedule_expiry(sub)

    def schedule_expiry(self, sub: Subscription) -> None:
        if sub.expires_at:
            heapq.heappush(self._expiries, (sub.expires_at, sub.sub_id))

    def _create_managed_queue(self, conn: Connection, sub: Subscription, model_name: str,
                              options: int = 0) -> Handle:
        self._make_managed_queue(sub, model_name)
        return self._open_managed(conn, sub, options)

    def _make_managed_queue(self, sub: Subscription, model_name: str) -> None:
        """A managed queue from the topic's model queue (spec A R-MGD-8), named as IBM names
        them: SYSTEM.MANAGED.[N]DURABLE. and 16 hexadecimal characters (spec C R-HOBJ-7)."""
        definition = self.qdefs.get(model_name)
        if definition is None or definition[0] != "QMODEL":
            raise MQError(C.MQRC_UNKNOWN_OBJECT_NAME, f"model queue {model_name} for managed subscriptions")
        model = dict(definition[1])
        model["DEFTYPE"] = "PERMDYN" if sub.durable else "TEMPDYN"
        name = self._create_dynamic(model, _MANAGED_PREFIX[sub.durable] + "*")
        sub.dest = name
        self.managed_queues[name] = sub

    def _open_managed(self, conn: Connection, sub: Subscription, sub_options: int = 0) -> Handle:
        """The managed Hobj: get, browse and inquire, exclusive (spec C R-HOBJ-6); MQSO_READ_AHEAD
        streams non-persistent publications to the subscriber ahead of its gets."""
        queue = self.queues[sub.dest]
        options = C.MQOO_INPUT_EXCLUSIVE | C.MQOO_BROWSE | C.MQOO_INQUIRE
        if sub_options & C.MQSO_READ_AHEAD:
            options |= C.MQOO_READ_AHEAD
        elif sub_options & C.MQSO_NO_READ_AHEAD:
            options |= C.MQOO_NO_READ_AHEAD
        handle = Handle(conn.next_hobj, queue.name, queue.name, options, queue)
        self._open_input(queue, handle, options)
        handle.managed_for = sub
        handle.conn = conn
        conn.handles[handle.hobj] = handle
        conn.next_hobj += 1
        sub.managed_handle = handle
        return handle

    def _hold(self, conn: Connection, sub: Subscription) -> SubscriptionHandle:
        """The Hsub: a number in the connection's object-handle space (MQCLOSE closes it)."""
        hsub = conn.next_hobj
        conn.next_hobj += 1
        conn.subscriptions[hsub] = sub
        sub.holder = hsub
        sub.holder_conn = conn
        return SubscriptionHandle(hsub, sub)

    def _sd_output(self, sub: Subscription, returned: Handle | None) -> dict[str, Any]:
        return {
            "ResObjectString": sub.topic, "SubCorrelId": sub.correl_id, "SubName": sub.name,
            "SelectionString": sub.selection_string, "SubExpiry": sub.expiry, "SubLevel": sub.level,
            "SubUserData": sub.user_data, "PubPriority": sub.pub_priority, "Options": sub.options,
            "SubId": sub.sub_id, "ReadAhead": bool(returned is not None and returned.read_ahead),
        }

    def _resume_subscription(
        self, conn: Connection, sub: Subscription, sd: dict[str, Any], options: int, alter: bool,
        queue_handle: Handle | None,
    ) -> tuple[SubscriptionHandle, Handle | None, dict[str, Any]]:
        if sub.holder_conn is not None:
            raise MQError(C.MQRC_SUBSCRIPTION_IN_USE, f"subscription {sub.name} is in use")
        if sub.user != conn.user:
            if not sub.options & C.MQSO_ANY_USERID:
                raise MQError(C.MQRC_IDENTITY_MISMATCH, f"subscription {sub.name} belongs to {sub.user}")
            sub.user = conn.user  # MQSO_ANY_USERID: the subscription takes the new user's identity
        if alter:
            self._alter_subscription(sub, sd, options, queue_handle)
        returned: Handle | None = None
        if sub.managed:
            managed = sub.managed_handle
            if managed is None or managed.conn is not conn:
                if managed is not None:
                    raise MQError(C.MQRC_SUBSCRIPTION_IN_USE, f"managed queue of {sub.name} is open elsewhere")
                returned = self._open_managed(conn, sub, options)
            else:
                returned = conn.handles[managed.hobj]
        elif queue_handle is None:
            returned = self._open_implicit(conn, sub)
        sub.resumed = self.clock()
        return self._hold(conn, sub), returned, self._sd_output(sub, returned)

    def _open_implicit(self, conn: Connection, sub: Subscription) -> Handle:
        """RESUME with MQHO_NONE: the queue manager opens the destination itself, for input and
        browse only (so MQINQ on it fails with 2038, spec C R-HOBJ-4)."""
        queue = self.queues.get(sub.dest)
        if queue is None:
            raise MQError(C.MQRC_UNKNOWN_OBJECT_NAME, f"destination {sub.dest} of {sub.name} is not defined")
        options = C.MQOO_INPUT_AS_Q_DEF | C.MQOO_BROWSE
        handle = Handle(conn.next_hobj, queue.name, queue.name, options, queue)
        self._open_input(queue, handle, options)
        handle.conn = conn
        conn.handles[handle.hobj] = handle
        conn.next_hobj += 1
        return handle

    def _alter_subscription(self, sub: Subscription, sd: dict[str, Any], options: int,
                            queue_handle: Handle | None) -> None:
        """MQSO_ALTER: the topic may not change (2510); the rest takes the MQSD's values."""
        object_name = str(sd.get("ObjectName") or "")
        object_string = str(sd.get("ObjectString") or "")
        if object_name.strip() or object_string.strip():
            topic, _ = self.resolve_topic(object_name, object_string)
            if topic != sub.topic:
                raise MQError(C.MQRC_TOPIC_NOT_ALTERABLE, f"subscription {sub.name} is on {sub.topic!r}")
        if bool(options & C.MQSO_DURABLE) != sub.durable:
            raise MQError(C.MQRC_DURABILITY_NOT_ALTERABLE, "durability cannot be altered")
        level = int(sd.get("SubLevel", sub.level))
        if level != sub.level:
            raise MQError(C.MQRC_SUBLEVEL_NOT_ALTERABLE, "SubLevel cannot be altered")
        selection = str(sd.get("SelectionString") or "")
        if selection.strip() and selection != sub.selection_string:
            raise MQError(C.MQRC_SELECTOR_NOT_ALTERABLE, "the selection string cannot be altered")
        priority = int(sd.get("PubPriority", sub.pub_priority))
        if priority > 9 or (priority < 0 and priority not in (C.MQPRI_PRIORITY_AS_PUBLISHED,
                                                               C.MQPRI_PRIORITY_AS_Q_DEF)):
            raise MQError(C.MQRC_PRIORITY_ERROR, f"PubPriority {priority}")
        if queue_handle is not None and queue_handle.name != sub.dest:
            sub.dest = queue_handle.name  # moved (CRA-06); publications already on the old queue stay
        sub.pub_priority = priority
        sub.user_data = str(sd.get("SubUserData") or "")
        expiry = int(sd.get("SubExpiry", sub.expiry))
        if expiry != sub.expiry:
            sub.expiry = expiry
            sub.expires_at = self.clock() + expiry / 10 if expiry > 0 else 0.0
            self.schedule_expiry(sub)
        if options & C.MQSO_SET_CORREL_ID:
            sub.correl_id = bytes(sd.get("SubCorrelId") or NULL_ID)
        kept = sub.options & (C.MQSO_DURABLE | C.MQSO_MANAGED | C.MQSO_WILDCARD_CHAR | C.MQSO_WILDCARD_TOPIC)
        sub.options = kept | (options & STORED_OPTIONS & ~(C.MQSO_DURABLE | C.MQSO_MANAGED))
        info = sub.info
        if options & C.MQSO_SET_IDENTITY_CONTEXT:
            info.pub_accounting_token = bytes(sd.get("PubAccountingToken") or NULL_ACCOUNTING_TOKEN)
            info.pub_appl_identity = str(sd.get("PubApplIdentityData") or "")
        info.altered = self.clock()
        if sub.durable:
            self._tx.put_record("sub", sub.sub_id.hex(), sub.to_record())

    # -- retained publications to one subscription -------------------------------------------
    def _send_retained(self, conn: Connection | None, sub: Subscription) -> int:
        """Copies of every retained publication the subscription matches (spec A R-RET-5, R-RET-12,
        spec C R-SRQ-2), flagged MQIsRetained; levels other than 1 get none (R-INT-10)."""
        if sub.level != 1 or not self.tree.retained_count:
            return 0
        now = self.clock()
        sent = 0
        for node in self.tree.matching(sub.topic, sub.char_scheme):
            message = node.retained
            if message is None:
                continue
            topic = node.topic
            chosen, _ = copies.recipients([sub], levels(topic), message.md, message.properties, None,
                                          0, copies.DEFAULT_PUB_LEVEL, now, retained_delivery=True)
            if not chosen:
                continue
            topic_attrs = self.tree.resolved(node)
            sent += self._deliver_copies(conn, chosen, message.md, message.properties, message.body, topic,
                                         C.MQPMO_RETAIN, copies.DEFAULT_PUB_LEVEL, topic_attrs, False, now,
                                         retained=True)
        return sent

    def request_update(self, conn: Connection, hsub: int, action: int) -> int:
        """MQSUBRQ: send the subscription's retained publications now; their count."""
        sub = conn.subscriptions.get(hsub)
        if sub is None:
            raise MQError(C.MQRC_HOBJ_ERROR, f"handle {hsub} is not a subscription")
        if action != C.MQSR_ACTION_PUBLICATION:
            raise MQError(C.MQRC_ACTION_ERROR, f"MQSUBRQ action {action}")
        sent = self._send_retained(conn, sub)
        if not sent:
            raise MQError(C.MQRC_NO_RETAINED_MSG, "no retained publication matches")
        return sent

    # -- closing -------------------------------------------------------------------------------
    def _close_subscription(self, conn: Connection, hsub: int, options: int) -> None:
        sub = conn.subscriptions[hsub]
        if sub.sub_id not in self.subs_by_id:  # expired or deleted while open: closing just ends the handle
            del conn.subscriptions[hsub]
            return
        if options & C.MQCO_KEEP_SUB and not sub.durable:
            raise MQError(C.MQRC_OPTIONS_ERROR, "MQCO_KEEP_SUB on a non-durable subscription")
        if options & C.MQCO_KEEP_SUB and options & C.MQCO_REMOVE_SUB:
            raise MQError(C.MQRC_OPTIONS_ERROR, "MQCO_KEEP_SUB with MQCO_REMOVE_SUB")
        del conn.subscriptions[hsub]
        sub.holder = 0
        sub.holder_conn = None
        if options & C.MQCO_REMOVE_SUB or not sub.durable:
            self.remove_subscription(sub)

    def remove_subscription(self, sub: Subscription) -> None:
        """The subscription ends (MQCLOSE REMOVE_SUB, DELETE SUB, expiry, end of its connection).
        A managed queue goes with it once its handle is closed (spec C R-CLS-6)."""
        if self.subs_by_id.pop(sub.sub_id, None) is None:
            return
        self.sub_index.remove(sub, sub.topic, sub.char_scheme)
        self._topic_matches.clear()
        if sub.name:
            named = self.subs_by_name.get(sub.name, [])
            if sub in named:
                named.remove(sub)
            if not named:
                self.subs_by_name.pop(sub.name, None)
        if sub.node is not None:
            sub.node.subscribers -= 1
            self.tree.released(sub.node, self.clock())
        if sub.durable:
            self._tx.delete_record("sub", sub.sub_id.hex())
        if sub.managed and sub.managed_handle is None:
            self._drop_managed_queue(sub)

    def _drop_managed_queue(self, sub: Subscription) -> None:
        self.managed_queues.pop(sub.dest, None)
        if sub.dest in self.qdefs:
            self._remove_queue(sub.dest)

    def _close_managed(self, handle: Handle) -> None:
        """MQCLOSE of a managed Hobj: the queue goes when its subscription has already gone."""
        sub = handle.managed_for
        assert sub is not None
        sub.managed_handle = None
        if sub.sub_id not in self.subs_by_id:
            self._drop_managed_queue(sub)

    # -- time ---------------------------------------------------------------------------------
    def pubsub_tick(self, now: float) -> None:
        """Expire subscriptions (spec A R-SUB-5) and remove unused topic nodes (TREELIFE)."""
        expired = 0
        heap = self._expiries
        while heap and heap[0][0] <= now:
            expires_at, sub_id = heapq.heappop(heap)
            sub = self.subs_by_id.get(sub_id)
            if sub is not None and sub.expires_at == expires_at:  # else altered or gone since
                self.remove_subscription(sub)
                expired += 1
        if now - self._last_tree_sweep >= TREE_SWEEP_EVERY or expired:
            self._last_tree_sweep = now
            treelife = float(self.attrs.get("TREELIFE", 1800))
            self.tree.sweep(now, treelife, self._covered_by_wildcard)

    def _covered_by_wildcard(self, topic: str) -> bool:
        return any(s.wildcard for s in self.sub_index.match(topic))

    # -- restart -------------------------------------------------------------------------------
    def restore_pubsub(self, subs: dict[str, Any], retained: dict[str, Any]) -> None:
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
            self._add_subscription(sub, persist=False)
            if sub.managed:
                self.managed_queues[sub.dest] = sub


def _exit_fields(sub: Subscription) -> dict[str, Any]:
    """The MQSBC fields of a subscription (spec C §8.3)."""
    info = sub.view
    return {"SubType": sub.sub_type, "SubOptions": sub.options, "ObjectName": info.object_name,
            "ObjectString": info.object_string, "SubTopicString": sub.topic, "SubName": sub.name,
            "SubId": sub.sub_id, "SelectionString": sub.selection_string, "SubLevel": sub.level,
            "PSProperties": info.ps_properties}


__all__ = ["PubSubMixin", "PublishFailed"]
