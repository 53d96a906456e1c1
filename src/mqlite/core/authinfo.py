"""AUTHINFO objects of AUTHTYPE(IDPWOS) and the connection-authentication settings in force.

As at IBM, the queue manager's CONNAUTH names the AUTHINFO object whose CHCKLOCL, CHCKCLNT,
FAILDLAY and ADOPTCTX connections are checked by, and a change to either takes effect at
REFRESH SECURITY TYPE(CONNAUTH) (or the next start): ``active`` is that snapshot. Passwords are
the server's to check (the users file); what to check is decided in ``security.connauth``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from mqlite import cmqc as C
from mqlite.core import attributes
from mqlite.core.errors import MQError
from mqlite.core.outbox import Outbox

DEFAULT_AUTHINFO = "SYSTEM.DEFAULT.AUTHINFO.IDPWOS"
SERVED_TYPES = ("IDPWOS",)


class AuthInfos:
    """AUTHINFO definitions (``objects``: name -> attributes) and the CONNAUTH in force."""

    def __init__(self, qmgr_attrs: Mapping[str, Any], clock: Callable[[], float], outbox: Outbox) -> None:
        self.qmgr_attrs = qmgr_attrs
        self.clock = clock
        self.outbox = outbox
        self.objects: dict[str, dict[str, Any]] = {}
        self.active: Mapping[str, Any] | None = None  # None: CONNAUTH blank, nothing checked
        self.missing: str = ""  # CONNAUTH names an object that does not exist: refuse all

    # -- start-up ----------------------------------------------------------------------------
    def bootstrap(self) -> None:
        self.define(DEFAULT_AUTHINFO, {"AUTHTYPE": "IDPWOS"})
        self.refresh()

    def restore(self, name: str, attrs: dict[str, Any]) -> None:
        self.objects[name] = attrs

    def restored(self) -> None:
        """After restore: a queue manager created before AUTHINFO existed gets the default
        object (CONNAUTH already names it), then the settings are taken as at a start."""
        if not self.objects:
            self.define(DEFAULT_AUTHINFO, {"AUTHTYPE": "IDPWOS"})
        self.refresh()

    # -- REFRESH SECURITY TYPE(CONNAUTH) ------------------------------------------------------------
    def refresh(self) -> None:
        name = str(self.qmgr_attrs.get("CONNAUTH") or "")
        self.missing = ""
        if not name:
            self.active = None
            return
        attrs = self.objects.get(name)
        if attrs is None or attrs["AUTHTYPE"] != "IDPWOS":
            self.active, self.missing = None, name
            return
        self.active = dict(attrs)

    # -- DEFINE / ALTER / DELETE / DISPLAY -------------------------------------------------------
    def define(self, name: str, attrs: dict[str, Any], like: str | None = None, replace: bool = False) -> None:
        attributes.check_name("AUTHINFO", name)
        existing = self.objects.get(name)
        if existing is not None and not replace:
            raise MQError(C.MQRC_OBJECT_ALREADY_EXISTS, f"authentication information {name} already exists")
        if like is not None:
            model = self.objects.get(like)
            if model is None:
                raise MQError(C.MQRC_UNKNOWN_OBJECT_NAME, f"LIKE authentication information {like} not found")
            base = dict(model)
        else:
            if "AUTHTYPE" not in attrs:
                raise MQError(C.MQRCCF_PARM_SYNTAX_ERROR, "DEFINE AUTHINFO needs AUTHTYPE")
            # IBM takes a new object's defaults from SYSTEM.DEFAULT.AUTHINFO.<type>.
            base = dict(self.objects.get(DEFAULT_AUTHINFO) or attributes.defaults("AUTHINFO"))
        base.update(attrs)
        if base["AUTHTYPE"] not in SERVED_TYPES:
            raise MQError(C.MQRC_FUNCTION_NOT_SUPPORTED,
                          f"AUTHTYPE({base['AUTHTYPE']}) is not served; IDPWOS (the users file) is")
        if existing is not None and existing["AUTHTYPE"] != base["AUTHTYPE"]:
            raise MQError(C.MQRCCF_PARM_CONFLICT, f"{name} is of AUTHTYPE({existing['AUTHTYPE']})")
        self._store(name, base)

    def alter(self, name: str, attrs: dict[str, Any]) -> None:
        current = self._object(name)
        if attrs.get("AUTHTYPE", current["AUTHTYPE"]) != current["AUTHTYPE"]:
            raise MQError(C.MQRCCF_PARM_CONFLICT, f"{name} is of AUTHTYPE({current['AUTHTYPE']})")
        self._store(name, {**current, **attrs})

    def delete(self, name: str) -> None:
        self._object(name)
        if name == self.qmgr_attrs.get("CONNAUTH"):
            raise MQError(C.MQRC_OBJECT_IN_USE, f"{name} is the queue manager's CONNAUTH")
        del self.objects[name]
        self.outbox.tx.delete_record("object", f"AUTHINFO/{name}")

    def rows(self, generic: str) -> list[dict[str, Any]]:
        rows = [{"AUTHINFO": name, **attrs} for name, attrs in sorted(self.objects.items())
                if attributes.generic_match(generic, name)]
        if not rows and "*" not in generic:
            raise MQError(C.MQRC_UNKNOWN_OBJECT_NAME, f"authentication information {generic} not found")
        return rows

    def _object(self, name: str) -> dict[str, Any]:
        attrs = self.objects.get(name)
        if attrs is None:
            raise MQError(C.MQRC_UNKNOWN_OBJECT_NAME, f"authentication information {name} not found")
        return attrs

    def _store(self, name: str, attrs: dict[str, Any]) -> None:
        attrs["ALTDATE"], attrs["ALTTIME"] = attributes.date_and_time(self.clock())
        self.objects[name] = attrs
        self.outbox.tx.put_record("object", f"AUTHINFO/{name}", attrs)
