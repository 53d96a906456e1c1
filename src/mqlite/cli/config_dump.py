"""dmpmqcfg's part that does no I/O: runmqsc's DISPLAY output in, the MQSC that recreates it out.

``records`` reads DISPLAY output into records (keyword -> value, bare keywords such as NOSHARE as
``Flag``s); ``Dump`` turns the records of each object type into IBM's dmpmqcfg commands:
``ALTER QMGR ... FORCE``, ``DEFINE <type>('name') ... REPLACE``, ``SET CHLAUTH(...) ...
ACTION(REPLACE)``, ``SET AUTHREC ... AUTHADD(...)``, written as IBM's tool writes them (one
attribute a line behind ``+``, or ``-o 1line``: one command a line).

What is left out: what DISPLAY shows but no command sets (dates, depths, QMID, CMDLEVEL, a local
queue's DEFTYPE, a subscription's SUBID...), what the queue manager makes by itself (temporary
dynamic queues, the queues of managed subscriptions and of cluster-senders, auto-defined
channels, SUBTYPE(API) and PROXY subscriptions), and what is the replaying queue manager's own
(the default CERTLABL ibmwebspheremq<name>, a subscription's DESTQMGR naming this queue manager,
the queue manager's name in its authority records). Without ``-a`` an object shows only the
attributes where it differs from its type's default object (SYSTEM.DEFAULT.LOCAL.QUEUE, ...),
which a DEFINE copies from, so those come first in their type and are dumped whole, as every
SYSTEM.* object is (REPLACE then makes the new queue manager's copy the same); the types whose
DEFINE starts from fixed defaults rather than from an object (channels, topics, listeners,
subscriptions, routes) are compared with those.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

__all__ = ["DEFAULT_OBJECTS", "Dump", "Flag", "Record", "quote", "records", "render"]


@dataclass(frozen=True)
class Flag:
    """A bare keyword of a DISPLAY record (``NOSHARE``, ``TRIGGER``): an MQSC on/off attribute."""

    keyword: str


Value = str | Flag
Record = dict[str, Value]

_HEADER = re.compile(r"^AMQ\d{4}[IEW]?:")
_ECHO = re.compile(r"^\s*(\d+ )?: ")
# Bare keywords and the attribute each one sets (its positive name).
_FLAGS = {"SHARE": "SHARE", "NOSHARE": "SHARE", "TRIGGER": "TRIGGER", "NOTRIGGER": "TRIGGER",
          "HARDENBO": "HARDENBO", "NOHARDENBO": "HARDENBO", "SYNCPT": "SYNCPT"}


def records(lines: Iterable[str]) -> list[Record]:
    """The records of runmqsc's DISPLAY output: one per AMQ header, keyword -> value; a value is
    as DISPLAY printed it (blank as ``""``), bare keywords under their attribute's name."""
    found: list[Record] = []
    text: list[str] | None = None
    for line in lines:
        if _HEADER.match(line):
            if text is not None:
                found.append(_parse(text))
            text = [] if line.rstrip().endswith(("details.", "inquired.")) else None
        elif text is not None and line.startswith(" ") and not _ECHO.match(line):
            text.append(line)
        elif text is not None:
            found.append(_parse(text))
            text = None
    if text is not None:
        found.append(_parse(text))
    return found


_ITEM = re.compile(r"([A-Z][A-Z0-9]*)(?:\((.*)\))?", re.S)
_STARTS_ITEM = re.compile(r"[A-Z][A-Z0-9]*(\(|$)")
_COLUMN = 43  # DISPLAY's layout: three blanks, the left item padded to 40, the right item


