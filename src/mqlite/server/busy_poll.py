"""Busy polling: keep the event loop awake for a moment after input arrives.

On a virtual machine the dearest part of a synchronous request is not Python but waking an
idle CPU: a client's request arriving at a queue manager asleep in ``epoll_wait`` costs tens
of microseconds of hypervisor work before a line of ours runs. A client that issues calls back
to back (put, get, put, ...) sends its next request within microseconds of our reply, so after
each burst of input the loop polls without sleeping for ``window`` seconds; the next request
finds it awake. It is Linux's ``busy_poll`` idea, applied where we can: the loop's own poll.

The cost is at most one core for ``window`` after the last input, and nothing when the queue
manager is busy anyway (the loop never sleeps then) or idle (the window has passed). It does not
spin while the store's writer thread is working (applying or committing a group): the writer wakes
the loop itself, and the spinning would only take the GIL from it. It does spin while the writer
sleeps gathering a group: the synchronous puts it waits for then find the loop awake.
Set ``MQLITE_BUSY_POLL_US=0`` to turn it off.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable, Mapping

DEFAULT_WINDOW_US = 100


def window_from_env(env: Mapping[str, str] = os.environ, cpus: int | None = os.cpu_count()) -> float:
    """The busy-poll window in seconds: ``MQLITE_BUSY_POLL_US``, 0 on a single CPU."""
    if (cpus or 1) < 2:  # the client we wait for needs the only CPU we would spin on
        return 0.0
    try:
        micros = int(env.get("MQLITE_BUSY_POLL_US", DEFAULT_WINDOW_US))
    except ValueError:
        micros = DEFAULT_WINDOW_US
    return max(micros, 0) / 1e6


class BusyPoll:
    """Keeps ``loop`` polling (a ``call_soon`` chain, so it never blocks in epoll) until
    ``window`` has passed since the last ``touch`` or ``paused()`` says to stop. ``clock`` is
    read once per round of the loop while it spins."""

    def __init__(self, loop: asyncio.AbstractEventLoop, window: float, paused: Callable[[], bool],
                 clock: Callable[[], float] = time.perf_counter) -> None:
        self.loop = loop
        self.window = window
        self.paused = paused
        self.clock = clock
        self.last_input = 0.0
        self.spinning = False

    def touch(self) -> None:
        """Input arrived."""
        if not self.window:
            return
        self.last_input = self.clock()
        if not self.spinning:
            self.spinning = True
            self.loop.call_soon(self._spin)

    def _spin(self) -> None:
        if self.clock() - self.last_input < self.window and not self.paused():
            self.loop.call_soon(self._spin)
        else:
            self.spinning = False
