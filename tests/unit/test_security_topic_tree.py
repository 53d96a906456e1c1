"""Authority on the topic tree through MQSUB and MQOPEN in core (spec C §11.2-11.4, S11): every row
of TV-SEC-T1, the worked example SC-SEC-FRUIT a-q with its authority events, and the 28 cells of
TV-SEC-T2."""

from __future__ import annotations

from typing import Any

import pytest

from helpers.core_security import TV_SEC_T2, Security, admin_topics
from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.qmgr import Connection, QueueManager

BASE = "SYSTEM.BASE.TOPIC"
MANAGED = C.MQSO_CREATE | C.MQSO_MANAGED


def subscribe(qm: QueueManager, conn: Connection, topic: str = "", options: int = MANAGED,
              object_name: str = "") -> int:
    """MQSUB; the reason code (0 when it succeeded, and the subscription is closed again)."""
    try:
        hsub, _, _ = qm.subscribe(conn, {"Options": options, "ObjectString": topic, "ObjectName": object_name}, 0)
    except MQError as error:
        return error.reason
    qm.close(conn, hsub.hobj, C.MQCO_REMOVE_SUB)
    return 0


def publish_open(qm: QueueManager, conn: Connection, topic: str, options: int = C.MQOO_OUTPUT) -> int:
    """MQOPEN of a topic for publishing; the reason code (0: opened and closed again)."""
    try:
        handle = qm.open(conn, {"ObjectType": C.MQOT_TOPIC, "ObjectString": topic}, options)
    except MQError as error:
        return error.reason
    qm.close(conn, handle.hobj, 0)
    return 0


# -- TV-SEC-T1 (FX-SEC, spec C §11.4) -------------------------------------------------------------
@pytest.fixture
def fx_sec(qm: QueueManager) -> tuple[Security, dict[str, Connection]]:
    sec = Security(qm)
    for name, topic in (("SECROOT", "SEC"), ("SECGOOD", "SEC/GOOD"), ("SECBAD", "SEC/BAD"), ("SECCOMB", "SEC/COMB"),
                        ("SECCOMBB", "SEC/COMB/GOOD/BAD"), ("SECCOMBG", "SEC/COMB/GOOD"),
                        ("SECCOMBN", "SEC/COMB/BAD")):
        qm.define("TOPIC", name, {"TOPICSTR": topic})
    sec.setmqaut("topic", "SECGOOD", "usr1", "+sub")
    sec.setmqaut("topic", "SECCOMBG", "usr2", "+sub")
    sec.setmqaut("topic", "SECBAD", "grp1", "+sub", group=True)
    users = {"usr1": sec.connect("usr1"), "usr2": sec.connect("usr2"), "usr3": sec.connect("usr3", "grp1")}
    return sec, users


T1_SUBSCRIBE = [  # row, user, topic, options, reason, AdminTopicNames of the event
    (1, "usr1", "SEC/GOOD", MANAGED, 0, None),
    (2, "usr1", "SEC/COMB/GOOD", MANAGED, 2035, ["SECCOMBG", "SECCOMB", "SECROOT", BASE]),
    (3, "usr2", "SEC/COMB/GOOD", MANAGED, 0, None),
    (4, "usr2", "SEC/GOOD", MANAGED, 2035, ["SECGOOD", "SECROOT", BASE]),
    (5, "usr2", "SEC/COMB/GOOD/BAD", MANAGED, 0, None),
    (6, "usr1", "SEC/COMB/BAD", MANAGED, 2035, ["SECCOMBN", "SECCOMB", "SECROOT", BASE]),
    (7, "usr2", "SEC/COMB/BAD", MANAGED, 2035, ["SECCOMBN", "SECCOMB", "SECROOT", BASE]),
    (10, "usr2", "SEC/COMB/GOOD/*", MANAGED | C.MQSO_WILDCARD_CHAR, 0, None),
    (11, "usr2", "SEC/COMB/*/GOOD", MANAGED | C.MQSO_WILDCARD_CHAR, 2035, ["SECCOMB", "SECROOT", BASE]),
    (12, "usr2", "SEC/COMB/#", MANAGED, 2035, ["SECCOMB", "SECROOT", BASE]),
    (16, "usr3", "SEC/BAD/x", MANAGED, 0, None),
    (16, "usr1", "SEC/BAD", MANAGED, 2035, ["SECBAD", "SECROOT", BASE]),
    (18, "usr1", "SEC", MANAGED, 2035, ["SECROOT", BASE]),
    (19, "usr1", "SEC/GOOD", MANAGED | C.MQSO_DURABLE, 0, None),  # managed: no destination check
]


