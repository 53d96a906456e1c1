"""dspmqver: the version of mqlite and of what it runs on, in IBM's ``Name: value`` layout.

IBM's lines are kept where mqlite has the thing they name (Name, Version, Level, BuildType,
Platform, Mode, O/S, InstPath, DataPath, MaxCmdLevel), with their ``-f`` field numbers, so a
script that reads ``Version:`` or asks for ``-f 2 -b`` works; mqlite adds ``Python:`` and
``SQLite:`` (its runtime and its storage engine). MaxCmdLevel is the command level a queue
manager reports as DISPLAY QMGR CMDLEVEL (MQCMDL_LEVEL_700: the commands of WebSphere MQ 7.0).
"""

from __future__ import annotations

import platform
import sqlite3
import sys
from importlib import metadata
from pathlib import Path

import click

from mqlite import cmqc, paths
from mqlite.cli.common import fail

COMMAND_LEVEL = cmqc.MQCMDL_LEVEL_700  # what DISPLAY QMGR CMDLEVEL shows (checked by a unit test)
RC_NOT_INSTALLED = 1

# IBM's field numbers (dspmqver -f), then mqlite's own.
_FIELDS: tuple[tuple[int, str], ...] = (
    (1, "Name"), (2, "Version"), (4, "Level"), (8, "BuildType"), (16, "Platform"), (32, "Mode"),
    (64, "O/S"), (512, "InstPath"), (1024, "DataPath"), (4096, "MaxCmdLevel"),
    (1 << 20, "Python"), (1 << 21, "SQLite"),
)
ALL_FIELDS = sum(bit for bit, _ in _FIELDS)
_WIDTH = 13  # IBM pads the label and its colon to 13 columns ("Name:        IBM MQ")


def version() -> str:
    try:
        return metadata.version("mqlite")
    except metadata.PackageNotFoundError:  # running from a source tree that was never installed
        return "0+unknown"


def fields() -> dict[str, str]:
    """Every line dspmqver can print, label -> value."""
    package = Path(__file__).resolve().parents[1]  # the mqlite package (not imported: it loads the server)
    release = version()
    machine = platform.machine() or "unknown"
    system = platform.system() or sys.platform
    editable = package.parent.name != "site-packages"
    return {
        "Name": "mqlite",
        "Version": release,
        "Level": f"p{release.replace('.', '')}-mqlite",
        "BuildType": "Python package - " + ("(Development)" if editable else "(Production)"),
        "Platform": f"mqlite for {system} ({machine} platform)",
        "Mode": f"{64 if sys.maxsize > 2**32 else 32}-bit",
        "O/S": f"{system} {platform.release()}".strip(),
        "InstPath": str(package),
        "DataPath": str(paths.home()),
        "MaxCmdLevel": str(COMMAND_LEVEL),
        "Python": f"{platform.python_implementation()} {platform.python_version()}",
        "SQLite": sqlite3.sqlite_version,
    }


def render(mask: int = ALL_FIELDS, brief: bool = False) -> list[str]:
    """The lines for the fields in ``mask`` (IBM's -f), with labels unless ``brief`` (-b)."""
    values = fields()
    lines = []
    for bit, label in _FIELDS:
        if mask & bit:
            lines.append(values[label] if brief else f"{label + ':':<{_WIDTH}}{values[label]}")
    return lines


@click.command()
@click.option("-p", "product", type=int, default=1, show_default=True,
              help="Product component: 1, the queue manager and its client (the only one mqlite has).")
@click.option("-f", "mask", type=int, default=ALL_FIELDS,
              help="Fields to show, IBM's numbers added up: 1 Name, 2 Version, 4 Level, 8 BuildType, "
                   "16 Platform, 32 Mode, 64 O/S, 512 InstPath, 1024 DataPath, 4096 MaxCmdLevel; "
                   "mqlite's 1048576 Python, 2097152 SQLite.")
@click.option("-b", "brief", is_flag=True, help="Values only, without their labels.")
@click.option("-a", "all_components", is_flag=True, help="Every component (mqlite has one).")
@click.option("-v", "verbose", is_flag=True, help="Accepted for IBM's scripts; the output is the same.")
def dspmqver(product: int, mask: int, brief: bool, all_components: bool, verbose: bool) -> None:
    """Display the version of mqlite, of Python and SQLite, and the command level (like IBM's dspmqver)."""
    if product != 1 and not all_components:
        fail(f"AMQ8351E: Product component {product} is not installed.", RC_NOT_INSTALLED)
    for line in render(mask, brief):
        click.echo(line)
