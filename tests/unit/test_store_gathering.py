"""Group commit for synchronous callers: the writer waits, briefly, for the txs recent groups had
(store/gathering.py), so callers that come back one by one still share a commit."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from mqlite.message import Message, MessageDescriptor
from mqlite.store import Store, StoreTx
from mqlite.store.gathering import ENOUGH_OPS, MAX_DELAY, GatherPolicy


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = Store(tmp_path / "qm.db")
    yield s
    s.close()


def put_tx(queue: str, seq: int) -> StoreTx:
    tx = StoreTx()
    tx.put_message(queue, seq, Message(MessageDescriptor(), b"x" * 256), 0.0)
    return tx


def wait_for(condition: Callable[[], bool], seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("condition not reached")
        time.sleep(0.001)


def test_a_one_seven_split_grows_into_one_group_of_eight() -> None:
    policy = GatherPolicy()
    assert policy.want() == 1  # a lone caller never waits
    policy.committed(1, 0.002, ran_out=False)
    policy.committed(7, 0.002, ran_out=False)
    assert policy.want() == 7  # the one back early waits for the seven
    assert policy.should_wait(1, 1) and not policy.should_wait(7, 7)
    policy.committed(8, 0.002, ran_out=False)
    assert policy.want() == 8


def test_a_wait_that_ran_out_lowers_what_the_next_waits_for() -> None:
    policy = GatherPolicy()
    policy.committed(8, 0.002, ran_out=False)
    policy.committed(5, 0.002, ran_out=True)  # three callers left
    assert policy.want() == 5


def test_enough_ready_ops_never_wait_and_the_delay_is_one_commit_at_most() -> None:
    policy = GatherPolicy()
    policy.committed(30, 0.002, ran_out=False)
    assert not policy.should_wait(1, ENOUGH_OPS)  # streaming producers fill a commit anyway
    assert policy.delay() == pytest.approx(0.002)
    for _ in range(50):
        policy.committed(30, 1.0, ran_out=False)  # a very slow disk
    assert policy.delay() == MAX_DELAY


def test_callers_arriving_one_by_one_share_one_commit(store: Store) -> None:
    """Eight txs submitted one at a time, the first well before the others, commit together:
    the writer waits for them instead of committing the first alone."""
    policy = store.gathering
    policy.last = policy.before_last = 8  # recent groups carried eight
    policy.commit_seconds = policy.max_delay = 120.0  # no deadline in this test: counted, not timed
    done = threading.Semaphore(0)
    finished: list[int] = []

    def callback(seq: int) -> Callable[[BaseException | None], None]:
        def on_done(error: BaseException | None) -> None:
            assert error is None
            finished.append(seq)
            done.release()
        return on_done

    store.submit(put_tx("Q", 1), callback(1))
    wait_for(lambda: store.stats.waits == 1 and store.writer_waiting)
    assert finished == [] and store.stats.commits == 0  # held for the others, not committed alone
    for seq in range(2, 9):
        store.submit(put_tx("Q", seq), callback(seq))
    for _ in range(8):
        assert done.acquire(timeout=60)
    assert sorted(finished) == list(range(1, 9))
    assert store.stats.commits == 1 and store.stats.transactions == 8
    assert store.stats.waits_ran_out == 0
    assert [row.seq for row in store.scan_index("Q")] == list(range(1, 9))


def test_a_wait_runs_out_and_commits_what_came(store: Store) -> None:
    policy = store.gathering
    policy.last = policy.before_last = 8
    policy.commit_seconds = 0.001  # a caller that never comes costs at most this
    store.write(put_tx("Q", 1))  # returns: the wait ran out, the tx committed alone
    assert store.stats.waits_ran_out == 1 and store.stats.commits == 1
    assert store.gathering.want() == 1


def test_an_urgent_tx_ends_the_wait_and_commits_what_is_ready(store: Store) -> None:
    """A message channel's END_BATCH or CONFIRM waits for its tx with nothing else to do: an urgent
    tx is committed at once with what is ready, not held for callers that may come."""
    policy = store.gathering
    policy.last = policy.before_last = 8
    policy.commit_seconds = policy.max_delay = 120.0  # a gathering wait would outlast the test
    done = threading.Semaphore(0)
    store.submit(put_tx("Q", 1), lambda error: done.release())
    wait_for(lambda: store.stats.waits == 1 and store.writer_waiting)  # held for seven more
    store.submit(put_tx("Q", 2), lambda error: done.release(), urgent=True)
    assert done.acquire(timeout=60) and done.acquire(timeout=60)
    assert store.stats.commits == 1 and store.stats.transactions == 2
    assert store.stats.waits_ran_out == 0  # the wait ended because of the urgent tx, not its deadline


def test_an_urgent_tx_arriving_first_is_not_held_at_all(store: Store) -> None:
    policy = store.gathering
    policy.last = policy.before_last = 8
    policy.commit_seconds = policy.max_delay = 120.0
    done = threading.Event()
    store.submit(put_tx("Q", 1), lambda error: done.set(), urgent=True)
    assert done.wait(60)
    assert store.stats.waits == 0 and store.stats.commits == 1
