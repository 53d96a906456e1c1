"""Peers for ``p2p.py``'s ``8_producers_sync`` case: how mature servers share commits here.

The same load as mqlite's case, on the same machine in the same run: 8 producer processes, each
waiting for every 256-byte write, no consumers; the durable figure over the non-durable one,
three rounds of each in turn, the median of the rounds' ratios.

- **Redis** (``redis-server``, a C server with one event loop like mqlite's): a list as the
  queue, ``LPUSH`` over a Unix socket from Python producers speaking RESP on a bare socket.
  Durable: ``appendonly yes``, ``appendfsync always`` (every reply waits for the AOF's fsync;
  the commands of one loop pass share it). Not durable: no AOF, as a non-persistent message is
  written nowhere.
- **PostgreSQL** (``pgbench``, its C client, 8 connections): one ``INSERT`` per transaction.
  Durable: a logged table, ``synchronous_commit = on`` (group commit). Not durable: an
  ``UNLOGGED`` table (no WAL), the nearest thing to a non-persistent message.

A peer whose programs are not installed is skipped, and the figures say so. Under root,
PostgreSQL runs as the ``postgres`` user (it refuses root).
"""

from __future__ import annotations

import multiprocessing as mp
import os
import re
import shutil
import socket
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from processes import pinned, timed_run

PRODUCERS = 8
SIZE = 256
# Debian's layout: /usr/lib/postgresql/<major>/bin, the newest installed
PG_BIN = max(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: int(p.parent.name), default=Path("/nonexistent"))


def _ratio_rounds(measure: Callable[[bool], float], rounds: int) -> dict[str, object]:
    """``measure(durable)`` in turn, ``rounds`` times: medians, and the rounds' ratios."""
    rates: dict[bool, list[float]] = {False: [], True: []}
    for _ in range(rounds):
        for durable in (False, True):
            rates[durable].append(measure(durable))
    ratios = [d / n for n, d in zip(rates[False], rates[True], strict=True)]
    return {"not_durable": round(statistics.median(rates[False])), "durable": round(statistics.median(rates[True])),
            "ratio_rounds": [round(r, 2) for r in ratios], "ratio": round(statistics.median(ratios), 2)}


# -- Redis ------------------------------------------------------------------------------------------
def _redis_producer(path: str, count: int, start: mp.synchronize.Event, results: mp.Queue[float]) -> None:
    body = b"x" * SIZE
    command = b"*3\r\n$5\r\nLPUSH\r\n$1\r\nq\r\n$%d\r\n%s\r\n" % (SIZE, body)
    with socket.socket(socket.AF_UNIX) as sock:
        sock.connect(path)
        start.wait()
        for _ in range(count):
            sock.sendall(command)
            reply = sock.recv(64)
            if not reply.startswith(b":"):
                raise RuntimeError(f"redis answered {reply!r}")
        results.put(time.perf_counter())


