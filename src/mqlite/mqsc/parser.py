"""MQSC grammar: tokens become a :class:`Command`.

The parser knows the shape of every command (verb, noun, name in parentheses, keywords with
or without a value, ``WHERE(keyword op value)``) and the command-level keywords of each verb
(``LIKE``, ``REPLACE``, ``PURGE``, ``ALL``, ``TYPE(...)``...). It does not know which object
attributes exist: that is the attribute catalogue's job, applied by the executor, so new object
types need no parser change. Everything it refuses raises :class:`MqscSyntaxError` naming the
token, which the executor reports the way runmqsc does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from mqlite.mqsc.lexer import MqscSyntaxError, Token, TokenKind, tokenize

Value = str | list[str] | bool

VERBS: dict[str, str] = {
    "DEFINE": "DEFINE", "DEF": "DEFINE", "ALTER": "ALTER", "ALT": "ALTER",
    "DELETE": "DELETE", "DEL": "DELETE", "DISPLAY": "DISPLAY", "DIS": "DISPLAY",
    "CLEAR": "CLEAR", "START": "START", "STA": "START", "STOP": "STOP", "END": "END",
    "REFRESH": "REFRESH", "REF": "REFRESH", "RESET": "RESET", "PING": "PING",
    "RESOLVE": "RESOLVE", "RESUME": "RESUME", "SUSPEND": "SUSPEND", "SET": "SET",
    "SWITCH": "SWITCH",  # z/OS CSQUTIL's SWITCH CHANNEL, what runswchl sends (mqsc.cluster)
}

NOUNS: dict[str, str] = {
    "QLOCAL": "QLOCAL", "QL": "QLOCAL", "QALIAS": "QALIAS", "QA": "QALIAS",
    "QREMOTE": "QREMOTE", "QR": "QREMOTE", "QMODEL": "QMODEL", "QM": "QMODEL",
    "QUEUE": "QUEUE", "Q": "QUEUE", "QCLUSTER": "QCLUSTER", "QC": "QCLUSTER",
    "QMGR": "QMGR", "QSTATUS": "QSTATUS", "QS": "QSTATUS", "QMSTATUS": "QMSTATUS",
    "TOPIC": "TOPIC", "TCLUSTER": "TCLUSTER", "TPSTATUS": "TPSTATUS", "TPS": "TPSTATUS",
    "TOPICSTR": "TOPICSTR", "SUB": "SUB", "SUBSCR": "SUB", "SBSTATUS": "SBSTATUS", "SBS": "SBSTATUS",
    "CHANNEL": "CHANNEL", "CHL": "CHANNEL", "CHSTATUS": "CHSTATUS", "CHS": "CHSTATUS",
    "LISTENER": "LISTENER", "LSTR": "LISTENER", "LSSTATUS": "LSSTATUS", "LSS": "LSSTATUS",
    "NAMELIST": "NAMELIST", "NL": "NAMELIST", "PROCESS": "PROCESS", "PRO": "PROCESS",
    "SERVICE": "SERVICE", "SVSTATUS": "SVSTATUS", "AUTHINFO": "AUTHINFO",
    "PUBSUB": "PUBSUB", "CLUSQMGR": "CLUSQMGR", "CLUSTER": "CLUSTER", "CONN": "CONN", "QSTATS": "QSTATS",
    "SECURITY": "SECURITY",
    "CHLAUTH": "CHLAUTH",
    "AUTHREC": "AUTHREC", "ENTAUTH": "ENTAUTH",
    "ROUTE": "ROUTE", "RTE": "ROUTE", "RTSTATUS": "RTSTATUS", "RTS": "RTSTATUS",
}

_DEFINABLE = {"QLOCAL", "QALIAS", "QREMOTE", "QMODEL", "TOPIC", "SUB", "CHANNEL", "LISTENER",
              "NAMELIST", "PROCESS", "SERVICE", "AUTHINFO", "ROUTE"}
#: Which nouns each verb takes.
VERB_NOUNS: dict[str, frozenset[str]] = {
    "DEFINE": frozenset(_DEFINABLE),
    "ALTER": frozenset(_DEFINABLE | {"QMGR"}),
    "DELETE": frozenset(_DEFINABLE | {"AUTHREC"}),
    "DISPLAY": frozenset(_DEFINABLE | {
        "QUEUE", "QCLUSTER", "QMGR", "QMSTATUS", "QSTATUS", "TCLUSTER", "TPSTATUS", "SBSTATUS", "CHSTATUS",
        "LSSTATUS", "SVSTATUS", "PUBSUB", "CLUSQMGR", "CONN", "CHLAUTH", "AUTHREC", "ENTAUTH", "RTSTATUS"}),
    "CLEAR": frozenset({"QLOCAL", "TOPICSTR"}),
    "START": frozenset({"CHANNEL", "LISTENER", "SERVICE"}),
    "STOP": frozenset({"CHANNEL", "LISTENER", "SERVICE", "CONN"}),
    "REFRESH": frozenset({"CLUSTER", "QMGR", "SECURITY"}),
    "RESET": frozenset({"CLUSTER", "QMGR", "CHANNEL", "QSTATS"}),
    "PING": frozenset({"CHANNEL", "QMGR"}),
    "RESOLVE": frozenset({"CHANNEL"}),
    "RESUME": frozenset({"QMGR"}),
    "SUSPEND": frozenset({"QMGR"}),
    "SWITCH": frozenset({"CHANNEL"}),
    "SET": frozenset({"CHLAUTH", "AUTHREC"}),
}
#: Nouns that take no name: ``DISPLAY QMGR``, ``DISPLAY PUBSUB``.
UNNAMED = frozenset({"QMGR", "QMSTATUS", "PUBSUB", "AUTHREC", "ENTAUTH", "SECURITY"})

# Command-level keywords per verb: True takes a value, False is a bare flag. Anything else is an
# object attribute (or, for DISPLAY, a requested attribute) and goes to Command.attrs.
_COMMON = {"CMDSCOPE": True, "QSGDISP": True}
OPTIONS: dict[str, dict[str, bool]] = {
    "DEFINE": {"LIKE": True, "REPLACE": False, "NOREPLACE": False, **_COMMON},
    "ALTER": {"FORCE": False, **_COMMON},
    "DELETE": {"PURGE": False, "NOPURGE": False, "AUTHREC": True, **_COMMON},
    "DISPLAY": {"ALL": False, "TYPE": True, "CLUSINFO": False, "SUBTYPE": True, "OPENTYPE": True,
                "DURABLE": True, "CHLTYPE": True, "CLIENTID": True, "SUMMARY": False, "MATCH": True, **_COMMON},
    "CLEAR": {"CLTRTYPE": True, "SCOPE": True, **_COMMON},
    "START": {"CHLTYPE": True, **_COMMON},
    "STOP": {"MODE": True, "STATUS": True, "CHLTYPE": True, "CLIENTID": True, "CONNAME": True, **_COMMON},
    "REFRESH": {"TYPE": True, "OBJECT": True, "NAME": True, "INCLINT": True, **_COMMON},
    "RESET": {"SEQNUM": True, "CHLTYPE": True, "TYPE": True, **_COMMON},
    "RESOLVE": {"ACTION": True, "CHLTYPE": True, **_COMMON},
    "PING": {"DATALEN": True, "CHLTYPE": True, **_COMMON},
    "SWITCH": {"MOVEMSGS": True, "STATUS": False, **_COMMON},
}
_EXCLUSIVE = (("REPLACE", "NOREPLACE"), ("PURGE", "NOPURGE"))
# DISPLAY options that, written bare, ask for the attribute of that name (DISPLAY CHANNEL(X) CHLTYPE).
_ALSO_REQUESTED = frozenset({"TYPE", "CHLTYPE", "CLIENTID"})
WHERE_OPS = frozenset({"EQ", "NE", "LT", "GT", "LE", "GE", "LK", "NL", "CT", "EX", "CTG", "EXG"})
_KEYWORD = re.compile(r"[A-Z][A-Z0-9_]*")


@dataclass(frozen=True)
class Where:
    """``WHERE(keyword op value)``: a DISPLAY filter."""

    keyword: str
    op: str
    value: str
    pos: int = 0


@dataclass(frozen=True)
class Command:
    """One parsed MQSC command.

    ``attrs`` maps object attribute keywords (as written, upper case) to a value string, a list
    (``NAMES(A,B)``) or True (a bare keyword such as ``SHARE`` or a requested DISPLAY attribute).
    ``flags`` holds bare command keywords (``REPLACE``, ``PURGE``, ``ALL``), ``options`` the
    command keywords with a value (``LIKE``, ``TYPE``). ``spans`` gives each keyword's extent in
    ``text`` (keyword through its closing parenthesis) so later checks can point at it.
    """

    verb: str
    objtype: str = ""
    name: str | None = None
    attrs: dict[str, Value] = field(default_factory=dict)
    flags: frozenset[str] = frozenset()
    options: dict[str, str] = field(default_factory=dict)
    where: Where | None = None
    text: str = ""
    spans: dict[str, tuple[int, int]] = field(default_factory=dict)

    def error(self, message: str, keyword: str) -> MqscSyntaxError:
        """A syntax error pointing at ``keyword`` and its value (used by the executor)."""
        start, end = self.spans.get(keyword.upper(), (len(self.text), len(self.text)))
        return MqscSyntaxError(message, self.text, start, self.text[start:end])


class _Cursor:
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = tokenize(text)
        self.i = 0

    def peek(self) -> Token:
        return self.tokens[self.i]

    def take(self) -> Token:
        tok = self.tokens[self.i]
        if tok.kind is not TokenKind.END:
            self.i += 1
        return tok

    def fail(self, message: str, tok: Token) -> MqscSyntaxError:
        return MqscSyntaxError(message, self.text, tok.pos, tok.raw)

    def expect(self, kind: TokenKind, message: str) -> Token:
        tok = self.take()
        if tok.kind is not kind:
            raise self.fail(message, tok)
        return tok

    def values(self) -> list[str]:
        """The values between ``(`` (already taken) and ``)``."""
        out: list[str] = []
        while True:
            tok = self.take()
            if tok.kind is TokenKind.RPAREN:
                return out
            if tok.kind in (TokenKind.WORD, TokenKind.STRING):
                out.append(tok.value)
                continue
            if tok.kind is TokenKind.END:
                raise self.fail("Closing parenthesis missing", self.tokens[self.i - 1])
            raise self.fail("Unexpected parenthesis", tok)


def parse(text: str) -> Command:
    """Parse one MQSC command (continuations already joined) into a :class:`Command`."""
    cur = _Cursor(text)
    first = cur.take()
    if first.kind is TokenKind.END:
        raise cur.fail("Empty command", first)
    if first.kind is not TokenKind.WORD or first.value not in VERBS:
        raise cur.fail("Unknown command", first)
    verb = VERBS[first.value]
    if verb == "END":
        if cur.peek().kind is not TokenKind.END:
            raise cur.fail("END takes no parameters", cur.peek())
        return Command("END", text=text)
    noun_tok = cur.take()
    if noun_tok.kind is not TokenKind.WORD or noun_tok.value not in NOUNS:
        raise cur.fail(f"Unknown object type for {verb}", noun_tok)
    objtype = NOUNS[noun_tok.value]
    if objtype not in VERB_NOUNS.get(verb, frozenset()):
        raise cur.fail(f"{verb} {objtype} is not a valid command", noun_tok)
    name = None
    if objtype in ("SUB", "SBSTATUS") and cur.peek().kind is TokenKind.WORD and cur.peek().value == "SUBID":
        return _parse_rest(cur, verb, objtype, None)  # named by SUBID(...) instead (IBM allows either)
    if objtype not in UNNAMED:
        opener = cur.take()
        if opener.kind is not TokenKind.LPAREN:
            raise cur.fail(f"{objtype} needs a name in parentheses", opener if opener.raw else noun_tok)
        names = cur.values()
        if len(names) != 1 or not names[0]:
            raise cur.fail(f"{objtype} needs exactly one name", opener)
        name = names[0]
    return _parse_rest(cur, verb, objtype, name)


def _parse_rest(cur: _Cursor, verb: str, objtype: str, name: str | None) -> Command:
    attrs: dict[str, Value] = {}
    flags: set[str] = set()
    options: dict[str, str] = {}
    spans: dict[str, tuple[int, int]] = {}
    where: Where | None = None
    known = OPTIONS.get(verb, _COMMON)
    while True:
        tok = cur.take()
        if tok.kind is TokenKind.END:
            break
        if tok.kind is not TokenKind.WORD or not _KEYWORD.fullmatch(tok.value):
            raise cur.fail("Keyword expected", tok)
        keyword = tok.value
        if keyword in spans:
            raise cur.fail(f"{keyword} is repeated", tok)
        spans[keyword] = (tok.pos, tok.pos + len(tok.raw))
        if keyword == "WHERE" and verb == "DISPLAY":
            where = _parse_where(cur, tok)
            spans[keyword] = (tok.pos, cur.tokens[cur.i - 1].pos + 1)
            continue
        if cur.peek().kind is TokenKind.LPAREN:
            cur.take()
            values = cur.values()
            spans[keyword] = (tok.pos, cur.tokens[cur.i - 1].pos + 1)
            if known.get(keyword) is True:
                if len(values) != 1:
                    raise cur.fail(f"{keyword} takes one value", tok)
                options[keyword] = values[0]
            elif keyword in known:
                raise cur.fail(f"{keyword} takes no value", tok)
            else:
                attrs[keyword] = values[0] if len(values) == 1 else (values or "")
        elif known.get(keyword) is False:
            flags.add(keyword)
        elif keyword in known and not (verb == "DISPLAY" and keyword in _ALSO_REQUESTED):
            raise cur.fail(f"{keyword} needs a value in parentheses", tok)
        else:
            attrs[keyword] = True
    for a, b in _EXCLUSIVE:
        if a in flags and b in flags:
            later = b if spans[b] > spans[a] else a
            raise MqscSyntaxError(f"{a} and {b} are exclusive", cur.text, spans[later][0], later)
    return Command(verb, objtype, name, attrs, frozenset(flags), options, where, cur.text, spans)


def _parse_where(cur: _Cursor, where_tok: Token) -> Where:
    cur.expect(TokenKind.LPAREN, "WHERE needs (keyword operator value)")
    keyword = cur.take()
    if keyword.kind is not TokenKind.WORD or not _KEYWORD.fullmatch(keyword.value):
        raise cur.fail("WHERE needs a keyword", keyword)
    op = cur.take()
    if op.kind is not TokenKind.WORD or op.value not in WHERE_OPS:
        raise cur.fail("WHERE operator must be one of " + " ".join(sorted(WHERE_OPS)), op)
    value = cur.take()
    if value.kind not in (TokenKind.WORD, TokenKind.STRING):
        raise cur.fail("WHERE needs a value", value)
    closer = cur.take()
    if closer.kind is not TokenKind.RPAREN:
        raise cur.fail("Closing parenthesis missing", closer if closer.raw else cur.tokens[cur.i - 1])
    return Where(keyword.value, op.value, value.value, where_tok.pos)
