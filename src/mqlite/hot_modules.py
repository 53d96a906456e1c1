"""Which hot modules run: their mypyc extensions, or their sources (see ``mqlite.compiled``).

Imported first by ``mqlite/__init__``, before anything imports a hot module: ``CHOSEN``, its
import's choice, is one of ``state``'s answers.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from importlib.machinery import ModuleSpec

HOT_MODULES: tuple[str, ...] = (
    "mqlite.message",
    "mqlite.protocol.native",
    "mqlite.protocol.native_shapes",
    "mqlite.core.queues",
    "mqlite.core.mqput",
    "mqlite.core.mqget",
    "mqlite.core.outbox",
    "mqlite.core.handles",
    "mqlite.core.properties_delivery",
    "mqlite.core.mqi",
    "mqlite.core.waiters",
    "mqlite.core.waiting",
    "mqlite.core.pubsub.publish",
    "mqlite.core.pubsub.delivery",
    "mqlite.core.pubsub.copies",
    "mqlite.core.pubsub.subscription",
    "mqlite.core.topics.tree",
    "mqlite.store.sqlite",
    "mqlite.store.tx",
    "mqlite.store.multirow",
    "mqlite.store.wakeup",
    "mqlite.store.gathering",
    "mqlite.server.busy_poll",
    "mqlite.server.runtime",
    "mqlite.server.native.connection",
    "mqlite.server.native.conversation",
    "mqlite.core.uow",
    "mqlite.protocol.xqh",
    "mqlite.protocol.channel_events",
    "mqlite.protocol.channel_shapes",
    "mqlite.protocol.channel",
    "mqlite.core.network.channels.channel",
    "mqlite.core.network.channels.transfer",
)
PACKAGE_ROOT = Path(__file__).resolve().parent.parent  # the directory holding mqlite/
MANIFEST = Path(__file__).resolve().parent / "compiled.json"
PURE_VARIABLE = "MQLITE_PURE"


def source(module: str) -> Path:
    return PACKAGE_ROOT / (module.replace(".", "/") + ".py")


def digest(module: str) -> str:
    return hashlib.sha256(source(module).read_bytes()).hexdigest()


def extensions() -> list[Path]:
    """The extension files a build leaves: one per hot module and mypyc's shared library."""
    found = [path for module in HOT_MODULES
             for path in source(module).parent.glob(module.rsplit(".", 1)[1] + ".*.so")]
    return found + list(PACKAGE_ROOT.glob("*__mypyc.*.so"))


def state() -> str:
    """``compiled``, ``stale`` (a hot source changed since the build), ``pure`` (MQLITE_PURE) or
    ``absent`` (never built, or cleaned)."""
    if not MANIFEST.exists():
        return "absent"
    if os.environ.get(PURE_VARIABLE, "") not in ("", "0"):
        return "pure"
    try:
        built = json.loads(MANIFEST.read_text())
    except (OSError, ValueError):
        return "stale"
    if built.get("python") != sys.implementation.cache_tag:
        return "stale"
    if any(built.get("sources", {}).get(module) != digest(module) for module in HOT_MODULES):
        return "stale"
    return "compiled"


class _SourceFirst:
    """Finds the hot modules' sources, ahead of their extensions (a meta path finder is anything
    with ``find_spec``: importlib.abc's base class would cost every ``import mqlite`` ~10 ms)."""

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if fullname not in HOT_MODULES:
            return None
        return importlib.util.spec_from_file_location(fullname, source(fullname))


def choose() -> str:
    """Load the hot modules from their sources unless the build is compiled and current (also
    when no manifest is there: extensions without one are a build cut short)."""
    found = state()
    if found != "compiled" and not any(isinstance(f, _SourceFirst) for f in sys.meta_path):
        sys.meta_path.insert(0, _SourceFirst())
        if found == "stale":
            print("mqlite: a hot module changed since it was compiled; running its source "
                  "(python -m mqlite.compiled build compiles it again)", file=sys.stderr)
    return found


CHOSEN = choose()
