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
from mqlite.core.defined_objects import DefinedObjects, copy_attrs
from mqlite.core.errors import MQError
from mqlite.core.outbox import Outbox

DEFAULT_AUTHINFO = "SYSTEM.DEFAULT.AUTHINFO.IDPWOS"
SERVED_TYPES = ("IDPWOS",)


class AuthInfos(DefinedObjects):
    """AUTHINFO definitions (``objects``: name -> attributes) and the CONNAUTH in force."""

    objtype = "AUTHINFO"
    noun = "authentication information"

    def __init__(self, qmgr_attrs: Mapping[str, Any], clock: Callable[[], float], outbox: Outbox) -> None:
        super().__init__(clock, outbox)
        self.qmgr_attrs = qmgr_attrs
        self.active: Mapping[str, Any] | None = None  # None: CONNAUTH blank, nothing checked
        self.missing: str = ""  # CONNAUTH names an object that does not exist: refuse all

    # -- start-up ----------------------------------------------------------------------------
    def bootstrap(self) -> None:
        self.define(DEFAULT_AUTHINFO, {"AUTHTYPE": "IDPWOS"})
        self.refresh()

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

    # -- DefinedObjects' hooks --------------------------------------------------------------------
    def new_object(self, attrs: Mapping[str, Any]) -> dict[str, Any]:
        if "AUTHTYPE" not in attrs:
            raise MQError(C.MQRCCF_PARM_SYNTAX_ERROR, "DEFINE AUTHINFO needs AUTHTYPE")
        # IBM takes a new object's defaults from SYSTEM.DEFAULT.AUTHINFO.<type>.
        return copy_attrs(self.objects.get(DEFAULT_AUTHINFO) or attributes.defaults("AUTHINFO"))

    def check_define(self, name: str, attrs: Mapping[str, Any], existing: Mapping[str, Any] | None) -> None:
        if attrs["AUTHTYPE"] not in SERVED_TYPES:
            raise MQError(C.MQRC_FUNCTION_NOT_SUPPORTED,
                          f"AUTHTYPE({attrs['AUTHTYPE']}) is not served; IDPWOS (the users file) is")
        if existing is not None and existing["AUTHTYPE"] != attrs["AUTHTYPE"]:
            raise MQError(C.MQRCCF_PARM_CONFLICT, f"{name} is of AUTHTYPE({existing['AUTHTYPE']})")

    def check_alter(self, name: str, current: Mapping[str, Any], changes: Mapping[str, Any]) -> None:
        if changes.get("AUTHTYPE", current["AUTHTYPE"]) != current["AUTHTYPE"]:
            raise MQError(C.MQRCCF_PARM_CONFLICT, f"{name} is of AUTHTYPE({current['AUTHTYPE']})")

    def check_delete(self, name: str) -> None:
        if name == self.qmgr_attrs.get("CONNAUTH"):
            raise MQError(C.MQRC_OBJECT_IN_USE, f"{name} is the queue manager's CONNAUTH")
