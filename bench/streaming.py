"""A streaming producer, as the benchmarks put: MQPMO_ASYNC_RESPONSE puts, the last one
synchronous (its reply comes once all before it are on the queue, and durable if persistent)."""

from __future__ import annotations

import time

import mqlite.client as mqlite
from mqlite import cmqc as C


def put_stream(qm: mqlite.QueueManager, queue_name: str, count: int, size: int, persistent: bool,
               options: int = C.MQOO_OUTPUT) -> float:
    """``count`` puts of ``size`` bytes through a handle opened with ``options``; the seconds
    until the last one's reply."""
    persistence = C.MQPER_PERSISTENT if persistent else C.MQPER_NOT_PERSISTENT
    body = b"x" * size
    with mqlite.Queue(qm, queue_name, options) as q:
        md = mqlite.MD(Persistence=persistence)
        pmo = mqlite.PMO(Options=C.MQPMO_NO_SYNCPOINT | C.MQPMO_ASYNC_RESPONSE)
        began = time.perf_counter()
        for _ in range(count - 1):
            md.MsgId = C.MQMI_NONE
            q.put(body, md, pmo)
        q.put(body, mqlite.MD(Persistence=persistence), mqlite.PMO(Options=C.MQPMO_NO_SYNCPOINT))
        return time.perf_counter() - began
