"""amqsevt: read event messages from an event queue and print them readably, like IBM's sample of
that name: the event type and reason by name, then each field of the event data by IBM's name,
with constants (reason qualifiers, application types, options) spelled out.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from mqlite.cli import queues
from mqlite.cli.connection import connect, connection_options, target_from_options
from mqlite.client.event_text import EVENT_TYPES, FIELD_NAMES, NOT_AUTHORIZED_TYPE, format_event

__all__ = ["EVENT_TYPES", "FIELD_NAMES", "NOT_AUTHORIZED_TYPE", "amqsevt", "format_event"]


@click.command()
@connection_options
@click.option("-q", "queue", default="SYSTEM.ADMIN.QMGR.EVENT", show_default=True, help="Event queue to read.")
@click.option("-w", "wait", type=click.FloatRange(min=0), default=0.0, show_default=True,
              help="Seconds to wait for another event before ending.")
@click.option("--browse", is_flag=True, help="Leave the events on the queue.")
def amqsevt(queue: str, wait: float, browse: bool, **options: Any) -> None:
    """Print the event messages on an event queue (SYSTEM.ADMIN.QMGR.EVENT by default) readably,
    like IBM's amqsevt sample; the events are removed unless --browse."""
    target = target_from_options(options)
    with connect(target) as qm:
        q = queues.open_queue(qm, queue, browse=browse, input=not browse)
        try:
            number = 0
            while True:
                message = queues.get(q, wait=None if browse else wait, browse_next=browse)
                if message is None:
                    break
                number += 1
                click.echo(format_event(message, number, queue))
        finally:
            queues.close(q)
    if not number:
        click.echo(f"No event messages on {queue}.", err=True)
    sys.stdout.flush()
