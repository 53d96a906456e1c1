"""runmqsc's output read back, pure: the DISPLAY records (keyword -> value) and what failed.

``QueueManager.mqsc`` returns the lines runmqsc prints. A DISPLAY record starts at an
``AMQnnnnI`` line (``Display ... details.``) and is followed by indented ``KEYWORD(value)`` pairs, two
to a line in runmqsc's columns (``mqsc.display.pairs``: three blanks, the left item padded to 40,
an item of 40 or more alone on its line; bare keywords such as ``NOTRIGGER``). Error messages are ``AMQnnnnE``
lines; ``reason_of`` gives the MQ reason IBM's REST API reports for them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

MQRCCF_COMMAND_FAILED = 3008
MQRC_NOT_AUTHORIZED = 2035
MQRC_UNKNOWN_OBJECT_NAME = 2085
MQRCCF_OBJECT_ALREADY_EXISTS = 4001

_ECHO = re.compile(r"^\s*\d+ : ")
_MESSAGE = re.compile(r"^(AMQ\d{4})([IWE]): ")
# one item: KEY(value), the value everything to the last parenthesis (any nesting, unbalanced
# parentheses in a description), or a bare KEY
_ITEM = re.compile(r"([A-Z][A-Z0-9_.]*)(?:\((.*)\))?", re.DOTALL)
_INDENT, _COLUMN = 3, 40  # (mqsc.display's layout)
_CLOSING = re.compile(r"^(\d+|No|One|All) (MQSC commands? read|commands? ha|valid MQSC command)", re.IGNORECASE)
# AMQ messages and the reason IBM's REST API gives for them
_REASONS = {
    "AMQ8147": MQRC_UNKNOWN_OBJECT_NAME,  # object not found
    "AMQ8420": MQRC_UNKNOWN_OBJECT_NAME,  # channel status not found
    "AMQ8135": MQRC_NOT_AUTHORIZED,
    "AMQ8150": MQRCCF_OBJECT_ALREADY_EXISTS,
}


@dataclass
class Output:
    """One command's output: its records, its other lines, whether (and why) it failed."""

    records: list[dict[str, str]] = field(default_factory=list)
    text: list[str] = field(default_factory=list)  # every line but the echo and the closing counts
    errors: list[str] = field(default_factory=list)  # the AMQnnnnE lines

    @property
    def reason(self) -> int:
        """0, or the MQ reason of the first error (MQRCCF_COMMAND_FAILED when none is known)."""
        for line in self.errors:
            match = _MESSAGE.match(line)
            if match:
                return _REASONS.get(match[1], MQRCCF_COMMAND_FAILED)
        return 0

    @property
    def not_found(self) -> bool:
        return self.reason == MQRC_UNKNOWN_OBJECT_NAME


def parse(lines: list[str], code: int = 0) -> Output:
    """The output of one command run by ``QueueManager.mqsc`` (exit ``code``: 0, 10 or 20)."""
    out = Output()
    record: dict[str, str] | None = None
    for line in lines:
        if _ECHO.match(line) or _CLOSING.match(line):
            record = None
            continue
        out.text.append(line)
        message = _MESSAGE.match(line)
        if message:  # an information message heads a record (DISPLAY's "... details.", "... inquired.")
            record = {} if message[2] == "I" and message[1] not in _REASONS else None
            if record is not None:
                out.records.append(record)
            if message[2] == "E" or message[1] in _REASONS:  # AMQ8420I: no status is a failure too
                out.errors.append(line)
            continue
        if record is not None and line.startswith(" "):
            record.update(pairs(line))
    out.records = [r for r in out.records if r]
    if code and not out.errors:
        syntax = [line for line in out.text if line.startswith("AMQ8405")]
        out.errors.append(syntax[0] if syntax else "AMQ8137E: The command failed.")
    return out


def pairs(line: str) -> dict[str, str]:
    """The KEYWORD(value) pairs of one DISPLAY line; a bare keyword maps to ''. The line is cut
    where runmqsc's right column begins, so a value may hold blanks and parentheses of any kind."""
    body = line[_INDENT:] if line.startswith(" " * _INDENT) else line.lstrip()
    items = [body.strip()]
    if len(body) > _COLUMN and body[_COLUMN - 1] == " " and body[_COLUMN] != " ":
        left, right = body[:_COLUMN].rstrip(), body[_COLUMN:].rstrip()
        if _ITEM.fullmatch(left) and _ITEM.fullmatch(right):
            items = [left, right]
    found: dict[str, str] = {}
    for item in items:
        match = _ITEM.fullmatch(item)
        if match:
            found[match[1]] = "" if match[2] is None else match[2].strip()
    return found


def records_by_command(lines: Sequence[str]) -> list[list[dict[str, str]]]:
    """runmqsc's output of a script: for each command (from its echoed line), the records it
    displayed (an ``AMQnnnn`` line heads each; errors make none)."""
    sections: list[list[dict[str, str]]] = []
    current: dict[str, str] | None = None
    for line in lines:
        if _ECHO.match(line):
            sections.append([])
            current = None
        elif line.startswith("AMQ") and sections:
            current = {}
            sections[-1].append(current)
        elif line.startswith("   ") and current is not None:
            current.update(pairs(line))
        else:
            current = None
    return [[record for record in section if record] for section in sections]


# attributes whose value is a string (quoted, so MQSC keeps its case), not a keyword or a number
STRING_ATTRIBUTES = frozenset({
    "DESCR", "TARGET", "RNAME", "RQMNAME", "XMITQ", "INITQ", "BOQNAME", "PROCESS", "TRIGDATA", "TOPICSTR",
    "TOPICOBJ", "DEST", "DESTQMGR", "DESTCORL", "SELECTOR", "USERDATA", "CONNAME", "MCAUSER", "SSLPEER",
    "CERTLABL", "CLUSTER", "CLUSNL", "CUSTOM", "PRINCIPAL", "GROUP", "PROFILE", "SUBUSER", "PUBAPPID", "LIKE",
    "MSGEXIT", "SCYEXIT", "SENDEXIT", "RCVEXIT", "MODENAME", "TPNAME", "QMNAME", "DEADQ", "DEFXMITQ",
    "CLCHNAME", "CHANNEL", "PARENT", "NAMES", "APPLICID", "ENVRDATA",
})


def quote(value: str, always: bool = False) -> str:
    """A value as MQSC takes it: quoted (quotes doubled) when ``always`` or when it is not one
    word of letters, digits and underscores (an unquoted word is a keyword, or upper-cased)."""
    if not always and re.fullmatch(r"[A-Za-z0-9_]+", value):
        return value
    return "'" + value.replace("'", "''") + "'"
