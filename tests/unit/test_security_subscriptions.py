"""Subscription and publication security in core (spec C §11.5-11.10, SC-SEC-01..16 but 05, which
is in test_security_admin_subs): destination queues, alias queues as topic aliases, closing with
REMOVE_SUB, alternate user, identity context, ANY_USERID and FIXED_USERID, resume authority,
administrators, context authorities on topics."""

from __future__ import annotations

from typing import Any

import pytest

from helpers.core_security import Security, admin_topics, reason_of
from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.qmgr import Connection, Handle, QueueManager
from mqlite.core.security.principal import Principal
from mqlite.core.waiters import GetRequest
from mqlite.message import MessageDescriptor

CREATE, RESUME, ALTER = C.MQSO_CREATE, C.MQSO_RESUME, C.MQSO_ALTER
DURABLE, MANAGED = C.MQSO_DURABLE, C.MQSO_MANAGED
INPUT = C.MQOO_INPUT_SHARED


@pytest.fixture
def fruit(qm: QueueManager) -> Security:
    """FX-FRUIT's objects: FRUIT 'Price/Fruit', APPLE 'Price/Fruit/Apples', VEG 'Price/Vegetables'."""
    sec = Security(qm)
    for name, topic in (("FRUIT", "Price/Fruit"), ("APPLE", "Price/Fruit/Apples"), ("VEG", "Price/Vegetables")):
        qm.define("TOPIC", name, {"TOPICSTR": topic})
    return sec


def sub(qm: QueueManager, conn: Connection, options: int, topic: str = "", name: str | None = None,
        queue: Handle | None = None, **sd: Any) -> tuple[int, Any]:
    """MQSUB: (reason, Hsub) — reason 0 when it succeeded."""
    fields: dict[str, Any] = {"Options": options, "ObjectString": topic, **sd}
    if name is not None:
        fields["SubName"] = name
    try:
        hsub, _, _ = qm.subscribe(conn, fields, queue.hobj if queue is not None else 0)
    except MQError as error:
        return error.reason, None
    return 0, hsub


def open_q(qm: QueueManager, conn: Connection, name: str, options: int = INPUT) -> Handle:
    return qm.open(conn, {"ObjectName": name}, options)


def messages(qm: QueueManager, conn: Connection, handle: Handle) -> list[MessageDescriptor]:
    out = []
    while True:
        try:
            result = qm.get(conn, handle.hobj, GetRequest(C.MQGMO_NO_SYNCPOINT, None, None, -1, 0), None)
        except MQError as error:
            assert error.reason == C.MQRC_NO_MSG_AVAILABLE
            return out
        out.append(result.message.md)  # type: ignore[union-attr]


def publish(qm: QueueManager, conn: Connection, topic: str, body: bytes = b"p") -> None:
    handle = qm.open(conn, {"ObjectType": C.MQOT_TOPIC, "ObjectString": topic}, C.MQOO_OUTPUT)
    qm.put(conn, handle.hobj, MessageDescriptor(), C.MQPMO_NO_SYNCPOINT, {}, body)
    qm.close(conn, handle.hobj, 0)


def test_sc_sec_01_no_check_at_mqput(fruit: Security) -> None:  # C:SC-SEC-01, R-SEC-3
    qm = fruit.qm
    fruit.setmqaut("topic", "VEG", "USER1", "+pub")
    user1 = fruit.connect("USER1")
    handle = qm.open(user1, {"ObjectType": C.MQOT_TOPIC, "ObjectString": "Price/Vegetables"}, C.MQOO_OUTPUT)
    fruit.setmqaut("topic", "VEG", "USER1", "-pub")
    qm.put(user1, handle.hobj, MessageDescriptor(), C.MQPMO_NO_SYNCPOINT, {}, b"still allowed")
    assert reason_of(lambda: qm.open(user1, {"ObjectType": C.MQOT_TOPIC, "ObjectString": "Price/Vegetables"},
                                     C.MQOO_OUTPUT)) == C.MQRC_NOT_AUTHORIZED


