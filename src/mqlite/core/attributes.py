"""The attribute catalogue of every object type: names, kinds, ranges, defaults, MQSC spellings.

Why one table: MQSC (DEFINE/ALTER/DISPLAY), the MQI (MQINQ/MQSET selectors) and the core engine
must agree on what an attribute is called, which values it takes and what a fresh object holds.
Keeping that knowledge here, as data, lets the core stay free of parsing and lets new object
types (CHANNEL, LISTENER, NAMELIST, SUB...) arrive as more table entries rather than more code.

Canonical value representation (what :func:`validate` returns and the core stores):

* integers as ``int``; a few integers also take a token (``MAXPROPL(NOLIMIT)``, a topic's
  ``DEFPRTY(ASPARENT)``), kept as that upper-case token;
* enumerations as the upper-case MQSC token (``"ENABLED"``, ``"TEMPDYN"``);
* MQSC on/off keyword pairs (``SHARE``/``NOSHARE``) as ``bool`` under the positive name;
* strings as ``str`` with trailing blanks removed (IBM pads with blanks, so ``' '`` is blank);
* lists (namelist names) as ``list[str]``.
"""

from __future__ import annotations

import re
import time
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, Final

from mqlite.core.attribute_spec import MAXINT as _MAXINT

# The catalogue's vocabulary, re-exported: callers know it as attributes.Attr, .Kind, ...
from mqlite.core.attribute_spec import Attr as Attr
from mqlite.core.attribute_spec import InvalidAttribute as InvalidAttribute
from mqlite.core.attribute_spec import Kind as Kind
from mqlite.core.attribute_spec import Role as Role
from mqlite.core.attribute_spec import enum_attr as _e
from mqlite.core.attribute_spec import flag_attr as _f
from mqlite.core.attribute_spec import int_attr as _i
from mqlite.core.attribute_spec import str_attr as _s
from mqlite.core.channel_attributes import AUTHINFO, CHANNEL, LISTENER
from mqlite.core.errors import MQError

# Reason codes used here (IBM numbers; cmqc.py is the public home of the full set).
MQRC_SELECTOR_ERROR: Final = 2067
MQRCCF_PARM_SYNTAX_ERROR: Final = 3097
MQRCCF_PARM_VALUE_ERROR: Final = 3229
MQRCCF_OBJECT_NAME_ERROR: Final = 4008


_ENDIS = "ENABLED=0 DISABLED=1"  # PUT/GET: MQQA_*_ALLOWED=0, MQQA_*_INHIBITED=1
_EVENT = "DISABLED=0 ENABLED=1"
_MON = "NONE=-1 OFF=0 LOW=17 MEDIUM=33 HIGH=65"

# --- queue attributes, shared by the queue types that have them -------------------------------
DESCR_Q = _s("DESCR", "", 2013, 64)
PUT = _e("PUT", "ENABLED", _ENDIS, 10)
GET = _e("GET", "ENABLED", _ENDIS, 9)
DEFPRTY = _i("DEFPRTY", 0, 6, 0, 9)
DEFPSIST = _e("DEFPSIST", "NO", "NO=0 YES=1", 5)
DEFPRESP = _e("DEFPRESP", "SYNC", "SYNC=1 ASYNC=2", 184)
DEFREADA = _e("DEFREADA", "NO", "NO=0 YES=1 DISABLED=2", 188)
DEFBIND = _e("DEFBIND", "OPEN", "OPEN=0 NOTFIXED=1 GROUP=2", 61)
PROPCTL = _e("PROPCTL", "COMPAT", "COMPAT=0 NONE=1 ALL=2 FORCE=3 V6COMPAT=4", 190)
SCOPE = _e("SCOPE", "QMGR", "QMGR=1 CELL=2", 45)
CLUSTER = _s("CLUSTER", "", 2029)
CLUSNL = _s("CLUSNL", "", 2030)
CLWLPRTY = _i("CLWLPRTY", 0, 96, 0, 9)
CLWLRANK = _i("CLWLRANK", 0, 95, 0, 9)

