"""``mqlite emsconf``: TIBCO EMS's topics.conf and routes.conf, run as MQSC on a queue manager.

The translation is ``mqsc.ems_conf``; here the files are read, the queue manager's topic objects
looked up (a topics.conf entry for a topic string that already has an object ALTERs it), and the
MQSC run as runmqsc runs a script, its output printed the same way.
"""

from __future__ import annotations

from pathlib import Path

import click

from mqlite import paths
from mqlite.cli.admin import NOT_EXIST, RC_MQSC_FAILED, _failure
from mqlite.cli.common import CliError
from mqlite.cli.connection import Target, connect
from mqlite.mqsc.ems_conf import EmsConfError, parse_routes, parse_topics, translate
from mqlite.mqsc.records import display_records


@click.command()
@click.option("-m", "qmgr", default=None, metavar="QMGR", help="The queue manager (default: the default one).")
@click.option("--topics", "topics_file", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="An EMS topics.conf: 'name global,maxmsgs=N,maxbytes=N[KB|MB|GB],overflowPolicy=...'.")
@click.option("--routes", "routes_file", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="An EMS routes.conf: [peer] sections with zone_name, zone_type, outgoing_topic, incoming_topic.")
@click.option("--print", "print_only", is_flag=True, help="Print the MQSC and run nothing.")
def emsconf(qmgr: str | None, topics_file: Path | None, routes_file: Path | None, print_only: bool) -> None:
    """Define the topics and routes of TIBCO EMS configuration files on queue manager QMGR.

    EMS topic names become MQ topic strings ('orders.west' is 'orders/west'); each [peer] of
    routes.conf becomes DEFINE ROUTE(peer) ... REPLACE over the channels to that queue manager.
    Exit code 0: every command ran; 10: some failed; 20: nothing could run (a bad line names its
    file and line).
    """
    if topics_file is None and routes_file is None:
        raise CliError("emsconf: give --topics FILE, --routes FILE or both", RC_MQSC_FAILED)
    try:
        topics = parse_topics(topics_file.read_text(), str(topics_file)) if topics_file else []
        routes = parse_routes(routes_file.read_text(), str(routes_file)) if routes_file else []
    except (EmsConfError, UnicodeDecodeError) as error:
        raise CliError(f"emsconf: {error}", RC_MQSC_FAILED) from None
    if print_only:
        click.echo(translate(topics, routes), nl=False)
        return
    name = qmgr or paths.default_qmgr()
    if not name or not paths.config_path(name).is_file():
        raise CliError(NOT_EXIST, RC_MQSC_FAILED)
    with connect(Target(name), failure=_failure) as qm:  # local, as the check above: not MQSERVER's
        existing: dict[str, str] = {}
        if topics:
            _, lines = qm.mqsc("DISPLAY TOPIC(*) TYPE(LOCAL) TOPICSTR\n")
            existing = {row["TOPICSTR"]: row["TOPIC"] for row in display_records(lines)
                        if "TOPICSTR" in row and "TOPIC" in row}
        code, lines = qm.mqsc(translate(topics, routes, existing))
    click.echo(f"Starting MQSC for queue manager {name}.\n")
    for line in lines:
        click.echo(line)
    click.get_current_context().exit(int(code))
