"""Object definitions: DEFINE, ALTER, DELETE, DISPLAY and the system objects crtmqm makes.

Queues of every type share one namespace (``qdefs``: name -> (type, attrs)); a local queue
also has its runtime state in ``queues``, and both share one attrs dict. Definitions are
persisted as store records (kind ``object``) inside the same transaction stream as
messages, so a definition and the messages put after it are recovered together.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mqlite import cmqc as C
from mqlite.core import attributes
from mqlite.core.errors import MQError
from mqlite.core.queues import LocalQueue, MessageReader
from mqlite.store.tx import StoreTx

if TYPE_CHECKING:
    from collections.abc import Callable

    from mqlite.core.topics.tree import TopicTree

QUEUE_TYPES = ("QLOCAL", "QALIAS", "QMODEL", "QREMOTE")
DEFAULT_OBJECT = {
    "QLOCAL": "SYSTEM.DEFAULT.LOCAL.QUEUE",
    "QALIAS": "SYSTEM.DEFAULT.ALIAS.QUEUE",
    "QMODEL": "SYSTEM.DEFAULT.MODEL.QUEUE",
    "QREMOTE": "SYSTEM.DEFAULT.REMOTE.QUEUE",
}
_RUNTIME = ("QUEUE", "TYPE", "CURDEPTH", "IPPROCS", "OPPROCS")

# The system objects crtmqm creates (IBM's set, less what mqlite has no use for yet).
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
    ("SYSTEM.CHANNEL.INITQ", "QLOCAL", {}),
    ("SYSTEM.CHANNEL.SYNCQ", "QLOCAL", {"DEFPSIST": "YES"}),
    ("SYSTEM.CLUSTER.COMMAND.QUEUE", "QLOCAL", {"DEFPSIST": "YES"}),
    ("SYSTEM.CLUSTER.REPOSITORY.QUEUE", "QLOCAL", {"DEFPSIST": "YES"}),
    ("SYSTEM.CLUSTER.TRANSMIT.QUEUE", "QLOCAL", {"USAGE": "XMITQ", "DEFPSIST": "YES"}),
    ("SYSTEM.CLUSTER.TRANSMIT.MODEL.QUEUE", "QMODEL", {"USAGE": "XMITQ", "DEFTYPE": "PERMDYN"}),
    ("SYSTEM.DURABLE.MODEL.QUEUE", "QMODEL", {"DEFTYPE": "PERMDYN", "DEFPSIST": "YES",
                                              "DESCR": "Model queue for managed durable subscriptions"}),
    ("SYSTEM.NDURABLE.MODEL.QUEUE", "QMODEL", {"DEFTYPE": "TEMPDYN",
                                               "DESCR": "Model queue for managed non-durable subscriptions"}),
    ("SYSTEM.MQSC.REPLY.QUEUE", "QMODEL", {"DEFTYPE": "TEMPDYN"}),
    ("SYSTEM.DEFAULT.MODEL.QUEUE.PERMDYN", "QMODEL", {"DEFTYPE": "PERMDYN"}),
    ("SYSTEM.INTER.QMGR.CONTROL", "QLOCAL", {"DEFPSIST": "YES"}),
    ("SYSTEM.INTER.QMGR.PUBS", "QLOCAL", {}),
    ("SYSTEM.INTER.QMGR.FANREQ", "QLOCAL", {"DEFPSIST": "YES"}),
    ("SYSTEM.HIERARCHY.STATE", "QLOCAL", {"DEFPSIST": "YES"}),
    ("SYSTEM.BROKER.DEFAULT.STREAM", "QLOCAL", {}),
    ("SYSTEM.BROKER.ADMIN.STREAM", "QLOCAL", {}),
    ("SYSTEM.BROKER.CONTROL.QUEUE", "QLOCAL", {}),
    ("SYSTEM.RETAINED.PUB.QUEUE", "QLOCAL", {"DEFPSIST": "YES"}),
    ("SYSTEM.DURABLE.SUBSCRIBER.QUEUE", "QLOCAL", {"DEFPSIST": "YES"}),
)


class AdminMixin:
    """The admin half of ``QueueManager`` (see ``mqlite.core.commands`` for the MQSC side)."""

    name: str
    reader: MessageReader | None
    clock: Callable[[], float]
    _tx: StoreTx

    def __init__(self) -> None:
        self.attrs: dict[str, Any] = {}
        self.qdefs: dict[str, tuple[str, dict[str, Any]]] = {}
        self.queues: dict[str, LocalQueue] = {}

    # -- start-up ----------------------------------------------------------------------
    def bootstrap(self) -> None:
        """Create the queue manager's attributes and system objects (first start)."""
        now = self.clock()
        crdate, crtime = attributes.date_and_time(now)
        self.attrs = attributes.defaults("QMGR")
        self.attrs.update({"QMNAME": self.name, "DEADQ": "SYSTEM.DEAD.LETTER.QUEUE",
                           "CRDATE": crdate, "CRTIME": crtime, "ALTDATE": crdate, "ALTTIME": crtime})
        self._tx.put_record("qmgr", "attrs", self.attrs)
        for name, qtype, extra in SYSTEM_QUEUES:
            attrs = attributes.defaults(qtype)
            attrs.update(extra)
            self._store_definition(name, qtype, attrs, now)
        self.define_topic("SYSTEM.BASE.TOPIC", dict(attributes.SYSTEM_BASE_TOPIC))

    def restore(self, records: dict[str, Any], qmgr_attrs: dict[str, Any]) -> None:
        """Rebuild definitions from store records (messages come after, via ``restore_message``)."""
        self.attrs = attributes.defaults("QMGR")
        self.attrs.update(qmgr_attrs)
        self.attrs["QMNAME"] = self.name
        for key, value in records.items():
            qtype, name = key.split("/", 1)
            attrs = dict(value)
            if qtype == "TOPIC":
                self.tree.associate(name, attrs, self.clock())
                continue
            if qtype == "CHANNEL":
                self.restore_channel(name, attrs)
                continue
            if qtype == "QLOCAL":
                queue = self._add_local_queue(name, attrs, persist=False)
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

    # -- helpers -----------------------------------------------------------------------
    def _add_local_queue(self, name: str, attrs: dict[str, Any], persist: bool = True) -> LocalQueue:
        queue = LocalQueue(name, attrs, self.reader)
        if self.reader is not None and hasattr(self.reader, "max_seq"):
            queue.next_seq = int(self.reader.max_seq(name)) + 1
        self.queues[name] = queue
        self.qdefs[name] = ("QLOCAL", attrs)
        if persist:
            self._tx.put_record("object", f"QLOCAL/{name}", attrs)
        return queue

    def _store_definition(self, name: str, qtype: str, attrs: dict[str, Any], now: float) -> None:
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
                self._tx.put_record("object", f"QLOCAL/{name}", existing.attrs)
                return
            self._add_local_queue(name, attrs)
            return
        self.qdefs[name] = (qtype, attrs)
        self._tx.put_record("object", f"{qtype}/{name}", attrs)

    def _remove_queue(self, name: str) -> None:
        qtype, _ = self.qdefs.pop(name)
        queue = self.queues.pop(name, None)
        if queue is not None:
            queue.deleted = True
            self._tx.purge_queue(name)
            self.fail_waiters(queue, C.MQRC_Q_DELETED, f"queue {name} was deleted")
        if queue is None or queue.dynamic != "TEMPDYN":
            self._tx.delete_record("object", f"{qtype}/{name}")

    if TYPE_CHECKING:  # provided by the other parts of QueueManager
        tree: TopicTree
        managed_queues: dict[str, Any]

        def fail_waiters(
            self, queue: LocalQueue, reason: int, text: str, through: dict[str, Any] | None = None
        ) -> None: ...
        def define_topic(self, name: str, attrs: dict[str, Any], like: str | None = None,
                         replace: bool = False) -> None: ...
        def alter_topic(self, name: str, attrs: dict[str, Any]) -> None: ...
        def delete_topic(self, name: str) -> None: ...
        def topic_rows(self, generic: str) -> list[dict[str, Any]]: ...
        def define_sub(self, name: str, attrs: dict[str, Any], like: str | None = None,
                       replace: bool = False) -> None: ...
        def alter_sub(self, name: str, attrs: dict[str, Any]) -> None: ...
        def delete_sub(self, name: str) -> None: ...
        def sub_rows(self, generic: str) -> list[dict[str, Any]]: ...
        def restore_channel(self, name: str, attrs: dict[str, Any]) -> None: ...
        def define_channel(self, name: str, attrs: dict[str, Any], like: str | None = None,
                           replace: bool = False) -> None: ...
        def alter_channel(self, name: str, attrs: dict[str, Any]) -> None: ...
        def delete_channel(self, name: str) -> None: ...
        def channel_rows(self, generic: str) -> list[dict[str, Any]]: ...

    # -- the admin API used by MQSC ----------------------------------------------------
    def define(
        self, objtype: str, name: str, attrs: dict[str, Any], like: str | None = None, replace: bool = False
    ) -> None:
        objtype = objtype.upper()
        if objtype == "TOPIC":
            return self.define_topic(name, attrs, like, replace)
        if objtype == "SUB":
            return self.define_sub(name, attrs, like, replace)
        if objtype == "CHANNEL":
            return self.define_channel(name, attrs, like, replace)
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
        self._store_definition(name, objtype, base, self.clock())

    def alter(self, objtype: str, name: str, attrs: dict[str, Any]) -> None:
        objtype = objtype.upper()
        now = self.clock()
        altdate, alttime = attributes.date_and_time(now)
        if objtype == "QMGR":
            self.attrs.update(attributes.validate("QMGR", attrs))
            self.attrs["ALTDATE"], self.attrs["ALTTIME"] = altdate, alttime
            self._tx.put_record("qmgr", "attrs", self.attrs)
            return
        if objtype == "TOPIC":
            return self.alter_topic(name, attrs)
        if objtype == "SUB":
            return self.alter_sub(name, attrs)
        if objtype == "CHANNEL":
            return self.alter_channel(name, attrs)
        definition = self.qdefs.get(name)
        if definition is None:
            raise MQError(C.MQRC_UNKNOWN_OBJECT_NAME, f"object {name} not found")
        qtype, current = definition
        if objtype not in (qtype, "QUEUE"):
            raise MQError(C.MQRC_OBJECT_TYPE_ERROR, f"{name} is a {qtype}, not a {objtype}")
        current.update(attributes.validate(qtype, attrs))
        current["ALTDATE"], current["ALTTIME"] = altdate, alttime
        self._tx.put_record("object", f"{qtype}/{name}", current)
        queue = self.queues.get(name)
        if queue is not None:
            queue.refresh()
        if current.get("GET") == "DISABLED":
            if queue is not None:
                self.fail_waiters(queue, C.MQRC_GET_INHIBITED, f"gets from {name} are inhibited")
            elif qtype == "QALIAS":
                target = self.queues.get(str(current.get("TARGET", "")))
                if target is not None:
                    self.fail_waiters(target, C.MQRC_GET_INHIBITED, f"gets through {name} are inhibited", current)

    def delete(self, objtype: str, name: str, purge: bool = False) -> None:
        objtype = objtype.upper()
        if objtype == "TOPIC":
            return self.delete_topic(name)
        if objtype == "SUB":
            return self.delete_sub(name)
        if objtype == "CHANNEL":
            return self.delete_channel(name)
        if name in self.managed_queues:  # spec A R-MGD-6: the queue manager owns it
            raise MQError(C.MQRC_OBJECT_IN_USE, f"queue {name} is the managed queue of a subscription")
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
        self._remove_queue(name)

    def clear_queue(self, name: str) -> None:
        definition = self.qdefs.get(name)
        if definition is None:
            raise MQError(C.MQRC_UNKNOWN_OBJECT_NAME, f"object {name} not found")
        queue = self.queues.get(name)
        if queue is None:
            raise MQError(C.MQRC_OBJECT_TYPE_ERROR, f"{name} is a {definition[0]}, not a local queue")
        if queue.open_input or queue.open_output or queue.uncommitted or queue.locked:
            raise MQError(C.MQRC_OBJECT_IN_USE, f"queue {name} is open or has uncommitted messages")
        queue.clear()
        self._tx.purge_queue(name)

    def objects(self, objtype: str, generic: str) -> list[dict[str, Any]]:
        objtype = objtype.upper()
        if objtype == "QMGR":
            return [{"QMNAME": self.name, **self.attrs}]
        if objtype == "TOPIC":
            return self.topic_rows(generic)
        if objtype == "SUB":
            return self.sub_rows(generic)
        if objtype == "CHANNEL":
            return self.channel_rows(generic)
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

    def queue_status(self, generic: str, status_type: str) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = []
        matched = [q for name, q in sorted(self.queues.items()) if attributes.generic_match(generic, name)]
        if not matched and "*" not in generic:
            raise MQError(C.MQRC_UNKNOWN_OBJECT_NAME, f"queue {generic} not found")
        for queue in matched:
            if status_type.upper() == "HANDLE":
                rows.extend(self._handle_rows(queue))
                continue
            rows.append({
                "QUEUE": queue.name, "TYPE": "QUEUE", "CURDEPTH": queue.depth,
                "IPPROCS": queue.open_input, "OPPROCS": queue.open_output,
                "UNCOM": queue.uncommitted if queue.uncommitted else "NO",
            })
        return rows

    def _handle_rows(self, queue: LocalQueue) -> list[dict[str, Any]]:
        rows = []
        for conn in getattr(self, "connections", {}).values():
            for handle in conn.handles.values():
                if handle.queue is not queue:
                    continue
                opts = handle.options
                inputs = opts & (C.MQOO_INPUT_AS_Q_DEF | C.MQOO_INPUT_SHARED | C.MQOO_INPUT_EXCLUSIVE)
                rows.append({
                    "QUEUE": queue.name, "TYPE": "HANDLE", "APPLTAG": conn.appl_name,
                    "APPLTYPE": "USER", "CONNID": conn.conn_id, "PID": conn.pid, "USERID": conn.user,
                    "INPUT": ("EXCL" if handle.exclusive else "SHARED") if inputs else "NO",
                    "OUTPUT": "YES" if opts & C.MQOO_OUTPUT else "NO",
                    "BROWSE": "YES" if opts & C.MQOO_BROWSE else "NO",
                    "INQUIRE": "YES" if opts & C.MQOO_INQUIRE else "NO",
                    "SET": "YES" if opts & C.MQOO_SET else "NO",
                    "OPENOPTS": opts,
                    # IBM's HSTATE: ACTIVE while an MQGET with MQGMO_WAIT is in progress on the handle
                    "HSTATE": "ACTIVE" if any(w.conn is conn and w.hobj == handle.hobj for w in queue.waiters)
                    else "INACTIVE",
                })
        return rows
