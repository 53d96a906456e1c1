"""Message retry at a receiving channel (MRRTY, MRTMR): a put that may succeed later (the
destination put-inhibited or full) is tried again, MRTMR milliseconds apart, with the channel
PAUSED meanwhile, before the message goes to the dead-letter queue (reason 2051/2053); MRRTY(0)
dead-letters at once. Real queue managers, a real channel."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import mqlite.client as mqlite
from helpers.mqsc import depth, mqsc
from helpers.qmgrs import QMgr
from helpers.waiting import wait_until
from mqlite import cmqc as C
from mqlite.protocol import dlh

RunCli = Callable[..., Any]


@pytest.fixture
def linked(qmgr_factory: Callable[..., QMgr], run_cli: RunCli) -> tuple[QMgr, QMgr]:
    qm1, qm2 = qmgr_factory("QM1"), qmgr_factory("QM2")
    mqsc(run_cli, qm1, f"DEFINE QLOCAL(QM2) USAGE(XMITQ)\n"
                       f"DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) CONNAME('127.0.0.1({qm2.port})') XMITQ(QM2)\n"
                       "DEFINE QREMOTE(TO.APP.IN) RNAME(APP.IN) RQMNAME(QM2) XMITQ(QM2)\n")
    # retries for longer than any test step on a loaded machine (20 x 200 ms ran out while a slow
    # runmqsc enabled the queue): the tests that want the retries to end set a small MRRTY
    mqsc(run_cli, qm2, "DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(RCVR) MRRTY(100000) MRTMR(200)\n"
                       "DEFINE QLOCAL(APP.IN) PUT(DISABLED)\nDEFINE QLOCAL(DLQ)\nALTER QMGR DEADQ(DLQ)\n"
                       "SET CHLAUTH(QM1.TO.QM2) TYPE(QMGRMAP) QMNAME(QM1) USERSRC(CHANNEL)\n")
    return qm1, qm2


def put(body: bytes) -> None:
    with mqlite.connect("QM1") as qm, mqlite.Queue(qm, "TO.APP.IN") as queue:
        queue.put(body, mqlite.MD(Persistence=C.MQPER_PERSISTENT))


def status(run_cli: RunCli, qmgr: QMgr) -> str:
    return mqsc(run_cli, qmgr, "DISPLAY CHSTATUS(QM1.TO.QM2) STATUS\n", ok=False)


def test_a_put_inhibited_destination_is_retried_until_it_takes_the_message(linked: tuple[QMgr, QMgr],
                                                                           run_cli: RunCli) -> None:
    _qm1, qm2 = linked
    assert "MRRTY(100000)" in mqsc(run_cli, qm2, "DISPLAY CHANNEL(QM1.TO.QM2) MRRTY MRTMR\n")
    put(b"first")
    wait_until(lambda: "STATUS(PAUSED)" in status(run_cli, qm2), "the receiver pausing for message retry")
    put(b"second")  # behind it, in order
    mqsc(run_cli, qm2, "ALTER QLOCAL(APP.IN) PUT(ENABLED)\n")
    wait_until(lambda: depth(run_cli, qm2, "APP.IN") == 2, "both delivered once the queue takes puts")
    assert depth(run_cli, qm2, "DLQ") == 0
    assert "STATUS(RUNNING)" in status(run_cli, qm2)
    with mqlite.connect("QM2") as qm, mqlite.Queue(qm, "APP.IN", C.MQOO_INPUT_SHARED) as queue:
        assert [queue.get(), queue.get()] == [b"first", b"second"]


@pytest.mark.parametrize("mrrty", [0, 2])
def test_after_the_last_retry_the_message_is_dead_lettered(linked: tuple[QMgr, QMgr], run_cli: RunCli,
                                                           mrrty: int) -> None:
    qm1, qm2 = linked
    mqsc(run_cli, qm2, f"ALTER CHANNEL(QM1.TO.QM2) CHLTYPE(RCVR) MRRTY({mrrty}) MRTMR(100)\n")
    put(b"nowhere to go")
    wait_until(lambda: depth(run_cli, qm2, "DLQ") == 1, "the message on the dead-letter queue", timeout=60)
    with mqlite.connect("QM2") as qm, mqlite.Queue(qm, "DLQ", C.MQOO_INPUT_SHARED) as queue:
        message = queue.get()
    assert message.md.Format == b"MQDEAD  "
    header, data = dlh.decode(bytes(message))
    assert header.reason == C.MQRC_PUT_INHIBITED and data == b"nowhere to go"
    assert depth(run_cli, qm2, "APP.IN") == 0 and depth(run_cli, qm1, "QM2") == 0
