"""The queue manager: a facade over the services that own core's state, without I/O.

The server drives it with calls and performs what it asks for afterwards (``take_effects``):
store transactions, replies to waiting getters, read-ahead pushes. Each call is delegated to
the service that owns its state; the services say what they depend on in their constructors,
and are built here in dependency order:

- ``outbox.Outbox`` / ``MessageIds``: the pending effects, the ids core makes;
- ``security.service.AuthorityService`` (``security``): authority records, administrators and the
  ``allowed``/``require`` checks every MQI and admin call makes;
- ``security.chlauth_service.ChlauthService`` (``chlauth``): channel authentication records and
  the decision when a channel connects;
- ``security.access.Access`` (``access``) and ``security.events.AuthorityEvents``: the MQI's
  authority checks (queues, the topic-tree walk, subscriptions) and the events refusals raise;
- ``waiting.WaitingGetters``: the MQGETs waiting for a message;
- ``objects.ObjectDefinitions``: queue-manager attributes, queue definitions, local queues;
- ``mqget.Gets``, ``mqput.Puts``, ``syncpoint.Syncpoint``, ``ranges.Ranges``: queues and units
  of work (MQGET and delivery to waiters, MQPUT, MQCMIT/MQBACK, offsets);
- ``pubsub``: ``registry.Subscriptions`` (topic tree, subscriptions, index), ``delivery.CopyDelivery``
  (copies, publish exit), ``publish.Publisher``, ``subscribe.Subscriber``, ``admin.PubSubAdmin``;
- ``channels.Channels``: channel definitions and START/STOP through the server's agent;
- ``authinfo.AuthInfos``: AUTHINFO objects and the connection authentication in force;
- ``listeners.Listeners``: LISTENER objects and START/STOP LISTENER through the server's agent;
- ``namelists.Namelists``: NAMELIST objects (the names a CLUSNL or REPOSNL refers to);
- ``admin.Admin``: DEFINE/ALTER/DELETE/DISPLAY routed to the owner of each object type;
- ``mqi.Connections``: MQCONN/MQDISC, MQOPEN/MQCLOSE, MQPUT routing, MQINQ/MQSET;
- ``network.channels.transfer.ChannelTransfer`` (``transfer``): message channels' sync records and the
  receiving end's puts (the channel agents use the MQI like any program for the rest).

- ``network.clusters.service.ClusterState`` and ``network.clusters.routing.ClusterRouting`` (``cluster``):
  this queue manager's records in its clusters, the repository cache, cluster queue handles and
  the workload choice at each put; MQOPEN reaches it through ``mqi.ClusterQueues``.
- ``network.pubsub.service.DistributedPubSub`` (``dist_pubsub``) and ``network.pubsub.forward.Forwarding``
  (``forwarding``): the hierarchy relations, the proxy subscriptions held and sent, publications
  to and from other queue managers; the registry tells it of local subscriptions (``watch``) and
  the publisher hands it publications (``forwarder``).

Hot calls (MQPUT, MQGET, MQCMIT, the effects) are the services' bound methods, set once on
the instance: the facade adds no call per message.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from mqlite import cmqc as C
from mqlite.core import attributes
from mqlite.core.admin import Admin
from mqlite.core.admin_checks import CheckedAdmin
from mqlite.core.authinfo import AuthInfos
from mqlite.core.channel_attributes import MESSAGE_TYPES, SENDING_TYPES
from mqlite.core.channels import ChannelAgent, Channels
from mqlite.core.dedupe import DuplicateWindow
from mqlite.core.errors import MQError
from mqlite.core.events.channel import ChannelEvents
from mqlite.core.events.config import ConfigEvents
from mqlite.core.events.performance import PerformanceEvents
from mqlite.core.events.qmgr_events import QueueManagerEvents, persistent_put
from mqlite.core.handles import Connection, Effects, GetResult, Handle, TruncatedError
from mqlite.core.listeners import ListenerAgent, Listeners
from mqlite.core.mqget import Gets
from mqlite.core.mqi import Connections
from mqlite.core.mqput import Puts
from mqlite.core.namelists import Namelists
from mqlite.core.network.channels.transfer import ChannelTransfer, sender_key
from mqlite.core.network.clusters import rows as cluster_rows
from mqlite.core.network.clusters.routing import ClusterRouting
from mqlite.core.network.clusters.service import ClusterState
from mqlite.core.network.pubsub.forward import Forwarding
from mqlite.core.network.pubsub.service import DistributedPubSub
from mqlite.core.network.routes.defs import RouteDefinitions
from mqlite.core.network.routes.forward import RouteForwarding
from mqlite.core.network.routes.service import RouteService
from mqlite.core.objects import ObjectDefinitions
from mqlite.core.outbox import MessageIds, Outbox
from mqlite.core.pubsub.admin import PubSubAdmin
from mqlite.core.pubsub.delivery import CopyDelivery
from mqlite.core.pubsub.publish import Publisher
from mqlite.core.pubsub.publish_exit import ExitFunction, PublishExit
from mqlite.core.pubsub.queued import STREAM_NAMELIST, SUBPOINT_NAMELIST, QueuedInterface
from mqlite.core.pubsub.registry import Subscriptions
from mqlite.core.pubsub.subscribe import Subscriber
from mqlite.core.pubsub.subscription import Subscription
from mqlite.core.queued import publication as queued_publication
from mqlite.core.queued.names import DEFAULT_STREAM
from mqlite.core.queues import LocalQueue, MessageReader
from mqlite.core.ranges import Ranges
from mqlite.core.security.access import Access
from mqlite.core.security.chlauth_service import ChlauthService
from mqlite.core.security.events import AuthorityEvents
from mqlite.core.security.principal import Principal
from mqlite.core.security.service import AuthorityService
from mqlite.core.statistics.counters import Statistics
from mqlite.core.statistics.writer import StatisticsWriter
from mqlite.core.syncpoint import Syncpoint
from mqlite.core.topics.index import SubscriptionIndex
from mqlite.core.topics.tree import TopicTree
from mqlite.core.waiters import Waiter
from mqlite.core.waiting import WaitingGetters
from mqlite.message import MessageDescriptor

log = logging.getLogger("mqlite.queued")


class QueueManager:
    """One queue manager's services and the MQI, admin and effects calls over them."""

    def __init__(
        self,
        name: str,
        reader: MessageReader | None = None,
        clock: Callable[[], float] = time.time,
        creator: str = "",
    ) -> None:
        self.name = name
        self.qmgr_name = name  # for mqsc.security.SecurityAdmin
        self.reader = reader
        self.clock = clock
        self.outbox = outbox = Outbox()
        self.ids = ids = MessageIds(name)
        self.security = security = AuthorityService(name, outbox, creator)
        self.waiting_getters = waiting = WaitingGetters(outbox)
        self.definitions = objects = ObjectDefinitions(name, reader, clock, outbox, waiting, ids)
        self.chlauth = chlauth = ChlauthService(objects.attrs, outbox, clock, self.security.is_admin,
                                                attributes.date_and_time)
        self.gets = gets = Gets(objects.queues, objects.attrs, waiting, outbox, clock)
        self.puts = puts = Puts(name, objects.attrs, gets.deliver, outbox, ids, clock)
        self.syncpoint = syncpoint = Syncpoint(name, objects.attrs, objects.queues, gets.deliver, outbox, clock)
        self.ranges = ranges = Ranges(objects.queues, outbox, clock)
        self.subscriptions = subscriptions = Subscriptions(objects)
        self.authority_events = events = AuthorityEvents(name, objects.attrs, objects.queues, ids.next_id, clock)
        events.deliver = gets.deliver
        self.performance_events = PerformanceEvents(name, objects.attrs, events.put, clock)
        objects.arm = self.performance_events.arm
        self.performance_events.persist = objects.persist_queue
        self.config_events = ConfigEvents(name, objects.attrs, events.put, ids.next_id, clock)
        self.channel_events = ChannelEvents(name, objects.attrs, events.put, clock)
        self.qmgr_events = QueueManagerEvents(name, objects.attrs, objects.qdefs, events.put, clock)
        self.qmgr_events.put_persistent = persistent_put(objects.queues, outbox, ids.next_id, gets.deliver)
        gets.qmgr_events = puts.qmgr_events = waiting.qmgr_events = self.qmgr_events
        self.access = access = Access(name, security, events, subscriptions.tree.objects_by_topic)
        self.delivery = delivery = CopyDelivery(objects, subscriptions, gets.deliver, syncpoint.dead_letter, ids)
        self.publisher = publisher = Publisher(objects, subscriptions, delivery, puts, access)
        delivery.clear_retained = publisher.clear_retained
        self.subscriber = subscriber = Subscriber(objects, subscriptions, delivery, ids, access)
        self.channel_service = channels = Channels(clock, outbox)
        self.authinfos = authinfos = AuthInfos(objects.attrs, clock, outbox)
        connections: dict[str, Connection] = {}
        self.pubsub_admin = pubsub_admin = PubSubAdmin(objects, subscriptions, subscriber, delivery, connections)
        self.listener_service = listeners = Listeners(clock, outbox)
        self.namelist_service = namelists = Namelists(clock, outbox)
        self.route_definitions = route_defs = RouteDefinitions(name, clock, outbox)
        self.queued = QueuedInterface(objects, subscriptions, subscriber, publisher, delivery, access, namelists.names)
        # The queued interface's daemon (server.queued) follows PSMODE and the two namelists.
        self.on_queued_change: Callable[[], None] = _nothing
        self.admin = admin = Admin(objects, pubsub_admin, subscriptions, channels, authinfos, connections, listeners,
                                   namelists, route_defs)
        admin.config_events = self.config_events
        self.mqi = mqi = Connections(objects, waiting, puts, syncpoint, publisher, subscriber, delivery, admin.alter,
                                     connections, security)
        mqi.config_events = self.config_events
        mqi.qmgr_events = self.qmgr_events
        self.transfer = ChannelTransfer(name, objects.attrs, objects.queues, mqi, syncpoint, outbox)
        channels.forget_sync = self.transfer.forget_channel
        self.cluster_state = ClusterState(name, objects.attrs, objects.qdefs, channels.channels, outbox, clock,
                                          namelists.names)
        self.cluster = ClusterRouting(self.cluster_state, objects, channels, puts, clock)
        mqi.cluster = self.cluster
        self.dist_pubsub = DistributedPubSub(name, objects.attrs, subscriptions, mqi.put_to_qmgr, ids.next_id)
        self.forwarding = Forwarding(self.dist_pubsub, publisher, mqi.put_to_qmgr, mqi.refuses_to_qmgr)
        self.dist_pubsub.clusters.state = self.cluster_state
        self.dist_pubsub.channel_ok = self.cluster.reachable
        self.cluster_state.topic_objects = subscriptions.tree.objects  # its cluster topics are published
        routing_heard = self.cluster_state.on_records

        def records_changed(records: list[Any]) -> None:  # the cluster's routing, then its pub/sub
            routing_heard(records)
            self.dist_pubsub.cluster_changed(records)

        self.cluster_state.on_records = records_changed
        self.routes = RouteService(name, objects.attrs, subscriptions, route_defs, mqi.put_to_qmgr, ids.next_id)
        self.route_forwarding = RouteForwarding(self.routes, publisher, mqi.put_to_qmgr)
        self.routes.link_ok = self._link_ok
        self.routes.lookup = self._ask_cluster
        proxies_watch = subscriptions.watch
        assert proxies_watch is not None

        def watch(sub: Subscription, added: bool) -> None:  # proxies to neighbours, interest to routes
            proxies_watch(sub, added)
            self.routes.local_changed(sub, added)

        subscriptions.watch = watch
        self.queued.neighbours = self._hierarchy_neighbours  # a global DeletePub goes to them too
        self.queued.send_delete = self._send_delete
        pubsub_admin.proxy_subscriptions = self._proxies_and_internal
        admin.on_change = self._definitions_changed

        # The state the server, MQSC and tests read, shared with the services (never replaced).
        self.attrs: dict[str, Any] = objects.attrs
        self.qdefs: dict[str, tuple[str, dict[str, Any]]] = objects.qdefs
        self.queues: dict[str, LocalQueue] = objects.queues
        self.connections = connections
        self.waiting: set[Waiter] = waiting.waiting
        self.getters = waiting
        self.tree: TopicTree = subscriptions.tree
        self.sub_index: SubscriptionIndex[Subscription] = subscriptions.sub_index
        self.subs_by_id: dict[bytes, Subscription] = subscriptions.subs_by_id
        self.subs_by_name: dict[str, list[Subscription]] = subscriptions.subs_by_name
        self.managed_queues: dict[str, Subscription] = subscriptions.managed_queues
        self.channels: dict[str, dict[str, Any]] = channels.channels

        # The calls, bound once. Effects:
        self.take_effects = outbox.take_effects
        self.take_deliveries = outbox.take_deliveries
        self.on_durable = outbox.on_durable
        self.on_durable_many = outbox.on_durable_many
        # MQI:
        self.connect = mqi.connect
        self.disconnect = mqi.disconnect
        self.open = mqi.open
        self.close = mqi.close
        self.put = mqi.put
        self.put1 = mqi.put1
        self.inquire = mqi.inquire
        self.set = mqi.set
        self.get = gets.get
        self.browse_batch = gets.browse_batch
        self.grant_credit = gets.grant_credit
        self.cancel_wait = gets.cancel_wait
        self.sweep_expired = gets.sweep_expired
        self.tick = self.performance_events.ticker(waiting.time_out)  # and service interval events due
        self.commit = syncpoint.commit
        self.backout = syncpoint.backout
        self.dead_letter = syncpoint.dead_letter
        self.subscribe = subscriber.subscribe
        self.request_update = subscriber.request_update
        self.remove_subscription = subscriptions.remove
        self.resolve_topic = subscriptions.resolve_topic
        self.pubsub_tick = subscriptions.tick
        # Offsets for stream readers:
        self.queue_offsets = ranges.queue_offsets
        self.browse_range = ranges.browse_range
        self.remove_through = ranges.remove_through
        self.remove_entry = ranges.remove_entry
        # Publish exit:
        self.set_publish_exit = delivery.set_publish_exit
        self.inhibit_pubsub = delivery.inhibit_pubsub
        # Administration (mqsc.commands.AdminAPI and ChannelAdmin):
        self.define = admin.define
        self.refresh_config = admin.refresh_config  # REFRESH QMGR TYPE(CONFIGEV)
        self.delete = admin.delete
        self.objects = self._objects
        # DISPLAY QMSTATUS beyond QMNAME and STATUS: what the server adds (CMDSERV, the command server's)
        self.status_extras: Callable[[], dict[str, Any]] = dict
        self.clear_queue = objects.clear_queue
        self.reset_queue_stats = objects.reset_queue_stats
        # Statistics (core.statistics): the counters' readers' API and the STATQ/STATMQI/STATCHL writer.
        self.statistics = Statistics(objects.queues)
        self.statistics_writer = StatisticsWriter(name, objects.attrs, objects.queues, objects.qdefs, channels.channels,
                                                  self.statistics, outbox, gets.deliver, ids.next_id, clock)
        self.reset_statistics = self.statistics_writer.reset
        self.queue_status = admin.queue_status
        self.connection_status = admin.connection_status
        self.stop_connection = admin.stop_connection
        self.sub_status_rows = pubsub_admin.sub_status_rows
        self.topic_status_rows = pubsub_admin.topic_status_rows
        self.clear_retained = publisher.clear_retained
        self.delete_sub = pubsub_admin.delete_sub
        self.define_sub = pubsub_admin.define_sub
        self.alter_sub = pubsub_admin.alter_sub
        self.start_listener = listeners.start
        self.stop_listener = listeners.stop
        self.listener_status = listeners.status_rows
        self.listeners_to_start = listeners.to_start
        self.start_channel = channels.start_channel
        self.stop_channel = channels.stop_channel
        self.channel_status = channels.channel_status
        self.channels_to_start = channels.channels_to_start
        self.define_channel = channels.define_channel
        self.alter_channel = channels.alter_channel
        self.svrconn = channels.svrconn
        self.refresh_connauth = authinfos.refresh
        self.refresh_authorities = self.security.refresh
        # REFRESH SECURITY TYPE(SSL): the key repository is the server's (server.tls.ServerTls
        # puts its refresh here); a queue manager without TLS has nothing to reread.
        self.refresh_ssl: Callable[[], None] = _nothing
        # Authority records (mqsc.security.SecurityAdmin; unchecked: admin_for checks the caller):
        self.set_authority = security.set_authority
        self.delete_authority = security.delete_authority
        self.authority_records = security.records
        self.entity_authority = security.held
        self.principal_of = security.principal_of
        # Start-up:
        self.restore = admin.restore
        self.restore_message = objects.restore_message
        self.restore_pubsub = subscriptions.restore
        self.restore_security = self.security.restore
        self.restore_chlauth = chlauth.restore
        # Channel authentication (mqsc.commands.ChlauthAdmin) and the check at connect:
        self.set_chlauth = chlauth.set_record
        self.chlauth_rows = chlauth.rows
        self.chlauth_runcheck = chlauth.runcheck
        self.check_channel = chlauth.check
        self.blocked_address = chlauth.blocked_address

    # -- settings the server makes after construction ----------------------------------
    @property
    def duplicates(self) -> DuplicateWindow | None:
        """The duplicate-MsgId window (qm.ini ``Mqlite: DuplicateWindow=SECONDS``), or None."""
        return self.puts.duplicates

    @duplicates.setter
    def duplicates(self, window: DuplicateWindow | None) -> None:
        self.puts.duplicates = window

    @property
    def channel_agent(self) -> ChannelAgent | None:
        """What runs channels: the server's agent, or None (START CHANNEL then fails)."""
        return self.channel_service.agent

    @channel_agent.setter
    def channel_agent(self, agent: ChannelAgent | None) -> None:
        self.channel_service.agent = agent

    @property
    def listener_agent(self) -> ListenerAgent | None:
        """What opens the listeners' ports: the server's, or None (START LISTENER then fails)."""
        return self.listener_service.agent

    @listener_agent.setter
    def listener_agent(self, agent: ListenerAgent | None) -> None:
        self.listener_service.agent = agent

    @property
    def publish_exit(self) -> PublishExit | None:
        return self.delivery.publish_exit

    @property
    def publish_exit_error(self) -> MQError | None:
        return self.delivery.publish_exit_error

    @property
    def quiescing(self) -> bool:
        return self.mqi.quiescing

    # -- calls that span services -------------------------------------------------------
    def refresh_expiry(self, generic: str = "*") -> int:
        """REFRESH QMGR TYPE(EXPIRY): the expired messages of the queues ``generic`` matches, now."""
        return int(self.sweep_expired(self.clock(), generic))

    def admin_for(self, principal: Principal, remote: bool = False, origin: int = C.MQEVO_CONSOLE) -> CheckedAdmin:
        """The admin API as ``principal`` may use it (MQSC runs through this). Over a client
        connection (``remote``) only administrators may administer at all. ``origin``: how the
        commands came, for configuration events (MQEVO_MSG from the command server)."""
        if remote and not self.security.is_admin(principal):
            raise MQError(C.MQRC_NOT_AUTHORIZED, f"AMQ8077W: Entity '{principal.user}' may not administer "
                          f"queue manager {self.name} remotely: remote administration is for administrators")
        return CheckedAdmin(principal, self.security, self, on_refused=self.access.command_refused, origin=origin)

    def reset_channel(self, name: str, chltype: str | None = None, seqnum: int = 1) -> None:
        """RESET CHANNEL SEQNUM(n) of a message channel that is not running: a sender tells its
        partner the new number at its next start."""
        attrs = self._message_channel_at_rest(name, chltype)
        self.transfer.reset(name, attrs["CHLTYPE"] in SENDING_TYPES, seqnum, int(attrs.get("SEQWRAP", 999_999_999)))

    def resolve_channel(self, name: str, action: str, chltype: str | None = None) -> None:
        """RESOLVE CHANNEL ACTION(COMMIT|BACKOUT): settle a stopped sender's batch in doubt by hand."""
        attrs = self._message_channel_at_rest(name, chltype)
        if attrs["CHLTYPE"] not in SENDING_TYPES:
            raise MQError(C.MQRCCF_CHANNEL_TYPE_ERROR, f"RESOLVE CHANNEL is for sending channels; {name} is "
                          f"{attrs['CHLTYPE']}")
        if action.upper() not in ("COMMIT", "BACKOUT"):
            raise MQError(C.MQRCCF_ACTION_VALUE_ERROR, f"ACTION({action}) must be COMMIT or BACKOUT")
        self.transfer.resolve_by_command(name, str(attrs.get("XMITQ", "")), action.upper() == "COMMIT")

    def ping_check(self, name: str, chltype: str | None = None) -> dict[str, Any]:
        """PING CHANNEL of a sending channel (SDR, SVR) that is not running (stopped, inactive, or
        RETRYING: IBM's "valid if the channel is stopped or in retry mode") and has a CONNAME: its
        attributes, for the server to dial with."""
        attrs = self._message_channel_at_rest(name, chltype, retrying=True)
        if attrs["CHLTYPE"] not in ("SDR", "SVR"):
            raise MQError(C.MQRCCF_CHANNEL_TYPE_ERROR, f"PING CHANNEL is for sending channels; {name} is "
                          f"{attrs['CHLTYPE']}")
        if not str(attrs.get("CONNAME") or "").strip():
            raise MQError(C.MQRCCF_CONFIGURATION_ERROR, f"channel {name} has no CONNAME to ping")
        return dict(attrs)

    def _message_channel_at_rest(self, name: str, chltype: str | None, retrying: bool = False) -> dict[str, Any]:
        attrs = self.channels.get(name)
        if attrs is None:
            raise MQError(C.MQRC_UNKNOWN_OBJECT_NAME, f"channel {name} not found")
        if attrs["CHLTYPE"] not in MESSAGE_TYPES or chltype not in (None, attrs["CHLTYPE"]):
            raise MQError(C.MQRCCF_CHANNEL_TYPE_ERROR, f"channel {name} is of type {attrs['CHLTYPE']}")
        agent = self.channel_agent
        if agent is not None and agent.running(name) and not (
                retrying and self.channel_service.state(name) == "RETRYING"):
            raise MQError(C.MQRCCF_CHANNEL_IN_USE, f"channel {name} is running: stop it first")
        return attrs

    def alter(self, objtype: str, name: str, attrs: dict[str, Any]) -> None:
        """ALTER: PARENT may not name this queue manager itself (B:R-HIE-6 item 7, SC-58)."""
        if objtype.upper() == "QMGR" and "PARENT" in attrs:
            self.dist_pubsub.check_parent(str(attrs["PARENT"] or ""))
        self.admin.alter(objtype, name, attrs)

    # -- distributed publish/subscribe (mqsc) ---------------------------------------------
    def pubsub_status(self, status_type: str = "ALL") -> list[dict[str, Any]]:
        """DISPLAY PUBSUB TYPE(ALL|LOCAL|PARENT|CHILD): this queue manager's engine first, then its
        hierarchy relations (B:R-DSP-1); none of the type: not found (AMQ8147)."""
        status_type = status_type.upper()
        if status_type not in ("ALL", "LOCAL", "PARENT", "CHILD"):
            raise MQError(C.MQRC_OPTIONS_ERROR, f"TYPE({status_type}) must be ALL, LOCAL, PARENT or CHILD")
        rows = [*self.pubsub_admin.pubsub_status(), *self.dist_pubsub.status_rows()]
        if self.dist_pubsub.state_unavailable:  # SYSTEM.HIERARCHY.STATE refused at start (B:R-ERR-2, A-40)
            rows[0]["STATUS"] = "COMPAT"
        rows = [row for row in rows if status_type in ("ALL", row["TYPE"])]
        if not rows:
            raise MQError(C.MQRC_UNKNOWN_OBJECT_NAME, f"no {status_type} publish/subscribe relation")
        return rows

    def refresh_proxies(self) -> None:
        """REFRESH QMGR TYPE(PROXYSUB): resynchronise proxy subscriptions with every neighbour."""
        self.dist_pubsub.refresh()

    # -- the cluster verbs (mqsc.cluster) ------------------------------------------------
    def suspend_cluster(self, cluster: str, namelist: str, suspended: bool, mode: str = "QUIESCE") -> None:
        """SUSPEND (RESUME) QMGR CLUSTER|CLUSNL: the other members avoid (use again) this one;
        MODE(FORCE) also stops this queue manager's cluster channels."""
        clusters = [cluster] if cluster else list(self.namelist_service.names(namelist))
        self.cluster_state.suspend(clusters, suspended)
        agent = self.channel_agent
        if mode == "FORCE" and agent is not None:
            for name, attrs in list(self.channels.items()):
                if attrs["CHLTYPE"] in ("CLUSSDR", "CLUSRCVR") and agent.running(name):
                    agent.stop(name, None, "FORCE")

    def refresh_cluster(self, cluster: str, repos: bool) -> int:
        """REFRESH CLUSTER(generic) REPOS(NO|YES): forget what others said of the cluster and
        learn it again (A-21); REPOS(YES) forgets the full repositories too (not at one)."""
        clusters = [c for c in sorted(self.cluster_state.member_of()) if attributes.generic_match(cluster, c)]
        if repos and any(c in self.cluster_state.full_for() for c in clusters):
            raise MQError(C.MQRCCF_REPOS_NAME_CONFLICT, "REPOS(YES) is for a partial repository of the cluster")
        dropped = sum(self.cluster_state.refresh(c, forget_full=repos) for c in clusters)
        self.cluster.sync_senders()
        self.dist_pubsub.cluster_changed([])  # what was dropped is learnt again;
        self.dist_pubsub.refresh()  # the proxies are resynchronised (B:R-PXY-12, A-21)
        return dropped

    def reset_cluster(self, cluster: str, qmname: str, qmid: str, queues: bool) -> int:
        """RESET CLUSTER ACTION(FORCEREMOVE): a full repository forgets a member and tells the
        cluster (IBM: for a queue manager deleted without leaving first)."""
        if cluster not in self.cluster_state.full_for():
            raise MQError(C.MQRCCF_REPOS_NAME_CONFLICT, f"this queue manager is not a full repository of {cluster}")
        if not qmname:
            found = [r.owner for r in self.cluster_state.live("QMGR", cluster=cluster) if r.attrs.get("QMID") == qmid]
            if not found:
                raise MQError(C.MQRC_UNKNOWN_OBJECT_NAME, f"no member of {cluster} has QMID {qmid}")
            qmname = found[0]
        removed = self.cluster_state.force_remove(cluster, qmname)
        self.cluster.sync_senders()
        return removed

    def switch_channels(self, generic: str, query: bool, move: bool) -> list[dict[str, Any]]:
        """runswchl: the cluster-senders matching ``generic`` whose transmission queue the
        configuration changed switch now when at rest (``query``: only say which would)."""
        agent = self.channel_agent
        rows = []
        for name, attrs in sorted(self.channels.items()):
            if attrs["CHLTYPE"] != "CLUSSDR" or not attributes.generic_match(generic, name):
                continue
            if not attrs.get("_AUTODEF") and not self.cluster_state.clusters_of(attrs):
                continue
            switch = self.cluster.associations.pending(name)
            row: dict[str, Any] = {"CHANNEL": name, "XMITQ": self.cluster.xmitq_of(name).name}
            if switch is None:
                rows.append({**row, "STATE": "NOT_NEEDED"})
                continue
            row.update(NEWXMITQ=switch.new, MESSAGES=switch.waiting)
            if agent is not None and agent.running(name):
                rows.append({**row, "STATE": "RUNNING"})
            elif query:
                rows.append({**row, "STATE": "PENDING"})
            else:
                in_doubt = bool(self.transfer.state(sender_key(name)).indoubt)
                done = self.cluster.associations.switch(name, move=move, in_doubt=in_doubt)
                rows.append({**row, "STATE": "SWITCHED" if done else "PENDING",
                             "MESSAGES": switch.waiting if move else 0})
        return rows

    def _objects(self, objtype: str, generic: str) -> list[dict[str, Any]]:
        """DISPLAY's rows: the definitions, and what the clusters' repository shows."""
        objtype = objtype.upper()
        if objtype == "QMSTATUS":
            return [{"QMNAME": self.name, "STATUS": "QUIESCING" if self.quiescing else "RUNNING",
                     **self.status_extras()}]
        if objtype in ("QCLUSTER", "CLUSQMGR"):
            if objtype == "QCLUSTER":
                rows = cluster_rows.qcluster_rows(self.cluster_state, generic)
            else:
                rows = cluster_rows.clusqmgr_rows(self.cluster_state, self.channels, self.channel_service.state,
                                                  generic)
            if not rows and "*" not in generic:
                raise MQError(C.MQRC_UNKNOWN_OBJECT_NAME, f"{objtype} {generic} not found")
            return rows
        rows = self.admin.objects_of(objtype, generic)
        if objtype == "SUB":  # and the proxy subscriptions neighbours hold here (MQSC filters by SUBTYPE)
            rows += [self.pubsub_admin.sub_attrs(sub) for sub in self._proxies_and_internal()
                     if attributes.generic_match(generic or "*", sub.name)]
        return rows

    def _proxies_and_internal(self) -> list[Subscription]:
        """The proxy subscriptions neighbours hold here and the routes' internal subscriptions."""
        return [*self.dist_pubsub.proxy_subscriptions(), *self.routes.internal_subscriptions()]

    def _link_ok(self, qmgr: str) -> bool:
        """Whether the way to ``qmgr`` works now: its transmission queue's sending channel (or
        its cluster-sender) is neither retrying nor stopped."""
        xmitq = self.mqi.xmitq_to(qmgr)
        if xmitq is None:
            return False
        if not xmitq:
            return self.cluster.reachable(qmgr)
        return any(self.channel_service.state(name) not in ("RETRYING", "STOPPED")
                   for name in self.channel_service.senders_of(xmitq))

    def _ask_cluster(self, qmgr: str) -> None:
        """A route's peer not known here: the cluster's full repositories are asked about it."""
        self.cluster_state.query("QMGR", qmgr)

    def route_status(self, generic: str) -> list[dict[str, Any]]:
        return self.routes.status_rows(generic)

    def _hierarchy_neighbours(self) -> list[str]:
        """The queue managers a global DeletePub reaches: the hierarchy's active relations."""
        service = self.dist_pubsub
        return sorted(service.hierarchy.neighbours()) if service.hierarchy_enabled else []

    def _send_delete(self, conn: Connection, qmgr: str, topic: str, user: str) -> None:
        """A DeletePub with DelOpt Local to ``qmgr``'s default stream (D §8 DECISION), as ``user``
        (the command's, whose authority decides there too): its queued interface deletes the
        retained publication of ``topic`` there, and nowhere further."""
        data = queued_publication.delete_command(topic)
        md = MessageDescriptor(Format=C.MQFMT_RF_HEADER_2, MsgType=C.MQMT_DATAGRAM, UserIdentifier=user[:12],
                               PutApplType=C.MQAT_BROKER, PutApplName=self.name[:28])
        try:
            options = C.MQPMO_SYNCPOINT | C.MQPMO_NEW_MSG_ID | C.MQPMO_SET_ALL_CONTEXT
            self.mqi.put_to_qmgr(conn, qmgr, DEFAULT_STREAM, md, options, {}, data)
        except MQError as error:
            log.warning("AMQ5818W: DeletePub of %s not sent to %s (%d)", topic, qmgr, error.reason)

    def _definitions_changed(self, objtype: str, name: str) -> None:
        """A DEFINE, ALTER or DELETE: what this queue manager publishes to its clusters, and the
        proxy subscriptions it sends its neighbours, follow."""
        if objtype in ("TOPIC", "ROUTE"):
            self.routes.definitions_changed()  # GLOBAL, the routes themselves (B §23)
        if objtype == "QMGR" or (objtype == "NAMELIST" and name in (STREAM_NAMELIST, SUBPOINT_NAMELIST)):
            self.queued.reload()  # R-NL-1: the namelists are read again when altered
            self.on_queued_change()
        if objtype == "TOPIC":
            self.cluster_state.changed()  # a cluster topic object is published (B:R-CTD-2)
            self.dist_pubsub.reevaluate()
        elif objtype == "QMGR":
            parent = str(self.attrs.get("PARENT") or "").strip()
            relation = self.dist_pubsub.hierarchy.parent
            if parent != (relation.name if relation is not None else ""):
                self.dist_pubsub.set_parent(parent)
            self.dist_pubsub.reevaluate()  # PSMODE may have changed too
        if objtype in ("QLOCAL", "QALIAS", "QREMOTE", "QUEUE", "QMODEL"):
            self.cluster_state.changed(queue=name)
        elif objtype in ("CHANNEL", "QMGR", "NAMELIST"):
            self.cluster_state.changed()
            self.cluster.sync_senders()
            if objtype == "CHANNEL" and self.channels.get(name, {}).get("CHLTYPE") == "CLUSSDR":
                self.cluster_state.join_all()  # a new way to a full repository

    def bootstrap(self) -> None:
        """First start: the system objects and IBM's default channel authentication records."""
        self.admin.bootstrap()
        self.chlauth.bootstrap()

    def quiesce(self) -> None:
        """A controlled end began: refuse new connections and wake every waiting MQGET (2161)."""
        self.mqi.quiescing = True
        for queue in self.queues.values():
            if queue.waiters:
                self.waiting_getters.fail(queue, C.MQRC_Q_MGR_QUIESCING, "the queue manager is ending")

    def fail_waiters(self, queue: LocalQueue, reason: int, text: str, through: dict[str, Any] | None = None) -> None:
        self.waiting_getters.fail(queue, reason, text, through)


__all__ = ["Connection", "Effects", "ExitFunction", "GetResult", "Handle", "QueueManager", "TruncatedError"]


def _nothing() -> None:
    """REFRESH SECURITY TYPE(SSL) before the server attached its TLS."""
