"""Messages into the cluster: cluster queue handles, the workload choice at each put, the cluster
transmission queues and the cluster-senders that empty them.

- MQOPEN of a name with no local definition finds the cluster queue's instances in the cache
  (B:R-CLQ-2, R-CLQ-4); none known at a partial repository: the caller asks the full
  repositories (``ClusterLookup``, 2085) and opens again once they answered.
- Each put (or the MQOPEN, bound on open) chooses an instance (``workload.choose``, with the
  channel states the channel agent reports) and goes onto the cluster transmission queue of the
  cluster-sender to the chosen queue manager (``xmitq_rules.select``) with an MQXQH for the
  instance; the transmission message's CorrelId names the channel, so several channels can
  share SYSTEM.CLUSTER.TRANSMIT.QUEUE and each gets only its own (IBM does the same).
- The cluster-senders are the partners' published cluster-receivers (``auto_senders``), kept in
  the channel table (not persisted, not shown by DISPLAY CHANNEL: DISPLAY CLUSQMGR shows them)
  and started when a message waits for them (``wanted``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from mqlite import cmqc as C
from mqlite.core.channels import Channels
from mqlite.core.errors import ClusterLookup, MQError
from mqlite.core.handles import Connection, Handle
from mqlite.core.mqput import Puts
from mqlite.core.network.clusters import binding, workload
from mqlite.core.network.clusters import xmitq as xmitq_rules
from mqlite.core.network.clusters.protocol import FORMAT, ClusterMessage, encode
from mqlite.core.network.clusters.repository import ClusterRecord
from mqlite.core.network.clusters.service import ClusterState
from mqlite.core.network.clusters.switch import Associations, move_entry
from mqlite.core.objects import ObjectDefinitions
from mqlite.core.queues import Entry, LocalQueue
from mqlite.message import NOT_FIXED_PROPERTY, Message, MessageDescriptor
from mqlite.protocol import xqh

__all__ = ["COMMAND_QUEUE", "ClusterBinding", "ClusterRouting", "channel_correl"]

COMMAND_QUEUE = "SYSTEM.CLUSTER.COMMAND.QUEUE"
LOOKUP_AGAIN = 60.0  # seconds an MQOPEN's question to the full repositories is not asked again
REALLOCATE_AGAIN = 10.0  # seconds before a RETRYING channel's waiting messages are looked at again
_OPEN_OPTIONS = (C.MQOO_OUTPUT | C.MQOO_INQUIRE | C.MQOO_FAIL_IF_QUIESCING | C.MQOO_BIND_ON_OPEN
                 | C.MQOO_BIND_NOT_FIXED | C.MQOO_BIND_ON_GROUP | C.MQOO_PASS_IDENTITY_CONTEXT
                 | C.MQOO_PASS_ALL_CONTEXT | C.MQOO_SET_IDENTITY_CONTEXT | C.MQOO_SET_ALL_CONTEXT
                 | C.MQOO_ALTERNATE_USER_AUTHORITY)


def channel_correl(channel: str) -> bytes:
    """The CorrelId of a transmission message for cluster-sender ``channel`` (24 bytes)."""
    return b"CLUS" + channel.encode()[:20].ljust(20, b" ")


# the candidates of a cluster queue in each combination of their channels' states
_ByStates = dict[tuple[workload.ChannelState, ...], list[workload.Destination]]


@dataclass(frozen=True, slots=True)
class _Aim:
    """Where a handle aimed at one instance sends its messages, and the MQXQH they carry."""

    channel: str
    xmitq_for: tuple[str, str]  # (remote queue, remote queue manager) of the MQXQH
    correl: bytes  # the transmission messages' CorrelId: the channel's
    attrs: dict[str, Any] | None  # the instance's attributes (none for a remote definition's)
    chosen: dict[str, Any]  # ClusterBinding.chosen


@dataclass
class ClusterBinding:
    """A cluster queue handle's state: the queue, its binding, and a queue manager named in the
    object descriptor (then only that instance)."""

    queue: str
    bound: binding.Bound
    qmgr: str = ""
    local_attrs: dict[str, Any] | None = None  # CLWLUSEQ(ANY): this queue manager's instance takes part
    chosen: dict[str, Any] = field(default_factory=dict)


class ClusterRouting:
    """The cluster queues' MQOPEN and MQPUT, the repository messages' way out, the auto-defined
    cluster-senders."""

    def __init__(self, state: ClusterState, objects: ObjectDefinitions, channels: Channels, puts: Puts,
                 clock: Callable[[], float]) -> None:
        self.state = state
        self.objects = objects
        self.channels = channels
        self.puts = puts
        self.clock = clock
        self.history = workload.History()
        self.conn = Connection("CLUSTER", "mqm", "amqrrmfa")  # the repository manager's own puts
        self._hosts_asked: set[str] = set()  # queue managers asked about once (their records)
        self._looked_up: dict[tuple[str, str], float] = {}  # (kind, name) -> when an MQOPEN last asked
        self._instances: dict[str, tuple[int, list[ClusterRecord]]] = {}  # by the state's generation
        self._channels: dict[str, tuple[int, str]] = {}  # queue manager -> its cluster-sender, likewise
        self._candidates: dict[tuple[str, str, bool], tuple[int, list[workload.Destination], _ByStates]] = {}
        self._aims: dict[tuple[str, str, str], tuple[int, _Aim]] = {}
        self.wanted: set[str] = set()  # cluster-senders with a message waiting since the last look
        self._reallocated: dict[str, float] = {}  # RETRYING cluster-sender -> when its messages were looked at
        self.on_wanted: Callable[[str], None] = lambda channel: None  # start it now (the channel agent)
        state.send = self.send
        state.on_records = self._records_changed
        self.associations = Associations(objects, state.outbox, clock, self.selected_xmitq, channel_correl,
                                         puts.deliver)

    # -- the cluster-senders ------------------------------------------------------------------
    def _records_changed(self, records: list[ClusterRecord]) -> None:
        if any(r.kind == "QMGR" for r in records):
            self.sync_senders()

    def sync_senders(self) -> None:
        """The auto-defined cluster-senders follow the members' published cluster-receivers."""
        table = self.channels.channels
        wanted = self.state.auto_senders()
        for name in [n for n, attrs in table.items() if attrs.get("_AUTODEF") and n not in wanted]:
            del table[name]
        for name, attrs in wanted.items():
            held = table.get(name)
            if held is None:
                table[name] = attrs
            elif held.get("_AUTODEF"):
                held.update(attrs)
            else:  # a manual CLUSSDR of that name: it is the channel, learning its partner (CLUSSDRB)
                held["_RQMNAME"] = attrs["_RQMNAME"]
                held["_AUTOTOO"] = True

    def channel_to(self, qmgr: str) -> str:
        """The cluster-sender to queue manager ``qmgr``: named after its cluster-receiver."""
        cached = self._channels.get(qmgr)
        if cached is not None and cached[0] == self.state.generation:
            return cached[1]
        record = self.state.qmgr_record(qmgr, self.state.clusters())
        if record is None:
            raise MQError(C.MQRC_UNKNOWN_REMOTE_Q_MGR, f"queue manager {qmgr} is not known in a cluster of this one")
        channel = str(record.attrs.get("CHANNEL") or "")
        self._channels[qmgr] = (self.state.generation, channel)
        return channel

    def xmitq_of(self, channel: str) -> LocalQueue:
        """The cluster transmission queue ``channel``'s messages go to now (its association)."""
        return self.associations.queue_for(channel)

    def selected_xmitq(self, channel: str) -> LocalQueue:
        """The cluster transmission queue the configuration selects for ``channel`` (made from the
        model with DEFCLXQ(CHANNEL)); it becomes the channel's at its next start (a switch)."""
        clchnames = {name: str(attrs.get("CLCHNAME") or "") for name, (qtype, attrs) in self.objects.qdefs.items()
                     if qtype == "QLOCAL" and attrs.get("USAGE") == "XMITQ" and attrs.get("CLCHNAME")
                     and not name.startswith(xmitq_rules.DYNAMIC_PREFIX)}
        choice = xmitq_rules.select(channel, clchnames, str(self.objects.attrs.get("DEFCLXQ", "SCTQ")))
        queue = self.objects.queues.get(choice.queue)
        if queue is None and choice.create_from_model:
            model = self.objects.qdefs.get(xmitq_rules.MODEL_QUEUE)
            if model is None:
                raise MQError(C.MQRC_UNKNOWN_OBJECT_NAME, f"{xmitq_rules.MODEL_QUEUE} is not defined")
            self.objects.create_dynamic({**model[1], "CLCHNAME": channel}, choice.queue)
            queue = self.objects.queues[choice.queue]
        if queue is None:
            raise MQError(C.MQRC_UNKNOWN_XMIT_Q, f"cluster transmission queue {choice.queue} is not defined")
        return queue

    def waiting_for(self, channel: str) -> bool:
        """Whether a message waits for cluster-sender ``channel`` (on its transmission queue, or on
        SYSTEM.CLUSTER.TRANSMIT.QUEUE from before a change of association)."""
        correl = channel_correl(channel)
        now = self.clock()
        queues = {self.xmitq_of(channel), self.objects.queues.get(xmitq_rules.DEFAULT_XMITQ)}
        return any(q is not None and q.depth and q.find_match(now, [], None, correl) is not None for q in queues)

    def is_cluster_xmitq(self, name: str, attrs: dict[str, Any]) -> bool:
        """Applications may not put to a cluster transmission queue (B:R-CLQ-6, A-50)."""
        return name == xmitq_rules.DEFAULT_XMITQ or (attrs.get("USAGE") == "XMITQ" and bool(attrs.get("CLCHNAME")))

    # -- repository messages out ------------------------------------------------------------------
    def send(self, target: str, cluster: str, message: ClusterMessage, via: str) -> None:
        """A repository message to ``target``'s SYSTEM.CLUSTER.COMMAND.QUEUE (``via`` a manual
        cluster-sender, to whoever is at its other end, when ``target`` is blank)."""
        try:
            channel = via or self.channel_to(target)
            md = MessageDescriptor(Format=FORMAT, Persistence=C.MQPER_PERSISTENT)
            self._enqueue(channel, target, COMMAND_QUEUE, md, encode(message), C.MQPMO_NO_SYNCPOINT)
        except MQError as error:  # one member out of reach stops nothing else
            self.state.log.append(f"AMQ9428E: repository message to {target or via} for cluster {cluster} not "
                                  f"sent: {error.text or error}")

    def _enqueue(self, channel: str, target: str, queue_name: str, md: MessageDescriptor, body: bytes,
                 options: int) -> None:
        xmitq = self.xmitq_of(channel)
        handle = Handle(0, xmitq.name, queue_name, C.MQOO_OUTPUT, xmitq)
        handle.xmitq_for = (queue_name, target)
        handle.xmit_correl = channel_correl(channel)
        self.puts.put(self.conn, handle, xmitq, md, options | C.MQPMO_NEW_MSG_ID, {}, body)
        self._want(channel)

    def _want(self, channel: str) -> None:
        if channel not in self.wanted:
            self.wanted.add(channel)
            self.on_wanted(channel)

    # -- cluster queues: MQOPEN and MQPUT ---------------------------------------------------------
    def member(self) -> bool:
        """Whether this queue manager is in any cluster (has a cluster-receiver)."""
        return bool(self.state.clusters())

    def spreads(self, name: str, attrs: dict[str, Any]) -> bool:
        """Whether puts here to local cluster queue ``name`` take part in workload balancing with
        the other instances: CLWLUSEQ(ANY), the queue's or (QMGR) the queue manager's."""
        useq = str(attrs.get("CLWLUSEQ", "QMGR"))
        if useq == "QMGR":
            useq = str(self.objects.attrs.get("CLWLUSEQ", "LOCAL"))
        if useq != "ANY" or not self.state.clusters_of(attrs):
            return False
        if self.instances(name):
            return True
        if self._lookup_due("QUEUE", name):  # the other instances are asked for; meanwhile the local one
            self.state.query("QUEUE", name)
        return False

    def instances(self, queue: str) -> list[ClusterRecord]:
        """The live instances of cluster queue ``queue`` in the clusters this queue manager is in,
        one per hosting queue manager (the newest record when it shares several clusters)."""
        cached = self._instances.get(queue)
        if cached is not None and cached[0] == self.state.generation:
            return cached[1]
        mine = self.state.clusters()
        by_owner: dict[str, ClusterRecord] = {}
        for record in self.state.live("QUEUE", name=queue):
            if record.cluster in mine and record.owner != self.state.name:
                if self.state.qmgr_record(record.owner, [record.cluster]) is None:
                    self._ask_for_host(record.owner)  # no way there known yet: not a candidate
                    continue
                held = by_owner.get(record.owner)
                if held is None or record.stamp > held.stamp:
                    by_owner[record.owner] = record
        found = [by_owner[owner] for owner in sorted(by_owner)]
        if len(self._instances) > 10_000:
            self._instances.clear()
        self._instances[queue] = (self.state.generation, found)
        return found

    def _lookup_due(self, kind: str, name: str) -> bool:
        """Whether an MQOPEN should ask the full repositories about ``name`` (and wait for them):
        not when it asked within LOOKUP_AGAIN seconds (the answer, or its absence, stands; a
        definition made later is pushed to the asker, who is subscribed)."""
        now = self.clock()
        asked = self._looked_up.get((kind, name))
        if asked is not None and now - asked < LOOKUP_AGAIN:
            return False
        self._looked_up[(kind, name)] = now
        if len(self._looked_up) > 10_000:  # forget the oldest half
            for key, _ in sorted(self._looked_up.items(), key=lambda item: item[1])[:5_000]:
                del self._looked_up[key]
        return True

    def _ask_for_host(self, qmgr: str) -> None:
        if qmgr not in self._hosts_asked:
            self._hosts_asked.add(qmgr)
            self.state.query("QMGR", qmgr)

    def open_handle(self, hobj: int, queue: str, options: int, qmgr: str = "",
                    local_attrs: dict[str, Any] | None = None) -> Handle:
        """MQOPEN of cluster queue ``queue`` (at queue manager ``qmgr`` when named)."""
        if options & ~_OPEN_OPTIONS:
            raise MQError(C.MQRC_OPTION_NOT_VALID_FOR_TYPE, "a cluster queue opens for output and inquire")
        found = self.instances(queue)
        if qmgr:
            found = [r for r in found if r.owner == qmgr]
        if not found and local_attrs is None:
            if self._lookup_due("QUEUE", queue):
                raise ClusterLookup(queue)
            raise MQError(C.MQRC_UNKNOWN_OBJECT_NAME, f"queue {queue} is not defined here nor known in a cluster")
        defbind = str((found[0].attrs if found else local_attrs or {}).get("DEFBIND", "OPEN"))
        mode = binding.bind_mode(options, defbind)
        handle = Handle(hobj, xmitq_rules.DEFAULT_XMITQ, queue, options, None)
        handle.cluster = ClusterBinding(queue, binding.Bound(mode), qmgr, local_attrs)
        if mode is binding.Bind.ON_OPEN:
            handle.cluster.bound = binding.at_open(mode, lambda: self._choose(handle.cluster))
            self._aim(handle, handle.cluster.bound.fixed or "")
        return handle

    def route(self, handle: Handle, md: MessageDescriptor) -> LocalQueue:
        """Where this put on a cluster queue handle goes: the handle is aimed at the chosen instance
        (its transmission queue, MQXQH and CorrelId) and that queue returned."""
        state: ClusterBinding = handle.cluster
        if state.bound.mode is binding.Bind.ON_OPEN and handle.queue is not None:
            channel = state.chosen.get("channel")
            if channel:  # its transmission queue may have switched since the last put
                handle.queue = self.xmitq_of(channel)
                self._want(channel)
            return handle.queue
        target, state.bound = binding.at_put(state.bound, md.MsgFlags, lambda: self._choose(state))
        channel = state.chosen.get("channel")
        if channel and state.chosen.get("qmgr") == target and handle.queue is not None:
            handle.queue = self.xmitq_of(channel)  # the same instance as the last put: aimed already
            self._want(channel)
        else:
            self._aim(handle, target)
        handle.xmit_not_fixed = not binding.fixed(state.bound, md.MsgFlags)
        assert handle.queue is not None
        return handle.queue

    # -- messages waiting for a channel that cannot reach its instance ------------------------------
    def reallocate_retrying(self) -> int:
        """Every cluster-sender that is RETRYING: its messages put not fixed are chosen again
        (``reallocate``), when it has just begun retrying and every REALLOCATE_AGAIN seconds after."""
        now = self.clock()
        retrying = [name for name, attrs in self.channels.channels.items()
                    if attrs.get("CHLTYPE") == "CLUSSDR" and self.channels.state(name) == "RETRYING"]
        for name in [n for n in self._reallocated if n not in retrying]:
            del self._reallocated[name]  # running again (or gone): the next retry looks at once
        moved = 0
        for name in retrying:
            if now - self._reallocated.get(name, -REALLOCATE_AGAIN) >= REALLOCATE_AGAIN:
                self._reallocated[name] = now
                moved += self.reallocate(name)
        return moved

    def reallocate(self, channel: str) -> int:
        """The messages waiting for cluster-sender ``channel`` that were put not fixed to their
        instance (MQOO_BIND_NOT_FIXED, a BIND_ON_GROUP message outside a group, MQPUT1) go through
        the workload algorithm again; those it sends elsewhere move, in order, to the chosen
        instance's channel. Bound messages, and a batch in doubt, wait for the channel. (IBM's
        queue manager reallocates so; B's decision A-23 / R-BIND-5 kept them waiting.)"""
        correl = channel_correl(channel)
        moved: dict[str, int] = {}
        targets: dict[str, LocalQueue] = {}
        for source in self.associations.cluster_xmitqs():
            def waiting_not_fixed(entry: Entry, source: LocalQueue = source) -> bool:
                message = source.load(entry)
                return message.md.CorrelId == correl and NOT_FIXED_PROPERTY in message.properties
            for entry in source.available(self.clock(), [], limit=None, accept=waiting_not_fixed):
                message = source.load(entry)
                try:
                    header, data = xqh.unwrap(message.body)
                    target = self._choose(ClusterBinding(header.remote_q_name, binding.Bound(binding.Bind.NOT_FIXED)))
                    if target in (header.remote_q_mgr_name, self.state.name):
                        continue  # no better instance now (this queue manager's own is not a choice here)
                    new_channel = self._channel_of(target)
                except (MQError, ValueError):
                    continue  # its queue or every other instance gone: it waits
                md = message.md.copy()
                md.CorrelId = channel_correl(new_channel)
                body = xqh.wrap(header.remote_q_name, target, header.md, data)
                queue = targets[new_channel] = self.xmitq_of(new_channel)
                move_entry(self.state.outbox, source, entry, queue, Message(md, body, dict(message.properties)))
                moved[new_channel] = moved.get(new_channel, 0) + 1
        for new_channel, count in moved.items():
            self._want(new_channel)
            self.puts.deliver(targets[new_channel])
            # (no AMQ number: IBM's queue manager reallocates without a message in its log)
            self.state.log.append(f"Cluster workload: {count} messages put not fixed and waiting for RETRYING "
                                  f"cluster-sender '{channel}' reallocated to '{new_channel}'")
        return sum(moved.values())

    def _choose(self, state: ClusterBinding) -> str:
        """The workload algorithm over the instances as known now (B:R-BIND-4)."""
        destinations, in_states = self._destinations(state)
        if len(destinations) == 1 and destinations[0].put_enabled:  # one instance: no choice to weigh
            return destinations[0].qmgr
        # the channels' states now: the one thing that changes between puts
        states = tuple(workload.ChannelState.of(self.channels.state(d.channel)) if d.channel else d.state
                       for d in destinations)
        candidates = in_states.get(states)
        if candidates is None:
            if len(in_states) >= 64:  # many instances whose channels come and go: keep few
                in_states.clear()
            candidates = in_states[states] = [d if d.state == now else replace(d, state=now)
                                              for d, now in zip(destinations, states, strict=True)]
        mruc = int(self.objects.attrs.get("CLWLMRUC", workload.MRUC_DEFAULT))
        choice = workload.choose(candidates, self.history, mruc=mruc)
        self.history = choice.history
        return choice.destination.qmgr

    def _destinations(self, state: ClusterBinding) -> tuple[list[workload.Destination], _ByStates]:
        """The candidates as the repository and the channel definitions describe them, made once
        per change of either (the state's generation): MQPUT asks at every message. With them,
        the same candidates in each combination of their channels' states met so far."""
        key = (state.queue, state.qmgr, state.local_attrs is not None)
        cached = self._candidates.get(key)
        if cached is not None and cached[0] == self.state.generation:
            return cached[1], cached[2]
        candidates = []
        for record in self.instances(state.queue):
            if state.qmgr and record.owner != state.qmgr:
                continue
            channel = self._channel_of(record.owner)
            chl = self.channels.channels.get(channel, {})
            qmgr_record = self.state.qmgr_record(record.owner, self.state.clusters())
            suspended = bool(qmgr_record is not None and qmgr_record.attrs.get("SUSPEND"))
            candidates.append(workload.Destination(
                record.owner, put_enabled=record.attrs.get("PUT", "ENABLED") != "DISABLED",
                rank=int(record.attrs.get("CLWLRANK", 0)), priority=int(record.attrs.get("CLWLPRTY", 0)),
                channel=channel, channel_rank=int(chl.get("CLWLRANK", 0)),
                channel_priority=int(chl.get("CLWLPRTY", 0)), channel_weight=int(chl.get("CLWLWGHT", 50)),
                netprty=int(chl.get("NETPRTY", 0)), suspended=suspended))
        if state.local_attrs is not None:
            local = state.local_attrs
            candidates.append(workload.Destination(
                self.state.name, local=True, put_enabled=local.get("PUT", "ENABLED") != "DISABLED",
                rank=int(local.get("CLWLRANK", 0)), priority=int(local.get("CLWLPRTY", 0))))
        if len(self._candidates) > 10_000:
            self._candidates.clear()
        in_states: _ByStates = {}
        self._candidates[key] = (self.state.generation, candidates, in_states)
        return candidates, in_states

    def _aim(self, handle: Handle, target: str, remote_qmgr: str = "") -> None:
        state: ClusterBinding = handle.cluster
        if target == self.state.name:  # CLWLUSEQ(ANY): this queue manager's own instance
            handle.queue = self.objects.queues[state.queue]
            handle.xmitq_for, handle.xmit_correl, handle.alias_attrs = None, None, None
            state.chosen = {"qmgr": target}
            return
        aim = self._aim_at(state.queue, target, remote_qmgr)
        handle.queue = self.xmitq_of(aim.channel)
        handle.name = handle.queue.name
        handle.xmitq_for = aim.xmitq_for
        handle.xmit_correl = aim.correl
        if aim.attrs is not None:  # a remote queue definition's attributes stay (it was opened by it)
            handle.alias_attrs = aim.attrs
        state.chosen = aim.chosen
        self._want(aim.channel)

    def _aim_at(self, queue: str, target: str, remote_qmgr: str) -> _Aim:
        """What a handle aimed at ``target``'s instance of ``queue`` carries, made once per change
        of the repository (a put that alternates between instances aims at every message)."""
        key = (queue, target, remote_qmgr)
        cached = self._aims.get(key)
        if cached is not None and cached[0] == self.state.generation:
            return cached[1]
        channel = self._channel_of(target)
        instance = next((r for r in self.instances(queue) if r.owner == target), None)
        aim = _Aim(channel, (queue, remote_qmgr or target), channel_correl(channel),
                   dict(instance.attrs) if instance is not None and not remote_qmgr else None,
                   {"qmgr": target, "channel": channel})
        if len(self._aims) > 10_000:
            self._aims.clear()
        self._aims[key] = (self.state.generation, aim)
        return aim

    def _channel_of(self, qmgr: str) -> str:
        return self.channel_to(qmgr)

    def reachable(self, qmgr: str) -> bool:
        """Whether cluster member ``qmgr`` can be contacted now: its cluster-sender is neither
        retrying nor stopped (B A-23; the topic hosts' rotation asks, B:R-RTE-10)."""
        try:
            channel = self.channel_to(qmgr)
        except MQError:
            return False
        return self.channels.state(channel) not in ("RETRYING", "STOPPED")

    def route_to_qmgr(self, handle: Handle, target: str, queue: str) -> bool:
        """A queue named at cluster queue manager ``target`` (no transmission queue of its name
        here): through the cluster (B:R-CLQ-5). False when ``target`` is not a cluster member."""
        if not self.member():
            return False
        if self.state.qmgr_record(target, self.state.clusters()) is None:
            gateway = self._gateway_to(target)
            if gateway is None:
                if self._lookup_due("QMGR", target):
                    raise ClusterLookup(target, "QMGR")
                return False
            # a queue-manager alias advertised in the cluster: its host is the gateway to ``target``
            handle.cluster = ClusterBinding(queue, binding.Bound(binding.Bind.ON_OPEN, gateway), target)
            self._aim(handle, gateway, remote_qmgr=target)
            return True
        handle.cluster = ClusterBinding(queue, binding.Bound(binding.Bind.ON_OPEN, target), target)
        self._aim(handle, target)
        return True

    def _gateway_to(self, target: str) -> str | None:
        """The host of a cluster queue-manager alias named ``target`` (a QREMOTE with a blank
        RNAME advertised in the cluster: seed 001's way to queue managers outside it)."""
        aliases = [r for r in self.instances(target) if r.attrs.get("QTYPE") == "QREMOTE"]
        return aliases[0].owner if aliases else None
