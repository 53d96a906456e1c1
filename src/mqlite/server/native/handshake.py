"""The native connect handshake: which client channel a connection came through and who it runs as.

Steps, in IBM's order, for one CONNECT:

1. **Channel** (TCP only; a local connection uses none): the SVRCONN channel the client names
   must be defined (else 2540, AMQ9519E) and not stopped, nor at MAXINST/MAXINSTC (2537). The
   checks other modules own run next, each a callable in ``Gate.channel_checks`` (CHLAUTH
   rules, TLS): they raise ``MQError`` to refuse.
2. **Connection authentication** (CONNAUTH's AUTHINFO, in force since the last REFRESH
   SECURITY TYPE(CONNAUTH)): CHCKCLNT or CHCKLOCL says whether a password must be checked
   (``core.security.connauth``); it is checked against the queue manager's users file, the one
   MQTT uses, off the event loop. A refusal is answered with 2035 after FAILDLAY seconds, on
   that connection only (the event loop serves everyone else meanwhile), and logged once.
3. **Identity**: ADOPTCTX(YES) adopts the authenticated user, then the channel's MCAUSER
   overrides when set; the groups come from the users file (a user it lists) or the OS (a local
   user, an MCAUSER that is an OS user). The result is the connection's ``Principal``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from mqlite import cmqc as C
from mqlite.core.channels import svrconn_admission
from mqlite.core.errors import MQError
from mqlite.core.qmgr import QueueManager
from mqlite.core.security.connauth import Check, identity, password_check
from mqlite.core.security.principal import Principal
from mqlite.server.channels.svrconn import ClientChannels, Instance
from mqlite.server.native.heartbeat import Beating
from mqlite.server.os_identity import os_principal
from mqlite.server.users_file import UsersFile

log = logging.getLogger("mqlite.server")


@dataclass(frozen=True)
class Hello:
    """What a CONNECT says, and where it came from."""

    user: str | None
    password: str | None
    appl_name: str
    cd: Mapping[str, Any]  # the client channel map (``protocol.native_shapes.CD_DEFAULTS``)
    os_principal: Principal | None  # a local connection's OS user and groups (SO_PEERCRED)
    address: str  # the client's IP address over TCP; "" when local
    transport: asyncio.BaseTransport | None = None  # for checks that read the TLS session
    local: bool = False  # over the Unix socket (no channel)


@dataclass
class Admitted:
    """The channel step's outcome: the channel and the values negotiated with the client."""

    channel: str = ""  # "" for a local connection
    attrs: Mapping[str, Any] = field(default_factory=dict)
    maxmsgl: int = 4_194_304
    hbint: int = 0
    kaint: int = 0  # TCP keepalive idle seconds, 0 for none
    sharecnv: int = 0
    chckclnt: str | None = None  # a CHLAUTH record's CHCKCLNT, stricter than the AUTHINFO's


ChannelCheck = Callable[[Hello, Admitted], None]  # raises MQError to refuse the connection


