"""dspmqver: IBM's ``Label: value`` lines, -f field numbers and -b, and the command level a
running queue manager reports (DISPLAY QMGR CMDLEVEL)."""

from __future__ import annotations

import platform
import re
import sqlite3
from importlib import metadata

from helpers.mqsc import RunCli, mqsc
from helpers.qmgrs import QMgr


def test_every_line_in_ibms_layout(run_cli: RunCli, qmgr: QMgr) -> None:
    result = run_cli("dspmqver")
    assert result.returncode == 0, result.stderr
    lines = dict(line.split(":", 1) for line in result.stdout.splitlines())
    values = {label: value.strip() for label, value in lines.items()}
    assert list(values)[:4] == ["Name", "Version", "Level", "BuildType"]
    assert values["Name"] == "mqlite"
    assert values["Version"] == metadata.version("mqlite")
    assert values["Python"].endswith(platform.python_version())
    assert values["SQLite"] == sqlite3.sqlite_version
    assert values["DataPath"] == str(qmgr.home)
    shown = re.search(r"CMDLEVEL\((\d+)\)", mqsc(run_cli, qmgr, "DISPLAY QMGR CMDLEVEL\n"))
    assert shown is not None and values["MaxCmdLevel"] == shown[1]
    assert all(re.fullmatch(r"[A-Za-z/]+: +\S.*", line) and line.index(line.split()[1]) == 13
               for line in result.stdout.splitlines())


def test_fields_and_brief(run_cli: RunCli) -> None:
    result = run_cli("dspmqver", "-f", "2", "-b")
    assert result.returncode == 0 and result.stdout == metadata.version("mqlite") + "\n"
    result = run_cli("dspmqver", "-f", str(1 + 4096))
    assert [line.split(":")[0] for line in result.stdout.splitlines()] == ["Name", "MaxCmdLevel"]


def test_a_component_mqlite_does_not_have(run_cli: RunCli) -> None:
    result = run_cli("dspmqver", "-p", "2")
    assert result.returncode == 1 and "AMQ8351E" in result.stderr and not result.stdout
