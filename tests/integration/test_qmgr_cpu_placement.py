"""A standalone queue manager keeps all its threads on one CPU (server/cpu_placement.py), and
leaves placement to the kernel when told so or when only one CPU is allowed."""

from __future__ import annotations

import os
from pathlib import Path

from helpers.mqsc import RunCli
from helpers.qmgrs import server_pids
from helpers.waiting import wait_until


def thread_cpus(pid: int) -> set[frozenset[int]]:
    """The CPU set each thread of ``pid`` may run on (one entry per distinct set)."""
    sets: set[frozenset[int]] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        sets.add(frozenset(os.sched_getaffinity(int(task.name))))
    return sets


def start(home: Path, run_cli: RunCli, name: str, env: dict[str, str] | None = None) -> int:
    assert run_cli("crtmqm", name).returncode == 0
    started = run_cli("strmqm", name, env=env)
    assert started.returncode == 0, started.stdout + started.stderr
    return server_pids(home)[name]


def test_every_thread_on_one_allowed_cpu(mqlite_home: Path, run_cli: RunCli) -> None:
    allowed = os.sched_getaffinity(0)
    pid = start(mqlite_home, run_cli, "QMPLACE")
    log = mqlite_home / "qmgrs" / "QMPLACE" / "AMQERR01.LOG"
    try:
        if len(allowed) > 1:  # strmqm returns once it listens, a moment before the placement
            wait_until(lambda: "runs on CPU" in log.read_text(), "the placement's log line")
        sets = thread_cpus(pid)
        assert len(sets) == 1, sets  # the event loop and the store's writer together
        (cpus,) = sets
        assert cpus <= allowed
        assert len(cpus) == 1 if len(allowed) > 1 else cpus == allowed
        if len(allowed) > 1:
            assert f"runs on CPU {next(iter(cpus))}" in log.read_text()
    finally:
        run_cli("endmqm", "-i", "QMPLACE")


def test_placement_off_leaves_the_kernel_every_allowed_cpu(mqlite_home: Path, run_cli: RunCli) -> None:
    allowed = os.sched_getaffinity(0)
    pid = start(mqlite_home, run_cli, "QMFREE", env={"MQLITE_CPU_PLACEMENT": "off"})
    try:
        assert thread_cpus(pid) == {frozenset(allowed)}
    finally:
        run_cli("endmqm", "-i", "QMFREE")
