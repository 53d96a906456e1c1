"""bench/peers.py's pure parts: the strace summary it counts fsyncs from, and the rounds' summary
(medians, and the median of the rounds' ratios mqlite/peer, a failed round left out)."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType


def _load() -> ModuleType:
    """bench/peers.py, with the session's import path as it was afterwards (peers puts bench/ first)."""
    saved = list(sys.path)
    sys.path.append(str(Path(__file__).resolve().parents[2] / "bench"))
    try:
        return importlib.import_module("peers")
    finally:
        sys.path[:] = saved


peers = _load()

SUMMARY = """\
% time     seconds  usecs/call     calls    errors syscall
------ ----------- ----------- --------- --------- ----------------
 97.10    1.234567         411      3003           fsync
  2.90    0.036912          12        10         2 fdatasync
------ ----------- ----------- --------- --------- ----------------
100.00    1.271479         423      3013         2 total
"""


def test_strace_counts_reads_the_calls_column() -> None:
    assert peers.strace_counts(SUMMARY) == {"fsync": 3003, "fdatasync": 10}


def test_strace_counts_of_a_server_that_never_syncs_is_empty() -> None:
    empty = SUMMARY.splitlines()[0] + "\n------\n100.00 0.000000 0 0 total\n"
    assert peers.strace_counts(empty) == {}


def test_summarise_takes_medians_and_the_median_of_the_rounds_ratios() -> None:
    out = peers.summarise({"mqlite": [100.0, 300.0, 200.0], "nats": [25.0, 100.0, 400.0]})
    assert out["mqlite"] == {"median": 200, "rounds": [100, 300, 200]}
    assert out["nats"]["median"] == 100
    assert out["mqlite_over_nats"] == 3.0  # the rounds' ratios 4, 3, 0.5; the medians' would be 2


def test_summarise_leaves_a_failed_round_out() -> None:
    out = peers.summarise({"mqlite": [100.0, 120.0], "rabbitmq": [None, 60.0]})
    assert out["rabbitmq"] == {"median": 60, "rounds": [None, 60]}
    assert out["mqlite_over_rabbitmq"] == 2.0
