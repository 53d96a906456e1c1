"""IBM's REST request bodies for creating and changing objects, read as MQSC attributes, pure.

The body of ``POST .../queue`` and ``PATCH .../queue/{name}`` (and of subscriptions) has the
nested groups GET returns (``{"name": "Q1", "type": "local", "storage": {"maximumDepth": 10}}``);
each ``group.name`` is read back through the tables of ``shapes`` (so the two directions cannot
drift apart) into ``KEYWORD(value)``. A body that names an attribute the tables do not have, gives
a value of the wrong JSON type, or leaves out the name is a ``BodyError`` (the handler's 400
MQWB2004E); a value of the right type the queue manager does not take is the queue manager's to
refuse (its reason code comes back). Unknown names under ``extended`` are taken as MQSC keywords,
as GET shows every keyword the tables do not name there.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from mqlite.web import mqsc_text, shapes

Reverse = Callable[[str, Any], str]


class BodyError(ValueError):
    """A request body the REST API refuses before the queue manager sees it."""


_TOKEN = re.compile(r"[A-Za-z][A-Za-z0-9]{0,31}")
_NO_CONTROL = re.compile(r"[^\x00-\x1f\x7f]*")
QUEUE_NAME = re.compile(r"[A-Za-z0-9._/%]{1,48}")
MAX_SUB_NAME = 10240
QUEUE_TYPES = {"local": "QLOCAL", "alias": "QALIAS", "remote": "QREMOTE", "model": "QMODEL"}


def _where(key: str, name: str) -> str:
    return f"{key}.{name}" if key else name


def _string(keyword: str, value: Any, where: str = "") -> str:
    if not isinstance(value, str):
        raise BodyError(f"{where} must be a string")
    if not _NO_CONTROL.fullmatch(value):
        raise BodyError(f"{where} holds a control character")
    return f"{keyword}({mqsc_text.quote(value, True)})"


def _integer(keyword: str, value: Any, where: str = "") -> str:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise BodyError(f"{where} must be an integer")
    if isinstance(value, str) and not _TOKEN.fullmatch(value):  # NOLIMIT and the like
        raise BodyError(f"{where} must be an integer")
    return f"{keyword}({value})"


def _token(keyword: str, value: Any, where: str = "") -> str:
    if not isinstance(value, str) or not _TOKEN.fullmatch(value):
        raise BodyError(f"{where} must be one of its keyword values (a word)")
    return f"{keyword}({value.upper()})"


# each reverse converter's JSON schema, for the OpenAPI document (openapi.py)
SCHEMAS: dict[Any, dict[str, Any]] = {
    _string: {"type": "string", "pattern": "^[^\\x00-\\x1f\\x7f]*$"},
    _integer: {"anyOf": [{"type": "integer"}, {"type": "string", "pattern": f"^{_TOKEN.pattern}$"}]},
    _token: {"type": "string", "pattern": f"^{_TOKEN.pattern}$"},
}


def _flag(true: str, false: str) -> Callable[[str, Any, str], str]:
    def reverse(keyword: str, value: Any, where: str = "") -> str:
        if not isinstance(value, bool):
            raise BodyError(f"{where} must be true or false")
        return f"{keyword}({true if value else false})"
    SCHEMAS[reverse] = {"type": "boolean"}
    return reverse


def _choice(choices: dict[str, str]) -> Callable[[str, Any, str], str]:
    def reverse(keyword: str, value: Any, where: str = "") -> str:
        if not isinstance(value, str) or value not in choices:
            raise BodyError(f"{where} must be one of {', '.join(sorted(choices))}")
        return f"{keyword}({choices[value]})"
    SCHEMAS[reverse] = {"type": "string", "enum": sorted(choices)}
    return reverse


_BY_CONVERT: dict[Any, Callable[[str, Any, str], str]] = {
    shapes.text: _string, shapes.integer: _integer, shapes.lower: _token, shapes.number_or_text: _integer,
    shapes.disabled: _flag("DISABLED", "ENABLED"), shapes.enabled: _flag("ENABLED", "DISABLED"),
    shapes.yes: _flag("YES", "NO"),
}
# the tables' converters that are lambdas, reversed one by one
_BY_KEYWORD: dict[str, Callable[[str, Any, str], str]] = {
    "USAGE": _flag("XMITQ", "NORMAL"),
    "DEFPRESP": _choice({"synchronous": "SYNC", "asynchronous": "ASYNC"}),
    "DEFSOPT": _flag("SHARED", "EXCL"),
    "DEFTYPE": _choice({"permanentDynamic": "PERMDYN", "temporaryDynamic": "TEMPDYN", "sharedDynamic": "SHAREDYN"}),
    "REQONLY": _flag("YES", "NO"),
}
# what GET shows that no DEFINE or ALTER sets
_READ_ONLY = frozenset({"CURDEPTH", "IPPROCS", "OPPROCS", "SUBID", "RESOLVED", "DURABLE", "SUBTYPE", "SELTYPE"})

Settable = dict[tuple[str, str], tuple[str, Callable[[str, Any, str], str]]]


def settable(table: shapes.Table) -> Settable:
    """(group, name) -> (MQSC keyword, its reverse converter) for the attributes a body may set."""
    found: Settable = {}
    for keyword, (category, name, convert) in table.items():
        if keyword in _READ_ONLY or category == "status":
            continue
        reverse = _BY_KEYWORD.get(keyword) or _BY_CONVERT.get(convert)
        if reverse is not None:
            found[(category, name)] = (keyword, reverse)
    return found


QUEUE = settable(shapes.QUEUE)
SUBSCRIPTION = settable(shapes.SUBSCRIPTION)


def attributes(body: dict[str, Any], table: Settable, top_level: frozenset[str]) -> list[str]:
    """The MQSC attributes a body's groups (and its settable top-level names) ask for."""
    groups = {category for category, _ in table}
    out: list[str] = []
    for key, value in body.items():
        if key in top_level:
            continue
        if ("", key) in table:
            keyword, reverse = table[("", key)]
            out.append(reverse(keyword, value, key))
            continue
        if key not in groups and key != "extended":
            raise BodyError(f"{key} is not an attribute or attribute group of this object")
        if not isinstance(value, dict):
            raise BodyError(f"{key} must be a JSON object of attributes")
        for name, item in value.items():
            entry = table.get((key, name))
            if entry is None and key == "extended" and _TOKEN.fullmatch(name) and name.upper() not in _READ_ONLY:
                entry = (name.upper(), _any)
            if entry is None:
                raise BodyError(f"{_where(key, name)} is not an attribute of this object")
            keyword, reverse = entry
            out.append(reverse(keyword, item, _where(key, name)))
    return out


