"""Queue managers joined in a cluster, as an administrator joins them with MQSC (B:§22)."""

from __future__ import annotations

from collections.abc import Sequence

import mqlite.client as mqlite
from helpers.mqsc import RunCli, mqsc
from helpers.qmgrs import QMgr
from helpers.waiting import wait_until


def receive(run_cli: RunCli, qmgr: QMgr, cluster: str, repos: bool = False) -> None:
    """``qmgr``'s cluster-receiver <cluster>.<qmgr> (CONNAME left blank: the queue manager
    publishes its own port), a full repository with ``repos``; the cluster's channels are let in
    (secure by default: CHLAUTH names who may be a receiver's partner)."""
    script = [f"ALTER QMGR REPOS({cluster})"] if repos else []
    script += [f"DEFINE CHANNEL({cluster}.{qmgr.name}) CHLTYPE(CLUSRCVR) CLUSTER({cluster})",
               f"SET CHLAUTH('{cluster}.*') TYPE(QMGRMAP) QMNAME('*') USERSRC(CHANNEL)"]
    mqsc(run_cli, qmgr, "\n".join(script) + "\n")


def send_to(run_cli: RunCli, qmgr: QMgr, cluster: str, full: QMgr) -> None:
    """``qmgr``'s manual cluster-sender to full repository ``full``, named after its receiver."""
    mqsc(run_cli, qmgr, f"DEFINE CHANNEL({cluster}.{full.name}) CHLTYPE(CLUSSDR) "
                        f"CONNAME('127.0.0.1({full.port})') CLUSTER({cluster})\n")


def join_all(run_cli: RunCli, cluster: str, full: Sequence[QMgr], partial: Sequence[QMgr]) -> None:
    """The full repositories and then the partial ones join: every receiver first (so no sender
    meets a partner without one), then each full repository's sender to the next full one and
    each partial one's to a full one, in turn."""
    for qmgr in full:
        receive(run_cli, qmgr, cluster, repos=True)
    for qmgr in partial:
        receive(run_cli, qmgr, cluster)
    for index, qmgr in enumerate(full):
        if len(full) > 1:
            send_to(run_cli, qmgr, cluster, full[(index + 1) % len(full)])
    for index, qmgr in enumerate(partial):
        send_to(run_cli, qmgr, cluster, full[index % len(full)])


def start_channel_by_put(run_cli: RunCli, source: QMgr, cluster: str, target: str, queue: str) -> None:
    """A warm-up message from ``source`` to ``queue`` at ``target`` starts ``source``'s
    cluster-sender to ``target``; wait until it runs. The workload algorithm prefers a running
    channel to one still starting, so a test of how puts spread needs its channels equal."""
    with mqlite.connect(source.name) as conn:
        mqlite.Queue(conn, mqlite.OD(ObjectName=queue, ObjectQMgrName=target)).put(b"warm-up")
    wait_until(lambda: "STATUS(RUNNING)" in mqsc(
        run_cli, source, f"DISPLAY CHSTATUS({cluster}.{target}) STATUS\n", ok=False),
        f"{source.name}'s channel to {target} running", timeout=60)


def formed(run_cli: RunCli, qmgrs: dict[str, QMgr], cluster: str, full: Sequence[str]) -> None:
    """``qmgrs`` join ``cluster`` (``full`` its full repositories, the others partial ones), with
    the auto-defined cluster-senders retrying after 1 s; wait until every full repository knows
    every member."""
    for qmgr in qmgrs.values():
        mqsc(run_cli, qmgr, "ALTER CHANNEL(SYSTEM.DEF.CLUSSDR) CHLTYPE(CLUSSDR) SHORTTMR(1)\n")
    join_all(run_cli, cluster, [qmgrs[n] for n in full], [q for n, q in qmgrs.items() if n not in full])
    for name in full:
        wait_until(lambda name=name: mqsc(run_cli, qmgrs[name], "DISPLAY CLUSQMGR(*)\n", ok=False).count("AMQ8441I")
                   == len(qmgrs), f"{name} knows every member", timeout=60)
