"""Cross-origin requests, as IBM's mqweb serves them (``setmqweb properties -k
mqRestCorsAllowedOrigins -v "https://a,https://b"``, ``mqRestCorsMaxAgeInSeconds``).

A browser page of a listed origin may call the REST API with credentials: its preflight
(``OPTIONS`` with ``Access-Control-Request-Method``) is answered here with the methods, the
headers (the CSRF header among them) and the max age, and every other response to it carries
``Access-Control-Allow-Origin`` (that origin, never ``*``: credentials are allowed) and the
``ibm-mq-md-*`` headers it may read. An origin not listed gets no CORS header at all, so the
browser refuses the page the response; its preflight goes on to the application (IBM's 405).
Starlette's CORSMiddleware answers an unlisted preflight with a 400 of its own, so not that.
"""

from __future__ import annotations

from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

ALLOWED_METHODS = ("GET", "POST", "PATCH", "DELETE")
ALLOWED_HEADERS = ("authorization", "content-type", "ibm-mq-rest-csrf-token", "ibm-mq-md-correlationid",
                   "ibm-mq-md-persistence", "ibm-mq-md-expiry", "ibm-mq-md-replyto", "origin", "accept")
EXPOSED_HEADERS = ("ibm-mq-md-messageId", "ibm-mq-md-correlationId", "ibm-mq-md-persistence",
                   "ibm-mq-md-expiry", "ibm-mq-md-replyTo", "Location")


def allowed(origin: str | None, origins: frozenset[str]) -> bool:
    """Is ``origin`` (the request's Origin header) one the settings list (``*``: any)?"""
    return bool(origin) and origin != "null" and ("*" in origins or (origin or "").rstrip("/") in origins)


def preflight_headers(origin: str, requested_headers: str, max_age: int) -> dict[str, str]:
    """The answer to an allowed origin's preflight. The headers asked for are allowed when each is
    one of ALLOWED_HEADERS; otherwise the list is given and the browser refuses the request."""
    asked = [h.strip().lower() for h in requested_headers.split(",") if h.strip()]
    granted = asked if all(h in ALLOWED_HEADERS for h in asked) else list(ALLOWED_HEADERS)
    headers = {"Access-Control-Allow-Origin": origin, "Access-Control-Allow-Credentials": "true",
               "Access-Control-Allow-Methods": ", ".join(ALLOWED_METHODS),
               "Access-Control-Allow-Headers": ", ".join(granted or ALLOWED_HEADERS), "Vary": "Origin"}
    if max_age >= 0:
        headers["Access-Control-Max-Age"] = str(max_age)
    return headers


def response_headers(origin: str) -> dict[str, str]:
    """What an allowed origin's actual (not preflight) response carries."""
    return {"Access-Control-Allow-Origin": origin, "Access-Control-Allow-Credentials": "true",
            "Access-Control-Expose-Headers": ", ".join(EXPOSED_HEADERS)}


class Cors:
    """ASGI middleware (outermost, so the CSRF and body-size refusals carry the headers too)."""

    def __init__(self, app: ASGIApp, origins: frozenset[str], max_age: int) -> None:
        self.app = app
        self.origins = origins
        self.max_age = max_age

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not self.origins:
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        origin = headers.get("origin")
        if not allowed(origin, self.origins):
            await self.app(scope, receive, send)
            return
        assert origin is not None
        if scope["method"] == "OPTIONS" and "access-control-request-method" in headers:
            answer = preflight_headers(origin, headers.get("access-control-request-headers", ""), self.max_age)
            await send({"type": "http.response.start", "status": 200,
                        "headers": [(k.lower().encode(), v.encode()) for k, v in
                                    {**answer, "Content-Length": "0"}.items()]})
            await send({"type": "http.response.body", "body": b""})
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                out = MutableHeaders(scope=message)
                for key, value in response_headers(origin).items():
                    out[key] = value
                out.add_vary_header("Origin")
            await send(message)

        await self.app(scope, receive, with_headers)
