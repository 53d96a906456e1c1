"""The console's routes: server-rendered pages over ``data`` and ``pages``, the JSON of the live
charts, and the network picture as SVG. A page without a session (the LtpaToken2 cookie of the
REST login, or basic authentication) redirects to the login page. Actions (create a queue, put,
browse, get, MQSC) are sent by the console's script to the REST API's own endpoints, with the
CSRF header, so they are the REST API's calls as the same user."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from functools import wraps
from html import escape
from pathlib import Path
from urllib.parse import quote as url_quote

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from mqlite.web import access
from mqlite.web.access import Caller
from mqlite.web.console import data, network, pages
from mqlite.web.console.sampler import shared_sampler
from mqlite.web.errors import WRONG_PASSWORD, RestError, refuse
from mqlite.web.security import caller_of

STATIC_DIR = Path(__file__).resolve().parent.parent / "static"
REST = "/ibmmq/rest/v2"
PAGE_SIZE = 500  # queues a page: a queue manager of 10,000 loads in under a second
Handler = Callable[[Request, Caller], Awaitable[Response]]


def authenticated(handler: Handler) -> Callable[[Request], Awaitable[Response]]:
    @wraps(handler)
    async def wrapped(request: Request) -> Response:
        try:
            caller = caller_of(request)
        except RestError:
            caller = None
        if caller is None or not await run_in_threadpool(access.authenticated_anywhere, caller):
            target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
            return RedirectResponse(pages.url("login") + "?next=" + url_quote(target, safe=""), status_code=303)
        try:
            return await handler(request, caller)
        except RestError as e:
            if e.status == 401:
                return RedirectResponse(pages.url("login"), status_code=303)
            text = "; ".join(str(item.get("message", "")) for item in e.body().get("error", [])) or "failed"
            return HTMLResponse(pages.error("The request failed", text, caller.user), status_code=e.status)
    return wrapped


async def login(request: Request) -> Response:
    next_url = request.query_params.get("next", pages.url("qmgr"))
    if not next_url.startswith(pages.BASE + "/"):
        next_url = pages.url("qmgr")
    return HTMLResponse(pages.login(next_url))


async def home(request: Request) -> Response:
    return RedirectResponse(pages.url("qmgr"), status_code=303)


@authenticated
async def qmgr_list(request: Request, caller: Caller) -> Response:
    found = await run_in_threadpool(data.qmgrs)
    rows = [(pages.link(pages.url("qmgr", name), name), pages.status_badge("RUNNING" if up else "ENDED"))
            for name, up in found]
    body = pages.table("Queue managers of the installation", ["Queue manager", "State"], rows, raw=True,
                       empty="No queue manager has been created.")
    return HTMLResponse(pages.page("Queue managers", body, user=caller.user))


@authenticated
async def queue_list(request: Request, caller: Caller) -> Response:
    qmgr = request.path_params["qmgr"]
    pattern = request.query_params.get("name") or "*"
    system = request.query_params.get("system") == "1"
    try:
        number = max(1, int(request.query_params.get("page", "1")))
    except ValueError:
        number = 1
    found = await run_in_threadpool(data.queues, qmgr, caller, pattern)
    shown = [q for q in found if system or not q.get("QUEUE", "").startswith(("SYSTEM.", "AMQ."))]
    pages_count = max(1, -(-len(shown) // PAGE_SIZE))
    number = min(number, pages_count)
    rows = []
    for q in shown[(number - 1) * PAGE_SIZE:number * PAGE_SIZE]:
        name = q.get("QUEUE", "")
        rows.append((pages.link(pages.url("qmgr", qmgr, "queue", name), name), escape(q.get("TYPE", "")),
                     escape(q.get("CURDEPTH", "")), escape(q.get("MAXDEPTH", "")), escape(q.get("DESCR", ""))))
    create = pages.form(f"{REST}/admin/action/qmgr/{url_quote(qmgr)}/mqsc", "Create a local queue",
                        pages.field("Queue name", "queue"), "Create queue", 'data-kind="define"')
    filters = (f'<form method="get" aria-label="Filter queues">{pages.field("Name filter", "name", pattern)} '
               f'<label><input type="checkbox" name="system" value="1"{" checked" if system else ""}> '
               f'Show system queues</label> <button type="submit">Filter</button></form>')
    paging = _paging(request, number, pages_count, len(shown))
    body = (create + '<p role="status" id="action-result"></p>' + filters + paging
            + pages.table(f"Queues of {qmgr}", ["Queue", "Type", "Depth", "Maximum depth", "Description"], rows,
                          raw=True, empty="No queue matches."))
    return HTMLResponse(pages.page(f"Queues of {qmgr}", body, qmgr, caller.user))


def _paging(request: Request, number: int, count: int, total: int) -> str:
    """Where this page is among the queues, and links to the pages before and after it."""
    first, last = (number - 1) * PAGE_SIZE + 1, min(total, number * PAGE_SIZE)

    def to(n: int) -> str:
        query = dict(request.query_params) | {"page": str(n)}
        return request.url.path + "?" + "&".join(f"{url_quote(k)}={url_quote(v)}" for k, v in query.items())

    links = []
    if number > 1:
        links.append(pages.link(to(number - 1), "Previous page"))
    if number < count:
        links.append(pages.link(to(number + 1), "Next page"))
    where = f"Queues {first}-{last} of {total}" if total else "No queues"
    return f'<nav aria-label="Pages of queues"><span>{where}</span> {" ".join(links)}</nav>'


@authenticated
async def queue_one(request: Request, caller: Caller) -> Response:
    qmgr, name = request.path_params["qmgr"], request.path_params["queue"]
    record, messages = await run_in_threadpool(data.queue, qmgr, caller, name)
    shared_sampler().ensure_running()
    rest = f"{REST}/messaging/qmgr/{url_quote(qmgr)}/queue/{url_quote(name)}/message"
    attributes = pages.table("Attributes", ["Attribute", "Value"],
                             [(k, v) for k, v in sorted(record.items()) if k != "QUEUE"])
    put = pages.form(rest, "Put a message", pages.field("Message text", "body"), "Put message", 'data-kind="put"')
    buttons = (f'<p><button type="button" data-browse="{escape(rest)}">Browse first message</button> '
               f'<button type="button" data-get="{escape(rest)}">Get first message</button></p>'
               f'<pre role="status" aria-label="Message" id="message-shown"></pre>')
    rows = [(m["msgid"], m["put"], m["format"], "yes" if m["persistent"] else "no", m["body"]) for m in messages]
    listing = ('<div id="messages" data-refresh>' + pages.table(
        f"Messages on {name} (browsed, at most {data.BROWSE_LIMIT})",
        ["Message id", "Put", "Format", "Persistent", "Body"], rows, empty="The queue is empty.") + "</div>")
    samples = pages.url("api", "qmgr", qmgr, "samples") + "?queue=" + url_quote(name, safe="")
    charts = pages.chart(f"Depth of {name}", samples, "depth") + pages.chart(f"Put rate of {name}", samples, "putRate")
    body = put + buttons + '<p role="status" id="action-result"></p>' + charts + listing + attributes
    return HTMLResponse(pages.page(f"Queue {name} on {qmgr}", body, qmgr, caller.user))


@authenticated
async def channels(request: Request, caller: Caller) -> Response:
    qmgr = request.path_params["qmgr"]
    defined, status, members = await run_in_threadpool(data.displays, qmgr, caller, [
        "DISPLAY CHANNEL(*) CHLTYPE CONNAME XMITQ CLUSTER", "DISPLAY CHSTATUS(*) STATUS RQMNAME MSGS",
        "DISPLAY CLUSQMGR(*) CLUSTER STATUS QMTYPE CONNAME"])
    state = {row.get("CHANNEL", ""): row for row in status}
    rows = [(escape(c.get("CHANNEL", "")), escape(c.get("CHLTYPE", "")), escape(c.get("CONNAME", "")),
             escape(c.get("XMITQ", "") or c.get("CLUSTER", "")),
             pages.status_badge(state.get(c.get("CHANNEL", ""), {}).get("STATUS", "INACTIVE")),
             escape(state.get(c.get("CHANNEL", ""), {}).get("MSGS", "")))
            for c in defined if not c.get("CHANNEL", "").startswith("SYSTEM.")]
    clusters = [(escape(m.get("CLUSTER", "")), escape(m.get("CLUSQMGR", "")), escape(m.get("QMTYPE", "")),
                 escape(m.get("CONNAME", "")), pages.status_badge(m.get("STATUS", "INACTIVE"))) for m in members]
    body = (pages.table(f"Channels of {qmgr}", ["Channel", "Type", "Connection", "Transmission queue or cluster",
                                                 "Status", "Messages"], rows, raw=True, empty="No channels.")
            + pages.table("Clusters", ["Cluster", "Queue manager", "Repository", "Connection", "Status"], clusters,
                          raw=True, empty="Not in a cluster."))
    return HTMLResponse(pages.page(f"Channels of {qmgr}", body, qmgr, caller.user))


@authenticated
async def topics(request: Request, caller: Caller) -> Response:
    qmgr = request.path_params["qmgr"]
    objects, tree, subs = await run_in_threadpool(data.displays, qmgr, caller, [
        "DISPLAY TOPIC(*) ALL", "DISPLAY TPSTATUS('#') ALL",
        "DISPLAY SUB(*) ALL"])
    tree_rows = [(t.get("TOPICSTR", ""), t.get("RETAINED", ""), t.get("SUBCOUNT", ""), t.get("PUBCOUNT", ""))
                 for t in tree if not t.get("TOPICSTR", "").startswith(("SYSTEM.", "$SYS"))]
    body = (pages.table("Topic tree", ["Topic string", "Retained publication", "Subscribers", "Publishers"],
                        tree_rows, empty="No topic in use.")
            + pages.table("Topic objects", ["Topic", "Topic string"],
                          [(t.get("TOPIC", ""), t.get("TOPICSTR", "")) for t in objects
                           if not t.get("TOPIC", "").startswith("SYSTEM.")])
            + pages.table("Subscriptions", ["Subscription", "Topic string", "Destination", "Type", "Durable"],
                          [(s.get("SUB", ""), s.get("TOPICSTR", ""), s.get("DEST", ""), s.get("SUBTYPE", ""),
                            s.get("DURABLE", "")) for s in subs if not s.get("SUB", "").startswith("SYSTEM.")]))
    return HTMLResponse(pages.page(f"Topics of {qmgr}", body, qmgr, caller.user))


@authenticated
async def mqsc(request: Request, caller: Caller) -> Response:
    qmgr = request.path_params["qmgr"]
    form = pages.form(f"{REST}/admin/action/qmgr/{url_quote(qmgr)}/mqsc", "Run an MQSC command",
                      pages.field("MQSC command", "command"), "Run", 'data-kind="mqsc"')
    body = form + '<pre role="status" aria-label="Command output" id="mqsc-output"></pre>'
    return HTMLResponse(pages.page(f"MQSC on {qmgr}", body, qmgr, caller.user))


@authenticated
async def events(request: Request, caller: Caller) -> Response:
    qmgr = request.path_params["qmgr"]
    found = await run_in_threadpool(data.events, qmgr, caller)
    sections = []
    for queue, texts in found.items():
        items = "".join(f"<li><pre>{escape(text)}</pre></li>" for text in reversed(texts))
        sections.append(f'<section aria-label="Events on {escape(queue)}"><h2>{escape(queue)}</h2>'
                        + (f"<ol reversed>{items}</ol>" if items else "<p>No events.</p>") + "</section>")
    body = ("<p>The event queues' messages, browsed (left on the queues), newest first; enable them with "
            "ALTER QMGR PERFMEV(ENABLED), CHLEV(ENABLED), CONFIGEV(ENABLED), AUTHOREV(ENABLED).</p>"
            + ("".join(sections) or "<p>No event queue can be browsed.</p>"))
    return HTMLResponse(pages.page(f"Events of {qmgr}", body, qmgr, caller.user))


@authenticated
async def charts(request: Request, caller: Caller) -> Response:
    qmgr = request.path_params["qmgr"]
    if not await run_in_threadpool(access.password_valid, qmgr, caller):
        raise refuse("not_authenticated", detail=WRONG_PASSWORD)
    shared_sampler().ensure_running()
    found = await run_in_threadpool(data.queues, qmgr, caller, "*")
    names = [q["QUEUE"] for q in found if q.get("TYPE") == "QLOCAL"
             and not q.get("QUEUE", "").startswith(("SYSTEM.", "AMQ."))][:20]
    src = pages.url("api", "qmgr", qmgr, "samples")
    body = "".join(pages.chart(f"Depth of {n}", f"{src}?queue={url_quote(n, safe='')}", "depth")
                   + pages.chart(f"Put rate of {n}", f"{src}?queue={url_quote(n, safe='')}", "putRate")
                   + pages.chart(f"Get rate of {n}", f"{src}?queue={url_quote(n, safe='')}", "getRate")
                   + "<br>" for n in names) or "<p>No local queues.</p>"
    return HTMLResponse(pages.page(f"Charts of {qmgr} (last hour)", body, qmgr, caller.user))


@authenticated
async def samples(request: Request, caller: Caller) -> Response:
    qmgr = request.path_params["qmgr"]
    if not await run_in_threadpool(access.password_valid, qmgr, caller):
        raise refuse("not_authenticated", detail=WRONG_PASSWORD)
    sampler = shared_sampler()
    sampler.ensure_running()
    return JSONResponse(sampler.series(qmgr, request.query_params.get("queue")))


@authenticated
async def network_page(request: Request, caller: Caller) -> Response:
    picture = await _network_svg(caller)
    body = (f'<div id="network" data-poll="{pages.url("network", "svg")}">{picture}</div>'
            '<p>Green: running; amber: retrying, binding or starting; grey: stopped or inactive. '
            'Dashed: cluster membership.</p>')
    return HTMLResponse(pages.page("Network", body, user=caller.user))


@authenticated
async def network_svg(request: Request, caller: Caller) -> Response:
    return Response(await _network_svg(caller), media_type="image/svg+xml")


async def _network_svg(caller: Caller) -> str:
    views = await run_in_threadpool(data.network_views, caller)
    return network.svg(network.graph(views))


def routes() -> list[BaseRoute]:
    q = "/console/qmgr/{qmgr}"
    return [
        Route("/console", home, methods=["GET"]),
        Route("/console/login", login, methods=["GET"]),
        Route("/console/qmgr", qmgr_list, methods=["GET"]),
        Route(q, queue_list, methods=["GET"]),
        Route(q + "/queue/{queue}", queue_one, methods=["GET"]),
        Route(q + "/channels", channels, methods=["GET"]),
        Route(q + "/topics", topics, methods=["GET"]),
        Route(q + "/mqsc", mqsc, methods=["GET"]),
        Route(q + "/charts", charts, methods=["GET"]),
        Route(q + "/events", events, methods=["GET"]),
        Route("/console/api/qmgr/{qmgr}/samples", samples, methods=["GET"]),
        Route("/console/network", network_page, methods=["GET"]),
        Route("/console/network/svg", network_svg, methods=["GET"]),
        Mount(pages.STATIC, app=StaticFiles(directory=STATIC_DIR), name="console-static"),
    ]
