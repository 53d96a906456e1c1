"""Channel authentication (CHLAUTH): the records and the decision made when a channel connects.

Pure: the caller gives the records, what the connecting partner presented, and a predicate
saying whether a user is an administrator; nothing here reads files or sockets.

How IBM applies the records (IBM MQ Security, "Channel authentication records" q010250_,
"Blocking specific user IDs" q013810_, SET CHLAUTH q086630_, DISPLAY CHLAUTH q086070_; "Creating
new CHLAUTH rules for users": the SYSTEM.ADMIN.SVRCONN default "is more specific and therefore
takes precedence" over SYSTEM.*; IBM's MQ PoT lab 8: an administrator's client mapped by
SSLPEERMAP to an ordinary MCAUSER passes ``*MQADMIN``, the same client through USERSRC(CHANNEL)
is blocked, and a BLOCKUSER on the channel's own profile lifts the generic one):

1. BLOCKADDR (profile ``*`` only) is checked first, on the address alone: the listener refuses
   the connection before the channel name is known (reason qualifier BLOCKED_ADDRESS).
2. Of the mapping records (SSLPEERMAP, USERMAP, QMGRMAP, ADDRESSMAP) that match the connection,
   one is used: the one with the most specific channel profile; among those, by type in the
   order SSLPEERMAP, USERMAP (client channels) or QMGRMAP (message channels), ADDRESSMAP; then
   the most specific TLS peer / queue manager name, then the most specific address. Its USERSRC
   decides the user: MAP runs as its MCAUSER, CHANNEL as the channel's MCAUSER or else the user
   the client asserted, NOACCESS refuses (BLOCKED_NOACCESS). No matching record: as CHANNEL.
3. BLOCKUSER applies to client channels only, after mapping, to the user the channel would run
   as (so USERSRC(MAP) to an ordinary user lets an administrator's client in, and the same
   client through USERSRC(CHANNEL) is blocked). Only the BLOCKUSER record with the most specific
   profile applies, so ``DEV.ADMIN.SVRCONN`` listing only ``nobody`` lifts ``*``'s ``*MQADMIN``
   on that channel. ``*MQADMIN`` stands for any administrator (BLOCKED_USERID).
4. WARN(YES) on a record that would block lets the connection through and reports it instead
   (MQRC_CHANNEL_BLOCKED_WARNING events); a mapping with NOACCESS and WARN(YES) runs as CHANNEL.
5. ALTER QMGR CHLAUTH(DISABLED) turns all of this off: the channel runs as its MCAUSER or the
   asserted user.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace

from mqlite.cmqc import security as S
from mqlite.core.security.chlauth_patterns import (
    Specificity,
    address_matches,
    address_specificity,
    dn_matches,
    dn_specificity,
    generic_matches,
    generic_specificity,
)

BLOCKUSER, BLOCKADDR, SSLPEERMAP = "BLOCKUSER", "BLOCKADDR", "SSLPEERMAP"
ADDRESSMAP, USERMAP, QMGRMAP = "ADDRESSMAP", "USERMAP", "QMGRMAP"
TYPES = (BLOCKUSER, BLOCKADDR, SSLPEERMAP, ADDRESSMAP, USERMAP, QMGRMAP)
MAPPING_TYPES = (SSLPEERMAP, USERMAP, QMGRMAP, ADDRESSMAP)  # IBM's precedence within a profile
TYPE_CODES = {BLOCKUSER: S.MQCAUT_BLOCKUSER, BLOCKADDR: S.MQCAUT_BLOCKADDR, SSLPEERMAP: S.MQCAUT_SSLPEERMAP,
              ADDRESSMAP: S.MQCAUT_ADDRESSMAP, USERMAP: S.MQCAUT_USERMAP, QMGRMAP: S.MQCAUT_QMGRMAP}
MQADMIN = "*MQADMIN"  # in a USERLIST: any administrator
SVRCONN = "SVRCONN"

IsAdmin = Callable[[str], bool]


@dataclass(frozen=True, slots=True)
class ChlauthRecord:
    """One channel authentication record, with SET CHLAUTH's attributes (blank = not set)."""

    profile: str
    type: str
    address: str = ""
    clntuser: str = ""
    sslpeer: str = ""
    sslcerti: str = ""
    qmname: str = ""
    userlist: tuple[str, ...] = ()
    addrlist: tuple[str, ...] = ()
    usersrc: str = "MAP"
    mcauser: str = ""
    chckclnt: str = "ASQMGR"
    warn: bool = False
    descr: str = ""
    custom: str = ""
    altdate: str = ""
    alttime: str = ""

    @property
    def key(self) -> tuple[str, ...]:
        """What identifies the record: a profile has one BLOCKUSER and one BLOCKADDR record,
        and one mapping record per (peer, address) of each mapping type."""
        if self.type in (BLOCKUSER, BLOCKADDR):
            return (self.profile, self.type)
        return (self.profile, self.type, self.address, self.clntuser, self.sslpeer, self.sslcerti, self.qmname)

    def with_time(self, altdate: str, alttime: str) -> ChlauthRecord:
        return replace(self, altdate=altdate, alttime=alttime)


