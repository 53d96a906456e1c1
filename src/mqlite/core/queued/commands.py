"""The five command messages of the queued publish/subscribe interface (spec D §3-§8) as typed
values, and ``parse``: a ``<psc>`` folder, the kind of queue it arrived on and its MQMD to a
command or a refusal, with the checks in the order of D §3.6 (steps 3 to 9, those that need no
queue-manager state): the psc folder (2339/2338), Command (2339/2338/2336), the tags (2337,
2338, 2339), the options (3083/3084/3087), the queue (3079, R-Q-1), the identity (3076, 3080;
§3.4) and the topics (3072). Queue-manager names and queues that exist (3074/3076), subpoints,
authorities and state are the caller's, later steps."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

from mqlite import cmqc as C
from mqlite.message import MessageDescriptor
from mqlite.protocol.rfh2_folders import Element, Folder

MAX_TOPIC_LENGTH = 10240  # D §21 A-41
WILDCARDS = ("#", "+")  # the topic-based scheme of RFH2 commands (D §21 A-12)


class QueueKind(enum.Enum):
    """Where a command arrived (D §3.2): the control queue or a stream queue."""

    CONTROL = "control"  # SYSTEM.BROKER.CONTROL.QUEUE
    STREAM = "stream"  # a queue of SYSTEM.QPUBSUB.QUEUE.NAMELIST


@dataclass(frozen=True, slots=True)
class Refusal:
    """A command refused: ``reason`` (D §10) and the psc properties that caused it, echoed after
    ``<Reason>`` in the response (R-RSP-3)."""

    reason: int
    echo: tuple[Element, ...] = ()


@dataclass(frozen=True, slots=True)
class Identity:
    """The traditional identity (D §3.4): QMgrName, QName and the CorrelId when CorrelAsId."""

    qmgr_name: str
    q_name: str
    correl_id: bytes | None = None


@dataclass(frozen=True, slots=True)
class Publish:
    topics: tuple[str, ...]
    identity: Identity
    options: frozenset[str] = frozenset()  # without None and IsRetainedPub
    sub_point: str | None = None
    pub_time: str | None = None
    seq_num: str | None = None


@dataclass(frozen=True, slots=True)
class RegSub:
    topics: tuple[str, ...]
    identity: Identity
    options: frozenset[str] = frozenset()  # without None and the persistence options
    persistence: str = C.MQPSC_PERSISTENT_AS_PUBLISH  # the last one given (S-18), else PersAsPub
    options_given: bool = False  # RegOpt present: omitted keeps a subscription's options (§5.1)
    sub_point: str | None = None
    filter: str | None = None
    sub_name: str | None = None
    sub_identity: str | None = None
    sub_user_data: str | None = None


@dataclass(frozen=True, slots=True)
class DeregSub:
    topics: tuple[str, ...]  # may be empty with DeregAll
    identity: Identity
    options: frozenset[str] = frozenset()
    sub_point: str | None = None
    filters: tuple[str, ...] = ()
    sub_name: str | None = None
    sub_identity: str | None = None
    sub_user_data: str | None = None


@dataclass(frozen=True, slots=True)
class ReqUpdate:
    topic: str
    identity: Identity
    options: frozenset[str] = frozenset()
    sub_point: str | None = None
    filter: str | None = None
    sub_name: str | None = None


@dataclass(frozen=True, slots=True)
class DeletePub:
    topics: tuple[str, ...]
    local: bool = False  # DelOpt Local (§8)
    sub_point: str | None = None  # accepted and mapped as for Publish


Command = Publish | RegSub | DeregSub | ReqUpdate | DeletePub


@dataclass(frozen=True, slots=True)
class _Rules:
    """One command's vocabulary (D §4-§8): its tags, which repeat, its option tag and values."""

    tags: frozenset[str]
    repeatable: frozenset[str]
    option_tag: str | None
    option_values: frozenset[str]
    option_reason: int
    queue: QueueKind


_COMMON = {C.MQPSC_COMMAND, C.MQPSC_TOPIC, C.MQPSC_CORREL_ID}  # CorrelId: accepted, ignored
_IDENTITY = {C.MQPSC_Q_MGR_NAME, C.MQPSC_Q_NAME}
_PERSISTENCE = (C.MQPSC_NON_PERSISTENT, C.MQPSC_PERSISTENT, C.MQPSC_PERSISTENT_AS_PUBLISH,
                C.MQPSC_PERSISTENT_AS_Q)

