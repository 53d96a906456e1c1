"""What the message channel agents share: their failures, their place in the runtime's rounds,
the identity of an MCA with a blank MCAUSER, and CONNAME."""

from __future__ import annotations

from collections.abc import Callable

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.handles import GetResult
from mqlite.core.security.principal import Principal
from mqlite.protocol import channel as wire
from mqlite.server.runtime import Round, Session

MCA_USER = Principal("mqm", frozenset({"mqm"}))  # an MCA with a blank MCAUSER: the queue manager's own


class ChannelFailed(Exception):
    """The channel ended in error: ``stop`` when retrying cannot help (a sequence mismatch)."""

    def __init__(self, text: str, reason: int = C.MQRC_CONNECTION_BROKEN, stop: bool = False) -> None:
        super().__init__(text)
        self.text = text
        self.reason = reason
        self.stop = stop


class AgentSession(Session):
    """The MCA's output queue in the runtime's rounds, and where its waiting MQGET completes."""

    def __init__(self, write: Callable[[bytes], None]) -> None:
        super().__init__(_Writer(write))
        self.on_complete: Callable[[GetResult | MQError], None] | None = None

    def complete(self, round_: Round, req_id: int, result: GetResult | MQError) -> None:
        if self.on_complete is not None:
            self.on_complete(result)


class _Writer:
    def __init__(self, write: Callable[[bytes], None]) -> None:
        self.write = write


def parse_conname(conname: str) -> tuple[str, int]:
    """IBM's CONNAME ``host(port)`` (port 1414 when left out); the first of a list."""
    first = conname.split(",")[0].strip()
    if "(" in first:
        host, _, rest = first.partition("(")
        return host.strip(), int(rest.rstrip(") "))
    return first, 1414


# A partner's refusal that retrying cannot cure.
FINAL = frozenset({C.MQRC_UNKNOWN_CHANNEL_NAME})


def failure(error: BaseException) -> ChannelFailed:
    if isinstance(error, ChannelFailed):
        return error
    if isinstance(error, wire.ProtocolError):
        return ChannelFailed(f"AMQ9504E: protocol error: {error}", getattr(error, "reason", C.MQRC_UNEXPECTED_ERROR))
    if isinstance(error, MQError):
        return ChannelFailed(error.text or str(error), error.reason)
    if isinstance(error, TimeoutError):
        return ChannelFailed("AMQ9202E: the partner did not answer in time")
    return ChannelFailed(f"AMQ9202E: {type(error).__name__}: {error}")


