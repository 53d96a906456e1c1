"""Assured delivery under faults (issue 15 item 3, B:R-CHN-4, B:SC-76, B:SC-77): 10,000 persistent messages
cross a channel exactly once, in order, while the network between the queue managers is cut and
while either queue manager is killed with SIGKILL in the middle of a batch.

QM1's sender reaches QM2 through a TCP relay of the tests' own (``helpers.relay``), which cuts
every connection at once when told and follows QM2 to its new port after a restart.
"""

from __future__ import annotations

import os
import re
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

import mqlite.client as mqlite
from helpers.mqsc import depth, mqsc
from helpers.qmgrs import QMgr, server_pids
from helpers.relay import Relay
from helpers.waiting import wait_until
from mqlite import cmqc as C
from mqlite.cli.state import process_alive

RunCli = Callable[..., Any]
PERSISTENT = mqlite.MD(Persistence=C.MQPER_PERSISTENT)
# test_network_cuts' 10,000 messages are about 6.2 MB on the wire (batches of 50: some 32 kB
# each): ten cuts, one after each 400 kB, end by the first 4 MB whatever the machine's speed.
CUT_EVERY = 400_000




@pytest.fixture
def linked(qmgr_factory: Callable[..., QMgr], run_cli: RunCli) -> Iterator[tuple[QMgr, QMgr, Relay]]:
    qm1, qm2 = qmgr_factory("QM1"), qmgr_factory("QM2")
    assert qm2.port is not None
    relay = Relay(("127.0.0.1", qm2.port))
    mqsc(run_cli, qm1, f"DEFINE QLOCAL(QM2) USAGE(XMITQ) MAXDEPTH(100000)\n"
                       f"DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) CONNAME('127.0.0.1({relay.port})') XMITQ(QM2) "
                       "BATCHSZ(50) SHORTRTY(100000) SHORTTMR(0)\n"
                       "DEFINE QREMOTE(TO.APP.IN) RNAME(APP.IN) RQMNAME(QM2) XMITQ(QM2)\n")
    mqsc(run_cli, qm2, "DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(RCVR)\nDEFINE QLOCAL(APP.IN) MAXDEPTH(100000)\n"
                       "SET CHLAUTH(QM1.TO.QM2) TYPE(QMGRMAP) QMNAME(QM1) USERSRC(CHANNEL)\n")
    try:
        yield qm1, qm2, relay
    finally:
        relay.close()


def put_numbered(qmgr: str, first: int, count: int, *, at_once: bool = False) -> None:
    """Asynchronous persistent puts (IBM's way to stream them); the last synchronous one returns
    once all are durable. ``at_once``: in one unit of work, so the sender finds them all on its
    transmission queue together and cuts full batches."""
    with mqlite.connect(qmgr) as qm, mqlite.Queue(qm, "TO.APP.IN") as queue:
        for n in range(first, first + count - 1):
            queue.put(b"%06d" % n, PERSISTENT, syncpoint=at_once, asynchronous=True)
        queue.put(b"%06d" % (first + count - 1), PERSISTENT, syncpoint=at_once)
        if at_once:
            qm.commit()


def drain(qmgr: str, expected: int) -> list[int]:
    """Everything on APP.IN once ``settle`` saw nothing in flight: ``expected`` messages (waiting
    for each, an upper bound only), then whatever more is there (a duplicate would be: with
    nothing in flight, nothing more can come, so there is nothing to wait for)."""
    got = []
    with mqlite.connect(qmgr) as qm, mqlite.Queue(qm, "APP.IN", C.MQOO_INPUT_SHARED) as queue:
        while True:
            wait = 30_000 if len(got) < expected else 0
            try:
                got.append(int(queue.get(None, mqlite.MD(), mqlite.GMO(Options=C.MQGMO_WAIT, WaitInterval=wait))))
            except mqlite.MQMIError as error:
                assert error.reason == C.MQRC_NO_MSG_AVAILABLE
                return got


