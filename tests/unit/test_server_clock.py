"""The server's clock: time.time() unless a test's offset file moves it (B:SC-35's injectable clock)."""

from __future__ import annotations

import time
from pathlib import Path

from mqlite.server.clock import Clock


def test_without_a_file_the_clock_is_time_itself() -> None:
    assert Clock().now is time.time


def test_the_offset_file_moves_the_clock_at_each_refresh(tmp_path: Path) -> None:
    offset = tmp_path / "offset"
    clock = Clock(str(offset))  # no file yet: no offset
    assert abs(clock.now() - time.time()) < 5
    offset.write_text(str(27 * 86_400))
    assert abs(clock.now() - time.time()) < 5  # read at the next refresh only
    clock.refresh()
    assert abs(clock.now() - time.time() - 27 * 86_400) < 5
    offset.write_text("not a number")
    clock.refresh()  # an unreadable offset leaves the clock where it was
    assert abs(clock.now() - time.time() - 27 * 86_400) < 5
