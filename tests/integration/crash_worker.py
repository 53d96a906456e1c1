"""A producer or consumer process for the crash test (run as a script, killed with its qmgr).

Each line it appends to its log is flushed before the next MQI call, so the log says exactly
what the queue manager had acknowledged when it died:
- producer: ``ACK <body>`` once a put (outside syncpoint) or the commit of a batch returned;
- consumer: ``GOT <body>`` after an MQGET under syncpoint, ``COMMIT`` once MQCMIT returned.
"""

from __future__ import annotations

import sys

import mqlite
from mqlite import cmqc as C


def produce(qmgr: str, queue: str, tag: str, log_path: str) -> None:
    qm = mqlite.connect(qmgr)
    q = mqlite.Queue(qm, queue, C.MQOO_OUTPUT)
    with open(log_path, "a", buffering=1) as log:
        i = 0
        while True:
            if i % 50 < 40:  # most puts outside syncpoint, one batch in five under syncpoint
                body = f"{tag}-{i}"
                q.put(body.encode(), mqlite.MD(Persistence=C.MQPER_PERSISTENT),
                      mqlite.PMO(Options=C.MQPMO_NO_SYNCPOINT))
                log.write(f"ACK {body}\n")
                i += 1
                continue
            batch = [f"{tag}-{i + k}" for k in range(10)]
            for body in batch:
                q.put(body.encode(), mqlite.MD(Persistence=C.MQPER_PERSISTENT),
                      mqlite.PMO(Options=C.MQPMO_SYNCPOINT))
            qm.commit()
            log.write("".join(f"ACK {body}\n" for body in batch))
            i += 10


def consume(qmgr: str, queue: str, log_path: str) -> None:
    qm = mqlite.connect(qmgr)
    q = mqlite.Queue(qm, queue, C.MQOO_INPUT_SHARED)
    gmo = mqlite.GMO(Options=C.MQGMO_WAIT | C.MQGMO_SYNCPOINT, WaitInterval=500)
    with open(log_path, "a", buffering=1) as log:
        while True:
            got = []
            for _ in range(5):
                try:
                    got.append(q.get(None, mqlite.MD(), gmo).decode())
                except mqlite.MQMIError as error:
                    if error.reason != C.MQRC_NO_MSG_AVAILABLE:
                        raise
                    break
            if not got:
                continue
            log.write("".join(f"GOT {body}\n" for body in got))
            qm.commit()
            log.write("COMMIT\n")


if __name__ == "__main__":
    role, qmgr, queue, *rest = sys.argv[1:]
    try:
        if role == "produce":
            produce(qmgr, queue, rest[0], rest[1])
        else:
            consume(qmgr, queue, rest[0])
    except (mqlite.MQMIError, OSError):
        sys.exit(0)  # the queue manager died under us: that is the point of the test
