"""core/network/clusters/xmitq.py: which transmission queue a cluster-sender channel uses
(B:R-CXQ-1, B:R-CXQ-2, B:R-CXQ-4; B:SC-80, B:SC-81)."""

from __future__ import annotations

import pytest

from mqlite.core.network.clusters.xmitq import DEFAULT_XMITQ, XmitqChoice, clchname_matches, select


def test_without_manual_queues_the_default_is_the_one_system_queue() -> None:
    """B:R-CXQ-1: SYSTEM.CLUSTER.TRANSMIT.QUEUE (DEFCLXQ(SCTQ), IBM's default)."""
    assert select("SALES.QM1", {}) == XmitqChoice(DEFAULT_XMITQ)


def test_defclxq_channel_gives_each_channel_its_own_dynamic_queue() -> None:
    """B:SC-80: SYSTEM.CLUSTER.TRANSMIT.<channel>, from the model queue."""
    assert select("SALES.QM1", {}, "CHANNEL") == XmitqChoice("SYSTEM.CLUSTER.TRANSMIT.SALES.QM1", True)


def test_a_generic_clchname_takes_its_channels_and_an_exact_one_beats_it() -> None:
    """B:SC-81: XMITQ.SALES CLCHNAME('SALES.*') takes SALES.QM1, not INV.QM1; XMITQ.S1
    CLCHNAME('SALES.QM1') then takes SALES.QM1 (exact beats generic), even over DEFCLXQ(CHANNEL)."""
    queues = {"XMITQ.SALES": "SALES.*"}
    assert select("SALES.QM1", queues).queue == "XMITQ.SALES"
    assert select("INV.QM1", queues).queue == DEFAULT_XMITQ
    queues["XMITQ.S1"] = "SALES.QM1"
    assert select("SALES.QM1", queues, "CHANNEL").queue == "XMITQ.S1"
    assert select("SALES.QM2", queues).queue == "XMITQ.SALES"


@pytest.mark.parametrize(("queues", "expected"), [
    ({"A.ANY": "*", "B.SALES": "SALES.*"}, "B.SALES"),  # more characters that are not * win
    ({"Z.ONE": "SALES.Q*", "A.TWO": "SALES.*1"}, "A.TWO"),  # a tie in specificity: the first queue name
    ({"BLANK": "", "ANY": "*"}, "ANY"),  # a blank CLCHNAME is no cluster transmission queue
])
def test_the_most_specific_generic_match_wins(queues: dict[str, str], expected: str) -> None:
    assert select("SALES.QM1", queues).queue == expected


@pytest.mark.parametrize(("clchname", "channel", "matches"), [
    ("SALES.*", "SALES.QM1", True),
    ("SALES.*", "SALES.", True),
    ("*.QM1", "SALES.QM1", True),
    ("S*.Q*1", "SALES.QM1", True),
    ("*", "ANY.THING.AT.ALL", True),  # * matches dots too
    ("SALES.*", "INV.QM1", False),
    ("SALES.QM1", "SALES.QM10", False),  # no wildcard: the whole name
    ("", "SALES.QM1", False),
])
def test_generic_channel_names(clchname: str, channel: str, matches: bool) -> None:
    assert clchname_matches(clchname, channel) is matches
