"""The MQSC executor: parsed commands run against the queue manager's admin API.

The executor owns what is MQSC-specific and nothing else: turning keyword strings into typed
attributes through the attribute catalogue, REPLACE/LIKE/PURGE, generic names, ``WHERE``
filters and attribute selection for DISPLAY, and mapping reason codes to runmqsc's messages.
Object semantics stay in the core, behind :class:`AdminAPI`, so the same executor serves the
server (``runmqsc`` over the native protocol) and tests (a small in-memory implementation).
"""

from __future__ import annotations

import dataclasses
import enum
import operator
from collections.abc import Callable, Generator, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from mqlite import cmqc
from mqlite.core import attributes
from mqlite.core.errors import MQError
from mqlite.mqsc import chlauth, cluster, connections, display, qmgr_refresh, queue_stats, security
from mqlite.mqsc.lexer import MqscSyntaxError, split_script
from mqlite.mqsc.parser import Command, Where, parse
from mqlite.mqsc.summary import summary

__all__ = ["AdminAPI", "MqscResult", "Outcome", "PingRequest", "Status", "execute", "run_command", "run_mqsc",
           "script_steps"]


@runtime_checkable
class AdminAPI(Protocol):
    """What the executor needs from a queue manager (``mqlite.core.qmgr.QueueManager``).

    Every method raises ``MQError(reason, text)`` on failure. ``attrs`` passed to ``define`` and
    ``alter`` are canonical and typed (see :mod:`mqlite.core.attributes`) for object types the
    catalogue knows, and the raw MQSC keyword values otherwise.
    """

    def define(self, objtype: str, name: str, attrs: dict[str, Any], like: str | None = None,
               replace: bool = False) -> None: ...

    def alter(self, objtype: str, name: str, attrs: dict[str, Any]) -> None: ...

    def delete(self, objtype: str, name: str, purge: bool = False, authrec: bool = True) -> None: ...

    def objects(self, objtype: str, generic: str) -> list[dict[str, Any]]: ...

    def clear_queue(self, name: str) -> None: ...

    def queue_status(self, generic: str, status_type: str) -> list[dict[str, Any]]: ...

    def sub_status_rows(self, generic: str, subtype: str = "USER") -> list[dict[str, Any]]: ...

    def topic_status_rows(self, pattern: str, status_type: str = "TOPIC") -> list[dict[str, Any]]: ...

    def pubsub_status(self, status_type: str = "ALL") -> list[dict[str, Any]]: ...

    def refresh_proxies(self) -> None: ...

    def route_status(self, generic: str) -> list[dict[str, Any]]: ...

    def clear_retained(self, topic: str) -> bool: ...


@runtime_checkable
class ChannelAdmin(Protocol):
    """What START/STOP CHANNEL and DISPLAY CHSTATUS need (``mqlite.core.channels``)."""

    def start_channel(self, name: str, chltype: str | None = None) -> None: ...

    def stop_channel(self, name: str, chltype: str | None = None, client_id: str | None = None,
                     status: str | None = None, mode: str | None = None) -> None: ...

    def channel_status(self, generic: str, chltype: str | None = None,
                       client_pattern: str | None = None) -> list[dict[str, Any]]: ...

    def reset_channel(self, name: str, chltype: str | None = None, seqnum: int = 1) -> None: ...

    def resolve_channel(self, name: str, action: str, chltype: str | None = None) -> None: ...

    def ping_check(self, name: str, chltype: str | None = None) -> dict[str, Any]: ...


@runtime_checkable
class ListenerAdmin(Protocol):
    """What START/STOP LISTENER and DISPLAY LSSTATUS need (``mqlite.core.listeners``)."""

    def start_listener(self, name: str) -> None: ...

    def stop_listener(self, name: str) -> None: ...

    def listener_status(self, generic: str) -> list[dict[str, Any]]: ...


class Status(enum.Enum):
    """How one command ended, as runmqsc counts it."""

    OK = "ok"
    FAILED = "failed"  # valid, but could not be processed
    SYNTAX = "syntax"  # a syntax error
    ABORT = "abort"  # the queue manager went away: stop reading


@dataclass(frozen=True)
class Outcome:
    """One command's result: its status and the lines runmqsc prints for it (not the echo)."""

    status: Status
    lines: list[str]