def _parse(lines: Sequence[str]) -> Record:
    """One record's lines into keyword -> value. DISPLAY prints values unquoted, so an item is
    found by the layout (two to a line, the right one at column 43, or one alone) and its value
    is everything between its first ``(`` and its last ``)``: parentheses in a value need not
    balance. A namelist's NAMES goes on over lines that start with a comma."""
    items: list[str] = []
    for line in lines:
        body = line[3:] if line.startswith("   ") else line.strip()
        if body.lstrip().startswith(",") and items:
            items[-1] += body.strip()
            continue
        left, right = line[3:_COLUMN], line[_COLUMN:]
        if (len(line) > _COLUMN and left.endswith(" ") and _STARTS_ITEM.match(right)
                and _ITEM.fullmatch(left.rstrip())):
            items += [left.rstrip(), right.rstrip()]
        else:
            items.append(body.rstrip())
    record: Record = {}
    for text in items:
        match = _ITEM.fullmatch(text.strip())
        if match is None:
            continue  # not DISPLAY's layout: nothing to read
        key, value = match[1], match[2]
        if value is None:
            record[_FLAGS.get(key, key)] = Flag(key)
        else:
            record[key] = value.strip()
    return record


# -- values as MQSC ---------------------------------------------------------------------------
_BARE = re.compile(r"-?\d+|[A-Z][A-Z0-9]*")


def quote(value: str) -> str:
    """A value as a command gives it: numbers and upper-case tokens bare (``YES``, ``5000``),
    anything else quoted (``'APP.IN'``, ``'it''s'``), a blank as IBM writes it, ``' '``."""
    if _BARE.fullmatch(value):
        return value
    return "'" + (value or " ").replace("'", "''") + "'"


# Attributes that hold lists, per type; a route rule (OUTGOING) is an item with commas of its own.
_LISTS: Mapping[str, frozenset[str]] = {
    "NAMELIST": frozenset({"NAMES"}), "ROUTE": frozenset({"OUTGOING", "INCOMING"}),
    "CHLAUTH": frozenset({"USERLIST", "ADDRLIST"}), "CHANNEL": frozenset({"PROTOCOL"}),
}


def _items(text: str, rules: bool) -> list[str]:
    """A list value's items: split at commas (a route rule's only outside its double quotes)."""
    if not rules:
        return [item.strip() for item in text.split(",") if item.strip()]
    items, current, quoted = [], "", False
    for char in text:
        if char == '"':
            quoted = not quoted
        if char == "," and not quoted:
            items.append(current.strip())
            current = ""
        else:
            current += char
    items.append(current.strip())
    return [item for item in items if item]


def item(objtype: str, key: str, value: Value) -> str:
    """``KEY(value)`` as MQSC, or the bare keyword of a flag."""
    if isinstance(value, Flag):
        return value.keyword
    if key in _LISTS.get(objtype, ()):
        listed = _items(value, rules=objtype == "ROUTE")
        return f"{key}({','.join(quote(i) for i in listed) or quote('')})"
    return f"{key}({quote(value)})"


# -- what each type leaves out ------------------------------------------------------------------
_DATES = frozenset({"CRDATE", "CRTIME", "ALTDATE", "ALTTIME"})
_SKIP: Mapping[str, frozenset[str]] = {
    "QMGR": _DATES | {"QMNAME", "QMID", "CMDLEVEL", "PLATFORM", "COMMANDQ", "SYNCPT", "DISTL", "MAXPRTY"},
    "QUEUE": _DATES | {"QUEUE", "TYPE", "CURDEPTH", "IPPROCS", "OPPROCS"},
    "TOPIC": _DATES | {"TOPIC", "TYPE"},
    "SUB": _DATES | {"SUB", "SUBID", "DURABLE", "SUBTYPE", "RESOLVED"},
    "CHANNEL": _DATES | {"CHANNEL", "CHLTYPE"},
    "NAMELIST": _DATES | {"NAMELIST", "NAMCOUNT"},
    "LISTENER": _DATES | {"LISTENER"},
    "AUTHINFO": _DATES | {"AUTHINFO", "AUTHTYPE"},
    "ROUTE": _DATES | {"ROUTE"},
    "CHLAUTH": _DATES | {"CHLAUTH", "TYPE", "CUSTOM"},
}
# The object a DEFINE without LIKE copies its defaults from (mqlite's, as IBM's).
_DEFAULT_OBJECT = {"QLOCAL": "SYSTEM.DEFAULT.LOCAL.QUEUE", "QMODEL": "SYSTEM.DEFAULT.MODEL.QUEUE",
                   "QALIAS": "SYSTEM.DEFAULT.ALIAS.QUEUE", "QREMOTE": "SYSTEM.DEFAULT.REMOTE.QUEUE",
                   "NAMELIST": "SYSTEM.DEFAULT.NAMELIST", "AUTHINFO": "SYSTEM.DEFAULT.AUTHINFO.IDPWOS"}
