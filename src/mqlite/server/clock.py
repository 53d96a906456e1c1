"""The queue manager's wall clock, which a test can move forward.

Some behaviour of the seeds is counted in days: a cluster record not refreshed for 27, 54 and 81
days is warned about and dropped at 90 (B:R-CLU-10, A-20, scenario SC-35 "injectable clock").
With ``MQLITE_CLOCK_OFFSET_FILE`` naming a file, the clock is ``time.time()`` plus the seconds that
file holds, read again every tick; without it (every real use), it is ``time.time()``.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable
from pathlib import Path

log = logging.getLogger("mqlite.server")

OFFSET_FILE_VARIABLE = "MQLITE_CLOCK_OFFSET_FILE"


class Clock:
    """``time.time()`` plus an offset (0 unless a test's offset file says otherwise)."""

    def __init__(self, offset_file: str | None = None) -> None:
        self.offset = 0.0
        self._file = Path(offset_file) if offset_file else None
        self.refresh()

    @classmethod
    def from_environment(cls) -> Clock:
        return cls(os.environ.get(OFFSET_FILE_VARIABLE))

    @property
    def now(self) -> Callable[[], float]:
        """The function that tells the time: ``time.time`` itself when nothing can move it (the
        publish path asks several times per message)."""
        return self._shifted if self._file is not None else time.time

    def _shifted(self) -> float:
        return time.time() + self.offset

    def refresh(self) -> None:
        """Read the offset file again (each tick): a missing or unreadable file leaves it as it was."""
        if self._file is None:
            return
        try:
            offset = float(self._file.read_text().strip() or 0)
        except (OSError, ValueError):
            return
        if offset != self.offset:
            log.warning("the clock moves %+.0f s (offset %.0f s from %s)", offset - self.offset, offset, self._file)
            self.offset = offset
