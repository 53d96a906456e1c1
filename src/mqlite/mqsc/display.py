"""runmqsc-style output: command echoes, AMQ messages, ``ATTR(value)`` pairs, closing counts.

Scripts and people read runmqsc output, and tests written against IBM's tool compare it line
by line, so the layout follows IBM's: each command echoed as ``     1 : DEFINE ...`` (further
physical lines as ``       : ...``), then its messages, DISPLAY records as attribute pairs in
two columns (three blanks, the left item padded to 40 characters), and three closing lines.
Message numbers and texts are IBM's (WebSphere MQ v7 wording, with the severity letter).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from mqlite import cmqc
from mqlite.core import attributes
from mqlite.core.errors import MQError
from mqlite.mqsc.lexer import MqscSyntaxError
from mqlite.mqsc.parser import VERB_NOUNS, Command
from mqlite.reasons import reason_name

QUEUE_FAMILY = frozenset({"QLOCAL", "QALIAS", "QMODEL", "QREMOTE", "QUEUE", "QCLUSTER"})
_COLUMN = 40

# (verb, family) -> the message a successful command prints. Queue, queue manager and channel
# numbers are IBM's, and the namelist ones (runmqsc's output: 8552 created, 8551 changed); the
# topic/subscription/listener ones and 8553 are from memory of the v7 catalogue and not checked.
_DONE: dict[tuple[str, str], str] = {
    ("DEFINE", "QUEUE"): "AMQ8006I: WebSphere MQ queue created.",
    ("ALTER", "QUEUE"): "AMQ8008I: WebSphere MQ queue changed.",
    ("DELETE", "QUEUE"): "AMQ8007I: WebSphere MQ queue deleted.",
    ("CLEAR", "QUEUE"): "AMQ8022I: WebSphere MQ queue cleared.",
    ("ALTER", "QMGR"): "AMQ8005I: WebSphere MQ queue manager changed.",
    ("DEFINE", "TOPIC"): "AMQ8690I: WebSphere MQ topic created.",
    ("ALTER", "TOPIC"): "AMQ8691I: WebSphere MQ topic changed.",
    ("DELETE", "TOPIC"): "AMQ8692I: WebSphere MQ topic deleted.",
    ("DEFINE", "SUB"): "AMQ8094I: WebSphere MQ subscription created.",
    ("ALTER", "SUB"): "AMQ8095I: WebSphere MQ subscription changed.",
    ("DELETE", "SUB"): "AMQ8097I: WebSphere MQ subscription deleted.",
    ("DEFINE", "CHANNEL"): "AMQ8014I: WebSphere MQ channel created.",
    ("ALTER", "CHANNEL"): "AMQ8016I: WebSphere MQ channel changed.",
    ("DELETE", "CHANNEL"): "AMQ8015I: WebSphere MQ channel deleted.",
    ("START", "CHANNEL"): "AMQ8018I: Start WebSphere MQ channel accepted.",
    ("STOP", "CHANNEL"): "AMQ8019I: Stop WebSphere MQ channel accepted.",
    ("STOP", "CONN"): "AMQ8000I: WebSphere MQ connection stopped.",  # (IBM's number not known here)
    ("DEFINE", "LISTENER"): "AMQ8626I: WebSphere MQ listener created.",
    ("ALTER", "LISTENER"): "AMQ8627I: WebSphere MQ listener changed.",
    ("DELETE", "LISTENER"): "AMQ8628I: WebSphere MQ listener deleted.",
    ("START", "LISTENER"): "AMQ8021I: Request to start WebSphere MQ listener accepted.",
    ("STOP", "LISTENER"): "AMQ8706I: Request to stop WebSphere MQ listener accepted.",
    ("DEFINE", "NAMELIST"): "AMQ8552I: WebSphere MQ namelist created.",
    ("ALTER", "NAMELIST"): "AMQ8551I: WebSphere MQ namelist changed.",
    ("DELETE", "NAMELIST"): "AMQ8553I: WebSphere MQ namelist deleted.",
    ("DEFINE", "PROCESS"): "AMQ8010I: WebSphere MQ process created.",
    ("ALTER", "PROCESS"): "AMQ8012I: WebSphere MQ process changed.",
    ("DELETE", "PROCESS"): "AMQ8011I: WebSphere MQ process deleted.",
    ("DEFINE", "AUTHINFO"): "AMQ8563I: WebSphere MQ authentication information object created.",
    ("ALTER", "AUTHINFO"): "AMQ8567I: WebSphere MQ authentication information changed.",
    ("DELETE", "AUTHINFO"): "AMQ8564I: WebSphere MQ authentication information object deleted.",
    # Routes are mqlite's (B §23): numbers of their own, in IBM's style.
    ("DEFINE", "ROUTE"): "AMQ8950I: mqlite route created.",
    ("ALTER", "ROUTE"): "AMQ8951I: mqlite route changed.",
    ("DELETE", "ROUTE"): "AMQ8952I: mqlite route deleted.",
}

# The message that opens each DISPLAY record.
HEADERS: dict[str, str] = {
    "QUEUE": "AMQ8409I: Display Queue details.",
    "QMGR": "AMQ8408I: Display Queue Manager details.",
    "QMSTATUS": "AMQ8705I: Display Queue Manager Status Details.",
    "QSTATUS": "AMQ8450I: Display queue status details.",
    "QSTATS": "AMQ8450I: Display queue status details.",  # (RESET QSTATS's record)
    "CONN": "AMQ8276I: Display Connection details.",
    "TOPIC": "AMQ8633I: Display topic details.",
    "TPSTATUS": "AMQ8754I: Display topic status details.",
    "SUB": "AMQ8096I: WebSphere MQ subscription inquired.",
    "SBSTATUS": "AMQ8099I: WebSphere MQ subscription status inquired.",
    "CHANNEL": "AMQ8414I: Display Channel details.",
    "CHSTATUS": "AMQ8417I: Display Channel Status details.",
    "LISTENER": "AMQ8630I: Display listener information details.",
    "LSSTATUS": "AMQ8631I: Display listener status details.",
    "NAMELIST": "AMQ8550I: Display namelist details.",
    "PROCESS": "AMQ8407I: Display Process details.",
    "PUBSUB": "AMQ8723I: Display pub/sub status details.",
    "CLUSQMGR": "AMQ8441I: Display Cluster Queue Manager details.",
    "AUTHINFO": "AMQ8566I: Display authentication information details.",
    "ROUTE": "AMQ8953I: Display route details.",
    "RTSTATUS": "AMQ8954I: Display route status details.",
    "AUTHREC": "AMQ8864I: Display authority record details.",
    "ENTAUTH": "AMQ8866I: Display entity authority details.",
}


def family(objtype: str) -> str:
    """Queue types share their messages; every other type is its own family."""
    return "QUEUE" if objtype in QUEUE_FAMILY else objtype


def done_message(verb: str, objtype: str) -> str:
    """What a successful DEFINE/ALTER/DELETE/CLEAR/START/STOP prints."""
    found = _DONE.get((verb, family(objtype)))
    if found is not None:
        return found
    past = {"DEFINE": "created", "ALTER": "changed", "DELETE": "deleted"}.get(verb, "processed")
    return f"AMQ8000I: WebSphere MQ {objtype.lower()} {past}."


def header(objtype: str) -> str:
    """The message that opens a DISPLAY record of ``objtype``."""
    return HEADERS.get(family(objtype), f"AMQ8000I: Display {objtype.lower()} details.")


# -- the echo and the closing lines ------------------------------------------------------------
def echo(number: int | None, lines: Sequence[str]) -> list[str]:
    """A command as runmqsc echoes it: its number on the first line, ``:`` on the rest."""
    out = []
    for i, line in enumerate(lines):
        prefix = f"{number:>6} : " if i == 0 and number is not None else "       : "
        out.append((prefix + line).rstrip() if not line.strip() else prefix + line)
    return out


# -- errors -------------------------------------------------------------------------------------
_VALID_COMMANDS = sorted({*VERB_NOUNS, "END"})


def syntax_error(err: MqscSyntaxError) -> list[str]:
    """AMQ8405I with the segment ending at the offending token, then what was wrong."""
    lines = ["AMQ8405I: Syntax error detected at or near end of command segment below:-", err.segment]
    if err.pos == 0 and err.message in ("Unknown command", "Empty command"):
        lines += ["", "AMQ8426I: Valid MQSC commands are:", "", *(f"    {v}" for v in _VALID_COMMANDS)]
    else:
        lines.append(str(err))
    return lines


_RCCF: dict[int, str] = {}


def reason_label(reason: int) -> str:
    """``MQRC_Q_FULL (2053)``; PCF codes (MQRCCF_*) are named too."""
    name = reason_name(reason)
    if name == f"MQRC_{reason}":
        if not _RCCF:
            _RCCF.update({v: k for k, v in reversed(vars(cmqc).items())
                          if k.startswith("MQRCCF_") and isinstance(v, int)})
        name = _RCCF.get(reason, name)
    return f"{name} ({reason})"


_NOT_FOUND = {cmqc.MQRC_UNKNOWN_OBJECT_NAME, cmqc.MQRCCF_UNKNOWN_OBJECT_NAME, cmqc.MQRC_NO_SUBSCRIPTION}
_EXISTS = {cmqc.MQRC_OBJECT_ALREADY_EXISTS, cmqc.MQRCCF_OBJECT_ALREADY_EXISTS, cmqc.MQRC_SUB_ALREADY_EXISTS}
_IN_USE = {cmqc.MQRC_OBJECT_IN_USE, cmqc.MQRCCF_OBJECT_IN_USE, cmqc.MQRCCF_OBJECT_OPEN}
_WRONG_TYPE = {cmqc.MQRC_OBJECT_TYPE_ERROR, cmqc.MQRCCF_OBJECT_WRONG_TYPE}
_NOT_AUTHORIZED = {cmqc.MQRC_NOT_AUTHORIZED, cmqc.MQRCCF_NOT_AUTHORIZED}


def mq_error(err: MQError, name: str | None) -> list[str]:
    """The AMQ message for a command the queue manager refused."""
    shown = name or ""
    if err.reason in _NOT_FOUND:
        return [f"AMQ8147E: WebSphere MQ object {shown} not found."]
    if err.reason in _EXISTS:
        return ["AMQ8150E: WebSphere MQ object already exists."]
    if err.reason == cmqc.MQRC_Q_NOT_EMPTY:
        return [f"AMQ8143E: WebSphere MQ queue {shown} not empty."]
    if err.reason in _IN_USE:
        return ["AMQ8148E: WebSphere MQ object in use."]
    if err.reason in _WRONG_TYPE:
        return ["AMQ8151E: WebSphere MQ object has different type."]
    if err.reason in _NOT_AUTHORIZED:
        return ["AMQ8135E: Not authorized."]
    if err.reason == cmqc.MQRCCF_CHLAUTH_NOT_FOUND:
        return ["AMQ8884E: Channel authentication record not found."]
    if err.reason == cmqc.MQRCCF_CHLAUTH_ALREADY_EXISTS:  # IBM's number for this one is unchecked
        return ["AMQ8883E: Channel authentication record already exists."]
    text = f": {err.text}" if err.text else "."
    return [f"AMQ8101E: WebSphere MQ error {reason_label(err.reason)} has occurred{text}"]


# -- DISPLAY records ----------------------------------------------------------------------------
def format_value(value: Any) -> str:
    """A value as DISPLAY prints it: digits, bare tokens and strings, a blank for empty."""
    kind = type(value)
    if kind is str:  # (the common cases first: a scrape formats thousands a second)
        return value if value else " "
    if kind is int:
        return str(value)
    if value is None or value == []:
        return " "
    if isinstance(value, bool):
        return "YES" if value else "NO"
    if isinstance(value, list | tuple):
        return ",".join(str(v) for v in value)
    return str(value)


def format_item(objtype: str, key: str, value: Any) -> str:
    """``KEY(value)``, or the bare keyword for an MQSC flag (``SHARE``, ``NOTRIGGER``). A
    namelist's NAMES is IBM's one name a line, each after the first behind a comma."""
    if isinstance(value, bool):
        spec = _flag(objtype, key)
        if spec is not None:
            return spec.keyword(value) or f"{key}(NO)"
    elif objtype == "NAMELIST" and key == "NAMES" and isinstance(value, list) and len(value) > 1:
        return "NAMES(" + "\n     ,".join(map(str, value)) + ")"
    return f"{key}({format_value(value)})"


@functools.lru_cache(maxsize=4096)
def _flag(objtype: str, key: str) -> attributes.Attr | None:
    """``key``'s attribute when it is an MQSC flag of ``objtype`` (the tables never change)."""
    if objtype not in attributes.OBJECT_TYPES and objtype != "QUEUE":
        return None
    spec = attributes.spec(objtype, key)
    return spec if spec is not None and spec.kind is attributes.Kind.FLAG else None


