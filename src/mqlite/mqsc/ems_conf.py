"""TIBCO EMS configuration text (``topics.conf``, ``routes.conf``) as MQSC, a pure translation.

An EMS administrator describes routes in the two files the seed's Figure 38 and the spec's
scenarios use (B §23, A-57, A-60)::

    # topics.conf: a topic name, then its properties
    orders   global,maxmsgs=1000,overflowPolicy=discardOld

    # routes.conf: one section per route, named after the peer server
    [WEST]
    url=tcp://localhost:7223
    zone_name=default_mhop_zone
    zone_type=mhop
    outgoing_topic=orders selector="region = 'west'"

``translate`` turns them into the MQSC mqlite runs (``DEFINE TOPIC ... GLOBAL(YES) MAXMSGS(1000)
OVERFLOW(DISCARDOLD)``, ``DEFINE ROUTE(WEST) ZONE(...) ZONETYPE(MHOP) OUTGOING(...) REPLACE``);
``mqlite emsconf`` runs that on a queue manager. The mapping, where EMS and MQ differ:

- EMS names levels with ``.``, MQ topic strings with ``/``: ``orders.west`` is ``orders/west``.
  EMS wildcards become MQ's in route rules (``*`` -> ``+``, ``>`` -> ``#``); in topics.conf only a
  trailing ``.>`` is possible (``orders.>``: the object for ``orders``, whose attributes its
  subtree inherits) and ``>`` alone (SYSTEM.BASE.TOPIC); ``*`` there has no MQ equivalent.
- A route runs over the channels between the two queue managers; ``url`` names where the EMS peer
  listens and is carried over as a comment (the channels' CONNAME).
- EMS topic properties mqlite has no use for (``secure``, ``sender_name``, ``flowControl``...) are
  reported, not applied. An unknown property or key is an error naming its line.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

__all__ = ["EmsConfError", "RouteConf", "TopicConf", "parse_routes", "parse_topics", "topic_string", "translate"]

OVERFLOW_POLICIES = {"default": "DEFAULT", "discardold": "DISCARDOLD", "rejectincoming": "REJECTINCOMING"}
ZONE_TYPES = {"mhop": "MHOP", "1hop": "1HOP"}
DEFAULT_1HOP_ZONE = "DEFAULT_1HOP_ZONE"  # (the default zone, DEFAULT_MHOP_ZONE, is multi-hop)
# EMS topic properties with no mqlite meaning: accepted and reported (not silently dropped).
UNUSED_TOPIC_PROPERTIES = frozenset({
    "secure", "sender_name", "sender_name_enforced", "flowcontrol", "trace", "import", "export", "expiration",
    "channel", "store", "exclusive", "maxredelivery", "redeliverydelay", "prefetch", "compress",
})
UNUSED_ROUTE_KEYS_PREFIX = "ssl_"  # a route's TLS is its channels' (SSLCIPH, SSLPEER)
_MAX_NAME = 48
_SIZE = re.compile(r"(\d+)\s*(KB|MB|GB)?", re.I)
_UNITS = {"": 1, "KB": 1 << 10, "MB": 1 << 20, "GB": 1 << 30}
_NAME_CHARS = re.compile(r"[^A-Z0-9._%]")
_URL = re.compile(r"(?:tcp|ssl)://(?P<host>[^:/]+):(?P<port>\d+)", re.I)


class EmsConfError(ValueError):
    """A line of topics.conf or routes.conf mqlite cannot take, with where it is."""

    def __init__(self, source: str, line: int, text: str) -> None:
        super().__init__(f"{source}:{line}: {text}")
        self.source, self.line, self.text = source, line, text


@dataclass
class TopicConf:
    """One topics.conf entry: the MQ topic string it names and the attributes it sets."""

    ems_name: str
    topic: str  # '' for EMS's '>' (every topic: SYSTEM.BASE.TOPIC)
    attributes: dict[str, str] = field(default_factory=dict)
    unused: list[str] = field(default_factory=list)
    line: int = 0


@dataclass
class RouteConf:
    """One routes.conf section."""

    peer: str
    url: str = ""
    zone: str = ""
    zone_type: str = ""
    outgoing: list[str] = field(default_factory=list)  # rules 'topic [selector="..."]', MQ topic strings
    incoming: list[str] = field(default_factory=list)
    unused: list[str] = field(default_factory=list)
    line: int = 0


def topic_string(ems: str, source: str = "", line: int = 0, wildcards: bool = True) -> str:
    """An EMS topic name (or, with ``wildcards``, pattern) as an MQ topic string."""
    levels = ems.split(".")
    if any(level == "" for level in levels):
        raise EmsConfError(source, line, f"topic {ems!r} has an empty level")
    out = []
    for position, level in enumerate(levels):
        if level == ">" and position == len(levels) - 1 and wildcards:
            out.append("#")
        elif level == "*" and wildcards:
            out.append("+")
        elif "*" in level or ">" in level or "/" in level or "#" in level or "+" in level:
            raise EmsConfError(source, line, f"topic {ems!r}: level {level!r} has no MQ topic string equivalent")
        else:
            out.append(level)
    return "/".join(out)


def _lines(text: str) -> list[tuple[int, str]]:
    return [(number, line.strip()) for number, line in enumerate(text.splitlines(), 1)
            if line.strip() and not line.lstrip().startswith("#")]


def parse_topics(text: str, source: str = "topics.conf") -> list[TopicConf]:
    """``name property[,property=value...]`` per line; ``#`` starts a comment line."""
    entries = []
    for number, line in _lines(text):
        name, _, rest = line.partition(" ")
        name = name.strip()
        if name == ">":
            topic = ""
        elif name.endswith(".>"):
            topic = topic_string(name[:-2], source, number, wildcards=False)
        else:
            topic = topic_string(name, source, number, wildcards=False)
        entry = TopicConf(name, topic, line=number)
        for item in (part.strip() for part in rest.split(",")):
            if item:
                _topic_property(entry, item, source, number)
        entries.append(entry)
    return entries


