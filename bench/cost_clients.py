"""bench/cost.py's native client processes: ``python bench/cost_clients.py WORKLOAD QM COUNT [ARG ...]``.

Each workload drives COUNT messages through queue manager QM (in $MQLITE_HOME) one way, always
the same way, so that two runs differ only in COUNT. Before its COUNT messages a workload does
the same set-up whatever COUNT is (opens, subscriptions); the cost of both cancels in the
subtraction.
"""

from __future__ import annotations

import json
import os
import re
import sys
import time
from pathlib import Path

BODY = b"x" * 256
QUEUE = "COST.Q"


def accepts(home: Path, name: str) -> bool:
    """Whether the queue manager in ``home`` accepts local connections yet (the bench's process)."""
    from mqlite import paths

    before = os.environ.get("MQLITE_HOME")
    os.environ["MQLITE_HOME"] = str(home)
    try:
        return paths.accepts_connections(name)
    finally:
        if before is None:
            os.environ.pop("MQLITE_HOME", None)
        else:
            os.environ["MQLITE_HOME"] = before


def _mqsc(qm: object, text: str) -> None:
    code, lines = qm.mqsc(text)  # type: ignore[attr-defined]
    if code:
        raise RuntimeError("\n".join(lines))


def main(argv: list[str]) -> None:
    import mqlite
    from mqlite import cmqc as C

    workload, name = argv[0], argv[1]
    if workload == "mqsc":
        qm = mqlite.connect(name)
        code, lines = qm.mqsc(argv[2])
        qm.disconnect()
        print("\n".join(lines))
        if code:
            raise SystemExit(f"mqsc failed ({code})")
        return
    count, arg = int(argv[2]), int(argv[3]) if len(argv) > 3 else 0
    qm = mqlite.connect(name)
    queue = argv[4] if workload == "put_get" and len(argv) > 4 else QUEUE  # another's set-up queue
    if workload in ("put_get", "put_only", "async_put_read_ahead") and queue == QUEUE:
        _mqsc(qm, f"DEFINE QLOCAL({QUEUE}) REPLACE")
    persistence = C.MQPER_PERSISTENT if arg else C.MQPER_NOT_PERSISTENT
    if workload == "put_get":  # a: arg 0, c: arg 1 (persistent); one message at a time
        collector = None
        if argv[5:] == ["scraped"]:  # a_scraped: /metrics's collector subscribed throughout
            from mqlite.web.metrics import Collector

            collector = Collector(qmgrs=lambda: [name], queue_subscription_selector=())
            collector.collect()
        q = mqlite.Queue(qm, queue, C.MQOO_OUTPUT | C.MQOO_INPUT_SHARED)
        md = mqlite.MD(Persistence=persistence)
        pmo = mqlite.PMO(Options=C.MQPMO_NO_SYNCPOINT)
        gmo = mqlite.GMO(Options=C.MQGMO_NO_SYNCPOINT | C.MQGMO_NO_WAIT)
        for _ in range(count):
            md.MsgId = C.MQMI_NONE
            q.put(BODY, md, pmo)
            q.get(None, mqlite.MD(), gmo)
        got = mqlite.MD()  # one more, to show the server's PutDate/PutTime (the frozen clock)
        q.put(b"stamp", mqlite.MD(Persistence=C.MQPER_NOT_PERSISTENT), pmo)
        q.get(None, got, gmo)
        q.close()
        if collector is not None:
            collector.collect()
            collector.close()
        print(json.dumps({"PutDate": _text(got.PutDate), "PutTime": _text(got.PutTime)}))
    elif workload == "put_only":  # case e's base: the sender queue manager's put alone
        q = mqlite.Queue(qm, QUEUE, C.MQOO_OUTPUT)
        md = mqlite.MD(Persistence=persistence)
        pmo = mqlite.PMO(Options=C.MQPMO_NO_SYNCPOINT)
        for _ in range(count):
            md.MsgId = C.MQMI_NONE
            q.put(BODY, md, pmo)
        q.close()
    elif workload == "async_put_read_ahead":  # b: all put asynchronously, then all got read-ahead
        q = mqlite.Queue(qm, QUEUE, C.MQOO_OUTPUT)
        md = mqlite.MD(Persistence=C.MQPER_NOT_PERSISTENT)
        pmo = mqlite.PMO(Options=C.MQPMO_NO_SYNCPOINT | C.MQPMO_ASYNC_RESPONSE)
        for _ in range(count):
            md.MsgId = C.MQMI_NONE
            q.put(BODY, md, pmo)
        q.put(b"last", mqlite.MD(Persistence=C.MQPER_NOT_PERSISTENT))  # synchronous: all before it are in
        q.close()
        q = mqlite.Queue(qm, QUEUE, C.MQOO_INPUT_SHARED | C.MQOO_READ_AHEAD)
        gmo = mqlite.GMO(Options=C.MQGMO_NO_SYNCPOINT | C.MQGMO_WAIT, WaitInterval=60_000)
        for _ in range(count + 1):
            q.get(None, mqlite.MD(), gmo)
        q.close()
    elif workload == "pub_get":  # d: arg subscribers; each publication then each subscriber's get
        subs = [mqlite.Subscription(qm, "COST/TOPIC") for _ in range(arg)]
        topic = mqlite.Topic(qm, topic_string="COST/TOPIC", open_opts=C.MQOO_OUTPUT)
        md = mqlite.MD(Persistence=C.MQPER_NOT_PERSISTENT)
        pmo = mqlite.PMO(Options=C.MQPMO_NO_SYNCPOINT)
        gmo = mqlite.GMO(Options=C.MQGMO_NO_SYNCPOINT | C.MQGMO_NO_WAIT)
        for _ in range(count):
            md.MsgId = C.MQMI_NONE
            topic.pub(BODY, md, pmo)
            for sub in subs:
                sub.get(None, mqlite.MD(), gmo)
        topic.close()
        for sub in subs:
            sub.close()
    elif workload == "put_to":  # arg persistent; argv[4] the queue (a remote or cluster one too)
        q = mqlite.Queue(qm, argv[4], C.MQOO_OUTPUT)
        md = mqlite.MD(Persistence=persistence)
        pmo = mqlite.PMO(Options=C.MQPMO_NO_SYNCPOINT)
        for _ in range(count):
            md.MsgId = C.MQMI_NONE
            q.put(BODY, md, pmo)
        q.close()
    elif workload == "publish":  # arg persistent; argv[4] the topic string
        topic = mqlite.Topic(qm, topic_string=argv[4], open_opts=C.MQOO_OUTPUT)
        md = mqlite.MD(Persistence=persistence)
        pmo = mqlite.PMO(Options=C.MQPMO_NO_SYNCPOINT)
        for _ in range(count):
            md.MsgId = C.MQMI_NONE
            topic.pub(BODY, md, pmo)
        topic.close()
    elif workload == "scrape":  # /metrics's scrapes of a queue manager with arg application queues
        from mqlite.web.metrics import Collector

        names = [f"APP.Q.{n:04d}" for n in range(arg)]
        _mqsc(qm, "".join(f"DEFINE QLOCAL({name}) REPLACE\n" for name in names))
        with mqlite.Queue(qm, names[0], C.MQOO_OUTPUT) as q:  # (one oldest-message browse a scrape)
            q.put(b"a message for the oldest-message age", mqlite.MD(Persistence=C.MQPER_NOT_PERSISTENT))
        collector = Collector(qmgrs=lambda: [name], queue_subscription_selector=())
        for _ in range(count):
            collector.collect()
        collector.close()
    elif workload == "wait_depth":  # until argv[4]'s CURDEPTH is COUNT, asking every arg ms
        deadline = time.monotonic() + 1800
        while _depth(qm, argv[4]) != count:
            if time.monotonic() > deadline:
                raise SystemExit(f"{argv[4]} did not reach depth {count}: {_depth(qm, argv[4])}")
            time.sleep(arg / 1000)
    elif workload == "wait_shown":  # until MQSC argv[4] shows argv[5], asking every arg ms
        deadline = time.monotonic() + 1800
        while argv[5] not in "\n".join(qm.mqsc(argv[4])[1]):
            if time.monotonic() > deadline:
                raise SystemExit(f"{argv[4]!r} never showed {argv[5]!r}: {qm.mqsc(argv[4])[1]}")
            time.sleep(arg / 1000)
    else:
        raise SystemExit(f"unknown workload {workload}")
    qm.disconnect()


def _depth(qm: object, queue: str) -> int:
    lines = qm.mqsc(f"DISPLAY QLOCAL({queue}) CURDEPTH")[1]  # type: ignore[attr-defined]
    found = re.search(r"CURDEPTH\((\d+)\)", "\n".join(lines))
    return int(found.group(1)) if found else -1


def _text(value: object) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


if __name__ == "__main__":
    main(sys.argv[1:])
