"""PCF commands on the one MQSC executor: a PCF request becomes the parsed MQSC command that
means the same (``mqsc.parser.Command``, built directly, no MQSC text), runs through
``commands.run_command`` against the admin API the caller may use (so authority is checked as for
runmqsc), and its DISPLAY records become PCF response parameters (``pcf_table``).

``execute`` is pure apart from the admin calls: a request in, a ``Reply`` out (the objects'
parameters, then the completion code and reason); ``responses`` lays a reply out as IBM's
response messages: one MQCFT_RESPONSE per object, MQCFC_NOT_LAST ... MQCFC_LAST, a failure last
with MQCC_FAILED and its reason (and MQIACF_PARAMETER_ID, the parameter at fault, where known);
for an MQCFT_COMMAND_XR request each object an MQCFT_XR_ITEM and an MQCFT_XR_SUMMARY last;
encoded with its strings blank padded to their IBM field lengths (``pcf_lengths.LENGTHS``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from mqlite import cmqc as C
from mqlite.core import attributes
from mqlite.core.errors import MQError
from mqlite.mqsc import display, pcf_table
from mqlite.mqsc.commands import AdminAPI, Status, run_command
from mqlite.mqsc.parser import Command, Where
from mqlite.mqsc.pcf_table import ParameterError
from mqlite.protocol import pcf
from mqlite.protocol.pcf import Value

__all__ = ["Reply", "Request", "display_records", "error_of", "error_response", "execute", "failure", "mqsc_command",
           "parse_records", "request_command", "responses", "run_lines"]

Params = list[tuple[int, Value]]

_Q_TYPES = {C.MQQT_LOCAL: "QLOCAL", C.MQQT_MODEL: "QMODEL", C.MQQT_ALIAS: "QALIAS", C.MQQT_REMOTE: "QREMOTE",
            C.MQQT_CLUSTER: "QCLUSTER", C.MQQT_ALL: "ALL"}
_Q_TYPE_NUMBERS = {v: k for k, v in _Q_TYPES.items()}
_CHL_TOKENS = attributes.spec("CHANNEL", "CHLTYPE").tokens  # type: ignore[union-attr]
_OPERATORS = {C.MQCFOP_LESS: "LT", C.MQCFOP_EQUAL: "EQ", C.MQCFOP_GREATER: "GT", C.MQCFOP_NOT_LESS: "GE",
              C.MQCFOP_NOT_EQUAL: "NE", C.MQCFOP_NOT_GREATER: "LE", C.MQCFOP_LIKE: "LK", C.MQCFOP_NOT_LIKE: "NL",
              C.MQCFOP_CONTAINS: "CT", C.MQCFOP_EXCLUDES: "EX", C.MQCFOP_CONTAINS_GEN: "CTG",
              C.MQCFOP_EXCLUDES_GEN: "EXG"}
_HEADER = re.compile(r"^AMQ\d{4}I:")
_NOT_FOUND = {"AMQ8147E": C.MQRC_UNKNOWN_OBJECT_NAME, "AMQ8420I": C.MQRCCF_CHL_STATUS_NOT_FOUND,
              "AMQ8150E": C.MQRCCF_OBJECT_ALREADY_EXISTS, "AMQ8135E": C.MQRC_NOT_AUTHORIZED}


@dataclass
class Reply:
    """What a command produced: each object's parameters, then how it ended."""

    objects: list[Params] = field(default_factory=list)
    comp_code: int = C.MQCC_OK
    reason: int = C.MQRC_NONE
    error_parameters: Params = field(default_factory=list)


