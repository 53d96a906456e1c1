"""Admin commands as one caller may issue them: each is checked against the caller's authority
before it runs, as IBM's OAM checks MQSC commands ("Authorizations for MQSC commands"):

- DEFINE: ``crt`` on the queue manager (create authority is not per object), or with REPLACE
  of an object that exists ``chg`` on it; and ``dsp`` on the LIKE object, or on the default
  object (SYSTEM.DEFAULT.LOCAL.QUEUE, ...) when there is no LIKE;
- ALTER ``chg``, DELETE ``dlt`` (the object's own authority records go with it, IBM's default
  AUTHREC(YES)), CLEAR ``clr``, RESET QSTATS ``dsp`` and ``chg``, DISPLAY ``dsp`` (a generic
  DISPLAY shows only the objects the caller may display), START/STOP CHANNEL ``ctrl``, on the
  object itself;
- subscriptions, topic and publish/subscribe status: on the queue manager (``chg`` to change,
  ``dsp`` to display);
- SET/DELETE AUTHREC, SET CHLAUTH and REFRESH SECURITY ``chg`` on the queue manager, DISPLAY
  AUTHREC, DISPLAY ENTAUTH and DISPLAY CHLAUTH ``dsp`` on it.

The unchecked calls are the queue manager facade's (``Unchecked``, which ``QueueManager`` is).

Administrators pass every check (the service says so), so their commands cost one set lookup.
A refusal is also a "Not Authorized (type 4)" event naming the command (IBM's MQCMD_* code).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.namelists import DEFAULT_NAMELIST
from mqlite.core.objects import DEFAULT_OBJECT
from mqlite.core.security.principal import Principal
from mqlite.core.security.records import AuthRecord
from mqlite.core.security.service import AuthorityService
from mqlite.core.topics.tree import TopicTree


class Unchecked(Protocol):
    """The admin calls of the queue manager facade (``core.qmgr.QueueManager``), unchecked."""

    name: str
    tree: TopicTree

    def define(self, objtype: str, name: str, attrs: dict[str, Any], like: str | None = None,
               replace: bool = False) -> None: ...

    def alter(self, objtype: str, name: str, attrs: dict[str, Any]) -> None: ...

    def delete(self, objtype: str, name: str, purge: bool = False, authrec: bool = True) -> None: ...

    def define_sub(self, name: str, attrs: dict[str, Any], like: str | None = None, replace: bool = False,
                   principal: Principal | None = None) -> None: ...

    def alter_sub(self, name: str, attrs: dict[str, Any], principal: Principal | None = None) -> None: ...

    def objects(self, objtype: str, generic: str) -> list[dict[str, Any]]: ...

    def clear_queue(self, name: str) -> None: ...

    def reset_queue_stats(self, name: str) -> dict[str, Any]: ...

    def reset_statistics(self) -> None: ...

    def queue_status(self, generic: str, status_type: str) -> list[dict[str, Any]]: ...

    def connection_status(self, generic: str, status_type: str) -> list[dict[str, Any]]: ...

    def stop_connection(self, conn_id: str) -> None: ...

    def sub_status_rows(self, generic: str, subtype: str = "USER") -> list[dict[str, Any]]: ...

    def topic_status_rows(self, pattern: str, status_type: str = "TOPIC") -> list[dict[str, Any]]: ...

    def pubsub_status(self, status_type: str = "ALL") -> list[dict[str, Any]]: ...

    def refresh_proxies(self) -> None: ...

    def refresh_config(self, objtype: str = "ALL", generic: str = "*", inclint: int | None = None) -> int: ...

    def refresh_expiry(self, generic: str = "*") -> int: ...

    def route_status(self, generic: str) -> list[dict[str, Any]]: ...

    def clear_retained(self, topic: str) -> bool: ...

    def start_channel(self, name: str, chltype: str | None = None) -> None: ...

    def stop_channel(self, name: str, chltype: str | None = None, client_id: str | None = None,
                     status: str | None = None, mode: str | None = None) -> None: ...

    def channel_status(self, generic: str, chltype: str | None = None,
                       client_pattern: str | None = None) -> list[dict[str, Any]]: ...

    def reset_channel(self, name: str, chltype: str | None = None, seqnum: int = 1) -> None: ...

    def start_listener(self, name: str) -> None: ...

    def stop_listener(self, name: str) -> None: ...

    def listener_status(self, generic: str) -> list[dict[str, Any]]: ...

    def resolve_channel(self, name: str, action: str, chltype: str | None = None) -> None: ...

    def ping_check(self, name: str, chltype: str | None = None) -> dict[str, Any]: ...

    def suspend_cluster(self, cluster: str, namelist: str, suspended: bool, mode: str = "QUIESCE") -> None: ...

    def refresh_cluster(self, cluster: str, repos: bool) -> int: ...

    def reset_cluster(self, cluster: str, qmname: str, qmid: str, queues: bool) -> int: ...

    def switch_channels(self, generic: str, query: bool, move: bool) -> list[dict[str, Any]]: ...

    def set_chlauth(self, profile: str, attrs: Mapping[str, Any]) -> None: ...

    def chlauth_rows(self, profile: str, kind: str = "ALL", match: str = "GENERIC") -> list[dict[str, Any]]: ...

    def chlauth_runcheck(self, channel: str, attrs: Mapping[str, str]) -> tuple[dict[str, Any] | None, str]: ...

    def refresh_connauth(self) -> None: ...

    def refresh_ssl(self) -> None: ...


# MQSC object types and the MQOT_* their authority records use.
OBJECT_TYPES = {
    "QLOCAL": C.MQOT_Q, "QALIAS": C.MQOT_Q, "QMODEL": C.MQOT_Q, "QREMOTE": C.MQOT_Q, "QUEUE": C.MQOT_Q,
    "QCLUSTER": C.MQOT_Q, "QMGR": C.MQOT_Q_MGR, "TOPIC": C.MQOT_TOPIC, "CHANNEL": C.MQOT_CHANNEL,
    "NAMELIST": C.MQOT_NAMELIST, "PROCESS": C.MQOT_PROCESS, "AUTHINFO": C.MQOT_AUTH_INFO,
    "LISTENER": C.MQOT_LISTENER, "SERVICE": C.MQOT_SERVICE, "COMMINFO": C.MQOT_COMM_INFO,
}
# DEFINE, ALTER, DELETE and DISPLAY of each object type as PCF commands (for type 4 events).
_QUEUE_COMMANDS = (C.MQCMD_CREATE_Q, C.MQCMD_CHANGE_Q, C.MQCMD_DELETE_Q, C.MQCMD_INQUIRE_Q)
OBJECT_COMMANDS = {
    **dict.fromkeys(("QLOCAL", "QALIAS", "QMODEL", "QREMOTE", "QUEUE", "QCLUSTER"), _QUEUE_COMMANDS),
    "QMGR": (C.MQCMD_NONE, C.MQCMD_CHANGE_Q_MGR, C.MQCMD_NONE, C.MQCMD_INQUIRE_Q_MGR),
    "TOPIC": (C.MQCMD_CREATE_TOPIC, C.MQCMD_CHANGE_TOPIC, C.MQCMD_DELETE_TOPIC, C.MQCMD_INQUIRE_TOPIC),
    "CHANNEL": (C.MQCMD_CREATE_CHANNEL, C.MQCMD_CHANGE_CHANNEL, C.MQCMD_DELETE_CHANNEL, C.MQCMD_INQUIRE_CHANNEL),
    "NAMELIST": (C.MQCMD_CREATE_NAMELIST, C.MQCMD_CHANGE_NAMELIST, C.MQCMD_DELETE_NAMELIST,
                 C.MQCMD_INQUIRE_NAMELIST),
    "PROCESS": (C.MQCMD_CREATE_PROCESS, C.MQCMD_CHANGE_PROCESS, C.MQCMD_DELETE_PROCESS, C.MQCMD_INQUIRE_PROCESS),
    "AUTHINFO": (C.MQCMD_CREATE_AUTH_INFO, C.MQCMD_CHANGE_AUTH_INFO, C.MQCMD_DELETE_AUTH_INFO,
                 C.MQCMD_INQUIRE_AUTH_INFO),
    "LISTENER": (C.MQCMD_CREATE_LISTENER, C.MQCMD_CHANGE_LISTENER, C.MQCMD_DELETE_LISTENER,
                 C.MQCMD_INQUIRE_LISTENER),
    "SERVICE": (C.MQCMD_CREATE_SERVICE, C.MQCMD_CHANGE_SERVICE, C.MQCMD_DELETE_SERVICE, C.MQCMD_INQUIRE_SERVICE),
    "COMMINFO": (C.MQCMD_CREATE_COMM_INFO, C.MQCMD_CHANGE_COMM_INFO, C.MQCMD_DELETE_COMM_INFO,
                 C.MQCMD_INQUIRE_COMM_INFO),
    "SUB": (C.MQCMD_CREATE_SUBSCRIPTION, C.MQCMD_CHANGE_SUBSCRIPTION, C.MQCMD_DELETE_SUBSCRIPTION,
            C.MQCMD_INQUIRE_SUBSCRIPTION),
}
DEFINE, ALTER, DELETE, DISPLAY = range(4)
# What a DEFINE without LIKE copies, so needs ``dsp`` on.
_DEFAULT_OBJECT = {**DEFAULT_OBJECT, "NAMELIST": DEFAULT_NAMELIST}


def object_command(verb: int, objtype: str) -> int:
    """The PCF command of an MQSC DEFINE/ALTER/DELETE/DISPLAY (``verb``) of ``objtype``."""
    return OBJECT_COMMANDS.get(objtype.upper(), (C.MQCMD_NONE,) * 4)[verb]


_NAME_KEYS = ("QUEUE", "TOPIC", "CHANNEL", "NAMELIST", "PROCESS", "AUTHINFO", "LISTENER", "SERVICE")


class CheckedAdmin:
    """The admin API (``mqsc.commands.AdminAPI``, ``ChannelAdmin`` and ``SecurityAdmin``) for
    one caller: every call checks the caller's authority, then does what ``Admin`` does."""

    def __init__(self, principal: Principal, security: AuthorityService, qm: Unchecked,
                 on_refused: Callable[[Principal, int], None] | None = None,
                 origin: int = C.MQEVO_CONSOLE) -> None:
        self.principal = principal
        self.origin = origin  # a configuration event's EventOrigin: MQEVO_CONSOLE (MQSC) or MQEVO_MSG (PCF)
        self.security = security
        self.qm = qm
        self.qmgr_name = qm.name
        self.on_refused = on_refused  # (principal, MQCMD_*): the type 4 event
        self._command = C.MQCMD_NONE  # the command being checked, set by each call

    # -- the checks ----------------------------------------------------------------------
    def _require(self, objtype: int, name: str, authority: int) -> None:
        try:
            self.security.require(self.principal, objtype, name, authority)
        except MQError:
            if self.on_refused is not None:
                self.on_refused(self.principal, self._command)
            raise

    def _require_qmgr(self, authority: int) -> None:
        self._require(C.MQOT_Q_MGR, self.qmgr_name, authority)

    def _may_display(self, objtype: int, name: str) -> bool:
        return self.security.allowed(self.principal, objtype, name, C.MQZAO_DISPLAY)

    def _visible(self, objtype: int, rows: list[dict[str, Any]], key: str, generic: str) -> list[dict[str, Any]]:
        """The rows the caller may display; a named object it may not display is refused."""
        shown = [row for row in rows if self._may_display(objtype, str(row.get(key, "")))]
        if rows and not shown and "*" not in generic:
            self._require(objtype, generic, C.MQZAO_DISPLAY)
        return shown

    def _exists(self, objtype: str, name: str) -> bool:
        try:
            return bool(self.qm.objects(objtype, name))
        except MQError:
            return False

    def command_done(self, mqsc: str) -> None:
        """An MQSC command ran: a command event (CMDEV) naming it and the MQCMD_* it was."""
        events = getattr(self.qm, "qmgr_events", None)
        if events is not None:
            events.command(self.principal.user, self._command or C.MQCMD_NONE, mqsc=mqsc)
        self._command = C.MQCMD_NONE  # (the next command sets its own)

    def _event_user(self) -> None:
        """A configuration event names the user the change runs as (EventUserId)."""
        events = getattr(self.qm, "config_events", None)
        if events is not None:
            events.acting(self.principal.user, self.origin)

    # -- DEFINE / ALTER / DELETE / DISPLAY -----------------------------------------------
    def define(self, objtype: str, name: str, attrs: dict[str, Any], like: str | None = None,
               replace: bool = False) -> None:
        self._command = object_command(DEFINE, objtype)
        kind = objtype.upper()
        if kind == "SUB":  # no topic check; the destination is checked as SUBUSER's table says (R-SEC-22)
            self._require_qmgr(C.MQZAO_CHANGE)
            return self.qm.define_sub(name, attrs, like, replace, principal=self.principal)
        else:
            mqot = OBJECT_TYPES.get(kind, C.MQOT_Q_MGR)
            if replace and self._exists(kind, name):
                self._require(mqot, name, C.MQZAO_CHANGE)
            else:
                self._require_qmgr(C.MQZAO_CREATE)
            template = like or _DEFAULT_OBJECT.get(kind)
            if template is not None:
                self._require(mqot, template, C.MQZAO_DISPLAY)
        self._event_user()
        self.qm.define(objtype, name, attrs, like, replace)

    def alter(self, objtype: str, name: str, attrs: dict[str, Any]) -> None:
        self._command = object_command(ALTER, objtype)
        kind = objtype.upper()
        if kind in ("QMGR", "SUB"):
            self._require_qmgr(C.MQZAO_CHANGE)
        else:
            self._require(OBJECT_TYPES.get(kind, C.MQOT_Q_MGR), name, C.MQZAO_CHANGE)
        if kind == "SUB":
            return self.qm.alter_sub(name, attrs, principal=self.principal)
        self._event_user()
        self.qm.alter(objtype, name, attrs)

    def delete(self, objtype: str, name: str, purge: bool = False, authrec: bool = True) -> None:
        self._command = object_command(DELETE, objtype)
        kind = objtype.upper()
        if kind == "SUB":
            self._require_qmgr(C.MQZAO_CHANGE)
        else:
            self._require(OBJECT_TYPES.get(kind, C.MQOT_Q_MGR), name, C.MQZAO_DELETE)
        self._event_user()
        self.qm.delete(objtype, name, purge)
        if authrec and kind in OBJECT_TYPES:  # IBM's AUTHREC(YES): the object's own records go with it
            self.security.delete_profile(OBJECT_TYPES[kind], name)

    def objects(self, objtype: str, generic: str) -> list[dict[str, Any]]:
        self._command = object_command(DISPLAY, objtype)
        kind = objtype.upper()
        if kind in ("QMGR", "QMSTATUS", "SUB"):
            self._require_qmgr(C.MQZAO_DISPLAY)
            return self.qm.objects(objtype, generic)
        rows = self.qm.objects(objtype, generic)
        key = next((k for k in _NAME_KEYS if rows and k in rows[0]), "")
        return self._visible(OBJECT_TYPES.get(kind, C.MQOT_Q_MGR), rows, key, generic)

    def clear_queue(self, name: str) -> None:
        self._command = C.MQCMD_CLEAR_Q
        self._require(C.MQOT_Q, name, C.MQZAO_CLEAR)
        self.qm.clear_queue(name)

    def reset_queue_stats(self, name: str) -> dict[str, Any]:
        self._command = C.MQCMD_RESET_Q_STATS
        self._require(C.MQOT_Q, name, C.MQZAO_DISPLAY)  # IBM: RESET QSTATS needs dsp and chg
        self._require(C.MQOT_Q, name, C.MQZAO_CHANGE)
        return self.qm.reset_queue_stats(name)

    def reset_statistics(self) -> None:
        self._command = C.MQCMD_RESET_Q_MGR
        self._require_qmgr(C.MQZAO_CHANGE)  # IBM: RESET QMGR needs chg on the queue manager
        self.qm.reset_statistics()

    def queue_status(self, generic: str, status_type: str) -> list[dict[str, Any]]:
        self._command = C.MQCMD_INQUIRE_Q_STATUS
        return self._visible(C.MQOT_Q, self.qm.queue_status(generic, status_type), "QUEUE", generic)

    def connection_status(self, generic: str, status_type: str) -> list[dict[str, Any]]:
        self._command = C.MQCMD_INQUIRE_CONNECTION
        self._require_qmgr(C.MQZAO_DISPLAY)
        return self.qm.connection_status(generic, status_type)

    def stop_connection(self, conn_id: str) -> None:
        self._command = C.MQCMD_STOP_CONNECTION
        self._require_qmgr(C.MQZAO_CHANGE)
        self.qm.stop_connection(conn_id)

    def sub_status_rows(self, generic: str, subtype: str = "USER") -> list[dict[str, Any]]:
        self._command = C.MQCMD_INQUIRE_SUB_STATUS
        self._require_qmgr(C.MQZAO_DISPLAY)
        return self.qm.sub_status_rows(generic, subtype)

    def topic_status_rows(self, pattern: str, status_type: str = "TOPIC") -> list[dict[str, Any]]:
        self._command = C.MQCMD_INQUIRE_TOPIC_STATUS
        self._require_qmgr(C.MQZAO_DISPLAY)
        return self.qm.topic_status_rows(pattern, status_type)

    def pubsub_status(self, status_type: str = "ALL") -> list[dict[str, Any]]:
        self._command = C.MQCMD_INQUIRE_PUBSUB_STATUS
        self._require_qmgr(C.MQZAO_DISPLAY)
        return self.qm.pubsub_status(status_type)

    def route_status(self, generic: str) -> list[dict[str, Any]]:
        """DISPLAY RTSTATUS: routes are the queue manager's, like its other links."""
        self._command = C.MQCMD_INQUIRE_PUBSUB_STATUS
        self._require_qmgr(C.MQZAO_DISPLAY)
        return self.qm.route_status(generic)

    def refresh_proxies(self) -> None:
        self._command = C.MQCMD_REFRESH_Q_MGR
        self._require_qmgr(C.MQZAO_CHANGE)
        self.qm.refresh_proxies()

    def refresh_config(self, objtype: str = "ALL", generic: str = "*", inclint: int | None = None) -> int:
        self._command = C.MQCMD_REFRESH_Q_MGR
        self._require_qmgr(C.MQZAO_CHANGE)
        self._event_user()
        return self.qm.refresh_config(objtype, generic, inclint)

    def refresh_expiry(self, generic: str = "*") -> int:
        """REFRESH QMGR TYPE(EXPIRY): the matching queues' expired messages discarded now."""
        self._command = C.MQCMD_REFRESH_Q_MGR
        self._require_qmgr(C.MQZAO_CHANGE)
        return self.qm.refresh_expiry(generic)

    def clear_retained(self, topic: str) -> bool:
        """CLEAR TOPICSTR: ``clr`` on the topic object that administers the topic string."""
        self._command = C.MQCMD_CLEAR_TOPIC_STRING
        owner = self.qm.tree.owner_of_pattern(topic, False).object_name or "SYSTEM.BASE.TOPIC"
        self._require(C.MQOT_TOPIC, owner, C.MQZAO_CLEAR)
        return self.qm.clear_retained(topic)

    # -- channels ------------------------------------------------------------------------
    def start_channel(self, name: str, chltype: str | None = None) -> None:
        self._command = C.MQCMD_START_CHANNEL
        self._require(C.MQOT_CHANNEL, name, C.MQZAO_CONTROL)
        self.qm.start_channel(name, chltype)

    def stop_channel(self, name: str, chltype: str | None = None, client_id: str | None = None,
                     status: str | None = None, mode: str | None = None) -> None:
        self._command = C.MQCMD_STOP_CHANNEL
        self._require(C.MQOT_CHANNEL, name, C.MQZAO_CONTROL)
        self.qm.stop_channel(name, chltype, client_id, status, mode)

    def start_listener(self, name: str) -> None:
        self._command = C.MQCMD_START_CHANNEL_LISTENER
        self._require(C.MQOT_LISTENER, name, C.MQZAO_CONTROL)
        self.qm.start_listener(name)

    def stop_listener(self, name: str) -> None:
        self._command = C.MQCMD_STOP_CHANNEL_LISTENER
        self._require(C.MQOT_LISTENER, name, C.MQZAO_CONTROL)
        self.qm.stop_listener(name)

    def listener_status(self, generic: str) -> list[dict[str, Any]]:
        self._command = C.MQCMD_INQUIRE_LISTENER_STATUS
        return self._visible(C.MQOT_LISTENER, self.qm.listener_status(generic), "LISTENER", generic)

    def reset_channel(self, name: str, chltype: str | None = None, seqnum: int = 1) -> None:
        self._command = C.MQCMD_RESET_CHANNEL
        self._require(C.MQOT_CHANNEL, name, C.MQZAO_CONTROL_EXTENDED)  # IBM: +ctrlx
        self.qm.reset_channel(name, chltype, seqnum)

    def suspend_cluster(self, cluster: str, namelist: str, suspended: bool, mode: str = "QUIESCE") -> None:
        self._command = C.MQCMD_SUSPEND_Q_MGR_CLUSTER if suspended else C.MQCMD_RESUME_Q_MGR_CLUSTER
        self._require_qmgr(C.MQZAO_CONTROL)
        self.qm.suspend_cluster(cluster, namelist, suspended, mode)

    def refresh_cluster(self, cluster: str, repos: bool) -> int:
        self._command = C.MQCMD_REFRESH_CLUSTER
        self._require_qmgr(C.MQZAO_CONTROL)
        return self.qm.refresh_cluster(cluster, repos)

    def reset_cluster(self, cluster: str, qmname: str, qmid: str, queues: bool) -> int:
        self._command = C.MQCMD_RESET_CLUSTER
        self._require_qmgr(C.MQZAO_CONTROL)
        return self.qm.reset_cluster(cluster, qmname, qmid, queues)

    def switch_channels(self, generic: str, query: bool, move: bool) -> list[dict[str, Any]]:
        self._command = C.MQCMD_NONE
        # IBM: switching needs the authority to start the channel (+ctrl on it), asking to display it
        rows = self.qm.switch_channels(generic, True, move)
        for row in rows:
            self._require(C.MQOT_CHANNEL, row["CHANNEL"], C.MQZAO_DISPLAY if query else C.MQZAO_CONTROL)
        return rows if query else self.qm.switch_channels(generic, False, move)

    def ping_check(self, name: str, chltype: str | None = None) -> dict[str, Any]:
        self._command = C.MQCMD_PING_CHANNEL
        self._require(C.MQOT_CHANNEL, name, C.MQZAO_CONTROL)  # IBM: +ctrl
        return self.qm.ping_check(name, chltype)

    def resolve_channel(self, name: str, action: str, chltype: str | None = None) -> None:
        self._command = C.MQCMD_RESOLVE_CHANNEL
        self._require(C.MQOT_CHANNEL, name, C.MQZAO_CONTROL_EXTENDED)
        self.qm.resolve_channel(name, action, chltype)

    def channel_status(self, generic: str, chltype: str | None = None,
                       client_pattern: str | None = None) -> list[dict[str, Any]]:
        self._command = C.MQCMD_INQUIRE_CHANNEL_STATUS
        rows = self.qm.channel_status(generic, chltype, client_pattern)
        return self._visible(C.MQOT_CHANNEL, rows, "CHANNEL", generic)

    # -- channel authentication records -------------------------------------------------
    def set_chlauth(self, profile: str, attrs: Mapping[str, Any]) -> None:
        self._command = C.MQCMD_SET_CHLAUTH_REC
        self._require_qmgr(C.MQZAO_CHANGE)
        self.qm.set_chlauth(profile, attrs)

    def chlauth_rows(self, profile: str, kind: str = "ALL", match: str = "GENERIC") -> list[dict[str, Any]]:
        self._command = C.MQCMD_INQUIRE_CHLAUTH_RECS
        self._require_qmgr(C.MQZAO_DISPLAY)
        return self.qm.chlauth_rows(profile, kind, match)

    def chlauth_runcheck(self, channel: str, attrs: Mapping[str, str]) -> tuple[dict[str, Any] | None, str]:
        self._command = C.MQCMD_INQUIRE_CHLAUTH_RECS
        self._require_qmgr(C.MQZAO_DISPLAY)
        return self.qm.chlauth_runcheck(channel, attrs)

    # -- authority records ---------------------------------------------------------------
    def set_authority(self, objtype: int, profile: str, entity: str, entity_type: int,
                      add: int = 0, remove: int = 0) -> AuthRecord | None:
        self._command = C.MQCMD_SET_AUTH_REC
        self._require_qmgr(C.MQZAO_CHANGE)
        return self.security.set_authority(objtype, profile, entity, entity_type, add, remove)

    def delete_authority(self, objtype: int, profile: str, entity: str, entity_type: int) -> bool:
        self._command = C.MQCMD_DELETE_AUTH_REC
        self._require_qmgr(C.MQZAO_CHANGE)
        return self.security.delete_authority(objtype, profile, entity, entity_type)

    def authority_records(self) -> list[AuthRecord]:
        self._command = C.MQCMD_INQUIRE_AUTH_RECS
        self._require_qmgr(C.MQZAO_DISPLAY)
        return self.security.records()

    def entity_authority(self, principal: Principal, objtype: int, name: str) -> int:
        """DISPLAY ENTAUTH: what ``principal`` holds on one object."""
        self._command = C.MQCMD_INQUIRE_ENTITY_AUTH
        self._require_qmgr(C.MQZAO_DISPLAY)
        return self.security.held(principal, objtype, name)

    def principal_of(self, user: str) -> Principal:
        return self.security.principal_of(user)

    # -- REFRESH SECURITY (mqsc.security.RefreshAdmin) -------------------------------------
    def refresh_authorities(self) -> None:
        self._command = C.MQCMD_REFRESH_SECURITY
        self._require_qmgr(C.MQZAO_CHANGE)
        self.security.refresh()

    def refresh_connauth(self) -> None:
        self._command = C.MQCMD_REFRESH_SECURITY
        self._require_qmgr(C.MQZAO_CHANGE)
        self.qm.refresh_connauth()

    def refresh_ssl(self) -> None:
        self._command = C.MQCMD_REFRESH_SECURITY
        self._require_qmgr(C.MQZAO_CHANGE)
        self.qm.refresh_ssl()

