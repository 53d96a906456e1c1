"""A deep persistent queue (slow: `pytest -m slow`): bounded memory, a fast restart, every message
back in order. make test runs a 20,000-message version; the slow one queues 300,000."""

from __future__ import annotations

from pathlib import Path

import pytest

import mqlite
from helpers import qmgr_process
from mqlite import cmqc as C

QM = "DEEP.QM"


def fill_restart_drain(home: Path, count: int, size: int) -> tuple[float, float]:
    """Queue ``count`` persistent messages, restart, drain in order; (RSS full, RSS restarted)."""
    qmgr_process.create(QM)
    proc = qmgr_process.start(QM, home)
    try:
        qm = mqlite.connect(QM)
        assert qm.mqsc("DEFINE QLOCAL(DEEP.Q) MAXDEPTH(999999999) DEFPSIST(YES)\n")[0] == 0
        q = mqlite.Queue(qm, "DEEP.Q", C.MQOO_OUTPUT)
        pad = b"." * size
        for i in range(count):
            q.put(b"%09d" % i + pad, asynchronous=True)
        q.put(b"end", persistent=True)  # returns once everything before it is durable
        qm.disconnect()
        full = qmgr_process.rss_mb(proc.pid)
        qmgr_process.stop(proc)
        proc = qmgr_process.start(QM, home)
        restarted = qmgr_process.rss_mb(proc.pid)
        qm = mqlite.connect(QM)
        q = mqlite.Queue(qm, "DEEP.Q", C.MQOO_INPUT_EXCLUSIVE)
        for i in range(count):
            body = bytes(q.get(wait=5.0, syncpoint=True))
            assert body[:9] == b"%09d" % i
            if i % 1000 == 999:
                qm.commit()
        assert bytes(q.get(wait=5.0)) == b"end"
        qm.commit()
        qm.disconnect()
        return full, restarted
    finally:
        qmgr_process.stop(proc)


def test_deep_queue_survives_restart_in_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MQLITE_HOME", str(tmp_path))
    fill_restart_drain(tmp_path, 20_000, 1000)


@pytest.mark.slow
def test_300k_persistent_messages_bounded_memory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MQLITE_HOME", str(tmp_path))
    full, restarted = fill_restart_drain(tmp_path, 300_000, 1000)
    # bodies beyond the resident budget live on disk: about 100 bytes of index per message
    assert full < 200, f"RSS {full:.0f} MB with 300,000 queued messages"
    assert restarted < 150, f"RSS {restarted:.0f} MB after recovering 300,000 messages"