_LOCAL_COMMON = (
    DESCR_Q, PUT, GET, DEFPRTY, DEFPSIST, DEFPRESP, DEFREADA, PROPCTL,
    _i("MAXDEPTH", 5000, 15),
    _i("MAXMSGL", 4_194_304, 13, 0, 104_857_600),
    _f("SHARE", "NOSHARE", True, 23),
    _e("DEFSOPT", "SHARED", "SHARED=2 EXCL=4", 4),
    _e("MSGDLVSQ", "PRIORITY", "PRIORITY=0 FIFO=1", 16),
    _i("BOTHRESH", 0, 22),
    _s("BOQNAME", "", 2019),
    _f("HARDENBO", "NOHARDENBO", False, 8),
    _e("USAGE", "NORMAL", "NORMAL=0 XMITQ=1", 12),
    _f("TRIGGER", "NOTRIGGER", False, 24),
    _e("TRIGTYPE", "FIRST", "NONE=0 FIRST=1 EVERY=2 DEPTH=3", 28),
    _i("TRIGDPTH", 1, 29, 1),
    _i("TRIGMPRI", 0, 26, 0, 9),
    _s("TRIGDATA", "", 2023, 64),
    _s("INITQ", "", 2008),
    _s("PROCESS", "", 2012),
    _i("RETINTVL", _MAXINT, 21),
    _i("QDEPTHHI", 80, 40, 0, 100),
    _i("QDEPTHLO", 20, 41, 0, 100),
    _e("QDPHIEV", "DISABLED", _EVENT, 43),
    _e("QDPLOEV", "DISABLED", _EVENT, 44),
    _e("QDPMAXEV", "ENABLED", _EVENT, 42),
    _e("QSVCIEV", "NONE", "NONE=0 HIGH=1 OK=2", 46),
    _i("QSVCINT", _MAXINT, 54),
    _e("NPMCLASS", "NORMAL", "NORMAL=0 HIGH=10", 78),
    _e("MONQ", "QMGR", "QMGR=-3 OFF=0 LOW=17 MEDIUM=33 HIGH=65", 123),
    _e("STATQ", "QMGR", "QMGR=-3 OFF=0 ON=1", 128),
    _e("ACCTQ", "QMGR", "QMGR=-3 OFF=0 ON=1", 134),
    _e("DISTL", "NO", "NO=0 YES=1", 34),
)
_DEFTYPE_TOKENS = "PREDEFINED=1 PERMDYN=2 TEMPDYN=3 SHAREDYN=4"

_QLOCAL = (
    *_LOCAL_COMMON,
    _e("DEFTYPE", "PREDEFINED", _DEFTYPE_TOKENS, 7, ro=True),
    SCOPE, CLUSTER, CLUSNL, DEFBIND, CLWLPRTY, CLWLRANK,
    _e("CLWLUSEQ", "QMGR", "LOCAL=0 ANY=1 QMGR=-3", 98),
    _s("CLCHNAME", "", 2124),
)
_QMODEL = (*_LOCAL_COMMON, _e("DEFTYPE", "TEMPDYN", _DEFTYPE_TOKENS, 7))
_QALIAS = (
    DESCR_Q, PUT, GET, DEFPRTY, DEFPSIST, DEFPRESP, DEFREADA, SCOPE, CLUSTER, CLUSNL, DEFBIND,
    PROPCTL, CLWLPRTY, CLWLRANK,
    _s("TARGET", "", 2002, alias=("TARGQ",)),
    _e("TARGTYPE", "QUEUE", "QUEUE=1 TOPIC=8", 193),
)
_QREMOTE = (
    DESCR_Q, PUT, DEFPRTY, DEFPSIST, DEFPRESP, SCOPE, CLUSTER, CLUSNL, DEFBIND, CLWLPRTY, CLWLRANK,
    _s("RNAME", "", 2018), _s("RQMNAME", "", 2017), _s("XMITQ", "", 2024),
)

