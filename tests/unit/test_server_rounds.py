"""Rounds: replies wait for the disk, keep their order per connection, and never claim a
durability the store could not give."""

from __future__ import annotations

import asyncio
from pathlib import Path

from mqlite import cmqc as C
from mqlite.core.security.service import administrator
from mqlite.message import Message, MessageDescriptor
from mqlite.server.runtime import Round, Runtime, Session
from mqlite.store.sqlite import Store
from mqlite.store.tx import StoreTx


class Sink:
    """Collects what a session writes (the transport's place in these tests)."""

    def __init__(self) -> None:
        self.data: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.data.append(data)


def test_output_keeps_its_order_behind_a_round_waiting_for_the_disk() -> None:
    sink = Sink()
    session = Session(sink)
    waiting, ready = Round(), Round()
    session.emit(waiting, b"first")  # its round waits for the store
    ready.ready = True
    session.emit(ready, b"second")  # ready at once, but must not overtake
    assert sink.data == []
    waiting.ready = True
    session.flush()
    assert b"".join(sink.data) == b"firstsecond"


def test_a_failed_store_write_ends_the_queue_manager_instead_of_acknowledging(tmp_path: Path) -> None:
    async def scenario() -> tuple[list[bytes], list[str]]:
        store = Store(tmp_path / "s.sqlite")
        runtime = Runtime("QM1", store, asyncio.get_running_loop())
        runtime.recover()
        ended: list[str] = []
        fatal = asyncio.Event()

        def on_fatal() -> None:
            ended.append("immediately")
            fatal.set()

        runtime.on_fatal = on_fatal
        core = runtime.core
        core.define("QLOCAL", "Q", {})
        runtime.finish(Round())
        # The disk refuses the next write: rows the queue manager does not know of hold the keys
        # its next persistent messages take (queue, seq and the priority, expiry and backout count
        # the key holds too), so SQLite fails the transaction (UNIQUE constraint).
        clash = StoreTx()
        for seq in range(1, 101):
            clash.put_message("Q", seq, Message(MessageDescriptor(Priority=0), b"stray"), 0.0)
        store.write(clash)
        conn = core.connect(administrator("alice"), "app.py")
        handle = core.open(conn, {"ObjectName": "Q"}, C.MQOO_OUTPUT)
        sink = Sink()
        session = Session(sink)
        round_ = Round()
        core.put(conn, handle.hobj, MessageDescriptor(Persistence=C.MQPER_PERSISTENT), C.MQPMO_NO_SYNCPOINT, {},
                 b"persistent")
        round_.add(session, b"MQPUT ok")
        runtime.finish(round_)
        await asyncio.wait_for(fatal.wait(), 60)
        session.flush()
        store.close()
        return sink.data, ended

    written, ended = asyncio.run(scenario())
    assert written == []  # the caller is never told its persistent put is safe
    assert ended == ["immediately"]
