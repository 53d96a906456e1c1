"""core/network/pubsub/proxy_rules.py: the pure rules of distributed publish/subscribe — the proxy topic of a
subscription (character wildcards), which neighbours get a proxy (R-PXY-6 link table, split
horizon), where a publication is forwarded (R-FWD-7 table) and the routing fingerprints."""

from __future__ import annotations

from dataclasses import replace

import pytest

from mqlite.core.network.pubsub.proxy_rules import (
    CHILD,
    CLUSTER,
    DIRECT,
    PARENT,
    RFP_PROPERTY,
    TOPICHOST,
    Link,
    TopicRoute,
    fingerprint_list,
    fingerprinted,
    forward_to,
    looped,
    proxy_topic,
    wants_proxy,
)

TO_PARENT: Link = (PARENT, "")
TO_CHILD: Link = (CHILD, "")
IN_CL: Link = (CLUSTER, "CL")
IN_CL2: Link = (CLUSTER, "CL2")

PLAIN = TopicRoute()  # resolves to a local (non-cluster) topic, SUBSCOPE/PUBSCOPE ALL
DIRECT_CL = TopicRoute(cluster="CL", clroute=DIRECT)
HOST_CL = TopicRoute(cluster="CL", clroute=TOPICHOST, hosts=frozenset({"HOST1"}))
IN_OTHER_CLUSTER = TopicRoute(cluster="CL2")

FROM_CHILD = {"H": frozenset({TO_CHILD})}  # a proxy held from hierarchy neighbour H
FROM_MEMBER = {"M": frozenset({IN_CL})}  # a proxy held from member M of cluster CL


# -- proxy_topic (R-WCP-1, A-16) ------------------------------------------------------------------
@pytest.mark.parametrize(("pattern", "proxy"), [
    ("/aaa/bbb/c*d", "/aaa/bbb/#"),
    ("Sports/Foot*/Arsenal", "Sports/#"),
    ("*", "#"),
    ("a/b?c/d", "a/#"),  # '?' like '*'
    ("a/%%*", "a/#"),  # an escaped '%' does not protect the '*' after it
])
def test_proxy_topic_cuts_a_character_pattern_at_the_level_of_its_first_wildcard(pattern: str, proxy: str) -> None:
    """B:R-WCP-1, B:A-16, B:SC-09: back to the nearest '/', then '#', the rest dropped."""
    assert proxy_topic(pattern, char_scheme=True) == proxy


def test_proxy_topic_leaves_topic_scheme_patterns_and_plain_character_patterns_alone() -> None:
    """B:R-WCP-1, B:A-16: topic-scheme patterns go unchanged (a '*' is no wildcard there); a
    character pattern without wildcard characters is used verbatim."""
    assert proxy_topic("Sports/#/Leeds", char_scheme=False) == "Sports/#/Leeds"
    assert proxy_topic("Sports/+/c*d", char_scheme=False) == "Sports/+/c*d"
    assert proxy_topic("Sports/Rugby/Leeds", char_scheme=True) == "Sports/Rugby/Leeds"


def test_proxy_topic_escaped_wildcard_is_literal_and_does_not_cut() -> None:
    """B:R-WCP-1, B:A-16 (seed-A A-1: '%' escapes): '%*' and '%?' are no wildcards."""
    for pattern in ("IBM/%*", "IBM/%?/x"):
        assert not proxy_topic(pattern, char_scheme=True).endswith("#")


def test_proxy_topic_of_an_escaped_wildcard_matches_the_literal_topic() -> None:
    """B:R-WCP-1, B:R-WCP-2, B:R-DPS-4 (seed-A TV-CW-22: char 'IBM/%*' matches topic 'IBM/*'): the
    proxy must bring at least what the subscription matches, so its topic-scheme string is 'IBM/*'."""
    assert proxy_topic("IBM/%*", char_scheme=True) == "IBM/*"


