"""MQSC over cached cluster topic objects, against the real core: DISPLAY TOPIC TYPE(LOCAL |
CLUSTER | ALL), CLUSINFO and DISPLAY TCLUSTER (B:R-DSP-4, A-47), subscribing through a cluster
object's name, TPSTATUS of a cluster topic, and the CLROUTE alteration rule (B:R-RTE-13, A-24)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from mqlite.core import attributes
from mqlite.core.qmgr import QueueManager
from mqlite.core.security.service import administrator
from mqlite.mqsc.commands import execute, run_mqsc


def cached(name: str, topicstr: str, host: str, arrived: float, cluster: str = "CL1", **attrs: Any) -> dict[str, Any]:
    return {**attributes.defaults("TOPIC"), "TOPICSTR": topicstr, "CLUSTER": cluster, **attrs,
            "NAME": name, "CLUSQMGR": host, "ARRIVED": arrived}


@pytest.fixture
def qmgr() -> QueueManager:
    """QMB of F-CL1 with QMA's Football and Rugby cached (topics.tst, seed 003 §3.1.3)."""
    qm = QueueManager("QMB")
    qm.bootstrap()
    qm.tree.set_cluster_objects({
        "CL1/Football/QMA": cached("Football", "Sports/Football", "QMA", 1_700_000_000.0, WILDCARD="BLOCK"),
        "CL1/Rugby/QMA": cached("Rugby", "Sports/Rugby", "QMA", 1_700_000_001.0),
    })
    return qm


def run(qm: QueueManager, text: str) -> list[str]:
    return execute(qm, text)


def values(lines: list[str], key: str) -> list[str]:
    return [m.group(1) for line in lines for m in re.finditer(rf"\b{key}\((.*?)\)(?=\s|$)", line)]


def records(lines: list[str]) -> list[list[str]]:
    """The DISPLAY records, each its lines after the header."""
    out: list[list[str]] = []
    for line in lines:
        if line.startswith("AMQ8633I"):
            out.append([])
        elif out:
            out[-1].append(line)
    return out


def test_display_cluster_topics(qmgr: QueueManager) -> None:
    """B:SC-26, SC-25, R-DSP-4: TYPE(CLUSTER) lists the cached copies with CLUSQMGR, CLUSTER and
    CLROUTE; a named one shows all its attributes."""
    shown = run(qmgr, "DISPLAY TOPIC(*) TYPE(CLUSTER)")
    assert values(shown, "TOPIC") == ["Football", "Rugby"]
    assert values(shown, "TYPE") == ["CLUSTER", "CLUSTER"] and values(shown, "CLUSQMGR") == ["QMA", "QMA"]
    assert values(shown, "CLUSTER") == ["CL1", "CL1"] and values(shown, "CLROUTE") == ["DIRECT", "DIRECT"]
    football = run(qmgr, "DISPLAY TOPIC('Football') TYPE(CLUSTER)")
    assert values(football, "TOPICSTR") == ["Sports/Football"] and values(football, "WILDCARD") == ["BLOCK"]
    assert values(football, "CLUSDATE") and values(football, "CLUSTIME")
    wanted = run(qmgr, "DISPLAY TOPIC(*) TYPE(CLUSTER) TOPICSTR CLUSQMGR WHERE(WILDCARD EQ BLOCK)")
    assert values(wanted, "TOPIC") == ["Football"] and values(wanted, "TOPICSTR") == ["Sports/Football"]
    assert values(run(qmgr, "DISPLAY TOPIC(*) TYPE(CLUSTER) WHERE(CLUSQMGR EQ QMA)"), "TOPIC") == ["Football", "Rugby"]


