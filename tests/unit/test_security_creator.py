"""Who created a queue manager, the administrator besides group mqm: crtmqm records it; a queue
manager created before that was recorded takes its directory's owner (spec C A-31)."""

from __future__ import annotations

import os
import pwd
from pathlib import Path

import pytest

from mqlite import paths
from mqlite.server.os_identity import creator_of


def test_the_creator_crtmqm_recorded_and_else_the_directorys_owner(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MQLITE_HOME", str(tmp_path))
    paths.qmgr_dir("QMNEW").mkdir(parents=True)
    paths.write_config("QMNEW", {"name": "QMNEW", "creator": "alice"})
    assert creator_of("QMNEW") == "alice"
    paths.qmgr_dir("QMOLD").mkdir(parents=True)
    paths.write_config("QMOLD", {"name": "QMOLD"})  # before creators were recorded
    assert creator_of("QMOLD") == pwd.getpwuid(os.stat(paths.qmgr_dir("QMOLD")).st_uid).pw_name
