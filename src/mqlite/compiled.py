"""The hot modules compiled with mypyc, and the pure-Python package where they are not.

The modules every message passes through (``mqlite.hot_modules.HOT_MODULES``: the native
protocol's frames, the server's connection, conversation and rounds, the queues, MQPUT and
MQGET, publication, the store's writer) are compiled into C extensions beside their sources by
``python -m mqlite.compiled build`` (``make compiled``, which make test, demo and cost run). The
code is ``mypy --strict`` already, so mypyc compiles it as it is; a put+get costs the queue
manager half the instructions (docs/PERFORMANCE.md, issue 34).

Python imports an extension module before a source of the same name, so two cases are handled
at import (``mqlite.hot_modules.choose``, run by ``import mqlite``), both by loading every hot
module from its source: ``MQLITE_PURE=1`` (the pure-Python build, which ``make test-pure`` runs), and a
source edited since the build (the manifest keeps each source's hash): a stale extension must
never run in place of the code beside it. It is all or none: compiled modules call each other
directly, so one loaded from source beside compiled ones would define its classes twice.

    python -m mqlite.compiled build     # compile (again, if a hot source changed)
    python -m mqlite.compiled status    # compiled, stale, pure or absent
    python -m mqlite.compiled clean     # remove the extensions: the pure-Python package
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from mqlite.hot_modules import HOT_MODULES, MANIFEST, PACKAGE_ROOT, PURE_VARIABLE, digest, extensions, source, state

_SETUP = """\
import sys
from setuptools import setup
from mypyc.build import mypycify

setup(name="mqlite-hot", ext_modules=mypycify(sys.argv.pop(1).split(","), opt_level="3", debug_level="0",
                                             target_dir=sys.argv.pop(1)))
"""


def build(force: bool = False) -> int:
    """Compile the hot modules in place; 0 also when there is nothing to do or no compiler."""
    if not force and state() in ("compiled", "pure"):
        return 0
    if shutil.which(os.environ.get("CC", "cc")) is None and shutil.which("gcc") is None:
        print("mqlite: no C compiler: the pure-Python package runs", file=sys.stderr)
        return 0
    clean()
    sources = [str(source(module).relative_to(PACKAGE_ROOT)) for module in HOT_MODULES]
    with tempfile.TemporaryDirectory(prefix="mqlite-mypyc.") as work:
        setup = Path(work) / "setup.py"
        setup.write_text(_SETUP)
        args = ",".join(["--strict", "--cache-dir", str(Path(work) / "mypy_cache"), *sources])
        env = {**os.environ, PURE_VARIABLE: "1"}  # mypyc imports nothing of mqlite, but just in case
        done = subprocess.run([sys.executable, str(setup), args, str(Path(work) / "c"), "build_ext", "--inplace",
                               "--build-temp", str(Path(work) / "temp"), "--build-lib", str(Path(work) / "lib")],
                              cwd=PACKAGE_ROOT, env=env, capture_output=True, text=True)
    if done.returncode:
        clean()
        print(done.stdout[-4000:] + done.stderr[-4000:], file=sys.stderr)
        print("mqlite: the hot modules did not compile: the pure-Python package runs", file=sys.stderr)
        return done.returncode
    manifest = {"python": sys.implementation.cache_tag,
                "sources": {module: digest(module) for module in HOT_MODULES}}
    MANIFEST.write_text(json.dumps(manifest, indent=1) + "\n")
    return 0


def clean() -> None:
    for path in extensions():
        path.unlink()
    MANIFEST.unlink(missing_ok=True)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    command = args[0] if args else "status"
    if command == "build":
        return build(force="--force" in args)
    if command == "clean":
        clean()
        return 0
    if command == "status":
        print(state())
        return 0
    print("\n".join(__doc__.strip().splitlines()[-3:]), file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
