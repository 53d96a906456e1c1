"""A message channel's decisions: sequence numbers, in-doubt batches, batch ends, retries, idling.

Pure functions and small value types over a channel's sync state, the record each end keeps in
the store (kind ``chsync``) and changes in the same store transaction as the batch it describes:

- the **receiver** commits a batch's puts together with (last sequence number, the batch's
  LUWID), so after any crash its record tells exactly which batch it has;
- the **sender** records the batch it is about to end as *in doubt* (its LUWID, last sequence
  number and the transmission queue entries it holds) before it sends END_BATCH, and replaces
  that with the new committed state in the same transaction that removes the batch from the
  transmission queue once the receiver confirms.

A batch left in doubt (the connection cut, or either queue manager killed, between END_BATCH and
its confirmation) is resolved when the channel next starts: the receiver's LUWID says whether it
committed that batch (``resolve``). Committed: the sender removes the batch; not: it sends the
messages again. With PIPELINE 2 two batches may be in doubt; the receiver commits in order, so
its LUWID says how many of them it has. So a persistent message is on the transmission queue or at its destination,
never both and never neither (B:R-CHN-4).
"""

from __future__ import annotations

import itertools
import os
import struct
from dataclasses import dataclass
from typing import Any

from mqlite.protocol.channel import next_seq

__all__ = ["InDoubt", "SyncState", "batch_complete", "disconnect_due", "first_seq_ok",
           "new_luwid", "next_seq", "receive_timeout", "reset_to", "resolve", "retries_left", "retry_delay",
           "sequence_error"]

SEQWRAP_DEFAULT = 999_999_999


def new_luwid() -> bytes:
    """A batch's logical unit of work id, unique for good: 8 random bytes drawn when this process
    started and a counter of the whole process (never one per channel run: a channel stopped and
    started again would reuse its first ids, and a partner that committed an earlier batch with
    the same id would be taken to have the new one)."""
    return _PROCESS_ID + struct.pack(">Q", next(_LUW_COUNTER))


_PROCESS_ID = os.urandom(8)
_LUW_COUNTER = itertools.count(1)


@dataclass(frozen=True)
class InDoubt:
    """The sender's batch between END_BATCH and CONFIRM."""

    luwid: bytes
    seq: int  # the batch's last sequence number
    entries: tuple[int, ...] = ()  # the transmission queue's sequence numbers of its persistent messages


@dataclass(frozen=True)
class SyncState:
    """One end's record of a channel: the last batch committed, and the sender's batches in doubt
    (oldest first; two with PIPELINE 2)."""

    seq: int = 0
    luwid: bytes | None = None
    indoubt: tuple[InDoubt, ...] = ()
    reset: bool = False  # a sender's RESET CHANNEL, told to the receiver at the next start

    def to_record(self) -> dict[str, Any]:
        return {"seq": self.seq, "luwid": self.luwid, "reset": self.reset,
                "indoubt": [[d.luwid, d.seq, list(d.entries)] for d in self.indoubt]}

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> SyncState:
        doubts = record.get("indoubt") or []
        if doubts and not isinstance(doubts[0], list):  # a record of one batch, before PIPELINE
            doubts = [doubts]
        return cls(int(record.get("seq", 0)), record.get("luwid"),
                   tuple(InDoubt(bytes(d[0]), int(d[1]), tuple(int(e) for e in d[2])) for d in doubts),
                   bool(record.get("reset", False)))

    def committed(self, seq: int, luwid: bytes) -> SyncState:
        """After the batch ending at ``seq`` committed: it, and any in doubt before it, are done."""
        luwids = [d.luwid for d in self.indoubt]
        later = self.indoubt[luwids.index(luwid) + 1:] if luwid in luwids else ()
        return SyncState(seq, luwid, later)

    def in_doubt(self, doubt: InDoubt) -> SyncState:
        return SyncState(self.seq, self.luwid, (*self.indoubt, doubt), self.reset)

    def backed_out(self) -> SyncState:
        """Every batch in doubt sent again (the receiver has none of them)."""
        return SyncState(self.seq, self.luwid, (), self.reset)