@pytest.mark.parametrize(("row", "user", "topic", "options", "reason", "checked"), T1_SUBSCRIBE,
                         ids=[f"row{r[0]}-{r[1]}" for r in T1_SUBSCRIBE])
def test_tv_sec_t1_subscribe(fx_sec: Any, row: int, user: str, topic: str, options: int, reason: int,
                             checked: list[str] | None) -> None:  # C:TV-SEC-T1
    sec, users = fx_sec
    sd_options = options
    name = "ROW19" if options & C.MQSO_DURABLE else None
    if name:
        hsub, _, _ = sec.qm.subscribe(users[user], {"Options": sd_options, "ObjectString": topic, "SubName": name}, 0)
        assert sec.qm.subs_by_name[name][0].user == user
        sec.qm.close(users[user], hsub.hobj, C.MQCO_REMOVE_SUB)
        got = 0
    else:
        got = subscribe(sec.qm, users[user], topic, sd_options)
    assert got == reason, f"C:TV-SEC-T1 row {row}"
    if reason:
        event = sec.one_event()
        assert event[C.MQIACF_REASON_QUALIFIER] == C.MQRQ_SUB_NOT_AUTHORIZED
        assert event[C.MQCACF_USER_IDENTIFIER] == user and event[C.MQCA_TOPIC_STRING] == topic
        assert event[C.MQIACF_SUB_OPTIONS] == sd_options
        assert admin_topics(event) == checked, f"C:TV-SEC-T1 row {row}"
    else:
        assert sec.events() == []  # R-SEC-12: a success raises no event, even after a refusal on the path


def test_tv_sec_t1_rows_8_and_9_a_refused_subscriber_creates_no_node(fx_sec: Any) -> None:  # C:TV-SEC-T1 rows 8, 9
    sec, users = fx_sec
    assert sec.qm.tree.find("SEC/GOOD/NEW") is None
    hsub, _, _ = sec.qm.subscribe(users["usr1"], {"Options": MANAGED, "ObjectString": "SEC/GOOD/NEW"}, 0)
    node = sec.qm.tree.find("SEC/GOOD/NEW")
    assert node is not None and node.object_name is None  # row 8: the node exists and is no topic object
    assert subscribe(sec.qm, users["usr2"], "SEC/GOOD/NEW2") == C.MQRC_NOT_AUTHORIZED
    assert sec.qm.tree.find("SEC/GOOD/NEW2") is None  # row 9, R-SEC-10
    assert admin_topics(sec.one_event()) == ["SECGOOD", "SECROOT", BASE]
    sec.qm.close(users["usr1"], hsub.hobj, 0)


@pytest.mark.parametrize(("row", "user", "reason"), [(13, "usr2", 0), (14, "usr1", 2035), (15, "usr1", 2085)])
def test_tv_sec_t1_rows_13_to_15_by_object_name(fx_sec: Any, row: int, user: str, reason: int) -> None:
    sec, users = fx_sec  # C:TV-SEC-T1 rows 13-15 (R-SEC-11)
    name = "SECNONE" if row == 15 else "SECCOMBG"
    assert subscribe(sec.qm, users[user], object_name=name) == reason, f"C:TV-SEC-T1 row {row}"
    if row == 14:
        event = sec.one_event()
        assert event[C.MQCA_TOPIC_STRING] == "SEC/COMB/GOOD"
        assert admin_topics(event) == ["SECCOMBG", "SECCOMB", "SECROOT", BASE]
    else:
        assert sec.events() == []


def test_tv_sec_t1_row_17_sub_does_not_imply_pub(fx_sec: Any) -> None:  # C:TV-SEC-T1 row 17, R-SEC-5
    sec, users = fx_sec
    assert publish_open(sec.qm, users["usr1"], "SEC/GOOD") == C.MQRC_NOT_AUTHORIZED
    event = sec.one_event()
    assert event[C.MQIACF_REASON_QUALIFIER] == C.MQRQ_OPEN_NOT_AUTHORIZED
    assert event[C.MQIACF_OPEN_OPTIONS] == C.MQOO_OUTPUT
    assert admin_topics(event) == ["SECGOOD", "SECROOT", BASE]


def test_no_event_while_authorev_is_disabled(qm: QueueManager) -> None:  # C:R-SEC-13 (IBM's default DISABLED)
    sec = Security(qm, events=False)
    conn = sec.connect("usr1")
    assert subscribe(qm, conn, "A/B") == C.MQRC_NOT_AUTHORIZED
    assert qm.attrs["AUTHOREV"] == "DISABLED" and sec.events() == []


