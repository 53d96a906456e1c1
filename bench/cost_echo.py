"""bench/cost.py's limit for scale: a bare uvloop server answering case a's frames.

``python bench/cost_echo.py serve SOCKET``: a uvloop Unix-socket server that splits what it reads
into the native protocol's frames (4-byte big-endian length, then the payload) and answers each
with a canned reply (a put's or a get's, by the request's size), decoding nothing. It is what any
Python server on this event loop must spend per message at least.

``python bench/cost_echo.py drive SOCKET COUNT``: a plain-socket client sending COUNT pairs of
case a's frames (a put request of 256 bytes, a get request, encoded by mqlite's own encoders),
each after the reply to the one before.
"""

from __future__ import annotations

import asyncio
import os
import socket
import sys
from typing import Any

BODY = b"x" * 256
PUT_FRAME_MIN = 200  # a put request carries the body: larger than any get request


def frames() -> tuple[bytes, bytes, bytes, bytes]:
    """(put request, put reply, get request, get reply) as mqlite's client and server encode them."""
    from mqlite import cmqc as C
    from mqlite.client import MD
    from mqlite.client.common import put_md
    from mqlite.protocol import native

    md = put_md(MD(Persistence=C.MQPER_NOT_PERSISTENT), 1208)
    gmo = {"Options": C.MQGMO_NO_SYNCPOINT | C.MQGMO_NO_WAIT, "WaitInterval": 0, "MatchOptions": 3}
    put = native.encode_put(1, 1, md, C.MQPMO_NO_SYNCPOINT, {}, BODY)
    get = native.encode_get(2, 1, [bytes(24), bytes(24)], gmo, 4 * 1024 * 1024)
    return put, native.encode_reply(1, 0, 0, md), get, native.encode_reply(2, 0, 0, [md, {}, BODY])


class Echo(asyncio.Protocol):
    def __init__(self, put_reply: bytes, get_reply: bytes) -> None:
        self.buf = bytearray()
        self.put_reply, self.get_reply = put_reply, get_reply
        self.transport: Any = None

    def connection_made(self, transport: Any) -> None:
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        buf = self.buf
        buf += data
        pos = 0
        while len(buf) - pos >= 4:
            size = int.from_bytes(buf[pos:pos + 4], "big")
            if len(buf) - pos - 4 < size:
                break
            self.transport.write(self.put_reply if size >= PUT_FRAME_MIN else self.get_reply)
            pos += 4 + size
        del buf[:pos]


async def serve(path: str) -> None:
    import signal

    _, put_reply, _, get_reply = frames()
    loop = asyncio.get_running_loop()
    server = await loop.create_unix_server(lambda: Echo(put_reply, get_reply), path)
    stop = loop.create_future()
    loop.add_signal_handler(signal.SIGTERM, stop.set_result, None)
    await stop
    server.close()


def drive(path: str, count: int) -> None:
    put, put_reply, get, get_reply = frames()
    with socket.socket(socket.AF_UNIX) as sock:
        sock.connect(path)
        for _ in range(count):
            for request, reply in ((put, put_reply), (get, get_reply)):
                sock.sendall(request)
                need = len(reply)
                while need:
                    need -= len(sock.recv(need))


def main(argv: list[str]) -> None:
    if argv[0] == "serve":
        import uvloop

        if os.path.exists(argv[1]):
            os.unlink(argv[1])
        uvloop.run(serve(argv[1]))
    else:
        drive(argv[1], int(argv[2]))


if __name__ == "__main__":
    main(sys.argv[1:])
