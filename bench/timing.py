"""Timings the tests used to bound and no longer do (a test asserts behaviour, not speed):

- ``scan_index_rows_per_s``: the store's index scan at start (recovery), 100,000 rows;
- ``get_wait_overshoot_ms``: how long after its WaitInterval (300 ms) an MQGET on an empty
  queue returns 2033 (median of 5, embedded queue manager, local binding);
- ``cli_get_w1_s``: ``mqlite get -w 1`` on an empty queue, start of the command to its end
  (Python start-up, connect, the 1 s wait, exit);
- ``busy_poll_spins_per_ms``: rounds an idle event loop makes while the busy-poll window is open.

Prints one JSON line. Usage: ``python bench/timing.py``
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import mqlite
from mqlite import cmqc as C
from mqlite.message import Message, MessageDescriptor
from mqlite.server.busy_poll import BusyPoll
from mqlite.store import Store, StoreTx


def scan_rate(directory: Path, rows: int = 100_000) -> float:
    with Store(directory / "scan.db") as store:
        tx = StoreTx()
        for seq in range(1, rows + 1):
            tx.put_message("DEEP", seq, Message(MessageDescriptor(), b"b" * 100), 0.0)
        store.write(tx)
        began = time.perf_counter()
        count = sum(1 for _ in store.scan_index())
        return count / (time.perf_counter() - began)


def wait_overshoot_ms(home: Path, wait: float = 0.3, repeat: int = 5) -> float:
    overshoots = []
    with mqlite.embedded("TIMING.QM", home=home):
        qm = mqlite.connect("TIMING.QM")
        qm.mqsc("DEFINE QLOCAL(EMPTY.Q)\n")
        queue = mqlite.Queue(qm, "EMPTY.Q")
        for _ in range(repeat):
            began = time.perf_counter()
            try:
                queue.get(wait=wait)
            except mqlite.MQMIError as error:
                assert error.reason == C.MQRC_NO_MSG_AVAILABLE
            overshoots.append(time.perf_counter() - began - wait)
        qm.disconnect()
    return statistics.median(overshoots) * 1000


def cli_get_seconds(home: Path) -> float:
    mqlite_command = str(Path(sys.executable).with_name("mqlite"))
    env = {**os.environ, "MQLITE_HOME": str(home)}
    with mqlite.embedded("TIMING.QM", home=home):
        began = time.perf_counter()
        subprocess.run([mqlite_command, "get", "-m", "TIMING.QM", "EMPTY.Q", "-w", "1"], env=env, check=True,
                       capture_output=True)
        return time.perf_counter() - began


def busy_poll_spins_per_ms(window: float = 0.02) -> float:
    async def spin() -> int:
        readings = 0

        def clock() -> float:
            nonlocal readings
            readings += 1
            return time.perf_counter()

        poll = BusyPoll(asyncio.get_running_loop(), window, lambda: False, clock)
        poll.touch()
        while poll.spinning:
            await asyncio.sleep(0)
        return readings

    return asyncio.run(spin()) / (window * 1000)


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="mqlite-timing-") as directory:
        home = Path(directory)
        figures = {
            "scan_index_rows_per_s": round(scan_rate(home)),
            "get_wait_overshoot_ms": round(wait_overshoot_ms(home), 1),
            "cli_get_w1_s": round(cli_get_seconds(home), 2),
            "busy_poll_spins_per_ms": round(busy_poll_spins_per_ms(), 1),
        }
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
