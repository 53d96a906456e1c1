"""mqlite.store: the only module that touches SQLite (see sqlite.py for the why)."""

from mqlite.store.sqlite import IndexRow, Store, StoreStats
from mqlite.store.tx import StoreTx

__all__ = ["IndexRow", "Store", "StoreStats", "StoreTx"]
