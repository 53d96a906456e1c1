"""Selection strings: parsed once into a tree of closures, evaluated per publication.

The language is the JMS / SQL-92 message-selector subset (spec A R-SEL-5, A-22): comparisons,
arithmetic, AND/OR/NOT, BETWEEN, IN, LIKE with ESCAPE, IS [NOT] NULL, with three-valued logic: a
missing property is NULL, and a comparison with NULL, or between values of different types, is
UNKNOWN (``None`` here). A message is selected only when the whole expression is TRUE.

Identifiers name message properties, except the JMS header fields (JMSPriority,
JMSDeliveryMode, JMSCorrelationID, JMSMessageID, JMSTimestamp, JMSExpiration, JMSType) and IBM's
``Root.MQMD.<Field>``, which read the MQMD.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.selectors.lexer import Token, syntax_error, tokenize
from mqlite.message import MD_FIELDS, MessageDescriptor, PropertyValue, put_timestamp

Value = Any  # bool | int | float | str | bytes | None (NULL / UNKNOWN)
Node = Callable[[Mapping[str, PropertyValue], MessageDescriptor], Value]
_MISSING = object()


def _is_number(v: Value) -> bool:
    return type(v) in (int, float)


def _md_value(name: str) -> Callable[[MessageDescriptor], Value]:
    def read(md: MessageDescriptor) -> Value:
        value = getattr(md, name)
        return value.rstrip() if isinstance(value, str) else value

    return read


def _timestamp(md: MessageDescriptor) -> Value:
    stamp = put_timestamp(md)
    return None if stamp is None else int(stamp * 1000)


def _expiration(md: MessageDescriptor) -> Value:
    stamp = _timestamp(md)
    return None if stamp is None or md.Expiry <= 0 else stamp + md.Expiry * 100


_HEADERS: dict[str, Callable[[MessageDescriptor], Value]] = {
    "JMSPriority": lambda md: md.Priority,
    "JMSDeliveryMode": lambda md: "PERSISTENT" if md.Persistence == C.MQPER_PERSISTENT else "NON_PERSISTENT",
    "JMSCorrelationID": lambda md: "ID:" + md.CorrelId.hex(),
    "JMSMessageID": lambda md: "ID:" + md.MsgId.hex(),
    "JMSTimestamp": _timestamp,
    "JMSExpiration": _expiration,
}
_HEADERS.update({f"Root.MQMD.{name}": _md_value(name) for name in MD_FIELDS})


def _and(a: Value, b: Value) -> Value:
    if a is False or b is False:
        return False
    if a is True and b is True:
        return True
    return None


def _or(a: Value, b: Value) -> Value:
    if a is True or b is True:
        return True
    if a is False and b is False:
        return False
    return None


def _truth(v: Value) -> Value:
    """A value used as a condition: booleans stand, anything else is UNKNOWN."""
    return v if type(v) is bool else None


def _compare(op: str, a: Value, b: Value) -> Value:
    if a is None or b is None:
        return None
    if _is_number(a) and _is_number(b):
        pass
    elif type(a) is not type(b) or op not in ("=", "<>"):
        return None  # different types, or ordering of strings, booleans or bytes
    if op == "=":
        return bool(a == b)
    if op == "<>":
        return bool(a != b)
    if op == "<":
        return bool(a < b)
    if op == ">":
        return bool(a > b)
    if op == "<=":
        return bool(a <= b)
    return bool(a >= b)


def _arith(op: str, a: Value, b: Value) -> Value:
    if not (_is_number(a) and _is_number(b)):
        return None
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if b == 0:
        return None
    return a / b if isinstance(a, float) or isinstance(b, float) else _int_divide(a, b)


def _int_divide(a: int, b: int) -> int:
    quotient = abs(a) // abs(b)  # integer division truncates towards zero, as in Java
    return quotient if (a >= 0) == (b >= 0) else -quotient


def _like_regex(pattern: str, escape: str | None) -> re.Pattern[str]:
    out: list[str] = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if escape is not None and c == escape:
            if i + 1 >= len(pattern):
                raise syntax_error("LIKE pattern ends with its escape character")
            out.append(re.escape(pattern[i + 1]))
            i += 2
            continue
        out.append("(?s:.*)" if c == "%" else "(?s:.)" if c == "_" else re.escape(c))
        i += 1
    return re.compile("".join(out))


class _Parser:
    """Recursive descent; each rule returns a closure and whether the result is a condition."""

    def __init__(self, text: str) -> None:
        self.tokens = tokenize(text)
        self.pos = 0
        self.identifiers: set[str] = set()

    @property
    def token(self) -> Token:
        return self.tokens[self.pos]

    def take(self) -> Token:
        token = self.tokens[self.pos]
        self.pos += 1
        return token

    def accept(self, kind: str, value: object) -> bool:
        token = self.token
        if token.kind == kind and token.value == value:
            self.pos += 1
            return True
        return False

    def expect(self, kind: str, value: object, what: str) -> Token:
        token = self.token
        if token.kind != kind or token.value != value:
            raise self.unexpected(what)
        return self.take()

    def unexpected(self, wanted: str = "") -> MQError:
        token = self.token
        shown = token.text if token.kind == "end" else repr(token.text)
        return syntax_error(f"unexpected {shown} at {token.pos}" + (f" (expected {wanted})" if wanted else ""))

    # -- grammar ------------------------------------------------------------------------------
    def parse(self) -> Node:
        node, condition = self.or_expr()
        if self.token.kind != "end":
            raise self.unexpected()
        if not condition:
            raise syntax_error("a selector must be a condition (a comparison, LIKE, IN, BETWEEN, IS NULL ...)")
        return node

    def or_expr(self) -> tuple[Node, bool]:
        left, cond = self.and_expr()
        while self.accept("kw", "OR"):
            right, _ = self.and_expr()
            left, cond = self._logic(_or, left, right), True
        return left, cond

    def and_expr(self) -> tuple[Node, bool]:
        left, cond = self.not_expr()
        while self.accept("kw", "AND"):
            right, _ = self.not_expr()
            left, cond = self._logic(_and, left, right), True
        return left, cond

    @staticmethod
    def _logic(op: Callable[[Value, Value], Value], left: Node, right: Node) -> Node:
        return lambda p, m: op(_truth(left(p, m)), _truth(right(p, m)))

    def not_expr(self) -> tuple[Node, bool]:
        if self.accept("kw", "NOT"):
            inner, _ = self.not_expr()

            def negate(p: Mapping[str, PropertyValue], m: MessageDescriptor) -> Value:
                v = _truth(inner(p, m))
                return None if v is None else not v

            return negate, True
        return self.predicate()

    def predicate(self) -> tuple[Node, bool]:
        left, cond = self.additive()
        token = self.token
        if token.kind == "op" and token.value in ("=", "<>", "<", ">", "<=", ">="):
            op = str(self.take().value)
            right, _ = self.additive()
            return (lambda p, m: _compare(op, left(p, m), right(p, m))), True
        negated = self.accept("kw", "NOT")
        if self.accept("kw", "BETWEEN"):
            low, _ = self.additive()
            self.expect("kw", "AND", "AND of BETWEEN")
            high, _ = self.additive()

            def between(p: Mapping[str, PropertyValue], m: MessageDescriptor) -> Value:
                v = left(p, m)
                result = _and(_compare(">=", v, low(p, m)), _compare("<=", v, high(p, m)))
                return result if result is None or not negated else not result

            return between, True
        if self.accept("kw", "IN"):
            return self._in(left, negated), True
        if self.accept("kw", "LIKE"):
            return self._like(left, negated), True
        if negated:
            raise self.unexpected("BETWEEN, IN or LIKE after NOT")
        if self.accept("kw", "IS"):
            is_not = self.accept("kw", "NOT")
            self.expect("kw", "NULL", "NULL")
            return (lambda p, m: (left(p, m) is None) != is_not), True
        return left, cond

    def _in(self, left: Node, negated: bool) -> Node:
        self.expect("op", "(", "'(' after IN")
        values: set[str] = set()
        while True:
            token = self.take()
            if token.kind != "str":
                self.pos -= 1
                raise self.unexpected("a string literal in IN (...)")
            values.add(str(token.value))
            if self.accept("op", ")"):
                break
            self.expect("op", ",", "',' or ')'")
        chosen = frozenset(values)

        def within(p: Mapping[str, PropertyValue], m: MessageDescriptor) -> Value:
            v = left(p, m)
            if type(v) is not str:
                return None
            return (v in chosen) != negated

        return within

    def _like(self, left: Node, negated: bool) -> Node:
        token = self.take()
        if token.kind != "str":
            self.pos -= 1
            raise self.unexpected("a string pattern after LIKE")
        escape: str | None = None
        if self.accept("kw", "ESCAPE"):
            esc = self.take()
            if esc.kind != "str" or len(str(esc.value)) != 1:
                self.pos -= 1
                raise self.unexpected("a one-character string after ESCAPE")
            escape = str(esc.value)
        fullmatch = _like_regex(str(token.value), escape).fullmatch

        def like(p: Mapping[str, PropertyValue], m: MessageDescriptor) -> Value:
            v = left(p, m)
            if type(v) is not str:
                return None
            return (fullmatch(v) is not None) != negated

        return like

    def additive(self) -> tuple[Node, bool]:
        left, cond = self.multiplicative()
        while self.token.kind == "op" and self.token.value in ("+", "-"):
            op = str(self.take().value)
            right, _ = self.multiplicative()
            left, cond = self._arith(op, left, right), False
        return left, cond

    def multiplicative(self) -> tuple[Node, bool]:
        left, cond = self.unary()
        while self.token.kind == "op" and self.token.value in ("*", "/"):
            op = str(self.take().value)
            right, _ = self.unary()
            left, cond = self._arith(op, left, right), False
        return left, cond

    @staticmethod
    def _arith(op: str, left: Node, right: Node) -> Node:
        return lambda p, m: _arith(op, left(p, m), right(p, m))

    def unary(self) -> tuple[Node, bool]:
        if self.token.kind == "op" and self.token.value in ("+", "-"):
            sign = self.take().value
            inner, _ = self.unary()
            if sign == "+":
                return (lambda p, m: inner(p, m) if _is_number(inner(p, m)) else None), False
            return (lambda p, m: -v if _is_number(v := inner(p, m)) else None), False
        return self.primary()

    def primary(self) -> tuple[Node, bool]:
        token = self.take()
        if token.kind in ("str", "num", "hex"):
            value = token.value
            return (lambda p, m: value), False
        if token.kind == "kw" and token.value in ("TRUE", "FALSE"):
            flag = token.value == "TRUE"
            return (lambda p, m: flag), True
        if token.kind == "id":
            name = str(token.value)
            self.identifiers.add(name)
            header = _HEADERS.get(name)
            if header is not None:
                return (lambda p, m: header(m)), True
            if name == "JMSType":
                return (lambda p, m: p.get("mcd.Type")), True
            return (lambda p, m: p.get(name)), True  # a property may hold a boolean
        if token.kind == "op" and token.value == "(":
            inner = self.or_expr()
            self.expect("op", ")", "')'")
            return inner
        self.pos -= 1
        raise self.unexpected()


class Selector:
    """A compiled selection string: ``selector(properties, md)`` is True when the message is selected."""

    __slots__ = ("_node", "identifiers", "text")

    def __init__(self, text: str, node: Node, identifiers: frozenset[str]) -> None:
        self.text = text
        self._node = node
        self.identifiers = identifiers

    def __call__(self, properties: Mapping[str, PropertyValue], md: MessageDescriptor) -> bool:
        return self._node(properties, md) is True

    def __repr__(self) -> str:
        return f"Selector({self.text!r})"


def compile_selector(text: str) -> Selector:
    """Parse and compile; MQError 2459 (syntax) or 2519 (too long) when the selector is bad."""
    if len(text) > C.MQ_SELECTOR_LENGTH:
        raise MQError(C.MQRC_SELECTION_STRING_ERROR, f"selector longer than {C.MQ_SELECTOR_LENGTH} characters")
    if not text.strip():
        raise syntax_error("empty selector")
    parser = _Parser(text)
    try:
        node = parser.parse()
    except RecursionError:
        raise syntax_error("selector nested too deeply") from None
    return Selector(text, node, frozenset(parser.identifiers))