def _topic_property(entry: TopicConf, item: str, source: str, number: int) -> None:
    key, has_value, value = (part.strip() for part in item.partition("="))
    key_l = key.lower()
    if key_l == "global" and not has_value:
        entry.attributes["GLOBAL"] = "YES"
    elif key_l in ("maxmsgs", "maxbytes") and has_value:
        size = _SIZE.fullmatch(value)
        if size is None or (key_l == "maxmsgs" and size.group(2)):
            kind = "a number of bytes (KB, MB, GB)" if key_l == "maxbytes" else "a number"
            raise EmsConfError(source, number, f"{key}={value}: not {kind}")
        amount = int(size.group(1)) * _UNITS[(size.group(2) or "").upper()]
        if amount > 2**31 - 1:
            raise EmsConfError(source, number, f"{key}={value}: more than 2,147,483,647")
        entry.attributes[key_l.upper()] = str(amount)
    elif key_l == "overflowpolicy" and has_value:
        policy = OVERFLOW_POLICIES.get(value.lower())
        if policy is None:
            raise EmsConfError(source, number, f"overflowPolicy={value}: not default, discardOld or rejectIncoming")
        entry.attributes["OVERFLOW"] = policy
    elif key_l in UNUSED_TOPIC_PROPERTIES:
        entry.unused.append(item)
    else:
        raise EmsConfError(source, number, f"unknown topic property {item!r}")


def parse_routes(text: str, source: str = "routes.conf") -> list[RouteConf]:
    """``[peer]`` sections of ``key=value`` lines."""
    routes: list[RouteConf] = []
    for number, line in _lines(text):
        if line.startswith("["):
            if not line.endswith("]") or not line[1:-1].strip():
                raise EmsConfError(source, number, f"{line!r} is not a [route] header")
            peer = line[1:-1].strip()
            if len(peer) > _MAX_NAME or _NAME_CHARS.search(peer.upper()):
                raise EmsConfError(source, number, f"route {peer!r} is not a queue manager name")
            routes.append(RouteConf(peer, line=number))
            continue
        if not routes:
            raise EmsConfError(source, number, "a setting before the first [route] header")
        key, has_value, value = (part.strip() for part in line.partition("="))
        route, key_l = routes[-1], key.lower()
        if not has_value:
            raise EmsConfError(source, number, f"{line!r} is not key=value")
        if key_l == "url":
            if _URL.fullmatch(value) is None:
                raise EmsConfError(source, number, f"url={value}: not tcp://host:port")
            route.url = value
        elif key_l == "zone_name":
            route.zone = value
        elif key_l == "zone_type":
            zone_type = ZONE_TYPES.get(value.lower())
            if zone_type is None:
                raise EmsConfError(source, number, f"zone_type={value}: not 1hop or mhop")
            route.zone_type = zone_type
        elif key_l in ("outgoing_topic", "incoming_topic"):
            rules = route.outgoing if key_l == "outgoing_topic" else route.incoming
            rules.append(_rule(value, source, number))
        elif key_l.startswith(UNUSED_ROUTE_KEYS_PREFIX):
            route.unused.append(line)
        else:
            raise EmsConfError(source, number, f"unknown route setting {key!r}")
    return routes