# -- wants_proxy: the R-PXY-6 link table ----------------------------------------------------------
@pytest.mark.parametrize(("neighbour", "link", "local", "origins", "topic", "expected"), [
    # interest source LOCAL
    ("P", TO_PARENT, True, {}, PLAIN, True),
    ("C", TO_CHILD, True, {}, HOST_CL, True),  # hierarchy links carry every topic
    ("M", IN_CL, True, {}, DIRECT_CL, True),  # DIRECT: every other member
    ("M", IN_CL, True, {}, PLAIN, False),  # not a cluster topic: nothing to the cluster
    ("HOST1", IN_CL, True, {}, HOST_CL, True),  # TOPICHOST: the topic hosts ...
    ("M", IN_CL, True, {}, HOST_CL, False),  # ... only
    ("M", IN_CL, True, {}, IN_OTHER_CLUSTER, False),  # a topic of another cluster
    # interest source: a proxy from hierarchy neighbour H
    ("P", TO_PARENT, False, FROM_CHILD, PLAIN, True),
    ("M", IN_CL, False, FROM_CHILD, DIRECT_CL, True),
    ("HOST1", IN_CL, False, FROM_CHILD, HOST_CL, False),  # TOPICHOST never spans a hierarchy
    ("M", IN_CL, False, FROM_CHILD, PLAIN, False),
    # interest source: a proxy from member M of cluster CL
    ("P", TO_PARENT, False, FROM_MEMBER, DIRECT_CL, True),
    ("P", TO_PARENT, False, FROM_MEMBER, HOST_CL, False),
    ("M2", IN_CL, False, FROM_MEMBER, DIRECT_CL, False),  # members got it from M directly
    ("N", IN_CL2, False, FROM_MEMBER, IN_OTHER_CLUSTER, False),  # no cluster-to-cluster gateway
], ids=[
    "local-to-parent", "local-to-child-topichost-topic", "local-to-member-direct", "local-to-member-local-topic",
    "local-to-topic-host", "local-to-non-host", "local-topic-in-another-cluster",
    "hierarchy-to-hierarchy", "hierarchy-to-member-direct", "hierarchy-to-host-topichost",
    "hierarchy-to-member-local-topic",
    "member-to-hierarchy-direct", "member-to-hierarchy-topichost", "member-to-same-cluster",
    "member-to-another-cluster",
])
def test_wants_proxy_follows_the_link_table(neighbour: str, link: Link, local: bool,
                                            origins: dict[str, frozenset[Link]], topic: TopicRoute,
                                            expected: bool) -> None:
    """B:R-PXY-6, B:A-05, B:R-PXY-7, B:R-PXY-8, B:R-RTE-6, B:R-RTE-12, B:R-OVL-1, B:SC-02, B:SC-39,
    B:SC-42, B:SC-49, B:SC-60."""
    assert wants_proxy(neighbour, [link], local, origins, topic) is expected


def test_subscope_qmgr_stops_received_interest_but_not_a_local_scope_all_subscription() -> None:
    """B:R-PXY-6 (proxies are forwarded only if SUBSCOPE is ALL), B:R-SCO-3, B:R-SCO-4, B:A-30:
    ``local`` already is the subscription's effective scope (MQSO_SCOPE_ALL widens)."""
    qmgr_scope = replace(PLAIN, subscope_all=False)
    assert not wants_proxy("P", [TO_PARENT], False, FROM_CHILD, qmgr_scope)
    assert not wants_proxy("M", [IN_CL], False, FROM_CHILD, replace(DIRECT_CL, subscope_all=False))
    assert not wants_proxy("P", [TO_PARENT], False, FROM_MEMBER, replace(DIRECT_CL, subscope_all=False))
    assert wants_proxy("P", [TO_PARENT], True, {}, qmgr_scope)


def test_split_horizon_in_the_world_hierarchy() -> None:
    """B:R-PXY-3, B:R-PXY-4, B:SC-03, B:SC-04, B:SC-06: at HQ (children Asia, Europe) a proxy is never
    echoed back to the neighbour it came from; HQ's own subscription sends one to Asia too."""
    asia = {"Asia": frozenset({TO_CHILD})}
    assert not wants_proxy("Asia", [TO_CHILD], False, asia, PLAIN)  # SC-03: HQ→Asia 0
    assert wants_proxy("Europe", [TO_CHILD], False, asia, PLAIN)  # SC-03: HQ→Europe 1
    assert wants_proxy("Asia", [TO_CHILD], True, asia, PLAIN)  # SC-04: SUB2 on HQ
    assert wants_proxy("Asia", [TO_CHILD], True, {}, PLAIN)  # SC-06: SUB1 gone, SUB2 still wants it
    assert not wants_proxy("Asia", [TO_CHILD], False, {}, PLAIN)  # SC-06: SUB2 gone too
    assert not wants_proxy("Europe", [TO_CHILD], False, {}, PLAIN)
    europe_holds = {"HQ": frozenset({TO_PARENT})}  # at Europe: HQ's proxy, London a child
    assert wants_proxy("London", [TO_CHILD], False, europe_holds, PLAIN)
    assert not wants_proxy("HQ", [TO_PARENT], False, europe_holds, PLAIN)


def test_neighbour_over_two_links_any_link_carries_and_split_horizon_holds_over_both() -> None:
    """B:R-PXY-9, B:R-PXY-10, B:SC-64, B:R-PXY-3: QMB is QMA's child and a member of CL."""
    both = [TO_CHILD, IN_CL]
    assert wants_proxy("QMB", both, True, {}, PLAIN)  # the hierarchy link carries a local topic
    assert wants_proxy("QMB", both, True, {}, DIRECT_CL)
    assert not wants_proxy("QMB", both, False, {"QMB": frozenset(both)}, DIRECT_CL)


