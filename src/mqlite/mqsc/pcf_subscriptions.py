"""PCF subscription commands on the one MQSC executor: CREATE_SUBSCRIPTION is DEFINE SUB,
CHANGE_SUBSCRIPTION ALTER SUB, COPY_SUBSCRIPTION DEFINE SUB LIKE, DELETE_SUBSCRIPTION DELETE SUB.
A subscription is named by MQCACF_SUB_NAME or, for CHANGE and DELETE, by MQBACF_SUB_ID (MQSC's
SUBID). Its attributes are the SUB family of ``pcf_table.EXTRAS``, with cmqc.h's integers."""

from __future__ import annotations

from typing import Any

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.mqsc import pcf_table
from mqlite.mqsc.commands import AdminAPI
from mqlite.mqsc.pcf_commands import Reply, Request, mqsc_command, run_lines
from mqlite.mqsc.pcf_table import ParameterError

__all__ = ["COMMANDS", "execute"]

COMMANDS = frozenset({C.MQCMD_CREATE_SUBSCRIPTION, C.MQCMD_CHANGE_SUBSCRIPTION, C.MQCMD_COPY_SUBSCRIPTION,
                      C.MQCMD_DELETE_SUBSCRIPTION})
# What DISPLAY SUB shows but no DEFINE or ALTER sets (an administrative subscription is durable).
_NOT_SETTABLE = frozenset({"SUB", "SUBID", "DURABLE", "SUBTYPE", "CRDATE", "CRTIME", "ALTDATE", "ALTTIME"})
_SETTABLE = {pid: keyword for keyword, (pid, _) in pcf_table.EXTRAS["SUB"].items() if keyword not in _NOT_SETTABLE}


def execute(admin: AdminAPI, command: int, request: Request) -> Reply:
    options: dict[str, str] = {}
    flags: set[str] = set()
    if command == C.MQCMD_COPY_SUBSCRIPTION:
        options["LIKE"] = str(request.string(C.MQCACF_FROM_SUB_NAME, required=True))
        name: str | None = request.string(C.MQCACF_TO_SUB_NAME, required=True)
        attrs: dict[str, Any] = {}
    else:
        name, attrs = _named(command, request)
    if command == C.MQCMD_DELETE_SUBSCRIPTION:
        request.done()
        run_lines(admin, mqsc_command("DELETE", "SUB", name, attrs))
        return Reply()
    if request.integer(C.MQIACF_REPLACE) == C.MQRP_YES and command != C.MQCMD_CHANGE_SUBSCRIPTION:
        flags.add("REPLACE")
    for parameter, value in request.left:
        if parameter not in _SETTABLE:
            raise ParameterError(pcf_table.parm_id_error(value), f"parameter {parameter} is not a SUB attribute",
                                 parameter)
        keyword, converted = pcf_table.extra_to_mqsc("SUB", parameter, value)
        attrs[keyword] = converted
    request.left = []
    verb = "ALTER" if command == C.MQCMD_CHANGE_SUBSCRIPTION else "DEFINE"
    run_lines(admin, mqsc_command(verb, "SUB", name, attrs, frozenset(flags), options))
    return Reply()


def _named(command: int, request: Request) -> tuple[str | None, dict[str, Any]]:
    """SUB(name), or SUBID(hex) where a CHANGE or DELETE names it by its identifier only."""
    name = request.string(C.MQCACF_SUB_NAME)
    sub_id = request.take(C.MQBACF_SUB_ID) if command != C.MQCMD_CREATE_SUBSCRIPTION else None
    if sub_id is not None and not isinstance(sub_id, bytes):
        raise ParameterError(pcf_table.parm_id_error(sub_id), "MQBACF_SUB_ID must be a byte string (MQCFBS)",
                             C.MQBACF_SUB_ID)
    if name:
        return name, {}
    if sub_id is not None and sub_id.strip(b"\0"):
        return None, {"SUBID": sub_id.hex().upper()}
    raise MQError(C.MQRCCF_SUB_NAME_ERROR, "MQCACF_SUB_NAME (or MQBACF_SUB_ID) is required")
