"""Authority records as pure data and functions: IBM's OAM generic profiles (``?``, ``*``, ``**``),
the precedence of the most specific profile, and an entity's authority over an object.

A record says: on objects of type ``objtype`` whose names match ``profile``, entity ``entity`` (a
principal, i.e. a user, or a group) holds the MQZAO_* bits ``authority``. For an object and an
entity, only the most specific matching profile that has a record for that entity counts; a user's
authority is the union of its own and its groups' (IBM: "Profile priorities", "setmqaut").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from mqlite import cmqc as C

PRINCIPAL = C.MQZAET_PRINCIPAL
GROUP = C.MQZAET_GROUP

# Per position, how specific a profile's character is: a plain character beats ``?``, which
# beats ``*``, which beats ``**`` (IBM compares profiles left to right; where they differ, a
# non-generic character is more specific than a generic one).
_LITERAL, _ONE, _STAR, _STARS = 3, 2, 1, 0


class ProfileError(ValueError):
    """A profile IBM would refuse (``**`` other than as a whole qualifier, or twice)."""


@dataclass(frozen=True, slots=True)
class AuthRecord:
    """One authority record: ``entity`` of ``entity_type`` holds ``authority`` on ``profile``."""

    objtype: int  # MQOT_*
    profile: str
    entity: str
    entity_type: int  # MQZAET_PRINCIPAL or MQZAET_GROUP
    authority: int  # MQZAO_* bits

    @property
    def key(self) -> str:
        """The store key: one record per (object type, profile, entity)."""
        return f"{self.objtype}|{self.entity_type}|{self.entity}|{self.profile}"

    def to_value(self) -> dict[str, object]:
        return {"objtype": self.objtype, "profile": self.profile, "entity": self.entity,
                "etype": self.entity_type, "auth": self.authority}

    @classmethod
    def from_value(cls, value: dict[str, object]) -> AuthRecord:
        return cls(int(str(value["objtype"])), str(value["profile"]), str(value["entity"]),
                   int(str(value["etype"])), int(str(value["auth"])))


def is_generic(profile: str) -> bool:
    return "*" in profile or "?" in profile


@lru_cache(maxsize=4096)
def compile_profile(profile: str) -> re.Pattern[str]:
    """The regular expression of a profile (cached: profiles are few, checks many)."""
    qualifiers = profile.split(".")
    if profile.count("**") > 1 or any("**" in q and q != "**" for q in qualifiers):
        raise ProfileError(f"'**' may appear once, as a whole qualifier: {profile}")
    if profile == "**":
        return re.compile(r".*", re.DOTALL)
    parts: list[str] = []
    for index, qualifier in enumerate(qualifiers):
        if qualifier == "**":
            # zero or more qualifiers, with the dots that separate them from their neighbours
            parts.append(r"(?:[^.]*\.)*" if index == 0 else r"(?:\.[^.]*)*")
            continue
        piece = "".join("[^.]" if ch == "?" else "[^.]*" if ch == "*" else re.escape(ch) for ch in qualifier)
        # a dot before every qualifier but the first (a leading '**' pattern ends with its own dot)
        if index > 0 and not (index == 1 and qualifiers[0] == "**"):
            piece = r"\." + piece
        parts.append(piece)
    return re.compile("".join(parts), re.DOTALL)


def profile_matches(profile: str, name: str) -> bool:
    """Whether ``profile`` (generic or not) covers the object ``name``."""
    if not is_generic(profile):
        return profile == name
    return compile_profile(profile).fullmatch(name) is not None


@lru_cache(maxsize=4096)
def specificity(profile: str) -> tuple[int, ...]:
    """A sort key: the larger, the more specific (left to right, plain > ``?`` > ``*`` > ``**``;
    a profile that goes on where another stops is the more specific)."""
    ranks: list[int] = []
    i = 0
    while i < len(profile):
        if profile.startswith("**", i):
            ranks.append(_STARS)
            i += 2
            continue
        ch = profile[i]
        ranks.append(_ONE if ch == "?" else _STAR if ch == "*" else _LITERAL)
        i += 1
    return tuple(ranks)


def most_specific(profiles: Iterable[str]) -> str | None:
    """The profile that wins among those that match one object name, or None if there are none."""
    best: str | None = None
    best_key: tuple[int, ...] = ()
    for profile in profiles:
        key = specificity(profile)
        if best is None or key > best_key:
            best, best_key = profile, key
    return best


def entity_authority(records: Iterable[AuthRecord], name: str) -> int:
    """The authority one entity's records (of one object type) give it on object ``name``: that of
    the most specific matching profile, or nothing."""
    best: AuthRecord | None = None
    best_key: tuple[int, ...] = ()
    for record in records:
        if not profile_matches(record.profile, name):
            continue
        key = specificity(record.profile)
        if best is None or key > best_key:
            best, best_key = record, key
    return best.authority if best is not None else C.MQZAO_NONE