def in_flight(run_cli: RunCli, qm1: QMgr) -> bool:
    """QM1's sender has a batch open (CURMSGS: taken off the transmission queue, not yet ended)
    or ended and not confirmed (INDOUBT)."""
    status = mqsc(run_cli, qm1, "DISPLAY CHSTATUS(QM1.TO.QM2) CURMSGS INDOUBT\n", ok=False)
    return "INDOUBT(YES)" in status or re.search(r"CURMSGS\([1-9]", status) is not None


def settle(run_cli: RunCli, qm1: QMgr, qm2: QMgr, total: int, timeout: float = 120) -> None:
    """All ``total`` messages across and nothing in flight: the transmission queue empty, then no
    batch open or unconfirmed (a receiver commits before it confirms; CURDEPTH counts a batch it
    has not committed yet, so depths alone may leave one open or in doubt), then ``total`` at QM2.
    Read in this order, each step of a message's way (queue, batch, confirmed) is seen by the next."""
    wait_until(lambda: depth(run_cli, qm1, "QM2") == 0 and not in_flight(run_cli, qm1)
               and depth(run_cli, qm2, "APP.IN") >= total,
               f"all {total} messages across", timeout=timeout, interval=0.25)


def restart_killed(run_cli: RunCli, pid: int, victim: str) -> None:
    """strmqm ``victim`` once its killed process ``pid`` is gone (SIGKILL is not instant)."""
    wait_until(lambda: not process_alive(pid), f"{victim} (pid {pid}) ended", timeout=60)
    started = run_cli("strmqm", victim)
    assert started.returncode == 0, started.stdout + started.stderr


@contextmanager
def receiver_frozen(run_cli: RunCli, qm1: QMgr, qm2: QMgr) -> Iterator[dict[str, int]]:
    """The channel started, one message across and confirmed, then QM2 frozen (SIGSTOP) until the
    block ends; the block gets the queue managers' pids."""
    mqsc(run_cli, qm1, "START CHANNEL(QM1.TO.QM2)\n")
    put_numbered("QM1", 0, 1)
    settle(run_cli, qm1, qm2, 1)
    pids = server_pids(qm1.home)
    os.kill(pids["QM2"], signal.SIGSTOP)
    try:
        yield pids
    finally:
        os.kill(pids["QM2"], signal.SIGCONT)


def test_network_cuts_lose_and_duplicate_nothing(linked: tuple[QMgr, QMgr, Relay], run_cli: RunCli) -> None:
    qm1, qm2, relay = linked
    total = 10_000
    # ten cuts among the messages' own bytes, by progress, not by the clock: the relay cuts after
    # each CUT_EVERY bytes it carries to QM2, so on any machine every cut falls in the middle of
    # the stream and the last part runs uncut to the end
    relay.cut_every(CUT_EVERY, 10)
    put_numbered("QM1", 0, total)
    settle(run_cli, qm1, qm2, total, timeout=240)
    assert relay.cuts == 10 and relay.connections > 10  # the channel really was cut and came back each time
    got = drain("QM2", total)
    assert sorted(got) == list(range(total))  # nothing lost, nothing twice
    assert got == list(range(total))  # and in order


@pytest.mark.parametrize("victim", ["QM1", "QM2"])
def test_kill_9_in_the_middle_loses_and_duplicates_nothing(linked: tuple[QMgr, QMgr, Relay], run_cli: RunCli,
                                                            victim: str) -> None:
    qm1, qm2, relay = linked
    total = 3000
    mqsc(run_cli, qm1, "STOP CHANNEL(QM1.TO.QM2)\n")
    put_numbered("QM1", 0, total)
    mqsc(run_cli, qm1, "START CHANNEL(QM1.TO.QM2)\n")
    wait_until(lambda: depth(run_cli, qm2, "APP.IN") >= 500, "a good part across", timeout=60, interval=0.05)
    pid = server_pids(qm1.home)[victim]
    os.kill(pid, signal.SIGKILL)  # in the middle of a batch, most likely
    restart_killed(run_cli, pid, victim)
    if victim == "QM2":
        assert qm2.port is not None
        relay.target = ("127.0.0.1", qm2.port)  # QM2 came back on a new port
    settle(run_cli, qm1, qm2, total)
    got = drain("QM2", total)
    assert sorted(got) == list(range(total))  # nothing lost, nothing twice
    assert got == list(range(total))


