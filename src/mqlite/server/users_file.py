"""The queue manager's users file, read when it changes, with checks remembered.

A PBKDF2 check costs tens of milliseconds of the event loop; a client reconnecting with the same
password is answered from memory (keyed by a hash of the password, never the password itself)
until the file changes.
"""

from __future__ import annotations

import hashlib
import logging
from pathlib import Path

from mqlite.users import User, UsersFileError, parse, verify_password

log = logging.getLogger("mqlite.server")


class UsersFile:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._stamp: tuple[int, int] | None = None
        self._users: dict[str, User] = {}
        self._checked: dict[tuple[str, bytes], bool] = {}

    def users(self) -> dict[str, User]:
        try:
            stat = self.path.stat()
        except FileNotFoundError:
            self._stamp, self._users = None, {}
            return self._users
        stamp = (stat.st_mtime_ns, stat.st_size)
        if stamp != self._stamp:
            try:
                self._users = parse(self.path.read_text())
            except (OSError, UnicodeDecodeError, UsersFileError) as error:
                log.error("AMQ5542E: users file %s not read: %s; no user can authenticate", self.path, error)
                self._users = {}
            self._stamp = stamp
            self._checked.clear()
        return self._users

    def authenticate(self, name: str, password: str) -> bool:
        user = self.users().get(name)
        if user is None:
            return False
        key = (name, hashlib.sha256(password.encode()).digest())
        known = self._checked.get(key)
        if known is None:
            known = self._checked[key] = verify_password(user.password_hash, password)
            if len(self._checked) > 10_000:
                self._checked.clear()
        return known
