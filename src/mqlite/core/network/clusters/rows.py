"""DISPLAY QCLUSTER and DISPLAY CLUSQMGR: what the repository cache shows, IBM's keywords.

- QCLUSTER: a row per cluster queue instance known here (this queue manager's own too), with
  CLUSQMGR (its host), CLUSTER, CLUSQT (its queue type), QMID and what the host published
  (B:R-CLQ-3, A-48).
- CLUSQMGR: a row per cluster member known here, per cluster: CHANNEL (its cluster-receiver),
  CONNAME, QMTYPE (REPOS for a full repository, else NORMAL), DEFTYPE (CLUSRCVR for this queue
  manager; CLUSSDR, CLUSSDRA or CLUSSDRB for the others: a manual cluster-sender, an
  automatic one, or both), STATUS (its channel's), SUSPEND; a manual cluster-sender whose
  partner is not known yet shows as SYSTEM.TEMPQMGR.<conname>, as IBM's does.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from mqlite.core import attributes
from mqlite.core.network.clusters.channels import deftype
from mqlite.core.network.clusters.repository import ClusterRecord
from mqlite.core.network.clusters.service import ClusterState

__all__ = ["clusqmgr_rows", "qcluster_rows"]

_QMID = "QMID"


def _stamp_date(record: ClusterRecord) -> tuple[str, str]:
    return attributes.date_and_time(record.stamp[0])


def qcluster_rows(state: ClusterState, generic: str) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for record in state.live("QUEUE"):
        if not attributes.generic_match(generic, record.name) or record.cluster not in state.member_of():
            continue
        host = state.qmgr_record(record.owner, [record.cluster])
        date, clock = _stamp_date(record)
        attrs = {k: v for k, v in record.attrs.items() if k not in ("QTYPE",)}
        rows.append({"QUEUE": record.name, "TYPE": "QCLUSTER", "CLUSQMGR": record.owner, "CLUSTER": record.cluster,
                     "CLUSQT": str(record.attrs.get("QTYPE", "QLOCAL")),
                     _QMID: str(host.attrs.get("QMID", record.owner)) if host is not None else record.owner,
                     "CLUSDATE": date, "CLUSTIME": clock, **attrs})
    return sorted(rows, key=lambda r: (r["QUEUE"], r["CLUSQMGR"], r["CLUSTER"]))


def clusqmgr_rows(state: ClusterState, channels: Mapping[str, Mapping[str, Any]], status: Callable[[str], str],
                  generic: str, cluster: str | None = None) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    known_partners: set[str] = set()
    for record in state.live("QMGR"):
        if cluster is not None and record.cluster != cluster:
            continue
        if not attributes.generic_match(generic, record.name) or record.cluster not in state.member_of():
            continue
        channel = str(record.attrs.get("CHANNEL", ""))
        known_partners.add(channel)
        if record.owner == state.name:
            kind, shown = "CLUSRCVR", "RUNNING"
        else:
            held = channels.get(channel, {})
            manual = held.get("CHLTYPE") == "CLUSSDR" and not held.get("_AUTODEF")
            kind = deftype(manual, bool(held.get("_AUTODEF") or held.get("_AUTOTOO")))
            shown = status(channel)
        date, clock = _stamp_date(record)
        published = {k: v for k, v in record.attrs.items() if k not in ("CHANNEL", _QMID, "REPOS", "SUSPEND")}
        rows.append({"CLUSQMGR": record.name, "CHANNEL": channel, "CLUSTER": record.cluster,
                     "QMTYPE": "REPOS" if record.attrs.get("REPOS") else "NORMAL", "DEFTYPE": kind,
                     "STATUS": shown, "SUSPEND": "YES" if record.attrs.get("SUSPEND") else "NO",
                     _QMID: str(record.attrs.get(_QMID, record.name)), "CLUSDATE": date, "CLUSTIME": clock,
                     **published})
    for name, attrs in sorted(channels.items()):  # manual cluster-senders to partners not heard from yet
        if (attrs.get("CHLTYPE") != "CLUSSDR" or attrs.get("_AUTODEF") or attrs.get("_RQMNAME")
                or name in known_partners):
            continue
        temp = f"SYSTEM.TEMPQMGR.{attrs.get('CONNAME', '')}"
        for member_of in state.clusters_of(attrs):
            if (cluster is None or member_of == cluster) and attributes.generic_match(generic, temp):
                rows.append({"CLUSQMGR": temp, "CHANNEL": name, "CLUSTER": member_of, "QMTYPE": "REPOS",
                             "DEFTYPE": "CLUSSDR", "STATUS": status(name), "SUSPEND": "NO",
                             "CONNAME": attrs.get("CONNAME", "")})
    return sorted(rows, key=lambda r: (r["CLUSQMGR"], r["CLUSTER"]))
