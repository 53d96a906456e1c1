"""Message handles (MQCRTMH) and their properties, as pymqi exposes them.

A pymqi program creates ``MessageHandle(qmgr)``, sets properties on it, and passes its
``msg_handle`` number in ``pmo.OriginalMsgHandle`` to put them with a message, or in
``gmo.MsgHandle`` to receive a message's properties. mqlite carries properties as a plain
map in every PUT and GET, so a handle is just a number that finds its map here.
"""

from __future__ import annotations

import itertools
import weakref
from typing import Any

from mqlite import cmqc
from mqlite.client.errors import MQMIError
from mqlite.client.structs import CMHO, IMPO, PD, SMPO

__all__ = ["MessageHandle", "deliver_properties", "properties_of"]

_numbers = itertools.count(1)
_handles: weakref.WeakValueDictionary[int, MessageHandle] = weakref.WeakValueDictionary()

_INT_TYPES = frozenset({cmqc.MQTYPE_INT8, cmqc.MQTYPE_INT16, cmqc.MQTYPE_INT32, cmqc.MQTYPE_INT64})
_FLOAT_TYPES = frozenset({cmqc.MQTYPE_FLOAT32, cmqc.MQTYPE_FLOAT64})


def _name(name: str | bytes) -> str:
    return name.decode("utf-8") if isinstance(name, bytes) else str(name)


def _typed(value: Any, property_type: int) -> Any:
    """A value as the wire carries it, converted to the MQTYPE the caller declared."""
    if property_type == cmqc.MQTYPE_STRING:
        return value.decode("utf-8") if isinstance(value, bytes) else str(value)
    if property_type == cmqc.MQTYPE_BYTE_STRING:
        return value.encode("utf-8") if isinstance(value, str) else bytes(value)
    if property_type == cmqc.MQTYPE_BOOLEAN:
        return bool(value)
    if property_type in _INT_TYPES:
        return int(value)
    if property_type in _FLOAT_TYPES:
        return float(value)
    if property_type == cmqc.MQTYPE_NULL:
        return None
    return value  # MQTYPE_AS_SET: keep the Python type


class _Properties:
    """The properties of one handle; dict-like (``handle.properties[name]``) and pymqi-like."""

    def __init__(self, handle: MessageHandle) -> None:
        self._handle = handle

    @property
    def values(self) -> dict[str, Any]:
        return self._handle.values

    def set(self, name: str | bytes, value: Any, property_type: int = cmqc.MQTYPE_AS_SET,
            value_length: int = -1, pd: PD | None = None, smpo: SMPO | None = None) -> None:
        """Set property ``name`` (pymqi's ``MQSETMP``); ``property_type`` converts the value.

        pymqi's default type is MQTYPE_STRING; mqlite keeps the Python type by default
        instead, so ``set("n", 5)`` is an integer property, which is what callers mean.
        """
        key = _name(name)
        if not key:
            raise MQMIError(cmqc.MQCC_FAILED, cmqc.MQRC_PROPERTY_NAME_ERROR)
        if property_type == cmqc.MQTYPE_AS_SET and isinstance(value, bytearray | memoryview):
            value = bytes(value)
        self._handle.values[key] = _typed(value, property_type)

    def get(self, name: str | bytes, default: Any = None, max_value_length: int | None = None,
            impo_options: int = cmqc.MQIMPO_INQ_FIRST, pd: int | PD = cmqc.MQPD_NONE,
            property_type: int = cmqc.MQTYPE_AS_SET) -> Any:
        """The value of ``name`` (pymqi's ``MQINQMP``); MQRC_PROPERTY_NOT_AVAILABLE if absent."""
        key = _name(name)
        values = self._handle.values
        if key not in values:
            raise MQMIError(cmqc.MQCC_FAILED, cmqc.MQRC_PROPERTY_NOT_AVAILABLE)
        value = values[key]
        if max_value_length and isinstance(value, str | bytes) and len(value) > max_value_length:
            raise MQMIError(cmqc.MQCC_WARNING, cmqc.MQRC_PROPERTY_VALUE_TOO_BIG,
                            value=value[:max_value_length], dataLength=len(value))
        return _typed(value, property_type)

    def dlt(self, name: str | bytes, pd: Any = None) -> None:
        """Delete a property (MQDLTMP)."""
        if self._handle.values.pop(_name(name), _MISSING) is _MISSING:
            raise MQMIError(cmqc.MQCC_FAILED, cmqc.MQRC_PROPERTY_NOT_AVAILABLE)

    def inquire(self, name: str | bytes = "%", impo: IMPO | None = None) -> dict[str, Any]:
        """Every property whose name matches ``name`` (``%`` wildcard at the end, as MQ)."""
        pattern = _name(name)
        if pattern.endswith("%"):
            prefix = pattern[:-1]
            return {k: v for k, v in self._handle.values.items() if k.startswith(prefix)}
        return {pattern: self._handle.values[pattern]} if pattern in self._handle.values else {}

    def __getitem__(self, name: str | bytes) -> Any:
        try:
            return self.get(name)
        except MQMIError:
            raise KeyError(_name(name)) from None

    def __setitem__(self, name: str | bytes, value: Any) -> None:
        self.set(name, value)

    def __delitem__(self, name: str | bytes) -> None:
        try:
            self.dlt(name)
        except MQMIError:
            raise KeyError(_name(name)) from None

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str | bytes) and _name(name) in self._handle.values

    def __iter__(self) -> Any:
        return iter(dict(self._handle.values))

    def __len__(self) -> int:
        return len(self._handle.values)

    def __repr__(self) -> str:
        return f"properties({self._handle.values!r})"


_MISSING = object()


class MessageHandle:
    """pymqi's ``MessageHandle(qmgr, cmho)``: a numbered bag of message properties."""

    default_value_length = 64

    def __init__(self, qmgr: Any = None, cmho: CMHO | None = None) -> None:
        self.conn_handle = qmgr
        self.msg_handle = next(_numbers)
        self.values: dict[str, Any] = {}
        self.properties = _Properties(self)
        _handles[self.msg_handle] = self

    def __repr__(self) -> str:
        return f"MessageHandle({self.msg_handle}, {self.values!r})"


def properties_of(msg_handle: int) -> dict[str, Any]:
    """The properties a put sends for ``pmo.OriginalMsgHandle`` (MQRC_HMSG_ERROR if unknown)."""
    handle = _handles.get(int(msg_handle))
    if handle is None:
        raise MQMIError(cmqc.MQCC_FAILED, cmqc.MQRC_HMSG_ERROR)
    return dict(handle.values)


def deliver_properties(msg_handle: int, properties: dict[str, Any]) -> None:
    """Hand a received message's properties to the handle named in ``gmo.MsgHandle``."""
    handle = _handles.get(int(msg_handle))
    if handle is None:
        raise MQMIError(cmqc.MQCC_FAILED, cmqc.MQRC_HMSG_ERROR)
    handle.values.clear()
    handle.values.update(properties)
