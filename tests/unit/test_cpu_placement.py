"""The queue manager's CPU placement decision (server/cpu_placement.py): pure functions."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from mqlite.server.cpu_placement import MARGIN, busy_fractions, choose, neighbours_in, parse_cpu_times

STAT = """cpu  300 0 100 600 0 0 0 0 0 0
cpu0 250 0 50 200 0 0 0 0 0 0
cpu1 50 0 50 400 0 0 0 0 0 0
intr 12345
"""


def test_at_start_the_cpu_others_use_least() -> None:
    assert choose([0, 1, 2], {0: 0.9, 1: 0.2, 2: 0.5}, None, 0.0) == 1


def test_at_start_ties_go_where_the_kernel_put_us_then_to_the_lowest() -> None:
    assert choose([0, 1], {0: 0.0, 1: 0.0}, None, 0.0, prefer=1) == 1
    assert choose([0, 1], {0: 0.0, 1: 0.0}, None, 0.0) == 0


def test_at_start_fewest_other_queue_managers_first() -> None:
    assert choose([0, 1], {0: 0.0, 1: 0.5}, None, 0.0, prefer=0, neighbours={0: 2, 1: 1}) == 1


def test_a_saturated_cpu_is_left_for_one_with_room() -> None:
    # Two busy queue managers share CPU 0 (each 0.5 of it); CPU 1 has room for one of them.
    assert choose([0, 1], {0: 1.0, 1: 0.3}, 0, own=0.5) == 1


def test_a_saturated_cpu_is_kept_when_the_other_has_no_room() -> None:
    # The queue manager uses 0.65 of its CPU, its clients the rest of both: moving would not help.
    assert choose([0, 1], {0: 0.95, 1: 0.55}, 0, own=0.65) is None


def test_its_own_use_does_not_count_against_its_cpu() -> None:
    # CPU 0 is busy with this queue manager alone: nobody else there, so it stays.
    assert choose([0, 1], {0: 0.95, 1: 0.4}, 0, own=0.9) is None


def test_moves_when_others_crowd_its_cpu_by_more_than_the_margin() -> None:
    assert choose([0, 1], {0: 1.0, 1: 0.1}, 0, own=0.3) == 1


def test_stays_within_the_margin() -> None:
    # Others use 0.35 of CPU 0 and 0.1 of CPU 1: a difference below MARGIN is no reason to move.
    assert MARGIN > 0.35 - 0.1
    assert choose([0, 1], {0: 0.65, 1: 0.1}, 0, own=0.3) is None


def test_a_cpu_no_longer_allowed_is_left() -> None:
    assert choose([1, 2], {0: 0.0, 1: 0.5, 2: 0.1}, 0, own=0.2) == 2


def test_nothing_allowed_nothing_chosen() -> None:
    assert choose([], {0: 0.0}, None, 0.0) is None


def test_proc_stat_per_cpu_lines_busy_is_all_but_idle_and_iowait() -> None:
    times = parse_cpu_times(STAT)
    assert times == {0: (300, 500), 1: (100, 500)}


def test_busy_fractions_between_two_samples() -> None:
    before = {0: (300, 500), 1: (100, 500)}
    after = {0: (390, 600), 1: (110, 600)}
    assert busy_fractions(before, after) == {0: 0.9, 1: 0.1}
    assert busy_fractions(after, after) == {0: 0.0, 1: 0.0}


def test_neighbours_are_the_running_queue_managers_pinned_to_one_cpu(tmp_path: Path) -> None:
    cpu = min(os.sched_getaffinity(0))
    pinned = subprocess.Popen(["sleep", "30"], preexec_fn=lambda: os.sched_setaffinity(0, {cpu}))
    try:
        for name, text in (("PINNED", str(pinned.pid)), ("SELF", str(os.getpid())), ("GONE", "999999999"),
                           ("GARBAGE", "not a pid")):
            (tmp_path / name).mkdir()
            (tmp_path / name / "qmgr.pid").write_text(text)
        assert neighbours_in(tmp_path, own_pid=os.getpid()) == {cpu: 1}
    finally:
        pinned.kill()
        pinned.wait()