DEFAULT_OBJECTS = _DEFAULT_OBJECT
# What a DEFINE without LIKE gives the types that start from fixed defaults rather than from an
# object (mqlite's catalogue, as DISPLAY shows it; tests/unit/test_config_dump.py checks it against
# the catalogue). A channel has its own type's attributes of these; some types need SSLCAUTH.
_FIXED_DEFAULTS: Mapping[str, Mapping[str, str]] = {
    "CHANNEL": {
        "TRPTYPE": "TCP", "DESCR": "", "PORT": "1883", "LOCLADDR": "", "BACKLOG": "4096",
        "PROTOCOL": "MQTTV311,MQTTV3,MQTTV5,HTTP", "MCAUSER": "", "USECLTID": "NO", "CHCKCLNT": "OPTIONAL",
        "MAXINST": "999999999", "MAXINSTC": "999999999", "SHARECNV": "10", "HBINT": "300", "KAINT": "AUTO",
        "MAXMSGL": "4194304", "SSLCIPH": "", "SSLCAUTH": "NEVER", "SSLPEER": "", "CERTLABL": "", "SSLKEYR": "",
        "SSLKEYP": "", "JAASCFG": "", "CONNAME": "", "XMITQ": "", "BATCHSZ": "50", "BATCHINT": "0",
        "BATCHLIM": "5000", "BATCHHB": "0", "DISCINT": "6000", "SHORTRTY": "10", "SHORTTMR": "60",
        "LONGRTY": "999999999", "LONGTMR": "1200", "SEQWRAP": "999999999", "NPMSPEED": "FAST", "PUTAUT": "DEF",
        "CONVERT": "NO", "USEDLQ": "YES", "MRRTY": "10", "MRTMR": "1000", "CLUSTER": "", "CLUSNL": "",
        "NETPRTY": "0", "CLWLRANK": "0", "CLWLPRTY": "0", "CLWLWGHT": "50", "STATCHL": "QMGR",
    },
    "TOPIC": {
        "TOPICSTR": "", "DESCR": "", "CLUSTER": "", "DURSUB": "ASPARENT", "PUB": "ASPARENT", "SUB": "ASPARENT",
        "DEFPRTY": "ASPARENT", "DEFPERSIST": "ASPARENT", "DEFPRESP": "ASPARENT", "MDURMDL": "", "MNDURMDL": "",
        "NPMSGDLV": "ASPARENT", "PMSGDLV": "ASPARENT", "PUBSCOPE": "ASPARENT", "SUBSCOPE": "ASPARENT",
        "PROXYSUB": "FIRSTUSE", "WILDCARD": "PASSTHRU", "MASTER": "YES", "CLROUTE": "DIRECT", "GLOBAL": "ASPARENT",
        "MAXMSGS": "ASPARENT", "MAXBYTES": "ASPARENT", "OVERFLOW": "ASPARENT",
    },
    "LISTENER": {"TRPTYPE": "TCP", "DESCR": "", "PORT": "1414", "IPADDR": "", "BACKLOG": "0", "CONTROL": "MANUAL"},
    "SUB": {
        "TOPICSTR": "", "TOPICOBJ": "", "DEST": "", "DESTQMGR": "", "DESTCORL": "", "DESTCLAS": "PROVIDED",
        "EXPIRY": "UNLIMITED", "PSPROP": "MSGPROP", "PUBACCT": "", "PUBAPPID": "", "PUBPRTY": "ASPUB",
        "REQONLY": "NO", "SELECTOR": "", "SUBLEVEL": "1", "SUBSCOPE": "ALL", "SUBUSER": "", "USERDATA": "",
        "VARUSER": "ANY", "WSCHEMA": "TOPIC",
    },
    "ROUTE": {"DESCR": "", "ZONE": "DEFAULT_MHOP_ZONE", "ZONETYPE": "MHOP", "OUTGOING": "", "INCOMING": ""},
}
_SSLCAUTH_REQUIRED = frozenset({"SVRCONN", "SVR", "RCVR", "RQSTR", "CLUSRCVR"})
_QUEUE_TYPES = ("QLOCAL", "QMODEL", "QALIAS", "QREMOTE")
# Channels in the order a replay wants them: receiving ends before the senders that reach them.
_CHANNEL_ORDER = ("SVRCONN", "RCVR", "RQSTR", "CLUSRCVR", "SDR", "SVR", "CLUSSDR", "CLNTCONN", "MQTT")
_MADE_BY_QMGR = ("SYSTEM.MANAGED.", "SYSTEM.CLUSTER.TRANSMIT.")  # their dynamic queues
_NO_PUBACCT = "0" * 64


