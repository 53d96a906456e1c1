"""TIBCO EMS topics.conf / routes.conf as MQSC (mqsc/ems_conf.py): the text forms of B §23
(A-57, A-60) and the scenarios written in them (SC-98, SC-99), translated line by line, and every
line mqlite cannot take refused with its file and line."""

from __future__ import annotations

import pytest

from mqlite.mqsc.ems_conf import EmsConfError, object_name, parse_routes, parse_topics, topic_string, translate
from mqlite.mqsc.parser import parse


def test_sc98_topic_line_becomes_the_topic_attributes() -> None:
    """B:SC-98, A-57: `T1 global,maxmsgs=2,overflowPolicy=discardOld`."""
    [entry] = parse_topics("T1 global,maxmsgs=2,overflowPolicy=discardOld\n")
    assert (entry.topic, entry.attributes) == ("T1", {"GLOBAL": "YES", "MAXMSGS": "2", "OVERFLOW": "DISCARDOLD"})
    assert translate([entry], []).splitlines()[-1] == \
        "DEFINE TOPIC(EMS.T1) TOPICSTR('T1') GLOBAL(YES) MAXMSGS(2) OVERFLOW(DISCARDOLD)"


def test_sc99_routes_conf_becomes_route_definitions() -> None:
    """B:SC-99 (Figure 38), A-60: ORD's [WEST] and [EAST] with their outgoing selectors."""
    routes = parse_routes(
        "[WEST]\nurl=tcp://localhost:7223\nzone_name=default_mhop_zone\nzone_type=mhop\n"
        "outgoing_topic=orders selector=\"region = 'west'\"\n\n"
        "[EAST]\nurl=tcp://localhost:7224\noutgoing_topic=orders selector=\"region = 'east'\"\n")
    mqsc = [line for line in translate([], routes).splitlines() if not line.startswith("*")]
    assert mqsc == [
        "DEFINE ROUTE(WEST) ZONE('DEFAULT_MHOP_ZONE') ZONETYPE(MHOP) "
        "OUTGOING('orders selector=\"region = ''west''\"') REPLACE",
        "DEFINE ROUTE(EAST) OUTGOING('orders selector=\"region = ''east''\"') REPLACE",
    ]
    assert "CONNAME('localhost(7223)')" in translate([], routes)  # the url, as a comment


def test_ems_names_and_wildcards_become_mq_topic_strings() -> None:
    assert topic_string("orders.west.big") == "orders/west/big"
    assert topic_string("prices.*.eur") == "prices/+/eur"
    assert topic_string("prices.>") == "prices/#"
    [route] = parse_routes("[B]\nincoming_topic=prices.> selector=\"x > 1\"\noutgoing_topic=a.*\n")
    assert (route.incoming, route.outgoing) == (['prices/# selector="x > 1"'], ["a/+"])


def test_topics_conf_wildcards_name_a_subtree_or_everything() -> None:
    subtree, everything = parse_topics("prices.> global\n> maxbytes=2MB\n")
    assert subtree.topic == "prices" and everything.topic == ""
    assert everything.attributes == {"MAXBYTES": str(2 << 20)}
    lines = translate([subtree, everything], []).splitlines()
    assert "DEFINE TOPIC(EMS.PRICES) TOPICSTR('prices') GLOBAL(YES)" in lines
    assert "ALTER TOPIC(SYSTEM.BASE.TOPIC) MAXBYTES(2097152)" in lines


def test_an_existing_topic_object_is_altered_not_defined_again() -> None:
    entries = parse_topics("orders global\nnew.one global\n")
    lines = translate(entries, [], existing={"orders": "MYORDERS"}).splitlines()
    assert "ALTER TOPIC(MYORDERS) GLOBAL(YES)" in lines
    assert "DEFINE TOPIC(EMS.NEW.ONE) TOPICSTR('new/one') GLOBAL(YES)" in lines


