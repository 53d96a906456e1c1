"""core/network/pubsub/hierarchy.py: the parent/child relationship state machine of a publish/subscribe
hierarchy (register, acknowledge, deregister, statuses, retries, display rows, persistence)."""

from __future__ import annotations

import json

import pytest

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.network.pubsub.hierarchy import ACTIVE, ERROR, STARTING, Action, Forget, Hierarchy, Resync, Send
from mqlite.core.network.pubsub.protocol import Deregister, Register, Registered
from mqlite.core.network.pubsub.proxy_rules import CHILD, PARENT


def relation_rows(h: Hierarchy) -> list[tuple[str, str, str]]:
    return [(row["QMNAME"], row["TYPE"], row["STATUS"]) for row in h.rows()]


def deliver(actions: list[Action], to: Hierarchy) -> list[Action]:
    """What ``to`` does with the messages ``actions`` send it (a channel that works)."""
    answers: list[Action] = []
    for action in actions:
        if isinstance(action, Send) and action.target == to.name:
            answers += to.received(action.message)
    return answers


def connected() -> tuple[Hierarchy, Hierarchy]:
    """F-H2: QM2 ALTER QMGR PARENT(QM1), run to idle."""
    qm1, qm2 = Hierarchy("QM1", "QMID.1"), Hierarchy("QM2", "QMID.2")
    deliver(deliver(qm2.set_parent("QM1"), qm1), qm2)
    return qm1, qm2


def test_set_parent_records_it_starting_and_sends_register() -> None:
    """B:R-HIE-6 step 1, B:A-27, B:SC-54: the relation is STARTING and no neighbour yet."""
    qm2 = Hierarchy("QM2", "QMID.2")
    assert qm2.set_parent("QM1") == [Send("QM1", Register("QM2", "QMID.2"))]
    assert relation_rows(qm2) == [("QM1", "PARENT", STARTING)]
    assert qm2.neighbours() == {}


def test_parent_records_the_child_active_answers_and_resyncs() -> None:
    """B:R-HIE-6 steps 2-3, B:R-PXY-12, B:SC-52."""
    qm1 = Hierarchy("QM1", "QMID.1")
    assert qm1.received(Register("QM2", "QMID.2")) == [Send("QM2", Registered("QM1", "QMID.1")), Resync("QM2")]
    assert relation_rows(qm1) == [("QM2", "CHILD", ACTIVE)]
    assert qm1.neighbours() == {"QM2": (CHILD, "")}


def test_child_goes_active_on_the_answer_and_resyncs() -> None:
    """B:R-HIE-6 steps 2-3, B:R-PXY-12, B:SC-52."""
    qm2 = Hierarchy("QM2", "QMID.2")
    qm2.set_parent("QM1")
    assert qm2.received(Registered("QM1", "QMID.1")) == [Resync("QM1")]
    assert relation_rows(qm2) == [("QM1", "PARENT", ACTIVE)]
    assert qm2.neighbours() == {"QM1": (PARENT, "")}
    assert qm2.parent is not None and qm2.parent.qmid == "QMID.1"


def test_register_and_acknowledge_flow_connects_both_sides() -> None:
    """B:R-HIE-4, B:R-HIE-6, B:SC-52: QM2 shows QM1 as PARENT, QM1 shows QM2 as CHILD, both ACTIVE."""
    qm1, qm2 = connected()
    assert relation_rows(qm2) == [("QM1", "PARENT", ACTIVE)]
    assert relation_rows(qm1) == [("QM2", "CHILD", ACTIVE)]


def test_disconnect_forgets_the_parent_at_once_and_the_parent_when_deregister_arrives() -> None:
    """B:R-HIE-5, B:R-HIE-6 step 4, B:SC-53, B:SC-55."""
    qm1, qm2 = connected()
    actions = qm2.set_parent("")
    assert actions == [Forget("QM1"), Send("QM1", Deregister("QM2"))]
    assert qm2.rows() == [] and qm2.neighbours() == {}
    assert relation_rows(qm1) == [("QM2", "CHILD", ACTIVE)]  # SC-55: until the message arrives
    assert deliver(actions, qm1) == [Forget("QM2")]
    assert qm1.rows() == [] and qm1.neighbours() == {}


