"""Channel authentication at a client's CONNECT: the server's side of ``core.security.chlauth``.

One check in the connect handshake's list of channel checks (``handshake.Gate.channel_checks``):
it gathers what the partner presented (address, asserted user, TLS certificate), asks the
queue manager's records (``QueueManager.check_channel``), and then

- refuses a blocked connection with 2035 (MQRC_NOT_AUTHORIZED) and one error-log line with
  IBM's message (AMQ9776E blocked user, AMQ9777E USERSRC(NOACCESS), AMQ9782E blocked address);
- logs a WARN(YES) record that would have blocked and lets it through (IBM reports these as
  MQRC_CHANNEL_BLOCKED_WARNING events; the message number here, AMQ9787W, is not checked);
- makes a mapped user the channel's MCAUSER for this connection, so the identity step runs the
  connection as that user (before the authority check of ``connect``);
- hands a CHCKCLNT override of the record it used to connection authentication.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.qmgr import QueueManager
from mqlite.core.security.chlauth import Connecting, Decision, active_values, refusal_message
from mqlite.core.security.events import channel_blocked
from mqlite.server.tls_rules import peer_certificate

log = logging.getLogger("mqlite.server")

_WHY = {C.MQRQ_CHANNEL_BLOCKED_ADDRESS: "BLOCKADDR", C.MQRQ_CHANNEL_BLOCKED_USERID: "BLOCKUSER",
        C.MQRQ_CHANNEL_BLOCKED_NOACCESS: "USERSRC(NOACCESS)"}


class HelloLike(Protocol):
    """What the handshake knows of the CONNECT (``handshake.Hello``)."""

    @property
    def user(self) -> str | None: ...

    @property
    def address(self) -> str: ...

    @property
    def transport(self) -> Any: ...


class AdmittedLike(Protocol):
    """The channel the handshake admitted (``handshake.Admitted``)."""

    channel: str
    attrs: Mapping[str, Any]
    chckclnt: str | None




def chlauth_check(core: QueueManager) -> Callable[[HelloLike, AdmittedLike], None]:
    """The handshake's CHLAUTH step for ``core`` (raises MQError 2035 to refuse)."""

    def check(hello: HelloLike, admitted: AdmittedLike) -> None:
        if admitted.channel:  # a local connection uses no channel
            apply(core, hello, admitted)

    return check


def apply(core: QueueManager, hello: HelloLike, admitted: AdmittedLike) -> Decision:
    """Decide for a TCP connection to ``admitted.channel`` and act on the decision."""
    sslpeer, sslcerti = peer_certificate(hello.transport)
    mcauser = str(admitted.attrs.get("MCAUSER") or "").strip()
    conn = Connecting(admitted.channel, hello.address, hello.user or "", sslpeer, sslcerti, mcauser=mcauser)
    decision = core.check_channel(conn)

    def event(qualifier: int, reason: int) -> None:  # IBM's Channel Blocked event, with CHLEV
        core.authority_events.emit_channel(channel_blocked(
            core.name, qualifier, conn.channel, conn.address, decision.user, sslpeer, conn.clntuser), reason)

    for qualifier, record in decision.warnings:
        event(qualifier, C.MQRC_CHANNEL_BLOCKED_WARNING)
        log.warning("AMQ9787W: Channel '%s' from '%s' would have been blocked by the %s record of profile '%s' "
                    "(WARN(YES)); the active values of the channel were '%s'.", conn.channel, conn.address,
                    _WHY.get(qualifier, record.type), record.profile, active_values(conn, decision.user))
    if not decision.allowed:
        event(decision.qualifier, C.MQRC_CHANNEL_BLOCKED)
        log.error("%s", refusal_message(decision, conn))
        raise MQError(C.MQRC_NOT_AUTHORIZED, f"channel {conn.channel} is blocked for this connection "
                                             f"by a channel authentication record ({_WHY[decision.qualifier]})")
    if decision.user != conn.mcauser and decision.record is not None and decision.record.usersrc == "MAP":
        admitted.attrs = {**admitted.attrs, "MCAUSER": decision.user}  # runs as the mapped user
    admitted.chckclnt = decision.chckclnt
    return decision


def refused_at_accept(core: QueueManager, address: str) -> bool:
    """BLOCKADDR at the listener, before the partner has sent a byte (IBM's listener does the
    same): one AMQ9782E line and a Channel Blocked event, and the caller drops the socket."""
    record = core.blocked_address(address)
    if record is None:
        return False
    qualifier = C.MQRQ_CHANNEL_BLOCKED_ADDRESS
    core.authority_events.emit_channel(channel_blocked(core.name, qualifier, "", address), C.MQRC_CHANNEL_BLOCKED)
    log.error("%s", refusal_message(Decision(False, "", qualifier, record), Connecting("", address)))
    return True


class GateLike(Protocol):
    """The handshake's gate (``handshake.Gate``): its queue manager, its checks, its groups."""

    core: QueueManager
    channel_checks: list[Any]

    def groups_of(self, user: str) -> frozenset[str]: ...


def install(gate: GateLike) -> None:
    """Plug CHLAUTH into the handshake: its check, and the groups *MQADMIN needs."""
    gate.core.chlauth.groups_of = gate.groups_of
    gate.channel_checks.append(chlauth_check(gate.core))
