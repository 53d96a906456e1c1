"""NAMELIST objects: named lists of object names (queues, clusters, AUTHINFO objects).

As at IBM: a DEFINE without LIKE takes its defaults from SYSTEM.DEFAULT.NAMELIST (with REPLACE
too: a replaced namelist is defined afresh), NAMES holds at most 256 names, each an object name
(1 to 48 of A-Z a-z 0-9 . / _ %), and NAMCOUNT is derived from it (DISPLAY only). crtmqm's
namelists are SYSTEM.DEFAULT.NAMELIST, SYSTEM.QPUBSUB.QUEUE.NAMELIST (the streams the queued
publish/subscribe interface reads) and SYSTEM.QPUBSUB.SUBPOINT.NAMELIST (its subscription
points). Other services read a namelist through ``names`` (a queue or channel's CLUSNL: the
clusters it is in).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, Final

from mqlite import cmqc as C
from mqlite.core import attributes
from mqlite.core.defined_objects import DefinedObjects, copy_attrs
from mqlite.core.errors import MQError
from mqlite.core.outbox import Outbox

DEFAULT_NAMELIST = "SYSTEM.DEFAULT.NAMELIST"
QPUBSUB_NAMELIST = "SYSTEM.QPUBSUB.QUEUE.NAMELIST"
SUBPOINT_NAMELIST = "SYSTEM.QPUBSUB.SUBPOINT.NAMELIST"
MAX_NAMES = 256  # IBM's MQNC_MAX_NAMELIST_NAME_COUNT
SYSTEM_NAMELISTS: Final[Mapping[str, Mapping[str, Any]]] = {
    DEFAULT_NAMELIST: {},
    QPUBSUB_NAMELIST: {"NAMES": ["SYSTEM.BROKER.DEFAULT.STREAM", "SYSTEM.BROKER.ADMIN.STREAM"],
                       "DESCR": "A list of queues for the queued Pub/Sub interface to monitor"},
    SUBPOINT_NAMELIST: {"NAMES": ["SYSTEM.BROKER.DEFAULT.SUBPOINT"],
                        "DESCR": "Subscription points of the queued Pub/Sub interface"},
}
_OBJECT_NAME = re.compile(r"[A-Za-z0-9._/%]{1,48}")


class Namelists(DefinedObjects):
    """Namelist definitions (``namelists``: name -> attributes, without NAMCOUNT)."""

    objtype = "NAMELIST"
    noun = "namelist"

    def __init__(self, clock: Callable[[], float], outbox: Outbox) -> None:
        super().__init__(clock, outbox)
        self.namelists = self.objects

    # -- start-up ----------------------------------------------------------------------------
    def bootstrap(self) -> None:
        """crtmqm's namelists (the default one first: the other takes its defaults from it)."""
        for name, attrs in SYSTEM_NAMELISTS.items():
            if name not in self.namelists:
                self.define(name, copy_attrs(attrs))

    def restored(self) -> None:
        """A queue manager created before namelists existed gets crtmqm's (one whose
        administrator deleted some keeps them deleted, as at IBM)."""
        if not self.namelists:
            self.bootstrap()

    # -- what other services read --------------------------------------------------------------
    def names(self, name: str) -> tuple[str, ...]:
        """The NAMES of namelist ``name`` (MQRC_UNKNOWN_OBJECT_NAME when there is none)."""
        return tuple(self.get(name).get("NAMES", ()))

    # -- DefinedObjects' hooks --------------------------------------------------------------------
    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        return attributes.validate("NAMELIST", attrs)

    def new_object(self, attrs: Mapping[str, Any]) -> dict[str, Any]:
        return copy_attrs(self.namelists.get(DEFAULT_NAMELIST) or attributes.defaults("NAMELIST"))

    def prepare(self, name: str, attrs: dict[str, Any]) -> None:
        names = list(attrs.get("NAMES", ()))
        if len(names) > MAX_NAMES:
            raise MQError(C.MQRCCF_PARM_VALUE_ERROR, f"NAMES has {len(names)} names: at most {MAX_NAMES}")
        for item in names:
            if not _OBJECT_NAME.fullmatch(item):
                raise MQError(C.MQRCCF_PARM_VALUE_ERROR,
                              f"NAMES item '{item}' is not an object name (1 to 48 of A-Z a-z 0-9 . / _ %)")
        attrs["NAMES"] = names

    def shown_beside(self, attrs: Mapping[str, Any]) -> dict[str, Any]:
        return {"NAMCOUNT": len(attrs.get("NAMES", ()))}

