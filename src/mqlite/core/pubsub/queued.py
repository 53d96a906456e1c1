"""The queued publish/subscribe interface on the engine (spec D §3-§12): one command message in,
its effects on the topic tree and the subscriptions, and the response to send out.

``process`` follows D §3.6: decode the MQRFH2 (2334), parse the psc (``core.queued.commands``,
steps 3-9), map topics onto the one topic tree through streams and subscription points
(``core.queued.names``, §3.5, §11, §12), check each topic's authority as the command's user
(3081: a warning per topic, an error when none is left), then execute. Publish and DeletePub are
here; RegSub, DeregSub and ReqUpdate in ``queued_subscribers``. Every refusal aborts the command
with nothing changed; the caller (``server.queued``) sends the response and commits.

Streams are the queues of SYSTEM.QPUBSUB.QUEUE.NAMELIST that have a topic object of their name
(the default stream maps to the root); subscription points the TOPICSTRs of the topic objects of
SYSTEM.QPUBSUB.SUBPOINT.NAMELIST. Both are read when the caller says they may have changed
(R-NL-1: at start and when a namelist is altered).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.handles import Connection
from mqlite.core.objects import ObjectDefinitions
from mqlite.core.pubsub.delivery import CopyDelivery
from mqlite.core.pubsub.publish import Publisher
from mqlite.core.pubsub.queued_subscribers import QueuedSubscribers
from mqlite.core.pubsub.registry import Subscriptions
from mqlite.core.pubsub.subscribe import Subscriber
from mqlite.core.pubsub.subscription import Subscription
from mqlite.core.queued import commands, names, publication, responses, rfh1
from mqlite.core.queued.commands import QueueKind, Refusal
from mqlite.core.security.access import Access
from mqlite.core.topics.strings import has_topic_wildcards
from mqlite.message import Message, MessageDescriptor
from mqlite.protocol import rfh2
from mqlite.protocol.rfh2_folders import Element, Folder, Rfh2Error

log = logging.getLogger("mqlite.queued")

CONTROL_QUEUE = "SYSTEM.BROKER.CONTROL.QUEUE"
STREAM_NAMELIST = "SYSTEM.QPUBSUB.QUEUE.NAMELIST"
SUBPOINT_NAMELIST = "SYSTEM.QPUBSUB.SUBPOINT.NAMELIST"
DEFAULT_SUBPOINT = "SYSTEM.BROKER.DEFAULT.SUBPOINT"


@dataclass(frozen=True, slots=True)
class Outcome:
    """A command's result: its ``pscr``, and the second folder of the response (the command's
    psc as it came for a warning or an error, or FullResp's description)."""

    pscr: Folder
    psc: bytes | None = None
    described: Folder | None = None
    command: str = ""
    version: int = 2  # answered with an MQRFH2, or (1) an MQRFH
    pairs: tuple[tuple[str, str], ...] = ()  # a version 1 command's NameValueString

    @property
    def completion(self) -> str:
        return responses.completion(self.pscr)


_PSC_START = re.compile(r"\s*<psc[\s>]")


def _psc_bytes(data: bytes, md: MessageDescriptor) -> bytes | None:
    """The first MQRFH2's psc NameValueData as it arrived (the response's echo, D §3.7)."""
    try:
        fields, raw = rfh2.split_header(data, 0, md.Encoding, md.CodedCharSetId)
    except Rfh2Error:
        return None
    little = rfh2.little_endian(md.Encoding)
    codec = "utf-8" if fields[7] == rfh2.UTF8 else ("utf-16-le" if little else "utf-16-be")
    for item in raw:
        if _PSC_START.match(item.decode(codec, errors="replace")):
            return item
    return None


