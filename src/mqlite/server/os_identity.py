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


class OsGroups:
    """OS users' groups, remembered: reading them (``getgrouplist`` and a ``getgrgid`` a group, each
    a pass over /etc/group) costs about 200 µs, at every local connect. Forgotten when /etc/passwd
    or /etc/group changes, and at REFRESH SECURITY (``forget``), when IBM's OAM also rereads group
    membership (the way to pick up a change made in a directory service rather than those files)."""

    LIMIT = 4096  # users remembered at most; past it the memory starts afresh

    def __init__(self, files: tuple[str, ...] = ("/etc/passwd", "/etc/group")) -> None:
        self.files = files
        self._stamp: tuple[int, ...] = ()
        self._known: dict[str, Principal] = {}

    def principal(self, user: str) -> Principal:
        stamp = self._files_stamp()
        if stamp != self._stamp:
            self._stamp, self._known = stamp, {}
        known = self._known.get(user)
        if known is None:
            if len(self._known) >= self.LIMIT:
                self._known = {}
            known = self._known[user] = _read_os_principal(user)
        return known

    def forget(self) -> None:
        self._known = {}

    def _files_stamp(self) -> tuple[int, ...]:
        stamp = []
        for name in self.files:
            try:
                stat = os.stat(name)
            except OSError:
                stamp += [0, 0]
            else:
                stamp += [stat.st_mtime_ns, stat.st_size]
        return tuple(stamp)


OS_GROUPS = OsGroups()


def os_principal(user: str) -> Principal:
    """``user`` with its OS groups (primary and supplementary); no groups if the OS does not know it."""
    return OS_GROUPS.principal(user)


def _read_os_principal(user: str) -> Principal:
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
