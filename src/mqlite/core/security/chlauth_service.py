"""The queue manager's channel authentication records: SET CHLAUTH (ADD, REPLACE, REMOVE,
REMOVEALL with IBM's checks), DISPLAY CHLAUTH (GENERIC, EXACT, ALL, RUNCHECK), IBM's default
records on a new queue manager, the QMGR CHLAUTH switch, and the check at connect.

Records are store records (kind ``chlauth``), written in the same transaction stream as every
other definition and read back at start. The decision itself is :func:`chlauth.decide`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, fields, replace
from typing import Any, Protocol

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.security.chlauth import (
    ADDRESSMAP,
    BLOCKADDR,
    BLOCKUSER,
    DEFAULT_RECORDS,
    MAPPING_TYPES,
    QMGRMAP,
    SSLPEERMAP,
    TYPES,
    USERMAP,
    ChlauthRecord,
    Connecting,
    Decision,
    address_blocked,
    decide,
    sort_key,
)
from mqlite.core.security.chlauth_patterns import AddressPatternError, generic_matches, parse_address
from mqlite.core.security.principal import Principal
from mqlite.protocol import dn as dn_rules
from mqlite.store.tx import StoreTx

STORE_KIND = "chlauth"
MARKER_KEY = "defaults"  # written with IBM's default records: this queue manager has had them
NAME_LENGTH = 20  # MQ_CHANNEL_NAME_LENGTH
USER_LENGTH = 12  # MQ_USER_ID_LENGTH (mqlite keeps IBM's limit for MCAUSER and CLNTUSER)
MAX_LIST = 100  # USERLIST and ADDRLIST hold at most 100 entries
ACTIONS = ("ADD", "REPLACE", "REMOVE", "REMOVEALL")
MATCHES = ("GENERIC", "EXACT", "ALL", "RUNCHECK")

# The attributes each type takes (besides TYPE, ACTION, DESCR, CUSTOM), as SET CHLAUTH's syntax
# diagram has them; the first one listed for a mapping type is the one it must have.
_TYPE_ATTRS: dict[str, tuple[str, ...]] = {
    BLOCKUSER: ("USERLIST", "WARN"),
    BLOCKADDR: ("ADDRLIST", "WARN"),
    SSLPEERMAP: ("SSLPEER", "SSLCERTI", "ADDRESS", "USERSRC", "MCAUSER", "WARN", "CHCKCLNT"),
    ADDRESSMAP: ("ADDRESS", "USERSRC", "MCAUSER", "WARN", "CHCKCLNT"),
    USERMAP: ("CLNTUSER", "ADDRESS", "USERSRC", "MCAUSER", "WARN", "CHCKCLNT"),
    QMGRMAP: ("QMNAME", "ADDRESS", "USERSRC", "MCAUSER", "WARN"),
}
# What identifies a record: valid with REMOVE; with REMOVEALL none of them is.
_IDENTIFYING = frozenset({"ADDRESS", "ADDRLIST", "CLNTUSER", "QMNAME", "SSLPEER", "SSLCERTI", "USERLIST"})
KEYWORDS = frozenset({"TYPE", "ACTION", "DESCR", "CUSTOM", *(a for attrs in _TYPE_ATTRS.values() for a in attrs)})
_FIELD = {f.name.upper(): f.name for f in fields(ChlauthRecord)}
_CHCKCLNT = ("ASQMGR", "REQUIRED", "REQDADM")
_USERSRC = ("MAP", "NOACCESS", "CHANNEL")


class TxHolder(Protocol):
    """Where changes go: ``core.outbox.Outbox``."""

    tx: StoreTx


Value = str | list[str] | bool


class ChlauthService:
    """Channel authentication records by :attr:`ChlauthRecord.key` and the checks over them."""

    def __init__(self, qmgr_attrs: Mapping[str, Any], outbox: TxHolder, clock: Callable[[], float],
                 is_admin: Callable[[Principal], bool], date_and_time: Callable[[float], tuple[str, str]]) -> None:
        self.qmgr_attrs = qmgr_attrs
        self.outbox = outbox
        self.clock = clock
        self._is_admin = is_admin
        self._date_and_time = date_and_time
        self.records: dict[tuple[str, ...], ChlauthRecord] = {}
        # The groups of a user named by a rule or a client (the server reads users files and OS
        # groups); *MQADMIN needs them to know an administrator.
        self.groups_of: Callable[[str], frozenset[str]] = lambda user: frozenset()

    # -- start-up ------------------------------------------------------------------------------
    def bootstrap(self) -> None:
        """IBM's default records on a new queue manager (and DEV.ADMIN.SVRCONN's)."""
        for record in DEFAULT_RECORDS:
            self._store(record)
        self.outbox.tx.put_record(STORE_KIND, MARKER_KEY, {"defaults": 1})

    def restore(self, values: Iterable[Mapping[str, Any]]) -> None:
        """The records from the store at start. A queue manager created before channel
        authentication existed (no marker, no records) gets IBM's defaults now, as crtmqm gives
        them; one whose administrator removed every record keeps none."""
        marked = False
        for value in values:
            if "profile" not in value:  # the marker
                marked = True
                continue
            data: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v for k, v in value.items()
                                    if k in _FIELD.values()}
            record = ChlauthRecord(**data)
            self.records[record.key] = record
        if not marked and not self.records:
            self.bootstrap()
        elif not marked:
            self.outbox.tx.put_record(STORE_KIND, MARKER_KEY, {"defaults": 1})

    # -- the checks ----------------------------------------------------------------------------
    @property
    def enabled(self) -> bool:
        return bool(self.qmgr_attrs.get("CHLAUTH", "ENABLED") == "ENABLED")

    def is_admin(self, user: str) -> bool:
        return bool(user) and self._is_admin(Principal(user, self.groups_of(user)))

    def blocked_address(self, address: str) -> ChlauthRecord | None:
        """The BLOCKADDR record (not WARN(YES)) that refuses ``address`` at the listener, if any."""
        if not self.enabled or not address:
            return None
        record = address_blocked(self.records.values(), address)
        return record if record is not None and not record.warn else None

    def check(self, conn: Connecting) -> Decision:
        """The decision for a channel connecting now."""
        return decide(self.records.values(), conn, self.is_admin, self.enabled)

    # -- SET CHLAUTH ---------------------------------------------------------------------------
    def set_record(self, profile: str, attrs: Mapping[str, Value]) -> None:
        """SET CHLAUTH(profile) TYPE(...) [ACTION(...)] attributes (MQSC keywords, upper case)."""
        action = str(attrs.get("ACTION", "ADD")).upper()
        kind = str(attrs.get("TYPE", "")).upper()
        if action not in ACTIONS:
            raise MQError(C.MQRCCF_CHLAUTH_ACTION_ERROR, f"ACTION({action}) is not ADD, REPLACE, REMOVE or REMOVEALL")
        if kind not in TYPES:
            raise MQError(C.MQRCCF_CHLAUTH_TYPE_ERROR, "TYPE must be BLOCKUSER, BLOCKADDR, SSLPEERMAP, ADDRESSMAP, "
                                                     "USERMAP or QMGRMAP")
        _check_profile(profile, kind)
        for keyword in attrs:
            if keyword in ("TYPE", "ACTION", "DESCR", "CUSTOM"):
                continue
            if keyword not in _TYPE_ATTRS[kind]:
                raise MQError(C.MQRCCF_WRONG_CHLAUTH_TYPE, f"{keyword} is not valid with TYPE({kind})")
            if action == "REMOVEALL" or (action == "REMOVE" and keyword not in _IDENTIFYING):
                raise MQError(C.MQRCCF_WRONG_CHLAUTH_ACTION, f"{keyword} is not valid with ACTION({action})")
        if action == "REMOVEALL":  # every record of this type on this profile; none is fine too
            for key in [k for k, r in self.records.items() if r.profile == profile and r.type == kind]:
                self._remove(key)
            return
        record = _build(profile, kind, attrs, action == "REMOVE")
        existing = self.records.get(record.key)
        if kind in (BLOCKUSER, BLOCKADDR):
            self._set_list(record, existing, action)
        elif action == "REMOVE":
            if existing is None:
                raise MQError(C.MQRCCF_CHLAUTH_NOT_FOUND, f"no {kind} record for {profile} matches")
            self._remove(record.key)
        elif action == "ADD" and existing is not None:
            raise MQError(C.MQRCCF_CHLAUTH_ALREADY_EXISTS, f"a {kind} record for {profile} like this exists")
        else:
            self._store(record)

    def _set_list(self, record: ChlauthRecord, existing: ChlauthRecord | None, action: str) -> None:
        """BLOCKUSER/BLOCKADDR: ADD adds to the list, REPLACE replaces it, REMOVE takes items out."""
        name = "userlist" if record.type == BLOCKUSER else "addrlist"
        given: tuple[str, ...] = getattr(record, name)
        current: tuple[str, ...] = getattr(existing, name) if existing is not None else ()
        if action == "REMOVE":
            if existing is None or not set(given) & set(current):
                raise MQError(C.MQRCCF_CHLAUTH_NOT_FOUND, f"no {record.type} record for {record.profile} lists those")
            remaining = tuple(item for item in current if item not in given)
            if not remaining:
                self._remove(record.key)
                return
            self._store(_with_list(existing, remaining))
            return
        items = given if action == "REPLACE" or existing is None else (
            current + tuple(i for i in given if i not in current))
        if len(items) > MAX_LIST:
            raise MQError(C.MQRCCF_CHLAUTH_MAX_EXCEEDED, f"{name.upper()} would hold more than {MAX_LIST} entries")
        base = record if action == "REPLACE" or existing is None else replace(
            existing, warn=record.warn, descr=record.descr or existing.descr)
        self._store(_with_list(base, items))

    def _store(self, record: ChlauthRecord) -> None:
        record = record.with_time(*self._date_and_time(self.clock()))
        self.records[record.key] = record
        self.outbox.tx.put_record(STORE_KIND, json.dumps(record.key), asdict(record))

    def _remove(self, key: tuple[str, ...]) -> None:
        del self.records[key]
        self.outbox.tx.delete_record(STORE_KIND, json.dumps(key))

    # -- DISPLAY CHLAUTH -----------------------------------------------------------------------
    def rows(self, profile: str, kind: str = "ALL", match: str = "GENERIC") -> list[dict[str, Any]]:
        """DISPLAY CHLAUTH(profile) TYPE(kind) MATCH(GENERIC|EXACT|ALL): the records shown, in
        runmqsc's order (most specific profile first)."""
        kind, match = kind.upper(), match.upper()
        if kind != "ALL" and kind not in TYPES:
            raise MQError(C.MQRCCF_CHLAUTH_TYPE_ERROR, f"TYPE({kind}) is not a channel authentication record type")
        if match not in MATCHES or match == "RUNCHECK":
            raise MQError(C.MQRCCF_WRONG_CHLAUTH_MATCH, f"MATCH({match}) is not GENERIC, EXACT or ALL here")

        def shown(record: ChlauthRecord) -> bool:
            if match == "EXACT" or ("*" not in profile and match == "GENERIC"):
                return record.profile == profile
            if match == "GENERIC":  # the name's asterisks are wildcards over the profiles' text
                return generic_matches(profile, record.profile)
            return generic_matches(record.profile, profile) or generic_matches(profile, record.profile)

        chosen = [r for r in self.records.values() if (kind == "ALL" or r.type == kind) and shown(r)]
        return [record_row(r) for r in sorted(chosen, key=sort_key)]

    def runcheck(self, channel: str, attrs: Mapping[str, str]) -> tuple[dict[str, Any] | None, str]:
        """DISPLAY CHLAUTH(channel) MATCH(RUNCHECK) ADDRESS(...) CLNTUSER|QMNAME(...) [SSLPEER SSLCERTI]:
        the record a connection with these values would match, or None and the user it runs as."""
        if not self.enabled:  # nothing would be matched at run time
            raise MQError(C.MQRCCF_CHLAUTH_DISABLED, "channel authentication records are disabled: "
                                                     "ALTER QMGR CHLAUTH(ENABLED) first")
        address = attrs.get("ADDRESS", "")
        generic = [k for k in ("CLNTUSER", "QMNAME", "SSLPEER", "SSLCERTI") if "*" in attrs.get(k, "")]
        if "*" in channel or "*" in address or generic:
            raise MQError(C.MQRCCF_CHLAUTH_RUNCHECK_ERROR, "MATCH(RUNCHECK) needs specific values, not patterns")
        if not address or not ("CLNTUSER" in attrs or "QMNAME" in attrs):
            raise MQError(C.MQRCCF_CHLAUTH_RUNCHECK_ERROR, "MATCH(RUNCHECK) needs ADDRESS and CLNTUSER or QMNAME")
        try:
            parse_address(address)
        except AddressPatternError as error:
            raise MQError(C.MQRCCF_ADDRESS_ERROR, str(error)) from None
        conn = Connecting(channel, address, attrs.get("CLNTUSER", ""), attrs.get("SSLPEER", ""),
                          attrs.get("SSLCERTI", ""), attrs.get("QMNAME", ""),
                          chltype="SVRCONN" if "CLNTUSER" in attrs else "RCVR")
        decision = self.check(conn)
        return (record_row(decision.record) if decision.record is not None else None), decision.user


