"""Run a pymqi program unchanged against mqlite: ``python -m mqlite.pymqi_run prog.py [args]``.

A program written for IBM MQ's pymqi (``import pymqi``, ``from pymqi import CMQC``,
``import pymqi.CMQC``), or for ``ibmmq``, the name IBM publishes pymqi's successor under
(``import ibmmq as mq``: the same classes and constant modules), gets mqlite's pymqi API under
those names, then runs as ``python prog.py args`` would run it: as ``__main__``, with
``sys.argv`` ``[prog.py, args...]`` and the program's directory first on ``sys.path``.
``-m module [args]`` runs a module the same way. Nothing of the program's text changes, and an
installed pymqi or ibmmq is not used (the names are taken before the program's first import).
Its exit status is the program's.
"""

from __future__ import annotations

import os
import runpy
import sys
import types

import mqlite

USAGE = "usage: python -m mqlite.pymqi_run PROGRAM.py [ARG ...] | -m MODULE [ARG ...]"

PACKAGES = ("pymqi", "ibmmq")
# pymqi's constant modules, importable as submodules (``import pymqi.CMQC``) and as names.
_SUBMODULES = ("CMQC", "CMQCFC", "CMQXC", "CMQZC")


def install() -> types.ModuleType:
    """Make ``import pymqi`` and ``import ibmmq`` (and their ``CMQC``, ``CMQCFC``, ``CMQXC``, ``CMQZC``)
    give mqlite's API."""
    for package in PACKAGES:
        sys.modules[package] = mqlite
        for name in _SUBMODULES:
            sys.modules[f"{package}.{name}"] = getattr(mqlite, name)
    return mqlite


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] in ("-h", "--help") or (args[0] == "-m" and len(args) < 2):
        print(USAGE, file=sys.stderr)
        raise SystemExit(2)
    install()
    if args[0] == "-m":
        sys.argv = [args[1], *args[2:]]
        sys.path.insert(0, os.getcwd())
        runpy.run_module(args[1], run_name="__main__", alter_sys=True)
        return
    program = args[0]
    if not os.path.exists(program):
        print(f"{sys.argv[0]}: can't open file {program!r}: no such file", file=sys.stderr)
        raise SystemExit(2)
    sys.argv = [program, *args[1:]]
    sys.path.insert(0, os.path.dirname(os.path.abspath(program)))
    runpy.run_path(program, run_name="__main__")


if __name__ == "__main__":
    main()
