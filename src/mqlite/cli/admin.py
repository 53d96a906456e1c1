"""runmqsc: MQSC commands from stdin, run by the queue manager, output printed as IBM's tool does.

The whole input goes to the queue manager in one MQSC request; the queue manager parses and
runs it and returns the lines runmqsc prints (echoed commands, AMQ messages, the closing
counts) and the exit code: 0 all ran, 10 some failed, 20 nothing could run. When the queue
manager cannot be reached runmqsc prints AMQ8146 and exits 20, as IBM's does.
"""

from __future__ import annotations

import os
import sys

import click

from mqlite import paths
from mqlite.cli.common import CliError
from mqlite.cli.connection import connect, resolve_target

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
@click.argument("qmgr", required=False)
def runmqsc(qmgr: str | None, client: str | None, user: str | None) -> None:
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
    target = resolve_target(qmgr, client, user)
    text = sys.stdin.read()
    with connect(target, failure=_failure) as qm:
        shown = target.qmgr or str(getattr(qm, "name", "") or "")
        click.echo(f"Starting MQSC for queue manager {shown}.\n")
        code, lines = qm.mqsc(text)
    for line in lines:
        click.echo(line)
    click.get_current_context().exit(int(code))
