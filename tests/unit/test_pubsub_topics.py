"""Topic objects, inheritance, WILDCARD(BLOCK), the tree and TREELIFE in core (spec A §8-11:
TV-IN, TV-WB, TV-TT, TV-EX, TV-TC-15; spec C SC-PUB)."""

from __future__ import annotations

from typing import Any

import pytest

from mqlite import cmqc as C

DURABLE_SUB = C.MQSO_CREATE | C.MQSO_MANAGED | C.MQSO_DURABLE
PUBS = ["Sports", "Sports/Football", "Sports/Football/Arsenal", "Sports/Rugby", "Sports/Rugby/Leeds"]


def bodies(mq: Any, handle: Any) -> list[bytes]:
    return [r.body for r in mq.got(handle)]


def topic(mq: Any, name: str, topicstr: str, **attrs: Any) -> None:
    mq.qm.define("TOPIC", name, {"TOPICSTR": topicstr, **attrs})


def durable(mq: Any, pattern: str, name: str = "D") -> Any:
    return mq.sub(pattern, DURABLE_SUB, name=name)


# -- inheritance (TV-IN) ----------------------------------------------------------------------
def test_no_objects_durable_allowed(mq: Any) -> None:  # A:TV-IN-01
    assert mq.qm.tree.resolved(mq.qm.tree.node("Sport/Soccer"))["DURSUB"] == "YES"


@pytest.mark.parametrize(("pattern", "allowed"), [
    ("Sport/Soccer/TeamX/Results", False),  # A:TV-IN-02
    ("Sport/Tennis/PlayerB/Results", True),  # A:TV-IN-03
    ("Sport/Soccer", False),  # A:TV-IN-05
    ("Sport", True),  # A:TV-IN-06
    ("Sport/Soccer/#", False),  # A:TV-IN-12
    ("Sport/#", True),  # A:TV-IN-13
])
def test_dursub_no_on_an_object_and_below(mq: Any, pattern: str, allowed: bool) -> None:
    topic(mq, "FOOTBALL.EUROPEAN", "Sport/Soccer", DURSUB="NO")
    if allowed:
        durable(mq, pattern)
    else:
        with mq.raises(C.MQRC_DURABILITY_NOT_ALLOWED):
            durable(mq, pattern)


def test_dursub_does_not_affect_non_durable(mq: Any) -> None:  # A:TV-IN-04
    topic(mq, "FOOTBALL.EUROPEAN", "Sport/Soccer", DURSUB="NO")
    _, queue = mq.managed("Sport/Soccer/TeamX/Results")  # no MQRC_DURABILITY_NOT_ALLOWED...
    mq.pub("Sport/Soccer/TeamX/Results", b"2-1")
    assert [r.body for r in mq.got(queue)] == [b"2-1"]  # ...and it receives publications


def test_children_inherit_unless_they_say_otherwise(mq: Any) -> None:  # A:TV-IN-07, A:TV-IN-08
    topic(mq, "FOOTBALL.EUROPEAN", "Sport/Soccer", DURSUB="NO")
    topic(mq, "TEAMX", "Sport/Soccer/TeamX")
    tree = mq.qm.tree
    assert tree.resolved(tree.node("Sport/Soccer/TeamX/Results"))["DURSUB"] == "NO"
    mq.qm.alter("TOPIC", "TEAMX", {"DURSUB": "YES"})
    durable(mq, "Sport/Soccer/TeamX/Results")


def test_alter_changes_descendants_at_once(mq: Any) -> None:  # A:TV-IN-09
    topic(mq, "FOOTBALL.EUROPEAN", "Sport/Soccer")
    durable(mq, "Sport/Soccer/X", "before")
    mq.qm.alter("TOPIC", "FOOTBALL.EUROPEAN", {"DURSUB": "NO"})
    with mq.raises(C.MQRC_DURABILITY_NOT_ALLOWED):
        durable(mq, "Sport/Soccer/X", "after")


