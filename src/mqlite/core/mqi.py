"""The MQI of connections and object handles: MQCONN/MQDISC, MQOPEN/MQCLOSE, MQPUT/MQPUT1 (routed to
a queue or a topic), MQINQ/MQSET. Name resolution (aliases, models, remote queues through a
transmission queue) happens at MQOPEN; a future cluster queue resolves here too, through the
``dist`` service's workload choice.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any, Protocol

from mqlite import cmqc as C
from mqlite.core import inquire
from mqlite.core.descriptors import check_object_descriptor
from mqlite.core.errors import MQError
from mqlite.core.handles import INPUT_OPTIONS, Connection, Handle, handle_of, open_for_input
from mqlite.core.mqput import Puts
from mqlite.core.objects import ObjectDefinitions
from mqlite.core.pubsub.delivery import CopyDelivery, refusal
from mqlite.core.pubsub.publish import Publisher
from mqlite.core.pubsub.subscribe import Subscriber
from mqlite.core.queues import LocalQueue
from mqlite.core.security.events import Caller
from mqlite.core.security.principal import Principal
from mqlite.core.security.service import AuthorityService, administrator
from mqlite.core.syncpoint import Syncpoint
from mqlite.core.waiting import WaitingGetters
from mqlite.message import Message, MessageDescriptor, Properties

CLUSTER_XMITQ = "SYSTEM.CLUSTER.TRANSMIT.QUEUE"
_BIND_OPTIONS = C.MQOO_BIND_ON_OPEN | C.MQOO_BIND_NOT_FIXED | C.MQOO_BIND_ON_GROUP


_EMPTY = Message(MessageDescriptor(), b"")  # what an agent's put is at least, for the refusal check

class ClusterQueues(Protocol):
    """What MQOPEN and MQPUT need of the clusters (``core.network.clusters.routing.ClusterRouting``)."""

    def member(self) -> bool: ...

    def open_handle(self, hobj: int, queue: str, options: int, qmgr: str = "",
                    local_attrs: dict[str, Any] | None = None) -> Handle: ...

    def route(self, handle: Handle, md: MessageDescriptor) -> LocalQueue: ...

    def route_to_qmgr(self, handle: Handle, target: str, queue: str) -> bool: ...

    def is_cluster_xmitq(self, name: str, attrs: dict[str, Any]) -> bool: ...

    def spreads(self, name: str, attrs: dict[str, Any]) -> bool: ...


class Connections:
    """Connections (``connections``: conn_id -> Connection) and the handles they open."""

    def __init__(self, objects: ObjectDefinitions, waiting: WaitingGetters, puts: Puts, syncpoint: Syncpoint,
                 publisher: Publisher, subscriber: Subscriber, delivery: CopyDelivery,
                 alter: Callable[[str, str, dict[str, Any]], None], connections: dict[str, Connection],
                 security: AuthorityService) -> None:
        self.name = objects.name
        self.security = security
        self.objects = objects
        self.qdefs = objects.qdefs
        self.queues = objects.queues
        self.waiting = waiting
        self.put_message = puts.put
        self.syncpoint = syncpoint
        self.publisher = publisher
        self.access = publisher.access
        self.publish = publisher.publish
        self.subscriber = subscriber
        self.delivery = delivery
        self.alter = alter
        self.config_events: Any = None  # core.events.config.ConfigEvents (the facade's)
        self.qmgr_events: Any = None  # core.events.qmgr_events.QueueManagerEvents (the facade's)
        self.connections = connections
        self._conn_ids = itertools.count(1)
        self.quiescing = False
        self.cluster: ClusterQueues | None = None  # set once the cluster service is built

    # -- connections -------------------------------------------------------------------
    def connect(self, principal: Principal, appl_name: str = "", pid: int = 0, *, channel: str = "",
                conname: str = "", system: bool = False) -> Connection:
        if self.quiescing:
            raise MQError(C.MQRC_Q_MGR_QUIESCING, "the queue manager is ending")
        self.access.connect(principal, Caller(principal.user, appl_name[:28]))
        conn_id = f"{next(self._conn_ids):016X}"
        conn = Connection(conn_id, principal.user, appl_name[:28], pid, principal=principal, channel=channel,
                          conname=conname, system=system)
        self.connections[conn_id] = conn
        return conn

    def disconnect(self, conn: Connection, commit: bool = True) -> None:
        """MQDISC commits (normal end); a broken connection backs out."""
        if not conn.connected:
            return
        if conn.uow and commit:
            self.syncpoint.commit(conn)
        elif conn.uow:
            self.syncpoint.backout(conn)
        for hsub in list(conn.subscriptions):  # non-durable ones end, durable ones are kept
            self.close(conn, hsub, 0)
        for hobj in list(conn.handles):
            handle = conn.handles.get(hobj)
            if handle is None:
                continue
            try:
                self.close(conn, hobj, 0)
            except MQError:
                self._drop_handle(conn, handle)
        conn.connected = False
        self.connections.pop(conn.conn_id, None)
        self.delivery.end_connection(conn.conn_id)

    # -- MQOPEN / MQCLOSE --------------------------------------------------------------
    def open(self, conn: Connection, od: dict[str, Any], options: int, internal: bool = False) -> Handle:
        """MQOPEN. ``internal``: the queue manager opens one of its own queues for a protocol
        service working for this connection (an MQTT session's queue), as IBM's telemetry service
        opens SYSTEM.MQTT.TRANSMIT.QUEUE under its own authority: no authority check."""
        check_object_descriptor(od)
        object_type = int(od.get("ObjectType", C.MQOT_Q))
        name = str(od.get("ObjectName", "")).strip()
        qmgr_name = str(od.get("ObjectQMgrName", "")).strip()
        inputs = options & INPUT_OPTIONS
        if inputs & (inputs - 1):
            raise MQError(C.MQRC_OPTIONS_ERROR, "more than one MQOO_INPUT_* option")
        if not options & (INPUT_OPTIONS | C.MQOO_BROWSE | C.MQOO_OUTPUT | C.MQOO_INQUIRE | C.MQOO_SET):
            raise MQError(C.MQRC_OPTIONS_ERROR, "no access option given")
        hobj = conn.next_hobj
        principal, caller = (administrator(conn.user) if internal else conn.principal), caller_of(conn)
        if options & C.MQOO_ALTERNATE_USER_AUTHORITY:  # altusr, then every check as that user
            principal = self.access.alternate(principal, caller, str(od.get("AlternateUserId") or ""),
                                              open_options=options)
            caller = caller._replace(user=principal.user)
        if object_type == C.MQOT_Q_MGR:
            if options & (INPUT_OPTIONS | C.MQOO_BROWSE | C.MQOO_OUTPUT | C.MQOO_SET):
                raise MQError(C.MQRC_OPTION_NOT_VALID_FOR_TYPE, "the queue manager opens for inquire")
            self.access.open_object(principal, caller, C.MQOT_Q_MGR, self.name, options)
            handle = Handle(hobj, self.name, self.name, options, None)
        elif object_type == C.MQOT_Q:
            try:
                handle = self._open_queue(hobj, name, qmgr_name, options, od, principal, caller)
            except MQError as error:  # local and remote events (LOCALEV, REMOTEEV)
                if self.qmgr_events is not None:
                    self.qmgr_events.open_failed(conn, error.reason, name, qmgr_name)
                raise
        elif object_type == C.MQOT_TOPIC:
            handle = self.publisher.open_topic(hobj, od, options, principal, caller)
        else:
            raise MQError(C.MQRC_OBJECT_TYPE_ERROR, f"object type {object_type}")
        conn.next_hobj += 1
        handle.conn = conn
        conn.handles[hobj] = handle
        if handle.queue is not None and handle.queue.watch.stats is not None and handle.cluster is None:
            handle.queue.watch.stats.opens += 1  # the monitoring topics' STATQ OPENCLOSE
        return handle

    def _open_queue(
        self, hobj: int, name: str, qmgr_name: str, options: int, od: dict[str, Any], principal: Principal,
        caller: Caller,
    ) -> Handle:
        if not name:
            raise MQError(C.MQRC_UNKNOWN_OBJECT_NAME, "no queue name given")
        if qmgr_name and qmgr_name != self.name:
            return self._open_via_xmitq(hobj, name, qmgr_name, options, principal=principal, caller=caller)
        definition = self.qdefs.get(name)
        cluster = self.cluster
        if definition is None:
            if cluster is None or not cluster.member():
                raise MQError(C.MQRC_UNKNOWN_OBJECT_NAME, f"queue {name} is not defined")
            # A cluster queue: IBM's default ClusterQueueAccessControl=Xmitq checks the cluster
            # transmission queue's authority; then an instance is found (or looked up).
            self.access.open_object(principal, caller, C.MQOT_Q, CLUSTER_XMITQ, options & ~_BIND_OPTIONS, qmgr_name)
            return cluster.open_handle(hobj, name, options)
        # Authority is checked on the first definition the name resolves through (the alias,
        # the model, the remote queue definition), never on what it resolves to (R-SEC-20).
        self.access.open_object(principal, caller, C.MQOT_Q, name, options, qmgr_name)
        qtype, attrs = definition
        alias_attrs = None
        created = False
        if qtype == "QALIAS":
            if attrs.get("TARGTYPE", "QUEUE") == "TOPIC":  # an alias publishes to its topic object: put and pub
                handle = self.publisher.open_topic(hobj, {"ObjectName": attrs.get("TARGET", "")}, options,
                                                   principal, caller)
                handle.opened_as = name
                return handle
            target = str(attrs.get("TARGET", ""))
            base = self.qdefs.get(target)
            if base is None:
                raise MQError(C.MQRC_UNKNOWN_ALIAS_BASE_Q, f"alias {name} targets unknown {target!r}")
            if base[0] == "QALIAS":
                raise MQError(C.MQRC_ALIAS_BASE_Q_TYPE_ERROR, f"alias {name} targets an alias")
            alias_attrs = attrs
            name, (qtype, attrs) = target, base
        if qtype == "QMODEL":
            name = self.objects.create_dynamic(attrs, str(od.get("DynamicQName") or "AMQ.*"))
            qtype, attrs = self.qdefs[name]
            created = True
            self.access.grant_creator(principal, name, permanent=attrs.get("DEFTYPE") == "PERMDYN")
        if qtype == "QREMOTE":
            if options & (INPUT_OPTIONS | C.MQOO_BROWSE):
                raise MQError(C.MQRC_OPTION_NOT_VALID_FOR_TYPE, "a remote queue opens for output")
            return self._open_via_xmitq(
                hobj, str(attrs.get("RNAME") or name), str(attrs.get("RQMNAME", "")), options,
                xmitq=str(attrs.get("XMITQ", "")), opened_as=name, remote_attrs=attrs,
            )
        if cluster is not None and qtype == "QLOCAL":
            if options & C.MQOO_OUTPUT and cluster.is_cluster_xmitq(name, attrs) and not (
                    self.security.is_admin(principal)):  # B:R-CLQ-6, A-50: only through the cluster
                raise MQError(C.MQRC_NOT_AUTHORIZED, f"applications put to cluster queues, not to {name}")
            if (options & C.MQOO_OUTPUT and not options & (INPUT_OPTIONS | C.MQOO_BROWSE)
                    and alias_attrs is None and cluster.spreads(name, attrs)):  # CLWLUSEQ(ANY)
                return cluster.open_handle(hobj, name, options, local_attrs=attrs)
        queue = self.queues[name]
        if options & INPUT_OPTIONS and name in self.subscriber.subscriptions.managed_queues:
            raise MQError(C.MQRC_OBJECT_IN_USE, f"{name} is the managed queue of a subscription")
        handle = Handle(hobj, name, name if alias_attrs is None else str(od.get("ObjectName")),
                        options, queue, alias_attrs=alias_attrs, created_dynamic=created)
        if options & INPUT_OPTIONS:
            open_for_input(queue, handle, options)
        if options & C.MQOO_OUTPUT:
            queue.open_output += 1
        return handle

    def _open_via_xmitq(
        self, hobj: int, rname: str, rqmname: str, options: int, xmitq: str = "", opened_as: str = "",
        remote_attrs: dict[str, Any] | None = None, principal: Principal | None = None,
        caller: Caller | None = None,
    ) -> Handle:
        if options & ~(C.MQOO_OUTPUT | C.MQOO_INQUIRE | C.MQOO_FAIL_IF_QUIESCING | _CONTEXT_OPEN_OPTIONS):
            raise MQError(C.MQRC_OPTION_NOT_VALID_FOR_TYPE, "a remote queue opens for output")
        target_qmgr = rqmname or self.name
        if not xmitq:  # a queue-manager alias (QREMOTE of the target's name, blank RNAME) says the way (B:R-CHN-3)
            alias = self.qdefs.get(target_qmgr)
            if alias is not None and alias[0] == "QREMOTE" and not str(alias[1].get("RNAME") or "").strip():
                target_qmgr = str(alias[1].get("RQMNAME") or "").strip() or target_qmgr
                xmitq = str(alias[1].get("XMITQ") or "").strip()
        xmitq_name = xmitq or target_qmgr
        definition = self.qdefs.get(xmitq_name)
        # A transmission queue named after the target first, then the cluster's (which "takes
        # precedence over the default transmission queue", B:R-CLQ-5), then DEFXMITQ.
        if definition is None and not xmitq and self.cluster is not None:
            handle = Handle(hobj, CLUSTER_XMITQ, opened_as or rname, options, None, alias_attrs=remote_attrs)
            if self.cluster.route_to_qmgr(handle, target_qmgr, rname):
                if principal is not None and caller is not None:
                    self.access.open_object(principal, caller, C.MQOT_Q, CLUSTER_XMITQ, options, rqmname)
                return handle
        default = False
        if definition is None and not xmitq:
            default_xmitq = str(self.objects.attrs.get("DEFXMITQ", "") or "").strip()
            if default_xmitq:
                xmitq_name, default = default_xmitq, True
                definition = self.qdefs.get(xmitq_name)
        # IBM's MQOPEN reasons: the default transmission queue's own (2197/2198/2199) when DEFXMITQ
        # was the one used; 2087 only when there is no way at all.
        if definition is None:
            if default:
                raise MQError(C.MQRC_UNKNOWN_DEF_XMIT_Q, f"default transmission queue {xmitq_name} is not defined")
            if xmitq:
                raise MQError(C.MQRC_UNKNOWN_XMIT_Q, f"transmission queue {xmitq} is not defined")
            raise MQError(C.MQRC_UNKNOWN_REMOTE_Q_MGR, f"no transmission queue for {target_qmgr}")
        if definition[0] != "QLOCAL":
            raise MQError(C.MQRC_DEF_XMIT_Q_TYPE_ERROR if default else C.MQRC_XMIT_Q_TYPE_ERROR,
                          f"transmission queue {xmitq_name} is not a local queue")
        if definition[1].get("USAGE") != "XMITQ":
            raise MQError(C.MQRC_DEF_XMIT_Q_USAGE_ERROR if default else C.MQRC_XMIT_Q_USAGE_ERROR,
                          f"{xmitq_name} is not USAGE(XMITQ)")
        if principal is not None and caller is not None:  # named by queue manager: the transmission queue is checked
            self.access.open_object(principal, caller, C.MQOT_Q, xmitq_name, options, rqmname)
        queue = self.queues[xmitq_name]
        if options & C.MQOO_OUTPUT:
            queue.open_output += 1
        # The first definition on the resolution path (the QREMOTE) gives DEFPSIST and DEFPRTY.
        handle = Handle(hobj, xmitq_name, opened_as or rname, options, queue, alias_attrs=remote_attrs)
        handle.xmitq_for = (rname, target_qmgr)
        return handle

    def close(self, conn: Connection, hobj: int, options: int) -> None:
        if hobj in conn.subscriptions:
            self.subscriber.close_subscription(conn, hobj, options)
            return
        handle = handle_of(conn, hobj)
        if handle.topic is not None:
            self.publisher.close_topic(handle)
            conn.handles.pop(hobj, None)
            return
        if handle.managed:
            if options & (C.MQCO_DELETE | C.MQCO_DELETE_PURGE):  # spec C R-CLS-7
                raise MQError(C.MQRC_OPTION_NOT_VALID_FOR_TYPE, "a managed queue is deleted by the queue manager")
            self._drop_handle(conn, handle)
            self.subscriber.close_managed(handle)
            return
        queue = handle.queue
        deleting = options & (C.MQCO_DELETE | C.MQCO_DELETE_PURGE)
        if deleting and (queue is None or not queue.dynamic):
            raise MQError(C.MQRC_OPTION_NOT_VALID_FOR_TYPE, "only dynamic queues are deleted on close")
        purge = options & C.MQCO_DELETE_PURGE
        if queue is not None and queue.dynamic == "PERMDYN" and deleting and queue.depth and not purge:
            raise MQError(C.MQRC_Q_NOT_EMPTY, f"queue {queue.name} is not empty")
        self._drop_handle(conn, handle)
        if queue is not None and queue.watch.stats is not None and handle.cluster is None:
            queue.watch.stats.closes += 1  # STATQ OPENCLOSE
        # A dynamic queue goes with MQCO_DELETE*; a temporary one also with the handle that made it.
        ends = deleting or (queue is not None and queue.dynamic == "TEMPDYN" and handle.created_dynamic)
        if ends and queue is not None and not queue.deleted:
            self.objects.remove_queue(queue.name)
            self.access.dynamic_queue_deleted(queue.name, permanent=queue.dynamic == "PERMDYN")

    def _drop_handle(self, conn: Connection, handle: Handle) -> None:
        conn.handles.pop(handle.hobj, None)
        queue = handle.queue
        if queue is None or handle.cluster is not None:  # a cluster queue handle counts on no queue
            return
        if handle.options & INPUT_OPTIONS and handle.xmitq_for is None:
            queue.open_input -= 1
            if queue.exclusive_holder is handle:
                queue.exclusive_holder = None
        if handle.options & C.MQOO_OUTPUT:
            queue.open_output -= 1
        if queue.waiters:  # its MQGETs end with the handle
            self.waiting.fail_handle(queue, conn, handle.hobj)
        if handle in queue.read_ahead:
            queue.read_ahead.remove(handle)

    # -- MQPUT / MQPUT1 ----------------------------------------------------------------
    def put(
        self, conn: Connection, hobj: int, md: MessageDescriptor, options: int,
        properties: Properties, body: bytes, pub_level: int = 9, action: int = C.MQACTP_NEW,
    ) -> MessageDescriptor:
        handle = handle_of(conn, hobj)
        if not handle.options & C.MQOO_OUTPUT:
            raise MQError(C.MQRC_NOT_OPEN_FOR_OUTPUT, f"{handle.opened_as} is not open for output")
        if handle.topic is not None:
            return self.publish(conn, handle, md, options, properties, body, pub_level, action)
        queue: LocalQueue | None
        if handle.cluster is not None:  # the workload algorithm says where this one goes
            assert self.cluster is not None
            queue = self.cluster.route(handle, md)
        else:
            queue = handle.queue
        assert queue is not None
        try:
            return self.put_message(conn, handle, queue, md, options, properties, body)
        except MQError:
            if queue.watch.stats is not None:  # statistics (core.statistics) collected for it
                queue.watch.stats.put_fails += 1
            raise

    def put1(
        self, conn: Connection, od: dict[str, Any], md: MessageDescriptor, options: int,
        properties: Properties, body: bytes, pub_level: int = 9,
    ) -> MessageDescriptor:
        # MQPUT1 opens with what its context options need, as IBM derives them from the PMO.
        open_options = C.MQOO_OUTPUT
        for pmo_option, oo_option in _PUT1_CONTEXT:
            if options & pmo_option:
                open_options |= oo_option
        handle = self.open(conn, od, open_options)
        stats = handle.queue.watch.stats if handle.queue is not None and handle.cluster is None else None
        try:
            md = self.put(conn, handle.hobj, md, options, properties, body, pub_level)
        except MQError:
            if stats is not None:  # counted by put as an MQPUT's: it was an MQPUT1's
                stats.put_fails -= 1
                stats.put1_fails += 1
            raise
        finally:
            self.close(conn, handle.hobj, 0)
            if stats is not None:  # MQPUT1's own open and close are no MQOPEN or MQCLOSE of the queue
                stats.opens -= 1
                stats.closes -= 1
        if stats is not None:
            stats.as_put1(md.Persistence == C.MQPER_PERSISTENT)
        return md

    # -- the queue manager's own agents -------------------------------------------------
    def put_to_qmgr(self, conn: Connection, qmgr: str, queue: str, md: MessageDescriptor, options: int,
                    properties: Properties, body: bytes) -> None:
        """A put by one of the queue manager's agents to ``queue`` at ``qmgr`` ('' or this queue
        manager: a local queue), resolved as an MQOPEN with ObjectQMgrName would be (B:R-CHN-3),
        in ``conn``'s unit of work when ``options`` say so; no authority check, no open count."""
        handle, target = self._agent_route(qmgr, queue, md)
        self.put_message(conn, handle, target, md, options, properties, body)

    def xmitq_to(self, qmgr: str) -> str | None:
        """The transmission queue a put to queue manager ``qmgr`` takes now: '' through the
        cluster, None when there is no way to it."""
        try:
            handle = self._open_via_xmitq(0, "", qmgr, C.MQOO_OUTPUT)
        except MQError:
            return None
        if handle.queue is not None and handle.cluster is None:
            handle.queue.open_output -= 1  # (an agent's look, not an application's open)
            return handle.queue.name
        return ""

    def refuses_to_qmgr(self, qmgr: str, queue: str) -> int:
        """The reason a put to ``queue`` at ``qmgr`` would fail now (0: it would not)."""
        try:
            handle, target = self._agent_route(qmgr, queue, MessageDescriptor())
        except MQError as error:
            return error.reason
        if handle.alias_attrs and handle.alias_attrs.get("PUT") == "DISABLED":  # (a remote definition)
            return C.MQRC_PUT_INHIBITED
        return refusal(target, _EMPTY)

    def _agent_route(self, qmgr: str, queue: str, md: MessageDescriptor) -> tuple[Handle, LocalQueue]:
        options = C.MQOO_OUTPUT | C.MQOO_SET_ALL_CONTEXT
        if qmgr in ("", self.name):
            local = self.queues.get(queue)
            if local is None:
                raise MQError(C.MQRC_UNKNOWN_OBJECT_NAME, f"queue {queue} is not defined")
            return Handle(0, queue, queue, options, local), local
        handle = self._open_via_xmitq(0, queue, qmgr, options)
        if handle.queue is not None:
            handle.queue.open_output -= 1  # an agent's put, not an application's open
            return handle, handle.queue
        assert self.cluster is not None
        return handle, self.cluster.route(handle, md)

    # -- MQINQ / MQSET -----------------------------------------------------------------
    def inquire(self, conn: Connection, hobj: int, selectors: list[int]) -> list[int | str]:
        handle = handle_of(conn, hobj)
        if not handle.options & C.MQOO_INQUIRE:
            raise MQError(C.MQRC_NOT_OPEN_FOR_INQUIRE, f"{handle.opened_as} is not open for inquire")
        values = inquire.inquire(self.name, self.objects.attrs, self.qdefs, handle, selectors)
        if handle.queue is not None and handle.queue.watch.stats is not None and handle.cluster is None:
            handle.queue.watch.stats.inqs += 1  # STATQ INQSET
        return values

    def set(self, conn: Connection, hobj: int, values: dict[int, int | str]) -> None:
        handle = handle_of(conn, hobj)
        if not handle.options & C.MQOO_SET:
            raise MQError(C.MQRC_NOT_OPEN_FOR_SET, f"{handle.opened_as} is not open for set")
        if self.config_events is not None:  # a Change object event says it was an MQSET, and whose
            self.config_events.acting(conn.user, C.MQEVO_MQSET)
        inquire.set_attributes(self.qdefs, handle, values, self.alter)
        if handle.queue is not None and handle.queue.watch.stats is not None and handle.cluster is None:
            handle.queue.watch.stats.sets += 1  # STATQ INQSET


