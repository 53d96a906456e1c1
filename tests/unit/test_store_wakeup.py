"""The store writer's sleep and wake-up (store/wakeup.py): one sleeper, under the caller's lock."""

from __future__ import annotations

import threading
import time

from mqlite.store.wakeup import Wakeup


def test_a_signal_wakes_the_sleeper_and_it_holds_the_lock_again() -> None:
    lock = threading.Lock()
    wakeup = Wakeup(lock)
    woke: list[bool] = []

    def sleeper() -> None:
        with lock:
            woke.append(wakeup.sleep())
            woke.append(lock.locked())

    thread = threading.Thread(target=sleeper)
    thread.start()
    deadline = time.monotonic() + 30
    while True:  # until the sleeper is asleep (it let go of the lock)
        with lock:
            if wakeup.sleeping:
                wakeup.signal()
                break
        assert time.monotonic() < deadline
        time.sleep(0.001)
    thread.join(30)
    assert woke == [True, True]
    assert not wakeup.sleeping


def test_a_signal_with_nobody_asleep_is_not_kept() -> None:
    lock = threading.Lock()
    wakeup = Wakeup(lock)
    with lock:
        wakeup.signal()
        assert wakeup.sleep(0.01) is False  # ran out: the earlier signal was for nobody


def test_a_signal_after_the_wait_ran_out_is_taken_not_left_for_the_next_sleep() -> None:
    """The sleeper's wait runs out while the signaller holds the lock and signals: the sleeper
    reports the signal, and the next sleep waits again."""
    lock = threading.Lock()
    wakeup = Wakeup(lock)
    results: list[bool] = []
    signaller_has_lock = threading.Event()

    def sleeper() -> None:
        with lock:
            results.append(wakeup.sleep(0.05))  # runs out while the main thread holds the lock
            results.append(wakeup.sleep(0.05))

    thread = threading.Thread(target=sleeper)
    thread.start()
    deadline = time.monotonic() + 30
    while True:
        with lock:
            if wakeup.sleeping:
                signaller_has_lock.set()
                time.sleep(0.1)  # the sleeper's 50 ms run out meanwhile; it waits for the lock
                wakeup.signal()
                break
        assert time.monotonic() < deadline
        time.sleep(0.001)
    thread.join(30)
    assert signaller_has_lock.is_set()
    assert results == [True, False]
