"""The live charts' data: a ring buffer per queue manager in the web server's process, filled by
a background thread from the same collector ``/metrics`` uses (``metrics.shared_collector``: one
DISPLAY script and RESET QSTATS per sample, so the two never take put and get counts from each
other). Each sample holds every monitored queue's depth and its put and get rates (messages per
second since the sample before); an hour of samples is kept.

The thread starts with the first console request that asks for samples, and samples every
``MQLITE_CONSOLE_SAMPLE_SECONDS`` (default 5) seconds. At most ``MAX_QUEUES`` queues a queue
manager are kept (the first by name), so 10,000 queues cost a bounded amount of memory.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from mqlite.web.metrics import Family, shared_collector

WINDOW_SECONDS = 3600.0
MAX_QUEUES = 1000


def interval() -> float:
    try:
        return max(0.2, float(os.environ.get("MQLITE_CONSOLE_SAMPLE_SECONDS", "5")))
    except ValueError:
        return 5.0


@dataclass
class QueueSeries:
    depth: deque[tuple[float, float]]
    puts: deque[tuple[float, float]]
    gets: deque[tuple[float, float]]


@dataclass
class QmgrBuffer:
    """One queue manager's last hour."""

    size: int
    queues: dict[str, QueueSeries] = field(default_factory=dict)
    last_counts: dict[str, tuple[float, int, int]] = field(default_factory=dict)  # queue -> (t, puts, gets)

    def add(self, t: float, rows: dict[str, tuple[int, int, int]]) -> None:
        """``rows``: queue -> (depth, put total, get total) at time ``t``."""
        for queue in sorted(rows)[:MAX_QUEUES] if len(rows) > MAX_QUEUES else rows:
            depth, puts, gets = rows[queue]
            series = self.queues.get(queue)
            if series is None:
                if len(self.queues) >= MAX_QUEUES:
                    continue
                series = self.queues[queue] = QueueSeries(deque(maxlen=self.size), deque(maxlen=self.size),
                                                          deque(maxlen=self.size))
            series.depth.append((t, float(depth)))
            before = self.last_counts.get(queue)
            if before is not None and t > before[0]:
                span = t - before[0]
                series.puts.append((t, max(0, puts - before[1]) / span))
                series.gets.append((t, max(0, gets - before[2]) / span))
            self.last_counts[queue] = (t, puts, gets)

    def json(self, queue: str | None) -> dict[str, Any]:
        chosen = [queue] if queue else sorted(self.queues)
        out: dict[str, Any] = {}
        for name in chosen:
            series = self.queues.get(name)
            if series is None:
                continue
            out[name] = {"depth": [list(p) for p in series.depth], "putRate": [list(p) for p in series.puts],
                         "getRate": [list(p) for p in series.gets]}
        return out


def rows_of(families: Iterable[Family]) -> dict[str, dict[str, tuple[int, int, int]]]:
    """qmgr -> queue -> (depth, put total, get total) out of one collection."""
    values: dict[str, dict[str, dict[str, float]]] = {}
    wanted = {"ibmmq_queue_depth": "depth", "ibmmq_queue_mqput_mqput1_count": "puts",
              "ibmmq_queue_mqget_count": "gets"}
    for family in families:
        key = wanted.get(family.name)
        if key is None:
            continue
        for _, labels, value in family.samples:
            values.setdefault(labels["qmgr"], {}).setdefault(labels["queue"], {})[key] = value
    return {qm: {q: (int(v.get("depth", 0)), int(v.get("puts", 0)), int(v.get("gets", 0))) for q, v in queues.items()}
            for qm, queues in values.items()}


class Sampler:
    """The background thread and the buffers it fills."""

    def __init__(self, collect: Callable[[], list[Family]] | None = None, every: float | None = None) -> None:
        self.collect = collect or (lambda: shared_collector().collect())
        self.every = every or interval()
        self.buffers: dict[str, QmgrBuffer] = {}
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()

    def ensure_running(self) -> None:
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="console-sampler", daemon=True)
                self._thread.start()

    def stop(self) -> None:
        self._stop.set()

    def sample_once(self) -> None:
        t = time.time()
        rows = rows_of(self.collect())
        with self._lock:
            for qmgr, queues in rows.items():
                buffer = self.buffers.get(qmgr)
                if buffer is None:
                    buffer = self.buffers[qmgr] = QmgrBuffer(int(WINDOW_SECONDS / self.every) + 1)
                buffer.add(t, queues)

    def series(self, qmgr: str, queue: str | None = None) -> dict[str, Any]:
        with self._lock:
            buffer = self.buffers.get(qmgr)
            return {"qmgr": qmgr, "interval": self.every, "queues": buffer.json(queue) if buffer else {}}

    def _run(self) -> None:
        while not self._stop.is_set():
            with contextlib.suppress(Exception):
                self.sample_once()
            self._stop.wait(self.every)


_shared: list[Sampler] = []
_shared_lock = threading.Lock()


def shared_sampler() -> Sampler:
    with _shared_lock:
        if not _shared:
            _shared.append(Sampler())
        return _shared[0]