def record_row(record: ChlauthRecord) -> dict[str, Any]:
    """A record as DISPLAY shows it, in runmqsc's order of attributes (IBM prints CHLAUTH, TYPE,
    DESCR, CUSTOM, then the type's own attributes, then ALTDATE/ALTTIME; WARN only where a
    record can block, CHCKCLNT only where it maps to a user)."""
    row: dict[str, Any] = {"CHLAUTH": record.profile, "TYPE": record.type, "DESCR": record.descr,
                           "CUSTOM": record.custom}
    if record.type == BLOCKUSER:
        row["USERLIST"] = list(record.userlist)
    elif record.type == BLOCKADDR:
        row["ADDRLIST"] = list(record.addrlist)
    else:
        if record.type == SSLPEERMAP:
            row.update(SSLPEER=record.sslpeer, SSLCERTI=record.sslcerti)
        elif record.type == QMGRMAP:
            row["QMNAME"] = record.qmname
        row["ADDRESS"] = record.address
        if record.type == USERMAP:
            row["CLNTUSER"] = record.clntuser
        row["USERSRC"] = record.usersrc
        if record.usersrc == "MAP":
            row["MCAUSER"] = record.mcauser
    if record.type in (BLOCKUSER, BLOCKADDR) or record.usersrc == "NOACCESS":
        row["WARN"] = "YES" if record.warn else "NO"
    elif record.type != QMGRMAP:
        row["CHCKCLNT"] = record.chckclnt
    row.update(ALTDATE=record.altdate, ALTTIME=record.alttime)
    return row