class Request:
    """A request's parameters, each taken once; what is left over is a parameter the command
    does not take (IBM's MQRCCF_CF*_PARM_ID_ERROR for its structure)."""

    def __init__(self, parameters: Params) -> None:
        self.left = list(parameters)

    def take(self, parameter: int) -> Value | None:
        for i, (pid, value) in enumerate(self.left):
            if pid == parameter and not isinstance(value, pcf.IntegerFilter | pcf.StringFilter | pcf.ByteStringFilter):
                del self.left[i]
                return value
        return None

    def string(self, parameter: int, required: bool = False) -> str | None:
        value = self.take(parameter)
        if value is None:
            if required:
                raise MQError(C.MQRCCF_PARM_COUNT_TOO_SMALL, f"parameter {parameter} is required")
            return None
        if not isinstance(value, str):
            raise ParameterError(C.MQRCCF_CFST_PARM_ID_ERROR if isinstance(value, int)
                                 else pcf_table.parm_id_error(value),
                                 f"parameter {parameter} must be a string (MQCFST)", parameter)
        return value.strip()

    def integer(self, parameter: int) -> int | None:
        value = self.take(parameter)
        if value is None:
            return None
        if not isinstance(value, int):
            raise ParameterError(C.MQRCCF_CFIN_PARM_ID_ERROR, f"parameter {parameter} must be an integer (MQCFIN)",
                                 parameter)
        return value

    def integers(self, parameter: int) -> list[int] | None:
        value = self.take(parameter)
        if value is None:
            return None
        if not isinstance(value, list) or not all(isinstance(v, int) for v in value):
            raise ParameterError(C.MQRCCF_CFIL_PARM_ID_ERROR,
                                 f"parameter {parameter} must be an integer list (MQCFIL)", parameter)
        return [int(v) for v in value]

    def filters(self) -> list[tuple[int, Value]]:
        found: Params = [(p, v) for p, v in self.left
                 if isinstance(v, pcf.IntegerFilter | pcf.StringFilter | pcf.ByteStringFilter)]
        self.left = [(p, v) for p, v in self.left if (p, v) not in found]
        return found

    def done(self) -> None:
        for parameter, value in self.left:
            raise ParameterError(pcf_table.parm_id_error(value), f"parameter {parameter} is not valid here", parameter)


# -- requests as MQSC commands -------------------------------------------------------------------
def mqsc_command(verb: str, objtype: str, name: str | None, attrs: dict[str, Any] | None = None,
             flags: frozenset[str] = frozenset(), options: dict[str, str] | None = None,
             where: Where | None = None) -> Command:
    text = " ".join(x for x in (verb, objtype + (f"({name})" if name is not None else "")) if x)
    return Command(verb, objtype, name, dict(attrs or {}), flags, dict(options or {}), where, text)


@dataclass(frozen=True)
class _Inquiry:
    noun: str  # DISPLAY's noun
    family: str  # whose table converts the records
    name: int  # the parameter naming the objects
    selection: int  # the attribute-list parameter
    identity: tuple[int, ...]  # parameters every object shows whatever the selection


