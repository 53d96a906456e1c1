"""MQSC over ROUTE objects and the EMS-style topic attributes, against the real core without
sockets (B §23): DEFINE / ALTER / DELETE / DISPLAY ROUTE, the checks of a route's rules and zone,
GLOBAL / MAXMSGS / MAXBYTES / OVERFLOW on topics and their inheritance, and DISPLAY RTSTATUS."""

from __future__ import annotations

import re

import pytest

from mqlite.core.network.routes.rules import ONEHOP, Rule
from mqlite.core.qmgr import QueueManager
from mqlite.mqsc.commands import execute, run_mqsc

WEST = "DEFINE ROUTE(QM2) ZONE(Z1) ZONETYPE(1HOP) OUTGOING('orders selector=\"region = ''west''\"')"
NOT_FOUND = "AMQ8147E: WebSphere MQ object {} not found."


def run(qm: QueueManager, text: str) -> list[str]:
    return execute(qm, text)


def values(lines: list[str], key: str) -> list[str]:
    return [m.group(1) for line in lines for m in re.finditer(rf"\b{key}\((.*?)\)(?=\s|$)", line)]


def ok(qm: QueueManager, text: str) -> list[str]:
    lines = run(qm, text)
    assert lines and re.match(r"AMQ\d{4}I", lines[0]), lines
    return lines


def routes(qm: QueueManager) -> list[str]:
    return sorted(qm.route_definitions.routes)


# -- DEFINE / DISPLAY / ALTER / DELETE ROUTE ------------------------------------------------------


def test_define_route_and_display_it(qm: QueueManager) -> None:
    """B:R-EMS-13, B:A-60, B:SC-99: the routes.conf properties as ROUTE attributes."""
    assert ok(qm, WEST) == ["AMQ8950I: mqlite route created."]
    shown = run(qm, "DISPLAY ROUTE(QM2) ALL")
    assert shown[0] == "AMQ8953I: Display route details."
    assert values(shown, "ROUTE") == ["QM2"]
    assert values(shown, "ZONE") == ["Z1"] and values(shown, "ZONETYPE") == ["1HOP"]
    assert values(shown, "OUTGOING") == ["orders selector=\"region = 'west'\""]
    assert values(shown, "INCOMING") == [" "]
    assert values(shown, "ALTDATE") and values(shown, "ALTTIME")
    state = qm.routes.routes["QM2"]  # the route service follows the definition (this side is active, A-56)
    assert state.defined and state.zone == "Z1" and state.zone_type == ONEHOP
    assert state.outgoing == (Rule("orders", "region = 'west'"),)


def test_display_selected_attributes_and_generic_names(qm: QueueManager) -> None:
    """B:A-60: DISPLAY ROUTE(generic) with attribute names."""
    ok(qm, WEST)
    ok(qm, "DEFINE ROUTE(QM3)")
    shown = run(qm, "DISPLAY ROUTE(QM*) ZONE")
    assert values(shown, "ROUTE") == ["QM2", "QM3"]
    assert values(shown, "ZONE") == ["Z1", "DEFAULT_MHOP_ZONE"]
    assert values(shown, "OUTGOING") == []


def test_a_defined_route_has_a_store_queue(qm: QueueManager) -> None:
    """B:R-EMS-1: the forwarding server stores messages while the route is down (SYSTEM.ROUTE.<peer>)."""
    ok(qm, WEST)
    shown = run(qm, "DISPLAY QLOCAL(SYSTEM.ROUTE.QM2) DEFPSIST CURDEPTH")
    assert values(shown, "QUEUE") == ["SYSTEM.ROUTE.QM2"]
    assert values(shown, "DEFPSIST") == ["YES"] and values(shown, "CURDEPTH") == ["0"]


