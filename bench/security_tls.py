"""What TLS costs a native client (part of ``bench/security.py``): put/get throughput over a TLS
channel beside the same work over a plain one, and TLS connections per second beside plain ones.

A real queue manager process in a temporary MQLITE_HOME, a CA, the queue manager's certificate
and a client certificate from ``mqlite mkcert``, and two client channels on the one TCP port:
``BENCH.PLAIN`` and ``BENCH.TLS`` (SSLCIPH, SSLCAUTH(REQUIRED): the client presents its
certificate). The client authenticates with a user and password like every TCP client; it is an
administrator, so no authority record is looked up and the figures are TLS's alone.

- ``{plain,tls}_sync_put_get_per_s``: one application doing MQPUT then MQGET of 256-byte
  non-persistent messages, synchronously (round trips per second);
- ``{plain,tls}_async_msgs_per_s``: 256-byte non-persistent messages put asynchronously
  (MQPMO_ASYNC_RESPONSE) and then got with read-ahead, end to end;
- ``{plain,tls}_connections_per_s``: connect, MQCONN's reply, disconnect, one after another (TLS:
  a full handshake with both certificates checked each time).

Usage: ``python bench/security_tls.py [--quick] [--cipher CIPHERSPEC]``; prints one JSON line.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from mqlite_cli import run

import mqlite
from mqlite import cmqc as C

QM = "BENCH.QM"
USER, PASSWORD = "benchadmin", "bench-pass-1"
SETUP = """\
DEFINE QLOCAL(BENCH.Q) MAXDEPTH(1000000) REPLACE
DEFINE CHANNEL(BENCH.PLAIN) CHLTYPE(SVRCONN) REPLACE
DEFINE CHANNEL(BENCH.TLS) CHLTYPE(SVRCONN) SSLCIPH({cipher}) SSLCAUTH(REQUIRED) REPLACE
SET CHLAUTH('BENCH.*') TYPE(BLOCKUSER) USERLIST('nobody') ACTION(REPLACE)
"""


def _mqlite(home: Path, *args: str, stdin: str | None = None) -> str:
    return run(home, *args, stdin=stdin, env={"MQLITE_PASSWORD": PASSWORD})


def setup(home: Path, cipher: str) -> tuple[int, Path]:
    """A started queue manager with both channels; its port and the client's key repository."""
    _mqlite(home, "crtmqm", "-p", "0", QM)
    pki = home / "pki"
    _mqlite(home, "mkcert", "-r", str(pki / "ca"), "--label", "ca", "--dn", "CN=Bench CA")
    _mqlite(home, "mkcert", "-m", QM, "--dn", f"CN={QM}", "--ca", "ca", "--ca-repository", str(pki / "ca"))
    _mqlite(home, "mkcert", "-r", str(pki / "client"), "--label", "app", "--dn", "CN=bench client",
            "--ca", "ca", "--ca-repository", str(pki / "ca"))
    _mqlite(home, "passwd", "-m", QM, "-g", "mqm", USER)
    _mqlite(home, "strmqm", QM)
    _mqlite(home, "runmqsc", QM, stdin=SETUP.format(cipher=cipher))
    listeners = json.loads((home / "qmgrs" / QM / "listeners.json").read_text())
    return int(listeners["tcp"]), pki / "client"


def connect(port: int, tls: dict[str, Any] | None) -> Any:
    channel = "BENCH.TLS" if tls else "BENCH.PLAIN"
    return mqlite.connect(QM, channel, f"127.0.0.1({port})", USER, PASSWORD, **(tls or {}))


def sync_put_get(port: int, tls: dict[str, Any] | None, count: int) -> float:
    with connect(port, tls) as qm, mqlite.Queue(qm, "BENCH.Q") as q:
        body = b"x" * 256
        for _ in range(min(200, count)):  # warm up
            q.put(body)
            q.get()
        started = time.perf_counter()
        for _ in range(count):
            q.put(body)
            q.get()
        return count / (time.perf_counter() - started)


def async_put_get(port: int, tls: dict[str, Any] | None, count: int) -> float:
    with connect(port, tls) as qm, mqlite.Queue(qm, "BENCH.Q") as q:
        body = b"y" * 256
        pmo = mqlite.PMO(Options=C.MQPMO_ASYNC_RESPONSE | C.MQPMO_NO_SYNCPOINT)
        started = time.perf_counter()
        for _ in range(count):
            q.put(body, pmo=pmo)
        for _ in range(count):
            q.get(wait=5)
        return count / (time.perf_counter() - started)


def connections(port: int, tls: dict[str, Any] | None, seconds: float) -> float:
    done = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        connect(port, tls).disconnect()
        done += 1
    return done / (time.perf_counter() - started)


def measure(cipher: str = "ANY_TLS12_OR_HIGHER", quick: bool = False) -> dict[str, Any]:
    """The TLS figures, as a dict of name -> value (what ``bench/security.py`` prints)."""
    count, seconds = (2_000, 1.0) if quick else (20_000, 5.0)
    with tempfile.TemporaryDirectory(prefix="mqlite-bench-tls-") as tmp:
        home = Path(tmp)
        os.environ["MQLITE_HOME"] = str(home)
        port, repository = setup(home, cipher)
        tls = {"ssl_cipher_spec": cipher, "key_repository": str(repository), "cert_label": "app"}
        try:
            results: dict[str, Any] = {"cipher_spec": cipher, "messages": count, "message_bytes": 256}
            for mode, options in (("plain", None), ("tls", tls)):
                results[f"{mode}_sync_put_get_per_s"] = round(sync_put_get(port, options, count))
                results[f"{mode}_async_msgs_per_s"] = round(async_put_get(port, options, count * 5))
                results[f"{mode}_connections_per_s"] = round(connections(port, options, seconds), 1)
            for figure in ("sync_put_get_per_s", "async_msgs_per_s", "connections_per_s"):
                results[f"tls_over_plain_{figure.removesuffix('_per_s')}"] = round(
                    results[f"tls_{figure}"] / results[f"plain_{figure}"], 3)
            return results
        finally:
            _mqlite(home, "endmqm", "-i", QM)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer messages, shorter runs")
    parser.add_argument("--cipher", default="ANY_TLS12_OR_HIGHER", help="the TLS channel's SSLCIPH")
    args = parser.parse_args()
    print(json.dumps(measure(args.cipher, args.quick)))


if __name__ == "__main__":
    main()
