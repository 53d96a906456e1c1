"""runmqsc from tests: a script's output, its DISPLAY records, and a queue's depth."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from helpers.qmgrs import QMgr

RunCli = Callable[..., Any]


def mqsc(run_cli: RunCli, qmgr: QMgr, text: str, ok: bool = True) -> str:
    """The output of ``runmqsc`` fed ``text``; with ``ok`` every command must have worked."""
    result = run_cli("runmqsc", qmgr.name, input=text)
    if ok:
        assert result.returncode == 0, result.stdout
    return str(result.stdout)


def depth(run_cli: RunCli, qmgr: QMgr, queue: str) -> int:
    """CURDEPTH of a local queue (-1 when it cannot be shown)."""
    match = re.search(r"CURDEPTH\((\d+)\)", mqsc(run_cli, qmgr, f"DISPLAY QLOCAL({queue}) CURDEPTH\n", ok=False))
    return int(match[1]) if match else -1


def records(out: str, header: str) -> list[dict[str, str]]:
    """The ``ATTR(value)`` pairs of each DISPLAY record ``header`` (its AMQ message number) opens."""
    return [dict(re.findall(r"(\w+)\(([^)]*)\)", record)) for record in out.split(header)[1:]]
