"""The topic-tree authority walk as a pure function (spec C §11.3, A-35, R-SEC-8..10): the check
string of each kind of call and the objects asked, closest first, SYSTEM.BASE.TOPIC last."""

from __future__ import annotations

import pytest

from helpers.core_security import TV_SEC_T2
from mqlite.core.security.topic_walk import ADMIN_TOPIC, BASE_TOPIC, check_levels, check_string, objects_on_path, walk

# FX-SEC (spec C §11.4): TOPICSTR -> object, and who holds +sub where.
FX_SEC = {
    "": BASE_TOPIC, "SEC": "SECROOT", "SEC/GOOD": "SECGOOD", "SEC/BAD": "SECBAD", "SEC/COMB": "SECCOMB",
    "SEC/COMB/GOOD/BAD": "SECCOMBB", "SEC/COMB/GOOD": "SECCOMBG", "SEC/COMB/BAD": "SECCOMBN",
}
SUB_GRANTS = {"SECGOOD": {"usr1"}, "SECCOMBG": {"usr2"}, "SECBAD": {"grp1"}}
GROUPS = {"usr1": set(), "usr2": set(), "usr3": {"grp1"}}


def sub_walk(user: str, topic: str, char_scheme: bool = False) -> tuple[bool, tuple[str, ...]]:
    entities = {user} | GROUPS[user]
    result = walk(check_levels(topic, char_scheme), FX_SEC,
                  lambda name: bool(entities & SUB_GRANTS.get(name, set())))
    return result.granted, result.checked


# -- the check string (A-35) ---------------------------------------------------------------------
@pytest.mark.parametrize(("topic", "char_scheme", "expected"), [
    ("SEC/GOOD", False, "SEC/GOOD"),
    ("SEC/COMB/GOOD/*", True, "SEC/COMB/GOOD"),      # spec C §11.3 example 1
    ("SEC/COMB/*/GOOD", True, "SEC/COMB"),           # example 2
    ("SEC/COMB/#", False, "SEC/COMB"),
    ("SEC/+/GOOD", False, "SEC"),
    ("#", False, ""),                                # a wildcard in the first level: the root
    ("+/x", False, ""),
    ("*", True, ""),
    ("ab*/x", True, ""),                             # a partial first level is not qualified
    ("SEC/GO?D", True, "SEC"),
    ("SEC/GO%*D", True, "SEC/GO*D"),                 # an escaped '*' is a literal character
    ("SEC/COMB/*", False, "SEC/COMB/*"),             # '*' is literal in the topic scheme
    ("SEC/a#b", False, "SEC/a#b"),                   # '#' inside a level is not a wildcard
])
def test_check_string_is_the_part_before_the_first_wildcard(topic: str, char_scheme: bool, expected: str) -> None:
    # C:§11.3 "subscribe with wildcards", A-35
    assert check_string(topic, char_scheme) == expected


def test_objects_on_the_path_closest_first_base_last() -> None:  # C:§11.3 candidates
    assert objects_on_path(("SEC", "COMB", "GOOD", "BAD", "x"), FX_SEC) == (
        "SECCOMBB", "SECCOMBG", "SECCOMB", "SECROOT", BASE_TOPIC)
    assert objects_on_path((), FX_SEC) == (BASE_TOPIC,)
    assert objects_on_path(("", "x"), FX_SEC) == (BASE_TOPIC,)  # '/x': an empty first level
    assert objects_on_path(("OTHER",), {}) == (BASE_TOPIC,)  # SYSTEM.BASE.TOPIC is asked even if deleted


def test_first_grant_up_the_path_wins_and_stops_the_walk() -> None:  # C:R-SEC-8
    asked: list[str] = []

    def holds(name: str) -> bool:
        asked.append(name)
        return name == "SECCOMB"

    result = walk(("SEC", "COMB", "GOOD", "BAD"), FX_SEC, holds)
    assert result.granted and result.checked == ("SECCOMBB", "SECCOMBG", "SECCOMB")
    assert asked == ["SECCOMBB", "SECCOMBG", "SECCOMB"]


def test_a_grant_at_the_base_topic_covers_everything() -> None:  # C:R-SEC-9
    result = walk(("SEC", "BAD"), FX_SEC, lambda name: name == BASE_TOPIC)
    assert result == (True, ("SECBAD", "SECROOT", BASE_TOPIC))


