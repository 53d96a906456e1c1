"""The network picture, pure: queue managers as nodes, message channels and cluster membership as
edges coloured by status, drawn as SVG on the server (the console polls it).

An edge of a sending channel (SDR, SVR) goes from its queue manager to the one that has the
receiving end of the same name (RCVR, RQSTR) in this installation, else to the RQMNAME of its
status, else to its transmission queue's name; its colour is the sender's CHSTATUS (INACTIVE when
it has none). A cluster edge goes from a queue manager to each other member its DISPLAY CLUSQMGR
shows, coloured by that row's STATUS (the cluster-sender's).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from html import escape

RUNNING_COLOUR = "#2e7d32"  # green
TRANSIENT_COLOUR = "#f9a825"  # amber
IDLE_COLOUR = "#9e9e9e"  # grey
_TRANSIENT = frozenset({"RETRYING", "BINDING", "STARTING", "INITIALIZING", "REQUESTING", "SWITCHING", "PAUSED"})
_SENDERS = frozenset({"SDR", "SVR"})
_RECEIVERS = frozenset({"RCVR", "RQSTR"})


def colour(status: str) -> str:
    """RUNNING green, RETRYING/BINDING (and the other transitions) amber, anything else grey."""
    if status == "RUNNING":
        return RUNNING_COLOUR
    return TRANSIENT_COLOUR if status in _TRANSIENT else IDLE_COLOUR


@dataclass
class QmgrView:
    """What one queue manager showed: its channels (DISPLAY CHANNEL), their status (CHSTATUS)
    and its cluster's members (CLUSQMGR). ``reachable`` is False when it could not be asked."""

    name: str
    running: bool
    reachable: bool = True
    channels: list[dict[str, str]] = field(default_factory=list)
    chstatus: list[dict[str, str]] = field(default_factory=list)
    clusqmgrs: list[dict[str, str]] = field(default_factory=list)


@dataclass(frozen=True)
class Edge:
    kind: str  # "channel" | "cluster"
    name: str  # the channel's name, or the cluster's
    source: str
    target: str
    status: str

    @property
    def label(self) -> str:
        what = f"channel {self.name}" if self.kind == "channel" else f"cluster {self.name}"
        return f"{what} from {self.source} to {self.target}: {self.status}"


@dataclass
class Graph:
    nodes: list[tuple[str, str]]  # (name, state: running | ended | unknown)
    edges: list[Edge]


def graph(views: list[QmgrView]) -> Graph:
    receivers: dict[str, str] = {}
    for view in views:
        for ch in view.channels:
            if ch.get("CHLTYPE") in _RECEIVERS:
                receivers.setdefault(ch.get("CHANNEL", ""), view.name)
    nodes = {v.name: ("running" if v.running else "ended") for v in views}
    edges: list[Edge] = []
    for view in views:
        status_of = {row.get("CHANNEL", ""): row for row in view.chstatus}
        for ch in view.channels:
            name = ch.get("CHANNEL", "")
            if ch.get("CHLTYPE") not in _SENDERS or name.startswith("SYSTEM."):
                continue
            row = status_of.get(name, {})
            target = receivers.get(name) or row.get("RQMNAME") or ch.get("XMITQ") or ch.get("CONNAME", "?")
            nodes.setdefault(target, "unknown")
            edges.append(Edge("channel", name, view.name, target, row.get("STATUS", "INACTIVE")))
        for member in view.clusqmgrs:
            other = member.get("CLUSQMGR", "")
            if not other or other == view.name:
                continue
            nodes.setdefault(other, "unknown")
            edges.append(Edge("cluster", member.get("CLUSTER", ""), view.name, other,
                              member.get("STATUS", "INACTIVE")))
    return Graph(sorted(nodes.items()), edges)


def svg(g: Graph, width: int = 640, height: int = 420) -> str:
    """The picture: nodes on a circle, an arrow per edge (cluster edges dashed), a title on each."""
    cx, cy, r = width / 2, height / 2, min(width, height) / 2 - 60
    count = max(1, len(g.nodes))
    where = {name: (cx + r * math.cos(2 * math.pi * i / count - math.pi / 2),
                    cy + r * math.sin(2 * math.pi * i / count - math.pi / 2)) for i, (name, _) in enumerate(g.nodes)}
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
           f'height="{height}" role="img" aria-label="Network of queue managers">',
           '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" '
           'orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#555"/></marker></defs>']
    pairs: dict[frozenset[str], int] = {}
    for edge in g.edges:
        (x1, y1), (x2, y2) = where[edge.source], where[edge.target]
        key = frozenset((edge.source, edge.target))
        bend = 18 * (pairs.get(key, 0) + 1) * (1 if edge.source < edge.target else -1)
        pairs[key] = pairs.get(key, 0) + 1
        length = math.hypot(x2 - x1, y2 - y1) or 1.0
        ux, uy = (x2 - x1) / length, (y2 - y1) / length
        sx, sy, ex, ey = x1 + ux * 34, y1 + uy * 34, x2 - ux * 34, y2 - uy * 34
        mx, my = (sx + ex) / 2 - uy * bend, (sy + ey) / 2 + ux * bend
        dash = ' stroke-dasharray="6 4"' if edge.kind == "cluster" else ""
        out.append(f'<g class="edge" data-kind="{edge.kind}" data-{edge.kind}="{escape(edge.name)}" '
                   f'data-source="{escape(edge.source)}" data-target="{escape(edge.target)}" '
                   f'data-status="{escape(edge.status)}" role="img" aria-label="{escape(edge.label)}">'
                   f'<title>{escape(edge.label)}</title>'
                   f'<path d="M {sx:.1f} {sy:.1f} Q {mx:.1f} {my:.1f} {ex:.1f} {ey:.1f}" fill="none" '
                   f'stroke="{colour(edge.status)}" stroke-width="3"{dash} marker-end="url(#arrow)"/>'
                   f'<text x="{mx:.1f}" y="{my - 4:.1f}" font-size="11" text-anchor="middle">'
                   f'{escape(edge.name)} {escape(edge.status)}</text></g>')
    for name, state in g.nodes:
        x, y = where[name]
        fill = {"running": "#e3f2fd", "ended": "#eeeeee"}.get(state, "#fff8e1")
        out.append(f'<g class="node" data-qmgr="{escape(name)}" data-state="{state}" role="img" '
                   f'aria-label="queue manager {escape(name)}: {state}"><title>{escape(name)} ({state})</title>'
                   f'<circle cx="{x:.1f}" cy="{y:.1f}" r="32" fill="{fill}" stroke="#1565c0" stroke-width="2"/>'
                   f'<text x="{x:.1f}" y="{y + 4:.1f}" font-size="12" text-anchor="middle">{escape(name)}</text></g>')
    out.append("</svg>")
    return "".join(out)
