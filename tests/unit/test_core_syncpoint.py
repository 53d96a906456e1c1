"""Core units of work: MQPMO/MQGMO_SYNCPOINT, MQCMIT, MQBACK, MQDISC, MAXUMSGS, and their store effects.

IBM MQI behaviour; CURRENT_Q_DEPTH as IBM defines it: "incremented during an MQPUT call, and during
backout of an MQGET call; decremented during a nonbrowse MQGET call, and during backout of an MQPUT
call" (so it counts uncommitted puts and excludes messages got in a unit of work not yet committed).
"""

from __future__ import annotations

from typing import Any

import pytest

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.qmgr import GetResult
from mqlite.store.tx import DELETE_MESSAGE, PUT_MESSAGE, SET_BACKOUT

IO = C.MQOO_OUTPUT | C.MQOO_INPUT_SHARED | C.MQOO_BROWSE | C.MQOO_INQUIRE
SP_PUT = C.MQPMO_SYNCPOINT
SP_GET = C.MQGMO_SYNCPOINT
PERSISTENT = C.MQPER_PERSISTENT


@pytest.fixture
def other(mq: Any) -> tuple[Any, Any]:
    """A second connection with APP.Q open for input and output."""
    conn = mq.connect()
    return conn, mq.open("APP.Q", IO, conn=conn)


def _curdepth(mq: Any, q: Any) -> int:
    value = mq.inq(q, C.MQIA_CURRENT_Q_DEPTH)[0]
    assert isinstance(value, int)
    return value


# -- puts -------------------------------------------------------------------------------------
def test_syncpoint_puts_are_invisible_until_commit(mq: Any, q: Any, other: Any) -> None:
    conn2, h2 = other
    mq.put(q, b"1", pmo=SP_PUT)
    mq.put(q, b"2", pmo=SP_PUT)
    for handle, conn in ((q, mq.conn), (h2, conn2)):  # not even the putter sees them
        with mq.raises(C.MQRC_NO_MSG_AVAILABLE):
            mq.get(handle, conn=conn)
        with mq.raises(C.MQRC_NO_MSG_AVAILABLE):
            mq.get(handle, C.MQGMO_BROWSE_FIRST, conn=conn)
    mq.qm.commit(mq.conn)
    assert mq.bodies(h2, conn=conn2) == [b"1", b"2"]


def test_curdepth_counts_uncommitted_puts(mq: Any, q: Any) -> None:
    mq.put(q, b"1", pmo=SP_PUT)
    mq.put(q, b"2", pmo=SP_PUT)
    assert _curdepth(mq, q) == 2
    [row] = mq.qm.queue_status("APP.Q", "QUEUE")
    assert row["CURDEPTH"] == 2 and row["UNCOM"] == 2
    mq.qm.commit(mq.conn)
    assert _curdepth(mq, q) == 2
    assert mq.qm.queue_status("APP.Q", "QUEUE")[0]["UNCOM"] == "NO"


def test_maxdepth_counts_uncommitted_puts(mq: Any) -> None:
    mq.define("SMALL.Q", MAXDEPTH=2)
    h = mq.open("SMALL.Q", IO)
    mq.put(h, b"1", pmo=SP_PUT)
    mq.put(h, b"2", pmo=SP_PUT)
    with mq.raises(C.MQRC_Q_FULL):
        mq.put(h, b"3")


def test_backout_discards_puts(mq: Any, q: Any, other: Any) -> None:
    conn2, h2 = other
    mq.put(q, b"1", pmo=SP_PUT)
    mq.put(q, b"kept")  # outside the unit of work
    mq.put(q, b"2", pmo=SP_PUT)
    mq.qm.backout(mq.conn)
    assert _curdepth(mq, q) == 1
    mq.qm.commit(mq.conn)  # nothing left to commit
    assert mq.bodies(h2, conn=conn2) == [b"kept"]


def test_commit_keeps_put_order_across_priorities(mq: Any, q: Any) -> None:
    mq.put(q, b"a", pmo=SP_PUT, Priority=1)
    mq.put(q, b"b", pmo=SP_PUT, Priority=8)
    mq.put(q, b"c", pmo=SP_PUT, Priority=1)
    mq.qm.commit(mq.conn)
    assert mq.bodies(q) == [b"b", b"a", b"c"]


