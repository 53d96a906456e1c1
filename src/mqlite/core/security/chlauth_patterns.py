"""The generic patterns of channel authentication records: channel profiles, IP addresses,
partner queue manager names and TLS distinguished names, each with how specific it is.

IBM's rules, as documented for SET CHLAUTH and "Generic IP addresses" (IBM MQ Security,
"Channel authentication records", q010250_ and the SET CHLAUTH reference q086630_):

- a channel profile or QMNAME may hold ``*`` in any position, matching any run of characters;
- an IP address pattern is ``*`` (any address), an exact address, or parts holding a single
  number, a range ``low-high`` or ``*``; a ``*`` as the last of fewer parts than the address
  has covers the parts that follow (``192.168.*``), so ``192.168.1-20.*`` is a range of subnets;
  IPv6 patterns work the same way over hexadecimal groups;
- when several records match, the most specific one is used: a character where the other has
  ``*`` is more specific, the further left the more so; an exact address part beats a range,
  a narrower range a wider one, and both beat ``*``.

Host names (IBM allows them when REVDNS is enabled) are refused: mqlite does no reverse look-ups.
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass
from functools import lru_cache

from mqlite.protocol import dn as dn_rules

Specificity = tuple[tuple[int, int], ...]


# -- channel profiles and queue manager names ------------------------------------------------
@lru_cache(maxsize=4096)
def _glob(pattern: str) -> re.Pattern[str]:
    return re.compile(".*".join(re.escape(part) for part in pattern.split("*")), re.DOTALL)


def generic_matches(pattern: str, name: str) -> bool:
    """Does ``name`` match ``pattern``, where ``*`` anywhere stands for any run of characters?"""
    if "*" not in pattern:
        return pattern == name
    return _glob(pattern).fullmatch(name) is not None


def generic_specificity(pattern: str) -> Specificity:
    """Bigger is more specific: a literal character where another pattern has ``*`` wins, and
    the leftmost difference decides (``SYSTEM.ADMIN.SVRCONN`` > ``SYSTEM.*`` > ``*``)."""
    return tuple((0, 0) if ch == "*" else (1, 0) for ch in pattern)


# -- IP addresses -----------------------------------------------------------------------------
class AddressPatternError(ValueError):
    """An address pattern IBM would refuse (MQRCCF_ADDRESS_ERROR / MQRCCF_IPADDR_RANGE_ERROR)."""

    def __init__(self, text: str, is_range: bool = False) -> None:
        super().__init__(text)
        self.is_range = is_range


@dataclass(frozen=True)
class AddressPattern:
    """A parsed address pattern: ``parts`` of (low, high) ranges, ``None`` for ``*``; ``tail``
    says a trailing ``*`` covers the parts not written; ``version`` 4 or 6, 0 for ``*`` alone."""

    text: str
    version: int
    parts: tuple[tuple[int, int] | None, ...]
    tail: bool

    def matches(self, address: str) -> bool:
        if self.version == 0:
            return True
        groups = address_parts(address)
        if groups is None or len(groups) != (4 if self.version == 4 else 8):
            return False
        if len(self.parts) > len(groups) or (len(self.parts) < len(groups) and not self.tail):
            return False
        return all(part is None or part[0] <= value <= part[1] for part, value in zip(self.parts, groups, strict=False))

    @property
    def specificity(self) -> Specificity:
        width = 4 if self.version == 4 else 8
        key = [(0, 0) if part is None else (2, 0) if part[0] == part[1] else (1, part[0] - part[1])
               for part in self.parts]
        return tuple(key + [(0, 0)] * (width - len(key)))


ANY_ADDRESS = AddressPattern("*", 0, (), True)


def address_parts(address: str) -> tuple[int, ...] | None:
    """The numeric parts of a concrete address (4 for IPv4, 8 for IPv6; an IPv4-mapped IPv6
    address counts as IPv4), or None when it is not an IP address."""
    try:
        ip = ipaddress.ip_address(address.strip().strip("[]").split("%", 1)[0])
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        else:
            packed = ip.packed
            return tuple(int.from_bytes(packed[i:i + 2], "big") for i in range(0, 16, 2))
    return tuple(ip.packed)


@lru_cache(maxsize=4096)
def parse_address(text: str) -> AddressPattern:
    """Parse an ADDRESS / ADDRLIST pattern, raising :class:`AddressPatternError` as IBM would."""
    text = text.strip()
    if text == "*":
        return ANY_ADDRESS
    if not text:
        raise AddressPatternError("the address is blank")
    version = 6 if ":" in text else 4
    if version == 4 and not re.fullmatch(r"[0-9.*\-]+", text):
        raise AddressPatternError(f"'{text}' is not an IP address pattern (host names need reverse DNS, "
                                  "which mqlite does not do)")
    if version == 6 and "*" not in text and "-" not in text:
        groups = address_parts(text)
        if groups is None or len(groups) != 8:
            raise AddressPatternError(f"'{text}' is not an IPv6 address")
        return AddressPattern(text, 6, tuple((g, g) for g in groups), False)
    width, base, top = (4, 10, 255) if version == 4 else (8, 16, 0xFFFF)
    written = text.split("." if version == 4 else ":")
    if len(written) > width or "" in written:
        hint = " (write a pattern with '*' or ranges without '::')" if "::" in text else ""
        raise AddressPatternError(f"'{text}' is not a valid IPv{version} address pattern{hint}")
    parts = tuple(_part(item, base, top, text) for item in written)
    tail = parts[-1] is None
    if len(parts) < width and not tail:
        raise AddressPatternError(f"'{text}' has too few parts (end it with '*' to match the rest)")
    return AddressPattern(text, version, parts, tail)


def _part(item: str, base: int, top: int, text: str) -> tuple[int, int] | None:
    if item == "*":
        return None
    try:
        low, high = (int(v, base) for v in item.split("-", 1)) if "-" in item else (int(item, base),) * 2
    except ValueError:
        raise AddressPatternError(f"'{item}' in '{text}' is not a number, a range or '*'") from None
    if "-" in item:
        if low > high or high > top:
            raise AddressPatternError(f"range '{item}' in '{text}' is not low-high within 0-{top}", True)
        return low, high
    value = low
    if value > top:
        raise AddressPatternError(f"'{item}' in '{text}' is larger than {top}")
    return value, value


def address_matches(pattern: str, address: str) -> bool:
    """Does the concrete ``address`` match ``pattern`` (blank matches every address)?"""
    return not pattern.strip() or parse_address(pattern).matches(address)


def address_specificity(pattern: str) -> Specificity:
    """Bigger is more specific; a blank ADDRESS (any address) is least specific."""
    return parse_address(pattern).specificity if pattern.strip() else ()


# -- distinguished names (SSLPEER, SSLCERTI): IBM's SSLPEER rules, as protocol.dn has them ----
def dn_matches(pattern: str, dn: str) -> bool:
    """Does the certificate DN pass the SSLPEER/SSLCERTI filter (a bad DN passes nothing)?"""
    try:
        return dn_rules.matches(pattern, dn)
    except dn_rules.DNError:
        return False


def dn_specificity(pattern: str) -> Specificity:
    """More attributes, and fewer wildcards among them, make a DN filter more specific."""
    try:
        items = dn_rules.parse(pattern)
    except dn_rules.DNError:
        return ()
    return ((len(items), -sum("*" in value for _, value in items)),)
