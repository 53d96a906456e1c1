"""Asynchronous put (MQPMO_ASYNC_RESPONSE): coalesced on the wire, never held back, in order."""

from __future__ import annotations

from pathlib import Path

import pytest

import mqlite
from mqlite import cmqc as C

QM = "ASYNC.QM"


def test_coalesced_async_puts_arrive_without_any_further_call(tmp_path: Path) -> None:
    with mqlite.embedded(QM, home=tmp_path):
        producer = mqlite.connect(QM)
        assert producer.mqsc("DEFINE QLOCAL(A.Q)\n")[0] == 0
        out = mqlite.Queue(producer, "A.Q", C.MQOO_OUTPUT)
        for i in range(3):  # far below the coalescing sizes: only the linger timer sends them
            out.put(f"m{i}".encode(), asynchronous=True)
        consumer = mqlite.connect(QM)
        inq = mqlite.Queue(consumer, "A.Q", C.MQOO_INPUT_SHARED)
        got = [bytes(inq.get(wait=60.0)) for _ in range(3)]  # 2033 if the linger timer never sent them
        assert got == [b"m0", b"m1", b"m2"]
        consumer.disconnect()
        producer.disconnect()


def test_async_puts_stay_in_order_with_synchronous_calls(tmp_path: Path) -> None:
    with mqlite.embedded(QM, home=tmp_path):
        qm = mqlite.connect(QM)
        assert qm.mqsc("DEFINE QLOCAL(B.Q) MAXDEPTH(100000)\n")[0] == 0
        q = mqlite.Queue(qm, "B.Q")
        for i in range(1000):
            q.put(str(i).encode(), asynchronous=i % 7 != 0)  # mixed: every 7th is synchronous
        assert [int(q.get(wait=1.0)) for _ in range(1000)] == list(range(1000))
        qm.disconnect()


def test_async_put_failures_are_reported_by_the_next_put(tmp_path: Path) -> None:
    with mqlite.embedded(QM, home=tmp_path):
        qm = mqlite.connect(QM)
        assert qm.mqsc("DEFINE QLOCAL(C.Q) MAXDEPTH(2)\n")[0] == 0
        q = mqlite.Queue(qm, "C.Q", C.MQOO_OUTPUT)
        for _ in range(3):  # the third finds the queue full (2053)
            q.put(b"x", asynchronous=True)
        qm.ping()  # a round trip: the failure has arrived
        with pytest.raises(mqlite.MQMIError) as error:
            q.put(b"y")
        assert error.value.reason == C.MQRC_Q_FULL
        qm.disconnect()