@dataclass(frozen=True, slots=True)
class Connecting:
    """What a connecting partner presents. ``clntuser`` is the user the client asserted (or the
    user its MQCSP authenticated, when connection authentication adopts it); ``mcauser`` the
    channel definition's MCAUSER."""

    channel: str
    address: str
    clntuser: str = ""
    sslpeer: str = ""
    sslcerti: str = ""
    qmname: str = ""
    mcauser: str = ""
    chltype: str = SVRCONN


@dataclass(frozen=True, slots=True)
class Decision:
    """The outcome: allowed or not (``qualifier`` MQRQ_CHANNEL_BLOCKED_*), the user the channel
    runs as, a CHCKCLNT override (``None``: as the queue manager's AUTHINFO says), the record
    that decided (the blocking one, else the mapping used, else None) and the records that
    would have blocked but only warn."""

    allowed: bool
    user: str
    qualifier: int = 0
    record: ChlauthRecord | None = None
    chckclnt: str | None = None
    warnings: tuple[tuple[int, ChlauthRecord], ...] = field(default=())


def _profile_rank(record: ChlauthRecord) -> Specificity:
    return generic_specificity(record.profile)


def _applies(record: ChlauthRecord, conn: Connecting) -> bool:
    if not generic_matches(record.profile, conn.channel):
        return False
    kind = record.type
    if kind == USERMAP:  # USERMAP is for client channels, QMGRMAP for message channels only
        ok = conn.chltype == SVRCONN and bool(conn.clntuser) and record.clntuser == conn.clntuser
    elif kind == QMGRMAP:
        ok = conn.chltype != SVRCONN and generic_matches(record.qmname, conn.qmname)
    elif kind == SSLPEERMAP:
        ok = bool(conn.sslpeer) and dn_matches(record.sslpeer, conn.sslpeer) and (
            not record.sslcerti or dn_matches(record.sslcerti, conn.sslcerti))
    else:
        ok = kind == ADDRESSMAP
    return ok and address_matches(record.address, conn.address)


def _mapping_rank(record: ChlauthRecord) -> tuple[Specificity, int, Specificity, Specificity]:
    if record.type == SSLPEERMAP:
        peer = dn_specificity(record.sslpeer) + dn_specificity(record.sslcerti)
    elif record.type == QMGRMAP:
        peer = generic_specificity(record.qmname)
    else:
        peer = ()
    return (_profile_rank(record), -MAPPING_TYPES.index(record.type), peer, address_specificity(record.address))


def best_mapping(records: Iterable[ChlauthRecord], conn: Connecting) -> ChlauthRecord | None:
    """The one mapping record IBM's precedence picks for ``conn``, or None."""
    candidates = [r for r in records if r.type in MAPPING_TYPES and _applies(r, conn)]
    return max(candidates, key=_mapping_rank) if candidates else None


def blockuser_record(records: Iterable[ChlauthRecord], channel: str) -> ChlauthRecord | None:
    """The BLOCKUSER record with the most specific profile matching ``channel``."""
    candidates = [r for r in records if r.type == BLOCKUSER and generic_matches(r.profile, channel)]
    return max(candidates, key=_profile_rank) if candidates else None


def user_blocked(record: ChlauthRecord, user: str, is_admin: IsAdmin) -> bool:
    return user in record.userlist or (MQADMIN in record.userlist and is_admin(user))


def address_blocked(records: Iterable[ChlauthRecord], address: str) -> ChlauthRecord | None:
    """The BLOCKADDR record listing ``address``, checked before the channel is known."""
    for record in records:
        if record.type == BLOCKADDR and any(address_matches(p, address) for p in record.addrlist):
            return record
    return None


