"""The REST API's route table and middleware: the administrative routes (GET in ``admin``; POST,
PATCH and DELETE of queues and subscriptions in ``objects``), the messaging routes, token login
(``/ibmmq/rest/v1/login``) and the OpenAPI document; CORS and the CSRF guard."""

from __future__ import annotations

from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from mqlite.web import access, admin, messaging, objects, openapi
from mqlite.web.access import Caller
from mqlite.web.config import WebConfig
from mqlite.web.cors import Cors
from mqlite.web.errors import WRONG_PASSWORD, refuse
from mqlite.web.security import TOKEN_COOKIE, Guard, resource

LOGIN = "/ibmmq/rest/v1/login"
OPENAPI = "/ibmmq/rest/v2/openapi.json"


async def login(request: Request) -> Response:
    """POST: ``{"username": ..., "password": ...}`` -> 204 and the LtpaToken2 cookie (IBM's)."""
    from starlette.concurrency import run_in_threadpool

    body = await admin.json_body(request)
    user, password = body.get("username"), body.get("password")
    if not isinstance(user, str) or not isinstance(password, str) or not user:
        raise refuse("bad_body", detail="login needs username and password strings")
    caller = Caller(user, password)
    if not await run_in_threadpool(access.authenticated_anywhere, caller):
        raise refuse("not_authenticated", detail=WRONG_PASSWORD)
    token = request.app.state.tokens.issue(caller)
    response = Response(status_code=204)
    response.set_cookie(TOKEN_COOKIE, token, httponly=True, samesite="strict",
                        secure=request.url.scheme == "https", path="/")
    return response


async def logout(request: Request) -> Response:
    """DELETE: the session's token is forgotten and its cookie cleared."""
    request.app.state.tokens.revoke(request.cookies.get(TOKEN_COOKIE))
    response = Response(status_code=204)
    response.delete_cookie(TOKEN_COOKIE, path="/")
    return response


async def whoami(request: Request) -> Response:
    """GET: who the session (or basic authentication) is, as IBM's ``{"user": [...]}``."""
    from mqlite.web.security import caller_of

    caller = caller_of(request)
    return JSONResponse({"user": [{"name": caller.user, "role": ["MQWebUser"]}]})


async def document(request: Request) -> Response:
    return JSONResponse(openapi.document())


def rest_routes() -> list[BaseRoute]:
    return [
        *admin.routes({
            "/queue": {"POST": objects.create_queue},
            "/queue/{queue}": {"PATCH": objects.change_queue, "DELETE": objects.delete_queue},
            "/subscription": {"POST": objects.create_subscription},
            "/subscription/{sub}": {"PATCH": objects.change_subscription, "DELETE": objects.delete_subscription},
        }),
        *messaging.routes(),
        resource(LOGIN, {"POST": login, "DELETE": logout, "GET": whoami}),
        Route(OPENAPI, document, methods=["GET"]),
    ]


def middleware(config: WebConfig) -> list[Middleware]:
    # CORS outermost: the Guard's refusals reach a listed origin's page too
    return [Middleware(Cors, origins=config.cors_origins, max_age=config.mqRestCorsMaxAgeInSeconds),
            Middleware(Guard, max_body=config.maxRequestBodySize)]
