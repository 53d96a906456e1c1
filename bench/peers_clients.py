"""``bench/peers.py``'s client processes for mqlite, RabbitMQ (pika) and NATS (nats-py), and the
admin calls that make and empty the peers' queues and streams. Each worker connects, calls
``start.wait()``, does its part, and (when it ends the measurement) puts ``time.perf_counter()``
on ``results``. pika and nats are imported inside, so that a missing one skips only its peer."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Awaitable, Callable
from typing import Any

import p2p

import mqlite
from mqlite import cmqc as C

BODY = b"x" * 256
PREFETCH = 1000  # RabbitMQ consumer prefetch, acknowledged with multiple=True every ACK_EVERY
ACK_EVERY = 100
TIMEOUT = 120.0  # seconds a client waits for one message before it gives up (a lost message)


class Start:
    """What a worker waits on once connected: it says it is ready, then waits for the go."""

    def __init__(self, ctx: Any) -> None:
        self.ready: Any = ctx.Queue()
        self.go: Any = ctx.Event()

    def wait(self) -> None:
        self.ready.put(os.getpid())
        self.go.wait()


# -- mqlite: request/reply (streaming and confirmed producers are bench/p2p.py's workers) ------------
def mqlite_requester(count: int, start: Start, results: Any) -> None:
    qm = mqlite.connect(p2p.QM)
    requests = mqlite.Queue(qm, "REQ.Q", C.MQOO_OUTPUT)
    replies = mqlite.Queue(qm, "REPLY.Q", C.MQOO_INPUT_SHARED)
    md = mqlite.MD(Persistence=C.MQPER_NOT_PERSISTENT)
    gmo = mqlite.GMO(Options=C.MQGMO_WAIT | C.MQGMO_NO_SYNCPOINT, WaitInterval=int(TIMEOUT * 1000))
    start.wait()
    for _ in range(count):
        md.MsgId = C.MQMI_NONE
        requests.put(BODY, md)
        replies.get(None, mqlite.MD(), gmo)
    results.put(time.perf_counter())
    qm.disconnect()


def mqlite_responder(count: int, start: Start) -> None:
    qm = mqlite.connect(p2p.QM)
    requests = mqlite.Queue(qm, "REQ.Q", C.MQOO_INPUT_SHARED)
    replies = mqlite.Queue(qm, "REPLY.Q", C.MQOO_OUTPUT)
    gmo = mqlite.GMO(Options=C.MQGMO_WAIT | C.MQGMO_NO_SYNCPOINT, WaitInterval=int(TIMEOUT * 1000))
    start.wait()
    for _ in range(count):
        body = requests.get(None, mqlite.MD(), gmo)
        replies.put(body, mqlite.MD(Persistence=C.MQPER_NOT_PERSISTENT))
    qm.disconnect()


# -- RabbitMQ ---------------------------------------------------------------------------------
def _rabbit(port: int) -> Any:
    import pika

    return pika.BlockingConnection(pika.ConnectionParameters("127.0.0.1", port, heartbeat=0))


def rabbit_admin(port: int, purge: bool = False) -> None:
    """Declare (or purge) the queues: ``stream`` transient, ``durable`` durable, ``req``/``rep``."""
    conn = _rabbit(port)
    channel = conn.channel()
    for name, durable in (("stream", False), ("durable", True), ("req", False), ("rep", False)):
        if purge:
            channel.queue_purge(name)
        else:
            channel.queue_declare(name, durable=durable)
    conn.close()


def rabbit_producer(port: int, queue: str, count: int, persistent: bool, start: Start,
                    results: Any = None) -> None:
    """Persistent: publisher confirms on, so each ``basic_publish`` returns once confirmed."""
    import pika

    conn = _rabbit(port)
    channel = conn.channel()
    if persistent:
        channel.confirm_delivery()
    props = pika.BasicProperties(delivery_mode=2 if persistent else 1)
    start.wait()
    for _ in range(count):
        channel.basic_publish("", queue, BODY, props)
    if results is not None:
        results.put(time.perf_counter())
    conn.close()


def rabbit_consumer(port: int, queue: str, count: int, start: Start, results: Any) -> None:
    conn = _rabbit(port)
    channel = conn.channel()
    channel.basic_qos(prefetch_count=PREFETCH)
    start.wait()
    for got, (method, _props, _body) in enumerate(channel.consume(queue, inactivity_timeout=TIMEOUT), 1):
        if method is None:
            raise TimeoutError(f"{got - 1} of {count} messages")
        if got % ACK_EVERY == 0 or got == count:
            channel.basic_ack(method.delivery_tag, multiple=True)
        if got == count:
            break
    results.put(time.perf_counter())
    channel.cancel()
    conn.close()


def rabbit_requester(port: int, count: int, start: Start, results: Any) -> None:
    import pika

    conn = _rabbit(port)
    channel = conn.channel()
    props = pika.BasicProperties(delivery_mode=1, reply_to="rep")
    replies = channel.consume("rep", auto_ack=True, inactivity_timeout=TIMEOUT)
    start.wait()
    for _ in range(count):
        channel.basic_publish("", "req", BODY, props)
        if next(replies)[0] is None:
            raise TimeoutError("no reply")
    results.put(time.perf_counter())
    channel.cancel()
    conn.close()


def rabbit_responder(port: int, count: int, start: Start) -> None:
    import pika

    conn = _rabbit(port)
    channel = conn.channel()
    props = pika.BasicProperties(delivery_mode=1)
    requests = channel.consume("req", auto_ack=True, inactivity_timeout=TIMEOUT)
    start.wait()
    for _ in range(count):
        method, request, body = next(requests)
        if method is None:
            raise TimeoutError("no request")
        channel.basic_publish("", request.reply_to, body, props)
    channel.cancel()
    conn.close()


# -- NATS -------------------------------------------------------------------------------------
def _nats(body: Callable[[Any], Awaitable[None]], port: int) -> None:
    """Run ``body(connection)`` in a fresh event loop of this process."""
    import nats

    async def main() -> None:
        nc = await nats.connect(f"nats://127.0.0.1:{port}")
        try:
            await body(nc)
        finally:
            await nc.close()

    asyncio.run(main())


async def _started(start: Start) -> None:
    """``start.wait()`` off the event loop, so the client's own tasks keep running."""
    await asyncio.get_running_loop().run_in_executor(None, start.wait)


