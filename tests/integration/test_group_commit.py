"""Synchronous persistent producers on several connections share commits (group commit): each
put returns only once durable, yet N puts take far fewer than N commits. Counted, not timed."""

from __future__ import annotations

import threading
from pathlib import Path

import mqlite
from mqlite import cmqc as C

QM = "GROUP.QM"
PRODUCERS = 8
PUTS_EACH = 100


def test_waiting_persistent_puts_from_several_connections_share_commits(tmp_path: Path) -> None:
    with mqlite.embedded(QM, home=tmp_path) as qm:
        admin = mqlite.connect(QM)
        assert admin.mqsc("DEFINE QLOCAL(GC.Q) MAXDEPTH(100000)\n")[0] == 0
        host = qm.host
        assert host is not None and host.store is not None
        stats = host.store.stats
        runtime = host.runtime
        assert runtime is not None
        commits_before, txs_before = stats.commits, stats.transactions
        wakeups_before = runtime.durable_wakeups
        start = threading.Barrier(PRODUCERS)
        errors: list[BaseException] = []

        def produce(n: int) -> None:
            try:
                conn = mqlite.connect(QM)
                q = mqlite.Queue(conn, "GC.Q", C.MQOO_OUTPUT)
                md = mqlite.MD(Persistence=C.MQPER_PERSISTENT)
                start.wait()
                for i in range(PUTS_EACH):
                    md.MsgId = C.MQMI_NONE
                    q.put(f"{n}:{i}".encode(), md)  # returns once the message is durable
                conn.disconnect()
            except BaseException as error:  # reported below
                errors.append(error)

        threads = [threading.Thread(target=produce, args=(n,)) for n in range(PRODUCERS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=300)
        assert not errors
        puts = PRODUCERS * PUTS_EACH
        commits = stats.commits - commits_before
        assert stats.transactions - txs_before == puts
        assert commits <= puts // 2, f"{puts} synchronous persistent puts took {commits} commits"
        # A committed group wakes the event loop once for all its callers, not once per put.
        wakeups = runtime.durable_wakeups - wakeups_before
        assert wakeups <= puts // 2, f"{commits} commits of {puts} puts woke the loop {wakeups} times"
        q = mqlite.Queue(admin, "GC.Q", C.MQOO_INQUIRE)
        assert q.inquire(C.MQIA_CURRENT_Q_DEPTH) == puts
        admin.disconnect()
