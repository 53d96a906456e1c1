"""runmqsc from tests: a script's output, its DISPLAY records, and a queue's depth."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from typing import Any

import mqlite.client as mqlite
from helpers.qmgrs import QMgr
from mqlite.cli.admin import NOT_AVAILABLE

RunCli = Callable[..., Any]


def mqsc(run_cli: RunCli, qmgr: QMgr, text: str, ok: bool = True) -> str:
    """The output of ``runmqsc`` fed ``text``; with ``ok`` every command must have worked."""
    result = run_cli("runmqsc", qmgr.name, input=text)
    if ok:
        assert result.returncode == 0, result.stdout
    return str(result.stdout)


def _displayed(run_cli: RunCli, qmgr: QMgr, text: str) -> str:
    """What DISPLAY ``text`` shows, over a local client connection when the queue manager is under
    this process's MQLITE_HOME (a poll then costs a connection, not a Python process: the tests
    poll depths thousands of times), else by ``runmqsc``. Commands that change anything go through
    ``mqsc``: the tests' pace between them stays what it was."""
    if os.environ.get("MQLITE_HOME") != str(qmgr.home):
        return mqsc(run_cli, qmgr, text, ok=False)
    try:
        with mqlite.connect(qmgr.name) as conn:
            _, lines = conn.mqsc(text)
    except (mqlite.MQMIError, OSError) as error:  # as runmqsc says it
        lines = [f"{NOT_AVAILABLE} {error}"]
    return "\n".join(lines)


def depth(run_cli: RunCli, qmgr: QMgr, queue: str) -> int:
    """CURDEPTH of a local queue (-1 when it cannot be shown)."""
    match = re.search(r"CURDEPTH\((\d+)\)", _displayed(run_cli, qmgr, f"DISPLAY QLOCAL({queue}) CURDEPTH\n"))
    return int(match[1]) if match else -1


def records(out: str, header: str) -> list[dict[str, str]]:
    """The ``ATTR(value)`` pairs of each DISPLAY record ``header`` (its AMQ message number) opens."""
    return [dict(re.findall(r"(\w+)\(([^)]*)\)", record)) for record in out.split(header)[1:]]