@dataclass
class Dump:
    """The commands of one queue manager's configuration, built from its DISPLAY records.

    ``all_attributes`` is dmpmqcfg's ``-a``; ``qmgr`` the name of the queue manager dumped.
    ``commands`` collects (head, items, tail) triples in the order a replay needs them.
    """

    qmgr: str
    all_attributes: bool = False
    commands: list[tuple[str, list[str], str]] = field(default_factory=list)
    setmqaut: list[str] = field(default_factory=list)  # the authority records as setmqaut commands (-o setmqaut)

    # -- the queue manager ---------------------------------------------------------------
    def add_qmgr(self, record: Record) -> None:
        items = []
        for key, value in record.items():
            if key in _SKIP["QMGR"]:
                continue
            if key == "CERTLABL" and value == "ibmwebspheremq" + self.qmgr.lower():
                continue  # crtmqm's label of this queue manager: the new one has its own
            items.append(item("QMGR", key, value))
        self.commands.append(("ALTER QMGR", sorted(items), "FORCE"))

    # -- objects -------------------------------------------------------------------------
    def add_queues(self, found: Sequence[Record], only: str | None = None,
                   defaults: Sequence[Record] = ()) -> None:
        """Queues of every type (or ``only`` one), local ones first; each compared with its type's
        default object, from ``found`` or (when a name filter left it out) ``defaults``."""
        kept = [r for r in found if _kept_queue(r)]
        by_name = {str(r.get("QUEUE")): r for r in (*defaults, *kept)}
        for qtype in (only,) if only else _QUEUE_TYPES:
            typed = [r for r in kept if r.get("TYPE") == qtype]
            self._objects(qtype, "QUEUE", "QUEUE", typed, by_name.get(_DEFAULT_OBJECT[qtype]))

    def add_objects(self, objtype: str, found: Sequence[Record], defaults: Sequence[Record] = ()) -> None:
        """NAMELIST, TOPIC, LISTENER, AUTHINFO, ROUTE: ``DEFINE <objtype>('name') ... REPLACE``."""
        if objtype in _DEFAULT_OBJECT:
            template = next((r for r in (*found, *defaults) if r.get(objtype) == _DEFAULT_OBJECT[objtype]), None)
            self._objects(objtype, objtype, objtype, found, template)
        else:
            self._objects(objtype, objtype, objtype, found, None, _FIXED_DEFAULTS.get(objtype))

    def add_channels(self, found: Sequence[Record]) -> None:
        def rank(record: Record) -> tuple[bool, int, str]:
            chltype = str(record.get("CHLTYPE", ""))
            order = _CHANNEL_ORDER.index(chltype) if chltype in _CHANNEL_ORDER else len(_CHANNEL_ORDER)
            name = str(record.get("CHANNEL", ""))
            return (not name.startswith("SYSTEM."), order, name)

        for record in sorted(found, key=rank):
            chltype = str(record.get("CHLTYPE", ""))
            defaults = dict(_FIXED_DEFAULTS["CHANNEL"])
            if chltype in _SSLCAUTH_REQUIRED:
                defaults["SSLCAUTH"] = "REQUIRED"
            self._define("CHANNEL", "CHANNEL", "CHANNEL", record, defaults, [f"CHLTYPE({chltype})"])

    def add_subs(self, found: Sequence[Record]) -> None:
        for record in sorted(found, key=lambda r: str(r.get("SUB", ""))):
            if record.get("SUBTYPE", "ADMIN") != "ADMIN":
                continue
            trimmed = dict(record)
            if trimmed.get("DESTQMGR") == self.qmgr:
                trimmed.pop("DESTQMGR")  # this queue manager: the new one is itself
            if trimmed.get("DESTCORL") == trimmed.get("SUBID"):
                trimmed.pop("DESTCORL")  # the default: the subscription's own id
            if trimmed.get("PUBACCT") == _NO_PUBACCT:
                trimmed.pop("PUBACCT")
            if trimmed.get("DESTCLAS") == "MANAGED":
                trimmed.pop("DEST", None)  # the queue the queue manager made for it
            self._define("SUB", "SUB", "SUB", trimmed, _FIXED_DEFAULTS["SUB"], [])

    def _objects(self, objtype: str, noun: str, name_key: str, found: Sequence[Record],
                 template: Record | None, fixed: Mapping[str, Value] | None = None) -> None:
        """Each object as a DEFINE: ``template`` (its type's default object) first, then SYSTEM.*
        ones, then the rest, by name; compared with ``template``, or with ``fixed`` defaults."""
        def rank(record: Record) -> tuple[bool, bool, str]:
            name = str(record.get(name_key, ""))
            return (record is not template, not name.startswith("SYSTEM."), name)

        for record in sorted(found, key=rank):
            first = [f"AUTHTYPE({record.get('AUTHTYPE')})"] if objtype == "AUTHINFO" else []
            self._define(objtype, noun if noun != "QUEUE" else objtype, name_key, record,
                         template if template is not None else fixed, first)

    def _define(self, objtype: str, noun: str, name_key: str, record: Record, defaults: Mapping[str, Value] | None,
                first: list[str]) -> None:
        """``DEFINE noun('name') ... REPLACE``: every attribute a command sets, or (not ``-a``, not a
        SYSTEM.* object) those that differ from ``defaults`` (blank ones when there are none)."""
        name = str(record.get(name_key, ""))
        family = "QUEUE" if name_key == "QUEUE" else objtype
        whole = self.all_attributes or name.startswith("SYSTEM.")
        items = []
        for key, value in record.items():
            if key in _SKIP[family] or (objtype == "QLOCAL" and key == "DEFTYPE"):
                continue
            if not whole:
                if defaults is not None and _same(defaults.get(key), value):
                    continue
                if defaults is None and value == "":
                    continue
            items.append(item(objtype, key, value))
        self.commands.append((f"DEFINE {noun}({quote_name(name)})", first + sorted(items), "REPLACE"))

    # -- security ------------------------------------------------------------------------
    def add_chlauth(self, found: Sequence[Record]) -> None:
        for record in sorted(found, key=lambda r: (str(r.get("CHLAUTH", "")), str(r.get("TYPE", "")))):
            items = [f"TYPE({record.get('TYPE', '')})"]
            items += [item("CHLAUTH", key, value) for key, value in record.items()
                      if key not in _SKIP["CHLAUTH"] and value != ""]
            self.commands.append((f"SET CHLAUTH({quote_name(str(record.get('CHLAUTH', '')))})", items,
                                  "ACTION(REPLACE)"))

    def add_authrecs(self, found: Sequence[Record]) -> None:
        def rank(record: Record) -> tuple[str, str, str, str]:
            return tuple(str(record.get(k, "")) for k in ("OBJTYPE", "PROFILE", "ENTTYPE", "ENTITY"))  # type: ignore[return-value]

        for record in sorted(found, key=rank):
            objtype = str(record.get("OBJTYPE", ""))
            authorities = [a for a in _items(str(record.get("AUTHLIST", "")), False) if a != "NONE"]
            if not authorities:
                continue
            entity = "PRINCIPAL" if record.get("ENTTYPE") == "PRINCIPAL" else "GROUP"
            items = [] if objtype == "QMGR" else [f"PROFILE({quote_name(str(record.get('PROFILE', '')))})"]
            items += [f"OBJTYPE({objtype})", f"{entity}({quote_name(str(record.get('ENTITY', '')))})"]
            self.commands.append(("SET AUTHREC", items, f"AUTHADD({','.join(sorted(authorities))})"))
            flag = "-p" if entity == "PRINCIPAL" else "-g"
            name = "" if objtype == "QMGR" else f" -n {quote_name(str(record.get('PROFILE', '')))}"
            grants = " ".join(f"+{a.lower()}" for a in sorted(authorities))
            self.setmqaut.append(f"setmqaut -m {self.qmgr}{name} -t {objtype.lower()} {flag} "
                                 f"{record.get('ENTITY', '')} {grants}")