@pytest.mark.parametrize("victim", ["QM1", "QM2"])
def test_two_batches_in_doubt_are_settled_by_the_receivers_last_batch(linked: tuple[QMgr, QMgr, Relay],
                                                                     run_cli: RunCli, victim: str) -> None:
    """PIPELINE 2: the sender ends a second batch before the first is confirmed. QM2 is frozen
    (SIGSTOP) with both batches in its socket, then one side is killed: QM1 (QM2 thaws, commits
    both; QM1's restart finds both in doubt and removes them) or QM2 (it had neither; QM1 backs
    out both and sends them again). Every message arrives once, in order (B:R-CHN-4)."""
    qm1, qm2, relay = linked
    with receiver_frozen(run_cli, qm1, qm2) as pids:
        put_numbered("QM1", 1, 100, at_once=True)  # two batches of 50
        wait_until(lambda: "CURSEQNO(101)" in mqsc(run_cli, qm1, "DISPLAY CHSTATUS(QM1.TO.QM2) CURSEQNO INDOUBT\n",
                                                   ok=False), "both batches ended, unconfirmed", timeout=60)
        status = mqsc(run_cli, qm1, "DISPLAY CHSTATUS(QM1.TO.QM2) INDOUBT LSTSEQNO\n")
        assert "INDOUBT(YES)" in status and "LSTSEQNO(1)" in status
        os.kill(pids[victim], signal.SIGKILL)
    restart_killed(run_cli, pids[victim], victim)
    if victim == "QM2":
        assert qm2.port is not None
        relay.target = ("127.0.0.1", qm2.port)
    settle(run_cli, qm1, qm2, 101)
    got = drain("QM2", 101)
    assert got == list(range(101))
    log = qm1.error_log()
    outcome = "committed" if victim == "QM1" else "backed out"
    assert f"(sequence 51) {outcome}" in log and f"(sequence 101) {outcome}" in log


@pytest.mark.parametrize("pipeline", [1, 2])
def test_stop_channel_while_a_batch_awaits_its_confirm_ends_once_it_comes(linked: tuple[QMgr, QMgr, Relay],
                                                                         run_cli: RunCli, pipeline: int) -> None:
    """MODE(QUIESCE) with the batch already ended and its CONFIRM still to come: the channel ends
    when it comes, not after waiting HBINT for more messages (qm.ini CHANNELS: PipeLineLength 1
    and 2 reach that point by different paths)."""
    qm1, qm2, _relay = linked
    if pipeline == 1:
        (qm1.home / "qmgrs" / "QM1" / "qm.ini").write_text("CHANNELS:\n   PipeLineLength=1\n")
        run_cli("endmqm", "QM1")
        assert run_cli("strmqm", "QM1").returncode == 0
    with receiver_frozen(run_cli, qm1, qm2):  # the receiver takes the batch in, and answers nothing yet
        put_numbered("QM1", 1, 1)
        wait_until(lambda: "INDOUBT(YES)" in mqsc(run_cli, qm1, "DISPLAY CHSTATUS(QM1.TO.QM2) INDOUBT\n", ok=False),
                   "the batch awaits its CONFIRM", timeout=60)
        assert "AMQ8019I" in mqsc(run_cli, qm1, "STOP CHANNEL(QM1.TO.QM2)\n")
    wait_until(lambda: "STATUS(STOPPED)" in mqsc(run_cli, qm1, "DISPLAY CHSTATUS(QM1.TO.QM2)\n", ok=False),
               "it stopped once the CONFIRM came", timeout=60)
    assert "INDOUBT(NO)" in mqsc(run_cli, qm1, "DISPLAY CHSTATUS(QM1.TO.QM2) INDOUBT\n", ok=False)
    assert drain("QM2", 2) == [0, 1]


