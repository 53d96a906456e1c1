"""core/network/clusters/binding.py: when a cluster queue handle's instance is chosen and for how long
(B:R-BIND-1, B:R-BIND-2; B:SC-85, B:SC-86)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import cycle

import pytest

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.network.clusters.binding import Bind, Bound, at_open, at_put, bind_mode, fixed

GROUP = C.MQMF_MSG_IN_GROUP
LAST = C.MQMF_LAST_MSG_IN_GROUP


def alternating() -> Callable[[], str]:
    """A workload algorithm between two equal instances: QM1, QM3, QM1, ..."""
    turns: Iterator[str] = cycle(["QM1", "QM3"])
    return lambda: next(turns)


def puts(bound: Bound, flags: list[int], choose: Callable[[], str]) -> list[str]:
    out = []
    for f in flags:
        where, bound = at_put(bound, f, choose)
        out.append(where)
    return out


@pytest.mark.parametrize(("options", "defbind", "mode"), [
    (C.MQOO_BIND_ON_OPEN, "NOTFIXED", Bind.ON_OPEN),
    (C.MQOO_BIND_NOT_FIXED, "OPEN", Bind.NOT_FIXED),
    (C.MQOO_BIND_ON_GROUP, "OPEN", Bind.ON_GROUP),
    (C.MQOO_BIND_AS_Q_DEF, "OPEN", Bind.ON_OPEN),  # DEFBIND, IBM's default OPEN
    (C.MQOO_BIND_AS_Q_DEF, "NOTFIXED", Bind.NOT_FIXED),
    (C.MQOO_BIND_AS_Q_DEF, "GROUP", Bind.ON_GROUP),
])
def test_the_binding_comes_from_the_options_or_defbind(options: int, defbind: str, mode: Bind) -> None:
    assert bind_mode(options | C.MQOO_OUTPUT, defbind) is mode


def test_two_bind_options_are_2046_and_mqput1_is_not_fixed() -> None:
    with pytest.raises(MQError) as error:
        bind_mode(C.MQOO_BIND_ON_OPEN | C.MQOO_BIND_NOT_FIXED)
    assert error.value.reason == C.MQRC_OPTIONS_ERROR
    assert bind_mode(C.MQOO_BIND_AS_Q_DEF, "OPEN", put1=True) is Bind.NOT_FIXED


def test_not_fixed_spreads_every_put_and_on_open_keeps_one_instance() -> None:
    """B:SC-85: 4 NOT_FIXED puts alternate; 4 BIND_ON_OPEN puts go to one instance, a second
    such handle to the other."""
    choose = alternating()
    assert puts(at_open(Bind.NOT_FIXED, choose), [0] * 4, choose) == ["QM1", "QM3", "QM1", "QM3"]
    choose = alternating()
    first, second = at_open(Bind.ON_OPEN, choose), at_open(Bind.ON_OPEN, choose)
    assert puts(first, [0] * 4, choose) == ["QM1"] * 4
    assert puts(second, [0] * 4, choose) == ["QM3"] * 4


def test_on_group_keeps_each_group_together_and_spreads_the_rest() -> None:
    """B:SC-86: two groups of 3 on one handle, each entirely on one instance; ungrouped puts alternate."""
    choose = alternating()
    bound = at_open(Bind.ON_GROUP, choose)
    assert bound.fixed is None
    where = puts(bound, [GROUP, GROUP, GROUP | LAST, GROUP, GROUP, GROUP | LAST, 0, 0], choose)
    assert where == ["QM1", "QM1", "QM1", "QM3", "QM3", "QM3", "QM1", "QM3"]


def test_only_bound_messages_are_fixed_to_their_instance() -> None:
    """Issue 16 item 4: what waits for a RETRYING channel may be chosen again unless it is bound:
    a BIND_ON_OPEN handle's every message, a BIND_ON_GROUP message inside a group (its last one
    too); not a NOT_FIXED put nor a BIND_ON_GROUP message outside a group."""
    assert fixed(Bound(Bind.ON_OPEN, "QM1"), 0)
    assert not fixed(Bound(Bind.NOT_FIXED), C.MQMF_MSG_IN_GROUP)
    assert fixed(Bound(Bind.ON_GROUP, "QM1"), C.MQMF_MSG_IN_GROUP)
    assert fixed(Bound(Bind.ON_GROUP), C.MQMF_LAST_MSG_IN_GROUP)
    assert not fixed(Bound(Bind.ON_GROUP), 0)
