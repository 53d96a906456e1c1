"""The instructions a put+get costs the queue manager, counted by callgrind (issue 33, statistics).

A thin user of bench/cost.py's runner (the queue manager under callgrind, wall clock frozen,
busy polling and CPU placement off, PYTHONHASHSEED=0): a native client puts and gets N
non-persistent messages of 256 bytes (100 before issue 34) on CG.Q, one at a time, and the queue
manager is ended. Two runs (3,000 and 1,000 messages) cancel the start and the end: per message
= (Ir(3,000) - Ir(1,000)) / 2,000.

    python bench/stats_cost.py --statq OFF            # the queue's STATQ(OFF), QMGR STATQ(NONE)
    python bench/stats_cost.py --statq ON             # STATQ(ON): collected
    PYTHONPATH=/tmp/base/src python bench/stats_cost.py --statq OFF   # another tree (before a change)
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import cost  # bench/cost.py: the method lives there

QUEUE = "CG.Q"


def run(count: int, statq: str) -> int:
    """Ir of the queue manager process for ``count`` put+get pairs on CG.Q."""
    setup = f"DEFINE QLOCAL({QUEUE}) REPLACE\n"
    if statq == "ON":
        setup += f"ALTER QMGR STATQ(ON)\nALTER QLOCAL({QUEUE}) STATQ(ON)\nRESET QMGR TYPE(STATISTICS)\n"
    tree = os.environ.get("PYTHONPATH", "").split(os.pathsep)[0]  # PYTHONPATH=<tree>/src: that tree's server
    return cost.server_run(count, "put_get", 0, QUEUE, setup=setup, src=tree or None).total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--statq", choices=("ON", "OFF"), default="OFF")
    parser.add_argument("--high", type=int, default=3000)
    parser.add_argument("--low", type=int, default=1000)
    args = parser.parse_args()
    high, low = run(args.high, args.statq), run(args.low, args.statq)
    per = (high - low) / (args.high - args.low)
    print(f"STATQ({args.statq}) Ir {args.high}: {high:,}  Ir {args.low}: {low:,}  per put+get: {per:,.0f}")


if __name__ == "__main__":
    main()
