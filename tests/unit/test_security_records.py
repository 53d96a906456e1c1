"""Authority records as pure functions: IBM's OAM generic profiles and the precedence of the most
specific profile (IBM: "Using wildcard characters in OAM profiles", "Profile priorities")."""

from __future__ import annotations

import pytest

from mqlite import cmqc as C
from mqlite.core.security.records import (
    GROUP,
    PRINCIPAL,
    AuthRecord,
    ProfileError,
    entity_authority,
    most_specific,
    profile_matches,
)


@pytest.mark.parametrize(("profile", "name", "matches"), [
    ("ABC.?EF", "ABC.DEF", True),
    ("ABC.?EF", "ABC.DDEF", False),
    ("AB.?D", "AB.CD", True),
    ("AB.?D", "AB..D", False),  # ? is one character, never the qualifier separator
    ("ABC.*.JKL", "ABC.DEF.JKL", True),
    ("ABC.*.JKL", "ABC.JKL", False),  # * as a qualifier is exactly one qualifier
    ("ABC.*.JKL", "ABC.D.E.JKL", False),
    ("ABC.DE*.JKL", "ABC.DE.JKL", True),
    ("ABC.DE*.JKL", "ABC.DEGH.JKL", True),
    ("ABC.DE*.JKL", "ABC.DEG.H.JKL", False),  # * never crosses a '.'
    ("**", "ANY.THING.AT.ALL", True),
    ("**", "X", True),
    ("**.ABC", "ABC", True),  # ** is zero or more qualifiers
    ("**.ABC", "X.Y.ABC", True),
    ("**.ABC", "X.ABCD", False),
    ("APP.**", "APP", True),
    ("APP.**", "APP.Q1", True),
    ("APP.**", "APP.A.B.C", True),
    ("APP.**", "APPX.Q1", False),
    ("A.**.Z", "A.Z", True),
    ("A.**.Z", "A.B.C.Z", True),
    ("A.**.Z", "A.B.C", False),
    ("*", "Q1", True),
    ("*", "APP.Q1", False),
    ("Q1", "Q1", True),  # a plain profile is the object's own name
    ("Q1", "Q10", False),
    ("q1", "Q1", False),  # object names are case-sensitive
])
def test_generic_profile_matching(profile: str, name: str, matches: bool) -> None:
    assert profile_matches(profile, name) is matches


@pytest.mark.parametrize("profile", ["A.**.B.**", "AB**", "A.B**.C"])
def test_double_star_only_once_and_only_as_a_qualifier(profile: str) -> None:
    with pytest.raises(ProfileError):
        profile_matches(profile, "A.B")


@pytest.mark.parametrize(("profiles", "winner"), [
    (["AB.*", "AB.C*"], "AB.C*"),  # IBM's example: queue AB.CD has AB.C*'s authority
    (["AB.C*", "AB.*"], "AB.C*"),  # whatever the order they were made in
    (["AB.CD", "AB.C*", "**"], "AB.CD"),  # the object's own profile beats every generic one
    (["AB.?D", "AB.*"], "AB.?D"),  # ? is more specific than *
    (["AB.*", "AB.**"], "AB.*"),  # * is more specific than **
    (["**", "AB.**"], "AB.**"),
    (["A*.B", "AB*.B"], "AB*.B"),
])
def test_most_specific_profile_wins(profiles: list[str], winner: str) -> None:
    assert most_specific(profiles) == winner


def rec(profile: str, authority: int, entity: str = "fred", etype: int = PRINCIPAL) -> AuthRecord:
    return AuthRecord(C.MQOT_Q, profile, entity, etype, authority)


def test_an_entity_gets_only_the_most_specific_profiles_authority() -> None:
    records = [rec("AB.*", C.MQZAO_OUTPUT), rec("AB.C*", C.MQZAO_INPUT)]
    assert entity_authority(records, "AB.CD") == C.MQZAO_INPUT  # not put as well: no union of profiles
    assert entity_authority(records, "AB.XY") == C.MQZAO_OUTPUT
    assert entity_authority(records, "XY.CD") == C.MQZAO_NONE


def test_a_more_specific_profile_with_no_authority_takes_it_away() -> None:
    records = [rec("APP.**", C.MQZAO_OUTPUT | C.MQZAO_INPUT), rec("APP.SECRET", C.MQZAO_NONE)]
    assert entity_authority(records, "APP.SECRET") == C.MQZAO_NONE
    assert entity_authority(records, "APP.OTHER") == C.MQZAO_OUTPUT | C.MQZAO_INPUT


def test_record_store_form_round_trips() -> None:
    record = rec("APP.**", C.MQZAO_CONNECT, "apps", GROUP)
    assert AuthRecord.from_value(record.to_value()) == record
    assert record.key != rec("APP.**", C.MQZAO_CONNECT, "apps", PRINCIPAL).key