@dataclass(frozen=True)
class MqscResult:
    """A whole script's result: every output line and the counts of the closing lines."""

    lines: list[str]
    commands: int
    syntax_errors: int
    failed: int
    aborted: bool = False

    @property
    def exit_code(self) -> int:
        """runmqsc's exit code: 0 all processed, 10 some failed, 20 could not run."""
        if self.aborted:
            return 20
        return 10 if self.syntax_errors or self.failed else 0


# The queue manager is gone: later commands cannot run either (runmqsc exits 20).
_ABORT_REASONS = frozenset({cmqc.MQRC_Q_MGR_NOT_AVAILABLE, cmqc.MQRC_CONNECTION_BROKEN,
                            cmqc.MQRC_Q_MGR_QUIESCING, cmqc.MQRC_Q_MGR_STOPPING})

_QUEUE_TYPE_OPTION = {
    "ALL": "QUEUE", "QLOCAL": "QLOCAL", "QL": "QLOCAL", "QALIAS": "QALIAS", "QA": "QALIAS",
    "QMODEL": "QMODEL", "QM": "QMODEL", "QREMOTE": "QREMOTE", "QR": "QREMOTE",
    "QCLUSTER": "QCLUSTER", "QC": "QCLUSTER",
}
_QSTATUS_KEYS = {
    "QUEUE": frozenset({"CURDEPTH", "IPPROCS", "OPPROCS", "UNCOM", "LGETDATE", "LGETTIME",
                        "LPUTDATE", "LPUTTIME", "MEDIALOG", "MONQ", "MSGAGE", "QTIME",
                        "ENQTOTAL", "DEQTOTAL"}),  # (the last two mqlite's own: core.admin)
    "HANDLE": frozenset({"APPLTAG", "APPLTYPE", "ASTATE", "BROWSE", "CHANNEL", "CONNAME", "HSTATE",
                         "INPUT", "INQUIRE", "OUTPUT", "PID", "SET", "TID", "URID", "URTYPE",
                         "USERID", "QMURID", "CONNID", "OPENOPTS"}),
}
# Status displays of publish/subscribe and the keys each record starts with.
_SUBTYPES: dict[str, tuple[str, ...] | None] = {
    "USER": ("API", "ADMIN"), "PROXY": ("PROXY",), "ADMIN": ("ADMIN",), "API": ("API",), "ALL": None}
_PUBSUB_STATUS = {"SBSTATUS": ("SUB", "SUBID"), "TPSTATUS": ("TOPICSTR",), "PUBSUB": ("QMNAME", "TYPE"),
                  "RTSTATUS": ("ROUTE", "STATUS")}
_COMPARISONS = {"EQ": operator.eq, "NE": operator.ne, "LT": operator.lt, "GT": operator.gt, "LE": operator.le,
                "GE": operator.ge}
_ACTCON = {"ACTCON": "ACTCONN"}  # spec A §9.3 writes IBM's ACTCONN as ACTCON
_TOPIC_TYPES = {"LOCAL": ("LOCAL",), "CLUSTER": ("CLUSTER",), "ALL": ("LOCAL", "CLUSTER")}  # DISPLAY TOPIC TYPE
_CLUSTER_COPY_KEYS = frozenset({"CLUSQMGR", "CLUSDATE", "CLUSTIME"})  # what a cached cluster topic shows
# Name keys of object types without a catalogue yet (DISPLAY shows them first).
_NAME_KEYS = {"QCLUSTER": "QUEUE", "SUB": "SUB", "CHANNEL": "CHANNEL", "LISTENER": "LISTENER", "NAMELIST": "NAMELIST",
              "PROCESS": "PROCESS", "TPSTATUS": "TOPICSTR", "SBSTATUS": "SUB", "CHSTATUS": "CHANNEL",
              "LSSTATUS": "LISTENER", "PUBSUB": "QMNAME", "CLUSQMGR": "CLUSQMGR", "SERVICE": "SERVICE"}


