"""Each of core's services built alone, from what its constructor says it depends on, without a
QueueManager: object definitions, waiting getters, gets and puts, syncpoint, channels, and the
publish/subscribe services."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from mqlite import cmqc as C
from mqlite.core.channels import Channels
from mqlite.core.errors import MQError
from mqlite.core.handles import Connection, GetResult, Handle, open_for_input
from mqlite.core.mqget import Gets
from mqlite.core.mqput import Puts
from mqlite.core.objects import ObjectDefinitions
from mqlite.core.outbox import MessageIds, Outbox
from mqlite.core.pubsub.delivery import CopyDelivery
from mqlite.core.pubsub.publish import Publisher
from mqlite.core.pubsub.registry import Subscriptions
from mqlite.core.pubsub.subscription import Subscription
from mqlite.core.security.access import Access
from mqlite.core.security.events import AuthorityEvents, Caller
from mqlite.core.security.service import AuthorityService, administrator
from mqlite.core.syncpoint import Syncpoint
from mqlite.core.waiters import GetRequest, Waiter
from mqlite.core.waiting import WaitingGetters
from mqlite.message import MessageDescriptor
from mqlite.store.tx import DELETE_MESSAGE, DELETE_RECORD, PURGE_QUEUE, PUT_MESSAGE, PUT_RECORD, StoreTx

NOW = 1_700_000_000.0


def clock() -> float:
    return NOW


def ops(tx: StoreTx) -> list[tuple[int, tuple[Any, ...]]]:
    return [(op, row) for op, rows in tx.runs for row in rows]


class Base:
    """The lowest services: the outbox, ids, waiting getters and the object definitions."""

    def __init__(self) -> None:
        self.outbox = Outbox()
        self.ids = MessageIds("QM1")
        self.waiting = WaitingGetters(self.outbox)
        self.objects = ObjectDefinitions("QM1", None, clock, self.outbox, self.waiting, self.ids)
        self.objects.restore_attrs({})

    def queues(self) -> tuple[Gets, Puts, Syncpoint]:
        objects, outbox = self.objects, self.outbox
        gets = Gets(objects.queues, objects.attrs, self.waiting, outbox, clock)
        puts = Puts("QM1", objects.attrs, gets.deliver, outbox, self.ids, clock)
        return gets, puts, Syncpoint("QM1", objects.attrs, objects.queues, gets.deliver, outbox, clock)


def open_queue(conn: Connection, objects: ObjectDefinitions, name: str, options: int) -> Handle:
    """What MQOPEN leaves behind for a local queue (the Connections service is not built here)."""
    queue = objects.queues[name]
    handle = Handle(conn.next_hobj, name, name, options, queue, conn=conn)
    conn.next_hobj += 1
    conn.handles[handle.hobj] = handle
    if options & C.MQOO_INPUT_SHARED:
        open_for_input(queue, handle, options)
    return handle


def test_object_definitions_alone() -> None:
    base = Base()
    base.objects.define_queue("QLOCAL", "APP.Q", {"MAXDEPTH": 7})
    assert base.objects.queues["APP.Q"].max_depth == 7
    assert (PUT_RECORD, "object", "QLOCAL/APP.Q") in [(op, *row[:2]) for op, row in ops(base.outbox.tx)]
    with pytest.raises(MQError) as error:
        base.objects.define_queue("QLOCAL", "APP.Q", {})
    assert error.value.reason == C.MQRC_OBJECT_ALREADY_EXISTS
    base.objects.remove_queue("APP.Q")
    tx = base.outbox.take_effects().tx
    assert tx is not None
    assert (PURGE_QUEUE, ("APP.Q",)) in ops(tx) and (DELETE_RECORD, ("object", "QLOCAL/APP.Q")) in ops(tx)
    assert "APP.Q" not in base.objects.qdefs


def test_a_removed_queue_fails_its_waiting_getters() -> None:  # the waiters' MQGETs end with 2052
    base = Base()
    base.objects.define_queue("QLOCAL", "APP.Q", {})
    waiter = Waiter(Connection("1", "u", "a"), 1, GetRequest(C.MQGMO_WAIT, None, None, -1, -1), 0.0, "token")
    base.waiting.add(base.objects.queues["APP.Q"], waiter)
    base.objects.remove_queue("APP.Q")
    [(done, result)] = base.outbox.take_effects().completions
    assert done is waiter and isinstance(result, MQError) and result.reason == C.MQRC_Q_DELETED
    assert not base.waiting.waiting


def test_waiting_getters_time_out_alone() -> None:
    base = Base()
    base.objects.define_queue("QLOCAL", "APP.Q", {})
    conn = Connection("1", "u", "a")
    handle = open_queue(conn, base.objects, "APP.Q", C.MQOO_INPUT_SHARED)
    early = Waiter(conn, handle.hobj, GetRequest(C.MQGMO_WAIT, None, None, -1, 1000), NOW + 1, "early")
    late = Waiter(conn, handle.hobj, GetRequest(C.MQGMO_WAIT, None, None, -1, 5000), NOW + 5, "late")
    for waiter in (early, late):
        base.waiting.add(base.objects.queues["APP.Q"], waiter)
    base.waiting.time_out(NOW + 2)
    [(done, result)] = base.outbox.take_effects().completions
    assert done is early and isinstance(result, MQError) and result.reason == C.MQRC_NO_MSG_AVAILABLE
    assert base.waiting.waiting == {late} and list(base.objects.queues["APP.Q"].waiters) == [late]


def test_puts_gets_and_syncpoint_without_a_queue_manager() -> None:
    base = Base()
    gets, puts, syncpoint = base.queues()
    base.objects.define_queue("QLOCAL", "APP.Q", {})
    conn = Connection("1", "alice", "app.py")
    out = open_queue(conn, base.objects, "APP.Q", C.MQOO_OUTPUT)
    into = open_queue(conn, base.objects, "APP.Q", C.MQOO_INPUT_SHARED)
    queue = base.objects.queues["APP.Q"]
    base.outbox.take_effects()  # the definition
    waiter = gets.get(conn, into.hobj, GetRequest(C.MQGMO_WAIT, None, None, -1, -1), "token")
    assert isinstance(waiter, Waiter)
    md = puts.put(conn, out, queue, MessageDescriptor(Persistence=C.MQPER_PERSISTENT), C.MQPMO_NO_SYNCPOINT, {},
                  b"one")
    effects = base.outbox.take_effects()
    [(done, result)] = effects.completions
    assert done is waiter and isinstance(result, GetResult) and result.body == b"one"
    assert result.message.md.UserIdentifier == "alice" and md.MsgId.startswith(b"AMQ QM1")
    assert effects.tx is not None and [op for op, _ in ops(effects.tx)] == [PUT_MESSAGE, DELETE_MESSAGE]
    puts.put(conn, out, queue, MessageDescriptor(), C.MQPMO_SYNCPOINT, {}, b"two")
    with pytest.raises(MQError) as error:  # not visible until committed
        gets.get(conn, into.hobj, GetRequest(C.MQGMO_NO_SYNCPOINT, None, None, -1, 0))
    assert error.value.reason == C.MQRC_NO_MSG_AVAILABLE
    syncpoint.commit(conn)
    got = gets.get(conn, into.hobj, GetRequest(C.MQGMO_NO_SYNCPOINT, None, None, -1, 0))
    assert isinstance(got, GetResult) and got.body == b"two"


class Agent:
    """A channel agent that records what it is asked (the server's runs listeners)."""

    def __init__(self) -> None:
        self.started: list[str] = []

    def start(self, name: str, attrs: Mapping[str, Any]) -> None:
        self.started.append(name)

    def stop(self, name: str, client_id: str | None = None) -> int:
        self.started.remove(name)
        return 0

    def running(self, name: str) -> bool:
        return name in self.started

    def connections(self, name: str) -> int:
        return 0

    def client_rows(self, name: str, client_pattern: str) -> list[dict[str, Any]]:
        return []


def test_channels_alone() -> None:
    outbox = Outbox()
    channels = Channels(clock, outbox)
    channels.define_channel("MQTT.A", {"CHLTYPE": "MQTT", "PORT": 1883})
    with pytest.raises(MQError) as error:  # no agent in this process
        channels.start_channel("MQTT.A")
    assert error.value.reason == C.MQRCCF_CHL_SYSTEM_NOT_ACTIVE
    channels.agent = agent = Agent()
    channels.start_channel("MQTT.A")
    assert agent.started == ["MQTT.A"] and channels.channels_to_start() == ["MQTT.A"]
    assert [row["STATUS"] for row in channels.channel_status("*")] == ["RUNNING"]
    channels.stop_channel("MQTT.A")
    assert channels.channels_to_start() == [] and agent.started == []


def test_publishing_without_the_mqi() -> None:  # A:R-CMP-1: each matching subscription gets a copy
    base = Base()
    gets, puts, syncpoint = base.queues()
    subscriptions = Subscriptions(base.objects)
    delivery = CopyDelivery(base.objects, subscriptions, gets.deliver, syncpoint.dead_letter, base.ids)
    events = AuthorityEvents("QM1", base.objects.attrs, base.objects.queues, base.ids.next_id, clock)
    access = Access("QM1", AuthorityService("QM1", base.outbox), events, subscriptions.tree.objects_by_topic)
    publisher = Publisher(base.objects, subscriptions, delivery, puts, access)
    for name in ("SPORT.Q", "NEWS.Q"):
        base.objects.define_queue("QLOCAL", name, {})
    for sub_id, topic, dest in ((b"1" * 24, "sport/#", "SPORT.Q"), (b"2" * 24, "news/+", "NEWS.Q")):
        subscriptions.add(Subscription(sub_id=sub_id, name="", topic=topic, options=0, dest=dest, correl_id=sub_id,
                                       wildcard=True), persist=False)
    conn = Connection("1", "alice", "app.py")
    handle = publisher.open_topic(1, {"ObjectString": "sport/tennis", "Version": C.MQOD_VERSION_4}, C.MQOO_OUTPUT,
                                  administrator("alice"), Caller("alice", "app.py"))
    handle.conn = conn
    publisher.publish(conn, handle, MessageDescriptor(), C.MQPMO_NO_SYNCPOINT, {}, b"ace")
    sport, news = base.objects.queues["SPORT.Q"], base.objects.queues["NEWS.Q"]
    assert (sport.depth, news.depth) == (1, 0)
    [entry] = sport.available(NOW, [], limit=None)
    assert sport.load(entry).body == b"ace"
    subscriptions.remove(subscriptions.subs_by_id[b"1" * 24])
    publisher.publish(conn, handle, MessageDescriptor(), C.MQPMO_NO_SYNCPOINT, {}, b"fault")
    assert sport.depth == 1  # no subscription matches any more


def test_applications_may_not_publish_under_sys_mq() -> None:
    """IBM: MQOPEN of a topic under $SYS/MQ/ for publishing is MQRC_ADMIN_TOPIC_STRING_ERROR (2598);
    the queue manager's own monitor publishes there (``publish_for``). No spec ID."""
    base = Base()
    gets, puts, syncpoint = base.queues()
    subscriptions = Subscriptions(base.objects)
    delivery = CopyDelivery(base.objects, subscriptions, gets.deliver, syncpoint.dead_letter, base.ids)
    events = AuthorityEvents("QM1", base.objects.attrs, base.objects.queues, base.ids.next_id, clock)
    access = Access("QM1", AuthorityService("QM1", base.outbox), events, subscriptions.tree.objects_by_topic)
    publisher = Publisher(base.objects, subscriptions, delivery, puts, access)
    with pytest.raises(MQError) as refused:
        publisher.open_topic(1, {"ObjectString": "$SYS/MQ/INFO/QMGR/QM1/Monitor/CPU/SystemSummary",
                                 "Version": C.MQOD_VERSION_4}, C.MQOO_OUTPUT, administrator("alice"),
                             Caller("alice", "app.py"))
    assert refused.value.reason == C.MQRC_ADMIN_TOPIC_STRING_ERROR == 2598
    publisher.open_topic(2, {"ObjectString": "$SYS/other", "Version": C.MQOD_VERSION_4}, C.MQOO_OUTPUT,
                         administrator("alice"), Caller("alice", "app.py"))  # only $SYS/MQ/ is the queue manager's
