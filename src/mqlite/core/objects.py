"""Object definitions: queue-manager attributes, queues of every type, DEFINE/ALTER/DELETE/DISPLAY
of queues, the system objects crtmqm makes, and restoring them at start.

Queues of every type share one namespace (``qdefs``: name -> (type, attrs)); a local queue
also has its runtime state in ``queues``, and both share one attrs dict. Definitions are
persisted as store records (kind ``object``) inside the same transaction stream as
messages, so a definition and the messages put after it are recovered together.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from mqlite import cmqc as C
from mqlite.core import attributes
from mqlite.core.errors import MQError
from mqlite.core.outbox import MessageIds, Outbox
from mqlite.core.queues import LocalQueue, MessageReader
from mqlite.core.waiting import WaitingGetters

QUEUE_TYPES = ("QLOCAL", "QALIAS", "QMODEL", "QREMOTE")
DEFAULT_OBJECT = {
    "QLOCAL": "SYSTEM.DEFAULT.LOCAL.QUEUE",
    "QALIAS": "SYSTEM.DEFAULT.ALIAS.QUEUE",
    "QMODEL": "SYSTEM.DEFAULT.MODEL.QUEUE",
    "QREMOTE": "SYSTEM.DEFAULT.REMOTE.QUEUE",
}
_RUNTIME = ("QUEUE", "TYPE", "CURDEPTH", "IPPROCS", "OPPROCS")

# The system objects crtmqm creates (IBM's set, less what mqlite has no use for yet).
_INTER_QMGR = {"DEFPSIST": "YES", "DEFSOPT": "EXCL", "MAXDEPTH": 999_999_999, "BOTHRESH": 5, "SHARE": True}
SYSTEM_QUEUES: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("SYSTEM.DEFAULT.LOCAL.QUEUE", "QLOCAL", {}),
    ("SYSTEM.DEFAULT.ALIAS.QUEUE", "QALIAS", {}),
    ("SYSTEM.DEFAULT.REMOTE.QUEUE", "QREMOTE", {}),
    ("SYSTEM.DEFAULT.MODEL.QUEUE", "QMODEL", {"DEFTYPE": "TEMPDYN"}),
    ("SYSTEM.DEFAULT.INITIATION.QUEUE", "QLOCAL", {}),
    ("SYSTEM.DEAD.LETTER.QUEUE", "QLOCAL", {"DESCR": "WebSphere MQ Default Dead Letter Queue",
                                            "MAXDEPTH": 640000}),
    ("SYSTEM.ADMIN.COMMAND.QUEUE", "QLOCAL", {"DESCR": "WebSphere MQ Command Input Queue"}),
    ("SYSTEM.ADMIN.QMGR.EVENT", "QLOCAL", {}),
    ("SYSTEM.ADMIN.PERFM.EVENT", "QLOCAL", {}),
    ("SYSTEM.ADMIN.CHANNEL.EVENT", "QLOCAL", {}),
    ("SYSTEM.ADMIN.CONFIG.EVENT", "QLOCAL", {}),
    ("SYSTEM.ADMIN.COMMAND.EVENT", "QLOCAL", {}),
    ("SYSTEM.ADMIN.STATISTICS.QUEUE", "QLOCAL", {"DEFPSIST": "YES"}),  # STATQ/STATMQI/STATCHL messages
    ("SYSTEM.CHANNEL.INITQ", "QLOCAL", {}),
    ("SYSTEM.CHANNEL.SYNCQ", "QLOCAL", {"DEFPSIST": "YES"}),
    # IBM's cluster queues are as deep as a queue may be: a cluster must not stop for a full queue.
    ("SYSTEM.CLUSTER.COMMAND.QUEUE", "QLOCAL", {"DEFPSIST": "YES", "MAXDEPTH": 999_999_999}),
    ("SYSTEM.CLUSTER.REPOSITORY.QUEUE", "QLOCAL", {"DEFPSIST": "YES", "MAXDEPTH": 999_999_999}),
    ("SYSTEM.CLUSTER.TRANSMIT.QUEUE", "QLOCAL", {"USAGE": "XMITQ", "DEFPSIST": "YES", "MAXDEPTH": 999_999_999}),
    ("SYSTEM.CLUSTER.TRANSMIT.MODEL.QUEUE", "QMODEL", {"USAGE": "XMITQ", "DEFTYPE": "PERMDYN",
                                                       "MAXDEPTH": 999_999_999}),
    ("SYSTEM.DURABLE.MODEL.QUEUE", "QMODEL", {"DEFTYPE": "PERMDYN", "DEFPSIST": "YES",
                                              "DESCR": "Model queue for managed durable subscriptions"}),
    ("SYSTEM.NDURABLE.MODEL.QUEUE", "QMODEL", {"DEFTYPE": "TEMPDYN",
                                               "DESCR": "Model queue for managed non-durable subscriptions"}),
    ("SYSTEM.MQSC.REPLY.QUEUE", "QMODEL", {"DEFTYPE": "TEMPDYN"}),
    ("SYSTEM.DEFAULT.MODEL.QUEUE.PERMDYN", "QMODEL", {"DEFTYPE": "PERMDYN"}),
    # Distributed publish/subscribe's queues, with IBM's attributes (B:R-SYSQ-2, A-38).
    ("SYSTEM.INTER.QMGR.CONTROL", "QLOCAL", _INTER_QMGR),
    ("SYSTEM.INTER.QMGR.PUBS", "QLOCAL", _INTER_QMGR),
    ("SYSTEM.INTER.QMGR.FANREQ", "QLOCAL", _INTER_QMGR),
    ("SYSTEM.HIERARCHY.STATE", "QLOCAL", _INTER_QMGR),
    ("SYSTEM.BROKER.DEFAULT.STREAM", "QLOCAL", {}),
    ("SYSTEM.BROKER.ADMIN.STREAM", "QLOCAL", {}),
    ("SYSTEM.BROKER.CONTROL.QUEUE", "QLOCAL", {}),
    ("SYSTEM.RETAINED.PUB.QUEUE", "QLOCAL", {"DEFPSIST": "YES"}),
    ("SYSTEM.DURABLE.SUBSCRIBER.QUEUE", "QLOCAL", {"DEFPSIST": "YES"}),
)



class ObjectDefinitions:
    """The queue manager's attributes (``attrs``, one dict for its whole life), the queue
    definitions (``qdefs``) and the local queues (``queues``)."""

    def __init__(self, name: str, reader: MessageReader | None, clock: Callable[[], float], outbox: Outbox,
                 waiting: WaitingGetters, ids: MessageIds) -> None:
        self.name = name
        self.reader = reader
        self.clock = clock
        self.outbox = outbox
        self.waiting = waiting
        self.ids = ids
        self.attrs: dict[str, Any] = {}
        self.qdefs: dict[str, tuple[str, dict[str, Any]]] = {}
        self.queues: dict[str, LocalQueue] = {}
        # Queue depth events: a local queue's thresholds set from its attributes (core.events.performance).
        self.arm: Callable[[LocalQueue], None] = lambda queue: None

    # -- start-up ----------------------------------------------------------------------
    def bootstrap(self) -> None:
        """Create the queue manager's attributes and system queues (first start)."""
        now = self.clock()
        crdate, crtime = attributes.date_and_time(now)
        self.attrs.clear()
        self.attrs.update(attributes.defaults("QMGR"))
        # CERTLABL as IBM's crtmqm sets it (mqlite.keyrepo.default_label); SSLKEYR stays blank
        # for the default repository, whose path is the server's to know.
        self.attrs.update({"QMNAME": self.name, "DEADQ": "SYSTEM.DEAD.LETTER.QUEUE",
                           "CERTLABL": "ibmwebspheremq" + self.name.lower(),
                           "CRDATE": crdate, "CRTIME": crtime, "ALTDATE": crdate, "ALTTIME": crtime,
                           "QMID": qmid(self.name, now)})
        self.outbox.tx.put_record("qmgr", "attrs", self.attrs)
        for name, qtype, extra in SYSTEM_QUEUES:
            attrs = attributes.defaults(qtype)
            attrs.update(extra)
            self.store_definition(name, qtype, attrs, now)

    def restore_attrs(self, qmgr_attrs: dict[str, Any]) -> None:
        self.attrs.clear()
        self.attrs.update(attributes.defaults("QMGR"))
        self.attrs.update(qmgr_attrs)
        self.attrs["QMNAME"] = self.name
        if not self.attrs.get("QMID"):  # made before QMIDs: from its creation date and time
            self.attrs["QMID"] = f"{self.name}_{self.attrs.get('CRDATE', '')}_{self.attrs.get('CRTIME', '')}"

    def restore_queue(self, qtype: str, name: str, attrs: dict[str, Any]) -> None:
        """A queue definition from its store record (messages come after, via ``restore_message``)."""
        if qtype == "QLOCAL":
            queue = self.add_local_queue(name, attrs, persist=False)
            if attrs.get("DEFTYPE") == "PERMDYN":
                queue.dynamic = "PERMDYN"
        else:
            self.qdefs[name] = (qtype, attrs)

    def restore_message(self, queue_name: str, seq: int, priority: int, expiry_at: float) -> bool:
        queue = self.queues.get(queue_name)
        if queue is None:
            return False
        queue.add_evicted(seq, priority, expiry_at)
        return True

    # -- queues that come and go -------------------------------------------------------
    def add_local_queue(self, name: str, attrs: dict[str, Any], persist: bool = True) -> LocalQueue:
        queue = LocalQueue(name, attrs, self.reader)
        queue.stats_since = self.clock()
        if self.reader is not None and hasattr(self.reader, "max_seq"):
            # The high-water mark outlives the queue: one defined again numbers on from above it.
            queue.seq_mark = int(self.reader.max_seq(name))
            queue.next_seq = queue.seq_mark + 1
        self.queues[name] = queue
        self.qdefs[name] = ("QLOCAL", attrs)
        self.arm(queue)
        if persist:
            self.outbox.tx.put_record("object", f"QLOCAL/{name}", attrs)
        return queue

    def persist_queue(self, queue: LocalQueue) -> None:
        """Write a local queue's definition again (an event flipped its switches), as ALTER does;
        a temporary dynamic queue has no record."""
        if not queue.deleted and queue.dynamic != "TEMPDYN" and self.queues.get(queue.name) is queue:
            self.outbox.tx.put_record("object", f"QLOCAL/{queue.name}", queue.attrs)

    def store_definition(self, name: str, qtype: str, attrs: dict[str, Any], now: float) -> None:
        crdate, crtime = attributes.date_and_time(now)
        attrs.setdefault("CRDATE", crdate)
        attrs.setdefault("CRTIME", crtime)
        attrs["ALTDATE"], attrs["ALTTIME"] = crdate, crtime
        if qtype == "QLOCAL":
            existing = self.queues.get(name)
            if existing is not None:
                existing.attrs.clear()
                existing.attrs.update(attrs)
                existing.refresh()
                self.arm(existing)
                self.outbox.tx.put_record("object", f"QLOCAL/{name}", existing.attrs)
                return
            self.add_local_queue(name, attrs)
            return
        self.qdefs[name] = (qtype, attrs)
        self.outbox.tx.put_record("object", f"{qtype}/{name}", attrs)

    def create_dynamic(self, model: dict[str, Any], pattern: str) -> str:
        """A dynamic queue from a model queue's attributes; its name (``*`` ends in a unique suffix)."""
        pattern = pattern.strip()
        if pattern.endswith("*"):
            prefix = pattern[:-1]
            name = f"{prefix}{self.ids.next_id().hex().upper()[-16:]}"[:48]
        else:
            name = pattern
        if not name or len(name) > 48:
            raise MQError(C.MQRC_DYNAMIC_Q_NAME_ERROR, f"dynamic queue name {pattern!r}")
        if name in self.qdefs:
            raise MQError(C.MQRC_OBJECT_ALREADY_EXISTS, f"queue {name} exists")
        attrs = {k: v for k, v in model.items() if k not in ("QUEUE", "TYPE")}
        deftype = str(model.get("DEFTYPE", "TEMPDYN"))
        attrs["DEFTYPE"] = deftype
        queue = self.add_local_queue(name, attrs, persist=deftype == "PERMDYN")
        queue.dynamic = deftype
        return name

    def remove_queue(self, name: str) -> None:
        qtype, _ = self.qdefs.pop(name)
        queue = self.queues.pop(name, None)
        tx = self.outbox.tx
        if queue is not None:
            queue.deleted = True
            tx.purge_queue(name)
            self.waiting.fail(queue, C.MQRC_Q_DELETED, f"queue {name} was deleted")
        if queue is None or queue.dynamic != "TEMPDYN":
            tx.delete_record("object", f"{qtype}/{name}")

    # -- DEFINE / ALTER / DELETE / DISPLAY of queues and the queue manager ---------------
    def define_queue(self, objtype: str, name: str, attrs: dict[str, Any], like: str | None = None,
                     replace: bool = False) -> None:
        if objtype not in QUEUE_TYPES:
            raise MQError(C.MQRC_FUNCTION_NOT_SUPPORTED, f"DEFINE {objtype} is not supported yet")
        try:
            attributes.check_name(objtype, name)
        except MQError as error:
            raise MQError(C.MQRC_OBJECT_NAME_ERROR, error.text) from None
        existing = self.qdefs.get(name)
        if existing is not None:
            if not replace:
                raise MQError(C.MQRC_OBJECT_ALREADY_EXISTS, f"object {name} already exists")
            if existing[0] != objtype:
                raise MQError(C.MQRC_OBJECT_TYPE_ERROR, f"{name} exists as a {existing[0]}")
        if like is not None:
            model = self.qdefs.get(like)
            if model is None or model[0] != objtype:
                raise MQError(C.MQRC_UNKNOWN_OBJECT_NAME, f"LIKE object {like} not found")
            base = dict(model[1])
        else:
            default = self.qdefs.get(DEFAULT_OBJECT[objtype])
            base = dict(default[1]) if default is not None else attributes.defaults(objtype)
        for key in ("CRDATE", "CRTIME", "ALTDATE", "ALTTIME"):
            base.pop(key, None)
        base.update(attributes.validate(objtype, attrs))
        if objtype == "QLOCAL" and existing is None:
            base.setdefault("DEFTYPE", "PREDEFINED")
        self.store_definition(name, objtype, base, self.clock())

    def alter_qmgr(self, attrs: dict[str, Any]) -> None:
        changed = attributes.validate("QMGR", attrs)
        self.attrs.update(changed)
        self.attrs["ALTDATE"], self.attrs["ALTTIME"] = attributes.date_and_time(self.clock())
        self.outbox.tx.put_record("qmgr", "attrs", self.attrs)
        if "PERFMEV" in changed:
            for queue in self.queues.values():
                self.arm(queue)

    def alter_queue(self, objtype: str, name: str, attrs: dict[str, Any]) -> None:
        definition = self.qdefs.get(name)
        if definition is None:
            raise MQError(C.MQRC_UNKNOWN_OBJECT_NAME, f"object {name} not found")
        qtype, current = definition
        if objtype not in (qtype, "QUEUE"):
            raise MQError(C.MQRC_OBJECT_TYPE_ERROR, f"{name} is a {qtype}, not a {objtype}")
        current.update(attributes.validate(qtype, attrs))
        current["ALTDATE"], current["ALTTIME"] = attributes.date_and_time(self.clock())
        self.outbox.tx.put_record("object", f"{qtype}/{name}", current)
        queue = self.queues.get(name)
        if queue is not None:
            queue.refresh()
            self.arm(queue)
        if current.get("GET") == "DISABLED":
            if queue is not None:
                self.waiting.fail(queue, C.MQRC_GET_INHIBITED, f"gets from {name} are inhibited")
            elif qtype == "QALIAS":
                target = self.queues.get(str(current.get("TARGET", "")))
                if target is not None:
                    self.waiting.fail(target, C.MQRC_GET_INHIBITED, f"gets through {name} are inhibited", current)

    def delete_queue(self, objtype: str, name: str, purge: bool = False) -> None:
        definition = self.qdefs.get(name)
        if definition is None:
            raise MQError(C.MQRC_UNKNOWN_OBJECT_NAME, f"object {name} not found")
        if objtype not in (definition[0], "QUEUE"):
            raise MQError(C.MQRC_OBJECT_TYPE_ERROR, f"{name} is a {definition[0]}, not a {objtype}")
        queue = self.queues.get(name)
        if queue is not None:
            if queue.open_input or queue.open_output:
                raise MQError(C.MQRC_OBJECT_IN_USE, f"queue {name} is open")
            if queue.uncommitted or queue.locked or (queue.depth and not purge):
                raise MQError(C.MQRC_Q_NOT_EMPTY, f"queue {name} is not empty")
        self.remove_queue(name)

    def _local_queue(self, name: str) -> LocalQueue:
        """The local queue ``name`` (2085 when nothing has that name, 2043 when it is another type)."""
        definition = self.qdefs.get(name)
        if definition is None:
            raise MQError(C.MQRC_UNKNOWN_OBJECT_NAME, f"object {name} not found")
        queue = self.queues.get(name)
        if queue is None:
            raise MQError(C.MQRC_OBJECT_TYPE_ERROR, f"{name} is a {definition[0]}, not a local queue")
        return queue

    def clear_queue(self, name: str) -> None:
        queue = self._local_queue(name)
        if queue.open_input or queue.open_output or queue.uncommitted or queue.locked:
            raise MQError(C.MQRC_OBJECT_IN_USE, f"queue {name} is open or has uncommitted messages")
        queue.clear()
        self.outbox.tx.purge_queue(name)

    def reset_queue_stats(self, name: str) -> dict[str, Any]:
        """RESET QSTATS: a local queue's counts since they were last reset (or since the queue
        manager started), ENQCOUNT DEQCOUNT HIQDEPTH RESETINT (seconds), and counting anew."""
        queue = self._local_queue(name)
        enqueued, dequeued, high, seconds = queue.reset_stats(self.clock())
        return {"QUEUE": name, "ENQCOUNT": enqueued, "DEQCOUNT": dequeued, "HIQDEPTH": high, "RESETINT": seconds}

    def queue_rows(self, objtype: str, generic: str) -> list[dict[str, Any]]:
        """DISPLAY Q*: each matching definition with its runtime counts."""
        if objtype not in (*QUEUE_TYPES, "QUEUE"):
            raise MQError(C.MQRC_FUNCTION_NOT_SUPPORTED, f"DISPLAY {objtype} is not supported yet")
        rows = []
        for name in sorted(self.qdefs):
            qtype, attrs = self.qdefs[name]
            if objtype not in (qtype, "QUEUE") or not attributes.generic_match(generic, name):
                continue
            row: dict[str, Any] = {"QUEUE": name, "TYPE": qtype, **attrs}
            queue = self.queues.get(name)
            if queue is not None:
                row.update(CURDEPTH=queue.depth, IPPROCS=queue.open_input, OPPROCS=queue.open_output)
            rows.append(row)
        if not rows and "*" not in generic:
            raise MQError(C.MQRC_UNKNOWN_OBJECT_NAME, f"object {generic} not found")
        return rows


def qmid(name: str, created: float) -> str:
    """IBM's QMID: the queue manager's name and the moment it was created (told apart from a
    queue manager made again with the same name, as a cluster must)."""
    moment = time.strftime("%Y-%m-%d_%H.%M.%S", time.gmtime(created))  # (a name may hold a %)
    return f"{name}_{moment}.{int(created * 1000) % 1000:03d}"
