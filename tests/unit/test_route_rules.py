"""core/network/routes/rules.py: the TIBCO EMS-style route rules as pure decisions (B §23) — rule
items as routes.conf writes them, the selectors a message must pass to cross a route, where a
routed message may go next (visited servers, zones), the interest asked of each peer, what a
subscriber's limits do with a new message, and the queue that stores a route's messages."""

from __future__ import annotations

from collections import deque

import pytest

from mqlite.core.network.routes.rules import (
    DEFAULT_ZONE,
    MHOP,
    ONEHOP,
    Admit,
    RouteView,
    Rule,
    admit,
    interest_for,
    may_forward,
    parse_rule,
    route_selectors,
    rule_text,
    store_queue,
    visited_list,
    visited_text,
)

# -- parse_rule / rule_text -----------------------------------------------------------------------


def test_a_rule_with_a_selector_parses_into_topic_and_selector() -> None:
    """B:R-EMS-13, B:A-60, B:SC-99: `orders selector="region = 'west'"` as routes.conf writes it."""
    assert parse_rule("orders selector=\"region = 'west'\"") == Rule("orders", "region = 'west'")
    assert parse_rule("  orders   SELECTOR = \"amount > 0\"  ") == Rule("orders", "amount > 0")
    assert parse_rule('orders selector="  amount > 0  "') == Rule("orders", "amount > 0")


def test_a_bare_topic_is_a_rule_without_a_selector() -> None:
    """B:R-EMS-12, B:A-59: no selector is no condition."""
    assert parse_rule("orders") == Rule("orders", "")
    assert parse_rule("  Sport/Football  ") == Rule("Sport/Football", "")
    assert parse_rule('orders selector=""') == Rule("orders", "")


@pytest.mark.parametrize("item, topic", [
    ("orders/#", "orders/#"), ("+/prices", "+/prices"), ("#", "#"), ("a/+/c/#", "a/+/c/#"),
])
def test_wildcard_topics_are_kept_as_patterns(item: str, topic: str) -> None:
    """B:R-EMS-13, B:A-60: a rule's topic is a pattern (wildcards allowed)."""
    assert parse_rule(item) == Rule(topic, "")
    assert parse_rule(f'{item} selector="x = 1"') == Rule(topic, "x = 1")


@pytest.mark.parametrize("item", ["", "   ", "\t\n"])
def test_an_item_naming_no_topic_is_refused(item: str) -> None:
    """B:A-60: every OUTGOING / INCOMING item names a topic."""
    with pytest.raises(ValueError, match="names no topic"):
        parse_rule(item)


def test_a_selector_without_a_topic_is_refused() -> None:
    """B:A-60: `selector="amount > 0"` alone names no topic; it must not become a rule for a topic
    spelled `selector="amount > 0"`."""
    with pytest.raises(ValueError):
        parse_rule('selector="amount > 0"')


@pytest.mark.parametrize("rule", [
    Rule("orders", "region = 'west'"), Rule("orders", ""), Rule("orders/#", "amount > 100 AND region <> 'east'"),
    Rule("Sport/+/Results", 'name LIKE \'A%\''),
])
def test_rule_text_round_trips(rule: Rule) -> None:
    """B:A-60: what DISPLAY ROUTE shows parses back to the same rule."""
    text = rule_text(rule)
    assert parse_rule(text) == rule
    assert ("selector=" in text) == bool(rule.selector)


def test_rule_text_is_the_routes_conf_form() -> None:
    """B:R-EMS-13, B:A-60."""
    assert rule_text(Rule("orders", "region = 'west'")) == "orders selector=\"region = 'west'\""
    assert rule_text(Rule("orders")) == "orders"


# -- route_selectors ------------------------------------------------------------------------------


def test_outgoing_and_incoming_selectors_for_a_topic_are_both_required() -> None:
    """B:R-EMS-12, B:SC-101: S1 (A's outgoing) AND S2 (B's incoming) on the route from A to B."""
    s1, s2 = "amount > 100", "region = 'west'"
    assert route_selectors("T", [Rule("T", s1)], [Rule("T", s2)]) == (s1, s2)


