"""Connection authentication decisions (CONNAUTH with an AUTHINFO of AUTHTYPE(IDPWOS)), as pure
functions: whether a connection's password must be checked, and who the connection then runs
as. The server checks the password itself (the users file) and supplies the groups.

- CHCKLOCL applies to local (bindings) connections, CHCKCLNT to client (TCP) ones:
  NONE checks nothing, OPTIONAL checks a password when one is given, REQUIRED needs one from
  everyone, REQDADM from privileged users (administrators) only, others as OPTIONAL.
- ADOPTCTX(YES): the authenticated user is the connection's identity; NO: the user the
  connection asserts is (a local connection's OS user; a client's user name).
- A client channel's MCAUSER, when set, is the identity in the end (as IBM: it overrides what
  the client asserted or authenticated as). A local connection has no channel.
"""

from __future__ import annotations

import enum


class Check(enum.Enum):
    """What to do with a connection's user and password."""

    NONE = "none"  # nothing to check
    PASSWORD = "password"  # check the password of the user given
    MISSING = "missing"  # a password was required and none was given: refuse


def password_check(check: str, gave_password: bool, privileged: bool) -> Check:
    """The check a CHCKLOCL/CHCKCLNT value asks of one connection (spec C:SC-SEC connection
    authentication; IBM's CHCKCLNT/CHCKLOCL table)."""
    if check == "NONE":
        return Check.NONE
    required = check == "REQUIRED" or (check == "REQDADM" and privileged)
    if gave_password:
        return Check.PASSWORD
    return Check.MISSING if required else Check.NONE


def identity(*, adopt: bool, authenticated: str | None, asserted: str | None, mcauser: str = "") -> str | None:
    """Who the connection runs as: MCAUSER when the channel sets one, else the authenticated user
    with ADOPTCTX(YES), else the user asserted; None when nothing names anyone (refused)."""
    if mcauser:
        return mcauser
    if adopt and authenticated:
        return authenticated
    return asserted or None
