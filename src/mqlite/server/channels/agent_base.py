"""What the message channel agents share: their failures, their place in the runtime's rounds,
the identity of an MCA with a blank MCAUSER, and CONNAME."""

from __future__ import annotations

import errno
from collections.abc import Callable

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.handles import GetResult
from mqlite.core.security.principal import Principal
from mqlite.protocol import channel as wire
from mqlite.server.runtime import Round, Session

MCA_USER = Principal("mqm", frozenset({"mqm"}))  # an MCA with a blank MCAUSER: the queue manager's own


class ChannelFailed(Exception):
    """The channel ended in error: ``stop`` when retrying cannot help (a sequence mismatch);
    ``explanation``: IBM's whole error-log entry for it, when it has one of its own (AMQ9202E)."""

    def __init__(self, text: str, reason: int = C.MQRC_CONNECTION_BROKEN, stop: bool = False,
                 explanation: str = "") -> None:
        super().__init__(text)
        self.text = text
        self.reason = reason
        self.stop = stop
        self.explanation = explanation


class HostUnavailable(OSError):
    """A sending channel's connect to its partner failed: IBM's AMQ9202E (``str()`` is its first
    line, ``explanation`` the whole entry, with the connect call's return code)."""

    def __init__(self, channel: str, host: str, port: int, error: OSError) -> None:
        code = error.errno if error.errno is not None else (
            errno.ETIMEDOUT if isinstance(error, TimeoutError) else errno.ECONNREFUSED)
        remote = f"{host} ({port})"
        headline = f"AMQ9202E: Remote host '{remote}' not available, retry later."
        super().__init__(code, headline)
        self.headline = headline
        self.explanation = (
            f"{headline}\n\nEXPLANATION:\nThe attempt to allocate a conversation using TCP/IP to host "
            f"'{remote}' for channel '{channel}' was not successful. However the error may be a transitory "
            "one and it may be possible to successfully allocate a TCP/IP conversation later.\n"
            "ACTION:\nTry the connection again later. If the failure persists, record the error values and "
            f"contact your systems administrator. The return code from the TCP/IP (connect) call was {code} "
            f"(X'{code:X}'). The reason for the failure may be that this host cannot reach the destination "
            f"host. It may also be possible that the listening program at host '{remote}' was not running. "
            "If this is the case, perform the relevant operations to start the TCP/IP listening program, "
            "and try again.")

    def __str__(self) -> str:
        return self.headline


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


def failure(error: BaseException, channel: str = "", host: str = "") -> ChannelFailed:
    """What a sending channel's failure is, in IBM's words where it has them."""
    if isinstance(error, ChannelFailed):
        return error
    if isinstance(error, HostUnavailable):
        return ChannelFailed(error.headline, explanation=error.explanation)
    if isinstance(error, wire.ProtocolError):
        return ChannelFailed(f"AMQ9504E: protocol error: {error}", getattr(error, "reason", C.MQRC_UNEXPECTED_ERROR))
    if isinstance(error, MQError):
        return ChannelFailed(error.text or str(error), error.reason)
    if isinstance(error, TimeoutError):
        return ChannelFailed("AMQ9202E: the partner did not answer in time")
    if isinstance(error, EOFError) and channel:
        return ChannelFailed(f"AMQ9209E: Connection to host '{host}' for channel '{channel}' closed.")
    return ChannelFailed(f"AMQ9202E: {type(error).__name__}: {error}")
