"""Subscription scope and the topic object a subscription resolves to (B §11, §13): MQSO_SCOPE_ALL
and MQSO_SCOPE_QMGR against the topic's SUBSCOPE (A-30), DEFINE SUB SUBSCOPE, and the object
whose TOPICSTR is the whole wildcard pattern (A-02)."""

from __future__ import annotations

from typing import Any

import pytest

from mqlite import cmqc as C
from mqlite.core.network.pubsub.proxy_rules import subscription_scope_all

CREATE, MANAGED = C.MQSO_CREATE, C.MQSO_MANAGED


@pytest.mark.parametrize(("options", "topic_subscope", "scope_all"), [
    (0, "ALL", True), (0, "QMGR", False),
    (C.MQSO_SCOPE_QMGR, "ALL", False), (C.MQSO_SCOPE_QMGR, "QMGR", False),
    (C.MQSO_SCOPE_ALL, "ALL", True), (C.MQSO_SCOPE_ALL, "QMGR", True),  # widens
])
def test_effective_subscription_scope(options: int, topic_subscope: str, scope_all: bool) -> None:
    """B:R-SCO-4 (A-30): the option decides, else the topic's SUBSCOPE."""
    assert subscription_scope_all(options, topic_subscope) is scope_all


def test_both_scope_options_are_an_options_error(mq: Any) -> None:
    """B:SC-20, R-SCO-4: MQSUB with MQSO_SCOPE_QMGR and MQSO_SCOPE_ALL fails with 2046."""
    with mq.raises(C.MQRC_OPTIONS_ERROR):
        mq.sub("Weather", CREATE | MANAGED | C.MQSO_SCOPE_QMGR | C.MQSO_SCOPE_ALL)
    mq.sub("Weather", CREATE | MANAGED | C.MQSO_SCOPE_ALL)
    [sub] = mq.qm.subscriptions.subs_by_id.values()
    assert sub.options & C.MQSO_SCOPE_ALL  # kept with the subscription


def test_define_sub_subscope_only_restricts_and_is_fixed(mq: Any) -> None:
    """B:R-SCO-4, SC-20: DEFINE SUB SUBSCOPE(QMGR) is MQSO_SCOPE_QMGR; SUBSCOPE(ALL) sets no option
    (the topic's scope stays); ALTER SUB cannot change it."""
    mq.define("QD")
    admin = mq.qm.pubsub_admin
    admin.define_sub("SQ", {"TOPICSTR": "Weather", "DEST": "QD", "SUBSCOPE": "QMGR"})
    admin.define_sub("SA", {"TOPICSTR": "Weather", "DEST": "QD", "SUBSCOPE": "ALL"})
    subs = {sub.name: sub for sub in mq.qm.subscriptions.subs_by_id.values()}
    assert subs["SQ"].options & C.MQSO_SCOPE_QMGR
    assert not subs["SA"].options & (C.MQSO_SCOPE_QMGR | C.MQSO_SCOPE_ALL)
    assert admin.sub_attrs(subs["SQ"])["SUBSCOPE"] == "QMGR"
    with mq.raises(C.MQRC_OPTIONS_ERROR):
        admin.alter_sub("SA", {"SUBSCOPE": "QMGR"})


def test_a_wildcard_subscription_resolves_to_the_object_of_its_whole_string(mq: Any) -> None:
    """B A-02, R-OVT-3: an object whose TOPICSTR is the whole pattern ('Football/result/#') is the
    subscription's topic object; without one the pattern is cut at its first wildcard (A:R-ATO-5)."""
    mq.define("A", "TOPIC", TOPICSTR="Football/result/#", SUBSCOPE="QMGR")
    mq.define("B", "TOPIC", TOPICSTR="Football/#", SUBSCOPE="ALL")
    tree = mq.qm.tree
    assert tree.owner_of_pattern("Football/result/#", False).object_name == "A"
    assert tree.owner_of_pattern("Football/#", False).object_name == "B"
    assert tree.owner_of_pattern("Football/result/+", False).is_root  # cut at 'Football/result': no object
    assert tree.owner_of_pattern("Football/result/Newport", False).is_root  # a topic string: no wildcard
