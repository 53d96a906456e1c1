"""Queue managers shared by the tests of one module (``scope="module"`` fixtures): started once
in their own MQLITE_HOME, ended (by pid) when the module is done."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from helpers.credentials import APP, add_user, grant_app
from helpers.mqsc import RunCli
from helpers.qmgrs import QMgr, reap, run_mqlite


def runner(home: Path) -> RunCli:
    def run_cli(*args: str, input: str | None = None, timeout: float = 60) -> Any:
        return run_mqlite(tuple(args), home, input=input, timeout=timeout)

    return run_cli


@contextlib.contextmanager
def started(home: Path, names: Sequence[str], qm_ini: str = "") -> Iterator[tuple[dict[str, QMgr], RunCli]]:
    """``names`` created (``crtmqm -p 0``) and started under ``home``, each with ``qm_ini`` as its
    qm.ini when given; MQLITE_HOME points there meanwhile (the client finds them) and is put back after."""
    home.mkdir(parents=True, exist_ok=True)
    run_cli = runner(home)
    before = os.environ.get("MQLITE_HOME")
    os.environ["MQLITE_HOME"] = str(home)  # module-scoped: monkeypatch is per test
    try:
        qmgrs: dict[str, QMgr] = {}
        for name in names:
            assert run_cli("crtmqm", "-p", "0", name).returncode == 0
            if qm_ini:
                (home / "qmgrs" / name / "qm.ini").write_text(qm_ini)
            add_user(home, name, APP)
            assert run_cli("strmqm", name).returncode == 0
            grant_app(home, name)
            qmgrs[name] = QMgr(name, home)
        yield qmgrs, run_cli
    finally:
        reap(home)
        if before is None:
            os.environ.pop("MQLITE_HOME", None)
        else:
            os.environ["MQLITE_HOME"] = before
