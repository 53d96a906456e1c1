"""MQTT 5.0 shared subscriptions (``$share/<group>/<filter>``): each publication to one member.

A group is one durable MQI subscription, ``MQTT$share:<group>:<filter>``, whose destination is a
permanent queue of the group's own (``SYSTEM.MQTT.SHARE.<hash>``), so what arrives while no
member is connected waits there, across restarts too. Its SubUserData lists the members and
their subscription options, so membership survives a restart with it.

The broker takes each publication off the group's queue with a waiting MQGET and moves it, in
one unit of work, to the queue of the next connected member (round robin), with that member's
options in ``MQSubUserData``; from there the member's ordinary delivery sends it, and its
acknowledgement, redelivery and DUP rules apply unchanged. A publication is thus on exactly one
queue at any time: a member that goes away keeps what it was given (MQTT 5.0 4.8.2 lets a
server wait for that member), and nothing is delivered twice.
"""

from __future__ import annotations

import copy
import hashlib
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.qmgr import GetResult, QueueManager
from mqlite.core.security.service import administrator
from mqlite.core.waiters import GetRequest, Waiter
from mqlite.server.mqtt.publishing import QOS_PROPERTY
from mqlite.server.runtime import Round, Session

log = logging.getLogger("mqlite.server")

SHARE_PREFIX = "$share/"
SUB_PREFIX = "MQTT$share:"
QUEUE_PREFIX = "SYSTEM.MQTT.SHARE."
_GET = GetRequest(C.MQGMO_WAIT | C.MQGMO_SYNCPOINT | C.MQGMO_FAIL_IF_QUIESCING, None, None, -1, -1)
_MOVE = C.MQPMO_SYNCPOINT | C.MQPMO_FAIL_IF_QUIESCING


def parse_share(topic_filter: str) -> tuple[str, str] | None:
    """``$share/group/filter`` as (group, filter); None when it is not a valid share name
    (MQTT 5.0 4.8.2: a group name has no ``/``, ``+`` or ``#`` and a filter follows)."""
    rest = topic_filter[len(SHARE_PREFIX):]
    group, slash, inner = rest.partition("/")
    if not slash or not group or not inner or any(c in group for c in "+#"):
        return None
    return group, inner


@dataclass
class ShareGroup:
    group: str
    topic_filter: str
    members: dict[str, dict[str, Any]] = field(default_factory=dict)  # client id -> SubUserData
    hobj: int = 0  # the broker's input handle on the group's queue
    waiting: Waiter | None = None
    turn: int = 0  # round robin over the connected members

    @property
    def sub_name(self) -> str:
        return f"{SUB_PREFIX}{self.group}:{self.topic_filter}"

    @property
    def queue(self) -> str:
        digest = hashlib.sha1(f"{self.group}\0{self.topic_filter}".encode()).hexdigest()[:28].upper()
        return QUEUE_PREFIX + digest


class _Waits(Session):
    """Where the runtime completes the broker's waiting MQGETs: no bytes go anywhere."""

    def __init__(self, shares: SharedSubscriptions) -> None:
        super().__init__(self)  # its own sink: nothing is ever written
        self.shares = shares

    def write(self, data: bytes) -> None:  # the Sink of a Session that has no connection
        pass

    def complete(self, round_: Round, req_id: int, result: GetResult | MQError) -> None:
        self.shares.on_get(round_, req_id, result)


