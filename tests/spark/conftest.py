"""Spark tests: one local SparkSession (``local[2]``) for the whole run; the queue managers come
from ``tests/conftest.py`` (a temporary MQLITE_HOME, processes ended by pid)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("pyspark")


@pytest.fixture(scope="session")
def spark() -> Iterator[Any]:
    from mqlite.spark import local_session

    session = local_session("mqlite-tests", config={"spark.sql.shuffle.partitions": "2"}, log_level="WARN")
    yield session
    session.stop()
