"""Delayed wills (MQTT 5.0 Will Delay Interval) kept durably, so a queue manager restart neither
loses one nor sends it early.

A will waiting for its delay is a persistent message on ``SYSTEM.MQTT.WILLS``: the will's
payload as its body, and in property ``mqtt.Will`` (JSON) whose it is, when it is due (wall-clock
seconds), its topic, QoS, RETAIN, 5.0 properties and the user id it is published under. The
queue manager's own MQI calls keep it; at start the broker reads them back. A client that
connects again cancels its will (the message is got by its MsgId); a will that is due is
taken off the queue and published.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.qmgr import GetResult, QueueManager
from mqlite.core.security.service import administrator
from mqlite.core.waiters import GetRequest
from mqlite.message import MessageDescriptor
from mqlite.protocol.mqtt import Will

log = logging.getLogger("mqlite.server")

WILLS_QUEUE = "SYSTEM.MQTT.WILLS"
WILL_PROPERTY = "mqtt.Will"
_BROWSE = C.MQGMO_NO_WAIT | C.MQGMO_FAIL_IF_QUIESCING
_GET = C.MQGMO_NO_WAIT | C.MQGMO_NO_SYNCPOINT | C.MQGMO_FAIL_IF_QUIESCING


def encode_will(client_id: str, due: float, will: Will, user: str) -> str:
    """The ``mqtt.Will`` property of a will (bytes properties, such as Correlation Data, as hex)."""
    props = {key: ({"hex": value.hex()} if isinstance(value, bytes) else value)
             for key, value in will.properties.items()}
    return json.dumps({"c": client_id, "d": due, "t": will.topic, "q": will.qos, "r": will.retain,
                       "u": user, "p": props}, separators=(",", ":"))


def decode_will(text: str, payload: bytes) -> tuple[str, float, Will, str]:
    """(client id, due, will, user) from ``encode_will``'s text; ValueError when it is not one."""
    try:
        data = json.loads(text)
        props: dict[str, Any] = {}
        for key, value in dict(data["p"]).items():
            if isinstance(value, dict):
                value = bytes.fromhex(value["hex"])
            elif key == "user_property":
                value = [(str(k), str(v)) for k, v in value]
            props[str(key)] = value
        will = Will(str(data["t"]), payload, int(data["q"]), bool(data["r"]), props)
        return str(data["c"]), float(data["d"]), will, str(data["u"])
    except (KeyError, TypeError, ValueError) as error:
        raise ValueError(f"not a delayed will: {error}") from None


class DelayedWills:
    """The delayed wills of one queue manager's MQTT sessions, by client id."""

    def __init__(self, core: QueueManager) -> None:
        self.core = core
        self.pending: dict[str, tuple[float, Will, str, bytes]] = {}  # client id -> due, will, user, MsgId
        self._conn: Any = None
        self._hobj = 0
        self._restore()

    def _open(self) -> tuple[Any, int]:
        core = self.core
        if self._conn is None:
            self._conn = core.connect(administrator("mqtt"), "MQTT delayed wills", 0, system=True)
        if not self._hobj:
            if WILLS_QUEUE not in core.queues:
                core.define("QLOCAL", WILLS_QUEUE, {"DESCR": "MQTT delayed wills", "MAXDEPTH": 100_000})
            options = C.MQOO_INPUT_SHARED | C.MQOO_BROWSE | C.MQOO_OUTPUT | C.MQOO_FAIL_IF_QUIESCING
            self._hobj = core.open(self._conn, {"ObjectType": C.MQOT_Q, "ObjectName": WILLS_QUEUE}, options).hobj
        return self._conn, self._hobj

    def _restore(self) -> None:
        """The wills an earlier run left waiting."""
        if WILLS_QUEUE not in self.core.queues:
            return
        conn, hobj = self._open()
        options = C.MQGMO_BROWSE_FIRST
        while True:
            try:
                result = self.core.get(conn, hobj, GetRequest(options | _BROWSE, None, None, -1, 0))
            except MQError:
                return
            options = C.MQGMO_BROWSE_NEXT
            assert isinstance(result, GetResult)
            message = result.message
            try:
                client_id, due, will, user = decode_will(str(message.properties.get(WILL_PROPERTY, "")), message.body)
            except ValueError as error:
                log.warning("MQTT: a message on %s is not a will (%s): removed", WILLS_QUEUE, error)
                self._remove(message.md.MsgId)
                continue
            self.pending[client_id] = (due, will, user, message.md.MsgId)

    def add(self, client_id: str, due: float, will: Will, user: str) -> None:
        """Keep ``will`` until ``due`` (or until its client comes back)."""
        self.cancel(client_id)
        conn, hobj = self._open()
        md = MessageDescriptor()
        md.Persistence = C.MQPER_PERSISTENT
        properties: dict[str, Any] = {WILL_PROPERTY: encode_will(client_id, due, will, user)}
        try:
            put = self.core.put(conn, hobj, md, C.MQPMO_NO_SYNCPOINT | C.MQPMO_NEW_MSG_ID, properties, will.payload)
        except MQError as error:  # kept in memory only: a restart would lose it
            log.warning("MQTT: the delayed will of %s is not kept durably: %s", client_id, error)
            self.pending[client_id] = (due, will, user, b"")
            return
        self.pending[client_id] = (due, will, user, put.MsgId)

    def cancel(self, client_id: str) -> None:
        """Its client came back: the will is not sent."""
        found = self.pending.pop(client_id, None)
        if found is not None:
            self._remove(found[3])

    def due(self, now: float) -> list[tuple[Will, str]]:
        """The wills due by ``now`` with their user ids, no longer kept."""
        ready = [client_id for client_id, (due, *_) in self.pending.items() if due <= now]
        out = []
        for client_id in ready:
            _, will, user, msg_id = self.pending.pop(client_id)
            self._remove(msg_id)
            out.append((will, user))
        return out

    def _remove(self, msg_id: bytes) -> None:
        if not msg_id:
            return
        conn, hobj = self._open()
        try:
            self.core.get(conn, hobj, GetRequest(_GET, msg_id, None, -1, 0))
        except MQError as error:
            if error.reason != C.MQRC_NO_MSG_AVAILABLE:
                log.info("MQTT: a delayed will could not be removed from %s: %s", WILLS_QUEUE, error)

    def __contains__(self, client_id: str) -> bool:
        return client_id in self.pending
