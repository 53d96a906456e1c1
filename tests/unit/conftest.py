"""Fixtures for the core (sans-IO engine) tests: a queue manager on a fake clock, no sockets.

- ``clock``: a ``FakeClock``; ``clock.now`` is the time core sees, ``clock.advance(s)`` moves it.
- ``qm``: a bootstrapped ``QueueManager("QM1")`` on that clock, its bootstrap effects taken.
- ``mq``: an ``MQ`` helper over ``qm`` with short spellings of the MQI calls (``mq.put``,
  ``mq.get``, ``mq.raises(reason)``) and a default connection ``mq.conn`` (user ``alice``).
- ``store``: a real ``mqlite.store.sqlite.Store`` in ``tmp_path`` (closed at teardown).
- ``store_mq``: an ``MQ`` whose queue manager reads evicted bodies from ``store``; its bootstrap
  tx is already durable. ``store_mq.flush()`` writes the pending tx and calls ``on_durable``.
- ``recover``: ``recover()`` builds a new queue manager over ``store`` exactly as the server
  does at start (``mqlite.server.runtime.Runtime.recover``) and returns an ``MQ`` over it.

Test modules use these through fixtures only (``import conftest`` is fragile when several test
directories have one).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.qmgr import Connection, GetResult, Handle, QueueManager
from mqlite.core.security.service import administrator
from mqlite.core.waiters import GetRequest, Waiter
from mqlite.message import MessageDescriptor, Properties
from mqlite.store.sqlite import Store
from mqlite.store.tx import StoreTx

START = 1_700_000_000.25  # 2023-11-14 22:13:20.25 GMT


class FakeClock:
    """The time core sees: a mutable float."""

    def __init__(self, now: float = START) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        self.now += seconds
        return self.now


class MQ:
    """Short spellings of the MQI calls over one queue manager (no behaviour of its own)."""

    def __init__(self, qm: QueueManager, clock: FakeClock, store: Store | None = None) -> None:
        self.qm = qm
        self.clock = clock
        self.store = store
        self.conn = qm.connect(administrator("alice"), "app.py", pid=4242)

    # -- connections and objects -------------------------------------------------------
    def connect(self, user: str = "bob", appl: str = "other.py") -> Connection:
        return self.qm.connect(administrator(user), appl)

    def define(self, name: str, qtype: str = "QLOCAL", **attrs: Any) -> None:
        self.qm.define(qtype, name, attrs)

    def open(
        self, name: str, options: int = C.MQOO_OUTPUT | C.MQOO_INPUT_SHARED | C.MQOO_BROWSE | C.MQOO_INQUIRE,
        conn: Connection | None = None, **od: Any,
    ) -> Handle:
        return self.qm.open(conn or self.conn, {"ObjectName": name, **od}, options)

    def close(self, handle: Handle, options: int = C.MQCO_NONE, conn: Connection | None = None) -> None:
        self.qm.close(conn or self.conn, handle.hobj, options)

    # -- MQPUT / MQGET -----------------------------------------------------------------
    def put(
        self, handle: Handle, body: bytes = b"msg", md: MessageDescriptor | None = None,
        pmo: int = C.MQPMO_NO_SYNCPOINT, props: Properties | None = None, conn: Connection | None = None,
        **fields: Any,
    ) -> MessageDescriptor:
        md = md if md is not None else MessageDescriptor(**fields)
        return self.qm.put(conn or self.conn, handle.hobj, md, pmo, props or {}, body)

    def put1(
        self, name: str, body: bytes = b"msg", pmo: int = C.MQPMO_NO_SYNCPOINT,
        conn: Connection | None = None, **fields: Any,
    ) -> MessageDescriptor:
        return self.qm.put1(conn or self.conn, {"ObjectName": name}, MessageDescriptor(**fields), pmo, {}, body)

    def request(
        self, options: int = C.MQGMO_NO_SYNCPOINT, msg_id: bytes | None = None,
        correl_id: bytes | None = None, max_length: int = -1, wait_ms: int = 0,
    ) -> GetRequest:
        return GetRequest(options, msg_id, correl_id, max_length, wait_ms)

    def get(
        self, handle: Handle, options: int = C.MQGMO_NO_SYNCPOINT, conn: Connection | None = None,
        token: object = None, **request: Any,
    ) -> GetResult:
        result = self.qm.get(conn or self.conn, handle.hobj, self.request(options, **request), token)
        assert isinstance(result, GetResult), f"expected a message, got {result!r}"
        return result

    def wait(
        self, handle: Handle, options: int = C.MQGMO_NO_SYNCPOINT, wait_ms: int = 1000,
        conn: Connection | None = None, token: object = "token", **request: Any,
    ) -> Waiter:
        result = self.qm.get(
            conn or self.conn, handle.hobj, self.request(options | C.MQGMO_WAIT, wait_ms=wait_ms, **request), token
        )
        assert isinstance(result, Waiter), f"expected a Waiter, got {result!r}"
        return result

    def bodies(
        self, handle: Handle, options: int = C.MQGMO_NO_SYNCPOINT, conn: Connection | None = None
    ) -> list[bytes]:
        """Get every message there is now (until 2033)."""
        out: list[bytes] = []
        while True:
            try:
                out.append(self.get(handle, options, conn=conn).body)
            except MQError as error:
                assert error.reason == C.MQRC_NO_MSG_AVAILABLE, error
                return out

    # -- publish / subscribe -------------------------------------------------------------
    def topic(self, topic: str = "", object_name: str = "", conn: Connection | None = None,
              options: int = C.MQOO_OUTPUT) -> Handle:
        """MQOPEN a topic for publishing (by string, object or both)."""
        od = {"ObjectType": C.MQOT_TOPIC, "ObjectName": object_name, "ObjectString": topic}
        return self.qm.open(conn or self.conn, od, options)

    def pub(self, handle: Handle | str, body: bytes = b"pub", pmo: int = C.MQPMO_NO_SYNCPOINT,
            props: Properties | None = None, conn: Connection | None = None, pub_level: int = 9,
            **fields: Any) -> MessageDescriptor:
        """MQPUT to a topic handle, or to a topic string (opened and closed around the put)."""
        opened = self.topic(handle, conn=conn) if isinstance(handle, str) else handle
        try:
            md = MessageDescriptor(**fields)
            return self.qm.put(conn or self.conn, opened.hobj, md, pmo, props or {}, body, pub_level)
        finally:
            if isinstance(handle, str):
                self.qm.close(conn or self.conn, opened.hobj, C.MQCO_NONE)

    def sub(self, topic: str = "", options: int = C.MQSO_CREATE | C.MQSO_MANAGED, name: str | None = None,
            queue: Handle | None = None, conn: Connection | None = None, object_name: str = "",
            **sd: Any) -> tuple[Handle, Handle | None, dict[str, Any]]:
        """MQSUB: (Hsub, the queue handle MQSUB returned or None, MQSD outputs)."""
        fields = {"Options": options, "ObjectString": topic, "ObjectName": object_name, **sd}
        if name is not None:
            fields["SubName"] = name
        return self.qm.subscribe(conn or self.conn, fields, queue.hobj if queue is not None else 0)

    def managed(self, topic: str, options: int = 0, conn: Connection | None = None,
                **sd: Any) -> tuple[Handle, Handle]:
        """A managed subscription: (Hsub, the managed queue's handle)."""
        hsub, hobj, _ = self.sub(topic, C.MQSO_CREATE | C.MQSO_MANAGED | options, conn=conn, **sd)
        assert hobj is not None
        return hsub, hobj

    def got(self, handle: Handle, conn: Connection | None = None) -> list[GetResult]:
        """Every message on a subscription's queue now (until 2033)."""
        out: list[GetResult] = []
        while True:
            try:
                out.append(self.get(handle, conn=conn))
            except MQError as error:
                assert error.reason == C.MQRC_NO_MSG_AVAILABLE, error
                return out

    def inq(self, handle: Handle, *selectors: int, conn: Connection | None = None) -> list[int | str]:
        return self.qm.inquire(conn or self.conn, handle.hobj, list(selectors))

    def depth(self, name: str) -> int:
        return self.qm.queues[name].depth

    @staticmethod
    @contextlib.contextmanager
    def raises(reason: int) -> Iterator[pytest.ExceptionInfo[MQError]]:
        """Expect an MQError carrying IBM reason code ``reason``."""
        with pytest.raises(MQError) as info:
            yield info
        assert info.value.reason == reason, f"expected reason {reason}, got {info.value.reason}: {info.value}"

    # -- the store ---------------------------------------------------------------------
    def flush(self) -> StoreTx | None:
        """Take the pending effects; write their tx to the store and report it durable."""
        tx = self.qm.take_effects().tx
        if tx is not None:
            assert self.store is not None, "no store"
            self.store.write(tx)
            self.qm.on_durable(tx)
        return tx


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def qm(clock: FakeClock) -> QueueManager:
    qmgr = QueueManager("QM1", clock=clock)
    qmgr.bootstrap()
    qmgr.take_effects()
    return qmgr


@pytest.fixture
def mq(qm: QueueManager, clock: FakeClock) -> MQ:
    return MQ(qm, clock)


@pytest.fixture
def q(mq: MQ) -> Any:
    """APP.Q, a local queue with IBM's defaults, open for output, shared input, browse, inquire."""
    mq.define("APP.Q")
    handle = mq.open("APP.Q", C.MQOO_OUTPUT | C.MQOO_INPUT_SHARED | C.MQOO_BROWSE | C.MQOO_INQUIRE)
    mq.qm.take_effects()  # the definition's record: tests look at their own effects only
    return handle


@pytest.fixture
def store(tmp_path: Any) -> Iterator[Store]:
    st = Store(tmp_path / "QM1.db")
    yield st
    st.close()


@pytest.fixture
def store_mq(store: Store, clock: FakeClock) -> MQ:
    qmgr = QueueManager("QM1", reader=store, clock=clock)
    qmgr.bootstrap()
    helper = MQ(qmgr, clock, store)
    helper.flush()
    return helper


@pytest.fixture
def recover(store: Store, clock: FakeClock) -> Iterator[Callable[[], MQ]]:
    """A new queue manager over ``store``, recovered the way the server recovers at start."""
    from mqlite.server.runtime import Runtime

    loop = asyncio.new_event_loop()

    def run() -> MQ:
        runtime = Runtime("QM1", store, loop, clock)
        runtime.recover()
        return MQ(runtime.core, clock, store)

    yield run
    loop.close()
