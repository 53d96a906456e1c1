"""Cluster-sender channels a queue manager defines for itself (B:R-CXQ-7): "created
automatically ... when there is a message to transfer to a cluster queue manager", "with the same
name as the name of the cluster-receiver channel that receives cluster messages for that
particular cluster on the destination queue manager".

``auto_sender`` builds one from the destination's published CLUSRCVR: its name, CONNAME and
cluster, and the attributes a CLUSRCVR publishes for its senders (batching, heartbeats, TLS,
workload); the local queue manager's retry timers. DISPLAY CLUSQMGR shows it as DEFTYPE(CLUSSDRA)
when there is no manual CLUSSDR to that queue manager, CLUSSDRB when there is one too
(``deftype``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["PUBLISHED", "auto_sender", "deftype"]

# What a cluster-receiver's definition passes on to the senders that partners build from it.
PUBLISHED = ("CONNAME", "CLUSTER", "CLUSNL", "BATCHSZ", "BATCHINT", "BATCHLIM", "BATCHHB", "HBINT", "MAXMSGL",
             "NPMSPEED", "SEQWRAP", "DISCINT", "SSLCIPH", "SSLPEER", "CONVERT", "NETPRTY", "CLWLRANK",
             "CLWLPRTY", "CLWLWGHT", "DESCR")
_LOCAL = ("SHORTRTY", "SHORTTMR", "LONGRTY", "LONGTMR")  # the sending end's own retry timers


def auto_sender(clusrcvr_name: str, published: Mapping[str, Any], local_defaults: Mapping[str, Any]) -> dict[str, Any]:
    """The CLUSSDR definition for a partner's published cluster-receiver ``clusrcvr_name``."""
    attrs: dict[str, Any] = {"CHLTYPE": "CLUSSDR", "CHANNEL": clusrcvr_name, "AUTODEF": True}
    attrs.update({k: published[k] for k in PUBLISHED if k in published})
    attrs.update({k: local_defaults[k] for k in _LOCAL if k in local_defaults})
    return attrs


def deftype(manual: bool, automatic: bool) -> str:
    """DISPLAY CLUSQMGR DEFTYPE of a remote queue manager: a manual cluster-sender only
    (CLUSSDR), an automatic one only (CLUSSDRA), or both (CLUSSDRB)."""
    if manual and automatic:
        return "CLUSSDRB"
    return "CLUSSDR" if manual else "CLUSSDRA"
