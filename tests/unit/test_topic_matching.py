"""Topic strings and both wildcard schemes (spec A §6-8: every TV-TW, TV-CW and TV-TC vector),
and the subscription index against brute force (hypothesis)."""

from __future__ import annotations

import tracemalloc

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.topics.index import SubscriptionIndex
from mqlite.core.topics.matching import char_match, topic_match
from mqlite.core.topics.strings import build_topic_string, char_tokens, check_topic_string, literal_prefix

# (vector, pattern, topic, matches): TV-TW-* in the topic-based scheme, TV-CW-* in the character one.
VECTORS = [
    ('TV-TW-01', 'IBM/+/Results', 'IBM/Software/Results', True),
    ('TV-TW-02', 'IBM/+/Results', 'IBM/Services/Results', True),
    ('TV-TW-03', 'IBM/+/Results', 'IBM/Hardware/Results', True),
    ('TV-TW-04', 'IBM/+/Results', 'IBM/Patents/Software/Results', False),
    ('TV-TW-05', 'IBM/+/Results', 'IBM/Results', False),
    ('TV-TW-06', 'USA/Alaska/#', 'USA/Alaska', True),
    ('TV-TW-07', 'USA/Alaska/#', 'USA/Alaska/Juneau', True),
    ('TV-TW-08', 'USA/#', 'USA', True),
    ('TV-TW-09', 'USA/#', 'USA/Alabama/Auburn', True),
    ('TV-TW-10', 'USA/#', 'USAX', False),
    ('TV-TW-11', 'USA/+', 'USA/Alabama', True),
    ('TV-TW-12', 'USA/+', 'USA/Alabama/Auburn', False),
    ('TV-TW-13', 'USA/+', 'USA', False),
    ('TV-TW-14', '#', 'USA', True),
    ('TV-TW-15', '#', 'USA/Alabama/Auburn', True),
    ('TV-TW-16', '#', '/USA', True),
    ('TV-TW-17', '+', 'USA', True),
    ('TV-TW-18', '+', 'USA/Alabama', False),
    ('TV-TW-19', 'USA#', 'USA#', True),
    ('TV-TW-20', 'USA#', 'USA', False),
    ('TV-TW-21', 'USA#', 'USA/Alabama', False),
    ('TV-TW-22', 'USA+', 'USA+', True),
    ('TV-TW-23', 'USA+', 'USA/Alabama', False),
    ('TV-TW-24', 'level0/level1/#+/level4/level#', 'level0/level1/#+/level4/level#', True),
    ('TV-TW-25', 'level0/level1/#+/level4/level#', 'level0/level1/x/level4/levelx', False),
    ('TV-TW-26', 'level0/level1/+/level4/#', 'level0/level1/level2/level4', True),
    ('TV-TW-27', 'level0/level1/+/level4/#', 'level0/level1/level2/level4/level5/level6', True),
    ('TV-TW-28', 'level0/level1/+/level4/#', 'level0/level1/level4', False),
    ('TV-TW-29', '#/Results', 'Results', True),
    ('TV-TW-30', '#/Results', 'IBM/Software/Results', True),
    ('TV-TW-31', '#/Results', 'IBM/Results/2009', False),
    ('TV-TW-32', 'Sports/#/Leeds', 'Sports/Rugby/Leeds', True),
    ('TV-TW-33', 'Sports/#/Leeds', 'Sports/Leeds', True),
    ('TV-TW-34', 'Sports/#/Leeds', 'Sports/Rugby/Leeds/Stadium', False),
    ('TV-TW-35', 'Sports/#', 'Sports', True),
    ('TV-TW-36', 'Sports/#/Arsenal', 'Sports/Football/Arsenal', True),
    ('TV-TW-37', 'a/#/#/b', 'a/b', True),
    ('TV-TW-38', 'a/#/#/b', 'a/x/y/b', True),
    ('TV-TW-39', 'a/##/b', 'a/x/b', False),
    ('TV-TW-40', 'a/##/b', 'a/##/b', True),
    ('TV-TW-41', 'a/++', 'a/b', False),
    ('TV-TW-42', 'a/++', 'a/++', True),
    ('TV-TW-43', 'IBM/Business Area#/Results', 'IBM/Business Area#/Results', True),
    ('TV-TW-44', 'IBM/Business Area#/Results', 'IBM/Business Area/Results', False),
    ('TV-TW-45', '/+', '/USA', True),
    ('TV-TW-46', '/+', 'USA', False),
    ('TV-TW-47', '/#', '/USA/Alabama', True),
    ('TV-TW-48', '/#', 'USA/Alabama', False),
    ('TV-TW-49', '/', '/', True),
    ('TV-TW-50', '/', 'USA', False),
    ('TV-TW-51', 'Football/Scores', 'Football//Scores', False),
    ('TV-TW-52', 'Football/+/Scores', 'Football//Scores', True),
    ('TV-TW-53', 'USA/+', 'USA/', True),
    ('TV-TW-54', 'x/#/y', 'x/y', True),
    ('TV-TW-55', 'x/#/y', 'x/a/b/y', True),
    ('TV-TW-56', '+/+', 'a/b', True),
    ('TV-TW-57', '+/+', 'a', False),
    ('TV-TW-58', '+/+', 'a/b/c', False),
    ('TV-TW-59', 'USA/Ala+', 'USA/Alabama', False),
    ('TV-TW-60', 'Sport/Soccer', 'sport/soccer', False),
    ('TV-CW-01', 'IBM/*/Results', 'IBM/Software/Results', True),
    ('TV-CW-02', 'IBM/*/Results', 'IBM/Patents/Software/Results', True),
    ('TV-CW-03', 'IBM/*ware/Results', 'IBM/Software/Results', True),
    ('TV-CW-04', 'IBM/*ware/Results', 'IBM/Hardware/Results', True),
    ('TV-CW-05', 'IBM/*ware/Results', 'IBM/Services/Results', False),
    ('TV-CW-06', 'IBM/*ware/Results', 'IBM/Patents/Software/Results', True),
    ('TV-CW-07', '*', 'USA/Alabama/Auburn', True),
    ('TV-CW-08', '*', 'USA', True),
    ('TV-CW-09', 'IBM/*/Results', 'IBM/Results', False),
    ('TV-CW-10', 'IBM/*/Results', 'IBM//Results', True),
    ('TV-CW-11', 'IBM/Software/Result?', 'IBM/Software/Results', True),
    ('TV-CW-12', 'IBM/Software/Result?', 'IBM/Software/Result', False),
    ('TV-CW-13', 'IBM/Software/Result?', 'IBM/Software/Resultss', False),
    ('TV-CW-14', 'IBM/+/Results', 'IBM/Software/Results', False),
    ('TV-CW-15', 'IBM/+/Results', 'IBM/+/Results', True),
    ('TV-CW-16', 'Sports/#', 'Sports/Rugby', False),
    ('TV-CW-17', 'Sports/#', 'Sports/#', True),
    ('TV-CW-18', 'Sports/*', 'Sports', False),
    ('TV-CW-19', 'Sports/*', 'Sports/Rugby/Leeds', True),
    ('TV-CW-20', 'IBM/Diversity/%%African American', 'IBM/Diversity/%African American', True),
    ('TV-CW-22', 'IBM/%*', 'IBM/*', True),
    ('TV-CW-23', 'IBM/%*', 'IBM/Software', False),
    ('TV-CW-24', 'IBM/%?', 'IBM/?', True),
    ('TV-CW-25', 'IBM/%?', 'IBM/x', False),
    ('TV-CW-26', 'a?b', 'a/b', True),
    ('TV-CW-27', 'USA*', 'USA/Alabama', True),
    ('TV-CW-28', 'x/*/y', 'x/y', False),
]