class Gate:
    """The queue manager's side of every native CONNECT."""

    def __init__(self, core: QueueManager, users: UsersFile, clients: ClientChannels) -> None:
        self.core = core
        self.users = users
        self.clients = clients
        self.channel_checks: list[ChannelCheck] = []  # CHLAUTH and TLS plug in here
        self.beating: set[Beating] = set()  # client connections with a heartbeat interval (HBINT)

    # -- 1. the channel ---------------------------------------------------------------------------
    def admit(self, hello: Hello, joining: Instance | None = None) -> Admitted:
        """The channel step; raises MQError (2540, 2537, or a plugged-in check's reason).
        A conversation ``joining`` a running instance (SHARECNV) must name its channel and does
        not count again against MAXINST and MAXINSTC; every other check applies to it."""
        qmgr_maxmsgl = int(self.core.attrs.get("MAXMSGL", 4_194_304))
        if hello.local:
            return Admitted(maxmsgl=qmgr_maxmsgl)
        name = str(hello.cd.get("ChannelName") or "")
        if joining is not None and name != joining.channel:
            raise MQError(C.MQRC_CHANNEL_NOT_AVAILABLE,
                          f"a conversation sharing an instance of channel '{joining.channel}' named '{name}'")
        try:
            attrs = self.core.svrconn(name)
            running, from_address = self.clients.counts(name, hello.address) if joining is None else (0, 0)
            why = svrconn_admission(attrs, running, from_address)
            if why is not None:
                raise MQError(C.MQRC_CHANNEL_NOT_AVAILABLE, f"channel '{name}': {why}")
        except MQError as error:
            if error.reason == C.MQRC_UNKNOWN_CHANNEL_NAME:
                log.error("AMQ9519E: Channel '%s' not found: a client at %s named it (reason 2540)",
                          name, hello.address)
            else:
                log.error("AMQ9513E: %s; a client at %s refused (reason %d)", error.text, hello.address,
                          error.reason)
            raise
        admitted = Admitted(name, attrs, *negotiate(attrs, hello.cd, qmgr_maxmsgl))
        for check in self.channel_checks:
            check(hello, admitted)
        return admitted

    # -- 2. connection authentication ---------------------------------------------------------------
    def check_for(self, hello: Hello, admitted: Admitted) -> Check:
        """What CONNAUTH asks of this connection (MISSING: refused for want of a password); a
        CHLAUTH record's CHCKCLNT (other than ASQMGR) replaces the AUTHINFO's, as IBM has it."""
        settings = self.core.authinfos.active
        if settings is None:
            return Check.MISSING if self.core.authinfos.missing else Check.NONE
        check = str(settings["CHCKLOCL" if hello.local else "CHCKCLNT"])
        if not hello.local and admitted.chckclnt not in (None, "", "ASQMGR"):
            check = str(admitted.chckclnt)
        gave = hello.user is not None and hello.password is not None
        return password_check(check, gave, self._privileged(hello))

    def identify(self, hello: Hello, admitted: Admitted, authenticated: str | None) -> Principal:
        """Step 3 (raises MQError 2035 when nothing names a user)."""
        settings = self.core.authinfos.active
        adopt = settings is not None and settings.get("ADOPTCTX") == "YES"
        if hello.local:
            if not (adopt and authenticated):
                if hello.os_principal is None:  # SO_PEERCRED named no user: fail closed
                    raise MQError(C.MQRC_NOT_AUTHORIZED, "the OS user of this local connection is not known")
                return hello.os_principal  # runs as its OS user, with its OS groups
            user: str | None = authenticated
        else:
            user = identity(adopt=adopt, authenticated=authenticated, asserted=hello.user,
                            mcauser=str(admitted.attrs.get("MCAUSER") or ""))
        if not user:
            raise MQError(C.MQRC_NOT_AUTHORIZED, "no user: give a user and password, or set the channel's MCAUSER")
        return Principal(user, self.groups_of(user))

    async def login(self, hello: Hello, admitted: Admitted, check: Check) -> Principal:
        """Steps 2 and 3 when a password is to be checked or is missing: refusals come after
        FAILDLAY seconds, as MQError 2035, with one AMQ5534E line in the error log."""
        authenticated: str | None = None
        why = ""
        if check is Check.MISSING:
            missing = self.core.authinfos.missing
            why = (f"CONNAUTH names AUTHINFO '{missing}', which does not exist" if missing
                   else "no password given where one is required")
        else:
            assert hello.user is not None and hello.password is not None
            if hello.user not in self.users.users():
                why = "the user is not in the queue manager's users file"
            elif await asyncio.get_running_loop().run_in_executor(
                    None, self.users.authenticate, hello.user, hello.password):
                authenticated = hello.user
            else:
                why = "the password is wrong"
        if authenticated is None:
            await self.refuse(hello, admitted, why)
        try:
            return self.identify(hello, admitted, authenticated)
        except MQError as error:
            await self.refuse(hello, admitted, error.text)
            raise

    async def refuse(self, hello: Hello, admitted: Admitted, why: str) -> None:
        """Wait FAILDLAY on this connection only, log once, and raise 2035."""
        settings = self.core.authinfos.active
        delay = int(settings.get("FAILDLAY", 1)) if settings is not None else 1
        where = f"channel '{admitted.channel}' from {hello.address}" if admitted.channel else "a local connection"
        log.error("AMQ5534E: User ID '%s' authentication failed on %s (AMQ5542I: %s); reason 2035",
                  hello.user or (hello.os_principal.user if hello.os_principal else ""), where, why)
        await asyncio.sleep(delay)
        raise MQError(C.MQRC_NOT_AUTHORIZED, "not authorized: user or password not accepted")

    # -- groups ---------------------------------------------------------------------------------
    def groups_of(self, user: str) -> frozenset[str]:
        """A users-file user's groups there; otherwise the OS user's groups (none if neither)."""
        listed = self.users.users().get(user)
        if listed is not None:
            return frozenset(listed.groups)
        return os_principal(user).groups

    def _privileged(self, hello: Hello) -> bool:
        """REQDADM's question: is the user the connection asserts an administrator?"""
        if hello.os_principal is not None:
            return self.core.security.is_admin(hello.os_principal)
        user = str(hello.user or "")
        return bool(user) and self.core.security.is_admin(Principal(user, self.groups_of(user)))


def negotiate(attrs: Mapping[str, Any], cd: Mapping[str, Any], qmgr_maxmsgl: int) -> tuple[int, int, int, int]:
    """(MAXMSGL, HBINT, KAINT, SHARECNV) as a client channel runs: the lower message length
    (MAXMSGL(0): the queue manager's) and sharing limit of the two ends, the higher heartbeat
    interval, and KAINT(AUTO) as HBINT + 60."""
    asked = int(cd.get("MaxMsgLength", 0))  # the client's values are its to choose, within reason:
    limits = [int(attrs.get("MAXMSGL") or qmgr_maxmsgl), asked if asked > 0 else qmgr_maxmsgl]
    hbint = max(int(attrs.get("HBINT", 300)), min(int(cd.get("HeartbeatInterval", 300)), 999_999))
    kaint_attr = attrs.get("KAINT", "AUTO")
    kaint = (hbint + 60 if hbint else 0) if kaint_attr == "AUTO" else int(kaint_attr)
    sharecnv = max(0, min(int(attrs.get("SHARECNV", 10)), int(cd.get("SharingConversations", 10))))
    return min(limits), hbint, kaint, sharecnv
