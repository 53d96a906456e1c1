"""Where a benchmark's CPU went: a process's CPU time and the machine's busy share, read from
/proc (Linux). A rate alone cannot say whether a scenario was limited by CPU or by waiting."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of process ``pid`` so far (0.0 once it has gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICK  # utime + stime


def machine_times() -> tuple[int, int]:
    """(busy, total) jiffies of all CPUs, from /proc/stat (busy: all but idle and iowait)."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
    return sum(values) - values[3] - values[4], sum(values)


def machine_busy() -> float:
    """CPU seconds the machine has been busy so far."""
    return machine_times()[0] / TICK


def own_cpu() -> float:
    """This process's CPU seconds so far."""
    times = os.times()
    return times.user + times.system


@dataclass(frozen=True)
class CpuMark:
    """CPU seconds of some processes (and of this one) and the machine's jiffies at one moment."""

    processes: dict[str, float]
    own: float
    machine: tuple[int, int]

    @classmethod
    def now(cls, pids: Mapping[str, int]) -> CpuMark:
        return cls({name: cpu_seconds(pid) for name, pid in pids.items()}, own_cpu(), machine_times())

    def per_message(self, pids: Mapping[str, int], messages: int, own: str = "client") -> dict[str, float]:
        """Microseconds of CPU per message of each process since this mark, this process as
        ``own``, and ``cpus_busy``: the share of the machine's CPUs that were busy meanwhile."""
        later = CpuMark.now(pids)
        spent = {name: later.processes[name] - self.processes[name] for name in self.processes}
        spent[own] = later.own - self.own
        figures = {name: round(seconds / messages * 1e6, 1) for name, seconds in spent.items()}
        busy, total = later.machine[0] - self.machine[0], later.machine[1] - self.machine[1]
        figures["cpus_busy"] = round(busy / max(total, 1), 2)
        return figures