def test_units_of_work_of_two_connections_are_independent(mq: Any, q: Any, other: Any) -> None:
    conn2, h2 = other
    mq.put(q, b"mine", pmo=SP_PUT)
    mq.put(h2, b"theirs", pmo=SP_PUT, conn=conn2)
    mq.qm.commit(conn2)
    assert mq.bodies(q) == [b"theirs"]
    mq.qm.backout(mq.conn)
    assert mq.bodies(q) == []
    assert _curdepth(mq, q) == 0


# -- gets -------------------------------------------------------------------------------------
def test_syncpoint_get_hides_the_message_and_commit_makes_it_final(mq: Any, q: Any, other: Any) -> None:
    conn2, h2 = other
    mq.put(q, b"1")
    mq.put(q, b"2")
    assert mq.get(q, SP_GET).body == b"1"
    assert mq.get(h2, C.MQGMO_BROWSE_FIRST, conn=conn2).body == b"2"  # "1" is locked
    mq.qm.commit(mq.conn)
    mq.qm.backout(mq.conn)  # nothing to back out any more
    assert mq.bodies(h2, conn=conn2) == [b"2"]


def test_curdepth_excludes_messages_got_in_an_open_unit_of_work(mq: Any, q: Any) -> None:
    mq.put(q, b"1")
    mq.put(q, b"2")
    mq.get(q, SP_GET)
    assert _curdepth(mq, q) == 1  # decremented during the MQGET
    mq.qm.backout(mq.conn)
    assert _curdepth(mq, q) == 2  # incremented again by the backout
    mq.get(q, SP_GET)
    mq.qm.commit(mq.conn)
    assert _curdepth(mq, q) == 1


def test_backout_returns_gets_with_backout_count_plus_one_in_their_place(mq: Any, q: Any) -> None:
    for body in (b"1", b"2", b"3"):
        mq.put(q, body)
    first = mq.get(q, SP_GET)
    second = mq.get(q, SP_GET)
    assert (first.body, second.body) == (b"1", b"2")
    assert first.message.md.BackoutCount == 0
    mq.qm.backout(mq.conn)
    results = [mq.get(q, SP_GET) for _ in range(3)]
    assert [r.body for r in results] == [b"1", b"2", b"3"]  # back in their original positions
    assert [r.message.md.BackoutCount for r in results] == [1, 1, 0]
    mq.qm.backout(mq.conn)
    results = [mq.get(q) for _ in range(3)]
    assert [r.message.md.BackoutCount for r in results] == [2, 2, 1]


def test_a_unit_of_work_can_mix_puts_and_gets(mq: Any, q: Any) -> None:
    mq.put(q, b"in")
    assert mq.get(q, SP_GET).body == b"in"
    mq.put(q, b"out", pmo=SP_PUT)
    mq.qm.backout(mq.conn)
    assert mq.bodies(q) == [b"in"]
    mq.put(q, b"in2")
    mq.get(q, SP_GET)
    mq.put(q, b"out2", pmo=SP_PUT)
    mq.qm.commit(mq.conn)
    assert mq.bodies(q) == [b"out2"]


def test_the_unit_of_work_survives_closing_the_handle(mq: Any, q: Any) -> None:
    mq.put(q, b"1")
    h = mq.open("APP.Q", C.MQOO_INPUT_SHARED)
    mq.get(h, SP_GET)
    mq.close(h)
    mq.qm.backout(mq.conn)
    assert mq.bodies(q) == [b"1"]


def test_syncpoint_if_persistent_applies_to_persistent_messages_only(mq: Any, q: Any) -> None:
    mq.put(q, b"np", Persistence=C.MQPER_NOT_PERSISTENT)
    mq.put(q, b"p", Persistence=PERSISTENT)
    options = C.MQGMO_SYNCPOINT_IF_PERSISTENT
    assert mq.get(q, options).body == b"np"
    assert mq.get(q, options).body == b"p"
    mq.qm.backout(mq.conn)
    assert mq.bodies(q) == [b"p"]  # only the persistent one was in the unit of work


