"""A queue manager's part in its clusters: what it publishes, what it knows, whom it tells.

The rules are pure and elsewhere (``repository``: merging, forwarding, ageing; ``cluster_channels``:
auto-defined cluster-senders; ``cluster_protocol``: the messages). This service holds the state
(the cached records, the partial repositories subscribed to names at a full repository, the
lookups in flight) and turns events into records and repository messages:

- a local definition changed (``changed``): this queue manager's own records are computed again
  (its membership from each CLUSRCVR, a record per cluster queue); a record that differs gets a
  new stamp and is published to the full repositories of its cluster (B:R-CLU-12);
- a repository message arrived on SYSTEM.CLUSTER.COMMAND.QUEUE (``receive``): records are
  merged and passed on (``repository.forward_to``); a query subscribes its sender and is answered;
- a member with no full repository known yet sends its records through its manually defined
  cluster-senders (addressed to whoever is at the other end, as IBM's first CLUSSDR is).

Messages leave as persistent messages on the cluster transmission queues (``cluster_routing``),
in the caller's store transaction: the repository manager's unit of work that got the message
it answers commits them together.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import Any

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.network.clusters import repository
from mqlite.core.network.clusters.channels import PUBLISHED, auto_sender
from mqlite.core.network.clusters.protocol import ClusterMessage, Publish, Query, Remove
from mqlite.core.network.clusters.repository import ClusterRecord, Key
from mqlite.core.outbox import Outbox

__all__ = ["QUEUE_PUBLISHED", "ClusterState"]

STORE_KIND = "cluster"  # cached records, one store record each
SUBS_KIND = "clussub"  # a full repository's subscriptions, and the clusters this one is suspended from
SUSPENDED_KEY = "SUSPENDED"
# What a cluster queue instance publishes (what its users' queue managers need to choose and put).
QUEUE_PUBLISHED = ("QTYPE", "DEFBIND", "PUT", "CLWLRANK", "CLWLPRTY", "DEFPSIST", "DEFPRTY", "DEFPRESP", "DESCR",
                   "ALTDATE", "ALTTIME")
_QUEUE_TYPES = ("QLOCAL", "QALIAS", "QREMOTE")


def _store_key(key: Key) -> str:
    return "|".join(key)


class ClusterState:
    """The cached records and subscriptions, and how a message or a local change updates them.

    ``send(target, cluster, message)`` (set by the owner) puts a repository message on its way to
    queue manager ``target`` ("" with ``via``: whoever is at the end of that manual channel)."""

    def __init__(self, name: str, qmgr_attrs: dict[str, Any], qdefs: Mapping[str, tuple[str, dict[str, Any]]],
                 channels: Mapping[str, dict[str, Any]], outbox: Outbox, clock: Callable[[], float],
                 namelist: Callable[[str], tuple[str, ...]]) -> None:
        self.name = name
        self.qmgr_attrs = qmgr_attrs
        self.qdefs = qdefs
        self.channels = channels
        self.outbox = outbox
        self.clock = clock
        self.namelist = namelist
        self.cache: dict[Key, ClusterRecord] = {}
        self._by_name: dict[tuple[str, str], dict[Key, ClusterRecord]] = {}  # (kind, name) -> its records
        self._qmgrs: dict[Key, ClusterRecord] = {}  # the QMGR records (memberships)
        # A full repository's subscriptions: cluster -> (kind, name) -> the members that asked.
        self.subscribers: dict[str, dict[tuple[str, str], set[str]]] = {}
        self._counter = 0
        self.send: Callable[[str, str, ClusterMessage, str], None] = lambda target, cluster, message, via: None
        self.topic_objects: Mapping[str, Mapping[str, Any]] = {}  # the local topic objects (name -> attributes)
        self.on_answer: Callable[[str], None] = lambda name: None  # a query's answer arrived
        self.on_records: Callable[[list[ClusterRecord]], None] = lambda records: None  # cache changed
        self.log: list[str] = []  # error-log lines for the server to write (AMQ9xxx)
        self.suspended: set[str] = set()  # SUSPEND QMGR CLUSTER(...)
        self._member_of: frozenset[str] | None = None
        self.generation = 0  # changes with every record kept or dropped (callers cache by it)
        self.default_conname = ""  # this queue manager's address, for a CLUSRCVR without CONNAME

    # -- start-up ------------------------------------------------------------------------------
    def restore(self, records: Mapping[str, dict[str, Any]], subscriptions: Mapping[str, Any]) -> None:
        for value in records.values():
            record = ClusterRecord(value["kind"], value["cluster"], value["name"], value["owner"],
                                   (float(value["stamp"][0]), int(value["stamp"][1])), dict(value["attrs"]),
                                   bool(value["deleted"]), float(value.get("refreshed", 0.0)))
            self._keep(record, persist=False)
            if record.owner == self.name:
                self._counter = max(self._counter, record.stamp[1])
        for key, members in subscriptions.items():
            if key == SUSPENDED_KEY:
                self.suspended = set(members)
                continue
            cluster, kind, name = key.split("|", 2)
            self.subscribers.setdefault(cluster, {})[(kind, name)] = set(members)

    # -- what this queue manager is --------------------------------------------------------------
    def clusters_of(self, attrs: Mapping[str, Any]) -> tuple[str, ...]:
        """The clusters an object names: its CLUSTER, or the names in its CLUSNL namelist."""
        cluster = str(attrs.get("CLUSTER") or "").strip()
        if cluster:
            return (cluster,)
        namelist = str(attrs.get("CLUSNL") or "").strip()
        if not namelist:
            return ()
        try:
            return tuple(n for n in self.namelist(namelist) if n.strip())
        except Exception:  # a namelist deleted under its users: they are in no cluster
            return ()

    def full_for(self) -> set[str]:
        """The clusters this queue manager is a full repository for (REPOS, or REPOSNL's names)."""
        repos = str(self.qmgr_attrs.get("REPOS") or "").strip()
        if repos:
            return {repos}
        return set(self.clusters_of({"CLUSNL": self.qmgr_attrs.get("REPOSNL") or ""}))

    def receivers(self) -> dict[str, tuple[str, dict[str, Any]]]:
        """Cluster -> (the CLUSRCVR that receives its messages here, its attributes)."""
        found: dict[str, tuple[str, dict[str, Any]]] = {}
        for channel, attrs in sorted(self.channels.items()):
            if attrs.get("CHLTYPE") == "CLUSRCVR":
                for cluster in self.clusters_of(attrs):
                    found.setdefault(cluster, (channel, attrs))
        return found

    def member_of(self) -> set[str]:
        """The clusters this queue manager has a cluster-receiver for (kept until a definition
        changes: MQPUT asks at every message)."""
        if self._member_of is None:
            self._member_of = frozenset(self.receivers())
        return set(self._member_of)

    def clusters(self) -> frozenset[str]:
        """``member_of`` without the copy, for the hot paths."""
        if self._member_of is None:
            self._member_of = frozenset(self.receivers())
        return self._member_of

    def full_repositories(self, cluster: str) -> set[str]:
        """The full repositories of ``cluster`` this queue manager knows (itself included)."""
        fulls = {r.owner for r in self.live("QMGR", cluster=cluster) if r.attrs.get("REPOS")}
        if cluster in self.full_for() and cluster in self.member_of():
            fulls.add(self.name)
        return fulls

    def live(self, kind: str, name: str | None = None, cluster: str | None = None) -> list[ClusterRecord]:
        """The records of ``kind`` (and ``name``, ``cluster``) that are not withdrawals."""
        if name is not None:
            pool: Iterable[ClusterRecord] = self._by_name.get((kind, name), {}).values()
        elif kind == "QMGR":
            pool = self._qmgrs.values()
        else:
            pool = self.cache.values()
        return sorted((r for r in pool if r.kind == kind and not r.deleted
                       and (cluster is None or r.cluster == cluster)),
                      key=lambda r: (r.name, r.owner, r.cluster))

    def qmgr_record(self, qmgr: str, clusters: Iterable[str] | None = None) -> ClusterRecord | None:
        wanted = None if clusters is None else set(clusters)
        found = [r for r in self.live("QMGR", name=qmgr) if wanted is None or r.cluster in wanted]
        return repository.newest(found)

    # -- this queue manager's own records ---------------------------------------------------------
    def own_records(self, queue: str | None = None) -> dict[Key, dict[str, Any]]:
        """What this queue manager publishes now, by key: its membership of each cluster it has a
        CLUSRCVR for, and each of its cluster queues in each cluster it shares (only ``queue``'s
        records when given)."""
        own: dict[Key, dict[str, Any]] = {}
        members = self.receivers()
        if queue is not None:
            return self._queue_records(queue, self.qdefs.get(queue), members)
        fulls = self.full_for()
        for cluster, (channel, attrs) in members.items():
            published = {k: attrs[k] for k in PUBLISHED if k in attrs and k not in ("CLUSTER", "CLUSNL")}
            if not str(published.get("CONNAME") or "").strip():
                published["CONNAME"] = self.default_conname  # IBM fills a blank one in too
            own[("QMGR", cluster, self.name, self.name)] = {
                **published, "CHANNEL": channel, "QMID": str(self.qmgr_attrs.get("QMID") or self.name),
                "REPOS": cluster in fulls, "SUSPEND": cluster in self.suspended,
            }
        for qname, definition in self.qdefs.items():
            own.update(self._queue_records(qname, definition, members))
        for tname, topic in self.topic_objects.items():  # cluster topic objects (B:R-CTD-2)
            cluster = str(topic.get("CLUSTER") or "").strip()
            if cluster in members:
                own[("TOPIC", cluster, tname, self.name)] = {
                    k: v for k, v in topic.items() if not k.startswith("_") and k not in ("CRDATE", "CRTIME")}
        return own

    def _queue_records(self, qname: str, definition: tuple[str, dict[str, Any]] | None,
                       members: Mapping[str, Any]) -> dict[Key, dict[str, Any]]:
        if definition is None or definition[0] not in _QUEUE_TYPES:
            return {}
        qtype, attrs = definition
        return {("QUEUE", cluster, qname, self.name): {"QTYPE": qtype,
                                                         **{k: attrs[k] for k in QUEUE_PUBLISHED if k in attrs}}
                for cluster in self.clusters_of(attrs) if cluster in members}

    def changed(self, queue: str | None = None) -> None:
        """Local definitions changed (only queue ``queue``'s, when given): publish what differs
        from what was published."""
        if queue is None:
            self._member_of = None
        self.generation += 1  # (a local queue's attributes, a channel's: what callers cached)
        now = self.clock()
        own = self.own_records(queue)
        if queue is None:
            published = {key: r for key, r in self.cache.items() if r.owner == self.name}
        else:
            published = {key: r for key, r in self._by_name.get(("QUEUE", queue), {}).items()
                         if r.owner == self.name}
        fresh: list[ClusterRecord] = []
        for key, attrs in own.items():
            held = published.get(key)
            if held is None or held.deleted or dict(held.attrs) != attrs:
                fresh.append(ClusterRecord(*key, stamp=self._stamp(now), attrs=attrs, refreshed=now))
        for key, held in published.items():
            if key not in own and not held.deleted:
                fresh.append(replace(held, stamp=self._stamp(now), deleted=True, refreshed=now))
        if not fresh:
            return
        for record in fresh:
            self._keep(record)
        self._publish_own(fresh)
        self.on_records(fresh)

    def republish(self) -> None:
        """Send every own record again (refresh, A-20; or a newly known full repository)."""
        records = [r for r in self.cache.values() if r.owner == self.name]
        if records:
            self._publish_own(records)

    def _publish_own(self, records: list[ClusterRecord]) -> None:
        by_cluster: dict[str, list[ClusterRecord]] = {}
        for record in records:
            by_cluster.setdefault(record.cluster, []).append(record)
        for cluster, group in sorted(by_cluster.items()):
            fulls = self.full_repositories(cluster) - {self.name}
            if self.name in self.full_repositories(cluster):
                for record in group:  # a full repository tells the others and the subscribers
                    self._forward(record, self.name)
                if any(r.kind == "TOPIC" for r in group):
                    self._share_pubsub(cluster, self._members(cluster))
            elif fulls:
                for target in sorted(fulls):
                    self.send(target, cluster, Publish(self.name, tuple(group)), "")
            else:
                self._join(cluster, group)

    def _join(self, cluster: str, records: list[ClusterRecord]) -> None:
        """No full repository known yet: through each manual cluster-sender of the cluster."""
        own_membership = [r for r in self.cache.values() if r.owner == self.name and r.kind == "QMGR"
                          and r.cluster == cluster]
        payload = tuple({r.key: r for r in (*own_membership, *records)}.values())
        for channel in self._manual_senders(cluster):
            self.send("", cluster, Publish(self.name, payload), channel)

    def join_all(self) -> None:
        """At start and when a manual cluster-sender is defined: make sure the full repositories
        have this queue manager's records (a member knowing none sends them through its manual
        cluster-senders)."""
        for cluster in sorted(self.member_of()):
            records = [r for r in self.cache.values() if r.owner == self.name and r.cluster == cluster]
            if not records:
                continue
            if self.full_repositories(cluster) - {self.name}:
                continue
            self._join(cluster, records)

    # -- repository messages ----------------------------------------------------------------------
    def receive(self, message: ClusterMessage) -> None:
        if isinstance(message, Publish):
            self._publish_received(message)
        elif isinstance(message, Query):
            self._query_received(message)
        elif isinstance(message, Remove):  # from a full repository: our subscribers are told, not the others
            self.force_remove(message.cluster, message.qmgr, tell_full=False)

    def _publish_received(self, message: Publish) -> None:
        now = self.clock()
        changed: list[ClusterRecord] = []
        newly_known_fulls: list[ClusterRecord] = []
        share_all: set[str] = set()  # publish/subscribe clusters whose topics changed (at a full repository)
        newcomers: dict[str, set[str]] = {}  # new members of clusters, likewise
        for record in message.records:
            if record.owner == self.name:
                continue  # our own records come back from nobody but ourselves
            before = self.full_repositories(record.cluster)
            held = self.cache.get(record.key)  # merge one key: the rule needs no more of the cache
            refresh = message.refresh or message.sender == record.owner
            merged = repository.merge({} if held is None else {record.key: held}, record, now, refresh)
            if not merged.changed:
                if refresh and not merged.stale:  # the owner's refresh (A-20): its subscribers' copies too
                    self._keep(merged.cache[record.key], persist=True)
                    self._refresh_subscribers(record, message.sender)
                continue
            self._keep(merged.cache[record.key])
            changed.append(record)
            self._forward(record, message.sender)
            if record.cluster in self.full_for():
                if record.kind == "TOPIC":
                    share_all.add(record.cluster)
                elif record.kind == "QMGR" and not record.deleted and (held is None or held.deleted):
                    newcomers.setdefault(record.cluster, set()).add(record.owner)
            if record.kind == "QMGR" and not record.deleted:
                if held is not None and not held.deleted and held.attrs.get("QMID") != record.attrs.get("QMID"):
                    self.log.append(f"AMQ9875E: Cluster {record.cluster}: queue manager {record.name} has joined "
                                    f"again with QMID {record.attrs.get('QMID')}; QMID {held.attrs.get('QMID')} "
                                    "had that name: RESET CLUSTER ACTION(FORCEREMOVE) QMID(...) the old one")
                if record.cluster in self.full_for() and message.sender == record.owner:
                    self._welcome(record)
                # a full repository new to us, or one that refreshed itself (REFRESH CLUSTER there)
                if record.attrs.get("REPOS") and (record.owner not in before or (
                        message.sender == record.owner and record.cluster in self.full_for())):
                    newly_known_fulls.append(record)
        for full in newly_known_fulls:
            self._meet_full(full)
        for cluster in sorted(share_all):
            self._share_pubsub(cluster, self._members(cluster))
        for cluster, names in sorted(newcomers.items()):
            direct = self._direct(cluster)
            self._share_pubsub(cluster, self._members(cluster) if direct else names)
        if changed:
            self.on_records(changed)
        if message.answer_to:
            self.on_answer(message.answer_to)

    def _refresh_subscribers(self, record: ClusterRecord, sender: str) -> None:
        """An unchanged record from its owner at a full repository: the partial repositories
        subscribed to it get it again (their copies must not age while the owner lives), and a
        member that republished its membership is welcomed (it may have forgotten the full
        repositories: REFRESH CLUSTER REPOS(YES))."""
        if sender != record.owner or record.cluster not in self.full_for():
            return
        members = self.subscribers.get(record.cluster, {}).get((record.kind, record.name), set())
        for target in sorted(members - {self.name, record.owner}):
            self.send(target, record.cluster, Publish(self.name, (record,), refresh=True), "")
        if record.kind == "QMGR" and not record.deleted and not record.attrs.get("REPOS"):
            self._welcome(record)  # never between full repositories: they would welcome each other for ever
            self._share_pubsub(record.cluster, [record.owner])  # its topics and members again (REFRESH CLUSTER, A-21)

    def _meet_full(self, full: ClusterRecord) -> None:
        """A full repository we did not know: it gets our own records; if we are one too, all we
        know of the cluster (full repositories hold everything, whoever heard it first)."""
        if full.cluster in self.full_for() and full.cluster in self.member_of():
            known = tuple(r for r in self.cache.values() if r.cluster == full.cluster and r.owner != full.owner)
            if known:
                self.send(full.owner, full.cluster, Publish(self.name, known), "")
            return
        own = tuple(r for r in self.cache.values() if r.owner == self.name and r.cluster == full.cluster)
        if own:
            self.send(full.owner, full.cluster, Publish(self.name, own), "")

    def _welcome(self, member: ClusterRecord) -> None:
        """A full repository tells a member it heard from of the cluster's full repositories
        (their memberships), and subscribes it to their changes."""
        fulls = [r for r in self.live("QMGR", cluster=member.cluster) if r.attrs.get("REPOS")]
        own = self.cache.get(("QMGR", member.cluster, self.name, self.name))
        if own is not None and not own.deleted:
            fulls.append(own)
        for record in fulls:
            self._subscribe(member.cluster, "QMGR", record.name, member.owner)
        records = tuple(r for r in fulls if r.owner != member.owner)
        if records:
            self.send(member.owner, member.cluster, Publish(self.name, records), "")

    def _query_received(self, query: Query) -> None:
        clusters = [query.cluster] if query.cluster else sorted(self.full_for())
        for cluster in clusters:
            if cluster not in self.full_for() or self.qmgr_record(query.sender, [cluster]) is None:
                continue  # not ours to answer, or we cannot reach the asker in that cluster
            self._subscribe(cluster, query.kind, query.name, query.sender)
            found = self.live(query.kind, name=query.name, cluster=cluster)
            if query.kind == "QMGR" and not found:  # not a member: a queue-manager alias (a gateway) may be
                found = [r for r in self.live("QUEUE", name=query.name, cluster=cluster)
                         if r.attrs.get("QTYPE") == "QREMOTE"]
                self._subscribe(cluster, "QUEUE", query.name, query.sender)
            owners = sorted({r.owner for r in found} - {query.sender})
            hosts = [r for owner in owners if (r := self.qmgr_record(owner, [cluster])) is not None]
            for owner in owners:
                self._subscribe(cluster, "QMGR", owner, query.sender)
            self.send(query.sender, cluster, Publish(self.name, tuple(found + hosts), answer_to=query.name), "")

    # -- publish/subscribe clusters (B §7) ------------------------------------------------------------
    def _members(self, cluster: str) -> set[str]:
        return {r.owner for r in self.live("QMGR", cluster=cluster)} - {self.name}

    def _direct(self, cluster: str) -> bool:
        return any(t.attrs.get("CLROUTE", "DIRECT") != "TOPICHOST" for t in self.live("TOPIC", cluster=cluster))

    def _share_pubsub(self, cluster: str, targets: Iterable[str]) -> None:
        """A full repository pushes a publish/subscribe cluster's topic objects to every member
        (B:R-CTD-2), with the members it must know: all of them when a topic is DIRECT (B:R-CLU-3,
        R-RTE-2), the topic hosts otherwise (a host learns everyone: it serves them, R-RTE-5/6);
        each target is subscribed to what it got, so later changes reach it."""
        topics = self.live("TOPIC", cluster=cluster)
        if not topics:
            return
        direct = self._direct(cluster)
        hosts = {t.owner for t in topics}
        members = self.live("QMGR", cluster=cluster)
        for target in sorted(targets):
            if target == self.name:
                continue
            knows_all = direct or target in hosts
            records = [t for t in topics if t.owner != target]
            records += [m for m in members if m.owner != target and (knows_all or m.owner in hosts)]
            for record in records:
                self._subscribe(cluster, record.kind, record.name, target)
            if records:
                self.send(target, cluster, Publish(self.name, tuple(records)), "")

    def _subscribe(self, cluster: str, kind: str, name: str, member: str) -> None:
        members = self.subscribers.setdefault(cluster, {}).setdefault((kind, name), set())
        if member not in members:
            members.add(member)
            self.outbox.tx.put_record(SUBS_KIND, f"{cluster}|{kind}|{name}", sorted(members))

    def _forward(self, record: ClusterRecord, sender: str) -> None:
        subscribers = self.subscribers.get(record.cluster, {})
        fulls = self.full_repositories(record.cluster)
        for target in sorted(repository.forward_to(record, sender, self.name, fulls, subscribers)):
            self.send(target, record.cluster, Publish(self.name, (record,)), "")

    def query(self, kind: str, name: str) -> int:
        """Ask the full repositories of every cluster this queue manager is in about ``name``;
        how many were asked (0: none known, the caller's 2085 stands)."""
        asked = 0
        for cluster in sorted(self.member_of()):
            if cluster in self.full_for():
                continue  # a full repository knows already
            query = Query(self.name, cluster, kind, name)
            fulls = sorted(self.full_repositories(cluster) - {self.name})
            for target in fulls:
                self.send(target, cluster, query, "")
            if not fulls:  # none heard from yet: through the manual cluster-senders, behind our records
                for channel in self._manual_senders(cluster):
                    self.send("", cluster, query, channel)
                    asked += 1
            asked += len(fulls)
        return asked

    def _manual_senders(self, cluster: str) -> list[str]:
        return [channel for channel, attrs in sorted(self.channels.items())
                if attrs.get("CHLTYPE") == "CLUSSDR" and not attrs.get("_AUTODEF")
                and cluster in self.clusters_of(attrs)]

    def suspend(self, clusters: Iterable[str], suspended: bool) -> None:
        """SUSPEND (RESUME) QMGR CLUSTER: the membership records say so, and are published."""
        unknown = sorted(set(clusters) - self.member_of())
        if unknown:
            raise MQError(C.MQRC_UNKNOWN_OBJECT_NAME,
                          f"AMQ9465E: this queue manager is not a member of cluster {', '.join(unknown)}")
        self.suspended = (self.suspended | set(clusters)) if suspended else (self.suspended - set(clusters))
        self.outbox.tx.put_record(SUBS_KIND, SUSPENDED_KEY, sorted(self.suspended))
        self.changed()

    # -- RESET CLUSTER, REFRESH CLUSTER, ageing -------------------------------------------------
    def force_remove(self, cluster: str, qmgr: str, tell_full: bool = True) -> int:
        """Forget ``qmgr`` in ``cluster`` (RESET CLUSTER ACTION(FORCEREMOVE) at a full repository:
        the other full repositories (``tell_full``) and this one's subscribers are told)."""
        gone = [r for r in self.cache.values() if r.cluster == cluster and r.owner == qmgr and not r.deleted]
        for record in gone:
            self._drop(record.key)
        if tell_full:
            for target in sorted(self.full_repositories(cluster) - {self.name, qmgr}):
                self.send(target, cluster, Remove(self.name, cluster, qmgr), "")
        if gone and cluster in self.full_for():  # (only what changed here: Removes never go round)
            subscribed = {m for members in self.subscribers.get(cluster, {}).values() for m in members}
            for target in sorted(subscribed - {self.name, qmgr} - self.full_repositories(cluster)):
                self.send(target, cluster, Remove(self.name, cluster, qmgr), "")
            for key, members in self.subscribers.get(cluster, {}).items():  # it asks nothing any more
                if qmgr in members:
                    members.discard(qmgr)
                    self.outbox.tx.put_record(SUBS_KIND, f"{cluster}|{key[0]}|{key[1]}", sorted(members))
        if gone:
            self.on_records(gone)
        return len(gone)

    def refresh(self, cluster: str, forget_full: bool = False) -> int:
        """REFRESH CLUSTER: forget what others told us of ``cluster`` (except, without
        ``forget_full``, the full repositories' memberships, the way back to them) and learn it
        again; our own records are published again (through the manual cluster-senders when no
        full repository is known any more)."""
        dropped = [r for r in self.cache.values() if r.cluster == cluster and r.owner != self.name
                   and (forget_full or not (r.kind == "QMGR" and r.attrs.get("REPOS")))]
        for record in dropped:
            self._drop(record.key)
        for (kind, name), members in self.subscribers.get(cluster, {}).items():  # the partials will ask again
            if members:
                members.clear()
                self.outbox.tx.put_record(SUBS_KIND, f"{cluster}|{kind}|{name}", [])
        if cluster in self.full_for():  # a full repository: a new stamp on its membership, so the
            now = self.clock()           # others send it everything they know again
            for record in [r for r in self.cache.values() if r.owner == self.name and r.cluster == cluster]:
                self._keep(replace(record, stamp=self._stamp(now), refreshed=now))
        self.republish()
        if dropped:
            self.on_records(dropped)
        return len(dropped)

    def age(self) -> None:
        aged = repository.age(self.cache, self.clock(), self.name)
        for record in aged.warnings:
            self.log.append(f"AMQ9456W: Cluster {record.cluster}: the {record.kind.lower()} record of {record.name} "
                            f"from queue manager {record.owner} has not been refreshed for "
                            f"{record.warned * 27} days")
        for record in aged.expired:
            self._drop(record.key)
            self.log.append(f"AMQ9457I: Cluster {record.cluster}: the {record.kind.lower()} record of {record.name} "
                            f"from queue manager {record.owner} expired after 90 days and was removed")
        for record in aged.warnings:
            self._keep(record)
        if aged.expired:
            self.on_records(aged.expired)

    # -- bookkeeping ----------------------------------------------------------------------------
    def _stamp(self, now: float) -> tuple[float, int]:
        self._counter += 1
        return (now, self._counter)

    def _keep(self, record: ClusterRecord, persist: bool = True) -> None:
        self.generation += 1
        self.cache[record.key] = record
        self._by_name.setdefault((record.kind, record.name), {})[record.key] = record
        if record.kind == "QMGR":
            self._qmgrs[record.key] = record
        if persist:
            self.outbox.tx.put_record(STORE_KIND, _store_key(record.key), {
                "kind": record.kind, "cluster": record.cluster, "name": record.name, "owner": record.owner,
                "stamp": list(record.stamp), "attrs": dict(record.attrs), "deleted": record.deleted,
                "refreshed": record.refreshed})

    def _drop(self, key: Key) -> None:
        self.generation += 1
        if self.cache.pop(key, None) is not None:
            self._by_name.get((key[0], key[2]), {}).pop(key, None)
            self._qmgrs.pop(key, None)
            self.outbox.tx.delete_record(STORE_KIND, _store_key(key))

    def auto_senders(self) -> dict[str, dict[str, Any]]:
        """The cluster-senders this queue manager would define for itself: one per other member's
        cluster-receiver (B:R-CXQ-7), named after it."""
        local = {k: self.channels.get("SYSTEM.DEF.CLUSSDR", {}).get(k) for k in ("SHORTRTY", "SHORTTMR",
                                                                                   "LONGRTY", "LONGTMR")}
        senders: dict[str, dict[str, Any]] = {}
        for record in self.live("QMGR"):
            if record.owner == self.name:
                continue
            channel = str(record.attrs.get("CHANNEL") or "")
            if not channel:
                continue
            attrs = auto_sender(channel, record.attrs, {k: v for k, v in local.items() if v is not None})
            attrs.pop("CHANNEL", None)
            attrs.pop("AUTODEF", None)
            attrs.update(_AUTODEF=True, _RQMNAME=record.owner, CLUSTER=record.cluster, CLUSNL="")
            held = senders.get(channel)
            if held is not None:
                attrs["_CLUSTERS"] = sorted({*held.get("_CLUSTERS", []), record.cluster})
            else:
                attrs["_CLUSTERS"] = [record.cluster]
            senders[channel] = attrs
        return senders
