"""Delivering a publication's copies: each subscription's copy made, passed through the publish
exit, checked against its destination, then put (spec C §5-8; spec A R-CMP-4, R-RET-5).

Every destination is checked before any copy is put, so a publication that PMSGDLV/NPMSGDLV
says must fail leaves nothing behind. The copies go through the ordinary put path, inside the
publisher's unit of work when the publication is under syncpoint; a copy a queue refuses goes to
the dead-letter queue.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.handles import Connection
from mqlite.core.objects import ObjectDefinitions
from mqlite.core.outbox import MessageIds
from mqlite.core.pubsub import copies
from mqlite.core.pubsub.publish_exit import ExitFunction, PublishExit
from mqlite.core.pubsub.registry import Subscriptions
from mqlite.core.pubsub.subscription import Subscription
from mqlite.core.queued.publication import rfh1_copy, rfh2_copy
from mqlite.core.queued.registration import Registration
from mqlite.core.queues import AVAILABLE, UNCOMMITTED, LocalQueue, expiry_deadline
from mqlite.core.topics.strings import levels
from mqlite.message import Message, MessageDescriptor, Properties, put_date_time, put_timestamp

_RFH2_FORMS = (C.MQPSPROP_RFH2, C.MQPSPROP_COMPAT)  # no publication is PCF here: COMPAT is RFH2


class PublishFailed(MQError):
    """A copy could not be delivered and the topic's PMSGDLV/NPMSGDLV says the publication fails."""