RULES: dict[str, _Rules] = {
    C.MQPSC_PUBLISH: _Rules(
        frozenset(_COMMON | _IDENTITY | {C.MQPSC_SUBSCRIPTION_POINT, C.MQPSC_PUBLICATION_OPTION,
                                         C.MQPSC_PUBLISH_TIMESTAMP, C.MQPSC_SEQUENCE_NUMBER}),
        frozenset({C.MQPSC_TOPIC, C.MQPSC_PUBLICATION_OPTION}),
        C.MQPSC_PUBLICATION_OPTION,
        frozenset({C.MQPSC_RETAIN_PUB, C.MQPSC_IS_RETAINED_PUB, C.MQPSC_LOCAL, C.MQPSC_OTHER_SUBS_ONLY,
                   C.MQPSC_CORREL_ID_AS_IDENTITY, C.MQPSC_NO_REG_OPTIONS}),
        C.MQRCCF_PUB_OPTIONS_ERROR, QueueKind.STREAM),
    C.MQPSC_REGISTER_SUBSCRIBER: _Rules(
        frozenset(_COMMON | _IDENTITY | {C.MQPSC_SUBSCRIPTION_POINT, C.MQPSC_FILTER,
                                         C.MQPSC_REGISTRATION_OPTION, C.MQPSC_SUBSCRIPTION_NAME,
                                         C.MQPSC_SUBSCRIPTION_IDENTITY, C.MQPSC_SUBSCRIPTION_USER_DATA}),
        frozenset({C.MQPSC_TOPIC, C.MQPSC_REGISTRATION_OPTION}),
        C.MQPSC_REGISTRATION_OPTION,
        frozenset({C.MQPSC_ADD_NAME, C.MQPSC_CORREL_ID_AS_IDENTITY, C.MQPSC_FULL_RESPONSE,
                   C.MQPSC_INFORM_IF_RETAINED, C.MQPSC_JOIN_EXCLUSIVE, C.MQPSC_JOIN_SHARED, C.MQPSC_LOCAL,
                   C.MQPSC_NEW_PUBS_ONLY, C.MQPSC_NO_ALTERATION, C.MQPSC_NO_REG_OPTIONS, *_PERSISTENCE,
                   C.MQPSC_PUB_ON_REQUEST_ONLY, C.MQPSC_VARIABLE_USER_ID,
                   C.MQPSC_DUPLICATES_OK, C.MQPSC_LOCKED}),  # DupsOK, Locked: no-ops
        C.MQRCCF_REG_OPTIONS_ERROR, QueueKind.CONTROL),
    C.MQPSC_DEREGISTER_SUBSCRIBER: _Rules(
        frozenset(_COMMON | _IDENTITY | {C.MQPSC_SUBSCRIPTION_POINT, C.MQPSC_FILTER,
                                         C.MQPSC_REGISTRATION_OPTION, C.MQPSC_SUBSCRIPTION_NAME,
                                         C.MQPSC_SUBSCRIPTION_IDENTITY, C.MQPSC_SUBSCRIPTION_USER_DATA}),
        frozenset({C.MQPSC_TOPIC, C.MQPSC_FILTER, C.MQPSC_REGISTRATION_OPTION}),
        C.MQPSC_REGISTRATION_OPTION,
        frozenset({C.MQPSC_DEREGISTER_ALL, C.MQPSC_CORREL_ID_AS_IDENTITY, C.MQPSC_FULL_RESPONSE,
                   C.MQPSC_LEAVE_ONLY, C.MQPSC_NO_REG_OPTIONS, C.MQPSC_VARIABLE_USER_ID}),
        C.MQRCCF_REG_OPTIONS_ERROR, QueueKind.CONTROL),
    C.MQPSC_REQUEST_UPDATE: _Rules(
        frozenset(_COMMON | _IDENTITY | {C.MQPSC_SUBSCRIPTION_POINT, C.MQPSC_FILTER,
                                         C.MQPSC_REGISTRATION_OPTION, C.MQPSC_SUBSCRIPTION_NAME}),
        frozenset({C.MQPSC_REGISTRATION_OPTION}),  # exactly one Topic (§7)
        C.MQPSC_REGISTRATION_OPTION,
        frozenset({C.MQPSC_CORREL_ID_AS_IDENTITY, C.MQPSC_NO_REG_OPTIONS, C.MQPSC_VARIABLE_USER_ID}),
        C.MQRCCF_REG_OPTIONS_ERROR, QueueKind.CONTROL),  # 3083 for ReqUpdate too
    C.MQPSC_DELETE_PUBLICATION: _Rules(
        frozenset(_COMMON | {C.MQPSC_SUBSCRIPTION_POINT, C.MQPSC_DELETE_OPTION}),  # SubPoint: A-26
        frozenset({C.MQPSC_TOPIC}),  # DelOpt once (§8 DECISION)
        C.MQPSC_DELETE_OPTION,
        frozenset({C.MQPSC_LOCAL, C.MQPSC_NO_REG_OPTIONS}),
        C.MQRCCF_DEL_OPTIONS_ERROR, QueueKind.STREAM),
}


