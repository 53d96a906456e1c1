"""The remaining IBM event types from a real queue manager process (issue 33's events): the
depth-event switches kept across a restart (endmqm and kill -9), Queue Service Interval High and
OK, start and stop events, inhibit, local and remote events, each read back from its event queue
and decoded with ``mqlite.protocol.pcf``, and printed by ``mqlite amqsevt``. One queue manager
for the module. No spec in ../shared/spec covers these events; IBM's event reference is."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import mqlite.client as mqlite
from helpers.admin_messages import pcf_messages
from helpers.module_qmgrs import started
from helpers.mqsc import RunCli, depth, mqsc
from helpers.qmgrs import QMgr, server_pids
from helpers.waiting import wait_until
from mqlite import cmqc as C
from mqlite.cli.state import process_alive
from mqlite.protocol import pcf

QM = "EVQM"
QMGR_EVENTS, PERFM_EVENTS = "SYSTEM.ADMIN.QMGR.EVENT", "SYSTEM.ADMIN.PERFM.EVENT"
CHANNEL_EVENTS = "SYSTEM.ADMIN.CHANNEL.EVENT"


PARTNER = "EVQM2"


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[dict[str, QMgr], RunCli, Path]]:
    home = tmp_path_factory.mktemp("events_more") / "home"
    with started(home, [QM, PARTNER]) as (qmgrs, run_cli):
        yield qmgrs, run_cli, home


@pytest.fixture(scope="module")
def qm(both: tuple[dict[str, QMgr], RunCli, Path]) -> tuple[QMgr, RunCli, Path]:
    qmgrs, run_cli, home = both
    return qmgrs[QM], run_cli, home


def _events(queue: str) -> list[pcf.PcfMessage]:
    return pcf_messages(QM, queue)


def _restart(run_cli: RunCli, home: Path, kill: bool) -> None:
    if kill:
        pid = server_pids(home)[QM]
        os.kill(pid, signal.SIGKILL)
        wait_until(lambda: not process_alive(pid), "the killed queue manager gone", timeout=60)
    else:
        assert run_cli("endmqm", QM).returncode == 0
    assert run_cli("strmqm", QM).returncode == 0


def test_start_and_stop_events(qm: tuple[QMgr, RunCli, Path]) -> None:
    qmgr, run_cli, home = qm
    _events(QMGR_EVENTS)  # the first start's Queue Manager Active (STRSTPEV is ENABLED by default, as IBM's)
    _restart(run_cli, home, kill=False)
    stopped, active = _events(QMGR_EVENTS)
    assert (stopped.header.Command, stopped.header.Reason) == (C.MQCMD_Q_MGR_EVENT, C.MQRC_Q_MGR_NOT_ACTIVE)
    assert stopped.parameters == [(C.MQCA_Q_MGR_NAME, QM), (C.MQIACF_REASON_QUALIFIER, C.MQRQ_Q_MGR_QUIESCING)]
    assert active.header.Reason == C.MQRC_Q_MGR_ACTIVE and active.parameters == [(C.MQCA_Q_MGR_NAME, QM)]
    mqsc(run_cli, qmgr, "ALTER QMGR STRSTPEV(DISABLED)\n")
    _restart(run_cli, home, kill=False)
    assert _events(QMGR_EVENTS) == []


@pytest.mark.parametrize("kill", [False, True], ids=["endmqm", "kill-9"])
def test_depth_event_switches_survive_a_restart(qm: tuple[QMgr, RunCli, Path], kill: bool) -> None:
    qmgr, run_cli, home = qm
    name = f"KEPT.{int(kill)}"
    mqsc(run_cli, qmgr, f"ALTER QMGR PERFMEV(ENABLED)\n"
                        f"DEFINE QLOCAL({name}) MAXDEPTH(10) QDEPTHHI(20) QDPHIEV(ENABLED) QDPLOEV(DISABLED)\n")
    with mqlite.connect(QM) as conn:
        queue = mqlite.Queue(conn, name)
        for _ in range(2):
            queue.put(b"m", mqlite.MD(Persistence=C.MQPER_PERSISTENT))
    (high,) = _events(PERFM_EVENTS)
    assert high.header.Reason == C.MQRC_Q_DEPTH_HIGH and high.get(C.MQCA_BASE_Q_NAME) == name
    _restart(run_cli, home, kill)
    shown = mqsc(run_cli, qmgr, f"DISPLAY QLOCAL({name}) QDPHIEV QDPLOEV QDPMAXEV\n")
    assert "QDPHIEV(DISABLED)" in shown and "QDPLOEV(ENABLED)" in shown and "QDPMAXEV(ENABLED)" in shown, shown


def test_queue_service_interval_high_then_ok(qm: tuple[QMgr, RunCli, Path]) -> None:
    qmgr, run_cli, _ = qm
    mqsc(run_cli, qmgr, "ALTER QMGR PERFMEV(ENABLED)\nDEFINE QLOCAL(SERVED) QSVCIEV(HIGH) QSVCINT(200)\n")
    _events(PERFM_EVENTS)
    with mqlite.connect(QM) as conn:
        queue = mqlite.Queue(conn, "SERVED")
        queue.put(b"first")
        queue.put(b"second")
        # Nobody gets: the queue manager's timer raises the High (a condition, not a sleep).
        wait_until(lambda: "QSVCIEV(OK)" in mqsc(run_cli, qmgr, "DISPLAY QLOCAL(SERVED) QSVCIEV\n"),
                   "Queue Service Interval High switched QSVCIEV to OK", timeout=60)
        queue.get()  # late: no OK; the timer restarts (a message is left)
        queue.get()
    events = _events(PERFM_EVENTS)
    high = events[0]
    assert high.header.Reason == C.MQRC_Q_SERVICE_INTERVAL_HIGH
    assert [p for p, _ in high.parameters] == [C.MQCA_Q_MGR_NAME, C.MQCA_BASE_Q_NAME, C.MQIA_TIME_SINCE_RESET,
                                               C.MQIA_HIGH_Q_DEPTH, C.MQIA_MSG_ENQ_COUNT, C.MQIA_MSG_DEQ_COUNT]
    assert (high.get(C.MQCA_BASE_Q_NAME), high.get(C.MQIA_MSG_ENQ_COUNT), high.get(C.MQIA_HIGH_Q_DEPTH)) == (
        "SERVED", 2, 2)
    # The second get came within 200 ms of the first (the timer's restart) or it did not:
    # an OK exactly when it did, and QSVCIEV says which.
    shown = mqsc(run_cli, qmgr, "DISPLAY QLOCAL(SERVED) QSVCIEV\n")
    if len(events) == 2:
        assert events[1].header.Reason == C.MQRC_Q_SERVICE_INTERVAL_OK and "QSVCIEV(HIGH)" in shown
    else:
        assert len(events) == 1 and "QSVCIEV(OK)" in shown


def test_inhibit_local_and_remote_events(qm: tuple[QMgr, RunCli, Path]) -> None:
    qmgr, run_cli, _ = qm
    out = mqsc(run_cli, qmgr, "ALTER QMGR INHIBTEV(ENABLED) LOCALEV(ENABLED) REMOTEEV(ENABLED)\n"
                              "DEFINE QLOCAL(SHUT) PUT(DISABLED) GET(DISABLED)\n"
                              "DEFINE QALIAS(TO.GONE) TARGET(GONE)\n"
                              "DEFINE QREMOTE(FAR.Q) RNAME(R) RQMNAME(FAR) XMITQ(SHUT)\n")
    assert "AMQ8955I" not in out, out  # these are produced now
    _events(QMGR_EVENTS)
    with mqlite.connect(QM) as conn:
        shut = mqlite.Queue(conn, "SHUT")
        for call, reason in ((lambda: shut.put(b"m"), C.MQRC_PUT_INHIBITED), (shut.get, C.MQRC_GET_INHIBITED)):
            with pytest.raises(mqlite.MQMIError) as raised:
                call()
            assert raised.value.reason == reason
        for name, reason in (("NOPE", C.MQRC_UNKNOWN_OBJECT_NAME), ("TO.GONE", C.MQRC_UNKNOWN_ALIAS_BASE_Q),
                             ("FAR.Q", C.MQRC_XMIT_Q_USAGE_ERROR)):
            with pytest.raises(mqlite.MQMIError) as raised:
                mqlite.Queue(conn, name, C.MQOO_OUTPUT)
            assert raised.value.reason == reason
    put, get, unknown, alias, usage = _events(QMGR_EVENTS)
    assert all(e.header.Command == C.MQCMD_Q_MGR_EVENT for e in (put, get, unknown, alias, usage))
    assert put.header.Reason == C.MQRC_PUT_INHIBITED
    assert [p for p, _ in put.parameters][:5] == [C.MQCA_Q_MGR_NAME, C.MQCA_Q_NAME, C.MQIA_APPL_TYPE,
                                                  C.MQCACF_APPL_NAME, C.MQCACF_OBJECT_Q_MGR_NAME]
    assert (put.get(C.MQCA_Q_NAME), put.get(C.MQCACF_OBJECT_Q_MGR_NAME)) == ("SHUT", QM)
    assert get.header.Reason == C.MQRC_GET_INHIBITED and get.get(C.MQCA_Q_NAME) == "SHUT"
    assert unknown.header.Reason == C.MQRC_UNKNOWN_OBJECT_NAME and unknown.get(C.MQCA_Q_NAME) == "NOPE"
    assert alias.header.Reason == C.MQRC_UNKNOWN_ALIAS_BASE_Q and alias.get(C.MQCA_BASE_OBJECT_NAME) == "GONE"
    assert usage.header.Reason == C.MQRC_XMIT_Q_USAGE_ERROR and usage.get(C.MQCACH_XMIT_Q_NAME) == "SHUT"


def test_amqsevt_prints_ibm_event_names(qm: tuple[QMgr, RunCli, Path]) -> None:
    qmgr, run_cli, _ = qm
    mqsc(run_cli, qmgr, "ALTER QMGR LOCALEV(ENABLED)\n")
    _events(QMGR_EVENTS)
    with mqlite.connect(QM) as conn, pytest.raises(mqlite.MQMIError):
        mqlite.Queue(conn, "NOT.THERE", C.MQOO_OUTPUT)
    printed: Any = run_cli("amqsevt", "-m", QM, "-w", "0")
    assert printed.returncode == 0, printed.stderr
    assert "MQRC_UNKNOWN_OBJECT_NAME [2085] Unknown Object Name" in printed.stdout
    assert "QName                          : NOT.THERE" in printed.stdout


CONFIG_EVENTS = "SYSTEM.ADMIN.CONFIG.EVENT"


def test_refresh_qmgr_configev_in_mqsc_and_pcf(qm: tuple[QMgr, RunCli, Path]) -> None:
    qmgr, run_cli, _ = qm
    mqsc(run_cli, qmgr, "DEFINE QLOCAL(REF.A) MAXDEPTH(42)\nDEFINE QLOCAL(REF.B)\nDEFINE QALIAS(REF.C) TARGET(REF.A)\n"
                        "ALTER QMGR CONFIGEV(ENABLED)\n")
    _events(CONFIG_EVENTS)
    out = mqsc(run_cli, qmgr, "REFRESH QMGR TYPE(CONFIGEV) OBJECT(QLOCAL) NAME(REF.*)\n")
    assert "AMQ8005I" in out, out
    first, second = _events(CONFIG_EVENTS)
    assert {e.header.Reason for e in (first, second)} == {C.MQRC_CONFIG_REFRESH_OBJECT}
    assert first.header.Command == C.MQCMD_CONFIG_EVENT
    assert [p for p, _ in first.parameters][:6] == [C.MQCACF_EVENT_USER_ID, C.MQIACF_EVENT_ORIGIN,
                                                    C.MQCACF_EVENT_Q_MGR, C.MQIACF_OBJECT_TYPE, C.MQCA_Q_NAME,
                                                    C.MQIA_QSG_DISP]
    assert (first.get(C.MQCA_Q_NAME), first.get(C.MQIA_MAX_Q_DEPTH)) == ("REF.A", 42)
    assert first.get(C.MQIACF_OBJECT_TYPE) == C.MQOT_Q and second.get(C.MQCA_Q_NAME) == "REF.B"
    with mqlite.connect(QM) as conn:
        admin = mqlite.PCFExecute(conn)
        assert admin.MQCMD_REFRESH_Q_MGR({C.MQIACF_REFRESH_TYPE: C.MQRT_CONFIGURATION,
                                          C.MQIACF_OBJECT_TYPE: C.MQOT_ALIAS_Q,
                                          C.MQCACF_OBJECT_NAME: b"REF.*", C.MQIACF_REFRESH_INTERVAL: 60}) == []
        admin.disconnect()
    (alias,) = _events(CONFIG_EVENTS)
    assert alias.header.Reason == C.MQRC_CONFIG_REFRESH_OBJECT and alias.get(C.MQCA_Q_NAME) == "REF.C"
    assert alias.get(C.MQCA_BASE_Q_NAME) == "REF.A"  # the alias's TARGET among its attributes
    assert first.get(C.MQIACF_EVENT_ORIGIN) == C.MQEVO_CONSOLE and alias.get(C.MQIACF_EVENT_ORIGIN) == C.MQEVO_MSG


def test_a_pcf_command_is_a_change_of_origin_msg(qm: tuple[QMgr, RunCli, Path]) -> None:
    """IBM's configuration events: EventOrigin MQEVO_MSG for a command that came as a PCF message
    on the command queue, MQEVO_CONSOLE for runmqsc's."""
    qmgr, run_cli, _ = qm
    mqsc(run_cli, qmgr, "ALTER QMGR CONFIGEV(ENABLED)\n")
    _events(CONFIG_EVENTS)
    with mqlite.connect(QM) as conn:
        admin = mqlite.PCFExecute(conn)
        admin.MQCMD_CREATE_Q({C.MQCA_Q_NAME: b"BY.PCF", C.MQIA_Q_TYPE: C.MQQT_LOCAL})
        admin.disconnect()
    mqsc(run_cli, qmgr, "DEFINE QLOCAL(BY.MQSC)\n")
    by_pcf, by_mqsc = _events(CONFIG_EVENTS)
    assert (by_pcf.header.Reason, by_pcf.get(C.MQCA_Q_NAME)) == (C.MQRC_CONFIG_CREATE_OBJECT, "BY.PCF")
    assert by_pcf.get(C.MQIACF_EVENT_ORIGIN) == C.MQEVO_MSG
    assert (by_mqsc.get(C.MQCA_Q_NAME), by_mqsc.get(C.MQIACF_EVENT_ORIGIN)) == ("BY.MQSC", C.MQEVO_CONSOLE)