@pytest.mark.parametrize(("vector", "pattern", "topic", "expected"), VECTORS, ids=[v[0] for v in VECTORS])
def test_matching_vectors(vector: str, pattern: str, topic: str, expected: bool) -> None:  # A:TV-TW-*, A:TV-CW-*
    matcher = char_match if vector.startswith("TV-CW") else topic_match
    assert matcher(pattern, topic) is expected


def test_empty_topic_string_is_invalid() -> None:  # A:TV-TW-61
    with pytest.raises(MQError) as info:
        check_topic_string("")
    assert info.value.reason == C.MQRC_TOPIC_STRING_ERROR


@pytest.mark.parametrize("pattern", ["IBM/Diversity/%African American", "abc%", "%x"])
def test_bad_escape_is_invalid(pattern: str) -> None:  # A:TV-CW-21, A:A-2
    with pytest.raises(MQError) as info:
        char_tokens(pattern)
    assert info.value.reason == C.MQRC_TOPIC_STRING_ERROR


TC = [
    ("TV-TC-01", "Football/Scores", " ", "Football/Scores"),
    ("TV-TC-02", " ", "Football/Scores", "Football/Scores"),
    ("TV-TC-03", "Football", "Scores", "Football/Scores"),
    ("TV-TC-04", "Football", "/Scores", "Football//Scores"),
    ("TV-TC-05", "/Football", "Scores", "/Football/Scores"),
    ("TV-TC-07", "Football", "", "Football"),
    ("TV-TC-08", "Football", " Scores", "Football"),
    ("TV-TC-09", "Football", "\0Scores", "Football"),
    ("TV-TC-10", "Sport/Soccer", "Results", "Sport/Soccer/Results"),
    ("TV-TC-11", "Sports/Football", "Arsenal", "Sports/Football/Arsenal"),
    ("TV-TC-12", "Sports/Rugby", "Leeds", "Sports/Rugby/Leeds"),
    ("TV-TC-13", "", "X/Y", "X/Y"),
    ("TV-TC-14", "Sports", "#", "Sports/#"),
]