_QMGR = (
    _s("DESCR", "", 2014, 64),
    _s("DEADQ", "", 2006), _s("DEFXMITQ", "", 2025),
    _i("MAXMSGL", 4_194_304, 13, 32_768, 104_857_600),
    _i("MAXHANDS", 256, 11), _i("MAXUMSGS", 10_000, 33, 1),
    _i("MAXPRTY", 9, 14, ro=True), _i("CMDLEVEL", 700, 31, ro=True),
    _e("SCMDSERV", "QMGR", "QMGR=0 MANUAL=2", 120),  # the command server starts with the queue manager
    _e("PLATFORM", "UNIX", "UNIX=3", 32, ro=True),
    _s("COMMANDQ", "SYSTEM.ADMIN.COMMAND.QUEUE", 2003, ro=True),
    _f("SYNCPT", "", True, 30, ro=True),
    _e("DISTL", "YES", "NO=0 YES=1", 34, ro=True),
    _i("CCSID", 1208, 2, 1, 65535),
    _e("PSMODE", "ENABLED", "DISABLED=0 COMPAT=1 ENABLED=2", 187),
    _i("PSRTYCNT", 5, 206),
    _e("PSNPMSG", "DISCARD", "DISCARD=2 KEEP=3", 203),
    _e("PSNPRES", "NORMAL", "NORMAL=0 SAFE=1 DISCARD=2 KEEP=3", 205),
    _e("PSSYNCPT", "IFPER", "YES=0 IFPER=1", 207),
    _i("TREELIFE", 1800, 183, 0, 604_000),
    _s("PARENT", "", 2102),
    _e("PSCLUS", "ENABLED", "DISABLED=0 ENABLED=1", 249),
    _s("REPOS", "", 2035), _s("REPOSNL", "", 2036),
    _e("CHAD", "DISABLED", _EVENT, 55), _e("CHADEV", "DISABLED", _EVENT, 56),
    _s("CHADEXIT", "", 2026, 128),
    _e("AUTHOREV", "DISABLED", _EVENT, 47), _e("INHIBTEV", "DISABLED", _EVENT, 48),
    _e("LOCALEV", "DISABLED", _EVENT, 49), _e("REMOTEEV", "DISABLED", _EVENT, 50),
    _e("PERFMEV", "DISABLED", _EVENT, 53), _e("STRSTPEV", "ENABLED", _EVENT, 52),
    _e("CHLEV", "DISABLED", "DISABLED=0 ENABLED=1 EXCEPTION=2", 73),
    _e("SSLEV", "DISABLED", _EVENT, 75), _e("CONFIGEV", "DISABLED", _EVENT, 51),
    _e("CMDEV", "DISABLED", "DISABLED=0 ENABLED=1 NODISPLAY=3", 99),
    _e("LOGGEREV", "DISABLED", _EVENT, 94),
    _e("MONQ", "OFF", _MON, 123), _e("MONCHL", "OFF", _MON, 122),
    _e("MONACLS", "QMGR", "QMGR=-3 NONE=-1 LOW=17 MEDIUM=33 HIGH=65", 124),
    _e("STATQ", "OFF", "NONE=-1 OFF=0 ON=1", 128), _e("STATCHL", "OFF", _MON, 129),
    _e("STATACLS", "QMGR", "QMGR=-3 NONE=-1 LOW=17 MEDIUM=33 HIGH=65", 130),
    _e("STATMQI", "OFF", "OFF=0 ON=1", 127), _i("STATINT", 1800, 131, 1, 604_800),
    _e("ACCTQ", "OFF", "NONE=-1 OFF=0 ON=1", 134), _e("ACCTMQI", "OFF", "OFF=0 ON=1", 133),
    _i("ACCTINT", 1800, 135, 1, 604_800), _e("ACCTCONO", "DISABLED", _EVENT, 136),
    _e("ACTIVREC", "MSG", "DISABLED=0 QUEUE=1 MSG=2", 138),
    _e("ROUTEREC", "MSG", "DISABLED=0 QUEUE=1 MSG=2", 137),
    _i("MAXPROPL", "NOLIMIT", 192, 0, 104_857_600, "NOLIMIT=-1"),
    _i("MARKINT", 5000, 68, tokens="NOLIMIT=-1"),
    _e("CLWLUSEQ", "LOCAL", "LOCAL=0 ANY=1", 98),
    _s("CLWLDATA", "", 2034, 32), _s("CLWLEXIT", "", 2033, 128),
    _i("CLWLLEN", 100, 58), _i("CLWLMRUC", _MAXINT, 97, 1),
    _e("DEFCLXQ", "SCTQ", "SCTQ=0 CHANNEL=1", 250),
    _i("TRIGINT", _MAXINT, 25),
    _e("IPADDRV", "IPV4", "IPV4=0 IPV6=1", 93),
    _s("SSLKEYR", "", 2049, 256), _s("CERTLABL", "", 2121, 64), _s("SSLCRLNL", "", 2050),
    _s("SSLCRYP", "", 2051, 256), _e("SSLFIPS", "NO", "NO=0 YES=1", 92), _i("SSLRKEYC", 0, 76),
    _e("CHLAUTH", "ENABLED", "DISABLED=0 ENABLED=1", 248),  # channel authentication records in force
    _s("CONNAUTH", "SYSTEM.DEFAULT.AUTHINFO.IDPWOS", 2125),  # the AUTHINFO connections are checked by
)

