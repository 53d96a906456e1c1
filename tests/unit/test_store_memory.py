"""An idle queue manager gives memory back: the store shrinks SQLite's page caches on request
(``Store.release_memory``), and glibc's heaps are trimmed (``server.memory.trim_c_heap``)."""

from __future__ import annotations

import ctypes
import ctypes.util
from collections.abc import Callable
from pathlib import Path

import pytest

from helpers.waiting import wait_until
from mqlite.message import Message, MessageDescriptor
from mqlite.server.memory import trim_c_heap
from mqlite.store import Store, StoreTx


def sqlite_memory_used() -> Callable[[], int]:
    name = ctypes.util.find_library("sqlite3")
    if name is None:
        pytest.skip("no SQLite shared library to ask")
    used = ctypes.CDLL(name).sqlite3_memory_used
    used.restype = ctypes.c_int64
    return used  # type: ignore[no-any-return]


def test_release_memory_shrinks_the_page_caches_and_the_store_goes_on(tmp_path: Path) -> None:
    used = sqlite_memory_used()
    with Store(tmp_path / "qm.db") as store:
        for batch in range(20):  # 20 MB of rows: the writer's page cache fills
            tx = StoreTx()
            for n in range(1000):
                tx.put_message("Q", batch * 1000 + n + 1, Message(MessageDescriptor(), b"x" * 1024), 0.0)
            store.write(tx)
        assert sum(1 for _ in store.scan_index("Q")) == 20_000  # this thread's reader cache too
        filled = used()
        assert filled > 8 * 2**20
        store.release_memory()
        wait_until(lambda: used() < filled / 4, "SQLite gave its page caches back")
        tx = StoreTx()
        tx.delete_message("Q", 1)
        store.write(tx)  # the writer still works
        assert store.read_message("Q", 1) is None


def test_the_c_heap_can_be_trimmed_on_glibc() -> None:
    if not hasattr(ctypes.CDLL(None), "malloc_trim"):
        pytest.skip("not glibc")
    assert trim_c_heap()
