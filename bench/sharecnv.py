"""Shared conversations (SVRCONN SHARECNV): what sharing one socket costs and saves a client process.

A real queue manager process in a temporary MQLITE_HOME with four client channels on its one TCP
port: plain and TLS (``security_tls``'s certificates, SSLCAUTH(REQUIRED)), each with IBM's default
SHARECNV(10) (a process's connections share one socket) and with SHARECNV(1) (a socket each).
The client is an administrator, so no authority record is looked up.

- ``{plain,tls}_{shared,own}_4_threads_put_get_per_s``: four threads, each with its own
  connection, doing MQPUT then MQGET of 256-byte non-persistent messages synchronously; the
  total round trips per second (shared: the four conversations take turns on one socket);
- ``{plain,tls}_{shared,own}_connects_per_s``: with one connection held open, connect and
  disconnect another, one after another (shared: a new conversation on the open socket, no TCP
  or TLS handshake; own: a new socket and, with TLS, a full handshake each time).

Rounds alternate shared and own, three times; each figure is the median of its rounds.
Usage: ``python bench/sharecnv.py [--quick]``; prints one JSON line.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import security_tls
from security_tls import PASSWORD, QM, USER

import mqlite

CIPHER = "ANY_TLS12_OR_HIGHER"
CHANNELS = f"""\
DEFINE CHANNEL(SHARE.PLAIN) CHLTYPE(SVRCONN) SHARECNV(10) REPLACE
DEFINE CHANNEL(OWN.PLAIN) CHLTYPE(SVRCONN) SHARECNV(1) REPLACE
DEFINE CHANNEL(SHARE.TLS) CHLTYPE(SVRCONN) SHARECNV(10) SSLCIPH({CIPHER}) SSLCAUTH(REQUIRED) REPLACE
DEFINE CHANNEL(OWN.TLS) CHLTYPE(SVRCONN) SHARECNV(1) SSLCIPH({CIPHER}) SSLCAUTH(REQUIRED) REPLACE
SET CHLAUTH('*.PLAIN') TYPE(BLOCKUSER) USERLIST('nobody') ACTION(REPLACE)
SET CHLAUTH('*.TLS') TYPE(BLOCKUSER) USERLIST('nobody') ACTION(REPLACE)
"""


def connect(port: int, channel: str, tls: dict[str, Any] | None) -> Any:
    return mqlite.connect(QM, channel, f"127.0.0.1({port})", USER, PASSWORD, **(tls or {}))


def threads_put_get(port: int, channel: str, tls: dict[str, Any] | None, per_thread: int) -> float:
    connections = [connect(port, channel, tls) for _ in range(4)]
    barrier = threading.Barrier(5)

    def work(qm: Any) -> None:
        with mqlite.Queue(qm, "BENCH.Q") as q:
            body = b"x" * 256
            barrier.wait()
            for _ in range(per_thread):
                q.put(body)
                q.get()

    threads = [threading.Thread(target=work, args=(qm,)) for qm in connections]
    for thread in threads:
        thread.start()
    barrier.wait()
    started = time.perf_counter()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    for qm in connections:
        qm.disconnect()
    return 4 * per_thread / elapsed


def connects(port: int, channel: str, tls: dict[str, Any] | None, seconds: float) -> float:
    with connect(port, channel, tls):  # held open: the socket the others may share
        done = 0
        started = time.perf_counter()
        while time.perf_counter() - started < seconds:
            connect(port, channel, tls).disconnect()
            done += 1
        return done / (time.perf_counter() - started)


def measure(quick: bool = False) -> dict[str, Any]:
    per_thread, seconds, rounds = (500, 1.0, 1) if quick else (5_000, 3.0, 3)
    with tempfile.TemporaryDirectory(prefix="mqlite-bench-sharecnv-") as tmp:
        home = Path(tmp)
        os.environ["MQLITE_HOME"] = str(home)
        port, repository = security_tls.setup(home, CIPHER)
        security_tls._mqlite(home, "runmqsc", QM, stdin=CHANNELS)
        tls = {"ssl_cipher_spec": CIPHER, "key_repository": str(repository), "cert_label": "app"}
        samples: dict[str, list[float]] = {}
        try:
            for _ in range(rounds):
                for mode, options in (("plain", None), ("tls", tls)):
                    for sharing in ("shared", "own"):
                        channel = f"{'SHARE' if sharing == 'shared' else 'OWN'}.{mode.upper()}"
                        samples.setdefault(f"{mode}_{sharing}_4_threads_put_get_per_s", []).append(
                            threads_put_get(port, channel, options, per_thread))
                        samples.setdefault(f"{mode}_{sharing}_connects_per_s", []).append(
                            connects(port, channel, options, seconds))
        finally:
            security_tls._mqlite(home, "endmqm", "-i", QM)
    results: dict[str, Any] = {"rounds": rounds, "messages_per_thread": per_thread, "message_bytes": 256}
    results.update({name: round(statistics.median(values), 1) for name, values in samples.items()})
    for mode in ("plain", "tls"):
        for figure in ("4_threads_put_get", "connects"):
            results[f"{mode}_shared_over_own_{figure}"] = round(
                results[f"{mode}_shared_{figure}_per_s"] / results[f"{mode}_own_{figure}_per_s"], 2)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer messages, shorter runs, one round")
    args = parser.parse_args()
    print(json.dumps(measure(args.quick)))


if __name__ == "__main__":
    main()