class CopyDelivery:
    """Puts publications' copies on their subscriptions' destinations, through the publish exit."""

    def __init__(self, objects: ObjectDefinitions, subscriptions: Subscriptions, deliver: Callable[[LocalQueue], None],
                 dead_letter: Callable[[Message, int, str], bool], ids: MessageIds) -> None:
        self.qmgr_name = objects.name
        self.qmgr_attrs = objects.attrs
        self.queues = objects.queues
        self.outbox = objects.outbox
        self.clock = objects.clock
        self.subscriptions = subscriptions
        self.deliver = deliver
        self.dead_letter = dead_letter
        self.next_id = ids.next_id
        self.publish_exit: PublishExit | None = None
        self.publish_exit_error: MQError | None = None  # configured but not loadable: 2531
        # (subscription, topic): a retained publication was sent to it (distributed
        # publish/subscribe remembers which, so another queue manager's copy is not sent again)
        self.retained_sent: Callable[[Subscription, str], None] | None = None
        self.clear_retained: Callable[[str], bool] | None = None  # an expired retained publication goes

    # -- whether publish/subscribe runs, and its exit ----------------------------------------
    def check_enabled(self) -> None:
        if self.qmgr_attrs.get("PSMODE", "ENABLED") == "DISABLED":
            raise MQError(C.MQRC_PUBSUB_INHIBITED, "publish/subscribe is disabled (PSMODE)")
        if self.publish_exit_error is not None:
            raise MQError(C.MQRC_PUBSUB_INHIBITED, self.publish_exit_error.text)

    def set_publish_exit(self, function: ExitFunction | None, data: str = "") -> None:
        """The publish exit (spec C §8): called for every copy, with ``data`` as its ExitData."""
        self.publish_exit = PublishExit(function, self.qmgr_name, data) if function is not None else None
        self.publish_exit_error = None

    def inhibit_pubsub(self, text: str) -> None:
        """A configured publish exit cannot be used: pub/sub calls fail with 2531 (spec C R-PX-12)."""
        self.publish_exit = None
        self.publish_exit_error = MQError(C.MQRC_PUBSUB_INHIBITED, text)

    def end_connection(self, conn_id: str) -> None:
        """A connection ended: the exit's MQXR_TERM for it."""
        if self.publish_exit is not None:
            self.publish_exit.end(conn_id)

    # -- copies --------------------------------------------------------------------------------
    def deliver_copies(
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
                                              self.next_id(), queue_priority, retained)
            details = sub.details
            if details is not None and details.ps_properties in _RFH2_FORMS:
                message = self._rfh2_form(message, details.queued, queue, topic, retained, now)
            dest = sub.dest
            reason = 0
            if self.publish_exit is not None:
                verdict = self.publish_exit.publication(
                    conn.conn_id if conn is not None else "ADMIN", message, topic, sub.dest,
                    sub.view.dest_qmgr or self.qmgr_name, _exit_fields(sub))
                message, dest = verdict.message, verdict.dest_q or sub.dest
                if verdict.suppressed:  # spec C R-PX-6
                    if message.md.Report & C.MQRO_DISCARD_MSG:
                        continue
                    message.md.Feedback = verdict.feedback or C.MQFB_STOPPED_BY_PUBSUB_EXIT
                    reason = message.md.Feedback
                queue = self.queues.get(dest)
            if not reason:
                reason = refusal(queue, message) if queue is not None else C.MQRC_UNKNOWN_OBJECT_NAME
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

    def _rfh2_form(self, message: Message, registration: Registration | None, queue: LocalQueue | None,
                   topic: str, retained: bool, now: float) -> Message:
        """PSPROP(RFH2|COMPAT): the copy as a Publish command message (spec D §9.1, §9.2)."""
        put_date, put_time = put_date_time(now)
        persistent = queue is not None and queue.attrs.get("DEFPSIST") == "YES"
        if registration is not None and registration.version == 1:
            return rfh1_copy(message, topic, retained, self.qmgr_name, put_date, put_time, registration, persistent)
        return rfh2_copy(message, topic, retained, self.qmgr_name, put_date, put_time, registration, persistent,
                         int(self.qmgr_attrs.get("CCSID", 1208)))

    def _dead_letter_possible(self, message: Message) -> bool:
        deadq = self.queues.get(str(self.qmgr_attrs.get("DEADQ", "")).strip())
        return deadq is not None and not refusal(deadq, message)

    def _put_copy(self, conn: Connection | None, queue: LocalQueue, message: Message, syncpoint: bool,
                  now: float) -> None:
        entry = queue.add(message, expiry_deadline(message.md.Expiry, now), UNCOMMITTED if syncpoint else AVAILABLE)
        if syncpoint and conn is not None:
            conn.uow.add_put(queue, entry, now)
            return
        # A temporary dynamic (managed non-durable) queue ends with the queue manager: its
        # persistent copies are never written (spec C SC-PS-01 keeps their persistence).
        if message.persistent and queue.dynamic != "TEMPDYN":
            self.outbox.persist_put(queue, entry, message)
        if queue.waiters or queue.read_ahead:
            self.deliver(queue)

    # -- retained publications to one subscription -------------------------------------------
    def send_retained(self, conn: Connection | None, sub: Subscription) -> int:
        """Copies of every retained publication the subscription matches (spec A R-RET-5, R-RET-12,
        spec C R-SRQ-2), flagged MQIsRetained; levels other than 1 get none (R-INT-10)."""
        if sub.level != 1 or not self.subscriptions.tree.retained_count:
            return 0
        now = self.clock()
        sent = 0
        for node in self.subscriptions.tree.matching(sub.topic, sub.char_scheme):
            message = node.retained
            if message is None:
                continue
            topic = node.topic
            if message.md.Expiry > 0:  # what is left of its expiry, after the time held here (D §9.2)
                left = remaining_expiry_of(message.md, now)
                if left <= 0:
                    if self.clear_retained is not None:
                        self.clear_retained(topic)  # expired: gone (D:S-23)
                    continue
                message = Message(replace(message.md, Expiry=left), message.body, message.properties)
            chosen, _ = copies.recipients([sub], levels(topic), message.md, message.properties, None,
                                          0, copies.DEFAULT_PUB_LEVEL, now, retained_delivery=True)
            if not chosen:
                continue
            topic_attrs = self.subscriptions.tree.resolved(node)
            sent += self.deliver_copies(conn, chosen, message.md, message.properties, message.body, topic,
                                         C.MQPMO_RETAIN, copies.DEFAULT_PUB_LEVEL, topic_attrs, False, now,
                                         retained=True)
            if self.retained_sent is not None:
                self.retained_sent(sub, topic)
        return sent


def remaining_expiry_of(md: MessageDescriptor, now: float) -> int:
    """A retained publication's expiry (tenths of a second) less the time since it was put."""
    stamp = put_timestamp(md)
    if stamp is None:
        return md.Expiry
    return md.Expiry - max(0, int((now - stamp) * 10))


def refusal(queue: LocalQueue, message: Message) -> int:
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


def _exit_fields(sub: Subscription) -> dict[str, Any]:
    """The MQSBC fields of a subscription (spec C §8.3)."""
    info = sub.view
    return {"SubType": sub.sub_type, "SubOptions": sub.options, "ObjectName": info.object_name,
            "ObjectString": info.object_string, "SubTopicString": sub.topic, "SubName": sub.name,
            "SubId": sub.sub_id, "SelectionString": sub.selection_string, "SubLevel": sub.level,
            "PSProperties": info.ps_properties}