_INQUIRIES: dict[int, _Inquiry] = {
    C.MQCMD_INQUIRE_Q: _Inquiry("QUEUE", "QUEUE", C.MQCA_Q_NAME, C.MQIACF_Q_ATTRS, (C.MQCA_Q_NAME, C.MQIA_Q_TYPE)),
    C.MQCMD_INQUIRE_Q_STATUS: _Inquiry("QSTATUS", "QSTATUS", C.MQCA_Q_NAME, C.MQIACF_Q_STATUS_ATTRS,
                                       (C.MQCA_Q_NAME, C.MQIACF_Q_STATUS_TYPE)),
    C.MQCMD_INQUIRE_Q_MGR: _Inquiry("QMGR", "QMGR", 0, C.MQIACF_Q_MGR_ATTRS, (C.MQCA_Q_MGR_NAME,)),
    C.MQCMD_INQUIRE_CONNECTION: _Inquiry("CONN", "CONN", 0, C.MQIACF_CONNECTION_ATTRS, (C.MQBACF_CONNECTION_ID,)),
    C.MQCMD_INQUIRE_Q_MGR_STATUS: _Inquiry("QMSTATUS", "QMSTATUS", 0, C.MQIACF_Q_MGR_STATUS_ATTRS,
                                           (C.MQCA_Q_MGR_NAME,)),
    C.MQCMD_INQUIRE_CHANNEL: _Inquiry("CHANNEL", "CHANNEL", C.MQCACH_CHANNEL_NAME, C.MQIACF_CHANNEL_ATTRS,
                                      (C.MQCACH_CHANNEL_NAME, C.MQIACH_CHANNEL_TYPE)),
    C.MQCMD_INQUIRE_CHANNEL_STATUS: _Inquiry("CHSTATUS", "CHSTATUS", C.MQCACH_CHANNEL_NAME,
                                             C.MQIACH_CHANNEL_INSTANCE_ATTRS,
                                             (C.MQCACH_CHANNEL_NAME, C.MQIACH_CHANNEL_TYPE)),
    C.MQCMD_INQUIRE_TOPIC: _Inquiry("TOPIC", "TOPIC", C.MQCA_TOPIC_NAME, C.MQIACF_TOPIC_ATTRS,
                                    (C.MQCA_TOPIC_NAME, C.MQIA_TOPIC_TYPE)),
    C.MQCMD_INQUIRE_SUBSCRIPTION: _Inquiry("SUB", "SUB", C.MQCACF_SUB_NAME, C.MQIACF_SUB_ATTRS,
                                           (C.MQCACF_SUB_NAME, C.MQBACF_SUB_ID)),
    C.MQCMD_INQUIRE_LISTENER: _Inquiry("LISTENER", "LISTENER", C.MQCACH_LISTENER_NAME, C.MQIACF_LISTENER_ATTRS,
                                       (C.MQCACH_LISTENER_NAME,)),
    C.MQCMD_INQUIRE_LISTENER_STATUS: _Inquiry("LSSTATUS", "LSSTATUS", C.MQCACH_LISTENER_NAME,
                                              C.MQIACF_LISTENER_STATUS_ATTRS, (C.MQCACH_LISTENER_NAME,)),
    C.MQCMD_INQUIRE_NAMELIST: _Inquiry("NAMELIST", "NAMELIST", C.MQCA_NAMELIST_NAME, C.MQIACF_NAMELIST_ATTRS,
                                       (C.MQCA_NAMELIST_NAME,)),
    C.MQCMD_INQUIRE_SUB_STATUS: _Inquiry("SBSTATUS", "SBSTATUS", C.MQCACF_SUB_NAME, C.MQIACF_SUB_STATUS_ATTRS,
                                         (C.MQCACF_SUB_NAME, C.MQBACF_SUB_ID)),
    C.MQCMD_INQUIRE_TOPIC_STATUS: _Inquiry("TPSTATUS", "TPSTATUS", C.MQCA_TOPIC_STRING, C.MQIACF_TOPIC_STATUS_ATTRS,
                                           (C.MQCA_TOPIC_STRING,)),
    C.MQCMD_INQUIRE_PUBSUB_STATUS: _Inquiry("PUBSUB", "PUBSUB", 0, C.MQIACF_PUBSUB_STATUS_ATTRS,
                                            (C.MQCA_Q_MGR_NAME, C.MQIACF_PS_STATUS_TYPE)),
    C.MQCMD_INQUIRE_CLUSTER_Q_MGR: _Inquiry("CLUSQMGR", "CLUSQMGR", C.MQCA_CLUSTER_Q_MGR_NAME,
                                            C.MQIACF_CLUSTER_Q_MGR_ATTRS,
                                            (C.MQCA_CLUSTER_Q_MGR_NAME, C.MQCACH_CHANNEL_NAME, C.MQCA_CLUSTER_NAME)),
}
_PS_STATUS_TYPES = {C.MQPSST_ALL: "ALL", C.MQPSST_LOCAL: "LOCAL", C.MQPSST_PARENT: "PARENT",
                    C.MQPSST_CHILD: "CHILD"}
_TOPIC_STATUS_TYPES = {C.MQIACF_TOPIC_STATUS: "TOPIC", C.MQIACF_TOPIC_SUB: "SUB", C.MQIACF_TOPIC_PUB: "PUB"}
# INQUIRE_*_NAMES: the DISPLAY it runs and the response's list parameter.
_NAMES: dict[int, tuple[int, str, int, int]] = {
    C.MQCMD_INQUIRE_Q_NAMES: (C.MQCMD_INQUIRE_Q, "QUEUE", C.MQCA_Q_NAME, C.MQCACF_Q_NAMES),
    C.MQCMD_INQUIRE_CHANNEL_NAMES: (C.MQCMD_INQUIRE_CHANNEL, "CHANNEL", C.MQCACH_CHANNEL_NAME, C.MQCACH_CHANNEL_NAMES),
    C.MQCMD_INQUIRE_TOPIC_NAMES: (C.MQCMD_INQUIRE_TOPIC, "TOPIC", C.MQCA_TOPIC_NAME, C.MQCACF_TOPIC_NAMES),
    C.MQCMD_INQUIRE_NAMELIST_NAMES: (C.MQCMD_INQUIRE_NAMELIST, "NAMELIST", C.MQCA_NAMELIST_NAME,
                                     C.MQCACF_NAMELIST_NAMES),
}