def test_deregister_of_an_unknown_child_does_nothing() -> None:
    """B:R-HIE-6 step 4, B:A-27."""
    qm1 = Hierarchy("QM1", "QMID.1")
    assert qm1.received(Deregister("QM9")) == []


def test_changing_the_parent_deregisters_from_the_old_then_registers_with_the_new() -> None:
    """B:R-HIE-6 step 5, B:R-HIE-1 (at most one parent)."""
    _, qm2 = connected()
    assert qm2.set_parent("QM3") == [Forget("QM1"), Send("QM1", Deregister("QM2")),
                                     Send("QM3", Register("QM2", "QMID.2"))]
    assert relation_rows(qm2) == [("QM3", "PARENT", STARTING)]


def test_setting_the_same_parent_again_changes_nothing() -> None:
    """B:R-HIE-6 step 1, B:A-27: PARENT(QM1) twice (blanks ignored) sends nothing new."""
    _, qm2 = connected()
    assert qm2.set_parent(" QM1 ") == []
    assert relation_rows(qm2) == [("QM1", "PARENT", ACTIVE)]


@pytest.mark.parametrize("current", ["", "QM1"])
def test_own_name_as_parent_is_refused_and_nothing_changes(current: str) -> None:
    """B:R-HIE-6 step 7, B:SC-58, B:A-27: MQRCCF_Q_MGR_NAME_ERROR (3074), the attribute unchanged."""
    qm2 = Hierarchy("QM2", "QMID.2")
    if current:
        qm2.set_parent(current)
    before = qm2.records()
    with pytest.raises(MQError) as refused:
        qm2.set_parent("QM2")
    assert refused.value.reason == C.MQRCCF_Q_MGR_NAME_ERROR == 3074
    assert qm2.records() == before


def test_other_cycles_are_allowed() -> None:
    """B:R-HIE-6 step 7, B:A-66, B:SC-63: a child may be made this queue manager's parent."""
    qm1, _ = connected()
    assert qm1.set_parent("QM2") == [Send("QM2", Register("QM1", "QMID.1"))]


def test_answers_for_a_relation_given_up_are_ignored() -> None:
    """B:R-HIE-6 steps 4-5, B:A-27: a late Registered from a former or unknown parent is dropped."""
    qm2 = Hierarchy("QM2", "QMID.2")
    qm2.set_parent("QM1")
    qm2.set_parent("")
    assert qm2.received(Registered("QM1", "QMID.1")) == []
    assert qm2.rows() == []
    qm2.set_parent("QM1")
    qm2.set_parent("QM3")
    assert qm2.received(Registered("QM1", "QMID.1")) == []
    assert relation_rows(qm2) == [("QM3", "PARENT", STARTING)]


def test_register_from_itself_is_ignored() -> None:
    """B:R-HIE-6 step 7, B:A-27."""
    qm1 = Hierarchy("QM1", "QMID.1")
    assert qm1.received(Register("QM1", "QMID.1")) == []
    assert qm1.rows() == []


def test_a_recreated_child_has_its_old_proxies_forgotten() -> None:
    """B:R-HIE-6 step 2, B:R-PXY-12, B:A-27: the same child registering again is answered and
    resynced; a child with a new QMID (recreated) is forgotten first."""
    qm1, _ = connected()
    assert qm1.received(Register("QM2", "QMID.2")) == [Send("QM2", Registered("QM1", "QMID.1")), Resync("QM2")]
    assert qm1.received(Register("QM2", "QMID.2B")) == [
        Forget("QM2"), Send("QM2", Registered("QM1", "QMID.1")), Resync("QM2")]


def test_register_that_cannot_be_sent_is_error_and_retried() -> None:
    """B:R-HIE-6 step 6, B:R-ERR-4 item 4, B:R-DSP-1: STATUS(ERROR), then STARTING and sent again."""
    qm2 = Hierarchy("QM2", "QMID.2")
    qm2.set_parent("QM1")
    qm2.send_failed("QM1")
    assert relation_rows(qm2) == [("QM1", "PARENT", ERROR)]
    assert qm2.retry() == [Send("QM1", Register("QM2", "QMID.2"))]
    assert relation_rows(qm2) == [("QM1", "PARENT", STARTING)]
    assert qm2.retry() == []