# -- forward_to: the R-FWD-7 table ------------------------------------------------------------------
@pytest.mark.parametrize(("neighbour", "link", "source", "source_links", "topic", "expected"), [
    # a local publisher on X
    ("P", TO_PARENT, "X", frozenset(), PLAIN, True),
    ("M", IN_CL, "X", frozenset(), DIRECT_CL, True),
    ("M", IN_CL, "X", frozenset(), HOST_CL, True),  # X a topic host: straight to the subscribers' QMs
    # from hierarchy neighbour H
    ("P", TO_PARENT, "H", frozenset({TO_CHILD}), PLAIN, True),
    ("M", IN_CL, "H", frozenset({TO_CHILD}), DIRECT_CL, True),
    ("M", IN_CL, "H", frozenset({TO_CHILD}), HOST_CL, False),
    # from member M of cluster CL
    ("P", TO_PARENT, "M", frozenset({IN_CL}), DIRECT_CL, True),
    ("P", TO_PARENT, "M", frozenset({IN_CL}), HOST_CL, False),
    ("M2", IN_CL, "M", frozenset({IN_CL}), DIRECT_CL, False),
    ("N", IN_CL2, "M", frozenset({IN_CL}), IN_OTHER_CLUSTER, False),  # no gateway
], ids=[
    "local-to-hierarchy", "local-to-member-direct", "local-to-member-topichost",
    "hierarchy-to-hierarchy", "hierarchy-to-member-direct", "hierarchy-to-member-topichost",
    "member-to-hierarchy-direct", "member-to-hierarchy-topichost", "member-to-same-cluster",
    "member-to-another-cluster",
])
def test_forward_to_follows_the_forwarding_table(neighbour: str, link: Link, source: str,
                                                 source_links: frozenset[Link], topic: TopicRoute,
                                                 expected: bool) -> None:
    """B:R-FWD-1, B:R-FWD-7, B:A-05, B:R-FWD-8, B:R-RTE-7, B:R-RTE-12, B:R-OVL-1, B:SC-05, B:SC-39,
    B:SC-49, B:SC-60."""
    assert forward_to(neighbour, [link], source, source_links, topic) is expected


def test_forward_to_never_sends_a_publication_back_where_it_came_from() -> None:
    """B:R-FWD-7 (never back), B:A-11, B:SC-05, B:SC-63: HQ forwards Europe's publication to Asia,
    not to Europe, even over a neighbour's second link."""
    from_europe = frozenset({TO_CHILD})
    assert forward_to("Asia", [TO_CHILD], "Europe", from_europe, PLAIN)
    assert not forward_to("Europe", [TO_CHILD], "Europe", from_europe, PLAIN)
    both = frozenset({TO_CHILD, IN_CL})
    assert not forward_to("QMB", list(both), "QMB", both, DIRECT_CL)


def test_pubscope_qmgr_here_stops_forwarding() -> None:
    """B:R-FWD-6, B:R-SCO-2, B:SC-16, B:SC-30, B:SC-62: the originating and every intermediate queue
    manager decide with their own PUBSCOPE."""
    qmgr_scope = replace(PLAIN, pubscope_all=False)
    assert not forward_to("P", [TO_PARENT], "X", frozenset(), qmgr_scope)
    assert not forward_to("P", [TO_PARENT], "H", frozenset({TO_CHILD}), qmgr_scope)
    assert not forward_to("M", [IN_CL], "X", frozenset(), replace(DIRECT_CL, pubscope_all=False))


# -- fingerprints (R-LOOP) ---------------------------------------------------------------------------
def test_own_fingerprint_is_detected_as_a_whole_entry() -> None:
    """B:R-LOOP-2, B:R-LOOP-5, B:SC-63, B:SC-66."""
    assert looped("QMA,QMC,QMB", "QMA")
    assert looped("QMB,QMA", "QMA")
    assert not looped("QMB,QMC", "QMA")
    assert not looped("QMA10,XQMA", "QMA")  # not a substring match
    assert not looped("", "QMA")  # a publication with no chain yet


def test_fingerprints_are_appended_last_in_forwarding_order() -> None:
    """B:R-LOOP-4, B:R-LOOP-5, B:A-34, B:SC-65: Europe's copy to HQ carries [Europe]; HQ's copy to
    Asia carries [Europe, HQ]; the origin is first; the property is ibm.Rfp."""
    assert RFP_PROPERTY == "ibm.Rfp"
    to_hq = fingerprinted("", "UUID.EUROPE")
    to_asia = fingerprinted(to_hq, "UUID.HQ")
    assert fingerprint_list(to_hq) == ["UUID.EUROPE"]
    assert fingerprint_list(to_asia) == ["UUID.EUROPE", "UUID.HQ"]
    assert fingerprint_list("") == []


def test_a_ring_brings_the_publication_back_to_its_origin_only() -> None:
    """B:R-LOOP-1, B:R-LOOP-2, B:R-LOOP-3, B:SC-63: QMA→QMC→QMB→QMA; neither QMC nor QMB sees a loop,
    QMA does, with the chain [A, C, B]."""
    chain = ""
    for here, next_hop in (("A", "C"), ("C", "B"), ("B", "A")):
        chain = fingerprinted(chain, here)
        assert looped(chain, next_hop) is (next_hop == "A")
    assert fingerprint_list(chain) == ["A", "C", "B"]
