"""The REST API's route table and middleware (filled in by the admin and messaging modules)."""

from __future__ import annotations

from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from mqlite.web.config import WebConfig

BASE = "/ibmmq/rest/v2"


async def installation(request: Request) -> Response:
    """GET /ibmmq/rest/v2/admin/installation: this installation (placeholder until admin lands)."""
    return JSONResponse({"installation": [{"name": "Installation1"}]})


def rest_routes() -> list[BaseRoute]:
    return [Route(f"{BASE}/admin/installation", installation, methods=["GET"])]


def middleware(config: WebConfig) -> list[Middleware]:
    return []
