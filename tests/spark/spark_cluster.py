"""A small mqlite cluster for the Spark tests, as real processes: FR1 (the full repository, the
member the Spark jobs connect to and discover the instances from) and QMA and QMB (partial
repositories, each hosting an instance of the cluster queues the tests define).

``running_cluster(home)`` builds it and ends every queue manager it started (by pid) at the end;
``define_queue`` defines a cluster queue on QMA and QMB and waits until FR1 knows both instances.
Clients connect over TCP: the application user ``APP`` puts and reads, the administrator ``ADMIN``
runs the DISPLAY commands that find the instances (remote administration is for administrators).
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import mqlite.client as mqlite
from helpers.cluster import join_all
from helpers.credentials import ADMIN, APP, add_user, grant_app
from helpers.mqsc import mqsc
from helpers.qmgrs import QMgr, reap, run_mqlite
from helpers.waiting import wait_until

CLUSTER = "SPARKDEMO"
HOSTS = ("QMA", "QMB")  # the queue managers hosting an instance of each cluster queue
ENTRY = "FR1"  # the full repository: the member Spark connects to


class Cluster:
    """The running queue managers by name, and runmqsc against their home."""

    def __init__(self, home: Path) -> None:
        self.home = home
        self.qmgrs: dict[str, QMgr] = {}

    def run_cli(self, *args: str, input: str | None = None, timeout: float = 60) -> Any:
        return run_mqlite(tuple(args), self.home, input=input, timeout=timeout)

    def mqsc(self, name: str, text: str, ok: bool = True) -> str:
        return mqsc(self.run_cli, self.qmgrs[name], text, ok=ok)

    def port(self, name: str) -> int:
        port = self.qmgrs[name].port
        assert port is not None
        return port

    def connect(self, name: str) -> Any:
        """A client connection to ``name`` as APP."""
        return mqlite.connect(name, "DEV.APP.SVRCONN", f"127.0.0.1({self.port(name)})", APP.user, APP.password)

    def put(self, name: str, queue: str, texts: Iterable[str]) -> None:
        """Put each text to the instance of ``queue`` on ``name`` (its local queue)."""
        with self.connect(name) as qm:
            q = mqlite.Queue(qm, queue)
            for text in texts:
                q.put(text)
            q.close()

    def depth(self, name: str, queue: str) -> int:
        found = re.search(r"CURDEPTH\((\d+)\)", self.mqsc(name, f"DISPLAY QLOCAL({queue}) CURDEPTH\n", ok=False))
        assert found, f"no depth of {queue} on {name}"
        return int(found[1])

    def conname(self, member: str, of: str) -> str:
        """The CONNAME of ``of`` as ``member`` knows it."""
        shown = self.mqsc(member, f"DISPLAY CLUSQMGR({of}) CONNAME\n", ok=False)
        found = re.search(r"CONNAME\((.*?\(\d+\))\)", shown)
        return found[1] if found else ""

    def define_queue(self, queue: str) -> None:
        """Cluster queue ``queue`` on QMA and QMB (persistent messages by default), both instances
        known to the full repository."""
        for name in HOSTS:
            self.mqsc(name, f"DEFINE QLOCAL({queue}) CLUSTER({CLUSTER}) DEFPSIST(YES) MAXDEPTH(100000)\n")
        wait_until(lambda: self.mqsc(ENTRY, f"DISPLAY QCLUSTER({queue})\n", ok=False).count(f"QUEUE({queue})") == 2,
                   f"{ENTRY} knows both instances of {queue}", timeout=60)

    def options(self, queue: str) -> dict[str, str]:
        """The data source's options: read ``queue`` from every instance, through FR1."""
        return {"host": "127.0.0.1", "port": str(self.port(ENTRY)), "qmgr": ENTRY, "user": APP.user,
                "password": APP.password, "adminUser": ADMIN.user, "adminPassword": ADMIN.password,
                "queue": queue, "cluster": "true"}


@contextlib.contextmanager
def running_cluster(home: Path) -> Iterator[Cluster]:
    """FR1 (full repository), QMA and QMB (partial ones) joined in cluster SPARKDEMO."""
    cluster = Cluster(home)
    try:
        for name in (ENTRY, *HOSTS):
            assert cluster.run_cli("crtmqm", "-p", "0", name).returncode == 0
            add_user(home, name, APP)
            add_user(home, name, ADMIN)
            assert cluster.run_cli("strmqm", name).returncode == 0
            grant_app(home, name)
            cluster.qmgrs[name] = QMgr(name, home)
            # Auto-defined cluster-senders retry after 1 s (their timers are SYSTEM.DEF.CLUSSDR's).
            cluster.mqsc(name, "ALTER CHANNEL(SYSTEM.DEF.CLUSSDR) CHLTYPE(CLUSSDR) SHORTTMR(1)\n")
        join_all(cluster.run_cli, CLUSTER, [cluster.qmgrs[ENTRY]], [cluster.qmgrs[name] for name in HOSTS])
        try:
            wait_until(lambda: all(f"CLUSQMGR({name})" in cluster.mqsc(ENTRY, "DISPLAY CLUSQMGR(*)\n", ok=False)
                                   for name in HOSTS), "FR1 knows QMA and QMB", timeout=60)
        except AssertionError as error:
            shown = cluster.mqsc(ENTRY, "DISPLAY CLUSQMGR(*) ALL\nDISPLAY CHSTATUS(*)\n", ok=False)
            raise AssertionError(f"{error}; FR1 shows:\n{shown}") from None
        yield cluster
    finally:
        reap(home)
