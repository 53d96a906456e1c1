"""Distinguished names as IBM MQ reads them: SSLPEER filters and certificate subjects.

A DN here is a tuple of ``(type, value)`` pairs in the order its string form shows them, most
specific first (``CN=QM1, OU=Test, O=IBM, C=GB``). :func:`parse` reads IBM's string form (the
rules of "IBM MQ rules for SSLPEER values"): ``,`` or ``;`` between attributes, spaces around
them ignored, attribute types in upper case with no space before ``=``, values optionally in
double quotes (which keep their spaces, separators and asterisks), ``ST``/``SP``/``S`` one type.
:func:`matches` is the SSLPEER test: every attribute the filter names must be in the DN with a
matching value (letters match whatever their case; ``*`` at the start and/or end of an unquoted
value stands for any characters); the order of different types does not matter, the DN may have
attributes the filter does not name, and repeated types (OU, DC) match in order.

Pure functions: the server's TLS code and the client's SSLPEER check call them, CHLAUTH's
SSLPEERMAP rules too; each rule has a microsecond unit test.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

DN = tuple[tuple[str, str], ...]

# The attribute types an SSLPEER filter may name (IBM's table), and their synonyms.
TYPES = frozenset({"SERIALNUMBER", "MAIL", "E", "UID", "USERID", "CN", "T", "OU", "DC", "O", "STREET",
                   "L", "ST", "SP", "S", "PC", "C", "UNSTRUCTUREDNAME", "UNSTRUCTUREDADDRESS", "DNQ",
                   "GIVENNAME", "SN", "INITIALS", "GENERATION"})
_SYNONYMS = {"SP": "ST", "S": "ST", "USERID": "UID", "E": "MAIL"}

# OpenSSL's long names (Python's ``getpeercert()``) as the short types above.
_FROM_LONG = {
    "commonName": "CN", "organizationName": "O", "organizationalUnitName": "OU", "countryName": "C",
    "stateOrProvinceName": "ST", "localityName": "L", "emailAddress": "E", "domainComponent": "DC",
    "serialNumber": "SERIALNUMBER", "title": "T", "streetAddress": "STREET", "postalCode": "PC",
    "userId": "UID", "unstructuredName": "UNSTRUCTUREDNAME", "unstructuredAddress": "UNSTRUCTUREDADDRESS",
    "dnQualifier": "DNQ", "givenName": "GIVENNAME", "surname": "SN", "initials": "INITIALS",
    "generationQualifier": "GENERATION",
}


class DNError(ValueError):
    """A DN or SSLPEER filter that breaks IBM's rules; the text says where."""


@dataclass(frozen=True, slots=True)
class _Pattern:
    """One filter value: literal text, or text with a wildcard before and/or after it."""

    text: str
    prefix_wild: bool = False
    suffix_wild: bool = False

    def match(self, value: str) -> bool:
        value = value.casefold()
        if self.prefix_wild and self.suffix_wild:
            return self.text in value
        if self.prefix_wild:
            return value.endswith(self.text)
        if self.suffix_wild:
            return value.startswith(self.text)
        return value == self.text


def parse(text: str) -> DN:
    """IBM's string form of a DN (or SSLPEER filter) as ``(type, value)`` pairs, quotes removed
    from values (a quoted value is marked by keeping it in the pair as ``"..."``: see
    :func:`compile_filter`)."""
    pairs: list[tuple[str, str]] = []
    i, n = 0, len(text)
    while True:
        while i < n and text[i] == " ":
            i += 1
        if i >= n:
            if pairs:
                raise DNError(f"{text!r}: nothing after the last separator")
            break
        start = i
        while i < n and text[i] not in "=,;":
            i += 1
        kind = text[start:i]
        if i >= n or text[i] != "=":
            raise DNError(f"{text!r}: {kind.strip()!r} is not TYPE=value")
        if kind != kind.strip():
            raise DNError(f"{text!r}: no spaces are allowed around the attribute type {kind.strip()!r}")
        if kind not in TYPES:
            hint = " (attribute types are upper case)" if kind.upper() in TYPES else ""
            raise DNError(f"{text!r}: unknown attribute type {kind!r}{hint}")
        i += 1
        value, i = _value(text, i)
        pairs.append((kind, value))
        if i >= n:
            break
        i += 1  # the separator
        if i >= n:
            raise DNError(f"{text!r}: nothing after the last separator")
    return tuple(pairs)


