"""The benchmarks' processes: workers started together and timed, servers placed on CPUs."""

from __future__ import annotations

import multiprocessing as mp
import os
import time
from collections.abc import Callable
from typing import Any


def pinned(cpus: set[int] | None) -> Callable[[], None] | None:
    """A ``preexec_fn`` that runs the child on ``cpus`` only (as ``taskset -c``); None: anywhere."""
    return None if cpus is None else (lambda: os.sched_setaffinity(0, cpus))


def timed_run(target: Callable[..., None], args: tuple[Any, ...], processes: int) -> float:
    """Fork ``processes`` workers running ``target(*args, start, results)``: each gets ready,
    waits for ``start``, works, and puts the time it ended on ``results``. Returns the seconds
    from the start to the last end."""
    ctx = mp.get_context("fork")
    start = ctx.Event()
    results: mp.Queue[float] = ctx.Queue()
    procs = [ctx.Process(target=target, args=(*args, start, results)) for _ in range(processes)]
    for proc in procs:
        proc.start()
    time.sleep(0.5)  # everyone connected and waiting
    began = time.perf_counter()
    start.set()
    ends = [results.get(timeout=600) for _ in procs]
    for proc in procs:
        proc.join()
    return max(ends) - began
