"""Queue manager events on SYSTEM.ADMIN.QMGR.EVENT beyond authority events (IBM's "Queue
manager events"), each type behind its ALTER QMGR switch, and command events:

- start and stop (STRSTPEV): Queue Manager Active (2222) at start, Queue Manager Not Active
  (2223) with ReasonQualifier MQRQ_Q_MGR_STOPPING (a normal end) or MQRQ_Q_MGR_QUIESCING;
- inhibit (INHIBTEV): Get Inhibited (2016), Put Inhibited (2051);
- local (LOCALEV): Unknown Object Name (2085), Unknown Alias Base Queue (2082), Alias Base
  Queue Type Error (2001);
- remote (REMOTEEV): Unknown Remote Queue Manager (2087), Unknown Transmission Queue (2196),
  Unknown Default Transmission Queue (2197), Transmission Queue Usage Error (2092), Default
  Transmission Queue Usage Error (2199), Transmission Queue Type Error (2091), Default
  Transmission Queue Type Error (2198), Remote Queue Name Error (2184).

- command (CMDEV ENABLED, or NODISPLAY: not DISPLAY or INQUIRE), on SYSTEM.ADMIN.COMMAND.EVENT
  after a command ran successfully: Command (MQRC_COMMAND_MQSC 2412, MQRC_COMMAND_PCF 2413), its
  data two groups, CommandContext (who, how, the MQCMD_*) and CommandData (the MQSC text, or
  the PCF command's parameters).

The parameters and their order are IBM's event reference's; ConnName and ChannelName come
last for a client's call. The reason is the one MQOPEN returned (core.mqi raises IBM's own,
the default transmission queue's 2197/2198/2199 among them).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from mqlite import cmqc as C
from mqlite.core.security.events import EVENT_QUEUE, event_message
from mqlite.message import Message
from mqlite.protocol import pcf

Params = list[tuple[int, pcf.Value]]

INHIBIT_REASONS = frozenset({C.MQRC_GET_INHIBITED, C.MQRC_PUT_INHIBITED})
LOCAL_REASONS = frozenset({C.MQRC_UNKNOWN_OBJECT_NAME, C.MQRC_UNKNOWN_ALIAS_BASE_Q, C.MQRC_ALIAS_BASE_Q_TYPE_ERROR})
REMOTE_REASONS = frozenset({
    C.MQRC_UNKNOWN_REMOTE_Q_MGR, C.MQRC_UNKNOWN_XMIT_Q, C.MQRC_UNKNOWN_DEF_XMIT_Q, C.MQRC_XMIT_Q_USAGE_ERROR,
    C.MQRC_DEF_XMIT_Q_USAGE_ERROR, C.MQRC_XMIT_Q_TYPE_ERROR, C.MQRC_DEF_XMIT_Q_TYPE_ERROR,
    C.MQRC_REMOTE_Q_NAME_ERROR})
_QTYPES = {"QLOCAL": C.MQQT_LOCAL, "QMODEL": C.MQQT_MODEL, "QALIAS": C.MQQT_ALIAS, "QREMOTE": C.MQQT_REMOTE}
# The remote events whose data carry the type of the queue that was no transmission queue.
_TYPED = frozenset({C.MQRC_XMIT_Q_TYPE_ERROR, C.MQRC_DEF_XMIT_Q_TYPE_ERROR})


def switch_of(reason: int) -> str:
    """The ALTER QMGR attribute that enables events of ``reason``."""
    if reason in INHIBIT_REASONS:
        return "INHIBTEV"
    if reason in LOCAL_REASONS:
        return "LOCALEV"
    if reason in REMOTE_REASONS:
        return "REMOTEEV"
    return "STRSTPEV"


def started(qmgr_name: str) -> Params:
    """Queue Manager Active's data: QMgrName."""
    return [(C.MQCA_Q_MGR_NAME, qmgr_name)]


def not_active(qmgr_name: str, qualifier: int = C.MQRQ_Q_MGR_STOPPING) -> Params:
    """Queue Manager Not Active's data: QMgrName, ReasonQualifier."""
    return [(C.MQCA_Q_MGR_NAME, qmgr_name), (C.MQIACF_REASON_QUALIFIER, qualifier)]


