"""The CorrelId index of a queue (core/queues.py) that a cluster-sender's gets go through: a
batch gotten under syncpoint leaves the index (the next get does not step over it), a backout
puts it back where it was, a commit removes it (R-GET-2 order throughout)."""

from __future__ import annotations

from typing import Any

from mqlite import cmqc as C

CHANNEL = b"CLUS" + b"TO.QM2".ljust(20)
OTHER = b"CLUS" + b"TO.QM3".ljust(20)


def indexed(queue: Any) -> list[bytes]:
    return [entry.message.body for entry in queue._by_correl[CHANNEL][0]]


def _fill(mq: Any, q: Any) -> None:
    for n in range(6):
        mq.put(q, b"%d" % n, CorrelId=CHANNEL if n % 3 else OTHER)  # 1, 2, 4, 5 for CHANNEL


def test_a_batch_in_flight_leaves_the_index_and_a_backout_restores_its_order(mq: Any, q: Any) -> None:
    _fill(mq, q)
    queue = mq.qm.queues["APP.Q"]
    batch = [mq.get(q, C.MQGMO_SYNCPOINT, correl_id=CHANNEL).body for _ in range(2)]
    assert batch == [b"1", b"2"]
    assert indexed(queue) == [b"4", b"5"]  # only what is still available
    mq.qm.backout(mq.conn)
    assert indexed(queue) == [b"1", b"2", b"4", b"5"]
    assert [mq.get(q, C.MQGMO_SYNCPOINT, correl_id=CHANNEL).body for _ in range(3)] == [b"1", b"2", b"4"]
    mq.qm.commit(mq.conn)
    assert mq.get(q, correl_id=CHANNEL).body == b"5"
    assert mq.bodies(q) == [b"0", b"3"]


def test_a_backout_of_a_later_batch_goes_after_what_came_first(mq: Any, q: Any) -> None:
    _fill(mq, q)
    other = mq.connect("alice")
    theirs = mq.open("APP.Q", conn=other)
    assert mq.get(q, C.MQGMO_SYNCPOINT, correl_id=CHANNEL).body == b"1"
    assert mq.get(theirs, C.MQGMO_SYNCPOINT, correl_id=CHANNEL, conn=other).body == b"2"
    mq.qm.backout(other)  # 2 comes back while 1 is still out
    mq.qm.backout(mq.conn)
    assert [mq.get(q, correl_id=CHANNEL).body for _ in range(4)] == [b"1", b"2", b"4", b"5"]