def _display(command: int, request: Request) -> tuple[Command, _Inquiry, list[int] | None]:
    """An INQUIRE as DISPLAY ... ALL, its selection (None: all) and its WHERE from a filter."""
    inquiry = _INQUIRIES[command]
    name = request.string(inquiry.name, required=True) if inquiry.name else None
    options: dict[str, str] = {}
    if command == C.MQCMD_INQUIRE_Q:
        qtype = request.integer(C.MQIA_Q_TYPE)
        if qtype is not None:
            if qtype not in _Q_TYPES:
                raise ParameterError(C.MQRCCF_PARM_VALUE_ERROR, f"MQIA_Q_TYPE {qtype}", C.MQIA_Q_TYPE)
            options["TYPE"] = _Q_TYPES[qtype]
    if command == C.MQCMD_INQUIRE_Q_STATUS:
        status_type = request.integer(C.MQIACF_Q_STATUS_TYPE) or C.MQIACF_Q_STATUS
        if status_type not in (C.MQIACF_Q_STATUS, C.MQIACF_Q_HANDLE):
            raise ParameterError(C.MQRCCF_PARM_VALUE_ERROR, f"MQIACF_Q_STATUS_TYPE {status_type}",
                                 C.MQIACF_Q_STATUS_TYPE)
        options["TYPE"] = "QUEUE" if status_type == C.MQIACF_Q_STATUS else "HANDLE"
    if command in (C.MQCMD_INQUIRE_CHANNEL, C.MQCMD_INQUIRE_CHANNEL_STATUS):
        chltype = request.integer(C.MQIACH_CHANNEL_TYPE)
        if chltype is not None and chltype != C.MQCHT_ALL:
            token = next((t for t, n in _CHL_TOKENS.items() if n == chltype), None)
            if token is None:
                raise ParameterError(C.MQRCCF_CHANNEL_TYPE_ERROR, f"MQIACH_CHANNEL_TYPE {chltype}",
                                     C.MQIACH_CHANNEL_TYPE)
            options["CHLTYPE"] = token
        request.integer(C.MQIACH_CHANNEL_INSTANCE_TYPE)  # (current channels: what CHSTATUS shows)
    if command in (C.MQCMD_INQUIRE_SUBSCRIPTION, C.MQCMD_INQUIRE_SUB_STATUS):
        request.integer(C.MQIACF_SUB_TYPE)  # (USER subscriptions, what DISPLAY shows by default)
        request.integer(C.MQIACF_DURABLE_SUBSCRIPTION)
    if command == C.MQCMD_INQUIRE_TOPIC_STATUS:
        status_type = request.integer(C.MQIACF_TOPIC_STATUS_TYPE) or C.MQIACF_TOPIC_STATUS
        if status_type not in _TOPIC_STATUS_TYPES:
            raise ParameterError(C.MQRCCF_PARM_VALUE_ERROR, f"MQIACF_TOPIC_STATUS_TYPE {status_type}",
                                 C.MQIACF_TOPIC_STATUS_TYPE)
        options["TYPE"] = _TOPIC_STATUS_TYPES[status_type]
    if command == C.MQCMD_INQUIRE_CONNECTION:  # DISPLAY CONN(hex id, or * for an empty one) TYPE(...)
        wanted = request.take(C.MQBACF_GENERIC_CONNECTION_ID)
        if wanted is not None and not isinstance(wanted, bytes):
            raise MQError(pcf_table.parm_id_error(wanted), "MQBACF_GENERIC_CONNECTION_ID must be a byte string")
        name = wanted.hex().upper() if wanted and wanted.strip(b"\0") else "*"
        info = request.integer(C.MQIACF_CONN_INFO_TYPE) or C.MQIACF_CONN_INFO_CONN
        kinds = {C.MQIACF_CONN_INFO_CONN: "CONN", C.MQIACF_CONN_INFO_HANDLE: "HANDLE", C.MQIACF_CONN_INFO_ALL: "ALL"}
        if info not in kinds:
            raise ParameterError(C.MQRCCF_PARM_VALUE_ERROR, f"MQIACF_CONN_INFO_TYPE {info}", C.MQIACF_CONN_INFO_TYPE)
        options["TYPE"] = kinds[info]
    cluster: str | None = None
    if command == C.MQCMD_INQUIRE_PUBSUB_STATUS:
        ps_type = request.integer(C.MQIACF_PS_STATUS_TYPE)
        if ps_type is not None and ps_type not in _PS_STATUS_TYPES:
            raise ParameterError(C.MQRCCF_PARM_VALUE_ERROR, f"MQIACF_PS_STATUS_TYPE {ps_type}", C.MQIACF_PS_STATUS_TYPE)
        options["TYPE"] = _PS_STATUS_TYPES[C.MQPSST_ALL if ps_type is None else ps_type]
    if command == C.MQCMD_INQUIRE_CLUSTER_Q_MGR:
        cluster = request.string(C.MQCA_CLUSTER_NAME)
    selection = request.integers(inquiry.selection)
    if selection is not None and C.MQIACF_ALL in selection:
        selection = None
    filters = request.filters()
    where = _where(inquiry.family, filters)
    if selection is not None and filters and filters[0][0] not in selection:
        selection = [*selection, filters[0][0]]  # the attribute filtered on is answered too, as DISPLAY WHERE shows it
    if cluster and cluster != "*":  # (DISPLAY CLUSQMGR takes no CLUSTER: its WHERE, the filter's place)
        if where is not None:
            raise MQError(C.MQRCCF_TOO_MANY_FILTERS, "MQCA_CLUSTER_NAME and a filter")
        where = Where("CLUSTER", "LK" if cluster.endswith("*") else "EQ", cluster)
    request.done()
    flags = frozenset({"ALL"})
    display = mqsc_command("DISPLAY", inquiry.noun, name, flags=flags, options=options, where=where)
    return display, inquiry, selection


