"""MQSC executor and runmqsc output, against a small dict-backed admin API.

The admin here is a real (if tiny) implementation of ``AdminAPI``: it keeps definitions in
dicts and uses the attribute catalogue for defaults, as the core does.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mqlite import cmqc
from mqlite.core import attributes
from mqlite.core.errors import MQError
from mqlite.mqsc.commands import AdminAPI, MqscResult, Status, execute, run_command, run_mqsc
from mqlite.mqsc.display import pairs
from mqlite.mqsc.parser import parse

QUEUES = ("QLOCAL", "QALIAS", "QMODEL", "QREMOTE")


class MemoryAdmin:
    """Queues, topics and queue manager attributes in dicts; message depth is a counter."""

    def __init__(self) -> None:
        self.qmgr: dict[str, Any] = {"QMNAME": "QM1", **attributes.defaults("QMGR")}
        self.objs: dict[str, tuple[str, dict[str, Any]]] = {}  # "Q/name" or "TOPIC/name"
        self.depth: dict[str, int] = {}
        self.handles: dict[str, list[dict[str, Any]]] = {}
        self.calls: list[tuple[Any, ...]] = []

    @staticmethod
    def _key(objtype: str, name: str) -> str:
        return ("Q/" if objtype in (*QUEUES, "QUEUE") else f"{objtype}/") + name

    def define(self, objtype: str, name: str, attrs: dict[str, Any], like: str | None = None,
               replace: bool = False) -> None:
        self.calls.append(("define", objtype, name, attrs, like, replace))
        if objtype not in (*QUEUES, "TOPIC"):
            raise MQError(cmqc.MQRC_FUNCTION_NOT_SUPPORTED, f"DEFINE {objtype} is not supported")
        key = self._key(objtype, name)
        if key in self.objs and not replace:
            raise MQError(cmqc.MQRC_OBJECT_ALREADY_EXISTS, f"{name} exists")
        base = attributes.defaults(objtype)
        if like is not None:
            if self._key(objtype, like) not in self.objs:
                raise MQError(cmqc.MQRC_UNKNOWN_OBJECT_NAME, f"{like} not found")
            base = dict(self.objs[self._key(objtype, like)][1])
        base.update(attributes.validate(objtype, attrs))
        self.objs[key] = (objtype, base)
        if objtype == "QLOCAL":
            self.depth.setdefault(name, 0)

    def alter(self, objtype: str, name: str, attrs: dict[str, Any]) -> None:
        if objtype == "QMGR":
            self.qmgr.update(attributes.validate("QMGR", attrs))
            return
        kind, current = self._find(objtype, name)
        current.update(attributes.validate(kind, attrs))

    def _find(self, objtype: str, name: str) -> tuple[str, dict[str, Any]]:
        found = self.objs.get(self._key(objtype, name))
        if found is None:
            raise MQError(cmqc.MQRC_UNKNOWN_OBJECT_NAME, f"{name} not found")
        if objtype not in (found[0], "QUEUE"):
            raise MQError(cmqc.MQRC_OBJECT_TYPE_ERROR, f"{name} is a {found[0]}")
        return found

    def delete(self, objtype: str, name: str, purge: bool = False, authrec: bool = True) -> None:
        self._find(objtype, name)
        if self.depth.get(name) and not purge:
            raise MQError(cmqc.MQRC_Q_NOT_EMPTY, f"{name} is not empty")
        del self.objs[self._key(objtype, name)]
        self.depth.pop(name, None)

    def objects(self, objtype: str, generic: str) -> list[dict[str, Any]]:
        if objtype == "QMGR":
            return [dict(self.qmgr)]
        if objtype not in (*QUEUES, "QUEUE", "TOPIC"):
            raise MQError(cmqc.MQRC_FUNCTION_NOT_SUPPORTED, f"DISPLAY {objtype} is not supported")
        rows = []
        for key, (kind, attrs) in sorted(self.objs.items()):
            name = key.split("/", 1)[1]
            if objtype not in (kind, "QUEUE" if kind in QUEUES else "") or not attributes.generic_match(
                    generic, name):
                continue
            row = {attributes.name_key(kind): name, "TYPE": "LOCAL" if kind == "TOPIC" else kind, **attrs}
            if kind == "QLOCAL":
                row.update(CURDEPTH=self.depth[name], IPPROCS=0, OPPROCS=len(self.handles.get(name, [])))
            rows.append(row)
        if not rows and not generic.endswith("*"):
            raise MQError(cmqc.MQRC_UNKNOWN_OBJECT_NAME, f"{generic} not found")
        return rows

    def clear_queue(self, name: str) -> None:
        kind, _ = self._find("QUEUE", name)
        if kind != "QLOCAL":
            raise MQError(cmqc.MQRC_OBJECT_TYPE_ERROR, f"{name} is not local")
        self.depth[name] = 0

    # The pub/sub statuses are exercised against the real core in test_mqsc_pubsub.py.
    def sub_status_rows(self, generic: str, subtype: str = "USER") -> list[dict[str, Any]]:
        raise MQError(cmqc.MQRC_FUNCTION_NOT_SUPPORTED, "no subscriptions here")

    def topic_status_rows(self, pattern: str, status_type: str = "TOPIC") -> list[dict[str, Any]]:
        raise MQError(cmqc.MQRC_FUNCTION_NOT_SUPPORTED, "no topic tree here")

    def pubsub_status(self, status_type: str = "ALL") -> list[dict[str, Any]]:
        raise MQError(cmqc.MQRC_FUNCTION_NOT_SUPPORTED, "no pub/sub engine here")

    def refresh_proxies(self) -> None:
        raise MQError(cmqc.MQRC_FUNCTION_NOT_SUPPORTED, "no neighbours here")

    def route_status(self, generic: str) -> list[dict[str, Any]]:
        raise MQError(cmqc.MQRC_FUNCTION_NOT_SUPPORTED, "no routes here")

    def clear_retained(self, topic: str) -> bool:
        raise MQError(cmqc.MQRC_FUNCTION_NOT_SUPPORTED, "no retained publications here")

    def queue_status(self, generic: str, status_type: str) -> list[dict[str, Any]]:
        names = [n for n in sorted(self.depth) if attributes.generic_match(generic, n)]
        if not names and not generic.endswith("*"):
            raise MQError(cmqc.MQRC_UNKNOWN_OBJECT_NAME, f"{generic} not found")
        if status_type == "HANDLE":
            return [{"QUEUE": n, "TYPE": "HANDLE", **h} for n in names for h in self.handles.get(n, [])]
        return [{"QUEUE": n, "TYPE": "QUEUE", "CURDEPTH": self.depth[n], "IPPROCS": 0,
                 "OPPROCS": len(self.handles.get(n, [])), "UNCOM": "NO"} for n in names]


@pytest.fixture
def admin() -> MemoryAdmin:
    return MemoryAdmin()


def run(admin: MemoryAdmin, text: str) -> MqscResult:
    return run_mqsc(admin, text)


def out(admin: MemoryAdmin, text: str) -> list[str]:
    return execute(admin, text)


def test_memory_admin_is_an_admin_api(admin: MemoryAdmin) -> None:
    assert isinstance(admin, AdminAPI)


# -- runmqsc output shape -----------------------------------------------------------------------
def test_echo_numbering_messages_and_closing_lines(admin: MemoryAdmin) -> None:
    result = run(admin, "* make a queue\nDEFINE QLOCAL(APP.IN) +\n   DESCR('In')\n\ndis ql(APP.IN) descr\n")
    assert result.lines == [
        "       : * make a queue",
        "     1 : DEFINE QLOCAL(APP.IN) +",
        "       :    DESCR('In')",
        "AMQ8006I: WebSphere MQ queue created.",
        "       :",
        "     2 : dis ql(APP.IN) descr",
        "AMQ8409I: Display Queue details.",
        "   QUEUE(APP.IN)                           TYPE(QLOCAL)",
        "   DESCR(In)",
        "2 MQSC commands read.",
        "No commands have a syntax error.",
        "All valid MQSC commands were processed.",
    ]
    assert (result.commands, result.syntax_errors, result.failed, result.exit_code) == (2, 0, 0, 0)


def test_failures_and_syntax_errors_counted_exit_10(admin: MemoryAdmin) -> None:
    result = run(admin, "DEFINE QLOCAL(A)\nDEFINE QLOCAL(A)\nDEFINE QLOCAL(B) FOO(1)\nDISPLAY QLOCAL(NONE)\n")
    assert result.lines[-3:] == ["4 MQSC commands read.", "One command has a syntax error.",
                                 "2 valid MQSC commands could not be processed."]
    assert result.exit_code == 10
    one = run(admin, "DELETE QLOCAL(NOPE)\nBAD\nBAD\n")
    assert one.lines[-3:] == ["3 MQSC commands read.", "2 commands have a syntax error.",
                              "One valid MQSC command could not be processed."]


def test_empty_script_and_end(admin: MemoryAdmin) -> None:
    assert run(admin, "").lines == ["No MQSC commands read.", "No commands have a syntax error.",
                                    "All valid MQSC commands were processed."]
    result = run(admin, "DEFINE QLOCAL(A)\nEND\nDEFINE QLOCAL(B)\n")
    assert "     2 : END" in result.lines and result.commands == 1
    assert "Q/B" not in admin.objs


def test_queue_manager_gone_exits_20(admin: MemoryAdmin) -> None:
    class Gone(MemoryAdmin):
        def objects(self, objtype: str, generic: str) -> list[dict[str, Any]]:
            raise MQError(cmqc.MQRC_Q_MGR_NOT_AVAILABLE, "stopping")

    result = run(Gone(), "DISPLAY QMGR\nDEFINE QLOCAL(A)\n")
    assert result.exit_code == 20 and result.commands == 1
    assert not any("AMQ8006I" in line for line in result.lines)


def test_admin_bug_is_reported_not_raised(admin: MemoryAdmin) -> None:
    class Buggy(MemoryAdmin):
        def clear_queue(self, name: str) -> None:
            raise RuntimeError("boom")

    result = run(Buggy(), "CLEAR QLOCAL(X)\n")
    assert result.exit_code == 10 and "boom" in result.lines[1]


# -- DEFINE / ALTER / DELETE / CLEAR ------------------------------------------------------------
def test_define_passes_typed_canonical_attributes(admin: MemoryAdmin) -> None:
    out(admin, "DEFINE QLOCAL(A) DESCR('Mixed Case') MAXDEPTH(10) NOSHARE PUT(disabled) TRIGGER")
    assert admin.calls[-1] == ("define", "QLOCAL", "A", {
        "DESCR": "Mixed Case", "MAXDEPTH": 10, "SHARE": False, "PUT": "DISABLED", "TRIGGER": True},
        None, False)


def test_replace_noreplace_and_like(admin: MemoryAdmin) -> None:
    out(admin, "DEFINE QLOCAL(QSPORTS) REPLACE")  # TV-MC-06
    assert out(admin, "DEFINE QLOCAL(QSPORTS) REPLACE") == ["AMQ8006I: WebSphere MQ queue created."]
    assert out(admin, "DEFINE QLOCAL(QSPORTS) NOREPLACE") == ["AMQ8150E: WebSphere MQ object already exists."]
    out(admin, "DEFINE QLOCAL(MODEL) MAXDEPTH(7)")
    out(admin, "DEFINE QLOCAL(COPY) LIKE(MODEL)")
    assert admin.objs["Q/COPY"][1]["MAXDEPTH"] == 7
    assert out(admin, "DEFINE QLOCAL(C2) LIKE(NOSUCH)") == ["AMQ8147E: WebSphere MQ object NOSUCH not found."]


def test_alter_delete_clear_messages(admin: MemoryAdmin) -> None:
    out(admin, "DEFINE QLOCAL(Q)")
    assert out(admin, "ALTER QLOCAL(Q) MAXDEPTH(9)") == ["AMQ8008I: WebSphere MQ queue changed."]
    admin.depth["Q"] = 3
    assert out(admin, "DELETE QLOCAL(Q)") == ["AMQ8143E: WebSphere MQ queue Q not empty."]
    assert out(admin, "CLEAR QLOCAL(Q)") == ["AMQ8022I: WebSphere MQ queue cleared."]  # TV-MC-07
    admin.depth["Q"] = 3
    assert out(admin, "DELETE QLOCAL(Q) PURGE") == ["AMQ8007I: WebSphere MQ queue deleted."]
    assert out(admin, "ALTER QLOCAL(Q) MAXDEPTH(9)") == ["AMQ8147E: WebSphere MQ object Q not found."]
    out(admin, "DEFINE QALIAS(AL) TARGET(X)")
    assert out(admin, "DELETE QLOCAL(AL)") == ["AMQ8151E: WebSphere MQ object has different type."]


def test_alter_qmgr_tv_mc_16_18_and_spec_b(admin: MemoryAdmin) -> None:
    assert out(admin, "ALTER QMGR TREELIFE(900)") == ["AMQ8005I: WebSphere MQ queue manager changed."]
    assert admin.qmgr["TREELIFE"] == 900  # TV-MC-16
    out(admin, "ALTER QMGR REPOS(CL1) DEADQ(SYSTEM.DEAD.LETTER.QUEUE)")  # TV-MC-18
    assert admin.qmgr["REPOS"] == "CL1" and admin.qmgr["DEADQ"] == "SYSTEM.DEAD.LETTER.QUEUE"
    out(admin, "alter qmgr parent(QM1)")  # SC-106
    assert admin.qmgr["PARENT"] == "QM1"
    out(admin, "ALTER QMGR PARENT('')")
    assert admin.qmgr["PARENT"] == ""
    out(admin, "ALTER QMGR PSMODE(ENABLE)")  # SC-112
    assert admin.qmgr["PSMODE"] == "ENABLED"


def test_qremote_blank_rname_sc_105(admin: MemoryAdmin) -> None:
    out(admin, "DEFINE QREMOTE (PARENT) RNAME(' ') RQMNAME(PARENT) XMITQ(PARENT.XMITQ)")
    assert admin.objs["Q/PARENT"][1]["RNAME"] == ""
    assert admin.objs["Q/PARENT"][1]["XMITQ"] == "PARENT.XMITQ"


def test_topic_vectors_tv_mc_01_to_05(admin: MemoryAdmin) -> None:
    result = run(admin, (
        "DEFINE TOPIC (FOOTBALL.EUROPEAN) TOPICSTR ('Sport/Soccer') DURSUB (NO) "
        "DESCR ('Administrative topic object to disallow durable subscriptions')\n"
        "ALTER TOPIC (FOOTBALL.EUROPEAN) DURSUB (NO)\n"
        "DEFINE TOPIC ('Football') TOPICSTR('Sports/Football') CLUSTER(CL1) WILDCARD(BLOCK)\n"
        "DEFINE TOPIC ('St. Helens') TOPICSTR('Sports/Rugby/St. Helens')\n"
        "DEFINE TOPIC ('Sports') TOPICSTR('Sports')\n"
        "DELETE TOPIC ('Sports')\n"
        "DISPLAY TOPIC(FOOTBALL.EUROPEAN) TOPICSTR DURSUB\n"))
    assert result.exit_code == 0, result.lines
    assert admin.objs["TOPIC/Football"][1]["WILDCARD"] == "BLOCK"
    assert admin.objs["TOPIC/Football"][1]["CLUSTER"] == "CL1"
    assert "TOPIC/St. Helens" in admin.objs and "TOPIC/Sports" not in admin.objs
    assert "   TOPIC(FOOTBALL.EUROPEAN)                TYPE(LOCAL)" in result.lines
    assert "   DURSUB(NO)                              TOPICSTR(Sport/Soccer)" in result.lines


def test_unsupported_object_types_fail_not_crash(admin: MemoryAdmin) -> None:
    result = run(admin, "DEFINE SUB (SPORTS) TOPICSTR('Sports/#') DEST(QSPORTS)\n"
                        "display pubsub type(All)\nSTART LISTENER(L)\n")
    assert result.failed == 3 and result.syntax_errors == 0
    assert admin.calls[-1][:3] == ("define", "SUB", "SPORTS")  # raw attrs reach the admin
    assert admin.calls[-1][3] == {"TOPICSTR": "Sports/#", "DEST": "QSPORTS"}
    assert any("MQRC_FUNCTION_NOT_SUPPORTED" in line for line in result.lines)


# -- syntax errors and bad values ---------------------------------------------------------------
@pytest.mark.parametrize(("command", "token"), [
    ("DEFINE QLOCAL(X) FOO(1)", "FOO(1)"),
    ("DEFINE QLOCAL(X) PUT(MAYBE)", "PUT(MAYBE)"),
    ("DEFINE QLOCAL(X) MAXDEPTH(many)", "MAXDEPTH(many)"),
    ("DEFINE QLOCAL(X) SHARE(YES)", "SHARE(YES)"),
    ("DEFINE QLOCAL(X) CLUSTER", "CLUSTER"),  # SC-108: CLUSTER needs a value
    ("DEFINE QLOCAL(X) CURDEPTH(3)", "CURDEPTH(3)"),
    ("DEFINE QALIAS(X) TARGQ(A) TARGET(B)", "TARGET(B)"),
    ("ALTER QMGR MAXPRTY(5)", "MAXPRTY(5)"),
    ("DISPLAY QLOCAL(X) NOSUCH", "NOSUCH"),
    ("DISPLAY QLOCAL(X) MAXDEPTH(5)", "MAXDEPTH(5)"),
    ("DISPLAY QLOCAL(*) WHERE(NOSUCH EQ 1)", "WHERE(NOSUCH EQ 1)"),
    ("DISPLAY QSTATUS(X) TYPE(OTHER)", "TYPE(OTHER)"),
    ("DISPLAY QUEUE(*) TYPE(QBANANA)", "TYPE(QBANANA)"),
    ("DELETE QLOCAL(X) MAXDEPTH(1)", "MAXDEPTH(1)"),
    ("DEFINE QLOCAL(X", "X"),
])
def test_syntax_errors_name_the_offending_token(admin: MemoryAdmin, command: str, token: str) -> None:
    result = run(admin, command + "\n")
    assert result.syntax_errors == 1 and result.failed == 0 and result.exit_code == 10
    assert result.lines[1] == "AMQ8405I: Syntax error detected at or near end of command segment below:-"
    assert result.lines[2] == command[: command.index(token) + len(token)]
    assert repr(token) in result.lines[3]
    assert "Q/X" not in admin.objs


def test_syntax_error_takes_precedence_over_range_error(admin: MemoryAdmin) -> None:
    outcome = run_command(admin, parse("DEFINE QLOCAL(X) MAXDEPTH(-1) PUT(MAYBE)"))
    assert outcome.status is Status.SYNTAX


def test_out_of_range_value_fails_naming_the_attribute(admin: MemoryAdmin) -> None:
    result = run(admin, "DEFINE QLOCAL(X) MAXDEPTH(-1)\nALTER QMGR TREELIFE(999999)\n")
    assert result.failed == 2 and result.syntax_errors == 0
    assert "MAXDEPTH(-1)" in result.lines[1] and "MQRCCF_PARM_VALUE_ERROR" in result.lines[1]
    assert "TREELIFE(999999)" in result.lines[3]


def test_unknown_command_lists_valid_commands(admin: MemoryAdmin) -> None:
    lines = out(admin, "FROB QLOCAL(X)")
    assert lines[:2] == ["AMQ8405I: Syntax error detected at or near end of command segment below:-", "FROB"]
    assert "AMQ8426I: Valid MQSC commands are:" in lines and "    DEFINE" in lines


# -- DISPLAY ------------------------------------------------------------------------------------
def test_display_specific_name_shows_all(admin: MemoryAdmin) -> None:
    out(admin, "DEFINE QLOCAL(APP.IN) DESCR('My queue') HARDENBO NOSHARE")
    lines = out(admin, "DISPLAY QLOCAL(APP.IN)")
    assert lines[0] == "AMQ8409I: Display Queue details."
    assert lines[1] == "   QUEUE(APP.IN)                           TYPE(QLOCAL)"
    text = "\n".join(lines)
    for item in ("DESCR(My queue)", "HARDENBO", "NOSHARE", "NOTRIGGER", "MAXDEPTH(5000)", "CURDEPTH(0)",
                 "DEFPSIST(NO)", "BOQNAME( )", "DEFTYPE(PREDEFINED)", "USAGE(NORMAL)"):
        assert item in text, item
    items = [part for line in lines[2:] for part in (line[3:43].strip(), line[43:]) if part]
    keywords = [item.split("(")[0] for item in items]
    assert keywords == sorted(keywords) and len(keywords) > 40  # IBM's alphabetical order


def test_display_generic_shows_names_only_unless_asked(admin: MemoryAdmin) -> None:
    out(admin, "DEFINE QLOCAL(APP.A)")
    out(admin, "DEFINE QLOCAL(APP.B) MAXDEPTH(7)")
    out(admin, "DEFINE QLOCAL(OTHER)")
    lines = out(admin, "DIS QL(APP.*)")
    assert lines == ["AMQ8409I: Display Queue details.",
                     "   QUEUE(APP.A)                            TYPE(QLOCAL)",
                     "AMQ8409I: Display Queue details.",
                     "   QUEUE(APP.B)                            TYPE(QLOCAL)"]
    lines = out(admin, "DIS QL(APP.B) MAXDEPTH CURDEPTH")
    assert lines[2] == "   CURDEPTH(0)                             MAXDEPTH(7)"
    assert len(out(admin, "DIS QL(APP.*) ALL")) > 20
    assert out(admin, "DIS QL(NONE.*)") == ["AMQ8147E: WebSphere MQ object NONE.* not found."]


def test_display_queue_type_filter(admin: MemoryAdmin) -> None:
    out(admin, "DEFINE QLOCAL(L1)")
    out(admin, "DEFINE QALIAS(A1) TARGQ(L1)")
    out(admin, "DEFINE QMODEL(M1)")
    assert [ln.split()[0] for ln in out(admin, "DIS Q(*)") if ln.startswith("   ")] == [
        "QUEUE(A1)", "QUEUE(L1)", "QUEUE(M1)"]
    lines = out(admin, "DISPLAY QUEUE(*) TYPE(QALIAS) TARGET")
    assert lines[1:] == ["   QUEUE(A1)                               TYPE(QALIAS)", "   TARGET(L1)"]
    assert "DEFTYPE(TEMPDYN)" in "\n".join(out(admin, "DIS QMODEL(M1) DEFTYPE"))


def test_display_where(admin: MemoryAdmin) -> None:
    out(admin, "DEFINE QLOCAL(BIG) MAXDEPTH(100000) DESCR('Alpha one')")
    out(admin, "DEFINE QLOCAL(SMALL) MAXDEPTH(10) PUT(DISABLED) NOSHARE")

    def names(cmd: str) -> list[str]:
        return [ln.split()[0] for ln in out(admin, cmd) if ln.startswith("   QUEUE(")]

    assert names("DIS QL(*) WHERE(MAXDEPTH GT 1000)") == ["QUEUE(BIG)"]
    assert names("DIS QL(*) WHERE(MAXDEPTH LE 10)") == ["QUEUE(SMALL)"]
    assert names("DIS QL(*) WHERE(PUT EQ DISABLED)") == ["QUEUE(SMALL)"]
    assert names("DIS QL(*) WHERE(PUT NE disabled)") == ["QUEUE(BIG)"]
    assert names("DIS QL(*) WHERE(DESCR LK 'Alpha*')") == ["QUEUE(BIG)"]
    assert names("DIS QL(*) WHERE(DESCR NL 'Alpha*')") == ["QUEUE(SMALL)"]
    assert names("DIS QL(*) WHERE(SHARE EQ NO)") == ["QUEUE(SMALL)"]
    assert names("DIS QL(*) WHERE(NOSHARE EQ NOSHARE)") == ["QUEUE(SMALL)"]
    assert names("DIS QL(*) WHERE(DESCR CT 'Alpha one')") == ["QUEUE(BIG)"]
    assert names("DIS QL(*) WHERE(DESCR EXG 'Alpha*')") == ["QUEUE(SMALL)"]
    assert names("DIS QL(*) WHERE(MAXDEPTH EQ 5)") == []
    lines = out(admin, "DIS QL(*) WHERE(MAXDEPTH GT 1000)")
    assert lines[2] == "   MAXDEPTH(100000)"  # the filter keyword is shown
    assert out(admin, "DIS QL(*) WHERE(MAXDEPTH GT lots)")[0].startswith("AMQ8405I")


def test_display_qmgr(admin: MemoryAdmin) -> None:
    lines = out(admin, "DISPLAY QMGR TREELIFE")  # TV-TT-05
    assert lines == ["AMQ8408I: Display Queue Manager details.",
                     "   QMNAME(QM1)                             TREELIFE(1800)"]
    text = "\n".join(out(admin, "DISPLAY QMGR"))
    for item in ("MAXPRTY(9)", "CCSID(1208)", "CMDLEVEL(700)", "PLATFORM(UNIX)", "PSMODE(ENABLED)",
                 "MAXPROPL(NOLIMIT)", "DEADQ( )", "SYNCPT"):
        assert item in text, item


def test_display_qstatus(admin: MemoryAdmin) -> None:
    out(admin, "DEFINE QLOCAL(Q1)")
    admin.depth["Q1"] = 4
    lines = out(admin, "DISPLAY QSTATUS(Q1)")
    assert lines == ["AMQ8450I: Display queue status details.",
                     "   QUEUE(Q1)                               TYPE(QUEUE)",
                     "   CURDEPTH(4)                             IPPROCS(0)",
                     "   OPPROCS(0)                              UNCOM(NO)"]
    assert out(admin, "DIS QS(Q1) CURDEPTH")[2] == "   CURDEPTH(4)"
    assert out(admin, "DIS QSTATUS(Q1) TYPE(HANDLE)") == []
    admin.handles["Q1"] = [{"APPLTAG": "amqsput", "OUTPUT": "YES", "INPUT": "NO"}]
    lines = out(admin, "DIS QSTATUS(Q1) TYPE(HANDLE)")
    assert lines[1] == "   QUEUE(Q1)                               TYPE(HANDLE)"
    assert "APPLTAG(amqsput)" in lines[2]
    assert out(admin, "DIS QSTATUS(NOPE)") == ["AMQ8147E: WebSphere MQ object NOPE not found."]


def test_pairs_layout_long_items_stand_alone() -> None:
    long = "DESCR(" + "x" * 50 + ")"
    assert pairs(["A(1)", long, "B(2)", "C(3)"]) == ["   A(1)", "   " + long,
                                                    "   B(2)" + " " * 36 + "C(3)"]


# -- robustness ---------------------------------------------------------------------------------
_WORDS = st.sampled_from(["DEFINE", "DIS", "ALTER", "DELETE", "CLEAR", "QLOCAL", "QL", "Q", "QMGR",
                          "QSTATUS", "TOPIC", "(A)", "(*)", "MAXDEPTH(5)", "PUT(X)", "WHERE(CURDEPTH",
                          "GT", "1)", "'q'", "+\n", "\n", "*", "ALL", "TYPE(HANDLE)", "NOSHARE", "END"])


@settings(max_examples=300, deadline=None)
@given(st.lists(_WORDS, max_size=14).map(" ".join))
def test_fuzz_run_mqsc_never_raises(text: str) -> None:
    result = run_mqsc(MemoryAdmin(), text)
    assert result.lines[-3].endswith("read.")
    assert result.exit_code in (0, 10)
    assert result.syntax_errors + result.failed <= result.commands
