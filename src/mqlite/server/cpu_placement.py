"""Keep a queue manager's threads together on one CPU, and move them when another is idler.

Why: a queue manager is one CPython interpreter. Its event loop and its store's writer thread
share one GIL, so only one of them runs Python at a time, and every persistent round hands the
GIL and its data from one to the other several times. Left to the kernel, the two land on
different CPUs: each hand-off then wakes the other CPU (on a virtual machine, an interrupt to a
vCPU that may be halted) and finds its caches cold. Kept on one CPU, 8 synchronous producers'
persistent puts went from 4,712-5,759 to 5,383-6,654 a second on the 2-vCPU VM
(docs/PERFORMANCE.md, "Fifth sitting"), and nothing measured got slower.

What the kernel no longer does for a pinned process, this does, coarsely (``choose``). At
start it takes the CPU with the fewest other queue managers of the installation, so that
queue managers started together spread. Every few seconds it looks at how busy each allowed CPU
was and moves the whole process when its CPU is saturated and another has room for it, or when
others crowd its CPU clearly more than another. A move needs two such choices in a row and is
followed by a quiet spell, so two queue managers do not chase each other from CPU to CPU.

Only the standalone queue manager process places itself (an embedded queue manager lives in its
application's process, which is not ours to pin). ``MQLITE_CPU_PLACEMENT=off`` leaves placement
to the kernel; started under ``taskset -c LIST``, it chooses among those CPUs only.
"""

from __future__ import annotations

import logging
import os
import random
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

log = logging.getLogger(__name__)

MARGIN = 0.30  # a move for fairness must find a CPU at least this much (of one CPU) less used by others
SATURATED = 0.90  # a CPU this busy has no room left: a queue manager on it waits for its turns
ROOM = 0.90  # ... and one moves off it to a CPU that would be no busier than this with it
SPREAD_AT = 0.85  # a queue manager using this much of its CPU lets its store's writer use the others
EVERY_SECONDS = 3.0  # how often the choice is made again
QUIET_SECONDS = 10.0  # no second move this soon after one

CpuTimes = dict[int, tuple[int, int]]  # cpu -> (busy jiffies, total jiffies)


def choose(allowed: Sequence[int], busy: Mapping[int, float], current: int | None, own: float,
           prefer: int | None = None, neighbours: Mapping[int, int] | None = None,
           margin: float = MARGIN) -> int | None:
    """The CPU to move to, or None to stay.

    ``busy``: each CPU's busy fraction over the last interval (0 to 1); ``own``: how much of one
    CPU this process used then (it is part of ``busy[current]``).

    At start (no ``current``): the CPU with the fewest ``neighbours`` (other queue managers of
    this installation placed there), then the one others use least, then ``prefer`` (where the
    kernel put us), then the lowest number. Later it moves when its CPU is saturated and another
    has room for it, or when others crowd its CPU by more than ``margin`` over another's.
    """
    if not allowed:
        return None
    placed = neighbours or {}

    def others(cpu: int) -> float:
        used = busy.get(cpu, 0.0)
        return max(used - own, 0.0) if cpu == current else used

    if current is None or current not in allowed:
        return min(allowed, key=lambda cpu: (placed.get(cpu, 0), round(others(cpu), 2), cpu != prefer, cpu))
    best = min((cpu for cpu in allowed if cpu != current), key=lambda cpu: (round(others(cpu), 2), cpu), default=None)
    if best is None:
        return None
    saturated = busy.get(current, 0.0) >= SATURATED and others(best) + own <= ROOM
    crowded = others(current) - others(best) > margin
    return best if saturated or crowded else None


def busy_fractions(before: CpuTimes, after: CpuTimes) -> dict[int, float]:
    """Each CPU's busy fraction between two ``read_cpu_times`` samples."""
    fractions: dict[int, float] = {}
    for cpu, (busy1, total1) in after.items():
        busy0, total0 = before.get(cpu, (busy1, total1))
        elapsed = total1 - total0
        fractions[cpu] = (busy1 - busy0) / elapsed if elapsed > 0 else 0.0
    return fractions


def parse_cpu_times(text: str) -> CpuTimes:
    """The per-CPU lines of ``/proc/stat``: busy is everything but idle and iowait."""
    times: CpuTimes = {}
    for line in text.splitlines():
        if not line.startswith("cpu") or line.startswith("cpu "):
            continue
        name, *fields = line.split()
        values = [int(field) for field in fields[:8]]  # user nice system idle iowait irq softirq steal
        idle = values[3] + values[4]
        total = sum(values)
        times[int(name[3:])] = (total - idle, total)
    return times


def read_cpu_times() -> CpuTimes:
    return parse_cpu_times(Path("/proc/stat").read_text())


def cpu_now() -> int | None:
    """The CPU the calling thread runs on (field 39 of ``/proc/thread-self/stat``)."""
    try:
        return int(Path("/proc/thread-self/stat").read_text().rsplit(")", 1)[1].split()[36])
    except (OSError, IndexError, ValueError):
        return None


def own_cpu_seconds() -> float:
    usage = os.times()
    return usage.user + usage.system


