"""Bad input of every kind gets its reason code; the queue manager keeps serving, loses nothing."""

from __future__ import annotations

import contextlib
import socket
import struct
from collections.abc import Iterator
from pathlib import Path

import msgpack
import pytest

import mqlite
from helpers.waiting import wait_until
from mqlite import cmqc as C
from mqlite import paths
from mqlite.protocol import native

QM = "BAD.QM"


@pytest.fixture()
def qmgr(tmp_path: Path) -> Iterator[mqlite.server.embedded.EmbeddedQueueManager]:  # type: ignore[name-defined]
    with mqlite.embedded(QM, home=tmp_path) as qm:
        conn = mqlite.connect(QM)
        code, lines = conn.mqsc("DEFINE QLOCAL(SAFE.Q) DEFPSIST(YES)\n")
        assert code == 0, lines
        queue = mqlite.Queue(conn, "SAFE.Q")
        for i in range(5):
            queue.put(f"kept {i}".encode())
        conn.disconnect()
        yield qm


def raw_socket() -> socket.socket:
    s = socket.socket(socket.AF_UNIX)
    s.settimeout(10)
    s.connect(paths.socket_address(QM))
    return s


def frame(items: list[object]) -> bytes:
    payload = msgpack.packb(items, use_bin_type=True)
    return struct.pack(">I", len(payload)) + payload


def read_reply(s: socket.socket) -> native.Reply:
    codec = native.NativeConnection(native.Role.CLIENT)
    while True:
        event = codec.next_event()
        if isinstance(event, native.Reply):
            return event
        data = s.recv(65536)
        assert data, "connection closed without a reply"
        codec.receive_data(data)


def assert_still_serving() -> None:
    """Another application connects and finds every stored message, in order."""
    conn = mqlite.connect(QM)
    queue = mqlite.Queue(conn, "SAFE.Q")
    bodies = [bytes(queue.get(wait=1.0)) for _ in range(5)]
    assert bodies == [f"kept {i}".encode() for i in range(5)]
    for i in range(5):
        queue.put(f"kept {i}".encode())
    conn.disconnect()


def test_garbage_bytes_get_an_error_and_the_qmgr_serves_on(qmgr: object) -> None:
    with raw_socket() as s:
        s.sendall(struct.pack(">I", 7) + b"\xc1\xc1\xc1\xc1\xc1\xc1\xc1")  # 0xc1 is never valid msgpack
        s.sendall(frame([int(native.Op.PING), 9]))  # the stream is still in step
        reply = read_reply(s)
        assert reply.req_id == 9
    assert_still_serving()


def test_unknown_op_is_function_not_supported(qmgr: object) -> None:
    with raw_socket() as s:
        s.sendall(frame([63, 5, "x"]))
        reply = read_reply(s)
        assert (reply.req_id, reply.cc, reply.reason) == (5, C.MQCC_FAILED, C.MQRC_FUNCTION_NOT_SUPPORTED)
    assert_still_serving()


def test_malformed_arguments_fail_the_request_only(qmgr: object) -> None:
    with raw_socket() as s:
        s.sendall(frame([int(native.Op.CONNECT), 1, QM, None, None, "bad", 1, {}]))
        assert read_reply(s).cc == C.MQCC_OK
        s.sendall(frame([int(native.Op.OPEN), 2, "not a dict", "nor an int"]))
        reply = read_reply(s)
        assert (reply.req_id, reply.cc) == (2, C.MQCC_FAILED)
        s.sendall(frame([int(native.Op.OPEN), 3, {"ObjectName": "SAFE.Q"}, C.MQOO_BROWSE]))
        assert read_reply(s).cc == C.MQCC_OK  # the same connection still works
    assert_still_serving()


def test_requests_before_connect_are_hconn_errors(qmgr: object) -> None:
    with raw_socket() as s:
        s.sendall(frame([int(native.Op.OPEN), 4, {"ObjectName": "SAFE.Q"}, C.MQOO_OUTPUT]))
        reply = read_reply(s)
        assert (reply.cc, reply.reason) == (C.MQCC_FAILED, C.MQRC_HCONN_ERROR)


