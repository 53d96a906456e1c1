"""Administration: DEFINE, ALTER, DELETE and DISPLAY of every object type, queue status, and the
definitions at start (first start, and restore from the store). Each object type's rules live
with the service that owns it; this module only routes to it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mqlite import cmqc as C
from mqlite.core import attributes
from mqlite.core.authinfo import AuthInfos
from mqlite.core.channels import Channels
from mqlite.core.connection_status import connection_rows
from mqlite.core.errors import MQError
from mqlite.core.handles import Connection
from mqlite.core.listeners import Listeners
from mqlite.core.namelists import Namelists
from mqlite.core.network.routes.defs import RouteDefinitions
from mqlite.core.objects import ObjectDefinitions
from mqlite.core.pubsub.admin import PubSubAdmin
from mqlite.core.pubsub.registry import Subscriptions
from mqlite.core.queues import LocalQueue


class Admin:
    """The admin API MQSC drives (``mqsc.commands.AdminAPI``)."""

    def __init__(self, objects: ObjectDefinitions, pubsub: PubSubAdmin, subscriptions: Subscriptions,
                 channels: Channels, authinfos: AuthInfos, connections: dict[str, Connection],
                 listeners: Listeners, namelists: Namelists | None = None,
                 routes: RouteDefinitions | None = None) -> None:
        self.objects = objects
        self.listeners = listeners
        # The facade's (core.qmgr) once it passes one; until then one over the same clock and outbox.
        self.namelists = namelists if namelists is not None else Namelists(objects.clock, objects.outbox)
        self.authinfos = authinfos
        self.routes = routes if routes is not None else RouteDefinitions(objects.name, objects.clock, objects.outbox)
        self.pubsub = pubsub
        self.subscriptions = subscriptions
        self.channels = channels
        self.connections = connections
        # STOP CONN: the server ends a connection it serves (False when it cannot).
        self.connection_stopper: Callable[[str], bool] = lambda conn_id: False
        # After every DEFINE/ALTER/DELETE (the cluster service republishes what changed).
        self.on_change: Callable[[str, str], None] = lambda objtype, name: None
        # Configuration events (core.events.config.ConfigEvents, set by the facade).
        self.config_events: Any = None

    # -- start-up ----------------------------------------------------------------------
    def bootstrap(self) -> None:
        """Create the queue manager's attributes and system objects (first start)."""
        self.objects.bootstrap()
        self.pubsub.define_topic("SYSTEM.BASE.TOPIC", dict(attributes.SYSTEM_BASE_TOPIC))
        # The admin stream's topic object (spec D §1.3); the default stream and the default
        # subscription point are the root, SYSTEM.BASE.TOPIC's place, and need none here.
        self.pubsub.define_topic("SYSTEM.BROKER.ADMIN.STREAM", {"TOPICSTR": "SYSTEM.BROKER.ADMIN.STREAM"})
        self.channels.bootstrap()
        self.authinfos.bootstrap()
        self.namelists.bootstrap()

    def restore(self, records: dict[str, Any], qmgr_attrs: dict[str, Any]) -> None:
        """Rebuild definitions from store records (messages come after, via ``restore_message``)."""
        self.objects.restore_attrs(qmgr_attrs)
        clock = self.objects.clock
        for key, value in records.items():
            qtype, name = key.split("/", 1)
            attrs = dict(value)
            if qtype == "TOPIC":
                self.subscriptions.tree.associate(name, attrs, clock())
            elif qtype == "CHANNEL":
                self.channels.restore(name, attrs)
            elif qtype == "AUTHINFO":
                self.authinfos.restore(name, attrs)
            elif qtype == "LISTENER":
                self.listeners.restore(name, attrs)
            elif qtype == "NAMELIST":
                self.namelists.restore(name, attrs)
            elif qtype == "ROUTE":
                self.routes.restore(name, attrs)
            else:
                self.objects.restore_queue(qtype, name, attrs)
        self.channels.restored()
        self.authinfos.restored()
        self.namelists.restored()

    # -- DEFINE / ALTER / DELETE / DISPLAY ---------------------------------------------
    def define(
        self, objtype: str, name: str, attrs: dict[str, Any], like: str | None = None, replace: bool = False
    ) -> None:
        events = self._config_events(objtype)
        before = self._row(objtype, name) if events is not None else None
        self._define(objtype, name, attrs, like, replace)
        if events is not None and (after := self._row(objtype, name)) is not None:
            if before is None:
                events.created(objtype, name, after)
            else:
                events.changed(objtype, name, before, after)
        self._acted()
        self.on_change(objtype.upper(), name)

    def _define(
        self, objtype: str, name: str, attrs: dict[str, Any], like: str | None = None, replace: bool = False
    ) -> None:
        objtype = objtype.upper()
        if objtype == "TOPIC":
            return self.pubsub.define_topic(name, attrs, like, replace)
        if objtype == "SUB":
            return self.pubsub.define_sub(name, attrs, like, replace)
        if objtype == "CHANNEL":
            return self.channels.define_channel(name, attrs, like, replace)
        if objtype == "AUTHINFO":
            return self.authinfos.define(name, attrs, like, replace)
        if objtype == "LISTENER":
            return self.listeners.define(name, attrs, like, replace)
        if objtype == "NAMELIST":
            return self.namelists.define(name, attrs, like, replace)
        if objtype == "ROUTE":
            return self.routes.define(name, attrs, like, replace)
        return self.objects.define_queue(objtype, name, attrs, like, replace)

    def alter(self, objtype: str, name: str, attrs: dict[str, Any]) -> None:
        events = self._config_events(objtype)
        before = self._row(objtype, name) if events is not None else None
        self._alter(objtype, name, attrs)
        if events is not None and before is not None and (after := self._row(objtype, name)) is not None:
            events.changed(objtype, name, before, after)
        self._acted()
        self.on_change(objtype.upper(), name)

    def _alter(self, objtype: str, name: str, attrs: dict[str, Any]) -> None:
        objtype = objtype.upper()
        if objtype == "QMGR":
            return self.objects.alter_qmgr(attrs)
        if objtype == "TOPIC":
            return self.pubsub.alter_topic(name, attrs)
        if objtype == "SUB":
            return self.pubsub.alter_sub(name, attrs)
        if objtype == "CHANNEL":
            return self.channels.alter_channel(name, attrs)
        if objtype == "AUTHINFO":
            return self.authinfos.alter(name, attrs)
        if objtype == "LISTENER":
            return self.listeners.alter(name, attrs)
        if objtype == "NAMELIST":
            return self.namelists.alter(name, attrs)
        if objtype == "ROUTE":
            return self.routes.alter(name, attrs)
        return self.objects.alter_queue(objtype, name, attrs)

    def delete(self, objtype: str, name: str, purge: bool = False, authrec: bool = True) -> None:
        """DELETE of an object (``authrec``: the authority records are the checked admin's to keep)."""
        events = self._config_events(objtype)
        before = self._row(objtype, name) if events is not None else None
        self._delete(objtype, name, purge)
        if events is not None and before is not None:
            events.deleted(objtype, name, before)
        self._acted()
        self.on_change(objtype.upper(), name)

    def refresh_config(self, objtype: str = "ALL", generic: str = "*", inclint: int | None = None) -> int:
        """REFRESH QMGR TYPE(CONFIGEV): a Refresh object event per matching object."""
        events = self.config_events
        if events is None:
            return 0
        try:
            return int(events.refresh(self.objects_of, objtype, generic, inclint))
        finally:
            events.acted()

    def _acted(self) -> None:
        """The change is made: later changes are the queue manager's own until a caller says otherwise."""
        if self.config_events is not None:
            self.config_events.acted()

    def _config_events(self, objtype: str) -> Any:
        """The configuration events service when CONFIGEV is on and ``objtype`` has such events."""
        events = self.config_events
        return events if events is not None and events.enabled and events.produces(objtype) else None

    def _row(self, objtype: str, name: str) -> dict[str, Any] | None:
        """The object's DISPLAY row as it is now (None when there is none)."""
        try:
            rows = self.objects_of(objtype, name)
        except MQError:
            return None
        return dict(rows[0]) if rows else None

    def _delete(self, objtype: str, name: str, purge: bool = False) -> None:
        objtype = objtype.upper()
        if objtype == "TOPIC":
            return self.pubsub.delete_topic(name)
        if objtype == "SUB":
            return self.pubsub.delete_sub(name)
        if objtype == "CHANNEL":
            return self.channels.delete_channel(name)
        if objtype == "AUTHINFO":
            return self.authinfos.delete(name)
        if objtype == "LISTENER":
            return self.listeners.delete(name)
        if objtype == "NAMELIST":
            return self.namelists.delete(name)
        if objtype == "ROUTE":
            return self.routes.delete(name)
        if name in self.subscriptions.managed_queues:  # spec A R-MGD-6: the queue manager owns it
            raise MQError(C.MQRC_OBJECT_IN_USE, f"queue {name} is the managed queue of a subscription")
        return self.objects.delete_queue(objtype, name, purge)

    def objects_of(self, objtype: str, generic: str) -> list[dict[str, Any]]:
        """DISPLAY: the rows of the objects of ``objtype`` whose names match ``generic``."""
        objtype = objtype.upper()
        if objtype == "QMGR":
            return [{"QMNAME": self.objects.name, **self.objects.attrs}]
        if objtype == "TOPIC":
            return self.pubsub.topic_rows(generic)
        if objtype == "SUB":
            return self.pubsub.sub_rows(generic)
        if objtype == "CHANNEL":
            return self.channels.channel_rows(generic)
        if objtype == "AUTHINFO":
            return self.authinfos.rows(generic)
        if objtype == "LISTENER":
            return self.listeners.rows(generic)
        if objtype == "NAMELIST":
            return self.namelists.rows(generic)
        if objtype == "ROUTE":
            return self.routes.rows(generic)
        return self.objects.queue_rows(objtype, generic)

    def queue_status(self, generic: str, status_type: str) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = []
        matched = [q for name, q in sorted(self.objects.queues.items()) if attributes.generic_match(generic, name)]
        if not matched and "*" not in generic:
            raise MQError(C.MQRC_UNKNOWN_OBJECT_NAME, f"queue {generic} not found")
        for queue in matched:
            if status_type.upper() == "HANDLE":
                rows.extend(self._handle_rows(queue))
                continue
            rows.append({
                "QUEUE": queue.name, "TYPE": "QUEUE", "CURDEPTH": queue.depth,
                "IPPROCS": queue.open_input, "OPPROCS": queue.open_output,
                # IBM: uncommitted changes, puts and gets alike
                "UNCOM": (queue.uncommitted + queue.locked) or "NO",
                # mqlite's own: puts and destructive gets since the queue manager started, never
                # reset (RESET QSTATS counts from its own bases), for /metrics's put and get counters
                "ENQTOTAL": queue.enqueued, "DEQTOTAL": queue.dequeued,
            })
        return rows

    def connection_status(self, generic: str, status_type: str) -> list[dict[str, Any]]:
        """DISPLAY CONN: the connections and their open handles (``core.connection_status``)."""
        waiting = {(w.conn.conn_id, w.hobj) for queue in self.objects.queues.values() for w in queue.waiters}
        return connection_rows(self.connections.values(), self.objects.name, generic, status_type, waiting)

    def stop_connection(self, conn_id: str) -> None:
        """STOP CONN: break an application's connection (its unit of work is backed out)."""
        conn = self.connections.get(conn_id.upper())
        if conn is None or not conn.connected:
            raise MQError(C.MQRCCF_CONNECTION_ID_ERROR, f"connection {conn_id} not found")
        if conn.system:
            raise MQError(C.MQRCCF_CONN_NOT_STOPPED, f"connection {conn_id} is the queue manager's own")
        if not self.connection_stopper(conn.conn_id):
            raise MQError(C.MQRCCF_CONN_NOT_STOPPED, f"connection {conn_id} cannot be stopped here")

    def _handle_rows(self, queue: LocalQueue) -> list[dict[str, Any]]:
        rows = []
        for conn in self.connections.values():
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
