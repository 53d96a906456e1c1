"""Who receives a publication, and what each copy looks like.

``recipients`` applies, in order, the rules that narrow the subscriptions whose topic matched:
expiry, publications-on-request, WILDCARD(BLOCK) snapshots (spec A R-WB-5), selection strings,
own-publication exclusions, subscription levels (spec C R-INT-3) and grouping (R-GRP-1..4).
``publication_copy`` builds one subscriber's message: MQMD rules of spec C §5.3 and the
publish/subscribe properties of §5.1.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from mqlite import cmqc as C
from mqlite.core.pubsub.subscription import MQSO_NOT_OWN_PUBS, Subscription
from mqlite.message import NULL_ACCOUNTING_TOKEN, NULL_ID, Message, MessageDescriptor, Properties

if TYPE_CHECKING:
    from mqlite.core.handles import Connection

DEFAULT_PUB_LEVEL = 9
# Property names and their MQRFH2 synonyms (spec C §5.1, R-PROP-1).
PROPERTY_SYNONYMS = {
    "MQTopicString": "mqps.Top", "MQSubUserData": "mqps.Sud", "MQIsRetained": "mqps.Ret",
    "MQPubOptions": "mqps.Pub", "MQPubLevel": "mqps.Pbl", "MQPubTime": "mqpse.Pts",
    "MQPubSeqNum": "mqpse.Seq", "MQPubStrIntData": "mqpse.Sid", "MQPubFormat": "mqpse.Pfmt",
}
PUB_OPTIONS_MASK = C.MQPMO_RETAIN
_GROUPING_OPTIONS = C.MQSO_GROUP_SUB | MQSO_NOT_OWN_PUBS  # what sends ``recipients`` to ``_grouped``
_BELOW_ANY_LEVEL = -(2**31)


def blocked_for(sub: Subscription, topic_levels: tuple[str, ...]) -> bool:
    """Spec A R-WB-5: a wildcard subscription does not see below a WILDCARD(BLOCK) topic deeper
    than its literal prefix, as the blocks stood when it was made."""
    blocked = sub.blocked
    if not blocked or not sub.wildcard:
        return False
    for depth in range(sub.prefix_depth + 1, len(topic_levels) + 1):
        if "/".join(topic_levels[:depth]) in blocked:
            return True
    return False


def recipients(
    matched: Iterable[Subscription], topic_levels: tuple[str, ...], md: MessageDescriptor,
    properties: Properties, publisher: Connection | None, options: int, pub_level: int, now: float,
    retained_delivery: bool = False,
) -> tuple[list[Subscription], int]:
    """The subscriptions that get a copy, and the level L that took the publication (0 if none)."""
    # One pass keeps the subscriptions at the highest level taken so far (the common case: one
    # level, no groups); what it keeps is what filtering, then "eligible", then "chosen" gave.
    chosen: list[Subscription] = []
    level = _BELOW_ANY_LEVEL
    not_own_subs = bool(options & C.MQPMO_NOT_OWN_SUBS)
    for sub in matched:
        if sub.expires_at and sub.expires_at <= now:
            continue
        if sub.options & C.MQSO_PUBLICATIONS_ON_REQUEST and not retained_delivery:
            continue
        if sub.blocked and blocked_for(sub, topic_levels):
            continue
        if sub.selector is not None and not sub.selector(properties, md):
            continue
        if not_own_subs and publisher is not None and sub.holder_conn is publisher:
            continue
        sub_level = sub.level
        if sub_level > pub_level or sub_level < level:
            continue
        if sub_level > level:
            level = sub_level
            chosen = [sub]
        else:
            chosen.append(sub)
    if not chosen:
        return [], 0
    for sub in chosen:
        if sub.options & _GROUPING_OPTIONS:
            return _grouped(chosen, publisher), level
    return chosen, level


def _grouped(chosen: list[Subscription], publisher: Connection | None) -> list[Subscription]:
    """Grouping (R-GRP-1..4) and own-publication exclusions of the subscriptions chosen."""
    grouped = [s for s in chosen if s.options & C.MQSO_GROUP_SUB]
    if grouped:
        chosen = [s for s in chosen if not s.options & C.MQSO_GROUP_SUB]
        groups: dict[tuple[str, bytes, int], Subscription] = {}
        for sub in grouped:  # the closest match of each group takes the copy (R-GRP-3, A-17)
            key = (sub.dest, sub.correl_id, sub.level)
            best = groups.get(key)
            if best is None or (sub.prefix_depth, best.sub_id) > (best.prefix_depth, sub.sub_id):
                groups[key] = sub
        chosen.extend(groups.values())
    if publisher is not None:  # MQSO_NOT_OWN_PUBS, after grouping (R-GRP-4)
        chosen = [s for s in chosen if not (s.options & MQSO_NOT_OWN_PUBS and s.holder_conn is publisher)]
    return chosen


def publication_copy(
    sub: Subscription, md: MessageDescriptor, properties: Properties, body: bytes, topic: str,
    options: int, pub_level: int, msg_id: bytes, queue_priority: int, retained: bool = False,
) -> Message:
    """One subscriber's copy of a publication (spec C §5.1-5.3)."""
    sub_options = sub.options
    correl_id = md.CorrelId
    if not sub_options & C.MQSO_SET_CORREL_ID or sub.correl_id != NULL_ID:
        correl_id = sub.correl_id  # else: the publisher's CorrelId (R-PROP-5)
    priority = md.Priority
    if sub.pub_priority >= 0:
        priority = sub.pub_priority
    elif sub.pub_priority == C.MQPRI_PRIORITY_AS_Q_DEF:
        priority = queue_priority
    if sub_options & C.MQSO_SET_IDENTITY_CONTEXT:
        info = sub.view
        accounting_token, appl_identity = info.pub_accounting_token, info.pub_appl_identity
    else:
        accounting_token, appl_identity = NULL_ACCOUNTING_TOKEN, ""
    # The publisher's MQMD with the copy's own fields, in one call (every copy makes one).
    copy = MessageDescriptor(
        md.Report, md.MsgType, md.Expiry, md.Feedback, md.Encoding, md.CodedCharSetId, md.Format,
        priority, md.Persistence, msg_id, correl_id, md.BackoutCount, md.ReplyToQ, md.ReplyToQMgr,
        sub.user[:12], accounting_token, appl_identity, md.PutApplType, md.PutApplName, md.PutDate,
        md.PutTime, md.ApplOriginData, md.GroupId, md.MsgSeqNumber, md.Offset, md.MsgFlags,
        md.OriginalLength)
    ps_properties = sub.details.ps_properties if sub.details is not None else C.MQPSPROP_MSGPROP
    if ps_properties == C.MQPSPROP_NONE:
        return Message(copy, body, dict(properties))
    props = dict(properties)
    props["MQTopicString"] = topic
    if sub.user_data:
        props["MQSubUserData"] = sub.user_data
    pub_options = options & PUB_OPTIONS_MASK
    if pub_options:
        props["MQPubOptions"] = pub_options
    if pub_level != DEFAULT_PUB_LEVEL:
        props["MQPubLevel"] = pub_level
    if retained:
        props["MQIsRetained"] = True
    return Message(copy, body, props)
