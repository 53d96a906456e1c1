"""The web server's ASGI application: ``create_app(config, extra_routes=...) -> Starlette``.

Adding routes (for ``/metrics`` and other developers' pages), two ways, both read here only:

1. ``create_app(config, extra_routes=[Route("/x", handler), ...])``: the routes are added after
   the REST API's (a test or an embedding program passes its own).
2. A module ``mqlite.web.metrics`` that defines ``ROUTES: list[starlette.routing.BaseRoute]``:
   when that module exists, ``create_app`` imports it and adds its ``ROUTES`` too, so the
   process ``mqlite strmqweb`` starts serves them without further wiring. Nothing else is
   discovered; a new module of routes is named here.

Extra routes are not behind the REST API's authentication (``/metrics`` is scraped without
credentials, as IBM's exporter is); the CSRF rule (the ``ibm-mq-rest-csrf-token`` header on every
POST, PUT, PATCH and DELETE) applies to every route. Every REST route answers errors in IBM's
JSON error shape (``errors``).
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
from collections.abc import AsyncIterator, Sequence

import anyio.to_thread
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute

from mqlite.web import access
from mqlite.web.config import WebConfig
from mqlite.web.errors import RestError, refuse
from mqlite.web.security import TokenStore

EXTRA_ROUTE_MODULES = ("mqlite.web.metrics", "mqlite.web.console")
# Threads for the blocking client calls (a waiting get holds one for its wait): anyio's default of
# 40 would let 40 waiting gets hold up every other request.
WORKER_THREADS = 256


@contextlib.asynccontextmanager
async def _lifespan(app: Starlette) -> AsyncIterator[None]:
    anyio.to_thread.current_default_thread_limiter().total_tokens = WORKER_THREADS
    yield
    await anyio.to_thread.run_sync(access.forget_connections)  # the kept connections end with it


def discovered_routes() -> list[BaseRoute]:
    """The ``ROUTES`` of the modules named in EXTRA_ROUTE_MODULES that exist."""
    found: list[BaseRoute] = []
    for name in EXTRA_ROUTE_MODULES:
        if importlib.util.find_spec(name) is None:
            continue
        module = importlib.import_module(name)
        found.extend(getattr(module, "ROUTES", []))
    return found


def create_app(config: WebConfig | None = None, extra_routes: Sequence[BaseRoute] = ()) -> Starlette:
    """The application: the REST API's routes, then ``extra_routes``, then the discovered ones."""
    from mqlite.web import routes

    config = config or WebConfig()
    route_list: list[BaseRoute] = [*routes.rest_routes(), *extra_routes, *discovered_routes()]
    middleware: list[Middleware] = routes.middleware(config)
    app = Starlette(routes=route_list, middleware=middleware, lifespan=_lifespan,
                    exception_handlers={RestError: _rest_error, HTTPException: _http_error,
                                        Exception: _internal_error})
    app.state.config = config
    app.state.tokens = TokenStore()
    return app


async def _rest_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RestError)
    return JSONResponse(exc.body(), status_code=exc.status, headers=_auth_challenge(exc.status))


async def _http_error(request: Request, exc: Exception) -> Response:
    """Starlette's own 404/405 in IBM's shape."""
    assert isinstance(exc, HTTPException)
    if exc.status_code == 405:
        error = refuse("method_not_allowed", request.method, request.url.path)
    elif exc.status_code == 404:
        error = refuse("unknown_resource", "NotFound", detail=f"No REST API resource has the URL {request.url.path}")
    else:
        error = RestError(exc.status_code, "MQWB0000E", (exc.detail,))
    return JSONResponse(error.body(), status_code=error.status, headers=dict(exc.headers or {}))  # 405's Allow


async def _internal_error(request: Request, exc: Exception) -> Response:
    """Anything unforeseen: 500 in IBM's shape (the queue manager is not affected: it is another process)."""
    error = RestError(500, "MQWB0000E", (type(exc).__name__,))
    return JSONResponse(error.body(), status_code=500)


def _auth_challenge(status: int) -> dict[str, str]:
    return {"WWW-Authenticate": 'Basic realm="mqlite"'} if status == 401 else {}