def test_alter_route(qm: QueueManager) -> None:
    """B:R-EMS-11, B:R-EMS-12, B:A-59: ALTER changes the attributes it names, keeps the others."""
    ok(qm, WEST)
    assert ok(qm, "ALTER ROUTE(QM2) DESCR('to the west') ZONETYPE(MHOP) "
                  "INCOMING('orders selector=\"amount > 0\"', 'prices/#')") == ["AMQ8951I: mqlite route changed."]
    shown = run(qm, "DISPLAY ROUTE(QM2) ALL")
    assert values(shown, "DESCR") == ["to the west"]
    assert values(shown, "ZONE") == ["Z1"] and values(shown, "ZONETYPE") == ["MHOP"]
    assert values(shown, "OUTGOING") == ["orders selector=\"region = 'west'\""]
    assert values(shown, "INCOMING") == ['orders selector="amount > 0",prices/#']
    state = qm.routes.routes["QM2"]
    assert state.zone_type == "MHOP"
    assert state.incoming == (Rule("orders", "amount > 0"), Rule("prices/#"))


def test_delete_route(qm: QueueManager) -> None:
    """B:A-55, B:A-56: a deleted route is gone: its definition, its status and its store queue."""
    ok(qm, WEST)
    assert ok(qm, "DELETE ROUTE(QM2)") == ["AMQ8952I: mqlite route deleted."]
    assert run(qm, "DISPLAY ROUTE(QM2)") == [NOT_FOUND.format("QM2")]
    assert run(qm, "DISPLAY RTSTATUS(QM2)") == [NOT_FOUND.format("QM2")]
    assert run(qm, "DISPLAY QLOCAL(SYSTEM.ROUTE.QM2)") == [NOT_FOUND.format("SYSTEM.ROUTE.QM2")]
    assert "QM2" not in qm.routes.routes and routes(qm) == []
    assert run(qm, "DELETE ROUTE(QM2)") == [NOT_FOUND.format("QM2")]
    assert run(qm, "ALTER ROUTE(QM2) DESCR(x)") == [NOT_FOUND.format("QM2")]


def test_define_an_existing_route_needs_replace(qm: QueueManager) -> None:
    """B:A-60: DEFINE of an existing route fails without REPLACE and leaves it as it was."""
    ok(qm, WEST)
    assert run(qm, "DEFINE ROUTE(QM2) ZONE(Z9)") == ["AMQ8150E: WebSphere MQ object already exists."]
    assert values(run(qm, "DISPLAY ROUTE(QM2) ZONE"), "ZONE") == ["Z1"]
    ok(qm, "DEFINE ROUTE(QM2) ZONE(Z9) REPLACE")
    shown = run(qm, "DISPLAY ROUTE(QM2) ALL")
    assert values(shown, "ZONE") == ["Z9"] and values(shown, "OUTGOING") == [" "]


def test_define_like_copies_the_model(qm: QueueManager) -> None:
    """B:A-60: LIKE takes the other route's zone and rules."""
    ok(qm, WEST)
    ok(qm, "DEFINE ROUTE(QM3) LIKE(QM2)")
    shown = run(qm, "DISPLAY ROUTE(QM3) ALL")
    assert values(shown, "ZONE") == ["Z1"] and values(shown, "ZONETYPE") == ["1HOP"]
    assert values(shown, "OUTGOING") == ["orders selector=\"region = 'west'\""]
    assert run(qm, "DEFINE ROUTE(QM4) LIKE(NOPE)") == [NOT_FOUND.format("NOPE")]


def test_a_route_to_this_queue_manager_is_refused(qm: QueueManager) -> None:
    """B:A-55: a route is named after the server at its other end, never this one (3074)."""
    lines = run(qm, "DEFINE ROUTE(QM1)")
    assert lines[0].startswith("AMQ8101E") and "MQRCCF_Q_MGR_NAME_ERROR (3074)" in lines[0]
    assert routes(qm) == [] and "QM1" not in qm.routes.routes


def test_a_bad_selector_fails_the_command_and_defines_nothing(qm: QueueManager) -> None:
    """B:R-EMS-12 (JMS selector language), B:A-59: a bad selector fails the DEFINE, not a publication later."""
    lines = run(qm, "DEFINE ROUTE(QM3) OUTGOING('orders selector=\"region = = 1\"')")
    assert "MQRC_SELECTOR_SYNTAX_ERROR (2459)" in lines[0] and "OUTGOING" in lines[0]
    assert run(qm, "DISPLAY ROUTE(QM3)") == [NOT_FOUND.format("QM3")]
    assert routes(qm) == [] and "QM3" not in qm.routes.routes


