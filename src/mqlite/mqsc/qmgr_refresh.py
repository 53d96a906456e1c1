"""REFRESH QMGR: TYPE(PROXYSUB) resynchronises proxy subscriptions (B:R-PXY-12, SC-113);
TYPE(CONFIGEV) puts a Refresh object configuration event (MQRC_CONFIG_REFRESH_OBJECT, 2370) on
SYSTEM.ADMIN.CONFIG.EVENT for each object OBJECT (ALL by default) and NAME (a generic name,
``*`` by default) select, changed within INCLINT minutes if given (core.events.config); the PCF
command server's MQCMD_REFRESH_Q_MGR is this command. TYPE(EXPIRY) discards now the expired
messages of the queues NAME (generic, ``*`` by default) matches, as the queue manager's own sweep
does at intervals. TYPE(EARLY) is z/OS's: 2298."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.events.config import REFRESH_TYPES
from mqlite.mqsc.parser import Command

__all__ = ["ConfigRefreshAdmin", "ExpiryRefreshAdmin", "ProxyRefreshAdmin", "refresh"]


@runtime_checkable
class ConfigRefreshAdmin(Protocol):
    def refresh_config(self, objtype: str = "ALL", generic: str = "*", inclint: int | None = None) -> int: ...


@runtime_checkable
class ExpiryRefreshAdmin(Protocol):
    def refresh_expiry(self, generic: str = "*") -> int: ...


@runtime_checkable
class ProxyRefreshAdmin(Protocol):
    def refresh_proxies(self) -> None: ...


def refresh(admin: object, cmd: Command) -> list[str]:
    for keyword in cmd.attrs:
        raise cmd.error(f"{keyword} is not valid on REFRESH QMGR", keyword)
    kind = str(cmd.options.get("TYPE", "")).upper()
    if kind == "PROXYSUB" and isinstance(admin, ProxyRefreshAdmin):
        admin.refresh_proxies()
        return ["AMQ8005I: WebSphere MQ queue manager changed."]
    if kind == "EXPIRY" and isinstance(admin, ExpiryRefreshAdmin):
        for keyword in cmd.options:
            if keyword not in ("TYPE", "NAME"):
                raise cmd.error(f"{keyword} is not valid on REFRESH QMGR TYPE(EXPIRY)", keyword)
        admin.refresh_expiry(str(cmd.options.get("NAME", "*")) or "*")
        return ["AMQ8005I: WebSphere MQ queue manager changed."]
    if kind == "EARLY":
        raise MQError(C.MQRC_FUNCTION_NOT_SUPPORTED, "REFRESH QMGR TYPE(EARLY) is z/OS's")
    if kind != "CONFIGEV" or not isinstance(admin, ConfigRefreshAdmin):
        raise cmd.error("REFRESH QMGR supports TYPE(PROXYSUB), TYPE(CONFIGEV) and TYPE(EXPIRY)", "TYPE")
    objtype = str(cmd.options.get("OBJECT", "ALL")).upper()
    if objtype not in REFRESH_TYPES:
        raise cmd.error(f"OBJECT({objtype}) is not valid on REFRESH QMGR", "OBJECT")
    inclint = str(cmd.options.get("INCLINT", "")).strip()
    if inclint and not (inclint.isdigit() and 1 <= int(inclint) <= 999999):
        raise cmd.error("INCLINT is 1 to 999999 minutes", "INCLINT")
    admin.refresh_config(objtype, str(cmd.options.get("NAME", "*")) or "*", int(inclint) if inclint else None)
    return ["AMQ8005I: WebSphere MQ queue manager changed."]
