"""``strmqcsv`` and ``endmqcsv``: IBM's control commands for the command server, here control
messages on its own queue (MQCMD_START_CMD_SERVER / MQCMD_STOP_CMD_SERVER, z/OS's PCF codes)
sent through a local connection as the invoking user, who must be an administrator. A stopped
command server leaves requests on SYSTEM.ADMIN.COMMAND.QUEUE until strmqcsv; QMGR
SCMDSERV(MANUAL) makes it start stopped."""

from __future__ import annotations

import click

from mqlite import cmqc
from mqlite.cli.common import RC_MQI_FAILED, CliError
from mqlite.reasons import reason_name

_WAIT_MS = 60_000  # the command server answers at once; this bounds a queue manager under load


def _control(qmgr: str, command: int) -> None:
    from mqlite.cli.connection import connect, local_target
    from mqlite.client import public as mqlite

    with connect(local_target(qmgr)) as qm:
        pcf = mqlite.PCFExecute(qm, response_wait_interval=_WAIT_MS)
        try:
            pcf.execute(command, [])
        except mqlite.MQMIError as error:
            if error.reason == cmqc.MQRC_NO_MSG_AVAILABLE:
                raise CliError("AMQ8145E: The command server did not answer.", RC_MQI_FAILED) from None
            raise CliError(f"AMQ8101E: WebSphere MQ error {reason_name(error.reason)} ({error.reason}) has occurred.",
                           RC_MQI_FAILED) from None
        finally:
            pcf.disconnect()


@click.command()
@click.argument("qmgr")
def strmqcsv(qmgr: str) -> None:
    """Start the command server of QMGR (PCF commands on SYSTEM.ADMIN.COMMAND.QUEUE)."""
    _control(qmgr, cmqc.MQCMD_START_CMD_SERVER)
    click.echo("WebSphere MQ command server started.")


@click.command()
@click.argument("qmgr")
def endmqcsv(qmgr: str) -> None:
    """End the command server of QMGR: requests wait on its queue until strmqcsv."""
    _control(qmgr, cmqc.MQCMD_STOP_CMD_SERVER)
    click.echo("WebSphere MQ command server ended.")
