"""Cached cluster topic objects in a queue manager's topic space, sans-IO: which copy is used,
local precedence, inheritance and WILDCARD(BLOCK) through copies, subscribing by a cluster
object's name, the hosts of identical definitions and conflict reporting (spec B §7.2, §7.3)."""

from __future__ import annotations

from typing import Any

import pytest

from mqlite import cmqc as C
from mqlite.core import attributes
from mqlite.core.topics.tree import TopicTree


def copy(name: str, topicstr: str, host: str, arrived: float, cluster: str = "CL1", **attrs: Any) -> dict[str, Any]:
    """A cached copy as the repository hands it over: a local object's attributes plus NAME,
    CLUSQMGR and ARRIVED (dates as its host stamped them)."""
    base = attributes.defaults("TOPIC")
    base.update(TOPICSTR=topicstr, CLUSTER=cluster, CRDATE="2024-01-0" + host[-1:], CRTIME=f"10.00.0{host[-1:]}",
                ALTDATE="2024-02-01", ALTTIME=f"11.00.{int(arrived) % 60:02d}")
    base.update(attrs)
    return {**base, "NAME": name, "CLUSQMGR": host, "ARRIVED": arrived}


def copies(*items: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {f"{c['CLUSTER']}/{c['NAME']}/{c['CLUSQMGR']}": c for c in items}


def local(tree: TopicTree, name: str, topicstr: str, **attrs: Any) -> None:
    tree.associate(name, {**attributes.defaults("TOPIC"), "TOPICSTR": topicstr, **attrs})


def at(tree: TopicTree, topic: str) -> Any:
    return tree.resolved(tree.node(topic))


@pytest.fixture
def tree() -> TopicTree:
    t = TopicTree()
    t.associate("SYSTEM.BASE.TOPIC", dict(attributes.SYSTEM_BASE_TOPIC))
    return t


SPORT = (copy("Football", "Sports/Football", "QMA", 1.0, WILDCARD="BLOCK"), copy("Rugby", "Sports/Rugby", "QMA", 2.0))


# -- the topic space -----------------------------------------------------------------------------
def test_a_cached_copy_administers_its_subtree(tree: TopicTree) -> None:
    """B:R-CTD-3, R-CTD-5 (4), SC-26: a single topic space from local and cluster definitions;
    topic strings below a cluster object inherit its attributes; other strings do not."""
    assert at(tree, "Sports/Rugby/Leeds")["CLUSTER"] == ""
    assert tree.set_cluster_objects(copies(*SPORT)) == []
    assert at(tree, "Sports/Rugby/Leeds")["CLUSTER"] == "CL1"
    assert tree.owner(tree.node("Sports/Rugby/Leeds")) is tree.find("Sports/Rugby")
    assert tree.admin_name(tree.node("Sports/Rugby")) == "Rugby"
    assert at(tree, "Sports")["CLUSTER"] == "" and at(tree, "Sports/Tennis")["CLUSTER"] == ""
    assert set(tree.cluster_objects_effective()) == {"Sports/Football", "Sports/Rugby"}
    assert tree.objects_by_topic() == {"": "SYSTEM.BASE.TOPIC"}  # the local objects only


def test_copies_that_go_away_leave_the_topic_space(tree: TopicTree) -> None:
    """B:R-CLU-10, R-CTD-6: a deleted (or expired) cached copy no longer administers its node,
    which becomes an ordinary node that TREELIFE may remove."""
    tree.set_cluster_objects(copies(*SPORT), now=100.0)
    before = at(tree, "Sports/Rugby/Leeds")
    tree.set_cluster_objects({}, now=200.0)
    assert at(tree, "Sports/Rugby/Leeds")["CLUSTER"] == "" and before["CLUSTER"] == "CL1"
    assert tree.cluster_objects_effective() == {} and tree.blocked_topics() == frozenset()
    for later in (10_000.0, 20_000.0, 30_000.0):  # a parent waits its own TREELIFE (spec A A-12)
        tree.sweep(later, 1800.0, lambda topic: False)
    assert tree.root.children is None


def test_a_local_object_wins_at_its_topic_string(tree: TopicTree) -> None:
    """B:R-CTD-8, R-CTD-11, R-OVT-2, SC-30: a local definition of the topic string is used even
    if the cluster copy is more recent; deleting it brings the copy back."""
    local(tree, "MYRUGBY", "Sports/Rugby", PUBSCOPE="QMGR")
    tree.set_cluster_objects(copies(copy("Rugby", "Sports/Rugby", "QMA", 99.0, PUBSCOPE="ALL")))
    assert (at(tree, "Sports/Rugby/Leeds")["CLUSTER"], at(tree, "Sports/Rugby/Leeds")["PUBSCOPE"]) == ("", "QMGR")
    assert tree.admin_name(tree.node("Sports/Rugby")) == "MYRUGBY" and tree.cluster_objects_effective() == {}
    tree.dissociate("MYRUGBY")
    assert (at(tree, "Sports/Rugby/Leeds")["CLUSTER"], at(tree, "Sports/Rugby/Leeds")["PUBSCOPE"]) == ("CL1", "ALL")


def test_a_local_object_defined_later_takes_over_at_once(tree: TopicTree) -> None:
    """B:R-CTD-8, SC-30: defining the local override after the copy arrived replaces it at once
    (its WILDCARD too), the copy staying cached."""
    tree.set_cluster_objects(copies(*SPORT))
    local(tree, "MYFOOTBALL", "Sports/Football", WILDCARD="PASSTHRU")
    assert tree.blocked_topics() == frozenset() and at(tree, "Sports/Football/x")["CLUSTER"] == ""
    assert set(tree.cluster_objects_effective()) == {"Sports/Rugby"} and len(tree.cluster_topic_rows("*")) == 2


def test_a_clustered_base_topic_never_overrides_the_local_one(tree: TopicTree) -> None:
    """B:R-CTD-7: SYSTEM.BASE.TOPIC clustered on another queue manager changes nothing here."""
    tree.set_cluster_objects(copies(copy("SYSTEM.BASE.TOPIC", "", "QMA", 1.0, SUBSCOPE="QMGR")))
    assert at(tree, "any/topic")["CLUSTER"] == "" and at(tree, "any/topic")["SUBSCOPE"] == "ALL"


# -- several copies -----------------------------------------------------------------------------
def test_the_most_recently_arrived_copy_wins(tree: TopicTree) -> None:
    """B:R-CTD-9, R-CTD-14, A-18, SC-32, SC-34: of differing copies of one topic string the one
    that arrived last is used, whichever queue manager defined it."""
    qma = copy("Football", "Sports/Football", "QMA", 1.0, WILDCARD="BLOCK")
    qmb = copy("Football", "Sports/Football", "QMB", 2.0, WILDCARD="PASSTHRU")
    tree.set_cluster_objects(copies(qma, qmb))
    assert tree.cluster_objects_effective()["Sports/Football"]["CLUSQMGR"] == "QMB"
    assert tree.blocked_topics() == frozenset()
    tree.set_cluster_objects(copies(qma, {**qmb, "ARRIVED": 0.5}))
    assert tree.cluster_objects_effective()["Sports/Football"]["CLUSQMGR"] == "QMA"
    assert tree.blocked_topics() == frozenset({"Sports/Football"})


def test_the_last_added_cluster_of_a_topic_string_decides(tree: TopicTree) -> None:
    """B:R-OVL-4, SC-40, A-18: the same topic string defined in two clusters (different object
    names here) - the definition added last gives the topic its cluster."""
    tree.set_cluster_objects(copies(copy("TA", "T", "QM1", 1.0, cluster="CLUSTER 1"),
                                    copy("TB", "T", "QM5", 2.0, cluster="CLUSTER 2")))
    assert at(tree, "T/x")["CLUSTER"] == "CLUSTER 2"
    assert tree.cluster_object("TA") is not None  # still a name one may subscribe through


def test_a_newer_definition_of_a_name_replaces_the_older_one(tree: TopicTree) -> None:
    """B:R-CTD-5 (2), R-CTD-6: an object name defined elsewhere with another topic string - the
    newer definition replaces the older one, whose topic string is no longer a cluster topic."""
    tree.set_cluster_objects(copies(copy("PRICE", "Price", "QM1", 1.0), copy("PRICE", "Cost", "QM2", 2.0)))
    assert set(tree.cluster_objects_effective()) == {"Cost"}
    assert at(tree, "Price/x")["CLUSTER"] == "" and at(tree, "Cost/x")["CLUSTER"] == "CL1"
    price = tree.cluster_object("PRICE")
    assert price is not None and price["TOPICSTR"] == "Cost"


def test_a_local_object_of_the_same_name_hides_the_copy(tree: TopicTree) -> None:
    """B:R-CTD-5 (2), SC-31: "Unless the local definition is deleted, the remotely defined
    cluster topic object is ignored. The queue manager retains both definitions." """
    local(tree, "Alabama", "USA/Alabama")
    tree.set_cluster_objects(copies(copy("Alabama", "USA/Alabama", "QMA", 5.0)))
    assert at(tree, "USA/Alabama/Mobile")["CLUSTER"] == ""
    assert [row["TYPE"] for row in tree.cluster_topic_rows("Alabama")] == ["CLUSTER"]  # retained, shown
    tree.dissociate("Alabama")
    assert at(tree, "USA/Alabama/Mobile")["CLUSTER"] == "CL1"
    assert tree.admin_name(tree.node("USA/Alabama")) == "Alabama"


def test_the_name_hides_the_copy_even_at_another_topic_string(tree: TopicTree) -> None:
    """B:R-CTD-5 (2), R-CTD-6: the local Alabama names another topic string; the cluster
    Alabama is still ignored while it exists, then used."""
    local(tree, "Alabama", "Local/Alabama")
    tree.set_cluster_objects(copies(copy("Alabama", "USA/Alabama", "QMA", 5.0)))
    assert at(tree, "USA/Alabama/Mobile")["CLUSTER"] == "" and tree.cluster_object("Alabama") is None
    tree.dissociate("Alabama")
    assert at(tree, "USA/Alabama/Mobile")["CLUSTER"] == "CL1"


# -- inheritance and WILDCARD(BLOCK) through copies --------------------------------------------------
def test_inheritance_goes_through_copies_and_local_objects(tree: TopicTree) -> None:
    """B:R-CTD-1, R-CLU-14..16, SC-25, spec A R-ATO-4: ASPARENT and a blank CLUSTER resolve
    through cluster copies and local objects alike, down to SYSTEM.BASE.TOPIC."""
    tree.set_cluster_objects(copies(
        copy("ISO", "Iso", "QMA", 1.0, PUBSCOPE="QMGR", SUBSCOPE="QMGR", DURSUB="NO"),
        copy("ISOOPEN", "Iso/Open", "QMA", 2.0, PUBSCOPE="ALL", SUBSCOPE="ALL"),
    ))
    local(tree, "ISOLOCAL", "Iso/Local", DEFPRTY=7)  # CLUSTER blank, everything else ASPARENT
    assert (at(tree, "Iso/x")["PUBSCOPE"], at(tree, "Iso/x")["SUBSCOPE"]) == ("QMGR", "QMGR")
    assert (at(tree, "Iso/Open/x")["PUBSCOPE"], at(tree, "Iso/Open/x")["SUBSCOPE"]) == ("ALL", "ALL")
    assert at(tree, "Iso/Open/x")["DURSUB"] == "NO"  # ISOOPEN says ASPARENT: ISO's
    below_local = at(tree, "Iso/Local/x")
    assert (below_local["CLUSTER"], below_local["SUBSCOPE"], below_local["DEFPRTY"]) == ("CL1", "QMGR", 7)
    assert below_local["PROXYSUB"] == "FIRSTUSE" and below_local["CLROUTE"] == "DIRECT"  # the base's


def test_a_local_object_above_a_copy_is_inherited_from(tree: TopicTree) -> None:
    """B:R-TSP-5, spec A R-ATO-4: a copy saying ASPARENT takes the local parent's value."""
    local(tree, "USA", "USA", PUBSCOPE="QMGR", SUBSCOPE="ALL")
    tree.set_cluster_objects(copies(copy("Alabama", "USA/Alabama", "QMA", 1.0)))
    assert (at(tree, "USA/Alabama/Mobile")["PUBSCOPE"], at(tree, "USA/Alabama/Mobile")["CLUSTER"]) == ("QMGR", "CL1")


def test_wildcard_block_of_a_copy(tree: TopicTree) -> None:
    """B:R-WCP-6, R-WCP-7, SC-27, SC-28: the cluster object Football (Sports/Football,
    WILDCARD(BLOCK)) replicated here blocks wildcard subscriptions above it."""
    tree.set_cluster_objects(copies(*SPORT))
    assert tree.blocked_topics() == frozenset({"Sports/Football"})
    assert tree.owner_of_pattern("Sports/#/Arsenal", False) is tree.root  # R-WCP-6: SYSTEM.BASE.TOPIC


def test_wildcard_block_of_a_copy_through_subscriptions(mq: Any) -> None:
    """B:R-WCP-7, SC-28 (QMB): 'Sports/#/Arsenal' receives nothing under the blocking copy,
    'Sports/Football/Arsenal' does, and 'Sports/#' still gets what is not below Football."""
    mq.qm.tree.set_cluster_objects(copies(*SPORT))
    queues = {pattern: mq.managed(pattern)[1] for pattern in
              ("Sports/#", "Sports/#/Arsenal", "Sports/Football/Arsenal")}
    for topic in ("Sports/Football/Arsenal", "Sports/Rugby/Leeds"):
        mq.pub(topic, topic.encode())
    assert [r.body for r in mq.got(queues["Sports/#/Arsenal"])] == []
    assert [r.body for r in mq.got(queues["Sports/Football/Arsenal"])] == [b"Sports/Football/Arsenal"]
    assert [r.body for r in mq.got(queues["Sports/#"])] == [b"Sports/Rugby/Leeds"]


# -- subscribing by a cluster object's name -----------------------------------------------------------
def test_resolve_topic_by_a_cluster_object_name(mq: Any) -> None:
    """B:R-CTD-5 (3): "anyone can subscribe via the object name" of a cached cluster object."""
    qm = mq.qm
    qm.tree.set_cluster_objects(copies(*SPORT))
    assert qm.resolve_topic("Football", "Arsenal") == ("Sports/Football/Arsenal", "Football")
    with mq.raises(C.MQRC_UNKNOWN_OBJECT_NAME):
        qm.resolve_topic("Cricket", "")
    _, queue = mq.managed("", ObjectName="Rugby", ObjectString="Leeds")
    mq.pub("Sports/Rugby/Leeds", b"7-3")
    assert [r.body for r in mq.got(queue)] == [b"7-3"]


# -- hosts of identical definitions ---------------------------------------------------------------
def test_hosts_of_identical_definitions(tree: TopicTree) -> None:
    """A-18, B:R-RTE-13, R-CTD-13, SC-33: copies identical but for dates and defining queue
    manager are hosts of one object; a differing copy is not."""
    qm1 = copy("PRICE", "Price", "QM1", 1.0, CLROUTE="TOPICHOST")
    qm4 = copy("PRICE", "Price", "QM4", 2.0, CLROUTE="TOPICHOST")
    tree.set_cluster_objects(copies(qm1, qm4))
    assert tree.hosts_of("Price") == frozenset({"QM1", "QM4"})
    assert tree.hosts_of("Price/Fruit") == frozenset() and tree.hosts_of("Nothing") == frozenset()
    qm2 = copy("PRICE", "Price", "QM2", 3.0, CLROUTE="TOPICHOST", DESCR="new")
    tree.set_cluster_objects(copies(qm1, qm4, qm2))
    assert tree.hosts_of("Price") == frozenset({"QM2"})
    tree.set_cluster_objects(copies(qm1, qm4, {**qm2, "ARRIVED": 0.5}))
    assert tree.hosts_of("Price") == frozenset({"QM1", "QM4"})


def test_hosts_of_a_local_clustered_object(tree: TopicTree) -> None:
    """B:R-CTD-8, R-RTE-13: when the local clustered object is used, the hosts are this queue
    manager and the copies identical to it."""
    local(tree, "PRICE", "Price", CLUSTER="CL1", CLROUTE="TOPICHOST", CRDATE="2024-01-09", ALTTIME="09.09.09")
    tree.set_cluster_objects(copies(copy("PRICE", "Price", "QM4", 2.0, CLROUTE="TOPICHOST"),
                                    copy("PRICE", "Price", "QM2", 3.0, CLROUTE="DIRECT")))
    assert tree.hosts_of("Price", local_qmgr="QM1") == frozenset({"QM1", "QM4"})
    assert tree.hosts_of("Price") == frozenset({"QM4"})
    local(tree, "OTHER", "Other")  # a local object without CLUSTER hosts nothing
    assert tree.hosts_of("Other", local_qmgr="QM1") == frozenset()


# -- conflicts ---------------------------------------------------------------------------------------
def test_conflicting_copies_are_reported_once(tree: TopicTree) -> None:
    """B:R-CTD-9, R-CTD-15, A-18, SC-32: differing definitions of one topic string are written to
    the error log once, naming both queue managers and the one used; an unchanged re-publication
    reports nothing; a conflict that ends and comes back is reported again."""
    qma = copy("Football", "Sports/Football", "QMA", 1.0, WILDCARD="BLOCK")
    qmb = copy("Football", "Sports/Football", "QMB", 2.0, WILDCARD="PASSTHRU")
    lines = tree.set_cluster_objects(copies(qma, qmb))
    assert len(lines) == 1 and "conflicting definition" in lines[0]
    assert "QMA" in lines[0] and "QMB's, is used" in lines[0]
    assert tree.set_cluster_objects(copies(qma, {**qmb, "ARRIVED": 2.0})) == []
    assert tree.set_cluster_objects(copies(qma)) == []
    assert len(tree.set_cluster_objects(copies(qma, qmb))) == 1


def test_identical_copies_are_no_conflict(tree: TopicTree) -> None:
    """B:R-CTD-9, R-CTD-13, SC-33: identical definitions on two hosts (dates apart) are fine."""
    identical = copies(copy("PRICE", "Price", "QM1", 1.0), copy("PRICE", "Price", "QM2", 9.0))
    assert identical["CL1/PRICE/QM1"]["CRDATE"] != identical["CL1/PRICE/QM2"]["CRDATE"]
    assert tree.set_cluster_objects(identical) == []


def test_one_object_in_two_clusters_is_reported(tree: TopicTree) -> None:
    """B:R-CTD-15, R-OVL-4, SC-40: the same object in two clusters - an informational line."""
    lines = tree.set_cluster_objects(copies(copy("TA", "T", "QM1", 1.0, cluster="CLUSTER 1"),
                                            copy("TA", "T", "QM5", 2.0, cluster="CLUSTER 2")))
    assert len(lines) == 1 and "'CLUSTER 1'" in lines[0] and "'CLUSTER 2'" in lines[0]


def test_a_duplicate_name_with_another_topic_string_is_reported(tree: TopicTree) -> None:
    """B:R-CTD-6: a duplicate definition of the object with a different topic string."""
    lines = tree.set_cluster_objects(copies(copy("PRICE", "Price", "QM1", 1.0), copy("PRICE", "Cost", "QM2", 2.0)))
    assert len(lines) == 1 and "'Price' and 'Cost'" in lines[0]


def test_a_local_cluster_definition_conflicts_and_is_kept(tree: TopicTree) -> None:
    """B:R-CTD-10, A-19, SC-32 (QMA), SC-34: the queue manager with its own differing cluster
    definition logs the conflict and keeps using its own; after deleting it, no new line."""
    local(tree, "Football", "Sports/Football", CLUSTER="CL1", WILDCARD="BLOCK")
    lines = tree.set_cluster_objects(copies(copy("Football", "Sports/Football", "QMB", 2.0, WILDCARD="PASSTHRU")))
    assert len(lines) == 1 and "this queue manager's own" in lines[0] and "local definition is used" in lines[0]
    assert tree.blocked_topics() == frozenset({"Sports/Football"})
    tree.dissociate("Football")
    assert tree.cluster_conflicts() == [] and tree.blocked_topics() == frozenset()


def test_a_local_override_without_cluster_is_no_conflict(tree: TopicTree) -> None:
    """B:R-CTD-11, SC-30, SC-31: overriding a cluster topic locally is not an error."""
    local(tree, "Rugby", "Sports/Rugby", PUBSCOPE="QMGR")
    assert tree.set_cluster_objects(copies(copy("Rugby", "Sports/Rugby", "QMA", 1.0))) == []


def test_resolution_caches_follow_the_copies(tree: TopicTree) -> None:
    """B:R-PXY-13 (re-evaluation needs fresh values): resolved attributes, the blocked set and
    owners change as soon as the copies do."""
    node = tree.node("Sports/Football/Arsenal")
    assert tree.resolved(node)["CLUSTER"] == "" and tree.blocked_topics() == frozenset()
    tree.set_cluster_objects(copies(*SPORT))
    assert tree.resolved(node)["CLUSTER"] == "CL1" and tree.blocked_topics() == frozenset({"Sports/Football"})
    tree.set_cluster_objects(copies(copy("Football", "Sports/Football", "QMA", 3.0, cluster="CL2")))
    assert tree.resolved(node)["CLUSTER"] == "CL2" and tree.blocked_topics() == frozenset()
