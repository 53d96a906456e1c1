"""How the store's writer sleeps and is woken: one sleeper, under the store's own lock.

``threading.Condition`` would do, but every ``wait`` allocates a lock and every ``notify`` runs
a page of Python (ownership check, waiter list); the writer sleeps twice per group and every
synchronous persistent put notifies it, all on the queue manager's busiest CPU. A ``Wakeup`` is
one lock used as a binary semaphore: ``signal`` is one C call, ``sleep`` two.
"""

from __future__ import annotations

import threading


class Wakeup:
    """Lets one thread sleep until another signals it. Both calls are made with ``lock`` held
    (the caller's state lock); ``sleep`` lets go of it while asleep, as ``Condition.wait`` does."""

    __slots__ = ("_lock", "_signal", "sleeping")

    def __init__(self, lock: threading.Lock) -> None:
        self._lock = lock
        self._signal = threading.Lock()
        self._signal.acquire()  # held: no signal pending
        self.sleeping = False  # a thread is in sleep() and nobody has signalled it yet

    def signal(self) -> None:
        """Wake the sleeper, if there is one (else nothing: a signal is never kept for later)."""
        if self.sleeping:
            self.sleeping = False
            self._signal.release()

    def sleep(self, timeout: float | None = None) -> bool:
        """Sleep until signalled or ``timeout`` seconds pass; True when signalled."""
        self.sleeping = True
        self._lock.release()
        try:
            signalled = self._signal.acquire(True, -1 if timeout is None else max(timeout, 0.0))
        finally:
            self._lock.acquire()
        if not signalled and not self.sleeping:
            # signalled after the wait ran out but before we had the lock back: take the signal,
            # so that the next sleep does not end at once
            self._signal.acquire()
            signalled = True
        self.sleeping = False
        return signalled
