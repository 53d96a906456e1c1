"""Statistics (issue 33): IBM's STATQ/STATCHL matrices, the interval, snapshot subtraction and the
statistics messages' PCF layout, decoded with ``protocol.pcf``."""

from __future__ import annotations

import pytest

from mqlite import cmqc as C
from mqlite.client import statistics_text
from mqlite.core.statistics import messages
from mqlite.core.statistics.counters import ChannelCounters, MQICounters, QueueCounters, Statistics, waited
from mqlite.core.statistics.writer import collects_channel, collects_queue, due
from mqlite.protocol import pcf


@pytest.mark.parametrize(("qmgr", "queue", "collected"), [
    ("NONE", "ON", False), ("NONE", "QMGR", False), ("NONE", "OFF", False),
    ("OFF", "ON", True), ("OFF", "QMGR", False), ("OFF", "OFF", False),
    ("ON", "ON", True), ("ON", "QMGR", True), ("ON", "OFF", False),
])
def test_statq_matrix(qmgr: str, queue: str, collected: bool) -> None:
    assert collects_queue(qmgr, queue) is collected


@pytest.mark.parametrize(("qmgr", "channel", "collected"), [
    ("NONE", "HIGH", False), ("OFF", "QMGR", False), ("OFF", "LOW", True), ("LOW", "QMGR", True),
    ("HIGH", "OFF", False), ("MEDIUM", "MEDIUM", True),
])
def test_statchl_matrix(qmgr: str, channel: str, collected: bool) -> None:
    assert collects_channel(qmgr, channel) is collected


def test_interval_is_due_at_statint() -> None:
    assert not due(1000.0, 1899.9, 900)
    assert due(1000.0, 1900.0, 900)
    assert due(1000.0, 1001.0, 1)


def test_snapshots_subtract_and_two_readers_keep_their_own() -> None:
    c = QueueCounters()
    first = c.snapshot(0)
    c.put(True, 10, 1)
    c.put(False, 4, 2)
    second = c.snapshot(2)
    c.got(True, 10, 0.25, 1)
    c.browsed(False, 4)
    c.as_put1(False)
    later = c.snapshot(1)
    interval = later - second
    assert interval.puts == (-1, 0) and interval.put1s == (1, 0)  # the put was an MQPUT1's
    assert interval.gets == (0, 1) and interval.get_bytes == (0, 10) and interval.browses == (1, 0)
    assert interval.time_on_q == (0, 250_000) and interval.timed == (0, 1) and interval.depth == 1
    whole = later - first
    assert whole.put_bytes == (4, 10) and whole.active
    assert not (later - later).active


def test_depth_windows_are_each_readers_own() -> None:
    c = QueueCounters()
    mine, theirs = c.window(0), c.window(0)
    c.put(False, 1, 1)
    c.put(False, 1, 2)
    assert mine.take(2) == (0, 2)
    c.got(False, 1, 0.0, 1)
    assert mine.take(1) == (1, 2) and theirs.take(1) == (0, 2)


def test_mqi_counts_and_conns_max() -> None:
    m = MQICounters()
    before = m.snapshot()
    m.count("puts", True, 100, "put_bytes")
    m.count("puts", False, 5, "put_bytes")
    m.count("conns")
    m.connections(3)
    diff = m.snapshot() - before
    assert diff["puts"] == (1, 1) and diff["put_bytes"] == (5, 100) and diff["conns"] == 1
    assert diff["conns_max"] == 3


def test_mqput_and_mqget_attributes_add_into_ibms_fields() -> None:
    """The native conversation adds each MQPUT and MQGET to plain attributes by persistence; the
    snapshot gives IBM's Puts/PutBytes and Gets/GetBytes, MQPUT1's bytes added to PutBytes."""
    m = MQICounters()
    before = m.snapshot()
    m.puts_np, m.put_bytes_np, m.puts_p, m.put_bytes_p = 3, 30, 1, 2**40
    m.count("put1s", True, 7, "put_bytes")
    m.get(C.MQPER_PERSISTENT, 2**40)
    m.get(C.MQPER_NOT_PERSISTENT, 0)
    diff = m.snapshot() - before
    assert diff["puts"] == (3, 1) and diff["put_bytes"] == (30, 2**40 + 7) and diff["put1s"] == (0, 1)
    assert diff["gets"] == (1, 1) and diff["get_bytes"] == (0, 2**40)


