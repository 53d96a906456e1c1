"""SET CHLAUTH and DISPLAY CHLAUTH (with MATCH(RUNCHECK)) over the queue manager's channel
authentication records, printed as runmqsc prints them:

    AMQ8878I: Display channel authentication record details.
       CHLAUTH(SYSTEM.*)                       TYPE(ADDRESSMAP)
       ADDRESS(*)                              USERSRC(NOACCESS)

Attributes come in IBM's order (CHLAUTH, TYPE, DESCR, CUSTOM, the type's own, ALTDATE,
ALTTIME), not alphabetically as for other objects: that is how runmqsc lists these records.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol, runtime_checkable

from mqlite import cmqc
from mqlite.core.errors import MQError
from mqlite.core.security.chlauth_service import KEYWORDS, summary_keys
from mqlite.mqsc import display
from mqlite.mqsc.parser import Command

HEADER = "AMQ8878I: Display channel authentication record details."
SET_DONE = "AMQ8877I: WebSphere MQ channel authentication record set."
_RUNCHECK_INPUT = ("ADDRESS", "CLNTUSER", "QMNAME", "SSLPEER", "SSLCERTI")
_SHOWN = frozenset({"CHLAUTH", "TYPE", "DESCR", "CUSTOM", "USERLIST", "ADDRLIST", "SSLPEER", "SSLCERTI", "QMNAME",
                    "ADDRESS", "CLNTUSER", "USERSRC", "MCAUSER", "WARN", "CHCKCLNT", "ALTDATE", "ALTTIME"})


@runtime_checkable
class ChlauthAdmin(Protocol):
    """What SET/DISPLAY CHLAUTH need (``mqlite.core.security.chlauth_service``)."""

    def set_chlauth(self, profile: str, attrs: Mapping[str, Any]) -> None: ...

    def chlauth_rows(self, profile: str, kind: str = "ALL", match: str = "GENERIC") -> list[dict[str, Any]]: ...

    def chlauth_runcheck(self, channel: str, attrs: Mapping[str, str]) -> tuple[dict[str, Any] | None, str]: ...


def _admin(admin: object, cmd: Command) -> ChlauthAdmin:
    if not isinstance(admin, ChlauthAdmin):
        raise MQError(cmqc.MQRC_FUNCTION_NOT_SUPPORTED, f"{cmd.verb} CHLAUTH is not supported here")
    return admin


def set_chlauth(admin: object, cmd: Command) -> list[str]:
    """SET CHLAUTH(profile) TYPE(...) [ACTION(...)] attributes."""
    for keyword in cmd.attrs:
        if keyword not in KEYWORDS:
            raise cmd.error(f"{keyword} is not a SET CHLAUTH keyword", keyword)
    if "TYPE" not in cmd.attrs:
        raise cmd.error("SET CHLAUTH needs TYPE", "CHLAUTH")
    _admin(admin, cmd).set_chlauth(cmd.name or "", cmd.attrs)
    return [SET_DONE]


def display_chlauth(admin: object, cmd: Command, where: Callable[[Mapping[str, Any]], bool] | None = None) -> list[str]:
    """DISPLAY CHLAUTH(profile) [TYPE(t)] [MATCH(m)] [WHERE(...)] [ALL | attributes], or
    MATCH(RUNCHECK); ``where`` is the executor's WHERE test for a record's row."""
    chlauth = _admin(admin, cmd)
    if cmd.where is not None and cmd.where.keyword not in _SHOWN:
        raise cmd.error(f"{cmd.where.keyword} is not a channel authentication record attribute", "WHERE")
    name = cmd.name or ""
    match = cmd.options.get("MATCH", "GENERIC").upper()
    kind = cmd.options.get("TYPE", "ALL").upper()
    given = {k: v for k, v in cmd.attrs.items() if v is not True}
    requested = [k for k, v in cmd.attrs.items() if v is True]
    for keyword in requested:
        if keyword not in _SHOWN:
            raise cmd.error(f"{keyword} is not a channel authentication record attribute", keyword)
    show_all = "ALL" in cmd.flags or (not requested and "*" not in name)
    if match == "RUNCHECK":
        if cmd.where is not None:
            raise cmd.error("WHERE is not valid with MATCH(RUNCHECK)", "WHERE")
        if kind != "ALL":
            raise cmd.error("MATCH(RUNCHECK) is only valid with TYPE(ALL)", "TYPE")
        for keyword, value in given.items():
            if keyword not in _RUNCHECK_INPUT or not isinstance(value, str):
                raise cmd.error(f"{keyword} is not a MATCH(RUNCHECK) value", keyword)
        row, user = chlauth.chlauth_runcheck(name, {k: str(v) for k, v in given.items()})
        if row is None:
            return [f"AMQ9783I: Channel will run using MCAUSER('{user}')."]
        return _record(row, requested, show_all)
    for keyword in given:
        raise cmd.error(f"{keyword} takes a value only with MATCH(RUNCHECK)", keyword)
    rows = chlauth.chlauth_rows(name, kind, match)
    if where is not None and cmd.where is not None:
        rows = [row for row in rows if where(row)]
        requested.append(cmd.where.keyword)
    if not rows:
        raise MQError(cmqc.MQRCCF_CHLAUTH_NOT_FOUND, f"no channel authentication record matches {name}")
    out: list[str] = []
    for row in rows:
        out.extend(_record(row, requested, show_all))
    return out


def _record(row: Mapping[str, Any], requested: list[str], show_all: bool) -> list[str]:
    wanted = set(row) if show_all else {"CHLAUTH", "TYPE", *summary_keys(row), *requested}
    return [HEADER, *display.pairs(f"{key}({display.format_value(value)})" for key, value in row.items()
                                   if key in wanted)]
