"""The administrative REST API (IBM's v2 ``/ibmmq/rest/v2/admin/...``): the installation, queue
managers, queues, subscriptions and channels (GET), and MQSC (``POST .../action/qmgr/{qm}/mqsc``
with ``runCommand`` or ``runCommandJSON``).

Each request runs DISPLAY (or the caller's command) through the client's MQSC path as the caller
(``access.connected``), so the queue manager's authority checks decide; the output is read back
by ``mqsc_text`` and shaped by ``shapes``. MQSC rather than PCF: DISPLAY's records are keyed by
the MQSC names the tables of ``shapes`` map, and runCommandJSON is MQSC by definition; both reach
the queue manager's one MQSC executor, as the command server's PCF does.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from mqlite import paths
from mqlite.client.pymqi_api import QueueManager
from mqlite.web import access, mqsc_text, shapes
from mqlite.web.access import Caller
from mqlite.web.errors import MQRC_NOT_AUTHORIZED, WRONG_PASSWORD, RestError, refuse, refused_command
from mqlite.web.security import caller_of, resource

BASE = "/ibmmq/rest/v2/admin"
MQRCCF_COMMAND_FAILED = 3008
# the patterns the OpenAPI document gives (openapi.py)
NAME_PATTERN = r"[A-Za-z0-9._/%*]{1,48}"
FREE_NAME_PATTERN = r"[^\x00-\x1f\x7f]{1,10240}"
KEYWORD_PATTERN = r"[A-Za-z][A-Za-z0-9]{0,31}"
COMMAND_PATTERN = r"[^\x00-\x1f\x7f]*[^\x00-\x20\x7f][^\x00-\x1f\x7f]*"
_NAME = re.compile(NAME_PATTERN)
_FREE_NAME = re.compile(FREE_NAME_PATTERN)
_KEYWORD = re.compile(KEYWORD_PATTERN)
_QUEUE_TYPES = {"all": "QUEUE", "local": "QLOCAL", "alias": "QALIAS", "remote": "QREMOTE", "model": "QMODEL"}


def object_name(value: str, what: str = "name") -> str:
    """An object name from a URL or query: IBM's characters (and * for generic), at most 48."""
    if not _NAME.fullmatch(value):
        raise refuse("bad_query", what, value)
    return value


def free_name(value: str, what: str = "name") -> str:
    """A subscription name: any characters but control characters."""
    if not _FREE_NAME.fullmatch(value):
        raise refuse("bad_query", what, value)
    return value


def query_selection(request: Request, key: str) -> list[str]:
    try:
        return shapes.selection(request.query_params.get(key))
    except ValueError as e:
        raise refuse("bad_query", key, str(e)) from None


def run_display(qm: QueueManager, command: str, qmgr: str, user: str, missing_ok: bool = True,
                name: str = "") -> list[dict[str, str]]:
    """A DISPLAY's records; none when nothing matched (``missing_ok``), else RestError."""
    code, lines = qm.mqsc(command + "\n")
    out = mqsc_text.parse(lines, code)
    if out.errors:
        if out.not_found and missing_ok:
            return []
        raise refused_command(out.reason or MQRCCF_COMMAND_FAILED, qmgr, name, command, out.errors[0],
                              out.not_found and out.reason != MQRC_NOT_AUTHORIZED)
    return out.records


async def _caller_anywhere(request: Request) -> Caller:
    caller = caller_of(request)
    if not await run_in_threadpool(access.authenticated_anywhere, caller):
        raise refuse("not_authenticated", detail=WRONG_PASSWORD)
    return caller


async def installation(request: Request) -> Response:
    await _caller_anywhere(request)
    return JSONResponse({"installation": [{
        "name": "Installation1",
        "version": _version(),
        "installationPath": str(paths.home()),
        "dataPath": str(paths.home()),
        "platform": "unix",
        "product": "mqlite",
    }]})


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("mqlite")
    except PackageNotFoundError:
        return ""