class SharedSubscriptions:
    """The shared subscriptions of one queue manager's MQTT sessions."""

    def __init__(self, core: QueueManager, member: Callable[[str], tuple[str, bool] | None]) -> None:
        """``member(client_id)``: the queue of that client's session and whether the session is
        persistent, while it is connected; None when it is not."""
        self.core = core
        self.member = member
        self.groups: dict[str, ShareGroup] = {}  # by subscription name
        self.output = _Waits(self)
        self._conn: Any = None
        self._requests: dict[int, ShareGroup] = {}
        self._req = 0
        self._restore()

    def _restore(self) -> None:
        """The groups of an earlier run, from their durable subscriptions."""
        for name, subs in list(self.core.subs_by_name.items()):
            if not name.startswith(SUB_PREFIX) or not subs:
                continue
            try:
                data = json.loads(subs[0].user_data or "{}")
                share = ShareGroup(str(data["g"]), str(data["f"]), dict(data["m"]))
            except (ValueError, KeyError, TypeError):
                log.warning("MQTT shared subscription %s has unreadable members: removed", name)
                self.core.delete_sub(name)
                continue
            self.groups[name] = share

    @property
    def conn(self) -> Any:
        if self._conn is None:
            self._conn = self.core.connect(administrator("mqtt"), "MQTT shared subscriptions", 0, system=True)
        return self._conn

    # -- membership ------------------------------------------------------------------------------
    def subscribe(self, client_id: str, group: str, topic_filter: str, options: dict[str, Any]) -> None:
        """Join ``client_id`` to the group (made on first need); raises MQError."""
        share = ShareGroup(group, topic_filter)
        share = self.groups.setdefault(share.sub_name, share)
        share.members[client_id] = options
        self._save(share)

    def unsubscribe(self, client_id: str, group: str, topic_filter: str) -> bool:
        share = self.groups.get(ShareGroup(group, topic_filter).sub_name)
        if share is None or share.members.pop(client_id, None) is None:
            return False
        self._save(share)
        return True

    def forget(self, client_id: str) -> None:
        """A session ended: it leaves every group."""
        for share in list(self.groups.values()):
            if share.members.pop(client_id, None) is not None:
                self._save(share)

    def _save(self, share: ShareGroup) -> None:
        """Write the membership into the group's subscription, or end a group with no members."""
        core = self.core
        if not share.members:
            self._close(share)
            del self.groups[share.sub_name]
            if share.sub_name in core.subs_by_name:
                core.delete_sub(share.sub_name)
            if share.queue in core.queues:
                try:
                    core.delete("QLOCAL", share.queue, purge=True)
                except MQError as error:
                    log.info("MQTT shared queue %s kept: %s", share.queue, error)
            return
        if share.queue not in core.queues:
            core.define("QLOCAL", share.queue, {"MSGDLVSQ": "FIFO", "MAXDEPTH": 100_000,
                                                "DESCR": f"MQTT $share/{share.group}/{share.topic_filter}"[:64]})
        self._open(share)
        exists = share.sub_name in core.subs_by_name
        data = json.dumps({"g": share.group, "f": share.topic_filter, "m": share.members}, separators=(",", ":"))
        options = C.MQSO_DURABLE | C.MQSO_WILDCARD_TOPIC | C.MQSO_FAIL_IF_QUIESCING | C.MQSO_NEW_PUBLICATIONS_ONLY
        options |= (C.MQSO_ALTER | C.MQSO_RESUME) if exists else C.MQSO_CREATE
        sd = {"Options": options, "ObjectString": share.topic_filter, "SubName": share.sub_name, "SubUserData": data}
        hsub, _, _ = core.subscribe(self.conn, sd, share.hobj)
        core.close(self.conn, hsub.hobj, C.MQCO_KEEP_SUB)

    def _open(self, share: ShareGroup) -> None:
        if not share.hobj:
            handle = self.core.open(self.conn, {"ObjectType": C.MQOT_Q, "ObjectName": share.queue},
                                    C.MQOO_INPUT_SHARED | C.MQOO_OUTPUT | C.MQOO_FAIL_IF_QUIESCING)
            share.hobj = handle.hobj

    def _close(self, share: ShareGroup) -> None:
        if share.waiting is not None:
            self.core.cancel_wait(share.waiting)
            share.waiting = None
        if share.hobj:
            self.core.close(self.conn, share.hobj, 0)
            share.hobj = 0

    # -- moving publications to members ----------------------------------------------------------
    def pump(self, round_: Round, client_id: str | None = None) -> None:
        """Move what waits to connected members (of the groups ``client_id`` is in, if given)."""
        for share in list(self.groups.values()):
            if client_id is None or client_id in share.members:
                self._pump(round_, share)

    def _pump(self, round_: Round, share: ShareGroup) -> None:
        while share.waiting is None and self._connected(share):
            self._open(share)
            self._req += 1
            try:
                result = self.core.get(self.conn, share.hobj, _GET, (self.output, self._req))
            except MQError as error:
                if error.reason != C.MQRC_NO_MSG_AVAILABLE:
                    log.info("MQTT shared subscription %s stopped: %s", share.sub_name, error)
                return
            if isinstance(result, Waiter):
                share.waiting = result
                self.output.waiters[self._req] = result
                self._requests[self._req] = share
                return
            if not self._move(share, result):
                return

    def on_get(self, round_: Round, req_id: int, result: GetResult | MQError) -> None:
        share = self._requests.pop(req_id, None)
        if share is None:
            return
        share.waiting = None
        if isinstance(result, GetResult) and self._move(share, result):
            self._pump(round_, share)

    def _connected(self, share: ShareGroup) -> list[tuple[str, str, bool]]:
        """(client id, queue, persistent) of the members that are connected now, in a stable order."""
        found = []
        for client_id in share.members:
            member = self.member(client_id)
            if member is not None:
                found.append((client_id, *member))
        return found

    def _move(self, share: ShareGroup, result: GetResult) -> bool:
        """Put the publication on the next member's queue and commit; False (backed out) when
        no member can take it now."""
        core, conn = self.core, self.conn
        members = self._connected(share)
        for attempt in range(len(members)):
            client_id, queue, persistent = members[(share.turn + attempt) % len(members)]
            message = result.message
            properties = dict(message.properties)
            properties["MQSubUserData"] = json.dumps(share.members[client_id], separators=(",", ":"))
            md = message.md
            if message.persistent and not persistent:
                # A clean session's queue is temporary and takes no persistent message: the copy
                # goes non-persistent (it ends with the session anyway), its QoS kept as a property.
                properties.setdefault(QOS_PROPERTY, 2)
                md = copy.copy(md)
                md.Persistence = 0
            try:
                handle = core.open(conn, {"ObjectType": C.MQOT_Q, "ObjectName": queue},
                                   C.MQOO_OUTPUT | C.MQOO_FAIL_IF_QUIESCING)
                try:
                    core.put(conn, handle.hobj, md, _MOVE, properties, result.body)
                finally:
                    core.close(conn, handle.hobj, 0)
            except MQError as error:
                log.info("MQTT shared publication not given to %s: %s", client_id, error)
                continue
            core.commit(conn)
            share.turn = (share.turn + attempt + 1) % max(len(members), 1)
            return True
        core.backout(conn)
        return False