# Topic objects (spec A §10-12). Most attributes default to ASPARENT; blank strings inherit too.
# Names and values follow spec A's decision A-25 (DEFPERSIST, PUB(ENABLE)); IBM's spellings
# (DEFPSIST, ENABLED) are accepted as synonyms.
_ASP_DLV = "ASPARENT=0 ALL=1 ALLDUR=2 ALLAVAIL=3"
_PUBSUB = "ASPARENT=0 INHIBITED=1 ENABLE=2"
_PUBSUB_SYN = "ENABLED=ENABLE INHIBIT=INHIBITED DISABLED=INHIBITED DISABLE=INHIBITED"
_SCOPE_T = "ASPARENT=1 QMGR=4 ALL=0"
# MAXBYTES takes EMS's suffixes (topics.conf "maxbytes=10MB") and an MQLONG's range.
_BYTE_UNITS = {"KB": 1024, "MB": 1024**2, "GB": 1024**3}
_MQLONG_MAX = 2**31 - 1

_TOPIC = (
    _s("TOPICSTR", "", 2094, 10_240),
    _s("DESCR", "", 2093, 64),
    CLUSTER,
    _e("DURSUB", "ASPARENT", "ASPARENT=0 YES=1 NO=2", 175),
    _e("PUB", "ASPARENT", _PUBSUB, 181, _PUBSUB_SYN),
    _e("SUB", "ASPARENT", _PUBSUB, 182, _PUBSUB_SYN),
    _i("DEFPRTY", "ASPARENT", 6, 0, 9, "ASPARENT=-2"),
    _e("DEFPERSIST", "ASPARENT", "ASPARENT=-1 NO=0 YES=1", 185, alias=("DEFPSIST",)),
    _e("DEFPRESP", "ASPARENT", "ASPARENT=0 SYNC=1 ASYNC=2", 184),
    _s("MDURMDL", "", 2096), _s("MNDURMDL", "", 2097),
    _e("NPMSGDLV", "ASPARENT", _ASP_DLV, 196, alias=("NPMMSGDLV",)),
    _e("PMSGDLV", "ASPARENT", _ASP_DLV, 195),
    _e("PUBSCOPE", "ASPARENT", _SCOPE_T, 219), _e("SUBSCOPE", "ASPARENT", _SCOPE_T, 218),
    _e("PROXYSUB", "FIRSTUSE", "FIRSTUSE=2 FORCE=1", 199),
    _e("WILDCARD", "PASSTHRU", "PASSTHRU=2 BLOCK=1", 216),
    _e("MASTER", "YES", "NO=0 YES=1"),
    _e("CLROUTE", "DIRECT", "DIRECT=0 TOPICHOST=1", 255),
    # EMS-style route properties of a topic (B §23, A-57, A-58): routed only when GLOBAL on both
    # servers; MAXMSGS / MAXBYTES (0: none) bound what each subscriber, internal ones too, holds.
    _e("GLOBAL", "ASPARENT", "ASPARENT=0 YES=1 NO=2"),
    _i("MAXMSGS", "ASPARENT", None, 0, _MAXINT, "ASPARENT=-2"),
    replace(_i("MAXBYTES", "ASPARENT", None, 0, _MQLONG_MAX, "ASPARENT=-2"), units=_BYTE_UNITS),
    _e("OVERFLOW", "ASPARENT", "ASPARENT=0 DEFAULT=1 DISCARDOLD=2 REJECTINCOMING=3"),
)