def test_incoming_alone_is_the_same_as_outgoing_alone() -> None:
    """B:R-EMS-11, B:SC-100: incoming on the receiver is equivalent to outgoing on the sender."""
    rule = Rule("orders", "region = 'west'")
    assert route_selectors("orders", [rule], []) == route_selectors("orders", [], [rule]) == ("region = 'west'",)


def test_rules_for_other_topics_are_ignored() -> None:
    """B:R-EMS-10, B:SC-99: each rule narrows only its own topic."""
    outgoing = [Rule("orders", "region = 'west'"), Rule("prices", "currency = 'EUR'")]
    incoming = [Rule("orders/archive", "old = TRUE")]
    assert route_selectors("orders", outgoing, incoming) == ("region = 'west'",)
    assert route_selectors("prices", outgoing, incoming) == ("currency = 'EUR'",)
    assert route_selectors("weather", outgoing, incoming) == ()


def test_wildcard_rule_topics_match() -> None:
    """B:R-EMS-12, B:A-59: a rule's topic is a pattern; several rules for one topic AND together."""
    outgoing = [Rule("orders/#", "amount > 0"), Rule("orders/+/eu", "region = 'eu'")]
    assert route_selectors("orders/new/eu", outgoing, []) == ("amount > 0", "region = 'eu'")
    assert route_selectors("orders/new/us", outgoing, []) == ("amount > 0",)
    assert route_selectors("orders", outgoing, []) == ("amount > 0",)
    assert route_selectors("ordersX/new", outgoing, []) == ()


def test_duplicate_selectors_collapse_and_empty_ones_add_nothing() -> None:
    """B:A-59: S AND S is S; a rule without a selector is no condition."""
    same = "region = 'west'"
    assert route_selectors("T", [Rule("T", same), Rule("T")], [Rule("T", same), Rule("#", same)]) == (same,)


def test_no_rules_no_condition() -> None:
    """B:R-EMS-12 (no selector = TRUE)."""
    assert route_selectors("T", [], []) == ()
    assert route_selectors("T", [Rule("T")], [Rule("#")]) == ()


# -- may_forward ----------------------------------------------------------------------------------

A, M, B = RouteView("A"), RouteView("M"), RouteView("B")


def test_a_local_producers_message_may_take_every_route() -> None:
    """B:R-EMS-9, B:A-60: arrived over no route: every route, in any zone, except visited servers."""
    for route in (A, B, RouteView("C", "Z1", ONEHOP)):
        assert may_forward(None, route, ())
    assert not may_forward(None, B, ("B",))


def test_never_to_a_server_already_visited() -> None:
    """B:R-EMS-13, B:A-60: the visited-server list, even in a multi-hop zone."""
    assert not may_forward(A, B, ("A", "B"))
    assert not may_forward(A, A, ("A",))  # back where it came from
    assert may_forward(A, B, ("A", "X"))


def test_a_one_hop_zone_stops_a_second_hop_inside_it() -> None:
    """B:R-EMS-13, B:A-60, B:SC-103: received over a 1HOP route, not over another of that zone."""
    in_a, to_b = RouteView("A", "Z1", ONEHOP), RouteView("B", "Z1", ONEHOP)
    assert not may_forward(in_a, to_b, ("A",))


def test_crossing_into_another_zone_starts_afresh() -> None:
    """B:R-EMS-13, B:A-60: a 1HOP zone limits hops inside itself only."""
    in_a = RouteView("A", "Z1", ONEHOP)
    assert may_forward(in_a, RouteView("B", "Z2", ONEHOP), ("A",))
    assert may_forward(in_a, RouteView("B", DEFAULT_ZONE, MHOP), ("A",))
    assert may_forward(RouteView("A", "Z2", MHOP), RouteView("B", "Z1", ONEHOP), ("A",))


def test_a_multi_hop_zone_allows_several_hops() -> None:
    """B:R-EMS-2, B:SC-103, B:SC-91: A -> M -> B -> C in the default multi-hop zone."""
    assert may_forward(A, B, ("A", "M"))
    assert may_forward(B, RouteView("C"), ("A", "M", "B"))
    assert M.zone == DEFAULT_ZONE and M.zone_type == MHOP


# -- interest_for ---------------------------------------------------------------------------------


