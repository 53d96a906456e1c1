"""Matching topic strings against subscription patterns, in both wildcard schemes (spec A §7).

Patterns compile to anchored regular expressions once (cached): the topic-based scheme turns each
``#`` level into "zero or more complete levels" and each ``+`` level into "one level"; the
character-based scheme turns ``*`` into any run of characters (``/`` included) and ``?`` into any
one character. Literal text is escaped, so no pattern can inject regex syntax.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from mqlite.core.topics.strings import char_tokens, levels


def _collapse(pattern_levels: tuple[str, ...]) -> list[str]:
    """'a/#/#/b' is 'a/#/b' (spec A R-TW-7)."""
    out: list[str] = []
    for level in pattern_levels:
        if level == "#" and out and out[-1] == "#":
            continue
        out.append(level)
    return out


def _topic_regex(pattern: str) -> str:
    parts = _collapse(levels(pattern))
    if parts == ["#"]:
        return "(?s:.*)"
    out: list[str] = []
    for i, level in enumerate(parts):
        if level == "#":
            # A leading '#' takes its separator after it, any other '#' the one before it, so
            # that matching zero levels leaves no stray separator.
            out.append("(?s:.*/)?" if i == 0 else "(?s:/.*)?")
            continue
        text = "[^/]*" if level == "+" else re.escape(level)
        glue = "" if i == 0 or (i == 1 and parts[0] == "#") else "/"
        out.append(glue + text)
    return "".join(out)


def _char_regex(pattern: str) -> str:
    out: list[str] = []
    for kind, c in char_tokens(pattern):
        out.append("(?s:.*)" if kind == "star" else "(?s:.)" if kind == "one" else re.escape(c))
    return "".join(out)


# A compiled pattern is ~1.1 KB; a subscription made while retained publications exist asks for
# its pattern once, so a cache as large as the subscriptions would double their memory.
@lru_cache(maxsize=1024)
def compile_matcher(pattern: str, char_scheme: bool) -> Callable[[str], bool]:
    """A predicate: does a topic string match ``pattern`` in the given scheme?"""
    regex = re.compile(_char_regex(pattern) if char_scheme else _topic_regex(pattern))
    fullmatch = regex.fullmatch
    return lambda topic: fullmatch(topic) is not None


def topic_match(pattern: str, topic: str) -> bool:
    """Topic-based scheme (MQSO_WILDCARD_TOPIC, spec A R-TW-*)."""
    return compile_matcher(pattern, False)(topic)


def char_match(pattern: str, topic: str) -> bool:
    """Character-based scheme (MQSO_WILDCARD_CHAR, spec A R-CW-*)."""
    return compile_matcher(pattern, True)(topic)
