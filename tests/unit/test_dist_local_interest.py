"""LocalInterest: the first and the last subscription to a pattern are what count (B:R-PXY-1,
R-PXY-2, R-EMS-2)."""

from __future__ import annotations

from mqlite.core.network.pubsub.local_interest import LocalInterest


def test_counts_per_pattern_and_says_first_and_last() -> None:
    """B:R-PXY-1: two subscriptions to one pattern count 1 then 2; B:R-PXY-2: the count goes back
    to 0 with the last, and the pattern is gone."""
    interest = LocalInterest()
    assert interest.add(b"s1", "News/#") == 1
    assert interest.add(b"s2", "News/#") == 2
    assert interest.add(b"s3", "Sport") == 1
    assert interest.remove(b"s1") == ("News/#", 1)
    assert interest.remove(b"s2") == ("News/#", 0)
    assert dict(interest) == {"Sport": 1}


def test_a_subscription_that_never_counted_changes_nothing() -> None:
    """A subscription of scope QMGR (never added) ends: nothing to send."""
    interest = LocalInterest()
    interest.add(b"s1", "T")
    assert interest.remove(b"other") is None
    assert interest.remove(b"s1") == ("T", 0)
    assert interest.remove(b"s1") is None


def test_reset_forgets_everything() -> None:
    interest = LocalInterest()
    interest.add(b"s1", "T")
    interest.reset()
    assert dict(interest) == {} and interest.counted == {}
    assert interest.add(b"s1", "T") == 1
