"""Fixtures for every test directory: real queue managers in a temporary MQLITE_HOME.

- ``mqlite_home``: a fresh ``$MQLITE_HOME`` (also set in this process's environment, so an
  in-process ``mqlite.connect("QM1")`` finds it). At teardown every queue manager still running
  there is ended (``endmqm -i``) and, if that fails, killed by its pid: only processes started
  from this home, never anything else.
- ``run_cli(*args, input=None, timeout=60, env=None)``: runs the real ``mqlite`` console script
  and returns the ``CompletedProcess`` (text mode, stdout and stderr captured).
- ``qmgr_factory(name="QM1", port=True)``: ``crtmqm -p 0`` (no TCP listener with ``port=False``)
  + strmqm; returns a ``helpers.qmgrs.QMgr`` whose ``port`` is the one the system chose. Its
  users file lists ``helpers.credentials.APP``, whom TCP clients connect as, and APP's group is
  granted connect (``grant_app``).
- ``qmgr``: one started queue manager "QM1" with a TCP port: the usual fixture.
- ``refused_port``: a TCP port on 127.0.0.1 where nobody listens, held (bound, not listening)
  for the test so nothing else can take it: connecting to it is refused.

Shared helpers (not fixtures) live in the ``helpers`` package next to this file; test modules
use fixtures through their arguments (``import conftest`` is fragile with several conftests).
"""

from __future__ import annotations

import os
import socket
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from helpers.credentials import APP, add_user, grant_app
from helpers.qmgrs import QMgr, reap, run_mqlite

# make test is the same on every machine: Hypothesis draws its examples from a seed fixed per test
# (a CI run once found a decoder hang on its own random draw that no local run met). Exploring
# new inputs is the job of `pytest -m fuzz` (atheris) or HYPOTHESIS_PROFILE=explore.
# No clock either: Hypothesis's per-example deadline and its too-slow health check measure seconds,
# which a loaded machine (CI beside other jobs, a CPU hog) stretches until a correct test fails.
_NO_CLOCK = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}
settings.register_profile("repeatable", derandomize=True, database=None, **_NO_CLOCK)
settings.register_profile("explore", **_NO_CLOCK)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))

RunCli = Callable[..., "subprocess.CompletedProcess[str]"]


@pytest.fixture
def mqlite_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    home = tmp_path / "mqhome"
    home.mkdir()
    monkeypatch.setenv("MQLITE_HOME", str(home))
    monkeypatch.delenv("MQSERVER", raising=False)
    yield home
    reap(home)


@pytest.fixture
def run_cli(mqlite_home: Path) -> RunCli:
    def run(*args: str, input: str | None = None, timeout: float = 60,
            env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
        return run_mqlite(args, mqlite_home, input, timeout, env)

    return run


@pytest.fixture
def qmgr_factory(mqlite_home: Path, run_cli: RunCli) -> Callable[..., QMgr]:
    def make(name: str = "QM1", port: bool = True) -> QMgr:
        created = run_cli("crtmqm", *(["-p", "0"] if port else []), name)
        assert created.returncode == 0, created.stdout + created.stderr
        add_user(mqlite_home, name, APP)
        started = run_cli("strmqm", name)
        assert started.returncode == 0, started.stdout + started.stderr
        grant_app(mqlite_home, name)
        return QMgr(name, mqlite_home)

    return make


@pytest.fixture
def qmgr(qmgr_factory: Callable[..., QMgr]) -> QMgr:
    return qmgr_factory("QM1")


@pytest.fixture
def refused_port() -> Iterator[int]:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as held:
        held.bind(("127.0.0.1", 0))  # bound, never listening: a connection is refused
        yield held.getsockname()[1]


def pytest_itemcollected(item: pytest.Item) -> None:
    # `make test` runs on pytest-xdist workers with --dist loadgroup: each test module stays on one
    # worker (its module-scoped fixtures, OS users and queue managers are made once), and the Spark
    # modules share one worker, so one JVM (the session-scoped SparkSession) serves them all. The
    # mark goes on as each test is collected, before xdist's pytest_collection_modifyitems reads it
    # (a conftest's modifyitems ran after it: every module was spread over the three workers).
    # xdist 3.8 needs pytest < 9 for its groups (pyproject.toml), as pytest 9 ignores its node ids.
    module = item.nodeid.split("::", 1)[0].replace("\\", "/")
    group = "spark" if "spark/" in module else module
    item.add_marker(pytest.mark.xdist_group(group))