def _any(keyword: str, value: Any, where: str = "") -> str:
    """An ``extended`` attribute the tables do not name: a number, a word or a string."""
    if isinstance(value, bool):
        return f"{keyword}({'YES' if value else 'NO'})"
    if isinstance(value, int):
        return f"{keyword}({value})"
    return _string(keyword, value, where)


def body_schema(table: Settable, top: dict[str, dict[str, Any]], required: list[str]) -> dict[str, Any]:
    """The JSON schema of a body of ``table``'s groups (``top``: the top-level names)."""
    groups: dict[str, dict[str, Any]] = {}
    properties = dict(top)
    for (category, name), (_, reverse) in sorted(table.items()):
        if not category:
            properties.setdefault(name, SCHEMAS[reverse])
            continue
        groups.setdefault(category, {})[name] = SCHEMAS[reverse]
    for category, attrs in groups.items():
        properties[category] = {"type": "object", "properties": attrs, "additionalProperties": False}
    return {"type": "object", "required": required, "properties": properties, "additionalProperties": False}


def queue_name(value: Any, what: str = "name") -> str:
    if not isinstance(value, str):
        raise BodyError(f"{what} must be a string (the queue's name)")
    if len(value) > 48:
        raise BodyError(f"{what} is longer than 48 characters")
    if not QUEUE_NAME.fullmatch(value):
        raise BodyError(f"{what} {value!r} is not a queue name")
    return value


def sub_name(value: Any, what: str = "name") -> str:
    if not isinstance(value, str) or not value:
        raise BodyError(f"{what} must be a string (the subscription's name)")
    if len(value) > MAX_SUB_NAME:
        raise BodyError(f"{what} is longer than {MAX_SUB_NAME} characters")
    if not _NO_CONTROL.fullmatch(value):
        raise BodyError(f"{what} holds a control character")
    return value


