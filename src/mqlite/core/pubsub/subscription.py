"""A subscription, as the queue manager keeps it (spec C §0.1), and its stored form.

The record is lean (``__slots__``, rarely used fields together in ``SubscriptionDetails``) because
a queue manager may hold a million of them; the subscription index and the topic tree refer to
the same object.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from mqlite import cmqc as C
from mqlite.core.queued.registration import Registration
from mqlite.core.selectors import Selector, compile_selector

if TYPE_CHECKING:
    from mqlite.core.topics.tree import TopicNode

# Named in spec C §10.3 but absent from IBM's headers: mqlite's own bit, unused by IBM.
MQSO_NOT_OWN_PUBS = 0x00020000
# The MQSO_* options a subscription keeps (the rest act on the MQSUB call only).
STORED_OPTIONS = (C.MQSO_DURABLE | C.MQSO_MANAGED | C.MQSO_GROUP_SUB | C.MQSO_SET_IDENTITY_CONTEXT
                  | C.MQSO_FIXED_USERID | C.MQSO_ANY_USERID | C.MQSO_PUBLICATIONS_ON_REQUEST
                  | C.MQSO_NEW_PUBLICATIONS_ONLY | C.MQSO_WILDCARD_CHAR | C.MQSO_WILDCARD_TOPIC
                  | C.MQSO_SET_CORREL_ID | C.MQSO_SCOPE_QMGR | C.MQSO_SCOPE_ALL | C.MQSO_NO_READ_AHEAD
                  | C.MQSO_NO_MULTICAST
                  | MQSO_NOT_OWN_PUBS)


@dataclass(slots=True, eq=False)
class SubscriptionDetails:
    """What DISPLAY SUB and MQSD outputs need, but the publishing path does not."""

    object_name: str = ""
    object_string: str = ""
    dest_qmgr: str = ""
    pub_accounting_token: bytes = bytes(32)
    pub_appl_identity: str = ""
    ps_properties: int = C.MQPSPROP_MSGPROP
    altered: float = 0.0
    variable_user: bool = True
    queued: Registration | None = None  # registered by the queued interface (spec D §3.4)


class Holder(Protocol):
    """The connection holding a subscription (``handles.Connection``; a protocol here so that the
    subscription record does not depend on the MQI's handle types, which refer to it)."""

    @property
    def conn_id(self) -> str: ...


class ManagedHandle(Protocol):
    """The Hobj of a managed queue MQSUB returned (``handles.Handle``)."""

    @property
    def hobj(self) -> int: ...

    @property
    def conn(self) -> Holder | None: ...


NO_DETAILS = SubscriptionDetails()  # what a subscription without details reads (never written)


@dataclass(slots=True, eq=False)
class Subscription:
    sub_id: bytes  # 24 bytes, unique; also the generated SubCorrelId (as IBM does)
    name: str  # SubName ('' for an unnamed non-durable subscription)
    topic: str  # the resolved topic string or pattern, fixed at creation (spec C §3.5.1)
    options: int  # the STORED_OPTIONS part of MQSO_*
    dest: str  # destination queue name
    correl_id: bytes  # SubCorrelId put on every copy (NULL with MQSO_SET_CORREL_ID: the publisher's)
    sub_type: int = C.MQSUBTYPE_API
    level: int = 1
    pub_priority: int = C.MQPRI_PRIORITY_AS_PUBLISHED
    user: str = ""  # SUBUSER: the copies' UserIdentifier
    user_data: str = ""
    selector: Selector | None = None
    expiry: int = C.MQEI_UNLIMITED  # tenths of a second, as given (reported unchanged on resume)
    expires_at: float = 0.0  # 0: never
    blocked: frozenset[str] = frozenset()  # WILDCARD(BLOCK) topics when it was made (spec A R-WB-6)
    prefix_depth: int = 0  # literal levels before the first wildcard (k of spec A R-WB-5)
    wildcard: bool = False
    node: TopicNode | None = None  # the tree node the subscription keeps in use
    holder: int = 0  # the open Hsub's number, 0 when no application holds it
    holder_conn: Holder | None = None  # the connection holding it (in use)
    holder_created: bool = False  # the holding Hsub is the one that created it (MQCLOSE REMOVE_SUB, A-33)
    managed_handle: ManagedHandle | None = None  # MQSO_MANAGED: the Hobj MQSUB returned
    details: SubscriptionDetails | None = None  # made only when a subscription needs one
    created: float = 0.0
    resumed: float = 0.0
    last_message: float = 0.0
    messages: int = 0
    retained_seen: set[str] | None = None  # retained publications from other queue managers it got (B A-35)

    @property
    def durable(self) -> bool:
        return bool(self.options & C.MQSO_DURABLE)

    @property
    def managed(self) -> bool:
        return bool(self.options & C.MQSO_MANAGED)

    @property
    def char_scheme(self) -> bool:
        return bool(self.options & C.MQSO_WILDCARD_CHAR)

    @property
    def selection_string(self) -> str:
        return self.selector.text if self.selector is not None else ""

    @property
    def info(self) -> SubscriptionDetails:
        """The details, to change them (made on first use)."""
        if self.details is None:
            self.details = SubscriptionDetails()
        return self.details

    @property
    def view(self) -> SubscriptionDetails:
        """The details, to read them (shared defaults when there are none)."""
        return self.details if self.details is not None else NO_DETAILS

    # -- store ----------------------------------------------------------------------------
    def to_record(self) -> dict[str, Any]:
        d = self.view
        return {
            "id": self.sub_id, "name": self.name, "topic": self.topic, "options": self.options,
            "dest": self.dest, "correl": self.correl_id, "type": self.sub_type, "level": self.level,
            "prio": self.pub_priority, "user": self.user, "udata": self.user_data,
            "selector": self.selection_string, "expiry": self.expiry, "expires_at": self.expires_at,
            "objname": d.object_name, "objstr": d.object_string, "destqm": d.dest_qmgr,
            "acct": d.pub_accounting_token, "applid": d.pub_appl_identity, "psprop": d.ps_properties,
            "created": self.created, "altered": d.altered, "varuser": d.variable_user,
            "queued": d.queued.to_record() if d.queued is not None else None,
        }

    @classmethod
    def from_record(cls, r: dict[str, Any]) -> Subscription:
        selector = compile_selector(r["selector"]) if r.get("selector") else None
        details = SubscriptionDetails(
            object_name=r.get("objname", ""), object_string=r.get("objstr", ""), dest_qmgr=r.get("destqm", ""),
            pub_accounting_token=r.get("acct", bytes(32)), pub_appl_identity=r.get("applid", ""),
            ps_properties=r.get("psprop", C.MQPSPROP_MSGPROP), altered=r.get("altered", 0.0),
            variable_user=r.get("varuser", True),
            queued=Registration.from_record(r["queued"]) if r.get("queued") else None,
        )
        return cls(
            sub_id=r["id"], name=r["name"], topic=r["topic"], options=r["options"], dest=r["dest"],
            correl_id=r["correl"], sub_type=r["type"], level=r["level"], pub_priority=r["prio"],
            user=r["user"], user_data=r["udata"], selector=selector, expiry=r["expiry"],
            expires_at=r["expires_at"], details=details, created=r.get("created", 0.0),
        )
