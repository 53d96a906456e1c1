"""core/dist/channel.py: a message channel's decisions as pure functions (B:R-CHN-4, B:R-CHN-5)."""

from __future__ import annotations

import pytest

from mqlite.core.dist.channel import (
    SEQWRAP_DEFAULT,
    InDoubt,
    Resolution,
    SyncState,
    batch_complete,
    disconnect_due,
    first_seq_ok,
    new_luwid,
    next_seq,
    resolve,
    retry_delay,
    sequence_error,
)

A, B = b"A" * 16, b"B" * 16


def test_sequence_numbers_wrap_at_seqwrap() -> None:
    assert [next_seq(s, 100) for s in (1, 99, 100)] == [2, 100, 1]
    assert next_seq(999_999_999, SEQWRAP_DEFAULT) == 1


def test_luwids_never_repeat_in_a_process() -> None:
    # A channel stopped and started again once reused its first LUWID, so the partner's last
    # committed batch looked like the new one in doubt and the new one was lost (B:R-CHN-4).
    ids = {new_luwid() for _ in range(1000)}
    assert len(ids) == 1000 and all(len(i) == 16 for i in ids)


@pytest.mark.parametrize(("indoubt", "partner", "outcome"), [
    (None, A, Resolution.NONE),
    (InDoubt(A, 10, (1, 2)), A, Resolution.COMMIT),  # the receiver committed the batch: remove it (B:R-CHN-4)
    (InDoubt(A, 10, (1, 2)), B, Resolution.BACKOUT),  # it did not: the messages go again
    (InDoubt(A, 10, (1, 2)), None, Resolution.BACKOUT),
])
def test_an_in_doubt_batch_is_resolved_by_the_receivers_luwid(indoubt: InDoubt | None, partner: bytes | None,
                                                                 outcome: Resolution) -> None:
    assert resolve(indoubt, partner) is outcome


def test_sync_state_survives_its_record() -> None:
    state = SyncState(7, A).in_doubt(InDoubt(B, 9, (40, 41)))
    assert SyncState.from_record(state.to_record()) == state
    assert state.committed(9, B) == SyncState(9, B, None)
    assert SyncState.from_record({}) == SyncState()


@pytest.mark.parametrize(("sender", "receiver_seq", "receiver_luwid", "agree"), [
    (SyncState(10, A), 10, A, True),
    (SyncState(10, A, InDoubt(B, 15)), 15, B, True),  # the receiver committed the batch in doubt
    (SyncState(10, A, InDoubt(B, 15)), 10, A, True),  # it did not
    (SyncState(10, A), 3, B, False),  # AMQ9526E until RESET CHANNEL
    (SyncState(0), 0, None, True),  # a new channel
])
def test_both_ends_must_agree_on_the_last_batch(sender: SyncState, receiver_seq: int,
                                                 receiver_luwid: bytes | None, agree: bool) -> None:
    error = sequence_error(sender, receiver_seq, receiver_luwid)
    assert (error is None) is agree
    if error:
        assert error.startswith("AMQ9526E")


def test_a_batch_starts_after_the_last_committed_number() -> None:
    assert first_seq_ok(10, 11) and not first_seq_ok(10, 12) and first_seq_ok(100, 1, seqwrap=100)


@pytest.mark.parametrize(("count", "size", "empty", "waited", "done"), [
    (50, 0, False, 0.0, True),  # BATCHSZ(50)
    (3, 0, False, 1.0, False),  # more are waiting: keep filling
    (3, 0, True, 0.0, True),  # BATCHINT(0): the queue is empty, end now
    (3, 200 * 1024, False, 0.0, True),  # BATCHLIM(200) KB
])
def test_batch_ends(count: int, size: int, empty: bool, waited: float, done: bool) -> None:
    assert batch_complete(count, size, 50, 200, empty, waited, 0) is done


def test_batchint_waits_for_more_before_ending() -> None:
    assert not batch_complete(1, 10, 50, 0, True, 0.05, 100)
    assert batch_complete(1, 10, 50, 0, True, 0.1, 100)


def test_retries_short_then_long_then_stopped() -> None:
    delays = [retry_delay(n, 2, 60, 3, 1200) for n in range(1, 7)]
    assert delays == [60, 60, 1200, 1200, 1200, None]


def test_discint_ends_an_idle_sender() -> None:
    assert disconnect_due(6000, 6000) and not disconnect_due(5999, 6000) and not disconnect_due(10**6, 0)
