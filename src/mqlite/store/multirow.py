"""Many rows in one SQL statement: the writer's inserts and deletes of messages.

Why not ``executemany``: Python's sqlite3 releases the GIL around every ``sqlite3_step``, so an
``executemany`` of N rows hands the GIL back and forth N times. While the event loop is busy (a
producer streaming puts, an agent republishing) the writer thread then waits for the loop to let
go of the GIL at every row: measured, 4,000 inserts took 30 ms on an idle process and 34 s beside
a busy thread; as one multi-row statement per 256 rows, 189 ms. One statement is one step, so a
group's messages cost the writer a few GIL hand-offs instead of one per row.

A group of up to ``EXACT_ROWS`` rows is one statement of exactly that many rows: synchronous
callers make small groups of any size (7 producers, 7 rows), and cutting them into powers of two
(4 + 2 + 1) cost the writer a step, a bind and a GIL hand-off per extra statement: measured with
8 synchronous producers, the writer's apply step took 120-134 µs per group instead of 139-153,
and persistent puts/s rose by about 8 % (docs/PERFORMANCE.md). Above that, powers of two (at most
``MAX_ROWS``) and an exact remainder, so a bounded set of statement shapes serve every group and
stay in the connection's statement cache (``STATEMENT_SHAPES``).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache
from itertools import chain
from typing import Any

MAX_ROWS = 512  # rows per statement: 5,120 variables for a message row, far below SQLite's 32,766
EXACT_ROWS = 64  # up to this many rows: one statement of exactly that size
# Distinct statements chunks() can ask for, per kind of statement: the exact sizes and the powers
# of two above them (the store's statement cache holds them all, for inserts and deletes).
STATEMENT_SHAPES = EXACT_ROWS + (MAX_ROWS // EXACT_ROWS).bit_length()

Row = tuple[Any, ...]


def chunks(count: int) -> Iterator[tuple[int, int]]:
    """(start, size) pieces of ``count`` rows: powers of two no larger than ``MAX_ROWS`` while
    more than ``EXACT_ROWS`` rows are left, then the rest in one piece."""
    start = 0
    while count - start > EXACT_ROWS:
        size = min(MAX_ROWS, 1 << ((count - start).bit_length() - 1))
        yield start, size
        start += size
    if start < count:
        yield start, count - start


@lru_cache(maxsize=4 * STATEMENT_SHAPES)  # every shape, for a few heads
def insert_sql(head: str, columns: int, rows: int) -> str:
    """``head`` (``INSERT INTO t (a, b)``) followed by ``rows`` groups of ``columns`` placeholders."""
    group = "(" + ",".join("?" * columns) + ")"
    return head + " VALUES " + ",".join([group] * rows)


@lru_cache(maxsize=4 * STATEMENT_SHAPES)  # every shape, for a few heads
def delete_sql(head: str, rows: int) -> str:
    """``head`` (``DELETE FROM t WHERE k = ? AND n``) ``IN`` ``rows`` placeholders."""
    return head + " IN (" + ",".join("?" * rows) + ")"


def insert_statements(head: str, rows: Sequence[Row]) -> Iterator[tuple[str, tuple[Any, ...]]]:
    """The statements that insert ``rows`` (all of one width), in order."""
    columns = len(rows[0])
    if len(rows) == 1:  # a synchronous caller's tx: the row is the statement's parameters
        yield insert_sql(head, columns, 1), rows[0]
        return
    for start, size in chunks(len(rows)):
        yield insert_sql(head, columns, size), tuple(chain.from_iterable(rows[start:start + size]))


def delete_statements(head: str, rows: Sequence[tuple[Any, Any]]) -> Iterator[tuple[str, tuple[Any, ...]]]:
    """The statements that delete ``rows`` of (key, number), grouped by key: ``head`` names the
    key's column with a placeholder and then the number's column, e.g.
    ``DELETE FROM messages WHERE queue = ? AND seq``."""
    if len(rows) == 1:
        yield delete_sql(head, 1), tuple(rows[0])
        return
    by_key: dict[Any, list[Any]] = {}
    for key, number in rows:
        numbers = by_key.get(key)
        if numbers is None:
            by_key[key] = [number]
        else:
            numbers.append(number)
    for key, numbers in by_key.items():
        for start, size in chunks(len(numbers)):
            yield delete_sql(head, size), (key, *numbers[start:start + size])
