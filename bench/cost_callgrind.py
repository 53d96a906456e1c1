"""Callgrind's output files read for bench/cost.py: totals and per-function costs.

The format (valgrind's "Callgrind Format Specification"): ``fn=(id) name`` starts a function's
block (the name is given the first time an id appears, compressed afterwards); a line of numbers
(position, then the Ir cost) is the function's own cost; ``calls=COUNT TARGET`` followed by one
such line is a call, its cost the callee's inclusive cost. Exclusive = the function's own lines;
inclusive = exclusive + its calls (a recursive function, the interpreter loop above all, counts
its nested calls again, as ``callgrind_annotate --inclusive=yes`` does).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

VALGRIND = ["valgrind", "--tool=callgrind", "--trace-children=no", "--collect-systime=no",
            "--cache-sim=no", "--branch-sim=no"]
_NAMED = re.compile(r"\((\d+)\)(?: (.*))?$")
_LEVEL = re.compile(r"'\d+$")  # callgrind's recursion levels (--separate-recs): fn'2 is fn


@dataclass
class Profile:
    """One callgrind file (or a merge of several): the total and, per function, [exclusive, inclusive]."""

    total: int = 0
    functions: dict[str, list[int]] = field(default_factory=dict)


def thread_files(out: Path) -> list[Path]:
    """The files of one run: ``out`` itself, or ``out-01``, ``out-02``... with
    ``--separate-threads=yes`` (thread 1, the main thread, first)."""
    found = sorted(out.parent.glob(out.name + "-*"), key=lambda p: int(p.name.rsplit("-", 1)[1]))
    return found or [out]


def total_ir(out: Path) -> int:
    """The summed Ir of one run's files (the older benches' single number)."""
    return sum(parse(path).total for path in thread_files(out))


def parse(path: Path) -> Profile:
    profile = Profile()
    names: dict[str, str] = {}
    current: list[int] | None = None
    caller = ""
    objects: dict[str, str] = {}
    obj = ""
    in_call = False
    self_call = False
    functions = profile.functions
    with path.open(errors="replace") as lines:
        for line in lines:
            first = line[:1]
            if first.isdigit() or first in "+-*":
                if current is None:
                    continue
                parts = line.split()
                cost = int(parts[1]) if len(parts) > 1 else 0
                if in_call:
                    if not self_call:  # a direct recursion is inside the caller's cost already
                        current[1] += cost
                    in_call = False
                else:
                    current[0] += cost
                    current[1] += cost
            elif line.startswith("fn="):
                caller = _LEVEL.sub("", _name(line[3:].rstrip("\n"), names))
                if caller.startswith("0x"):  # no symbol: say which object it is in
                    caller = f"{caller} ({obj})"
                current = functions.setdefault(caller, [0, 0])
            elif line.startswith("ob="):
                obj = Path(_name(line[3:].rstrip("\n"), objects)).name
            elif line.startswith("cob="):
                _name(line[4:].rstrip("\n"), objects)
            elif line.startswith("calls="):
                in_call = True
            elif line.startswith("cfn="):
                self_call = _LEVEL.sub("", _name(line[4:].rstrip("\n"), names)) == caller
            elif line.startswith(("summary:", "totals:")):
                profile.total = max(profile.total, int(line.split()[1]))
    if not profile.total:
        profile.total = sum(costs[0] for costs in functions.values())
    return profile


def _name(text: str, names: dict[str, str]) -> str:
    match = _NAMED.match(text)
    if not match:
        return text
    ident, name = match.groups()
    if name is not None:
        names[ident] = name
        return name
    return names.get(ident, f"({ident})")


def merge(profiles: list[Profile]) -> Profile:
    """The threads of one process as one profile."""
    merged = Profile(sum(p.total for p in profiles))
    for profile in profiles:
        for name, (excl, incl) in profile.functions.items():
            costs = merged.functions.setdefault(name, [0, 0])
            costs[0] += excl
            costs[1] += incl
    return merged


def difference(large: Profile, small: Profile, span: int) -> list[tuple[str, float, float]]:
    """Per function (large - small) / span: (name, exclusive, inclusive), dearest exclusive first."""
    rows = []
    for name, (excl, incl) in large.functions.items():
        base = small.functions.get(name, [0, 0])
        rows.append((name, (excl - base[0]) / span, (incl - base[1]) / span))
    rows.sort(key=lambda row: -row[1])
    return rows