def test_a_local_display_shows_no_copies(qmgr: QueueManager) -> None:
    """B:R-DSP-4, A-47: TYPE(LOCAL) is the default; copies appear only when asked for."""
    for command in ("DISPLAY TOPIC(*)", "DISPLAY TOPIC(*) TYPE(LOCAL)"):
        assert "Football" not in values(run(qmgr, command), "TOPIC")
        assert "SYSTEM.BASE.TOPIC" in values(run(qmgr, command), "TOPIC")
    assert run(qmgr, "DISPLAY TOPIC('Football')") == ["AMQ8147E: WebSphere MQ object Football not found."]
    assert run(qmgr, "DISPLAY TOPIC(CRICKET) TYPE(CLUSTER)") == ["AMQ8147E: WebSphere MQ object CRICKET not found."]
    assert run(qmgr, "DISPLAY TOPIC(SYSTEM.BASE.TOPIC) TYPE(CLUSTER)") == [
        "AMQ8147E: WebSphere MQ object SYSTEM.BASE.TOPIC not found."]
    result = run_mqsc(qmgr, "DISPLAY TOPIC(*) TYPE(REMOTE)\n")
    assert result.syntax_errors == 1


def test_local_and_cluster_object_of_the_same_name(qmgr: QueueManager) -> None:
    """B:SC-31, R-CTD-5: DISPLAY TOPIC(Alabama) TYPE(ALL) gives two records, LOCAL then CLUSTER;
    CLUSINFO and DISPLAY TCLUSTER agree; deleting the local object leaves the cached one."""
    run(qmgr, "DEFINE TOPIC(Alabama) TOPICSTR('USA/Alabama')")  # both named ALABAMA: MQSC upper-cases
    qmgr.tree.set_cluster_objects({"CL1/ALABAMA/QMA": cached("ALABAMA", "USA/Alabama", "QMA", 1_700_000_005.0)})
    both = run(qmgr, "DISPLAY TOPIC(Alabama) TYPE(ALL)")
    assert [values(r, "TYPE") for r in records(both)] == [["LOCAL"], ["CLUSTER"]]
    assert values(both, "CLUSQMGR") == ["QMA"] and values(both, "CLUSTER") == [" ", "CL1"]
    assert run(qmgr, "DISPLAY TOPIC(Alabama) CLUSINFO") == both
    # the repository hands over the complete set: QMA's Football and Rugby are gone
    assert values(run(qmgr, "DISPLAY TOPIC(*) CLUSINFO"), "TOPIC") == ["ALABAMA", "ALABAMA", "SYSTEM.BASE.TOPIC",
                                                                    "SYSTEM.BROKER.ADMIN.STREAM"]
    assert values(run(qmgr, "DISPLAY TCLUSTER(Alabama)"), "TYPE") == ["CLUSTER"]
    assert qmgr.tree.resolved(qmgr.tree.node("USA/Alabama/Mobile"))["CLUSTER"] == ""  # the local one is used
    assert run(qmgr, "DELETE TOPIC(Alabama)") == ["AMQ8692I: WebSphere MQ topic deleted."]
    assert values(run(qmgr, "DISPLAY TOPIC(Alabama) TYPE(ALL)"), "TYPE") == ["CLUSTER"]
    assert qmgr.tree.resolved(qmgr.tree.node("USA/Alabama/Mobile"))["CLUSTER"] == "CL1"
    assert run(qmgr, "DELETE TOPIC(Alabama)") == ["AMQ8147E: WebSphere MQ object ALABAMA not found."]


def test_display_through_the_checked_admin(qmgr: QueueManager) -> None:
    """B:R-DSP-4 as an administrator runs it (runmqsc goes through the authority checks)."""
    admin = qmgr.admin_for(administrator("mqm"))
    assert values(execute(admin, "DISPLAY TOPIC(*) TYPE(CLUSTER)"), "TOPIC") == ["Football", "Rugby"]


def test_subscribe_through_a_cluster_object_name(qmgr: QueueManager) -> None:
    """B:R-CTD-5 (3), spec A TV-MC-06..10: DEFINE SUB TOPICOBJ(a cluster object cached here)."""
    run(qmgr, "DEFINE QLOCAL(QFARSENAL)")
    assert run(qmgr, "DEFINE SUB(FARSENAL) TOPICOBJ('Football') TOPICSTR('Arsenal') DEST(QFARSENAL)") == [
        "AMQ8094I: WebSphere MQ subscription created."]
    assert values(run(qmgr, "DISPLAY SUB(FARSENAL)"), "RESOLVED") == ["Sports/Football/Arsenal"]
    assert run(qmgr, "DEFINE SUB(X) TOPICOBJ(Cricket) DEST(QFARSENAL)") == [
        "AMQ8147E: WebSphere MQ object X not found."]


