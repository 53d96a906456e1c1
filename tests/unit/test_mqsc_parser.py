"""MQSC lexer and parser: IBM's lexical rules, command shapes, errors naming the token, fuzz."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mqlite.mqsc.lexer import MqscSyntaxError, TokenKind, split_script, tokenize
from mqlite.mqsc.parser import Command, Where, parse


def commands(text: str) -> list[str]:
    return [item.text for item in split_script(text) if item.kind == "command"]


# -- lexer --------------------------------------------------------------------------------------
def test_words_fold_strings_keep_case_and_double_quotes() -> None:
    toks = tokenize("alter qlocal ('Account' ) trigdpth ( 1),descr('It''s \"x\"')")
    assert [t.kind for t in toks][:5] == [TokenKind.WORD, TokenKind.WORD, TokenKind.LPAREN,
                                          TokenKind.STRING, TokenKind.RPAREN]
    words = [t.value for t in toks if t.kind is TokenKind.WORD]
    assert words == ["ALTER", "QLOCAL", "TRIGDPTH", "1", "DESCR"]
    strings = [t.value for t in toks if t.kind is TokenKind.STRING]
    assert strings == ["Account", "It's \"x\""]
    assert tokenize('X("SYSTEM.BASE.TOPIC")')[2].value == "SYSTEM.BASE.TOPIC"  # spec B A-62
    assert toks[-1].kind is TokenKind.END


def test_unclosed_quote_names_position() -> None:
    with pytest.raises(MqscSyntaxError) as info:
        tokenize("DEFINE QLOCAL(X) DESCR('abc")
    assert info.value.pos == 23 and info.value.token == "'abc"


def test_plus_and_minus_continuation() -> None:
    # IBM's own example: 'Fr+ / ed' and 'Fr- / ed' (e in column 1) both mean 'Fred'.
    assert commands("DEFINE QLOCAL(A) DESCR('Fr+\n     ed')") == ["DEFINE QLOCAL(A) DESCR('Fred')"]
    assert commands("DEFINE QLOCAL(A) DESCR('Fr-\ned')") == ["DEFINE QLOCAL(A) DESCR('Fred')"]
    assert commands("DEFINE QLOCAL(A) -\n  MAXDEPTH(5)") == ["DEFINE QLOCAL(A)   MAXDEPTH(5)"]
    assert commands("DEFINE QLOCAL(A) +\n     PUT(ENABLED) +\n     GET(ENABLED);") == [
        "DEFINE QLOCAL(A) PUT(ENABLED) GET(ENABLED)"]


def test_continuation_skips_comments_and_blank_lines() -> None:
    items = split_script("DEFINE QLOCAL(A) +\n* a comment\n\nMAXDEPTH(5)\nDISPLAY QMGR")
    assert [i.kind for i in items] == ["command", "command"]
    assert items[0].text == "DEFINE QLOCAL(A) MAXDEPTH(5)"
    assert items[0].lines == ("DEFINE QLOCAL(A) +", "* a comment", "", "MAXDEPTH(5)")
    assert items[1].line == 5


def test_comments_and_blank_lines_are_items() -> None:
    items = split_script("* header\n\nDEFINE QLOCAL(A)\n")
    assert [(i.kind, i.line) for i in items] == [("comment", 1), ("blank", 2), ("command", 3)]


def test_indented_lines_continue_a_command_spec_a_31() -> None:
    script = ("DEFINE TOPIC (FOOTBALL.EUROPEAN)\n  TOPICSTR ('Sport/Soccer')\n  DURSUB (NO)\n"
              "  DESCR ('Administrative topic object to disallow durable subscriptions')\n"
              "  DEFINE QLOCAL(B)\n")
    got = commands(script)
    assert got[0].startswith("DEFINE TOPIC (FOOTBALL.EUROPEAN) TOPICSTR ('Sport/Soccer') DURSUB (NO) DESCR")
    assert got[1] == "DEFINE QLOCAL(B)"  # an indented verb starts a new command


# -- parser -------------------------------------------------------------------------------------
def test_define_with_attributes_flags_and_abbreviations() -> None:
    cmd = parse("def ql(app.in) descr('My queue') maxdepth(10) noshare replace like(MODEL)")
    assert cmd.verb == "DEFINE" and cmd.objtype == "QLOCAL" and cmd.name == "APP.IN"
    assert cmd.attrs == {"DESCR": "My queue", "MAXDEPTH": "10", "NOSHARE": True}
    assert cmd.flags == {"REPLACE"} and cmd.options == {"LIKE": "MODEL"}


@pytest.mark.parametrize(("text", "verb", "objtype"), [
    ("DIS QA(X)", "DISPLAY", "QALIAS"), ("DEF QR(X)", "DEFINE", "QREMOTE"),
    ("DEF QM(X)", "DEFINE", "QMODEL"), ("DIS Q(X)", "DISPLAY", "QUEUE"),
    ("ALT QL(X)", "ALTER", "QLOCAL"), ("DEL QL(X)", "DELETE", "QLOCAL"),
    ("DELETE QLOCAL(X)", "DELETE", "QLOCAL"), ("DEF CHL(X) CHLTYPE(SDR)", "DEFINE", "CHANNEL"),
    ("DEF NL(X)", "DEFINE", "NAMELIST"), ("DEF LISTENER(X)", "DEFINE", "LISTENER"),
    ("DEF SUB(X)", "DEFINE", "SUB"), ("DEF TOPIC(X)", "DEFINE", "TOPIC"),
    ("DIS QS(X)", "DISPLAY", "QSTATUS"), ("CLEAR QLOCAL(X)", "CLEAR", "QLOCAL"),
    ("START LISTENER(L)", "START", "LISTENER"), ("display pubsub type(All)", "DISPLAY", "PUBSUB"),
])
def test_verbs_and_nouns(text: str, verb: str, objtype: str) -> None:
    cmd = parse(text)
    assert (cmd.verb, cmd.objtype) == (verb, objtype)


def test_quoted_names_keep_case_unquoted_fold() -> None:
    assert parse("DEFINE TOPIC ('St. Helens') TOPICSTR('Sports/Rugby/St. Helens')").name == "St. Helens"
    assert parse("define qlocal(lower)").name == "LOWER"
    assert parse("DIS QLOCAL(ABC*)").name == "ABC*"


def test_lists_empty_values_and_bare_keywords() -> None:
    cmd = parse("DEFINE NAMELIST(N) NAMES(A, B,C) DESCR() ")
    assert cmd.attrs == {"NAMES": ["A", "B", "C"], "DESCR": ""}
    assert parse("ALTER QMGR PARENT('')").attrs == {"PARENT": ""}
    assert parse("DISPLAY QMGR TREELIFE DEADQ").attrs == {"TREELIFE": True, "DEADQ": True}


def test_qmgr_has_no_name() -> None:
    cmd = parse("ALTER QMGR REPOS(CL1) DEADQ(SYSTEM.DEAD.LETTER.QUEUE)")  # TV-MC-18
    assert cmd.name is None and cmd.attrs == {"REPOS": "CL1", "DEADQ": "SYSTEM.DEAD.LETTER.QUEUE"}


def test_display_options_where_and_type() -> None:
    cmd = parse("DIS Q(*) TYPE(QLOCAL) WHERE(CURDEPTH GT 5) ALL CLUSINFO")
    assert cmd.options == {"TYPE": "QLOCAL"} and cmd.flags == {"ALL", "CLUSINFO"}
    assert cmd.where == Where("CURDEPTH", "GT", "5", cmd.where.pos if cmd.where else 0)
    assert parse("DIS QL(*) WHERE(DESCR LK 'abc*')").where == Where("DESCR", "LK", "abc*", 10)
    for op in ("EQ", "NE", "LT", "GT", "LE", "GE", "LK", "NL", "CT", "EX", "CTG", "EXG"):
        assert parse(f"DIS QL(*) WHERE(CLUSNL {op} X)").where is not None
    assert parse("DIS QSTATUS(Q1) TYPE(HANDLE)").options == {"TYPE": "HANDLE"}
    assert parse("DISPLAY TOPIC(X) TYPE").attrs == {"TYPE": True}  # requested, not the option


def test_delete_purge_and_end() -> None:
    assert parse("DELETE QLOCAL(X) PURGE").flags == {"PURGE"}
    assert parse("END") == Command("END", text="END")


def test_spans_point_at_keyword_and_value() -> None:
    cmd = parse("DEFINE QLOCAL(X) MAXDEPTH( abc ) SHARE")
    err = cmd.error("bad value", "MAXDEPTH")
    assert err.token == "MAXDEPTH( abc )" and err.segment == "DEFINE QLOCAL(X) MAXDEPTH( abc )"


@pytest.mark.parametrize(("text", "token"), [
    ("FOO QLOCAL(X)", "FOO"),
    ("DEFINE BANANA(X)", "BANANA"),
    ("DEFINE QLOCAL", "QLOCAL"),
    ("DEFINE QLOCAL MAXDEPTH(5)", "MAXDEPTH"),
    ("DEFINE QLOCAL(X", "X"),
    ("DEFINE QLOCAL(X) MAXDEPTH(5", "5"),
    ("DEFINE QLOCAL(X) MAXDEPTH(5))", ")"),
    ("DEFINE QLOCAL(X) REPLACE NOREPLACE", "NOREPLACE"),
    ("DEFINE QLOCAL(X) MAXDEPTH(1) MAXDEPTH(2)", "MAXDEPTH"),
    ("DEFINE QLOCAL(X) 'str'", "'str'"),
    ("DEFINE QLOCAL(X) REPLACE(YES)", "REPLACE"),
    ("DEFINE QLOCAL(X) LIKE", "LIKE"),
    ("DEFINE QLOCAL(X) LIKE(A,B)", "LIKE"),
    ("DIS QL(X) WHERE(CURDEPTH XX 1)", "XX"),
    ("DIS QL(X) WHERE CURDEPTH", "CURDEPTH"),
    ("DIS QL(X) WHERE(CURDEPTH GT 1", "1"),
    ("DELETE QMGR", "QMGR"),
    ("CLEAR QALIAS(X)", "QALIAS"),
    ("DEFINE QLOCAL(A B)", "("),
    ("DEFINE QLOCAL('')", "("),
    ("END NOW", "NOW"),
    ("", ""),
])
def test_syntax_errors_name_the_token(text: str, token: str) -> None:
    with pytest.raises(MqscSyntaxError) as info:
        parse(text)
    err = info.value
    assert err.token == token
    assert text[err.pos:].startswith(token)
    assert err.segment == text[: err.pos + len(token)].rstrip()
    assert (repr(token) in str(err)) if token else "end of command" in str(err)


_ALPHABET = st.sampled_from(list("DEFINQLOCA()'\" ,*+-WHERE=<>GT1234567890abc\t\n;_./%#"))


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=_ALPHABET, max_size=80) | st.text(max_size=60))
def test_fuzz_parser_only_raises_syntax_errors(text: str) -> None:
    for item in split_script(text):
        if item.kind == "command":
            try:
                cmd = parse(item.text)
            except MqscSyntaxError as err:
                assert 0 <= err.pos <= len(item.text)
                continue
            assert cmd.verb


_PREFIXES = {"DEFINE QLOCAL(A) ": ("DEFINE", "QLOCAL", "A"), "DIS QL(*) ": ("DISPLAY", "QLOCAL", "*"),
             "ALTER QMGR ": ("ALTER", "QMGR", None), "DEF TOPIC('t') ": ("DEFINE", "TOPIC", "t")}


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(sorted(_PREFIXES)), st.text(alphabet=_ALPHABET, max_size=40))
def test_fuzz_after_a_valid_prefix(prefix: str, rest: str) -> None:
    """Whatever follows, the command the prefix began is what parses, or the error points past it."""
    try:
        cmd = parse(prefix + rest)
    except MqscSyntaxError as err:
        assert len(prefix.rstrip()) <= err.pos <= len(prefix + rest)
    else:
        assert (cmd.verb, cmd.objtype, cmd.name) == _PREFIXES[prefix]
