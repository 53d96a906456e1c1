"""Spark tests: one local SparkSession (``local[2]``) for the whole run, and real queue managers
from the integration fixtures (a temporary MQLITE_HOME, processes ended by pid)."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pyspark")

# The integration fixtures (real queue managers in a temporary MQLITE_HOME), shared as they are.
_spec = importlib.util.spec_from_file_location("mqlite_integration_fixtures",
                                               Path(__file__).parents[1] / "integration" / "conftest.py")
assert _spec is not None and _spec.loader is not None
_fixtures = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = _fixtures  # dataclasses look their module up while the class is made
_spec.loader.exec_module(_fixtures)
mqlite_home = _fixtures.mqlite_home
run_cli = _fixtures.run_cli
qmgr_factory = _fixtures.qmgr_factory
qmgr = _fixtures.qmgr


@pytest.fixture(scope="session")
def spark() -> Iterator[Any]:
    from mqlite.spark import local_session

    session = local_session("mqlite-tests", config={"spark.sql.shuffle.partitions": "2"}, log_level="WARN")
    yield session
    session.stop()
