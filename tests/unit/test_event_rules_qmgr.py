"""Queue manager events beyond authority events (IBM's event reference: "Queue Manager Active",
"Queue Manager Not Active", "Get Inhibited", "Put Inhibited", "Unknown Object Name", "Unknown
Alias Base Queue", "Alias Base Queue Type Error", the remote events): each one's data in IBM's
order, the reason a default transmission queue turns into, and a core queue manager's events
where an MQOPEN, MQPUT or MQGET fails. No spec in ../shared/spec covers these events; IBM's
documentation is the reference."""

from __future__ import annotations

from typing import Any

import pytest

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.events import qmgr_events as Q
from mqlite.protocol import pcf

UNIX = C.MQAT_UNIX


def _ids(params: list[tuple[int, pcf.Value]]) -> list[int]:
    return [p for p, _ in params]


def test_start_and_stop_data() -> None:
    assert Q.started("QM1") == [(C.MQCA_Q_MGR_NAME, "QM1")]
    assert Q.not_active("QM1", C.MQRQ_Q_MGR_QUIESCING) == [
        (C.MQCA_Q_MGR_NAME, "QM1"), (C.MQIACF_REASON_QUALIFIER, C.MQRQ_Q_MGR_QUIESCING)]


def test_inhibit_data_put_names_the_object_queue_manager() -> None:
    assert _ids(Q.inhibited("QM1", C.MQRC_GET_INHIBITED, "Q1", UNIX, "app")) == [
        C.MQCA_Q_MGR_NAME, C.MQCA_Q_NAME, C.MQIA_APPL_TYPE, C.MQCACF_APPL_NAME]
    put = Q.inhibited("QM1", C.MQRC_PUT_INHIBITED, "Q1", UNIX, "app", conn_name="10.0.0.1", channel="APP.SVRCONN")
    assert _ids(put) == [C.MQCA_Q_MGR_NAME, C.MQCA_Q_NAME, C.MQIA_APPL_TYPE, C.MQCACF_APPL_NAME,
                         C.MQCACF_OBJECT_Q_MGR_NAME, C.MQCACH_CONNECTION_NAME, C.MQCACH_CHANNEL_NAME]
    assert dict(put)[C.MQCACF_OBJECT_Q_MGR_NAME] == "QM1"


def test_local_event_data() -> None:
    assert _ids(Q.local("QM1", C.MQRC_UNKNOWN_OBJECT_NAME, "NOPE", UNIX, "app")) == [
        C.MQCA_Q_MGR_NAME, C.MQIA_APPL_TYPE, C.MQCACF_APPL_NAME, C.MQCACF_OBJECT_Q_MGR_NAME, C.MQCA_Q_NAME]
    assert _ids(Q.local("QM1", C.MQRC_UNKNOWN_ALIAS_BASE_Q, "A", UNIX, "app", base="B")) == [
        C.MQCA_Q_MGR_NAME, C.MQCA_Q_NAME, C.MQCA_BASE_OBJECT_NAME, C.MQIA_APPL_TYPE, C.MQCACF_APPL_NAME,
        C.MQIACF_OBJECT_TYPE]
    typed = Q.local("QM1", C.MQRC_ALIAS_BASE_Q_TYPE_ERROR, "A", UNIX, "app", base="B", base_type="QALIAS")
    assert _ids(typed) == [C.MQCA_Q_MGR_NAME, C.MQCA_BASE_OBJECT_NAME, C.MQCA_Q_NAME, C.MQIA_Q_TYPE,
                           C.MQIA_APPL_TYPE, C.MQCACF_APPL_NAME, C.MQIACF_OBJECT_TYPE]
    assert dict(typed)[C.MQIA_Q_TYPE] == C.MQQT_ALIAS


def test_remote_event_data() -> None:
    assert _ids(Q.remote("QM1", C.MQRC_UNKNOWN_REMOTE_Q_MGR, "R", UNIX, "app", "FAR")) == [
        C.MQCA_Q_MGR_NAME, C.MQCA_Q_NAME, C.MQIA_APPL_TYPE, C.MQCACF_APPL_NAME, C.MQCACF_OBJECT_Q_MGR_NAME]
    assert _ids(Q.remote("QM1", C.MQRC_XMIT_Q_USAGE_ERROR, "R", UNIX, "app", "FAR", "XQ")) == [
        C.MQCA_Q_MGR_NAME, C.MQCA_Q_NAME, C.MQCACH_XMIT_Q_NAME, C.MQIA_APPL_TYPE, C.MQCACF_APPL_NAME,
        C.MQCACF_OBJECT_Q_MGR_NAME]
    assert _ids(Q.remote("QM1", C.MQRC_XMIT_Q_TYPE_ERROR, "R", UNIX, "app", "FAR", "XQ", "QALIAS")) == [
        C.MQCA_Q_MGR_NAME, C.MQCA_Q_NAME, C.MQCACH_XMIT_Q_NAME, C.MQIA_Q_TYPE, C.MQIA_APPL_TYPE,
        C.MQCACF_APPL_NAME, C.MQCACF_OBJECT_Q_MGR_NAME]


