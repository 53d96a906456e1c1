"""runmqsc: MQSC commands from stdin, run by the queue manager, output printed as IBM's tool does.

At a terminal each command runs as soon as it is typed (``run_interactive``); otherwise the
whole input goes to the queue manager in one MQSC request; the queue manager parses and
runs it and returns the lines runmqsc prints (echoed commands, AMQ messages, the closing
counts) and the exit code: 0 all ran, 10 some failed, 20 nothing could run. When the queue
manager cannot be reached runmqsc prints AMQ8146 and exits 20, as IBM's does.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterable
from typing import Any

import click

from mqlite import paths
from mqlite.cli.common import CliError
from mqlite.cli.connection import ADMIN_CHANNEL, connect, local_target, resolve_target, tls_from_options, tls_options
from mqlite.mqsc.summary import summary

RC_MQSC_FAILED = 20
NOT_AVAILABLE = "AMQ8146: WebSphere MQ queue manager not available."
NOT_EXIST = "AMQ8118: WebSphere MQ queue manager does not exist."
MQRC_NOT_AUTHORIZED = 2035


def _failure(reason: int) -> CliError:
    from mqlite.reasons import reason_name

    if reason == MQRC_NOT_AUTHORIZED:
        return CliError(f"AMQ8135: Not authorized. {reason_name(reason)} ({reason})",
                        RC_MQSC_FAILED)
    return CliError(f"{NOT_AVAILABLE} {reason_name(reason)} ({reason})", RC_MQSC_FAILED)


@click.command()
@click.option("-c", "client", default=None, metavar="HOST:PORT",
              help="Client mode: connect over TCP (also HOST(PORT); default from MQSERVER).")
@click.option("-u", "user", default=None, metavar="USER",
              help="Authenticate as USER (password from MQLITE_PASSWORD, else prompted).")
@tls_options
@click.argument("qmgr", required=False)
def runmqsc(qmgr: str | None, client: str | None, user: str | None, **tls: str | None) -> None:
    """Run the MQSC commands read from stdin on queue manager QMGR (default: the default one).

    Exit code 0: every command ran; 10: some failed; 20: none could run.
    """
    local = client is None and not os.environ.get("MQSERVER")
    if local:
        name = qmgr or paths.default_qmgr()
        if not name:
            raise CliError(NOT_AVAILABLE, RC_MQSC_FAILED)
        if not paths.config_path(name).is_file():
            raise CliError(NOT_EXIST, RC_MQSC_FAILED)
    # -c: the administrators' channel
    target = resolve_target(qmgr, client, user, tls_from_options(tls), channel=ADMIN_CHANNEL,
                            password_first_line=True)  # no terminal: the input's first line, as IBM's runmqsc
    interactive = sys.stdin.isatty()
    text = "" if interactive else sys.stdin.read()
    with connect(target, failure=_failure) as qm:
        shown = target.qmgr or str(getattr(qm, "name", "") or "")
        click.echo(f"Starting MQSC for queue manager {shown}.\n")
        if interactive:
            code = run_interactive(qm, sys.stdin)
            click.get_current_context().exit(code)
        code, lines = qm.mqsc(text)
    for line in lines:
        click.echo(line)
    click.get_current_context().exit(int(code))


_ECHO = re.compile(r"^\s*\d+ : ")
# The closing lines of a one-command script, and the (read, syntax errors, failed) each means.
_CLOSINGS = {tuple(summary(*counts)): counts for counts in ((1, 0, 0), (1, 1, 0), (1, 0, 1), (0, 0, 0))}


def run_interactive(qm: Any, lines: Iterable[str]) -> int:
    """runmqsc at a terminal: each command runs as soon as it is complete (``+``/``-`` continue
    it), its output numbered as one session; END or end of input prints the closing counts."""
    number = read = syntax = failed = 0
    pending: list[str] = []
    for raw in lines:
        line = raw.rstrip("\n")
        pending.append(line)
        if line.rstrip().endswith(("+", "-")):
            continue
        command = "\n".join(pending) + "\n"
        pending = []
        stripped = command.strip()
        if not stripped or stripped.startswith("*"):
            continue
        if stripped.upper() == "END":
            break
        code, output = qm.mqsc(command)
        counts = _CLOSINGS.get(tuple(output[-3:]), (1, 0, 1 if code else 0))
        body = output[:-3] if tuple(output[-3:]) in _CLOSINGS else output
        number += 1
        for text in body:
            click.echo(_ECHO.sub(f"{number:>6} : ", text, count=1) if _ECHO.match(text) else text)
        read, syntax, failed = read + counts[0], syntax + counts[1], failed + counts[2]
        if code == RC_MQSC_FAILED:  # the queue manager went away: as in a script, stop here
            break
    for text in summary(read, syntax, failed):
        click.echo(text)
    return 0 if not (syntax or failed) else 10


@click.command()
@click.option("-m", "qmgr", required=True, metavar="QMGR", help="The queue manager (it must be running).")
@click.option("-c", "channel", required=True, metavar="CHANNEL",
              help="The cluster-sender channel(s): a name, or a generic one (* for all).")
@click.option("-q", "query", is_flag=True, help="Only report which channels would switch.")
@click.option("-n", "no_move", is_flag=True, help="Switch without moving the waiting messages to the new queue.")
def runswchl(qmgr: str, channel: str, query: bool, no_move: bool) -> None:
    """Switch (or report) the cluster transmission queues of cluster-sender channels at rest, as
    IBM's runswchl: a changed CLCHNAME or DEFCLXQ takes effect now instead of at the next start."""
    if not paths.config_path(qmgr).is_file():
        raise CliError(NOT_EXIST, RC_MQSC_FAILED)
    command = f"SWITCH CHANNEL('{channel}')" + (" STATUS" if query else "") + (" MOVEMSGS(NO)" if no_move else "")
    with connect(local_target(qmgr), failure=_failure) as qm:
        code, lines = qm.mqsc(command + "\n")
    closing = {line for counts in _CLOSINGS for line in counts}
    for line in lines:
        if not _ECHO.match(line) and line not in closing and line.strip():
            click.echo(line)
    click.get_current_context().exit(0 if int(code) == 0 else 10)
