"""How long the store's writer waits to gather a group before it commits: a pure policy.

Every synchronous persistent call waits for its commit, and its caller sends the next one only
after the reply. With N such callers a writer that commits whatever is ready the moment the first
tx arrives splits them into cohorts: the first caller back commits alone (or with a few), the
others queue behind that commit and go in the next one, and the split repeats for ever. Measured
with 8 synchronous producers: groups of 1 and 7 in turn, two commits (two fsyncs and twice the
commit CPU) for what one could carry.

So the writer waits, briefly, for as many txs as recent groups carried (PostgreSQL's
``commit_delay`` with ``commit_siblings``, sized from what the writer has seen rather than
configured):

- it waits for ``want`` txs: the larger of the last two groups (two, so that a 1/7 split grows
  into one group of 8), or just the last group when the last wait ran out (a caller has left);
- for at most as long as a commit takes (a tx that misses this group would wait a whole commit
  for the next one anyway), so the latency a wait adds is bounded by one commit;
- never when enough operations are ready to make a commit worth its fsync on its own (streaming
  producers), and never for a lone caller (``want`` is 1).
"""

from __future__ import annotations

from dataclasses import dataclass

ENOUGH_OPS = 2_000  # ready ops that fill a commit anyway: no waiting
MAX_DELAY = 0.005  # seconds: no wait longer than this, however slow the disk
SMOOTHING = 0.2  # weight of the newest commit in the average commit time


@dataclass(slots=True)
class GatherPolicy:
    """What the writer learnt from its last groups, and what it waits for next."""

    last: int = 1  # txs in the last group
    before_last: int = 1  # txs in the group before it
    ran_out: bool = False  # the last wait ended at its deadline, not with ``want`` txs
    commit_seconds: float = 0.0  # average time of a commit (apply + COMMIT)
    max_delay: float = MAX_DELAY

    def want(self) -> int:
        """Txs to wait for before committing."""
        return self.last if self.ran_out else max(self.last, self.before_last)

    def delay(self) -> float:
        """The longest wait, in seconds, from the first ready tx."""
        return min(self.commit_seconds, self.max_delay)

    def should_wait(self, ready_txs: int, ready_ops: int) -> bool:
        return ready_txs < self.want() and ready_ops < ENOUGH_OPS

    def committed(self, txs: int, seconds: float, ran_out: bool) -> None:
        """A group of ``txs`` was committed in ``seconds``; its wait ran out or not."""
        self.before_last, self.last = self.last, max(txs, 1)
        self.ran_out = ran_out
        if self.commit_seconds:
            self.commit_seconds += SMOOTHING * (seconds - self.commit_seconds)
        else:
            self.commit_seconds = seconds
