"""``mqlite passwd``: the queue manager's users, whose passwords MQTT channels check.

Like ``mosquitto_passwd``, it edits a file beside the queue manager's store, whether or not the
queue manager runs: a running one reads the file again when it changes.
"""

from __future__ import annotations

import getpass
import os
import tempfile

import click

from mqlite import paths
from mqlite.cli.admin import NOT_EXIST
from mqlite.cli.common import RC_NOT_EXIST, fail
from mqlite.users import User, UsersFileError, hash_password, parse, render, valid_name


@click.command()
@click.option("-m", "qmgr", default=None, help="Queue manager (default: the default one).")
@click.option("-g", "groups", default=None, help="Groups of the user, comma separated (replaces its groups).")
@click.option("-d", "--delete", is_flag=True, help="Delete the user.")
@click.option("-l", "--list", "listing", is_flag=True, help="List the users and their groups.")
@click.argument("user", required=False)
def passwd(qmgr: str | None, groups: str | None, delete: bool, listing: bool, user: str | None) -> None:
    """Add USER to the queue manager's users, or change its password or groups.

    The password comes from MQLITE_PASSWORD, else it is prompted for twice.
    """
    name = qmgr or paths.default_qmgr()
    if not name or not paths.config_path(name).is_file():
        fail(NOT_EXIST, RC_NOT_EXIST)
    path = paths.users_path(name)
    try:
        users = parse(path.read_text()) if path.exists() else {}
    except UsersFileError as error:
        fail(f"AMQ5542E: users file {path} cannot be read: {error}")
    if listing:
        for entry in sorted(users.values(), key=lambda u: u.name):
            click.echo(f"USER({entry.name})  GROUPS({','.join(entry.groups)})")
        return
    if not user or not valid_name(user):
        fail("a user name of 1 to 64 letters, digits and . _ % @ - is needed")
    if delete:
        if users.pop(user, None) is None:
            fail(f"user {user} does not exist")
    else:
        password = os.environ.get("MQLITE_PASSWORD")
        if password is None:
            password = getpass.getpass(f"Password for {user}: ")
            if getpass.getpass("Again: ") != password:
                fail("the passwords differ")
        if not password:
            fail("the password is empty")
        kept = users[user].groups if user in users else []
        chosen = [g.strip() for g in groups.split(",") if g.strip()] if groups is not None else kept
        users[user] = User(user, hash_password(password), chosen)
    write_users(path, render(users))
    click.echo(f"User {user} {'deleted' if delete else 'set'} for queue manager {name}.")


def write_users(path: os.PathLike[str], text: str) -> None:
    """Whole or not at all, readable by the owner only: it holds password hashes."""
    directory = os.path.dirname(os.fspath(path))
    fd, temporary = tempfile.mkstemp(dir=directory, prefix=".users.")
    try:
        with os.fdopen(fd, "w") as handle:
            handle.write(text)
        os.chmod(temporary, 0o600)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise
