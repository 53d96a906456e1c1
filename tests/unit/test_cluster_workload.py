"""core/network/clusters/workload.py: the cluster workload algorithm as a pure function, one test per rule
(B:R-BIND-4, issue 16 item 4), in IBM's order."""

from __future__ import annotations

from collections import Counter

import pytest

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.network.clusters.workload import WEIGHT_UNIT, ChannelState, Destination, History, choose


def remote(qmgr: str, **attrs: object) -> Destination:
    return Destination(qmgr, channel=f"TO.{qmgr}", **attrs)  # type: ignore[arg-type]


def spread(candidates: list[Destination], count: int, **options: object) -> Counter[str]:
    history = History()
    chosen: Counter[str] = Counter()
    for _ in range(count):
        choice = choose(candidates, history, **options)  # type: ignore[arg-type]
        chosen[choice.destination.qmgr] += 1
        history = choice.history
    return chosen


def test_no_instance_is_2085_and_all_put_inhibited_is_2268() -> None:
    with pytest.raises(MQError) as none:
        choose([])
    assert none.value.reason == C.MQRC_UNKNOWN_OBJECT_NAME
    with pytest.raises(MQError) as inhibited:
        choose([remote("QM2", put_enabled=False), remote("QM3", put_enabled=False)])
    assert inhibited.value.reason == C.MQRC_CLUSTER_PUT_INHIBITED


def test_put_inhibited_instances_are_never_chosen() -> None:
    assert spread([remote("QM2", put_enabled=False), remote("QM3")], 10) == {"QM3": 10}


def test_equal_instances_take_turns_least_recently_used_first_ties_by_name() -> None:
    """B:R-BIND-4: round-robin, least recently chosen first, ties by queue manager name."""
    history = History()
    order = []
    for _ in range(6):
        choice = choose([remote("QM3"), remote("QM2"), remote("QM4")], history)
        order.append(choice.destination.qmgr)
        history = choice.history
    assert order == ["QM2", "QM3", "QM4", "QM2", "QM3", "QM4"]


def test_clwluseq_local_chooses_the_local_instance_any_shares_it() -> None:
    candidates = [Destination("QM1", local=True), remote("QM2"), remote("QM3")]
    assert spread(candidates, 9, useq_local=True) == {"QM1": 9}
    assert spread(candidates, 9) == {"QM1": 3, "QM2": 3, "QM3": 3}  # CLWLUSEQ(ANY)


def test_a_message_from_a_cluster_channel_stays_on_the_local_instance() -> None:
    """It is not sent round the cluster again, whatever CLWLUSEQ says."""
    candidates = [Destination("QM1", local=True), remote("QM2")]
    assert spread(candidates, 4, from_cluster_channel=True) == {"QM1": 4}


def test_a_put_inhibited_local_instance_sends_messages_to_the_others() -> None:
    assert spread([Destination("QM1", local=True, put_enabled=False), remote("QM2")], 3, useq_local=True) == {
        "QM2": 3}


def test_channel_rank_then_queue_rank_keep_only_the_highest() -> None:
    by_channel = [remote("QM2", channel_rank=1), remote("QM3", channel_rank=5), remote("QM4", channel_rank=5)]
    assert spread(by_channel, 4) == {"QM3": 2, "QM4": 2}
    by_queue = [remote("QM2", rank=9), remote("QM3", rank=0)]
    assert spread(by_queue, 3) == {"QM2": 3}
    # Channel rank is applied first: a higher queue rank behind a lower-ranked channel loses.
    assert spread([remote("QM2", channel_rank=0, rank=9), remote("QM3", channel_rank=1, rank=0)], 2) == {"QM3": 2}


def test_a_suspended_queue_manager_is_avoided_while_another_remains() -> None:
    assert spread([remote("QM2", suspended=True), remote("QM3")], 5) == {"QM3": 5}
    assert spread([remote("QM2", suspended=True)], 2) == {"QM2": 2}  # the only one: still used


@pytest.mark.parametrize(("worse", "better"), [
    (ChannelState.STARTING, ChannelState.INACTIVE),
    (ChannelState.RETRYING, ChannelState.STARTING),
    (ChannelState.STOPPED, ChannelState.RETRYING),
])
def test_channel_state_classes_prefer_the_best(worse: ChannelState, better: ChannelState) -> None:
    assert spread([remote("QM2", state=worse), remote("QM3", state=better)], 4) == {"QM3": 4}


def test_when_only_retrying_channels_remain_one_is_chosen_and_the_message_waits() -> None:
    assert spread([remote("QM2", state=ChannelState.RETRYING), remote("QM3", state=ChannelState.RETRYING)], 4) == {
        "QM2": 2, "QM3": 2}


def test_chstatus_values_map_to_ibms_classes() -> None:
    assert [ChannelState.of(s) for s in ("RUNNING", "INACTIVE", "BINDING", "STOPPING", "RETRYING", "PAUSED",
                                         "STOPPED", "REQUESTING")] == [
        ChannelState.INACTIVE, ChannelState.INACTIVE, ChannelState.STARTING, ChannelState.STARTING,
        ChannelState.RETRYING, ChannelState.STOPPED, ChannelState.STOPPED, ChannelState.STOPPED]


def test_netprty_picks_the_best_channel_to_each_queue_manager() -> None:
    """Two channels to QM2 (two networks): only the higher NETPRTY one is used; QM3 still shares."""
    candidates = [Destination("QM2", channel="QM2.SLOW", netprty=1), Destination("QM2", channel="QM2.FAST", netprty=5),
                  remote("QM3", netprty=0)]
    history = History()
    used = Counter()
    for _ in range(4):
        choice = choose(candidates, history)
        used[choice.destination.channel] += 1
        history = choice.history
    assert used == {"QM2.FAST": 2, "TO.QM3": 2}


def test_channel_priority_then_queue_priority_keep_only_the_highest() -> None:
    assert spread([remote("QM2", channel_priority=3), remote("QM3", channel_priority=1)], 3) == {"QM2": 3}
    assert spread([remote("QM2", priority=0), remote("QM3", priority=4)], 3) == {"QM3": 3}
    # priority comes after state: a higher priority behind a retrying channel loses
    assert spread([remote("QM2", priority=9, state=ChannelState.RETRYING), remote("QM3")], 2) == {"QM3": 2}


def test_clwlmruc_limits_the_choice_to_the_most_recently_used_channels() -> None:
    candidates = [remote("QM2"), remote("QM3"), remote("QM4")]
    history = History()
    for _ in range(3):  # each used once: QM2, QM3, QM4 in turn
        history = choose(candidates, history).history
    assert spread(candidates, 6, mruc=1) == {"QM2": 6}  # fresh history: the first used stays the one
    chosen = Counter()
    for _ in range(4):
        choice = choose(candidates, history, mruc=2)
        chosen[choice.destination.qmgr] += 1
        history = choice.history
    assert set(chosen) == {"QM3", "QM4"}  # QM2, used longest ago, is out of the choice


def test_clwlwght_spreads_in_proportion_to_the_weights() -> None:
    """10,000 choices over weights 20, 40 and 80 land within 1% of 1:2:4."""
    counts = spread([remote("QM2", channel_weight=20), remote("QM3", channel_weight=40),
                     remote("QM4", channel_weight=80)], 10_000)
    total = sum(counts.values())
    for qmgr, share in (("QM2", 1 / 7), ("QM3", 2 / 7), ("QM4", 4 / 7)):
        assert abs(counts[qmgr] / total - share) < 0.01, counts


def test_a_destination_back_after_an_absence_takes_turns_without_a_backlog() -> None:
    """QM3 suspended for 10 choices (all to QM2), then resumed: the next ones alternate, QM3 is
    not sent the 10 it missed in a row."""
    history = History()
    for _ in range(10):
        history = choose([remote("QM2"), remote("QM3", suspended=True)], history).history
    order = []
    for _ in range(6):
        choice = choose([remote("QM2"), remote("QM3")], history)
        order.append(choice.destination.qmgr)
        history = choice.history
    assert order.count("QM3") <= 4 and order.count("QM2") >= 2, order
    assert order[2:] in (["QM3", "QM2"] * 2, ["QM2", "QM3"] * 2), order


def test_the_history_is_not_changed_in_place() -> None:
    history = History()
    choice = choose([remote("QM2")], history)
    assert history == History() and choice.history.factors == {"QM2/TO.QM2": WEIGHT_UNIT // 50}
