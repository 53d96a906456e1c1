"""qm.ini: IBM's per-queue-manager configuration file of stanzas, read at start.

Only the stanzas mqlite acts on are used (``PublishSubscribe:`` for the publish exit,
``TuningParameters: MonitorPublishHeartBeat`` for the resource monitoring interval in seconds,
``Mqlite:``, ``CHANNELS:``); the file is optional. Format, as IBM writes it::

    PublishSubscribe:
       PublishExitPath=/path/to/exit.py
       PublishExitFunction=publish_exit
       PublishExitData=ABC
    TuningParameters:
       MonitorPublishHeartBeat=10
"""

from __future__ import annotations

from pathlib import Path


def parse(text: str) -> dict[str, dict[str, str]]:
    """Stanza name -> its Key=Value pairs (the last of repeated stanzas wins, as IBM reads them)."""
    stanzas: dict[str, dict[str, str]] = {}
    current: dict[str, str] | None = None
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].split(";", 1)[0].rstrip()
        if not line.strip():
            continue
        if not raw[:1].isspace() and line.endswith(":"):
            current = stanzas[line[:-1].strip()] = {}
        elif current is not None and "=" in line:
            key, value = line.strip().split("=", 1)
            current[key.strip()] = value.strip()
    return stanzas


def read(qmgr_dir: Path) -> dict[str, dict[str, str]]:
    path = qmgr_dir / "qm.ini"
    return parse(path.read_text()) if path.exists() else {}
