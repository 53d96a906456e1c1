"""The statistics writer on a core queue manager (issue 33): a queue switched to STATQ(ON) is
collected from the next interval, an idle queue has no record, STATINT's end writes, and the
counts of MQPUT1, failures, expiry and CLEAR QLOCAL (PurgeCount)."""

from __future__ import annotations

from typing import Any

from mqlite import cmqc as C
from mqlite.core.qmgr import QueueManager
from mqlite.core.statistics.messages import STATISTICS_QUEUE
from mqlite.protocol import pcf


def _records(qm: QueueManager) -> dict[str, dict[int, Any]]:
    queue = qm.queues[STATISTICS_QUEUE]
    out: dict[str, dict[int, Any]] = {}
    for entry in list(queue.iter_entries()):
        message = queue.load(entry)
        decoded = pcf.decode(message.body)
        assert decoded.header.Type == C.MQCFT_STATISTICS
        for pid, value in decoded.parameters:
            if pid == C.MQGACF_Q_STATISTICS_DATA and isinstance(value, pcf.Group):
                group = dict(value.parameters)
                out[str(group[C.MQCA_Q_NAME]).strip()] = group
        queue.remove(entry)
    return out


def test_switched_on_mid_interval_counts_from_the_next(qm: QueueManager, mq: Any, clock: Any) -> None:
    qm.statistics_writer.start()
    mq.define("ST.Q")
    qm.alter("QLOCAL", "ST.Q", {"STATQ": "ON"})
    handle = mq.open("ST.Q")
    mq.put(handle, b"early")
    qm.reset_statistics()
    assert _records(qm) == {}  # not collected in the interval it was switched on in
    mq.put(handle, b"later")
    clock.advance(1800)
    qm.statistics_writer.tick(clock())  # STATINT's default: 1800 seconds
    assert _records(qm)["ST.Q"][C.MQIAMO_PUTS] == [1, 0]
    clock.advance(1800)
    qm.statistics_writer.tick(clock())
    assert _records(qm) == {}  # an idle interval: no record


def test_put1_failures_expiry_and_purge(qm: QueueManager, mq: Any, clock: Any) -> None:
    mq.define("ST.P", STATQ="ON", MAXDEPTH=3)
    qm.statistics_writer.start()
    mq.put1("ST.P", b"one", Persistence=C.MQPER_PERSISTENT)
    handle = mq.open("ST.P")
    mq.put(handle, b"short", Expiry=1)
    mq.put(handle, b"x")
    try:
        mq.put(handle, b"full")
    except Exception as error:
        assert getattr(error, "reason", None) == C.MQRC_Q_FULL
    clock.advance(1)
    qm.sweep_expired(clock())
    mq.close(handle)
    qm.clear_queue("ST.P")
    qm.reset_statistics()
    group = _records(qm)["ST.P"]
    assert group[C.MQIAMO_PUT1S] == [0, 1] and group[C.MQIAMO_PUTS] == [2, 0]
    assert group[C.MQIAMO_PUTS_FAILED] == 1 and group[C.MQIAMO_MSGS_EXPIRED] == 1
    assert group[C.MQIAMO_MSGS_PURGED] == 2 and group[C.MQIAMO_Q_MAX_DEPTH] == 3


def test_waiting_gets_that_end_without_a_message_are_failed_gets(qm: QueueManager, mq: Any, clock: Any) -> None:
    """IBM's GetFailCount counts an MQGET that waited and got nothing (2033 at its wait
    interval's end, 2016 when an inhibit ends it) as an immediate one; the monitoring topics'
    STATQ GET splits 2033 and 2080 out of them (the browse ones apart)."""
    mq.define("ST.W", STATQ="ON")
    qm.statistics_writer.start()
    stats = qm.queues["ST.W"].watch.stats
    handle = mq.open("ST.W", C.MQOO_INPUT_AS_Q_DEF | C.MQOO_BROWSE)
    mq.wait(handle, wait_ms=1000)
    mq.wait(handle, C.MQGMO_BROWSE_FIRST, wait_ms=1000)
    clock.advance(2)
    qm.tick(clock())
    mq.wait(handle, wait_ms=60_000, max_length=2)
    mq.put(mq.open("ST.W", C.MQOO_OUTPUT), b"too long")  # wakes the waiter: 2080
    mq.get(handle)  # (the message stays after a truncation failure)
    mq.wait(handle, wait_ms=60_000)
    qm.alter("QLOCAL", "ST.W", {"GET": "DISABLED"})
    assert (stats.get_fails, stats.get_fails_no_msg, stats.get_fails_truncated) == (3, 1, 1)
    assert (stats.browse_fails, stats.browse_fails_no_msg) == (1, 1)