def _where(family: str, filters: list[tuple[int, Value]]) -> Where | None:
    if not filters:
        return None
    if len(filters) > 1:
        raise MQError(C.MQRCCF_TOO_MANY_FILTERS, "one filter a command")
    parameter, value = filters[0]
    assert isinstance(value, pcf.IntegerFilter | pcf.StringFilter | pcf.ByteStringFilter)
    keyword = pcf_table.keyword_of(family, parameter)
    integer = isinstance(value, pcf.IntegerFilter)
    if keyword is None:
        raise ParameterError(C.MQRCCF_CFIF_PARM_ID_ERROR if integer else C.MQRCCF_CFSF_PARM_ID_ERROR,
                             f"parameter {parameter} cannot be filtered on", parameter)
    op = _OPERATORS.get(value.operator)
    if op is None:
        raise ParameterError(C.MQRCCF_CFIF_OPERATOR_ERROR if integer else C.MQRCCF_CFSF_OPERATOR_ERROR,
                             f"filter operator {value.operator}", parameter)
    shown = value.value.hex().upper() if isinstance(value.value, bytes) else str(value.value)
    if isinstance(value, pcf.IntegerFilter):
        spec = attributes.spec("QLOCAL" if family == "QUEUE" else family, keyword) \
            if family in (*attributes.OBJECT_TYPES, "QUEUE") else None
        extra = pcf_table.EXTRAS.get(family, {}).get(keyword)
        tokens = spec.tokens if spec is not None else (extra[1] if extra and not isinstance(extra[1], str) else {})
        shown = next((t for t, n in tokens.items() if n == value.value), shown)
        if spec is not None and spec.kind is attributes.Kind.FLAG:
            shown = "YES" if value.value else "NO"
    return Where(keyword, op, shown)


def request_command(command: int, parameters: Params) -> Command:
    """The MQSC command a PCF request means (for requests that are one command); MQError with
    IBM's reason when the request is not well formed."""
    request = Request(parameters)
    if command in _INQUIRIES:
        return _display(command, request)[0]
    if command in (C.MQCMD_CREATE_Q, C.MQCMD_CHANGE_Q, C.MQCMD_COPY_Q):
        return _define_queue(command, request, None)
    if command == C.MQCMD_RESET_Q_STATS:
        name = request.string(C.MQCA_Q_NAME, required=True)
        request.done()
        return mqsc_command("RESET", "QSTATS", name)
    raise MQError(C.MQRCCF_CFH_COMMAND_ERROR, f"command {command} is not one MQSC command")


