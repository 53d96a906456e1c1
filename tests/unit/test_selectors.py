"""Selection strings (spec A R-SEL-5, A-22; TV-SL-18): the grammar, three-valued logic, types,
header fields, errors, and a hypothesis comparison with a small reference interpreter."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.selectors import compile_selector
from mqlite.message import MessageDescriptor

MD = MessageDescriptor(Priority=7, Persistence=1, MsgId=b"\x01" * 24, CorrelId=b"\x02" * 24,
                       PutDate="20261124", PutTime="01020304", Format="MQSTR")
PROPS: dict[str, Any] = {"Price": 150, "Rate": 2.5, "Colour": "Red", "Flag": True, "Blob": b"\x0a\xff",
                         "Name": "O'Neil", "mqps.Top": "Stock/IBM", "Pct": "50%"}


def sel(text: str, props: dict[str, Any] | None = None, md: MessageDescriptor = MD) -> bool:
    return compile_selector(text)(PROPS if props is None else props, md)


@pytest.mark.parametrize(("text", "expected"), [
    ("Price > 100", True), ("Price < 100", False), ("Price = 150", True), ("Price <> 150", False),
    ("Price >= 150 AND Price <= 150", True), ("Rate = 2.5", True), ("Price = 150.0", True),
    ("Price + 10 = 160", True), ("Price * 2 / 3 = 100", True), ("-Price < 0", True), ("Price / 0 = 1", False),
    ("Colour = 'Red'", True), ("Colour <> 'Red'", False), ("Name = 'O''Neil'", True),
    ("Flag", True), ("Flag = TRUE", True), ("NOT Flag", False), ("Blob = X'0AFF'", True),
    ("Price BETWEEN 100 AND 200", True), ("Price NOT BETWEEN 100 AND 200", False),
    ("Colour IN ('Red', 'Blue')", True), ("Colour NOT IN ('Red', 'Blue')", False),
    ("Colour LIKE 'R%'", True), ("Colour LIKE 'R_d'", True), ("Colour LIKE 'r%'", False),
    ("Colour NOT LIKE 'B%'", True), ("Name LIKE 'O''%'", True), ("Pct LIKE '50!%' ESCAPE '!'", True),
    ("Pct LIKE '5!%' ESCAPE '!'", False), ("Pct LIKE '5_%'", True),
    ("Missing IS NULL", True), ("Price IS NOT NULL", True), ("Price IS NULL", False),
    ("(Price > 100 OR Missing > 1) AND Colour = 'Red'", True), ("mqps.Top = 'Stock/IBM'", True),
    ("price > 100", False),  # identifiers are case-sensitive; keywords are not
    ("Price > 100 and colour = 'x' or Flag", True),
])
def test_grammar(text: str, expected: bool) -> None:
    assert sel(text) is expected


@pytest.mark.parametrize(("text", "expected"), [
    ("Missing > 1", False), ("NOT (Missing > 1)", False),  # UNKNOWN, negated, is still UNKNOWN
    ("Missing > 1 OR Price > 1", True), ("Missing > 1 AND Price > 1", False),
    ("NOT (Missing > 1 AND Price < 1)", True),  # UNKNOWN AND FALSE is FALSE
    ("Colour > 'A'", False), ("Colour = 5", False), ("Price = '150'", False), ("Flag = 1", False),
    ("Colour + 1 = 2", False), ("Missing IN ('a')", False), ("Price LIKE '1%'", False),
])
def test_three_valued_logic_and_types(text: str, expected: bool) -> None:
    assert sel(text) is expected


@pytest.mark.parametrize(("text", "expected"), [
    ("JMSPriority = 7", True), ("JMSDeliveryMode = 'PERSISTENT'", True),
    ("JMSMessageID = 'ID:" + "01" * 24 + "'", True), ("JMSCorrelationID = 'ID:" + "02" * 24 + "'", True),
    ("JMSTimestamp > 0", True), ("JMSExpiration IS NULL", True), ("Root.MQMD.Priority = 7", True),
    ("Root.MQMD.Format = 'MQSTR'", True), ("JMSType IS NULL", True),
])
def test_header_fields(text: str, expected: bool) -> None:
    assert sel(text) is expected


def test_price_selector_vector() -> None:  # A:TV-SL-18
    selector = compile_selector("Price > 100")
    assert [selector({"Price": p}, MD) for p in (50, 150)] == [False, True]
    assert selector({}, MD) is False


@pytest.mark.parametrize(("text", "where"), [
    ("Price >", "end of selector"), ("Price > 100)", "')' at 11"), ("(Price > 1", "end of selector"),
    ("Price IN (1, 2)", "'1' at 10"), ("Price ! 3", "'!' at 6"), ("Colour LIKE 5", "'5' at 12"),
    ("100", None), ("Blob = X'ABC'", "odd number"), ("AND", "'AND' at 0"),
])
def test_syntax_errors_name_the_token(text: str, where: str | None) -> None:
    with pytest.raises(MQError) as info:
        compile_selector(text)
    assert info.value.reason == C.MQRC_SELECTOR_SYNTAX_ERROR
    if where is not None:
        assert where in info.value.text


def test_price_alone_is_a_condition_only_when_boolean() -> None:
    assert compile_selector("Price")({"Price": True}, MD) is True
    assert compile_selector("Price")({"Price": 3}, MD) is False


def test_lengths() -> None:
    with pytest.raises(MQError) as info:
        compile_selector("a = 1 OR " * 2000 + "a = 1")
    assert info.value.reason == C.MQRC_SELECTION_STRING_ERROR
    with pytest.raises(MQError) as blank:
        compile_selector("   ")
    assert blank.value.reason == C.MQRC_SELECTOR_SYNTAX_ERROR


# -- fuzz ---------------------------------------------------------------------------------------
@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="ab1 ()'=<>!+-*/.,%_XNOTANDORINLIKEISNULLBETWEEN", max_size=40))
def test_any_text_compiles_or_fails_with_its_reason(text: str) -> None:
    try:
        compiled = compile_selector(text)
    except MQError as error:
        assert error.reason in (C.MQRC_SELECTOR_SYNTAX_ERROR, C.MQRC_SELECTION_STRING_ERROR)
        return
    compiled({"a": 1, "b": "x"}, MD)


# A reference interpreter over the same tiny grammar: None is UNKNOWN.
def _ref(expr: Any, props: dict[str, Any]) -> Any:
    kind = expr[0]
    if kind == "cmp":
        _, op, name, value = expr
        v = props.get(name)
        if v is None or type(v) is not type(value):
            return None
        return {"=": v == value, "<>": v != value, "<": v < value, ">": v > value}[op]
    if kind == "not":
        inner = _ref(expr[1], props)
        return None if inner is None else not inner
    left, right = _ref(expr[1], props), _ref(expr[2], props)
    if kind == "and":
        return False if False in (left, right) else None if None in (left, right) else True
    return True if True in (left, right) else None if None in (left, right) else False


def _text(expr: Any) -> str:
    kind = expr[0]
    if kind == "cmp":
        return f"{expr[2]} {expr[1]} {expr[3]}"
    if kind == "not":
        return f"NOT ({_text(expr[1])})"
    return f"({_text(expr[1])}) {kind.upper()} ({_text(expr[2])})"


_CMP = st.tuples(st.just("cmp"), st.sampled_from(["=", "<>", "<", ">"]), st.sampled_from(["x", "y"]),
                 st.integers(min_value=-3, max_value=3))
_EXPR = st.recursive(_CMP, lambda inner: st.one_of(
    st.tuples(st.just("not"), inner), st.tuples(st.sampled_from(["and", "or"]), inner, inner)), max_leaves=8)


@settings(max_examples=400, deadline=None)
@given(_EXPR, st.dictionaries(st.sampled_from(["x", "y"]), st.integers(min_value=-3, max_value=3)))
def test_compiled_agrees_with_the_reference(expr: Any, props: dict[str, Any]) -> None:
    assert compile_selector(_text(expr))(props, MD) is (_ref(expr, props) is True)