# -- SC-SEC-FRUIT (spec C §5.1.1-§5.1.7) ----------------------------------------------------------
def fruit_stage_1(qm: QueueManager) -> tuple[Security, Connection, Connection]:
    sec = Security(qm)
    qm.define("TOPIC", "FRUIT", {"TOPICSTR": "Price/Fruit"})
    sec.setmqaut("topic", "FRUIT", "USER1", "+sub")
    return sec, sec.connect("USER1"), sec.connect("USER2")


def fruit_final(qm: QueueManager) -> tuple[Security, Connection, Connection]:
    sec, user1, user2 = fruit_stage_1(qm)
    qm.define("TOPIC", "APPLE", {"TOPICSTR": "Price/Fruit/Apples"})
    sec.setmqaut("topic", "APPLE", "USER2", "+sub")
    qm.define("TOPIC", "ORANGE", {"TOPICSTR": "Price/Fruit/Oranges"})
    sec.setmqaut("topic", "ORANGE", "USER1", "+sub")
    sec.setmqaut("topic", "APPLE", "USER1", "+sub")
    qm.define("TOPIC", "VEG", {"TOPICSTR": "Price/Vegetables"})
    sec.setmqaut("topic", "VEG", "USER1", "+pub")
    sec.setmqaut("topic", "FRUIT", "USER1", "+pub")
    return sec, user1, user2


def test_sc_sec_fruit(qm: QueueManager) -> None:  # C:SC-SEC-FRUIT a-q
    sec, user1, user2 = fruit_stage_1(qm)

    def refused(event_topics: list[str], topic: str, qualifier: int = C.MQRQ_SUB_NOT_AUTHORIZED) -> None:
        event = sec.one_event()
        assert event[C.MQIACF_REASON_QUALIFIER] == qualifier
        assert event[C.MQCACF_USER_IDENTIFIER] == "USER2"
        assert admin_topics(event) == event_topics and event[C.MQCA_TOPIC_STRING] == topic
        assert event[C.MQCA_Q_MGR_NAME] == "QM1"

    assert subscribe(qm, user1, "Price/Fruit") == 0, "a"
    assert subscribe(qm, user2, "Price/Fruit") == 2035, "b"
    refused(["FRUIT", BASE], "Price/Fruit")
    for topic in ("Price/Fruit/Apples", "Price/Fruit/Oranges", "Price/Fruit/#"):  # §5.1.2
        assert subscribe(qm, user1, topic) == 0, f"c {topic}"
    assert subscribe(qm, user2, "Price/Fruit/Apples") == 2035, "d"
    refused(["FRUIT", BASE], "Price/Fruit/Apples")
    qm.define("TOPIC", "APPLE", {"TOPICSTR": "Price/Fruit/Apples"})  # §5.1.3
    sec.setmqaut("topic", "APPLE", "USER2", "+sub")
    assert subscribe(qm, user1, "Price/Fruit/Apples") == 0, "e"
    assert sec.events() == [], "e: no event"
    assert subscribe(qm, user2, "Price/Fruit/Apples") == 0, "f"
    assert subscribe(qm, user2, "Price/Fruit/Oranges") == 2035, "g"
    refused(["FRUIT", BASE], "Price/Fruit/Oranges")
    assert subscribe(qm, user1, "Price/Fruit/Oranges") == 0, "h"
    assert subscribe(qm, user1, "Price/Fruit/#") == 0, "h"
    qm.define("TOPIC", "ORANGE", {"TOPICSTR": "Price/Fruit/Oranges"})  # §5.1.4
    sec.setmqaut("topic", "ORANGE", "USER1", "+sub")
    sec.setmqaut("topic", "APPLE", "USER1", "+sub")
    assert (subscribe(qm, user1, "Price/Fruit/Apples"), subscribe(qm, user2, "Price/Fruit/Apples")) == (0, 0), "i"
    assert subscribe(qm, user2, "Price/Fruit/Oranges") == 2035, "j"
    refused(["ORANGE", "FRUIT", BASE], "Price/Fruit/Oranges")
    qm.define("TOPIC", "VEG", {"TOPICSTR": "Price/Vegetables"})  # §5.1.5
    sec.setmqaut("topic", "VEG", "USER1", "+pub")
    assert publish_open(qm, user1, "Price/Vegetables") == 0, "k"
    assert publish_open(qm, user2, "Price/Vegetables") == 2035, "l"
    refused(["VEG", BASE], "Price/Vegetables", C.MQRQ_OPEN_NOT_AUTHORIZED)
    for topic in ("Price/Vegetables/Potatoes", "Price/Vegetables/Onions"):  # §5.1.6
        assert publish_open(qm, user1, topic) == 0, f"m {topic}"
    assert publish_open(qm, user2, "Price/Vegetables/Potatoes") == 2035, "n"
    refused(["VEG", BASE], "Price/Vegetables/Potatoes", C.MQRQ_OPEN_NOT_AUTHORIZED)
    sec.setmqaut("topic", "FRUIT", "USER1", "+pub")  # §5.1.7
    assert publish_open(qm, user1, "Price/Fruit") == 0, "o"
    assert publish_open(qm, user2, "Price/Fruit") == 2035, "p"
    refused(["FRUIT", BASE], "Price/Fruit", C.MQRQ_OPEN_NOT_AUTHORIZED)
    assert publish_open(qm, user1, "Price/Fruit/Apples") == 0, "q"
    assert publish_open(qm, user2, "Price/Fruit/Apples") == 2035, "q"
    refused(["APPLE", "FRUIT", BASE], "Price/Fruit/Apples", C.MQRQ_OPEN_NOT_AUTHORIZED)
    assert subscribe(qm, user1, "Price/Vegetables") == 2035, "q"
    event = sec.one_event()
    assert admin_topics(event) == ["VEG", BASE] and event[C.MQCACF_USER_IDENTIFIER] == "USER1"