def pairs(items: Iterable[str]) -> list[str]:
    """Lay items out two to a line the way runmqsc does; an item too wide for a column stands
    alone, and so does an item of several lines (a namelist's NAMES)."""
    out: list[str] = []
    left: str | None = None
    for item in items:
        if "\n" in item:
            if left is not None:
                out.append("   " + left)
            out.extend("   " + line for line in item.split("\n"))
            left = None
        elif left is None:
            if len(item) < _COLUMN:
                left = item
            else:
                out.append("   " + item)
        elif len(item) < _COLUMN:
            out.append("   " + left.ljust(_COLUMN) + item)
            left = None
        else:
            out.extend(("   " + left, "   " + item))
            left = None
    if left is not None:
        out.append("   " + left)
    return out


# Object types whose records runmqsc shows in an order of its own rather than alphabetically.
_ORDER: dict[str, tuple[str, ...]] = {"NAMELIST": ("NAMES", "DESCR", "ALTDATE", "ALTTIME", "NLTYPE")}


#: A DISPLAY record as the executor chose it: (objtype, row, identity keys, the other keys shown).
Record = tuple[str, Mapping[str, Any], Sequence[str], list[str]]
_CAPTURED: ContextVar[list[Record] | None] = ContextVar("captured_records", default=None)