def test_object_names_stay_mq_names() -> None:
    long_topic = "a" * 60
    name = object_name(long_topic, set())
    assert len(name) <= 48 and name.startswith("EMS.AAAA")
    assert object_name("x-y z", set()) == "EMS.X_Y_Z"
    assert object_name("x", {"EMS.X"}) != "EMS.X"  # taken: a hash tells them apart


def test_unused_properties_are_reported_not_dropped() -> None:
    [entry] = parse_topics("T secure,global,sender_name\n")
    assert entry.unused == ["secure", "sender_name"]
    assert "* not used by mqlite: secure, sender_name" in translate([entry], []).splitlines()
    [route] = parse_routes("[B]\nssl_verify_host=disabled\n")
    assert route.unused == ["ssl_verify_host=disabled"]


def test_a_1hop_route_without_a_zone_name_gets_a_1hop_zone() -> None:
    [route] = parse_routes("[B]\nzone_type=1hop\n")
    assert translate([], [route]).splitlines()[-1] == "DEFINE ROUTE(B) ZONE('DEFAULT_1HOP_ZONE') ZONETYPE(1HOP) REPLACE"


@pytest.mark.parametrize(("text", "line", "says"), [
    ("T global,colour=red\n", 1, "unknown topic property"),
    ("# c\nT maxmsgs=lots\n", 2, "not a number"),
    ("T maxmsgs=5KB\n", 1, "not a number"),
    ("T maxbytes=3GB\n", 1, "more than 2,147,483,647"),
    ("T overflowPolicy=sometimes\n", 1, "overflowPolicy"),
    ("a.*.b global\n", 1, "no MQ topic string"),
    ("a..b global\n", 1, "empty level"),
])
def test_bad_topics_lines_name_their_line(text: str, line: int, says: str) -> None:
    with pytest.raises(EmsConfError) as raised:
        parse_topics(text, "t.conf")
    assert raised.value.line == line and says in raised.value.text and str(raised.value).startswith(f"t.conf:{line}:")


@pytest.mark.parametrize(("text", "line", "says"), [
    ("url=tcp://h:1\n", 1, "before the first [route]"),
    ("[B\n", 1, "not a [route] header"),
    ("[B C]\n", 1, "not a queue manager name"),
    ("[B]\nurl=http://h\n", 2, "not tcp://host:port"),
    ("[B]\nzone_type=2hop\n", 2, "not 1hop or mhop"),
    ("[B]\noutgoing_topic=T where x > 1\n", 2, 'not selector="..."'),
    ("[B]\ncolour=red\n", 2, "unknown route setting"),
    ("[B]\nurl\n", 2, "not key=value"),
])
def test_bad_routes_lines_name_their_line(text: str, line: int, says: str) -> None:
    with pytest.raises(EmsConfError) as raised:
        parse_routes(text, "r.conf")
    assert raised.value.line == line and says in raised.value.text


def test_every_line_translated_is_mqsc_the_parser_takes() -> None:
    topics = parse_topics("orders global,maxmsgs=1000,overflowPolicy=rejectIncoming\nit's.> global\n> maxmsgs=7\n")
    routes = parse_routes("[WEST]\nzone_name=regions\nzone_type=mhop\noutgoing_topic=orders selector=\"a = 'it''s'\"\n"
                          "incoming_topic=prices.*\n[EAST]\n")
    commands = [line for line in translate(topics, routes).splitlines() if not line.startswith("*")]
    parsed = [parse(line) for line in commands]
    assert [(c.verb, c.objtype) for c in parsed] == [("DEFINE", "TOPIC"), ("DEFINE", "TOPIC"), ("ALTER", "TOPIC"),
                                                     ("DEFINE", "ROUTE"), ("DEFINE", "ROUTE")]
    assert parsed[1].attrs["TOPICSTR"] == "it's"
    assert parsed[3].attrs["OUTGOING"] == "orders selector=\"a = 'it''s'\""
    assert parsed[3].attrs["INCOMING"] == "prices/+"