class _Failed(Exception):
    """A command that was valid but could not be processed, with the lines to print."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__(lines)
        self.lines = lines


def _catalogued(objtype: str) -> bool:
    return objtype in attributes.OBJECT_TYPES or objtype == "QUEUE"


# -- running scripts and commands ---------------------------------------------------------------
@dataclass(frozen=True)
class PingRequest:
    """PING CHANNEL, checked (the channel, its authority, DATALEN): what is left needs the network,
    so the script pauses here (``script_steps``) for whoever runs it to dial the partner."""

    channel: str
    attrs: dict[str, Any]
    datalen: int


Steps = Generator[PingRequest, Outcome, MqscResult]
_NO_NETWORK = Outcome(Status.FAILED, ["AMQ8101E: WebSphere MQ error has occurred: PING CHANNEL needs the queue "
                                      "manager's channel agents (reason 3168)."])


def run_mqsc(admin: AdminAPI, text: str, ping: Callable[[PingRequest], Outcome] | None = None) -> MqscResult:
    """Run a whole MQSC script the way ``runmqsc QM < file`` does and return what it prints.
    ``ping`` answers PING CHANNEL synchronously; without it, PING CHANNEL fails (the server runs
    scripts through ``script_steps`` and pings asynchronously)."""
    steps = script_steps(admin, text)
    try:
        request = next(steps)
        while True:
            request = steps.send(ping(request) if ping is not None else _NO_NETWORK)
    except StopIteration as finished:
        return finished.value  # type: ignore[no-any-return]


def script_steps(admin: AdminAPI, text: str) -> Steps:
    """``run_mqsc`` as a generator: it yields each checked PING CHANNEL and takes its outcome."""
    lines: list[str] = []
    number = read = syntax = failed = 0
    aborted = False
    for item in split_script(text):
        if item.kind != "command":
            lines.extend(display.echo(None, item.lines))
            continue
        number += 1
        lines.extend(display.echo(number, item.lines))
        try:
            command = parse(item.text)
        except MqscSyntaxError as err:
            read += 1
            syntax += 1
            lines.extend(display.syntax_error(err))
            continue
        if command.verb == "END":
            break
        read += 1
        if command.verb == "PING" and command.objtype == "CHANNEL":
            outcome = yield from _ping(admin, command)
        else:
            outcome = run_command(admin, command)
            if outcome.status is Status.OK and (done := getattr(admin, "command_done", None)) is not None:
                done(item.text)  # a command event (CMDEV: CheckedAdmin.command_done)
        lines.extend(outcome.lines)
        if outcome.status is Status.SYNTAX:
            syntax += 1
        elif outcome.status is not Status.OK:
            failed += 1
            if outcome.status is Status.ABORT:
                aborted = True
                break
    lines.extend(summary(read, syntax, failed))
    return MqscResult(lines, read, syntax, failed, aborted)


def _ping(admin: AdminAPI, cmd: Command) -> Generator[PingRequest, Outcome, Outcome]:
    checked: list[PingRequest] = []

    def check() -> list[str]:
        _no_attributes(cmd)
        datalen = str(cmd.options.get("DATALEN", "64"))
        if not datalen.isdigit() or not 16 <= int(datalen) <= 32768:
            raise MQError(cmqc.MQRCCF_PING_DATA_COUNT_ERROR, f"DATALEN({datalen}) must be 16 to 32768")
        attrs = _channel_admin(admin, cmd).ping_check(cmd.name or "", cmd.options.get("CHLTYPE"))
        checked.append(PingRequest(cmd.name or "", attrs, int(datalen)))
        return []

    outcome = _guarded(cmd, check)
    if not checked:
        return outcome
    return (yield checked[0])


def execute(admin: AdminAPI, command: Command | str) -> list[str]:
    """Run one command (parsed, or text) and return its output lines, without the echo."""
    if isinstance(command, str):
        try:
            command = parse(command)
        except MqscSyntaxError as err:
            return display.syntax_error(err)
    return run_command(admin, command).lines


def run_command(admin: AdminAPI, command: Command) -> Outcome:
    """Run one parsed command; never raises (runmqsc reports and carries on)."""
    return _guarded(command, lambda: [*_dispatch(admin, command), *display.unproduced_events(command)])


def _guarded(command: Command, call: Callable[[], list[str]]) -> Outcome:
    """``call``'s lines, or what runmqsc prints for what it raised."""
    try:
        return Outcome(Status.OK, call())
    except MqscSyntaxError as err:
        return Outcome(Status.SYNTAX, display.syntax_error(err))
    except _Failed as failure:
        return Outcome(Status.FAILED, failure.lines)
    except MQError as err:
        name = command.options.get("LIKE") if (
            command.verb == "DEFINE" and "LIKE" in command.options
            and err.reason == cmqc.MQRC_UNKNOWN_OBJECT_NAME) else command.name or str(command.attrs.get("PROFILE", ""))
        status = Status.ABORT if err.reason in _ABORT_REASONS else Status.FAILED
        return Outcome(status, display.mq_error(err, name))
    except Exception as err:  # an admin bug must not stop the script or the server
        return Outcome(Status.FAILED, [f"AMQ8101E: WebSphere MQ error has occurred: internal error "
                                       f"{type(err).__name__}: {err}"])