# -- MAXUMSGS ---------------------------------------------------------------------------------
def test_maxumsgs_limits_puts_in_a_unit_of_work_with_2024(mq: Any, q: Any) -> None:
    mq.qm.alter("QMGR", "", {"MAXUMSGS": 3})
    for body in (b"1", b"2", b"3"):
        mq.put(q, body, pmo=SP_PUT)
    with mq.raises(C.MQRC_SYNCPOINT_LIMIT_REACHED):
        mq.put(q, b"4", pmo=SP_PUT)
    mq.put(q, b"outside")  # a put outside syncpoint is not limited
    mq.qm.commit(mq.conn)
    assert mq.bodies(q) == [b"1", b"2", b"3", b"outside"]
    for body in (b"5", b"6", b"7"):  # a new unit of work starts from zero
        mq.put(q, body, pmo=SP_PUT)


def test_maxumsgs_counts_gets_too(mq: Any, q: Any) -> None:
    mq.qm.alter("QMGR", "", {"MAXUMSGS": 2})
    for body in (b"1", b"2", b"3"):
        mq.put(q, body)
    mq.get(q, SP_GET)
    mq.put(q, b"4", pmo=SP_PUT)
    with mq.raises(C.MQRC_SYNCPOINT_LIMIT_REACHED):
        mq.get(q, SP_GET)
    assert mq.get(q).body == b"2"  # outside syncpoint: not limited


# -- MQDISC -----------------------------------------------------------------------------------
def test_disconnect_without_commit_backs_out(mq: Any, q: Any, other: Any) -> None:
    conn2, h2 = other
    mq.put(q, b"got")
    mq.get(h2, SP_GET, conn=conn2)
    mq.put(h2, b"uncommitted", pmo=SP_PUT, conn=conn2)
    mq.qm.disconnect(conn2, commit=False)
    result = mq.get(q)
    assert (result.body, result.message.md.BackoutCount) == (b"got", 1)
    assert mq.bodies(q) == []
    assert conn2.conn_id not in mq.qm.connections
    assert mq.qm.queues["APP.Q"].open_input == 1  # conn2's handle was closed


def test_normal_disconnect_commits(mq: Any, q: Any, other: Any) -> None:
    conn2, h2 = other
    mq.put(q, b"got")
    mq.get(h2, SP_GET, conn=conn2)
    mq.put(h2, b"committed", pmo=SP_PUT, conn=conn2)
    mq.qm.disconnect(conn2)
    assert mq.bodies(q) == [b"committed"]


# -- waiters and units of work ------------------------------------------------------------------
def test_a_syncpoint_put_wakes_a_waiter_only_at_commit(mq: Any, q: Any, other: Any) -> None:
    conn2, h2 = other
    waiter = mq.wait(h2, wait_ms=5000, conn=conn2)
    mq.put(q, b"later", pmo=SP_PUT)
    assert not mq.qm.take_effects().completions
    mq.qm.commit(mq.conn)
    [(done, result)] = mq.qm.take_effects().completions
    assert done is waiter and isinstance(result, GetResult) and result.body == b"later"


def test_a_backed_out_put_never_wakes_a_waiter(mq: Any, q: Any, other: Any) -> None:
    conn2, h2 = other
    mq.wait(h2, wait_ms=5000, conn=conn2)
    mq.put(q, b"never", pmo=SP_PUT)
    mq.qm.backout(mq.conn)
    assert not mq.qm.take_effects().completions


def test_a_backed_out_get_wakes_a_waiter(mq: Any, q: Any, other: Any) -> None:
    conn2, h2 = other
    mq.put(q, b"again")
    mq.get(q, SP_GET)
    waiter = mq.wait(h2, wait_ms=5000, conn=conn2)
    mq.qm.backout(mq.conn)
    [(done, result)] = mq.qm.take_effects().completions
    assert done is waiter and isinstance(result, GetResult)
    assert result.body == b"again" and result.message.md.BackoutCount == 1


def test_a_waiting_syncpoint_get_joins_the_getters_unit_of_work(mq: Any, q: Any, other: Any) -> None:
    conn2, h2 = other
    mq.wait(h2, SP_GET, wait_ms=5000, conn=conn2)
    mq.put(q, b"x")
    [(_, result)] = mq.qm.take_effects().completions
    assert isinstance(result, GetResult)
    mq.qm.backout(conn2)
    assert mq.get(q).message.md.BackoutCount == 1


