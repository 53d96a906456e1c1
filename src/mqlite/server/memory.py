"""Giving memory back to the operating system once the queue manager has gone idle.

After a burst (say 200,000 messages put and got) the process keeps what its allocators and
SQLite hold even though nothing lives in it any more (bench/memory.py, docs/PERFORMANCE.md
"Memory under load"): SQLite's page caches (up to ``cache_size`` per connection) and free
blocks glibc's malloc keeps in its heaps. Neither is a leak, but an idle queue manager that
holds 120 MB for a 30 MB working set looks like one. So when it has been quiet for a few
seconds after work, the runtime asks the store to shrink its caches and glibc to trim its heaps.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable

IDLE_SECONDS = 5.0  # quiet this long after work before memory is given back


def _find_malloc_trim() -> Callable[[int], int] | None:
    try:
        trim: Callable[[int], int] = ctypes.CDLL(None).malloc_trim  # glibc only
    except (AttributeError, OSError):
        return None
    return trim


_malloc_trim = _find_malloc_trim()


def trim_c_heap() -> bool:
    """Return the C heap's free memory to the OS (glibc ``malloc_trim(0)``); False where the C
    library has no such call."""
    if _malloc_trim is None:
        return False
    _malloc_trim(0)
    return True
