"""Stream offsets (a queue's sequence numbers) only grow across a restart of the queue manager.

A stream reader (the Spark source) learns the newest sequence number (OFFSETS), browses a range
(BROWSE_RANGE) and, once its consumer committed it, removes everything through its end
(REMOVE_THROUGH); its checkpoint keeps that end. The queue manager must never hand that number
or a lower one out again, even when the last messages were non-persistent (never stored) and
are gone after the restart: a new message with a number at or below the committed offset would
be skipped by the reader, and removed by its next REMOVE_THROUGH, without anyone noticing.
"""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

import pytest

import mqlite
from helpers import qmgr_process
from mqlite import cmqc as C

QM = "OFFSETS.QM"
QUEUE = "STREAM.Q"


def put(qm: mqlite.QueueManager, body: str, persistence: int) -> None:
    q = mqlite.Queue(qm, QUEUE, C.MQOO_OUTPUT)
    q.put(body.encode(), mqlite.MD(Persistence=persistence))
    q.close()


def restart(proc: subprocess.Popen[bytes], ending: str, home: Path) -> subprocess.Popen[bytes]:
    if ending == "endmqm":
        qmgr_process.stop(proc)  # SIGTERM: the controlled end endmqm asks for
    else:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    return qmgr_process.start(QM, home)


@pytest.mark.parametrize("ending", ["endmqm", "kill -9"])
@pytest.mark.parametrize("new_persistence", [C.MQPER_NOT_PERSISTENT, C.MQPER_PERSISTENT],
                         ids=["new-nonpersistent", "new-persistent"])
def test_a_committed_offset_stays_behind_every_new_message(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ending: str, new_persistence: int) -> None:
    monkeypatch.setenv("MQLITE_HOME", str(tmp_path))
    qmgr_process.create(QM)
    proc = qmgr_process.start(QM, tmp_path)
    try:
        qm = mqlite.connect(QM)
        code, lines = qm.mqsc(f"DEFINE QLOCAL({QUEUE})\n")
        assert code == 0, lines
        for i in range(3):
            put(qm, f"p{i}", C.MQPER_PERSISTENT)
        for i in range(3):
            put(qm, f"n{i}", C.MQPER_NOT_PERSISTENT)
        # One micro-batch of a stream reader: the newest offset, the range read, then committed.
        oldest, newest = qm.queue_offsets(QUEUE)
        assert (oldest, newest) == (0, 6)
        seen = qm.browse_range(QUEUE, oldest, newest)
        assert [m.body for _, m in seen] == [b"p0", b"p1", b"p2", b"n0", b"n1", b"n2"]
        handed_out = max(seq for seq, _ in seen)
        assert qm.remove_through(QUEUE, newest) == 6
        committed = newest
        qm.disconnect()

        proc = restart(proc, ending, tmp_path)

        qm = mqlite.connect(QM)
        put(qm, "after restart", new_persistence)
        _, newest = qm.queue_offsets(QUEUE)
        after = qm.browse_range(QUEUE, committed, newest)
        assert [m.body for _, m in after] == [b"after restart"], (
            f"the message put after the restart is not after the committed offset {committed} "
            f"(newest is now {newest})")
        [(seq, _)] = after
        assert seq > handed_out
        assert qm.remove_through(QUEUE, committed) == 0  # the reader's commit again takes nothing new
        qm.disconnect()
    finally:
        qmgr_process.stop(proc)
