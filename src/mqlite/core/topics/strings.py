"""Topic strings: levels, validity, building a topic name from an object and a string, and the
literal part of a wildcard pattern (spec A §6-8, §10 R-ATO-5).

Two wildcard schemes exist (spec A §7): topic-based, where a level that is exactly ``#`` or ``+``
is wild, and character-based, where ``*`` and ``?`` are wild anywhere and ``%`` escapes them.
"""

from __future__ import annotations

from mqlite import cmqc as C
from mqlite.core.errors import MQError

SEPARATOR = "/"
ESCAPE = "%"  # spec A A-1
_CHAR_WILD = "*?"


def levels(topic: str) -> tuple[str, ...]:
    """The levels of a topic string; empty levels are real levels ('a//b' has three)."""
    return tuple(topic.split(SEPARATOR))


def check_topic_string(topic: str) -> None:
    """A zero-length topic string is invalid (spec A R-TOP-3); anything else is allowed."""
    if not topic:
        raise MQError(C.MQRC_TOPIC_STRING_ERROR, "a topic string may not be empty")


def is_present(field: str | None) -> bool:
    """Spec A R-CTN-2: a field is present when it is not empty and starts with neither a blank
    nor a NUL."""
    return bool(field) and field[0] not in (" ", "\0")  # type: ignore[index]


def build_topic_string(object_topic: str | None, object_string: str | None) -> str:
    """The full topic name from an object's TOPICSTR and an ObjectString (spec A R-CTN-1..5):
    one present is used as it is, both are joined with one '/', neither is an error."""
    topic = (object_topic or "").rstrip(" \0")
    string = (object_string or "").rstrip(" \0")
    has_topic, has_string = is_present(topic), is_present(string)
    if has_topic and has_string:
        return f"{topic}{SEPARATOR}{string}"
    if has_topic:
        return topic
    if has_string:
        return string
    raise MQError(C.MQRC_TOPIC_STRING_ERROR, "neither the topic object nor ObjectString gives a topic string")


def has_topic_wildcards(pattern: str) -> bool:
    return any(level in ("#", "+") for level in levels(pattern))


def char_tokens(pattern: str) -> list[tuple[str, str]]:
    """The character scheme's tokens: ('lit', c), ('star', '*'), ('one', '?'). The escape must be
    followed by '*', '?' or itself (spec A R-CW-1, A-2)."""
    out: list[tuple[str, str]] = []
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == ESCAPE:
            if i + 1 >= n or pattern[i + 1] not in _CHAR_WILD + ESCAPE:
                raise MQError(C.MQRC_TOPIC_STRING_ERROR,
                              f"'{ESCAPE}' at {i} must be followed by '*', '?' or '{ESCAPE}'")
            out.append(("lit", pattern[i + 1]))
            i += 2
            continue
        out.append(("star", c) if c == "*" else ("one", c) if c == "?" else ("lit", c))
        i += 1
    return out


def has_char_wildcards(pattern: str) -> bool:
    return any(kind != "lit" for kind, _ in char_tokens(pattern))


def unescape_char_pattern(pattern: str) -> str:
    """The literal topic named by a character-scheme pattern with no wildcard."""
    return "".join(c for _, c in char_tokens(pattern))


def literal_prefix(pattern: str, char_scheme: bool) -> tuple[str, ...]:
    """The complete literal levels before the first wildcard (spec A R-ATO-5, A-23; its length is
    the k of R-WB-5). A pattern with no wildcard is all literal."""
    if not char_scheme:
        out: list[str] = []
        for level in levels(pattern):
            if level in ("#", "+"):
                break
            out.append(level)
        return tuple(out)
    text: list[str] = []
    for kind, c in char_tokens(pattern):
        if kind != "lit":
            return levels("".join(text))[:-1]  # the level being written when the wildcard came is partial
        text.append(c)
    return levels("".join(text))
