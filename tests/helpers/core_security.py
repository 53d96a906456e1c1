"""Shared by the core security tests (tests/unit): principals, grants and the authority events on
SYSTEM.ADMIN.QMGR.EVENT, over a bootstrapped core queue manager (no sockets)."""

from __future__ import annotations

from typing import Any

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.qmgr import Connection, GetResult, QueueManager
from mqlite.core.security.principal import Principal
from mqlite.core.security.records import GROUP, PRINCIPAL
from mqlite.core.security.service import administrator
from mqlite.core.waiters import GetRequest
from mqlite.protocol import pcf

AUTHORITIES = {
    "connect": C.MQZAO_CONNECT, "browse": C.MQZAO_BROWSE, "get": C.MQZAO_INPUT, "put": C.MQZAO_OUTPUT,
    "inq": C.MQZAO_INQUIRE, "set": C.MQZAO_SET, "passid": C.MQZAO_PASS_IDENTITY_CONTEXT,
    "passall": C.MQZAO_PASS_ALL_CONTEXT, "setid": C.MQZAO_SET_IDENTITY_CONTEXT, "setall": C.MQZAO_SET_ALL_CONTEXT,
    "altusr": C.MQZAO_ALTERNATE_USER_AUTHORITY, "pub": C.MQZAO_PUBLISH, "sub": C.MQZAO_SUBSCRIBE,
    "resume": C.MQZAO_RESUME, "chg": C.MQZAO_CHANGE, "dsp": C.MQZAO_DISPLAY,
}
_OBJECT_TYPES = {"queue": C.MQOT_Q, "topic": C.MQOT_TOPIC, "qmgr": C.MQOT_Q_MGR}
EVENT_QUEUE = "SYSTEM.ADMIN.QMGR.EVENT"


class Security:
    """setmqaut-style grants and revokes, connections as ordinary users, and the events."""

    def __init__(self, qm: QueueManager, events: bool = True) -> None:
        self.qm = qm
        self.admin = qm.connect(administrator("mqadmin"), "admin.py")
        if events:
            qm.alter("QMGR", "", {"AUTHOREV": "ENABLED"})

    def setmqaut(self, kind: str, name: str, who: str, *changes: str, group: bool = False) -> None:
        """``setmqaut -t kind -n name -p who +sub -pub`` (``group``: -g)."""
        add = sum(AUTHORITIES[c[1:]] for c in changes if c[0] == "+")
        remove = sum(AUTHORITIES[c[1:]] for c in changes if c[0] == "-")
        self.qm.security.set_authority(_OBJECT_TYPES[kind], self.qm.name if kind == "qmgr" else name, who,
                                       GROUP if group else PRINCIPAL, add=add, remove=remove)

    def connect(self, user: str, *groups: str) -> Connection:
        """A connection as ``user`` (and its groups), granted connect on the queue manager."""
        for entity, is_group in [(user, False), *((g, True) for g in groups)]:
            self.setmqaut("qmgr", "", entity, "+connect", group=is_group)
        return self.qm.connect(Principal(user, frozenset(groups)), f"{user}.py")

    def events(self) -> list[dict[str, Any]]:
        """The authority events on SYSTEM.ADMIN.QMGR.EVENT, taken off the queue, as
        {field id: value} with the MQCFH's Reason under 'Reason'."""
        handle = self.qm.open(self.admin, {"ObjectName": EVENT_QUEUE}, C.MQOO_INPUT_SHARED)
        out: list[dict[str, Any]] = []
        try:
            while True:
                try:
                    result = self.qm.get(self.admin, handle.hobj, GetRequest(C.MQGMO_NO_SYNCPOINT, None, None, -1, 0),
                                         None)
                except MQError as error:
                    assert error.reason == C.MQRC_NO_MSG_AVAILABLE
                    return out
                assert isinstance(result, GetResult) and result.message.md.Format == C.MQFMT_EVENT
                message = pcf.decode(result.body)
                assert message.header.Type == C.MQCFT_EVENT and message.header.Command == C.MQCMD_Q_MGR_EVENT
                out.append({"Reason": message.header.Reason, **dict(message.parameters)})
        finally:
            self.qm.close(self.admin, handle.hobj, 0)

    def one_event(self) -> dict[str, Any]:
        [event] = self.events()
        assert event["Reason"] == C.MQRC_NOT_AUTHORIZED
        return event


def admin_topics(event: dict[str, Any]) -> list[str]:
    return list(event.get(C.MQCACF_ADMIN_TOPIC_NAMES, []))


# C:TV-SEC-T2, the effective matrix after SC-SEC-FRUIT: topic, USER1 sub, USER2 sub, USER1 pub, USER2 pub.
TV_SEC_T2 = [
    ("Price", False, False, False, False),
    ("Price/Fruit", True, False, True, False),
    ("Price/Fruit/Apples", True, True, True, False),
    ("Price/Fruit/Oranges", True, False, True, False),
    ("Price/Vegetables", False, False, True, False),
    ("Price/Vegetables/Potatoes", False, False, True, False),
    ("Price/Vegetables/Onions", False, False, True, False),
]


def reason_of(call: Any) -> int:
    """The reason ``call()`` failed with, 0 if it did not."""
    try:
        call()
    except MQError as error:
        return error.reason
    return 0
