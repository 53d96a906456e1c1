"""Statistics messages from a real queue manager (issue 33): STATQ and STATMQI counts on
SYSTEM.ADMIN.STATISTICS.QUEUE at RESET QMGR TYPE(STATISTICS), at the end of a STATINT(1)
interval and at endmqm; PCF RESET_Q_MGR; ``mqlite amqsmon``."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import mqlite.client as mqlite
from helpers.admin_messages import pcf_messages
from helpers.module_qmgrs import started
from helpers.mqsc import mqsc
from helpers.qmgrs import QMgr
from helpers.waiting import wait_until
from mqlite import cmqc as C
from mqlite.protocol import pcf

RunCli = Callable[..., Any]
STATS = "SYSTEM.ADMIN.STATISTICS.QUEUE"


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[dict[str, QMgr], RunCli]]:
    """QM1 and QM2, shared by the module's tests: each begins an interval of its own (RESET QMGR)."""
    home: Path = tmp_path_factory.mktemp("statistics")
    with started(home, ("QM1", "QM2")) as found:
        yield found


@pytest.fixture
def qm1(pair: tuple[dict[str, QMgr], RunCli]) -> QMgr:
    return pair[0]["QM1"]


@pytest.fixture
def qm2(pair: tuple[dict[str, QMgr], RunCli]) -> QMgr:
    return pair[0]["QM2"]


@pytest.fixture
def cli(pair: tuple[dict[str, QMgr], RunCli]) -> RunCli:
    return pair[1]


def _messages(qm: QMgr) -> list[pcf.PcfMessage]:
    return pcf_messages(qm.name, STATS, C.MQFMT_ADMIN)


def _queue_group(messages: list[pcf.PcfMessage], name: str) -> dict[int, Any]:
    for message in messages:
        if message.header.Command != C.MQCMD_STATISTICS_Q:
            continue
        for pid, value in message.parameters:
            if pid == C.MQGACF_Q_STATISTICS_DATA and isinstance(value, pcf.Group):
                group = dict(value.parameters)
                if str(group[C.MQCA_Q_NAME]).strip() == name:
                    return group
    raise AssertionError(f"no statistics of {name}")


def test_statq_and_statmqi_counts_at_reset_qmgr(qm1: QMgr, cli: RunCli) -> None:
    mqsc(cli, qm1, "DEFINE QLOCAL(ST.Q) STATQ(ON)\nDEFINE QLOCAL(ST.IDLE) STATQ(ON)\n"
                        "DEFINE QLOCAL(ST.OFF) STATQ(OFF)\nALTER QMGR STATMQI(ON)\n"
                        "RESET QMGR TYPE(STATISTICS)\n")  # collection starts at the next interval
    _messages(qm1)
    with mqlite.connect(qm1.name) as conn:
        q = mqlite.Queue(conn, "ST.Q", C.MQOO_OUTPUT | C.MQOO_INPUT_SHARED | C.MQOO_BROWSE)
        for persistence, body in ((C.MQPER_PERSISTENT, b"p" * 10), (C.MQPER_PERSISTENT, b"p" * 10),
                                  (C.MQPER_NOT_PERSISTENT, b"n" * 3), (C.MQPER_NOT_PERSISTENT, b"n" * 3),
                                  (C.MQPER_NOT_PERSISTENT, b"n" * 3)):
            q.put(body, mqlite.MD(Persistence=persistence))
        q.get(None, mqlite.MD(), mqlite.GMO(Options=C.MQGMO_BROWSE_FIRST))
        q.get()  # in put order: persistent, persistent, then non-persistent
        for _ in range(3):
            q.get()
        off = mqlite.Queue(conn, "ST.OFF", C.MQOO_OUTPUT)
        off.put(b"not counted")
    out = mqsc(cli, qm1, "RESET QMGR TYPE(STATISTICS)\n")
    assert "AMQ8005I" in out, out
    found = _messages(qm1)
    group = _queue_group(found, "ST.Q")
    assert group[C.MQIAMO_PUTS] == [3, 2] and group[C.MQIAMO64_PUT_BYTES] == [9, 20]
    assert group[C.MQIAMO_GETS] == [2, 2] and group[C.MQIAMO64_GET_BYTES] == [6, 20]
    assert group[C.MQIAMO_BROWSES] == [0, 1] and group[C.MQIAMO64_BROWSE_BYTES] == [0, 10]
    assert (group[C.MQIAMO_Q_MIN_DEPTH], group[C.MQIAMO_Q_MAX_DEPTH]) == (0, 5)  # empty at the start
    assert group[C.MQIA_Q_TYPE] == C.MQQT_LOCAL
    for name in ("ST.IDLE", "ST.OFF"):  # no activity, or not collected: no record
        try:
            _queue_group(found, name)
        except AssertionError:
            continue
        raise AssertionError(f"{name} has a record")
    (mqi,) = [m for m in found if m.header.Command == C.MQCMD_STATISTICS_MQI]
    assert mqi.get(C.MQIAMO_PUTS) == [4, 2] and mqi.get(C.MQIAMO_OPENS) == 3  # and the statistics queue
    assert mqi.get(C.MQIAMO_GETS) == [2, 2] and mqi.get(C.MQIAMO64_GET_BYTES) == [6, 20]
    assert mqi.get(C.MQIAMO_BROWSES) == [0, 1] and mqi.get(C.MQIAMO_GETS_FAILED) == 1  # _messages' last: 2033
    assert [p for p, _ in mqi.parameters][:6] == [C.MQCA_Q_MGR_NAME, C.MQCAMO_START_DATE, C.MQCAMO_START_TIME,
                                                  C.MQCAMO_END_DATE, C.MQCAMO_END_TIME, C.MQIA_COMMAND_LEVEL]


