"""Where a queue manager's files live: ``$MQLITE_HOME/qmgrs/<QM>/``.

Every module that needs a path asks here, so the layout is written down once.
"""

from __future__ import annotations

import hashlib
import json
import os
import socket
from pathlib import Path

QM_CONFIG = "qm.json"
STORE_FILE = "store.sqlite"
ERROR_LOG = "AMQERR01.LOG"
PID_FILE = "qmgr.pid"
SOCKET_FILE = "qmgr.sock"
LISTENERS_FILE = "listeners.json"  # the TCP ports a running queue manager listens on
# Linux limits a Unix socket path to 107 bytes; longer homes use the abstract namespace.
_MAX_SOCKET_PATH = 100


def home() -> Path:
    return Path(os.environ.get("MQLITE_HOME") or Path.home() / ".mqlite")


def qmgrs_dir() -> Path:
    return home() / "qmgrs"


def qmgr_dir(name: str) -> Path:
    return qmgrs_dir() / name


def store_path(name: str) -> Path:
    return qmgr_dir(name) / STORE_FILE


def error_log_path(name: str) -> Path:
    return qmgr_dir(name) / ERROR_LOG


def pid_path(name: str) -> Path:
    return qmgr_dir(name) / PID_FILE


def users_path(name: str) -> Path:
    """The queue manager's users and password hashes (``mqlite passwd``)."""
    return qmgr_dir(name) / "users"


def key_repository(name: str) -> Path:
    """The queue manager's default key repository (QMGR SSLKEYR when blank), as IBM's
    ``/var/mqm/qmgrs/<QM>/ssl/key``: a directory of PEM files (``mqlite.keyrepo``)."""
    return qmgr_dir(name) / "ssl" / "key"


def config_path(name: str) -> Path:
    return qmgr_dir(name) / QM_CONFIG


def socket_address(name: str) -> str:
    """The Unix socket a local application connects to (abstract when the path is too long)."""
    path = qmgr_dir(name) / SOCKET_FILE
    text = str(path)
    if len(text.encode()) <= _MAX_SOCKET_PATH:
        return text
    digest = hashlib.sha1(text.encode()).hexdigest()[:16]
    return f"\0mqlite-{digest}"


def listeners_path(name: str) -> Path:
    """The ports a running queue manager is listening on: ``{"tcp": 1414, "channels":
    {"SYSTEM.MQTT.DEFAULT": 1883}}`` (``"tcp": null`` when it takes local connections only).
    Written before it accepts connections and whenever a channel starts or stops, removed when it
    ends; the way to learn a port the system chose (``crtmqm -p 0``, ``PORT(0)``)."""
    return qmgr_dir(name) / LISTENERS_FILE


def read_listeners(name: str) -> dict[str, object]:
    with open(listeners_path(name)) as f:
        data: dict[str, object] = json.load(f)
    return data


def read_config(name: str) -> dict[str, object]:
    with open(config_path(name)) as f:
        data: dict[str, object] = json.load(f)
    return data


def write_config(name: str, config: dict[str, object]) -> None:
    _write_json(config_path(name), config)


def write_listeners(name: str, listeners: dict[str, object]) -> None:
    _write_json(listeners_path(name), listeners)


def _write_json(path: Path, data: dict[str, object]) -> None:
    """Replaced whole, so a reader never sees half a file."""
    tmp = path.with_suffix(".tmp")
    with open(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as f:  # owner's only
        json.dump(data, f, indent=2)
    os.replace(tmp, path)


def installed_qmgrs() -> list[str]:
    """The queue managers created under MQLITE_HOME, in name order (the names their qm.json gives)."""
    root = qmgrs_dir()
    if not root.is_dir():
        return []
    names = []
    for entry in sorted(root.iterdir()):
        if not (entry / QM_CONFIG).is_file():
            continue
        try:
            name = read_config(entry.name).get("name")
        except (OSError, ValueError):
            name = None
        names.append(name if isinstance(name, str) and name else entry.name)
    return names


def accepts_connections(name: str, timeout: float = 1.0) -> bool:
    """True while the queue manager's Unix socket accepts a connection (it is running)."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(timeout)
    try:
        sock.connect(socket_address(name))
    except OSError:
        return False
    finally:
        sock.close()
    return True


def default_qmgr() -> str | None:
    """The default queue manager (``crtmqm -q``), if one was named."""
    try:
        with open(home() / "mqs.json") as f:
            value = json.load(f).get("default")
    except (OSError, ValueError):
        return None
    return value if isinstance(value, str) and qmgr_dir(value).is_dir() else None


def set_default_qmgr(name: str | None) -> None:
    home().mkdir(parents=True, exist_ok=True)
    with open(home() / "mqs.json", "w") as f:
        json.dump({"default": name}, f)