def decide(records: Iterable[ChlauthRecord], conn: Connecting, is_admin: IsAdmin, enabled: bool = True) -> Decision:
    """Apply channel authentication records to a connecting channel (see the module's text)."""
    channel_user = conn.mcauser or conn.clntuser
    if not enabled:
        return Decision(True, channel_user)
    records = list(records)
    warnings: list[tuple[int, ChlauthRecord]] = []
    blocker = address_blocked(records, conn.address)
    if blocker is not None:
        if not blocker.warn:
            return Decision(False, channel_user, S.MQRQ_CHANNEL_BLOCKED_ADDRESS, blocker)
        warnings.append((S.MQRQ_CHANNEL_BLOCKED_ADDRESS, blocker))
    mapping = best_mapping(records, conn)
    user, chckclnt = channel_user, None
    if mapping is not None:
        if mapping.usersrc == "NOACCESS":
            if not mapping.warn:
                return Decision(False, channel_user, S.MQRQ_CHANNEL_BLOCKED_NOACCESS, mapping, None, tuple(warnings))
            warnings.append((S.MQRQ_CHANNEL_BLOCKED_NOACCESS, mapping))
        elif mapping.usersrc == "MAP":
            user = mapping.mcauser
        if mapping.usersrc != "NOACCESS" and mapping.chckclnt != "ASQMGR":
            chckclnt = mapping.chckclnt
    if conn.chltype == SVRCONN:
        block = blockuser_record(records, conn.channel)
        if block is not None and user_blocked(block, user, is_admin):
            if not block.warn:
                return Decision(False, user, S.MQRQ_CHANNEL_BLOCKED_USERID, block, chckclnt, tuple(warnings))
            warnings.append((S.MQRQ_CHANNEL_BLOCKED_USERID, block))
    return Decision(True, user, 0, mapping, chckclnt, tuple(warnings))


def active_values(conn: Connecting, user: str) -> str:
    """What IBM's AMQ9776E/AMQ9777E call "the active values of the channel"."""
    items = [("MCAUSER", user), ("CLNTUSER", conn.clntuser), ("SSLPEER", conn.sslpeer),
             ("SSLCERTI", conn.sslcerti), ("QMNAME", conn.qmname), ("ADDRESS", conn.address)]
    return " ".join(f"{k}({v})" for k, v in items if v)


def refusal_message(decision: Decision, conn: Connecting) -> str:
    """The error-log line for a refused connection, with IBM's message numbers and words."""
    if decision.qualifier == S.MQRQ_CHANNEL_BLOCKED_ADDRESS:
        return (f"AMQ9782E: Remote connection blocked. A connection from IP address '{conn.address}' was "
                "refused because the address matched a channel authentication BLOCKADDR record.")
    if decision.qualifier == S.MQRQ_CHANNEL_BLOCKED_USERID:
        return (f"AMQ9776E: Channel was blocked by userid. The inbound channel '{conn.channel}' was blocked "
                f"from address '{conn.address}' because the active values of the channel were mapped to a "
                f"userid which should be blocked. The active values of the channel were "
                f"'{active_values(conn, decision.user)}'.")
    return (f"AMQ9777E: Channel was blocked. The inbound channel '{conn.channel}' was blocked from address "
            f"'{conn.address}' because the active values of the channel matched a record configured with "
            f"USERSRC(NOACCESS). The active values of the channel were '{active_values(conn, '')}'.")


def sort_key(record: ChlauthRecord) -> tuple[object, ...]:
    """DISPLAY CHLAUTH's order: most specific profile first (as runmqsc lists IBM's defaults:
    SYSTEM.ADMIN.SVRCONN, SYSTEM.*, *), mapping types before the blocking ones."""
    order = (*MAPPING_TYPES, BLOCKUSER, BLOCKADDR)
    rank = _mapping_rank(record) if record.type in MAPPING_TYPES else ((), 0, (), ())
    return (tuple((-a, -b) for a, b in _profile_rank(record)), record.profile, order.index(record.type),
            tuple((-a, -b) for a, b in rank[2]), tuple((-a, -b) for a, b in rank[3]), record.key)


# IBM's default records on every new queue manager, and the developer configuration's record
# that lets administrators use DEV.ADMIN.SVRCONN (its BLOCKUSER lists only 'nobody').
DEFAULT_RECORDS = (
    ChlauthRecord("SYSTEM.ADMIN.SVRCONN", ADDRESSMAP, address="*", usersrc="CHANNEL",
                  descr="Default rule to allow MQ Explorer access"),
    ChlauthRecord("SYSTEM.*", ADDRESSMAP, address="*", usersrc="NOACCESS",
                  descr="Default rule to disable all SYSTEM channels"),
    ChlauthRecord("*", BLOCKUSER, userlist=(MQADMIN,), descr="Default rule to disallow privileged users"),
    ChlauthRecord("DEV.ADMIN.SVRCONN", BLOCKUSER, userlist=("nobody",), descr="Allows admins on ADMIN channel"),
)