def test_switches() -> None:
    assert Q.switch_of(C.MQRC_PUT_INHIBITED) == "INHIBTEV" and Q.switch_of(C.MQRC_UNKNOWN_OBJECT_NAME) == "LOCALEV"
    assert Q.switch_of(C.MQRC_UNKNOWN_XMIT_Q) == "REMOTEEV" and Q.switch_of(C.MQRC_Q_MGR_ACTIVE) == "STRSTPEV"


# -- on a core queue manager -------------------------------------------------------------------
def _events(mq: Any) -> list[pcf.PcfMessage]:
    handle = mq.open("SYSTEM.ADMIN.QMGR.EVENT", C.MQOO_INPUT_SHARED)
    return [pcf.decode(body) for body in mq.bodies(handle)]


def test_no_events_while_the_switches_are_disabled(mq: Any) -> None:
    with mq.raises(C.MQRC_UNKNOWN_OBJECT_NAME):
        mq.open("NOPE")
    assert _events(mq) == []


def test_inhibited_put_and_get(mq: Any) -> None:
    mq.qm.alter("QMGR", "", {"INHIBTEV": "ENABLED"})
    mq.define("SHUT", PUT="DISABLED", GET="DISABLED")
    handle = mq.open("SHUT")
    with mq.raises(C.MQRC_PUT_INHIBITED):
        mq.put(handle, b"m")
    with mq.raises(C.MQRC_GET_INHIBITED):
        mq.get(handle)
    put, get = _events(mq)
    assert (put.header.Command, put.header.Reason) == (C.MQCMD_Q_MGR_EVENT, C.MQRC_PUT_INHIBITED)
    assert put.get(C.MQCA_Q_NAME) == "SHUT" and put.get(C.MQCACF_APPL_NAME) == "app.py"
    assert put.get(C.MQCACF_OBJECT_Q_MGR_NAME) == "QM1"
    assert get.header.Reason == C.MQRC_GET_INHIBITED and get.get(C.MQCACF_OBJECT_Q_MGR_NAME) is None


@pytest.mark.parametrize("how", ["alter", "mqset", "alias"])
def test_a_waiting_get_ended_by_an_inhibit_is_a_get_inhibited_event(mq: Any, how: str) -> None:
    """IBM: the Get Inhibited event also for an MQGET waiting when GET(DISABLED) (ALTER or
    MQSET, of the queue or of the alias it waits through) ends it with 2016."""
    mq.qm.alter("QMGR", "", {"INHIBTEV": "ENABLED"})
    mq.define("WAITED")
    mq.define("WAITED.ALIAS", "QALIAS", TARGET="WAITED")
    name = "WAITED.ALIAS" if how == "alias" else "WAITED"
    mq.wait(mq.open(name), wait_ms=60_000)
    if how == "mqset":
        setter = mq.open("WAITED", C.MQOO_SET)
        mq.qm.set(mq.conn, setter.hobj, {C.MQIA_INHIBIT_GET: C.MQQA_GET_INHIBITED})
    else:
        mq.qm.alter("QUEUE", name, {"GET": "DISABLED"})
    [(_, result)] = mq.qm.take_effects().completions
    assert isinstance(result, MQError) and result.reason == C.MQRC_GET_INHIBITED
    (event,) = _events(mq)
    assert (event.header.Reason, event.get(C.MQCA_Q_NAME)) == (C.MQRC_GET_INHIBITED, name)
    assert event.get(C.MQCACF_APPL_NAME) == "app.py"


def test_local_events_at_mqopen(mq: Any) -> None:
    mq.qm.alter("QMGR", "", {"LOCALEV": "ENABLED"})
    mq.define("TO.NOWHERE", "QALIAS", TARGET="GONE")
    mq.define("TO.ALIAS", "QALIAS", TARGET="TO.NOWHERE")
    for name, reason in (("NOPE", C.MQRC_UNKNOWN_OBJECT_NAME), ("TO.NOWHERE", C.MQRC_UNKNOWN_ALIAS_BASE_Q),
                         ("TO.ALIAS", C.MQRC_ALIAS_BASE_Q_TYPE_ERROR)):
        with mq.raises(reason):
            mq.open(name)
    unknown, base, typed = _events(mq)
    assert unknown.header.Reason == C.MQRC_UNKNOWN_OBJECT_NAME and unknown.get(C.MQCA_Q_NAME) == "NOPE"
    assert base.header.Reason == C.MQRC_UNKNOWN_ALIAS_BASE_Q and base.get(C.MQCA_BASE_OBJECT_NAME) == "GONE"
    assert typed.header.Reason == C.MQRC_ALIAS_BASE_Q_TYPE_ERROR
    assert (typed.get(C.MQCA_BASE_OBJECT_NAME), typed.get(C.MQIA_Q_TYPE)) == ("TO.NOWHERE", C.MQQT_ALIAS)


