"""The objects in runmqsc's output of DISPLAY commands, as dicts: for tools that administer a
queue manager through MQSC text (the Spark source finding a cluster queue's instances, ``mqlite
emsconf`` finding the topic objects there are)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

__all__ = ["display_records"]

_HEADER = re.compile(r"^AMQ\d{4}I:")  # the line that opens each object IBM's DISPLAY shows
_KEYWORD = re.compile(r"([A-Z][A-Z0-9]*)\(")


def display_records(lines: Sequence[str]) -> list[dict[str, str]]:
    """The objects in runmqsc's output of DISPLAY commands: one dict of keyword -> value per
    object (values unquoted; a CONNAME keeps its inner parentheses: ``127.0.0.1(1414)``)."""
    records: list[dict[str, str]] = []
    current: dict[str, str] | None = None
    for line in lines:
        if _HEADER.match(line):
            current = {}
            records.append(current)
        elif current is not None and line.startswith(" ") and not line.lstrip()[:1].isdigit():
            current.update(_attributes(line))
        else:  # a command's echo ("     2 : DISPLAY ..."), an error or the closing lines
            current = None
    return records


def _attributes(line: str) -> Iterator[tuple[str, str]]:
    """``KEYWORD(value)`` pairs of one line; parentheses nest, quotes ('' for a quote) hide them."""
    at = 0
    while (found := _KEYWORD.search(line, at)) is not None:
        depth, end, quoted = 1, found.end(), False
        while end < len(line) and depth:
            char = line[end]
            if char == "'":
                if quoted and line[end + 1:end + 2] == "'":
                    end += 2
                    continue
                quoted = not quoted
            elif not quoted:
                depth += (char == "(") - (char == ")")
            end += 1
        value = line[found.end():end - 1].strip()
        if len(value) >= 2 and value[0] == value[-1] == "'":
            value = value[1:-1].replace("''", "'")
        yield found[1], value
        at = end
