"""The cluster verbs of MQSC: SUSPEND QMGR and RESUME QMGR (CLUSTER or CLUSNL), REFRESH CLUSTER
(REPOS), RESET CLUSTER ACTION(FORCEREMOVE) QMNAME. The messages' numbers are from memory of
IBM's runmqsc (no seed prints them)."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from mqlite import cmqc
from mqlite.core.errors import MQError
from mqlite.mqsc.parser import Command

__all__ = ["ClusterAdmin", "handles", "run"]


@runtime_checkable
class ClusterAdmin(Protocol):
    def suspend_cluster(self, cluster: str, namelist: str, suspended: bool, mode: str = "QUIESCE") -> None: ...

    def refresh_cluster(self, cluster: str, repos: bool) -> int: ...

    def reset_cluster(self, cluster: str, qmname: str, qmid: str, queues: bool) -> int: ...

    def switch_channels(self, generic: str, query: bool, move: bool) -> list[dict[str, Any]]: ...


def handles(cmd: Command) -> bool:
    return ((cmd.verb in ("SUSPEND", "RESUME") and cmd.objtype == "QMGR") or cmd.verb == "SWITCH"
            or (cmd.verb in ("REFRESH", "RESET") and cmd.objtype == "CLUSTER"))


def _text(cmd: Command, key: str) -> str:
    value: Any = cmd.attrs.get(key, "")
    return str(value).strip()


def run(admin: Any, cmd: Command) -> list[str]:
    if not isinstance(admin, ClusterAdmin):
        raise MQError(cmqc.MQRC_FUNCTION_NOT_SUPPORTED, f"{cmd.verb} {cmd.objtype} is not supported here")
    if cmd.verb in ("SUSPEND", "RESUME"):
        cluster, namelist = _text(cmd, "CLUSTER"), _text(cmd, "CLUSNL")
        if bool(cluster) == bool(namelist):
            raise cmd.error(f"{cmd.verb} QMGR needs CLUSTER or CLUSNL (one of them)", cmd.verb)
        mode = _text(cmd, "MODE").upper() or "QUIESCE"
        if mode not in ("QUIESCE", "FORCE") or (mode != "QUIESCE" and cmd.verb == "RESUME"):
            raise cmd.error(f"MODE({mode}) is not valid here", "MODE")
        admin.suspend_cluster(cluster, namelist, cmd.verb == "SUSPEND", mode)
        return ["AMQ8569I: Suspend Queue Manager Cluster accepted." if cmd.verb == "SUSPEND"
                else "AMQ8570I: Resume Queue Manager Cluster accepted."]
    name = cmd.name or ""
    if cmd.verb == "SWITCH":
        return _switch(admin, cmd, name)
    if cmd.verb == "REFRESH":
        repos = _text(cmd, "REPOS").upper() or "NO"
        if repos not in ("YES", "NO"):
            raise cmd.error("REPOS must be YES or NO", "REPOS")
        admin.refresh_cluster(name, repos == "YES")
        return ["AMQ8559I: Refresh Cluster accepted."]
    action = _text(cmd, "ACTION").upper()
    if action != "FORCEREMOVE":
        raise cmd.error("RESET CLUSTER needs ACTION(FORCEREMOVE)", "ACTION")
    qmname, qmid = _text(cmd, "QMNAME"), _text(cmd, "QMID")
    if bool(qmname) == bool(qmid):
        raise cmd.error("RESET CLUSTER needs QMNAME or QMID (one of them)", "QMNAME")
    queues = _text(cmd, "QUEUES").upper() or "NO"
    if queues not in ("YES", "NO"):
        raise cmd.error("QUEUES must be YES or NO", "QUEUES")
    admin.reset_cluster(name, qmname, qmid, queues == "YES")
    return ["AMQ8571I: Reset Cluster accepted."]


def _switch(admin: ClusterAdmin, cmd: Command, name: str) -> list[str]:
    """SWITCH CHANNEL(generic) [STATUS] [MOVEMSGS(YES|NO)]: the cluster-senders at rest whose
    transmission queue the configuration changed switch now (runswchl); STATUS only reports."""
    move = str(cmd.options.get("MOVEMSGS", "YES")).upper()
    if move not in ("YES", "NO"):
        raise cmd.error("MOVEMSGS must be YES or NO", "MOVEMSGS")
    rows = admin.switch_channels(name or "*", "STATUS" in cmd.flags, move == "YES")
    lines = []
    for row in rows:
        lines.append(f"Cluster sender channel: '{row['CHANNEL']}'")
        lines.append(f"  Current transmission queue: '{row['XMITQ']}'")
        if row["STATE"] == "NOT_NEEDED":
            lines.append("  Transmission queue switch not required.")
            continue
        lines.append(f"  New transmission queue: '{row['NEWXMITQ']}'")
        if row["STATE"] == "RUNNING":
            lines.append("  Channel running: it switches at its next start (stop it to switch now).")
        elif row["STATE"] == "PENDING":
            lines.append(f"  Transmission queue switch required, messages to move: {row['MESSAGES']}")
        else:
            lines.append(f"  Transmission queue switched, messages moved: {row['MESSAGES']}")
    return lines or [f"AMQ8147E: WebSphere MQ object {name} not found."]
