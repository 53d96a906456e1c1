"""Worker processes started together and timed: the shape the producer benchmarks share."""

from __future__ import annotations

import multiprocessing as mp
import time
from collections.abc import Callable
from typing import Any


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