def _qmgr_object(name: str, caller: Caller, attributes: list[str], status: list[str],
                 connect: bool) -> dict[str, Any]:
    running = access.running(name)
    if not running or not (attributes or status) or not connect:
        return shapes.qmgr(name, running, None, None, attributes if running else [], status)
    with access.connected(name, caller) as qm:
        record = run_display(qm, "DISPLAY QMGR ALL", name, caller.user)[:1] if attributes else []
        state = run_display(qm, "DISPLAY QMSTATUS ALL", name, caller.user)[:1] if status else []
    return shapes.qmgr(name, True, record[0] if record else {}, state[0] if state else None, attributes, status)


async def qmgr_list(request: Request) -> Response:
    caller = await _caller_anywhere(request)
    attributes, status = query_selection(request, "attributes"), query_selection(request, "status")
    pattern = object_name(request.query_params.get("name", "*"))

    def collect() -> list[dict[str, Any]]:
        found = []
        for name in access.qmgr_names():
            if not _matches(pattern, name):
                continue
            try:
                found.append(_qmgr_object(name, caller, attributes, status, connect=True))
            except RestError as e:
                if e.status == 400:
                    raise
                found.append(shapes.qmgr(name, access.running(name), None, None, [], []))
        return found

    return await _listed("qmgr", collect)


async def qmgr_one(request: Request) -> Response:
    caller = caller_of(request)
    name = request.path_params["qmgr"]
    if not access.exists(name):
        raise refuse("qmgr_unknown", name, reason=2058)
    if not await run_in_threadpool(access.password_valid, name, caller):
        raise refuse("not_authenticated", detail=WRONG_PASSWORD)
    attributes, status = query_selection(request, "attributes"), query_selection(request, "status")
    try:
        shaped = await run_in_threadpool(_qmgr_object, name, caller, attributes, status, True)
    except ValueError as e:
        raise refuse("bad_query", "attributes", str(e)) from None
    return JSONResponse({"qmgr": [shaped]})


def _matches(pattern: str, name: str) -> bool:
    """MQSC's generic names: a trailing * (and IBM's REST also takes * anywhere)."""
    regex = "".join(".*" if c == "*" else re.escape(c) for c in pattern)
    return re.fullmatch(regex, name) is not None


async def queues(request: Request) -> Response:
    caller = caller_of(request)
    qmgr = request.path_params["qmgr"]
    single = "queue" in request.path_params
    name = object_name(request.path_params.get("queue") or request.query_params.get("name", "*"))
    qtype = request.query_params.get("type", "all").lower()
    if qtype not in _QUEUE_TYPES:
        raise refuse("bad_query", "type", qtype)
    attributes, status = query_selection(request, "attributes"), query_selection(request, "status")

    def collect() -> list[dict[str, Any]]:
        with access.connected(qmgr, caller) as qm:
            records = run_display(qm, f"DISPLAY {_QUEUE_TYPES[qtype]}({mqsc_text.quote(name, True)}) ALL", qmgr,
                                  caller.user, missing_ok=not single, name=name)
            states: dict[str, dict[str, str]] = {}
            if status and any(r.get("TYPE") == "QLOCAL" for r in records):
                for row in run_display(qm, f"DISPLAY QSTATUS({mqsc_text.quote(name, True)}) ALL", qmgr, caller.user):
                    states[row.get("QUEUE", "")] = row
        return [shapes.queue(r, states.get(r.get("QUEUE", "")), attributes, status) for r in records]

    return await _listed("queue", collect)


async def subscriptions(request: Request) -> Response:
    caller = caller_of(request)
    qmgr = request.path_params["qmgr"]
    single = "sub" in request.path_params
    name = free_name(request.path_params.get("sub") or request.query_params.get("name", "*"))
    attributes = query_selection(request, "attributes")

    def collect() -> list[dict[str, Any]]:
        with access.connected(qmgr, caller) as qm:
            records = run_display(qm, f"DISPLAY SUB({mqsc_text.quote(name, True)}) ALL", qmgr, caller.user,
                                  missing_ok=not single, name=name)
        return [shapes.subscription(r, attributes) for r in records]

    return await _listed("subscription", collect)