@pytest.mark.parametrize("length", [2**30, native.CONVERSATION_FLAG | 2**30])  # plain, a shared conversation's
def test_oversize_frame_closes_that_connection_only(qmgr: object, length: int) -> None:
    with raw_socket() as s:
        s.sendall(struct.pack(">I", length))  # announced length far over the limit
        data = b""
        with contextlib.suppress(ConnectionResetError):
            while chunk := s.recv(65536):  # a connection left open would time out here (10 s)
                data += chunk
        assert data == b""  # closed at once, nothing read into memory and nothing answered
    assert_still_serving()


def test_wrong_queue_manager_name_is_2058(qmgr: object) -> None:
    with raw_socket() as s:
        s.sendall(frame([int(native.Op.CONNECT), 1, "OTHER.QM", None, None, "x", 1, {}]))
        reply = read_reply(s)
        assert (reply.cc, reply.reason) == (C.MQCC_FAILED, C.MQRC_Q_MGR_NAME_ERROR)


def test_mqsc_garbage_is_a_syntax_error_and_nothing_changes(qmgr: object) -> None:
    conn = mqlite.connect(QM)
    code, lines = conn.mqsc("DEFINE QLOCAL(SAFE.Q) MAXDEPTH(\nFROBNICATE EVERYTHING\nDELETE QLOCAL(SAFE.Q)\n")
    assert code == 10
    text = "\n".join(lines)
    assert "AMQ8405I" in text  # syntax error reported
    assert "AMQ8143E: WebSphere MQ queue SAFE.Q not empty." in lines  # the delete of a non-empty queue refused
    assert mqlite.Queue(conn, "SAFE.Q").depth == 5  # the messages the fixture put are all there
    conn.disconnect()
    assert_still_serving()


def test_unknown_queue_is_2085_over_the_client(qmgr: object) -> None:
    conn = mqlite.connect(QM)
    with pytest.raises(mqlite.MQMIError) as info:
        mqlite.Queue(conn, "NO.SUCH.Q").put(b"x")
    assert info.value.reason == C.MQRC_UNKNOWN_OBJECT_NAME
    conn.disconnect()
    assert_still_serving()


def test_a_client_that_does_not_read_its_replies_is_throttled_not_buffered(qmgr: object) -> None:
    """Requests from a client that never reads are left unread (back-pressure), others go on,
    and every reply is there, in order, once it reads."""
    import threading

    big = b"B" * (1 << 20)
    conn = mqlite.connect(QM)
    assert conn.mqsc("DEFINE QLOCAL(BIG.Q)\n")[0] == 0
    mqlite.Queue(conn, "BIG.Q").put(big)
    conn.disconnect()
    count = 60  # 60 browses of a 1 MiB message: 60 MiB of replies if the server buffered them
    with raw_socket() as s:
        s.sendall(frame([int(native.Op.CONNECT), 1, QM, None, None, "slow", 1, {}]))
        assert read_reply(s).cc == C.MQCC_OK
        s.sendall(frame([int(native.Op.OPEN), 2, {"ObjectName": "BIG.Q"}, C.MQOO_BROWSE]))
        hobj = read_reply(s).result[0]
        md = [bytes(24), bytes(24)]  # a GET's match ids: MsgId, CorrelId
        gmo = {"Options": C.MQGMO_BROWSE_FIRST, "WaitInterval": 0, "MatchOptions": 0}
        requests = b"".join(frame([int(native.Op.GET), 10 + i, hobj, md, gmo, -1]) for i in range(count))
        sender = threading.Thread(target=s.sendall, args=(requests,), daemon=True)
        sender.start()
        host = qmgr.host  # type: ignore[attr-defined]
        # The queue manager answers what it has read until its write buffer is full, then stops
        # reading from this client (the sender blocks): that is the point.
        wait_until(lambda: any(c.writing_paused for c in host.connections), "the server stops answering")
        buffered = max(c.transport.get_write_buffer_size() for c in host.connections if c.transport)
        assert buffered < 16 * len(big), f"{buffered} bytes of replies buffered for a client not reading"
        other = mqlite.connect(QM)  # meanwhile the queue manager serves everyone else
        mqlite.Queue(other, "SAFE.Q").put(b"still serving")
        other.disconnect()
        codec = native.NativeConnection(native.Role.CLIENT)
        seen = []
        while len(seen) < count:
            data = s.recv(1 << 20)
            assert data
            codec.receive_data(data)
            for event in codec.events():
                assert isinstance(event, native.Reply) and event.cc == C.MQCC_OK
                assert len(event.result[2]) == len(big)
                seen.append(event.req_id)
        sender.join(timeout=10)
        assert seen == [10 + i for i in range(count)]
