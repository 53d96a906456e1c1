"""Queue managers linked for a publish/subscribe hierarchy as an administrator links them
(B fixture F-H2): on each side a transmission queue named after the partner, a sender channel
to it and a receiver from it, and CHLAUTH letting the partner in; then ALTER QMGR PARENT."""

from __future__ import annotations

from typing import Any

import mqlite.client as mqlite
from helpers.mqsc import RunCli, mqsc, records
from helpers.qmgrs import QMgr
from helpers.waiting import wait_until
from mqlite import cmqc as C


def link(run_cli: RunCli, a: QMgr, b: QMgr) -> None:
    """Channels both ways between ``a`` and ``b`` (A.TO.B and B.TO.A), each sender on a
    transmission queue named after its target."""
    for here, there in ((a, b), (b, a)):
        mqsc(run_cli, here, f"DEFINE QLOCAL({there.name}) USAGE(XMITQ)\n"
                            f"DEFINE CHANNEL({here.name}.TO.{there.name}) CHLTYPE(SDR) "
                            f"CONNAME('127.0.0.1({there.port})') XMITQ({there.name})\n"
                            f"DEFINE CHANNEL({there.name}.TO.{here.name}) CHLTYPE(RCVR)\n"
                            f"SET CHLAUTH({there.name}.TO.{here.name}) TYPE(QMGRMAP) QMNAME({there.name}) "
                            "USERSRC(CHANNEL)\n")


def shown(qmgr: QMgr, text: str) -> str:
    """What MQSC ``text`` shows, run over a client connection (the tests' many looks at a
    network cost a connection each, not a process each)."""
    with mqlite.connect(qmgr.name) as conn:
        _, lines = conn.mqsc(text)
    return "\n".join(lines)


def relations(run_cli: RunCli, qmgr: QMgr, status_type: str = "ALL") -> dict[str, tuple[str, str]]:
    """DISPLAY PUBSUB TYPE(...): {QMNAME: (TYPE, STATUS)}."""
    out = shown(qmgr, f"DISPLAY PUBSUB TYPE({status_type})\n")
    return {fields["QMNAME"]: (fields.get("TYPE", ""), fields.get("STATUS", "")) for fields in records(out, "AMQ8723I")}


def set_parent(run_cli: RunCli, child: QMgr, parent: QMgr) -> None:
    """ALTER QMGR PARENT and wait until both ends show the relation ACTIVE (B:SC-52)."""
    mqsc(run_cli, child, f"ALTER QMGR PARENT({parent.name})\n")
    wait_until(lambda: relations(run_cli, child).get(parent.name) == ("PARENT", "ACTIVE")
               and relations(run_cli, parent).get(child.name) == ("CHILD", "ACTIVE"),
               f"{child.name} an active child of {parent.name}")


def proxies(run_cli: RunCli, qmgr: QMgr) -> set[tuple[str, str]]:
    """DISPLAY SUB(*) SUBTYPE(PROXY): {(origin queue manager, topic string)} (B scenarios'
    "proxies at H", matched by DESTQMGR and TOPICSTR as A-07 advises)."""
    out = shown(qmgr, "DISPLAY SUB(*) SUBTYPE(PROXY) DESTQMGR TOPICSTR\n")
    return {(fields["DESTQMGR"], fields["TOPICSTR"]) for fields in records(out, "AMQ8096I")}


def sent(run_cli: RunCli, qmgr: QMgr, channel: str) -> int:
    """Messages a sender channel has sent since it started (DISPLAY CHSTATUS MSGS; 0 at rest)."""
    return sent_all(qmgr).get(channel, 0)


def sent_all(qmgr: QMgr) -> dict[str, int]:
    """Messages each of ``qmgr``'s sending channels has sent since it started."""
    out = shown(qmgr, "DISPLAY CHSTATUS(*) CHLTYPE MSGS\n")
    return {fields["CHANNEL"]: int(fields.get("MSGS", "0")) for fields in records(out, "AMQ8417I")
            if fields.get("CHLTYPE") in ("SDR", "CLUSSDR", "SVR")}


