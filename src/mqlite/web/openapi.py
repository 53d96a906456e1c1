"""The OpenAPI 3.1 document of the REST API mqlite serves (``GET /ibmmq/rest/v2/openapi.json``):
the paths, parameters and response bodies of ``admin``, ``messaging`` and the login. The
contract tests (schemathesis) check the implementation against it."""

from __future__ import annotations

from typing import Any

from mqlite.web import object_body, shapes
from mqlite.web.admin import COMMAND_PATTERN, FREE_NAME_PATTERN, KEYWORD_PATTERN, NAME_PATTERN
from mqlite.web.message_headers import EXPIRY_PATTERN, ID_PATTERN, REPLY_TO_PATTERN

JSON = "application/json"
TEXT = "text/plain"

_ERROR: dict[str, Any] = {
    "type": "object", "required": ["error"],
    "properties": {"error": {"type": "array", "minItems": 1, "items": {
        "type": "object", "required": ["type", "msgId", "message", "explanation", "action"],
        "properties": {
            "type": {"type": "string"}, "msgId": {"type": "string", "pattern": "^MQWB[0-9]{4}[IWESF]$"},
            "message": {"type": "string"}, "explanation": {"type": "string"}, "action": {"type": "string"},
            "completionCode": {"type": "integer"}, "reasonCode": {"type": "integer"},
            "reasonName": {"type": "string"},
        }}}},
}
_OBJECTS = {"type": "array", "items": {"type": "object", "required": ["name"],
                                       "properties": {"name": {"type": "string"}}}}
_COMMAND_RESPONSE = {
    "type": "object", "required": ["commandResponse", "overallCompletionCode", "overallReasonCode"],
    "properties": {
        "commandResponse": {"type": "array", "items": {
            "type": "object", "required": ["completionCode", "reasonCode"],
            "properties": {"completionCode": {"type": "integer"}, "reasonCode": {"type": "integer"},
                           "text": {"type": "array", "items": {"type": "string"}},
                           "message": {"type": "array", "items": {"type": "string"}},
                           "parameters": {"type": "object"}}}},
        "overallCompletionCode": {"type": "integer"}, "overallReasonCode": {"type": "integer"},
    },
}


def _errors(*codes: int) -> dict[str, Any]:
    texts = {400: "Bad request", 401: "Not authenticated", 403: "Not authorized, or no CSRF header",
             404: "Not found", 405: "Method not allowed", 413: "Body too large", 415: "Unsupported media type",
             500: "Internal error", 501: "The message is not text (left on the queue)",
             503: "Queue manager not running"}
    return {str(c): {"description": texts[c], "content": {JSON: {"schema": {"$ref": "#/components/schemas/Error"}}}}
            for c in codes}


def _query(name: str, description: str, schema: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"name": name, "in": "query", "required": False, "description": description,
            "schema": schema or {"type": "string"}}


def _anchored(pattern: str) -> dict[str, Any]:
    return {"type": "string", "pattern": f"^({pattern})$"}


def _path(name: str, pattern: str = NAME_PATTERN) -> dict[str, Any]:
    """A path parameter. Its pattern leaves out ``%``: a name holding one is sent as %25 (IBM's
    rule), and a client that sent a bare ``%`` would have sent some other, escaped, name."""
    pattern = "[^%" + pattern[2:] if pattern.startswith("[^") else pattern.replace("%", "")
    return {"name": name, "in": "path", "required": True, "schema": _anchored(pattern)}


def _header(name: str, description: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"name": name, "in": "header", "required": False, "description": description, "schema": schema}


def _select(categories: frozenset[str], status: bool = True) -> list[dict[str, Any]]:
    chosen = [_query("attributes", "Attributes to return: *, a category, or category.name, comma-separated.",
                     {"type": "string", "pattern": shapes.selection_pattern(categories)})]
    if status:
        chosen.append(_query("status", "Status attributes to return: *, status or status.name.",
                             {"type": "string", "pattern": shapes.selection_pattern({"status"})}))
    return chosen


