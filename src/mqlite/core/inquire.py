"""MQINQ and MQSET over the attribute catalogue.

MQSC speaks in tokens (``GET(DISABLED)``); the MQI speaks in selectors and numbers
(``MQIA_INHIBIT_GET``, ``MQQA_GET_INHIBITED``). ``core.attributes`` holds both spellings;
this module only finds the object's current values and asks the catalogue to translate.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from mqlite import cmqc as C
from mqlite.core import attributes
from mqlite.core.errors import MQError
from mqlite.core.handles import Handle

Definitions = Mapping[str, tuple[str, dict[str, Any]]]

# MQSET may change only these (IBM: the inhibit and trigger attributes).
_SETTABLE = frozenset({"GET", "PUT", "TRIGGER", "TRIGTYPE", "TRIGDPTH", "TRIGMPRI", "TRIGDATA"})


def _current(qmgr_name: str, qmgr_attrs: Mapping[str, Any], qdefs: Definitions,
             handle: Handle) -> tuple[str, dict[str, Any]]:
    """(object type, every attribute with its current value) of what the handle opened."""
    if handle.queue is None:
        return "QMGR", {"QMNAME": qmgr_name, **qmgr_attrs}
    qtype, definition = qdefs.get(handle.opened_as, qdefs[handle.name])
    queue = handle.queue
    return qtype, {"QUEUE": handle.opened_as, "TYPE": qtype, **definition, "CURDEPTH": queue.depth,
                   "IPPROCS": queue.open_input, "OPPROCS": queue.open_output}


def inquire(qmgr_name: str, qmgr_attrs: Mapping[str, Any], qdefs: Definitions, handle: Handle,
            selectors: list[int]) -> list[int | str]:
    """MQINQ: the values of ``selectors`` for what ``handle`` opened."""
    objtype, attrs = _current(qmgr_name, qmgr_attrs, qdefs, handle)
    values: list[int | str] = []
    for selector in selectors:
        name = attributes.attribute_for_selector(selector)
        if name is None or name not in attrs:
            raise MQError(C.MQRC_SELECTOR_ERROR, f"selector {selector} is not valid for this object")
        value = attributes.to_mq(objtype, name, attrs[name])
        values.append(value if isinstance(value, int | str) else str(value))
    return values


def set_attributes(qdefs: Definitions, handle: Handle, values: dict[int, int | str],
                   alter: Callable[[str, str, dict[str, Any]], None]) -> None:
    """MQSET: translate ``values`` and apply them through ``alter`` (the admin ALTER)."""
    objtype, _ = _current("", {}, qdefs, handle)
    if objtype == "QMGR":
        raise MQError(C.MQRC_SELECTOR_ERROR, "queue manager attributes are set with MQSC")
    changes: dict[str, Any] = {}
    for selector, value in values.items():
        name = attributes.attribute_for_selector(int(selector))
        if name not in _SETTABLE:
            raise MQError(C.MQRC_SELECTOR_ERROR, f"selector {selector} cannot be set with MQSET")
        try:
            changes[name] = attributes.from_mq(objtype, name, value)
        except MQError as error:
            raise MQError(C.MQRC_SELECTOR_ERROR, error.text) from None
    alter(objtype, handle.opened_as if handle.opened_as in qdefs else handle.name, changes)