async def channels(request: Request) -> Response:
    caller = caller_of(request)
    qmgr = request.path_params["qmgr"]
    single = "channel" in request.path_params
    name = object_name(request.path_params.get("channel") or request.query_params.get("name", "*"))
    attributes, status = query_selection(request, "attributes"), query_selection(request, "status")

    def collect() -> list[dict[str, Any]]:
        with access.connected(qmgr, caller) as qm:
            records = run_display(qm, f"DISPLAY CHANNEL({mqsc_text.quote(name, True)}) ALL", qmgr, caller.user,
                                  missing_ok=not single, name=name)
            rows: list[dict[str, str]] = []
            if status and records:
                rows = run_display(qm, f"DISPLAY CHSTATUS({mqsc_text.quote(name, True)}) ALL", qmgr, caller.user)
        return [shapes.channel(r, [row for row in rows if row.get("CHANNEL") == r.get("CHANNEL")], attributes,
                               status) for r in records]

    return await _listed("channel", collect)


async def json_body(request: Request) -> dict[str, Any]:
    """The request's JSON object; 415 for another media type, 400 for a malformed body."""
    media = request.headers.get("content-type", "application/json").split(";")[0].strip().lower()
    if media != "application/json":
        raise refuse("unsupported_media", detail=f"It is {media}")
    raw = await request.body()
    try:
        body = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as e:
        raise refuse("bad_body", detail=f"not JSON ({e})") from None
    if not isinstance(body, dict):
        raise refuse("bad_body", detail="the body must be a JSON object")
    return body


def command_text(body: dict[str, Any]) -> tuple[str, bool]:
    """The MQSC command a request body asks for, and whether the response is JSON."""
    kind = body.get("type")
    if kind == "runCommand":
        parameters = body.get("parameters")
        command = parameters.get("command") if isinstance(parameters, dict) else None
        if not isinstance(command, str) or not re.fullmatch(COMMAND_PATTERN, command):
            raise refuse("bad_body", detail="runCommand needs parameters.command, one MQSC command")
        return command.strip(), False
    if kind == "runCommandJSON":
        return json_command(body), True
    raise refuse("bad_body", detail="type must be runCommand or runCommandJSON")


def json_command(body: dict[str, Any]) -> str:
    """runCommandJSON's fields as one MQSC command (IBM's rules: command, qualifier, name,
    parameters as KEYWORD(value), responseParameters as the DISPLAY's attribute list)."""
    command, qualifier = body.get("command"), body.get("qualifier")
    if not isinstance(command, str) or not _KEYWORD.fullmatch(command):
        raise refuse("bad_body", detail="runCommandJSON needs a command (display, define, ...)")
    if not isinstance(qualifier, str) or not _KEYWORD.fullmatch(qualifier):
        raise refuse("bad_body", detail="runCommandJSON needs a qualifier (qlocal, channel, ...)")
    text = f"{command.upper()} {qualifier.upper()}"
    name = body.get("name")
    if name is not None:
        if not isinstance(name, str):
            raise refuse("bad_body", detail="name must be a string")
        text += f"({mqsc_text.quote(free_name(name), True)})"
    parameters = body.get("parameters", {})
    if not isinstance(parameters, dict):
        raise refuse("bad_body", detail="parameters must be a JSON object")
    for key, value in parameters.items():
        if not _KEYWORD.fullmatch(key):
            raise refuse("bad_body", detail=f"parameter name {key!r}")
        text += " " + _parameter(key.upper(), value)
    response = body.get("responseParameters")
    if response is not None:
        if not isinstance(response, list) or not all(isinstance(r, str) and _KEYWORD.fullmatch(r) for r in response):
            raise refuse("bad_body", detail="responseParameters must be a list of attribute names")
        text += " " + " ".join(r.upper() for r in response)
    elif command.upper() == "DISPLAY":
        text += " ALL"
    return text