#: What DISPLAY TOPIC(SYSTEM.BASE.TOPIC) shows on a fresh queue manager (spec A §10.1, TV-SB).
SYSTEM_BASE_TOPIC: Final[Mapping[str, Any]] = {
    "TOPICSTR": "", "DESCR": "Base topic for resolving attributes", "CLUSTER": "",
    "DURSUB": "YES", "PUB": "ENABLE", "SUB": "ENABLE", "DEFPRTY": 0, "DEFPERSIST": "NO",
    "DEFPRESP": "SYNC", "MDURMDL": "SYSTEM.DURABLE.MODEL.QUEUE",
    "MNDURMDL": "SYSTEM.NDURABLE.MODEL.QUEUE", "NPMSGDLV": "ALLAVAIL", "PMSGDLV": "ALLDUR",
    "PUBSCOPE": "ALL", "SUBSCOPE": "ALL", "PROXYSUB": "FIRSTUSE", "WILDCARD": "PASSTHRU",
    "MASTER": "YES", "CLROUTE": "DIRECT", "GLOBAL": "NO", "MAXMSGS": 0, "MAXBYTES": 0, "OVERFLOW": "DEFAULT",
}

# Administrative subscriptions (DEFINE SUB; spec A §12, spec C §11.9). PCF selectors omitted.
_SUB = (
    _s("TOPICSTR", "", None, 10_240), _s("TOPICOBJ", ""), _s("DEST", ""), _s("DESTQMGR", ""),
    _s("DESTCORL", "", None, 48), _e("DESTCLAS", "PROVIDED", "PROVIDED=2 MANAGED=1"),
    _i("EXPIRY", "UNLIMITED", None, 0, 999_999_999, "UNLIMITED=-1"),
    _e("PSPROP", "MSGPROP", "NONE=0 COMPAT=1 RFH2=2 MSGPROP=3"),
    _s("PUBACCT", "", None, 64), _s("PUBAPPID", "", None, 32),
    _i("PUBPRTY", "ASPUB", None, 0, 9, "ASPUB=-3 ASQDEF=-1"),
    _e("REQONLY", "NO", "NO=0 YES=1"), _s("SELECTOR", "", None, 10_240), _i("SUBLEVEL", 1, None, 0, 9),
    _e("SUBSCOPE", "ALL", "ALL=0 QMGR=4"), _s("SUBUSER", "", None, 12), _s("USERDATA", "", None, 10_240),
    _e("VARUSER", "ANY", "ANY=1 FIXED=2"), _e("WSCHEMA", "TOPIC", "TOPIC=2 CHAR=1"),
)

_S = Role.STATUS
_ALT = (_s("ALTDATE", "", 2027, role=_S), _s("ALTTIME", "", 2028, role=_S))

# Namelists (core.namelists): NAMES holds up to 256 object names of up to 48 characters each;
# NAMCOUNT is derived. NLTYPE is IBM's on z/OS only (a cluster namelist is NONE or CLUSTER).
_NAMELIST = (
    _s("DESCR", "", 2009, 64),
    Attr("NAMES", Kind.LIST, [], 2020),
    _e("NLTYPE", "NONE", "NONE=0 QUEUE=1 CLUSTER=2 AUTHINFO=4", 72, "Q=QUEUE"),
    _i("NAMCOUNT", 0, 19, role=_S),
)
_CREATED = (_s("CRDATE", "", 2004, role=_S), _s("CRTIME", "", 2005, role=_S))
_QLOCAL_STATUS = (
    _i("CURDEPTH", 0, 3, role=_S), _i("IPPROCS", 0, 17, role=_S), _i("OPPROCS", 0, 18, role=_S),
    *_CREATED, *_ALT,
)
# Routes to other queue managers in the style of TIBCO EMS (B §23, A-55..A-60): named after the
# peer; OUTGOING / INCOMING hold rules 'topic [selector="..."]' as routes.conf writes them.
_ROUTE = (
    _s("DESCR", "", None, 64),
    _s("ZONE", "DEFAULT_MHOP_ZONE", None, 64),
    _e("ZONETYPE", "MHOP", "MHOP=0 1HOP=1", None, "ONEHOP=1HOP MULTIHOP=MHOP"),
    Attr("OUTGOING", Kind.LIST, [], None, maxlen=20_480, whole_items=True),
    Attr("INCOMING", Kind.LIST, [], None, maxlen=20_480, whole_items=True),
)
_QTYPE = _e("TYPE", "QLOCAL", "QLOCAL=1 QMODEL=2 QALIAS=3 QREMOTE=6 QCLUSTER=7", 20)


