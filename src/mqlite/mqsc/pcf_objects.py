"""More PCF commands on the one MQSC executor, over ``pcf_commands``: the definitions of topics,
channels, listeners and namelists (CREATE / CHANGE / COPY / DELETE as DEFINE / ALTER / DEFINE
LIKE / DELETE), CHANGE_Q_MGR (ALTER QMGR), and the authority records (INQUIRE_AUTH_RECS as
DISPLAY AUTHREC, SET_AUTH_REC and DELETE_AUTH_REC as SET / DELETE AUTHREC, an entity a command).
``execute`` is the command server's entry: these first, then everything ``pcf_commands`` runs."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.mqsc import pcf_commands, pcf_escape, pcf_subscriptions, pcf_table
from mqlite.mqsc.commands import AdminAPI
from mqlite.mqsc.parser import Command
from mqlite.mqsc.pcf_commands import Params, Reply, Request, display_records, mqsc_command, parse_records, run_lines
from mqlite.mqsc.pcf_table import ParameterError

__all__ = ["execute", "ping_command"]


@dataclass(frozen=True)
class _Kind:
    objtype: str
    name: int  # the parameter naming the object
    copy_from: int  # COPY's MQCACF_FROM_*_NAME
    copy_to: int  # and MQCACF_TO_*_NAME


_TOPIC = _Kind("TOPIC", C.MQCA_TOPIC_NAME, C.MQCACF_FROM_TOPIC_NAME, C.MQCACF_TO_TOPIC_NAME)
_CHANNEL = _Kind("CHANNEL", C.MQCACH_CHANNEL_NAME, C.MQCACF_FROM_CHANNEL_NAME, C.MQCACF_TO_CHANNEL_NAME)
_LISTENER = _Kind("LISTENER", C.MQCACH_LISTENER_NAME, C.MQCACF_FROM_LISTENER_NAME, C.MQCACF_TO_LISTENER_NAME)
_NAMELIST = _Kind("NAMELIST", C.MQCA_NAMELIST_NAME, C.MQCACF_FROM_NAMELIST_NAME, C.MQCACF_TO_NAMELIST_NAME)
#: command -> (what it does, to which kind of object)
_DEFINITIONS: dict[int, tuple[str, _Kind]] = {
    C.MQCMD_CREATE_TOPIC: ("DEFINE", _TOPIC), C.MQCMD_CHANGE_TOPIC: ("ALTER", _TOPIC),
    C.MQCMD_COPY_TOPIC: ("COPY", _TOPIC), C.MQCMD_DELETE_TOPIC: ("DELETE", _TOPIC),
    C.MQCMD_CREATE_CHANNEL: ("DEFINE", _CHANNEL), C.MQCMD_CHANGE_CHANNEL: ("ALTER", _CHANNEL),
    C.MQCMD_COPY_CHANNEL: ("COPY", _CHANNEL), C.MQCMD_DELETE_CHANNEL: ("DELETE", _CHANNEL),
    C.MQCMD_CREATE_LISTENER: ("DEFINE", _LISTENER), C.MQCMD_CHANGE_LISTENER: ("ALTER", _LISTENER),
    C.MQCMD_COPY_LISTENER: ("COPY", _LISTENER), C.MQCMD_DELETE_LISTENER: ("DELETE", _LISTENER),
    C.MQCMD_CREATE_NAMELIST: ("DEFINE", _NAMELIST), C.MQCMD_CHANGE_NAMELIST: ("ALTER", _NAMELIST),
    C.MQCMD_COPY_NAMELIST: ("COPY", _NAMELIST), C.MQCMD_DELETE_NAMELIST: ("DELETE", _NAMELIST),
}
_OBJECT_TYPES = {number: name for name, number in pcf_table.EXTRAS["AUTHREC"]["OBJTYPE"][1].items()}  # type: ignore[union-attr]
_AUTH_NAMES = {number: name for name, number in pcf_table.AUTHORITIES.items()}


def execute(admin: AdminAPI, command: int, parameters: Params) -> Reply:
    """Run one PCF command as the MQSC command that means the same."""
    try:
        request = Request(parameters)
        if command in _DEFINITIONS:
            action, kind = _DEFINITIONS[command]
            return _definition(admin, action, kind, request)
        if command == C.MQCMD_CHANGE_Q_MGR:
            request.integer(C.MQIACF_FORCE)
            attrs = dict(pcf_table.to_mqsc("QMGR", p, v) for p, v in request.left)
            run_lines(admin, mqsc_command("ALTER", "QMGR", None, attrs))
            return Reply()
        if command == C.MQCMD_INQUIRE_AUTH_RECS:
            return _inquire_auth_recs(admin, request)
        if command in (C.MQCMD_SET_AUTH_REC, C.MQCMD_DELETE_AUTH_REC):
            return _change_auth_rec(admin, command, request)
        if command in _OPERATIONS:
            return _operation(admin, command, request)
        if command == C.MQCMD_INQUIRE_CHLAUTH_RECS:
            return _inquire_chlauth(admin, request)
        if command == C.MQCMD_INQUIRE_ENTITY_AUTH:
            return _inquire_entity_auth(admin, request)
        if command in pcf_subscriptions.COMMANDS:
            return pcf_subscriptions.execute(admin, command, request)
        if command == C.MQCMD_ESCAPE:
            return pcf_escape.execute(admin, request)
        if command == C.MQCMD_REFRESH_Q_MGR:
            run_lines(admin, refresh_command(request))
            return Reply()
        if command == C.MQCMD_PING_CHANNEL:
            run_lines(admin, ping_command(request))  # (no channel agents here: the command server pings)
            return Reply()
        if command == C.MQCMD_SET_CHLAUTH_REC:
            return _set_chlauth(admin, request)
    except MQError as error:
        return pcf_commands.failure(error)
    return pcf_commands.execute(admin, command, parameters)


def _definition(admin: AdminAPI, action: str, kind: _Kind, request: Request) -> Reply:
    flags: set[str] = set()
    options: dict[str, str] = {}
    if action == "COPY":
        options["LIKE"] = str(request.string(kind.copy_from, required=True))
        name = request.string(kind.copy_to, required=True)
    else:
        name = request.string(kind.name, required=True)
    if action == "DELETE":
        if kind is _CHANNEL:
            request.integer(C.MQIACH_CHANNEL_TYPE)  # (MQSC's DELETE CHANNEL takes none)
        request.done()
        run_lines(admin, mqsc_command("DELETE", kind.objtype, name))
        return Reply()
    if request.integer(C.MQIACF_REPLACE) == C.MQRP_YES and action != "ALTER":
        flags.add("REPLACE")
    if action == "ALTER" and kind is _CHANNEL:
        request.integer(C.MQIACH_CHANNEL_TYPE)  # the channel's own type stays
    attrs: dict[str, Any] = dict(pcf_table.to_mqsc(kind.objtype, p, v) for p, v in request.left)
    request.left = []
    verb = "ALTER" if action == "ALTER" else "DEFINE"
    run_lines(admin, mqsc_command(verb, kind.objtype, name, attrs, frozenset(flags), options))
    return Reply()


def _authrec_target(request: Request, required: bool) -> dict[str, Any]:
    attrs: dict[str, Any] = {}
    profile = request.string(C.MQCACF_AUTH_PROFILE_NAME)
    if profile is not None:
        attrs["PROFILE"] = profile
    objtype = request.integer(C.MQIACF_OBJECT_TYPE)
    if objtype is None and required:
        raise MQError(C.MQRCCF_OBJECT_TYPE_MISSING, "MQIACF_OBJECT_TYPE is required")
    if objtype is not None:
        if objtype not in _OBJECT_TYPES:
            raise MQError(C.MQRCCF_PARM_VALUE_ERROR, f"MQIACF_OBJECT_TYPE {objtype}")
        attrs["OBJTYPE"] = _OBJECT_TYPES[objtype]
    return attrs


def _inquire_auth_recs(admin: AdminAPI, request: Request) -> Reply:
    request.integer(C.MQIACF_AUTH_OPTIONS)  # (records whose profile covers the name: MATCH(PROFILE))
    attrs = _authrec_target(request, required=False)
    entity = request.string(C.MQCACF_ENTITY_NAME)
    entity_type = request.integer(C.MQIACF_ENTITY_TYPE)
    if entity:
        attrs["GROUP" if entity_type == C.MQZAET_GROUP else "PRINCIPAL"] = entity
    request.integers(C.MQIACF_AUTH_PROFILE_ATTRS)
    request.done()
    return Reply(display_records(admin, mqsc_command("DISPLAY", "AUTHREC", None, attrs), "AUTHREC"))


def _inquire_entity_auth(admin: AdminAPI, request: Request) -> Reply:
    """INQUIRE_ENTITY_AUTH: DISPLAY ENTAUTH PRINCIPAL(e) | GROUP(e) OBJTYPE(t) OBJNAME(n)."""
    entity = request.string(C.MQCACF_ENTITY_NAME)
    if not entity:
        raise MQError(C.MQRCCF_ENTITY_NAME_MISSING, "MQCACF_ENTITY_NAME is required")
    entity_type = request.integer(C.MQIACF_ENTITY_TYPE)
    if entity_type not in (None, C.MQZAET_PRINCIPAL, C.MQZAET_GROUP):
        raise ParameterError(C.MQRCCF_PARM_VALUE_ERROR, f"MQIACF_ENTITY_TYPE {entity_type}", C.MQIACF_ENTITY_TYPE)
    attrs = _authrec_target(request, required=True)
    attrs.pop("PROFILE", None)
    attrs["GROUP" if entity_type == C.MQZAET_GROUP else "PRINCIPAL"] = entity
    name = request.string(C.MQCACF_OBJECT_NAME)
    if name:
        attrs["OBJNAME"] = name
    request.integer(C.MQIACF_AUTH_OPTIONS)  # (the entity's authority, its groups' included: what ENTAUTH shows)
    selection = request.integers(C.MQIACF_AUTH_PROFILE_ATTRS)
    request.done()
    objects = display_records(admin, mqsc_command("DISPLAY", "ENTAUTH", None, attrs), "ENTAUTH")
    if selection is not None and C.MQIACF_ALL not in selection:
        wanted = {*selection, C.MQCACF_ENTITY_NAME, C.MQIACF_ENTITY_TYPE, C.MQIACF_OBJECT_TYPE}
        objects = [[(p, v) for p, v in o if p in wanted] for o in objects]
    return Reply(objects)


def _change_auth_rec(admin: AdminAPI, command: int, request: Request) -> Reply:
    attrs = _authrec_target(request, required=True)
    if "PROFILE" not in attrs:
        raise MQError(C.MQRCCF_PROFILE_NAME_MISSING, "MQCACF_AUTH_PROFILE_NAME is required")
    if command == C.MQCMD_SET_AUTH_REC:
        for parameter, keyword in ((C.MQIACF_AUTH_ADD_AUTHS, "AUTHADD"), (C.MQIACF_AUTH_REMOVE_AUTHS, "AUTHRMV")):
            numbers = request.integers(parameter)
            if numbers is not None:
                unknown = [n for n in numbers if n not in _AUTH_NAMES]
                if unknown:
                    raise MQError(C.MQRCCF_AUTH_VALUE_ERROR, f"authority {unknown[0]}")
                attrs[keyword] = [_AUTH_NAMES[n] for n in numbers]
        if "AUTHADD" not in attrs and "AUTHRMV" not in attrs:
            raise MQError(C.MQRCCF_AUTH_VALUE_MISSING, "MQIACF_AUTH_ADD_AUTHS or MQIACF_AUTH_REMOVE_AUTHS is needed")
    entities: list[tuple[str, str]] = []
    for parameter, keyword in ((C.MQCACF_PRINCIPAL_ENTITY_NAMES, "PRINCIPAL"), (C.MQCACF_GROUP_ENTITY_NAMES, "GROUP")):
        value = request.take(parameter)
        if value is not None:
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise MQError(C.MQRCCF_CFSL_PARM_ID_ERROR, f"parameter {parameter} must be a string list (MQCFSL)")
            entities.extend((keyword, str(v).strip()) for v in value)
    request.done()
    if not entities:
        raise MQError(C.MQRCCF_ENTITY_NAME_MISSING, "MQCACF_PRINCIPAL_ENTITY_NAMES or MQCACF_GROUP_ENTITY_NAMES")
    verb = "SET" if command == C.MQCMD_SET_AUTH_REC else "DELETE"
    for keyword, entity in entities:
        run_lines(admin, mqsc_command(verb, "AUTHREC", None, {**attrs, keyword: entity}))
    return Reply()


_CHLAUTH_TYPES = pcf_table.EXTRAS["CHLAUTH"]["TYPE"][1]
_ACTIONS = {C.MQACT_ADD: "ADD", C.MQACT_REPLACE: "REPLACE", C.MQACT_REMOVE: "REMOVE", C.MQACT_REMOVEALL: "REMOVEALL"}


def _chlauth_type(request: Request, required: bool) -> str | None:
    number = request.integer(C.MQIACF_CHLAUTH_TYPE)
    if number is None or (number == C.MQCAUT_ALL and not required):
        if required:
            raise MQError(C.MQRCCF_CHLAUTH_TYPE_ERROR, "MQIACF_CHLAUTH_TYPE is required")
        return None
    token = next((t for t, n in _CHLAUTH_TYPES.items() if n == number), None)  # type: ignore[union-attr]
    if token is None:
        raise MQError(C.MQRCCF_CHLAUTH_TYPE_ERROR, f"MQIACF_CHLAUTH_TYPE {number}")
    return token


def _inquire_chlauth(admin: AdminAPI, request: Request) -> Reply:
    """INQUIRE_CHLAUTH_RECS: DISPLAY CHLAUTH(profile) [TYPE(t)] ALL."""
    name = request.string(C.MQCACH_CHANNEL_NAME, required=True)
    options: dict[str, str] = {}
    kind = _chlauth_type(request, required=False)
    if kind is not None:
        options["TYPE"] = kind
    match = request.integer(C.MQIACH_MATCH)
    if match not in (None, C.MQMATCH_GENERIC, C.MQMATCH_EXACT, C.MQMATCH_ALL):
        raise MQError(C.MQRCCF_PARM_VALUE_ERROR, f"MQIACH_MATCH {match} (RUNCHECK is not served yet)")
    if match is not None:
        options["MATCH"] = {C.MQMATCH_GENERIC: "GENERIC", C.MQMATCH_EXACT: "EXACT", C.MQMATCH_ALL: "ALL"}[match]
    selection = request.integers(C.MQIACF_CHLAUTH_ATTRS)
    request.done()
    lines = run_lines(admin, mqsc_command("DISPLAY", "CHLAUTH", name, flags=frozenset({"ALL"}), options=options))
    objects = [pcf_table.to_pcf("CHLAUTH", row, flags) for row, flags in parse_records(lines)]
    if selection is not None and C.MQIACF_ALL not in selection:
        wanted = {*selection, C.MQCACH_CHANNEL_NAME, C.MQIACF_CHLAUTH_TYPE}
        objects = [[(p, v) for p, v in o if p in wanted] for o in objects]
    return Reply(objects)


def _set_chlauth(admin: AdminAPI, request: Request) -> Reply:
    """SET_CHLAUTH_REC: SET CHLAUTH(profile) TYPE(t) ACTION(a) attributes."""
    name = request.string(C.MQCACH_CHANNEL_NAME, required=True)
    attrs: dict[str, Any] = {"TYPE": _chlauth_type(request, required=True)}
    action = request.integer(C.MQIACF_ACTION)
    if action is not None:
        if action not in _ACTIONS:
            raise MQError(C.MQRCCF_CHLAUTH_ACTION_ERROR, f"MQIACF_ACTION {action}")
        attrs["ACTION"] = _ACTIONS[action]
    for parameter, value in request.left:
        keyword, converted = pcf_table.extra_to_mqsc("CHLAUTH", parameter, value)
        attrs[keyword] = converted
    request.left = []
    run_lines(admin, mqsc_command("SET", "CHLAUTH", name, attrs))
    return Reply()


#: Commands that are one MQSC verb on one named object: (verb, noun, the naming parameter).
_OPERATIONS: dict[int, tuple[str, str, int]] = {
    C.MQCMD_CLEAR_Q: ("CLEAR", "QLOCAL", C.MQCA_Q_NAME),
    C.MQCMD_START_CHANNEL: ("START", "CHANNEL", C.MQCACH_CHANNEL_NAME),
    C.MQCMD_STOP_CHANNEL: ("STOP", "CHANNEL", C.MQCACH_CHANNEL_NAME),
    C.MQCMD_RESET_CHANNEL: ("RESET", "CHANNEL", C.MQCACH_CHANNEL_NAME),
    C.MQCMD_RESOLVE_CHANNEL: ("RESOLVE", "CHANNEL", C.MQCACH_CHANNEL_NAME),
    C.MQCMD_START_CHANNEL_LISTENER: ("START", "LISTENER", C.MQCACH_LISTENER_NAME),
    C.MQCMD_STOP_CHANNEL_LISTENER: ("STOP", "LISTENER", C.MQCACH_LISTENER_NAME),
    C.MQCMD_REFRESH_SECURITY: ("REFRESH", "SECURITY", 0),
}
_MODES = {C.MQMODE_FORCE: "FORCE", C.MQMODE_QUIESCE: "QUIESCE", C.MQMODE_TERMINATE: "TERMINATE"}
_STOPPED_STATUS = {C.MQCHS_STOPPED: "STOPPED", C.MQCHS_INACTIVE: "INACTIVE"}
_IN_DOUBT = {C.MQIDO_COMMIT: "COMMIT", C.MQIDO_BACKOUT: "BACKOUT"}
_SECURITY_TYPES = {C.MQSECTYPE_AUTHSERV: "AUTHSERV", C.MQSECTYPE_SSL: "SSL", C.MQSECTYPE_CONNAUTH: "CONNAUTH"}


def _operation(admin: AdminAPI, command: int, request: Request) -> Reply:
    verb, noun, naming = _OPERATIONS[command]
    name = request.string(naming, required=True) if naming else None
    options: dict[str, str] = {}
    if command == C.MQCMD_STOP_CHANNEL:
        mode = request.integer(C.MQIACF_MODE)
        status = request.integer(C.MQIACH_CHANNEL_STATUS)
        if mode not in (None, *_MODES) or status not in (None, *_STOPPED_STATUS):
            raise MQError(C.MQRCCF_PARM_VALUE_ERROR, f"MQIACF_MODE {mode}, MQIACH_CHANNEL_STATUS {status}")
        options.update({"MODE": _MODES[mode]} if mode is not None else {})
        options.update({"STATUS": _STOPPED_STATUS[status]} if status is not None else {})
        for parameter, keyword in ((C.MQCACH_CONNECTION_NAME, "CONNAME"), (C.MQCACH_CLIENT_ID, "CLIENTID")):
            value = request.string(parameter)
            if value:
                options[keyword] = value
    if command == C.MQCMD_RESET_CHANNEL:
        seqnum = request.integer(C.MQIACH_MSG_SEQUENCE_NUMBER)
        if seqnum is not None:
            options["SEQNUM"] = str(seqnum)
    if command == C.MQCMD_RESOLVE_CHANNEL:
        action = request.integer(C.MQIACH_IN_DOUBT)
        if action not in _IN_DOUBT:
            raise ParameterError(C.MQRCCF_INDOUBT_VALUE_ERROR, f"MQIACH_IN_DOUBT {action}", C.MQIACH_IN_DOUBT)
        options["ACTION"] = _IN_DOUBT[action]
    if command == C.MQCMD_REFRESH_SECURITY:
        kind = request.integer(C.MQIACF_SECURITY_TYPE)
        if kind is not None and kind not in _SECURITY_TYPES:
            raise MQError(C.MQRCCF_PARM_VALUE_ERROR, f"MQIACF_SECURITY_TYPE {kind}")
        if kind is not None:
            options["TYPE"] = _SECURITY_TYPES[kind]
    request.done()
    run_lines(admin, mqsc_command(verb, noun, name, options=options))
    return Reply()



_REFRESH_TYPES = {C.MQRT_CONFIGURATION: "CONFIGEV", C.MQRT_EXPIRY: "EXPIRY", C.MQRT_PROXYSUB: "PROXYSUB"}
_REFRESH_OBJECTS = {
    C.MQOT_ALL: "ALL", C.MQOT_Q: "QUEUE", C.MQOT_LOCAL_Q: "QLOCAL", C.MQOT_ALIAS_Q: "QALIAS",
    C.MQOT_MODEL_Q: "QMODEL", C.MQOT_REMOTE_Q: "QREMOTE", C.MQOT_Q_MGR: "QMGR", C.MQOT_CHANNEL: "CHANNEL",
    C.MQOT_NAMELIST: "NAMELIST", C.MQOT_AUTH_INFO: "AUTHINFO", C.MQOT_LISTENER: "LISTENER", C.MQOT_TOPIC: "TOPIC",
    C.MQOT_PROCESS: "PROCESS", C.MQOT_NONE: "NONE",
}


def refresh_command(request: Request) -> Command:
    """REFRESH_Q_MGR as REFRESH QMGR: RefreshType (MQRT_CONFIGURATION: TYPE(CONFIGEV), MQRT_EXPIRY, or
    MQRT_PROXYSUB), ObjectType (OBJECT), ObjectName (NAME), RefreshInterval (INCLINT, minutes)."""
    kind = request.integer(C.MQIACF_REFRESH_TYPE)
    if kind is None:
        raise ParameterError(C.MQRCCF_PARM_MISSING, "MQIACF_REFRESH_TYPE is required", C.MQIACF_REFRESH_TYPE)
    if kind not in _REFRESH_TYPES:
        raise ParameterError(C.MQRCCF_PARM_VALUE_ERROR, f"MQIACF_REFRESH_TYPE {kind}", C.MQIACF_REFRESH_TYPE)
    options = {"TYPE": _REFRESH_TYPES[kind]}
    objtype, name = request.integer(C.MQIACF_OBJECT_TYPE), request.string(C.MQCACF_OBJECT_NAME)
    interval = request.integer(C.MQIACF_REFRESH_INTERVAL)
    if objtype is not None:
        if objtype not in _REFRESH_OBJECTS:
            raise ParameterError(C.MQRCCF_PARM_VALUE_ERROR, f"MQIACF_OBJECT_TYPE {objtype}", C.MQIACF_OBJECT_TYPE)
        options["OBJECT"] = _REFRESH_OBJECTS[objtype]
    if name:
        options["NAME"] = name
    if interval is not None:
        options["INCLINT"] = str(interval)
    request.done()
    return mqsc_command("REFRESH", "QMGR", None, options=options)


def ping_command(request: Request) -> Command:
    """PING_CHANNEL as PING CHANNEL(name) DATALEN(n): MQIACH_DATA_COUNT is 16 to 32768 (IBM's
    default 64), else MQRCCF_PING_DATA_COUNT_ERROR."""
    name = request.string(C.MQCACH_CHANNEL_NAME, required=True)
    count = request.integer(C.MQIACH_DATA_COUNT)
    if count is not None and not 16 <= count <= 32768:
        raise ParameterError(C.MQRCCF_PING_DATA_COUNT_ERROR, f"MQIACH_DATA_COUNT {count}", C.MQIACH_DATA_COUNT)
    request.done()
    return mqsc_command("PING", "CHANNEL", name, options={"DATALEN": str(count or 64)})
