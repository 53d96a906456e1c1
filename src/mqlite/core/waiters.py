"""Calls that wait inside the queue manager: an MQGET with MQGMO_WAIT and nothing to get yet."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(eq=False, slots=True, init=False)
class GetRequest:
    """What an MQGET asks for, decoded once so waiting and retrying reuse it. (``__init__`` written
    out: compiled, a dataclass's generated one stays interpreted.)"""

    options: int
    match_msg_id: bytes | None
    match_correl_id: bytes | None
    max_length: int  # -1: no limit
    wait_ms: int  # -1: unlimited

    def __init__(self, options: int, match_msg_id: bytes | None, match_correl_id: bytes | None, max_length: int,
                 wait_ms: int) -> None:
        self.options = options
        self.match_msg_id = match_msg_id
        self.match_correl_id = match_correl_id
        self.max_length = max_length
        self.wait_ms = wait_ms


@dataclass(eq=False, slots=True, init=False)
class Waiter:
    """A pending MQGET; ``token`` is the server's way back to the caller."""

    conn: Any
    hobj: int
    request: GetRequest
    deadline: float  # 0.0: waits without limit
    token: Any  # (not ``object``: mypyc's dataclasses cannot resolve that annotation)
    done: bool = field(default=False)

    def __init__(self, conn: Any, hobj: int, request: GetRequest, deadline: float, token: Any,
                 done: bool = False) -> None:
        self.conn = conn
        self.hobj = hobj
        self.request = request
        self.deadline = deadline
        self.token = token
        self.done = done