def test_local_subscriptions_are_asked_of_every_peer() -> None:
    """B:R-EMS-2, B:SC-91: B's own subscriber on T1 makes B subscribe at M."""
    routes = {"M": M}
    assert interest_for(M, {"T1", "orders/#"}, {}, routes) == {"T1", "orders/#"}


def test_interest_propagates_along_a_multi_hop_chain() -> None:
    """B:R-EMS-2, B:SC-91: on M, B's IS(M->B, T1) makes M subscribe at A (A-M-B)."""
    routes = {"A": A, "B": B}
    held = {"B": {"T1"}}
    assert interest_for(A, set(), held, routes) == {"T1"}


def test_split_horizon_a_peers_interest_is_not_sent_back_to_it() -> None:
    """B:R-EMS-2, B:A-60: what B asked of M never comes back to B."""
    routes = {"A": A, "B": B}
    held = {"B": {"T1"}, "A": {"T2"}}
    assert interest_for(B, {"L"}, held, routes) == {"L", "T2"}
    assert interest_for(A, {"L"}, held, routes) == {"L", "T1"}


def test_a_one_hop_zone_does_not_propagate_interest_inside_it() -> None:
    """B:R-EMS-13, B:A-60, B:SC-103: both routes in one 1HOP zone: M does not ask A for B."""
    routes = {"A": RouteView("A", "Z1", ONEHOP), "B": RouteView("B", "Z1", ONEHOP)}
    assert interest_for(routes["A"], {"mine"}, {"B": {"T1"}}, routes) == {"mine"}


def test_interest_crosses_from_one_zone_into_another() -> None:
    """B:R-EMS-13, B:A-60: a 1HOP zone limits hops inside it, not between zones."""
    routes = {"A": RouteView("A", "Z1", ONEHOP), "B": RouteView("B", "Z2", ONEHOP)}
    assert interest_for(routes["A"], set(), {"B": {"T1"}}, routes) == {"T1"}


def test_interest_held_for_unknown_routes_is_ignored() -> None:
    """B:R-EMS-2: patterns held for a peer with no route here ask nothing."""
    assert interest_for(A, {"L"}, {"GONE": {"T9"}}, {"A": A}) == {"L"}


def test_interest_for_does_not_change_its_inputs() -> None:
    """B:R-EMS-2 (a pure decision)."""
    local = {"L"}
    held = {"B": {"T1"}}
    interest_for(A, local, held, {"A": A, "B": B}).add("extra")
    assert local == {"L"} and held == {"B": {"T1"}}


# -- admit ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("policy", ["DEFAULT", "DISCARDOLD", "REJECTINCOMING"])
def test_under_the_limits_a_message_is_stored(policy: str) -> None:
    """B:R-EMS-8, B:A-57: limits are inclusive (the 2nd of MAXMSGS(2), exactly MAXBYTES)."""
    assert admit(policy, 0, 0, 10, 2, 0) is Admit.STORE
    assert admit(policy, 1, 10, 10, 2, 0) is Admit.STORE
    assert admit(policy, 5, 90, 10, 0, 100) is Admit.STORE


@pytest.mark.parametrize("policy, verdict", [
    ("DEFAULT", Admit.SKIP), ("DISCARDOLD", Admit.DISCARD_OLDEST), ("REJECTINCOMING", Admit.REJECT),
])
def test_maxmsgs_reached(policy: str, verdict: Admit) -> None:
    """B:R-EMS-8, B:A-57, B:SC-98: the overflow policy decides once MAXMSGS is reached."""
    assert admit(policy, 2, 20, 10, 2, 0) is verdict
    assert admit(policy, 7, 70, 10, 2, 0) is verdict


@pytest.mark.parametrize("policy, verdict", [
    ("DEFAULT", Admit.SKIP), ("DISCARDOLD", Admit.DISCARD_OLDEST), ("REJECTINCOMING", Admit.REJECT),
])
def test_maxbytes_reached(policy: str, verdict: Admit) -> None:
    """B:R-EMS-8, B:A-57: MAXBYTES bounds the bytes waiting for one subscriber, the new one included."""
    assert admit(policy, 3, 91, 10, 0, 100) is verdict
    assert admit(policy, 3, 91, 10, 1000, 100) is verdict  # either limit is enough


