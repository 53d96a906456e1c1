"""Who is calling, and the checks every request passes before a handler runs.

- HTTP basic authentication (``Authorization: Basic``), or the ``LtpaToken2`` cookie that
  ``POST /ibmmq/rest/v1/login`` hands out (IBM's token login; ``DELETE`` logs out). A token
  stands for the user and password it was made from, held in this process's memory only, so every
  call is still made as that user; it lapses after ``TOKEN_LIFETIME`` seconds unused (IBM's
  ltpaExpiration: 120 minutes).
- ``ibm-mq-rest-csrf-token``: required, any value, on every POST, PUT, PATCH and DELETE (403).
- A request body above ``maxRequestBodySize`` is refused with 413 before it is read whole.
"""

from __future__ import annotations

import base64
import binascii
import json
import secrets
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Match, Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from mqlite.web.access import Caller
from mqlite.web.errors import RestError, refuse

TOKEN_COOKIE = "LtpaToken2"
CSRF_HEADER = "ibm-mq-rest-csrf-token"
STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
TOKEN_LIFETIME = 120 * 60.0


def basic_credentials(header: str | None) -> Caller | None:
    """The user and password of an ``Authorization: Basic ...`` header, else None."""
    if not header:
        return None
    scheme, _, value = header.strip().partition(" ")
    if scheme.lower() != "basic" or not value.strip():
        return None
    try:
        decoded = base64.b64decode(value.strip(), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        return None
    user, colon, password = decoded.partition(":")
    if not colon or not user:
        return None
    return Caller(user, password)


@dataclass
class _Token:
    caller: Caller
    last_used: float


class TokenStore:
    """Login tokens: an unguessable value -> the caller it was issued to."""

    def __init__(self, lifetime: float = TOKEN_LIFETIME) -> None:
        self._tokens: dict[str, _Token] = {}
        self._lock = threading.Lock()
        self._lifetime = lifetime

    def issue(self, caller: Caller) -> str:
        token = secrets.token_urlsafe(32)
        with self._lock:
            self._tokens[token] = _Token(caller, time.monotonic())
        return token

    def lookup(self, token: str | None) -> Caller | None:
        if not token:
            return None
        now = time.monotonic()
        with self._lock:
            entry = self._tokens.get(token)
            if entry is None:
                return None
            if now - entry.last_used > self._lifetime:
                del self._tokens[token]
                return None
            entry.last_used = now
            return entry.caller

    def revoke(self, token: str | None) -> None:
        with self._lock:
            self._tokens.pop(token or "", None)


def resource(path: str, handlers: dict[str, Callable[[Request], Awaitable[Response]]]) -> Route:
    """One route for every method of a path (so a 405 names them all in its Allow header)."""

    async def endpoint(request: Request) -> Response:
        handler = handlers.get(request.method) or handlers["GET"]  # HEAD: GET's answer, body dropped
        return await handler(request)

    return Route(path, endpoint, methods=list(handlers))


def caller_of(request: Request) -> Caller:
    """The caller of a REST request; RestError 401 when it names none."""
    caller = basic_credentials(request.headers.get("authorization"))
    token = request.cookies.get(TOKEN_COOKIE)
    if caller is None and token is not None:
        store: TokenStore = request.app.state.tokens
        caller = store.lookup(token)
        if caller is None:  # unknown or lapsed: IBM's answer to an LtpaToken2 that fails verification
            raise refuse("token_failed", TOKEN_COOKIE)
    if caller is None:
        raise refuse("not_authenticated")
    return caller


class Guard:
    """ASGI middleware: the CSRF header on state-changing requests, the body size limit."""

    def __init__(self, app: ASGIApp, max_body: int) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        if scope["method"] in STATE_CHANGING and CSRF_HEADER not in headers and _routed(scope):
            await _refuse(send, refuse("csrf_missing", CSRF_HEADER))
            return
        length = headers.get("content-length")
        if length is not None and (not length.strip().isdigit() or int(length) > self.max_body):
            await _refuse(send, _too_large(self.max_body))
            return
        received = 0
        refused = False

        async def limited() -> Message:
            nonlocal received, refused
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_body:
                    refused = True
                    raise BodyTooLarge
            return message

        started = False

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, limited, tracking_send)
        except BodyTooLarge:
            if not started:
                await _refuse(send, _too_large(self.max_body))


def _routed(scope: Scope) -> bool:
    """Does some route take this path and method? (An unknown path or method gets its 404 or 405
    first: the CSRF rule protects what a request could change.)"""
    app = scope.get("app")
    router = getattr(app, "router", None)
    if router is None:
        return True
    return any(route.matches(scope)[0] == Match.FULL for route in router.routes)


def _too_large(limit: int) -> RestError:
    return refuse("body_too_large", detail=f"It is larger than the limit of {limit} bytes (maxRequestBodySize)")


class BodyTooLarge(Exception):
    """A chunked body passed the limit while being read."""


async def _refuse(send: Send, error: RestError) -> None:
    body = json.dumps(error.body()).encode()
    await send({"type": "http.response.start", "status": error.status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