def test_base_topic_deleted_built_in_defaults_apply(mq: Any) -> None:  # A:TV-IN-10
    mq.qm.delete("TOPIC", "SYSTEM.BASE.TOPIC")
    assert mq.qm.tree.resolved(mq.qm.tree.node("Any/Topic"))["DURSUB"] == "YES"
    durable(mq, "Any/Topic")


def test_base_topic_dursub_no(mq: Any) -> None:  # A:TV-IN-11
    mq.qm.alter("TOPIC", "SYSTEM.BASE.TOPIC", {"DURSUB": "NO"})
    with mq.raises(C.MQRC_DURABILITY_NOT_ALLOWED):
        durable(mq, "Any/Topic")


def test_defaults_with_no_objects(mq: Any) -> None:  # A:TV-IN-16
    resolved = mq.qm.tree.resolved(mq.qm.tree.node("A/B"))
    assert {k: resolved[k] for k in ("DEFPRTY", "DEFPRESP", "DEFPERSIST", "PMSGDLV", "NPMSGDLV", "PUB", "SUB",
                                     "MDURMDL", "MNDURMDL")} == {
        "DEFPRTY": 0, "DEFPRESP": "SYNC", "DEFPERSIST": "NO", "PMSGDLV": "ALLDUR", "NPMSGDLV": "ALLAVAIL",
        "PUB": "ENABLE", "SUB": "ENABLE", "MDURMDL": "SYSTEM.DURABLE.MODEL.QUEUE",
        "MNDURMDL": "SYSTEM.NDURABLE.MODEL.QUEUE"}


def test_replace_keeps_the_topic_string(mq: Any) -> None:  # A:TV-IN-17
    topic(mq, "X", "a")
    mq.qm.define("TOPIC", "X", {"TOPICSTR": "b", "DESCR": "new"}, replace=True)
    [row] = mq.qm.objects("TOPIC", "X")
    assert (row["TOPICSTR"], row["DESCR"]) == ("a", "new")


def test_replace_keeps_a_subscriptions_topic(mq: Any) -> None:  # A:TV-IN-18
    mq.define("Q")
    mq.qm.define("SUB", "S", {"TOPICSTR": "a", "DEST": "Q"})
    mq.qm.define("SUB", "S", {"TOPICSTR": "b", "DEST": "Q"}, replace=True)
    [row] = mq.qm.objects("SUB", "S")
    assert row["TOPICSTR"] == "a"


def test_inhibited_pub_and_sub(mq: Any) -> None:
    topic(mq, "CLOSED", "Closed", PUB="INHIBITED", SUB="INHIBITED")
    handle = mq.topic("Closed/x")
    with mq.raises(C.MQRC_PUT_INHIBITED):
        mq.pub(handle)
    with mq.raises(C.MQRC_SUB_INHIBITED):
        mq.managed("Closed/#")


def test_model_queues_come_from_the_topic(mq: Any) -> None:  # A:R-MGD-8, C:SC-PROP-07 (D)
    mq.define("MY.MODEL", "QMODEL", DEFTYPE="TEMPDYN", DEFPRTY=6)
    topic(mq, "M", "M", MNDURMDL="MY.MODEL")
    _, q = mq.managed("M/x", PubPriority=C.MQPRI_PRIORITY_AS_Q_DEF)
    assert mq.qm.queues[q.name].attrs["DEFPRTY"] == 6
    mq.pub("M/x", Priority=2)
    [copy] = mq.got(q)
    assert copy.message.md.Priority == 6


# -- WILDCARD(BLOCK) (TV-WB, topics.tst of spec A §13) -----------------------------------------
@pytest.fixture
def sports(mq: Any) -> Any:
    topic(mq, "Sports", "Sports")
    topic(mq, "Football", "Sports/Football", WILDCARD="BLOCK")
    for name, topicstr in [("Arsenal", "Sports/Football/Arsenal"), ("Blackburn", "Sports/Football/Blackburn"),
                           ("Chelsea", "Sports/Football/Chelsea"), ("Rugby", "Sports/Rugby"),
                           ("Leeds", "Sports/Rugby/Leeds"), ("Wigan", "Sports/Rugby/Wigan"),
                           ("Warrington", "Sports/Rugby/Warrington"), ("St. Helens", "Sports/Rugby/St. Helens")]:
        topic(mq, name, topicstr)
    return mq