def test_registered_that_cannot_be_sent_leaves_the_child_in_error_until_retried() -> None:
    """B:R-HIE-6 step 6, B:R-ERR-4 item 4: a child in ERROR is no neighbour; the retry answers again."""
    qm1 = Hierarchy("QM1", "QMID.1")
    qm1.received(Register("QM2", "QMID.2"))
    qm1.send_failed("QM2")
    assert relation_rows(qm1) == [("QM2", "CHILD", ERROR)]
    assert qm1.neighbours() == {}
    assert Send("QM2", Registered("QM1", "QMID.1")) in qm1.retry()
    assert relation_rows(qm1) == [("QM2", "CHILD", ACTIVE)]


def test_a_child_made_active_by_a_retry_is_resynchronised() -> None:
    """B:R-HIE-6 step 3, B:R-PXY-12: on ACTIVE both sides resync; the parent's proxies must reach
    the child also when the relation became ACTIVE through a retry."""
    qm1 = Hierarchy("QM1", "QMID.1")
    qm1.received(Register("QM2", "QMID.2"))
    qm1.send_failed("QM2")
    assert Resync("QM2") in qm1.retry()


def test_send_failed_for_no_relation_changes_nothing() -> None:
    """B:R-HIE-6 step 6: only Register / Registered failures mark a relation."""
    qm1, qm2 = connected()
    qm2.send_failed("QM9")
    qm1.send_failed("QM9")
    assert relation_rows(qm2) == [("QM1", "PARENT", ACTIVE)]
    assert relation_rows(qm1) == [("QM2", "CHILD", ACTIVE)]


def test_ending_the_parent_relation_keeps_a_peer_that_is_also_a_child() -> None:
    """B:R-HIE-6 steps 4 and 7, B:A-66 (cycles allowed): QM1 and QM2 each the other's parent; when
    QM1 drops PARENT(QM2), QM2 is still its child, so its proxies must not be forgotten."""
    qm1, _ = connected()
    qm1.set_parent("QM2")
    qm1.received(Registered("QM2", "QMID.2"))
    actions = qm1.set_parent("")
    assert qm1.neighbours() == {"QM2": (CHILD, "")}
    assert Forget("QM2") not in actions


def test_rows_show_the_parent_first_then_the_children_by_name() -> None:
    """B:R-DSP-1, B:A-46, B:R-HIE-4."""
    qm1 = Hierarchy("QM1", "QMID.1")
    for child in ("QM5", "QM3", "QM4"):
        qm1.received(Register(child, f"QMID.{child}"))
    qm1.send_failed("QM4")
    qm1.set_parent("QM0")
    assert relation_rows(qm1) == [("QM0", "PARENT", STARTING), ("QM3", "CHILD", ACTIVE),
                                  ("QM4", "CHILD", ERROR), ("QM5", "CHILD", ACTIVE)]


def test_records_round_trip_through_json() -> None:
    """B:R-HIE-6 (state kept in SYSTEM.HIERARCHY.STATE), B:R-PXY-10 (survives a restart)."""
    qm1 = Hierarchy("QM1", "QMID.1")
    qm1.received(Register("QM3", "QMID.3"))
    qm1.received(Register("QM2", "QMID.2"))
    qm1.send_failed("QM3")
    qm1.set_parent("QM0")
    qm1.received(Registered("QM0", "QMID.0"))
    again = Hierarchy("QM1", "QMID.1")
    again.restore(json.loads(json.dumps(qm1.records())))
    assert again.records() == qm1.records()
    assert again.rows() == qm1.rows()
    assert again.neighbours() == {"QM0": (PARENT, ""), "QM2": (CHILD, "")}
    assert again.parent is not None and again.parent.qmid == "QMID.0"
    empty = Hierarchy("QM1", "QMID.1")
    empty.restore(json.loads(json.dumps(Hierarchy("QM1", "QMID.1").records())))
    assert empty.rows() == [] and empty.parent is None
