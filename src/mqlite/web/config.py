"""The web server's settings (IBM's mqwebuser.xml variables, ``setmqweb properties -k ... -v ...``)
and where its files live: ``$MQLITE_HOME/web/`` holds ``web.json`` (the settings), ``mqweb.pid``,
``endpoints.json`` (the port it bound, written before it serves, as ``listeners.json`` is for a
queue manager) and ``mqweb.log``."""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

from mqlite import paths

CONFIG_FILE = "web.json"
PID_FILE = "mqweb.pid"
ENDPOINTS_FILE = "endpoints.json"
LOG_FILE = "mqweb.log"
DEFAULT_HTTP_PORT = 9080
DEFAULT_HTTPS_PORT = 9443
DEFAULT_LABEL = "mqweb"  # the personal certificate's label in keyRepository (mqlite mkcert --label)
DEFAULT_MAX_BODY = 4 * 1024 * 1024  # IBM's messaging REST API takes messages up to 4 MB
DEFAULT_CORS_MAX_AGE = 1800  # IBM's mqRestCorsMaxAgeInSeconds default


@dataclass(frozen=True, slots=True)
class WebConfig:
    """What ``setmqweb properties`` sets. TLS is on when ``keyRepository`` names a key repository
    directory (``mqlite mkcert``'s PEM files) holding ``certLabel``'s personal certificate; then
    ``httpsPort`` is the port, else ``httpPort``. Port 0: the system picks (see endpoints.json)."""

    httpHost: str = "localhost"  # IBM's variable names, as setmqweb takes them
    httpPort: int = DEFAULT_HTTP_PORT
    httpsPort: int = DEFAULT_HTTPS_PORT
    keyRepository: str = ""
    certLabel: str = DEFAULT_LABEL
    maxRequestBodySize: int = DEFAULT_MAX_BODY
    mqRestCorsAllowedOrigins: str = ""  # comma-separated origins (or *) a browser may call from (cors.py)
    mqRestCorsMaxAgeInSeconds: int = DEFAULT_CORS_MAX_AGE

    @property
    def tls(self) -> bool:
        return bool(self.keyRepository)

    @property
    def port(self) -> int:
        return self.httpsPort if self.tls else self.httpPort

    @property
    def cors_origins(self) -> frozenset[str]:
        return frozenset(o.strip().rstrip("/") for o in self.mqRestCorsAllowedOrigins.split(",") if o.strip())


KEYS = tuple(f.name for f in fields(WebConfig))
_INT_KEYS = {"httpPort", "httpsPort", "maxRequestBodySize", "mqRestCorsMaxAgeInSeconds"}


def web_dir() -> Path:
    return paths.home() / "web"


def config_path() -> Path:
    return web_dir() / CONFIG_FILE


def pid_path() -> Path:
    return web_dir() / PID_FILE


def endpoints_path() -> Path:
    return web_dir() / ENDPOINTS_FILE


def log_path() -> Path:
    return web_dir() / LOG_FILE


def read_pid() -> int | None:
    try:
        return int(pid_path().read_text().strip())
    except (OSError, ValueError):
        return None


def read_endpoints() -> dict[str, Any]:
    """What the running server bound (empty when none runs or it has not bound yet)."""
    try:
        data = json.loads(endpoints_path().read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def load() -> WebConfig:
    """The settings in web.json, defaults for what it does not say (or when it is missing)."""
    try:
        data = json.loads(config_path().read_text())
    except (OSError, ValueError):
        data = {}
    known = {k: v for k, v in data.items() if k in KEYS} if isinstance(data, dict) else {}
    return replace(WebConfig(), **known)


def with_property(config: WebConfig, key: str, value: str) -> WebConfig:
    """``config`` with one property set from its text; ValueError for an unknown key or a bad value."""
    if key not in KEYS:
        raise ValueError(f"unknown property {key!r}; known: {', '.join(KEYS)}")
    if key in _INT_KEYS:
        number = int(value)
        if key.endswith("Port") and not 0 <= number <= 65535:
            raise ValueError(f"{key} must be a port number from 0 to 65535")
        if key == "maxRequestBodySize" and number < 1:
            raise ValueError("maxRequestBodySize must be positive")
        if key == "mqRestCorsMaxAgeInSeconds" and number < -1:
            raise ValueError("mqRestCorsMaxAgeInSeconds must be -1 (no caching) or more")
        changes: dict[str, Any] = {key: number}
    else:
        changes = {key: value}
    return replace(config, **changes)


def save(config: WebConfig) -> None:
    write_json(config_path(), asdict(config))


def write_json(path: Path, data: dict[str, object]) -> None:
    """Written whole or not at all (a reader never sees half a file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(path.suffix + f".{os.getpid()}.tmp")
    temporary.write_text(json.dumps(data, indent=2) + "\n")
    os.replace(temporary, path)