def test_sc_sec_02_destination_queue_needs_put(qm: QueueManager) -> None:  # C:SC-SEC-02, R-SEC-16, A-38
    sec = Security(qm)
    qm.define("TOPIC", "DT", {"TOPICSTR": "D/T"})
    qm.define("QLOCAL", "UQ", {})
    sec.setmqaut("topic", "DT", "USER3", "+sub")
    sec.setmqaut("queue", "UQ", "USER3", "+get")
    user3 = sec.connect("USER3")
    uq = open_q(qm, user3, "UQ")
    assert sub(qm, user3, CREATE, "D/T", queue=uq)[0] == C.MQRC_NOT_AUTHORIZED
    assert qm.subs_by_id == {} and qm.tree.find("D/T/x") is None
    event = sec.one_event()
    assert event[C.MQIACF_REASON_QUALIFIER] == C.MQRQ_SUB_DEST_NOT_AUTHORIZED
    assert event[C.MQCACF_DESTINATION] == "UQ" and event[C.MQCA_TOPIC_STRING] == "D/T"
    assert event[C.MQIACF_SUB_OPTIONS] == CREATE and event[C.MQCACF_USER_IDENTIFIER] == "USER3"
    assert sub(qm, user3, CREATE | MANAGED, "D/T")[0] == 0  # R-SEC-17: no check of a managed queue
    sec.setmqaut("queue", "UQ", "USER3", "+put")
    assert sub(qm, user3, CREATE, "D/T", queue=uq)[0] == 0


def test_sc_sec_03_alias_queue_to_a_topic(fruit: Security) -> None:  # C:SC-SEC-03, R-SEC-20
    qm = fruit.qm
    qm.define("QALIAS", "VEGALIAS", {"TARGET": "VEG", "TARGTYPE": "TOPIC"})
    admin = fruit.admin
    hsub, managed, _ = qm.subscribe(admin, {"Options": CREATE | MANAGED, "ObjectString": "Price/Vegetables"}, 0)
    fruit.setmqaut("queue", "VEGALIAS", "USER1", "+put")
    fruit.setmqaut("topic", "VEG", "USER1", "+pub")
    fruit.setmqaut("queue", "VEGALIAS", "USER4", "+put")
    user1, user4 = fruit.connect("USER1"), fruit.connect("USER4")
    handle = open_q(qm, user1, "VEGALIAS", C.MQOO_OUTPUT)  # (a)
    qm.put(user1, handle.hobj, MessageDescriptor(), C.MQPMO_NO_SYNCPOINT, {}, b"carrots")
    assert managed is not None and [md.UserIdentifier for md in messages(qm, admin, managed)] == ["mqadmin"]
    event_less = fruit.events()
    assert event_less == []
    assert reason_of(lambda: open_q(qm, user4, "VEGALIAS", C.MQOO_OUTPUT)) == C.MQRC_NOT_AUTHORIZED  # (c)
    event = fruit.one_event()
    assert admin_topics(event) == ["VEG", "SYSTEM.BASE.TOPIC"] and event[C.MQCA_TOPIC_STRING] == "Price/Vegetables"
    fruit.setmqaut("queue", "VEGALIAS", "USER1", "-put")
    assert reason_of(lambda: open_q(qm, user1, "VEGALIAS", C.MQOO_OUTPUT)) == C.MQRC_NOT_AUTHORIZED  # (b)
    event = fruit.one_event()
    assert event[C.MQCA_Q_NAME] == "VEGALIAS" and C.MQCACF_ADMIN_TOPIC_NAMES not in event
    qm.close(admin, hsub.hobj, 0)


def test_sc_sec_04_remove_sub_of_a_resumed_handle(fruit: Security) -> None:  # C:SC-SEC-04, R-SEC-21, A-33
    qm = fruit.qm
    for user in ("USER1", "USER2"):
        fruit.setmqaut("topic", "APPLE", user, "+sub")
    user1, user2 = fruit.connect("USER1"), fruit.connect("USER2")
    hsub, managed, _ = qm.subscribe(user1, {"Options": CREATE | DURABLE | MANAGED | C.MQSO_ANY_USERID,
                                            "ObjectString": "Price/Fruit/Apples", "SubName": "SAPL"}, 0)
    qm.close(user1, hsub.hobj, 0)
    assert managed is not None
    qm.close(user1, managed.hobj, 0)
    reason, hsub2 = sub(qm, user2, RESUME | DURABLE | MANAGED | C.MQSO_ANY_USERID, name="SAPL")
    assert reason == 0
    fruit.setmqaut("topic", "APPLE", "USER2", "-sub")
    assert reason_of(lambda: qm.close(user2, hsub2.hobj, C.MQCO_REMOVE_SUB)) == C.MQRC_NOT_AUTHORIZED
    assert "SAPL" in qm.subs_by_name and hsub2.hobj in user2.subscriptions  # both remain
    event = fruit.one_event()
    assert event[C.MQIACF_REASON_QUALIFIER] == C.MQRQ_CLOSE_NOT_AUTHORIZED
    assert event[C.MQCACF_SUB_NAME] == "SAPL" and admin_topics(event) == ["APPLE", "FRUIT", "SYSTEM.BASE.TOPIC"]
    # The handle that created a subscription removes it without a check.
    reason, hsub3 = sub(qm, user1, CREATE | MANAGED, "Price/Fruit/Apples")
    fruit.setmqaut("topic", "APPLE", "USER1", "-sub")
    qm.close(user1, hsub3.hobj, C.MQCO_REMOVE_SUB)
    assert fruit.events() == []