def summary_keys(row: Mapping[str, Any]) -> list[str]:
    """What DISPLAY CHLAUTH shows without ALL (IBM's "always returned" set): the list or the
    peer, the address and MCAUSER unless blank, USERSRC, and WARN when it is YES."""
    keys = [k for k in ("USERLIST", "ADDRLIST", "SSLPEER", "QMNAME", "CLNTUSER", "USERSRC") if k in row]
    keys += [k for k in ("ADDRESS", "MCAUSER") if row.get(k)]
    if row.get("WARN") == "YES":
        keys.append("WARN")
    return keys


def _with_list(record: ChlauthRecord, items: tuple[str, ...]) -> ChlauthRecord:
    if record.type == BLOCKUSER:
        return replace(record, userlist=items)
    return replace(record, addrlist=items)


def _check_profile(profile: str, kind: str) -> None:
    if not profile or len(profile) > NAME_LENGTH:
        raise MQError(C.MQRCCF_CHLAUTH_NAME_ERROR, f"channel profile '{profile}' is not 1 to {NAME_LENGTH} characters")
    if kind == BLOCKADDR and profile != "*":
        raise MQError(C.MQRCCF_CHLAUTH_NAME_ERROR, "TYPE(BLOCKADDR) records have the profile '*'")


def _text(attrs: Mapping[str, Value], keyword: str, limit: int = 0) -> str:
    value = attrs.get(keyword, "")
    if not isinstance(value, str):
        raise MQError(C.MQRCCF_PARM_SYNTAX_ERROR, f"{keyword} takes one value")
    text = value.rstrip()
    if limit and len(text) > limit:
        raise MQError(C.MQRCCF_PARM_VALUE_ERROR if keyword != "CLNTUSER" else C.MQRCCF_CHLAUTH_CLNTUSER_ERROR,
                      f"{keyword}({text}) is longer than {limit} characters")
    return text


