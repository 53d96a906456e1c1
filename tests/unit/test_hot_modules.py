"""The hot modules' extensions run only when they are what their sources say (mqlite.hot_modules,
issue 34): MQLITE_PURE=1 and an edited source load every hot module from its source."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mqlite import hot_modules

SRC = hot_modules.PACKAGE_ROOT
PROBE = ("import json, mqlite.hot_modules as h, mqlite.server.runtime as r, mqlite.core.queues as q; "
         "print(json.dumps([h.CHOSEN, r.__file__, q.__file__]))")


def _probe(src: Path, **env: str) -> tuple[str, list[str]]:
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True,
                          env={**os.environ, "PYTHONPATH": str(src), **env}, cwd=src)
    chosen, *files = json.loads(done.stdout)
    return chosen, files


def _built() -> bool:
    return hot_modules.MANIFEST.exists() and bool(hot_modules.extensions())


def test_pure_loads_every_hot_module_from_its_source() -> None:
    chosen, files = _probe(SRC, MQLITE_PURE="1")
    assert chosen == ("pure" if hot_modules.MANIFEST.exists() else "absent")
    assert all(file.endswith(".py") for file in files), files


@pytest.fixture
def copied(tmp_path: Path) -> Path:
    if not _built():
        pytest.skip("the hot modules are not compiled here (no C compiler, or not built)")
    target = tmp_path / "src"
    shutil.copytree(SRC, target, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    return target


def test_a_current_build_loads_the_extensions(copied: Path) -> None:
    chosen, files = _probe(copied, MQLITE_PURE="")
    assert chosen == "compiled"
    assert all(file.endswith(".so") for file in files), files


def test_an_edited_hot_source_loads_them_all_from_source(copied: Path) -> None:
    queues = copied / "mqlite" / "core" / "queues.py"
    queues.write_text(queues.read_text() + "\n# edited after the build\n")
    chosen, files = _probe(copied, MQLITE_PURE="")
    assert chosen == "stale"
    assert all(file.endswith(".py") for file in files), files  # runtime.py too: all or none


def test_extensions_without_a_manifest_are_not_loaded(copied: Path) -> None:
    (copied / "mqlite" / "compiled.json").unlink()
    chosen, files = _probe(copied, MQLITE_PURE="")
    assert chosen == "absent"
    assert all(file.endswith(".py") for file in files), files


def test_a_build_for_another_python_is_stale(copied: Path) -> None:
    manifest = copied / "mqlite" / "compiled.json"
    built = json.loads(manifest.read_text())
    manifest.write_text(json.dumps({**built, "python": "cpython-30"}))
    assert _probe(copied, MQLITE_PURE="")[0] == "stale"
