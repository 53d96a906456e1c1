"""Creating, changing and deleting objects through the administrative REST API (IBM's
``POST .../qmgr/{qm}/queue``, ``PATCH`` and ``DELETE .../queue/{name}``, and the same for
subscriptions). Channels have GET only in IBM's API: their other methods are its 405.

Each request becomes one MQSC command (``object_body`` builds it) run as the caller through the
client (``access.connected``), so the queue manager's authority checks and its configuration
events are those of any DEFINE, ALTER or DELETE. A refused command keeps its MQ reason in IBM's
error body: 2035 is 403, an object that is not there 404, anything else 400.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import quote as url_quote

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from mqlite.client.pymqi_api import QueueManager
from mqlite.web import access, mqsc_text, object_body
from mqlite.web.admin import BASE, free_name, json_body, object_name, run_display
from mqlite.web.errors import MQRC_UNKNOWN_OBJECT_NAME, RestError, refuse, refused_command
from mqlite.web.object_body import BodyError
from mqlite.web.security import caller_of

MQRCCF_COMMAND_FAILED = 3008
_FLAG_TRUE = {"", "true", "yes"}


def run_change(qm: QueueManager, command: str, qmgr: str, user: str, name: str) -> None:
    """Run one DEFINE, ALTER or DELETE; RestError (with the queue manager's reason) if refused."""
    code, lines = qm.mqsc(command + "\n")
    out = mqsc_text.parse(lines, code)
    if not out.errors:
        return
    reason = object_body.refused_reason(out.errors, out.reason or MQRCCF_COMMAND_FAILED)
    raise refused_command(reason, qmgr, name, command, out.errors[0])


def flag(request: Request, key: str) -> bool:
    """IBM's flag query parameters (``?purge``, ``?noReplace``): present means set; true/false too."""
    value = request.query_params.get(key)
    if value is None:
        return False
    if value.lower() in _FLAG_TRUE:
        return True
    if value.lower() in ("false", "no"):
        return False
    raise refuse("bad_query", key, value)


async def _body(request: Request) -> dict[str, Any]:
    return await json_body(request)


def _bad(error: BodyError) -> RestError:
    return refuse("bad_body", detail=str(error))


def _queue_type(qm: QueueManager, name: str, qmgr: str, user: str) -> str:
    records = run_display(qm, f"DISPLAY QUEUE({mqsc_text.quote(name, True)}) TYPE", qmgr, user,
                          missing_ok=False, name=name)
    if not records:
        raise refuse("queue_unknown", name, MQRC_UNKNOWN_OBJECT_NAME, "MQRC_UNKNOWN_OBJECT_NAME",
                     reason=MQRC_UNKNOWN_OBJECT_NAME)
    return records[0].get("TYPE", "QLOCAL")


async def _changed(request: Request, work: Callable[[QueueManager, str, str], None]) -> Response:
    """A PATCH or DELETE: ``work(qm, qmgr, user)`` on the caller's connection, off the event loop; 204."""
    caller = caller_of(request)
    qmgr = request.path_params["qmgr"]

    def run() -> None:
        with access.connected(qmgr, caller) as qm:
            work(qm, qmgr, caller.user)

    await run_in_threadpool(run)
    return Response(status_code=204)


async def _create(request: Request, resource: str, check: Callable[[str, str], str],
                  define: Callable[[dict[str, Any], str | None, bool], tuple[str, str]]) -> Response:
    """POST of a queue or subscription: one DEFINE (``like=`` copies, ``noReplace`` keeps an
    existing object), 201 with the new object's Location."""
    caller = caller_of(request)
    qmgr = request.path_params["qmgr"]
    like = request.query_params.get("like")
    if like is not None:
        check(like, "like")
    replace = not flag(request, "noReplace")
    body = await _body(request)
    try:
        name, command = define(body, like, replace)
    except BodyError as e:
        raise _bad(e) from None

    def run() -> None:
        with access.connected(qmgr, caller) as qm:
            run_change(qm, command, qmgr, caller.user, like or name)  # 2085 here: like's object is missing

    await run_in_threadpool(run)
    location = f"{BASE}/qmgr/{url_quote(qmgr, safe='')}/{resource}/{url_quote(name, safe='')}"
    return Response(status_code=201, headers={"Location": location})


async def create_queue(request: Request) -> Response:
    return await _create(request, "queue", object_name, object_body.define_queue)


async def change_queue(request: Request) -> Response:
    name = object_name(request.path_params["queue"], "queue")
    if "*" in name:
        raise refuse("bad_query", "queue", name)
    body = await _body(request)
    try:
        object_body.attributes(body, object_body.QUEUE, frozenset({"name", "type"}))  # refused before connecting
    except BodyError as e:
        raise _bad(e) from None

    def work(qm: QueueManager, qmgr: str, user: str) -> None:
        noun = _queue_type(qm, name, qmgr, user)
        try:
            command = object_body.alter_queue(name, noun, body)
        except BodyError as e:
            raise _bad(e) from None
        run_change(qm, command, qmgr, user, name)

    return await _changed(request, work)


async def delete_queue(request: Request) -> Response:
    name = object_name(request.path_params["queue"], "queue")
    if "*" in name:
        raise refuse("bad_query", "queue", name)
    purge, keep = flag(request, "purge"), flag(request, "keepAuthorityRecords")

    def work(qm: QueueManager, qmgr: str, user: str) -> None:
        noun = _queue_type(qm, name, qmgr, user)
        access.drop_queue_handles(qmgr, name, qm)  # the web server's own handles would hold it open
        run_change(qm, object_body.delete_queue(name, noun, purge, keep), qmgr, user, name)

    return await _changed(request, work)


async def create_subscription(request: Request) -> Response:
    return await _create(request, "subscription", free_name, object_body.define_sub)


async def change_subscription(request: Request) -> Response:
    name = free_name(request.path_params["sub"], "subscription")
    body = await _body(request)
    try:
        command = object_body.alter_sub(name, body)
    except BodyError as e:
        raise _bad(e) from None
    return await _changed(request, lambda qm, qmgr, user: run_change(qm, command, qmgr, user, name))


async def delete_subscription(request: Request) -> Response:
    name = free_name(request.path_params["sub"], "subscription")
    command = f"DELETE SUB({mqsc_text.quote(name, True)})"
    return await _changed(request, lambda qm, qmgr, user: run_change(qm, command, qmgr, user, name))
