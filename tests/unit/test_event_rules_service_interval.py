"""Queue service interval events (IBM: "Queue service interval events", "Rules for queue service
interval events", "Queue service interval events: examples 1 and 2"): the pure rule step by step,
then the events a core queue manager puts on SYSTEM.ADMIN.PERFM.EVENT on a fake clock, and the
switches an event flips kept in the store. No spec in ../shared/spec covers performance events;
IBM's documentation is the reference."""

from __future__ import annotations

from typing import Any

import pytest

from mqlite import cmqc as C
from mqlite.core.events import service_interval as SI
from mqlite.core.events.service_interval import GET, HIGH, OFF, OK, PUT, TICK, step
from mqlite.protocol import pcf

INTERVAL = 10.0  # QSVCINT(10000)


# -- the rule, IBM's examples step by step -------------------------------------------------------
def test_example_1_put_then_a_late_get_is_high_then_a_prompt_get_is_ok() -> None:
    """Example 1: P1 (timer starts), P2; G1 after more than the interval: High (OK armed); the
    timer restarts at G1; G2 within the interval: OK (High armed again)."""
    s = step(HIGH, OFF, PUT, 0.0, INTERVAL, 1)
    assert s == (HIGH, 0.0, None)  # P1: a put to an empty queue starts the timer
    s = step(s.setting, s.start, PUT, 3.0, INTERVAL, 2)
    assert s == (HIGH, 0.0, None)  # P2: not on an empty queue, the timer runs on
    s = step(s.setting, s.start, GET, 12.0, INTERVAL, 1)
    assert s == (OK, 12.0, HIGH)  # G1: 12 s > 10 s; the queue not empty: restarted
    s = step(s.setting, s.start, GET, 15.0, INTERVAL, 0)
    assert s == (HIGH, OFF, OK)  # G2: 3 s <= 10 s; the queue empty: the timer is off


def test_example_2_high_on_a_put_ok_only_on_a_get() -> None:
    """Example 2: the High comes at a put (no get within the interval of the first put); later
    puts make no OK (only a get can); the get within the interval of the timer's restart is OK."""
    s = step(HIGH, OFF, PUT, 0.0, INTERVAL, 1)
    s = step(s.setting, s.start, PUT, 11.0, INTERVAL, 2)
    assert s == (OK, 0.0, HIGH)  # P2: 11 s without a get: High; a put does not reset the timer
    s = step(s.setting, s.start, PUT, 12.0, INTERVAL, 3)
    assert s == (OK, 0.0, None)  # a put never makes an OK
    s = step(s.setting, s.start, GET, 13.0, INTERVAL, 2)
    assert s == (OK, 13.0, None)  # 13 s > 10 s: no OK (and High is disarmed); restarted
    s = step(s.setting, s.start, GET, 14.0, INTERVAL, 1)
    assert s == (HIGH, 14.0, OK)


def test_high_without_a_get_comes_at_the_tick() -> None:  # "on, or before, the next MQPUT or get"
    s = step(HIGH, 0.0, TICK, 10.0, INTERVAL, 1)
    assert s == (HIGH, 0.0, None)  # equal to the interval is not greater
    s = step(s.setting, s.start, TICK, 10.5, INTERVAL, 1)
    assert s == (OK, 0.0, HIGH)
    assert step(s.setting, s.start, TICK, 30.0, INTERVAL, 1) == (OK, 0.0, None)  # once


def test_timer_off_while_the_queue_is_empty_and_set_at_start_when_not() -> None:
    assert step(HIGH, OFF, TICK, 100.0, INTERVAL, 0) == (HIGH, OFF, None)
    assert step(HIGH, OFF, TICK, 100.0, INTERVAL, 3) == (HIGH, 100.0, None)  # messages there at start


def test_none_makes_no_event_but_the_timer_still_runs() -> None:
    assert step("NONE", 0.0, GET, 50.0, INTERVAL, 2) == ("NONE", 50.0, None)


def test_interval_is_milliseconds() -> None:
    assert SI.interval_seconds("1500") == 1.5 and SI.interval_seconds(999999999) == 999999.999


# -- on a core queue manager (the clock is the test's) ----------------------------------------------
def _events(mq: Any) -> list[pcf.PcfMessage]:
    handle = mq.open("SYSTEM.ADMIN.PERFM.EVENT", C.MQOO_INPUT_SHARED)
    return [pcf.decode(body) for body in mq.bodies(handle)]