def neighbours_in(qmgrs: Path, own_pid: int) -> dict[int, int]:
    """How many other running queue managers under ``qmgrs`` are placed on each CPU (read from
    their pid files and their threads' allowed CPUs): queue managers of one installation started
    together spread over the CPUs instead of trusting where the kernel happened to start them."""
    placed: dict[int, int] = {}
    for pid_file in qmgrs.glob("*/qmgr.pid"):
        try:
            pid = int(pid_file.read_text().split()[0])
            if pid == own_pid:
                continue
            cpus = os.sched_getaffinity(pid)
        except (OSError, ValueError, IndexError):  # gone, or not a queue manager of ours
            continue
        if len(cpus) == 1:
            (cpu,) = cpus
            placed[cpu] = placed.get(cpu, 0) + 1
    return placed


class CpuPlacement:
    """Pins every thread of this process to one CPU and re-chooses it from ``tick``."""

    def __init__(self, allowed: Sequence[int], clock: Callable[[], float],
                 neighbours: Callable[[], Mapping[int, int]] = dict,
                 every: float = EVERY_SECONDS, quiet: float = QUIET_SECONDS) -> None:
        self.allowed = sorted(allowed)
        self.clock = clock
        self.neighbours = neighbours
        self.every = every
        self.quiet = quiet
        self.current: int | None = None
        self._sample = read_cpu_times()
        self._own = own_cpu_seconds()
        self._sampled_at = clock()
        # A random phase: queue managers started together do not all choose in the same tick.
        self._next = self._sampled_at + every * (0.5 + random.random())
        self._quiet_until = 0.0
        self._proposed: int | None = None  # a move waits for a second choice that agrees
        self.writer: int | None = None  # the store's writer thread (spread when the CPU is full)
        self.writer_spread = False

    @classmethod
    def from_environment(cls, clock: Callable[[], float], qmgrs: Path | None = None,
                         env: Mapping[str, str] = os.environ) -> CpuPlacement | None:
        """None when placement is off: asked so, one CPU allowed, or no ``/proc`` to read.
        ``qmgrs``: the installation's queue manager directories, to spread over the CPUs."""
        if env.get("MQLITE_CPU_PLACEMENT", "on").lower() in ("off", "no", "0", "false"):
            return None
        pid = os.getpid()
        try:
            allowed = sorted(os.sched_getaffinity(0))
            if len(allowed) < 2:
                return None
            return cls(allowed, clock, (lambda: neighbours_in(qmgrs, pid)) if qmgrs else dict)
        except (OSError, AttributeError, ValueError):
            return None

    def start(self, writer: int | None = None) -> None:
        """The first choice: the CPU fewest other queue managers and other work use. ``writer``:
        the store's writer thread, which joins the others on that CPU while there is room
        there and may use every allowed CPU while the queue manager fills its own: then its
        SQLite work, done without the GIL, runs beside the event loop instead of waiting
        for it."""
        self.writer = writer
        self._decide(initial=True)

    def tick(self, _now: float) -> None:
        """A runtime tick hook (its ``now`` is the queue manager's clock, which tests may shift:
        this keeps its own)."""
        now = self.clock()
        if now >= self._next:
            self._next = now + self.every
            self._decide(initial=False)

    def _decide(self, initial: bool) -> None:
        now = self.clock()
        sample, own = read_cpu_times(), own_cpu_seconds()
        busy = busy_fractions(self._sample, sample)
        elapsed = max(now - self._sampled_at, 1e-6)
        share = (own - self._own) / elapsed
        self._sample, self._own, self._sampled_at = sample, own, now
        if not initial:
            self._spread_writer(share >= SPREAD_AT)
        if initial:
            target = choose(self.allowed, busy, None, share, prefer=cpu_now(), neighbours=self.neighbours())
        elif now < self._quiet_until:
            return
        else:
            target = choose(self.allowed, busy, self.current, share)
            # Two choices in a row, a few seconds apart: a queue manager that another one's move
            # has just relieved sees it in between and stays.
            confirmed = target is not None and target == self._proposed
            self._proposed = target
            if not confirmed:
                return
        if target is None or target == self.current or not self._pin(target):
            return
        if self.current is not None:
            self._proposed = None
            self._quiet_until = now + self.quiet * (1 + random.random())
            log.info("the queue manager moved from CPU %d (%.0f%% busy) to CPU %d (%.0f%% busy)",
                     self.current, 100 * busy.get(self.current, 0.0), target, 100 * busy.get(target, 0.0))
        else:
            log.info("the queue manager runs on CPU %d (MQLITE_CPU_PLACEMENT=off leaves it to the kernel)", target)
        self.current = target

    def _spread_writer(self, spread: bool) -> None:
        if self.writer is None or self.current is None or spread == self.writer_spread:
            return
        try:
            os.sched_setaffinity(self.writer, set(self.allowed) if spread else {self.current})
        except OSError:
            return
        self.writer_spread = spread

    def _pin(self, cpu: int) -> bool:
        """Every thread of the process to ``cpu`` (the writer stays spread if it is); threads
        started later inherit it."""
        try:
            for task in os.listdir("/proc/self/task"):
                if self.writer_spread and int(task) == self.writer:
                    continue
                try:
                    os.sched_setaffinity(int(task), {cpu})
                except ProcessLookupError:  # a thread that has just ended
                    continue
        except OSError as error:
            log.warning("CPU placement turned off: %s", error)
            self.allowed = []
            return False
        return True
