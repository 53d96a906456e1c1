"""The objects the MQI hands out and gets back: connections, handles, results, effects."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.queues import Entry, LocalQueue
from mqlite.core.security.principal import Principal
from mqlite.core.uow import UnitOfWork
from mqlite.core.waiters import Waiter
from mqlite.message import Message
from mqlite.store.tx import StoreTx

if TYPE_CHECKING:
    from mqlite.core.topics.tree import TopicNode

INPUT_OPTIONS: Final = C.MQOO_INPUT_AS_Q_DEF | C.MQOO_INPUT_SHARED | C.MQOO_INPUT_EXCLUSIVE
BROWSE_GETS: Final = C.MQGMO_BROWSE_FIRST | C.MQGMO_BROWSE_NEXT | C.MQGMO_BROWSE_MSG_UNDER_CURSOR
_UNSET = Principal("")  # Connection built without a principal: it runs as ``user`` with no groups


@dataclass(slots=True, init=False)
class GetResult:
    """A delivered message: ``body`` may be truncated to the caller's buffer. (Not a NamedTuple
    and ``__init__`` written out: compiled, both of those would run as interpreted Python.)"""

    message: Message
    body: bytes
    data_length: int
    reason: int  # 0, or MQRC_TRUNCATED_MSG_ACCEPTED

    def __init__(self, message: Message, body: bytes, data_length: int, reason: int) -> None:
        self.message = message
        self.body = body
        self.data_length = data_length
        self.reason = reason


class TruncatedError(MQError):
    """MQRC_TRUNCATED_MSG_FAILED: the message stays, the caller learns its length."""

    def __init__(self, message: Message, data_length: int) -> None:
        super().__init__(C.MQRC_TRUNCATED_MSG_FAILED, "buffer too small")
        self.message = message
        self.data_length = data_length


@dataclass(eq=False, slots=True)
class Handle:
    """An open object (MQOPEN's Hobj)."""

    hobj: int
    name: str  # the queue it resolved to
    opened_as: str  # the name the application gave (an alias, a model, ...)
    options: int
    queue: LocalQueue | None  # None for the queue manager object
    alias_attrs: dict[str, Any] | None = None
    exclusive: bool = False
    created_dynamic: bool = False
    browse_pos: tuple[int, int] | None = None  # (level, seq) of the last browsed message
    browse_entry: Entry | None = None
    read_ahead: bool = False
    credit: int = 0
    pushed_since_get: int = 0  # read-ahead messages sent since the consumer's last MQGET
    xmitq_for: tuple[str, str] | None = None  # (remote queue, remote qmgr) when sending via xmitq
    xmit_correl: bytes | None = None  # a cluster transmission message's CorrelId: its cluster-sender
    xmit_not_fixed: bool = False  # a cluster put the workload algorithm may choose again (not bound)
    cluster: Any = None  # a cluster queue's binding (core.network.clusters.routing.ClusterBinding)
    conn: Connection | None = None
    topic: TopicNode | None = None  # an open topic (publishing)
    topic_string: str = ""
    managed: bool = False  # the managed queue handle MQSUB returned (its subscription: by queue name)


def handle_of(conn: Connection, hobj: int) -> Handle:
    """The connection's open handle ``hobj`` (MQRC_HOBJ_ERROR if there is none)."""
    handle = conn.handles.get(hobj)
    if handle is None:
        raise MQError(C.MQRC_HOBJ_ERROR, f"object handle {hobj} is not open")
    return handle


def open_for_input(queue: LocalQueue, handle: Handle, options: int) -> None:
    """MQOO_INPUT_*: shared or exclusive as the options and the queue say; read-ahead as DEFREADA says."""
    attrs = queue.attrs
    shareable = bool(attrs.get("SHARE", True))
    if options & C.MQOO_INPUT_EXCLUSIVE:
        exclusive = True
    elif options & C.MQOO_INPUT_SHARED:
        exclusive = not shareable
    else:
        exclusive = attrs.get("DEFSOPT", "SHARED") == "EXCL" or not shareable
    if queue.exclusive_holder is not None or (exclusive and queue.open_input):
        raise MQError(C.MQRC_OBJECT_IN_USE, f"queue {queue.name} is open for exclusive input")
    handle.exclusive = exclusive
    if exclusive:
        queue.exclusive_holder = handle
    queue.open_input += 1
    readahead = str((handle.alias_attrs or attrs).get("DEFREADA", "NO"))
    if readahead != "DISABLED" and not options & C.MQOO_NO_READ_AHEAD:
        handle.read_ahead = bool(options & C.MQOO_READ_AHEAD) or readahead == "YES"


@dataclass(eq=False)
class Connection:
    """An application's connection (MQCONN's Hconn)."""

    conn_id: str
    user: str
    appl_name: str
    pid: int = 0
    handles: dict[int, Handle] = field(default_factory=dict)
    # Hsub -> its subscription (``pubsub.subscription.Subscription``; pubsub sits above this module
    # and reads it back typed, see ``pubsub.subscribe.held``).
    subscriptions: dict[int, object] = field(default_factory=dict)
    uow: UnitOfWork = field(default_factory=UnitOfWork)
    next_hobj: int = 1
    connected: bool = True
    warning: int = 0  # reason of the last call's MQCC_WARNING (e.g. 2049 on MQPUT), 0 if none
    principal: Principal = _UNSET  # who the connection runs as: authority checks use it
    channel: str = ""  # the client channel (or message channel) it came through: DISPLAY CONN
    conname: str = ""  # its partner's address over TCP
    system: bool = False  # the queue manager's own (its channel agents and services): APPLTYPE(SYSTEM)

    def __post_init__(self) -> None:
        if self.principal is _UNSET:
            self.principal = Principal(self.user)


@dataclass(init=False)
class Effects:
    """What the server must do after a call (see docs/ARCHITECTURE.md). (``__init__`` written out:
    compiled, a dataclass's generated one runs as interpreted Python.)"""

    tx: StoreTx | None = None
    completions: list[tuple[Waiter, GetResult | MQError]] = field(default_factory=list)
    pushes: list[tuple[Connection, int, Message]] = field(default_factory=list)

    def __init__(self, tx: StoreTx | None = None, completions: list[tuple[Waiter, GetResult | MQError]] | None = None,
                 pushes: list[tuple[Connection, int, Message]] | None = None) -> None:
        self.tx = tx
        self.completions = [] if completions is None else completions
        self.pushes = [] if pushes is None else pushes

    def __bool__(self) -> bool:
        return bool(self.tx or self.completions or self.pushes)