@pytest.fixture
def served(mq: Any) -> Any:
    mq.qm.alter("QMGR", "", {"PERFMEV": "ENABLED"})
    mq.define("SERVED", QSVCIEV="HIGH", QSVCINT=10000)
    return mq.open("SERVED")


def test_a_late_get_is_high_and_a_prompt_one_ok(mq: Any, served: Any) -> None:
    mq.put(served, b"a")
    mq.put(served, b"b")
    mq.clock.advance(11)
    mq.get(served)
    (high,) = _events(mq)
    assert (high.header.Command, high.header.Reason) == (C.MQCMD_PERFM_EVENT, C.MQRC_Q_SERVICE_INTERVAL_HIGH)
    assert [p for p, _ in high.parameters] == [C.MQCA_Q_MGR_NAME, C.MQCA_BASE_Q_NAME, C.MQIA_TIME_SINCE_RESET,
                                               C.MQIA_HIGH_Q_DEPTH, C.MQIA_MSG_ENQ_COUNT, C.MQIA_MSG_DEQ_COUNT]
    assert high.get(C.MQCA_BASE_Q_NAME) == "SERVED" and high.get(C.MQIA_MSG_ENQ_COUNT) == 2
    assert mq.qm.queues["SERVED"].attrs["QSVCIEV"] == "OK"
    mq.clock.advance(1)
    mq.get(served)
    (ok,) = _events(mq)
    assert ok.header.Reason == C.MQRC_Q_SERVICE_INTERVAL_OK
    assert ok.get(C.MQIA_MSG_DEQ_COUNT) == 1  # the statistics were reset by the High
    assert mq.qm.queues["SERVED"].attrs["QSVCIEV"] == "HIGH"


def test_the_tick_raises_the_high_nobody_got(mq: Any, served: Any) -> None:
    mq.put(served, b"a")
    mq.qm.tick(mq.clock.now + 5)
    assert _events(mq) == []
    mq.qm.tick(mq.clock.advance(10.5))
    assert [e.header.Reason for e in _events(mq)] == [C.MQRC_Q_SERVICE_INTERVAL_HIGH]


def test_none_and_perfmev_disabled_cost_no_callback(mq: Any) -> None:
    mq.define("PLAIN")
    queue = mq.qm.queues["PLAIN"]
    assert queue.watch.events is None and queue.watch.high == SI_NEVER
    mq.qm.alter("QMGR", "", {"PERFMEV": "ENABLED"})
    assert queue.watch.high == SI_NEVER and queue.watch.low == -1  # QSVCIEV(NONE): no call back
    assert "PLAIN" not in mq.qm.performance_events.timed


SI_NEVER = 2**63 - 1


def test_depth_events_still_fire_beside_the_service_timer(mq: Any, served: Any) -> None:
    mq.qm.alter("QLOCAL", "SERVED", {"MAXDEPTH": 10, "QDEPTHHI": 30, "QDPHIEV": "ENABLED"})
    for _ in range(3):
        mq.put(served, b"m")
    assert [e.header.Reason for e in _events(mq)] == [C.MQRC_Q_DEPTH_HIGH]


def test_flipped_switches_are_written_to_the_store_and_kept(store_mq: Any, clock: Any, recover: Any) -> None:
    mq = store_mq
    mq.qm.alter("QMGR", "", {"PERFMEV": "ENABLED"})
    mq.define("KEPT", MAXDEPTH=10, QDEPTHHI=20, QDPHIEV="ENABLED", QSVCIEV="HIGH", QSVCINT=1000)
    handle = mq.open("KEPT")
    mq.flush()
    mq.put(handle, b"a")
    mq.put(handle, b"b")  # Queue Depth High at 2 of 10
    mq.qm.tick(clock.advance(2))  # Queue Service Interval High
    assert mq.flush() is not None  # the events' round writes the definition
    attrs = recover().qm.queues["KEPT"].attrs
    assert (attrs["QDPHIEV"], attrs["QDPLOEV"], attrs["QDPMAXEV"], attrs["QSVCIEV"]) == (
        "DISABLED", "ENABLED", "ENABLED", "OK")
