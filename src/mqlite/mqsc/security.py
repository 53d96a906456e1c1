"""MQSC commands of authority records: SET AUTHREC, DELETE AUTHREC, DISPLAY AUTHREC and DISPLAY
ENTAUTH (REFRESH SECURITY is ``mqsc.commands``'), with IBM's keywords (PROFILE, OBJTYPE, PRINCIPAL, GROUP, AUTHADD,
AUTHRMV, MATCH, OBJNAME), messages and displayed attributes (PROFILE, ENTITY, ENTTYPE, OBJTYPE,
AUTHLIST). What the caller may do is checked in core (``core.admin_checks``)."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from mqlite import cmqc
from mqlite.core.errors import MQError
from mqlite.core.security.names import OBJTYPE_NAMES, OBJTYPES, authority_mask, authority_names
from mqlite.core.security.principal import Principal
from mqlite.core.security.records import GROUP, PRINCIPAL, AuthRecord, ProfileError, compile_profile, profile_matches
from mqlite.mqsc import display
from mqlite.mqsc.parser import Command, Value

NOUNS = frozenset({"AUTHREC", "ENTAUTH"})
_ENTTYPES = {PRINCIPAL: "PRINCIPAL", GROUP: "GROUP"}
_DISPLAYED = ("AUTHLIST", "ENTITY", "ENTTYPE", "OBJTYPE")


@runtime_checkable
class SecurityAdmin(Protocol):
    """What these commands need (``core.admin_checks.CheckedAdmin``, or the unchecked
    ``QueueManager``)."""

    qmgr_name: str

    def set_authority(self, objtype: int, profile: str, entity: str, entity_type: int,
                      add: int = 0, remove: int = 0) -> AuthRecord | None: ...

    def delete_authority(self, objtype: int, profile: str, entity: str, entity_type: int) -> bool: ...

    def authority_records(self) -> list[AuthRecord]: ...

    def entity_authority(self, principal: Principal, objtype: int, name: str) -> int: ...

    def principal_of(self, user: str) -> Principal: ...


def run(admin: object, cmd: Command) -> list[str]:
    """One of the commands above; MQError or a syntax error (``cmd.error``) when it fails."""
    if not isinstance(admin, SecurityAdmin):
        raise MQError(cmqc.MQRC_FUNCTION_NOT_SUPPORTED, f"{cmd.verb} {cmd.objtype} is not supported here")
    if cmd.objtype == "ENTAUTH":
        return _display_entauth(admin, cmd)
    if cmd.verb == "DISPLAY":
        return _display_authrec(admin, cmd)
    objtype = _objtype(cmd, required=True)
    profile = _profile(admin, cmd, objtype, "PROFILE")
    entity, entity_type = _entity(cmd, required=True)
    if cmd.verb == "DELETE":
        _only(cmd, ("PROFILE", "OBJTYPE", "PRINCIPAL", "GROUP", "SERVCOMP"))
        if not admin.delete_authority(objtype, profile, entity, entity_type):
            raise MQError(cmqc.MQRC_UNKNOWN_OBJECT_NAME, f"no authority record of {entity} for {profile}")
        return ["AMQ8863I: WebSphere MQ authority record deleted."]
    _only(cmd, ("PROFILE", "OBJTYPE", "PRINCIPAL", "GROUP", "AUTHADD", "AUTHRMV", "SERVCOMP"))
    add, remove = _mask(cmd, "AUTHADD", objtype), _mask(cmd, "AUTHRMV", objtype)
    if "AUTHADD" not in cmd.attrs and "AUTHRMV" not in cmd.attrs:
        raise MQError(cmqc.MQRCCF_AUTH_VALUE_MISSING, "AUTHADD or AUTHRMV is required")
    admin.set_authority(objtype, profile, entity, entity_type, add, remove)
    return ["AMQ8862I: WebSphere MQ authority record set."]


# -- DISPLAY ------------------------------------------------------------------------------------
def _display_authrec(admin: SecurityAdmin, cmd: Command) -> list[str]:
    """DISPLAY AUTHREC: MATCH(PROFILE) (default) shows the records whose profile covers PROFILE,
    MATCH(EXACT) only PROFILE itself, MATCH(MEMBERSHIP) a principal's and its groups' records."""
    _only(cmd, ("PROFILE", "OBJTYPE", "PRINCIPAL", "GROUP", "MATCH", "SERVCOMP", *_DISPLAYED))
    objtype = _objtype(cmd, required=False)
    match = cmd.options.get("MATCH", "PROFILE").upper()  # a command option of DISPLAY
    if match not in ("PROFILE", "EXACT", "MEMBERSHIP"):
        raise cmd.error("MATCH must be PROFILE, EXACT or MEMBERSHIP", "MATCH")
    profile = _text(cmd, "PROFILE", "")
    if not profile and objtype == cmqc.MQOT_Q_MGR and "PROFILE" not in cmd.attrs:
        profile = admin.qmgr_name
    entity, entity_type = _entity(cmd, required=False)
    if match == "MEMBERSHIP" and (not entity or entity_type != PRINCIPAL):
        raise cmd.error("MATCH(MEMBERSHIP) needs PRINCIPAL", "MATCH")
    entities = {(entity, entity_type)} if entity else set()
    if match == "MEMBERSHIP":
        entities |= {(group, GROUP) for group in admin.principal_of(entity).groups}
    out: list[str] = []
    for record in admin.authority_records():
        if objtype is not None and record.objtype != objtype:
            continue
        if entities and (record.entity, record.entity_type) not in entities:
            continue
        if profile and not (record.profile == profile or (
                match != "EXACT" and profile_matches(record.profile, profile))):
            continue
        row = {"PROFILE": record.profile, "ENTITY": record.entity, "ENTTYPE": _ENTTYPES[record.entity_type],
               "OBJTYPE": OBJTYPE_NAMES.get(record.objtype, str(record.objtype)),
               "AUTHLIST": authority_names(record.authority)}
        out.extend(display.record("AUTHREC", row, ("PROFILE", "ENTITY", "ENTTYPE", "OBJTYPE"), _shown(cmd)))
    if not out:
        raise MQError(cmqc.MQRC_UNKNOWN_OBJECT_NAME, "no matching authority records")
    return out


def _display_entauth(admin: SecurityAdmin, cmd: Command) -> list[str]:
    """DISPLAY ENTAUTH: what an entity holds on one object, its groups' records included."""
    _only(cmd, ("OBJNAME", "OBJTYPE", "PRINCIPAL", "GROUP", "SERVCOMP", *_DISPLAYED))
    objtype = _objtype(cmd, required=True)
    name = _profile(admin, cmd, objtype, "OBJNAME")
    entity, entity_type = _entity(cmd, required=True)
    principal = admin.principal_of(entity) if entity_type == PRINCIPAL else Principal("", frozenset({entity}))
    held = admin.entity_authority(principal, objtype, name)
    row = {"OBJECT": name, "ENTITY": entity, "ENTTYPE": _ENTTYPES[entity_type],
           "OBJTYPE": OBJTYPE_NAMES.get(objtype, str(objtype)), "AUTHLIST": authority_names(held)}
    return display.record("ENTAUTH", row, ("OBJECT", "ENTITY", "ENTTYPE", "OBJTYPE"), _shown(cmd))


