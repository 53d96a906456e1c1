"""MQSC lexical layer: a script becomes commands, a command becomes tokens.

Two steps, kept apart so each is easy to test and to fuzz:

* :func:`split_script` turns the text runmqsc reads into items: comment lines (``*`` first),
  blank lines and commands, joining continuation lines the IBM way (a last non-blank ``-``
  continues from the start of the next line, ``+`` from its first non-blank character; comment
  and blank lines in between are skipped). Spec A's decision A-31 adds one more rule: an
  indented line that does not start with a command verb continues the command above it, so
  the seed's four-line ``DEFINE TOPIC`` without continuation characters still reads as one.
* :func:`tokenize` turns one command into words (folded to upper case), quoted strings (case
  kept, ``''`` is one quote; double quotes are accepted too, spec B A-62) and parentheses.
  Blanks and commas separate tokens, as in IBM's rules.

Every failure is a :class:`MqscSyntaxError` that carries the offending token and its
position, because runmqsc reports "syntax error at or near end of command segment" and the
segment must end at that token.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import NamedTuple

#: Words that start a command; used by the A-31 indentation rule (never join these).
COMMAND_WORDS = frozenset({
    "DEFINE", "DEF", "ALTER", "ALT", "DELETE", "DEL", "DISPLAY", "DIS", "CLEAR", "START", "STA",
    "STOP", "END", "REFRESH", "REF", "RESET", "PING", "RESOLVE", "RESUME", "SUSPEND", "SET", "SWITCH",
})

_SEPARATORS = " \t,\r\f\v"
_QUOTES = "'\""


class MqscSyntaxError(Exception):
    """A command could not be read; names the offending token and where it starts (0-based)."""

    def __init__(self, message: str, text: str, pos: int, token: str = "") -> None:
        self.message = message
        self.text = text
        self.pos = max(0, min(pos, len(text)))
        self.token = token
        super().__init__(str(self))

    @property
    def segment(self) -> str:
        """The command text up to and including the offending token (what runmqsc prints)."""
        return self.text[: self.pos + len(self.token)].rstrip()

    def __str__(self) -> str:
        near = f" near {self.token!r}" if self.token else " at end of command"
        return f"{self.message}{near} (position {self.pos + 1})"


class TokenKind(enum.Enum):
    """The kinds of token an MQSC command is made of."""

    WORD = "word"
    STRING = "string"
    LPAREN = "("
    RPAREN = ")"
    END = "end"


class Token(NamedTuple):
    """One token: ``value`` is folded to upper case for words, unquoted for strings."""

    kind: TokenKind
    value: str
    pos: int
    raw: str


def tokenize(text: str) -> list[Token]:
    """Split one command into tokens, ending with an END token at ``len(text)``."""
    tokens: list[Token] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch in _SEPARATORS:
            i += 1
        elif ch == "(":
            tokens.append(Token(TokenKind.LPAREN, ch, i, ch))
            i += 1
        elif ch == ")":
            tokens.append(Token(TokenKind.RPAREN, ch, i, ch))
            i += 1
        elif ch in _QUOTES:
            end, value = _read_string(text, i)
            tokens.append(Token(TokenKind.STRING, value, i, text[i:end]))
            i = end
        else:
            start = i
            while i < n and text[i] not in _SEPARATORS and text[i] not in "()" and text[i] not in _QUOTES:
                i += 1
            raw = text[start:i]
            tokens.append(Token(TokenKind.WORD, raw.upper(), start, raw))
    tokens.append(Token(TokenKind.END, "", n, ""))
    return tokens


def _read_string(text: str, start: int) -> tuple[int, str]:
    quote = text[start]
    out: list[str] = []
    i = start + 1
    while i < len(text):
        if text[i] == quote:
            if i + 1 < len(text) and text[i + 1] == quote:
                out.append(quote)
                i += 2
                continue
            return i + 1, "".join(out)
        out.append(text[i])
        i += 1
    raise MqscSyntaxError("Quoted string is not closed", text, start, text[start:])


@dataclass(frozen=True)
class ScriptItem:
    """One thing runmqsc read: a command (``text`` assembled from ``lines``) or a comment/blank line."""

    kind: str  # "command", "comment" or "blank"
    lines: tuple[str, ...]  # the physical lines as read, for the echo
    text: str  # the assembled command; the line itself for comments and blanks
    line: int  # 1-based number of the first physical line


def _continuation(line: str) -> str | None:
    """``+`` or ``-`` if the line's last non-blank character continues the command."""
    stripped = line.rstrip()
    return stripped[-1] if stripped and stripped[-1] in "+-" else None


def _is_comment(line: str) -> bool:
    return line.startswith("*")


def _first_word(line: str) -> str:
    word = line.strip().split(None, 1)
    return word[0].split("(", 1)[0].upper() if word else ""


def split_script(text: str) -> list[ScriptItem]:
    """Read a whole MQSC script into items, joining continuation lines (see module docstring)."""
    items: list[ScriptItem] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            items.append(ScriptItem("blank", (line,), line, i + 1))
            i += 1
            continue
        if _is_comment(line):
            items.append(ScriptItem("comment", (line,), line, i + 1))
            i += 1
            continue
        first = i
        physical = [line]
        assembled = ""
        mark = _continuation(line)
        current = line
        i += 1
        while mark is not None:
            assembled += current.rstrip()[:-1]
            # The command continues with the next line that is not a comment or blank line.
            while i < len(lines) and (not lines[i].strip() or _is_comment(lines[i])):
                physical.append(lines[i])
                i += 1
            if i >= len(lines):
                current = ""
                break
            current = lines[i] if mark == "-" else lines[i].lstrip()
            physical.append(lines[i])
            i += 1
            mark = _continuation(current)
        assembled += current
        # indented lines that do not start a new command continue this one.
        while (
            i < len(lines) and lines[i][:1] in (" ", "\t") and lines[i].strip()
            and _first_word(lines[i]) not in COMMAND_WORDS and not assembled.rstrip().endswith(";")
        ):
            physical.append(lines[i])
            assembled = assembled.rstrip() + " " + lines[i].strip()
            i += 1
        command = assembled.strip()
        if command.endswith(";"):
            command = command[:-1].rstrip()  # Multiplatforms accept a terminating semicolon
        items.append(ScriptItem("command", tuple(physical), command, first + 1))
    return items
