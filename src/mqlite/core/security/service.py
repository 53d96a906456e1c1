"""The authority service: the queue manager's authority records, who the administrators are, and
the check every MQI and admin call makes (``allowed``/``require``), cached per (principal,
object type, object name) so that a repeated check is one dictionary lookup.

Administrators (group ``mqm`` and the queue manager's creator) hold every authority on every
object; everyone else holds exactly what records grant (secure by default). The cache is emptied
by any change to the records and by REFRESH SECURITY (the server may also call ``refresh`` when
group memberships it reads from the OS may have changed).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Protocol

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.security.principal import ADMIN_GROUP, Principal
from mqlite.core.security.records import GROUP, PRINCIPAL, AuthRecord, compile_profile, entity_authority
from mqlite.store.tx import StoreTx

STORE_KIND = "authrec"
CACHE_LIMIT = 100_000  # entries; beyond it the cache starts again (dynamic queue names are unbounded)

# Object types as authority records know them: every queue type is a queue, every channel type
# but a client connection channel is a channel (IBM's setmqaut -t values).
_RECORD_TYPE = {
    C.MQOT_LOCAL_Q: C.MQOT_Q, C.MQOT_ALIAS_Q: C.MQOT_Q, C.MQOT_MODEL_Q: C.MQOT_Q, C.MQOT_REMOTE_Q: C.MQOT_Q,
    C.MQOT_SENDER_CHANNEL: C.MQOT_CHANNEL, C.MQOT_SERVER_CHANNEL: C.MQOT_CHANNEL,
    C.MQOT_REQUESTER_CHANNEL: C.MQOT_CHANNEL, C.MQOT_RECEIVER_CHANNEL: C.MQOT_CHANNEL,
    C.MQOT_SVRCONN_CHANNEL: C.MQOT_CHANNEL, C.MQOT_TT_CHANNEL: C.MQOT_CHANNEL,
    C.MQOT_AMQP_CHANNEL: C.MQOT_CHANNEL, C.MQOT_CLNTCONN_CHANNEL: C.MQOT_CLNTCONN_CHANNEL,
}

OBJECT_TYPE_NAMES = {  # IBM's words in AMQ8077W and dmpmqaut ("object type: queue")
    C.MQOT_Q: "queue", C.MQOT_Q_MGR: "qmgr", C.MQOT_TOPIC: "topic", C.MQOT_CHANNEL: "channel",
    C.MQOT_NAMELIST: "namelist", C.MQOT_PROCESS: "process", C.MQOT_AUTH_INFO: "authinfo",
    C.MQOT_CLNTCONN_CHANNEL: "clntconn", C.MQOT_LISTENER: "listener", C.MQOT_SERVICE: "service",
    C.MQOT_REMOTE_Q_MGR_NAME: "rqmname", C.MQOT_COMM_INFO: "comminfo",
}


def administrator(user: str) -> Principal:
    """``user`` as a member of the administrators' group: the identity of work the queue manager
    does itself (MQTT wills and shared subscriptions), and of core tests' connections."""
    return Principal(user, frozenset({ADMIN_GROUP}))


class TxHolder(Protocol):
    """Where changes go: ``core.outbox.Outbox`` (not imported: the outbox sits above security)."""

    tx: StoreTx


def record_type(objtype: int) -> int:
    """The object type authority records use for ``objtype`` (MQOT_LOCAL_Q -> MQOT_Q, ...)."""
    return _RECORD_TYPE.get(objtype, objtype)