def _dispatch(admin: AdminAPI, cmd: Command) -> list[str]:
    if cmd.objtype == "SUB" and cmd.name is None and isinstance(cmd.attrs.get("SUBID"), str):
        cmd = _named_by_subid(cmd)
    verb, objtype, name = cmd.verb, cmd.objtype, cmd.name or ""
    if objtype == "CHLAUTH":
        if verb == "SET":
            return chlauth.set_chlauth(admin, cmd)
        where = cmd.where
        return chlauth.display_chlauth(admin, cmd, None if where is None else (
            lambda row: _where_match(cmd, where, where.keyword, row)))
    if objtype in security.NOUNS:
        return security.run(admin, cmd)
    if cluster.handles(cmd):
        return cluster.run(admin, cmd)
    if verb == "DISPLAY":
        return _display(admin, cmd)
    if verb == "DEFINE":
        admin.define(objtype, name, _typed(cmd), like=cmd.options.get("LIKE"), replace="REPLACE" in cmd.flags)
    elif verb == "ALTER":
        admin.alter(objtype, name, _typed(cmd))
    elif verb == "DELETE":
        _no_attributes(cmd)
        admin.delete(objtype, name, purge="PURGE" in cmd.flags, **security.authrec_option(cmd))
    elif verb in ("START", "STOP") and objtype == "CHANNEL":
        _no_attributes(cmd)
        channels = _channel_admin(admin, cmd)
        chltype = cmd.options.get("CHLTYPE")
        if verb == "START":
            channels.start_channel(name, chltype)
        else:
            # CLIENTID names an MQTT client; CONNAME the address of SVRCONN instances to end.
            client = cmd.options.get("CLIENTID") or cmd.options.get("CONNAME")
            channels.stop_channel(name, chltype, client, cmd.options.get("STATUS"), cmd.options.get("MODE"))
    elif verb == "STOP" and objtype == "CONN":
        return connections.stop_conn(admin, cmd)
    elif verb in ("START", "STOP") and objtype == "LISTENER":
        _no_attributes(cmd)
        listeners = _listener_admin(admin, cmd)
        (listeners.start_listener if verb == "START" else listeners.stop_listener)(name)
    elif verb == "RESET" and objtype == "CHANNEL":
        _no_attributes(cmd)
        seqnum = cmd.options.get("SEQNUM", "1")
        if not str(seqnum).isdigit():
            raise cmd.error("SEQNUM must be a number", "SEQNUM")
        _channel_admin(admin, cmd).reset_channel(name, cmd.options.get("CHLTYPE"), int(seqnum))
        return ["AMQ8023I: WebSphere MQ channel reset."]
    elif verb == "RESET" and objtype in ("QSTATS", "QMGR"):  # (RESET QMGR TYPE(STATISTICS) too)
        return queue_stats.reset(admin, cmd)
    elif verb == "RESOLVE" and objtype == "CHANNEL":
        _no_attributes(cmd)
        if "ACTION" not in cmd.options:
            raise cmd.error("RESOLVE CHANNEL needs ACTION(COMMIT) or ACTION(BACKOUT)", "RESOLVE")
        _channel_admin(admin, cmd).resolve_channel(name, cmd.options["ACTION"], cmd.options.get("CHLTYPE"))
        return ["AMQ8024I: WebSphere MQ channel resolved."]
    elif verb == "REFRESH" and objtype == "QMGR":  # TYPE(PROXYSUB), TYPE(CONFIGEV)
        return qmgr_refresh.refresh(admin, cmd)
    elif verb == "REFRESH" and objtype == "SECURITY":
        _no_attributes(cmd)
        return security.refresh(admin, cmd)
    elif verb == "CLEAR" and objtype == "QLOCAL":
        _no_attributes(cmd)
        admin.clear_queue(name)
    elif verb == "CLEAR" and objtype == "TOPICSTR":  # spec A R-RET-10
        _no_attributes(cmd)
        if cmd.options.get("CLTRTYPE", "RETAINED").upper() != "RETAINED":
            raise cmd.error("CLTRTYPE must be RETAINED", "CLTRTYPE")
        if not admin.clear_retained(name):
            raise MQError(cmqc.MQRC_NO_RETAINED_MSG, f"topic {name!r} has no retained publication")
        return ["AMQ8887I: WebSphere MQ topic string cleared."]
    else:
        raise MQError(cmqc.MQRC_FUNCTION_NOT_SUPPORTED, f"{verb} {objtype} is not supported yet")
    return [display.done_message(verb, objtype)]


