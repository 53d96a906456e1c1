"""Waiting for a condition with a deadline, instead of sleeping for a guess of how long it takes."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def wait_until(condition: Callable[[], T], what: str, timeout: float = 60.0, interval: float = 0.02) -> T:
    """Poll ``condition`` until it returns something true and return that; fail the test with
    ``what`` (the condition in words) when ``timeout`` seconds pass first. ``timeout`` is an upper
    bound for a machine however loaded, never a condition: a passing test does not wait it out."""
    deadline = time.monotonic() + timeout
    while True:
        result = condition()
        if result:
            return result
        if time.monotonic() >= deadline:
            raise AssertionError(f"timed out after {timeout:g} s waiting until {what}")
        time.sleep(interval)


def waiting_gets(admin: Any, queue: str) -> int:
    """How many handles on ``queue`` have an MQGET with MQGMO_WAIT in progress (IBM's
    ``DISPLAY QSTATUS TYPE(HANDLE) HSTATE(ACTIVE)``); ``admin`` is a connected ``mqlite.client``."""
    code, lines = admin.mqsc(f"DISPLAY QSTATUS({queue}) TYPE(HANDLE) HSTATE\n")
    assert code == 0, lines
    return sum("HSTATE(ACTIVE)" in line for line in lines)
