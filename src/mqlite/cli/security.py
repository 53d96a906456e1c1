"""setmqaut and dspmqaut: authority records, with IBM's argument conventions.

The commands are registered with their full syntax now so scripts parse; the work behind them
comes with the security issue. IBM writes authorities as ``+pub -sub +ctrl``: click would read
``-sub`` as an option cluster, so those tokens are taken out before click parses the rest.
"""

from __future__ import annotations

from typing import Any

import click

from mqlite.cli.common import fail

AUTHORITIES = frozenset({
    "all", "alladm", "allmqi", "none", "altusr", "browse", "chg", "clr", "connect", "crt",
    "ctrl", "ctrlx", "dlt", "dsp", "get", "inq", "passall", "passid", "put", "set", "setall",
    "setid", "pub", "sub", "resume", "system",
})

OBJECT_TYPES = (
    "queue", "q", "topic", "top", "qmgr", "channel", "chl", "process", "prcs", "namelist", "nl",
    "authinfo", "clntconn", "clcn", "listener", "lstr", "service", "srvc", "comminfo", "rqmname",
)


def is_authority(token: str) -> bool:
    return len(token) > 2 and token[0] in "+-" and token[1:].lower() in AUTHORITIES


class AuthorityCommand(click.Command):
    """A command whose ``+auth``/``-auth`` tokens land in ``ctx.meta['authorities']``."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        ctx.meta["authorities"] = [a.lower() for a in args if is_authority(a)]
        return super().parse_args(ctx, [a for a in args if not is_authority(a)])


_object_type = click.Choice(OBJECT_TYPES, case_sensitive=False)


@click.command(cls=AuthorityCommand)
@click.option("-m", "qmgr", default=None, help="Queue manager (default: the default one).")
@click.option("-t", "object_type", type=_object_type, required=True, help="Object type.")
@click.option("-n", "profile", required=True, help="Object name or generic profile.")
@click.option("-p", "principal", default=None, help="User the authorities are for.")
@click.option("-g", "group", default=None, help="Group the authorities are for.")
@click.pass_context
def setmqaut(ctx: click.Context, /, **options: Any) -> None:
    """Grant (+auth) or revoke (-auth) authorities, e.g. +pub -sub."""
    if (options["principal"] is None) == (options["group"] is None):
        fail("AMQ7099: Specify exactly one of -p USER or -g GROUP.", 1)
    if not ctx.meta["authorities"]:
        fail("AMQ7098: No authorities given (for example +pub or -sub).", 1)
    fail("setmqaut: not yet supported.", 1)


@click.command()
@click.option("-m", "qmgr", default=None, help="Queue manager (default: the default one).")
@click.option("-t", "object_type", type=_object_type, required=True, help="Object type.")
@click.option("-n", "name", required=True, help="Object name.")
@click.option("-p", "principal", default=None, help="User to show the authority of.")
@click.option("-g", "group", default=None, help="Group to show the authority of.")
def dspmqaut(**options: Any) -> None:
    """Display the effective authority of a user or group on an object."""
    fail("dspmqaut: not yet supported.", 1)
