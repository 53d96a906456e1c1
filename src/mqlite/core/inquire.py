"""MQINQ and MQSET over the attribute catalogue.

MQSC speaks in tokens (``GET(DISABLED)``); the MQI speaks in selectors and numbers
(``MQIA_INHIBIT_GET``, ``MQQA_GET_INHIBITED``). ``core.attributes`` holds both spellings;
this module only finds the object's current values and asks the catalogue to translate.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mqlite import cmqc as C
from mqlite.core import attributes
from mqlite.core.errors import MQError

if TYPE_CHECKING:
    from mqlite.core.qmgr import Handle, QueueManager

# MQSET may change only these (IBM: the inhibit and trigger attributes).
_SETTABLE = frozenset({"GET", "PUT", "TRIGGER", "TRIGTYPE", "TRIGDPTH", "TRIGMPRI", "TRIGDATA"})


def _current(qmgr: QueueManager, handle: Handle) -> tuple[str, dict[str, Any]]:
    """(object type, every attribute with its current value) of what the handle opened."""
    if handle.queue is None:
        return "QMGR", {"QMNAME": qmgr.name, **qmgr.attrs}
    qtype, definition = qmgr.qdefs.get(handle.opened_as, qmgr.qdefs[handle.name])
    queue = handle.queue
    return qtype, {"QUEUE": handle.opened_as, "TYPE": qtype, **definition, "CURDEPTH": queue.depth,
                   "IPPROCS": queue.open_input, "OPPROCS": queue.open_output}


def inquire(qmgr: QueueManager, handle: Handle, selectors: list[int]) -> list[int | str]:
    objtype, attrs = _current(qmgr, handle)
    values: list[int | str] = []
    for selector in selectors:
        name = attributes.attribute_for_selector(selector)
        if name is None or name not in attrs:
            raise MQError(C.MQRC_SELECTOR_ERROR, f"selector {selector} is not valid for this object")
        value = attributes.to_mq(objtype, name, attrs[name])
        values.append(value if isinstance(value, int | str) else str(value))
    return values


def set_attributes(qmgr: QueueManager, handle: Handle, values: dict[int, int | str]) -> None:
    objtype, _ = _current(qmgr, handle)
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
    qmgr.alter(objtype, handle.opened_as if handle.opened_as in qmgr.qdefs else handle.name, changes)