class QueuedInterface:
    def __init__(self, objects: ObjectDefinitions, subscriptions: Subscriptions, subscriber: Subscriber,
                 publisher: Publisher, delivery: CopyDelivery, access: Access,
                 namelist: Callable[[str], tuple[str, ...]]) -> None:
        self.name = objects.name
        self.objects = objects
        self.tree = subscriptions.tree
        self.publisher = publisher
        self.access = access
        self.namelist = namelist
        self.streams: dict[str, str] = {}  # stream queue -> its topic prefix
        self.sub_points: frozenset[str] = frozenset()
        self.subscribers = QueuedSubscribers(objects, subscriptions, subscriber, delivery, access)
        # DeletePub without DelOpt Local: to every connected queue manager too (D §8 DECISION)
        self.neighbours: Callable[[], list[str]] = list
        self.send_delete: Callable[[Connection, str, str, str], None] = lambda conn, qmgr, topic, user: None
        self.reload()

    # -- configuration (R-NL-1) ---------------------------------------------------------------
    def reload(self) -> None:
        """Read both namelists again: the streams (one without a topic object is left out and
        logged, D §15 step 1 DECISION) and the subscription points."""
        streams: dict[str, str] = {}
        try:
            queue_names = self.namelist(STREAM_NAMELIST)
        except MQError:
            queue_names = ()
        for queue in queue_names:
            if queue == names.DEFAULT_STREAM:
                streams[queue] = ""
                continue
            topic_object = self.tree.objects.get(queue)
            if topic_object is None or queue == CONTROL_QUEUE:
                log.error("AMQ5806E: stream %s has no topic object of its name: its queue is not read", queue)
                continue
            streams[queue] = names.stream_prefix(queue, str(topic_object.get("TOPICSTR", "")))
        points: set[str] = set()
        try:
            point_names = self.namelist(SUBPOINT_NAMELIST)
        except MQError:
            point_names = ()
        for point in point_names:
            topic_object = self.tree.objects.get(point)
            if point != DEFAULT_SUBPOINT and topic_object is not None and topic_object.get("TOPICSTR"):
                points.add(str(topic_object["TOPICSTR"]))
        self.streams, self.sub_points = streams, frozenset(points)

    def monitored(self) -> list[str]:
        """The queues the interface reads: the control queue and the streams."""
        return [CONTROL_QUEUE, *self.streams]

    # -- one command message -----------------------------------------------------------------------
    def process(self, conn: Connection, queue: str, message: Message) -> Outcome:
        md = message.md
        if md.Format.strip() == rfh2.FORMAT_RFH1:
            return self._process_rfh1(conn, queue, message)
        if md.Format.strip() != rfh2.FORMAT_RFH2 and message.properties:
            # The get gave an MQRFH2 of property folders only as properties (core.properties_delivery):
            # an MQRFH2 came, without a psc (D §3.6 step 3).
            return Outcome(responses.error(Refusal(C.MQRC_RFH_PARM_MISSING)))
        try:
            decoded = rfh2.decode(message.body, md.Format, md.Encoding, md.CodedCharSetId)
            first = decoded.headers[0]
            rfh2.check_folders([f for f in first.folders if f.name != C.MQRFH2_PUBSUB_CMD_FOLDER])
        except Rfh2Error as error:  # no psc echo
            log.warning("AMQ5812W: command message on %s is not a valid MQRFH2: %s", queue, error)
            return Outcome(responses.error(Refusal(C.MQRC_RFH_ERROR)))
        command = commands.parse(first.folders_named(C.MQRFH2_PUBSUB_CMD_FOLDER), _kind(queue), md, self.name)
        if isinstance(command, Refusal):
            return Outcome(responses.error(command), _psc_bytes(message.body, md))
        if isinstance(command, commands.Publish | commands.DeletePub):
            prefix = self.streams.get(queue, "")
            pub = publication.from_command(decoded, message.body, md, command, message.properties) if isinstance(
                command, commands.Publish) else None
            outcome = self._outcome(conn, md, command, prefix, pub)
        else:
            outcome = self._outcome(conn, md, command, "", None)
        if outcome.completion == C.MQPSCR_OK:
            return outcome
        return replace(outcome, psc=_psc_bytes(message.body, md))  # echoed after a warning or an error

    def _process_rfh1(self, conn: Connection, queue: str, message: Message) -> Outcome:
        """A version 6 command (D Annex A): the same commands, the stream named by MQPSStreamName
        (a Publish's is its queue's, 3075 when it names another, D §11.3; a subscriber's must be a
        stream, 3082), character wildcards (A-12), answered with an MQRFH."""
        md = message.md
        try:
            header, body = rfh2.decode_rfh1(message.body, md.Encoding, md.CodedCharSetId)
        except Rfh2Error as error:
            log.warning("AMQ5812W: command message on %s is not a valid MQRFH: %s", queue, error)
            return Outcome(responses.error(Refusal(error.reason)), version=1)
        pairs = header.pairs
        translated = rfh1.to_psc(pairs)
        if isinstance(translated, Refusal):
            return Outcome(responses.error(translated), version=1, pairs=pairs)
        if translated.no_op:  # Register/Deregister Publisher: nothing to do in v7 (D §7.5, S-28)
            return Outcome(responses.ok(), version=1, pairs=pairs)
        command = commands.parse(translated.psc, _kind(queue), md, self.name)
        if isinstance(command, Refusal):
            return Outcome(responses.error(command), version=1, pairs=pairs)
        given = translated.stream
        if isinstance(command, commands.Publish | commands.DeletePub):
            if given and given != queue:
                refusal = Refusal(C.MQRCCF_INCORRECT_STREAM, (Element(rfh1.STREAM_NAME, given),))
                return Outcome(responses.error(refusal), version=1, pairs=pairs)
            stream = queue
        else:
            stream = given or names.DEFAULT_STREAM
            if stream not in self.streams:
                refusal = Refusal(C.MQRCCF_UNKNOWN_STREAM, (Element(rfh1.STREAM_NAME, stream),))
                return Outcome(responses.error(refusal), version=1, pairs=pairs)
        if isinstance(command, commands.Publish) and any(rfh1.has_wildcards(t) for t in command.topics):
            return Outcome(responses.error(Refusal(C.MQRCCF_TOPIC_ERROR)), version=1, pairs=pairs)
        pub = None
        if isinstance(command, commands.Publish):
            ccsid = header.ccsid if header.ccsid > 0 else md.CodedCharSetId
            pub = publication.Publication(
                {**message.properties, **translated.properties}, body, header.format, header.encoding, ccsid,
                command.identity.q_name, command.identity.qmgr_name if command.identity.q_name else "")
        outcome = self._outcome(conn, md, command, self.streams[stream], pub, stream, 1)
        return replace(outcome, pairs=pairs)

    def _outcome(self, conn: Connection, md: MessageDescriptor, command: commands.Command, prefix: str,
                 pub: publication.Publication | None, stream: str = "", version: int = 2) -> Outcome:
        name = type(command).__name__
        outcome: tuple[list[Refusal], Folder | None] | Refusal
        if isinstance(command, commands.Publish):
            assert pub is not None
            outcome = self._publish(conn, prefix, md, command, pub)
        elif isinstance(command, commands.DeletePub):
            outcome = self._delete(conn, prefix, md, command)
        else:
            outcome = self.subscribers.execute(conn, md, command, self.sub_points, stream, prefix, version)
        if isinstance(outcome, Refusal):
            return Outcome(responses.error(outcome), command=name, version=version)
        warnings, described = outcome
        pscr = responses.warning(warnings) if warnings else responses.ok()
        return Outcome(pscr, None, described, name, version)

    # -- shared steps -----------------------------------------------------------------------------
    def _full_topics(self, prefix: str, topics: tuple[str, ...], sub_point: str | None
                     ) -> list[tuple[str, str]] | Refusal:
        """Each topic with its full topic string (D §3.5), or the first mapping's refusal."""
        mapped: list[tuple[str, str]] = []
        for topic in topics:
            full = names.full_topic(topic, prefix, sub_point, self.sub_points)
            if isinstance(full, Refusal):
                return full
            mapped.append((topic, full))
        return mapped

    def _authorised(self, md: MessageDescriptor, mapped: list[tuple[str, str]], authority: int
                    ) -> tuple[list[tuple[str, str]], list[Refusal]] | Refusal:
        """The topics the command's user may use (``authority`` held by the topic-tree walk) and
        a 3081 warning for each other one; none left: error 3081 (A-36)."""
        principal = self.access.principal_of(md.UserIdentifier.strip())
        allowed: list[tuple[str, str]] = []
        warnings: list[Refusal] = []
        for topic, full in mapped:
            if self.access.topic_walk(principal, full, authority).granted:
                allowed.append((topic, full))
            else:
                warnings.append(Refusal(C.MQRCCF_NOT_AUTHORIZED, (Element(C.MQPSC_TOPIC, topic),)))
        if not allowed and warnings:
            return warnings[0]
        return allowed, warnings

    # -- Publish (D §4) ---------------------------------------------------------------------------
    def _publish(self, conn: Connection, prefix: str, command_md: MessageDescriptor, command: commands.Publish,
                 pub: publication.Publication) -> tuple[list[Refusal], None] | Refusal:
        mapped = self._full_topics(prefix, command.topics, command.sub_point)
        if isinstance(mapped, Refusal):
            return mapped
        identity = command.identity
        if C.MQPSC_OTHER_SUBS_ONLY in command.options:
            refusal = self.subscribers.check_queue(identity)
            if refusal is not None:
                return refusal
        checked = self._authorised(command_md, mapped, C.MQZAO_PUBLISH)
        if isinstance(checked, Refusal):
            return checked
        allowed, warnings = checked
        options = C.MQPMO_SYNCPOINT | C.MQPMO_NEW_MSG_ID
        if C.MQPSC_RETAIN_PUB in command.options:
            options |= C.MQPMO_RETAIN
        if C.MQPSC_LOCAL in command.options:
            options |= C.MQPMO_SCOPE_QMGR
        exclude = _own_queue(identity, self.name) if C.MQPSC_OTHER_SUBS_ONLY in command.options else None
        for _topic, full in allowed:  # v7: one publication per topic (D §3.8)
            md = command_md.copy()
            md.Report, md.MsgType, md.Feedback = C.MQRO_NONE, C.MQMT_DATAGRAM, C.MQFB_NONE
            md.Format, md.Encoding, md.CodedCharSetId = pub.format.ljust(8), pub.encoding, pub.ccsid
            md.ReplyToQ, md.ReplyToQMgr = pub.reply_to_q, pub.reply_to_qmgr
            self.publisher.publish_for(conn, full, md, options, dict(pub.properties), pub.body, exclude)
        return warnings, None

    # -- DeletePub (D §8) -------------------------------------------------------------------------
    def _delete(self, conn: Connection, prefix: str, md: MessageDescriptor, command: commands.DeletePub
                ) -> tuple[list[Refusal], None] | Refusal:
        mapped = self._full_topics(prefix, command.topics, command.sub_point)
        if isinstance(mapped, Refusal):
            return mapped
        checked = self._authorised(md, mapped, C.MQZAO_PUBLISH)
        if isinstance(checked, Refusal):
            return checked
        allowed, warnings = checked
        for _topic, full in allowed:
            self.delete_retained(full)
            if not command.local:
                for qmgr in self.neighbours():
                    self.send_delete(conn, qmgr, full, md.UserIdentifier)
        return warnings, None

    def delete_retained(self, full: str) -> int:
        """The retained publications of ``full`` (a pattern: every topic it matches); none is no
        error (A-25)."""
        if not has_topic_wildcards(full):
            return int(self.publisher.clear_retained(full))
        topics = [node.topic for node in self.tree.matching(full) if node.retained is not None]
        return sum(self.publisher.clear_retained(topic) for topic in topics)


def _kind(queue: str) -> QueueKind:
    return QueueKind.CONTROL if queue == CONTROL_QUEUE else QueueKind.STREAM


def _own_queue(identity: commands.Identity, local: str) -> Callable[[Subscription], bool]:
    """OtherSubsOnly: the publisher's own subscriber queue (QMgrName, QName and the CorrelId with
    CorrelAsId) gets no copy (D §4)."""
    qmgr = identity.qmgr_name

    def own(sub: Subscription) -> bool:
        if sub.dest != identity.q_name:
            return False
        dest_qmgr = sub.view.dest_qmgr or local
        if dest_qmgr != qmgr:
            return False
        return identity.correl_id is None or sub.correl_id == identity.correl_id

    return own
