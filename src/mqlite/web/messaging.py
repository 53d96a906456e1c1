"""The messaging REST API (IBM's v2 ``/ibmmq/rest/v2/messaging/...``): put (POST), destructive
get (DELETE, ``wait=`` in milliseconds, ``correlationId=``, ``messageId=``) and browse (GET) of text
messages on a queue, and publishing on a topic string. Every call runs as the caller
(``access.connected``), on a queue handle kept open with the caller's connection
(``access.with_queue``); the message is MQSTR in UTF-8 (CCSID 1208), as IBM's.

A get takes the message inside a unit of work: a message that is not text (Format not MQSTR, or
bytes that are not its character set) is backed out and left on the queue, as IBM's API leaves
incompatible messages, and answered with 501 MQWB0309E.
"""

from __future__ import annotations

import contextlib
import re
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from mqlite import cmqc
from mqlite.client import MQMIError
from mqlite.client.pubsub import Topic
from mqlite.client.pymqi_api import Queue
from mqlite.client.structs import GMO, MD
from mqlite.web import access, message_headers
from mqlite.web.admin import FREE_NAME_PATTERN, object_name
from mqlite.web.errors import MQRC_NO_MSG_AVAILABLE, RestError, refuse
from mqlite.web.message_headers import HeaderError
from mqlite.web.security import caller_of, resource

BASE = "/ibmmq/rest/v2/messaging/qmgr/{qmgr}"
MQFMT_STRING = b"MQSTR   "
UTF8 = 1208
# The open options of the handles kept between requests (``access.with_queue``). Input is shared
# rather than as the queue's DEFSOPT: a kept handle opened exclusively would lock every other
# consumer out of the queue while the connection is idle; no read-ahead, which would hold messages
# in an idle connection's buffer where no other consumer sees them.
PUT_OPTIONS = cmqc.MQOO_OUTPUT | cmqc.MQOO_FAIL_IF_QUIESCING
GET_OPTIONS = cmqc.MQOO_INPUT_SHARED | cmqc.MQOO_NO_READ_AHEAD | cmqc.MQOO_FAIL_IF_QUIESCING
BROWSE_OPTIONS = cmqc.MQOO_BROWSE | cmqc.MQOO_NO_READ_AHEAD | cmqc.MQOO_FAIL_IF_QUIESCING
_CCSIDS = {"utf-8": 1208, "utf8": 1208, "iso-8859-1": 819, "latin-1": 819, "us-ascii": 437}


def _bad_header(error: HeaderError) -> RestError:
    return refuse("bad_header", error.name, error.value)


async def _text_body(request: Request) -> tuple[bytes, int]:
    media = request.headers.get("content-type", "text/plain;charset=utf-8")
    charset = message_headers.charset(media)
    if charset is None:
        raise refuse("unsupported_media", detail=f"It is {media}")
    if charset not in _CCSIDS:
        raise refuse("bad_charset", charset)
    body = await request.body()
    try:
        body.decode(charset)
    except (UnicodeDecodeError, LookupError):
        raise refuse("body_not_charset", charset, detail=f"The body is not {charset}") from None
    return body, _CCSIDS[charset]


def _md_from_headers(request: Request, ccsid: int) -> MD:
    headers = {k.lower(): v for k, v in request.headers.items()}
    md = MD(Format=MQFMT_STRING, CodedCharSetId=ccsid)
    try:
        if found := message_headers.header(headers, "correlationId"):
            md.CorrelId = message_headers.parse_id(found[1], found[0])
        if found := message_headers.header(headers, "persistence"):
            md.Persistence = message_headers.parse_persistence(found[1], found[0])
        if found := message_headers.header(headers, "expiry"):
            md.Expiry = message_headers.parse_expiry(found[1], found[0])
        if found := message_headers.header(headers, "replyTo"):
            queue, qmgr = message_headers.parse_reply_to(found[1], found[0])
            md.ReplyToQ, md.ReplyToQMgr = queue.encode(), qmgr.encode()
    except HeaderError as e:
        raise _bad_header(e) from None
    return md


def _text(value: Any) -> str:
    return value.decode(errors="replace").strip() if isinstance(value, bytes) else str(value).strip()


