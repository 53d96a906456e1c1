"""Definitions of one object type kept as store records: DEFINE (LIKE, REPLACE), ALTER, DELETE and
DISPLAY's rows, written once for the object types that are nothing but their attributes
(NAMELIST, AUTHINFO, LISTENER, ROUTE).

Each type says what is its own through a few hooks: how a name is checked, what a new object
starts from, what must hold before it is stored (and what is normalised then), what may not be
altered or deleted, and what DISPLAY shows beside the attributes. The record of object ``name``
of type ``T`` is ``("object", "T/name")``; ALTDATE and ALTTIME are set at every store.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from mqlite import cmqc as C
from mqlite.core import attributes
from mqlite.core.errors import MQError
from mqlite.core.outbox import Outbox

__all__ = ["DefinedObjects", "copy_attrs"]


def copy_attrs(attrs: Mapping[str, Any]) -> dict[str, Any]:
    """An object's attributes with lists of their own (definitions never share one)."""
    return {key: list(value) if isinstance(value, list) else value for key, value in attrs.items()}


class DefinedObjects:
    """The definitions of one object type (``objects``: name -> attributes)."""

    objtype: ClassVar[str]  # the MQSC object type and the key of DISPLAY's rows, e.g. "NAMELIST"
    noun: ClassVar[str]  # what error texts call one, e.g. "namelist"

    def __init__(self, clock: Callable[[], float], outbox: Outbox) -> None:
        self.clock = clock
        self.outbox = outbox
        self.objects: dict[str, dict[str, Any]] = {}

    def restore(self, name: str, attrs: dict[str, Any]) -> None:
        self.objects[name] = attrs

    # -- DEFINE / ALTER / DELETE / DISPLAY -------------------------------------------------------
    def define(self, name: str, attrs: dict[str, Any], like: str | None = None, replace: bool = False) -> None:
        self.check_name(name)
        typed = self.validate(attrs)
        existing = self.objects.get(name)
        if existing is not None and not replace:
            raise MQError(C.MQRC_OBJECT_ALREADY_EXISTS, f"{self.noun} {name} already exists")
        if like is not None:
            model = self.objects.get(like)
            if model is None:
                raise MQError(C.MQRC_UNKNOWN_OBJECT_NAME, f"LIKE {self.noun} {like} not found")
            base = copy_attrs(model)
        else:
            base = self.new_object(typed)
        base.update(typed)
        self.check_define(name, base, existing)
        self._store(name, base)

    def alter(self, name: str, attrs: dict[str, Any]) -> None:
        current = self.get(name)
        typed = self.validate(attrs)
        self.check_alter(name, current, typed)
        self._store(name, {**copy_attrs(current), **typed})

    def delete(self, name: str) -> None:
        self.get(name)
        self.check_delete(name)
        del self.objects[name]
        self.outbox.tx.delete_record("object", f"{self.objtype}/{name}")

    def rows(self, generic: str) -> list[dict[str, Any]]:
        rows = [{self.objtype: name, **self.shown_beside(attrs), **copy_attrs(attrs)}
                for name, attrs in sorted(self.objects.items()) if attributes.generic_match(generic, name)]
        if not rows and "*" not in generic:
            raise MQError(C.MQRC_UNKNOWN_OBJECT_NAME, f"{self.noun} {generic} not found")
        return rows

    def get(self, name: str) -> dict[str, Any]:
        attrs = self.objects.get(name)
        if attrs is None:
            raise MQError(C.MQRC_UNKNOWN_OBJECT_NAME, f"{self.noun} {name} not found")
        return attrs

    def _store(self, name: str, attrs: dict[str, Any]) -> None:
        self.prepare(name, attrs)
        attrs["ALTDATE"], attrs["ALTTIME"] = attributes.date_and_time(self.clock())
        self.objects[name] = attrs
        self.outbox.tx.put_record("object", f"{self.objtype}/{name}", attrs)

    # -- what each type says ------------------------------------------------------------------------
    def check_name(self, name: str) -> None:
        attributes.check_name(self.objtype, name)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        """The attributes of a DEFINE or ALTER, typed (the MQSC layer typed them already)."""
        return attrs

    def new_object(self, attrs: Mapping[str, Any]) -> dict[str, Any]:
        """What a DEFINE without LIKE starts from."""
        return attributes.defaults(self.objtype)

    def check_define(self, name: str, attrs: Mapping[str, Any], existing: Mapping[str, Any] | None) -> None:
        """Refuse a DEFINE (``existing``: the object a REPLACE replaces)."""

    def check_alter(self, name: str, current: Mapping[str, Any], changes: Mapping[str, Any]) -> None:
        """Refuse an ALTER."""

    def check_delete(self, name: str) -> None:
        """Refuse a DELETE (an object in use)."""

    def prepare(self, name: str, attrs: dict[str, Any]) -> None:
        """Check and normalise what is about to be stored (DEFINE and ALTER alike)."""

    def shown_beside(self, attrs: Mapping[str, Any]) -> dict[str, Any]:
        """What DISPLAY shows besides the stored attributes (derived ones)."""
        return {}