def _listener_admin(admin: AdminAPI, cmd: Command) -> ListenerAdmin:
    if not isinstance(admin, ListenerAdmin):
        raise MQError(cmqc.MQRC_FUNCTION_NOT_SUPPORTED, f"{cmd.verb} {cmd.objtype} is not supported here")
    return admin


def _channel_admin(admin: AdminAPI, cmd: Command) -> ChannelAdmin:
    if not isinstance(admin, ChannelAdmin):
        raise MQError(cmqc.MQRC_FUNCTION_NOT_SUPPORTED, f"{cmd.verb} {cmd.objtype} is not supported here")
    return admin


def _named_by_subid(cmd: Command) -> Command:
    """``DELETE SUB SUBID(hex)``: the id names the subscription (the core accepts either)."""
    attrs = {k: v for k, v in cmd.attrs.items() if k != "SUBID"}
    return Command(cmd.verb, cmd.objtype, str(cmd.attrs["SUBID"]), attrs, cmd.flags, cmd.options, cmd.where,
                   cmd.text, cmd.spans)


def _no_attributes(cmd: Command) -> None:
    for keyword in cmd.attrs:
        raise cmd.error(f"{keyword} is not valid on {cmd.verb} {cmd.objtype}", keyword)


def _typed(cmd: Command) -> dict[str, Any]:
    """The command's attributes, canonical and typed; syntax errors first, as runmqsc reports them."""
    if not _catalogued(cmd.objtype):
        return dict(cmd.attrs)
    value_error: attributes.InvalidAttribute | None = None
    for keyword, value in cmd.attrs.items():
        try:
            attributes.validate(cmd.objtype, {keyword: value})
        except attributes.InvalidAttribute as err:
            if err.syntax:
                raise cmd.error(err.text, keyword) from None
            value_error = value_error or err
    try:
        typed = attributes.validate(cmd.objtype, cmd.attrs)
    except attributes.InvalidAttribute as err:
        if err.syntax:
            raise cmd.error(err.text, err.keyword) from None
        raise
    if value_error is not None:
        raise value_error
    return typed


