"""MQOPEN authority on queues and the queue manager in core (IBM's "Authorizations for MQI
calls"): each MQOO_* option asks for its authority on the first definition the name resolves
through (alias, model, remote definition; the transmission queue for a queue named by its queue
manager), never on the base queue (spec C R-SEC-20); refusals are Not Authorized (type 2) events."""

from __future__ import annotations

import pytest

from helpers.core_security import Security
from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.qmgr import QueueManager
from mqlite.core.security.names import VALID

OPTIONS = [  # option, the authority it needs (setmqaut name)
    (C.MQOO_INPUT_AS_Q_DEF, "get"), (C.MQOO_INPUT_SHARED, "get"), (C.MQOO_INPUT_EXCLUSIVE, "get"),
    (C.MQOO_BROWSE, "browse"), (C.MQOO_OUTPUT, "put"), (C.MQOO_INQUIRE, "inq"), (C.MQOO_SET, "set"),
    (C.MQOO_OUTPUT | C.MQOO_PASS_IDENTITY_CONTEXT, "passid"), (C.MQOO_OUTPUT | C.MQOO_PASS_ALL_CONTEXT, "passall"),
    (C.MQOO_OUTPUT | C.MQOO_SET_IDENTITY_CONTEXT, "setid"), (C.MQOO_OUTPUT | C.MQOO_SET_ALL_CONTEXT, "setall"),
]


def opened(qm: QueueManager, conn: object, name: str, options: int, **od: object) -> int:
    """MQOPEN's reason (0: opened, and closed again)."""
    try:
        handle = qm.open(conn, {"ObjectName": name, **od}, options)  # type: ignore[arg-type]
    except MQError as error:
        return error.reason
    qm.close(conn, handle.hobj, 0)  # type: ignore[arg-type]
    return 0


@pytest.mark.parametrize(("option", "authority"), OPTIONS, ids=[a + str(o) for o, a in OPTIONS])
def test_each_open_option_needs_exactly_its_authority(qm: QueueManager, option: int, authority: str) -> None:
    sec = Security(qm)
    qm.define("QLOCAL", "APP.Q", {})
    user = sec.connect("U")
    extra = ["+put"] if option & C.MQOO_OUTPUT and authority != "put" else []
    if extra:
        sec.setmqaut("queue", "APP.Q", "U", *extra)
    assert opened(qm, user, "APP.Q", option) == C.MQRC_NOT_AUTHORIZED
    event = sec.one_event()
    assert event[C.MQIACF_REASON_QUALIFIER] == C.MQRQ_OPEN_NOT_AUTHORIZED
    assert (event[C.MQCA_Q_NAME], event[C.MQIACF_OPEN_OPTIONS], event[C.MQCACF_USER_IDENTIFIER]) == (
        "APP.Q", option, "U")
    sec.setmqaut("queue", "APP.Q", "U", f"+{authority}")
    assert opened(qm, user, "APP.Q", option) == 0
    # ... and no other option comes with it.
    others = {o for o, a in OPTIONS if a != authority and a not in {x[1:] for x in extra}}
    assert all(opened(qm, user, "APP.Q", o) == C.MQRC_NOT_AUTHORIZED for o in others)


def test_an_alias_is_checked_not_its_base_queue(qm: QueueManager) -> None:  # C:R-SEC-20
    sec = Security(qm)
    qm.define("QLOCAL", "BASE.Q", {})
    qm.define("QALIAS", "ALIAS.Q", {"TARGET": "BASE.Q"})
    user = sec.connect("U")
    sec.setmqaut("queue", "BASE.Q", "U", "+put")
    assert opened(qm, user, "ALIAS.Q", C.MQOO_OUTPUT) == C.MQRC_NOT_AUTHORIZED
    assert sec.one_event()[C.MQCA_Q_NAME] == "ALIAS.Q"
    sec.setmqaut("queue", "BASE.Q", "U", "-put")
    sec.setmqaut("queue", "ALIAS.Q", "U", "+put")
    assert opened(qm, user, "ALIAS.Q", C.MQOO_OUTPUT) == 0
    assert opened(qm, user, "BASE.Q", C.MQOO_OUTPUT) == C.MQRC_NOT_AUTHORIZED


