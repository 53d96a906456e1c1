"""amqsmon: the statistics messages on SYSTEM.ADMIN.STATISTICS.QUEUE printed in IBM's sample's
layout (``-t statistics``; ``-q`` one queue, ``--channel`` one channel (IBM's ``-c``: mqlite's
``-c`` is the client connection), ``-b`` browse). Accounting (``-t accounting``, ``-a``) is not
built: mqlite writes no accounting messages."""

from __future__ import annotations

import sys
from typing import Any

import click

from mqlite import cmqc as C
from mqlite.cli import queues
from mqlite.cli.connection import connect, connection_options, target_from_options
from mqlite.client.statistics_text import format_statistics
from mqlite.protocol import pcf

STATISTICS_QUEUE = "SYSTEM.ADMIN.STATISTICS.QUEUE"


@click.command()
@connection_options
@click.option("-t", "kind", type=click.Choice(["statistics", "accounting"]), default="statistics",
              show_default=True, help="Which messages (accounting is not built).")
@click.option("-q", "queue", default=None, help="Only this queue's statistics.")
@click.option("--channel", "channel", default=None,
              help="Only this channel's statistics (IBM's -c; mqlite's -c is the client connection).")
@click.option("-a", "accounting", is_flag=True, help="Accounting: not built.")
@click.option("-b", "browse", is_flag=True, help="Browse: leave the messages on the queue.")
def amqsmon(kind: str, queue: str | None, channel: str | None, accounting: bool, browse: bool,
            **options: Any) -> None:
    """Print the statistics messages (STATQ, STATMQI, STATCHL) as IBM's amqsmon sample does."""
    if kind == "accounting" or accounting:
        raise click.ClickException("accounting messages are not built: mqlite writes statistics only")
    target = target_from_options(options)
    printed = 0
    with connect(target) as qm:
        q = queues.open_queue(qm, STATISTICS_QUEUE, browse=browse, input=not browse)
        try:
            while True:
                message = queues.get(q, wait=None if browse else 0, browse_next=browse)
                if message is None:
                    break
                if message.md.Format.strip() != C.MQFMT_ADMIN.strip():
                    continue
                text = format_statistics(pcf.decode(message.body, pcf.little_endian(message.md.Encoding)),
                                         queue, channel)
                if text:
                    click.echo(text)
                    printed += 1
        finally:
            queues.close(q)
    if not printed:
        click.echo(f"No statistics messages on {STATISTICS_QUEUE}.", err=True)
    sys.stdout.flush()