def test_command_events_mqsc_and_pcf(qm: tuple[QMgr, RunCli, Path]) -> None:
    qmgr, run_cli, _ = qm
    out = mqsc(run_cli, qmgr, "ALTER QMGR CMDEV(NODISPLAY)\n")
    assert "AMQ8955I" not in out, out
    _events("SYSTEM.ADMIN.COMMAND.EVENT")
    mqsc(run_cli, qmgr, "DEFINE QLOCAL(CMD.EV) MAXDEPTH(7)\nDISPLAY QLOCAL(CMD.EV)\n")
    with mqlite.connect(QM) as conn:
        admin = mqlite.PCFExecute(conn)
        admin.MQCMD_CHANGE_Q({C.MQCA_Q_NAME: b"CMD.EV", C.MQIA_Q_TYPE: C.MQQT_LOCAL, C.MQIA_MAX_Q_DEPTH: 8})
        admin.MQCMD_INQUIRE_Q({C.MQCA_Q_NAME: b"CMD.EV"})  # NODISPLAY: no event
        admin.disconnect()
    printed: Any = run_cli("amqsevt", "-m", QM, "-q", "SYSTEM.ADMIN.COMMAND.EVENT", "--browse")
    assert printed.returncode == 0, printed.stderr
    assert "Event Type                       : Command Event [99]" in printed.stdout
    assert "MQRC_COMMAND_MQSC [2412] Command" in printed.stdout and "MQRC_COMMAND_PCF [2413] Command" in printed.stdout
    assert "  CommandContext:" in printed.stdout and "    CommandMQSC" in printed.stdout
    by_mqsc, by_pcf = _events("SYSTEM.ADMIN.COMMAND.EVENT")
    assert (by_mqsc.header.Command, by_mqsc.header.Reason) == (C.MQCMD_COMMAND_EVENT, C.MQRC_COMMAND_MQSC)
    assert [p for p, _ in by_mqsc.parameters] == [C.MQGACF_COMMAND_CONTEXT, C.MQGACF_COMMAND_DATA]
    context, data = (value for _, value in by_mqsc.parameters)
    assert isinstance(context, pcf.Group) and isinstance(data, pcf.Group)
    assert [p for p, _ in context.parameters] == [C.MQCACF_EVENT_USER_ID, C.MQIACF_EVENT_ORIGIN,
                                                  C.MQCACF_EVENT_Q_MGR, C.MQIACF_COMMAND]
    assert dict(context.parameters)[C.MQIACF_EVENT_ORIGIN] == C.MQEVO_CONSOLE
    assert dict(context.parameters)[C.MQIACF_COMMAND] == C.MQCMD_CREATE_Q
    assert data.parameters == [(C.MQCACF_COMMAND_MQSC, "DEFINE QLOCAL(CMD.EV) MAXDEPTH(7)")]
    assert by_pcf.header.Reason == C.MQRC_COMMAND_PCF
    context, data = (value for _, value in by_pcf.parameters)
    assert isinstance(context, pcf.Group) and isinstance(data, pcf.Group)
    fields = dict(context.parameters)
    assert (fields[C.MQIACF_EVENT_ORIGIN], fields[C.MQIACF_COMMAND]) == (C.MQEVO_MSG, C.MQCMD_CHANGE_Q)
    assert C.MQBACF_EVENT_ACCOUNTING_TOKEN in fields and C.MQCACF_EVENT_APPL_NAME in fields
    assert dict(data.parameters)[C.MQIA_MAX_Q_DEPTH] == 8