class AuthorityService:
    """Authority records (kept in the store, kind ``authrec``) and the checks over them."""

    def __init__(self, qmgr_name: str, outbox: TxHolder, creator: str = "") -> None:
        self.qmgr_name = qmgr_name
        self.outbox = outbox
        self.creator = creator  # the OS user that created the queue manager: an administrator
        # A user's groups, for DISPLAY ENTAUTH and dspmqaut of a user who is not connected: the
        # server sets it (OS groups, the users file's groups); core itself looks nothing up.
        self.groups_of: Callable[[str], frozenset[str]] = lambda user: frozenset()
        self.on_refresh: list[Callable[[], None]] = []  # run at REFRESH SECURITY
        # (objtype, entity type, entity) -> profile -> record: one entity's records of one type
        self._records: dict[tuple[int, int, str], dict[str, AuthRecord]] = {}
        self._cache: dict[tuple[Principal, int, str], int] = {}
        self.version = 0  # changes whenever a decision may have: what others remember of them goes

    # -- the checks ----------------------------------------------------------------------
    def principal_of(self, user: str) -> Principal:
        """``user`` with the groups the server knows it has."""
        return Principal(user, self.groups_of(user))

    def is_admin(self, principal: Principal) -> bool:
        return principal.in_admin_group or (bool(self.creator) and principal.user == self.creator)

    def held(self, principal: Principal, objtype: int, name: str) -> int:
        """Every MQZAO_* bit ``principal`` holds on object ``name`` of type ``objtype``."""
        if self.is_admin(principal):
            return C.MQZAO_ALL
        key = (principal, objtype, name)
        mask = self._cache.get(key)
        if mask is None:
            if len(self._cache) >= CACHE_LIMIT:
                self._cache.clear()
            mask = self._cache[key] = self._compute(principal, record_type(objtype), name)
        return mask

    def _forget(self) -> None:
        self._cache.clear()
        self.version += 1

    def allowed(self, principal: Principal, objtype: int, name: str, authority: int) -> bool:
        """Whether ``principal`` holds every bit of ``authority`` on ``name`` of type ``objtype``."""
        return self.held(principal, objtype, name) & authority == authority

    def require(self, principal: Principal, objtype: int, name: str, authority: int) -> None:
        """``allowed`` or MQError(MQRC_NOT_AUTHORIZED), with IBM's AMQ8077W text."""
        if not self.allowed(principal, objtype, name, authority):
            raise not_authorized(principal, objtype, name, authority)

    def _compute(self, principal: Principal, objtype: int, name: str) -> int:
        mask = self._entity_mask(objtype, PRINCIPAL, principal.user, name)
        for group in principal.groups:
            mask |= self._entity_mask(objtype, GROUP, group, name)
        return mask

    def _entity_mask(self, objtype: int, entity_type: int, entity: str, name: str) -> int:
        records = self._records.get((objtype, entity_type, entity))
        return entity_authority(records.values(), name) if records else C.MQZAO_NONE

    # -- records -------------------------------------------------------------------------
    def set_authority(self, objtype: int, profile: str, entity: str, entity_type: int,
                      add: int = 0, remove: int = 0, persist: bool = True) -> AuthRecord | None:
        """SET AUTHREC / setmqaut: add and remove bits on one entity's record for ``profile``
        (created if new). A record left with no authority stays, as IBM keeps it, until deleted.
        ``persist=False``: a record that ends with the process (a temporary dynamic queue's)."""
        objtype = record_type(objtype)
        compile_profile(profile)  # ProfileError for a profile IBM refuses
        entity_records = self._records.setdefault((objtype, entity_type, entity), {})
        current = entity_records.get(profile)
        before = current.authority if current is not None else C.MQZAO_NONE
        record = AuthRecord(objtype, profile, entity, entity_type, (before | add) & ~remove & C.MQZAO_ALL)
        entity_records[profile] = record
        if persist:
            self.outbox.tx.put_record(STORE_KIND, record.key, record.to_value())
        self._forget()
        return record

    def delete_authority(self, objtype: int, profile: str, entity: str, entity_type: int) -> bool:
        """DELETE AUTHREC: remove one entity's record for ``profile``; False if there was none."""
        objtype = record_type(objtype)
        entity_records = self._records.get((objtype, entity_type, entity))
        record = entity_records.pop(profile, None) if entity_records is not None else None
        if record is None:
            return False
        if not entity_records:
            del self._records[(objtype, entity_type, entity)]
        self.outbox.tx.delete_record(STORE_KIND, record.key)
        self._forget()
        return True

    def delete_profile(self, objtype: int, profile: str) -> int:
        """Every entity's record for exactly ``profile`` (an object deleted with IBM's default
        AUTHREC(YES)); how many there were."""
        objtype = record_type(objtype)
        gone = [r for r in self.records() if r.objtype == objtype and r.profile == profile]
        for record in gone:
            self.delete_authority(objtype, profile, record.entity, record.entity_type)
        return len(gone)

    def records(self) -> list[AuthRecord]:
        """Every record, by object type, profile, entity type and entity."""
        found = [r for profiles in self._records.values() for r in profiles.values()]
        return sorted(found, key=lambda r: (r.objtype, r.profile, r.entity_type, r.entity))

    def refresh(self) -> None:
        """REFRESH SECURITY: forget every cached decision (and, through ``on_refresh``, what the
        server remembers of OS groups)."""
        self._forget()
        for forget in self.on_refresh:
            forget()

    def restore(self, values: Iterable[dict[str, object]]) -> None:
        """The records from the store at start."""
        self._records.clear()
        for value in values:
            record = AuthRecord.from_value(value)
            self._records.setdefault((record.objtype, record.entity_type, record.entity), {})[record.profile] = record
        self._forget()


def not_authorized(principal: Principal, objtype: int, name: str, authority: int) -> MQError:
    """MQRC_NOT_AUTHORIZED (2035) for a refused check, its text IBM's AMQ8077W."""
    kind = OBJECT_TYPE_NAMES.get(record_type(objtype), str(objtype))
    return MQError(C.MQRC_NOT_AUTHORIZED,
                   f"AMQ8077W: Entity '{principal.user}' has insufficient authority to access object "
                   f"'{name}' [{kind}] (authority 0x{authority:08X})")