# -- what reaches the store ---------------------------------------------------------------------
def _ops(tx: Any) -> list[tuple[int, int]]:
    return [(op, len(rows)) for op, rows in tx.runs]


def test_syncpoint_persistent_puts_reach_the_store_only_at_commit_in_one_tx(mq: Any, q: Any) -> None:
    for i in range(5):
        mq.put(q, b"%d" % i, pmo=SP_PUT, Persistence=PERSISTENT)
    assert mq.qm.take_effects().tx is None
    mq.qm.commit(mq.conn)
    tx = mq.qm.take_effects().tx
    assert tx is not None and len(tx) == 5
    assert _ops(tx) == [(PUT_MESSAGE, 5)]
    assert [row[-1] for row in tx.runs[0][1]] == [b"0", b"1", b"2", b"3", b"4"]


def test_backed_out_persistent_puts_never_reach_the_store(mq: Any, q: Any) -> None:
    mq.put(q, b"1", pmo=SP_PUT, Persistence=PERSISTENT)
    mq.qm.backout(mq.conn)
    assert mq.qm.take_effects().tx is None


def test_non_persistent_units_of_work_write_nothing(mq: Any, q: Any) -> None:
    mq.put(q, b"1", pmo=SP_PUT, Persistence=C.MQPER_NOT_PERSISTENT)
    mq.qm.commit(mq.conn)
    mq.get(q, SP_GET)
    mq.qm.commit(mq.conn)
    assert mq.qm.take_effects().tx is None


def test_committed_persistent_gets_are_deleted_in_one_tx(mq: Any, q: Any) -> None:
    for i in range(3):
        mq.put(q, b"%d" % i, Persistence=PERSISTENT)
    mq.qm.take_effects()
    for _ in range(3):
        mq.get(q, SP_GET)
    assert mq.qm.take_effects().tx is None
    mq.qm.commit(mq.conn)
    tx = mq.qm.take_effects().tx
    assert tx is not None and _ops(tx) == [(DELETE_MESSAGE, 3)]


def test_backout_of_a_persistent_get_records_the_backout_count(mq: Any, q: Any) -> None:
    mq.put(q, b"1", Persistence=PERSISTENT)
    mq.qm.take_effects()
    mq.get(q, SP_GET)
    mq.qm.backout(mq.conn)
    tx = mq.qm.take_effects().tx
    assert tx is not None and tx.runs == [(SET_BACKOUT, [(1, "APP.Q", 1)])]


def test_commit_of_puts_and_gets_yields_one_tx(mq: Any, q: Any) -> None:
    mq.put(q, b"old", Persistence=PERSISTENT)
    mq.qm.take_effects()
    mq.get(q, SP_GET)
    mq.put(q, b"new1", pmo=SP_PUT, Persistence=PERSISTENT)
    mq.put(q, b"new2", pmo=SP_PUT, Persistence=PERSISTENT)
    mq.qm.commit(mq.conn)
    tx = mq.qm.take_effects().tx
    assert tx is not None
    assert sorted(_ops(tx)) == [(PUT_MESSAGE, 2), (DELETE_MESSAGE, 1)]
    assert mq.qm.take_effects().tx is None


def test_syncpoint_errors_leave_the_unit_of_work_intact(mq: Any, q: Any) -> None:
    mq.put(q, b"1", pmo=SP_PUT)
    with pytest.raises(MQError):
        mq.put(q, b"2", pmo=SP_PUT, Persistence=9)
    mq.qm.commit(mq.conn)
    assert mq.bodies(q) == [b"1"]


def test_uncom_counts_uncommitted_gets(mq: Any, q: Any) -> None:
    """UNCOM shows the uncommitted changes, gets as well as puts (IBM DISPLAY QSTATUS): a message
    got in a unit of work has left CURDEPTH but is not gone yet."""
    mq.put(q, b"1")
    assert mq.get(q, SP_GET).body == b"1"
    [row] = mq.qm.queue_status("APP.Q", "QUEUE")
    assert row["CURDEPTH"] == 0 and row["UNCOM"] == 1
    mq.qm.commit(mq.conn)
    assert mq.qm.queue_status("APP.Q", "QUEUE")[0]["UNCOM"] == "NO"