def test_tpstatus_of_a_cluster_topic(qmgr: QueueManager) -> None:
    """B:R-CTD-3, A-18 (DISPLAY TPSTATUS shows what each topic string uses): ADMIN names the
    cluster object, CLUSTER is resolved through it."""
    qmgr.tree.node("Sports/Rugby/Leeds")
    rugby = run(qmgr, "DISPLAY TPSTATUS('Sports/Rugby') TYPE(TOPIC)")
    assert values(rugby, "ADMIN") == ["Rugby"] and values(rugby, "CLUSTER") == ["CL1"]
    leeds = run(qmgr, "DISPLAY TPSTATUS('Sports/Rugby/Leeds') TYPE(TOPIC)")
    assert values(leeds, "ADMIN") == [" "] and values(leeds, "CLUSTER") == ["CL1"]


# -- CLROUTE (B:R-RTE-13, A-24, SC-50) -----------------------------------------------------------------
def test_clroute_is_not_alterable_while_clustered() -> None:
    """B:SC-50, A-24: ALTER CLROUTE while CLUSTER(DEMO) fails and changes nothing; clearing
    CLUSTER, altering CLROUTE and setting CLUSTER again is accepted."""
    qm = QueueManager("QM1")
    qm.bootstrap()
    assert run(qm, "DEFINE TOPIC(PRICE) TOPICSTR('Price') CLUSTER(DEMO) CLROUTE(TOPICHOST)") == [
        "AMQ8690I: WebSphere MQ topic created."]
    result = run_mqsc(qm, "ALTER TOPIC(PRICE) CLROUTE(DIRECT)\n")
    assert result.failed == 1 and any("MQRCCF_CLROUTE_NOT_ALTERABLE (3367)" in line for line in result.lines)
    assert values(run(qm, "DISPLAY TOPIC(PRICE)"), "CLROUTE") == ["TOPICHOST"]
    result = run_mqsc(qm, "ALTER TOPIC(PRICE) CLUSTER('')\nALTER TOPIC(PRICE) CLROUTE(DIRECT)\n"
                          "ALTER TOPIC(PRICE) CLUSTER(DEMO)\n")
    assert result.failed == 0 and result.syntax_errors == 0
    shown = run(qm, "DISPLAY TOPIC(PRICE)")
    assert (values(shown, "CLROUTE"), values(shown, "CLUSTER")) == (["DIRECT"], ["DEMO"])


def test_clroute_with_cluster_cleared_in_the_same_alter() -> None:
    """A-24: one ALTER that clears CLUSTER may change CLROUTE; re-stating the current CLROUTE
    is no alteration; DEFINE ... REPLACE may set both."""
    qm = QueueManager("QM1")
    qm.bootstrap()
    run(qm, "DEFINE TOPIC(PRICE) TOPICSTR('Price') CLUSTER(DEMO)")
    assert run(qm, "ALTER TOPIC(PRICE) CLROUTE(DIRECT)") == ["AMQ8691I: WebSphere MQ topic changed."]
    assert run(qm, "ALTER TOPIC(PRICE) CLUSTER('') CLROUTE(TOPICHOST)") == ["AMQ8691I: WebSphere MQ topic changed."]
    assert run(qm, "ALTER TOPIC(PRICE) CLUSTER(DEMO) CLROUTE(DIRECT)") == ["AMQ8691I: WebSphere MQ topic changed."]
    assert run(qm, "DEFINE TOPIC(PRICE) CLUSTER(DEMO) CLROUTE(TOPICHOST) REPLACE") == [
        "AMQ8690I: WebSphere MQ topic created."]
    assert values(run(qm, "DISPLAY TOPIC(PRICE)"), "CLROUTE") == ["TOPICHOST"]