def _redis_rate(durable: bool, total: int, cpus: set[int] | None) -> float:
    home = tempfile.mkdtemp(prefix="redis-peer-")
    path = os.path.join(home, "redis.sock")
    aof = ["--appendonly", "yes", "--appendfsync", "always"] if durable else ["--appendonly", "no"]
    server = subprocess.Popen(["redis-server", "--port", "0", "--unixsocket", path, "--dir", home,
                               "--save", "", *aof], stdout=subprocess.DEVNULL, preexec_fn=pinned(cpus))
    try:
        deadline = time.monotonic() + 10
        while not os.path.exists(path):
            if time.monotonic() > deadline or server.poll() is not None:
                raise RuntimeError("redis-server did not start")
            time.sleep(0.02)
        per = total // PRODUCERS
        timed_run(_redis_producer, (path, per // 8), PRODUCERS)  # a warm-up
        return per * PRODUCERS / timed_run(_redis_producer, (path, per), PRODUCERS)
    finally:
        server.terminate()
        server.wait()
        shutil.rmtree(home, ignore_errors=True)


# -- PostgreSQL ---------------------------------------------------------------------------------------
def _as_postgres(args: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *args] if os.geteuid() == 0 else args


def _quietly(args: list[str], cpus: set[int] | None = None) -> None:
    subprocess.run(_as_postgres(args), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True,
                   preexec_fn=pinned(cpus))


class _Postgres:
    """A throwaway cluster on a Unix socket in a temporary directory."""

    def __init__(self, cpus: set[int] | None) -> None:
        self.home = tempfile.mkdtemp(prefix="pg-peer-")
        os.chmod(self.home, 0o777)
        self.data = os.path.join(self.home, "data")
        _quietly([str(PG_BIN / "initdb"), "-D", self.data, "-A", "trust", "-U", "postgres"])
        _quietly([str(PG_BIN / "pg_ctl"), "-D", self.data, "-w", "-l", os.path.join(self.home, "log"), "-o",
                  f"-k {self.home} -c listen_addresses='' -c shared_buffers=128MB", "start"], cpus)
        self.sql("CREATE TABLE durable (id bigserial PRIMARY KEY, body bytea);"
                 " CREATE UNLOGGED TABLE not_durable (id bigserial PRIMARY KEY, body bytea);")
        for table in ("durable", "not_durable"):
            script = os.path.join(self.home, f"{table}.sql")
            Path(script).write_text(f"INSERT INTO {table} (body) VALUES (decode(repeat('78', {SIZE}), 'hex'));\n")
            os.chmod(script, 0o644)

    def sql(self, statement: str) -> None:
        subprocess.run(_as_postgres([str(PG_BIN / "psql"), "-h", self.home, "-U", "postgres", "-qc", statement]),
                       check=True, stdout=subprocess.DEVNULL)

    def rate(self, durable: bool, seconds: float) -> float:
        script = os.path.join(self.home, f"{'durable' if durable else 'not_durable'}.sql")
        out = subprocess.run(_as_postgres([str(PG_BIN / "pgbench"), "-h", self.home, "-U", "postgres", "-n",
                                           "-c", str(PRODUCERS), "-j", "2", "-T", str(max(round(seconds), 1)),
                                           "-M", "prepared", "-f", script, "postgres"]),
                             check=True, capture_output=True, text=True).stdout
        found = re.search(r"tps = ([0-9.]+)", out)
        if found is None:
            raise RuntimeError(f"pgbench printed no rate: {out[-300:]}")
        return float(found.group(1))

    def stop(self) -> None:
        subprocess.run(_as_postgres([str(PG_BIN / "pg_ctl"), "-D", self.data, "-w", "stop"]),
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        shutil.rmtree(self.home, ignore_errors=True)


def run(scale: float = 1.0, rounds: int = 3, server_cpus: set[int] | None = None) -> dict[str, object]:
    """Each peer's figures (``peer_<name>_8_producers_sync_*``), or why it was skipped.
    ``server_cpus``: the servers' CPUs (the producers run where this process may)."""
    figures: dict[str, object] = {}
    total = int(80_000 * scale / rounds) // PRODUCERS * PRODUCERS
    if shutil.which("redis-server"):
        version = subprocess.run(["redis-server", "--version"], capture_output=True, text=True).stdout.split()[2]
        figures["peer_redis_version"] = version.removeprefix("v=")
        for key, value in _ratio_rounds(lambda durable: _redis_rate(durable, total, server_cpus), rounds).items():
            figures[f"peer_redis_8_producers_sync_{key}"] = value
    else:
        figures["peer_redis"] = "skipped: no redis-server (apt-get install redis-server)"
    if (PG_BIN / "pgbench").exists() and (os.geteuid() != 0 or shutil.which("runuser")):
        printed = subprocess.run([str(PG_BIN / "postgres"), "--version"], capture_output=True, text=True).stdout
        figures["peer_postgresql_version"] = printed.split(")")[1].split()[0]  # "postgres (PostgreSQL) 15.18 (...)"
        pg = _Postgres(server_cpus)
        try:
            seconds = 8 * scale
            for key, value in _ratio_rounds(lambda durable: pg.rate(durable, seconds), rounds).items():
                figures[f"peer_postgresql_8_producers_sync_{key}"] = value
        finally:
            pg.stop()
    else:
        figures["peer_postgresql"] = f"skipped: no {PG_BIN / 'pgbench'}"
    return figures


if __name__ == "__main__":
    import json
    print(json.dumps(run()))
