"""IBM event messages from real queue manager processes (issue 33, scope item 4): queue depth
events on SYSTEM.ADMIN.PERFM.EVENT, channel events on SYSTEM.ADMIN.CHANNEL.EVENT, configuration
events on SYSTEM.ADMIN.CONFIG.EVENT, each decoded with ``mqlite.protocol.pcf`` and printed by
``mqlite amqsevt``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import mqlite.client as mqlite
from helpers.admin_messages import pcf_messages
from helpers.mqsc import depth, mqsc
from helpers.qmgrs import QMgr
from helpers.waiting import wait_until
from mqlite import cmqc as C
from mqlite.protocol import pcf

RunCli = Callable[..., Any]


def _events(qm: QMgr, queue: str) -> list[pcf.PcfMessage]:
    return pcf_messages(qm.name, queue)


def test_queue_depth_high_on_the_performance_event_queue(qmgr: QMgr, run_cli: RunCli) -> None:
    mqsc(run_cli, qmgr, "ALTER QMGR PERFMEV(ENABLED)\n"
                        "DEFINE QLOCAL(DEEP) MAXDEPTH(10) QDEPTHHI(50) QDPHIEV(ENABLED)\n")
    with mqlite.connect(qmgr.name) as conn:
        queue = mqlite.Queue(conn, "DEEP")
        for i in range(6):
            queue.put(b"m%d" % i)
    (event,) = _events(qmgr, "SYSTEM.ADMIN.PERFM.EVENT")
    assert (event.header.Type, event.header.Command) == (C.MQCFT_EVENT, C.MQCMD_PERFM_EVENT)
    assert event.header.Reason == C.MQRC_Q_DEPTH_HIGH
    assert event.get(C.MQCA_Q_MGR_NAME) == qmgr.name and event.get(C.MQCA_BASE_Q_NAME) == "DEEP"
    assert (event.get(C.MQIA_HIGH_Q_DEPTH), event.get(C.MQIA_MSG_ENQ_COUNT)) == (5, 5)
    shown = mqsc(run_cli, qmgr, "DISPLAY QLOCAL(DEEP) QDPHIEV QDPLOEV\n")
    assert "QDPHIEV(DISABLED)" in shown and "QDPLOEV(ENABLED)" in shown  # as IBM switches them


def test_configuration_events_and_amqsevt(qmgr: QMgr, run_cli: RunCli) -> None:
    out = mqsc(run_cli, qmgr, "ALTER QMGR CONFIGEV(ENABLED) PERFMEV(ENABLED)\n")
    assert "AMQ8955I" not in out, out  # both are produced now
    mqsc(run_cli, qmgr, "DEFINE QLOCAL(CFG.Q) MAXDEPTH(100)\nALTER QLOCAL(CFG.Q) MAXDEPTH(200)\n"
                        "DELETE QLOCAL(CFG.Q)\nDEFINE NAMELIST(CFG.NL) NAMES(A,B)\n")
    printed = run_cli("amqsevt", "-m", qmgr.name, "-q", "SYSTEM.ADMIN.CONFIG.EVENT", "-w", "0")
    assert printed.returncode == 0, printed.stderr
    events = [e for e in printed.stdout.split("**** Message #") if e.strip()]
    assert len(events) == 5, printed.stdout
    create, before, after, delete, namelist = events
    assert "Event Type                       : Configuration Event [43]" in create
    assert "MQRC_CONFIG_CREATE_OBJECT [2367] Create object" in create
    assert "MQRC_CONFIG_CHANGE_OBJECT [2368] Change object (before)" in before
    assert "Change object (after)" in after and "MQRC_CONFIG_DELETE_OBJECT [2369] Delete object" in delete
    assert "QName                          : CFG.Q" in create
    assert "ObjectType                     : MQOT_Q (1)" in create
    assert "MQIA_MAX_Q_DEPTH               : 100" in before and "MQIA_MAX_Q_DEPTH               : 200" in after
    assert "EventUserId" in create and "NamelistName                   : CFG.NL" in namelist


def link(run_cli: RunCli, qm1: QMgr, qm2: QMgr) -> None:
    mqsc(run_cli, qm1, f"DEFINE QLOCAL(QM2) USAGE(XMITQ)\n"
                       f"DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) CONNAME('127.0.0.1({qm2.port})') XMITQ(QM2)\n"
                       f"DEFINE QREMOTE(TO.APP.IN) RNAME(APP.IN) RQMNAME({qm2.name}) XMITQ(QM2)\n"
                       "ALTER QMGR CHLEV(ENABLED)\n")
    mqsc(run_cli, qm2, "DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(RCVR)\nDEFINE QLOCAL(APP.IN)\n"
                       "SET CHLAUTH(QM1.TO.QM2) TYPE(QMGRMAP) QMNAME(QM1) USERSRC(CHANNEL)\n"
                       "ALTER QMGR CHLEV(ENABLED)\n")


def test_channel_started_and_stopped_on_both_ends(qmgr_factory: Callable[..., QMgr], run_cli: RunCli) -> None:
    qm1, qm2 = qmgr_factory("QM1"), qmgr_factory("QM2")
    link(run_cli, qm1, qm2)
    with mqlite.connect("QM1") as q1:
        mqlite.Queue(q1, "TO.APP.IN").put(b"across")
    wait_until(lambda: depth(run_cli, qm2, "APP.IN") == 1, "the message on QM2", timeout=60)
    mqsc(run_cli, qm1, "STOP CHANNEL(QM1.TO.QM2) MODE(FORCE)\n")
    wait_until(lambda: depth(run_cli, qm1, "SYSTEM.ADMIN.CHANNEL.EVENT") == 3, "the sender's three events",
               timeout=60)
    wait_until(lambda: depth(run_cli, qm2, "SYSTEM.ADMIN.CHANNEL.EVENT") == 2, "the receiver's two events",
               timeout=60)
    sent = _events(qm1, "SYSTEM.ADMIN.CHANNEL.EVENT")
    assert [e.header.Reason for e in sent] == [C.MQRC_CHANNEL_STARTED, C.MQRC_CHANNEL_STOPPED_BY_USER,
                                               C.MQRC_CHANNEL_STOPPED]
    started, by_user, stopped = sent
    assert all(e.header.Command == C.MQCMD_CHANNEL_EVENT for e in sent)
    assert started.get(C.MQCACH_CHANNEL_NAME) == "QM1.TO.QM2" and started.get(C.MQCACH_XMIT_Q_NAME) == "QM2"
    assert started.get(C.MQCACH_CONNECTION_NAME) == f"127.0.0.1({qm2.port})"
    assert by_user.get(C.MQIACF_REASON_QUALIFIER) == C.MQRQ_CHANNEL_STOPPED_DISABLED
    assert stopped.get(C.MQIACF_REASON_QUALIFIER) == C.MQRQ_CHANNEL_STOPPED_DISABLED
    received = _events(qm2, "SYSTEM.ADMIN.CHANNEL.EVENT")
    assert [e.header.Reason for e in received] == [C.MQRC_CHANNEL_STARTED, C.MQRC_CHANNEL_STOPPED]
    assert received[1].get(C.MQIACF_REASON_QUALIFIER) == C.MQRQ_CHANNEL_STOPPED_OK
    assert received[0].get(C.MQCACH_XMIT_Q_NAME) is None  # a receiver has no transmission queue


def test_chlev_exception_reports_only_the_exceptions(qmgr_factory: Callable[..., QMgr], run_cli: RunCli) -> None:
    qm1, qm2 = qmgr_factory("QM1"), qmgr_factory("QM2")
    link(run_cli, qm1, qm2)
    mqsc(run_cli, qm1, "ALTER QMGR CHLEV(EXCEPTION)\n")
    with mqlite.connect("QM1") as q1:
        mqlite.Queue(q1, "TO.APP.IN").put(b"across")
    wait_until(lambda: depth(run_cli, qm2, "APP.IN") == 1, "the message on QM2", timeout=60)
    mqsc(run_cli, qm1, "STOP CHANNEL(QM1.TO.QM2) MODE(FORCE)\n")
    wait_until(lambda: depth(run_cli, qm1, "SYSTEM.ADMIN.CHANNEL.EVENT") == 2, "two exception events", timeout=60)
    printed = run_cli("amqsevt", "-m", "QM1", "-q", "SYSTEM.ADMIN.CHANNEL.EVENT", "-w", "0")
    assert printed.returncode == 0, printed.stderr
    assert "Channel Started" not in printed.stdout
    assert "MQRC_CHANNEL_STOPPED_BY_USER [2279] Channel Stopped By User" in printed.stdout
    assert "ReasonQualifier                : MQRQ_CHANNEL_STOPPED_DISABLED (10)" in printed.stdout
    assert "ChannelName                    : QM1.TO.QM2" in printed.stdout