class _Watch:
    stats = None
    kept_stats = None


class _Queue:
    def __init__(self) -> None:
        self.watch = _Watch()


def test_wants_are_counted_and_released_counters_kept() -> None:
    queue = _Queue()
    stats = Statistics({"Q": queue})
    counters = stats.want_queue("Q")
    assert counters is not None and stats.want_queue("Q") is counters and stats.want_queue("NONE") is None
    stats.release_queue("Q")
    assert stats.queue("Q") is counters
    stats.release_queue("Q")
    assert stats.queue("Q") is None and queue.watch.stats is None  # the hot path's test
    assert stats.want_queue("Q") is counters  # monotonic: the same counts again


def test_waited_reads_the_put_date_and_time() -> None:
    assert waited("20260101", "00000050", 1767225601.0) == pytest.approx(0.5)
    assert waited("", "", 1.0) == -1.0


def _interval() -> messages.Interval:
    return messages.Interval("2026-12-02", "03.00.00", "2026-12-02", "03.30.00")


_HEAD = [C.MQCA_Q_MGR_NAME, C.MQCAMO_START_DATE, C.MQCAMO_START_TIME, C.MQCAMO_END_DATE, C.MQCAMO_END_TIME,
         C.MQIA_COMMAND_LEVEL]


def test_queue_statistics_message_layout() -> None:
    c = QueueCounters()
    base = c.snapshot()
    c.put(True, 10, 1)
    c.got(True, 10, 2.0, 0)
    record = messages.QueueRecord("APP.Q", "2026-12-01", "10.00.00", C.MQQT_LOCAL, C.MQQDT_PREDEFINED, 0, 1,
                                  c.snapshot(0) - base)
    (body,) = messages.queue_messages("QM1", _interval(), 940, [record])
    decoded = pcf.decode(body)
    assert (decoded.header.Type, decoded.header.Command) == (C.MQCFT_STATISTICS, C.MQCMD_STATISTICS_Q)
    assert [p for p, _ in decoded.parameters] == [*_HEAD, C.MQIAMO_OBJECT_COUNT, C.MQGACF_Q_STATISTICS_DATA]
    assert decoded.get(C.MQIAMO_OBJECT_COUNT) == 1
    group = decoded.get(C.MQGACF_Q_STATISTICS_DATA)
    assert isinstance(group, pcf.Group)
    assert [p for p, _ in group.parameters] == [
        C.MQCA_Q_NAME, C.MQCA_CREATION_DATE, C.MQCA_CREATION_TIME, C.MQIA_Q_TYPE, C.MQIA_DEFINITION_TYPE,
        C.MQIAMO_Q_MIN_DEPTH, C.MQIAMO_Q_MAX_DEPTH, C.MQIAMO64_AVG_Q_TIME, C.MQIAMO_PUTS, C.MQIAMO_PUTS_FAILED,
        C.MQIAMO_PUT1S, C.MQIAMO_PUT1S_FAILED, C.MQIAMO64_PUT_BYTES, C.MQIAMO_GETS, C.MQIAMO64_GET_BYTES,
        C.MQIAMO_GETS_FAILED, C.MQIAMO_BROWSES, C.MQIAMO64_BROWSE_BYTES, C.MQIAMO_BROWSES_FAILED,
        C.MQIAMO_MSGS_NOT_QUEUED, C.MQIAMO_MSGS_EXPIRED, C.MQIAMO_MSGS_PURGED]
    values = dict(group.parameters)
    assert values[C.MQIAMO_PUTS] == [0, 1] and values[C.MQIAMO64_PUT_BYTES] == [0, 10]
    assert values[C.MQIAMO64_AVG_Q_TIME] == [0, 2_000_000] and values[C.MQIAMO_Q_MAX_DEPTH] == 1