def _items(attrs: Mapping[str, Value], keyword: str) -> tuple[str, ...]:
    value = attrs.get(keyword, [])
    values = [value] if isinstance(value, str) else value if isinstance(value, list) else []
    return tuple(v.strip() for v in values if v.strip())


def _address(text: str) -> str:
    try:
        parse_address(text)
    except AddressPatternError as error:
        code = C.MQRCCF_IPADDR_RANGE_ERROR if error.is_range else C.MQRCCF_ADDRESS_ERROR
        raise MQError(code, str(error)) from None
    return text


def _build(profile: str, kind: str, attrs: Mapping[str, Value], removing: bool) -> ChlauthRecord:
    """A record from SET CHLAUTH's attributes, checked as IBM checks them."""
    values: dict[str, Any] = {"profile": profile, "type": kind}
    if kind in (BLOCKUSER, BLOCKADDR):
        name = "USERLIST" if kind == BLOCKUSER else "ADDRLIST"
        items = _items(attrs, name)
        if not items:
            raise MQError(C.MQRCCF_PARM_MISSING, f"TYPE({kind}) needs {name}")
        if kind == BLOCKADDR:
            items = tuple(_address(item) for item in items)
        values[name.lower()] = items
    else:
        required = _TYPE_ATTRS[kind][0]
        if not _text(attrs, required):
            raise MQError(C.MQRCCF_PARM_MISSING, f"TYPE({kind}) needs {required}")
        for keyword, limit in (("CLNTUSER", USER_LENGTH), ("QMNAME", 48), ("SSLPEER", 1024),
                               ("SSLCERTI", 1024), ("ADDRESS", 264)):
            if keyword in attrs:
                values[keyword.lower()] = _text(attrs, keyword, limit)
        if values.get("address"):
            _address(values["address"])
        for keyword in ("SSLPEER", "SSLCERTI"):
            try:
                dn_rules.compile_filter(values.get(keyword.lower(), ""))
            except dn_rules.DNError as error:
                raise MQError(C.MQRCCF_SSL_PEER_NAME_ERROR, str(error)) from None
    if removing:
        return ChlauthRecord(**values)
    usersrc = _text(attrs, "USERSRC").upper() or "MAP"
    if kind in MAPPING_TYPES:
        if usersrc not in _USERSRC:
            raise MQError(C.MQRCCF_CHLAUTH_USERSRC_ERROR, f"USERSRC({usersrc}) is not MAP, NOACCESS or CHANNEL")
        mcauser = _text(attrs, "MCAUSER", USER_LENGTH)
        if usersrc == "MAP" and not mcauser:
            raise MQError(C.MQRCCF_CHLAUTH_USERSRC_ERROR, "USERSRC(MAP) needs MCAUSER")
        if usersrc != "MAP" and "MCAUSER" in attrs:
            raise MQError(C.MQRCCF_WRONG_CHLAUTH_USERSRC, f"MCAUSER is not valid with USERSRC({usersrc})")
        values.update(usersrc=usersrc, mcauser=mcauser)
        chckclnt = _text(attrs, "CHCKCLNT").upper() or "ASQMGR"
        if chckclnt not in _CHCKCLNT:
            raise MQError(C.MQRCCF_CHLAUTH_CHKCLI_ERROR, f"CHCKCLNT({chckclnt}) is not ASQMGR, REQUIRED or REQDADM")
        if chckclnt != "ASQMGR" and usersrc == "NOACCESS":
            raise MQError(C.MQRCCF_CHLAUTH_CHKCLI_ERROR, "CHCKCLNT is not valid with USERSRC(NOACCESS)")
        values["chckclnt"] = chckclnt
    warn = _text(attrs, "WARN").upper() or "NO"
    if warn not in ("YES", "NO"):
        raise MQError(C.MQRCCF_CHLAUTH_WARN_ERROR, f"WARN({warn}) is not YES or NO")
    if warn == "YES" and kind in MAPPING_TYPES and usersrc != "NOACCESS":
        raise MQError(C.MQRCCF_CHLAUTH_WARN_ERROR, "WARN(YES) is only valid with USERSRC(NOACCESS)")
    values.update(warn=warn == "YES", descr=_text(attrs, "DESCR", 64), custom=_text(attrs, "CUSTOM", 128))
    return ChlauthRecord(**values)