def _check_psc(psc: Folder | Sequence[Folder] | None) -> Folder | Refusal:
    """Step 3: the single ``<psc>`` of the first MQRFH2 (none: 2339, several: 2338)."""
    if isinstance(psc, Folder):
        return psc
    folders = list(psc or ())
    if not folders:
        return Refusal(C.MQRC_RFH_PARM_MISSING)
    if len(folders) > 1:
        return Refusal(C.MQRC_RFH_DUPLICATE_PARM)
    return folders[0]


def _check_command(psc: Folder) -> _Rules | Refusal:
    """Step 4: ``<Command>`` missing (2339), repeated (2338), not one of the five (2336)."""
    commands = [child for child in psc.children if child.name == C.MQPSC_COMMAND]
    if not commands:
        return Refusal(C.MQRC_RFH_PARM_MISSING)
    if len(commands) > 1:
        return Refusal(C.MQRC_RFH_DUPLICATE_PARM, (commands[1],))
    rules = RULES.get(commands[0].text)
    if rules is None or commands[0].children:
        return Refusal(C.MQRC_RFH_COMMAND_ERROR, (commands[0],))
    return rules


def _check_tags(psc: Folder, command: str, rules: _Rules) -> Refusal | None:
    """Step 5: a tag the command does not know, or a group (2337); a tag repeated that may not
    be (2338); a required tag missing (2339: Topic, but for a DeregSub with DeregAll)."""
    for child in psc.children:
        if child.name not in rules.tags or child.children:
            return Refusal(C.MQRC_RFH_PARM_ERROR, (child,))
    seen: set[str] = set()
    for child in psc.children:
        if child.name in seen and child.name not in rules.repeatable:
            return Refusal(C.MQRC_RFH_DUPLICATE_PARM, (child,))
        seen.add(child.name)
    deregister_all = (command == C.MQPSC_DEREGISTER_SUBSCRIBER
                      and C.MQPSC_DEREGISTER_ALL in psc.values(C.MQPSC_REGISTRATION_OPTION))
    if C.MQPSC_TOPIC not in seen and not deregister_all:
        return Refusal(C.MQRC_RFH_PARM_MISSING)
    return None


def _check_options(psc: Folder, command: str, rules: _Rules) -> frozenset[str] | Refusal:
    """Step 6: option values the command does not know, and illegal combinations (D §5.1:
    FullResp with more than one Topic, AddName without SubName; §6.1, §6.3: FullResp with DeregAll
    or several Topics, LeaveOnly without SubIdentity), with the option echoed."""
    given = [child for child in psc.children if child.name == rules.option_tag]
    for child in given:
        if child.text not in rules.option_values:
            return Refusal(rules.option_reason, (child,))
    options = frozenset(child.text for child in given)
    by_text = {child.text: child for child in given}
    if command == C.MQPSC_REGISTER_SUBSCRIBER:  # the combinations of D §5.1
        if C.MQPSC_FULL_RESPONSE in options and len(psc.values(C.MQPSC_TOPIC)) > 1:
            return Refusal(rules.option_reason, (by_text[C.MQPSC_FULL_RESPONSE],))
        if C.MQPSC_ADD_NAME in options and psc.get(C.MQPSC_SUBSCRIPTION_NAME) is None:
            return Refusal(rules.option_reason, (by_text[C.MQPSC_ADD_NAME],))
    if command == C.MQPSC_DEREGISTER_SUBSCRIBER:  # D §6.1, §6.3: S-09 (d), (e), (f)
        if C.MQPSC_FULL_RESPONSE in options and (C.MQPSC_DEREGISTER_ALL in options
                                                 or len(psc.values(C.MQPSC_TOPIC)) > 1):
            return Refusal(rules.option_reason, (by_text[C.MQPSC_FULL_RESPONSE],))
        if C.MQPSC_LEAVE_ONLY in options and psc.get(C.MQPSC_SUBSCRIPTION_IDENTITY) is None:
            return Refusal(rules.option_reason, (by_text[C.MQPSC_LEAVE_ONLY],))
    return options - {C.MQPSC_NO_REG_OPTIONS}  # None with others is ignored (§3.1)


