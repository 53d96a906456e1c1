"""setmqaut, dspmqaut and dmpmqaut: authority records, with IBM's argument conventions and output.

Each runs as MQSC (SET AUTHREC, DISPLAY ENTAUTH, DISPLAY AUTHREC) over a local connection to the
queue manager, which checks the caller's authority like any admin command. IBM writes
authorities as ``+pub -sub +ctrl``: click would read ``-sub`` as an option cluster, so those
tokens are taken out before click parses the rest.
"""

from __future__ import annotations

import re
from typing import Any

import click

from mqlite.cli.common import CliError, fail

AUTHORITIES = frozenset({
    "all", "alladm", "allmqi", "none", "altusr", "browse", "chg", "clr", "connect", "crt",
    "ctrl", "ctrlx", "dlt", "dsp", "get", "inq", "passall", "passid", "put", "set", "setall",
    "setid", "pub", "sub", "resume", "system",
})

# setmqaut -t values (IBM's, short forms included) and the MQSC OBJTYPE each means.
OBJECT_TYPES = {
    "queue": "QUEUE", "q": "QUEUE", "topic": "TOPIC", "top": "TOPIC", "qmgr": "QMGR",
    "channel": "CHANNEL", "chl": "CHANNEL", "process": "PROCESS", "prcs": "PROCESS",
    "namelist": "NAMELIST", "nl": "NAMELIST", "authinfo": "AUTHINFO", "clntconn": "CLNTCONN",
    "clcn": "CLNTCONN", "listener": "LISTENER", "lstr": "LISTENER", "service": "SERVICE",
    "srvc": "SERVICE", "comminfo": "COMMINFO", "rqmname": "RQMNAME", "rqmn": "RQMNAME",
}
RC_FAILED = 1
_PAIR = re.compile(r"([A-Z]+)\(([^)]*)\)")
_SEPARATOR = "- - - - - - - - - - - - - - - - - "


def is_authority(token: str) -> bool:
    return len(token) > 2 and token[0] in "+-" and token[1:].lower() in AUTHORITIES


class AuthorityCommand(click.Command):
    """A command whose ``+auth``/``-auth`` tokens land in ``ctx.meta['authorities']``."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        ctx.meta["authorities"] = [a.lower() for a in args if is_authority(a)]
        return super().parse_args(ctx, [a for a in args if not is_authority(a)])


_object_type = click.Choice(sorted(OBJECT_TYPES), case_sensitive=False)


def _quoted(value: str) -> str:
    """An MQSC string: quoted, so case is kept and generic characters are plain text."""
    return "'" + value.replace("'", "''") + "'"


def _entity(options: dict[str, Any], required: bool = True) -> str:
    principal, group = options.get("principal"), options.get("group")
    both = principal is not None and group is not None
    if both or (required and principal is None and group is None):
        fail("AMQ7099: Specify exactly one of -p USER or -g GROUP.", RC_FAILED)
    if principal is not None:
        return f" PRINCIPAL({_quoted(principal)})"
    return f" GROUP({_quoted(group)})" if group is not None else ""


def _object(options: dict[str, Any], name_key: str, required: bool) -> tuple[str, str | None]:
    """The MQSC OBJTYPE and the name part (``PROFILE('x')``) of the -t/-n options."""
    objtype = OBJECT_TYPES[options["object_type"].lower()] if options.get("object_type") else ""
    name = options.get(name_key)
    if required and not objtype:
        fail("AMQ7096: An object type (-t) is required.", RC_FAILED)
    if required and name is None and objtype != "QMGR":
        fail("AMQ7097: A profile name (-n) is required unless -t qmgr.", RC_FAILED)
    return objtype, name


def _run(qmgr: str | None, command: str) -> list[str]:
    """Run one MQSC command on the queue manager (locally); the lines after its echo, or exit
    with the refusal IBM's control commands print."""
    from mqlite.cli.connection import connect, local_target

    with connect(local_target(qmgr)) as qm:
        code, lines = qm.mqsc(command + "\n")
    body = [line for line in lines[:-3] if not re.match(r"^\s*\d+ : ", line)]
    if code:
        raise CliError("\n".join(body) or f"{command}: failed", RC_FAILED)
    return body


def _records(lines: list[str]) -> list[dict[str, str]]:
    """The records of a DISPLAY output: one dict per AMQ header."""
    records: list[dict[str, str]] = []
    for line in lines:
        if line.startswith("AMQ"):
            records.append({})
        elif records:
            records[-1].update(_PAIR.findall(line))
    return records