def test_sc_sec_06_alternate_user(fruit: Security) -> None:  # C:SC-SEC-06, R-SEC-24, A-34
    qm = fruit.qm
    fruit.setmqaut("topic", "FRUIT", "USER1", "+sub")
    app = fruit.connect("app")
    options = CREATE | MANAGED | C.MQSO_ALTERNATE_USER_AUTHORITY
    assert sub(qm, app, options, "Price/Fruit", AlternateUserId="USER1")[0] == C.MQRC_NOT_AUTHORIZED  # no altusr
    assert fruit.one_event()[C.MQIACF_REASON_QUALIFIER] == C.MQRQ_SUB_NOT_AUTHORIZED
    fruit.setmqaut("qmgr", "", "app", "+altusr")
    reason, hsub = sub(qm, app, options, "Price/Fruit", AlternateUserId="USER1")
    assert reason == 0 and app.subscriptions[hsub.hobj].user == "USER1"  # the alternate user is SUBUSER
    fruit.setmqaut("topic", "FRUIT", "app", "+sub")
    assert sub(qm, app, options, "Price/Fruit", AlternateUserId="USER2")[0] == C.MQRC_NOT_AUTHORIZED
    assert fruit.one_event()[C.MQCACF_USER_IDENTIFIER] == "USER2"


def test_alternate_user_on_mqopen_and_mqput1(qm: QueueManager) -> None:  # C:R-SEC-24 (MQOO/MQPMO forms)
    sec = Security(qm)
    qm.define("QLOCAL", "ALTQ", {})
    sec.setmqaut("queue", "ALTQ", "USER1", "+put")
    server = sec.connect("server")
    od = {"ObjectName": "ALTQ", "AlternateUserId": "USER1"}
    options = C.MQOO_OUTPUT | C.MQOO_ALTERNATE_USER_AUTHORITY
    assert reason_of(lambda: qm.open(server, od, options)) == C.MQRC_NOT_AUTHORIZED  # no altusr
    sec.setmqaut("qmgr", "", "server", "+altusr")
    qm.close(server, qm.open(server, od, options).hobj, 0)
    qm.put1(server, od, MessageDescriptor(), C.MQPMO_ALTERNATE_USER_AUTHORITY | C.MQPMO_NO_SYNCPOINT, {}, b"x")
    assert reason_of(lambda: qm.open(server, {**od, "AlternateUserId": "USER2"}, options)) == C.MQRC_NOT_AUTHORIZED
    assert reason_of(lambda: qm.open(server, {"ObjectName": "ALTQ"}, C.MQOO_OUTPUT)) == C.MQRC_NOT_AUTHORIZED
    assert [e[C.MQCACF_USER_IDENTIFIER] for e in sec.events()] == ["server", "USER2", "server"]


def test_sc_sec_07_identity_context_needs_setid(qm: QueueManager) -> None:  # C:SC-SEC-07, R-SEC-25
    sec = Security(qm)
    qm.define("TOPIC", "IDT", {"TOPICSTR": "Id/T"})
    qm.define("QLOCAL", "Q", {})
    sec.setmqaut("topic", "IDT", "U", "+sub")
    sec.setmqaut("queue", "Q", "U", "+put", "+get")
    u = sec.connect("U")
    q = open_q(qm, u, "Q")
    identity = {"PubApplIdentityData": "ORIGINAL"}
    options = CREATE | DURABLE | C.MQSO_SET_IDENTITY_CONTEXT
    assert sub(qm, u, options, "Id/T", "SID", queue=q, **identity)[0] == C.MQRC_NOT_AUTHORIZED
    assert sec.one_event()[C.MQIACF_REASON_QUALIFIER] == C.MQRQ_SUB_DEST_NOT_AUTHORIZED
    reason, managed = sub(qm, u, CREATE | MANAGED | C.MQSO_SET_IDENTITY_CONTEXT, "Id/T", **identity)
    assert reason == 0  # managed: no check
    qm.close(u, managed.hobj, C.MQCO_REMOVE_SUB)
    sec.setmqaut("queue", "Q", "U", "+setid")
    reason, hsub = sub(qm, u, options, "Id/T", "SID", queue=q, **identity)
    assert reason == 0
    qm.close(u, hsub.hobj, 0)
    sec.setmqaut("queue", "Q", "U", "-setid")  # RESUME ignores the identity fields: no setid needed
    reason, hsub = sub(qm, u, RESUME | DURABLE | C.MQSO_SET_IDENTITY_CONTEXT, name="SID", queue=q,
                       PubApplIdentityData="CHANGED")
    assert reason == 0
    publish(qm, sec.admin, "Id/T")
    assert [md.ApplIdentityData for md in messages(qm, u, q)] == ["ORIGINAL"]


