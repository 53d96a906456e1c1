"""MQSUB (create, resume, alter), MQSUBRQ and the closing of subscriptions (spec C §3-4, §9-10;
spec A R-MGD-*, R-SUB-*)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, NamedTuple, cast

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.handles import Connection, Handle, open_for_input
from mqlite.core.objects import ObjectDefinitions
from mqlite.core.outbox import MessageIds
from mqlite.core.pubsub.delivery import CopyDelivery
from mqlite.core.pubsub.registry import Subscriptions
from mqlite.core.pubsub.subscription import STORED_OPTIONS, Subscription
from mqlite.core.security.access import Access
from mqlite.core.security.events import Caller
from mqlite.core.security.principal import Principal
from mqlite.core.selectors import compile_selector
from mqlite.core.topics.strings import char_tokens, check_topic_string, has_char_wildcards, has_topic_wildcards
from mqlite.message import NULL_ACCOUNTING_TOKEN, NULL_ID

_MANAGED_PREFIX = {True: "SYSTEM.MANAGED.DURABLE.", False: "SYSTEM.MANAGED.NDURABLE."}


class SubscriptionHandle(NamedTuple):
    """What MQSUB hands back as Hsub: a number in the connection's handle space (the connection
    keeps only the number -> subscription map, so a million open subscriptions stay small)."""

    hobj: int
    subscription: Subscription


def held(conn: Connection, hsub: int) -> Subscription | None:
    """The subscription a connection holds as ``hsub`` (``Connection`` types it loosely: the
    handles module sits below pubsub)."""
    return cast("Subscription | None", conn.subscriptions.get(hsub))


class Subscriber:
    """MQSUB and the life of subscriptions applications hold."""

    def __init__(self, objects: ObjectDefinitions, subscriptions: Subscriptions, delivery: CopyDelivery,
                 ids: MessageIds, access: Access) -> None:
        self.objects = objects
        self.outbox = objects.outbox
        self.clock: Callable[[], float] = objects.clock
        self.subscriptions = subscriptions
        self.tree = subscriptions.tree
        self.delivery = delivery
        self.next_id = ids.next_id
        self.access = access

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
        self.delivery.check_enabled()
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
        if options & C.MQSO_SCOPE_QMGR and options & C.MQSO_SCOPE_ALL:  # spec B A-30
            raise MQError(C.MQRC_OPTIONS_ERROR, "MQSO_SCOPE_QMGR with MQSO_SCOPE_ALL")
        principal, caller = conn.principal, Caller(conn.user, conn.appl_name)
        if options & C.MQSO_ALTERNATE_USER_AUTHORITY:  # altusr; the alternate user becomes SUBUSER
            principal = self.access.alternate(principal, caller, str(sd.get("AlternateUserId") or ""),
                                              sub_options=options)
            caller = caller._replace(user=principal.user)
        queue_handle: Handle | None = None
        if hobj:
            queue_handle = conn.handles.get(hobj)
            if queue_handle is None or queue_handle.queue is None or queue_handle.managed:
                raise MQError(C.MQRC_HOBJ_ERROR, f"object handle {hobj} is not a queue you opened")
            if managed:
                raise MQError(C.MQRC_HOBJ_ERROR, "MQSO_MANAGED takes no queue handle (MQHO_NONE)")
        existing = self.subscriptions.subs_by_name.get(name, []) if name else []
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
            return self._create_subscription(conn, sd, options, name, queue_handle, principal, caller)
        return self._resume_subscription(conn, sub, sd, options, alter, queue_handle, principal, caller)

    def _create_subscription(
        self, conn: Connection, sd: dict[str, Any], options: int, name: str, queue_handle: Handle | None,
        principal: Principal, caller: Caller,
    ) -> tuple[SubscriptionHandle, Handle | None, dict[str, Any]]:
        managed = bool(options & C.MQSO_MANAGED)
        durable = bool(options & C.MQSO_DURABLE)
        char_scheme = bool(options & C.MQSO_WILDCARD_CHAR)
        object_name = str(sd.get("ObjectName") or "")
        object_string = str(sd.get("ObjectString") or "")
        topic, _ = self.subscriptions.resolve_topic(object_name, object_string)
        sub = self.new_subscription(
            topic, char_scheme, durable, name, principal.user, level=int(sd.get("SubLevel", 1)),
            options=options, selection=str(sd.get("SelectionString") or ""),
            correl_id=bytes(sd.get("SubCorrelId") or NULL_ID), pub_priority=int(sd.get("PubPriority", -3)),
            user_data=str(sd.get("SubUserData") or ""), expiry=int(sd.get("SubExpiry", C.MQEI_UNLIMITED)),
        )
        # sub on the topic by the walk, then put (and setid) on an unmanaged destination, before
        # anything exists: a refused subscriber leaves no node, queue or subscription (R-SEC-10).
        self.access.subscribe(principal, caller, topic, C.MQZAO_SUBSCRIBE, options, char_scheme, name)
        if queue_handle is not None:
            self.access.destination(principal, caller, queue_handle.opened_as, _destination_authority(options),
                                    options, topic, name)
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
        self.subscriptions.add(sub)
        hsub = self._hold(conn, sub)
        sub.holder_created = True
        if not options & (C.MQSO_NEW_PUBLICATIONS_ONLY | C.MQSO_PUBLICATIONS_ON_REQUEST):
            self.delivery.send_retained(conn, sub)
        return hsub, returned, self._sd_output(sub, returned)

    def new_subscription(
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
        if durable and name in self.subscriptions.subs_by_name and options & C.MQSO_MANAGED:
            raise MQError(C.MQRC_SUB_ALREADY_EXISTS, f"subscription {name} already exists")
        selector = compile_selector(selection) if selection.strip() else None
        sub_id = self.next_id()
        now = self.clock()
        sub = Subscription(
            # Interned: subscriptions to one topic string share it (70 bytes each, as it came in).
            sub_id=sub_id, name=name, topic=sys.intern(topic),
            options=(options & STORED_OPTIONS) | (C.MQSO_DURABLE if durable else 0),
            dest="", correl_id=correl_id if options & C.MQSO_SET_CORREL_ID else sub_id, sub_type=sub_type,
            level=level, pub_priority=pub_priority, user=user, user_data=user_data, selector=selector,
            expiry=expiry, expires_at=now + expiry / 10 if expiry > 0 else 0.0, wildcard=wildcard,
        )
        sub.created = now
        if self.subscriptions.check_new is not None:  # before anything exists (B:R-ERR-1)
            self.subscriptions.check_new(sub)
        return sub

    def _create_managed_queue(self, conn: Connection, sub: Subscription, model_name: str,
                              options: int = 0) -> Handle:
        self.make_managed_queue(sub, model_name)
        return self._open_managed(conn, sub, options)

    def make_managed_queue(self, sub: Subscription, model_name: str) -> None:
        """A managed queue from the topic's model queue (spec A R-MGD-8), named as IBM names
        them: SYSTEM.MANAGED.[N]DURABLE. and 16 hexadecimal characters (spec C R-HOBJ-7)."""
        definition = self.objects.qdefs.get(model_name)
        if definition is None or definition[0] != "QMODEL":
            raise MQError(C.MQRC_UNKNOWN_OBJECT_NAME, f"model queue {model_name} for managed subscriptions")
        model = dict(definition[1])
        model["DEFTYPE"] = "PERMDYN" if sub.durable else "TEMPDYN"
        name = self.objects.create_dynamic(model, _MANAGED_PREFIX[sub.durable] + "*")
        sub.dest = name
        self.subscriptions.managed_queues[name] = sub

    def _open_managed(self, conn: Connection, sub: Subscription, sub_options: int = 0) -> Handle:
        """The managed Hobj: get, browse and inquire, exclusive (spec C R-HOBJ-6); MQSO_READ_AHEAD
        streams non-persistent publications to the subscriber ahead of its gets."""
        queue = self.objects.queues[sub.dest]
        options = C.MQOO_INPUT_EXCLUSIVE | C.MQOO_BROWSE | C.MQOO_INQUIRE
        if sub_options & C.MQSO_READ_AHEAD:
            options |= C.MQOO_READ_AHEAD
        elif sub_options & C.MQSO_NO_READ_AHEAD:
            options |= C.MQOO_NO_READ_AHEAD
        handle = Handle(conn.next_hobj, queue.name, queue.name, options, queue)
        open_for_input(queue, handle, options)
        handle.managed = True
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
        queue_handle: Handle | None, principal: Principal, caller: Caller,
    ) -> tuple[SubscriptionHandle, Handle | None, dict[str, Any]]:
        if sub.holder_conn is not None:
            raise MQError(C.MQRC_SUBSCRIPTION_IN_USE, f"subscription {sub.name} is in use")
        user = principal.user
        takeover = sub.user != user
        if takeover and not sub.options & C.MQSO_ANY_USERID:
            raise MQError(C.MQRC_IDENTITY_MISMATCH, f"subscription {sub.name} belongs to {sub.user}")
        # ALTER and an ANY_USERID takeover need sub; the owner's RESUME sub or resume (A-32, R-SEC-27).
        needed = C.MQZAO_SUBSCRIBE if alter or takeover else C.MQZAO_SUBSCRIBE | C.MQZAO_RESUME
        self.access.subscribe(principal, caller, sub.topic, needed, options, sub.char_scheme, sub.name)
        if not sub.managed:  # the destination, as the subscription's (possibly new) user
            dest = queue_handle.opened_as if queue_handle is not None else sub.dest
            authority = _destination_authority(options if alter else options & ~C.MQSO_SET_IDENTITY_CONTEXT)
            if queue_handle is None:  # the queue manager hands back a handle to get and browse with
                authority |= C.MQZAO_INPUT | C.MQZAO_BROWSE
            self.access.destination(principal, caller, dest, authority, options, sub.topic, sub.name)
        if takeover:  # MQSO_ANY_USERID: the subscription takes the new user's identity
            previous, sub.user = sub.user, user
            if alter:
                try:
                    self._alter_subscription(sub, sd, options, queue_handle)
                except MQError:
                    sub.user = previous
                    raise
            elif sub.durable:
                self.outbox.tx.put_record("sub", sub.sub_id.hex(), sub.to_record())
        elif alter:
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
        hsub = self._hold(conn, sub)
        sub.holder_created = False
        return hsub, returned, self._sd_output(sub, returned)

    def _open_implicit(self, conn: Connection, sub: Subscription) -> Handle:
        """RESUME with MQHO_NONE: the queue manager opens the destination itself, for input and
        browse only (so MQINQ on it fails with 2038, spec C R-HOBJ-4)."""
        queue = self.objects.queues.get(sub.dest)
        if queue is None:
            raise MQError(C.MQRC_UNKNOWN_OBJECT_NAME, f"destination {sub.dest} of {sub.name} is not defined")
        options = C.MQOO_INPUT_AS_Q_DEF | C.MQOO_BROWSE
        handle = Handle(conn.next_hobj, queue.name, queue.name, options, queue)
        open_for_input(queue, handle, options)
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
            topic, _ = self.subscriptions.resolve_topic(object_name, object_string)
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
            self.subscriptions.schedule_expiry(sub)
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
            self.outbox.tx.put_record("sub", sub.sub_id.hex(), sub.to_record())

    # -- MQSUBRQ -------------------------------------------------------------------------------
    def request_update(self, conn: Connection, hsub: int, action: int) -> int:
        """MQSUBRQ: send the subscription's retained publications now; their count."""
        sub = held(conn, hsub)
        if sub is None:
            raise MQError(C.MQRC_HOBJ_ERROR, f"handle {hsub} is not a subscription")
        if action != C.MQSR_ACTION_PUBLICATION:
            raise MQError(C.MQRC_ACTION_ERROR, f"MQSUBRQ action {action}")
        sent = self.delivery.send_retained(conn, sub)
        if not sent:
            raise MQError(C.MQRC_NO_RETAINED_MSG, "no retained publication matches")
        return sent

    # -- closing -------------------------------------------------------------------------------
    def close_subscription(self, conn: Connection, hsub: int, options: int) -> None:
        sub = held(conn, hsub)
        assert sub is not None  # the caller found hsub there
        if sub.sub_id not in self.subscriptions.subs_by_id:  # expired or deleted while open: just end the handle
            del conn.subscriptions[hsub]
            return
        if options & C.MQCO_KEEP_SUB and not sub.durable:
            raise MQError(C.MQRC_OPTIONS_ERROR, "MQCO_KEEP_SUB on a non-durable subscription")
        if options & C.MQCO_KEEP_SUB and options & C.MQCO_REMOVE_SUB:
            raise MQError(C.MQRC_OPTIONS_ERROR, "MQCO_KEEP_SUB with MQCO_REMOVE_SUB")
        if options & C.MQCO_REMOVE_SUB and not sub.holder_created:  # not its creator: sub by the walk
            self.access.subscribe(conn.principal, Caller(conn.user, conn.appl_name), sub.topic,
                                  C.MQZAO_SUBSCRIBE, 0, sub.char_scheme, sub.name, closing=True)
        del conn.subscriptions[hsub]
        sub.holder = 0
        sub.holder_conn = None
        sub.holder_created = False
        if options & C.MQCO_REMOVE_SUB or not sub.durable:
            self.subscriptions.remove(sub)

    def close_managed(self, handle: Handle) -> None:
        """MQCLOSE of a managed Hobj: the queue goes when its subscription has already gone."""
        sub = self.subscriptions.managed_queues.get(handle.name)
        if sub is None:
            return
        sub.managed_handle = None
        if sub.sub_id not in self.subscriptions.subs_by_id:
            self.subscriptions.drop_managed_queue(sub)


def _destination_authority(options: int) -> int:
    """What MQSUB needs on an unmanaged destination: put, and setid when the subscription
    supplies identity context (R-SEC-16, R-SEC-25)."""
    if options & C.MQSO_SET_IDENTITY_CONTEXT:
        return C.MQZAO_OUTPUT | C.MQZAO_SET_IDENTITY_CONTEXT
    return C.MQZAO_OUTPUT