def get_within(qmgr: str, seconds: float) -> bytes | None:
    with mqlite.connect(qmgr) as qm, mqlite.Queue(qm, "APP.IN", C.MQOO_INPUT_SHARED) as queue:
        try:
            gmo = mqlite.GMO(Options=C.MQGMO_WAIT, WaitInterval=int(seconds * 1000))
            return bytes(queue.get(None, mqlite.MD(), gmo))
        except mqlite.MQMIError as error:
            assert error.reason == C.MQRC_NO_MSG_AVAILABLE
            return None


def test_npmspeed_fast_delivers_before_the_batch_ends_and_normal_keeps_it_in_the_batch(
        linked: tuple[QMgr, QMgr, Relay], run_cli: RunCli) -> None:
    """A non-persistent message on a FAST channel is there at once, while its batch is still open;
    on a NORMAL one it is part of the batch: a cut in the middle sends it again, and it arrives
    once (B:R-CHN-4; IBM's NPMSPEED). BATCHSZ(2) and a BATCHINT of ten minutes keep a batch of one
    open until a second message fills it, so "still open" holds on any machine, however slow."""
    qm1, qm2, relay = linked
    mqsc(run_cli, qm1, "STOP CHANNEL(QM1.TO.QM2)\nALTER CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) BATCHSZ(2) "
                       "BATCHINT(600000)\nSTART CHANNEL(QM1.TO.QM2)\n")
    run_cli("put", "-m", "QM1", "TO.APP.IN", "--not-persistent", input="fast\n")
    assert get_within("QM2", 60.0) == b"fast"
    assert "CURMSGS(1)" in mqsc(run_cli, qm1, "DISPLAY CHSTATUS(QM1.TO.QM2) CURMSGS\n")  # its batch is still open
    run_cli("put", "-m", "QM1", "TO.APP.IN", "--not-persistent", input="fills it\n")  # the batch ends full
    assert get_within("QM2", 60.0) == b"fills it"
    mqsc(run_cli, qm1, "STOP CHANNEL(QM1.TO.QM2)\n")  # MODE(QUIESCE): it ends once its batch has
    wait_until(lambda: "STATUS(STOPPED)" in mqsc(run_cli, qm1, "DISPLAY CHSTATUS(QM1.TO.QM2)\n", ok=False),
               "the channel stopped", timeout=60)
    mqsc(run_cli, qm1, "ALTER CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) NPMSPEED(NORMAL)\nSTART CHANNEL(QM1.TO.QM2)\n")
    run_cli("put", "-m", "QM1", "TO.APP.IN", "--not-persistent", input="normal\n")
    wait_until(lambda: "CURMSGS(1)" in mqsc(run_cli, qm2, "DISPLAY CHSTATUS(QM1.TO.QM2) CURMSGS\n", ok=False),
               "the receiver holds it in the open batch", timeout=60)
    assert get_within("QM2", 0) is None  # not committed yet: the batch cannot end before a second message
    relay.cut()  # the batch breaks off: the receiver backs it out, the sender sends it again
    run_cli("put", "-m", "QM1", "TO.APP.IN", "--not-persistent", input="ends it\n")  # with it, in a full batch
    settle(run_cli, qm1, qm2, 2)
    assert [get_within("QM2", 60.0), get_within("QM2", 60.0), get_within("QM2", 0)] == [b"normal", b"ends it", None]


