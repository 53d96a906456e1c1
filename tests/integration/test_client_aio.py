"""The asyncio client (``mqlite.aio``) against a real (embedded) queue manager."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import mqlite.aio as aio
import mqlite.client as mqlite
from helpers.waiting import wait_until, waiting_gets
from mqlite import cmqc as CMQC
from mqlite.server.embedded import embedded


@pytest.fixture
def server(mqlite_home: Path) -> Iterator[Any]:
    with embedded("QM1", home=mqlite_home, port=0) as srv:
        with mqlite.connect("QM1") as admin:
            code, lines = admin.mqsc("DEFINE QLOCAL(APP.IN)\nDEFINE QLOCAL(AHEAD) DEFREADA(YES) MAXDEPTH(50000)\n"
                                     "DEFINE QLOCAL(SMALL) MAXDEPTH(1)")
            assert code == 0, lines
        yield srv


def test_put_get_iterate(server: Any) -> None:
    async def main() -> None:
        async with await aio.connect("QM1") as qm, aio.Queue(qm, "APP.IN") as q:
            await q.put(b"hello", properties={"k": 1}, correl_id=b"c")
            msg = await q.get(wait=1.0)
            assert msg == b"hello" and msg.properties == {"k": 1} and msg.correl_id.startswith(b"c")
            with pytest.raises(aio.MQMIError) as e:
                await q.get(wait=0.1)
            assert e.value.reason == CMQC.MQRC_NO_MSG_AVAILABLE
            for i in range(3):
                await q.put(b"%d" % i)
            assert [bytes(m) async for m in q.browse()] == [b"0", b"1", b"2"]
            assert await q.depth() == 3
            assert [bytes(m) async for m in q.messages(wait=0.1)] == [b"0", b"1", b"2"]
            assert (await qm.inquire(CMQC.MQCA_Q_MGR_NAME)).strip() == b"QM1"

    asyncio.run(main())


def test_concurrent_getters_on_one_connection(server: Any) -> None:
    async def main() -> None:
        qm = await aio.connect("QM1", host="127.0.0.1", port=server.port, user="bob", password="pw")
        queues = [aio.Queue(qm, "APP.IN") for _ in range(3)]  # three handles: three waits to see
        getters = [asyncio.create_task(q.get(wait=30)) for q in queues]
        with mqlite.connect("QM1") as admin:
            await asyncio.to_thread(wait_until, lambda: waiting_gets(admin, "APP.IN") == 3, "all three MQGETs wait")
        for i in range(3):
            await queues[0].put(f"m{i}")
        assert sorted(bytes(m) for m in await asyncio.gather(*getters)) == [b"m0", b"m1", b"m2"]
        await qm.disconnect()

    asyncio.run(main())


def test_async_puts_read_ahead_and_stat(server: Any) -> None:
    async def main() -> None:
        qm = await aio.connect("QM1")
        q = aio.Queue(qm, "AHEAD")
        for i in range(1000):
            await q.put(b"%d" % i, asynchronous=True, persistent=i % 250 == 0)
        status = await qm.stat()
        assert (status.PutSuccessCount, status.PutFailureCount) == (1000, 0)
        consumer_qm = await aio.connect("QM1")
        consumer = aio.Queue(consumer_qm, "AHEAD")
        assert [int(m) async for m in consumer.messages(wait=0.5)] == list(range(1000))
        assert consumer_qm.get_handle().read_ahead
        await consumer_qm.disconnect()
        await qm.disconnect()

    asyncio.run(main())


def test_failures(server: Any) -> None:
    async def main() -> None:
        with pytest.raises(aio.MQMIError) as e:
            await aio.connect("NOPE")
        assert e.value.reason == CMQC.MQRC_Q_MGR_NAME_ERROR
        qm = await aio.connect("QM1")
        small = aio.Queue(qm, "SMALL")
        await small.put(b"1", asynchronous=True)
        await small.put(b"2", asynchronous=True)
        await qm.ping()
        with pytest.raises(aio.MQMIError) as e:
            await small.put(b"3")
        assert e.value.reason == CMQC.MQRC_Q_FULL
        with pytest.raises(aio.MQMIError) as e:
            await aio.Queue(qm, "NO.SUCH.Q").get()
        assert e.value.reason == CMQC.MQRC_UNKNOWN_OBJECT_NAME
        server.stop(immediate=True)
        with pytest.raises(aio.MQMIError) as e:
            await aio.Queue(qm, "APP.IN").get(wait=1)
        assert e.value.reason in (CMQC.MQRC_CONNECTION_BROKEN, CMQC.MQRC_Q_MGR_STOPPING)
        await qm.disconnect()

    asyncio.run(main())
