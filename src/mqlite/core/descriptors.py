"""Checks of the MQI structures an application passes, by their version, as IBM makes them.

A structure's ``Version`` says which of its fields exist: an MQOD below version 4 has no
``ObjectString``, ``SelectionString`` or ``ResObjectString``, so it cannot name a topic
(spec C R-PUB-1, decision A-27). A version the queue manager does not know is the structure's
own error (MQRC_OD_ERROR). A descriptor without a ``Version`` (mqlite's own callers inside the
queue manager) is a current one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mqlite import cmqc as C
from mqlite.core.errors import MQError

__all__ = ["check_object_descriptor"]


def check_object_descriptor(od: Mapping[str, Any]) -> None:
    """Raise MQRC_OD_ERROR (2044) for an MQOD that MQOPEN or MQPUT1 must refuse by its version."""
    version = od.get("Version", C.MQOD_CURRENT_VERSION)
    if type(version) is not int or not C.MQOD_VERSION_1 <= version <= C.MQOD_CURRENT_VERSION:
        raise MQError(C.MQRC_OD_ERROR, f"MQOD version {version!r} is not valid")
    if version < C.MQOD_VERSION_4 and od.get("ObjectType", C.MQOT_Q) == C.MQOT_TOPIC:
        raise MQError(C.MQRC_OD_ERROR, f"a topic needs MQOD version 4 (this one is version {version})")