def queue_type(value: Any) -> str:
    """IBM's ``type`` (local, alias, remote, model) -> the MQSC noun."""
    if not isinstance(value, str) or value not in QUEUE_TYPES:
        raise BodyError(f"type must be one of {', '.join(QUEUE_TYPES)}")
    return QUEUE_TYPES[value]


def define_queue(body: dict[str, Any], like: str | None = None, replace: bool = True) -> tuple[str, str]:
    """(the queue's name, the DEFINE command) of a POST body."""
    if "name" not in body:
        raise BodyError("name is required")
    name = queue_name(body["name"])
    noun = queue_type(body.get("type", "local"))
    parts = [f"DEFINE {noun}({mqsc_text.quote(name, True)})"]
    if like is not None:
        parts.append(f"LIKE({mqsc_text.quote(like, True)})")
    parts.extend(attributes(body, QUEUE, frozenset({"name", "type"})))
    parts.append("REPLACE" if replace else "NOREPLACE")
    return name, " ".join(parts)


def alter_queue(name: str, noun: str, body: dict[str, Any]) -> str:
    """The ALTER command of a PATCH body; ``noun`` is the queue's type (DISPLAY's TYPE)."""
    if "name" in body and body["name"] != name:
        raise BodyError("name in the body is not the queue's name in the URL")
    if "type" in body and queue_type(body["type"]) != noun:
        raise BodyError(f"type in the body is not the queue's type ({shapes.QUEUE_TYPES.get(noun, noun)})")
    parts = attributes(body, QUEUE, frozenset({"name", "type"}))
    return " ".join([f"ALTER {noun}({mqsc_text.quote(name, True)})", *parts])


def delete_queue(name: str, noun: str, purge: bool, keep_authority_records: bool) -> str:
    """IBM's DELETE query parameters: purge (else NOPURGE: a queue with messages stays),
    keepAuthorityRecords (AUTHREC(NO))."""
    text = f"DELETE {noun}({mqsc_text.quote(name, True)})"
    if noun == "QLOCAL":
        text += " PURGE" if purge else " NOPURGE"
    if keep_authority_records:
        text += " AUTHREC(NO)"
    return text


_SUB_TOP = frozenset({"name", "topicString", "topicObject"})


def define_sub(body: dict[str, Any], like: str | None = None, replace: bool = True) -> tuple[str, str]:
    if "name" not in body:
        raise BodyError("name is required")
    name = sub_name(body["name"])
    if "topicString" not in body and "topicObject" not in body and like is None:
        raise BodyError("topicString or topicObject is required")
    parts = [f"DEFINE SUB({mqsc_text.quote(name, True)})"]
    if like is not None:
        parts.append(f"LIKE({mqsc_text.quote(like, True)})")
    for key, keyword in (("topicString", "TOPICSTR"), ("topicObject", "TOPICOBJ")):
        if key in body:
            parts.append(_string(keyword, body[key], key))
    parts.extend(attributes(body, SUBSCRIPTION, _SUB_TOP))
    parts.append("REPLACE" if replace else "NOREPLACE")
    return name, " ".join(parts)


def alter_sub(name: str, body: dict[str, Any]) -> str:
    if "name" in body and body["name"] != name:
        raise BodyError("name in the body is not the subscription's name in the URL")
    for key in ("topicString", "topicObject"):
        if key in body:
            raise BodyError(f"{key} of a subscription cannot be changed")
    return " ".join([f"ALTER SUB({mqsc_text.quote(name, True)})", *attributes(body, SUBSCRIPTION, _SUB_TOP)])


_AMQ_REASONS = {"AMQ8143": 2055, "AMQ8148": 2042, "AMQ8151": 2043, "AMQ8150": 4001, "AMQ8135": 2035,
                "AMQ8147": 2085}
_NUMBERED = re.compile(r"\((\d{4})\)")


def refused_reason(errors: list[str], default: int) -> int:
    """The MQ reason of the first error line of a command the queue manager refused (AMQ8101E
    names it in parentheses), else ``default``."""
    for line in errors:
        known = _AMQ_REASONS.get(line[:7])
        if known is not None:
            return known
        found = _NUMBERED.search(line)
        if found:
            return int(found[1])
    return default