def _client(conn_name: str, channel: str) -> Params:
    return [(C.MQCACH_CONNECTION_NAME, conn_name), (C.MQCACH_CHANNEL_NAME, channel)] if channel else []


def inhibited(qmgr_name: str, reason: int, queue: str, appl_type: int, appl_name: str, object_qmgr: str = "",
              conn_name: str = "", channel: str = "") -> Params:
    """Get Inhibited / Put Inhibited: QMgrName, QName, ApplType, ApplName, then for a put
    ObjectQMgrName (the MQOD's), then ConnName and ChannelName of a client."""
    params: Params = [(C.MQCA_Q_MGR_NAME, qmgr_name), (C.MQCA_Q_NAME, queue), (C.MQIA_APPL_TYPE, appl_type),
                      (C.MQCACF_APPL_NAME, appl_name)]
    if reason == C.MQRC_PUT_INHIBITED:
        params.append((C.MQCACF_OBJECT_Q_MGR_NAME, object_qmgr or qmgr_name))
    return params + _client(conn_name, channel)


def local(qmgr_name: str, reason: int, queue: str, appl_type: int, appl_name: str, *, object_qmgr: str = "",
          base: str = "", base_type: str = "", conn_name: str = "", channel: str = "") -> Params:
    """Unknown Object Name: QMgrName, ApplType, ApplName, ObjectQMgrName, QName. Unknown Alias
    Base Queue: QMgrName, QName, BaseObjectName, ApplType, ApplName, ObjectType. Alias Base Queue
    Type Error: QMgrName, BaseObjectName, QName, QType, ApplType, ApplName, ObjectType."""
    appl: Params = [(C.MQIA_APPL_TYPE, appl_type), (C.MQCACF_APPL_NAME, appl_name)]
    head: Params = [(C.MQCA_Q_MGR_NAME, qmgr_name)]
    if reason == C.MQRC_UNKNOWN_OBJECT_NAME:
        params = [*head, *appl, (C.MQCACF_OBJECT_Q_MGR_NAME, object_qmgr or qmgr_name), (C.MQCA_Q_NAME, queue)]
    elif reason == C.MQRC_UNKNOWN_ALIAS_BASE_Q:
        params = [*head, (C.MQCA_Q_NAME, queue), (C.MQCA_BASE_OBJECT_NAME, base), *appl,
                  (C.MQIACF_OBJECT_TYPE, C.MQOT_Q)]
    else:
        params = [*head, (C.MQCA_BASE_OBJECT_NAME, base), (C.MQCA_Q_NAME, queue),
                  (C.MQIA_Q_TYPE, _QTYPES.get(base_type, C.MQQT_ALIAS)), *appl, (C.MQIACF_OBJECT_TYPE, C.MQOT_Q)]
    return params + _client(conn_name, channel)


def remote(qmgr_name: str, reason: int, queue: str, appl_type: int, appl_name: str, object_qmgr: str,
           xmitq: str = "", xmitq_type: str = "", conn_name: str = "", channel: str = "") -> Params:
    """The remote events' data: QMgrName, QName, XmitQName (those about a transmission queue),
    QType (the type errors), ApplType, ApplName, ObjectQMgrName."""
    params: Params = [(C.MQCA_Q_MGR_NAME, qmgr_name), (C.MQCA_Q_NAME, queue)]
    if reason not in (C.MQRC_UNKNOWN_REMOTE_Q_MGR, C.MQRC_REMOTE_Q_NAME_ERROR):
        params.append((C.MQCACH_XMIT_Q_NAME, xmitq))
    if reason in _TYPED:
        params.append((C.MQIA_Q_TYPE, _QTYPES.get(xmitq_type, C.MQQT_LOCAL)))
    params += [(C.MQIA_APPL_TYPE, appl_type), (C.MQCACF_APPL_NAME, appl_name),
               (C.MQCACF_OBJECT_Q_MGR_NAME, object_qmgr)]
    return params + _client(conn_name, channel)


COMMAND_EVENT_QUEUE = "SYSTEM.ADMIN.COMMAND.EVENT"
INQUIRES = frozenset(value for name, value in vars(C).items() if name.startswith("MQCMD_INQUIRE_"))