def _identity(name_attr: Attr, type_attr: Attr | None) -> tuple[Attr, ...]:
    """Mark the name key and TYPE: always displayed, never set by DEFINE/ALTER."""
    pair = (name_attr,) if type_attr is None else (name_attr, type_attr)
    return tuple(replace(a, role=Role.IDENTITY) for a in pair)


_QNAME = _identity(_s("QUEUE", "", 2016), _QTYPE)
_TABLE: dict[str, tuple[Attr, ...]] = {
    "QLOCAL": (*_QNAME, *_QLOCAL, *_QLOCAL_STATUS),
    "QMODEL": (*_QNAME, *_QMODEL, *_ALT),
    "QALIAS": (*_QNAME, *_QALIAS, *_ALT),
    "QREMOTE": (*_QNAME, *_QREMOTE, *_ALT),
    "QMGR": (*_identity(_s("QMNAME", "", 2015), None), *_QMGR,
             _s("QMID", "", 2032, role=_S), *_CREATED, *_ALT),
    "TOPIC": (*_identity(_s("TOPIC", "", 2092), _e("TYPE", "LOCAL", "LOCAL=0 CLUSTER=1", 208)),
              *_TOPIC, *_ALT),
    "SUB": (*_identity(_s("SUB", "", None, 10_240), None), *_SUB,
            _s("SUBID", "", None, 48, role=_S), _e("DURABLE", "YES", "NO=0 YES=1", ro=True),
            _e("SUBTYPE", "ADMIN", "API=1 ADMIN=2 PROXY=3", ro=True), _s("RESOLVED", "", None, 10_240, role=_S),
            *_CREATED, *_ALT),
    "CHANNEL": (*_identity(_s("CHANNEL", "", 3501, 20), None), *CHANNEL, *_ALT),
    "AUTHINFO": (*_identity(_s("AUTHINFO", "", 2045), None), *AUTHINFO, *_ALT),
    "LISTENER": (*_identity(_s("LISTENER", "", 3554), None), *LISTENER, *_ALT),
    "NAMELIST": (*_identity(_s("NAMELIST", "", 2010), None), *_NAMELIST, *_ALT),
    "ROUTE": (*_identity(_s("ROUTE", ""), None), *_ROUTE, *_ALT),
}

#: Object types with a catalogue. "QUEUE" (any queue type, for DISPLAY QUEUE) is accepted too.
OBJECT_TYPES: Final[tuple[str, ...]] = tuple(_TABLE)
QUEUE_TYPES: Final[tuple[str, ...]] = ("QLOCAL", "QALIAS", "QMODEL", "QREMOTE")


def _build() -> tuple[dict[str, dict[str, Attr]], dict[str, dict[str, tuple[str, bool]]]]:
    by_name: dict[str, dict[str, Attr]] = {}
    keywords: dict[str, dict[str, tuple[str, bool]]] = {}  # keyword -> (canonical, negated)
    for objtype, attrs in _TABLE.items():
        by_name[objtype] = {a.name: a for a in attrs}
        kw = keywords[objtype] = {}
        for a in attrs:
            kw[a.name] = (a.name, False)
            kw.update({alias: (a.name, False) for alias in a.aliases})
            if a.negative:
                kw[a.negative] = (a.name, True)
    # "QUEUE": the union of the queue types, for DISPLAY QUEUE attribute lists and WHERE.
    by_name["QUEUE"] = {n: a for t in QUEUE_TYPES for n, a in by_name[t].items()}
    keywords["QUEUE"] = {k: v for t in QUEUE_TYPES for k, v in keywords[t].items()}
    return by_name, keywords


_BY_NAME, _KEYWORDS = _build()
_BY_SELECTOR: dict[int, str] = {
    a.selector: a.name for attrs in _TABLE.values() for a in attrs if a.selector is not None
}


def _table(objtype: str) -> dict[str, Attr]:
    try:
        return _BY_NAME[objtype.upper()]
    except KeyError:
        raise MQError(MQRCCF_PARM_SYNTAX_ERROR, f"object type {objtype} has no attribute catalogue") from None


def attributes(objtype: str) -> tuple[Attr, ...]:
    """Every attribute an administrator can set or see for ``objtype`` (config ones first)."""
    return tuple(_table(objtype).values())


def spec(objtype: str, keyword: str) -> Attr | None:
    """The :class:`Attr` named by ``keyword`` (any MQSC spelling) for ``objtype``, or None."""
    hit = _KEYWORDS.get(objtype.upper(), {}).get(keyword.upper())
    return _table(objtype)[hit[0]] if hit else None


