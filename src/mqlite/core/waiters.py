"""Calls that wait inside the queue manager: an MQGET with MQGMO_WAIT and nothing to get yet."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(eq=False, slots=True)
class GetRequest:
    """What an MQGET asks for, decoded once so waiting and retrying reuse it."""

    options: int
    match_msg_id: bytes | None
    match_correl_id: bytes | None
    max_length: int  # -1: no limit
    wait_ms: int  # -1: unlimited


@dataclass(eq=False, slots=True)
class Waiter:
    """A pending MQGET; ``token`` is the server's way back to the caller."""

    conn: Any
    hobj: int
    request: GetRequest
    deadline: float  # 0.0: waits without limit
    token: Any  # (not ``object``: mypyc's dataclasses cannot resolve that annotation)
    done: bool = field(default=False)
