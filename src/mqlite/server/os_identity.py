"""Who a local process is: an OS user and its OS groups, as the server reads them (core reads
nothing itself; it gets a ``Principal``)."""

from __future__ import annotations

import asyncio
import grp
import os
import pwd
import socket
import struct

from mqlite import paths
from mqlite.core.security.principal import Principal


def os_principal(user: str) -> Principal:
    """``user`` with its OS groups (primary and supplementary); no groups if the OS does not know it."""
    try:
        gid = pwd.getpwnam(user).pw_gid
        gids = os.getgrouplist(user, gid)
    except (KeyError, OSError):
        return Principal(user)
    names = set()
    for group_id in gids:
        try:
            names.add(grp.getgrgid(group_id).gr_name)
        except KeyError:
            continue
    return Principal(user, frozenset(names))


def current_principal() -> Principal:
    """The OS user running this process, with its groups."""
    return os_principal(current_user())


def peer_principal(transport: asyncio.BaseTransport) -> Principal | None:
    """The OS user at the other end of a Unix socket (SO_PEERCRED) with its groups, if there is one."""
    sock = transport.get_extra_info("socket")
    if sock is None or sock.family != socket.AF_UNIX:
        return None
    try:
        creds = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
        _, uid, _ = struct.unpack("3i", creds)
        name = pwd.getpwuid(uid).pw_name
    except (OSError, KeyError):
        return None
    return os_principal(name)


def current_user() -> str:
    return pwd.getpwuid(os.getuid()).pw_name


def creator_of(qmgr: str) -> str:
    """The OS user that created queue manager ``qmgr``: recorded by crtmqm in its config, or for a
    queue manager created before that was recorded, the owner of its directory."""
    try:
        creator = paths.read_config(qmgr).get("creator")
    except (OSError, ValueError):
        creator = None
    if isinstance(creator, str) and creator:
        return creator
    try:
        return pwd.getpwuid(paths.qmgr_dir(qmgr).stat().st_uid).pw_name
    except (OSError, KeyError):
        return current_user()