# -- TV-SEC-T2: the effective matrix after SC-SEC-FRUIT -------------------------------------------
T2 = TV_SEC_T2  # topic, USER1 sub, USER2 sub, USER1 pub, USER2 pub
T2_CELLS = [(topic, user, op, row[1 + i]) for row in T2 for i, (user, op) in
            enumerate((("USER1", "sub"), ("USER2", "sub"), ("USER1", "pub"), ("USER2", "pub"))) for topic in [row[0]]]


@pytest.mark.parametrize(("topic", "user", "op", "allowed"), T2_CELLS,
                         ids=[f"{t}-{u}-{o}" for t, u, o, _ in T2_CELLS])
def test_tv_sec_t2(qm: QueueManager, topic: str, user: str, op: str, allowed: bool) -> None:  # C:TV-SEC-T2
    _, user1, user2 = fruit_final(qm)
    conn = user1 if user == "USER1" else user2
    existed = qm.tree.find(topic) is not None
    reason = subscribe(qm, conn, topic) if op == "sub" else publish_open(qm, conn, topic)
    assert reason == (0 if allowed else C.MQRC_NOT_AUTHORIZED)
    if not allowed:  # R-SEC-10: a refused call leaves the tree as it was
        assert (qm.tree.find(topic) is not None) == existed


# -- remembered walks (a cache: the answer must follow every change) --------------------------------
def test_a_remembered_walk_follows_grants_and_revokes(qm: QueueManager) -> None:  # C:R-SEC-3
    sec = Security(qm, events=False)
    qm.define("TOPIC", "PRICES", {"TOPICSTR": "prices"})
    user = sec.connect("walker")
    assert publish_open(qm, user, "prices/fruit/apples") == C.MQRC_NOT_AUTHORIZED
    sec.setmqaut("topic", "PRICES", "walker", "+pub")
    assert publish_open(qm, user, "prices/fruit/apples") == 0
    sec.setmqaut("topic", "PRICES", "walker", "-pub")
    assert publish_open(qm, user, "prices/fruit/apples") == C.MQRC_NOT_AUTHORIZED


def test_a_remembered_walk_follows_topic_objects(qm: QueueManager) -> None:  # C:R-SEC-6, §11.3
    sec = Security(qm, events=False)
    sec.setmqaut("topic", BASE, "walker", "+pub")
    qm.define("TOPIC", "PRICES", {"TOPICSTR": "prices"})
    user = sec.connect("walker")
    assert publish_open(qm, user, "prices/fruit") == 0  # PRICES grants nothing, the base topic does
    qm.define("TOPIC", "FRUIT", {"TOPICSTR": "prices/fruit"})
    sec.setmqaut("topic", "FRUIT", "other", "+sub")  # a record for someone else: FRUIT is asked first
    assert publish_open(qm, user, "prices/fruit") == 0
    qm.alter("TOPIC", "PRICES", {"DESCR": "no grant here"})
    assert publish_open(qm, user, "prices/fruit") == 0
    sec.setmqaut("topic", BASE, "walker", "-pub")
    sec.setmqaut("topic", "FRUIT", "walker", "+pub")
    assert publish_open(qm, user, "prices/fruit") == 0
    qm.delete("TOPIC", "FRUIT")  # its grant goes with it: the walk must not remember it
    assert publish_open(qm, user, "prices/fruit") == C.MQRC_NOT_AUTHORIZED