def _shown(cmd: Command) -> list[str]:
    """AUTHLIST unless other attributes are asked for (the identity attributes always show)."""
    asked = [key for key in _DISPLAYED if cmd.attrs.get(key) is True]
    return ["AUTHLIST"] if not asked or "ALL" in cmd.flags else asked


# -- keywords -----------------------------------------------------------------------------------
def _only(cmd: Command, allowed: tuple[str, ...]) -> None:
    for keyword in cmd.attrs:
        if keyword not in allowed:
            raise cmd.error(f"{keyword} is not valid on {cmd.verb} {cmd.objtype}", keyword)


def _text(cmd: Command, keyword: str, default: str) -> str:
    value: Value | None = cmd.attrs.get(keyword)
    if value is None:
        return default
    if not isinstance(value, str):
        raise cmd.error(f"{keyword} takes one value", keyword)
    return value


def _objtype(cmd: Command, required: bool) -> Any:
    text = _text(cmd, "OBJTYPE", "").upper()
    if not text:
        if required:
            raise cmd.error("OBJTYPE is required", "OBJTYPE")
        return None
    if text not in OBJTYPES:
        raise cmd.error(f"OBJTYPE must be one of {', '.join(OBJTYPES)}", "OBJTYPE")
    return OBJTYPES[text]