# -- TV-SEC-T1 as walks (the core tests run every row through MQSUB/MQOPEN) -----------------------
@pytest.mark.parametrize(("row", "user", "topic", "char_scheme", "granted", "checked"), [
    (1, "usr1", "SEC/GOOD", False, True, ("SECGOOD",)),
    (2, "usr1", "SEC/COMB/GOOD", False, False, ("SECCOMBG", "SECCOMB", "SECROOT", BASE_TOPIC)),
    (3, "usr2", "SEC/COMB/GOOD", False, True, ("SECCOMBG",)),
    (4, "usr2", "SEC/GOOD", False, False, ("SECGOOD", "SECROOT", BASE_TOPIC)),
    (5, "usr2", "SEC/COMB/GOOD/BAD", False, True, ("SECCOMBB", "SECCOMBG")),
    (6, "usr1", "SEC/COMB/BAD", False, False, ("SECCOMBN", "SECCOMB", "SECROOT", BASE_TOPIC)),
    (7, "usr2", "SEC/COMB/BAD", False, False, ("SECCOMBN", "SECCOMB", "SECROOT", BASE_TOPIC)),
    (8, "usr1", "SEC/GOOD/NEW", False, True, ("SECGOOD",)),
    (9, "usr2", "SEC/GOOD/NEW2", False, False, ("SECGOOD", "SECROOT", BASE_TOPIC)),
    (10, "usr2", "SEC/COMB/GOOD/*", True, True, ("SECCOMBG",)),
    (11, "usr2", "SEC/COMB/*/GOOD", True, False, ("SECCOMB", "SECROOT", BASE_TOPIC)),
    (12, "usr2", "SEC/COMB/#", False, False, ("SECCOMB", "SECROOT", BASE_TOPIC)),
    (16, "usr3", "SEC/BAD/x", False, True, ("SECBAD",)),
    (16, "usr1", "SEC/BAD", False, False, ("SECBAD", "SECROOT", BASE_TOPIC)),
    (18, "usr1", "SEC", False, False, ("SECROOT", BASE_TOPIC)),
])
def test_tv_sec_t1_walks(row: int, user: str, topic: str, char_scheme: bool, granted: bool,
                         checked: tuple[str, ...]) -> None:  # C:TV-SEC-T1
    assert sub_walk(user, topic, char_scheme) == (granted, checked), f"row {row}"


# -- TV-SEC-T2: the effective matrix after SC-SEC-FRUIT, as walks --------------------------------
FX_FRUIT = {"": BASE_TOPIC, "Price/Fruit": "FRUIT", "Price/Fruit/Apples": "APPLE",
            "Price/Fruit/Oranges": "ORANGE", "Price/Vegetables": "VEG"}
FRUIT_GRANTS = {("FRUIT", "sub"): {"USER1"}, ("APPLE", "sub"): {"USER1", "USER2"},
                ("ORANGE", "sub"): {"USER1"}, ("VEG", "pub"): {"USER1"}, ("FRUIT", "pub"): {"USER1"}}
T2 = TV_SEC_T2  # topic, USER1 sub, USER2 sub, USER1 pub, USER2 pub


@pytest.mark.parametrize("row", T2, ids=[r[0] for r in T2])
def test_tv_sec_t2_matrix_walks(row: tuple[str, bool, bool, bool, bool]) -> None:  # C:TV-SEC-T2
    topic, *expected = row
    cells = [(user, authority) for authority in ("sub", "pub") for user in ("USER1", "USER2")]
    got = [walk(check_levels(topic), FX_FRUIT,
                lambda name, u=user, a=authority: u in FRUIT_GRANTS.get((name, a), set())).granted
           for user, authority in cells]
    assert got == expected


def test_the_sys_mq_branch_is_isolated() -> None:
    """IBM's $SYS/MQ (SYSTEM.ADMIN.TOPIC): authority must be held at or below it, so a grant on
    SYSTEM.BASE.TOPIC does not reach the monitoring topics (IBM MQ 9 "System topics for
    monitoring and activity trace"; no spec ID)."""
    objects = {"": BASE_TOPIC, "$SYS/MQ": ADMIN_TOPIC}
    levels = check_levels("$SYS/MQ/INFO/QMGR/QM1/Monitor/CPU/SystemSummary")
    assert objects_on_path(levels, objects) == (ADMIN_TOPIC,)
    assert not walk(levels, objects, lambda name: name == BASE_TOPIC).granted
    assert walk(levels, objects, lambda name: name == ADMIN_TOPIC).granted
    assert objects_on_path(check_levels("$SYS/other"), objects) == (BASE_TOPIC,)  # only $SYS/MQ is
