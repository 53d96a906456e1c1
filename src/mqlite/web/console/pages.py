"""The console's HTML, pure: a page layout, tables with header cells, forms with labels. Every
value is escaped; every control has an accessible name (its label, or aria-label)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape
from urllib.parse import quote as url_quote

BASE = "/console"
STATIC = "/console/static"
QMGR_PAGES = ("Channels", "Topics", "Charts", "Events")


def url(*parts: str) -> str:
    return BASE + "".join("/" + url_quote(p, safe="") for p in parts)


def page(title: str, body: str, qmgr: str | None = None, user: str | None = None) -> str:
    nav = [f'<a href="{url("qmgr")}">Queue managers</a>', f'<a href="{url("network")}">Network</a>']
    if qmgr:
        nav.append(f'<a href="{url("qmgr", qmgr)}">Queues</a>')
        nav += [f'<a href="{url("qmgr", qmgr, part.lower())}">{part}</a>' for part in QMGR_PAGES]
        nav.append(f'<a href="{url("qmgr", qmgr, "mqsc")}">MQSC</a>')
    who = (f'<span class="user">{escape(user)}</span> <button type="button" id="logout">Log out</button>'
           if user else "")
    return (f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{escape(title)} - mqlite console'
            f'</title><link rel="stylesheet" href="{STATIC}/console.css"><script src="{STATIC}/console.js" defer>'
            f'</script></head><body><header><span class="brand">mqlite console</span>'
            f'<nav aria-label="Main">{" ".join(nav)}</nav>{who}</header>'
            f'<main><h1>{escape(title)}</h1>{body}</main></body></html>')


def table(caption: str, headers: Sequence[str], rows: Iterable[Sequence[str]], raw: bool = False,
          empty: str = "None.") -> str:
    """A table; cells are escaped unless ``raw`` (then the caller escaped them)."""
    body = "".join("<tr>" + "".join(f"<td>{cell if raw else escape(cell)}</td>" for cell in row) + "</tr>"
                   for row in rows)
    if not body:
        body = f'<tr><td colspan="{len(headers)}">{escape(empty)}</td></tr>'
    head = "".join(f'<th scope="col">{escape(h)}</th>' for h in headers)
    return f"<table><caption>{escape(caption)}</caption><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def link(href: str, text: str) -> str:
    return f'<a href="{escape(href)}">{escape(text)}</a>'


def field(label: str, name: str, value: str = "", kind: str = "text", required: bool = True) -> str:
    ident = "f-" + name
    return (f'<label for="{ident}">{escape(label)}</label> <input id="{ident}" name="{escape(name)}" type="{kind}" '
            f'value="{escape(value)}"{" required" if required else ""}>')


def form(action: str, label: str, fields: str, button: str, extra: str = "") -> str:
    """A form the console's script sends (``data-action``): no plain POST, which the CSRF rule refuses."""
    return (f'<form data-action="{escape(action)}" aria-label="{escape(label)}" {extra}>{fields} '
            f'<button type="submit">{escape(button)}</button></form>')


def status_badge(status: str) -> str:
    kind = "running" if status == "RUNNING" else "transient" if status in {
        "RETRYING", "BINDING", "STARTING", "INITIALIZING", "REQUESTING"} else "idle"
    return f'<span class="status {kind}">{escape(status)}</span>'


def chart(label: str, src: str, series: str) -> str:
    """A live chart: the script polls ``src`` and draws ``series`` (depth, putRate, getRate)."""
    return (f'<figure class="chart" data-src="{escape(src)}" data-series="{escape(series)}">'
            f'<svg role="img" aria-label="{escape(label)}" viewBox="0 0 400 120" width="400" height="120"></svg>'
            f'<figcaption><span class="chart-title">{escape(label)}</span>: '
            f'<output class="latest" aria-label="{escape(label)} latest">no samples yet</output></figcaption></figure>')


def login(next_url: str) -> str:
    fields = (field("User", "username") + " " + field("Password", "password", kind="password"))
    return page("Log in", f'<form id="login" aria-label="Log in" data-next="{escape(next_url)}">{fields} '
                          f'<button type="submit">Log in</button></form><p role="alert" id="login-error"></p>')


def error(title: str, message: str, user: str | None = None) -> str:
    return page(title, f'<p role="alert">{escape(message)}</p>', user=user)
