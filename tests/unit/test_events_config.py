"""Configuration events (IBM: "Create object", "Change object", "Delete object"; "Configuration
events": a change is two messages, before and after, with one CorrelId): the pure rules, then the
events a core queue manager puts on SYSTEM.ADMIN.CONFIG.EVENT. No spec in ../shared/spec covers
configuration events; IBM's documentation is the reference."""

from __future__ import annotations

from typing import Any

from mqlite import cmqc as C
from mqlite.core.events import config
from mqlite.core.security.principal import Principal
from mqlite.message import Message
from mqlite.protocol import pcf


def test_which_object_types_have_configuration_events() -> None:
    assert all(config.produces(t) for t in ("QLOCAL", "QALIAS", "CHANNEL", "TOPIC", "NAMELIST", "QMGR"))
    assert not config.produces("SUB") and not config.produces("ROUTE")


def test_attributes_are_selectors_and_ibm_integers() -> None:
    params = dict(config.attribute_parameters("QLOCAL", {"QUEUE": "Q1", "TYPE": "QLOCAL", "MAXDEPTH": 7,
                                                          "DEFPSIST": "YES", "DESCR": "hello", "SHARE": True}))
    assert params[C.MQIA_MAX_Q_DEPTH] == 7 and params[C.MQIA_DEF_PERSISTENCE] == C.MQPER_PERSISTENT
    assert params[C.MQCA_Q_DESC] == "hello" and params[C.MQIA_Q_TYPE] == C.MQQT_LOCAL
    assert params[C.MQIA_SHAREABILITY] == C.MQQA_SHAREABLE
    assert C.MQCA_Q_NAME not in params  # the name is the object's identity, carried apart


def test_event_data_starts_with_origin_and_identity_in_ibm_order() -> None:
    data = config.event_data("QM1", "alice", "QLOCAL", "Q1", {"TYPE": "QLOCAL"})
    assert data[:6] == [(C.MQCACF_EVENT_USER_ID, "alice"), (C.MQIACF_EVENT_ORIGIN, C.MQEVO_CONSOLE),
                        (C.MQCACF_EVENT_Q_MGR, "QM1"), (C.MQIACF_OBJECT_TYPE, C.MQOT_Q), (C.MQCA_Q_NAME, "Q1"),
                        (C.MQIA_QSG_DISP, C.MQQSGD_Q_MGR)]
    assert config.event_data("QM1", "u", "CHANNEL", "TO.QM2", {"CHLTYPE": "SDR"})[4] == (
        C.MQCACH_CHANNEL_NAME, "TO.QM2")


def _events(mq: Any) -> list[tuple[pcf.PcfMessage, Message]]:
    queue = mq.qm.queues["SYSTEM.ADMIN.CONFIG.EVENT"]
    handle = mq.open("SYSTEM.ADMIN.CONFIG.EVENT", C.MQOO_INPUT_SHARED)
    out = []
    while queue.depth:
        result = mq.get(handle)
        out.append((pcf.decode(result.body), result.message))
    return out


def test_define_alter_delete_of_a_queue(mq: Any) -> None:
    assert _events(mq) == []  # off by default (CONFIGEV DISABLED)
    mq.qm.alter("QMGR", "", {"CONFIGEV": "ENABLED"})
    mq.define("CFG.Q", MAXDEPTH=100)
    mq.qm.alter("QLOCAL", "CFG.Q", {"MAXDEPTH": 200})
    mq.qm.delete("QLOCAL", "CFG.Q")
    events = _events(mq)
    assert [(e.header.Reason, e.header.MsgSeqNumber, e.header.Control) for e, _ in events] == [
        (C.MQRC_CONFIG_CREATE_OBJECT, 1, C.MQCFC_LAST),
        (C.MQRC_CONFIG_CHANGE_OBJECT, 1, C.MQCFC_NOT_LAST), (C.MQRC_CONFIG_CHANGE_OBJECT, 2, C.MQCFC_LAST),
        (C.MQRC_CONFIG_DELETE_OBJECT, 1, C.MQCFC_LAST)]
    assert all(e.header.Command == C.MQCMD_CONFIG_EVENT and e.get(C.MQCA_Q_NAME) == "CFG.Q" for e, _ in events)
    assert [e.get(C.MQIA_MAX_Q_DEPTH) for e, _ in events] == [100, 100, 200, 200]
    before, after = events[1][1], events[2][1]
    assert before.md.CorrelId == after.md.CorrelId != bytes(24)


