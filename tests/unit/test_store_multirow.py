"""The writer's multi-row statements (store/multirow.py): the same rows as one statement per row
would give, in a handful of statement shapes."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from mqlite.message import Message, MessageDescriptor
from mqlite.store import Store, StoreTx
from mqlite.store.multirow import (
    EXACT_ROWS,
    MAX_ROWS,
    STATEMENT_SHAPES,
    chunks,
    delete_statements,
    insert_statements,
)


@pytest.mark.parametrize("count", [0, 1, 2, 3, 7, 8, 50, 63, 64, 65, 100, 511, 512, 513, 1_300, 2_000])
def test_chunks_cover_every_row_once_in_few_shapes(count: int) -> None:
    pieces = list(chunks(count))
    covered = [i for start, size in pieces for i in range(start, start + size)]
    assert covered == list(range(count))
    *head, last = pieces or [(0, 0)]
    assert all(size & (size - 1) == 0 and EXACT_ROWS <= size <= MAX_ROWS for _, size in head)
    assert last[1] <= EXACT_ROWS or (last[1] & (last[1] - 1) == 0 and last[1] <= MAX_ROWS)
    assert len(pieces) <= count // MAX_ROWS + MAX_ROWS.bit_length()  # a few statements, whatever the count


def test_a_small_group_is_one_statement_of_its_own_size() -> None:
    """Seven synchronous producers' puts are one INSERT of seven rows, not 4 + 2 + 1."""
    for count in range(1, EXACT_ROWS + 1):
        assert list(chunks(count)) == [(0, count)]


def test_the_statement_shapes_are_bounded() -> None:
    sizes = {size for count in range(1, 3 * MAX_ROWS) for _, size in chunks(count)}
    assert len(sizes) <= STATEMENT_SHAPES


def _table() -> sqlite3.Connection:
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE t (k TEXT, n INTEGER, v BLOB, PRIMARY KEY (k, n))")
    return conn


def test_multirow_inserts_and_deletes_match_one_statement_per_row() -> None:
    rows = [(f"Q{n % 3}", n, bytes([n % 256]) * 3) for n in range(700)]
    one_by_one, multi = _table(), _table()
    one_by_one.executemany("INSERT INTO t (k, n, v) VALUES (?, ?, ?)", rows)
    statements = list(insert_statements("INSERT INTO t (k, n, v)", rows))
    assert len(statements) == len(list(chunks(700)))
    for sql, params in statements:
        multi.execute(sql, params)
    doomed = [(k, n) for k, n, _ in rows if n % 5 == 0]
    one_by_one.executemany("DELETE FROM t WHERE k = ? AND n = ?", doomed)
    for sql, params in delete_statements("DELETE FROM t WHERE k = ? AND n", doomed):
        multi.execute(sql, params)
    query = "SELECT k, n, v FROM t ORDER BY k, n"
    assert multi.execute(query).fetchall() == one_by_one.execute(query).fetchall()
    assert len(multi.execute(query).fetchall()) == 700 - len(doomed)


def test_a_group_of_many_puts_and_deletes_commits_through_the_store(tmp_path: Path) -> None:
    """A group larger than one statement, then deletes of every other message: what the store
    holds afterwards, read back after a reopen."""
    with Store(tmp_path / "qm.db") as store:
        tx = StoreTx()
        for seq in range(1, 1_201):
            tx.put_message("A" if seq % 2 else "B", seq, Message(MessageDescriptor(), b"%d" % seq), 0.0)
        store.write(tx)
        tx = StoreTx()
        for seq in range(1, 1_201, 4):
            tx.delete_message("A", seq)
        store.write(tx)
    with Store(tmp_path / "qm.db") as store:
        a = [row.seq for row in store.scan_index("A")]
        b = [row.seq for row in store.scan_index("B")]
        assert a == [seq for seq in range(1, 1_201, 2) if seq % 4 != 1]
        assert b == list(range(2, 1_201, 2))
        message = store.read_message("A", 3)
        assert message is not None and message.body == b"3"


def test_a_duplicate_in_a_multirow_insert_fails_only_its_own_tx(tmp_path: Path) -> None:
    """One statement carries rows of several txs: a bad one still fails alone (the group is retried
    tx by tx)."""
    import threading

    with Store(tmp_path / "qm.db") as store:
        first = StoreTx()
        first.put_message("Q", 1, Message(MessageDescriptor(), b"one"), 0.0)
        store.write(first)
        results: list[BaseException | None] = []
        both = threading.Semaphore(0)

        def record(error: BaseException | None) -> None:
            results.append(error)
            both.release()

        bad, good = StoreTx(), StoreTx()
        bad.put_message("Q", 1, Message(MessageDescriptor(), b"again"), 0.0)  # seq 1 exists
        good.put_message("Q", 2, Message(MessageDescriptor(), b"two"), 0.0)
        store.submit(bad, record)
        store.submit(good, record)
        assert both.acquire(timeout=60) and both.acquire(timeout=60)
        assert sum(1 for r in results if r is None) == 1
        assert any(isinstance(r, sqlite3.IntegrityError) for r in results)
        assert [row.seq for row in store.scan_index("Q")] == [1, 2]
