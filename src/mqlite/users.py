"""The queue manager's users: names, password hashes and groups, as a text file holds them.

IBM MQ checks passwords against the operating system or LDAP; mqlite keeps its own list in the
queue manager's directory (``users``, one ``name:hash:group,group`` line each, written by
``mqlite passwd``), so a queue manager can authenticate MQTT clients without root or a
directory server. Hashes are PBKDF2-SHA256 with a salt of their own; nothing here does I/O.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import re
from dataclasses import dataclass, field

SCHEME = "pbkdf2_sha256"
ITERATIONS = 100_000  # about 50 ms a check here; checks are cached by the server
_NAME = re.compile(r"[A-Za-z0-9._%@-]{1,64}")


class UsersFileError(ValueError):
    """A line of the users file that cannot be read."""


@dataclass
class User:
    name: str
    password_hash: str
    groups: list[str] = field(default_factory=list)


def valid_name(name: str) -> bool:
    return bool(_NAME.fullmatch(name))


def hash_password(password: str, salt: bytes | None = None, iterations: int = ITERATIONS) -> str:
    salt = salt if salt is not None else os.urandom(16)
    digest = hashlib.pbkdf2_hmac("sha256", password.encode(), salt, iterations)
    return f"{SCHEME}${iterations}${_b64(salt)}${_b64(digest)}"


def verify_password(stored: str, password: str) -> bool:
    """Does ``password`` match the stored hash? False for a hash of a scheme we do not know."""
    try:
        scheme, iterations, salt, digest = stored.split("$")
        if scheme != SCHEME:
            return False
        expected = base64.b64decode(digest + "=" * (-len(digest) % 4))
        actual = hashlib.pbkdf2_hmac("sha256", password.encode(),
                                     base64.b64decode(salt + "=" * (-len(salt) % 4)), int(iterations))
    except ValueError:
        return False
    return hmac.compare_digest(expected, actual)


def parse(text: str) -> dict[str, User]:
    """The users of a file's text; blank lines and ``#`` comments are skipped."""
    users: dict[str, User] = {}
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split(":")
        if len(parts) not in (2, 3) or not valid_name(parts[0]) or not parts[1].startswith(SCHEME + "$"):
            raise UsersFileError(f"line {number}: expected name:{SCHEME}$...[:groups]")
        groups = [g for g in parts[2].split(",") if g] if len(parts) == 3 else []
        users[parts[0]] = User(parts[0], parts[1], groups)
    return users


def render(users: dict[str, User]) -> str:
    header = "# mqlite users: name:password hash:groups (written by `mqlite passwd`)\n"
    return header + "".join(f"{u.name}:{u.password_hash}:{','.join(u.groups)}\n"
                            for u in sorted(users.values(), key=lambda u: u.name))


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode().rstrip("=")
