"""DISPLAY CHSTATUS's SHORTRTS and LONGRTS (issue 31 part 5, B:R-CHN-5): the retries a RETRYING
sender has not made yet, short ones counting down from SHORTRTY, then long ones from LONGRTY,
in step with ``retry_delay``, which spends them."""

from __future__ import annotations

from mqlite.core.network.channels.channel import retries_left, retry_delay


def test_the_short_retries_count_down_then_the_long_ones() -> None:
    shown = [retries_left(failures, 2, 3) for failures in range(1, 8)]
    assert shown == [(2, 3), (1, 3), (0, 3), (0, 2), (0, 1), (0, 0), (0, 0)]


def test_what_is_left_is_what_retry_delay_still_spends() -> None:
    for failures in range(1, 12):
        short, long_ = retries_left(failures, 3, 4)
        delay = retry_delay(failures, 3, 10, 4, 100)
        if short:
            assert delay == 10.0  # the next attempt is a short retry
        elif long_:
            assert delay == 100.0
        else:
            assert delay is None  # none left: the channel STOPS
