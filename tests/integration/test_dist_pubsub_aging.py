"""A cluster topic host gone for good (B:SC-35, R-CLU-10, A-20): with the queue managers' clocks
moved forward by a shared offset file (MQLITE_CLOCK_OFFSET_FILE, the scenario's injectable clock),
the members warn at 27, 54 and 81 days that the host's PRICE is not refreshed and drop it at 90."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from helpers.cluster import formed
from helpers.hierarchy import bodies, idle, proxies, publish
from helpers.module_qmgrs import started
from helpers.mqsc import depth, mqsc
from helpers.qmgrs import QMgr
from helpers.waiting import wait_until

RunCli = Callable[..., Any]
Aged = tuple[dict[str, QMgr], RunCli, Path]
CLUSTER = "AGED"
DAY = 86_400


@pytest.fixture(scope="module")
def aged(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Aged]:
    root = tmp_path_factory.mktemp("aging")
    offset = root / "clock-offset"
    offset.write_text("0")
    before = os.environ.get("MQLITE_CLOCK_OFFSET_FILE")
    os.environ["MQLITE_CLOCK_OFFSET_FILE"] = str(offset)  # the queue managers started here read it
    try:
        with started(root / "mqhome", ("FR1", "QM1", "QM2", "QM3")) as (qmgrs, run_cli):
            formed(run_cli, qmgrs, CLUSTER, ("FR1",))
            yield qmgrs, run_cli, offset
    finally:
        if before is None:
            os.environ.pop("MQLITE_CLOCK_OFFSET_FILE", None)
        else:
            os.environ["MQLITE_CLOCK_OFFSET_FILE"] = before



def test_host_gone_for_good(aged: Aged) -> None:
    """B:SC-35: QM1, PRICE's host, ends at day 0: QM2's publications still reach S3 on QM3; QM2,
    QM3 and FR1 log that PRICE is not refreshed at day 27, 54 and 81; at day 90 the copies are
    dropped, 'Price/Fruit' falls back to SYSTEM.BASE.TOPIC, QM3's proxies are cancelled and QM2's
    publication no longer reaches S3, whose subscription still exists."""
    qmgrs, run_cli, offset = aged
    qm2, qm3 = qmgrs["QM2"], qmgrs["QM3"]
    members = ("FR1", "QM2", "QM3")
    mqsc(run_cli, qmgrs["QM1"], f"DEFINE TOPIC(PRICE) TOPICSTR('Price') CLUSTER({CLUSTER})\n")
    for name in members:
        wait_until(lambda name=name: "PRICE" in mqsc(run_cli, qmgrs[name], "DISPLAY TOPIC(*) TYPE(CLUSTER)\n",
                                                     ok=False), f"{name} caches PRICE", timeout=60)
    mqsc(run_cli, qm3, "DEFINE QLOCAL(S3Q)\nDEFINE SUB(S3) TOPICSTR('Price/Fruit') DEST(S3Q)\n")
    wait_until(lambda: ("QM3", "Price/Fruit") in proxies(run_cli, qm2), "QM2 holds QM3's proxy", timeout=60)
    assert run_cli("endmqm", "-i", "QM1").returncode == 0
    publish(qm2, "Price/Fruit", b"day 0")
    wait_until(lambda: depth(run_cli, qm3, "S3Q") == 1, "day 0's publication at QM3", timeout=60)
    assert bodies(qm3, "S3Q") == [b"day 0"]
    stale = "record of PRICE from queue manager QM1 has not been refreshed for {} days"
    for day in (27, 54, 81):
        offset.write_text(str(day * DAY + 3600))
        for name in members:
            wait_until(lambda name=name, day=day: stale.format(day) in qmgrs[name].error_log(),
                       f"{name} warns about PRICE at day {day}", timeout=60)
    assert "PRICE" in mqsc(run_cli, qm3, "DISPLAY TOPIC(*) TYPE(CLUSTER)\n", ok=False)  # still used
    offset.write_text(str(90 * DAY + 3600))
    for name in members:
        wait_until(lambda name=name: "PRICE" not in mqsc(run_cli, qmgrs[name], "DISPLAY TOPIC(*) TYPE(CLUSTER)\n",
                                                         ok=False), f"{name} dropped PRICE", timeout=60)
        assert "record of PRICE from queue manager QM1 expired after 90 days" in qmgrs[name].error_log()
    assert "CLUSTER( )" in mqsc(run_cli, qm3, "DISPLAY TPSTATUS('Price/Fruit') CLUSTER\n")  # SYSTEM.BASE.TOPIC's
    wait_until(lambda: ("QM3", "Price/Fruit") not in proxies(run_cli, qm2), "QM3's proxy cancelled", timeout=60)
    publish(qm2, "Price/Fruit", b"day 90")
    idle(run_cli, qm2, qm3)  # (FR1 keeps what it had for QM1: QM1 is gone, not deleted)
    assert bodies(qm3, "S3Q") == []
    assert "SUB(S3)" in mqsc(run_cli, qm3, "DISPLAY SUB(S3)\n")