# -- DISPLAY ------------------------------------------------------------------------------------
def _display(admin: AdminAPI, cmd: Command) -> list[str]:
    if cmd.objtype == "TCLUSTER":  # IBM's DISPLAY TCLUSTER is DISPLAY TOPIC TYPE(CLUSTER)
        cmd = dataclasses.replace(cmd, objtype="TOPIC", options={**cmd.options, "TYPE": "CLUSTER"})
    objtype, name, where = cmd.objtype, cmd.name or "", cmd.where
    if objtype == "CONN":
        return connections.display_conn(admin, cmd, _where_match)
    show_all_default = objtype in ("QMGR", "QSTATUS") or not name.endswith("*")
    if objtype == "QSTATUS":
        status_type = cmd.options.get("TYPE", "QUEUE").upper()
        if status_type not in _QSTATUS_KEYS:
            raise cmd.error("TYPE must be QUEUE or HANDLE", "TYPE")
        identity: tuple[str, ...] = ("QUEUE", "TYPE")
        keys = _requested(cmd, lambda kw: _status_key(cmd, status_type, kw))
        where_key = _status_key(cmd, status_type, where.keyword, "WHERE") if where else ""
        rows = admin.queue_status(name, status_type)
        if not rows and status_type == "HANDLE":
            return []
    elif objtype == "LSSTATUS":
        identity = ("LISTENER",)
        keys = _requested(cmd, lambda kw: kw)
        where_key = where.keyword if where else ""
        rows = _listener_admin(admin, cmd).listener_status(name or "*")
        show_all_default = False
    elif objtype == "CHSTATUS":
        identity, keys, rows = _channel_status(admin, cmd, name)
        where_key = where.keyword if where else ""
        if not rows:
            raise _Failed(["AMQ8420I: Channel Status not found."])
        show_all_default = False
    elif objtype in _PUBSUB_STATUS:
        identity = _PUBSUB_STATUS[objtype]
        keys = [_ACTCON.get(k, k) for k in _requested(cmd, lambda kw: kw)]
        where_key = where.keyword if where else ""
        if objtype == "SBSTATUS":
            rows = admin.sub_status_rows(name or "*", cmd.options.get("SUBTYPE", "USER"))
        elif objtype == "TPSTATUS":
            rows = admin.topic_status_rows(name, cmd.options.get("TYPE", "TOPIC"))
        elif objtype == "RTSTATUS":
            rows = admin.route_status(name or "*")
        else:
            rows = admin.pubsub_status(cmd.options.get("TYPE", "ALL"))
        show_all_default = not keys
    else:
        kind = objtype
        if objtype == "QUEUE":
            kind = _QUEUE_TYPE_OPTION.get(cmd.options.get("TYPE", "ALL").upper(), "")
            if not kind:
                raise cmd.error("TYPE must be a queue type", "TYPE")
        identity = _identity(objtype)
        keys = _requested(cmd, lambda kw: _attribute_key(cmd, kw))
        where_key = _attribute_key(cmd, where.keyword, "WHERE") if where else ""
        if objtype == "QUEUE" and kind == "QUEUE" and "CLUSINFO" in cmd.flags:  # and the cluster's (B:SC-88)
            rows = [*admin.objects("QUEUE", name + ("" if name.endswith("*") else "*")),
                    *admin.objects("QCLUSTER", name + ("" if name.endswith("*") else "*"))]
            rows = [row for row in rows if attributes.generic_match(name, row["QUEUE"])]
        elif objtype == "TOPIC":  # local objects, cached cluster copies or both; CLUSINFO is ALL (B:R-DSP-4)
            kinds = _TOPIC_TYPES.get("ALL" if "CLUSINFO" in cmd.flags else cmd.options.get("TYPE", "LOCAL").upper())
            if kinds is None:
                raise cmd.error("TYPE must be LOCAL, CLUSTER or ALL", "TYPE")
            rows = [row for row in admin.objects(kind, name) if row.get("TYPE", "LOCAL") in kinds]
        else:
            rows = admin.objects(kind, "" if objtype == "QMGR" else name)
        chltype = cmd.options.get("CHLTYPE", "").upper()
        if objtype == "CHANNEL" and chltype:
            rows = [row for row in rows if row.get("CHLTYPE") == chltype]
        if objtype == "SUB":  # proxies only when asked for (B:R-DSP-2, A-07)
            subtype = cmd.options.get("SUBTYPE", "USER").upper()
            if subtype not in _SUBTYPES:
                raise cmd.error("SUBTYPE must be USER, PROXY, ADMIN, API or ALL", "SUBTYPE")
            shown_types = _SUBTYPES[subtype]
            rows = [row for row in rows if shown_types is None or row.get("SUBTYPE") in shown_types]
    if not rows:
        raise _Failed([f"AMQ8147E: WebSphere MQ object {name} not found."])
    show_all = "ALL" in cmd.flags or (not keys and show_all_default)
    out: list[str] = []
    for row in rows:
        if where is not None and not _where_match(cmd, where, where_key, row):
            continue
        chosen: Iterable[str] = (k for k in row if not k.startswith("_")) if show_all else [*keys, where_key]
        shown = identity or tuple(row)[:1]
        if row.get("TYPE") == "QCLUSTER" and "CLUSQMGR" not in shown:  # CLUSINFO: which instance
            shown = (*shown, "CLUSQMGR")
        elif objtype == "TOPIC" and row.get("TYPE") == "CLUSTER":  # a cached copy: whose
            shown = (*shown, "CLUSQMGR", "CLUSTER", "CLROUTE")
        out.extend(display.record(objtype, row, shown, [k for k in chosen if k]))
    return out


