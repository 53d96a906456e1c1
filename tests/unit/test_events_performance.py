"""Queue depth events (IBM: "Enabling queue depth events"; "Queue depth events: example 2",
table 13 of which events are enabled when; "Performance event statistics"): the pure rules, then
the events a core queue manager puts on SYSTEM.ADMIN.PERFM.EVENT. No spec in ../shared/spec
covers performance events; IBM's documentation is the reference."""

from __future__ import annotations

from typing import Any

import pytest

from mqlite import cmqc as C
from mqlite import hot_modules
from mqlite.core.events import performance as perf
from mqlite.core.queues import AVAILABLE, LocalQueue
from mqlite.message import Message, MessageDescriptor
from mqlite.protocol import pcf

ON = {"MAXDEPTH": 10, "QDEPTHHI": 80, "QDEPTHLO": 20, "QDPHIEV": "ENABLED", "QDPLOEV": "DISABLED",
      "QDPMAXEV": "ENABLED"}


# -- the rules ---------------------------------------------------------------------------------
def test_limits_are_percentages_of_maxdepth_high_rounded_up_low_down() -> None:
    assert perf.high_limit(1000, 80) == 800 and perf.low_limit(1000, 20) == 200
    assert perf.high_limit(10, 85) == 9 and perf.low_limit(10, 25) == 2
    assert perf.high_limit(10, 0) == 0 and perf.low_limit(10, 100) == 10


def test_thresholds_off_unless_perfmev_enabled() -> None:
    assert perf.thresholds("DISABLED", "Q1", ON) == (perf.NEVER_HIGH, perf.NEVER_LOW)
    assert perf.thresholds("ENABLED", "Q1", ON) == (8, perf.NEVER_LOW)


def test_thresholds_follow_each_switch() -> None:
    assert perf.thresholds("ENABLED", "Q1", {**ON, "QDPHIEV": "DISABLED", "QDPLOEV": "ENABLED"}) == (
        perf.NEVER_HIGH, 2)


def test_event_queues_never_raise_performance_events() -> None:  # IBM: "not generated for the event queues"
    assert perf.is_event_queue("SYSTEM.ADMIN.PERFM.EVENT") and not perf.is_event_queue("SYSTEM.ADMIN.COMMAND.QUEUE")
    assert perf.thresholds("ENABLED", "SYSTEM.ADMIN.PERFM.EVENT", ON) == (perf.NEVER_HIGH, perf.NEVER_LOW)


def test_high_disables_itself_and_enables_low_and_full() -> None:  # table 13, T(4)
    assert perf.after(perf.HIGH, {**ON, "QDPMAXEV": "DISABLED"}) == {
        "QDPHIEV": "DISABLED", "QDPLOEV": "ENABLED", "QDPMAXEV": "ENABLED"}


def test_low_disables_itself_and_enables_high_and_full() -> None:  # table 13, T(6) and T(12)
    assert perf.after(perf.LOW, {"QDPHIEV": "DISABLED", "QDPLOEV": "ENABLED", "QDPMAXEV": "DISABLED"}) == {
        "QDPHIEV": "ENABLED", "QDPLOEV": "DISABLED", "QDPMAXEV": "ENABLED"}


def test_full_disables_itself_and_enables_low_leaving_high() -> None:  # table 13, T(9)
    assert perf.after(perf.FULL, {"QDPHIEV": "DISABLED", "QDPLOEV": "DISABLED", "QDPMAXEV": "ENABLED"}) == {
        "QDPHIEV": "DISABLED", "QDPLOEV": "ENABLED", "QDPMAXEV": "DISABLED"}


def test_event_data_in_ibm_order() -> None:
    assert [p for p, _ in perf.event_data("QM1", "Q1", 5, 8, 8, 0)] == [
        C.MQCA_Q_MGR_NAME, C.MQCA_BASE_Q_NAME, C.MQIA_TIME_SINCE_RESET, C.MQIA_HIGH_Q_DEPTH,
        C.MQIA_MSG_ENQ_COUNT, C.MQIA_MSG_DEQ_COUNT]


# -- a queue calls back at its thresholds --------------------------------------------------------
class Recorder(perf.PerformanceEvents):
    def __init__(self) -> None:
        self.calls: list[str] = []

    def fire(self, queue: LocalQueue, event: str) -> None:
        self.calls.append(event)


def _message() -> Message:
    return Message(MessageDescriptor(), b"x")


def test_an_unarmed_queue_never_calls_back() -> None:
    queue = LocalQueue("Q1", {})
    entries = [queue.add(_message(), 0.0, AVAILABLE) for _ in range(3)]
    for entry in entries:
        queue.remove(entry)
    assert queue.watch.events is None and queue.depth == 0