def publish(qmgr: QMgr, topic: str, body: bytes, **keywords: Any) -> None:
    """A persistent publication (``Topic.pub`` keywords: ``properties``, ``retain`` ...)."""
    with mqlite.connect(qmgr.name) as conn:
        mqlite.Topic(conn, topic_string=topic).pub(body, persistent=True, **keywords)


def subscribe(conn: Any, options: int = 0, topic: str = "", topic_object: str = "", queue: Any = None,
              correl: bytes = b"") -> Any:
    """A non-durable MQSUB with ``options`` added, to ``topic`` or through ``topic_object``;
    managed unless ``queue`` is given (then ``correl`` is its SubCorrelId, if any)."""
    sd = mqlite.SD(Options=C.MQSO_CREATE | C.MQSO_NON_DURABLE | options | (0 if queue else C.MQSO_MANAGED),
                   ObjectName=topic_object)
    if topic:
        sd.set_vs("ObjectString", topic)
    if correl:
        sd.SubCorrelId = correl
    sub = mqlite.Subscription(conn)
    sub.sub(sub_desc=sd, sub_queue=queue)
    return sub


def bodies(qmgr: QMgr, queue: str) -> list[bytes]:
    """Everything on ``queue``, got."""
    got = []
    with mqlite.connect(qmgr.name) as conn:
        q = mqlite.Queue(conn, queue)
        while True:
            try:
                got.append(q.get())
            except mqlite.MQMIError as error:
                assert error.reason == C.MQRC_NO_MSG_AVAILABLE
                return got


def _busy_queues(run_cli: RunCli, qmgr: QMgr) -> tuple[list[str], dict[str, str]]:
    """The transmission and SYSTEM.INTER.QMGR.* queues holding messages or uncommitted gets (a
    message got and not yet passed on is off the queue), and the running senders with a batch
    awaiting its confirm (its messages are off the queue, its MSGS count not yet up); with each
    channel's MSGS count."""
    out = shown(qmgr, "DISPLAY CHSTATUS(*) STATUS INDOUBT MSGS\nDISPLAY QLOCAL(*) CURDEPTH USAGE\n"
                      "DISPLAY QSTATUS(*) UNCOM\n")
    channels = records(out, "AMQ8417I")
    busy = [f"{qmgr.name}:{fields.get('CHANNEL')} in doubt" for fields in channels
            if fields.get("STATUS") == "RUNNING" and fields.get("INDOUBT") == "YES"]
    watched = {fields.get("QUEUE", ""): fields.get("CURDEPTH") for fields in records(out, "AMQ8409I")
               if fields.get("USAGE") == "XMITQ"
               or fields.get("QUEUE", "").startswith(("SYSTEM.INTER.QMGR.", "SYSTEM.CLUSTER.COMMAND."))}
    busy += [f"{qmgr.name}:{name}" for name, curdepth in watched.items() if curdepth != "0"]
    busy += [f"{qmgr.name}:{fields.get('QUEUE')} uncommitted" for fields in records(out, "AMQ8450I")
             if fields.get("QUEUE") in watched and fields.get("UNCOM", "NO") != "NO"]
    return busy, {f"{qmgr.name}:{fields.get('CHANNEL')}": fields.get("MSGS", "0") for fields in channels}


def idle(run_cli: RunCli, *qmgrs: QMgr) -> None:
    """Wait until every transmission queue, SYSTEM.INTER.QMGR.* queue and cluster command queue
    of ``qmgrs`` is empty (B "idle", the oracle of B:SC-78). The queue managers are looked at one
    after the other, so a message can pass from one not yet looked at to one already looked at:
    idle is two quiet looks in a row with no channel's MSGS count moved between them."""
    last: list[dict[str, dict[str, str]]] = []

    def quiet_twice() -> bool:
        looks = [_busy_queues(run_cli, qmgr) for qmgr in qmgrs]
        counted = {qmgr.name: sent for qmgr, (_, sent) in zip(qmgrs, looks, strict=True)}
        if any(busy for busy, _ in looks):
            last.clear()
            return False
        settled = last == [counted]
        last[:] = [counted]
        return settled

    wait_until(quiet_twice, "the network idle", timeout=60, interval=0.2)
