"""amqsrua: IBM's resource usage sample. It reads the queue manager's monitoring metadata
($SYS/MQ/INFO/QMGR/<qm>/Monitor/METADATA/...), subscribes to the chosen class/type topics (with
an object name for a per-object class such as STATQ) and prints each publication as IBM's
sample does. Without -c (or -t) it lists what the metadata offers and asks, as IBM's does.
Client mode through MQSERVER, as IBM's sample; -u USER authenticates.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from mqlite.cli.connection import connect, resolve_target
from mqlite.protocol import monitor_read as R
from mqlite.protocol import pcf

METADATA_WAIT = 10.0  # seconds, IBM's: the metadata need not be there the moment one subscribes
DATA_WAIT = 30.0  # IBM's wait for the next publication


def _retained(qm: Any, topic: str) -> pcf.PcfMessage:
    """The retained publication on ``topic``, got through a managed subscription of its own."""
    from mqlite.client import MQMIError
    from mqlite.client import public as mqlite

    sub = mqlite.Subscription(qm, topic)
    try:
        message = sub.get(wait=METADATA_WAIT)
    except MQMIError as error:
        raise click.ClickException(f"MQGET ended with reason code {error.reason}") from error
    finally:
        sub.close(close_sub_queue=True)
    return pcf.decode(bytes(message))


def discover(qm: Any, qmgr: str) -> list[R.ClassInfo]:
    """The classes, their types and elements, as the metadata says."""
    from mqlite.protocol.monitor import classes_topic

    classes = R.read_classes(_retained(qm, classes_topic(qmgr)))
    for cls in classes:
        for typ in R.read_types(_retained(qm, cls.topic)):
            R.read_elements(_retained(qm, typ.topic), typ)
            cls.types[typ.id] = typ
    return classes


def _choose(prompt_items: list[tuple[str, str]], what: str) -> str | None:
    for name, description in prompt_items:
        click.echo(f"{name} : {description}")
    click.echo(f"Enter {what} selection")
    click.echo("==> ", nl=False)
    line = sys.stdin.readline().strip()
    if not line:
        click.echo("")
        return None
    if line not in {name for name, _ in prompt_items}:
        click.echo(f"Invalid {what} ({line}) supplied")
        return None
    return line


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def format_publication(classes: list[R.ClassInfo], message: Any) -> str:
    """One publication in amqsrua's layout: the put date and time, the interval, each element."""
    md = message.md
    data = R.read_data(pcf.decode(bytes(message)))
    date, time = _text(md.PutDate), _text(md.PutTime)
    lines = [f"Publication received PutDate:{date:8.8} PutTime:{time:8.8} "
             f"Interval:{R.format_interval(data.interval_us)}"]
    cls = next((c for c in classes if c.id == data.class_id), None)
    typ = cls.types.get(data.type_id) if cls is not None else None
    if typ is None:
        return "Unrecognised resource usage message"
    for element_id, value in data.values.items():
        element = typ.elements.get(element_id)
        text = (R.format_value(element, value, data.interval_us) if element is not None
                else f"Parameter({element_id}) Value({value}) not recognised")
        lines.append(f"{data.obj:<48} {text}" if data.obj else text)
    return "\n".join(lines) + "\n"


@click.command()
@click.option("-m", "qmgr", default=None, metavar="QMGR", help="Queue manager (default: the default one).")
@click.option("-c", "class_names", multiple=True, metavar="CLASS", help="Class (CPU, DISK, STATMQI, STATQ, ...).")
@click.option("-t", "type_names", multiple=True, metavar="TYPE", help="Type in the class (SystemSummary, PUT, ...).")
@click.option("-o", "object_name", default=None, metavar="OBJECT", help="The object of a per-object class (a queue).")
@click.option("-n", "count", type=int, default=-1, help="Publications to print before ending (default: no limit).")
@click.option("-u", "user", default=None, metavar="USER", help="Authenticate as USER (password from MQLITE_PASSWORD).")
def amqsrua(qmgr: str | None, class_names: tuple[str, ...], type_names: tuple[str, ...], object_name: str | None,
            count: int, user: str | None) -> None:
    """Print the queue manager's resource usage publications, like IBM's amqsrua sample."""
    from mqlite import cmqc
    from mqlite.client import MQMIError
    from mqlite.client import public as mqlite

    target = resolve_target(qmgr, None, user, None)
    with connect(target) as qm:
        name = qm.inquire(cmqc.MQCA_Q_MGR_NAME) if target.qmgr is None else target.qmgr
        name = (name.decode() if isinstance(name, bytes) else str(name)).strip()
        classes = discover(qm, name)
        chosen_class = class_names[0] if class_names else _choose([(c.name, c.description) for c in classes],
                                                                   "Class")
        cls = next((c for c in classes if c.name == chosen_class), None)
        if cls is None:
            if chosen_class is not None and class_names:
                click.echo(f"Class {chosen_class} not recognised")
            return
        types = list(cls.types.values())
        chosen_types = list(type_names) or [t for t in [_choose([(t.name, t.description) for t in types], "Type")]
                                            if t is not None]
        if not chosen_types:
            return
        queue = mqlite.Queue(qm, "SYSTEM.DEFAULT.MODEL.QUEUE",
                             cmqc.MQOO_INPUT_EXCLUSIVE | cmqc.MQOO_FAIL_IF_QUIESCING)
        subs = []
        for type_name in chosen_types:
            typ = next((t for t in types if t.name == type_name), None)
            if typ is None:
                click.echo(f"Class: {cls.name} Type: {type_name} not recognised")
                return
            topic = typ.data_topic
            if cls.per_object:
                if not object_name:
                    click.echo(f"An object name is required for Class({cls.name}) Type({typ.name})")
                    click.echo("Enter object name")
                    click.echo("==> ", nl=False)
                    object_name = sys.stdin.readline().strip()
                    click.echo("")
                    if not object_name:
                        return
                topic = topic.replace("%s", object_name.replace("/", "&"))
            try:
                subs.append(mqlite.Subscription(qm, topic, queue=queue))
            except MQMIError as error:
                click.echo(f"Subscribe to {topic} failed for {error.comp}:{error.reason}")
                sys.exit(1)
        got = 0
        while count < 0 or got < count:
            try:
                message = queue.get(wait=DATA_WAIT)
            except MQMIError as error:
                click.echo("no more messages" if error.reason == cmqc.MQRC_NO_MSG_AVAILABLE
                           else f"MQGET ended with reason code {error.reason}")
                break
            got += 1
            click.echo(format_publication(classes, message))
        for sub in subs:
            sub.close()
        queue.close()