def reports_command(cmdev: str, display: bool) -> bool:
    """Whether CMDEV(``cmdev``) reports a command (``display``: a DISPLAY or an INQUIRE)."""
    return cmdev == "ENABLED" or (cmdev == "NODISPLAY" and not display)


def command_data(qmgr_name: str, user: str, origin: int, command: int, mqsc: str | None = None,
                 parameters: list[tuple[int, pcf.Value]] | None = None, md: Any = None) -> Params:
    """A command event's two groups: CommandContext (EventUserId, EventOrigin, EventQMgr, for a
    command message its MQMD's AccountingToken, ApplIdentityData, PutApplType, PutApplName,
    ApplOriginData, then Command) and CommandData (CommandMQSC, or the PCF parameters)."""
    context: Params = [(C.MQCACF_EVENT_USER_ID, user), (C.MQIACF_EVENT_ORIGIN, origin),
                       (C.MQCACF_EVENT_Q_MGR, qmgr_name)]
    if origin == C.MQEVO_MSG and md is not None:
        context += [(C.MQBACF_EVENT_ACCOUNTING_TOKEN, bytes(md.AccountingToken)),
                    (C.MQCACF_EVENT_APPL_IDENTITY, str(md.ApplIdentityData)),
                    (C.MQIACF_EVENT_APPL_TYPE, int(md.PutApplType)), (C.MQCACF_EVENT_APPL_NAME, str(md.PutApplName)),
                    (C.MQCACF_EVENT_APPL_ORIGIN, str(md.ApplOriginData))]
    context.append((C.MQIACF_COMMAND, command))
    data: Params = [(C.MQCACF_COMMAND_MQSC, mqsc)] if mqsc is not None else list(parameters or [])
    return [(C.MQGACF_COMMAND_CONTEXT, pcf.Group(context)), (C.MQGACF_COMMAND_DATA, pcf.Group(data))]


