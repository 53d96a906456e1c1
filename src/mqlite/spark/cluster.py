"""Where a cluster queue's instances are: ``discover`` asks one member of the cluster.

A cluster queue (``DEFINE QLOCAL(Q1) CLUSTER(DEMO)`` on several queue managers) has one instance
per hosting queue manager. The member the data source connects to lists them with MQSC, as an
administrator would: ``DISPLAY QCLUSTER(Q1) CLUSQMGR CLUSQT`` (a row per instance, with the
queue manager hosting it) and ``DISPLAY CLUSQMGR(*) CONNAME`` (the address each member's
clients and channels use). The client has no structured admin call for these, so the runmqsc
lines are parsed (``mqsc.records.display_records``).

A partial repository knows the instances of a queue only once it has asked a full repository
for them, which an MQOPEN of the name does; ``discover`` opens the queue for inquiry first, so
any member that does not host the queue itself will do. A partial repository that hosts an
instance opens its own and may know no other: connect to a full repository, or to a member
without an instance.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from mqlite.mqsc.records import display_records
from mqlite.spark.options import ADMIN_CHANNEL, Options

__all__ = ["Instance", "discover", "display_records", "instances_from"]


@dataclass(frozen=True)
class Instance:
    """One instance of a cluster queue: the queue manager hosting it and its CONNAME."""

    qmgr: str
    conname: str


def instances_from(queue_rows: Sequence[dict[str, str]], member_rows: Sequence[dict[str, str]],
                   cluster: str = "") -> list[Instance]:
    """The instances of DISPLAY QCLUSTER rows (local queues only: CLUSQT(QLOCAL)), in ``cluster``
    unless it is empty, each with the CONNAME its queue manager has in that cluster (in any
    other when that one has none), sorted by queue manager; one per queue manager."""
    connames: dict[tuple[str, str], str] = {}
    for row in member_rows:
        name, conname = row.get("CLUSQMGR", ""), row.get("CONNAME", "")
        if name and conname and not name.startswith("SYSTEM.TEMPQMGR."):
            connames[(name, row.get("CLUSTER", ""))] = conname
    found: dict[str, Instance] = {}
    for row in queue_rows:
        name, in_cluster = row.get("CLUSQMGR", ""), row.get("CLUSTER", "")
        if not name or name in found or row.get("CLUSQT", "QLOCAL") != "QLOCAL":
            continue
        if cluster and in_cluster != cluster:
            continue
        conname = connames.get((name, in_cluster)) or next(
            (c for (member, _), c in sorted(connames.items()) if member == name), "")
        if not conname:
            raise ValueError(f"mqlite: queue manager {name} hosts an instance of {row.get('QUEUE')} but its "
                             "CONNAME is not known here yet")
        found[name] = Instance(name, conname)
    return [found[name] for name in sorted(found)]


def discover(options: Options) -> list[Instance]:
    """The instances of cluster queue ``options.queue`` as the member ``options`` names knows
    them (in the cluster ``options.cluster`` names, if it names one). Raises ValueError when
    there is none, with what the member said."""
    from mqlite import cmqc
    from mqlite.client import public as mqlite

    queue = options.queue
    assert queue is not None
    qm = options.connect_admin()
    try:
        member = str(qm.name)
        try:  # at a partial repository: ask the full repositories (MQOPEN waits for their answer)
            mqlite.Queue(qm, queue, cmqc.MQOO_INQUIRE | cmqc.MQOO_FAIL_IF_QUIESCING).close()
        except mqlite.MQMIError as error:
            if error.reason != cmqc.MQRC_UNKNOWN_OBJECT_NAME:
                raise
        queue_rows = _display(qm, f"DISPLAY QCLUSTER({_quoted(queue)}) CLUSQMGR CLUSQT")
        member_rows = _display(qm, "DISPLAY CLUSQMGR(*) CONNAME")
    except mqlite.MQMIError as error:
        if error.reason != cmqc.MQRC_NOT_AUTHORIZED:
            raise
        raise ValueError(f"mqlite: finding the instances of cluster queue {queue} runs DISPLAY QCLUSTER and "
                         "DISPLAY CLUSQMGR, which over TCP only an administrator may: give options 'adminUser' "
                         f"and 'adminPassword' (channel {ADMIN_CHANNEL} unless 'adminChannel' names another); "
                         f"{error}") from error
    finally:
        qm.disconnect()
    found = instances_from(queue_rows, member_rows, options.cluster or "")
    if not found:
        where = f" in cluster {options.cluster}" if options.cluster else ""
        raise ValueError(f"mqlite: queue manager {member} knows no instance of cluster queue {queue}{where}")
    return found


def _display(qm: Any, command: str) -> list[dict[str, str]]:
    """The objects one DISPLAY command shows; an error other than "not found" raised with its lines."""
    code, lines = qm.mqsc(command + "\n")
    if code != 0 and not any(line.startswith("AMQ8147E") for line in lines):  # 8147: no such object
        shown = " ".join(line.strip() for line in lines if line.startswith("AMQ"))
        raise ValueError(f"mqlite: {command} failed (runmqsc exit code {code}): {shown}")
    return display_records(lines)


def _quoted(name: str) -> str:
    """An MQSC string: quoted, so a name keeps its case."""
    return "'" + name.replace("'", "''") + "'"
