"""The web server process (``python -m mqlite.web``, started detached by ``mqlite strmqweb``).

It binds its socket itself (port 0: the system picks), writes ``endpoints.json`` (host, port,
scheme, URL) and ``mqweb.pid`` under ``$MQLITE_HOME/web/`` before serving, serves the app with
uvicorn until SIGTERM or SIGINT (uvicorn's orderly end: requests in flight finish), and removes
both files when it ends. TLS when ``keyRepository`` is set: the personal certificate
``certLabel`` of that key repository (a PEM with key and certificate, ``mqlite mkcert``).
"""

from __future__ import annotations

import contextlib
import os
import socket
import sys

from mqlite import keyrepo
from mqlite.web import config as web_config
from mqlite.web.app import create_app
from mqlite.web.config import WebConfig


def bind(cfg: WebConfig) -> socket.socket:
    infos = socket.getaddrinfo(cfg.httpHost or None, cfg.port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(address)
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def tls_files(cfg: WebConfig) -> tuple[str, str] | None:
    """(certificate file, key file) of the configured personal certificate, or None without TLS;
    KeyRepositoryError when the repository or the label is missing."""
    if not cfg.tls:
        return None
    repository = keyrepo.KeyRepository.read(cfg.keyRepository)
    file = repository.personal.get(cfg.certLabel)
    if file is None:
        raise keyrepo.KeyRepositoryError(f"no personal certificate {cfg.certLabel!r} in {cfg.keyRepository}")
    return str(file), str(file)


def url(cfg: WebConfig, port: int) -> str:
    host = cfg.httpHost or "localhost"
    if ":" in host:
        host = f"[{host}]"
    return f"{'https' if cfg.tls else 'http'}://{host}:{port}/ibmmq/rest/v2/"


def main() -> int:
    import uvicorn

    cfg = web_config.load()
    try:
        files = tls_files(cfg)
        sock = bind(cfg)
    except (OSError, keyrepo.KeyRepositoryError) as e:
        print(f"MQWB1000E: the web server could not start: {e}", file=sys.stderr, flush=True)
        return 1
    port = sock.getsockname()[1]
    web_config.write_json(web_config.endpoints_path(), {
        "host": cfg.httpHost, "port": port, "scheme": "https" if cfg.tls else "http", "url": url(cfg, port),
        "pid": os.getpid(),
    })
    web_config.pid_path().write_text(f"{os.getpid()}\n")
    uv_config = uvicorn.Config(create_app(cfg), log_level="warning", access_log=False,
                               ssl_certfile=files[0] if files else None, ssl_keyfile=files[1] if files else None,
                               timeout_graceful_shutdown=10, lifespan="on")
    server = uvicorn.Server(uv_config)
    try:
        server.run(sockets=[sock])
    finally:
        if web_config.read_pid() == os.getpid():  # not a later server's files
            for path in (web_config.endpoints_path(), web_config.pid_path()):
                with contextlib.suppress(OSError):
                    path.unlink()
    return 0
