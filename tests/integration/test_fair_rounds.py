"""A client streaming requests does not hold the event loop: the queue manager serves its requests
in rounds of ROUND_REQUEST_LIMIT and everyone else in between (server/native/connection.py).

Before, libuv's read loop handed one readable connection up to 32 reads in a row, each processed
whole: a message channel sharing the loop with a producer streaming asynchronous puts waited
220 ms for its CONFIRM to be read (traced in bench/links.py's hierarchy run)."""

from __future__ import annotations

import socket
import struct
import threading
from collections.abc import Iterator
from pathlib import Path

import msgpack
import pytest

import mqlite
from mqlite import cmqc as C
from mqlite import paths
from mqlite.message import MessageDescriptor
from mqlite.protocol import native
from mqlite.server.native.connection import BUFFERED_INPUT_LIMIT, ROUND_REQUEST_LIMIT

QM = "FAIR.QM"
BURST = 20_000  # asynchronous persistent puts written in one go, about 6 MB


@pytest.fixture()
def qmgr(tmp_path: Path) -> Iterator[object]:
    with mqlite.embedded(QM, home=tmp_path) as qm:
        conn = mqlite.connect(QM)
        assert conn.mqsc("DEFINE QLOCAL(FAIR.Q) MAXDEPTH(100000) DEFPSIST(YES)\n")[0] == 0
        conn.disconnect()
        yield qm


def frame(items: list[object]) -> bytes:
    payload = msgpack.packb(items, use_bin_type=True)
    return struct.pack(">I", len(payload)) + payload


class Raw:
    """A native-protocol client on a plain socket, so the test decides exactly what is written when."""

    def __init__(self, appl: str) -> None:
        self.sock = socket.socket(socket.AF_UNIX)
        self.sock.settimeout(60)
        self.sock.connect(paths.socket_address(QM))
        self.codec = native.NativeConnection(native.Role.CLIENT)
        assert self.call(native.Op.CONNECT, [QM, None, None, appl, 1, {}]).cc == C.MQCC_OK

    def call(self, op: native.Op, args: list[object], req_id: int = 1) -> native.Reply:
        self.sock.sendall(frame([int(op), req_id, *args]))
        return self.reply()

    def reply(self) -> native.Reply:
        while True:
            event = self.codec.next_event()
            if isinstance(event, native.Reply):
                return event
            data = self.sock.recv(65536)
            assert data, "connection closed without a reply"
            self.codec.receive_data(data)

    def open(self, queue: str, options: int) -> int:
        reply = self.call(native.Op.OPEN, [{"ObjectName": queue}, options])
        assert reply.cc == C.MQCC_OK, reply
        return int(reply.result[0])


def test_a_streaming_producer_is_served_in_rounds_with_room_for_others(qmgr: object) -> None:
    """20,000 asynchronous persistent puts written in one go are taken ROUND_REQUEST_LIMIT at a
    time (one store transaction per round: at least BURST / ROUND_REQUEST_LIMIT of them, where
    whole reads of up to 256 KB made about 30), another connection is answered while they are,
    and none is lost."""
    assert ROUND_REQUEST_LIMIT < BURST and BUFFERED_INPUT_LIMIT < BURST * 300
    stats = qmgr.host.store.stats  # type: ignore[attr-defined]
    producer, watcher = Raw("producer"), Raw("watcher")
    try:
        put_handle = producer.open("FAIR.Q", C.MQOO_OUTPUT)
        inquire_handle = watcher.open("FAIR.Q", C.MQOO_INQUIRE)
        md = MessageDescriptor().to_list()
        options = C.MQPMO_NO_SYNCPOINT | C.MQPMO_ASYNC_RESPONSE
        burst = b"".join(frame([int(native.Op.PUT), 0, put_handle, md, options, {}, b"x" * 256])
                         for _ in range(BURST))
        transactions_before = stats.transactions
        writer = threading.Thread(target=producer.sock.sendall, args=(burst,), daemon=True)
        writer.start()
        depths = []
        while writer.is_alive() or not depths or depths[-1] < BURST:
            reply = watcher.call(native.Op.INQ, [inquire_handle, [C.MQIA_CURRENT_Q_DEPTH]], req_id=2)
            assert reply.cc == C.MQCC_OK, reply
            depths.append(reply.result[0])
        writer.join(timeout=120)
        assert any(0 < depth < BURST for depth in depths), f"the watcher was not answered during the burst: {depths}"
        # The burst is whole and in order of arrival: a synchronous put after it finds all of it there.
        last = producer.call(native.Op.PUT, [put_handle, md, C.MQPMO_NO_SYNCPOINT, {}, b"last"], req_id=3)
        assert last.cc == C.MQCC_OK, last
        reply = watcher.call(native.Op.INQ, [inquire_handle, [C.MQIA_CURRENT_Q_DEPTH]], req_id=4)
        assert reply.result[0] == BURST + 1
        assert stats.transactions - transactions_before >= BURST // ROUND_REQUEST_LIMIT
    finally:
        producer.sock.close()
        watcher.sock.close()


def test_a_message_larger_than_the_read_ahead_limit_is_read_whole(qmgr: object) -> None:
    """Reading pauses only for whole requests waiting their turn: a frame larger than
    BUFFERED_INPUT_LIMIT must be read to its end, not wait for ever for its own rest."""
    big = bytes(range(256)) * (4 * BUFFERED_INPUT_LIMIT // 256)
    with mqlite.connect(QM) as conn:
        queue = mqlite.Queue(conn, "FAIR.Q")
        queue.put(big)
        assert bytes(queue.get(wait=5.0)) == big