def test_statmqi_counts_an_as_q_def_put_by_the_queues_default_persistence(qm1: QMgr, cli: RunCli) -> None:
    """MQPER_PERSISTENCE_AS_Q_DEF on a DEFPSIST(YES) queue is a persistent put: STATMQI counts
    the completed MQMD's Persistence, not the one the application passed."""
    mqsc(cli, qm1, "DEFINE QLOCAL(ST.DEFP) DEFPSIST(YES)\nALTER QMGR STATMQI(ON)\n"
                   "RESET QMGR TYPE(STATISTICS)\n")
    _messages(qm1)
    with mqlite.connect(qm1.name) as conn:
        q = mqlite.Queue(conn, "ST.DEFP", C.MQOO_OUTPUT | C.MQOO_INPUT_SHARED)
        q.put(b"1234", mqlite.MD(Persistence=C.MQPER_PERSISTENCE_AS_Q_DEF))
        q.get()
    mqsc(cli, qm1, "RESET QMGR TYPE(STATISTICS)\n")
    (mqi,) = [m for m in _messages(qm1) if m.header.Command == C.MQCMD_STATISTICS_MQI]
    assert mqi.get(C.MQIAMO_PUTS) == [0, 1] and mqi.get(C.MQIAMO64_PUT_BYTES) == [0, 4]
    mqsc(cli, qm1, "ALTER QMGR STATMQI(OFF)\n")


def test_statint_writes_at_the_interval_end_and_endmqm_writes_the_last(qm1: QMgr, cli: RunCli) -> None:
    mqsc(cli, qm1, "DEFINE QLOCAL(ST.T) STATQ(ON)\nRESET QMGR TYPE(STATISTICS)\n")
    with mqlite.connect(qm1.name) as conn:
        mqlite.Queue(conn, "ST.T", C.MQOO_OUTPUT).put(b"x")
    mqsc(cli, qm1, "ALTER QMGR STATINT(1)\n")
    got: list[pcf.PcfMessage] = []

    def arrived() -> bool:
        got.extend(_messages(qm1))
        return any(m.header.Command == C.MQCMD_STATISTICS_Q for m in got)

    wait_until(arrived, "a queue statistics message at STATINT(1)", timeout=60)
    assert _queue_group(got, "ST.T")[C.MQIAMO_PUTS] == [1, 0]
    mqsc(cli, qm1, "ALTER QMGR STATINT(3600)\nRESET QMGR TYPE(STATISTICS)\n")
    _messages(qm1)
    with mqlite.connect(qm1.name) as conn:
        mqlite.Queue(conn, "ST.T", C.MQOO_OUTPUT).put(b"yy")
    assert cli("endmqm", qm1.name).returncode == 0
    assert cli("strmqm", qm1.name).returncode == 0
    assert _queue_group(_messages(qm1), "ST.T")[C.MQIAMO64_PUT_BYTES] == [2, 0]


def test_pcf_reset_q_mgr_collect_statistics_and_a_bad_action(qm1: QMgr) -> None:
    with mqlite.connect(qm1.name) as conn:
        pcf_exec = mqlite.PCFExecute(conn)
        pcf_exec.MQCMD_RESET_Q_MGR({C.MQIACF_ACTION: C.MQACT_COLLECT_STATISTICS})
        try:
            pcf_exec.MQCMD_RESET_Q_MGR({C.MQIACF_ACTION: 99})
        except mqlite.MQMIError as error:
            assert error.reason == C.MQRCCF_ACTION_VALUE_ERROR, error
        else:
            raise AssertionError("a bad Action was accepted")