def _response_headers(md: MD) -> dict[str, str]:
    headers = {
        "ibm-mq-md-messageId": message_headers.format_id(md.MsgId),
        "ibm-mq-md-correlationId": message_headers.format_id(md.CorrelId),
        "ibm-mq-md-persistence": message_headers.format_persistence(md.Persistence),
        "ibm-mq-md-expiry": message_headers.format_expiry(md.Expiry),
    }
    reply_to = message_headers.format_reply_to(_text(md.ReplyToQ), _text(md.ReplyToQMgr))
    if reply_to:
        headers["ibm-mq-md-replyTo"] = reply_to
    return headers


async def put(request: Request) -> Response:
    caller = caller_of(request)
    qmgr = request.path_params["qmgr"]
    queue_name = object_name(request.path_params["queue"], "queue")
    body, ccsid = await _text_body(request)
    md = _md_from_headers(request, ccsid)

    def run() -> MD:
        with access.connected(qmgr, caller) as qm:
            access.with_queue(qm, qmgr, queue_name, PUT_OPTIONS, lambda queue: queue.put(body, md))
        return md

    done = await run_in_threadpool(run)
    return Response(status_code=201, headers=_response_headers(done))


def _selectors(request: Request) -> dict[str, bytes]:
    chosen: dict[str, bytes] = {}
    try:
        for param, key in (("correlationId", "correl_id"), ("messageId", "msg_id")):
            value = request.query_params.get(param)
            if value is not None:
                chosen[key] = message_headers.parse_id(value, param)
    except HeaderError as e:
        raise refuse("bad_query", e.name, e.value) from None
    return chosen


async def get(request: Request) -> Response:
    """DELETE (destructive get) and GET (browse) of the first matching message."""
    caller = caller_of(request)
    qmgr = request.path_params["qmgr"]
    queue_name = object_name(request.path_params["queue"], "queue")
    destructive = request.method == "DELETE"
    try:
        wait_ms = message_headers.parse_wait(request.query_params.get("wait"))
    except HeaderError as e:
        raise refuse("bad_query", e.name, e.value) from None
    selectors = _selectors(request)

    def run() -> tuple[bytes, MD] | None:
        with access.connected(qmgr, caller) as qm:
            md = MD()
            gmo_options = cmqc.MQGMO_FAIL_IF_QUIESCING | (cmqc.MQGMO_SYNCPOINT if destructive
                                                           else cmqc.MQGMO_BROWSE_FIRST)

            def got(queue: Queue) -> Any:
                return queue.get(None, md, GMO(Options=gmo_options), wait=wait_ms / 1000.0 if wait_ms else None,
                                 msg_id=selectors.get("msg_id"), correl_id=selectors.get("correl_id"))

            try:
                body = access.with_queue(qm, qmgr, queue_name, GET_OPTIONS if destructive else BROWSE_OPTIONS,
                                         got)
            except MQMIError as e:
                if e.reason == MQRC_NO_MSG_AVAILABLE:
                    return None
                raise
            if not _is_text(bytes(body), md):
                if destructive:
                    qm.backout()
                raise refuse("not_text_message")
            if destructive:
                qm.commit()
            return bytes(body), md

    found = await run_in_threadpool(run)
    if found is None:
        return Response(status_code=204)
    body, md = found
    return Response(body, status_code=200, media_type="text/plain;charset=utf-8", headers=_response_headers(md))


def _is_text(body: bytes, md: MD) -> bool:
    if md.Format != MQFMT_STRING:
        return False
    encoding = {1208: "utf-8", 819: "latin-1", 437: "ascii"}.get(md.CodedCharSetId, "utf-8")
    try:
        body.decode(encoding)
    except UnicodeDecodeError:
        return False
    return True


async def publish(request: Request) -> Response:
    caller = caller_of(request)
    qmgr = request.path_params["qmgr"]
    topic_string = request.path_params["topic"]
    if not re.fullmatch(FREE_NAME_PATTERN, topic_string):
        raise refuse("bad_query", "topic", topic_string)
    body, ccsid = await _text_body(request)
    md = _md_from_headers(request, ccsid)

    def run() -> None:
        with access.connected(qmgr, caller) as qm:
            topic = Topic(qm, topic_string=topic_string)
            try:
                topic.pub(body, md)
            finally:
                with contextlib.suppress(MQMIError, OSError, AttributeError):
                    topic.close()

    await run_in_threadpool(run)
    return Response(status_code=201, headers=_response_headers(md))


def routes() -> list[BaseRoute]:
    return [
        resource(f"{BASE}/queue/{{queue}}/message", {"POST": put, "GET": get, "DELETE": get}),
        Route(f"{BASE}/topic/{{topic:path}}/message", publish, methods=["POST"]),
    ]