def test_remote_events_at_mqopen(mq: Any) -> None:
    mq.qm.alter("QMGR", "", {"REMOTEEV": "ENABLED"})
    mq.define("NOT.XMIT")
    mq.define("VIA.LOCAL", "QREMOTE", RNAME="R", RQMNAME="FAR", XMITQ="NOT.XMIT")
    mq.define("VIA.NONE", "QREMOTE", RNAME="R", RQMNAME="FAR", XMITQ="NO.SUCH.XMITQ")
    out = C.MQOO_OUTPUT
    for name, reason in (("VIA.LOCAL", C.MQRC_XMIT_Q_USAGE_ERROR), ("VIA.NONE", C.MQRC_UNKNOWN_XMIT_Q)):
        with mq.raises(reason):
            mq.open(name, out)
    with mq.raises(C.MQRC_UNKNOWN_REMOTE_Q_MGR):
        mq.qm.open(mq.conn, {"ObjectName": "R", "ObjectQMgrName": "FARTHER"}, out)
    usage, unknown_xmitq, unknown_qmgr = _events(mq)
    assert usage.header.Reason == C.MQRC_XMIT_Q_USAGE_ERROR and usage.get(C.MQCACH_XMIT_Q_NAME) == "NOT.XMIT"
    assert unknown_xmitq.header.Reason == C.MQRC_UNKNOWN_XMIT_Q
    assert unknown_xmitq.get(C.MQCACH_XMIT_Q_NAME) == "NO.SUCH.XMITQ"
    assert unknown_qmgr.header.Reason == C.MQRC_UNKNOWN_REMOTE_Q_MGR
    assert (unknown_qmgr.get(C.MQCA_Q_NAME), unknown_qmgr.get(C.MQCACF_OBJECT_Q_MGR_NAME)) == ("R", "FARTHER")


def test_default_transmission_queue_usage_error(mq: Any) -> None:
    mq.qm.alter("QMGR", "", {"REMOTEEV": "ENABLED", "DEFXMITQ": "PLAIN"})
    mq.define("PLAIN")
    with mq.raises(C.MQRC_DEF_XMIT_Q_USAGE_ERROR):  # the application is told what the event says
        mq.qm.open(mq.conn, {"ObjectName": "R", "ObjectQMgrName": "FARTHER"}, C.MQOO_OUTPUT)
    (event,) = _events(mq)
    assert event.header.Reason == C.MQRC_DEF_XMIT_Q_USAGE_ERROR and event.get(C.MQCACH_XMIT_Q_NAME) == "PLAIN"


# -- command events ------------------------------------------------------------------------------
def test_cmdev_nodisplay_skips_displays_and_inquiries() -> None:
    assert Q.reports_command("ENABLED", True) and Q.reports_command("NODISPLAY", False)
    assert not Q.reports_command("NODISPLAY", True) and not Q.reports_command("DISABLED", False)
    assert C.MQCMD_INQUIRE_Q in Q.INQUIRES and C.MQCMD_CHANGE_Q not in Q.INQUIRES


def test_command_data_groups() -> None:
    mqsc = Q.command_data("QM1", "alice", C.MQEVO_CONSOLE, C.MQCMD_CHANGE_Q_MGR, mqsc="ALTER QMGR DESCR('x')")
    (context_id, context), (data_id, data) = mqsc
    assert (context_id, data_id) == (C.MQGACF_COMMAND_CONTEXT, C.MQGACF_COMMAND_DATA)
    assert isinstance(context, pcf.Group) and isinstance(data, pcf.Group)
    assert context.parameters == [(C.MQCACF_EVENT_USER_ID, "alice"), (C.MQIACF_EVENT_ORIGIN, C.MQEVO_CONSOLE),
                                  (C.MQCACF_EVENT_Q_MGR, "QM1"), (C.MQIACF_COMMAND, C.MQCMD_CHANGE_Q_MGR)]
    assert data.parameters == [(C.MQCACF_COMMAND_MQSC, "ALTER QMGR DESCR('x')")]


def test_command_event_of_an_mqsc_command_through_the_checked_admin(mq: Any) -> None:
    from mqlite.core.security.service import administrator
    from mqlite.mqsc import commands

    mq.qm.alter("QMGR", "", {"CMDEV": "NODISPLAY"})
    admin = mq.qm.admin_for(administrator("alice"))
    commands.run_mqsc(admin, "DEFINE QLOCAL(CMD.Q)\nDISPLAY QLOCAL(CMD.Q)\nDEFINE QLOCAL(CMD.Q)\n")
    handle = mq.open("SYSTEM.ADMIN.COMMAND.EVENT", C.MQOO_INPUT_SHARED)
    (event,) = [pcf.decode(body) for body in mq.bodies(handle)]  # the display and the failure: none
    assert (event.header.Command, event.header.Reason) == (C.MQCMD_COMMAND_EVENT, C.MQRC_COMMAND_MQSC)
    context, data = (value for _, value in event.parameters)
    assert isinstance(context, pcf.Group) and isinstance(data, pcf.Group)
    assert dict(context.parameters)[C.MQIACF_COMMAND] == C.MQCMD_CREATE_Q
    assert dict(context.parameters)[C.MQCACF_EVENT_USER_ID] == "alice"
    assert data.parameters == [(C.MQCACF_COMMAND_MQSC, "DEFINE QLOCAL(CMD.Q)")]