def quote_name(name: str) -> str:
    """An object name as dmpmqcfg writes it: always quoted, so its case is kept."""
    return "'" + name.replace("'", "''") + "'"


def _same(default: Value | None, value: Value) -> bool:
    if isinstance(default, Flag) or isinstance(value, Flag):
        return default == value
    return default is not None and default.strip() == value.strip()


def _kept_queue(record: Record) -> bool:
    deftype = record.get("DEFTYPE")
    if record.get("TYPE") == "QLOCAL" and deftype in ("TEMPDYN", "SHAREDYN"):
        return False  # a connection's queue, gone with it
    return not (deftype == "PERMDYN" and record.get("TYPE") == "QLOCAL"
                and str(record.get("QUEUE", "")).startswith(_MADE_BY_QMGR))


# -- the text ---------------------------------------------------------------------------------
def render(commands: Iterable[tuple[str, list[str], str]], one_line: bool = False) -> Iterator[str]:
    """The commands as dmpmqcfg prints them: each attribute on its own line behind ``+``, three
    blanks in (SET CHLAUTH and SET AUTHREC on one line); ``one_line`` (``-o 1line``) puts every
    command on one line."""
    for head, items, tail in commands:
        parts = [*items, tail] if tail else items
        if one_line or head.startswith("SET "):  # IBM writes its SET commands on one line
            yield " ".join([head, *parts])
            continue
        if not parts:
            yield head
            continue
        yield head + " +"
        for index, part in enumerate(parts):
            yield "   " + part + (" +" if index < len(parts) - 1 else "")


def header(qmgr: str, when: str, clock: str, user: str, host: str, platform: str, cmdlevel: str,
           command: str) -> list[str]:
    """IBM's comment block at the top of a dump."""
    rule = "*" * 79
    return [rule, f"* Script generated on {when}   at {clock}", f"* Script generated by user '{user}' on host '{host}'",
            f"* Queue manager name: {qmgr}", f"* Queue manager platform: {platform}",
            f"* Queue manager command level: ({cmdlevel}/{cmdlevel})", f"* Command issued: {command}", rule]
