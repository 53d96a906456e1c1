"""Crash durability: kill -9 a process while it commits; what was acknowledged must be there, whole."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from mqlite.store import Store

# Four threads submit txs without waiting (up to 32 in flight each). Each tx puts 3 messages and a
# record; its done callback prints "thread index" only once the tx is durable.
CHILD = r"""
import os, sys, threading
from mqlite.message import Message, MessageDescriptor
from mqlite.store import Store, StoreTx

store = Store(sys.argv[1])
body = b"x" * 1024

def producer(t):
    slots = threading.Semaphore(32)
    i = 0
    while True:
        tx = StoreTx()
        for k in range(3):
            tx.put_message(f"Q{t}", 3 * i + k + 1, Message(MessageDescriptor(Persistence=1), body), 0.0)
        tx.put_record("tx", f"{t}:{i}", i)

        def done(exc, t=t, i=i):
            if exc is None:
                os.write(1, f"{t} {i}\n".encode())
            slots.release()

        slots.acquire()
        store.submit(tx, done)
        i += 1

for t in range(4):
    threading.Thread(target=producer, args=(t,), daemon=True).start()
threading.Event().wait()
"""


def parse(line: bytes) -> tuple[int, int]:
    thread, index = line.split()
    return int(thread), int(index)


def test_acknowledged_txs_survive_sigkill_and_none_is_partial(tmp_path: Path) -> None:
    path = tmp_path / "crash.db"
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert child.stdout is not None
    acked: set[tuple[int, int]] = set()
    deadline = time.monotonic() + 60
    try:
        while len(acked) < 400 and time.monotonic() < deadline:
            line = child.stdout.readline()
            if not line:
                break
            acked.add(parse(line))
    finally:
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
    assert len(acked) >= 400, child.stderr.read().decode() if child.stderr else ""
    # Lines printed after our last read may be in the pipe: they were acknowledged too.
    for line in child.stdout.read().splitlines():
        acked.add(parse(line))

    with Store(path) as store:
        records = store.load_records("tx")
        present = {(int(k.split(":")[0]), v) for k, v in records.items()}
        seqs: dict[int, set[int]] = {t: set() for t in range(4)}
        for row in store.scan_index():
            seqs[int(row.queue[1:])].add(row.seq)

    assert acked <= present, f"lost acknowledged txs: {sorted(acked - present)[:10]}"
    for t in range(4):
        done_i = {i for tt, i in present if tt == t}
        # Atomic: a tx is there with all its messages or not at all.
        assert seqs[t] == {3 * i + k + 1 for i in done_i for k in range(3)}
        # One writer commits in submission order: what survived is a prefix of each thread's txs.
        assert done_i == set(range(len(done_i)))