def test_define_replace_of_an_existing_object_is_a_change(mq: Any) -> None:
    mq.define("CFG.R")
    mq.qm.alter("QMGR", "", {"CONFIGEV": "ENABLED"})
    mq.qm.define("QLOCAL", "CFG.R", {"DESCR": "again"}, replace=True)
    assert [e.header.Reason for e, _ in _events(mq)] == [C.MQRC_CONFIG_CHANGE_OBJECT] * 2


def test_channels_namelists_topics_and_the_qmgr(mq: Any) -> None:
    mq.qm.alter("QMGR", "", {"CONFIGEV": "ENABLED"})
    mq.qm.define("CHANNEL", "TO.QM2", {"CHLTYPE": "SDR", "CONNAME": "localhost(1)", "XMITQ": "QM2"})
    mq.qm.define("NAMELIST", "NL1", {"NAMES": ["A", "B"]})
    mq.qm.define("TOPIC", "T1", {"TOPICSTR": "a/b"})
    mq.qm.alter("QMGR", "", {"DESCR": "events"})
    events = [e for e, _ in _events(mq)]
    assert [e.get(C.MQIACF_OBJECT_TYPE) for e in events] == [
        C.MQOT_CHANNEL, C.MQOT_NAMELIST, C.MQOT_TOPIC, C.MQOT_Q_MGR, C.MQOT_Q_MGR]
    assert events[0].get(C.MQCACH_CHANNEL_NAME) == "TO.QM2"
    assert events[0].get(C.MQCACH_CONNECTION_NAME) == "localhost(1)"
    assert events[1].get(C.MQCA_NAMES) == ["A", "B"]
    assert events[2].get(C.MQCA_TOPIC_STRING) == "a/b"
    assert events[4].get(C.MQCA_Q_MGR_DESC) == "events" and events[3].get(C.MQCA_Q_MGR_DESC) != "events"


def test_the_event_names_the_user_the_checked_admin_runs_as(mq: Any) -> None:
    mq.qm.alter("QMGR", "", {"CONFIGEV": "ENABLED"})
    admin = mq.qm.admin_for(Principal("mqm", frozenset({"mqm"})))
    admin.define("QLOCAL", "CFG.U", {})
    ((event, _),) = _events(mq)
    assert event.get(C.MQCACF_EVENT_USER_ID) == "mqm"


def test_the_origin_is_how_the_command_came_and_the_queue_managers_own_after(mq: Any) -> None:
    """IBM's EventOrigin: MQEVO_CONSOLE for MQSC, MQEVO_MSG for a PCF command message, and
    MQEVO_INTERNAL (the queue manager's user) for a change no caller made."""
    mq.qm.alter("QMGR", "", {"CONFIGEV": "ENABLED"})
    _events(mq)
    mq.qm.admin_for(Principal("mqm", frozenset({"mqm"}))).define("QLOCAL", "CFG.MQSC", {})
    mq.qm.admin_for(Principal("bob", frozenset({"mqm"})), origin=C.MQEVO_MSG).define("QLOCAL", "CFG.PCF", {})
    mq.qm.define("QLOCAL", "CFG.OWN", {})  # the queue manager's own (no checked admin)
    events = [e for e, _ in _events(mq)]
    assert [(e.get(C.MQCA_Q_NAME), e.get(C.MQIACF_EVENT_ORIGIN), e.get(C.MQCACF_EVENT_USER_ID)) for e in events] == [
        ("CFG.MQSC", C.MQEVO_CONSOLE, "mqm"), ("CFG.PCF", C.MQEVO_MSG, "bob"), ("CFG.OWN", C.MQEVO_INTERNAL, "mqm")]


def test_mqset_is_a_change_by_the_caller_with_origin_mqset(mq: Any) -> None:
    mq.define("CFG.S")
    mq.qm.alter("QMGR", "", {"CONFIGEV": "ENABLED"})
    handle = mq.open("CFG.S", C.MQOO_SET)
    mq.qm.set(mq.conn, handle.hobj, {C.MQIA_INHIBIT_PUT: C.MQQA_PUT_INHIBITED})
    before, after = (e for e, _ in _events(mq))
    assert after.get(C.MQIACF_EVENT_ORIGIN) == C.MQEVO_MQSET and after.get(C.MQCACF_EVENT_USER_ID) == "alice"
    assert (before.get(C.MQIA_INHIBIT_PUT), after.get(C.MQIA_INHIBIT_PUT)) == (
        C.MQQA_PUT_ALLOWED, C.MQQA_PUT_INHIBITED)
    mq.qm.alter("QLOCAL", "CFG.S", {"DESCR": "own"})  # after the MQSET: not reported as alice's MQSET
    assert {(e.get(C.MQIACF_EVENT_ORIGIN), e.get(C.MQCACF_EVENT_USER_ID)) for e, _ in _events(mq)} == {
        (C.MQEVO_INTERNAL, "mqm")}
