"""The checked reading of the JSON control messages queue managers send each other (distributed
publish/subscribe's ``MQDPSCTL``, routes' ``MQRTECTL``): every field is checked and anything
malformed raises ``ControlProtocolError`` (2110, MQRC_FORMAT_ERROR), never anything else."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from mqlite import cmqc as C
from mqlite.core.errors import MQError

__all__ = ["ControlProtocolError", "flag", "load", "name", "text", "topics"]

MAX_TOPIC = 10_240


class ControlProtocolError(MQError):
    def __init__(self, text: str) -> None:
        super().__init__(C.MQRC_FORMAT_ERROR, f"malformed publish/subscribe control message: {text}")


def load(data: bytes, version: int) -> dict[str, Any]:
    """The message's JSON object, of ``version``."""
    try:
        body = json.loads(data)
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise ControlProtocolError(f"not JSON ({error})") from None
    if not isinstance(body, dict):
        raise ControlProtocolError("not an object")
    if type(body.get("v")) is not int or body.get("v") != version:
        raise ControlProtocolError(f"version {str(body.get('v'))[:32]!r}, not {version}")
    return body


def encodable(value: str) -> bool:
    """JSON can carry lone surrogates, which no store or wire can encode."""
    try:
        value.encode()
    except UnicodeEncodeError:
        return False
    return True


def text(body: Mapping[str, Any], key: str, limit: int = 256) -> str:
    value = body.get(key, "")
    if not isinstance(value, str) or len(value) > limit or not encodable(value):
        raise ControlProtocolError(f"{key} is not a string of at most {limit} characters")
    return value


def name(body: Mapping[str, Any], key: str) -> str:
    """A queue manager's name: 1 to 48 characters."""
    value = text(body, key).strip()
    if not value or len(value) > 48:
        raise ControlProtocolError(f"{key} is not a name of 1 to 48 characters")
    return value


def flag(body: Mapping[str, Any], key: str) -> bool:
    value = body.get(key, False)
    if not isinstance(value, bool):
        raise ControlProtocolError(f"{key} is not true or false")
    return value


def topics(body: Mapping[str, Any], key: str) -> tuple[str, ...]:
    value = body.get(key, [])
    if not isinstance(value, list) or not all(isinstance(t, str) and 0 < len(t) <= MAX_TOPIC and encodable(t)
                                              for t in value):
        raise ControlProtocolError(f"{key} is not a list of topic strings")
    return tuple(value)
