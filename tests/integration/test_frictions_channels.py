"""Issue 31 part 5, the frictions of message channels (B:R-CHN-5: a sender's states and retries):
START CHANNEL on a RETRYING sender tries now, DISPLAY CHSTATUS counts the retries left down
(SHORTRTS, then LONGRTS), PING CHANNEL works on a RETRYING sender as IBM has it ("not valid if
the channel is running; however, it is valid if the channel is stopped or in retry mode"), and
a partner that cannot be reached is IBM's AMQ9202E.

No clock: every retry interval is far longer than any test (999999 s), so only an immediate
attempt can make a test pass, and the waits are for what DISPLAY CHSTATUS shows."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import mqlite.client as mqlite
from helpers.mqsc import depth, mqsc, records
from helpers.qmgrs import QMgr
from helpers.relay import Relay
from helpers.waiting import wait_until
from mqlite import cmqc as C

RunCli = Callable[..., Any]
FOREVER = 999999  # SHORTTMR/LONGTMR: longer than any test runs


def chstatus(run_cli: RunCli, qmgr: QMgr, channel: str) -> dict[str, str]:
    """DISPLAY CHSTATUS(channel) ALL: its one record ({} when there is none)."""
    rows = records(mqsc(run_cli, qmgr, f"DISPLAY CHSTATUS({channel}) ALL\n", ok=False), "AMQ8417I")
    return rows[0] if rows else {}


@pytest.fixture
def relayed(qmgr_factory: Callable[..., QMgr], run_cli: RunCli,
            refused_port: int) -> Iterator[tuple[QMgr, QMgr, Relay]]:
    """QM1's sender QM1.TO.QM2 reaches QM2 through a relay that points nowhere yet (each attempt
    fails), with retry intervals longer than the test."""
    qm1, qm2 = qmgr_factory("QM1"), qmgr_factory("QM2")
    relay = Relay(("127.0.0.1", refused_port))
    mqsc(run_cli, qm1, f"DEFINE QLOCAL(QM2) USAGE(XMITQ)\n"
                       f"DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) CONNAME('127.0.0.1({relay.port})') XMITQ(QM2) "
                       f"SHORTRTY(3) SHORTTMR({FOREVER}) LONGRTY(2) LONGTMR({FOREVER})\n"
                       "DEFINE QREMOTE(TO.APP.IN) RNAME(APP.IN) RQMNAME(QM2) XMITQ(QM2)\n")
    mqsc(run_cli, qm2, "DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(RCVR)\nDEFINE QLOCAL(APP.IN)\n"
                       "SET CHLAUTH(QM1.TO.QM2) TYPE(QMGRMAP) QMNAME(QM1) USERSRC(CHANNEL)\n")
    try:
        yield qm1, qm2, relay
    finally:
        relay.close()


def test_start_and_ping_of_a_retrying_sender_act_now(relayed: tuple[QMgr, QMgr, Relay], run_cli: RunCli) -> None:
    """B:R-CHN-5: a RETRYING sender waits SHORTTMR for its next attempt; START CHANNEL makes that
    attempt now, and PING CHANNEL reaches the partner meanwhile (IBM: valid in retry mode; it
    moves no message)."""
    qm1, qm2, relay = relayed
    with mqlite.connect("QM1") as q1:  # the sender is triggered by the message, and fails
        mqlite.Queue(q1, "TO.APP.IN").put(b"waits for START", mqlite.MD(Persistence=C.MQPER_PERSISTENT))
    wait_until(lambda: chstatus(run_cli, qm1, "QM1.TO.QM2").get("STATUS") == "RETRYING", "the sender RETRYING")
    assert qm2.port is not None
    relay.target = ("127.0.0.1", qm2.port)  # the partner can be reached from now on
    pinged = mqsc(run_cli, qm1, "PING CHANNEL(QM1.TO.QM2)\n", ok=False)
    assert "AMQ8020I: Ping WebSphere MQ channel complete." in pinged, pinged
    assert depth(run_cli, qm1, "QM2") == 1 and chstatus(run_cli, qm1, "QM1.TO.QM2")["STATUS"] == "RETRYING"
    started = mqsc(run_cli, qm1, "START CHANNEL(QM1.TO.QM2)\n")
    assert "AMQ8018I" in started
    wait_until(lambda: depth(run_cli, qm2, "APP.IN") == 1, "the message across at once, not after SHORTTMR")
    wait_until(lambda: chstatus(run_cli, qm1, "QM1.TO.QM2").get("STATUS") == "RUNNING", "the sender RUNNING")
    shown = chstatus(run_cli, qm1, "QM1.TO.QM2")
    assert (shown["SHORTRTS"], shown["LONGRTS"]) == ("3", "2")  # running: every retry left again


def test_chstatus_counts_the_retries_left_down(qmgr_factory: Callable[..., QMgr], run_cli: RunCli,
                                               refused_port: int) -> None:
    """SHORTRTS counts the short retries left down from SHORTRTY, then LONGRTS from LONGRTY (IBM's
    DISPLAY CHSTATUS); the error log says why each attempt failed in IBM's words (AMQ9202E with
    the connect call's return code, not Python's exception text)."""
    qm1 = qmgr_factory("QM1")
    mqsc(run_cli, qm1, f"DEFINE QLOCAL(QM2) USAGE(XMITQ)\n"
                       f"DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) CONNAME('127.0.0.1({refused_port})') XMITQ(QM2) "
                       f"SHORTRTY(2) SHORTTMR(0) LONGRTY(3) LONGTMR({FOREVER})\n"
                       "START CHANNEL(QM1.TO.QM2)\n")
    # the first attempt and both short retries fail at once; the first long retry waits
    wait_until(lambda: (lambda s: (s.get("SHORTRTS"), s.get("LONGRTS")))(chstatus(run_cli, qm1, "QM1.TO.QM2"))
               == ("0", "3"), "the short retries spent")
    assert chstatus(run_cli, qm1, "QM1.TO.QM2")["STATUS"] == "RETRYING"
    mqsc(run_cli, qm1, "START CHANNEL(QM1.TO.QM2)\n")  # the first long retry, now
    wait_until(lambda: chstatus(run_cli, qm1, "QM1.TO.QM2").get("LONGRTS") == "2", "one long retry made")
    log = qm1.error_log()
    headline = f"AMQ9202E: Remote host '127.0.0.1 ({refused_port})' not available, retry later."
    entries = [line for line in log.splitlines() if line == headline]  # IBM's entry of its own, per attempt
    assert len(entries) == 4, log  # the first attempt, two short retries, one long retry
    assert "The return code from the TCP/IP (connect) call was 111 (X'6F')." in log
    assert "for channel 'QM1.TO.QM2' was not successful" in log
    assert "ConnectionRefusedError" not in log and "Errno" not in log
    assert re.search(r"AMQ9999E: Channel 'QM1.TO.QM2' ended abnormally", log)


def test_ping_of_a_partner_not_listening_is_ibms_amq9202e(qmgr_factory: Callable[..., QMgr], run_cli: RunCli,
                                                          refused_port: int) -> None:
    """PING CHANNEL to nobody: MQRCCF_ALLOCATE_FAILED (4009) with IBM's AMQ9202E text."""
    qm1 = qmgr_factory("QM1")
    mqsc(run_cli, qm1, "DEFINE QLOCAL(QM2) USAGE(XMITQ)\n"
                       f"DEFINE CHANNEL(NOBODY) CHLTYPE(SDR) CONNAME('127.0.0.1({refused_port})') XMITQ(QM2)\n")
    out = mqsc(run_cli, qm1, "PING CHANNEL(NOBODY)\n", ok=False)
    assert "MQRCCF_ALLOCATE_FAILED (4009)" in out, out
    assert "ConnectionRefusedError" not in out and "Errno" not in out
    log = qm1.error_log()
    assert f"AMQ9202E: Remote host '127.0.0.1 ({refused_port})' not available, retry later." in log
    assert "ConnectionRefusedError" not in log and "Errno" not in log
