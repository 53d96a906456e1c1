"""What the queued interface keeps with each subscription it registers (spec D §3.4, §5): the
traditional identity, the topic as registered, subscription point and stream, the RegOpts and
the effective persistence option, the first registration's context, SubUserData, and the
identity set (§5.3) with its rules as pure functions.

The engine stores it in the subscription's details (``core.pubsub.subscription``) and reads it
when it builds a queued subscriber's copy (``publication``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mqlite import cmqc as C
from mqlite.protocol.rfh2_folders import Element

from .commands import Identity, Refusal


@dataclass(slots=True, eq=False)
class Registration:
    identity: Identity
    topic: str  # as the subscriber wrote it (its namespace, D §3.5 step 4)
    prefix: str = ""  # stream prefix and subpoint joined: stripped from delivered topics
    sub_point: str | None = None
    filter: str | None = None
    options: frozenset[str] = frozenset()  # RegOpts without None and the persistence options
    persistence: str = C.MQPSC_PERSISTENT_AS_PUBLISH
    sub_name: str | None = None  # the application's SubName (None: the interface generated one)
    user_data: str | None = None
    members: list[str] = field(default_factory=list)  # the identity set, in joining order
    exclusive: bool = False
    accounting_token: bytes = bytes(32)  # the first registration's (D §9.2)
    appl_identity: str = ""
    stream: str = ""  # a version 6 subscriber's stream (MQPSStreamName); '' for MQRFH2 ones
    version: int = 2  # the header its publications come in: MQRFH2, or (1) MQRFH (D §9.1)

    def has(self, option: str) -> bool:
        return option in self.options

    def to_record(self) -> dict[str, Any]:
        identity = self.identity
        return {"qm": identity.qmgr_name, "q": identity.q_name, "correl": identity.correl_id, "topic": self.topic,
                "prefix": self.prefix, "subpoint": self.sub_point, "filter": self.filter,
                "options": sorted(self.options), "pers": self.persistence, "subname": self.sub_name,
                "udata": self.user_data, "members": list(self.members), "excl": self.exclusive,
                "acct": self.accounting_token, "applid": self.appl_identity, "stream": self.stream,
                "version": self.version}

    @classmethod
    def from_record(cls, r: dict[str, Any]) -> Registration:
        return cls(Identity(r["qm"], r["q"], r["correl"]), r["topic"], r["prefix"], r["subpoint"], r["filter"],
                   frozenset(r["options"]), r["pers"], r["subname"], r["udata"], list(r["members"]), r["excl"],
                   r["acct"], r["applid"], r.get("stream", ""), r.get("version", 2))


def _identity_echo(sub_identity: str) -> tuple[Element, ...]:
    return (Element(C.MQPSC_SUBSCRIPTION_IDENTITY, sub_identity),)


def join(registration: Registration | None, sub_identity: str | None, options: frozenset[str]
         ) -> tuple[list[str], bool, Refusal | None]:
    """A RegSub's identity-set step (D §5.3): the members and exclusive flag after it, and a
    refusal (an error, or 3157 ALREADY_JOINED which is a warning, A-20). ``registration`` None:
    the subscription is new."""
    members = list(registration.members) if registration is not None else []
    exclusive = registration.exclusive if registration is not None else False
    if sub_identity is None:
        return members, exclusive, None
    shared, excl = C.MQPSC_JOIN_SHARED in options, C.MQPSC_JOIN_EXCLUSIVE in options
    echo = _identity_echo(sub_identity)
    if excl:
        if not members:
            return [sub_identity], True, None
        if members == [sub_identity]:
            if exclusive:
                return members, True, Refusal(C.MQRCCF_ALREADY_JOINED, echo)
            return members, True, None  # {X} shared becomes exclusive to X
        if exclusive:
            return members, exclusive, Refusal(C.MQRCCF_SUBSCRIPTION_LOCKED, echo)
        return members, exclusive, Refusal(C.MQRCCF_SUBSCRIPTION_IN_USE, echo)
    if shared:
        if exclusive and members and members != [sub_identity]:
            return members, exclusive, Refusal(C.MQRCCF_SUBSCRIPTION_LOCKED, echo)
        if exclusive:
            return members, False, None  # X's exclusive lock becomes shared
        if sub_identity in members:
            return members, exclusive, Refusal(C.MQRCCF_ALREADY_JOINED, echo)
        return [*members, sub_identity], False, None
    if sub_identity not in members:
        return members, exclusive, Refusal(C.MQRCCF_SUB_IDENTITY_ERROR, echo)
    return members, exclusive, None


def may_alter(registration: Registration, sub_identity: str | None) -> Refusal | None:
    """An alteration by a command carrying SubIdentity X succeeds only if X is (or would be) the
    only member (D §5.3): else 3155."""
    if sub_identity is None or registration.members in ([], [sub_identity]):
        return None
    return Refusal(C.MQRCCF_SUBSCRIPTION_IN_USE, _identity_echo(sub_identity))


def leave(registration: Registration, sub_identity: str | None, leave_only: bool
          ) -> tuple[list[str], bool, Refusal | None]:
    """A DeregSub's identity-set step (D §6.3): the members left and whether the subscription
    is removed; SubIdentity not a member: 3154; LeaveOnly without SubIdentity is the parser's
    3083. No SubIdentity: removed whatever the set holds."""
    if sub_identity is None:
        return [], True, None
    if sub_identity not in registration.members:
        return registration.members, False, Refusal(C.MQRCCF_SUB_IDENTITY_ERROR, _identity_echo(sub_identity))
    members = [member for member in registration.members if member != sub_identity]
    return members, not members and not leave_only, None
