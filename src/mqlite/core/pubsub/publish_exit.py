"""The publish exit (MQ_PUBLISH_EXIT, spec C §8): a Python callable the queue manager calls for
each copy of a publication it delivers, and at the first and last pub/sub call of a connection.

Core takes the callable (``QueueManager.set_publish_exit``); the server loads it from qm.ini's
``PublishSubscribe:`` stanza (``mqlite.server.exits``). The callable is
``exit(exit_parms, pub_context, sub_context) -> None`` and changes the objects it gets (spec C
A-23): ``exit_parms.ExitResponse``, ``exit_parms.Feedback``, ``exit_parms.ExitUserArea``
(a 16-byte ``bytearray`` kept per connection), ``exit_parms.msg_in`` (a ``bytearray``: edit in
place) or ``exit_parms.msg_out`` (replacement bytes), ``exit_parms.MsgDesc`` and
``exit_parms.properties``; ``sub_context.DestinationQName`` / ``DestinationQMgrName`` redirect
the copy (without a new authority check, R-PX-11).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.message import Message, MessageDescriptor, Properties

ExitFunction = Callable[["PublishExitParms", "PublishContext", "SubscriptionContext"], None]


@dataclass(eq=False)
class PublishExitParms:
    """MQPSXP."""

    ExitReason: int
    ExitData: str
    QMgrName: str
    ExitUserArea: bytearray
    Hconn: str = ""
    MsgDesc: MessageDescriptor | None = None
    msg_in: bytearray | None = None
    msg_out: bytes | None = None
    msg_out_length: int | None = None
    properties: Properties | None = None
    StrucId: str = C.MQPSXP_STRUC_ID
    Version: int = C.MQPSXP_VERSION_1
    ExitId: int = C.MQXT_PUBLISH_EXIT
    ExitResponse: int = C.MQXCC_OK
    ExitResponse2: int = 0
    Feedback: int = C.MQFB_NONE


@dataclass(eq=False)
class PublishContext:
    """MQPBC."""

    PubTopicString: str = ""
    StrucId: str = C.MQPBC_STRUC_ID
    Version: int = C.MQPBC_VERSION_1


@dataclass(eq=False)
class SubscriptionContext:
    """MQSBC: everything is input except the two destination names."""

    DestinationQMgrName: str = ""
    DestinationQName: str = ""
    SubType: int = C.MQSUBTYPE_API
    SubOptions: int = 0
    ObjectName: str = ""
    ObjectString: str = ""
    SubTopicString: str = ""
    SubName: str = ""
    SubId: bytes = bytes(24)
    SelectionString: str = ""
    SubLevel: int = 1
    PSProperties: int = C.MQPSPROP_MSGPROP
    StrucId: str = C.MQSBC_STRUC_ID
    Version: int = C.MQSBC_VERSION_1


@dataclass(eq=False)
class CopyVerdict:
    """What the exit decided for one copy."""

    message: Message
    dest_q: str
    dest_qmgr: str
    suppressed: bool = False
    feedback: int = C.MQFB_NONE


@dataclass(eq=False)
class _ConnectionState:
    user_area: bytearray = field(default_factory=lambda: bytearray(C.MQ_EXIT_USER_AREA_LENGTH))
    failed: bool = False


class PublishExit:
    """An exit callable and its per-connection state: MQXR_INIT at a connection's first
    publication, MQXR_TERM at its disconnect."""

    def __init__(self, function: ExitFunction, qmgr_name: str, exit_data: str = "") -> None:
        self.function = function
        self.qmgr_name = qmgr_name.ljust(C.MQ_Q_MGR_NAME_LENGTH)
        self.exit_data = exit_data[:C.MQ_EXIT_DATA_LENGTH].ljust(C.MQ_EXIT_DATA_LENGTH)
        self._connections: dict[str, _ConnectionState] = {}

    def _call(self, parms: PublishExitParms, pub: PublishContext, sub: SubscriptionContext) -> None:
        try:
            self.function(parms, pub, sub)
        except Exception:  # a raising exit is a failing exit
            parms.ExitResponse = C.MQXCC_FAILED

    def _state(self, conn_id: str) -> _ConnectionState:
        state = self._connections.get(conn_id)
        if state is None:
            state = self._connections[conn_id] = _ConnectionState()
            parms = PublishExitParms(C.MQXR_INIT, self.exit_data, self.qmgr_name, state.user_area, conn_id)
            self._call(parms, PublishContext(), SubscriptionContext())
            state.user_area = parms.ExitUserArea
            state.failed = parms.ExitResponse == C.MQXCC_FAILED
        if state.failed:
            raise MQError(C.MQRC_PUBLISH_EXIT_ERROR, "the publish exit failed to initialise for this connection")
        return state

    def end(self, conn_id: str) -> None:
        """MQXR_TERM for a connection the exit was initialised for."""
        state = self._connections.pop(conn_id, None)
        if state is None or state.failed:
            return
        parms = PublishExitParms(C.MQXR_TERM, self.exit_data, self.qmgr_name, state.user_area, conn_id)
        self._call(parms, PublishContext(), SubscriptionContext())

    def publication(self, conn_id: str, message: Message, topic: str, dest_q: str, dest_qmgr: str,
                    sub_fields: dict[str, Any]) -> CopyVerdict:
        """MQXR_PUBLICATION for one copy; MQError 2557 when the exit answers MQXCC_FAILED."""
        state = self._state(conn_id)
        parms = PublishExitParms(C.MQXR_PUBLICATION, self.exit_data, self.qmgr_name, state.user_area, conn_id,
                                 MsgDesc=message.md, msg_in=bytearray(message.body),
                                 properties=message.properties)
        sub_context = SubscriptionContext(DestinationQMgrName=dest_qmgr.ljust(48), DestinationQName=dest_q.ljust(48),
                                          **sub_fields)
        self._call(parms, PublishContext(PubTopicString=topic), sub_context)
        state.user_area = parms.ExitUserArea
        if parms.ExitResponse == C.MQXCC_FAILED:
            raise MQError(C.MQRC_PUBLISH_EXIT_ERROR, "the publish exit failed the publication")
        if parms.msg_out is not None:
            body = bytes(parms.msg_out)
            if parms.msg_out_length is not None:
                body = body[:parms.msg_out_length]
        else:
            body = bytes(parms.msg_in or b"")
        md = parms.MsgDesc or message.md
        copy = Message(md, body, parms.properties if parms.properties is not None else message.properties)
        return CopyVerdict(copy, sub_context.DestinationQName.strip(), sub_context.DestinationQMgrName.strip(),
                           suppressed=parms.ExitResponse == C.MQXCC_SUPPRESS_FUNCTION, feedback=parms.Feedback)