@click.command(cls=AuthorityCommand)
@click.option("-m", "qmgr", default=None, help="Queue manager (default: the default one).")
@click.option("-t", "object_type", type=_object_type, required=True, help="Object type.")
@click.option("-n", "profile", default=None, help="Object name or generic profile (not for -t qmgr).")
@click.option("-p", "principal", default=None, help="User the authorities are for.")
@click.option("-g", "group", default=None, help="Group the authorities are for.")
@click.pass_context
def setmqaut(ctx: click.Context, /, **options: Any) -> None:
    """Grant (+auth) or revoke (-auth) authorities, e.g. +pub -sub."""
    entity = _entity(options)
    if not ctx.meta["authorities"]:
        fail("AMQ7098: No authorities given (for example +pub or -sub).", RC_FAILED)
    objtype, profile = _object(options, "profile", True)
    add = [a[1:].upper() for a in ctx.meta["authorities"] if a[0] == "+"]
    remove = [a[1:].upper() for a in ctx.meta["authorities"] if a[0] == "-"]
    command = f"SET AUTHREC OBJTYPE({objtype}){entity}"
    if profile is not None:
        command += f" PROFILE({_quoted(profile)})"
    if add:
        command += f" AUTHADD({','.join(add)})"
    if remove:
        command += f" AUTHRMV({','.join(remove)})"
    _run(options["qmgr"], command)
    click.echo("The setmqaut command completed successfully.")


@click.command()
@click.option("-m", "qmgr", default=None, help="Queue manager (default: the default one).")
@click.option("-t", "object_type", type=_object_type, required=True, help="Object type.")
@click.option("-n", "name", default=None, help="Object name (not for -t qmgr).")
@click.option("-p", "principal", default=None, help="User to show the authority of.")
@click.option("-g", "group", default=None, help="Group to show the authority of.")
def dspmqaut(**options: Any) -> None:
    """Display the authority a user (with its groups) or a group holds on an object."""
    entity = _entity(options)
    objtype, name = _object(options, "name", True)
    command = f"DISPLAY ENTAUTH OBJTYPE({objtype}){entity}"
    if name is not None:
        command += f" OBJNAME({_quoted(name)})"
    found = _records(_run(options["qmgr"], command))
    record = found[0] if found else {}
    click.echo(f"Entity {record.get('ENTITY', '')} has the following authorizations for object "
               f"{record.get('OBJECT', name or '')}:")
    for authority in record.get("AUTHLIST", "NONE").split(","):
        if authority != "NONE":
            click.echo(f"\t{authority.lower()}")


@click.command()
@click.option("-m", "qmgr", default=None, help="Queue manager (default: the default one).")
@click.option("-t", "object_type", type=_object_type, default=None, help="Object type.")
@click.option("-n", "profile", default=None, help="Records whose profile covers this name.")
@click.option("-p", "principal", default=None, help="Only this user's records.")
@click.option("-g", "group", default=None, help="Only this group's records.")
@click.option("-l", "terse", is_flag=True, help="Only the profile names and types.")
@click.option("-a", "as_commands", is_flag=True, help="Print setmqaut commands that set the records.")
@click.option("-e", "exact", is_flag=True, help="Only the profile given by -n, not those covering it.")
def dmpmqaut(**options: Any) -> None:
    """Dump authority records (all, or those of a profile, object type and entity)."""
    entity = _entity(options, required=False)
    objtype, profile = _object(options, "profile", False)
    command = "DISPLAY AUTHREC" + (f" OBJTYPE({objtype})" if objtype else "") + entity
    if profile is not None:
        command += f" PROFILE({_quoted(profile)})" + (" MATCH(EXACT)" if options["exact"] else "")
    qmgr = options["qmgr"]
    try:
        lines = _run(qmgr, command)
    except CliError as error:
        if "AMQ8147E" in str(error):
            click.echo("No matching authority records.")
            return
        raise
    listed: set[tuple[str, str]] = set()
    for record in _records(lines):
        kind = record.get("OBJTYPE", "").lower()
        authorities = [a.lower() for a in record.get("AUTHLIST", "NONE").split(",") if a != "NONE"]
        etype = record.get("ENTTYPE", "").lower()
        if options["terse"]:
            if (record.get("PROFILE", ""), kind) not in listed:
                listed.add((record.get("PROFILE", ""), kind))
                click.echo(f"profile: {record.get('PROFILE', '')}, type: {kind}")
        elif options["as_commands"]:
            flag = "-p" if etype == "principal" else "-g"
            where = f" -m {qmgr}" if qmgr else ""
            click.echo(f"setmqaut{where} -n '{record.get('PROFILE', '')}' -t {kind} {flag} {record.get('ENTITY', '')} "
                       + (" ".join(f"+{a}" for a in authorities) or "+none"))
        else:
            click.echo(f"profile:     {record.get('PROFILE', '')}")
            click.echo(f"object type: {kind}")
            click.echo(f"entity:      {record.get('ENTITY', '')}")
            click.echo(f"entity type: {etype}")
            click.echo(f"authority:   {', '.join(authorities) or 'none'}")
            click.echo(_SEPARATOR)
