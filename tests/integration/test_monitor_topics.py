"""Resource monitoring publications from a real queue manager process (issue 33): the retained
metadata on $SYS/MQ/INFO/QMGR/<qm>/Monitor/METADATA, STATQ and CPU data at the interval qm.ini
sets (TuningParameters MonitorPublishHeartBeat=1), nothing for a queue nobody subscribes to,
$SYS's authority, and ``mqlite amqsrua``. (IBM MQ 9 "Metrics published on the system topics";
no spec ID.) One queue manager for the module; each test waits for conditions, not for time."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

import mqlite.client as mqlite
from helpers.credentials import APP, Credentials, add_user, grant_app
from helpers.module_qmgrs import runner
from helpers.qmgrs import QMgr, reap
from helpers.waiting import wait_until
from mqlite import cmqc as C
from mqlite.protocol import monitor_read as R
from mqlite.protocol import pcf

QM = "MONQM"
ROOT = f"$SYS/MQ/INFO/QMGR/{QM}/Monitor/"
WATCHER = Credentials("watcher", "watcher-pass-1", "watchers")  # may connect and use app topics only


@pytest.fixture(scope="module")
def monitored(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[QMgr, Any]]:
    home = tmp_path_factory.mktemp("monitor")
    run_cli = runner(home)
    before = os.environ.get("MQLITE_HOME")
    os.environ["MQLITE_HOME"] = str(home)  # module-scoped: the client finds the queue manager there
    try:
        assert run_cli("crtmqm", "-p", "0", QM).returncode == 0
        (home / "qmgrs" / QM / "qm.ini").write_text("TuningParameters:\n   MonitorPublishHeartBeat=1\n")
        add_user(home, QM, APP)
        add_user(home, QM, WATCHER)
        assert run_cli("strmqm", QM).returncode == 0
        grant_app(home, QM)
        script = ("DEFINE QLOCAL(MON.Q1)\nDEFINE QLOCAL(MON.Q2)\nDEFINE TOPIC(WATCH.TOPIC) TOPICSTR('watch')\n"
                  f"SET AUTHREC OBJTYPE(QMGR) GROUP('{WATCHER.groups}') AUTHADD(CONNECT, INQ)\n"
                  f"SET AUTHREC PROFILE(WATCH.TOPIC) OBJTYPE(TOPIC) GROUP('{WATCHER.groups}') AUTHADD(SUB)\n")
        result = run_cli("runmqsc", QM, input=script)
        assert result.returncode == 0, result.stdout
        yield QMgr(QM, home), run_cli
    finally:
        reap(home)
        if before is None:
            os.environ.pop("MQLITE_HOME", None)
        else:
            os.environ["MQLITE_HOME"] = before


def _body(message: Any) -> pcf.PcfMessage:
    return pcf.decode(bytes(message))


def test_metadata_classes_is_retained(monitored: tuple[QMgr, Any]) -> None:
    qmgr, _ = monitored
    with mqlite.connect(qmgr.name) as qm:
        sub = mqlite.Subscription(qm, ROOT + "METADATA/CLASSES")
        classes = R.read_classes(_body(sub.get(wait=60)))
        assert [c.name for c in classes] == ["CPU", "DISK", "STATMQI", "STATQ"]
        types_sub = mqlite.Subscription(qm, classes[3].topic)
        types = R.read_types(_body(types_sub.get(wait=60)))
        assert [t.name for t in types] == ["OPENCLOSE", "INQSET", "PUT", "GET", "GENERAL"]
        elements_sub = mqlite.Subscription(qm, types[2].topic)
        R.read_elements(_body(elements_sub.get(wait=60)), types[2])
        assert types[2].data_topic == ROOT + "STATQ/%s/PUT"
        assert types[2].elements[0].description == "MQPUT/MQPUT1 count"


def _publications(sub: Any, wait: float = 0.0) -> list[R.Data]:
    out = []
    while True:
        try:
            out.append(R.read_data(_body(sub.get(wait=wait))))
        except mqlite.MQMIError as error:
            assert error.reason == C.MQRC_NO_MSG_AVAILABLE
            return out


def test_statq_put_count_and_nothing_for_an_unsubscribed_queue(monitored: tuple[QMgr, Any]) -> None:
    qmgr, run_cli = monitored
    n = 7
    with mqlite.connect(qmgr.name) as qm:
        everything = mqlite.Subscription(qm, "#")  # a wildcard in the first level: no publications for it
        sub = mqlite.Subscription(qm, ROOT + "STATQ/MON.Q1/PUT")
        first = R.read_data(_body(sub.get(wait=60)))  # the queue is counted from here on
        assert (first.class_id, first.type_id, first.obj) == (3, 2, "MON.Q1")
        q1, q2 = mqlite.Queue(qm, "MON.Q1"), mqlite.Queue(qm, "MON.Q2")
        for _ in range(n):
            q1.put(b"x" * 10)
            q2.put(b"y")
        seen: list[R.Data] = []

        def counted() -> bool:
            seen.extend(_publications(sub))
            return sum(d.values[0] for d in seen) >= n

        wait_until(counted, f"STATQ/MON.Q1/PUT publications count {n} puts")
        assert sum(d.values[0] for d in seen) == n and sum(d.values[1] for d in seen) == 10 * n
        assert all(d.interval_us > 0 and d.obj == "MON.Q1" for d in seen)
        everything.close(close_sub_queue=True)
    # Only topics subscribed to under $SYS are published: MON.Q1's STATQ node is there, never MON.Q2's.
    shown = run_cli("runmqsc", qmgr.name, input=f"DISPLAY TPSTATUS('{ROOT}STATQ/#')\n").stdout
    assert "STATQ/MON.Q1/PUT" in shown and "MON.Q2" not in shown


def test_statq_openclose_inqset_and_failed_gets(monitored: tuple[QMgr, Any]) -> None:
    """STATQ OPENCLOSE and INQSET count a queue's MQOPEN, MQCLOSE, MQINQ and MQSET (an MQPUT1's
    own open and close not among them); STATQ GET its failures with 2033 apart."""
    qmgr, run_cli = monitored
    assert run_cli("runmqsc", qmgr.name, input="DEFINE QLOCAL(MON.Q3)\n").returncode == 0
    with mqlite.connect(qmgr.name) as qm:
        subs = {name: mqlite.Subscription(qm, ROOT + f"STATQ/MON.Q3/{name}") for name in ("OPENCLOSE", "INQSET", "GET")}
        for sub in subs.values():
            sub.get(wait=60)  # the queue is counted from its first publication on
        options = C.MQOO_INQUIRE | C.MQOO_SET | C.MQOO_INPUT_AS_Q_DEF
        for _ in range(2):
            q = mqlite.Queue(qm, "MON.Q3", options)
            assert q.inquire(C.MQIA_CURRENT_Q_DEPTH) == 0
            q.set(C.MQIA_INHIBIT_PUT, C.MQQA_PUT_ALLOWED)
            with pytest.raises(mqlite.MQMIError) as failed:
                q.get()
            assert failed.value.reason == C.MQRC_NO_MSG_AVAILABLE
            q.close()
        qm.put1("MON.Q3", b"x")
        totals: dict[str, dict[int, int]] = {name: {} for name in subs}

        def counted() -> bool:
            for name, sub in subs.items():
                for data in _publications(sub):
                    for element, value in data.values.items():
                        totals[name][element] = totals[name].get(element, 0) + value
            return (totals["OPENCLOSE"].get(1, 0) >= 2 and totals["INQSET"].get(1, 0) >= 2
                    and totals["GET"].get(11, 0) >= 2)

        wait_until(counted, "STATQ OPENCLOSE, INQSET and GET count MON.Q3's calls")
        assert totals["OPENCLOSE"] == {0: 2, 1: 2} and totals["INQSET"] == {0: 2, 1: 2}
        assert totals["GET"][10] == 2 and totals["GET"][11] == 2 and totals["GET"][12] == 0


def test_cpu_system_summary_arrives(monitored: tuple[QMgr, Any]) -> None:
    qmgr, _ = monitored
    with mqlite.connect(qmgr.name) as qm:
        sub = mqlite.Subscription(qm, ROOT + "CPU/SystemSummary")
        data = R.read_data(_body(sub.get(wait=60)))
        assert (data.class_id, data.type_id, data.qmgr) == (0, 0, QM)
        assert set(data.values) == {0, 1, 2, 3, 4, 5, 6} and data.values[6] > 0  # RAM total, MB
        disk = mqlite.Subscription(qm, ROOT + "DISK/QMgrSummary")
        assert R.read_data(_body(disk.get(wait=60))).values[0] > 0  # the file system's bytes in use, MB


def test_sys_topics_need_authority(monitored: tuple[QMgr, Any]) -> None:
    qmgr, run_cli = monitored
    with mqlite.connect(qmgr.name, host="127.0.0.1", port=qmgr.port, **WATCHER.kwargs) as qm:
        mqlite.Subscription(qm, "watch/prices").close()  # its own topic: allowed
        with pytest.raises(mqlite.MQMIError) as refused:
            mqlite.Subscription(qm, ROOT + "CPU/SystemSummary")
        assert refused.value.reason == C.MQRC_NOT_AUTHORIZED
    # IBM's rule: authority at or below SYSTEM.ADMIN.TOPIC ($SYS/MQ); APP's sub on SYSTEM.BASE.TOPIC is not
    with mqlite.connect(qmgr.name, host="127.0.0.1", port=qmgr.port, **APP.kwargs) as qm:
        mqlite.Subscription(qm, "watch/prices").close()
        with pytest.raises(mqlite.MQMIError) as refused:
            mqlite.Subscription(qm, ROOT + "METADATA/CLASSES")
        assert refused.value.reason == C.MQRC_NOT_AUTHORIZED
    shown = run_cli("runmqsc", qmgr.name, input="DISPLAY TOPIC(SYSTEM.ADMIN.TOPIC) TOPICSTR WILDCARD\n").stdout
    assert "TOPICSTR($SYS/MQ)" in shown and "WILDCARD(BLOCK)" in shown, shown


def test_amqsrua(monitored: tuple[QMgr, Any]) -> None:
    qmgr, run_cli = monitored
    listed = run_cli("amqsrua", "-m", qmgr.name, input="")
    assert listed.returncode == 0, listed.stderr
    assert "STATQ : API per-queue usage statistics" in listed.stdout and "Enter Class selection" in listed.stdout
    printed = run_cli("amqsrua", "-m", qmgr.name, "-c", "STATQ", "-t", "PUT", "-o", "MON.Q1", "-n", "1")
    assert printed.returncode == 0, printed.stderr
    lines = printed.stdout.splitlines()
    assert lines[0].startswith("Publication received PutDate:") and "Interval:" in lines[0]
    assert any(line.startswith("MON.Q1") and "MQPUT/MQPUT1 count" in line for line in lines)
