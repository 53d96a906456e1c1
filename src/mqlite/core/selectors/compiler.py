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

from collections.abc import Callable, Mapping
from typing import Any

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.selectors.lexer import Token, syntax_error, tokenize
from mqlite.message import MD_FIELDS, MessageDescriptor, PropertyValue, put_timestamp

Value = Any  # bool | int | float | str | bytes | None (NULL / UNKNOWN)
Node = Callable[[Mapping[str, PropertyValue], MessageDescriptor], Value]
_MISSING = object()
MAX_NESTING = 100  # levels of NOT, signs and parentheses in one selector


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
    try:
        if op == "+":
            return a + b
        if op == "-":
            return a - b
        if op == "*":
            return a * b
        if b == 0:
            return None
        return a / b if isinstance(a, float) or isinstance(b, float) else _int_divide(a, b)
    except OverflowError:  # an integer too large for a float: no value, so UNKNOWN
        return None


def _int_divide(a: int, b: int) -> int:
    quotient = abs(a) // abs(b)  # integer division truncates towards zero, as in Java
    return quotient if (a >= 0) == (b >= 0) else -quotient


def _like_pattern(pattern: str, escape: str | None) -> tuple[tuple[str, bool], ...]:
    """A LIKE pattern as (character, is_literal) pairs: ``%`` and ``_`` unescaped are wildcards."""
    out: list[tuple[str, bool]] = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if escape is not None and c == escape:
            if i + 1 >= len(pattern):
                raise syntax_error("LIKE pattern ends with its escape character")
            out.append((pattern[i + 1], True))
            i += 2
            continue
        out.append((c, c not in "%_"))
        i += 1
    return tuple(out)


def _like_match(pattern: tuple[tuple[str, bool], ...], text: str) -> bool:
    """Whether ``text`` matches the whole LIKE pattern. Greedy with one backtrack point (the last
    ``%``), so at most len(pattern) * len(text) steps: a regular expression of many ``%`` would
    backtrack exponentially on a long string, and a publication would hang the queue manager."""
    p = t = 0
    star = -1  # the pattern position after the last % seen
    star_t = 0  # where in the text that % stopped matching
    while t < len(text):
        if p < len(pattern) and not pattern[p][1] and pattern[p][0] == "%":
            star, star_t = p + 1, t
            p += 1
        elif p < len(pattern) and (pattern[p][0] == text[t] if pattern[p][1] else pattern[p][0] == "_"):
            p += 1
            t += 1
        elif star >= 0:
            star_t += 1  # let the last % take one more character
            p, t = star, star_t
        else:
            return False
    while p < len(pattern) and not pattern[p][1] and pattern[p][0] == "%":
        p += 1
    return p == len(pattern)


class _Parser:
    """Recursive descent; each rule returns a closure and whether the result is a condition."""

    def __init__(self, text: str) -> None:
        self.tokens = tokenize(text)
        self.pos = 0
        self.identifiers: set[str] = set()
        self.depth = 0

    def deeper(self) -> None:
        """One more level of nesting (NOT, a sign, a parenthesis): the compiled closures nest as
        deep, and evaluating them must not run out of stack wherever a publication is matched."""
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise syntax_error(f"selector nested more than {MAX_NESTING} levels deep")

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

    # A chain (a AND b AND c ..., a + b - c ...) is one node that folds its operands in a loop,
    # not closures nested as deep as the chain is long: a selector of a thousand ANDs would
    # otherwise exhaust the stack when a publication is matched.
    def or_expr(self) -> tuple[Node, bool]:
        left, cond = self.and_expr()
        operands = [left]
        while self.accept("kw", "OR"):
            operands.append(self.and_expr()[0])
        return (left, cond) if len(operands) == 1 else (self._logic(_or, operands), True)

    def and_expr(self) -> tuple[Node, bool]:
        left, cond = self.not_expr()
        operands = [left]
        while self.accept("kw", "AND"):
            operands.append(self.not_expr()[0])
        return (left, cond) if len(operands) == 1 else (self._logic(_and, operands), True)

    @staticmethod
    def _logic(op: Callable[[Value, Value], Value], operands: list[Node]) -> Node:
        first, rest = operands[0], operands[1:]

        def fold(p: Mapping[str, PropertyValue], m: MessageDescriptor) -> Value:
            result = _truth(first(p, m))
            for node in rest:
                result = op(result, _truth(node(p, m)))
            return result

        return fold

    def not_expr(self) -> tuple[Node, bool]:
        if self.accept("kw", "NOT"):
            self.deeper()
            inner, _ = self.not_expr()
            self.depth -= 1

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
        pattern = _like_pattern(str(token.value), escape)

        def like(p: Mapping[str, PropertyValue], m: MessageDescriptor) -> Value:
            v = left(p, m)
            if type(v) is not str:
                return None
            return _like_match(pattern, v) != negated

        return like

    def additive(self) -> tuple[Node, bool]:
        return self._chain(self.multiplicative, ("+", "-"))

    def multiplicative(self) -> tuple[Node, bool]:
        return self._chain(self.unary, ("*", "/"))

    def _chain(self, operand: Callable[[], tuple[Node, bool]], ops: tuple[str, ...]) -> tuple[Node, bool]:
        first, cond = operand()
        rest: list[tuple[str, Node]] = []
        while self.token.kind == "op" and self.token.value in ops:
            op = str(self.take().value)
            rest.append((op, operand()[0]))
        if not rest:
            return first, cond

        def fold(p: Mapping[str, PropertyValue], m: MessageDescriptor) -> Value:
            value = first(p, m)
            for op, node in rest:
                value = _arith(op, value, node(p, m))
            return value

        return fold, False

    def unary(self) -> tuple[Node, bool]:
        if self.token.kind == "op" and self.token.value in ("+", "-"):
            sign = self.take().value
            self.deeper()
            inner, _ = self.unary()
            self.depth -= 1
            if sign == "+":  # the operand evaluated once: "+ + + ... x" must not double per sign
                return (lambda p, m: v if _is_number(v := inner(p, m)) else None), False
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
            self.deeper()
            inner = self.or_expr()
            self.depth -= 1
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
