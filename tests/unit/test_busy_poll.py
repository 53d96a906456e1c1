"""The event loop's busy-poll window (server/busy_poll.py), on a real asyncio loop."""

from __future__ import annotations

import asyncio

import pytest

from mqlite.server import busy_poll
from mqlite.server.busy_poll import BusyPoll


class Clock:
    """The time BusyPoll sees, moved by the test; counts its readings (one per spin)."""

    def __init__(self) -> None:
        self.now = 0.0
        self.readings = 0

    def __call__(self) -> float:
        self.readings += 1
        return self.now


def test_spins_after_input_and_stops_when_the_window_has_passed() -> None:
    async def scenario() -> tuple[bool, int, bool, bool]:
        clock = Clock()
        poll = BusyPoll(asyncio.get_running_loop(), 0.02, lambda: False, clock)
        poll.touch()
        started = poll.spinning
        before = clock.readings
        for _ in range(20):  # twenty rounds of the loop inside the window: it spins on each
            await asyncio.sleep(0)
        spins = clock.readings - before
        within = poll.spinning
        clock.now = 0.021  # the window has passed
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        return started, spins, within, poll.spinning

    started, spins, within, after = asyncio.run(scenario())
    assert started and within
    assert spins >= 19  # the loop went round without sleeping: a spin in (nearly) every round
    assert not after


def test_input_in_the_window_extends_it() -> None:
    async def scenario() -> bool:
        clock = Clock()
        poll = BusyPoll(asyncio.get_running_loop(), 0.02, lambda: False, clock)
        poll.touch()
        clock.now = 0.015
        poll.touch()  # more input: the window starts again
        clock.now = 0.03
        await asyncio.sleep(0)
        return poll.spinning

    assert asyncio.run(scenario())


def test_does_not_spin_while_paused_or_with_no_window() -> None:
    async def scenario() -> tuple[bool, bool]:
        loop = asyncio.get_running_loop()
        paused = BusyPoll(loop, 10.0, lambda: True, Clock())
        paused.touch()
        off = BusyPoll(loop, 0.0, lambda: False, Clock())
        off.touch()
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        return paused.spinning, off.spinning

    assert asyncio.run(scenario()) == (False, False)


def test_window_from_the_environment() -> None:
    window = busy_poll.window_from_env
    assert window({"MQLITE_BUSY_POLL_US": "250"}, 2) == pytest.approx(250e-6)
    assert window({}, 2) == pytest.approx(busy_poll.DEFAULT_WINDOW_US / 1e6)
    assert window({"MQLITE_BUSY_POLL_US": "0"}, 2) == 0.0
    assert window({"MQLITE_BUSY_POLL_US": "lots"}, 2) == pytest.approx(busy_poll.DEFAULT_WINDOW_US / 1e6)
    assert window({"MQLITE_BUSY_POLL_US": "250"}, 1) == 0.0  # one CPU: spinning only delays the client
