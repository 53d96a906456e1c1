"""bench/cost_callgrind.py reads callgrind's out format (issue 34's per-function tables): names
compressed after their first use, recursion levels merged, calls' costs inclusive only."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import cost_callgrind as cg

OUT = """# callgrind format
version: 1
creator: callgrind-3.19.0
events: Ir
ob=(1) /usr/bin/python3.11
fl=(1) ceval.c
fn=(1) eval
10 100
cfn=(2) pack
calls=2 20
11 50
cfn=(3) eval'2
calls=1 10
12 30
fn=(3)
10 30
fn=(2)
20 50
ob=(2) /usr/lib/libsqlite3.so
fn=(4) 0x00000000000ff650
+1 7
summary: 187
"""


def test_exclusive_inclusive_and_levels(tmp_path: Path) -> None:
    path = tmp_path / "callgrind.out"
    path.write_text(OUT)
    profile = cg.parse(path)
    assert profile.total == 187
    assert profile.functions["eval"] == [130, 180]  # eval'2 merged; its call from eval not counted twice
    assert profile.functions["pack"] == [50, 50]
    assert profile.functions["0x00000000000ff650 (libsqlite3.so)"] == [7, 7]


def test_difference_per_message(tmp_path: Path) -> None:
    large, small = cg.Profile(0, {"eval": [3000, 5000], "pack": [500, 500]}), cg.Profile(0, {"eval": [1000, 1000]})
    assert cg.difference(large, small, 1000) == [("eval", 2.0, 4.0), ("pack", 0.5, 0.5)]


def test_thread_files_in_thread_order(tmp_path: Path) -> None:
    out = tmp_path / "callgrind.out"
    for n in ("10", "02", "01"):
        (tmp_path / f"callgrind.out-{n}").write_text("summary: 1\n")
    assert [p.name for p in cg.thread_files(out)] == ["callgrind.out-01", "callgrind.out-02", "callgrind.out-10"]