def test_stop_channel_quiesce_ends_the_batch_first_and_force_leaves_it_in_doubt(
        linked: tuple[QMgr, QMgr, Relay], run_cli: RunCli) -> None:
    """STOP CHANNEL MODE(QUIESCE), the default, lets the batch in flight end: nothing is in doubt
    after; MODE(FORCE) ends the channel at once, its batch in doubt or backed out, and the next
    start settles it. Either way every message arrives once. BATCHSZ(2) and a BATCHINT of ten
    minutes keep a batch of one open until a second message fills it, on any machine."""
    qm1, qm2, _relay = linked
    mqsc(run_cli, qm1, "STOP CHANNEL(QM1.TO.QM2)\nALTER CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) BATCHSZ(2) "
                       "BATCHINT(600000) NPMSPEED(NORMAL)\nSTART CHANNEL(QM1.TO.QM2)\n")
    for mode, body in (("QUIESCE", "first"), ("FORCE", "second")):
        run_cli("put", "-m", "QM1", "TO.APP.IN", "--persistent", input=f"{body}\n")
        wait_until(lambda: "CURMSGS(1)" in mqsc(run_cli, qm1, "DISPLAY CHSTATUS(QM1.TO.QM2) CURMSGS\n", ok=False),
                   "a batch is open", timeout=60)
        assert "AMQ8019I" in mqsc(run_cli, qm1, f"STOP CHANNEL(QM1.TO.QM2) MODE({mode})\n")
        if mode == "QUIESCE":  # it waits for the batch in flight, which a second message ends
            status = mqsc(run_cli, qm1, "DISPLAY CHSTATUS(QM1.TO.QM2) STATUS CURMSGS\n", ok=False)
            assert "STATUS(STOPPED)" not in status and "CURMSGS(1)" in status
            run_cli("put", "-m", "QM1", "TO.APP.IN", "--persistent", input="fills it\n")
        wait_until(lambda: "STATUS(STOPPED)" in mqsc(run_cli, qm1, "DISPLAY CHSTATUS(QM1.TO.QM2)\n", ok=False),
                   f"MODE({mode}) stopped it", timeout=60)
        if mode == "QUIESCE":  # the batch ended before the channel did
            assert depth(run_cli, qm2, "APP.IN") == 2 and depth(run_cli, qm1, "QM2") == 0
        mqsc(run_cli, qm1, "START CHANNEL(QM1.TO.QM2)\n")
    run_cli("put", "-m", "QM1", "TO.APP.IN", "--persistent", input="third\n")  # fills the batch FORCE broke off
    settle(run_cli, qm1, qm2, 4)
    assert [get_within("QM2", 60.0) for _ in range(4)] + [get_within("QM2", 0)] == [
        b"first", b"fills it", b"second", b"third", None]


def test_batchhb_backs_out_a_batch_the_silent_partner_cannot_take(linked: tuple[QMgr, QMgr, Relay],
                                                                  run_cli: RunCli) -> None:
    """BATCHHB: the receiver frozen and not heard from for BATCHHB, the sender asks with a
    heartbeat before it ends the batch; no answer within the receive timeout (2 x HBINT) fails the
    channel with the batch backed out onto the transmission queue, not left in doubt. Thawed, the
    receiver gets every message once."""
    qm1, qm2, _relay = linked
    mqsc(run_cli, qm1, "ALTER CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) BATCHHB(1) HBINT(1)\n")
    mqsc(run_cli, qm2, "ALTER CHANNEL(QM1.TO.QM2) CHLTYPE(RCVR) HBINT(1)\n")
    with receiver_frozen(run_cli, qm1, qm2):
        put_numbered("QM1", 1, 5)
        wait_until(lambda: depth(run_cli, qm1, "QM2") == 5 and "INDOUBT(YES)" not in mqsc(
            run_cli, qm1, "DISPLAY CHSTATUS(QM1.TO.QM2) INDOUBT\n", ok=False), "the batch backed out", timeout=60)
    settle(run_cli, qm1, qm2, 6)
    assert drain("QM2", 6) == list(range(6))
