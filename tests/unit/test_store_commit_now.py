"""Store.commit_now: a message channel's batch end committed on its caller's thread when the
writer is idle (issue 15), with or without an fsync, and StoreTx.only_records that decides it."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from mqlite.message import Message, MessageDescriptor
from mqlite.store import Store, StoreTx


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = Store(tmp_path / "qm.db")
    yield s
    s.close()


def idle(store: Store) -> None:
    deadline = time.monotonic() + 60  # an upper bound: the writer thread reaches its wait at once when idle
    while not store.writer_waiting:  # the writer thread has reached its wait
        assert time.monotonic() < deadline
        time.sleep(0.001)


def record_tx(key: str, value: object) -> StoreTx:
    tx = StoreTx()
    tx.put_record("chsync", key, value)
    return tx


def test_an_idle_writer_lets_the_caller_commit_and_it_is_there_on_return(store: Store) -> None:
    idle(store)
    assert store.commit_now(record_tx("S/A", {"seq": 1}))
    assert store.load_records("chsync") == {"S/A": {"seq": 1}}
    assert store.stats.inline == 1 and store.stats.commits == 1
    assert store.commit_now(record_tx("S/A", {"seq": 2}), sync=False)  # WAL written, no fsync
    assert store.load_records("chsync") == {"S/A": {"seq": 2}}


def test_a_busy_or_closed_writer_refuses_and_the_tx_is_submitted_instead(store: Store) -> None:
    idle(store)
    with store._lock:  # as while the writer gathers a group: something is ready (no notify)
        store._ready.append((StoreTx(), lambda error: None))
    assert not store.commit_now(record_tx("S/A", 1))
    with store._lock:
        store._ready.clear()
    store.close()
    assert not store.commit_now(record_tx("S/A", 1))


def test_a_failing_commit_raises_and_leaves_nothing(store: Store) -> None:
    idle(store)
    tx = record_tx("S/A", {"fine": 1})
    tx.put_record("chsync", "S/B", {1, 2})  # a set: msgpack cannot encode it, the tx fails
    with pytest.raises(Exception, match="set"):
        store.commit_now(tx)
    assert store.load_records("chsync") == {}
    idle(store)
    assert store.commit_now(record_tx("S/C", 3))  # and the store goes on


def test_an_unsynced_commit_survives_the_process_being_killed(tmp_path: Path) -> None:
    """sync=False skips the fsync, not the write: a killed process loses nothing (only a machine
    failure could)."""
    script = (
        "import os, sys, time\n"
        "from mqlite.store import Store, StoreTx\n"
        f"s = Store({str(tmp_path / 'qm.db')!r})\n"
        "while not s.writer_waiting: time.sleep(0.001)\n"
        "tx = StoreTx(); tx.put_record('chsync', 'R/A', {'seq': 7})\n"
        "assert s.commit_now(tx, sync=False)\n"
        "os.kill(os.getpid(), 9)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], check=False)
    assert done.returncode == -9
    with Store(tmp_path / "qm.db") as reopened:
        assert reopened.load_records("chsync") == {"R/A": {"seq": 7}}


def test_only_records_tells_a_tx_of_channel_sync_records_alone() -> None:
    tx = record_tx("S/A", 1)
    tx.put_record("chsync", "S/B", 2)
    assert tx.only_records("chsync") and StoreTx().only_records("chsync")
    assert not tx.only_records("object")
    tx.put_record("object", "Q", 1)
    assert not tx.only_records("chsync")
    with_message = record_tx("S/A", 1)
    with_message.put_message("Q", 1, Message(MessageDescriptor(), b"x"), 0.0)
    assert not with_message.only_records("chsync")
    deleting = record_tx("S/A", 1)
    deleting.delete_message("XMITQ", 4)
    assert not deleting.only_records("chsync")