def test_a_bad_selector_fails_alter_and_changes_nothing(qm: QueueManager) -> None:
    """B:R-EMS-11, B:A-59: INCOMING items are checked like OUTGOING ones."""
    ok(qm, WEST)
    lines = run(qm, "ALTER ROUTE(QM2) ZONE(Z2) INCOMING('orders selector=\"amount >\"')")
    assert "(2459)" in lines[0]
    shown = run(qm, "DISPLAY ROUTE(QM2) ALL")
    assert values(shown, "ZONE") == ["Z1"] and values(shown, "INCOMING") == [" "]
    assert qm.routes.routes["QM2"].incoming == ()


def test_an_item_without_a_topic_fails(qm: QueueManager) -> None:
    """B:A-60: every OUTGOING / INCOMING item names a topic (MQRCCF_PARM_VALUE_ERROR, 3229)."""
    lines = run(qm, "DEFINE ROUTE(QM3) OUTGOING('selector=\"amount > 0\"')")
    assert "(3229)" in lines[0]
    assert routes(qm) == []


def test_a_selector_with_commas_is_kept_whole(qm: QueueManager) -> None:
    """B:R-EMS-10, B:R-EMS-12: `region IN ('a','b')` is one selector; its commas do not split the item."""
    run(qm, "DEFINE ROUTE(QM3) OUTGOING('orders selector=\"region IN (''a'',''b'')\"')")
    assert qm.route_definitions.routes["QM3"]["OUTGOING"] == ["orders selector=\"region IN ('a','b')\""]
    assert qm.routes.routes["QM3"].outgoing == (Rule("orders", "region IN ('a','b')"),)


def test_several_items_keep_commas_inside_selectors(qm: QueueManager) -> None:
    """B:R-EMS-10, B:A-59: a list of quoted items keeps each item whole."""
    ok(qm, "DEFINE ROUTE(QM3) OUTGOING('orders selector=\"region IN (''a'',''b'')\"', 'prices')")
    assert qm.routes.routes["QM3"].outgoing == (Rule("orders", "region IN ('a','b')"), Rule("prices"))


def test_one_zone_has_one_type(qm: QueueManager) -> None:
    """B:R-EMS-13, B:A-60: two routes may not put one zone in different types (MQRCCF_PARM_CONFLICT, 3203)."""
    ok(qm, WEST)
    lines = run(qm, "DEFINE ROUTE(QM3) ZONE(Z1) ZONETYPE(MHOP)")
    assert "MQRCCF_PARM_CONFLICT (3203)" in lines[0]
    assert "(3203)" in run(qm, "DEFINE ROUTE(QM3) ZONE(Z1)")[0]  # MHOP by default
    assert routes(qm) == ["QM2"]
    ok(qm, "DEFINE ROUTE(QM3) ZONE(Z1) ZONETYPE(1HOP)")
    assert "(3203)" in run(qm, "ALTER ROUTE(QM2) ZONETYPE(MHOP)")[0]  # QM3 keeps Z1 1HOP
    assert values(run(qm, "DISPLAY ROUTE(QM2) ZONETYPE"), "ZONETYPE") == ["1HOP"]
    ok(qm, "DEFINE ROUTE(QM4) ZONE(Z2) ZONETYPE(MHOP)")  # another zone, another type


def test_a_blank_zone_is_refused(qm: QueueManager) -> None:
    """B:R-EMS-13: every route belongs to one zone."""
    assert "(3229)" in run(qm, "DEFINE ROUTE(QM3) ZONE(' ')")[0]
    assert routes(qm) == []