def sany(fruit: Security) -> tuple[Connection, Connection, Connection, Handle, Handle, Handle]:
    """SC-SEC-09's setup: both users may subscribe on APPLE and put to FQ; USER3 may only use FQ."""
    qm = fruit.qm
    qm.define("QLOCAL", "FQ", {})
    for user in ("USER1", "USER2", "USER3"):
        fruit.setmqaut("queue", "FQ", user, "+put", "+get")
    for user in ("USER1", "USER2"):
        fruit.setmqaut("topic", "APPLE", user, "+sub")
    conns = fruit.connect("USER1"), fruit.connect("USER2"), fruit.connect("USER3")
    queues = tuple(open_q(qm, c, "FQ") for c in conns)
    reason, hsub = sub(qm, conns[0], CREATE | DURABLE | C.MQSO_ANY_USERID, "Price/Fruit/Apples", "SANY",
                       queue=queues[0])
    assert reason == 0
    qm.close(conns[0], hsub.hobj, C.MQCO_KEEP_SUB)
    return (*conns, *queues)  # type: ignore[return-value]


def test_sc_sec_09_any_userid_takeover(fruit: Security) -> None:  # C:SC-SEC-09, R-SEC-27
    qm = fruit.qm
    user1, user2, user3, fq1, fq2, fq3 = sany(fruit)
    any_resume = RESUME | DURABLE | C.MQSO_ANY_USERID
    reason, hsub = sub(qm, user2, any_resume, name="SANY", queue=fq2)
    assert reason == 0
    publish(qm, fruit.admin, "Price/Fruit/Apples")
    assert [md.UserIdentifier for md in messages(qm, user2, fq2)] == ["USER2"]
    assert sub(qm, user1, any_resume, name="SANY", queue=fq1)[0] == C.MQRC_SUBSCRIPTION_IN_USE
    qm.close(user2, hsub.hobj, C.MQCO_KEEP_SUB)
    assert sub(qm, user3, any_resume, name="SANY", queue=fq3)[0] == C.MQRC_NOT_AUTHORIZED
    event = fruit.one_event()
    assert event[C.MQCACF_USER_IDENTIFIER] == "USER3" and admin_topics(event)[0] == "APPLE"
    assert qm.subs_by_name["SANY"][0].user == "USER2"  # the refused takeover changed nothing


def test_sc_sec_10_to_12_fixed_and_any_userid(fruit: Security) -> None:  # C:SC-SEC-10, SC-SEC-11, SC-SEC-12
    qm = fruit.qm
    user1, user2, _, fq1, fq2, _ = sany(fruit)
    reason, hsub = sub(qm, user1, CREATE | DURABLE, "Price/Fruit/Apples", "SFIX", queue=fq1)
    qm.close(user1, hsub.hobj, C.MQCO_KEEP_SUB)
    assert sub(qm, user2, RESUME | DURABLE, name="SFIX", queue=fq2)[0] == C.MQRC_IDENTITY_MISMATCH  # 10
    assert sub(qm, user2, ALTER | DURABLE, name="SFIX", queue=fq2)[0] == C.MQRC_IDENTITY_MISMATCH
    reason, hsub = sub(qm, user1, RESUME | DURABLE, name="SFIX", queue=fq1)
    assert reason == 0
    qm.close(user1, hsub.hobj, C.MQCO_KEEP_SUB)
    any_alter = ALTER | DURABLE | C.MQSO_ANY_USERID  # 11
    assert sub(qm, user2, any_alter, name="SFIX", queue=fq2)[0] == C.MQRC_IDENTITY_MISMATCH
    reason, hsub = sub(qm, user1, any_alter, name="SFIX", queue=fq1)
    assert reason == 0
    qm.close(user1, hsub.hobj, C.MQCO_KEEP_SUB)
    reason, hsub = sub(qm, user2, RESUME | DURABLE | C.MQSO_ANY_USERID, name="SFIX", queue=fq2)
    assert reason == 0
    qm.close(user2, hsub.hobj, C.MQCO_KEEP_SUB)
    reason, hsub = sub(qm, user2, ALTER | DURABLE | C.MQSO_FIXED_USERID, name="SANY", queue=fq2)  # 12
    assert reason == 0
    qm.close(user2, hsub.hobj, C.MQCO_KEEP_SUB)
    [row] = qm.sub_status_rows("SANY")
    assert row["SUBUSER"] == "USER2"
    assert sub(qm, user1, RESUME | DURABLE, name="SANY", queue=fq1)[0] == C.MQRC_IDENTITY_MISMATCH
    assert fruit.events() == []  # identity mismatches are not authority events


