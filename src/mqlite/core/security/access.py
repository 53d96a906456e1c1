"""Authority checks of MQI calls (spec C §11; IBM's "Authorizations for MQI calls"), each refusal
with its authority event and MQRC_NOT_AUTHORIZED.

- MQOPEN of a queue: every MQOO_* option asks for its authority on the first definition the
  name resolves through (the alias, the model, the remote queue definition; the transmission
  queue when ObjectQMgrName names another queue manager), never the base queue (R-SEC-20).
- MQOO_ALTERNATE_USER_AUTHORITY / MQSO_ALTERNATE_USER_AUTHORITY: the running user needs
  ``altusr`` on the queue manager, then every check is the alternate user's (R-SEC-24).
- Topics: the tree walk of ``topic_walk`` for ``pub``, ``sub``, ``resume`` and the context
  authorities (A-34), with the objects asked in the event's AdminTopicNames.

Checks happen at open, subscribe, alter, resume and close-remove, never per message (R-SEC-3).
Administrators pass every check at the first dictionary lookup.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Protocol

from mqlite import cmqc as C
from mqlite.core.security.events import AuthorityEvents, Caller, refusal
from mqlite.core.security.names import VALID
from mqlite.core.security.principal import Principal
from mqlite.core.security.records import PRINCIPAL
from mqlite.core.security.service import not_authorized
from mqlite.core.security.topic_walk import Walk, check_levels, walk

WALKS_LIMIT = 10_000  # remembered topic walks at most; past it the memory starts afresh
INPUT_OPTIONS = C.MQOO_INPUT_AS_Q_DEF | C.MQOO_INPUT_SHARED | C.MQOO_INPUT_EXCLUSIVE
# MQOPEN options and the authority each needs (IBM's MQI authorization table).
OPEN_AUTHORITIES = (
    (INPUT_OPTIONS, C.MQZAO_INPUT),
    (C.MQOO_BROWSE, C.MQZAO_BROWSE),
    (C.MQOO_OUTPUT, C.MQZAO_OUTPUT),
    (C.MQOO_INQUIRE, C.MQZAO_INQUIRE),
    (C.MQOO_SET, C.MQZAO_SET),
    (C.MQOO_PASS_IDENTITY_CONTEXT, C.MQZAO_PASS_IDENTITY_CONTEXT),
    (C.MQOO_PASS_ALL_CONTEXT, C.MQZAO_PASS_ALL_CONTEXT),
    (C.MQOO_SET_IDENTITY_CONTEXT, C.MQZAO_SET_IDENTITY_CONTEXT),
    (C.MQOO_SET_ALL_CONTEXT, C.MQZAO_SET_ALL_CONTEXT),
)
# Publishing: MQOO_OUTPUT is pub on the topic; the context options ask for theirs the same way.
TOPIC_OPEN_AUTHORITIES = ((C.MQOO_OUTPUT, C.MQZAO_PUBLISH), *OPEN_AUTHORITIES[5:])


def open_authority(options: int) -> int:
    """The MQZAO_* bits an MQOPEN of a queue with ``options`` needs."""
    needed = 0
    for option, authority in OPEN_AUTHORITIES:
        if options & option:
            needed |= authority
    return needed


class Authorities(Protocol):
    """What the checks ask of the authority service (``security.service.AuthorityService``)."""

    def is_admin(self, principal: Principal) -> bool: ...

    def held(self, principal: Principal, objtype: int, name: str) -> int: ...

    def set_authority(self, objtype: int, profile: str, entity: str, entity_type: int,
                      add: int = 0, remove: int = 0, persist: bool = True) -> object: ...

    def delete_authority(self, objtype: int, profile: str, entity: str, entity_type: int) -> bool: ...

    def delete_profile(self, objtype: int, profile: str) -> int: ...

    @property
    def version(self) -> int: ...


class Access:
    """The MQI's authority checks over the authority service, raising events on refusal."""

    def __init__(self, qmgr_name: str, authorities: Authorities, events: AuthorityEvents,
                 topic_objects: Callable[[], Mapping[str, str]]) -> None:
        self.qmgr_name = qmgr_name
        self.authorities = authorities
        self.events = events
        self.topic_objects = topic_objects  # TOPICSTR -> topic object name, kept current by the tree
        # Walks remembered while the records (the service's version) and the topic objects (the
        # tree's mapping, a new one after each change) stay as they were.
        self._walks: dict[tuple[Principal, str, int, bool], Walk] = {}
        self._walks_of: tuple[int, Mapping[str, str] | None] = (-1, None)
        self._temporary_grants: dict[str, str] = {}  # temporary dynamic queue -> its creator's record

    # -- identities ------------------------------------------------------------------------
    def alternate(self, principal: Principal, caller: Caller, alternate_user: str, *,
                  open_options: int | None = None, sub_options: int | None = None) -> Principal:
        """The principal the call's checks run as under an ALTERNATE_USER_AUTHORITY option: the
        running user must hold ``altusr`` on the queue manager (R-SEC-24). A blank
        AlternateUserId leaves the running user (the option is then only the altusr check)."""
        if not self.authorities.held(principal, C.MQOT_Q_MGR, self.qmgr_name) & C.MQZAO_ALTERNATE_USER_AUTHORITY:
            qualifier = C.MQRQ_OPEN_NOT_AUTHORIZED if sub_options is None else C.MQRQ_SUB_NOT_AUTHORIZED
            self.events.emit(refusal(self.qmgr_name, qualifier, caller, open_options=open_options,
                                     sub_options=sub_options, object_type=C.MQOT_Q_MGR, object_name=self.qmgr_name))
            raise not_authorized(principal, C.MQOT_Q_MGR, self.qmgr_name, C.MQZAO_ALTERNATE_USER_AUTHORITY)
        user = alternate_user.split("\0", 1)[0].strip()
        if not user or user == principal.user:
            return principal
        return self.principal_of(user)

    def principal_of(self, user: str) -> Principal:
        """``user`` with the groups the server told the authority service it has (none if it
        cannot know: core looks nothing up)."""
        lookup = getattr(self.authorities, "principal_of", None)
        return lookup(user) if lookup is not None else Principal(user)

    # -- dynamic queues -------------------------------------------------------------------------
    def grant_creator(self, principal: Principal, queue: str, permanent: bool) -> None:
        """The OAM gives the creator of a dynamic queue every authority on it (an administrator
        needs none); a temporary queue's grant is not stored, as the queue is not."""
        if self.authorities.is_admin(principal):
            return
        self.authorities.set_authority(C.MQOT_Q, queue, principal.user, PRINCIPAL, add=VALID[C.MQOT_Q],
                                       persist=permanent)
        if not permanent:
            self._temporary_grants[queue] = principal.user

    def dynamic_queue_deleted(self, queue: str, permanent: bool) -> None:
        """A dynamic queue deleted on close: the records of its name go with it (AUTHREC(YES))."""
        if permanent:
            self.authorities.delete_profile(C.MQOT_Q, queue)
            return
        user = self._temporary_grants.pop(queue, None)
        if user is not None:  # the one record a temporary queue can have unless an administrator added more
            self.authorities.delete_authority(C.MQOT_Q, queue, user, PRINCIPAL)

    def command_refused(self, principal: Principal, command: int) -> None:
        """An admin command refused for want of authority: a Not Authorized (type 4) event."""
        self.events.emit(refusal(self.qmgr_name, C.MQRQ_CMD_NOT_AUTHORIZED, Caller(principal.user, ""),
                                 command=command))

    # -- queues and the queue manager ---------------------------------------------------------
    def connect(self, principal: Principal, caller: Caller) -> None:
        """MQCONN: connect on the queue manager; a refusal is a Not Authorized (type 1) event."""
        if self.authorities.held(principal, C.MQOT_Q_MGR, self.qmgr_name) & C.MQZAO_CONNECT:
            return
        self.events.emit(refusal(self.qmgr_name, C.MQRQ_CONN_NOT_AUTHORIZED, caller))
        raise not_authorized(principal, C.MQOT_Q_MGR, self.qmgr_name, C.MQZAO_CONNECT)

    def open_object(self, principal: Principal, caller: Caller, objtype: int, name: str, options: int,
                    object_qmgr: str = "") -> None:
        """MQOPEN (or MQPUT1) of a queue or the queue manager: each option's authority on ``name``."""
        needed = open_authority(options)
        if self.authorities.held(principal, objtype, name) & needed == needed:
            return
        self.events.emit(refusal(self.qmgr_name, C.MQRQ_OPEN_NOT_AUTHORIZED, caller, open_options=options,
                                 object_qmgr=object_qmgr, object_type=objtype, object_name=name))
        raise not_authorized(principal, objtype, name, needed)

    def destination(self, principal: Principal, caller: Caller, queue: str, needed: int, sub_options: int,
                    topic: str, sub_name: str) -> None:
        """MQSUB's check of an unmanaged destination queue (A-38, R-SEC-25): type 6 on refusal."""
        if self.authorities.held(principal, C.MQOT_Q, queue) & needed == needed:
            return
        self.events.emit(refusal(self.qmgr_name, C.MQRQ_SUB_DEST_NOT_AUTHORIZED, caller, sub_options=sub_options,
                                 topic_string=topic, sub_name=sub_name, destination=queue))
        raise not_authorized(principal, C.MQOT_Q, queue, needed)

    def destination_allowed(self, principal: Principal, queue: str, needed: int) -> bool:
        return self.authorities.held(principal, C.MQOT_Q, queue) & needed == needed

    # -- topics ------------------------------------------------------------------------------
    def topic_walk(self, principal: Principal, topic: str, authority: int, char_scheme: bool = False) -> Walk:
        """Whether any of ``authority``'s bits is held on the topic (spec C §11.3), and the
        objects asked."""
        if self.authorities.is_admin(principal):
            return Walk(True, ())
        by_topic, version = self.topic_objects(), self.authorities.version
        if self._walks_of[0] != version or self._walks_of[1] is not by_topic or len(self._walks) >= WALKS_LIMIT:
            self._walks, self._walks_of = {}, (version, by_topic)
        key = (principal, topic, authority, char_scheme)
        result = self._walks.get(key)
        if result is None:
            held = self.authorities.held
            result = self._walks[key] = walk(check_levels(topic, char_scheme), by_topic,
                                             lambda name: bool(held(principal, C.MQOT_TOPIC, name) & authority))
        return result

    def open_topic(self, principal: Principal, caller: Caller, topic: str, options: int,
                   object_name: str = "") -> None:
        """MQOPEN of a topic: pub for MQOO_OUTPUT and each context option's authority, each by
        the walk (R-SEC-19, A-34); a refusal is a type 2 event."""
        if self.authorities.is_admin(principal):
            return
        for option, authority in TOPIC_OPEN_AUTHORITIES:
            if not options & option:
                continue
            result = self.topic_walk(principal, topic, authority)
            if not result.granted:
                self.events.emit(refusal(
                    self.qmgr_name, C.MQRQ_OPEN_NOT_AUTHORIZED, caller, open_options=options,
                    object_type=C.MQOT_TOPIC, object_name=object_name, topic_string=topic,
                    admin_topics=result.checked))
                raise not_authorized(principal, C.MQOT_TOPIC, result.checked[0], authority)

    def subscribe(self, principal: Principal, caller: Caller, topic: str, authority: int, sub_options: int,
                  char_scheme: bool, sub_name: str = "", closing: bool = False) -> None:
        """MQSUB's (or MQCLOSE REMOVE_SUB's) topic check; ``authority`` may name several bits,
        any of which is enough (RESUME: sub or resume, A-32). Type 5 (type 3 when closing)."""
        result = self.topic_walk(principal, topic, authority, char_scheme)
        if result.granted:
            return
        if closing:
            params = refusal(self.qmgr_name, C.MQRQ_CLOSE_NOT_AUTHORIZED, caller, sub_name=sub_name,
                             topic_string=topic, admin_topics=result.checked)
        else:
            params = refusal(self.qmgr_name, C.MQRQ_SUB_NOT_AUTHORIZED, caller, sub_options=sub_options,
                             topic_string=topic, admin_topics=result.checked)
        self.events.emit(params)
        raise not_authorized(principal, C.MQOT_TOPIC, result.checked[0], authority)