def received(mq: Any, pattern: str, char: bool = False, object_name: str = "") -> list[str]:
    options = C.MQSO_WILDCARD_CHAR if char else 0
    _, q = mq.managed(pattern, options, ObjectName=object_name)
    for pub in PUBS:
        mq.pub(pub, pub.encode())
    return [r.body.decode() for r in mq.got(q)]


@pytest.mark.parametrize(("pattern", "expected"), [
    ("Sports/#", ["Sports", "Sports/Rugby", "Sports/Rugby/Leeds"]),  # A:TV-WB-01
    ("Sports/#/Arsenal", []),  # A:TV-WB-02
    ("Sports/#/Leeds", ["Sports/Rugby/Leeds"]),  # A:TV-WB-03
    ("#", ["Sports", "Sports/Rugby", "Sports/Rugby/Leeds"]),  # A:TV-WB-13
    ("Sports/Football/#", ["Sports/Football", "Sports/Football/Arsenal"]),  # A:TV-WB-14
    ("Sports/+", ["Sports/Rugby"]),  # A:TV-WB-15
    ("Sports/+/Arsenal", []),  # A:TV-WB-16
    ("Sports/Football/+", ["Sports/Football/Arsenal"]),  # A:TV-WB-17
    ("Sports/Football", ["Sports/Football"]),  # A:TV-WB-18
])
def test_wildcard_block(sports: Any, pattern: str, expected: list[str]) -> None:
    assert received(sports, pattern) == expected


def test_subscriptions_through_topic_objects(sports: Any) -> None:  # A:TV-WB-04, A:TV-WB-05, A:TV-TC-11/12
    assert received(sports, "Arsenal", object_name="Football") == ["Sports/Football/Arsenal"]
    assert received(sports, "Leeds", object_name="Rugby") == ["Sports/Rugby/Leeds"]


def test_block_is_a_snapshot_taken_at_subscribe(mq: Any) -> None:  # A:TV-WB-19, A:TV-WB-20
    topic(mq, "Football", "Sports/Football")
    _, old = mq.managed("Sports/#")
    mq.qm.alter("TOPIC", "Football", {"WILDCARD": "BLOCK"})
    _, new = mq.managed("Sports/#")
    for pub in PUBS:
        mq.pub(pub, pub.encode())
    assert [r.body.decode() for r in mq.got(old)] == PUBS
    assert [r.body.decode() for r in mq.got(new)] == ["Sports", "Sports/Rugby", "Sports/Rugby/Leeds"]


def test_block_snapshot_is_refreshed_by_a_restart(store_mq: Any, recover: Any) -> None:  # A:TV-WB-21
    topic(store_mq, "Football", "Sports/Football")
    durable(store_mq, "Sports/#", "ALLSPORT")
    store_mq.qm.alter("TOPIC", "Football", {"WILDCARD": "BLOCK"})
    store_mq.flush()
    mq = recover()
    for pub in PUBS:
        mq.pub(pub, pub.encode())
    _, q, _ = mq.sub(options=C.MQSO_RESUME | C.MQSO_DURABLE, name="ALLSPORT")
    assert [r.body.decode() for r in mq.got(q)] == ["Sports", "Sports/Rugby", "Sports/Rugby/Leeds"]


