"""Register Subscriber, Deregister Subscriber and Request Update of the queued interface on the
engine's subscriptions (spec D §5-§7).

Each registration is a durable subscription of the engine (one per topic, D §3.8) delivering in
the MQRFH2 form (PSPROP(RFH2)), with the queued interface's own record beside it
(``core.queued.registration``): its traditional identity, the topic as written, subpoint,
filter, options and identity set. A subscription is found by SubName, or by its key (identity,
Topic, SubPoint, Filter, D §3.4); the pure rules of ``core.queued.names`` and ``registration``
decide SubName, userid and identity-set questions. Refusals are returned, never raised, and
leave the subscriptions as they were.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.handles import Connection
from mqlite.core.objects import ObjectDefinitions
from mqlite.core.pubsub.delivery import CopyDelivery
from mqlite.core.pubsub.registry import Subscriptions
from mqlite.core.pubsub.subscribe import Subscriber
from mqlite.core.pubsub.subscription import Subscription
from mqlite.core.queued import names, registration, responses
from mqlite.core.queued.commands import DeregSub, Identity, Refusal, RegSub, ReqUpdate
from mqlite.core.queued.registration import Registration
from mqlite.core.security.access import Access
from mqlite.core.selectors import compile_selector
from mqlite.message import NULL_ID, MessageDescriptor
from mqlite.protocol.rfh2_folders import Element, Folder

Result = tuple[list[Refusal], Folder | None] | Refusal
# Options that act on the command, not kept with the subscription (identity-set joins, FullResp,
# AddName, NoAlter).
_ACTING = frozenset({C.MQPSC_JOIN_SHARED, C.MQPSC_JOIN_EXCLUSIVE, C.MQPSC_FULL_RESPONSE, C.MQPSC_ADD_NAME,
                     C.MQPSC_NO_ALTERATION})
_QMGR_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._/%")


def _echo(tag: str, value: str) -> tuple[Element, ...]:
    return (Element(tag, value),)


class QueuedSubscribers:
    def __init__(self, objects: ObjectDefinitions, subscriptions: Subscriptions, subscriber: Subscriber,
                 delivery: CopyDelivery, access: Access) -> None:
        self.name = objects.name
        self.objects = objects
        self.subscriptions = subscriptions
        self.subscriber = subscriber
        self.delivery = delivery
        self.access = access

    # -- lookups ------------------------------------------------------------------------------------
    def registered(self) -> Iterator[tuple[Subscription, Registration]]:
        for sub in list(self.subscriptions.subs_by_id.values()):
            details = sub.details
            if details is not None and details.queued is not None:
                yield sub, details.queued

    def _named(self, sub_name: str | None) -> tuple[Subscription, Registration] | None:
        if sub_name is None:
            return None
        for sub in self.subscriptions.subs_by_name.get(sub_name, []):
            if sub.details is not None and sub.details.queued is not None:
                return sub, sub.details.queued
        return None

    def _keyed(self, identity: Identity, topic: str, sub_point: str | None, filter: str | None, stream: str
               ) -> tuple[Subscription, Registration] | None:
        for sub, reg in self.registered():
            if (reg.identity == identity and reg.topic == topic and reg.sub_point == sub_point
                    and reg.filter == filter and reg.stream == stream):
                return sub, reg
        return None

    @staticmethod
    def _existing(sub: Subscription, reg: Registration) -> names.Existing:
        return names.Existing(names.SubKey(reg.topic, reg.filter, reg.identity), reg.sub_name, sub.user,
                              reg.has(C.MQPSC_VARIABLE_USER_ID))

    def check_queue(self, identity: Identity) -> Refusal | None:
        """D §3.4: a queue-manager name that cannot be one (3074); the local queue manager's
        queue must exist (3076). Other queue managers' queues are taken on trust (DECISION)."""
        qmgr = identity.qmgr_name
        if len(qmgr) > 48 or not set(qmgr) <= _QMGR_NAME_CHARS:
            return Refusal(C.MQRCCF_Q_MGR_NAME_ERROR, _echo(C.MQPSC_Q_MGR_NAME, qmgr))
        if qmgr == self.name and identity.q_name not in self.objects.qdefs:
            return Refusal(C.MQRCCF_Q_NAME_ERROR, _echo(C.MQPSC_Q_NAME, identity.q_name))
        return None

    def execute(self, conn: Connection, md: MessageDescriptor, command: RegSub | DeregSub | ReqUpdate,
                sub_points: Collection[str], stream: str = "", prefix: str = "", version: int = 2) -> Result:
        """One subscriber command; ``stream`` and ``prefix``: a version 6 command's stream (its
        subscriptions keyed by it and mapped under its topic prefix), ``version`` 1 for those."""
        refusal = self.check_queue(command.identity)
        if refusal is not None:
            return refusal
        if command.sub_point is not None and command.sub_point not in sub_points:
            return Refusal(C.MQRC_RFH_PARM_ERROR, _echo(C.MQPSC_SUBSCRIPTION_POINT, command.sub_point))
        if isinstance(command, RegSub):
            return self._register(conn, md, command, stream, prefix, version)
        if isinstance(command, DeregSub):
            return self._deregister(md, command, stream)
        return self._request_update(conn, md, command, stream)

    # -- Register Subscriber (D §5) -------------------------------------------------------------------
    def _register(self, conn: Connection, md: MessageDescriptor, command: RegSub, stream: str, prefix: str,
                  version: int) -> Result:
        refusal = names.check_sub_identity(command.sub_identity)
        if refusal is not None:
            return refusal
        if command.filter is not None:
            try:
                compile_selector(command.filter)
            except MQError:
                return Refusal(C.MQRCCF_FILTER_ERROR, _echo(C.MQPSC_FILTER, command.filter))
        queue = self.objects.queues.get(command.identity.q_name)
        if (queue is not None and queue.dynamic == "TEMPDYN" and command.persistence != C.MQPSC_NON_PERSISTENT):
            return Refusal(C.MQRCCF_REG_OPTIONS_ERROR)  # a temporary dynamic queue needs NonPers
        user = md.UserIdentifier.strip()
        principal = self.access.principal_of(user)
        warnings: list[Refusal] = []
        Plan = tuple[str, str, tuple[Subscription, Registration] | None, list[str], bool, Refusal | None]
        plans: list[Plan] = []
        for topic in command.topics:
            full = names.full_topic(topic, prefix, command.sub_point, [command.sub_point] if command.sub_point else [])
            assert isinstance(full, str)  # the subpoint was checked
            if not self.access.topic_walk(principal, full, C.MQZAO_SUBSCRIBE, version == 1).granted:
                warnings.append(Refusal(C.MQRCCF_NOT_AUTHORIZED, _echo(C.MQPSC_TOPIC, topic)))
                continue
            named = self._named(command.sub_name)
            keyed = self._keyed(command.identity, topic, command.sub_point, command.filter, stream)
            key = names.SubKey(topic, command.filter, command.identity)
            refusal = names.regsub_name(command.sub_name, key, C.MQPSC_ADD_NAME in command.options,
                                        self._existing(*named) if named else None,
                                        self._existing(*keyed) if keyed else None)
            if refusal is not None:
                return refusal
            existing = named or keyed
            if existing is not None:
                refusal = self._may_change(existing, user, command, by_name=named is not None)
                if refusal is not None:
                    return refusal
            members, exclusive, joined = registration.join(existing[1] if existing else None,
                                                           command.sub_identity, command.options)
            if joined is not None and joined.reason != C.MQRCCF_ALREADY_JOINED:
                return joined
            plans.append((topic, full, existing, members, exclusive, joined))
        if not plans and warnings:
            return warnings[0]  # every topic refused
        described: Folder | None = None
        for topic, full, existing, members, exclusive, joined in plans:  # all checked: now change
            if joined is not None:
                warnings.append(joined)  # 3157, a warning
            if existing is None:
                sub, reg = self._create(conn, md, command, topic, full, members, exclusive, stream, version)
            else:
                sub, reg = existing
                self._update(conn, md, command, sub, reg, members, exclusive)
            if C.MQPSC_FULL_RESPONSE in command.options:
                described = responses.full_response(reg)
        return warnings, described

    def _may_change(self, existing: tuple[Subscription, Registration], user: str, command: RegSub,
                    by_name: bool) -> Refusal | None:
        sub, reg = existing
        refusal = names.user_allowed(self._existing(sub, reg), user, by_name)
        if refusal is not None:
            return refusal
        adding_variable = C.MQPSC_VARIABLE_USER_ID in command.options and not reg.has(C.MQPSC_VARIABLE_USER_ID)
        if adding_variable and sub.user.strip() != user:
            return Refusal(C.MQRCCF_WRONG_USER)  # only the original user adds VariableUserId (D §5.1)
        if _alters(command, reg):
            return registration.may_alter(reg, command.sub_identity)
        return None

    def _sub_options(self, options: frozenset[str], version: int = 2) -> int:
        flags = C.MQSO_WILDCARD_CHAR if version == 1 else C.MQSO_WILDCARD_TOPIC
        if C.MQPSC_LOCAL in options:
            flags |= C.MQSO_SCOPE_QMGR
        if C.MQPSC_PUB_ON_REQUEST_ONLY in options:
            flags |= C.MQSO_PUBLICATIONS_ON_REQUEST
        if C.MQPSC_NEW_PUBS_ONLY in options:
            flags |= C.MQSO_NEW_PUBLICATIONS_ONLY
        flags |= C.MQSO_ANY_USERID if C.MQPSC_VARIABLE_USER_ID in options else C.MQSO_FIXED_USERID
        if C.MQPSC_CORREL_ID_AS_IDENTITY in options:
            flags |= C.MQSO_SET_CORREL_ID
        return flags

    def _create(self, conn: Connection, md: MessageDescriptor, command: RegSub, topic: str, full: str,
                members: list[str], exclusive: bool, stream: str, version: int) -> tuple[Subscription, Registration]:
        identity = command.identity
        options = command.options - _ACTING
        reg = Registration(identity, topic, full[:len(full) - len(topic)].rstrip("/"), command.sub_point,
                           command.filter, options, command.persistence, command.sub_name,
                           command.sub_user_data, members, exclusive, md.AccountingToken, md.ApplIdentityData,
                           stream, version)
        queue = self.objects.queues.get(identity.q_name)
        durable = queue is None or queue.dynamic != "TEMPDYN"
        name = command.sub_name or names.generated_name(identity, topic, command.sub_point, stream, command.filter)
        # Without CorrelAsId the CorrelId is the SubId: fixed and non-zero (D §9.2, A-39).
        sub = self.subscriber.new_subscription(
            full, version == 1, durable, name, md.UserIdentifier.strip(), options=self._sub_options(options, version),
            selection=command.filter or "", correl_id=identity.correl_id or NULL_ID, expiry=md.Expiry,
            user_data=command.sub_user_data or "")
        sub.dest = identity.q_name
        info = sub.info
        info.object_string = full
        info.dest_qmgr = identity.qmgr_name if identity.qmgr_name != self.name else ""
        info.ps_properties = C.MQPSPROP_RFH2
        info.variable_user = C.MQPSC_VARIABLE_USER_ID in options
        info.queued = reg
        self.subscriptions.add(sub)
        if not options & {C.MQPSC_NEW_PUBS_ONLY, C.MQPSC_PUB_ON_REQUEST_ONLY}:
            self.delivery.send_retained(conn, sub)
        return sub, reg

    def _update(self, conn: Connection, md: MessageDescriptor, command: RegSub, sub: Subscription,
                reg: Registration, members: list[str], exclusive: bool) -> None:
        """A re-registration (D §5.1): joins always; with NoAlter nothing else; RegOpt omitted
        keeps the options; given (None among them resets) replaces them (A-17); expiry from the
        MQMD; AddName names an unnamed subscription."""
        reg.members, reg.exclusive = members, exclusive
        if C.MQPSC_ADD_NAME in command.options and reg.sub_name is None and command.sub_name:
            self.subscriptions.remove(sub)
            sub.name = command.sub_name
            reg.sub_name = command.sub_name
            self.subscriptions.add(sub)
        if C.MQPSC_NO_ALTERATION not in command.options:
            had_new_only = reg.has(C.MQPSC_NEW_PUBS_ONLY)
            if _alters(command, reg):
                reg.options = command.options - _ACTING
                reg.persistence = command.persistence
                kept = sub.options & (C.MQSO_DURABLE | C.MQSO_MANAGED)
                sub.options = kept | self._sub_options(reg.options, reg.version)
                sub.info.variable_user = reg.has(C.MQPSC_VARIABLE_USER_ID)
            if not reg.has(C.MQPSC_VARIABLE_USER_ID):
                sub.user = md.UserIdentifier.strip()  # the userid is fixed again (D §5.1)
            if command.sub_user_data is not None:
                reg.user_data = sub.user_data = command.sub_user_data
            sub.expiry = md.Expiry
            sub.expires_at = self.subscriber.clock() + md.Expiry / 10 if md.Expiry > 0 else 0.0
            self.subscriptions.schedule_expiry(sub)
            if had_new_only and not reg.has(C.MQPSC_NEW_PUBS_ONLY) and not reg.has(C.MQPSC_PUB_ON_REQUEST_ONLY):
                self.delivery.send_retained(conn, sub)  # D §5.1: NewPubsOnly cleared
        self.persist(sub)

    def persist(self, sub: Subscription) -> None:
        if sub.durable:
            self.objects.outbox.tx.put_record("sub", sub.sub_id.hex(), sub.to_record())

    # -- Deregister Subscriber (D §6) -----------------------------------------------------------------
    def _deregister(self, md: MessageDescriptor, command: DeregSub, stream: str) -> Result:
        user = md.UserIdentifier.strip()
        variable = C.MQPSC_VARIABLE_USER_ID in command.options
        deregister_all = C.MQPSC_DEREGISTER_ALL in command.options
        warnings: list[Refusal] = []
        if command.sub_name is not None:
            named = self._named(command.sub_name)
            traditional = None if named else next(
                (found for found in self.registered() if found[1].identity == command.identity
                 and (not command.topics or found[1].topic in command.topics)), None)
            refusal = names.named_lookup(command.sub_name, self._existing(*named) if named else None,
                                         self._existing(*traditional) if traditional else None)
            if refusal is not None:
                return refusal
            if named is None:
                return Refusal(C.MQRCCF_NOT_REGISTERED, _echo(C.MQPSC_SUBSCRIPTION_NAME, command.sub_name))
            refusal = names.user_allowed(self._existing(*named), user, by_name=True)
            if refusal is not None:
                return refusal
            chosen = [named]
        else:
            chosen = []
            used_topics: set[str] = set()
            used_filters: set[str] = set()
            for sub, reg in self.registered():
                if reg.identity != command.identity or reg.stream != stream:
                    continue
                if reg.has(C.MQPSC_VARIABLE_USER_ID) and not variable:
                    continue  # it must be named with VariableUserId to be found (D §6.2)
                if deregister_all:
                    if reg.sub_name is not None:
                        continue  # v7: DeregAll by identity leaves named subscriptions (D §6.1)
                    if command.sub_point is not None and reg.sub_point != command.sub_point:
                        continue
                elif reg.sub_point != command.sub_point:
                    continue
                if command.topics and reg.topic not in command.topics:
                    continue
                if command.filters and reg.filter not in command.filters:
                    continue
                chosen.append((sub, reg))
                used_topics.add(reg.topic)
                if reg.filter is not None:
                    used_filters.add(reg.filter)
            if not chosen:
                first = _echo(C.MQPSC_TOPIC, command.topics[0]) if command.topics else ()
                return Refusal(C.MQRCCF_NOT_REGISTERED, first)
            for sub, reg in chosen:
                refusal = names.user_allowed(self._existing(sub, reg), user, by_name=False)
                if refusal is not None:
                    return refusal
            warnings += [Refusal(C.MQRCCF_NOT_REGISTERED, _echo(C.MQPSC_TOPIC, topic))
                         for topic in command.topics if topic not in used_topics]
            warnings += [Refusal(C.MQRCCF_NOT_REGISTERED, _echo(C.MQPSC_FILTER, text))
                         for text in command.filters if text not in used_filters]
        plans = []
        for sub, reg in chosen:
            members, remove, refusal = registration.leave(reg, command.sub_identity,
                                                          C.MQPSC_LEAVE_ONLY in command.options)
            if refusal is not None:
                return refusal
            plans.append((sub, reg, members, remove))
        described: Folder | None = None
        for sub, reg, members, remove in plans:
            if C.MQPSC_FULL_RESPONSE in command.options:
                described = responses.full_response(reg)
            if remove:
                self.subscriptions.remove(sub)
            else:
                reg.members = members
                self.persist(sub)
        return warnings, described

    # -- Request Update (D §7) ------------------------------------------------------------------------
    def _request_update(self, conn: Connection, md: MessageDescriptor, command: ReqUpdate, stream: str) -> Result:
        user = md.UserIdentifier.strip()
        by_name = command.sub_name is not None
        found = self._named(command.sub_name) if by_name else None
        if by_name and found is None:
            traditional = self._keyed(command.identity, command.topic, command.sub_point, command.filter, stream)
            refusal = names.named_lookup(command.sub_name, None,
                                         self._existing(*traditional) if traditional else None)
            if refusal is not None:
                return refusal
        if found is None:
            found = self._keyed(command.identity, command.topic, command.sub_point, command.filter, stream)
        if found is None:
            return Refusal(C.MQRCCF_NOT_REGISTERED, _echo(C.MQPSC_TOPIC, command.topic))
        sub, reg = found
        refusal = names.user_allowed(self._existing(sub, reg), user, by_name)
        if refusal is not None:
            return refusal
        if self.delivery.send_retained(conn, sub) == 0:
            return Refusal(C.MQRCCF_NO_RETAINED_MSG, _echo(C.MQPSC_TOPIC, command.topic))
        return [], None


def _alters(command: RegSub, reg: Registration) -> bool:
    """Whether a re-registration changes the subscription's options (D §5.1 A-17: given, they
    replace the stored ones): not with NoAlter, nor when only joins and FullResp are given."""
    if not command.options_given or C.MQPSC_NO_ALTERATION in command.options:
        return False
    return command.options - _ACTING != reg.options or command.persistence != reg.persistence