def _widths(parameters: list[tuple[int, pcf.Value]]) -> dict[int, type]:
    out: dict[int, type] = {}
    for parameter, value in parameters:
        if isinstance(value, pcf.Group):
            out.update(_widths(value.parameters))
        elif isinstance(value, int | list):
            out[parameter] = type(value)
    return out


def test_64_bit_fields_are_mqcfin64_and_mqcfil64_even_when_small() -> None:
    """IBM's Queue, MQI and Channel statistics message data: AvgTimeOnQ, PutBytes, GetBytes,
    BrowseBytes, PutTopicBytes MQCFIL64, TotalBytes MQCFIN64; the other counts 32-bit."""
    c = QueueCounters()
    c.put(True, 10, 1)
    record = messages.QueueRecord("Q", "", "", C.MQQT_LOCAL, C.MQQDT_PREDEFINED, 0, 1, c.snapshot(0))
    (qbody,) = messages.queue_messages("QM1", _interval(), 940, [record])
    q = _widths(pcf.decode(qbody).parameters)
    assert {p for p, t in q.items() if t is pcf.Int64List} == {
        C.MQIAMO64_AVG_Q_TIME, C.MQIAMO64_PUT_BYTES, C.MQIAMO64_GET_BYTES, C.MQIAMO64_BROWSE_BYTES}
    assert q[C.MQIAMO_PUTS] is list and q[C.MQIAMO_PUTS_FAILED] is int
    m = _widths(pcf.decode(messages.mqi_message("QM1", _interval(), 940, MQICounters().snapshot())).parameters)
    assert {p for p, t in m.items() if t in (pcf.Int64, pcf.Int64List)} == {
        C.MQIAMO64_PUT_BYTES, C.MQIAMO64_GET_BYTES, C.MQIAMO64_BROWSE_BYTES, C.MQIAMO64_TOPIC_PUT_BYTES}
    group = messages.channel_group(messages.ChannelRecord("TO.QM2", C.MQCHT_SENDER, "QM2", "127.0.0.1(1414)",
                                                          ChannelCounters().snapshot()))
    ch = _widths(pcf.decode(pcf.encode(pcf.PcfMessage(pcf.MQCFH(), [(1, group)]))).parameters)
    assert ch[C.MQIAMO64_BYTES] is pcf.Int64 and ch[C.MQIAMO_MSGS] is int
    text = statistics_text.format_statistics(pcf.decode(qbody))
    assert "  PutBytes: [0, 10]\n" in text and "  AverageQueueTime: [0, 0]\n" in text  # amqsmon reads them


def test_a_hundred_queues_a_message_and_none_for_none() -> None:
    record = messages.QueueRecord("Q", "", "", C.MQQT_LOCAL, C.MQQDT_PREDEFINED, 0, 0, QueueCounters().snapshot())
    assert len(messages.queue_messages("QM1", _interval(), 940, [record] * 101)) == 2
    assert messages.queue_messages("QM1", _interval(), 940, []) == []


def test_mqi_statistics_message_layout() -> None:
    m = MQICounters()
    m.count("opens")
    decoded = pcf.decode(messages.mqi_message("QM1", _interval(), 940, m.snapshot()))
    assert decoded.header.Command == C.MQCMD_STATISTICS_MQI
    assert [p for p, _ in decoded.parameters][:6] == _HEAD
    assert [p for p, _ in decoded.parameters][6:] == [p for p, _ in messages.MQI_PARAMETERS]
    assert decoded.get(C.MQIAMO_OPENS) == 1 and decoded.get(C.MQIAMO_PUTS) == [0, 0]


def test_an_idle_interval_has_no_mqi_activity() -> None:
    m = MQICounters()
    m.connections(5)
    before = m.snapshot()
    assert not (m.snapshot() - before).active
    m.count("inqs")
    assert (m.snapshot() - before).active


def test_a_queue_defined_again_starts_with_no_wants() -> None:
    old, new = _Queue(), _Queue()
    queues = {"Q": old}
    stats = Statistics(queues)
    stats.want_queue("Q")
    queues["Q"] = new  # deleted and defined again, the old want never released
    assert stats.want_queue("Q") is not None
    stats.release_queue("Q")
    assert new.watch.stats is None  # one want, one release: collection off
