"""The queues distributed publish/subscribe keeps (B §17, scenarios J: SC-69, SC-73)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from helpers.hierarchy import relations
from helpers.mqsc import mqsc
from helpers.qmgrs import QMgr

RunCli = Callable[..., Any]


def test_system_queue_attributes(qmgr_factory: Callable[..., QMgr], run_cli: RunCli) -> None:
    """B:SC-69, B:R-SYSQ-2, A-38: the three SYSTEM.INTER.QMGR queues and SYSTEM.HIERARCHY.STATE,
    each DEFPSIST(YES) DEFSOPT(EXCL) MAXDEPTH(999999999) SHARE, MAXMSGL the queue manager's."""
    qmgr = qmgr_factory("QM1")
    maxmsgl = re.search(r"MAXMSGL\((\d+)\)", mqsc(run_cli, qmgr, "DISPLAY QMGR MAXMSGL\n"))
    assert maxmsgl is not None
    out = mqsc(run_cli, qmgr, "DISPLAY QLOCAL(SYSTEM.INTER.QMGR.*) DEFPSIST DEFSOPT MAXDEPTH SHARE MAXMSGL\n"
                              "DISPLAY QLOCAL(SYSTEM.HIERARCHY.STATE) DEFPSIST DEFSOPT MAXDEPTH SHARE MAXMSGL\n")
    records = [dict(re.findall(r"(\w+)\(([^)]*)\)", record)) | {"SHARE": "SHARE" if " SHARE" in record else ""}
               for record in out.split("AMQ8409I")[1:]]
    assert sorted(r["QUEUE"] for r in records) == ["SYSTEM.HIERARCHY.STATE", "SYSTEM.INTER.QMGR.CONTROL",
                                                   "SYSTEM.INTER.QMGR.FANREQ", "SYSTEM.INTER.QMGR.PUBS"]
    for record in records:
        assert (record["DEFPSIST"], record["DEFSOPT"], record["MAXDEPTH"], record["SHARE"]) == (
            "YES", "EXCL", "999999999", "SHARE"), record
        assert record["MAXMSGL"] == maxmsgl.group(1)


def test_hierarchy_state_queue_unavailable(qmgr_factory: Callable[..., QMgr], run_cli: RunCli) -> None:
    """B:SC-73, B:R-ERR-2, A-40: started with SYSTEM.HIERARCHY.STATE GET(DISABLED) the engine is in
    COMPAT mode (DISPLAY PUBSUB TYPE(LOCAL) says so, the error log why) while PSMODE stays
    ENABLED; started again with the queue available it is ACTIVE."""
    qmgr = qmgr_factory("QM2")
    mqsc(run_cli, qmgr, "ALTER QLOCAL(SYSTEM.HIERARCHY.STATE) GET(DISABLED)\n")
    for command in ("endmqm", "strmqm"):
        assert run_cli(command, "QM2").returncode == 0
    assert relations(run_cli, qmgr, "LOCAL") == {"QM2": ("LOCAL", "COMPAT")}
    assert "PSMODE(ENABLED)" in mqsc(run_cli, qmgr, "DISPLAY QMGR PSMODE\n")
    assert "AMQ5808E" in qmgr.error_log()
    mqsc(run_cli, qmgr, "ALTER QLOCAL(SYSTEM.HIERARCHY.STATE) GET(ENABLED)\n")
    for command in ("endmqm", "strmqm"):
        assert run_cli(command, "QM2").returncode == 0
    assert relations(run_cli, qmgr, "LOCAL") == {"QM2": ("LOCAL", "ACTIVE")}
