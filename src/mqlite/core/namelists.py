"""NAMELIST objects: named lists of object names (queues, clusters, AUTHINFO objects).

As at IBM: a DEFINE without LIKE takes its defaults from SYSTEM.DEFAULT.NAMELIST (with REPLACE
too: a replaced namelist is defined afresh), NAMES holds at most 256 names, each an object name
(1 to 48 of A-Z a-z 0-9 . / _ %), and NAMCOUNT is derived from it (DISPLAY only). crtmqm's
namelists are SYSTEM.DEFAULT.NAMELIST and SYSTEM.QPUBSUB.QUEUE.NAMELIST (the streams the queued
publish/subscribe interface reads). Other services read a namelist through ``names`` (a queue
or channel's CLUSNL: the clusters it is in).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, Final

from mqlite import cmqc as C
from mqlite.core import attributes
from mqlite.core.errors import MQError
from mqlite.core.outbox import Outbox

DEFAULT_NAMELIST = "SYSTEM.DEFAULT.NAMELIST"
QPUBSUB_NAMELIST = "SYSTEM.QPUBSUB.QUEUE.NAMELIST"
MAX_NAMES = 256  # IBM's MQNC_MAX_NAMELIST_NAME_COUNT
SYSTEM_NAMELISTS: Final[Mapping[str, Mapping[str, Any]]] = {
    DEFAULT_NAMELIST: {},
    QPUBSUB_NAMELIST: {"NAMES": ["SYSTEM.BROKER.DEFAULT.STREAM", "SYSTEM.BROKER.ADMIN.STREAM"],
                       "DESCR": "A list of queues for the queued Pub/Sub interface to monitor"},
}
_OBJECT_NAME = re.compile(r"[A-Za-z0-9._/%]{1,48}")


class Namelists:
    """Namelist definitions (``namelists``: name -> attributes, without NAMCOUNT)."""

    def __init__(self, clock: Callable[[], float], outbox: Outbox) -> None:
        self.clock = clock
        self.outbox = outbox
        self.namelists: dict[str, dict[str, Any]] = {}

    # -- start-up ----------------------------------------------------------------------------
    def bootstrap(self) -> None:
        """crtmqm's namelists (the default one first: the other takes its defaults from it)."""
        for name, attrs in SYSTEM_NAMELISTS.items():
            if name not in self.namelists:
                self.define(name, _copy(attrs))

    def restore(self, name: str, attrs: dict[str, Any]) -> None:
        self.namelists[name] = attrs

    def restored(self) -> None:
        """A queue manager created before namelists existed gets crtmqm's (one whose
        administrator deleted some keeps them deleted, as at IBM)."""
        if not self.namelists:
            self.bootstrap()

    # -- what other services read --------------------------------------------------------------
    def names(self, name: str) -> tuple[str, ...]:
        """The NAMES of namelist ``name`` (MQRC_UNKNOWN_OBJECT_NAME when there is none)."""
        return tuple(self._namelist(name).get("NAMES", ()))

    # -- DEFINE / ALTER / DELETE / DISPLAY -------------------------------------------------------
    def define(self, name: str, attrs: dict[str, Any], like: str | None = None, replace: bool = False) -> None:
        attributes.check_name("NAMELIST", name)
        typed = attributes.validate("NAMELIST", attrs)
        if name in self.namelists and not replace:
            raise MQError(C.MQRC_OBJECT_ALREADY_EXISTS, f"namelist {name} already exists")
        if like is not None:
            model = self.namelists.get(like)
            if model is None:
                raise MQError(C.MQRC_UNKNOWN_OBJECT_NAME, f"LIKE namelist {like} not found")
            base = _copy(model)
        else:
            base = _copy(self.namelists.get(DEFAULT_NAMELIST) or attributes.defaults("NAMELIST"))
        base.update(typed)
        self._store(name, base)

    def alter(self, name: str, attrs: dict[str, Any]) -> None:
        current = self._namelist(name)
        self._store(name, {**_copy(current), **attributes.validate("NAMELIST", attrs)})

    def delete(self, name: str) -> None:
        self._namelist(name)
        del self.namelists[name]
        self.outbox.tx.delete_record("object", f"NAMELIST/{name}")

    def rows(self, generic: str) -> list[dict[str, Any]]:
        rows = [{"NAMELIST": name, "NAMCOUNT": len(attrs.get("NAMES", ())), **_copy(attrs)}
                for name, attrs in sorted(self.namelists.items()) if attributes.generic_match(generic, name)]
        if not rows and "*" not in generic:
            raise MQError(C.MQRC_UNKNOWN_OBJECT_NAME, f"namelist {generic} not found")
        return rows

    def _namelist(self, name: str) -> dict[str, Any]:
        attrs = self.namelists.get(name)
        if attrs is None:
            raise MQError(C.MQRC_UNKNOWN_OBJECT_NAME, f"namelist {name} not found")
        return attrs

    def _store(self, name: str, attrs: dict[str, Any]) -> None:
        names = list(attrs.get("NAMES", ()))
        if len(names) > MAX_NAMES:
            raise MQError(C.MQRCCF_PARM_VALUE_ERROR, f"NAMES has {len(names)} names: at most {MAX_NAMES}")
        for item in names:
            if not _OBJECT_NAME.fullmatch(item):
                raise MQError(C.MQRCCF_PARM_VALUE_ERROR,
                              f"NAMES item '{item}' is not an object name (1 to 48 of A-Z a-z 0-9 . / _ %)")
        attrs["NAMES"] = names
        attrs["ALTDATE"], attrs["ALTTIME"] = attributes.date_and_time(self.clock())
        self.namelists[name] = attrs
        self.outbox.tx.put_record("object", f"NAMELIST/{name}", attrs)


def _copy(attrs: Mapping[str, Any]) -> dict[str, Any]:
    """A namelist's attributes with its own NAMES list (definitions never share one)."""
    return {key: list(value) if isinstance(value, list) else value for key, value in attrs.items()}