def test_zonetype_bad_is_a_syntax_error(qm: QueueManager) -> None:
    """B:A-60: ZONETYPE is MHOP or 1HOP (ONEHOP / MULTIHOP spell them too)."""
    result = run_mqsc(qm, "DEFINE ROUTE(QM3) ZONETYPE(BAD)\n")
    assert result.syntax_errors == 1 and result.exit_code == 10
    assert any(line.startswith("AMQ8405I") for line in result.lines)
    assert routes(qm) == []
    ok(qm, "DEFINE ROUTE(QM3) ZONE(Z3) ZONETYPE(ONEHOP)")
    assert values(run(qm, "DISPLAY ROUTE(QM3) ZONETYPE"), "ZONETYPE") == ["1HOP"]


# -- topic attributes -----------------------------------------------------------------------------


def test_define_topic_with_route_properties(qm: QueueManager) -> None:
    """B:R-EMS-8, B:R-EMS-9, B:A-57, B:A-58, B:SC-98: `T1 global,maxmsgs=2,overflowPolicy=discardOld`."""
    ok(qm, "DEFINE TOPIC(T) TOPICSTR('T') GLOBAL(YES) MAXMSGS(2) OVERFLOW(DISCARDOLD)")
    shown = run(qm, "DISPLAY TOPIC(T)")
    assert values(shown, "GLOBAL") == ["YES"] and values(shown, "MAXMSGS") == ["2"]
    assert values(shown, "OVERFLOW") == ["DISCARDOLD"] and values(shown, "MAXBYTES") == ["ASPARENT"]
    ok(qm, "ALTER TOPIC(T) MAXBYTES(1048576) OVERFLOW(REJECTINCOMING)")
    shown = run(qm, "DISPLAY TOPIC(T) MAXBYTES OVERFLOW")
    assert values(shown, "MAXBYTES") == ["1048576"] and values(shown, "OVERFLOW") == ["REJECTINCOMING"]


@pytest.mark.parametrize(("given", "stored"), [("10KB", 10_240), ("10mb", 10_485_760), ("1GB", 1_073_741_824),
                                             ("2 MB", 2_097_152), ("512", 512)])
def test_maxbytes_takes_ems_units(qm: QueueManager, given: str, stored: int) -> None:
    """B:R-EMS-8 (topics.conf "maxbytes=10MB"): KB, MB and GB multiply by 1024, 1024**2, 1024**3."""
    value = f"'{given}'" if " " in given else given  # unquoted too: MAXBYTES(10MB)
    ok(qm, f"DEFINE TOPIC(T) TOPICSTR('T') MAXBYTES({value})")
    assert values(run(qm, "DISPLAY TOPIC(T) MAXBYTES"), "MAXBYTES") == [str(stored)]


def test_maxbytes_beyond_an_mqlong_is_refused(qm: QueueManager) -> None:
    assert "(3229)" in run(qm, "DEFINE TOPIC(X) TOPICSTR('X') MAXBYTES(2GB)")[0]
    assert run_mqsc(qm, "DEFINE TOPIC(X) TOPICSTR('X') MAXBYTES(10TB)\n").syntax_errors == 1


@pytest.mark.parametrize("command", [
    "DEFINE TOPIC(X) TOPICSTR('X') GLOBAL(MAYBE)",
    "DEFINE TOPIC(X) TOPICSTR('X') OVERFLOW(SOMETIMES)",
])
def test_bad_topic_route_property_values_are_syntax_errors(qm: QueueManager, command: str) -> None:
    """B:A-57, B:A-58."""
    assert run_mqsc(qm, command + "\n").syntax_errors == 1
    assert run(qm, "DISPLAY TOPIC(X)") == [NOT_FOUND.format("X")]


def test_a_negative_maxmsgs_is_refused(qm: QueueManager) -> None:
    """B:A-57: a count, 0 = unlimited."""
    assert "(3229)" in run(qm, "DEFINE TOPIC(X) TOPICSTR('X') MAXMSGS(-1)")[0]
    assert run(qm, "DISPLAY TOPIC(X)") == [NOT_FOUND.format("X")]


