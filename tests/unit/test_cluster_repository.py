"""core/network/clusters/repository.py: cluster records merged, passed on and aged as pure decisions
(B:R-CLU-10, B:R-CLU-11, B:R-CLU-12, B:R-CLQ-4; decision A-20)."""

from __future__ import annotations

from typing import Any

from mqlite.core.network.clusters.repository import (
    DAY,
    ClusterRecord,
    age,
    forward_to,
    instances,
    merge,
    newest,
)


def queue(owner: str, stamp: float, name: str = "Q1", deleted: bool = False, **attrs: Any) -> ClusterRecord:
    return ClusterRecord("QUEUE", "SALES", name, owner, (stamp, 0), attrs, deleted)


def test_the_newest_copy_wins_whatever_the_order_of_arrival() -> None:
    older, newer = queue("QM1", 10.0, DEFBIND="OPEN"), queue("QM1", 20.0, DEFBIND="NOTFIXED")
    for first, second in ((older, newer), (newer, older)):
        cache = merge(merge({}, first, 1.0).cache, second, 2.0).cache
        assert [r.attrs["DEFBIND"] for r in cache.values()] == ["NOTFIXED"]
    stale = merge(merge({}, newer, 1.0).cache, older, 2.0)
    assert stale.stale and not stale.changed


def test_the_same_copy_again_only_refreshes_it() -> None:
    """An owner's periodic republication: nothing to pass on, the ageing clock restarts."""
    first = merge({}, queue("QM1", 10.0), 1.0)
    again = merge(first.cache, queue("QM1", 10.0), 500.0)
    assert first.changed and not again.changed and not again.stale
    assert next(iter(again.cache.values())).refreshed == 500.0


def test_a_copy_from_a_cache_does_not_refresh() -> None:
    """B:SC-35, A-20: the same copy sent from a full repository's cache (a welcome, REFRESH
    CLUSTER) is not the owner's republication: the owner may be gone, the record keeps ageing."""
    first = merge({}, queue("QM1", 10.0), 1.0)
    cached = merge(first.cache, queue("QM1", 10.0), 500.0, refresh=False)
    assert not cached.changed and not cached.stale
    assert next(iter(cached.cache.values())).refreshed == 1.0


def test_a_withdrawal_wins_over_older_copies_and_hides_the_instance() -> None:
    cache = merge({}, queue("QM1", 10.0), 1.0).cache
    cache = merge(cache, queue("QM3", 11.0), 1.0).cache
    withdrawn = merge(cache, queue("QM1", 12.0, deleted=True), 2.0)
    assert withdrawn.changed
    assert [r.owner for r in instances(withdrawn.cache, "QUEUE", "Q1")] == ["QM3"]
    # a copy older than the withdrawal, arriving late, does not bring it back
    assert merge(withdrawn.cache, queue("QM1", 10.0), 3.0).stale


def test_instances_are_one_per_owner_in_the_clusters_asked_for() -> None:
    cache: dict[Any, ClusterRecord] = {}
    for record in (queue("QM3", 1.0), queue("QM1", 1.0), queue("QM1", 1.0, name="Q2"),
                   ClusterRecord("QUEUE", "INV", "Q1", "QM4", (1.0, 0))):
        cache = dict(merge(cache, record, 0.0).cache)
    assert [r.owner for r in instances(cache, "QUEUE", "Q1")] == ["QM1", "QM3", "QM4"]
    assert [r.owner for r in instances(cache, "QUEUE", "Q1", ["SALES"])] == ["QM1", "QM3"]
    assert instances(cache, "TOPIC", "Q1") == []


def test_of_several_hosts_copies_the_most_recently_changed_is_used() -> None:
    """B:R-CLU-11 (a cluster topic defined on two hosts)."""
    copies = [ClusterRecord("TOPIC", "SALES", "SPORTS", "QM1", (30.0, 0), {"TOPICSTR": "a"}),
              ClusterRecord("TOPIC", "SALES", "SPORTS", "QM2", (40.0, 0), {"TOPICSTR": "b"})]
    chosen = newest(copies)
    assert chosen is not None and chosen.owner == "QM2"
    assert newest([]) is None


def test_who_a_record_is_passed_to() -> None:
    """B:R-CLU-12: to the full repositories, on from one full repository to the other (once), and
    to the partial repositories subscribed to the name; a partial repository passes nothing on."""
    record = queue("QM3", 1.0)
    fulls = ["FR1", "FR2"]
    subscribers = {("QUEUE", "Q1"): ["QM2", "QM5"]}
    assert forward_to(record, "QM3", "FR1", fulls, subscribers) == {"FR2", "QM2", "QM5"}  # from its owner
    assert forward_to(record, "FR1", "FR2", fulls, subscribers) == {"QM2", "QM5"}  # not back, not round again
    assert forward_to(record, "QM3", "FR1", fulls, {}) == {"FR2"}
    assert forward_to(record, "FR1", "QM2", fulls, subscribers) == set()  # a partial repository
    assert forward_to(queue("QM2", 1.0), "QM2", "FR1", fulls, subscribers) == {"FR2", "QM5"}  # not to its owner


def test_records_age_warnings_at_27_54_81_days_and_expiry_at_90() -> None:
    """A-20: the "not refreshed" warning once per 27 days of silence, the record dropped at 90;
    this queue manager's own records do not age."""
    cache = merge({}, queue("QM1", 1.0), 0.0).cache
    cache = dict(merge(cache, queue("QM2", 1.0), 0.0).cache)
    warned_at = []
    for day in range(0, 95):
        aged = age(cache, day * DAY, own="QM2")
        cache = dict(aged.cache)
        warned_at += [day for r in aged.warnings if r.owner == "QM1"]
        if aged.expired:
            assert [r.owner for r in aged.expired] == ["QM1"] and day == 90
            break
    assert warned_at == [27, 54, 81]
    assert [r.owner for r in cache.values()] == ["QM2"]


def test_a_refresh_restarts_the_ageing() -> None:
    cache = merge({}, queue("QM1", 1.0), 0.0).cache
    cache = age(cache, 28 * DAY, own="X").cache
    cache = merge(cache, queue("QM1", 1.0), 28 * DAY).cache  # republished
    aged = age(cache, 50 * DAY, own="X")  # 22 days since the refresh, 50 since the first copy
    assert not aged.warnings and not aged.expired
