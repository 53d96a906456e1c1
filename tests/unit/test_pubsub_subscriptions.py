"""Subscriptions in core: lifecycle, durability, managed queues (spec A §5, TV-SL; spec C §3-4,
the MQSO_CREATE/RESUME/ALTER table CRA-01..27, SC-SUB, SC-LC)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from mqlite import cmqc as C
from mqlite.core.errors import MQError

CREATE, RESUME, ALTER = C.MQSO_CREATE, C.MQSO_RESUME, C.MQSO_ALTER
DURABLE, MANAGED = C.MQSO_DURABLE, C.MQSO_MANAGED
INPUT = C.MQOO_INPUT_AS_Q_DEF | C.MQOO_INQUIRE


def bodies(mq: Any, handle: Any) -> list[bytes]:
    return [r.body for r in mq.got(handle)]


def status_names(mq: Any) -> list[str]:
    return [row["SUB"] for row in mq.qm.sub_status_rows("*", "ALL")]


# -- lifecycle (TV-SL) -----------------------------------------------------------------------
def test_non_durable_managed_subscription_ends_with_its_connection(mq: Any) -> None:  # A:TV-SL-01
    conn = mq.connect()
    _, q = mq.managed("SL/1", conn=conn, SubName="SL1")
    for _ in range(3):
        mq.pub("SL/1")
    name = q.name
    assert mq.depth(name) == 3
    mq.qm.disconnect(conn, commit=False)
    assert "SL1" not in status_names(mq)
    assert name not in mq.qm.queues


def test_non_durable_subscription_to_an_application_queue_leaves_the_messages(mq: Any) -> None:  # A:TV-SL-02
    mq.define("SLQ")
    conn = mq.connect()
    q = mq.open("SLQ", INPUT, conn=conn)
    mq.sub("SL/2", CREATE, queue=q, conn=conn)
    for _ in range(3):
        mq.pub("SL/2")
    mq.qm.disconnect(conn)
    assert mq.depth("SLQ") == 3
    mq.pub("SL/2")
    assert mq.depth("SLQ") == 3
    assert status_names(mq) == []


@pytest.mark.parametrize("close_option", [C.MQCO_NONE, C.MQCO_REMOVE_SUB])
def test_closing_a_non_durable_subscription_deletes_it(mq: Any, close_option: int) -> None:  # A:TV-SL-03
    hsub, q = mq.managed("SL/3", SubName="SL3")
    mq.close(hsub, close_option)
    assert status_names(mq) == []
    mq.pub("SL/3")
    assert bodies(mq, q) == []


def test_keep_sub_on_a_non_durable_subscription_is_an_error(mq: Any) -> None:  # C:SC-SUB-04
    hsub, _ = mq.managed("SL/3b")
    with mq.raises(C.MQRC_OPTIONS_ERROR):
        mq.close(hsub, C.MQCO_KEEP_SUB)
    mq.close(hsub, C.MQCO_NONE)
    assert status_names(mq) == []


def test_durable_subscription_kept_and_resumed(mq: Any) -> None:  # A:TV-SL-04, A:TV-SL-05
    hsub, q = mq.managed("SL/4", DURABLE, SubName="S1")
    mq.close(hsub, C.MQCO_KEEP_SUB)
    mq.close(q)
    mq.pub("SL/4", b"m1")
    mq.pub("SL/4", b"m2")
    assert "S1" in status_names(mq)
    hsub, q, out = mq.sub(options=RESUME | DURABLE, name="S1")
    assert q is not None and out["ResObjectString"] == "SL/4"
    assert bodies(mq, q) == [b"m1", b"m2"]


def test_resume_reports_the_original_expiry(mq: Any, clock: Any) -> None:  # A:TV-SL-06
    hsub, q = mq.managed("SL/6", DURABLE, SubName="S6", SubExpiry=6000)
    clock.advance(400)
    mq.close(hsub, C.MQCO_KEEP_SUB)
    mq.close(q)
    clock.advance(50)
    _, _, out = mq.sub(options=RESUME | DURABLE, name="S6")
    assert out["SubExpiry"] == 6000


def test_remove_sub_deletes_a_durable_one_and_its_managed_queue_at_close(mq: Any) -> None:  # A:TV-SL-07
    hsub, q = mq.managed("SL/7", DURABLE, SubName="S7")
    mq.close(hsub, C.MQCO_REMOVE_SUB)
    assert "S7" not in status_names(mq)
    assert q.name in mq.qm.queues
    mq.close(q)
    assert q.name not in mq.qm.queues


def test_delete_sub_removes_it(mq: Any) -> None:  # A:TV-SL-08
    hsub, _ = mq.managed("SL/8", DURABLE, SubName="S8")
    mq.close(hsub, C.MQCO_KEEP_SUB)
    mq.qm.delete_sub("S8")
    assert status_names(mq) == []


def test_durable_subscription_needs_a_name(mq: Any) -> None:  # A:TV-SL-09, C:SC-SUB-05
    with mq.raises(C.MQRC_SUB_NAME_ERROR):
        mq.sub("SL/9", CREATE | MANAGED | DURABLE, name="")
    with mq.raises(C.MQRC_SUB_NAME_ERROR):
        mq.sub("SL/9", CREATE | MANAGED | DURABLE)


def test_subscription_names_are_unique(mq: Any) -> None:  # A:TV-SL-10
    mq.managed("SL/10", DURABLE, SubName="S10")
    with mq.raises(C.MQRC_SUB_ALREADY_EXISTS):
        mq.sub("SL/10b", CREATE | MANAGED | DURABLE, name="S10")


def test_durable_managed_queue_survives_a_broken_connection(mq: Any) -> None:  # A:TV-SL-11
    conn = mq.connect()
    _, q = mq.managed("SL/11", DURABLE, conn=conn, SubName="S11")
    mq.pub("SL/11", b"kept")
    mq.qm.disconnect(conn, commit=False)
    assert mq.depth(q.name) == 1
    assert mq.qm.queues[q.name].dynamic == "PERMDYN"


def test_restart_keeps_durable_and_drops_non_durable(store_mq: Any, recover: Any) -> None:  # A:TV-SL-12
    store_mq.managed("SL/12", DURABLE, SubName="D12")
    store_mq.managed("SL/12", SubName="N12")
    store_mq.pub("SL/12", b"p", Persistence=C.MQPER_PERSISTENT)
    store_mq.flush()
    mq = recover()
    assert status_names(mq) == ["D12"]
    _, q, _ = mq.sub(options=RESUME | DURABLE, name="D12")
    assert bodies(mq, q) == [b"p"]


def test_managed_handle_refuses_puts(mq: Any) -> None:  # A:TV-SL-13
    _, q = mq.managed("SL/13")
    with mq.raises(C.MQRC_NOT_OPEN_FOR_OUTPUT):
        mq.put(q, b"x")


def test_administrator_cannot_delete_a_managed_queue(mq: Any) -> None:  # A:TV-SL-14
    _, q = mq.managed("SL/14")
    with mq.raises(C.MQRC_OBJECT_IN_USE):
        mq.qm.delete("QLOCAL", q.name, purge=True)


def test_managed_queue_names_are_distinct_with_a_hex_suffix(mq: Any) -> None:  # A:TV-SL-15, C:SC-SUB-03
    _, q1 = mq.managed("SL/15")
    _, q2 = mq.managed("SL/15")
    _, q3 = mq.managed("SL/15", DURABLE, SubName="D15")
    assert q1.name != q2.name
    assert re.fullmatch(r"SYSTEM\.MANAGED\.NDURABLE\.[0-9A-F]{16}", q1.name)
    assert re.fullmatch(r"SYSTEM\.MANAGED\.DURABLE\.[0-9A-F]{16}", q3.name)
    [name] = mq.inq(q1, C.MQCA_Q_NAME)
    assert str(name).strip() == q1.name


def test_subscription_expires(mq: Any, clock: Any) -> None:  # A:TV-SL-16
    _, q = mq.managed("SL/16", SubName="E16", SubExpiry=20)
    mq.pub("SL/16", b"before")
    clock.advance(2.5)
    mq.qm.pubsub_tick(clock.now)
    assert status_names(mq) == []
    mq.pub("SL/16", b"after")
    assert bodies(mq, q) == [b"before"]  # queued before expiry: still gettable (C:SC-LC-01)


def test_overlapping_subscriptions_on_one_queue_get_a_copy_each(mq: Any) -> None:  # A:TV-SL-17
    mq.define("SPORTQ")
    q = mq.open("SPORTQ", INPUT)
    mq.sub("Sport", CREATE, queue=q)
    mq.sub("Sport/#", CREATE, queue=q)
    mq.pub("Sport", b"x")
    assert bodies(mq, q) == [b"x", b"x"]


def test_selection_string_filters_on_properties(mq: Any) -> None:  # A:TV-SL-18
    _, q = mq.managed("Stock/IBM", SelectionString="Price > 100")
    mq.pub("Stock/IBM", b"50", props={"Price": 50})
    mq.pub("Stock/IBM", b"150", props={"Price": 150})
    mq.pub("Stock/IBM", b"none")
    assert bodies(mq, q) == [b"150"]


def test_bad_selector_fails_mqsub(mq: Any) -> None:
    with mq.raises(C.MQRC_SELECTOR_SYNTAX_ERROR):
        mq.managed("Stock/IBM", SelectionString="Price >")
    assert status_names(mq) == []


# -- the CREATE / RESUME / ALTER table (spec C §3.5, FX-CRA) -------------------------------------
@pytest.fixture
def cra(mq: Any) -> Any:
    mq.define("A")
    mq.define("B")
    mq.qa = mq.open("A", INPUT)
    mq.qb = mq.open("B", INPUT)
    return mq


def state_s1(mq: Any) -> None:
    hsub, _, _ = mq.sub("CRA/T", CREATE | DURABLE, name="X", queue=mq.qa)
    mq.close(hsub, C.MQCO_KEEP_SUB)


def dests(mq: Any) -> list[str]:
    return sorted(s.dest for s in mq.qm.subs_by_name.get("X", []))


S1_ROWS = [
    # (row, hobj, option, reason or 0, destinations afterwards)
    ("CRA-01", "A", CREATE, C.MQRC_SUB_ALREADY_EXISTS, ["A"]),
    ("CRA-02", "A", RESUME, 0, ["A"]),
    ("CRA-03", "A", ALTER, 0, ["A"]),
    ("CRA-04", "B", CREATE, 0, ["A", "B"]),
    ("CRA-05", "B", RESUME, C.MQRC_HOBJ_ERROR, ["A"]),
    ("CRA-06", "B", ALTER, 0, ["B"]),
    ("CRA-07", None, CREATE, C.MQRC_HOBJ_ERROR, ["A"]),
    ("CRA-08", None, RESUME, 0, ["A"]),
    ("CRA-09", None, ALTER, 0, ["A"]),
]
S2_ROWS = [
    ("CRA-10", "A", CREATE, 0, ["A"]),
    ("CRA-11", "A", RESUME, C.MQRC_NO_SUBSCRIPTION, []),
    ("CRA-12", "A", ALTER, C.MQRC_NO_SUBSCRIPTION, []),
    ("CRA-13", "B", CREATE, 0, ["B"]),
    ("CRA-14", "B", RESUME, C.MQRC_NO_SUBSCRIPTION, []),
    ("CRA-15", "B", ALTER, C.MQRC_NO_SUBSCRIPTION, []),
    ("CRA-16", None, CREATE, C.MQRC_HOBJ_ERROR, []),
    ("CRA-17", None, RESUME, C.MQRC_NO_SUBSCRIPTION, []),
    ("CRA-18", None, ALTER, C.MQRC_HOBJ_ERROR, []),
]


def run_row(mq: Any, hobj: str | None, option: int) -> tuple[int, Any]:
    queue = {"A": mq.qa, "B": mq.qb, None: None}[hobj]
    try:
        return 0, mq.sub("CRA/T", option | DURABLE, name="X", queue=queue)
    except MQError as error:
        return error.reason, None


@pytest.mark.parametrize(("row", "hobj", "option", "reason", "after"), S1_ROWS, ids=[r[0] for r in S1_ROWS])
def test_cra_table_state_s1(cra: Any, row: str, hobj: str | None, option: int, reason: int,
                            after: list[str]) -> None:  # C:CRA-01..09
    state_s1(cra)
    got, result = run_row(cra, hobj, option)
    assert got == reason
    assert dests(cra) == after
    if row in ("CRA-08", "CRA-09"):
        assert result[1] is not None and result[1].name == "A"  # an Hobj for queue A
    cra.pub("CRA/T", b"P")
    assert {name: cra.depth(name) for name in ("A", "B")} == {n: (1 if n in after else 0) for n in ("A", "B")}


@pytest.mark.parametrize(("row", "hobj", "option", "reason", "after"), S2_ROWS, ids=[r[0] for r in S2_ROWS])
def test_cra_table_state_s2(cra: Any, row: str, hobj: str | None, option: int, reason: int,
                            after: list[str]) -> None:  # C:CRA-10..18
    got, _ = run_row(cra, hobj, option)
    assert got == reason
    assert dests(cra) == after
    if not after:  # nothing subscribed: MQPMO_WARN_IF_NO_SUBS_MATCHED warns
        cra.pub("CRA/T", b"P", C.MQPMO_WARN_IF_NO_SUBS_MATCHED)
        assert cra.conn.warning == C.MQRC_NO_SUBS_MATCHED


def test_cra_19_queue_holds_another_name(cra: Any) -> None:  # C:CRA-19
    hsub, _, _ = cra.sub("CRA/T", CREATE | DURABLE, name="Y", queue=cra.qa)
    cra.close(hsub, C.MQCO_KEEP_SUB)
    for option in (RESUME, ALTER):
        with cra.raises(C.MQRC_NO_SUBSCRIPTION):
            cra.sub("CRA/T", option | DURABLE, name="X", queue=cra.qa)
    assert list(cra.qm.subs_by_name) == ["Y"]


def test_cra_20_to_22_resume_ignores_the_topic_alter_refuses_it(cra: Any) -> None:  # C:CRA-20..22, SC-SUB-07
    state_s1(cra)
    hsub, _, out = cra.sub("NASDAD/IBM/PRICE", RESUME | DURABLE, name="X", queue=cra.qa)
    assert out["ResObjectString"] == "CRA/T"
    cra.close(hsub, C.MQCO_KEEP_SUB)
    with cra.raises(C.MQRC_TOPIC_NOT_ALTERABLE):
        cra.sub("NASDAC/IBM/PRICE", ALTER | DURABLE, name="X", queue=cra.qa)
    with cra.raises(C.MQRC_SUB_ALREADY_EXISTS):
        cra.sub("NASDAC/IBM/PRICE", CREATE | DURABLE, name="X", queue=cra.qa)
    cra.pub("NASDAC/IBM/PRICE")
    assert cra.depth("A") == 0
    cra.pub("CRA/T")
    assert cra.depth("A") == 1


def test_cra_23_24_create_or_resume(cra: Any) -> None:  # C:CRA-23, C:CRA-24
    hsub, _, _ = cra.sub("CRA/T", CREATE | RESUME | DURABLE, name="X", queue=cra.qa)
    cra.close(hsub, C.MQCO_KEEP_SUB)
    hsub, _, _ = cra.sub("CRA/T", CREATE | RESUME | DURABLE, name="X", queue=cra.qa)
    assert dests(cra) == ["A"]


def test_cra_25_no_create_resume_or_alter(cra: Any) -> None:  # C:CRA-25
    with cra.raises(C.MQRC_OPTIONS_ERROR):
        cra.sub("CRA/T", DURABLE, name="X", queue=cra.qa)


def test_cra_26_27_non_durable_managed_and_subname(cra: Any) -> None:  # C:CRA-26, C:CRA-27, SC-SUB-05
    with cra.raises(C.MQRC_SUB_NAME_ERROR):
        cra.sub("CRA/T", CREATE | RESUME | MANAGED)
    _, q, _ = cra.sub("CRA/T", CREATE | RESUME | MANAGED, name="")
    assert q is not None
    with cra.raises(C.MQRC_SUB_NAME_ERROR):
        cra.sub("CRA/T", ALTER)


def test_subscription_in_use_by_another_connection(cra: Any) -> None:  # C:SC-CRA-28
    state_s1(cra)
    cra.sub("CRA/T", RESUME | DURABLE, name="X", queue=cra.qa)
    other = cra.connect("alice")
    qa2 = cra.open("A", INPUT, conn=other)
    with cra.raises(C.MQRC_SUBSCRIPTION_IN_USE):
        cra.sub("CRA/T", RESUME | DURABLE, name="X", queue=qa2, conn=other)


def test_ambiguous_name_needs_the_queue_handle(cra: Any) -> None:  # C:SC-CRA-29
    state_s1(cra)
    hsub, _, _ = cra.sub("CRA/T", CREATE | DURABLE, name="X", queue=cra.qb)
    cra.close(hsub, C.MQCO_KEEP_SUB)
    with cra.raises(C.MQRC_HOBJ_ERROR):
        cra.sub("CRA/T", RESUME | DURABLE, name="X")
    _, _, out = cra.sub("CRA/T", RESUME | DURABLE, name="X", queue=cra.qb)
    assert out["SubName"] == "X"


def test_resume_returns_stored_values(cra: Any) -> None:  # C:SC-CRA-30
    hsub, _, _ = cra.sub("CRA/T", CREATE | DURABLE, name="X", queue=cra.qa, SubUserData="u1")
    cra.close(hsub, C.MQCO_KEEP_SUB)
    cra.sub("CRA/T", RESUME | DURABLE, name="X", queue=cra.qa, SubUserData="u2")
    cra.pub("CRA/T")
    [copy] = cra.got(cra.qa)
    assert copy.message.properties["MQSubUserData"] == "u1"


def test_implicit_open_on_resume_is_not_open_for_inquire(cra: Any) -> None:  # C:SC-SUB-07 step 3
    state_s1(cra)
    _, q, _ = cra.sub(options=RESUME | DURABLE, name="X")
    assert q is not None and q.name == "A"
    with cra.raises(C.MQRC_NOT_OPEN_FOR_INQUIRE):
        cra.inq(q, C.MQCA_Q_NAME)


def test_managed_handle_restrictions(mq: Any) -> None:  # C:SC-SUB-06
    _, q = mq.managed("NYSE/IBM/PRICE")
    with mq.raises(C.MQRC_HOBJ_ERROR):
        mq.sub("NYSE/IBM/PRICE", CREATE, queue=q)
    other = mq.connect()
    with mq.raises(C.MQRC_OBJECT_IN_USE):
        mq.open(q.name, C.MQOO_INPUT_AS_Q_DEF, conn=other)
    mq.define("PLAIN")
    plain = mq.open("PLAIN", INPUT)
    with mq.raises(C.MQRC_HOBJ_ERROR):
        mq.sub("NYSE/IBM/PRICE", CREATE | MANAGED, queue=plain)
    with mq.raises(C.MQRC_OPTION_NOT_VALID_FOR_TYPE):
        mq.close(q, C.MQCO_DELETE_PURGE)


# -- lifecycles (SC-LC) -------------------------------------------------------------------------
def test_managed_durable_lifecycle(mq: Any) -> None:  # C:SC-LC-02
    assert mq.qm.tree.find("LC/T2") is None
    hsub, q = mq.managed("LC/T2", DURABLE, SubName="LC2")
    assert mq.qm.tree.find("LC/T2") is not None
    mq.pub("LC/T2", b"P1", Persistence=1)
    assert bodies(mq, q) == [b"P1"]
    mq.close(hsub)  # implicit KEEP_SUB
    mq.close(q)
    assert "LC2" in status_names(mq)
    mq.pub("LC/T2", b"P2", Persistence=1)
    hsub, q, _ = mq.sub(options=RESUME | DURABLE, name="LC2")
    assert q is not None
    mq.pub("LC/T2", b"P3", Persistence=1)
    mq.close(hsub, C.MQCO_REMOVE_SUB)
    mq.pub("LC/T2", b"P4", Persistence=1)
    assert mq.get(q).body == b"P2"
    name = q.name
    mq.close(q)
    assert name not in mq.qm.queues
    assert status_names(mq) == []


def test_unmanaged_durable_with_administrator(mq: Any) -> None:  # C:SC-LC-03
    mq.pub("Fleet/Truck1/Pos", b"P1", C.MQPMO_RETAIN, Persistence=1)
    mq.qm.define("TOPIC", "FLEET", {"TOPICSTR": "Fleet"})
    mq.define("FLEETQ")
    mq.qm.define("SUB", "FLEETSUB", {"TOPICOBJ": "FLEET", "TOPICSTR": "+/Pos", "DEST": "FLEETQ"})
    assert mq.depth("FLEETQ") == 1
    mq.pub("Fleet/Truck1/Pos", b"P2", Persistence=1)
    q = mq.open("FLEETQ", INPUT)
    hsub, _, _ = mq.sub(options=RESUME | DURABLE, name="FLEETSUB", queue=q)
    first, second = mq.get(q), mq.get(q)
    assert (first.body, second.body) == (b"P1", b"P2")
    assert first.message.properties["MQIsRetained"] is True
    mq.pub("Fleet/Truck1/Pos", b"P3", Persistence=1)
    mq.close(hsub, C.MQCO_REMOVE_SUB)
    mq.close(q)
    assert mq.depth("FLEETQ") == 1
    mq.pub("Fleet/Truck1/Pos", b"P4", Persistence=1)
    assert mq.depth("FLEETQ") == 1
    assert status_names(mq) == []
    mq.qm.delete("QLOCAL", "FLEETQ", purge=True)


def test_durability_and_persistence_are_independent(store_mq: Any, recover: Any) -> None:  # C:SC-LC-05
    store_mq.define("LCDQ")
    q = store_mq.open("LCDQ", INPUT)
    store_mq.sub("LC/D", CREATE | DURABLE, name="LCD", queue=q)
    store_mq.pub("LC/D", b"N1", Persistence=0)
    store_mq.pub("LC/D", b"P1", Persistence=1)
    store_mq.flush()
    mq = recover()
    assert bodies(mq, mq.open("LCDQ", INPUT)) == [b"P1"]
    assert status_names(mq) == ["LCD"]


def test_managed_non_durable_lifecycle(mq: Any, clock: Any) -> None:  # C:SC-LC-01
    mq.pub("LC/T1", b"P1", C.MQPMO_RETAIN)
    mq.pub("LC/T1", b"P2", C.MQPMO_RETAIN)
    conn = mq.connect()
    hsub, q = mq.managed("LC/T1", conn=conn, SubExpiry=20)
    assert mq.qm.queues[q.name].dynamic == "TEMPDYN"
    first = mq.get(q, conn=conn)
    assert first.body == b"P2" and first.message.properties["MQIsRetained"] is True
    mq.pub("LC/T1", b"P3")
    mq.pub("LC/T1", b"P3b")
    assert mq.get(q, conn=conn).body == b"P3"
    clock.advance(2.5)
    mq.qm.pubsub_tick(clock.now)
    mq.pub("LC/T1", b"P4")
    assert [r.body for r in mq.got(q, conn=conn)] == [b"P3b"]
    mq.close(hsub, conn=conn)  # the subscription expired: closing it still succeeds
    mq.qm.disconnect(conn, commit=False)
    assert q.name not in mq.qm.queues
    assert status_names(mq) == []


def test_shared_consumers_of_one_subscription_queue(mq: Any) -> None:  # C:SC-SUB-02
    mq.define("STOCKTICKER")
    mq.qm.define("SUB", "TICKS", {"TOPICSTR": "NYSE/IBM/PRICE", "DEST": "STOCKTICKER"})
    a, b = mq.connect("a"), mq.connect("b")
    qa = mq.open("STOCKTICKER", C.MQOO_INPUT_SHARED, conn=a)
    qb = mq.open("STOCKTICKER", C.MQOO_INPUT_SHARED, conn=b)
    for i in range(10):
        mq.pub("NYSE/IBM/PRICE", str(i).encode())
    got_a, got_b = [], []
    for i in range(10):
        (got_a if i % 2 else got_b).append(mq.get(qa if i % 2 else qb, conn=a if i % 2 else b).body)
    assert sorted(got_a + got_b, key=int) == [str(i).encode() for i in range(10)]
    assert got_a == sorted(got_a, key=int) and got_b == sorted(got_b, key=int)