def test_sc_sec_13_both_user_options(fruit: Security) -> None:  # C:SC-SEC-13, R-SEC-31
    fruit.setmqaut("topic", "FRUIT", "USER1", "+sub")
    user1 = fruit.connect("USER1")
    assert sub(fruit.qm, user1, CREATE | MANAGED | C.MQSO_ANY_USERID | C.MQSO_FIXED_USERID,
               "Price/Fruit")[0] == C.MQRC_OPTIONS_ERROR


def test_sc_sec_14_mqm_members_need_no_grants(fruit: Security) -> None:  # C:SC-SEC-14, A-31
    qm = fruit.qm
    member = qm.connect(Principal("opr", frozenset({"mqm"})), "opr.py")
    for topic in ("Price/Fruit", "SEC/COMB/BAD"):
        reason, _ = sub(qm, member, CREATE | MANAGED, topic)
        assert reason == 0
        publish(qm, member, topic)
    assert fruit.events() == []


def test_sc_sec_15_resume_authority(fruit: Security) -> None:  # C:SC-SEC-15, A-32
    qm = fruit.qm
    fruit.setmqaut("topic", "FRUIT", "R", "+sub")
    r = fruit.connect("R")
    reason, hsub = sub(qm, r, CREATE | DURABLE | MANAGED, "Price/Fruit", "SRES")
    assert reason == 0
    qm.close(r, hsub.hobj, C.MQCO_KEEP_SUB)
    fruit.setmqaut("topic", "FRUIT", "R", "-sub", "+resume")
    reason, hsub = sub(qm, r, RESUME | DURABLE | MANAGED, name="SRES")
    assert reason == 0
    qm.close(r, hsub.hobj, C.MQCO_KEEP_SUB)
    assert sub(qm, r, CREATE | MANAGED, "Price/Fruit")[0] == C.MQRC_NOT_AUTHORIZED
    assert sub(qm, r, ALTER | DURABLE | MANAGED, name="SRES")[0] == C.MQRC_NOT_AUTHORIZED
    # A takeover of another user's ANY_USERID subscription needs sub, not resume.
    fruit.setmqaut("topic", "FRUIT", "OWNER", "+sub")
    fruit.setmqaut("topic", "FRUIT", "R2", "+resume")
    owner, r2 = fruit.connect("OWNER"), fruit.connect("R2")
    reason, hsub = sub(qm, owner, CREATE | DURABLE | MANAGED | C.MQSO_ANY_USERID, "Price/Fruit", "SOWN")
    qm.close(owner, hsub.hobj, C.MQCO_KEEP_SUB)
    fruit.events()
    assert sub(qm, r2, RESUME | DURABLE | MANAGED | C.MQSO_ANY_USERID, name="SOWN")[0] == C.MQRC_NOT_AUTHORIZED
    assert fruit.one_event()[C.MQCACF_USER_IDENTIFIER] == "R2"


def test_sc_sec_16_context_authority_on_topics(fruit: Security) -> None:  # C:SC-SEC-16, A-34
    qm = fruit.qm
    fruit.setmqaut("topic", "FRUIT", "icpt", "+pub")
    icpt = fruit.connect("icpt")
    od = {"ObjectType": C.MQOT_TOPIC, "ObjectString": "Price/Fruit"}
    options = C.MQOO_OUTPUT | C.MQOO_PASS_ALL_CONTEXT
    assert reason_of(lambda: qm.open(icpt, od, options)) == C.MQRC_NOT_AUTHORIZED
    event = fruit.one_event()
    assert event[C.MQIACF_OPEN_OPTIONS] == options and admin_topics(event) == ["FRUIT", "SYSTEM.BASE.TOPIC"]
    fruit.setmqaut("topic", "FRUIT", "icpt", "+passall")
    qm.close(icpt, qm.open(icpt, od, options).hobj, 0)