def _define_queue(command: int, request: Request, qtype: str | None) -> Command:
    if command == C.MQCMD_COPY_Q:
        like = request.string(C.MQCACF_FROM_Q_NAME, required=True)
        name = request.string(C.MQCACF_TO_Q_NAME, required=True)
    else:
        like, name = None, request.string(C.MQCA_Q_NAME, required=True)
    number = request.integer(C.MQIA_Q_TYPE)
    if number is not None:
        qtype = _Q_TYPES.get(number)
        if qtype in (None, "ALL", "QCLUSTER"):
            raise ParameterError(C.MQRCCF_Q_TYPE_ERROR, f"MQIA_Q_TYPE {number}", C.MQIA_Q_TYPE)
    if qtype is None:
        raise MQError(C.MQRCCF_PARM_COUNT_TOO_SMALL, "MQIA_Q_TYPE is required")
    flags: set[str] = set()
    replace = request.integer(C.MQIACF_REPLACE)
    if replace == C.MQRP_YES and command != C.MQCMD_CHANGE_Q:
        flags.add("REPLACE")
    force = request.integer(C.MQIACF_FORCE)
    if force == 1 and command == C.MQCMD_CHANGE_Q:
        flags.add("FORCE")
    attrs: dict[str, Any] = {}
    for parameter, value in request.left:
        keyword, converted = pcf_table.to_mqsc(qtype, parameter, value)
        attrs[keyword] = converted
    request.left = []
    verb = "ALTER" if command == C.MQCMD_CHANGE_Q else "DEFINE"
    assert name is not None
    return mqsc_command(verb, qtype, name, attrs, frozenset(flags), {"LIKE": like} if like else None)


# -- running -------------------------------------------------------------------------------------
class _Recorder:
    """The admin API, passed through; remembers the MQError it raised last (its reason is the
    response's, where runmqsc's message says less)."""

    def __init__(self, admin: AdminAPI) -> None:
        self._admin = admin
        self.error: MQError | None = None

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._admin, name)
        if not callable(attr):
            return attr

        def call(*args: Any, **kwargs: Any) -> Any:
            try:
                return attr(*args, **kwargs)
            except MQError as error:
                self.error = error
                raise
        return call


def run_lines(admin: AdminAPI, command: Command) -> list[str]:
    """The command's output lines through the one executor; MQError with the reason it failed."""
    recorder = _Recorder(admin)
    outcome = run_command(recorder, command)
    if outcome.status is Status.OK:
        return outcome.lines
    if recorder.error is not None:
        raise MQError(recorder.error.reason, recorder.error.text)
    raise error_of(outcome.lines, outcome.status is Status.SYNTAX)


def error_of(lines: list[str], syntax: bool = False) -> MQError:
    """The reason runmqsc's messages of a failed command give (its first error message's)."""
    for line in lines:
        for message, reason in _NOT_FOUND.items():
            if line.startswith(message):
                return MQError(reason, line)
        found = re.search(r"\((\d{4})\) has occurred", line)
        if found:
            return MQError(int(found[1]), line)
    return MQError(C.MQRCCF_PARM_SYNTAX_ERROR if syntax else C.MQRCCF_COMMAND_FAILED, " ".join(lines))


def parse_records(lines: list[str]) -> list[tuple[dict[str, str], set[str]]]:
    """DISPLAY output as records: each ``KEYWORD(value)`` (parentheses nest) and each bare
    keyword (SHARE, NOTRIGGER) of the lines after each AMQ....I header."""
    records: list[tuple[dict[str, str], set[str]]] = []
    for line in _joined(lines):
        if _HEADER.match(line):
            records.append(({}, set()))
            continue
        if not records or not line.startswith(" "):
            continue
        row, flags = records[-1]
        i, n = 0, len(line)
        while i < n:
            if line[i] == " ":
                i += 1
                continue
            start = i
            while i < n and (line[i].isalnum() or line[i] == "_"):
                i += 1
            keyword = line[start:i]
            if i < n and line[i] == "(":
                depth, j = 1, i + 1
                while j < n and depth:
                    depth += {"(": 1, ")": -1}.get(line[j], 0)
                    j += 1
                row[keyword] = line[i + 1:j - 1] if depth == 0 else line[i + 1:]
                i = j
            elif keyword:
                flags.add(keyword)
            else:
                i += 1
    return records


