"""Subscription names and topics of the queued publish/subscribe interface as pure decisions
(spec D): the topic mapping of command messages (§3.5: stream prefix, subscription point,
topic; the reverse for delivery), the SubName rules of RegSub (§5.2), DeregSub and ReqUpdate
(§6.2, §7), the userid rules (§5.1 VariableUserId, A-22), SubIdentity's length (§3.4, 3154),
and the subscription name the interface generates (§3.4, A-9). The caller looks the existing
subscriptions up; these functions decide."""

from __future__ import annotations

import hashlib
from collections.abc import Collection
from dataclasses import dataclass

from mqlite import cmqc as C
from mqlite.protocol.rfh2_folders import Element

from .commands import Identity, Refusal

DEFAULT_STREAM = "SYSTEM.BROKER.DEFAULT.STREAM"
MAX_SUB_IDENTITY = 64
GENERATED_PREFIX = "QPUBSUB:"


# -- §3.5 topic mapping ------------------------------------------------------------------------------
def stream_prefix(queue_name: str, topic_string: str | None) -> str:
    """Step 1: the TOPICSTR of the topic object named after the stream queue; ``''`` for the
    default stream, and for a command on the control queue or with no such object (None)."""
    if queue_name.strip() == DEFAULT_STREAM or topic_string is None:
        return ""
    return topic_string


def full_topic(topic: str, prefix: str = "", sub_point: str | None = None,
               sub_points: Collection[str] = ()) -> str | Refusal:
    """Steps 2 and 3: ``sub_point`` must equal the TOPICSTR of a topic object of the subpoint
    namelist (``sub_points``), else 2337 with ``<SubPoint>`` echoed (A-10); the full topic joins
    the non-empty parts of stream prefix, subpoint and topic with ``/`` (A-11)."""
    if sub_point is not None and sub_point not in sub_points:
        return Refusal(C.MQRC_RFH_PARM_ERROR, (Element(C.MQPSC_SUBSCRIPTION_POINT, sub_point),))
    return "/".join(part for part in (prefix, sub_point or "", topic) if part)


def subscriber_topic(full: str, prefix: str = "", sub_point: str | None = None) -> str:
    """Step 4: the topic a queued subscriber sees, its subscription's own prefix stripped."""
    head = "/".join(part for part in (prefix, sub_point or "") if part)
    if head and full.startswith(head + "/"):
        return full[len(head) + 1:]
    return full


# -- §5.2 / §6.2 subscription names -------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class SubKey:
    """What a subscription name cannot alter in v7 (D §5.2 A-18): Topic, Filter and the
    destination (QMgrName, QName, CorrelId)."""

    topic: str
    filter: str | None
    identity: Identity


@dataclass(frozen=True, slots=True)
class Existing:
    """An existing subscription as these rules see it."""

    key: SubKey
    sub_name: str | None
    user_id: str
    variable_user_id: bool = False


def _name(sub_name: str) -> tuple[Element, ...]:
    return (Element(C.MQPSC_SUBSCRIPTION_NAME, sub_name),)


def regsub_name(sub_name: str | None, key: SubKey, add_name: bool, named: Existing | None,
                traditional: Existing | None) -> Refusal | None:
    """A RegSub's SubName (D §5.2): ``named`` is the subscription called ``sub_name`` (if any),
    ``traditional`` the one matching the command's subscription key. A named subscription whose
    Topic, Filter or destination would change: 3153 with ``<SubName>`` (A-18); a traditional
    match without a name while the command names one and says no AddName: 3152 (A-19); a
    traditional match under another name (a name once added is not renamed): 3152."""
    if sub_name is None:
        return None
    if named is not None:
        return Refusal(C.MQRCCF_SUB_NAME_ERROR, _name(sub_name)) if named.key != key else None
    if traditional is not None:
        if traditional.sub_name is None and add_name:
            return None
        return Refusal(C.MQRCCF_DUPLICATE_SUBSCRIPTION, _name(sub_name))
    return None


def named_lookup(sub_name: str | None, named: Existing | None, traditional: Existing | None) -> Refusal | None:
    """A DeregSub's or ReqUpdate's SubName (D §6.2, §7): no subscription of that name while one
    matching the traditional identity has no name: 3153 (A-19)."""
    if sub_name is not None and named is None and traditional is not None and traditional.sub_name is None:
        return Refusal(C.MQRCCF_SUB_NAME_ERROR, _name(sub_name))
    return None


def user_allowed(existing: Existing, user_id: str, by_name: bool) -> Refusal | None:
    """Who may alter, deregister or request updates (D §5.1, §6.2, A-22): the registering user
    unless the subscription has VariableUserId; another user by SubName: 3078, by traditional
    identity: 3151."""
    if existing.variable_user_id or existing.user_id.strip() == user_id.strip():
        return None
    return Refusal(C.MQRCCF_DUPLICATE_IDENTITY if by_name else C.MQRCCF_WRONG_USER)


def check_sub_identity(sub_identity: str | None) -> Refusal | None:
    """SubIdentity is at most 64 characters (D §3.4): longer is 3154, echoed."""
    if sub_identity is not None and len(sub_identity) > MAX_SUB_IDENTITY:
        return Refusal(C.MQRCCF_SUB_IDENTITY_ERROR, (Element(C.MQPSC_SUBSCRIPTION_IDENTITY, sub_identity),))
    return None


def generated_name(identity: Identity, topic: str, sub_point: str | None = None, stream: str = "",
                   filter: str | None = None) -> str:
    """The subscription name the interface gives a subscription registered without one (D §3.4,
    A-9): ``QPUBSUB:`` and the SHA-1 of its key, deterministic and private to the interface."""
    parts = (identity.qmgr_name, identity.q_name, (identity.correl_id or b"").hex(), sub_point or "", stream,
             topic, filter or "")
    return GENERATED_PREFIX + hashlib.sha1("|".join(parts).encode("utf-8")).hexdigest()