def test_a_queue_calls_back_when_a_put_reaches_high_and_a_get_reaches_low() -> None:
    queue = LocalQueue("Q1", {})
    recorder = Recorder()
    queue.watch.events, queue.watch.high, queue.watch.low = recorder, 3, 1
    queue.watch.depth_high, queue.watch.depth_low = 3, 1  # (what the callback compares)
    entries = [queue.add(_message(), 0.0, AVAILABLE) for _ in range(3)]
    assert recorder.calls == [perf.HIGH]
    queue.remove(entries[0])
    assert recorder.calls == [perf.HIGH]
    queue.lock(entries[1])  # a get under syncpoint takes the depth down too
    assert recorder.calls == [perf.HIGH, perf.LOW]


def test_a_local_queue_keeps_its_attributes_in_a_shared_key_dict() -> None:
    """From its 30th instance attribute CPython 3.11 no longer keeps a LocalQueue's attributes
    in a shared-key dict, which slows every attribute access of the put/get hot path (measured
    with callgrind: ~1,800 instructions a put and get). The events' state shares one attribute.
    Compiled (mqlite.compiled), a LocalQueue is a native class with no dict at all."""
    queue = LocalQueue("Q1", {})
    if hot_modules.CHOSEN == "compiled":
        assert not hasattr(queue, "__dict__")
    else:
        assert len(vars(queue)) <= 29


# -- on a queue manager ----------------------------------------------------------------------------
def _events(mq: Any) -> list[pcf.PcfMessage]:
    handle = mq.open("SYSTEM.ADMIN.PERFM.EVENT", C.MQOO_INPUT_SHARED)
    return [pcf.decode(body) for body in mq.bodies(handle)]


@pytest.fixture
def deep(mq: Any) -> Any:
    mq.qm.alter("QMGR", "", {"PERFMEV": "ENABLED"})
    mq.define("DEEP", MAXDEPTH=10, QDEPTHHI=80, QDEPTHLO=20, QDPHIEV="ENABLED")
    return mq.open("DEEP")


def test_queue_depth_high_at_eight_of_ten_then_low_at_two(mq: Any, deep: Any) -> None:
    for _ in range(9):
        mq.put(deep, b"m")
    (high,) = _events(mq)
    assert (high.header.Command, high.header.Reason) == (C.MQCMD_PERFM_EVENT, C.MQRC_Q_DEPTH_HIGH)
    assert high.get(C.MQCA_BASE_Q_NAME) == "DEEP" and high.get(C.MQIA_HIGH_Q_DEPTH) == 8
    assert high.get(C.MQIA_MSG_ENQ_COUNT) == 8 and high.get(C.MQIA_MSG_DEQ_COUNT) == 0
    attrs = mq.qm.queues["DEEP"].attrs
    assert (attrs["QDPHIEV"], attrs["QDPLOEV"], attrs["QDPMAXEV"]) == ("DISABLED", "ENABLED", "ENABLED")
    for _ in range(7):
        mq.get(deep)
    (low,) = _events(mq)
    assert low.header.Reason == C.MQRC_Q_DEPTH_LOW
    # the statistics were reset by the high event: one more put, seven gets, deepest nine
    assert (low.get(C.MQIA_MSG_ENQ_COUNT), low.get(C.MQIA_MSG_DEQ_COUNT), low.get(C.MQIA_HIGH_Q_DEPTH)) == (1, 7, 9)
    assert (attrs["QDPHIEV"], attrs["QDPLOEV"]) == ("ENABLED", "DISABLED")


def test_queue_full_on_the_put_that_fails_2053_once(mq: Any, deep: Any) -> None:
    for _ in range(10):
        mq.put(deep, b"m")
    for _ in range(2):
        with mq.raises(C.MQRC_Q_FULL):
            mq.put(deep, b"one too many")
    reasons = [event.header.Reason for event in _events(mq)]
    assert reasons == [C.MQRC_Q_DEPTH_HIGH, C.MQRC_Q_FULL]  # Queue Full disabled itself
    assert mq.qm.queues["DEEP"].attrs["QDPMAXEV"] == "DISABLED"


def test_no_events_while_perfmev_is_disabled(mq: Any) -> None:
    mq.define("QUIET", MAXDEPTH=2, QDPHIEV="ENABLED")
    quiet = mq.open("QUIET")
    for _ in range(2):
        mq.put(quiet, b"m")
    with mq.raises(C.MQRC_Q_FULL):
        mq.put(quiet, b"m")
    assert _events(mq) == []


def test_alter_qmgr_perfmev_disabled_disarms_every_queue(mq: Any, deep: Any) -> None:
    mq.qm.alter("QMGR", "", {"PERFMEV": "DISABLED"})
    for _ in range(9):
        mq.put(deep, b"m")
    assert _events(mq) == [] and mq.qm.queues["DEEP"].watch.events is None


def test_clear_is_not_a_get_and_raises_no_queue_depth_low(mq: Any, deep: Any) -> None:
    mq.qm.alter("QLOCAL", "DEEP", {"QDPHIEV": "DISABLED", "QDPLOEV": "ENABLED"})
    for _ in range(5):
        mq.put(deep, b"m")
    mq.close(deep)
    mq.qm.clear_queue("DEEP")
    assert mq.depth("DEEP") == 0 and _events(mq) == []