def name_key(objtype: str) -> str:
    """The key that holds an object's name in the core's dicts: QUEUE, QMNAME, TOPIC..."""
    return next(a.name for a in _table(objtype).values() if a.role is Role.IDENTITY)


def defaults(objtype: str) -> dict[str, Any]:
    """Every configuration attribute of ``objtype`` with IBM's default, in a fresh dict.

    Read-only constants (MAXPRTY 9, CMDLEVEL 700, a local queue's DEFTYPE PREDEFINED) are
    included because DISPLAY shows them; status attributes (CURDEPTH...) and the name are not.
    """
    return {
        a.name: list(a.default) if isinstance(a.default, list) else a.default
        for a in _table(objtype).values() if a.role is Role.CONFIG
    }


def status_attributes(objtype: str) -> tuple[str, ...]:
    """Read-only attributes the core fills in for DISPLAY (CURDEPTH, ALTDATE...)."""
    return tuple(a.name for a in _table(objtype).values() if a.role is Role.STATUS)


def canonical(objtype: str, keyword: str) -> str:
    """The canonical attribute name of an MQSC keyword or synonym (TARGQ -> TARGET, NOSHARE -> SHARE).

    Raises :class:`InvalidAttribute` (a syntax error in MQSC terms) for an unknown keyword.
    """
    hit = _KEYWORDS.get(objtype.upper(), {}).get(keyword.upper())
    if hit is None:
        _table(objtype)
        raise InvalidAttribute(MQRCCF_PARM_SYNTAX_ERROR,
                               f"{keyword} is not an attribute of {objtype.upper()}", keyword, True)
    return hit[0]


def selector(objtype: str, name: str) -> int | None:
    """The MQIA_*/MQCA_* selector of an attribute for MQINQ/MQSET, or None if it has none."""
    attr = spec(objtype, name)
    return attr.selector if attr else None


def attribute_for_selector(selector: int) -> str | None:
    """The attribute a selector names (3 -> CURDEPTH), or None for an unknown selector."""
    return _BY_SELECTOR.get(selector)


def to_mq(objtype: str, name: str, value: Any) -> Any:
    """A canonical value as MQINQ returns it: enum tokens and flags become IBM's integers."""
    attr = spec(objtype, name)
    if attr is None:
        raise MQError(MQRC_SELECTOR_ERROR, f"{name} is not an attribute of {objtype}")
    if attr.kind is Kind.FLAG:
        return int(bool(value))
    if isinstance(value, str) and attr.kind in (Kind.ENUM, Kind.INT):
        return attr.tokens[value]
    return value


def from_mq(objtype: str, name: str, value: Any) -> Any:
    """The inverse of :func:`to_mq`, for MQSET: IBM's integer back to the canonical value."""
    attr = spec(objtype, name)
    if attr is None:
        raise MQError(MQRC_SELECTOR_ERROR, f"{name} is not an attribute of {objtype}")
    if attr.kind is Kind.FLAG:
        return bool(value)
    for token, number in attr.tokens.items():
        if number == value and (attr.kind is Kind.ENUM or not attr.low <= value <= attr.high):
            return token
    if attr.kind is Kind.ENUM:
        raise InvalidAttribute(MQRCCF_PARM_VALUE_ERROR, f"{value} is not a valid {attr.name} value",
                               attr.name, False)
    return _coerce(attr, value, attr.name)


def validate(objtype: str, attrs: Mapping[str, Any], *, allow_readonly: bool = False) -> dict[str, Any]:
    """Canonical names and typed, range-checked values for a DEFINE/ALTER of ``objtype``.

    Keys may be any MQSC spelling (``TARGQ``, ``NOSHARE``, lower case); values may be typed
    already or MQSC strings (``"5000"``, ``"enabled"``); a negative flag keyword with True
    means False under the positive name. Raises :class:`InvalidAttribute` naming the keyword.
    """
    out: dict[str, Any] = {}
    table = _table(objtype)
    for keyword, value in attrs.items():
        name = canonical(objtype, keyword)
        attr = table[name]
        if attr.role is not Role.CONFIG or (attr.readonly and not allow_readonly):
            raise InvalidAttribute(MQRCCF_PARM_SYNTAX_ERROR,
                                   f"{keyword.upper()} of {objtype.upper()} cannot be set", keyword, True)
        if name in out:
            raise InvalidAttribute(MQRCCF_PARM_SYNTAX_ERROR,
                                   f"{keyword.upper()} repeats attribute {name}", keyword, True)
        negated = _KEYWORDS[objtype.upper()][keyword.upper()][1]
        typed = _coerce(attr, value, keyword.upper())
        out[name] = (not typed) if negated else typed
    return out