def test_amqsmon_prints_queue_statistics(qm1: QMgr, cli: RunCli) -> None:
    mqsc(cli, qm1, "DEFINE QLOCAL(ST.M) STATQ(ON)\nRESET QMGR TYPE(STATISTICS)\n")
    with mqlite.connect(qm1.name) as conn:
        mqlite.Queue(conn, "ST.M", C.MQOO_OUTPUT).put(b"abc", mqlite.MD(Persistence=C.MQPER_PERSISTENT))
    mqsc(cli, qm1, "RESET QMGR TYPE(STATISTICS)\n")
    printed = cli("amqsmon", "-m", qm1.name, "-t", "statistics", "-q", "ST.M", "-b")
    assert printed.returncode == 0, printed.stderr
    assert "MonitoringType: QueueStatistics" in printed.stdout
    assert "QueueName: 'ST.M'" in printed.stdout and "PutCount: [0, 1]" in printed.stdout
    assert _messages(qm1)  # -b browsed: still there
    refused = cli("amqsmon", "-m", qm1.name, "-a")
    assert refused.returncode != 0 and "accounting messages are not built" in refused.stderr


def _channel_group(messages: list[pcf.PcfMessage], name: str) -> dict[int, Any]:
    for message in messages:
        for pid, value in message.parameters:
            if pid == C.MQGACF_CHL_STATISTICS_DATA and isinstance(value, pcf.Group):
                group = dict(value.parameters)
                if str(group[C.MQCACH_CHANNEL_NAME]).strip() == name:
                    assert message.header.Command == C.MQCMD_STATISTICS_CHANNEL
                    return group
    raise AssertionError(f"no statistics of channel {name}")


def test_statchl_on_a_sender_and_its_receiver(qm1: QMgr, qm2: QMgr, cli: RunCli) -> None:
    mqsc(cli, qm1, f"DEFINE QLOCAL(QM2) USAGE(XMITQ)\n"
                       f"DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) CONNAME('127.0.0.1({qm2.port})') XMITQ(QM2) "
                       f"BATCHSZ(2) STATCHL(HIGH)\n"
                       f"DEFINE QREMOTE(TO.APP.IN) RNAME(APP.IN) RQMNAME({qm2.name}) XMITQ(QM2)\n"
                       "RESET QMGR TYPE(STATISTICS)\n")
    mqsc(cli, qm2, "DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(RCVR) BATCHSZ(2) STATCHL(QMGR)\nDEFINE QLOCAL(APP.IN)\n"
                       "SET CHLAUTH(QM1.TO.QM2) TYPE(QMGRMAP) QMNAME(QM1) USERSRC(CHANNEL)\n"
                       "ALTER QMGR STATCHL(LOW)\nRESET QMGR TYPE(STATISTICS)\n")
    with mqlite.connect("QM1") as q1:
        q = mqlite.Queue(q1, "TO.APP.IN")
        for _ in range(3):
            q.put(b"across", mqlite.MD(Persistence=C.MQPER_PERSISTENT))
    wait_until(lambda: _depth(qm2, "APP.IN") == 3, "the messages on QM2", timeout=60)
    for qm in (qm1, qm2):
        mqsc(cli, qm, "RESET QMGR TYPE(STATISTICS)\n")
    for qm in (qm1, qm2):
        group = _channel_group(_messages(qm), "QM1.TO.QM2")
        assert group[C.MQIAMO_MSGS] == 3 and group[C.MQIAMO64_BYTES] > 3 * len(b"across")  # with the MQXQH
        assert group[C.MQIAMO_FULL_BATCHES] + group[C.MQIAMO_INCOMPLETE_BATCHES] >= 2  # BATCHSZ(2)
        assert group[C.MQIAMO_PUT_RETRIES] == 0
    assert group[C.MQIACH_CHANNEL_TYPE] == C.MQCHT_RECEIVER and str(group[C.MQCA_REMOTE_Q_MGR_NAME]).strip() == "QM1"


def _depth(qm: QMgr, queue: str) -> int:
    with mqlite.connect(qm.name) as conn:
        q = mqlite.Queue(conn, queue, C.MQOO_INQUIRE)
        return int(q.inquire(C.MQIA_CURRENT_Q_DEPTH))