def test_a_sender_that_goes_retrying_says_channel_stopped_retry(both: tuple[dict[str, QMgr], RunCli, Path]) -> None:
    """IBM's Channel Stopped (2283) with ReasonQualifier MQRQ_CHANNEL_STOPPED_RETRY when a
    running sender loses its partner and goes to RETRYING (CHLEV(EXCEPTION) reports it)."""
    qmgrs, run_cli, _ = both
    sender, partner = qmgrs[QM], qmgrs[PARTNER]
    mqsc(run_cli, partner, f"DEFINE CHANNEL({QM}.TO.{PARTNER}) CHLTYPE(RCVR)\nDEFINE QLOCAL(APP.IN)\n"
                           f"SET CHLAUTH({QM}.TO.{PARTNER}) TYPE(QMGRMAP) QMNAME({QM}) USERSRC(CHANNEL)\n")
    mqsc(run_cli, sender, f"DEFINE QLOCAL({PARTNER}) USAGE(XMITQ)\n"
                          f"DEFINE CHANNEL({QM}.TO.{PARTNER}) CHLTYPE(SDR) CONNAME('127.0.0.1({partner.port})') "
                          f"XMITQ({PARTNER}) SHORTTMR(600)\n"
                          f"DEFINE QREMOTE(TO.APP.IN) RNAME(APP.IN) RQMNAME({PARTNER}) XMITQ({PARTNER})\n"
                          "ALTER QMGR CHLEV(EXCEPTION)\n")
    _events(CHANNEL_EVENTS)
    with mqlite.connect(QM) as conn:
        mqlite.Queue(conn, "TO.APP.IN").put(b"across")
    wait_until(lambda: depth(run_cli, partner, "APP.IN") == 1, "the message on the partner", timeout=60)
    assert run_cli("endmqm", "-i", PARTNER).returncode == 0
    wait_until(lambda: depth(run_cli, sender, CHANNEL_EVENTS) >= 1, "the sender's Channel Stopped", timeout=60)
    (stopped,) = _events(CHANNEL_EVENTS)
    mqsc(run_cli, sender, f"STOP CHANNEL({QM}.TO.{PARTNER}) MODE(FORCE)\n", ok=False)
    assert (stopped.header.Command, stopped.header.Reason) == (C.MQCMD_CHANNEL_EVENT, C.MQRC_CHANNEL_STOPPED)
    assert stopped.get(C.MQIACF_REASON_QUALIFIER) == C.MQRQ_CHANNEL_STOPPED_RETRY
    assert stopped.get(C.MQCACH_CHANNEL_NAME) == f"{QM}.TO.{PARTNER}" and stopped.get(C.MQCACH_XMIT_Q_NAME) == PARTNER