@contextmanager
def capture() -> Iterator[list[Record]]:
    """Within it, ``record`` keeps each DISPLAY record as it is rather than format it: what the
    PCF command server turns into parameters (the same records, not their text read back)."""
    records: list[Record] = []
    token = _CAPTURED.set(records)
    try:
        yield records
    finally:
        _CAPTURED.reset(token)


def record(objtype: str, row: Mapping[str, Any], identity: Sequence[str], keys: Iterable[str]) -> list[str]:
    """One DISPLAY record: its header, the identity keys (name, TYPE), then ``keys`` in IBM's
    alphabetical order of the printed keyword (so NOTRIGGER sorts under N, as runmqsc does), or
    the order runmqsc has for the type (a namelist's NAMES, DESCR, ALTDATE, ALTTIME)."""
    captured = _CAPTURED.get()
    if captured is not None:
        captured.append((objtype, row, identity, list(keys)))
        return [header(objtype)]  # (a command that counts its output lines still sees a record)
    item_type = str(row.get("TYPE")) if row.get("TYPE") in QUEUE_FAMILY else objtype
    first = [format_item(item_type, key, row[key]) for key in identity if key in row]
    order = _ORDER.get(objtype)
    items = [format_item(item_type, key, row[key]) for key in keys if key in row and key not in identity]
    rest = sorted(items, key=lambda item: (_rank(order, item), item)) if order else sorted(items)
    return [header(objtype), *pairs(first + rest)]