def _parameter(key: str, value: Any) -> str:
    always = key in mqsc_text.STRING_ATTRIBUTES
    if isinstance(value, bool):
        return f"{key}({'YES' if value else 'NO'})"
    if isinstance(value, int):
        return f"{key}({value})"
    if isinstance(value, str):
        if not re.fullmatch(r"[^\x00-\x1f\x7f]*", value):
            raise refuse("bad_body", detail=f"parameter {key.lower()} holds a control character")
        return f"{key}({mqsc_text.quote(value, always)})"
    if isinstance(value, list) and all(isinstance(v, str | int) and not isinstance(v, bool) for v in value):
        return f"{key}(" + ",".join(mqsc_text.quote(str(v), always) for v in value) + ")"
    raise refuse("bad_body", detail=f"parameter {key.lower()} has a value MQSC cannot take")


def command_response(lines: list[str], code: int, as_json: bool) -> dict[str, Any]:
    """IBM's commandResponse for one command's output."""
    out = mqsc_text.parse(lines, code)
    failed = bool(out.errors)
    items: list[dict[str, Any]] = []
    if as_json and out.records:
        for record in out.records:
            items.append({"completionCode": 0, "reasonCode": 0,
                          "parameters": {k.lower(): shapes.integer(v) for k, v in record.items()}})
    elif as_json:
        items.append({"completionCode": 2 if failed else 0, "reasonCode": out.reason,
                      "message": out.text})
    else:
        items.append({"completionCode": 2 if failed else 0, "reasonCode": out.reason, "text": out.text})
    if as_json and out.records and failed:
        items.append({"completionCode": 2, "reasonCode": out.reason, "message": out.errors})
    return {"commandResponse": items,
            "overallCompletionCode": 2 if failed else 0,
            "overallReasonCode": MQRCCF_COMMAND_FAILED if failed else 0}


async def mqsc(request: Request) -> Response:
    caller = caller_of(request)
    qmgr = request.path_params["qmgr"]
    command, as_json = command_text(await json_body(request))

    def run() -> tuple[int, list[str]]:
        if command.split(None, 1)[0].upper() in ("DELETE", "CLEAR"):
            access.drop_queue_handles(qmgr)  # the web server's idle handles would hold a queue open
        with access.connected(qmgr, caller) as qm:
            return qm.mqsc(command + "\n")

    code, lines = await run_in_threadpool(run)
    return JSONResponse(command_response(lines, code, as_json))


Handler = Callable[[Request], Awaitable[Response]]


def routes(more: dict[str, dict[str, Handler]] | None = None) -> list[BaseRoute]:
    """The administrative routes; ``more``: other methods of these paths (``objects``' POST,
    PATCH and DELETE, keyed by the path after ``/qmgr/{qmgr}``), served by one route a path so a
    405 names every method."""
    q = f"{BASE}/qmgr/{{qmgr}}"
    extra = more or {}
    get_routes: list[tuple[str, Handler]] = [
        ("/queue", queues), ("/queue/{queue}", queues), ("/subscription", subscriptions),
        ("/subscription/{sub}", subscriptions), ("/channel", channels), ("/channel/{channel}", channels)]
    return [
        Route(f"{BASE}/installation", installation, methods=["GET"]),
        Route(f"{BASE}/qmgr", qmgr_list, methods=["GET"]),
        Route(q, qmgr_one, methods=["GET"]),
        *(resource(q + tail, {"GET": handler, **extra.get(tail, {})}) for tail, handler in get_routes),
        Route(f"{BASE}/action/qmgr/{{qmgr}}/mqsc", mqsc, methods=["POST"]),
    ]


async def _listed(key: str, collect: Callable[[], list[dict[str, Any]]]) -> Response:
    """``{key: [objects]}`` from ``collect`` run in the thread pool; an attribute selection that
    names no attribute (``ValueError``) is 400 (``bad_query``)."""
    try:
        return JSONResponse({key: await run_in_threadpool(collect)})
    except ValueError as e:
        raise refuse("bad_query", "attributes", str(e)) from None
