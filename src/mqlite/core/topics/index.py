"""The subscription index: which subscriptions match a publication's topic, at a cost that grows
with the topic's depth and the number of matches, not with the number of subscriptions.

A trie over topic levels. A topic-scheme pattern is stored at the node its levels reach, where a
``+`` level goes through the node's ``plus`` child and a ``#`` level through its ``hash`` child;
an exact topic (the common case) is a plain path of literal children. A character-scheme
pattern with wildcards sits at the node of its literal prefix (the complete levels before its
first ``*``/``?``) and is tested, with its compiled matcher, only when a topic passes through
that node. Nodes are small (``__slots__``, containers made on demand, a single key held without
a container) because a queue manager may hold a million subscriptions.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

from mqlite.core.topics.matching import _collapse, compile_matcher
from mqlite.core.topics.strings import has_char_wildcards, levels, literal_prefix, unescape_char_pattern

K = TypeVar("K", bound=Hashable)


class _Wild(str):
    """A wild step ('+' or '#'); a distinct type, so a literal level '+' is never taken for one."""


_PLUS, _HASH = _Wild("+"), _Wild("#")
Step = str


class _Node:
    __slots__ = ("chars", "children", "hash", "keys", "plus")

    def __init__(self) -> None:
        self.children: dict[str, _Node] | None = None
        self.plus: _Node | None = None
        self.hash: _Node | None = None
        self.keys: object = None  # None, one key, or a set of keys (patterns ending here)
        self.chars: list[tuple[Callable[[str], bool], object]] | None = None  # char-scheme wildcards

    def empty(self) -> bool:
        return (self.keys is None and not self.children and self.plus is None and self.hash is None
                and not self.chars)


class _KeySet(set[object]):
    """Several keys on one node (a distinct type, so a key that is itself a set is not confused)."""


class SubscriptionIndex(Generic[K]):
    def __init__(self) -> None:
        self._root = _Node()
        self._count = 0

    def __len__(self) -> int:
        return self._count

    # -- paths ---------------------------------------------------------------------------------
    @staticmethod
    def _steps(pattern: str, char_scheme: bool, pattern_levels: tuple[str, ...] | None) -> tuple[list[Step], bool]:
        """The trie steps of a pattern ('+' and '#' are wild steps in the topic scheme only) and
        whether it is a character-scheme wildcard pattern (stored at its literal prefix). The
        literal steps are the very strings of ``pattern_levels`` when the caller gives them, so a
        node's name is shared with the topic tree's."""
        if char_scheme:
            if has_char_wildcards(pattern):
                return list(literal_prefix(pattern, True)), True
            return list(levels(unescape_char_pattern(pattern))), False
        split = pattern_levels if pattern_levels is not None else levels(pattern)
        return [_PLUS if s == "+" else _HASH if s == "#" else s for s in _collapse(split)], False

    @staticmethod
    def _child(node: _Node, step: Step, create: bool) -> _Node | None:
        if step is _PLUS:
            if node.plus is None and create:
                node.plus = _Node()
            return node.plus
        if step is _HASH:
            if node.hash is None and create:
                node.hash = _Node()
            return node.hash
        name = step
        children = node.children
        child = children.get(name) if children is not None else None
        if child is None and create:
            if children is None:
                children = node.children = {}
            child = children[name] = _Node()
        return child

    # -- changes -------------------------------------------------------------------------------
    def add(self, key: K, pattern: str, char_scheme: bool, pattern_levels: tuple[str, ...] | None = None) -> None:
        steps, char_wild = self._steps(pattern, char_scheme, pattern_levels)
        node = self._root
        if char_wild:
            for level in steps:
                found = self._child(node, level, True)
                assert found is not None
                node = found
            if node.chars is None:
                node.chars = []
            node.chars.append((compile_matcher(pattern, True), key))
        else:
            for step in steps:
                found = self._child(node, step, True)
                assert found is not None
                node = found
            if node.keys is None:
                node.keys = key
            elif isinstance(node.keys, _KeySet):
                node.keys.add(key)
            else:
                node.keys = _KeySet((node.keys, key))
        self._count += 1

    def remove(self, key: K, pattern: str, char_scheme: bool) -> None:
        steps, char_wild = self._steps(pattern, char_scheme, None)
        path: list[tuple[_Node, Step]] = []
        node: _Node | None = self._root
        for step in steps:
            assert node is not None
            path.append((node, step))
            node = self._child(node, step, False)
            if node is None:
                return
        assert node is not None
        if char_wild:
            entries = node.chars or []
            kept = [entry for entry in entries if entry[1] is not key]
            if len(kept) == len(entries):
                return
            node.chars = kept or None
        elif node.keys is key:
            node.keys = None
        elif isinstance(node.keys, _KeySet) and key in node.keys:
            node.keys.discard(key)
            if len(node.keys) == 1:
                node.keys = next(iter(node.keys))
        else:
            return
        self._count -= 1
        for parent, step in reversed(path):  # prune what is left empty
            child = self._child(parent, step, False)
            if child is None or not child.empty():
                break
            if step is _PLUS:
                parent.plus = None
            elif step is _HASH:
                parent.hash = None
            else:
                assert parent.children is not None
                del parent.children[step]
                if not parent.children:
                    parent.children = None

    # -- matching -------------------------------------------------------------------------------
    def match(self, topic: str) -> list[K]:
        topic_levels = levels(topic)
        found: list[object] = []
        self._walk(self._root, topic_levels, 0, found)
        node: _Node | None = self._root
        depth = 0
        while node is not None:  # character-scheme wildcards along the topic's literal path
            if node.chars:
                found.extend(key for test, key in node.chars if test(topic))
            if depth == len(topic_levels) or node.children is None:
                break
            node = node.children.get(topic_levels[depth])
            depth += 1
        if len(found) > 1:  # a key can be reached twice through '#' (e.g. 'a/#/#' shapes)
            found = list(dict.fromkeys(found))
        return found  # type: ignore[return-value]

    def _walk(self, node: _Node, topic_levels: tuple[str, ...], i: int, found: list[object]) -> None:
        n = len(topic_levels)
        while True:
            hash_node = node.hash
            if hash_node is not None:
                _collect(hash_node.keys, found)  # 'x/#': any number of levels, zero included
                if hash_node.children is not None or hash_node.plus is not None or hash_node.hash is not None:
                    for j in range(i, n + 1):  # '#' takes j - i levels, then the rest of the pattern
                        self._after_hash(hash_node, topic_levels, j, found)
            if i == n:
                _collect(node.keys, found)
                return
            plus = node.plus
            if plus is not None:
                self._walk(plus, topic_levels, i + 1, found)
            children = node.children
            if children is None:
                return
            child = children.get(topic_levels[i])
            if child is None:
                return
            node, i = child, i + 1  # the literal path continues without recursion

    def _after_hash(self, node: _Node, topic_levels: tuple[str, ...], i: int, found: list[object]) -> None:
        """Continue below a '#' node from level ``i``, without counting the node's own keys again."""
        if i == len(topic_levels):
            return
        plus = node.plus
        if plus is not None:
            self._walk(plus, topic_levels, i + 1, found)
        if node.children is not None:
            child = node.children.get(topic_levels[i])
            if child is not None:
                self._walk(child, topic_levels, i + 1, found)


def _collect(keys: object, found: list[object]) -> None:
    if keys is None:
        return
    if isinstance(keys, _KeySet):
        found.extend(keys)
    else:
        found.append(keys)


__all__ = ["SubscriptionIndex"]
