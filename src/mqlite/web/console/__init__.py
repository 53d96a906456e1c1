"""The MQ Console, server-rendered: pages under ``/console`` (login, queue managers, queues with
depths, a queue's messages, channels and clusters, the topic tree, MQSC, live charts, the network
picture) over the client as the logged-in user, with a small script (``static/console.js``).
``ROUTES`` is what app.py's hook (EXTRA_ROUTE_MODULES) adds."""

from __future__ import annotations

from starlette.routing import BaseRoute

from mqlite.web.console.views import routes

ROUTES: list[BaseRoute] = routes()