def _rule(value: str, source: str, number: int) -> str:
    """``orders.west selector="..."`` -> ``orders/west selector="..."`` (the selector as written)."""
    topic, _, selector = value.partition(" ")
    selector = selector.strip()
    if selector and not re.fullmatch(r'selector\s*=\s*".*"', selector, re.S | re.I):
        raise EmsConfError(source, number, f'{value!r}: the selector is not selector="..."')
    return f"{topic_string(topic, source, number)} {selector}".strip()


def _quoted(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def object_name(topic: str, taken: set[str]) -> str:
    """A topic object name for ``topic``: its levels upper-cased and joined with dots, EMS. in
    front; a hash when it would be too long or is taken."""
    name = "EMS." + _NAME_CHARS.sub("_", topic.upper().replace("/", "."))
    if len(name) > _MAX_NAME or name in taken:
        digest = hashlib.sha1(topic.encode()).hexdigest()[:8].upper()
        name = name[:_MAX_NAME - 9] + "." + digest
    return name


def translate(topics: list[TopicConf], routes: list[RouteConf], existing: Mapping[str, str] | None = None) -> str:
    """The MQSC for ``topics`` and ``routes``. ``existing``: topic string -> the name of a topic
    object that already has it (ALTERed rather than defined again)."""
    existing = dict(existing or {})
    taken = set(existing.values())
    out: list[str] = []
    for entry in topics:
        attrs = " ".join(f"{key}({value})" for key, value in entry.attributes.items())
        out.append(f"* topics.conf line {entry.line}: {entry.ems_name}")
        if entry.unused:
            out.append(f"* not used by mqlite: {', '.join(entry.unused)}")
        if entry.topic == "":
            out.append(f"ALTER TOPIC(SYSTEM.BASE.TOPIC) {attrs}".rstrip())
        elif entry.topic in existing:
            out.append(f"ALTER TOPIC({existing[entry.topic]}) {attrs}".rstrip())
        else:
            name = object_name(entry.topic, taken)
            taken.add(name)
            existing[entry.topic] = name
            out.append(f"DEFINE TOPIC({name}) TOPICSTR({_quoted(entry.topic)}) {attrs}".rstrip())
    for route in routes:
        out.append(f"* routes.conf line {route.line}: [{route.peer}]")
        match = _URL.fullmatch(route.url) if route.url else None
        if match is not None:
            out.append(f"* url {route.url}: the route runs over the channels to {route.peer} "
                       f"(CONNAME('{match['host']}({match['port']})'))")
        if route.unused:
            out.append(f"* not used by mqlite (the channels carry TLS): {'; '.join(route.unused)}")
        words = [f"DEFINE ROUTE({route.peer})"]
        zone = route.zone or (DEFAULT_1HOP_ZONE if route.zone_type == "1HOP" else "")
        if zone:  # (a zone has one type: a 1hop route named no zone goes to a 1hop one of its own)
            words.append(f"ZONE({_quoted(zone.upper())})")
        if route.zone_type:
            words.append(f"ZONETYPE({route.zone_type})")
        for keyword, rules in (("OUTGOING", route.outgoing), ("INCOMING", route.incoming)):
            if rules:
                words.append(f"{keyword}({', '.join(_quoted(rule) for rule in rules)})")
        out.append(" ".join([*words, "REPLACE"]))
    return "\n".join(out) + "\n"
