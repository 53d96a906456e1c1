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
    """What ``runmqsc`` prints for ``text``; with ``ok`` every command must have worked.

    Run over a local client connection when this process's MQLITE_HOME is the queue manager's
    (the tests' thousands of looks cost a connection each, not a Python process each, which made
    a tenth of ``make test``); otherwise by the real ``runmqsc``. The command line itself is tested
    in ``test_cli_runmqsc.py``."""
    if os.environ.get("MQLITE_HOME") != str(qmgr.home):
        result = run_cli("runmqsc", qmgr.name, input=text)
        if ok:
            assert result.returncode == 0, result.stdout
        return str(result.stdout)
    try:
        with mqlite.connect(qmgr.name) as conn:
            code, lines = conn.mqsc(text)
    except (mqlite.MQMIError, OSError) as error:  # as runmqsc says it (exit code 20)
        code, lines = 20, [f"{NOT_AVAILABLE} {error}"]
    out = f"Starting MQSC for queue manager {qmgr.name}.\n\n" + "".join(f"{line}\n" for line in lines)
    if ok:
        assert code == 0, out
    return out


def depth(run_cli: RunCli, qmgr: QMgr, queue: str) -> int:
    """CURDEPTH of a local queue (-1 when it cannot be shown)."""
    match = re.search(r"CURDEPTH\((\d+)\)", mqsc(run_cli, qmgr, f"DISPLAY QLOCAL({queue}) CURDEPTH\n", ok=False))
    return int(match[1]) if match else -1


def records(out: str, header: str) -> list[dict[str, str]]:
    """The ``ATTR(value)`` pairs of each DISPLAY record ``header`` (its AMQ message number) opens."""
    return [dict(re.findall(r"(\w+)\(([^)]*)\)", record)) for record in out.split(header)[1:]]