def _value(text: str, i: int) -> tuple[str, int]:
    """One attribute value from ``text[i:]`` and the index of the separator after it (or the end).
    A quoted value comes back with its quotes, so the filter compiler knows it is literal."""
    n = len(text)
    while i < n and text[i] == " ":
        i += 1
    if i < n and text[i] == '"':
        end = i + 1
        chars: list[str] = []
        while end < n and text[end] != '"':
            if text[end] == "\\" and end + 1 < n:
                end += 1
            chars.append(text[end])
            end += 1
        if end >= n:
            raise DNError(f"{text!r}: a quoted value is not closed")
        end += 1
        while end < n and text[end] == " ":
            end += 1
        if end < n and text[end] not in ",;":
            raise DNError(f"{text!r}: text after a quoted value")
        return '"' + "".join(chars) + '"', end
    chars = []
    while i < n and text[i] not in ",;":
        if text[i] == "\\" and i + 1 < n:  # RFC 4514 escape: the next character as it is
            i += 1
        chars.append(text[i])
        i += 1
    return "".join(chars).strip(" "), i


def unquote(value: str) -> str:
    return value[1:-1] if len(value) >= 2 and value[0] == value[-1] == '"' else value


def compile_filter(text: str) -> tuple[tuple[str, tuple[_Pattern, ...]], ...]:
    """An SSLPEER filter as (type, patterns in order) per type, types in first-seen order."""
    by_type: dict[str, list[_Pattern]] = {}
    for kind, value in parse(text):
        by_type.setdefault(_SYNONYMS.get(kind, kind), []).append(_pattern(value))
    return tuple((kind, tuple(patterns)) for kind, patterns in by_type.items())


def _pattern(value: str) -> _Pattern:
    if len(value) >= 2 and value[0] == value[-1] == '"':
        return _Pattern(value[1:-1].casefold())
    if "*" in value.strip("*"):
        raise DNError(f"{value!r}: an asterisk may stand only at the start or the end of a value")
    return _Pattern(value.strip("*").casefold(), value.startswith("*"), len(value) > 1 and value.endswith("*"))


def matches(filter_text: str, dn: DN | str) -> bool:
    """Whether the DN passes the SSLPEER filter (an empty filter passes every DN)."""
    if not filter_text.strip():
        return True
    subject = parse(dn) if isinstance(dn, str) else dn
    values: dict[str, list[str]] = {}
    for kind, value in subject:
        values.setdefault(_SYNONYMS.get(kind, kind), []).append(unquote(value))
    for kind, patterns in compile_filter(filter_text):
        have = values.get(kind, [])
        if len(have) < len(patterns):
            return False
        if not all(p.match(v) for p, v in zip(patterns, have, strict=False)):
            return False
    return True


def from_certificate(subject: Iterable[Sequence[tuple[str, str]]]) -> DN:
    """A certificate's subject (or issuer) as ``ssl.SSLSocket.getpeercert()`` gives it (RDNs in
    the certificate's order, least specific first) as a DN, most specific first."""
    pairs = [(_FROM_LONG.get(name, name), value) for rdn in subject for name, value in rdn]
    return tuple(reversed(pairs))


def format_dn(dn: DN) -> str:
    """IBM's display form: ``CN=QM1,OU=Test,O=IBM,C=GB`` (values with separators quoted)."""
    parts = []
    for kind, value in dn:
        value = unquote(value)
        if any(c in value for c in ',;"') or value != value.strip():
            value = '"' + value.replace('"', '\\"') + '"'
        parts.append(f"{kind}={value}")
    return ",".join(parts)
