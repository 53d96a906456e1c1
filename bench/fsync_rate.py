"""How many fsyncs per second this disk does: the ceiling of one-commit-per-message persistence.

Group commit must beat this figure by a wide margin; the store benchmark reports its ratio to it.
Prints one JSON line: {"fsync_per_s": ..., "directory": ...}.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time


def fsync_rate(directory: str | os.PathLike[str], seconds: float = 2.0) -> float:
    """Write 1 KB and fsync, in a loop, on a scratch file in `directory`; return fsyncs/s."""
    block = os.urandom(1024)
    fd, path = tempfile.mkstemp(prefix="fsync-rate-", dir=directory)
    try:
        count = 0
        start = time.perf_counter()
        deadline = start + seconds
        now = start
        while now < deadline:
            os.write(fd, block)
            os.fsync(fd)
            count += 1
            now = time.perf_counter()
        return count / (now - start)
    finally:
        os.close(fd)
        os.unlink(path)


if __name__ == "__main__":
    where = sys.argv[1] if len(sys.argv) > 1 else tempfile.gettempdir()
    secs = float(sys.argv[2]) if len(sys.argv) > 2 else 2.0
    print(json.dumps({"fsync_per_s": round(fsync_rate(where, secs), 1), "directory": str(where)}))
