"""Queue managers joined by EMS-style routes (B §23, fixture F-EMS): channels both ways as for a
hierarchy, a GLOBAL topic, ROUTE objects on the sides that configure them."""

from __future__ import annotations

from typing import Any

import mqlite.client as mqlite
from helpers.hierarchy import link, shown
from helpers.mqsc import RunCli, mqsc, records
from helpers.qmgrs import QMgr
from helpers.waiting import wait_until


def define_route(run_cli: RunCli, here: QMgr, peer: QMgr, extra: str = "") -> None:
    mqsc(run_cli, here, f"DEFINE ROUTE({peer.name}) {extra}\n")


def join(run_cli: RunCli, a: QMgr, b: QMgr, configured_on: tuple[QMgr, ...] | None = None, extra: str = "") -> None:
    """Channels between ``a`` and ``b`` and a route between them, configured on both (active-active,
    the default) or on the ones named (A-56); wait until it is up on both sides."""
    link(run_cli, a, b)
    for here in configured_on if configured_on is not None else (a, b):
        define_route(run_cli, here, b if here is a else a, extra)
    wait_until(lambda: status(a).get(b.name, {}).get("STATUS") == "ACTIVE"
               and status(b).get(a.name, {}).get("STATUS") == "ACTIVE", f"route {a.name}-{b.name} up", timeout=60)


def global_topic(run_cli: RunCli, qmgr: QMgr, name: str, topic: str, extra: str = "") -> None:
    mqsc(run_cli, qmgr, f"DEFINE TOPIC({name}) TOPICSTR('{topic}') GLOBAL(YES) {extra}\n")


def status(qmgr: QMgr) -> dict[str, dict[str, str]]:
    """DISPLAY RTSTATUS(*): {route: {attribute: value}}."""
    out = shown(qmgr, "DISPLAY RTSTATUS(*) ALL\n")
    return {fields["ROUTE"]: fields for fields in records(out, "AMQ8954I")}


def internal(qmgr: QMgr) -> set[tuple[str, str]]:
    """The internal subscriptions ``qmgr`` holds: {(peer, topic)} (DISPLAY SUB SUBTYPE(PROXY),
    the ones named SYSTEM.ROUTE.*)."""
    out = shown(qmgr, "DISPLAY SUB('SYSTEM.ROUTE.*') SUBTYPE(PROXY) DESTQMGR TOPICSTR\n")
    return {(fields["DESTQMGR"], fields["TOPICSTR"]) for fields in records(out, "AMQ8096I")}


def restart(run_cli: RunCli, qmgr: QMgr, *peers: QMgr, kill: bool = False) -> None:
    """Start ``qmgr`` again (it listens on a new port) and point each peer's sender channel at it."""
    started = run_cli("strmqm", qmgr.name)
    assert started.returncode == 0, started.stdout + started.stderr
    for peer in peers:
        channel = f"{peer.name}.TO.{qmgr.name}"
        mqsc(run_cli, peer, f"STOP CHANNEL({channel})\n", ok=False)
        mqsc(run_cli, peer, f"ALTER CHANNEL({channel}) CHLTYPE(SDR) CONNAME('127.0.0.1({qmgr.port})')\n"
                            f"START CHANNEL({channel})\n")


def stop(run_cli: RunCli, qmgr: QMgr) -> None:
    ended = run_cli("endmqm", "-i", qmgr.name)
    assert ended.returncode == 0, ended.stdout + ended.stderr


def publish_all(qmgr: QMgr, *bodies: bytes, topic: str = "T1", **keywords: Any) -> None:
    """Persistent publications on ``topic``, one connection for all (``Topic.pub`` keywords)."""
    with mqlite.connect(qmgr.name) as conn:
        handle = mqlite.Topic(conn, topic_string=topic)
        for body in bodies:
            handle.pub(body, persistent=True, **keywords)
