"""put, get, browse (like IBM's amqsput, amqsget, amqsbcg) and the pub/sub commands.

Bodies travel as raw bytes: stdin lines become messages without any decoding, and received
bodies are written to stdout's binary buffer, one per line, flushed each time so a pipeline
sees a message as soon as it arrives.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from mqlite.cli import queues
from mqlite.cli.connection import connect, connection_options, target_from_options

MQRC_NO_MSG_AVAILABLE = 2033


@click.command()
@connection_options
@click.option("-t", "--target-qmgr", default="", metavar="QMGR",
              help="The queue manager QUEUE is on, when another (amqsput's TargetQMgrName): the message goes "
                   "through the transmission queue that leads there.")
@click.option("--persistent/--not-persistent", default=None,
              help="Persistence of the messages (default: the queue's DEFPSIST).")
@click.argument("queue")
def put(queue: str, target_qmgr: str, persistent: bool | None, **options: Any) -> None:
    """Put each line of stdin on QUEUE as one message (Format MQSTR), like amqsput."""
    target = target_from_options(options)
    with connect(target) as qm:
        q = queues.open_queue(qm, queue, output=True, target_qmgr=target_qmgr)
        try:
            for line in sys.stdin.buffer:
                queues.put_text(q, _strip_eol(line), persistent)
        finally:
            queues.close(q)


def _strip_eol(line: bytes) -> bytes:
    if line.endswith(b"\n"):
        line = line[:-1]
        if line.endswith(b"\r"):
            line = line[:-1]
    return line


@click.command()
@connection_options
@click.option("-w", "wait", type=click.FloatRange(min=0), default=5.0, show_default=True,
              help="Seconds to wait for a message before ending.")
@click.argument("queue")
def get(queue: str, wait: float, **options: Any) -> None:
    """Get messages from QUEUE, printing each body on a line; end after WAIT seconds with none."""
    target = target_from_options(options)
    out = sys.stdout.buffer
    with connect(target) as qm:
        q = queues.open_queue(qm, queue, input=True)
        try:
            while (message := queues.get(q, wait=wait)) is not None:
                out.write(message.body + b"\n")
                out.flush()
        finally:
            queues.close(q)


@click.command()
@connection_options
@click.argument("queue")
def browse(queue: str, **options: Any) -> None:
    """Print the body of each message on QUEUE without removing it (no wait)."""
    target = target_from_options(options)
    out = sys.stdout.buffer
    with connect(target) as qm:
        q = queues.open_queue(qm, queue, browse=True)
        try:
            for message in queues.browse_all(q):
                out.write(message.body + b"\n")
                out.flush()
        finally:
            queues.close(q)


@click.command()
@connection_options
@click.option("--retain", is_flag=True, help="Publish as retained publications.")
@click.argument("topic_string")
def pub(topic_string: str, retain: bool, **options: Any) -> None:
    """Publish each line of stdin on TOPIC_STRING, like amqspub."""
    from mqlite import cmqc
    from mqlite.client import public as mqlite

    target = target_from_options(options)
    with connect(target) as qm:
        topic = mqlite.Topic(qm, topic_string=topic_string, open_opts=cmqc.MQOO_OUTPUT | cmqc.MQOO_FAIL_IF_QUIESCING)
        try:
            for line in sys.stdin.buffer:
                topic.pub(_strip_eol(line), mqlite.MD(Format=cmqc.MQFMT_STRING), retain=retain)
        finally:
            topic.close()


@click.command()
@connection_options
@click.option("--durable", "durable", default=None, metavar="NAME",
              help="Create or resume durable subscription NAME and keep it on exit.")
@click.option("-w", "wait", type=click.FloatRange(min=0), default=5.0, show_default=True,
              help="Seconds to wait for a publication before ending.")
@click.option("-n", "count", type=click.IntRange(min=1), default=None,
              help="End after COUNT publications.")
@click.argument("topic_string")
def sub(topic_string: str, durable: str | None, wait: float, count: int | None,
        **options: Any) -> None:
    """Subscribe to TOPIC_STRING and print each publication body on a line, like amqssub.

    A managed subscription: non-durable ones end with the command; --durable NAME creates the
    subscription or resumes it, and keeps it (and what arrives meanwhile) when the command ends."""
    from mqlite import cmqc
    from mqlite.client import MQMIError
    from mqlite.client import public as mqlite

    target = target_from_options(options)
    out = sys.stdout.buffer
    with connect(target) as qm:
        subscription = mqlite.Subscription(qm, topic_string, name=durable, durable=durable is not None)
        got = 0
        try:
            while count is None or got < count:
                try:
                    message = subscription.get(wait=wait) if wait else subscription.get()
                except MQMIError as e:
                    if e.reason == MQRC_NO_MSG_AVAILABLE:
                        break
                    raise
                out.write(message.body + b"\n")
                out.flush()
                got += 1
        finally:
            keep = cmqc.MQCO_KEEP_SUB if durable else cmqc.MQCO_REMOVE_SUB
            subscription.close(keep, close_sub_queue=True)
