"""What authority checking adds to each call inside the queue manager (part of ``bench/security.py``).

The end-to-end figures of ``security_cost.py`` carry the client, the socket and the scheduling
of two processes, and on a shared 2-CPU machine they wander by more than the 10% they are meant
to show. This part runs the same calls on core's ``QueueManager`` in one process, with the same
1,000 authority records and 8-level topic tree, as the administrator and as the recorded user,
and reports microseconds per call (best of interleaved rounds) and what security adds.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from mqlite import cmqc as C
from mqlite.core.qmgr import QueueManager
from mqlite.core.security.principal import Principal
from mqlite.core.waiters import GetRequest
from mqlite.message import MessageDescriptor
from mqlite.mqsc.commands import run_mqsc

MANAGED = C.MQSO_CREATE | C.MQSO_MANAGED | C.MQSO_NON_DURABLE
Call = Callable[[QueueManager, Principal, int], float]


def _timed(count: int, step: Callable[[], object]) -> float:
    began = time.perf_counter()
    for _ in range(count):
        step()
    return (time.perf_counter() - began) / count * 1e6


def connect(qm: QueueManager, who: Principal, count: int) -> float:
    return _timed(count, lambda: qm.disconnect(qm.connect(who, "bench.py")))


def open_close_queue(qm: QueueManager, who: Principal, count: int) -> float:
    conn = qm.connect(who, "bench.py")
    return _timed(count, lambda: qm.close(conn, qm.open(conn, {"ObjectName": "SEC.Q"}, C.MQOO_OUTPUT).hobj, 0))


def open_close_topic(qm: QueueManager, who: Principal, count: int, topic: str = "") -> float:
    conn = qm.connect(who, "bench.py")
    spec = {"ObjectType": C.MQOT_TOPIC, "ObjectString": topic}
    return _timed(count, lambda: qm.close(conn, qm.open(conn, spec, C.MQOO_OUTPUT).hobj, 0))


def subscribe_close(qm: QueueManager, who: Principal, count: int, topic: str = "") -> float:
    conn = qm.connect(who, "bench.py")
    spec = {"Options": MANAGED, "ObjectString": topic, "ObjectName": ""}

    def once() -> None:
        hsub, managed_queue, _ = qm.subscribe(conn, spec, 0)
        qm.close(conn, hsub.hobj, C.MQCO_REMOVE_SUB)
        if managed_queue is not None:  # the managed queue goes once its handle closes too
            qm.close(conn, managed_queue.hobj, 0)
        qm.take_effects()

    return _timed(count, once)


def put_get(qm: QueueManager, who: Principal, count: int) -> float:
    conn = qm.connect(who, "bench.py")
    handle = qm.open(conn, {"ObjectName": "SEC.Q"}, C.MQOO_OUTPUT | C.MQOO_INPUT_SHARED)
    body = b"x" * 256
    request = GetRequest(C.MQGMO_NO_SYNCPOINT | C.MQGMO_NO_WAIT, None, None, -1, 0)

    def once() -> None:
        qm.put(conn, handle.hobj, MessageDescriptor(Persistence=C.MQPER_NOT_PERSISTENT), C.MQPMO_NO_SYNCPOINT,
               {}, body)
        qm.get(conn, handle.hobj, request, None)
        qm.take_effects()

    return _timed(count, once)


def measure(setup: str, user: Principal, topic: str, rounds: int = 5, scale: float = 1.0) -> dict[str, object]:
    qm = QueueManager("QMSEC", creator="bench-admin")
    qm.bootstrap()
    admin = Principal("bench-admin")
    done = run_mqsc(qm.admin_for(admin), setup)
    assert done.failed == 0, done.lines[-3:]
    qm.take_effects()
    calls: dict[str, tuple[Call, int]] = {
        "connect": (connect, 5_000),
        "put_get": (put_get, 5_000),
        "open_close_queue": (open_close_queue, 5_000),
        "open_close_topic_depth8": (lambda q, w, n: open_close_topic(q, w, n, topic), 5_000),
        "subscribe_close_depth8": (lambda q, w, n: subscribe_close(q, w, n, topic), 2_000),
    }
    figures: dict[str, object] = {}
    for name, (call, count) in calls.items():
        count = max(int(count * scale), 50)
        off, on = [], []
        for _ in range(rounds):
            off.append(call(qm, admin, count))
            on.append(call(qm, user, count))
        best_off, best_on = min(off), min(on)
        figures[f"core_{name}_admin_us"] = round(best_off, 2)
        figures[f"core_{name}_recorded_user_us"] = round(best_on, 2)
        figures[f"core_{name}_security_us"] = round(best_on - best_off, 2)
        figures[f"core_{name}_slowdown_pct"] = round((best_on - best_off) / best_off * 100, 1)
    return figures