def _joined(lines: list[str]) -> list[str]:
    """The lines with a value that runs on (a namelist's NAMES, one name a line) made one."""
    out: list[str] = []
    for line in lines:
        if out and line.lstrip().startswith(",") and out[-1].count("(") > out[-1].count(")"):
            out[-1] += line.strip()
        else:
            out.append(line)
    return out


def execute(admin: AdminAPI, command: int, parameters: Params) -> Reply:
    """Run one PCF command as the MQSC command that means the same."""
    try:
        return _execute(admin, command, Request(parameters))
    except MQError as error:
        return failure(error)


def failure(error: MQError) -> Reply:
    """The reply of a command that failed: IBM's reason, and the parameter at fault where known."""
    details: Params = [(C.MQIACF_PARAMETER_ID, error.parameter)] if isinstance(error, ParameterError) else []
    return Reply([], C.MQCC_FAILED, error.reason, details)


def _execute(admin: AdminAPI, command: int, request: Request) -> Reply:
    if command == C.MQCMD_PING_Q_MGR:  # the command server is there: that is all it asks
        request.done()
        return Reply()
    if command in _INQUIRIES:
        display, inquiry, selection = _display(command, request)
        return Reply(_objects(inquiry, display_records(admin, display, inquiry.family), selection))
    if command in _NAMES:
        inquire, family, name_parameter, list_parameter = _NAMES[command]
        display, inquiry, _ = _display(inquire, request)
        objects = _objects(inquiry, display_records(admin, display, inquiry.family), [name_parameter])
        names = [str(dict(o).get(name_parameter, "")) for o in objects]
        result: Params = [(list_parameter, names)]
        if family == "QUEUE":
            types = [dict(o).get(C.MQIA_Q_TYPE, 0) for o in objects]
            result.append((C.MQIACF_Q_TYPES, [t if isinstance(t, int) else 0 for t in types]))
        return Reply([result])
    if command in (C.MQCMD_CREATE_Q, C.MQCMD_CHANGE_Q, C.MQCMD_COPY_Q, C.MQCMD_DELETE_Q):
        return _queue_change(admin, command, request)
    if command in _SIMPLE:
        return _SIMPLE[command](admin, request)
    raise MQError(C.MQRCCF_CFH_COMMAND_ERROR, f"command {command} is not served")


def _objects(inquiry: _Inquiry, objects: list[Params], selection: list[int] | None) -> list[Params]:
    if selection is None:
        return objects
    wanted = {*selection, *inquiry.identity}
    return [[(p, v) for p, v in params if p in wanted] for params in objects]


def display_records(admin: AdminAPI, command: Command, family: str) -> list[Params]:
    """A DISPLAY's records as PCF parameters: the records the executor chose, kept as they are
    (``display.capture``) rather than printed and read back."""
    with display.capture() as records:
        run_lines(admin, command)
    return [pcf_table.record_to_pcf(family, record) for record in records]


def _queue_type(admin: AdminAPI, name: str) -> str:
    for row, _ in parse_records(run_lines(admin, mqsc_command("DISPLAY", "QUEUE", name, {"TYPE": True}))):
        if row.get("TYPE") in attributes.QUEUE_TYPES:
            return row["TYPE"]
    raise MQError(C.MQRC_UNKNOWN_OBJECT_NAME, f"queue {name} not found")


def _queue_change(admin: AdminAPI, command: int, request: Request) -> Reply:
    if command == C.MQCMD_DELETE_Q:
        name = request.string(C.MQCA_Q_NAME, required=True)
        assert name is not None
        number = request.integer(C.MQIA_Q_TYPE)
        purge = request.integer(C.MQIACF_PURGE) == C.MQPO_YES
        request.done()
        qtype = _Q_TYPES.get(number) if number is not None else _queue_type(admin, name)
        if qtype in (None, "ALL", "QCLUSTER"):
            raise MQError(C.MQRCCF_Q_TYPE_ERROR, f"MQIA_Q_TYPE {number}")
        assert qtype is not None
        run_lines(admin, mqsc_command("DELETE", qtype, name, flags=frozenset({"PURGE"}) if purge else frozenset()))
        return Reply()
    known: str | None = None
    if command == C.MQCMD_CHANGE_Q and not any(p == C.MQIA_Q_TYPE for p, _ in request.left):
        named = next((v for p, v in request.left if p == C.MQCA_Q_NAME), None)
        known = _queue_type(admin, named.strip()) if isinstance(named, str) else None
    run_lines(admin, _define_queue(command, request, known))
    return Reply()


