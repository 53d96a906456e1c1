"""core/network/channels/channel.py: a message channel's decisions as pure functions (B:R-CHN-4, B:R-CHN-5)."""

from __future__ import annotations

import pytest

from mqlite.core.network.channels.channel import (
    SEQWRAP_DEFAULT,
    InDoubt,
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

A, B, C = b"A" * 16, b"B" * 16, b"C" * 16


def test_sequence_numbers_wrap_at_seqwrap() -> None:
    assert [next_seq(s, 100) for s in (1, 99, 100)] == [2, 100, 1]
    assert next_seq(999_999_999, SEQWRAP_DEFAULT) == 1


def test_luwids_never_repeat_in_a_process() -> None:
    # A channel stopped and started again once reused its first LUWID, so the partner's last
    # committed batch looked like the new one in doubt and the new one was lost (B:R-CHN-4).
    ids = {new_luwid() for _ in range(1000)}
    assert len(ids) == 1000 and all(len(i) == 16 for i in ids)


@pytest.mark.parametrize(("indoubt", "partner", "have"), [
    ((), A, 0),  # nothing was in doubt
    ((InDoubt(A, 10, (1, 2)),), A, 1),  # the receiver committed the batch: remove it (B:R-CHN-4)
    ((InDoubt(A, 10, (1, 2)),), B, 0),  # it did not: the messages go again
    ((InDoubt(A, 10, (1, 2)),), None, 0),
    # PIPELINE 2: the receiver commits in order, so its LUWID says how many of the two it has
    ((InDoubt(A, 10, (1,)), InDoubt(B, 20, (2,))), C, 0),
    ((InDoubt(A, 10, (1,)), InDoubt(B, 20, (2,))), A, 1),
    ((InDoubt(A, 10, (1,)), InDoubt(B, 20, (2,))), B, 2),
])
def test_batches_in_doubt_are_resolved_by_the_receivers_luwid(indoubt: tuple[InDoubt, ...], partner: bytes | None,
                                                              have: int) -> None:
    assert resolve(indoubt, partner) == have


def test_sync_state_survives_its_record() -> None:
    state = SyncState(7, A).in_doubt(InDoubt(B, 9, (40, 41)))
    assert SyncState.from_record(state.to_record()) == state
    assert state.committed(9, B) == SyncState(9, B)
    assert SyncState.from_record({}) == SyncState()
    two = state.in_doubt(InDoubt(C, 12, (42,)))
    assert SyncState.from_record(two.to_record()) == two
    assert two.committed(9, B) == SyncState(9, B, (InDoubt(C, 12, (42,)),))  # the first confirmed, the second not yet
    assert two.backed_out() == SyncState(7, A)


def test_a_record_of_one_batch_in_doubt_from_before_pipelining_still_reads() -> None:
    record = {"seq": 7, "luwid": A, "reset": False, "indoubt": [B, 9, [40, 41]]}
    assert SyncState.from_record(record) == SyncState(7, A, (InDoubt(B, 9, (40, 41)),))


@pytest.mark.parametrize(("sender", "receiver_seq", "receiver_luwid", "agree"), [
    (SyncState(10, A), 10, A, True),
    (SyncState(10, A, (InDoubt(B, 15),)), 15, B, True),  # the receiver committed the batch in doubt
    (SyncState(10, A, (InDoubt(B, 15),)), 10, A, True),  # it did not
    (SyncState(10, A, (InDoubt(B, 15), InDoubt(C, 20))), 15, B, True),  # it has the first of two
    (SyncState(10, A, (InDoubt(B, 15), InDoubt(C, 20))), 20, C, True),  # both
    (SyncState(10, A, (InDoubt(B, 15), InDoubt(C, 20))), 20, B, False),  # numbers that do not fit the LUWID
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
