"""Waiting for a condition with a deadline, instead of sleeping for a guess of how long it takes."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def wait_until(condition: Callable[[], T], what: str, timeout: float = 30.0, interval: float = 0.02) -> T:
    """Poll ``condition`` until it returns something true and return that; fail the test with
    ``what`` (the condition in words) when ``timeout`` seconds pass first."""
    deadline = time.monotonic() + timeout
    while True:
        result = condition()
        if result:
            return result
        if time.monotonic() >= deadline:
            raise AssertionError(f"timed out after {timeout:g} s waiting until {what}")
        time.sleep(interval)
