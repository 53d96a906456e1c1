"""The event loop's busy-poll window (server/busy_poll.py), on a real asyncio loop."""

from __future__ import annotations

import asyncio

import pytest

from mqlite.server import busy_poll
from mqlite.server.busy_poll import BusyPoll


def test_spins_after_input_and_stops_when_the_window_has_passed() -> None:
    async def scenario() -> tuple[bool, int, bool]:
        loop = asyncio.get_running_loop()
        spins = 0
        poll = BusyPoll(loop, 0.02, lambda: False)
        original = poll._spin

        def counting() -> None:
            nonlocal spins
            spins += 1
            original()

        poll._spin = counting  # type: ignore[method-assign]
        poll.touch()
        started = poll.spinning
        await asyncio.sleep(0.1)
        return started, spins, poll.spinning

    started, spins, still = asyncio.run(scenario())
    assert started
    assert spins > 10  # the loop went round without sleeping
    assert not still


def test_does_not_spin_while_paused_or_with_no_window() -> None:
    async def scenario() -> tuple[bool, bool]:
        loop = asyncio.get_running_loop()
        paused = BusyPoll(loop, 10.0, lambda: True)
        paused.touch()
        off = BusyPoll(loop, 0.0, lambda: False)
        off.touch()
        await asyncio.sleep(0.01)
        return paused.spinning, off.spinning

    assert asyncio.run(scenario()) == (False, False)


def test_window_from_the_environment() -> None:
    window = busy_poll.window_from_env
    assert window({"MQLITE_BUSY_POLL_US": "250"}, 2) == pytest.approx(250e-6)
    assert window({}, 2) == pytest.approx(busy_poll.DEFAULT_WINDOW_US / 1e6)
    assert window({"MQLITE_BUSY_POLL_US": "0"}, 2) == 0.0
    assert window({"MQLITE_BUSY_POLL_US": "lots"}, 2) == pytest.approx(busy_poll.DEFAULT_WINDOW_US / 1e6)
    assert window({"MQLITE_BUSY_POLL_US": "250"}, 1) == 0.0  # one CPU: spinning only delays the client