@pytest.mark.parametrize(("pattern", "char", "expected"), [
    ("*", True, []),  # A:TV-WB-22
    ("Sports/*", True, ["Sports/a"]),  # A:TV-WB-23
    ("Sports/#", False, ["Sports/a"]),  # A:TV-WB-24
    ("#", False, []),  # A:TV-WB-25
])
def test_streams_blocked_at_the_top(mq: Any, pattern: str, char: bool, expected: list[str]) -> None:
    topic(mq, "SPORTS", "Sports", WILDCARD="BLOCK")
    topic(mq, "BUSINESS", "Business", WILDCARD="BLOCK")
    _, q = mq.managed(pattern, C.MQSO_WILDCARD_CHAR if char else 0)
    mq.pub("Sports/a", b"Sports/a")
    mq.pub("Business/b", b"Business/b")
    assert [r.body.decode() for r in mq.got(q)] == expected


# -- the single-queue-manager example (TV-EX) -------------------------------------------------
def test_news_service_example(mq: Any) -> None:  # A:TV-EX-01..04
    mq.define("SUB1.Q")
    sub1 = mq.open("SUB1.Q", C.MQOO_INPUT_AS_Q_DEF)
    mq.sub("Sport", C.MQSO_CREATE, queue=sub1)
    mq.sub("Stock", C.MQSO_CREATE, queue=sub1)
    _, sub2 = mq.managed("Films")
    _, sub3 = mq.managed("Sport")
    mq.pub("Sport", b"sport")
    mq.pub("Stock", b"stock")
    mq.pub("Films", b"films")
    mq.pub("TV", b"tv", C.MQPMO_WARN_IF_NO_SUBS_MATCHED)
    assert mq.conn.warning == C.MQRC_NO_SUBS_MATCHED  # C:SC-PO-03
    assert bodies(mq, sub1) == [b"sport", b"stock"]
    assert bodies(mq, sub2) == [b"films"]
    assert bodies(mq, sub3) == [b"sport"]


# -- the tree (TV-TT) --------------------------------------------------------------------------
FIG1 = ["USA/Alabama/Auburn", "USA/Alabama/Mobile", "USA/Alabama/Montgomery", "USA/Alaska/Juneau"]


def test_nodes_created_on_demand(mq: Any) -> None:  # A:TV-TT-01
    mq.pub("USA/Alabama/Auburn")
    assert [r["TOPICSTR"] for r in mq.qm.topic_status_rows("USA/#")] == ["USA", "USA/Alabama", "USA/Alabama/Auburn"]


def test_tpstatus_children_and_all(mq: Any) -> None:  # A:TV-TT-02, A:TV-TT-03
    for t in FIG1:
        mq.pub(t)
    children = [r["TOPICSTR"] for r in mq.qm.topic_status_rows("USA/Alabama/+")]
    assert children == ["USA/Alabama/Auburn", "USA/Alabama/Mobile", "USA/Alabama/Montgomery"]
    shown = [r["TOPICSTR"] for r in mq.qm.topic_status_rows("#")]
    assert len([t for t in shown if t != "SYSTEM.BROKER.ADMIN.STREAM"]) == 7  # and crtmqm's admin stream (D §1.3)


def test_tpstatus_wildcards_do_not_show_a_blocked_branch(mq: Any) -> None:  # A:R-WB-5
    """IBM: DISPLAY TPSTATUS with a wildcard above SYSTEM.ADMIN.TOPIC ($SYS/MQ, WILDCARD(BLOCK))
    shows none of the $SYS/MQ branch; a pattern that starts with $SYS/MQ shows it."""
    topic(mq, "SYSTEM.ADMIN.TOPIC", "$SYS/MQ", WILDCARD="BLOCK")
    topic(mq, "MONITOR.CPU", "$SYS/MQ/INFO/QMGR/QM1/Monitor/CPU")  # (applications may not publish there)
    mq.pub("USA/Alabama")
    shown = {r["TOPICSTR"] for r in mq.qm.topic_status_rows("#")} - {"SYSTEM.BROKER.ADMIN.STREAM"}
    assert shown == {"$SYS", "USA", "USA/Alabama"}
    assert [r["TOPICSTR"] for r in mq.qm.topic_status_rows("$SYS/#")] == ["$SYS"]
    assert [r["TOPICSTR"] for r in mq.qm.topic_status_rows("+/+")] == ["USA/Alabama"]
    inside = [r["TOPICSTR"] for r in mq.qm.topic_status_rows("$SYS/MQ/#")]
    assert inside[0] == "$SYS/MQ" and inside[-1] == "$SYS/MQ/INFO/QMGR/QM1/Monitor/CPU" and len(inside) == 6
    [row] = mq.qm.topic_status_rows("$SYS/MQ/INFO")  # named, not a wildcard: shown
    assert row["TOPICSTR"] == "$SYS/MQ/INFO"