_CSRF = {"name": "ibm-mq-rest-csrf-token", "in": "header", "required": True, "schema": {"type": "string"},
         "description": "Any value; required on every POST, PUT, PATCH and DELETE."}
_QMGR_NAME = r"[A-Za-z0-9._%]{1,48}"
_ID_QUERY = {"type": "string", "pattern": f"^({ID_PATTERN})$"}
_GET_ERRORS = (400, 401, 403, 404, 503)


def _list(key: str, extra: list[dict[str, Any]], description: str, single: str = "") -> dict[str, Any]:
    return {"get": {
        "summary": description,
        "parameters": extra,
        "responses": {"200": {"description": "The objects", "content": {JSON: {"schema": {
            "type": "object", "required": [key], "properties": {key: _OBJECTS}}}}}, **_errors(*_GET_ERRORS)},
    }}


_CHANGE_ERRORS = (400, 401, 403, 404, 413, 415, 503)
_FLAG = {"type": "string", "enum": ["", "true", "false"]}
_QUEUE_NAME = {"type": "string", "pattern": f"^({object_body.QUEUE_NAME.pattern})$"}
_SUB_NAME = {"type": "string", "minLength": 1, "maxLength": object_body.MAX_SUB_NAME,
             "pattern": r"^[^\x00-\x1f\x7f]+$"}
_QUEUE_BODY = object_body.body_schema(object_body.QUEUE, {
    "name": _QUEUE_NAME, "type": {"type": "string", "enum": list(object_body.QUEUE_TYPES)}}, ["name"])
_QUEUE_CHANGE = {**_QUEUE_BODY, "required": []}
_SUB_BODY = object_body.body_schema(object_body.SUBSCRIPTION, {"name": _SUB_NAME}, ["name", "topicString"])
_SUB_CHANGE = object_body.body_schema(
    object_body.SUBSCRIPTION, {"name": _SUB_NAME, "topicString": {"not": {}}, "topicObject": {"not": {}}}, [])


def _json_body(schema: dict[str, Any]) -> dict[str, Any]:
    return {"required": True, "content": {JSON: {"schema": schema}}}


def _create(summary: str, parameters: list[dict[str, Any]], schema: dict[str, Any]) -> dict[str, Any]:
    return {"summary": summary,
            "parameters": [*parameters, _CSRF,
                           _query("like", "An existing object to copy the attributes of"),
                           _query("noReplace", "Present: an existing object of this name is not replaced", _FLAG)],
            "requestBody": _json_body(schema),
            "responses": {"201": {"description": "Created (Location names it)"}, **_errors(*_CHANGE_ERRORS)}}


def _change(summary: str, parameters: list[dict[str, Any]], schema: dict[str, Any]) -> dict[str, Any]:
    return {"summary": summary, "parameters": [*parameters, _CSRF], "requestBody": _json_body(schema),
            "responses": {"204": {"description": "Changed"}, **_errors(*_CHANGE_ERRORS)}}


def _delete(summary: str, parameters: list[dict[str, Any]]) -> dict[str, Any]:
    return {"summary": summary, "parameters": [*parameters, _CSRF],
            "responses": {"204": {"description": "Deleted"}, **_errors(400, 401, 403, 404, 503)}}



def _message_headers() -> list[dict[str, Any]]:
    return [_header("ibm-mq-md-correlationId", "48 hexadecimal characters, or printable text of at most 24",
                    _anchored(ID_PATTERN)),
            _header("ibm-mq-md-persistence", "persistent or nonPersistent",
                    {"type": "string", "enum": ["persistent", "nonPersistent"]}),
            _header("ibm-mq-md-expiry", "unlimited or milliseconds", _anchored(EXPIRY_PATTERN)),
            _header("ibm-mq-md-replyTo", "queue or queue@qmgr", _anchored(REPLY_TO_PATTERN))]


