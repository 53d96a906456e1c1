"""A publication's destinations are worked out once per topic string and kept while nothing they
depend on changes (``Forwarding._targets``, ``DistributedPubSub.route`` and ``scope_all``): every
change of a proxy, a relation, a topic object or PSMODE is seen by the very next publication.
Each step below would fail with a cache that missed the change."""

from __future__ import annotations

from typing import Any

from mqlite import cmqc as C
from mqlite.core.network.pubsub.protocol import HIERARCHY, Deregister, Proxies, Register

CHILD, QMID = "CHILD", "CHILD_2026-11-27_04.30.00"


def _child_with_proxy(mq: Any, topic: str = "Sport/#") -> Any:
    mq.define(CHILD, USAGE="XMITQ")  # the way to the child (its Registered answer goes there)
    service = mq.qm.dist_pubsub
    service.receive(Register(CHILD, QMID))
    service.receive(Proxies(CHILD, QMID, HIERARCHY, add=(topic,)))
    return service


def test_targets_follow_the_proxies_held(mq: Any) -> None:
    """B:R-FWD-1, R-PXY-2: a proxy's arrival and its cancellation change where the next
    publication goes."""
    forwarding = mq.qm.forwarding
    service = _child_with_proxy(mq)
    assert forwarding.plan("Sport/x", 0, {}) == [(CHILD, "")]
    assert forwarding.plan("Sport/x", 0, {}) == [(CHILD, "")]  # (now from what was kept)
    assert forwarding.plan("News/x", 0, {}) == []
    service.receive(Proxies(CHILD, QMID, HIERARCHY, cancel=("Sport/#",)))
    assert forwarding.plan("Sport/x", 0, {}) == []
    service.receive(Proxies(CHILD, QMID, HIERARCHY, add=("News/#",)))
    assert forwarding.plan("News/x", 0, {}) == [(CHILD, "")]


def test_targets_follow_the_relations(mq: Any) -> None:
    """B:R-PXY-4: a child that deregisters is no neighbour any more: nothing goes to it."""
    forwarding = mq.qm.forwarding
    service = _child_with_proxy(mq)
    assert forwarding.plan("Sport/x", 0, {}) == [(CHILD, "")]
    service.receive(Deregister(CHILD))
    assert forwarding.plan("Sport/x", 0, {}) == []


def test_targets_follow_the_topic_objects(mq: Any) -> None:
    """B:R-SCO-2, R-FWD-6: a topic object made PUBSCOPE(QMGR) above the topic keeps the next
    publication at home; altered back, it goes again."""
    forwarding = mq.qm.forwarding
    _child_with_proxy(mq)
    admin = mq.qm.pubsub_admin
    assert forwarding.plan("Sport/x", 0, {}) == [(CHILD, "")]
    admin.define_topic("SPORT", {"TOPICSTR": "Sport", "PUBSCOPE": "QMGR"})
    assert forwarding.plan("Sport/x", 0, {}) == []
    admin.alter_topic("SPORT", {"PUBSCOPE": "ALL"})
    assert forwarding.plan("Sport/x", 0, {}) == [(CHILD, "")]


def test_a_subscriptions_scope_follows_its_topic_object(mq: Any) -> None:
    """B:R-SCO-4 (A-30): without a scope option a subscription is global as long as its topic's
    SUBSCOPE says ALL; the answer changes with the object."""
    service = mq.qm.dist_pubsub
    mq.sub("Weather/#", C.MQSO_CREATE | C.MQSO_MANAGED)
    [sub] = mq.qm.subscriptions.subs_by_id.values()
    assert service.scope_all(sub)
    mq.qm.pubsub_admin.define_topic("WEATHER", {"TOPICSTR": "Weather", "SUBSCOPE": "QMGR"})
    assert not service.scope_all(sub)
    mq.qm.pubsub_admin.delete_topic("WEATHER")
    assert service.scope_all(sub)


def test_psmode_disabled_forwards_nothing(mq: Any) -> None:
    """B A-25: under PSMODE(DISABLED) the hierarchy's relations are not used."""
    forwarding = mq.qm.forwarding
    service = _child_with_proxy(mq)
    assert forwarding.plan("Sport/x", 0, {}) == [(CHILD, "")]
    mq.qm.alter("QMGR", "", {"PSMODE": "DISABLED"})
    service.reevaluate()
    assert forwarding.plan("Sport/x", 0, {}) == []
