"""Which transmission queue a cluster-sender channel takes its messages from (B:R-CXQ-2..5).

A pure decision over the queue manager's transmission queues, their CLCHNAME attributes and
DEFCLXQ (``select``):

1. a manually defined transmission queue whose CLCHNAME is the channel's name exactly;
2. else the manual one whose generic CLCHNAME matches most specifically (the most characters
   that are not ``*``; a tie goes to the first queue name), ``*`` matching any run of
   characters, dots included (B:R-CXQ-4);
3. else, with DEFCLXQ(CHANNEL), the channel's own permanent dynamic queue
   SYSTEM.CLUSTER.TRANSMIT.<channel> (created on first need from the model queue);
4. else SYSTEM.CLUSTER.TRANSMIT.QUEUE.

A changed association does not take effect at once (B:R-CXQ-5): the sender switches when it has
nothing in flight, moving what is left on the old queue for it, in order, to the new one.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

__all__ = ["DEFAULT_XMITQ", "MODEL_QUEUE", "XmitqChoice", "clchname_matches", "select"]

DEFAULT_XMITQ = "SYSTEM.CLUSTER.TRANSMIT.QUEUE"
MODEL_QUEUE = "SYSTEM.CLUSTER.TRANSMIT.MODEL.QUEUE"
DYNAMIC_PREFIX = "SYSTEM.CLUSTER.TRANSMIT."


@dataclass(frozen=True)
class XmitqChoice:
    queue: str
    create_from_model: bool = False  # DEFCLXQ(CHANNEL): the queue is made from MODEL_QUEUE when missing


@lru_cache(maxsize=256)
def _pattern(clchname: str) -> re.Pattern[str]:
    return re.compile("".join(".*" if ch == "*" else re.escape(ch) for ch in clchname) + r"\Z")


def clchname_matches(clchname: str, channel: str) -> bool:
    """Whether a (generic) CLCHNAME names ``channel``."""
    return bool(clchname) and _pattern(clchname).match(channel) is not None


def select(channel: str, clchnames: Mapping[str, str], defclxq: str = "SCTQ") -> XmitqChoice:
    """The transmission queue of cluster-sender ``channel``; ``clchnames`` maps each manually
    defined transmission queue to its CLCHNAME (blank ones are not cluster transmission queues)."""
    exact = sorted(queue for queue, name in clchnames.items() if name == channel)
    if exact:
        return XmitqChoice(exact[0])
    generic = [(-_specificity(name), queue) for queue, name in clchnames.items()
               if "*" in name and clchname_matches(name, channel)]
    if generic:
        return XmitqChoice(min(generic)[1])
    if defclxq.upper() == "CHANNEL":
        return XmitqChoice(DYNAMIC_PREFIX + channel, create_from_model=True)
    return XmitqChoice(DEFAULT_XMITQ)


def _specificity(clchname: str) -> int:
    return sum(1 for ch in clchname if ch != "*")