class QueueManagerEvents:
    """Puts start/stop, inhibit, local and remote events while their switches are ENABLED.
    Called only where a call already failed (or at start and end): nothing on the hot path."""

    def __init__(self, qmgr_name: str, qmgr_attrs: dict[str, Any], qdefs: Mapping[str, tuple[str, dict[str, Any]]],
                 put: Callable[[str, Message], bool], clock: Callable[[], float]) -> None:
        self.qmgr_name = qmgr_name
        self.qmgr_attrs = qmgr_attrs
        self.qdefs = qdefs
        self.put = put
        self.clock = clock
        # A persistent put (``Outbox`` and the queues, set by the facade): the start and stop
        # events must outlive the restart that reads them.
        self.put_persistent: Callable[[str, Message], bool] = put

    def enabled(self, switch: str) -> bool:
        return str(self.qmgr_attrs.get(switch, "DISABLED")) == "ENABLED"

    def _emit(self, switch: str, reason: int, params: Params) -> bool:
        if not self.enabled(switch):
            return False
        return self.put(EVENT_QUEUE, event_message(self.qmgr_name, params, self.clock(), reason, C.MQCMD_Q_MGR_EVENT))

    def started(self) -> bool:
        return self._persistent(C.MQRC_Q_MGR_ACTIVE, started(self.qmgr_name))

    def ending(self, qualifier: int = C.MQRQ_Q_MGR_QUIESCING) -> bool:
        """A normal end: MQRQ_Q_MGR_QUIESCING (endmqm -c) or MQRQ_Q_MGR_STOPPING (endmqm -i)."""
        return self._persistent(C.MQRC_Q_MGR_NOT_ACTIVE, not_active(self.qmgr_name, qualifier))

    def _persistent(self, reason: int, params: Params) -> bool:
        if not self.enabled("STRSTPEV"):
            return False
        message = event_message(self.qmgr_name, params, self.clock(), reason, C.MQCMD_Q_MGR_EVENT)
        message.md.Persistence = C.MQPER_PERSISTENT
        return self.put_persistent(EVENT_QUEUE, message)

    def inhibited(self, conn: Any, reason: int, queue: str, object_qmgr: str = "") -> None:
        if self.enabled("INHIBTEV"):
            self._emit("INHIBTEV", reason, inhibited(self.qmgr_name, reason, queue, _appl_type(conn), conn.appl_name,
                                                     object_qmgr, conn.conname, conn.channel))

    def open_failed(self, conn: Any, reason: int, name: str, object_qmgr: str) -> None:
        """An MQOPEN (or MQPUT1) of queue ``name`` at ``object_qmgr`` failed with ``reason``."""
        if reason in LOCAL_REASONS and self.enabled("LOCALEV") and not (object_qmgr and object_qmgr != self.qmgr_name):
            definition = self.qdefs.get(name)
            base = str(definition[1].get("TARGET", "")) if definition else ""
            base_def = self.qdefs.get(base)
            self._emit("LOCALEV", reason, local(
                self.qmgr_name, reason, name, _appl_type(conn), conn.appl_name, object_qmgr=object_qmgr,
                base=base, base_type=base_def[0] if base_def else "", conn_name=conn.conname, channel=conn.channel))
        elif reason in REMOTE_REASONS and self.enabled("REMOTEEV"):
            xmitq = self._xmitq_of(name, object_qmgr)
            xmitq_type = self.qdefs[xmitq][0] if xmitq in self.qdefs else ""
            if xmitq_type == "QLOCAL":
                xmitq_type = ""
            self._emit("REMOTEEV", reason, remote(
                self.qmgr_name, reason, name, _appl_type(conn), conn.appl_name, object_qmgr or self.qmgr_name,
                xmitq, xmitq_type, conn.conname, conn.channel))

    def command(self, user: str, command: int, *, mqsc: str | None = None,
                parameters: list[tuple[int, pcf.Value]] | None = None, md: Any = None) -> bool:
        """A command that ran successfully: an MQSC command (``mqsc``, its text) from runmqsc
        (MQEVO_CONSOLE), or a PCF command message (``parameters``, ``md``: MQEVO_MSG)."""
        cmdev = str(self.qmgr_attrs.get("CMDEV", "DISABLED"))
        if cmdev == "DISABLED":
            return False
        display = (mqsc or "").lstrip().upper().startswith(("DISPLAY", "DIS ")) or command in INQUIRES
        if not reports_command(cmdev, display):
            return False
        origin = C.MQEVO_CONSOLE if mqsc is not None else C.MQEVO_MSG
        reason = C.MQRC_COMMAND_MQSC if mqsc is not None else C.MQRC_COMMAND_PCF
        params = command_data(self.qmgr_name, user, origin, command, mqsc, parameters, md)
        return self.put(COMMAND_EVENT_QUEUE, event_message(self.qmgr_name, params, self.clock(), reason,
                                                           C.MQCMD_COMMAND_EVENT))

    def _xmitq_of(self, name: str, object_qmgr: str) -> str:
        """The transmission queue a resolution of ``name`` at ``object_qmgr`` went to (its own, one
        named after the queue manager, or DEFXMITQ)."""
        xmitq, target = "", object_qmgr
        if not object_qmgr or object_qmgr == self.qmgr_name:
            definition = self.qdefs.get(name)
            if definition is not None and definition[0] == "QREMOTE":
                xmitq = str(definition[1].get("XMITQ") or "").strip()
                target = str(definition[1].get("RQMNAME") or "").strip()
        if xmitq:
            return xmitq
        if target in self.qdefs and self.qdefs[target][0] != "QREMOTE":
            return target
        return str(self.qmgr_attrs.get("DEFXMITQ", "") or "").strip() or target


def _appl_type(conn: Any) -> int:
    return C.MQAT_QMGR if getattr(conn, "system", False) else C.MQAT_UNIX


def persistent_put(queues: Mapping[str, Any], outbox: Any, next_id: Callable[[], bytes],
                   deliver: Callable[[Any], None]) -> Callable[[str, Message], bool]:
    """A best-effort put of an event message that is written to the store (the round that
    takes the effects commits it)."""
    from mqlite.core.queues import AVAILABLE

    def put(queue_name: str, message: Message) -> bool:
        queue = queues.get(queue_name)
        if queue is None or queue.deleted or queue.attrs.get("PUT") == "DISABLED" or queue.depth >= queue.max_depth:
            return False
        message.md.MsgId = next_id()
        entry = queue.add(message, 0.0, AVAILABLE)
        outbox.persist_put(queue, entry, message)
        if queue.waiters or queue.read_ahead:
            deliver(queue)
        return True

    return put