def nats_admin(port: int, purge: bool = False) -> None:
    """Streams ``NP`` (memory storage, ``np.*``) and ``DUR`` (file storage, ``dur.*``), or purge them."""
    from nats.js.api import StorageType

    async def body(nc: Any) -> None:
        js = nc.jetstream()
        for name, storage in (("NP", StorageType.MEMORY), ("DUR", StorageType.FILE)):
            if purge:
                await js.purge_stream(name)
            else:
                await js.add_stream(name=name, subjects=[f"{name.lower()}.*"], storage=storage)

    _nats(body, port)


def nats_producer(port: int, subject: str, count: int, acked: bool, start: Start, results: Any = None) -> None:
    """``acked``: ``js.publish`` waits for each PubAck; otherwise core publishes into the stream."""
    async def body(nc: Any) -> None:
        js = nc.jetstream()
        await _started(start)
        if acked:
            for _ in range(count):
                await js.publish(subject, BODY, timeout=TIMEOUT)
        else:
            for _ in range(count):
                await nc.publish(subject, BODY)
            await nc.flush()
        if results is not None:
            results.put(time.perf_counter())

    _nats(body, port)


def nats_consumer(port: int, subject: str, count: int, start: Start, results: Any) -> None:
    """An ordered push consumer (no acks, flow-controlled) subscribed before the go."""
    async def body(nc: Any) -> None:
        done = asyncio.get_running_loop().create_future()
        got = 0

        async def arrived(_msg: Any) -> None:
            nonlocal got
            got += 1
            if got == count and not done.done():
                done.set_result(None)

        await nc.jetstream().subscribe(subject, cb=arrived, ordered_consumer=True)
        await _started(start)
        await asyncio.wait_for(done, TIMEOUT)
        results.put(time.perf_counter())

    _nats(body, port)


def nats_requester(port: int, count: int, start: Start, results: Any) -> None:
    async def body(nc: Any) -> None:
        await _started(start)
        for _ in range(count):
            await nc.request("svc.echo", BODY, timeout=TIMEOUT)
        results.put(time.perf_counter())

    _nats(body, port)


def nats_responder(port: int, count: int, start: Start) -> None:
    async def body(nc: Any) -> None:
        done = asyncio.get_running_loop().create_future()
        answered = 0

        async def answer(msg: Any) -> None:
            nonlocal answered
            await msg.respond(msg.data)
            answered += 1
            if answered == count and not done.done():
                done.set_result(None)

        await nc.subscribe("svc.echo", cb=answer)
        await nc.flush()  # the subscription is at the server before the requester starts
        await _started(start)
        await asyncio.wait_for(done, TIMEOUT)

    _nats(body, port)
