"""The asyncio client (``mqlite.aio``) against a real (embedded) queue manager."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import mqlite.aio as aio
import mqlite.client as mqlite
from helpers.credentials import APP, add_user, grant_app
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
        add_user(mqlite_home, "QM1", APP)
        grant_app(mqlite_home, "QM1")
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
        qm = await aio.connect("QM1", host="127.0.0.1", port=server.port, **APP.kwargs)
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


def test_units_of_work_commit_and_backout(server: Any) -> None:
    async def main() -> None:
        async with await aio.connect("QM1") as qm, aio.Queue(qm, "APP.IN") as q:
            await q.put(b"kept", syncpoint=True)
            await q.put(b"dropped-async", syncpoint=True, asynchronous=True)
            await qm.backout()  # the unit's puts, synchronous and asynchronous, are gone
            with pytest.raises(aio.MQMIError) as none:
                await q.get()
            assert none.value.reason == CMQC.MQRC_NO_MSG_AVAILABLE
            await q.put(b"one", syncpoint=True)
            await q.put(b"two", syncpoint=True, asynchronous=True)
            async with await aio.connect("QM1") as other_qm, aio.Queue(other_qm, "APP.IN") as other:
                with pytest.raises(aio.MQMIError) as unseen:
                    await other.get()  # not committed: invisible to another connection
                assert unseen.value.reason == CMQC.MQRC_NO_MSG_AVAILABLE
                await qm.commit()
                assert [bytes(m) async for m in other.messages(wait=0.5)] == [b"one", b"two"]
                await other.put(b"got under syncpoint")
            assert await q.get(syncpoint=True) == b"got under syncpoint"
            await qm.backout()  # the get is undone: the message is back
            assert await q.get(wait=1.0) == b"got under syncpoint"

    asyncio.run(main())


def test_a_failed_asynchronous_put_backs_the_unit_out_at_commit(server: Any) -> None:
    async def main() -> None:
        async with await aio.connect("QM1") as qm, aio.Queue(qm, "SMALL") as small:
            await small.put(b"1", syncpoint=True, asynchronous=True)
            await small.put(b"2", syncpoint=True, asynchronous=True)  # SMALL holds one: Q_FULL
            with pytest.raises(aio.MQMIError) as backed_out:
                await qm.commit()
            assert backed_out.value.reason == CMQC.MQRC_BACKED_OUT and backed_out.value.failures == 1
            assert await small.depth() == 0

    asyncio.run(main())


def test_put1(server: Any) -> None:
    async def main() -> None:
        async with await aio.connect("QM1") as qm:
            md = mqlite.MD()
            await qm.put1("APP.IN", b"once", md, persistent=True, properties={"n": 7})
            assert md.MsgId != bytes(24) and md.Persistence == CMQC.MQPER_PERSISTENT
            async_md = mqlite.MD()
            await qm.put1("APP.IN", b"async", async_md, asynchronous=True)
            assert async_md.MsgId.startswith(b"AMQ ")  # made by the client (IBM's client does too)
            with pytest.raises(aio.MQMIError) as unknown:
                await qm.put1("NO.SUCH.Q", b"x")
            assert unknown.value.reason == CMQC.MQRC_UNKNOWN_OBJECT_NAME
            q = aio.Queue(qm, "APP.IN")
            first = await q.get(wait=1.0)
            assert first == b"once" and first.msg_id == bytes(md.MsgId) and first.properties == {"n": 7}
            assert (await q.get(wait=1.0)).msg_id == bytes(async_md.MsgId)
            await q.close()

    asyncio.run(main())


def test_set_and_inquire_queue_attributes(server: Any) -> None:
    async def main() -> None:
        async with await aio.connect("QM1") as qm:
            q = aio.Queue(qm, "APP.IN")
            await q.set(CMQC.MQIA_INHIBIT_PUT, CMQC.MQQA_PUT_INHIBITED)
            assert await q.inquire(CMQC.MQIA_INHIBIT_PUT) == CMQC.MQQA_PUT_INHIBITED
            with pytest.raises(aio.MQMIError) as inhibited:
                await q.put(b"x")
            assert inhibited.value.reason == CMQC.MQRC_PUT_INHIBITED
            await q.set(CMQC.MQIA_INHIBIT_PUT, CMQC.MQQA_PUT_ALLOWED)
            await q.put(b"allowed")
            assert await q.depth() == 1
            await q.close()

    asyncio.run(main())


def test_explicit_open_and_close(server: Any) -> None:
    async def main() -> None:
        async with await aio.connect("QM1") as qm:
            q = aio.Queue(qm, "APP.IN", CMQC.MQOO_OUTPUT)
            assert not q.is_open  # asyncio cannot open in a constructor: the first call opens
            await q.put(b"x")
            assert q.is_open
            with pytest.raises(aio.MQMIError) as output_only:
                await q.get()  # one handle, opened for output only: no re-open, as pymqi
            assert output_only.value.reason == CMQC.MQRC_NOT_OPEN_FOR_INPUT
            await q.close()
            assert not q.is_open
            with pytest.raises(mqlite.PYIFError):
                await q.close()
            reader = aio.Queue(qm, "APP.IN")
            await reader.open(CMQC.MQOO_INPUT_EXCLUSIVE | CMQC.MQOO_INQUIRE)
            with pytest.raises(mqlite.PYIFError):
                await reader.open(CMQC.MQOO_INPUT_SHARED)
            with pytest.raises(aio.MQMIError) as exclusive:
                await aio.Queue(qm, "APP.IN", CMQC.MQOO_INPUT_SHARED).get()
            assert exclusive.value.reason == CMQC.MQRC_OBJECT_IN_USE
            assert await reader.get() == b"x"
            await reader.close()

    asyncio.run(main())


def test_put_returns_the_resolved_queue_name_like_the_blocking_client(server: Any) -> None:
    with mqlite.connect("QM1") as admin:
        assert admin.mqsc("DEFINE QALIAS(APP.ALIAS) TARGET(APP.IN)")[0] == 0
        blocking_pmo = mqlite.PMO()
        mqlite.Queue(admin, "APP.ALIAS").put(b"sync", None, blocking_pmo)
    assert blocking_pmo.ResolvedQName.strip() == b"APP.IN"

    async def main() -> None:
        async with await aio.connect("QM1") as qm:
            q = aio.Queue(qm, "APP.ALIAS")
            for asynchronous in (False, True):
                pmo = mqlite.PMO()
                await q.put(b"aio", None, pmo, asynchronous=asynchronous)
                assert pmo.ResolvedQName == blocking_pmo.ResolvedQName
                assert pmo.ResolvedQMgrName == blocking_pmo.ResolvedQMgrName
                assert pmo.ResolvedQMgrName.strip() == b"QM1"

    asyncio.run(main())


def test_publish_and_subscribe(server: Any) -> None:  # A:TV-RP-02, C:SC-PUB-01
    async def main() -> None:
        async with await aio.connect("QM1") as qm:
            await aio.Topic(qm, topic_string="price/fruit/apples").pub(b"1.20", retain=True)
            sub = aio.Subscription(qm, "price/#", name="desk1", durable=True)
            assert not sub.is_open  # subscribes on first use
            first = await sub.get(wait=2.0)
            assert first == b"1.20" and first.properties["MQIsRetained"] is True
            assert sub.is_open and sub.resolved_topic_string == "price/#"
            async with aio.Topic(qm, topic_string="price/fruit/pears") as pears:
                md = mqlite.MD()
                await pears.pub(b"0.90", md, asynchronous=True)
                assert md.MsgId.startswith(b"AMQ ")
                await pears.pub(b"0.95", pub_level=5)
                assert pears.resolved_topic_string == "price/fruit/pears"
            assert [bytes(m) async for m in sub.messages(wait=0.5)] == [b"0.90", b"0.95"]
            assert await sub.request_update() == 1  # the retained apples again
            assert await sub.get(wait=1.0) == b"1.20"
            await sub.close(CMQC.MQCO_REMOVE_SUB, close_sub_queue=True)
            with pytest.raises(aio.MQMIError) as none:
                await aio.Topic(qm, topic_string="nobody/here").pub(b"x", warn_if_no_subs=True)
            assert (none.value.comp, none.value.reason) == (CMQC.MQCC_WARNING, CMQC.MQRC_NO_SUBS_MATCHED)
            old = mqlite.OD(Version=CMQC.MQOD_VERSION_3)  # C:SC-PUB-05
            with pytest.raises(aio.MQMIError) as od_error:
                await aio.Topic(qm, topic_string="price/x", topic_desc=old).open()
            assert od_error.value.reason == CMQC.MQRC_OD_ERROR
            queue = aio.Queue(qm, "APP.IN")
            async with aio.Subscription(qm, "stock/+", queue=queue, selector="Price > 100"):
                topic = aio.Topic(qm, topic_string="stock/ibm")
                for price in (50, 150):
                    await topic.pub(str(price), properties={"Price": price})
                assert [bytes(m) async for m in queue.messages(wait=0.5)] == [b"150"]

    asyncio.run(main())


def test_an_explicit_open_that_failed_stays_explicit(server: Any) -> None:
    async def main() -> None:
        async with await aio.connect("QM1") as qm:
            q = aio.Queue(qm, "LATE.Q", CMQC.MQOO_OUTPUT)
            with pytest.raises(aio.MQMIError) as missing:
                await q.put(b"x")
            assert missing.value.reason == CMQC.MQRC_UNKNOWN_OBJECT_NAME and not q.is_open
            assert (await qm.mqsc("DEFINE QLOCAL(LATE.Q)"))[0] == 0
            with pytest.raises(aio.MQMIError) as output_only:
                await q.get()  # opened now, with the options given: for output only
            assert output_only.value.reason == CMQC.MQRC_NOT_OPEN_FOR_INPUT
            await q.put(b"x")
            assert q.is_open

    asyncio.run(main())