_TEXT_VALUE = _anchored(r"[^\x00-\x1f\x7f]*")
_MQSC_BODY = {"oneOf": [
    {"type": "object", "required": ["type", "parameters"],
     "properties": {"type": {"const": "runCommand"},
                    "parameters": {"type": "object", "required": ["command"],
                                   "properties": {"command": _anchored(COMMAND_PATTERN)}}}},
    {"type": "object", "required": ["type", "command", "qualifier"],
     "properties": {
         "type": {"const": "runCommandJSON"},
         "command": _anchored(KEYWORD_PATTERN), "qualifier": _anchored(KEYWORD_PATTERN),
         "name": _anchored(FREE_NAME_PATTERN),
         "parameters": {"type": "object", "additionalProperties": False, "patternProperties": {
             f"^({KEYWORD_PATTERN})$": {"anyOf": [
                 _TEXT_VALUE, {"type": "integer"}, {"type": "boolean"},
                 {"type": "array", "items": {"anyOf": [_TEXT_VALUE, {"type": "integer"}]}}]}}},
         "responseParameters": {"type": "array", "items": _anchored(KEYWORD_PATTERN)}}},
]}


def document() -> dict[str, Any]:
    q = "/ibmmq/rest/v2/admin/qmgr/{qmgrName}"
    m = "/ibmmq/rest/v2/messaging/qmgr/{qmgrName}"
    qm = _path("qmgrName", _QMGR_NAME)
    name = _query("name", "Name (generic with *)", _anchored(NAME_PATTERN))
    text_body = {"required": True, "content": {TEXT: {"schema": {"type": "string"}}}}
    got = {"200": {"description": "The message body", "content": {TEXT: {"schema": {"type": "string"}}}},
           "204": {"description": "No message"}, **_errors(*_GET_ERRORS, 501)}
    put = {"201": {"description": "Put"}, **_errors(400, 401, 403, 404, 413, 415, 503)}
    return {
        "openapi": "3.1.0",
        "info": {"title": "mqlite REST API (IBM MQ administrative and messaging REST API, v2)", "version": "2"},
        "components": {
            "schemas": {"Error": _ERROR},
            "securitySchemes": {"basicAuth": {"type": "http", "scheme": "basic"},
                                "ltpaToken": {"type": "apiKey", "in": "cookie", "name": "LtpaToken2"}},
        },
        "security": [{"basicAuth": []}, {"ltpaToken": []}],
        "paths": {
            "/ibmmq/rest/v2/admin/installation": {"get": {
                "summary": "This installation",
                "responses": {"200": {"description": "The installation", "content": {JSON: {"schema": {
                    "type": "object", "required": ["installation"],
                    "properties": {"installation": _OBJECTS}}}}}, **_errors(401)}}},
            "/ibmmq/rest/v2/admin/qmgr": _list("qmgr", [name, *_select(shapes.QMGR_CATEGORIES)],
                                               "The queue managers, running or ended"),
            q: _list("qmgr", [qm, *_select(shapes.QMGR_CATEGORIES)], "One queue manager"),
            f"{q}/queue": {**_list("queue", [qm, name, _query("type", "all, local, alias, remote or model",
                                                              {"type": "string", "enum": ["all", "local", "alias",
                                                                                          "remote", "model"]}),
                                             *_select(shapes.QUEUE_CATEGORIES)], "Queues"),
                           "post": _create("Create a queue (DEFINE)", [qm], _QUEUE_BODY)},
            f"{q}/queue/{{queueName}}": {
                **_list("queue", [qm, _path("queueName"), *_select(shapes.QUEUE_CATEGORIES)], "One queue"),
                "patch": _change("Change a queue (ALTER)", [qm, _path("queueName", object_body.QUEUE_NAME.pattern)],
                                 _QUEUE_CHANGE),
                "delete": _delete("Delete a queue (DELETE; NOPURGE unless purge)", [
                    qm, _path("queueName", object_body.QUEUE_NAME.pattern),
                    _query("purge", "Present: the queue's messages are deleted with it", _FLAG),
                    _query("keepAuthorityRecords", "Present: its authority records stay (AUTHREC(NO))", _FLAG)])},
            f"{q}/subscription": {**_list("subscription", [
                qm, _query("name", "Subscription name (generic with *)", _anchored(FREE_NAME_PATTERN)),
                *_select(shapes.SUBSCRIPTION_CATEGORIES, status=False)], "Subscriptions"),
                "post": _create("Create a subscription (DEFINE SUB)", [qm], _SUB_BODY)},
            f"{q}/subscription/{{subName}}": {**_list("subscription", [
                qm, _path("subName", FREE_NAME_PATTERN), *_select(shapes.SUBSCRIPTION_CATEGORIES, status=False)],
                "One subscription"),
                "patch": _change("Change a subscription (ALTER SUB)", [qm, _path("subName", FREE_NAME_PATTERN)],
                                 _SUB_CHANGE),
                "delete": _delete("Delete a subscription (DELETE SUB)", [qm, _path("subName", FREE_NAME_PATTERN)])},
            f"{q}/channel": _list("channel", [qm, name, *_select(shapes.CHANNEL_CATEGORIES)], "Channels"),
            f"{q}/channel/{{channelName}}": _list("channel", [qm, _path("channelName"),
                                                              *_select(shapes.CHANNEL_CATEGORIES)], "One channel"),
            "/ibmmq/rest/v2/admin/action/qmgr/{qmgrName}/mqsc": {"post": {
                "summary": "Run an MQSC command: runCommand (text) or runCommandJSON",
                "parameters": [qm, _CSRF],
                "requestBody": {"required": True, "content": {JSON: {"schema": _MQSC_BODY}}},
                "responses": {"200": {"description": "The command's response", "content": {JSON: {
                    "schema": _COMMAND_RESPONSE}}}, **_errors(400, 401, 403, 404, 413, 415, 503)}}},
            f"{m}/queue/{{queueName}}/message": {
                "post": {"summary": "Put a text message", "parameters": [qm, _path("queueName"), _CSRF,
                                                                         *_message_headers()],
                         "requestBody": text_body, "responses": put},
                "delete": {"summary": "Get (destructively) the next message",
                           "parameters": [qm, _path("queueName"), _CSRF,
                                          _query("wait", "Milliseconds to wait", {"type": "integer", "minimum": 0,
                                                                                 "maximum": 2**31 - 1}),
                                          _query("correlationId", "48 hexadecimal characters", _ID_QUERY),
                                          _query("messageId", "48 hexadecimal characters", _ID_QUERY)],
                           "responses": got},
                "get": {"summary": "Browse the first message",
                        "parameters": [qm, _path("queueName"),
                                       _query("correlationId", "48 hexadecimal characters", _ID_QUERY),
                                       _query("messageId", "48 hexadecimal characters", _ID_QUERY)],
                        "responses": got},
            },
            f"{m}/topic/{{topicString}}/message": {"post": {
                "summary": "Publish a text message on a topic string",
                "parameters": [qm, _path("topicString", FREE_NAME_PATTERN), _CSRF, *_message_headers()],
                "requestBody": text_body, "responses": put}},
            "/ibmmq/rest/v1/login": {
                "post": {"summary": "Log in: the LtpaToken2 cookie", "security": [], "parameters": [_CSRF],
                         "requestBody": {"required": True, "content": {JSON: {"schema": {
                             "type": "object", "required": ["username", "password"],
                             "properties": {"username": {"type": "string", "minLength": 1},
                                            "password": {"type": "string"}}}}}},
                         "responses": {"204": {"description": "Logged in"}, **_errors(400, 401, 403, 413, 415)}},
                "get": {"summary": "Who is logged in", "responses": {"200": {"description": "The user", "content": {
                    JSON: {"schema": {"type": "object", "required": ["user"],
                                      "properties": {"user": _OBJECTS}}}}}, **_errors(401)}},
                "delete": {"summary": "Log out", "security": [], "parameters": [_CSRF],
                           "responses": {"204": {"description": "Logged out"}, **_errors(403)}},
            },
            "/ibmmq/rest/v2/openapi.json": {"get": {"summary": "This document", "security": [],
                                                    "responses": {"200": {"description": "OpenAPI 3.0",
                                                                          "content": {JSON: {}}}}}},
        },
    }