def reset_to(seqnum: int, seqwrap: int = SEQWRAP_DEFAULT, sending: bool = True) -> SyncState:
    """RESET CHANNEL SEQNUM(n): the next message is number ``n`` (the last is n - 1, wrapping);
    a sending end tells its partner at the next start."""
    if not 1 <= seqnum <= seqwrap:
        raise ValueError(f"SEQNUM({seqnum}) must be 1 to SEQWRAP({seqwrap})")
    return SyncState(seqnum - 1 if seqnum > 1 else 0, None, (), reset=sending)


def resolve(indoubt: tuple[InDoubt, ...], partner_luwid: bytes | None) -> int:
    """How many of the sender's batches in doubt (oldest first) the receiver has, given the LUWID it
    last committed: those are removed from the transmission queue, the rest go again. The
    receiver commits in order, so it has every batch up to the one it names (B:R-CHN-4)."""
    for position, doubt in enumerate(indoubt):
        if doubt.luwid == partner_luwid:
            return position + 1
    return 0


def sequence_error(sender: SyncState, receiver_seq: int, receiver_luwid: bytes | None) -> str | None:
    """At channel start: None when the two ends agree on the last batch, else the AMQ9526E text.
    They agree when the receiver's last batch is the sender's last committed one, or one in doubt
    (then the receiver's sequence number is that batch's last). A mismatch (a queue manager
    recreated, a RESET CHANNEL on one end only) needs RESET CHANNEL SEQNUM, as with IBM."""
    committed = resolve(sender.indoubt, receiver_luwid)
    expected = sender.indoubt[committed - 1].seq if committed else sender.seq
    if receiver_seq == expected:
        return None
    return (f"AMQ9526E: Message sequence number error: the sending end's last sequence number is {expected}, "
            f"the receiving end's {receiver_seq}; RESET CHANNEL SEQNUM makes them agree")


def first_seq_ok(last_committed: int, first: int, seqwrap: int = SEQWRAP_DEFAULT) -> bool:
    """The receiver's check of a batch's first message against its own committed state."""
    return first == next_seq(last_committed, seqwrap)


def batch_complete(count: int, size: int, batchsz: int, batchlim_kb: int, queue_empty: bool,
                   waited: float, batchint_ms: int) -> bool:
    """Whether the sender ends its batch now: BATCHSZ messages, BATCHLIM kilobytes (0: no limit),
    or the transmission queue is empty and the batch has waited BATCHINT for more."""
    if count >= batchsz:
        return True
    if batchlim_kb > 0 and size >= batchlim_kb * 1024:
        return True
    return queue_empty and waited * 1000 >= batchint_ms


def retry_delay(failures: int, shortrty: int, shorttmr: int, longrty: int, longtmr: int) -> float | None:
    """Seconds before the next attempt after ``failures`` failed ones (RETRYING), or None when the
    retries are spent (the channel STOPS): SHORTRTY attempts SHORTTMR apart, then LONGRTY LONGTMR apart."""
    if failures <= shortrty:
        return float(shorttmr)
    if failures <= shortrty + longrty:
        return float(longtmr)
    return None


def retries_left(failures: int, shortrty: int, longrty: int) -> tuple[int, int]:
    """DISPLAY CHSTATUS's SHORTRTS and LONGRTS after ``failures`` failed attempts (the first
    attempt and ``failures - 1`` retries): the retries not made yet, short ones counting down from
    SHORTRTY first, then long ones from LONGRTY (as ``retry_delay`` spends them); (0, 0) once the
    channel has STOPPED for want of them."""
    made = max(0, failures - 1)
    short = max(0, shortrty - made)
    long_ = max(0, longrty - max(0, made - shortrty))
    return short, long_


def disconnect_due(idle_seconds: float, discint: int) -> bool:
    """A sender whose transmission queue has been empty for DISCINT seconds ends (INACTIVE); 0: never."""
    return discint > 0 and idle_seconds >= discint


def receive_timeout(hbint: float) -> float:
    """How long IBM waits for the other end after a heartbeat: 2 x HBINT below 60 s, else HBINT + 60."""
    return 2 * hbint if hbint < 60 else hbint + 60