def _channel_status(admin: AdminAPI, cmd: Command, name: str) -> tuple[tuple[str, ...], list[str],
                                                                      list[dict[str, Any]]]:
    """DISPLAY CHSTATUS(generic) [CHLTYPE(MQTT)] [CLIENTID(generic)] [SUMMARY]: a summary
    per channel, or with CLIENTID a record per connected (or disconnected) client."""
    client = cmd.options.get("CLIENTID")
    if client is not None and "SUMMARY" in cmd.flags:
        raise cmd.error("CLIENTID and SUMMARY are exclusive", "SUMMARY")
    rows = _channel_admin(admin, cmd).channel_status(name or "*", cmd.options.get("CHLTYPE"), client)
    keys = [_ACTCON.get(k, k) for k in _requested(cmd, lambda kw: kw)]
    if client is None:
        # A summary row (MQTT) shows CONNECTIONS; a SVRCONN instance what IBM shows by default.
        return ("CHANNEL", "CHLTYPE"), keys or ["CONNECTIONS", "CONNAME", "CURRENT", "STATUS", "SUBSTATE"], rows
    return ("CHANNEL", "CHLTYPE", "CLIENTID"), keys or ["STATUS", "CONNAME"], rows


def _identity(objtype: str) -> tuple[str, ...]:
    if objtype == "QMGR":
        return ("QMNAME",)
    if objtype == "CHANNEL":
        return ("CHANNEL", "CHLTYPE")
    if objtype == "AUTHINFO":
        return ("AUTHINFO", "AUTHTYPE")
    if objtype == "NAMELIST":  # IBM always shows NAMCOUNT
        return ("NAMELIST", "NAMCOUNT")
    if objtype == "CLUSQMGR":
        return ("CLUSQMGR", "CHANNEL", "CLUSTER")
    if objtype == "QCLUSTER":
        return ("QUEUE", "TYPE", "CLUSQMGR", "CLUSTER")
    if _catalogued(objtype):
        return (attributes.name_key("QLOCAL" if objtype == "QUEUE" else objtype), "TYPE")
    return (_NAME_KEYS[objtype], "TYPE") if objtype in _NAME_KEYS else ()


def _requested(cmd: Command, resolve: Callable[[str], str]) -> list[str]:
    keys = []
    for keyword, value in cmd.attrs.items():
        if value is not True:
            raise cmd.error(f"{keyword} takes no value on DISPLAY", keyword)
        keys.append(resolve(keyword))
    return keys


def _attribute_key(cmd: Command, keyword: str, where: str = "") -> str:
    if not _catalogued(cmd.objtype) or (cmd.objtype == "TOPIC" and keyword in _CLUSTER_COPY_KEYS):
        return keyword
    try:
        return attributes.canonical(cmd.objtype, keyword)
    except attributes.InvalidAttribute as err:
        raise cmd.error(err.text, where or keyword) from None


def _status_key(cmd: Command, status_type: str, keyword: str, where: str = "") -> str:
    if keyword in _QSTATUS_KEYS[status_type] or keyword in ("QUEUE", "TYPE"):
        return keyword
    raise cmd.error(f"{keyword} is not a {status_type} status attribute", where or keyword)


def _where_match(cmd: Command, where: Where, key: str, row: Mapping[str, Any]) -> bool:
    """Does ``row`` satisfy ``WHERE(key op value)``? Bad filter values are syntax errors."""
    if key not in row:
        return False
    value, op, wanted = row[key], where.op, where.value.strip()
    if op in ("CT", "EX", "CTG", "EXG"):
        items = [display.format_value(v).strip() for v in (value if isinstance(value, list) else [value])]
        hit = any(attributes.generic_match(wanted, i) if op.endswith("G") else i == wanted for i in items)
        return hit if op.startswith("C") else not hit
    if op in ("LK", "NL"):
        matched = attributes.generic_match(wanted, display.format_value(value).strip())
        return matched if op == "LK" else not matched
    left: Any = value
    right: Any = wanted
    if isinstance(value, bool):
        right = _flag_value(cmd, key, wanted)
        if op not in ("EQ", "NE"):
            raise cmd.error(f"{op} cannot compare {key}", "WHERE")
    elif isinstance(value, int):
        try:
            right = int(wanted)
        except ValueError:
            raise cmd.error(f"{wanted} is not a number for {key}", "WHERE") from None
    else:
        left = display.format_value(value).strip()
    return bool(_COMPARISONS[op](left, right))


def _flag_value(cmd: Command, key: str, wanted: str) -> bool:
    spec = attributes.spec(cmd.objtype, key) if _catalogued(cmd.objtype) else None
    upper = wanted.upper()
    if upper in ("YES", "TRUE") or (spec is not None and upper == spec.name):
        return True
    if upper in ("NO", "FALSE") or (spec is not None and upper == spec.negative):
        return False
    raise cmd.error(f"{wanted} is not a value of {key}", "WHERE")
