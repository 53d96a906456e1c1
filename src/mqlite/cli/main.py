"""The ``mqlite`` command: one group holding IBM's command names as subcommands.

Each job lives in its own module (control, messaging, admin, dmpmqmsg, security); this one only
assembles them. Heavy imports (the client, rich) happen inside the commands that need them, so
``mqlite --help`` and the control commands start fast.
"""

from __future__ import annotations

import os
import sys

import click

from mqlite.cli import (
    admin,
    amqsmon,
    amqsrua,
    certificates,
    command_server,
    control,
    dmpmqcfg,
    dmpmqmsg,
    dspmqver,
    ems,
    events,
    messaging,
    samples,
    security,
    users,
    web,
)


@click.group(context_settings={"max_content_width": 100})
@click.version_option(package_name="mqlite", prog_name="mqlite")
def cli() -> None:
    """mqlite: an IBM MQ-style message queuing system.

    Queue managers live under $MQLITE_HOME (default ~/.mqlite). Messaging commands take
    -m QMGR (optional when a default queue manager exists), or -c HOST:PORT / MQSERVER for
    client mode, and -u USER with the password from MQLITE_PASSWORD or a prompt.
    """


for command in (
    control.crtmqm, control.strmqm, control.endmqm, control.dltmqm, control.dspmq,
    command_server.strmqcsv, command_server.endmqcsv,
    admin.runmqsc, admin.runswchl, ems.emsconf,
    messaging.put, messaging.get, messaging.browse, messaging.pub, messaging.sub,
    security.setmqaut, security.dspmqaut, security.dmpmqaut, users.passwd, certificates.mkcert, certificates.addcert,
    dmpmqmsg.dmpmqmsg, events.amqsevt, amqsmon.amqsmon, amqsrua.amqsrua, dspmqver.dspmqver, dmpmqcfg.dmpmqcfg,
    web.strmqweb, web.endmqweb, web.dspmqweb, web.setmqweb,
    *samples.COMMANDS,
):
    cli.add_command(command)


def main() -> None:
    """Console-script entry point; a closed pipe or Ctrl-C ends quietly, as MQ's tools do."""
    try:
        cli.main(prog_name="mqlite")
    except KeyboardInterrupt:
        sys.exit(130)
    except BrokenPipeError:
        # Downstream closed (``mqlite browse ... | head``): silence the flush at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        sys.exit(1)


if __name__ == "__main__":
    main()