def test_zero_is_unlimited() -> None:
    """B:A-57: `0`/absent = unlimited."""
    for policy in ("DEFAULT", "DISCARDOLD", "REJECTINCOMING"):
        assert admit(policy, 10**6, 10**12, 10**7, 0, 0) is Admit.STORE


def test_discardold_cannot_make_room_for_a_message_bigger_than_maxbytes() -> None:
    """B:A-57: discarding every older message would not make it fit: it is not stored."""
    assert admit("DISCARDOLD", 0, 0, 101, 0, 100) is Admit.SKIP
    assert admit("DISCARDOLD", 4, 80, 101, 10, 100) is Admit.SKIP
    assert admit("DISCARDOLD", 4, 80, 100, 10, 100) is Admit.DISCARD_OLDEST


def _offer(policy: str, count: int, max_msgs: int) -> tuple[list[int], list[Admit]]:
    """Messages 1..count offered to one subscriber (none consumed); DISCARD_OLDEST drops the oldest."""
    pending: deque[int] = deque()
    verdicts = []
    for number in range(1, count + 1):
        verdict = admit(policy, len(pending), 10 * len(pending), 10, max_msgs, 0)
        verdicts.append(verdict)
        if verdict is Admit.DISCARD_OLDEST:
            pending.popleft()
        if verdict in (Admit.STORE, Admit.DISCARD_OLDEST):
            pending.append(number)
    return list(pending), verdicts


def test_sc98_five_messages_under_maxmsgs_2() -> None:
    """B:SC-98, B:A-57: discardOld keeps m4, m5; default keeps m1, m2 (no error); rejectIncoming
    keeps m1, m2 and rejects the rest."""
    assert _offer("DISCARDOLD", 5, 2)[0] == [4, 5]
    kept, verdicts = _offer("DEFAULT", 5, 2)
    assert kept == [1, 2] and Admit.REJECT not in verdicts
    kept, verdicts = _offer("REJECTINCOMING", 5, 2)
    assert kept == [1, 2] and verdicts[2:] == [Admit.REJECT] * 3


# -- store_queue, visited -------------------------------------------------------------------------


def test_the_store_queue_is_named_after_the_peer() -> None:
    """B:R-EMS-1, B:A-55: SYSTEM.ROUTE.<peer>."""
    assert store_queue("QM2") == "SYSTEM.ROUTE.QM2"
    peer = "P" * 35  # SYSTEM.ROUTE. + 35 = 48 characters: still whole
    assert store_queue(peer) == "SYSTEM.ROUTE." + peer


def test_a_long_peer_name_is_shortened_deterministically() -> None:
    """B:R-EMS-1: a queue name has at most 48 characters; different peers keep different queues."""
    long_a, long_b = "QUEUE.MANAGER.WITH.A.VERY.LONG.NAME.A", "QUEUE.MANAGER.WITH.A.VERY.LONG.NAME.B"
    name_a, name_b = store_queue(long_a), store_queue(long_b)
    assert len(long_a) == 37
    assert len(name_a) <= 48 and len(name_b) <= 48
    assert name_a.startswith("SYSTEM.ROUTE.QUEUE.MANAGER")
    assert name_a == store_queue(long_a)
    assert name_a != name_b
    assert len(store_queue("Q" * 48)) <= 48
    assert len({store_queue(f"{'X' * 40}{n:08d}") for n in range(200)}) == 200


def test_visited_text_adds_this_server_once() -> None:
    """B:R-EMS-13, B:A-60: the visited-server list a routed message carries on."""
    assert visited_text([], "A") == "A"
    assert visited_text(["A"], "M") == "A,M"
    assert visited_list(visited_text(["A", "M"], "B")) == ["A", "M", "B"]
    text = visited_text(["A", "M", "A"], "M")
    assert visited_list(text).count("M") == 1 and visited_list(text)[-1] == "M"


def test_visited_list_reads_what_visited_text_writes() -> None:
    """B:A-60."""
    assert visited_list("") == []
    assert visited_list("A,,M,") == ["A", "M"]
    assert visited_list(visited_text(visited_list("A,M"), "B")) == ["A", "M", "B"]
