"""What an attribute of the catalogue is (its kind, role, range, tokens) and the small builders the
catalogue's tables are written with; the tables themselves are in ``attributes`` and, for
channels and AUTHINFO objects, ``channel_attributes``."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from mqlite.core.errors import MQError

MAXINT: Final = 999_999_999


class Kind(enum.Enum):
    """How an attribute's value is written in MQSC and held in the core."""

    INT = "int"
    ENUM = "enum"
    FLAG = "flag"
    STR = "str"
    LIST = "list"


class Role(enum.Enum):
    """Who sets the attribute: the administrator, or the queue manager (shown by DISPLAY)."""

    CONFIG = "config"
    STATUS = "status"
    IDENTITY = "identity"  # the object's name key and TYPE


@dataclass(frozen=True)
class Attr:
    """One attribute of one object type."""

    name: str
    kind: Kind
    default: Any = None
    selector: int | None = None
    low: int = 0
    high: int = MAXINT
    tokens: Mapping[str, int] = field(default_factory=dict)  # ENUM values / INT special tokens -> MQ int
    synonyms: Mapping[str, str] = field(default_factory=dict)  # accepted value spelling -> canonical token
    maxlen: int = 48
    negative: str = ""  # FLAG: the keyword meaning False (NOSHARE)
    readonly: bool = False
    aliases: tuple[str, ...] = ()  # other MQSC keywords for this attribute (TARGQ for TARGET)
    role: Role = Role.CONFIG
    whole_items: bool = False  # LIST: one value is one item, commas and all (a route's selector rules)
    units: Mapping[str, int] = field(default_factory=dict)  # INT: accepted suffixes (MAXBYTES(10MB))

    def keyword(self, value: Any) -> str:
        """The MQSC keyword DISPLAY prints for a flag value (``SHARE`` or ``NOSHARE``)."""
        return self.name if value else self.negative


class InvalidAttribute(MQError):
    """An attribute keyword or value was refused; ``syntax`` says MQSC would call it a syntax error.

    Unknown keywords, read-only attributes, wrong value types and unknown tokens are syntax errors
    in runmqsc; a well-formed value outside its range is a processing failure. Both are MQErrors so
    the core can let them through to an MQI or PCF caller unchanged.
    """

    def __init__(self, reason: int, text: str, keyword: str, syntax: bool) -> None:
        super().__init__(reason, text)
        self.keyword = keyword
        self.syntax = syntax


def tokens_of(spec: str) -> dict[str, int]:
    return {k: int(v) for k, v in (item.split("=") for item in spec.split())}


def int_attr(name: str, default: Any, sel: int | None = None, low: int = 0, high: int = MAXINT,
       tokens: str = "", ro: bool = False, role: Role = Role.CONFIG) -> Attr:
    return Attr(name, Kind.INT, default, sel, low, high, tokens_of(tokens), readonly=ro, role=role)


def enum_attr(name: str, default: str, tokens: str, sel: int | None = None, syn: str = "",
       ro: bool = False, alias: tuple[str, ...] = ()) -> Attr:
    synonyms = dict(item.split("=") for item in syn.split())
    return Attr(name, Kind.ENUM, default, sel, tokens=tokens_of(tokens), synonyms=synonyms, readonly=ro,
                aliases=alias)


def flag_attr(name: str, negative: str, default: bool, sel: int | None = None, ro: bool = False) -> Attr:
    return Attr(name, Kind.FLAG, default, sel, negative=negative, readonly=ro)


def str_attr(name: str, default: str = "", sel: int | None = None, maxlen: int = 48, ro: bool = False,
       alias: tuple[str, ...] = (), role: Role = Role.CONFIG) -> Attr:
    return Attr(name, Kind.STR, default, sel, maxlen=maxlen, readonly=ro, aliases=alias, role=role)