def _reset_q_stats(admin: AdminAPI, request: Request) -> Reply:
    name = request.string(C.MQCA_Q_NAME, required=True)
    request.done()
    lines = run_lines(admin, mqsc_command("RESET", "QSTATS", name))
    objects = []
    for row, _ in parse_records(lines):
        params: Params = [(C.MQCA_Q_NAME, row.get("QUEUE", ""))]
        for keyword, parameter in (("ENQCOUNT", C.MQIA_MSG_ENQ_COUNT), ("DEQCOUNT", C.MQIA_MSG_DEQ_COUNT),
                                   ("HIQDEPTH", C.MQIA_HIGH_Q_DEPTH), ("RESETINT", C.MQIA_TIME_SINCE_RESET)):
            if row.get(keyword, "").isdigit():
                params.append((parameter, int(row[keyword])))
        objects.append(params)
    return Reply(objects)


def _reset_q_mgr(admin: AdminAPI, request: Request) -> Reply:
    """RESET_Q_MGR: Action MQACT_COLLECT_STATISTICS is RESET QMGR TYPE(STATISTICS); any other
    action (ADVANCE_LOG, PUBSUB, or none IBM knows) is MQRCCF_ACTION_VALUE_ERROR here."""
    action = request.integer(C.MQIACF_ACTION)
    if action is None:
        raise MQError(C.MQRCCF_PARM_COUNT_TOO_SMALL, "Action (MQIACF_ACTION) is required")
    if action != C.MQACT_COLLECT_STATISTICS:
        raise MQError(C.MQRCCF_ACTION_VALUE_ERROR, f"Action {action} is not supported")
    request.done()
    run_lines(admin, mqsc_command("RESET", "QMGR", None, options={"TYPE": "STATISTICS"}))
    return Reply()


_SIMPLE: dict[int, Callable[[AdminAPI, Request], Reply]] = {C.MQCMD_RESET_Q_STATS: _reset_q_stats,
                                                            C.MQCMD_RESET_Q_MGR: _reset_q_mgr}


# -- responses ------------------------------------------------------------------------------------
def responses(request: pcf.MQCFH, reply: Reply) -> list[pcf.PcfMessage]:
    """The response messages of ``reply`` to a request with header ``request``."""
    xr = request.Type == C.MQCFT_COMMAND_XR
    version = request.Version if xr and 1 <= request.Version <= C.MQCFH_CURRENT_VERSION else C.MQCFH_VERSION_1
    bodies: list[tuple[int, int, int, Params]] = [
        (C.MQCFT_XR_ITEM if xr else C.MQCFT_RESPONSE, C.MQCC_OK, C.MQRC_NONE, params) for params in reply.objects]
    if xr:
        bodies.append((C.MQCFT_XR_SUMMARY, reply.comp_code, reply.reason, reply.error_parameters))
    elif reply.comp_code != C.MQCC_OK or not bodies:
        bodies.append((C.MQCFT_RESPONSE, reply.comp_code, reply.reason, reply.error_parameters))
    out = []
    for seq, (kind, comp_code, reason, params) in enumerate(bodies, start=1):
        control = C.MQCFC_LAST if seq == len(bodies) else C.MQCFC_NOT_LAST
        header = pcf.MQCFH(Type=kind, Command=request.Command, Version=version, MsgSeqNumber=seq, Control=control,
                           CompCode=comp_code, Reason=reason, ParameterCount=len(params))
        out.append(pcf.PcfMessage(header, list(params)))
    return out


def error_response(request: pcf.MQCFH | None, reason: int, parameter: int | None = None) -> list[pcf.PcfMessage]:
    """The answer to a request that is not a well-formed PCF command (``parameter``: the one
    whose structure is wrong, MQIACF_PARAMETER_ID in the answer)."""
    header = request or pcf.MQCFH(Type=C.MQCFT_COMMAND, Command=C.MQCMD_NONE)
    if header.Type not in pcf.REQUEST_TYPES:
        header = pcf.MQCFH(Type=C.MQCFT_COMMAND, Command=header.Command)
    details: Params = [(C.MQIACF_PARAMETER_ID, parameter)] if parameter is not None else []
    return responses(header, Reply([], C.MQCC_FAILED, reason, details))
