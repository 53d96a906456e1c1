"""Issue 31 part 5: DISPLAY RTSTATUS after messages crossed a route (B §23, R-EMS-7: each message
carries the route's sequence number; the receiving side keeps the last it took for duplicate
suppression). The forwarding side's LASTSEQ is the last number it sent, the receiving side's
RCVDSEQ the last it took; neither stays 0 once messages have crossed. Real queue managers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from helpers.mqsc import depth, mqsc
from helpers.qmgrs import QMgr
from helpers.routes import global_topic, join, publish_all, status
from helpers.waiting import wait_until

RunCli = Callable[..., Any]


def test_rtstatus_shows_the_sequence_numbers_of_what_crossed(qmgr_factory: Callable[..., QMgr],
                                                             run_cli: RunCli) -> None:
    a, b = qmgr_factory("A"), qmgr_factory("B")
    for qmgr in (a, b):
        global_topic(run_cli, qmgr, "T1", "T1")
    join(run_cli, a, b)
    mqsc(run_cli, b, "DEFINE QLOCAL(TQ)\nDEFINE SUB(TS) TOPICSTR('T1') DEST(TQ)\n")
    wait_until(lambda: status(a)["B"]["ISUBS"] == "1", "A holds B's interest")
    publish_all(a, b"1", b"2", b"3")
    wait_until(lambda: depth(run_cli, b, "TQ") == 3, "all three on B")
    sent, taken = status(a)["B"], status(b)["A"]
    assert sent["FWDMSGS"] == "3" and taken["RCVDMSGS"] == "3"
    assert int(sent["LASTSEQ"]) > 0, sent  # was LASTSEQ(0): only what was received was shown
    assert sent["LASTSEQ"] == taken["RCVDSEQ"], (sent, taken)  # the same number, seen from both ends
    assert taken["LASTSEQ"] == "0" and sent["RCVDSEQ"] == "0"  # nothing crossed the other way
    publish_all(a, b"4")
    wait_until(lambda: depth(run_cli, b, "TQ") == 4, "the fourth on B")
    assert int(status(a)["B"]["LASTSEQ"]) == int(sent["LASTSEQ"]) + 1
