"""A queue manager's cluster repository as pure decisions: what a received cluster record does to
the cache, where a full repository passes it on, and how cached records age.

Records (``ClusterRecord``) are what cluster members publish about themselves: a queue manager's
membership (its CLUSRCVR: kind ``QMGR``), a cluster queue instance (``QUEUE``), a cluster topic
(``TOPIC``). Each is keyed by (kind, cluster, name, owner) and stamped by its owner when defined or
altered (``stamp``, the owner's clock, then a counter for ties), so the newest wins wherever it
arrives, whatever the order of arrival (B:R-CLU-11: "the most recent copy on any host is always
the cluster topic object that is used"). A withdrawal (DELETE, or ALTER CLUSTER(' ')) is a record
too (``deleted``): it wins over older copies and removes the object from queries.

Who gets what (B:R-CLU-12, R-CLQ-4): an owner publishes to the full repositories; a full
repository passes what an owner sent it to the other full repositories, and anything to the
partial repositories that asked for that name (their subscriptions); a partial repository
forwards nothing.

Ageing (A-20): a record not refreshed by its owner for 27, 54 and 81 days is warned about once
each time; at 90 days it is dropped (B:R-CLU-10). Owners republish well within 27 days.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

__all__ = ["DAY", "EXPIRE_AFTER", "WARN_EVERY", "Aged", "ClusterRecord", "Merge", "age", "forward_to", "instances",
           "merge", "newest"]

DAY = 86_400.0
WARN_EVERY = 27 * DAY
EXPIRE_AFTER = 90 * DAY

Key = tuple[str, str, str, str]  # kind, cluster, name, owner


@dataclass(frozen=True)
class ClusterRecord:
    kind: str  # QMGR, QUEUE or TOPIC
    cluster: str
    name: str  # the object's name (the queue manager's for QMGR)
    owner: str  # the queue manager that defined it and publishes it
    stamp: tuple[float, int]  # the owner's clock at the change, then its counter: newest wins
    attrs: Mapping[str, Any] = field(default_factory=dict)
    deleted: bool = False  # a withdrawal
    refreshed: float = 0.0  # when this queue manager last received it (its own clock)
    warned: int = 0  # "not refreshed" warnings logged for it so far

    @property
    def key(self) -> Key:
        return (self.kind, self.cluster, self.name, self.owner)


@dataclass(frozen=True)
class Merge:
    cache: Mapping[Key, ClusterRecord]
    changed: bool  # the record was newer: pass it on, re-evaluate what depends on it
    stale: bool  # the cache had a newer copy (the sender may be told, or nothing done)


def merge(cache: Mapping[Key, ClusterRecord], record: ClusterRecord, now: float, refresh: bool = True) -> Merge:
    """The cache after receiving ``record`` at ``now``. The same stamp again only refreshes it when
    it is the owner's periodic republication (``refresh``; a full repository's copy from its cache
    is not: the owner may be gone, A-20); an older one changes nothing."""
    held = cache.get(record.key)
    if held is not None and held.stamp > record.stamp:
        return Merge(cache, False, True)
    if held is not None and held.stamp == record.stamp and held.deleted == record.deleted:
        if not refresh:
            return Merge(cache, False, False)
        return Merge({**cache, record.key: replace(held, refreshed=now, warned=0)}, False, False)
    return Merge({**cache, record.key: replace(record, refreshed=now, warned=0)}, True, False)


def instances(cache: Mapping[Key, ClusterRecord], kind: str, name: str,
              clusters: Iterable[str] | None = None) -> list[ClusterRecord]:
    """The live records of an object name, one per owner (and cluster), in owner order; only those
    of ``clusters`` when given (the clusters this queue manager shares with them)."""
    wanted = None if clusters is None else set(clusters)
    found = [r for r in cache.values() if r.kind == kind and r.name == name and not r.deleted
             and (wanted is None or r.cluster in wanted)]
    return sorted(found, key=lambda r: (r.owner, r.cluster))


def newest(records: Iterable[ClusterRecord]) -> ClusterRecord | None:
    """Of several hosts' copies of one object, the most recently changed (B:R-CLU-11)."""
    return max(records, key=lambda r: (r.stamp, r.owner), default=None)


def forward_to(record: ClusterRecord, sender: str, me: str, full_repositories: Iterable[str],
               subscribers: Mapping[tuple[str, str], Iterable[str]]) -> set[str]:
    """Where this queue manager passes on a changed record it got from ``sender``: nowhere from a
    partial repository; from a full one, to the other full repositories when the owner sent it
    (never back, never round again), and to the partial repositories subscribed to its name."""
    fulls = set(full_repositories)
    if me not in fulls:
        return set()
    targets = set(subscribers.get((record.kind, record.name), ()))
    if sender == record.owner:
        targets |= fulls
    return targets - {me, sender, record.owner}


@dataclass(frozen=True)
class Aged:
    cache: Mapping[Key, ClusterRecord]
    warnings: list[ClusterRecord]  # records to write the "not refreshed" error-log message for
    expired: list[ClusterRecord]  # records dropped: what depended on them is re-evaluated


def age(cache: Mapping[Key, ClusterRecord], now: float, own: str) -> Aged:
    """Warn at 27, 54 and 81 days without a refresh, drop at 90 (B:R-CLU-10, A-20); this queue
    manager's own records never age here (it republishes them)."""
    kept: dict[Key, ClusterRecord] = {}
    warnings: list[ClusterRecord] = []
    expired: list[ClusterRecord] = []
    for key, record in cache.items():
        silent = now - record.refreshed
        if record.owner == own:
            kept[key] = record
        elif silent >= EXPIRE_AFTER:
            expired.append(record)
        elif int(silent // WARN_EVERY) > record.warned:
            warned = replace(record, warned=int(silent // WARN_EVERY))
            kept[key] = warned
            warnings.append(warned)
        else:
            kept[key] = record
    return Aged(kept, warnings, expired)