def _profile(admin: SecurityAdmin, cmd: Command, objtype: int, keyword: str) -> str:
    """PROFILE/OBJNAME: required unless OBJTYPE(QMGR), where it is the queue manager's name."""
    profile = _text(cmd, keyword, "")
    if not profile:
        if objtype != cmqc.MQOT_Q_MGR:
            raise cmd.error(f"{keyword} is required", keyword)
        return admin.qmgr_name
    try:
        compile_profile(profile)
    except ProfileError as error:
        raise MQError(cmqc.MQRCCF_PROFILE_NAME_ERROR, str(error)) from None
    return profile


def _entity(cmd: Command, required: bool) -> tuple[str, int]:
    principal, group = _text(cmd, "PRINCIPAL", ""), _text(cmd, "GROUP", "")
    if principal and group:
        raise cmd.error("PRINCIPAL and GROUP are exclusive", "GROUP")
    if required and not principal and not group:
        raise cmd.error("PRINCIPAL or GROUP is required", "PRINCIPAL")
    return (principal, PRINCIPAL) if principal else (group, GROUP) if group else ("", PRINCIPAL)


def _mask(cmd: Command, keyword: str, objtype: int) -> int:
    value = cmd.attrs.get(keyword)
    if value is None:
        return 0
    names = [value] if isinstance(value, str) else value if isinstance(value, list) else []
    try:
        return authority_mask(names, objtype)
    except ValueError as error:
        raise MQError(cmqc.MQRCCF_AUTH_VALUE_ERROR, str(error)) from None


@runtime_checkable
class RefreshAdmin(Protocol):
    """What REFRESH SECURITY needs (``mqlite.core.qmgr.QueueManager``)."""

    def refresh_connauth(self) -> None: ...

    def refresh_authorities(self) -> None: ...

    def refresh_ssl(self) -> None: ...


_REFRESH_TYPES = ("ALL", "AUTHSERV", "CONNAUTH", "SSL")


def refresh(admin: Any, cmd: Command) -> list[str]:
    """REFRESH SECURITY [TYPE(ALL|AUTHSERV|CONNAUTH|SSL)]: authority records' cache, the
    connection authentication settings (CONNAUTH and its AUTHINFO) taken afresh; TYPE(SSL), and
    only it as IBM's, has the key repository read again at the next TLS handshake."""
    kind = cmd.options.get("TYPE", "ALL").upper()
    if kind not in _REFRESH_TYPES:
        raise cmd.error(f"TYPE must be one of {', '.join(_REFRESH_TYPES)}", "TYPE")
    if not isinstance(admin, RefreshAdmin):
        raise MQError(cmqc.MQRC_FUNCTION_NOT_SUPPORTED, "REFRESH SECURITY is not supported here")
    if kind in ("ALL", "AUTHSERV"):
        admin.refresh_authorities()
    if kind in ("ALL", "CONNAUTH"):
        admin.refresh_connauth()
    if kind == "SSL":
        admin.refresh_ssl()
    return ["AMQ8560I: WebSphere MQ security cache refreshed."]


def authrec_option(cmd: Command) -> dict[str, bool]:
    """DELETE ... AUTHREC(YES|NO): whether the object's own authority records go with it (IBM's
    default YES); the keyword for ``AdminAPI.delete`` when it is NO."""
    value = str(cmd.options.get("AUTHREC", "YES")).upper()
    if value not in ("YES", "NO"):
        raise cmd.error("AUTHREC must be YES or NO", "AUTHREC")
    return {"authrec": False} if value == "NO" else {}