def test_the_base_topic_is_not_global_and_unlimited(qm: QueueManager) -> None:
    """B:A-57, B:A-58: absent = not global, no limits, the default overflow policy."""
    shown = run(qm, "DISPLAY TOPIC(SYSTEM.BASE.TOPIC)")
    assert values(shown, "GLOBAL") == ["NO"] and values(shown, "MAXMSGS") == ["0"]
    assert values(shown, "MAXBYTES") == ["0"] and values(shown, "OVERFLOW") == ["DEFAULT"]
    assert not qm.routes.global_topic("anything/at/all")


def test_asparent_resolves_to_the_parents_values(qm: QueueManager) -> None:
    """B:A-58, B:A-57: GLOBAL / MAXMSGS / OVERFLOW inherit down the topic tree."""
    ok(qm, "DEFINE TOPIC(T) TOPICSTR('T') GLOBAL(YES) MAXMSGS(2) OVERFLOW(DISCARDOLD)")
    ok(qm, "DEFINE TOPIC(TC) TOPICSTR('T/C') GLOBAL(ASPARENT)")
    resolved = qm.tree.resolved(qm.tree.owner_of_pattern("T/C", False))
    assert resolved["GLOBAL"] == "YES" and resolved["MAXMSGS"] == 2 and resolved["OVERFLOW"] == "DISCARDOLD"
    assert resolved["MAXBYTES"] == 0  # from SYSTEM.BASE.TOPIC
    assert qm.routes.global_topic("T/C") and qm.routes.global_topic("T/C/deeper")
    assert qm.routes.global_topic("T/#") and qm.routes.global_topic("T")
    assert not qm.routes.global_topic("U") and not qm.routes.global_topic("#")


def test_global_follows_alter_and_a_child_may_opt_out(qm: QueueManager) -> None:
    """B:A-58, B:SC-102: only GLOBAL(YES) topics are routed; a child with GLOBAL(NO) is not."""
    ok(qm, "DEFINE TOPIC(T) TOPICSTR('T') GLOBAL(YES)")
    ok(qm, "DEFINE TOPIC(TN) TOPICSTR('T/N') GLOBAL(NO)")
    assert qm.routes.global_topic("T/other") and not qm.routes.global_topic("T/N/x")
    ok(qm, "ALTER TOPIC(T) GLOBAL(NO)")
    assert not qm.routes.global_topic("T/other")


# -- DISPLAY RTSTATUS -----------------------------------------------------------------------------


def test_display_rtstatus_after_define(qm: QueueManager) -> None:
    """B:A-56: a defined route is this side's (TYPE ACTIVE); with no peer's Hello yet it is INACTIVE."""
    ok(qm, WEST)
    ok(qm, "DEFINE ROUTE(QM3)")
    shown = run(qm, "DISPLAY RTSTATUS(*)")
    assert shown[0] == "AMQ8954I: Display route status details."
    assert values(shown, "ROUTE") == ["QM2", "QM3"]
    assert values(shown, "TYPE") == ["ACTIVE", "ACTIVE"]
    assert values(shown, "STATUS") == ["INACTIVE", "INACTIVE"]
    assert values(shown, "ZONE") == ["Z1", "DEFAULT_MHOP_ZONE"] and values(shown, "ZONETYPE") == ["1HOP", "MHOP"]
    assert values(shown, "ISUBS") == ["0", "0"] and values(shown, "STORED") == ["0", "0"]
    assert values(shown, "CONFIG") == ["ACTIVE-PASSIVE", "ACTIVE-PASSIVE"]  # the peer's Hello has not come
    one = run(qm, "DISPLAY RTSTATUS(QM2) TYPE STATUS")
    assert values(one, "ROUTE") == ["QM2"] and values(one, "TYPE") == ["ACTIVE"]
    assert values(one, "ZONE") == []


def test_display_rtstatus_of_no_route(qm: QueueManager) -> None:
    """B:A-56: a route that is neither defined nor learned has no status."""
    assert run(qm, "DISPLAY RTSTATUS(QM9)") == [NOT_FOUND.format("QM9")]
    assert run(qm, "DISPLAY RTSTATUS(*)") == [NOT_FOUND.format("*")]
