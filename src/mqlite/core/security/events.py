"""Authority events (spec C R-SEC-13, A-36; IBM's "Not Authorized (type 1..6)" events): a refused
call becomes a PCF event message (MQCFH Type MQCFT_EVENT, Command MQCMD_Q_MGR_EVENT, Reason 2035)
put on SYSTEM.ADMIN.QMGR.EVENT when the queue manager says AUTHOREV(ENABLED).

``refusal`` builds the parameters of each type as IBM documents them, in IBM's order; ``AuthorityEvents``
puts the message. Putting it is best effort, as IBM's is: a missing, full or put-inhibited event
queue loses the event, never the caller's reason code.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from mqlite import cmqc as C
from mqlite.core.queues import AVAILABLE, LocalQueue
from mqlite.message import Message, MessageDescriptor, put_date_time
from mqlite.protocol import pcf

EVENT_QUEUE = "SYSTEM.ADMIN.QMGR.EVENT"
CHANNEL_EVENT_QUEUE = "SYSTEM.ADMIN.CHANNEL.EVENT"
_ENCODING_LITTLE = True  # MQENC_NATIVE on Linux x86: reversed (little-endian) integers


class Caller(NamedTuple):
    """Who made the refused call, as the event reports it."""

    user: str
    appl_name: str
    appl_type: int = C.MQAT_UNIX
    conn_name: str = ""  # a client's address; blank for local connections


def refusal(
    qmgr_name: str, qualifier: int, caller: Caller, *, open_options: int | None = None,
    sub_options: int | None = None, object_qmgr: str = "", object_type: int = C.MQOT_Q, object_name: str = "",
    topic_string: str | None = None, admin_topics: Sequence[str] = (), sub_name: str = "",
    destination: str = "", command: int | None = None,
) -> list[tuple[int, pcf.Value]]:
    """The event data of one refusal, the fields IBM lists for its reason qualifier:
    type 1 connect, 2 open (MQOPEN/MQPUT1), 3 close (MQCLOSE REMOVE_SUB, a permanent dynamic
    queue's delete), 4 command, 5 subscribe, 6 subscription destination."""
    params: list[tuple[int, pcf.Value]] = [(C.MQCA_Q_MGR_NAME, qmgr_name), (C.MQIACF_REASON_QUALIFIER, qualifier)]
    if command is not None:
        params.append((C.MQIACF_COMMAND, command))
    if qualifier == C.MQRQ_CMD_NOT_AUTHORIZED:  # type 4 names the command and its user, nothing more
        return [*params, (C.MQCACF_USER_IDENTIFIER, caller.user)]
    if open_options is not None:
        params.append((C.MQIACF_OPEN_OPTIONS, open_options))
    if sub_options is not None:
        params.append((C.MQIACF_SUB_OPTIONS, sub_options))
    params += [(C.MQCACF_USER_IDENTIFIER, caller.user), (C.MQIA_APPL_TYPE, caller.appl_type),
               (C.MQCACF_APPL_NAME, caller.appl_name)]
    if qualifier == C.MQRQ_OPEN_NOT_AUTHORIZED:
        params.append((C.MQCACF_OBJECT_Q_MGR_NAME, object_qmgr))
    if object_name:
        params.append((_OBJECT_NAME_PARAMETER.get(object_type, C.MQCA_Q_NAME), object_name))
    if sub_name:
        params.append((C.MQCACF_SUB_NAME, sub_name))
    if destination:
        params += [(C.MQCACF_DESTINATION, destination), (C.MQCACF_DESTINATION_Q_MGR, qmgr_name)]
    if topic_string is not None:
        params.append((C.MQCA_TOPIC_STRING, topic_string))
    if admin_topics:
        params.append((C.MQCACF_ADMIN_TOPIC_NAMES, list(admin_topics)))
    if caller.conn_name:
        params.append((C.MQCACH_CONNECTION_NAME, caller.conn_name))
    return params


_OBJECT_NAME_PARAMETER = {
    C.MQOT_Q: C.MQCA_Q_NAME, C.MQOT_TOPIC: C.MQCA_TOPIC_NAME, C.MQOT_PROCESS: C.MQCA_PROCESS_NAME,
    C.MQOT_NAMELIST: C.MQCA_NAMELIST_NAME, C.MQOT_Q_MGR: C.MQCA_Q_MGR_NAME,
}


def channel_blocked(qmgr_name: str, qualifier: int, channel: str, address: str, user: str = "",
                    ssl_peer: str = "", client_user: str = "") -> list[tuple[int, pcf.Value]]:
    """IBM's "Channel Blocked" event data: the channel unless an address block stopped it before
    its name was known, the user only when a user was blocked, the partner's address always."""
    params: list[tuple[int, pcf.Value]] = [(C.MQCA_Q_MGR_NAME, qmgr_name), (C.MQIACF_REASON_QUALIFIER, qualifier)]
    if qualifier != C.MQRQ_CHANNEL_BLOCKED_ADDRESS:
        params.append((C.MQCACH_CHANNEL_NAME, channel))
    if qualifier == C.MQRQ_CHANNEL_BLOCKED_USERID:
        params.append((C.MQCACF_USER_IDENTIFIER, user))
    params.append((C.MQCACH_CONNECTION_NAME, address))
    if ssl_peer:
        params.append((C.MQCACH_SSL_PEER_NAME, ssl_peer))
    if client_user:
        params.append((C.MQCACH_CLIENT_USER_ID, client_user))
    return params


def event_message(qmgr_name: str, params: list[tuple[int, pcf.Value]], now: float,
                  reason: int = C.MQRC_NOT_AUTHORIZED, command: int = C.MQCMD_Q_MGR_EVENT, *, seq: int = 1,
                  control: int = C.MQCFC_LAST) -> Message:
    """The event as a message: MQFMT_EVENT, put by the queue manager (MQAT_QMGR); ``seq`` and
    ``control`` number the messages of one event of several (a change's before and after)."""
    body = pcf.encode(pcf.event(command, reason, params, seq, control), little=_ENCODING_LITTLE)
    date, time = put_date_time(now)
    md = MessageDescriptor(Format=C.MQFMT_EVENT, Persistence=C.MQPER_NOT_PERSISTENT, Priority=0,
                           PutApplType=C.MQAT_QMGR, PutApplName=qmgr_name[:28], PutDate=date, PutTime=time)
    return Message(md, body)


class AuthorityEvents:
    """Puts authority events on SYSTEM.ADMIN.QMGR.EVENT while AUTHOREV is ENABLED, and Channel
    Blocked events on SYSTEM.ADMIN.CHANNEL.EVENT while CHLEV is ENABLED or EXCEPTION."""

    def __init__(self, qmgr_name: str, attrs: dict[str, Any], queues: dict[str, LocalQueue],
                 next_id: Callable[[], bytes], clock: Callable[[], float]) -> None:
        self.qmgr_name = qmgr_name
        self.attrs = attrs
        self.queues = queues
        self.next_id = next_id
        self.clock = clock
        self.deliver: Callable[[LocalQueue], None] = lambda queue: None  # set once MQGET's service exists

    @property
    def enabled(self) -> bool:
        return str(self.attrs.get("AUTHOREV", "DISABLED")) == "ENABLED"

    def emit(self, params: list[tuple[int, pcf.Value]]) -> bool:
        """Put one authority event; False when they are off or the queue cannot take it."""
        return self.enabled and self._put(EVENT_QUEUE, event_message(self.qmgr_name, params, self.clock()))

    def emit_channel(self, params: list[tuple[int, pcf.Value]], reason: int) -> bool:
        """Put one Channel Blocked event (MQRC_CHANNEL_BLOCKED or its _WARNING)."""
        if str(self.attrs.get("CHLEV", "DISABLED")) not in ("ENABLED", "EXCEPTION"):
            return False
        message = event_message(self.qmgr_name, params, self.clock(), reason, C.MQCMD_CHANNEL_EVENT)
        return self._put(CHANNEL_EVENT_QUEUE, message)

    def put(self, queue_name: str, message: Message) -> bool:
        """Put one event message on ``queue_name`` (best effort: False when it cannot take it)."""
        return self._put(queue_name, message)

    def _put(self, queue_name: str, message: Message) -> bool:
        queue = self.queues.get(queue_name)
        if queue is None or queue.deleted:
            return False
        attrs = queue.attrs
        if (attrs.get("PUT") == "DISABLED" or queue.depth >= queue.max_depth
                or len(message.body) > queue.max_msgl):
            return False
        message.md.MsgId = self.next_id()
        queue.add(message, 0.0, AVAILABLE)
        if queue.waiters or queue.read_ahead:
            self.deliver(queue)
        return True