def test_a_model_queue_is_checked_by_its_name(qm: QueueManager) -> None:
    sec = Security(qm)
    qm.define("QMODEL", "REPLY.MODEL", {"DEFTYPE": "TEMPDYN"})
    user = sec.connect("U")
    assert opened(qm, user, "REPLY.MODEL", C.MQOO_INPUT_EXCLUSIVE) == C.MQRC_NOT_AUTHORIZED
    assert not any(name.startswith("AMQ.") for name in qm.queues)  # refused before the queue is made
    sec.setmqaut("queue", "REPLY.MODEL", "U", "+get")
    assert opened(qm, user, "REPLY.MODEL", C.MQOO_INPUT_EXCLUSIVE) == 0


def test_remote_queues_check_the_definition_or_the_transmission_queue(qm: QueueManager) -> None:
    sec = Security(qm)
    qm.define("QLOCAL", "QM2", {"USAGE": "XMITQ"})
    qm.define("QREMOTE", "REMOTE.Q", {"RNAME": "Q", "RQMNAME": "QM2"})
    user = sec.connect("U")
    sec.setmqaut("queue", "QM2", "U", "+put")
    assert opened(qm, user, "REMOTE.Q", C.MQOO_OUTPUT) == C.MQRC_NOT_AUTHORIZED  # the QREMOTE, not the xmitq
    assert sec.one_event()[C.MQCA_Q_NAME] == "REMOTE.Q"
    assert opened(qm, user, "Q", C.MQOO_OUTPUT, ObjectQMgrName="QM2") == 0  # by queue manager: the xmitq
    sec.setmqaut("queue", "QM2", "U", "-put")
    assert opened(qm, user, "Q", C.MQOO_OUTPUT, ObjectQMgrName="QM2") == C.MQRC_NOT_AUTHORIZED
    event = sec.one_event()
    assert (event[C.MQCA_Q_NAME], event[C.MQCACF_OBJECT_Q_MGR_NAME]) == ("QM2", "QM2")
    sec.setmqaut("queue", "REMOTE.Q", "U", "+put")
    assert opened(qm, user, "REMOTE.Q", C.MQOO_OUTPUT) == 0


def test_the_queue_manager_opens_for_inquire_with_inq(qm: QueueManager) -> None:
    sec = Security(qm)
    user = sec.connect("U")
    od = {"ObjectType": C.MQOT_Q_MGR}
    assert opened(qm, user, "", C.MQOO_INQUIRE, **od) == C.MQRC_NOT_AUTHORIZED
    assert sec.one_event()[C.MQCA_Q_MGR_NAME] == "QM1"
    sec.setmqaut("qmgr", "", "U", "+inq")
    assert opened(qm, user, "", C.MQOO_INQUIRE, **od) == 0


def test_mqput1_is_checked_like_mqopen(qm: QueueManager) -> None:
    from mqlite.message import MessageDescriptor

    sec = Security(qm)
    qm.define("QLOCAL", "P1.Q", {})
    user = sec.connect("U")
    put1 = lambda: qm.put1(user, {"ObjectName": "P1.Q"}, MessageDescriptor(), C.MQPMO_NO_SYNCPOINT, {}, b"x")  # noqa: E731
    with pytest.raises(MQError) as refused:
        put1()
    assert refused.value.reason == C.MQRC_NOT_AUTHORIZED and "AMQ8077W" in refused.value.text
    sec.setmqaut("queue", "P1.Q", "U", "+put")
    put1()
    assert qm.queues["P1.Q"].depth == 1