def test_define_topic_creates_its_node(mq: Any) -> None:  # A:TV-TT-04
    topic(mq, "ALABAMA", "USA/Alabama")
    [row] = mq.qm.topic_status_rows("USA/Alabama")
    assert row["ADMIN"] == "ALABAMA"
    assert mq.qm.tree.find("USA") is not None


def test_treelife_default(mq: Any) -> None:  # A:TV-TT-05
    assert mq.qm.attrs["TREELIFE"] == 1800


def sweep(mq: Any, clock: Any, seconds: float) -> None:
    clock.advance(seconds)
    mq.qm.subscriptions.last_tree_sweep = 0.0  # sweep now, not only every TREE_SWEEP_EVERY
    mq.qm.pubsub_tick(clock.now)


def test_unused_node_removed_after_treelife(mq: Any, clock: Any) -> None:  # A:TV-TT-06, A:TV-TT-07
    mq.qm.alter("QMGR", "", {"TREELIFE": 900})
    mq.pub("X/Y")
    sweep(mq, clock, 899)
    assert mq.qm.tree.find("X/Y") is not None
    sweep(mq, clock, 2)
    assert mq.qm.tree.find("X/Y") is None
    sweep(mq, clock, 901)  # the parent waits its own TREELIFE
    assert mq.qm.tree.find("X") is None


def test_used_nodes_stay(mq: Any, clock: Any) -> None:  # A:TV-TT-08..13
    mq.pub("Keep/Retained", b"r", C.MQPMO_RETAIN)
    topic(mq, "OBJ", "Keep/Object")
    mq.pub("Keep/Parent/Child")
    handle = mq.topic("Keep/Open")
    durable(mq, "Keep/Durable")
    mq.managed("Wild/#")
    mq.pub("Wild/Matched/Leaf")
    sweep(mq, clock, 4000)
    for t in ("Keep/Retained", "Keep/Object", "Keep/Open", "Keep/Durable", "Wild/Matched/Leaf", "Keep/Parent"):
        assert mq.qm.tree.find(t) is not None, t
    mq.close(handle)


def test_restart_keeps_objects_retained_and_durable_nodes_only(store_mq: Any, recover: Any) -> None:  # A:TV-TT-14
    topic(store_mq, "OBJ", "T/Object")
    store_mq.pub("T/Retained", b"r", C.MQPMO_RETAIN, Persistence=1)
    durable(store_mq, "T/Durable")
    store_mq.pub("T/Transient")
    store_mq.flush()
    mq = recover()
    topics = {r["TOPICSTR"] for r in mq.qm.topic_status_rows("#")}
    assert topics == {"T", "T/Object", "T/Retained", "T/Durable", "SYSTEM.BROKER.ADMIN.STREAM"}


def test_expired_durable_subscription_releases_its_node(mq: Any, clock: Any) -> None:  # A:TV-TT-15
    mq.sub("guest/123", DURABLE_SUB, name="GUEST", SubExpiry=100)
    sweep(mq, clock, 11)
    assert mq.qm.tree.find("guest/123") is not None
    sweep(mq, clock, 1801)
    assert mq.qm.tree.find("guest/123") is None


