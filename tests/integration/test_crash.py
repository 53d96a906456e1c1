"""kill -9 during a concurrent persistent put/get load: no committed message lost, none twice.

The queue manager process is killed several times in the middle of a load of 3 producers
(puts outside syncpoint and batches under syncpoint) and 2 consumers (gets under syncpoint).
After each restart the queue is drained and the books are balanced:
- every put the queue manager acknowledged is either consumed (committed, or in a commit that
  may have landed when the crash hit) or still on the queue: nothing lost;
- nothing a consumer saw committed comes back, and nothing is on the queue twice: none twice.
"""

from __future__ import annotations

import functools
import os
import signal
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

import mqlite
from helpers import qmgr_process
from helpers.waiting import wait_until
from mqlite import cmqc as C

WORKER = str(Path(__file__).with_name("crash_worker.py"))
QM = "CRASH.QM"
QUEUE = "CRASH.Q"


def read_log(path: Path) -> list[str]:
    return path.read_text().splitlines() if path.exists() else []


def balance_consumer_log(lines: list[str]) -> tuple[list[str], list[str]]:
    """(committed bodies, bodies of the last batch whose commit may or may not have landed)."""
    committed: list[str] = []
    batch: list[str] = []
    for line in lines:
        if line == "COMMIT":
            committed += batch
            batch = []
        elif line.startswith("GOT "):
            batch.append(line[4:])
    return committed, batch


def drain(qmgr: str) -> list[str]:
    qm = mqlite.connect(qmgr)
    q = mqlite.Queue(qm, QUEUE, C.MQOO_INPUT_SHARED)
    bodies = []
    while True:
        try:
            bodies.append(q.get(None, mqlite.MD(), mqlite.GMO(Options=C.MQGMO_NO_WAIT)).decode())
        except mqlite.MQMIError as error:
            assert error.reason == C.MQRC_NO_MSG_AVAILABLE
            break
    q.close()
    qm.disconnect()
    return bodies


def loaded(logs: Path, acks: int, commits: int) -> bool:
    """Each producer has ``acks`` puts acknowledged and each consumer ``commits`` commits."""
    return (all(len(read_log(logs / f"producer{i}.log")) >= acks for i in range(3))
            and all(read_log(logs / f"consumer{i}.log").count("COMMIT") >= commits for i in range(2)))


@pytest.mark.parametrize("rounds", [3])
def test_kill_9_loses_and_duplicates_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, rounds: int) -> None:
    monkeypatch.setenv("MQLITE_HOME", str(tmp_path))
    qmgr_process.create(QM)
    proc = qmgr_process.start(QM, tmp_path)
    try:
        qm = mqlite.connect(QM)
        code, lines = qm.mqsc(f"DEFINE QLOCAL({QUEUE}) MAXDEPTH(1000000)\n")
        assert code == 0, lines
        qm.disconnect()
        all_consumed: Counter[str] = Counter()
        for round_no in range(rounds):
            logs = tmp_path / f"round{round_no}"
            logs.mkdir()
            workers = [
                subprocess.Popen([sys.executable, WORKER, "produce", QM, QUEUE, f"r{round_no}p{i}",
                                  str(logs / f"producer{i}.log")]) for i in range(3)
            ] + [
                subprocess.Popen([sys.executable, WORKER, "consume", QM, QUEUE, str(logs / f"consumer{i}.log")])
                for i in range(2)
            ]
            # Pull the plug once the load is running, a little later each round: every producer
            # past its first batch under syncpoint, every consumer past some commits.
            wait_until(functools.partial(loaded, logs, 200 + 150 * round_no, 5 + 5 * round_no),
                       f"round {round_no}'s producers and consumers have done their share", timeout=120)
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
            for worker in workers:
                try:
                    worker.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    worker.kill()
                    worker.wait()
            acked = {line[4:] for i in range(3) for line in read_log(logs / f"producer{i}.log")}
            committed: list[str] = []
            maybe: list[str] = []
            for i in range(2):
                done, pending = balance_consumer_log(read_log(logs / f"consumer{i}.log"))
                committed += done
                maybe += pending
            proc = qmgr_process.start(QM, tmp_path)
            remaining = drain(QM)
            assert acked, "the load did not run long enough to acknowledge a put"
            assert committed, "the consumers committed nothing before the crash"
            # none twice
            on_queue = Counter(remaining)
            assert [b for b, n in on_queue.items() if n > 1] == []
            assert set(committed) & set(remaining) == set()
            all_consumed.update(committed)
            assert [b for b, n in all_consumed.items() if n > 1] == []
            # nothing lost
            lost = acked - set(committed) - set(maybe) - set(remaining)
            assert lost == set(), f"{len(lost)} acknowledged messages lost, e.g. {sorted(lost)[:5]}"
    finally:
        qmgr_process.stop(proc)
