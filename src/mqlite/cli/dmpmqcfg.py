"""dmpmqcfg: a queue manager's configuration as the MQSC that recreates it (IBM's tool).

It asks the queue manager as runmqsc does, through the client: DISPLAY commands in one MQSC
request (QMGR, every object type, admin subscriptions, CHLAUTH, AUTHREC), and turns the records
they print into DEFINE/ALTER/SET commands (``config_dump``). ``runmqsc NEWQM < dump`` then makes
a queue manager configured the same: objects, cluster membership, channel authentication and
authority records. Users and their passwords (``mqlite passwd``) are not configuration MQSC can
carry; like IBM's OS users they are set up on the new queue manager's side.
"""

from __future__ import annotations

import getpass
import os
import socket
import sys
import time
from typing import Any

import click

from mqlite import paths
from mqlite.cli.admin import NOT_AVAILABLE, NOT_EXIST, RC_MQSC_FAILED, _failure
from mqlite.cli.common import CliError
from mqlite.cli.config_dump import DEFAULT_OBJECTS, Dump, Record, header, records, render
from mqlite.cli.connection import ADMIN_CHANNEL, connect, resolve_target

RC_FAILED = 1
# -x values and what each dumps; -t values and the DISPLAY sections they keep.
_SECTIONS = ("QMGR", "AUTHINFO", "NAMELIST", "QUEUE", "TOPIC", "CHANNEL", "LISTENER", "ROUTE", "SUB",
             "CHLAUTH", "AUTHREC")
_FILTERS = {
    "all": set(_SECTIONS), "object": set(_SECTIONS) - {"SUB", "CHLAUTH", "AUTHREC"},
    "sub": {"SUB"}, "chlauth": {"CHLAUTH"}, "authrec": {"AUTHREC"},
}
_TYPES = {"all": None, "qmgr": "QMGR", "authinfo": "AUTHINFO", "namelist": "NAMELIST", "queue": "QUEUE",
          "qlocal": "QUEUE", "qalias": "QUEUE", "qmodel": "QUEUE", "qremote": "QUEUE", "topic": "TOPIC",
          "channel": "CHANNEL", "listener": "LISTENER", "route": "ROUTE", "sub": "SUB"}


def _display(section: str, name: str) -> str:
    quoted = "'" + name.replace("'", "''") + "'"
    return {
        "QMGR": "DISPLAY QMGR ALL", "QUEUE": f"DISPLAY QUEUE({quoted}) ALL",
        "SUB": f"DISPLAY SUB({quoted}) SUBTYPE(ADMIN) ALL", "CHLAUTH": f"DISPLAY CHLAUTH({quoted}) ALL",
        "AUTHREC": "DISPLAY AUTHREC",
    }.get(section, f"DISPLAY {section}({quoted}) ALL")


def _ask(qm: Any, command: str) -> list[str]:
    """One DISPLAY's output lines (none when nothing matches; a refusal ends the dump)."""
    code, lines = qm.mqsc(command + "\n")
    body = list(lines[:-3])
    if code and not any("AMQ8147E" in line or "AMQ8884E" in line for line in body):
        refused = [line for line in body if line.startswith("AMQ")]
        raise CliError("\n".join(refused) or f"{command} failed", RC_FAILED)
    return body


def _defaults(qm: Any, section: str) -> list[Record]:
    """The default objects a name filter (-n) left out: the others are compared with them."""
    names = [name for kind, name in DEFAULT_OBJECTS.items()
             if kind == section or (section == "QUEUE" and kind.startswith("Q"))]
    return [record for name in names for record in records(_ask(qm, _display(section, name)))]


@click.command()
@click.option("-m", "qmgr", default=None, metavar="QMGR", help="The queue manager (default: the default one).")
@click.option("-x", "what", type=click.Choice(sorted(_FILTERS)), default="all", show_default=True,
              help="What to dump: object definitions, admin subscriptions, CHLAUTH rules, authority records, or all.")
@click.option("-o", "form", type=click.Choice(["mqsc", "1line", "setmqaut"]), default="mqsc", show_default=True,
              help="mqsc: one attribute a line behind '+'; 1line: one command a line; setmqaut: as mqsc, "
                   "authority records as setmqaut commands.")
@click.option("-a", "all_attributes", is_flag=True, help="Every attribute, defaults too.")
@click.option("-t", "objtype", type=click.Choice(sorted(_TYPES)), default="all", show_default=True,
              help="Only objects of this type.")
@click.option("-n", "name", default="*", show_default=True, help="Only objects with this (generic) name.")
@click.option("-c", "client", default=None, metavar="HOST:PORT",
              help="Client mode through DEV.ADMIN.SVRCONN (also HOST(PORT); default from MQSERVER).")
@click.option("-u", "user", default=None, metavar="USER",
              help="Authenticate as USER (password from MQLITE_PASSWORD, else prompted).")
def dmpmqcfg(qmgr: str | None, what: str, form: str, all_attributes: bool, objtype: str, name: str,
             client: str | None, user: str | None) -> None:
    """Dump the configuration of a queue manager as MQSC that runmqsc replays (like IBM's dmpmqcfg)."""
    if client is None and not os.environ.get("MQSERVER"):  # as runmqsc: IBM's messages for a local one
        local = qmgr or paths.default_qmgr()
        if not local:
            raise CliError(NOT_AVAILABLE, RC_MQSC_FAILED)
        if not paths.config_path(local).is_file():
            raise CliError(NOT_EXIST, RC_MQSC_FAILED)
    target = resolve_target(qmgr, client, user, None, channel=ADMIN_CHANNEL)
    sections = [s for s in _SECTIONS if s in _FILTERS[what] and _TYPES[objtype] in (None, s)]
    with connect(target, failure=_failure) as qm:
        qmgr_lines = _ask(qm, "DISPLAY QMGR ALL")
        qmgr_record = records(qmgr_lines)[0]
        qmgr_name = str(qmgr_record.get("QMNAME", target.qmgr))
        dump = Dump(qmgr_name, all_attributes)
        for section in sections:
            if section == "QMGR":
                dump.add_qmgr(qmgr_record)
                continue
            found = records(_ask(qm, _display(section, name)))
            defaults = _defaults(qm, section) if name != "*" else []
            if section == "QUEUE":
                only = objtype.upper() if objtype.startswith("q") and objtype not in ("queue", "qmgr") else None
                dump.add_queues(found, only, defaults)
            elif section == "CHANNEL":
                dump.add_channels(found)
            elif section == "SUB":
                dump.add_subs(found)
            elif section == "CHLAUTH":
                dump.add_chlauth(found)
            elif section == "AUTHREC":
                dump.add_authrecs(found)
            else:
                dump.add_objects(section, found, defaults)
    now = time.localtime()
    command = "dmpmqcfg " + " ".join(sys.argv[1:] if sys.argv[1:2] != ["dmpmqcfg"] else sys.argv[2:])
    for line in header(qmgr_name, time.strftime("%Y-%m-%d", now), time.strftime("%H.%M.%S", now),
                       _user(), socket.gethostname(), str(qmgr_record.get("PLATFORM", "UNIX")),
                       str(qmgr_record.get("CMDLEVEL", "")), command.strip()):
        click.echo(line)
    commands = [c for c in dump.commands if form != "setmqaut" or c[0] != "SET AUTHREC"]
    for line in render(commands, one_line=form == "1line"):
        click.echo(line)
    if form == "setmqaut":
        for line in dump.setmqaut:
            click.echo(line)


def _user() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return os.environ.get("USER", "")