def caller_of(conn: Connection) -> Caller:
    """Who a connection is, as an authority event reports it."""
    return Caller(conn.user, conn.appl_name)


_PUT1_CONTEXT = (
    (C.MQPMO_SET_ALL_CONTEXT, C.MQOO_SET_ALL_CONTEXT),
    (C.MQPMO_SET_IDENTITY_CONTEXT, C.MQOO_SET_IDENTITY_CONTEXT),
    (C.MQPMO_PASS_ALL_CONTEXT, C.MQOO_PASS_ALL_CONTEXT),
    (C.MQPMO_PASS_IDENTITY_CONTEXT, C.MQOO_PASS_IDENTITY_CONTEXT),
    (C.MQPMO_ALTERNATE_USER_AUTHORITY, C.MQOO_ALTERNATE_USER_AUTHORITY),
)
_CONTEXT_OPEN_OPTIONS = (
    C.MQOO_PASS_IDENTITY_CONTEXT | C.MQOO_PASS_ALL_CONTEXT | C.MQOO_SET_IDENTITY_CONTEXT
    | C.MQOO_SET_ALL_CONTEXT | C.MQOO_ALTERNATE_USER_AUTHORITY | C.MQOO_BIND_AS_Q_DEF
    | C.MQOO_BIND_ON_OPEN | C.MQOO_BIND_NOT_FIXED
)
