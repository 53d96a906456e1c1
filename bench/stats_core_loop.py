"""put+get pairs on a core QueueManager in this process (no server, no sockets, no timer): the
hot path alone, for callgrind (issue 33, statistics).

    PYTHONHASHSEED=0 valgrind --tool=callgrind --trace-children=no --collect-systime=no \\
        --cache-sim=no --branch-sim=no python bench/stats_core_loop.py 11000 OFF
    ... python bench/stats_core_loop.py 1000 OFF       # per put+get = difference / 10,000

argv: the number of pairs, the queue's STATQ (ON also begins a statistics interval, so it is
collected).
"""

from __future__ import annotations

import sys

from mqlite import cmqc as C
from mqlite.core.qmgr import QueueManager
from mqlite.core.security.service import administrator
from mqlite.core.waiters import GetRequest
from mqlite.message import MessageDescriptor


def main() -> None:
    count, statq = int(sys.argv[1]), sys.argv[2]
    qm = QueueManager("QM1", clock=lambda: 1_800_000_000.0)
    qm.bootstrap()
    qm.take_effects()
    qm.define("QLOCAL", "CG.Q", {"STATQ": statq})
    if statq == "ON" and hasattr(qm, "statistics_writer"):
        qm.statistics_writer.start()
    conn = qm.connect(administrator("alice"), "app.py", pid=1)
    handle = qm.open(conn, {"ObjectName": "CG.Q"}, C.MQOO_OUTPUT | C.MQOO_INPUT_SHARED)
    request = GetRequest(C.MQGMO_NO_SYNCPOINT, None, None, -1, 0)
    body = b"x" * 100
    for _ in range(count):
        qm.put(conn, handle.hobj, MessageDescriptor(Persistence=C.MQPER_NOT_PERSISTENT), C.MQPMO_NO_SYNCPOINT,
               {}, body)
        qm.take_effects()
        qm.get(conn, handle.hobj, request)
        qm.take_effects()


if __name__ == "__main__":
    main()