def _rank(order: Sequence[str], item: str) -> int:
    """Where ``KEY(value)`` stands in ``order`` (every item not in it after those that are)."""
    key = item.split("(", 1)[0]
    return order.index(key) if key in order else len(order)


# The event switches of ALTER QMGR whose events mqlite does not produce yet (produced: authority,
# queue depth and service interval (PERFMEV), configuration, channel, start and stop, inhibit,
# local, remote and command events): runmqsc says so where one is set, in a message
# of mqlite's own (AMQ8955I, next to its route messages), rather than leave an event queue empty.
_UNPRODUCED_EVENTS = {
    "SSLEV": "TLS (SSL) events are not produced yet",
    "LOGGEREV": "logger events are not produced yet",
    "CHADEV": "channel auto-definition events are not produced yet",
}


def unproduced_events(command: Command) -> list[str]:
    """The AMQ8955I lines of an ALTER QMGR that switched on events mqlite does not produce."""
    if command.verb != "ALTER" or command.objtype != "QMGR":
        return []
    lines = []
    for keyword, value in command.attrs.items():
        try:
            key = attributes.canonical("QMGR", keyword)
        except attributes.InvalidAttribute:
            continue
        shown = str(value).upper()
        if key in _UNPRODUCED_EVENTS and shown != "DISABLED":
            lines.append(f"AMQ8955I: mqlite keeps {key}({shown}), but {_UNPRODUCED_EVENTS[key]}.")
    return lines