def test_a_refused_connect_is_a_type_1_event(qm: QueueManager) -> None:  # C:R-SEC-13 (Not Authorized type 1)
    from mqlite.core.security.principal import Principal

    sec = Security(qm)
    with pytest.raises(MQError) as refused:
        qm.connect(Principal("stranger"), "sneak.py")
    assert refused.value.reason == C.MQRC_NOT_AUTHORIZED
    event = sec.one_event()
    assert event[C.MQIACF_REASON_QUALIFIER] == C.MQRQ_CONN_NOT_AUTHORIZED
    assert (event[C.MQCACF_USER_IDENTIFIER], event[C.MQCACF_APPL_NAME]) == ("stranger", "sneak.py")
    assert sec.connect("stranger") is not None and sec.events() == []


def _records_for(qm: QueueManager, name: str) -> list[tuple[str, int]]:
    return [(r.entity, r.authority) for r in qm.security.records() if r.objtype == C.MQOT_Q and r.profile == name]


def test_the_creator_of_a_temporary_dynamic_queue_holds_every_authority_on_it(qm: QueueManager) -> None:
    sec = Security(qm, events=False)
    sec.setmqaut("queue", "SYSTEM.DEFAULT.MODEL.QUEUE", "U", "+get", "+inq")
    creator, other = sec.connect("U"), sec.connect("V")
    handle = qm.open(creator, {"ObjectName": "SYSTEM.DEFAULT.MODEL.QUEUE", "DynamicQName": "REPLY.*"},
                     C.MQOO_INPUT_EXCLUSIVE)
    name = handle.name
    assert name.startswith("REPLY.")
    # The OAM's grant to the creator: a second connection of the same user opens it by name,
    # for output, browse and inquire too; another user has nothing on it.
    again = sec.connect("U")
    assert opened(qm, again, name, C.MQOO_OUTPUT | C.MQOO_BROWSE | C.MQOO_INQUIRE | C.MQOO_SET) == 0
    assert opened(qm, other, name, C.MQOO_OUTPUT) == C.MQRC_NOT_AUTHORIZED
    assert _records_for(qm, name) == [("U", VALID[C.MQOT_Q])]
    stored = [key for _, ops in qm.take_effects().tx.runs for _, key, *_ in ops]
    assert not [key for key in stored if name in key]  # a temporary queue's record is not stored (nor is the queue)
    qm.close(creator, handle.hobj, 0)  # the temporary queue ends with its creating handle, and its record
    assert name not in qm.queues and _records_for(qm, name) == []


def test_a_permanent_dynamic_queue_keeps_its_creators_record_until_deleted(qm: QueueManager) -> None:
    sec = Security(qm, events=False)
    qm.define("QMODEL", "PERM.MODEL", {"DEFTYPE": "PERMDYN"})
    sec.setmqaut("queue", "PERM.MODEL", "U", "+put")
    creator = sec.connect("U")
    handle = qm.open(creator, {"ObjectName": "PERM.MODEL", "DynamicQName": "KEEP.*"}, C.MQOO_OUTPUT)
    name = handle.name
    qm.take_effects()
    qm.close(creator, handle.hobj, 0)
    assert name in qm.queues and _records_for(qm, name) == [("U", VALID[C.MQOT_Q])]
    assert opened(qm, sec.connect("U"), name, C.MQOO_INPUT_SHARED) == 0
    handle = qm.open(creator, {"ObjectName": name}, C.MQOO_INPUT_SHARED)
    qm.close(creator, handle.hobj, C.MQCO_DELETE)
    assert name not in qm.queues and _records_for(qm, name) == []


def test_an_administrator_gets_no_record_for_its_dynamic_queues(qm: QueueManager) -> None:
    sec = Security(qm, events=False)
    handle = qm.open(sec.admin, {"ObjectName": "SYSTEM.DEFAULT.MODEL.QUEUE"}, C.MQOO_INPUT_EXCLUSIVE)
    assert _records_for(qm, handle.name) == []