def test_subscription_keeps_its_topic_after_the_object_goes(mq: Any) -> None:  # A:TV-TC-15
    topic(mq, "Football", "Sports/Football")
    mq.define("QFARSENAL")
    mq.qm.define("SUB", "FARSENAL", {"TOPICOBJ": "Football", "TOPICSTR": "Arsenal", "DEST": "QFARSENAL"})
    mq.qm.delete("TOPIC", "Football")
    mq.pub("Sports/Football/Arsenal", b"goal")
    assert mq.depth("QFARSENAL") == 1


# -- MQOPEN of topics (SC-PUB) ------------------------------------------------------------------
@pytest.fixture
def stock(mq: Any) -> Any:
    topic(mq, "IBMSTOCKPRICE", "NYSE/IBM/PRICE")
    topic(mq, "STOCKS", "NYSE")
    mq.define("STOCKTICKER")
    return mq


def test_open_by_object_resolves_its_topic(stock: Any) -> None:  # C:SC-PUB-01
    handle = stock.topic(object_name="IBMSTOCKPRICE")
    assert handle.topic_string == "NYSE/IBM/PRICE"
    stock.pub(handle, b"129", C.MQPMO_RETAIN)
    stock.pub(handle, b"155", C.MQPMO_RETAIN)
    _, q = stock.managed("NYSE/IBM/PRICE")
    [copy] = stock.got(q)
    assert copy.body == b"155" and copy.message.properties["MQIsRetained"] is True


def test_open_by_object_and_string_or_string(stock: Any) -> None:  # C:SC-PUB-02
    assert stock.topic("IBM/PRICE", "STOCKS").topic_string == "NYSE/IBM/PRICE"
    assert stock.topic("NYSE/IBM/PRICE").topic_string == "NYSE/IBM/PRICE"


@pytest.mark.parametrize(("b_persist", "expected"), [("YES", 1), ("NO", 0)])
def test_persistence_as_topic_def_from_the_closest_object(mq: Any, b_persist: str, expected: int) -> None:
    # C:SC-PUB-03
    topic(mq, "A", "a", DEFPERSIST="NO")
    topic(mq, "B", "a/b", DEFPERSIST=b_persist)
    _, q = mq.managed("a/b")
    handle = mq.topic("b", "A")
    assert handle.topic_string == "a/b"
    mq.pub(handle, Persistence=C.MQPER_PERSISTENCE_AS_TOPIC_DEF)
    [copy] = mq.got(q)
    assert copy.message.md.Persistence == expected


def test_topic_open_errors(stock: Any) -> None:  # C:SC-PUB-05, C:SC-PUB-06, A:TV-TC-06
    with stock.raises(C.MQRC_OD_ERROR):
        stock.qm.open(stock.conn, {"ObjectType": C.MQOT_TOPIC, "ObjectString": "x", "Version": 3}, C.MQOO_OUTPUT)
    with stock.raises(C.MQRC_UNKNOWN_OBJECT_NAME):
        stock.topic(object_name="NOSUCH")
    with stock.raises(C.MQRC_TOPIC_STRING_ERROR):
        stock.topic("")
    with stock.raises(C.MQRC_OPTION_NOT_VALID_FOR_TYPE):
        stock.topic("x", options=C.MQOO_INPUT_AS_Q_DEF)


def test_subscribe_by_object_name_only(stock: Any) -> None:  # C:SC-SUB-09
    _, _, out = stock.sub("", C.MQSO_CREATE | C.MQSO_MANAGED, object_name="IBMSTOCKPRICE")
    assert out["ResObjectString"] == "NYSE/IBM/PRICE"


def test_alias_queue_to_a_topic_publishes(mq: Any) -> None:  # C:R-PUB-7
    topic(mq, "PRICES", "Prices")
    mq.define("PRICE.ALIAS", "QALIAS", TARGET="PRICES", TARGTYPE="TOPIC")
    _, q = mq.managed("Prices")
    mq.put(mq.open("PRICE.ALIAS", C.MQOO_OUTPUT), b"1.20")
    assert bodies(mq, q) == [b"1.20"]
