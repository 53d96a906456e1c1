"""Tokens of the message selector language (JMS / SQL-92 subset, spec A R-SEL-5)."""

from __future__ import annotations

import re
from typing import NamedTuple

from mqlite import cmqc as C
from mqlite.core.errors import MQError

KEYWORDS = frozenset({"AND", "OR", "NOT", "BETWEEN", "IN", "LIKE", "ESCAPE", "IS", "NULL", "TRUE", "FALSE"})


class Token(NamedTuple):
    kind: str  # "id", "kw", "str", "num", "hex", "op", "end"
    value: object
    pos: int
    text: str


_TOKEN = re.compile(r"""
    (?P<space>\s+)
  | (?P<hex>[xX]'(?P<hexdigits>[0-9A-Fa-f]*)')
  | (?P<str>'(?:[^']|'')*')
  | (?P<num>(?:\d+\.\d*|\.\d+|\d+)(?:[eE][+-]?\d+)?[lLfFdD]?)
  | (?P<id>[A-Za-z_$][A-Za-z0-9_$.]*)
  | (?P<op><>|<=|>=|[=<>+\-*/(),])
""", re.VERBOSE)


def syntax_error(text: str) -> MQError:
    return MQError(C.MQRC_SELECTOR_SYNTAX_ERROR, text)


def tokenize(selector: str) -> list[Token]:
    tokens: list[Token] = []
    pos = 0
    while pos < len(selector):
        m = _TOKEN.match(selector, pos)
        if m is None:
            raise syntax_error(f"unexpected {selector[pos]!r} at {pos}")
        kind = m.lastgroup
        text = m.group()
        if kind == "hexdigits":
            kind = "hex"
        if kind == "space":
            pass
        elif kind == "hex":
            digits = m.group("hexdigits")
            if len(digits) % 2:
                raise syntax_error(f"odd number of hex digits at {pos}")
            tokens.append(Token("hex", bytes.fromhex(digits), pos, text))
        elif kind == "str":
            tokens.append(Token("str", text[1:-1].replace("''", "'"), pos, text))
        elif kind == "num":
            try:
                tokens.append(Token("num", _number(text), pos, text))
            except ValueError:  # e.g. '1.L': a long suffix on an approximate number
                raise syntax_error(f"bad number {text!r} at {pos}") from None
        elif kind == "id":
            upper = text.upper()
            if upper in KEYWORDS:
                tokens.append(Token("kw", upper, pos, text))
            else:
                tokens.append(Token("id", text, pos, text))
        else:
            tokens.append(Token("op", text, pos, text))
        pos = m.end()
    tokens.append(Token("end", None, len(selector), "end of selector"))
    return tokens


def _number(text: str) -> int | float:
    if text[-1] in "lL":
        return int(text[:-1])
    if text[-1] in "fFdD":
        return float(text[:-1])
    if any(c in text for c in ".eE"):
        return float(text)
    return int(text)