def _identity(psc: Folder, md: MessageDescriptor, options: frozenset[str], local_qmgr: str,
              need_queue: bool) -> Identity | Refusal:
    """Step 8 (D §3.4): QMgrName (else ReplyToQMgr, else the local name), QName (else ReplyToQ;
    blank where a queue is needed: 3076, A-8), CorrelId when CorrelAsId (MQCI_NONE: 3080)."""
    qmgr = (psc.get(C.MQPSC_Q_MGR_NAME) or "").strip() or md.ReplyToQMgr.strip() or local_qmgr
    queue = (psc.get(C.MQPSC_Q_NAME) or "").strip() or md.ReplyToQ.strip()
    if need_queue and not queue:
        element = psc.child(C.MQPSC_Q_NAME)
        return Refusal(C.MQRCCF_Q_NAME_ERROR, (element,) if element is not None else ())
    correl_id: bytes | None = None
    if C.MQPSC_CORREL_ID_AS_IDENTITY in options:
        if md.CorrelId == C.MQCI_NONE:
            return Refusal(C.MQRCCF_CORREL_ID_ERROR)
        correl_id = md.CorrelId
    return Identity(qmgr, queue, correl_id)


def check_topic(topic: str, wildcards_allowed: bool) -> bool:
    """Step 9's syntax (D §4, A-41): not empty, at most 10 240 characters, no ``#``/``+`` in a
    Publish."""
    if not topic or len(topic) > MAX_TOPIC_LENGTH:
        return False
    return wildcards_allowed or not any(char in topic for char in WILDCARDS)


def _check_topics(psc: Folder, wildcards_allowed: bool) -> tuple[str, ...] | Refusal:
    for child in psc.children:
        if child.name == C.MQPSC_TOPIC and not check_topic(child.text, wildcards_allowed):
            return Refusal(C.MQRCCF_TOPIC_ERROR, (child,))
    return tuple(psc.values(C.MQPSC_TOPIC))


def parse(psc: Folder | Sequence[Folder] | None, queue_kind: QueueKind, md: MessageDescriptor,
          local_qmgr: str = "") -> Command | Refusal:
    """A command message's ``<psc>`` (the folder, or every psc folder of the first MQRFH2) to a
    command, or the refusal of the first check that fails, in the order of D §3.6 (steps 3-9).
    ``local_qmgr`` is the name a blank QMgrName and ReplyToQMgr resolve to."""
    folder = _check_psc(psc)  # step 3
    if isinstance(folder, Refusal):
        return folder
    rules = _check_command(folder)  # step 4
    if isinstance(rules, Refusal):
        return rules
    command = folder.get(C.MQPSC_COMMAND) or ""
    refusal = _check_tags(folder, command, rules)  # step 5
    if refusal is not None:
        return refusal
    options = _check_options(folder, command, rules)  # step 6
    if isinstance(options, Refusal):
        return options
    if queue_kind is not rules.queue:  # step 7 (R-Q-1)
        return Refusal(C.MQRCCF_INCORRECT_Q)
    sub_point = folder.get(C.MQPSC_SUBSCRIPTION_POINT)
    if command == C.MQPSC_DELETE_PUBLICATION:
        topics = _check_topics(folder, wildcards_allowed=True)  # step 9
        if isinstance(topics, Refusal):
            return topics
        return DeletePub(topics, C.MQPSC_LOCAL in options, sub_point)
    need_queue = command != C.MQPSC_PUBLISH or C.MQPSC_OTHER_SUBS_ONLY in options
    identity = _identity(folder, md, options, local_qmgr, need_queue)  # step 8
    if isinstance(identity, Refusal):
        return identity
    topics = _check_topics(folder, wildcards_allowed=command != C.MQPSC_PUBLISH)  # step 9
    if isinstance(topics, Refusal):
        return topics
    if command == C.MQPSC_PUBLISH:
        return Publish(topics, identity, options - {C.MQPSC_IS_RETAINED_PUB}, sub_point,
                       folder.get(C.MQPSC_PUBLISH_TIMESTAMP), folder.get(C.MQPSC_SEQUENCE_NUMBER))
    sub_name = folder.get(C.MQPSC_SUBSCRIPTION_NAME)
    if command == C.MQPSC_REGISTER_SUBSCRIBER:
        given = folder.values(C.MQPSC_REGISTRATION_OPTION)
        persistence = [option for option in given if option in _PERSISTENCE]
        return RegSub(topics, identity, options - set(_PERSISTENCE),
                      persistence[-1] if persistence else C.MQPSC_PERSISTENT_AS_PUBLISH, bool(given),
                      sub_point, folder.get(C.MQPSC_FILTER), sub_name,
                      folder.get(C.MQPSC_SUBSCRIPTION_IDENTITY), folder.get(C.MQPSC_SUBSCRIPTION_USER_DATA))
    if command == C.MQPSC_DEREGISTER_SUBSCRIBER:
        return DeregSub(topics, identity, options, sub_point, tuple(folder.values(C.MQPSC_FILTER)), sub_name,
                        folder.get(C.MQPSC_SUBSCRIPTION_IDENTITY), folder.get(C.MQPSC_SUBSCRIPTION_USER_DATA))
    return ReqUpdate(topics[0], identity, options, sub_point, folder.get(C.MQPSC_FILTER), sub_name)