@pytest.mark.parametrize(("vector", "object_topic", "object_string", "expected"), TC, ids=[t[0] for t in TC])
def test_topic_name_construction(vector: str, object_topic: str, object_string: str, expected: str) -> None:
    assert build_topic_string(object_topic, object_string) == expected  # A:TV-TC-*


@pytest.mark.parametrize(("object_topic", "object_string"), [("", ""), (" ", " "), (None, None)])
def test_no_topic_string_at_all(object_topic: str | None, object_string: str | None) -> None:  # A:TV-TC-06
    with pytest.raises(MQError) as info:
        build_topic_string(object_topic, object_string)
    assert info.value.reason == C.MQRC_TOPIC_STRING_ERROR


@pytest.mark.parametrize(("pattern", "char", "prefix"), [
    ("Sports/#/Leeds", False, ("Sports",)), ("#", False, ()), ("a/b", False, ("a", "b")),
    ("IBM/*ware/Results", True, ("IBM",)), ("Sports/*", True, ("Sports",)), ("*", True, ()),
    ("IBM/%*", True, ("IBM", "*")),
])
def test_literal_prefix(pattern: str, char: bool, prefix: tuple[str, ...]) -> None:  # A:R-ATO-5, A:A-23
    assert literal_prefix(pattern, char) == prefix


# -- the subscription index against brute force ------------------------------------------------
LEVELS = st.sampled_from(["", "a", "b", "a#", "#", "+", "*", "?", "%*", "ab"])
TOPIC_LEVELS = st.sampled_from(["", "a", "b", "a#", "#", "+", "*", "ab", "ba"])


def _pattern(parts: list[str]) -> str:
    return "/".join(parts)


def _valid_char(pattern: str) -> bool:
    try:
        char_tokens(pattern)
    except MQError:
        return False
    return True


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(st.lists(LEVELS, min_size=1, max_size=4), st.booleans()), min_size=1, max_size=25),
    st.lists(st.lists(TOPIC_LEVELS, min_size=1, max_size=5), min_size=1, max_size=15),
    st.lists(st.integers(min_value=0, max_value=24), max_size=10),
)
def test_index_matches_brute_force(patterns: list[tuple[list[str], bool]], topics: list[list[str]],
                                   removals: list[int]) -> None:
    index: SubscriptionIndex[int] = SubscriptionIndex()
    live: dict[int, tuple[str, bool]] = {}
    for key, (parts, char) in enumerate(patterns):
        pattern = _pattern(parts)
        if char and not _valid_char(pattern):
            continue
        index.add(key, pattern, char)
        live[key] = (pattern, char)
    for key in removals:
        if key in live:
            pattern, char = live.pop(key)
            index.remove(key, pattern, char)
    assert len(index) == len(live)
    for parts in topics:
        topic = _pattern(parts)
        expected = {k for k, (p, char) in live.items() if (char_match if char else topic_match)(p, topic)}
        got = index.match(topic)
        assert len(got) == len(set(got))
        assert set(got) == expected, (topic, live)


def test_index_removal_prunes_nodes() -> None:
    index: SubscriptionIndex[str] = SubscriptionIndex()
    index.add("s1", "a/b/c", False)
    index.add("s2", "a/+/c", False)
    index.add("s3", "a/*", True)
    index.add("s4", "a/b/c", False)
    assert sorted(index.match("a/b/c")) == ["s1", "s2", "s3", "s4"]
    for key, pattern, char in [("s1", "a/b/c", False), ("s2", "a/+/c", False), ("s3", "a/*", True),
                               ("s4", "a/b/c", False)]:
        index.remove(key, pattern, char)
    index.remove("gone", "a/b/c", False)  # absent: a no-op
    assert len(index) == 0
    assert index.match("a/b/c") == []


def test_removed_subscriptions_leave_no_nodes_behind() -> None:
    """An index that held 5,000 deep patterns holds next to nothing once they are removed."""
    index: SubscriptionIndex[str] = SubscriptionIndex()
    patterns = [(f"s{i}", f"region/{i % 50}/site/{i}/+/#", False) for i in range(5000)]
    tracemalloc.start()
    before, _ = tracemalloc.get_traced_memory()
    for key, pattern, char in patterns:
        index.add(key, pattern, char)
    full, _ = tracemalloc.get_traced_memory()
    for key, pattern, char in patterns:
        index.remove(key, pattern, char)
    after, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert len(index) == 0
    assert after - before < (full - before) / 20, f"{after - before} of {full - before} bytes still held"
