"""Every constant pymqi's own tests name (``CMQC.X``, ``CMQCFC.X``, ``CMQXC.X``, ``CMQZC.X``) and
every top-level ``pymqi.X`` they call exists in mqlite: what the suite calls is found, even in
the tests that stay different for other reasons (conftest.DIFFERENCES)."""

from __future__ import annotations

import re
from pathlib import Path

import mqlite

UPSTREAM = Path(__file__).parent / "upstream"
_CONSTANT = re.compile(r"\b(CMQC|CMQCFC|CMQXC|CMQZC)\.([A-Z][A-Z0-9_]*)")
_TOP_LEVEL = re.compile(r"\bpymqi\.([A-Za-z_][A-Za-z0-9_]*)")


def _sources() -> str:
    return "".join(path.read_text(encoding="utf-8", errors="replace") for path in sorted(UPSTREAM.glob("*.py")))


def test_constants_the_suite_names() -> None:
    named = set(_CONSTANT.findall(_sources()))
    assert len(named) > 100
    missing = sorted(f"{module}.{name}" for module, name in named if not hasattr(getattr(mqlite, module), name))
    assert missing == []


def test_top_level_names_the_suite_calls() -> None:
    named = set(_TOP_LEVEL.findall(_sources())) - {"CMQC", "CMQCFC", "CMQXC", "CMQZC"}
    assert {"QueueManager", "PCFExecute", "RFH2", "ByteString", "CFGR", "__mqbuild__", "ensure_bytes"} <= named
    assert sorted(name for name in named if not hasattr(mqlite, name)) == []