def _coerce(attr: Attr, value: Any, keyword: str) -> Any:
    def bad(why: str, syntax: bool = True) -> InvalidAttribute:
        reason = MQRCCF_PARM_SYNTAX_ERROR if syntax else MQRCCF_PARM_VALUE_ERROR
        shown = keyword if isinstance(value, bool) or value is None else f"{keyword}({_show(value)})"
        return InvalidAttribute(reason, f"{shown} {why}", keyword, syntax)

    if attr.kind is Kind.FLAG:
        if not isinstance(value, bool):
            raise bad("takes no value")
        return value
    if isinstance(value, bool) or value is None:
        raise bad("needs a value")
    if attr.kind is Kind.INT:
        if isinstance(value, str):
            text = value.strip().upper()
            text = attr.synonyms.get(text, text)
            if text in attr.tokens:
                return text
            scale = 1
            for unit, multiplier in attr.units.items():
                if text.endswith(unit):
                    text, scale = text[:-len(unit)].strip(), multiplier
                    break
            if not re.fullmatch(r"[+-]?\d{1,15}", text):
                raise bad("is not a number")
            value = int(text) * scale
        if not isinstance(value, int):
            raise bad("is not a number")
        if not attr.low <= value <= attr.high:
            raise bad(f"is out of range {attr.low}-{attr.high}", syntax=False)
        return value
    if attr.kind is Kind.ENUM:
        text = str(value).strip().upper()
        text = attr.synonyms.get(text, text)
        if text not in attr.tokens and text + "D" in attr.tokens:
            text += "D"  # PSMODE(ENABLE) means ENABLED (spec B A-62)
        if text not in attr.tokens:
            raise bad("is not one of " + ", ".join(attr.tokens))
        return text
    if attr.kind is Kind.LIST:
        items = value if isinstance(value, list) else [value] if attr.whole_items else str(value).split(",")
        result = [str(v).strip() for v in items if str(v).strip()]
        for item in result:
            if len(item) > attr.maxlen:
                raise bad(f"has a name longer than {attr.maxlen} characters", syntax=False)
        return result
    text = str(value).rstrip(" ")
    if len(text) > attr.maxlen:
        raise bad(f"is longer than {attr.maxlen} characters", syntax=False)
    return text


def _show(value: Any) -> str:
    return ",".join(map(str, value)) if isinstance(value, list) else str(value)


_NAME_CHARS = re.compile(r"[A-Za-z0-9._/%]+")


def check_name(objtype: str, name: str) -> str:
    """Check an object name against IBM's rules (1-48 of A-Z a-z 0-9 . / _ %) and return it.

    Topic object names are freer: spec A (TV-MC-04) defines ``'St. Helens'``, so any printable
    characters are allowed there, without leading blanks.
    """
    if not name or len(name) > 48 or name != name.strip(" "):
        raise MQError(MQRCCF_OBJECT_NAME_ERROR, f"object name '{name}' is not valid")
    if objtype.upper() == "TOPIC":
        if not name.isprintable():
            raise MQError(MQRCCF_OBJECT_NAME_ERROR, f"object name '{name}' is not valid")
    elif not _NAME_CHARS.fullmatch(name):
        raise MQError(MQRCCF_OBJECT_NAME_ERROR, f"object name '{name}' is not valid")
    return name


def generic_match(pattern: str, name: str) -> bool:
    """MQSC generic name matching: ``*`` alone matches all, ``ABC*`` matches a prefix, else equality."""
    if pattern.endswith("*"):
        return name.startswith(pattern[:-1])
    return name == pattern


def date_and_time(now: float) -> tuple[str, str]:
    """IBM's date and time formats for ALTDATE/ALTTIME and status displays: 2026-11-22, 21.53.07."""
    t = time.localtime(now)
    return time.strftime("%Y-%m-%d", t), time.strftime("%H.%M.%S", t)
