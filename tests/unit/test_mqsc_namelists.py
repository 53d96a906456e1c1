"""NAMELIST objects through MQSC (the executor runmqsc runs, over a core queue manager): IBM's
messages (AMQ8552I created, AMQ8551I changed, AMQ8553I deleted, AMQ8550I display) and IBM's
DISPLAY layout, in which NAMCOUNT is always shown and NAMES has one name a line:

    AMQ8550I: Display namelist details.
       NAMELIST(SYSTEM.QPUBSUB.QUEUE.NAMELIST)
       NAMCOUNT(2)
       NAMES(SYSTEM.BROKER.DEFAULT.STREAM
            ,SYSTEM.BROKER.ADMIN.STREAM)
       DESCR(A list of queues for the queued Pub/Sub interface to monitor)
       ALTDATE(2022-09-06)                     ALTTIME(17.07.08)

(runmqsc 9.1's output; mqlite pairs two short items on a line as it does for every type)."""

from __future__ import annotations

from typing import Any

from mqlite.core import attributes
from mqlite.core.qmgr import QueueManager
from mqlite.core.security.principal import Principal
from mqlite.mqsc.commands import execute, run_mqsc


def pair(left: str, right: str) -> str:
    """Two items on one line, as runmqsc lays them out (the left one in a 40-character column)."""
    return "   " + left.ljust(40) + right


def test_define_alter_delete_messages(qm: QueueManager) -> None:
    result = run_mqsc(qm, "DEFINE NAMELIST(CLUSTERS) NAMES(CL1, CL2) DESCR('Clusters') NLTYPE(CLUSTER)\n"
                          "ALTER NL(CLUSTERS) NAMES(CL1,CL2,CL3)\n"
                          "DEF NL(COPY) LIKE(CLUSTERS)\n"
                          "DELETE NAMELIST(COPY)\n")
    assert [line for line in result.lines if line.startswith("AMQ")] == [
        "AMQ8552I: WebSphere MQ namelist created.", "AMQ8551I: WebSphere MQ namelist changed.",
        "AMQ8552I: WebSphere MQ namelist created.", "AMQ8553I: WebSphere MQ namelist deleted."]
    assert result.exit_code == 0
    assert qm.admin.namelists.names("CLUSTERS") == ("CL1", "CL2", "CL3")


def test_display_in_ibms_layout(qm: QueueManager, clock: Any) -> None:
    date, time_ = attributes.date_and_time(clock.now)
    assert execute(qm, "DISPLAY NAMELIST(SYSTEM.QPUBSUB.QUEUE.NAMELIST)") == [
        "AMQ8550I: Display namelist details.",
        pair("NAMELIST(SYSTEM.QPUBSUB.QUEUE.NAMELIST)", "NAMCOUNT(2)"),
        "   NAMES(SYSTEM.BROKER.DEFAULT.STREAM",
        "        ,SYSTEM.BROKER.ADMIN.STREAM)",
        "   DESCR(A list of queues for the queued Pub/Sub interface to monitor)",
        pair(f"ALTDATE({date})", f"ALTTIME({time_})"),
        "   NLTYPE(NONE)",
    ]
    execute(qm, "DEFINE NL(ONE) NAMES(CL1)")
    assert execute(qm, "DISPLAY NL(ONE) ALL") == [
        "AMQ8550I: Display namelist details.",
        pair("NAMELIST(ONE)", "NAMCOUNT(1)"),
        pair("NAMES(CL1)", "DESCR( )"),
        pair(f"ALTDATE({date})", f"ALTTIME({time_})"),
        "   NLTYPE(NONE)",
    ]


def test_display_generic_requested_and_where(qm: QueueManager) -> None:
    execute(qm, "DEFINE NL(APP.A) NAMES(X, Y)")
    execute(qm, "DEFINE NL(APP.B) NAMES()")
    assert execute(qm, "DISPLAY NL(APP.*)") == [  # generic: the name and NAMCOUNT only
        "AMQ8550I: Display namelist details.", pair("NAMELIST(APP.A)", "NAMCOUNT(2)"),
        "AMQ8550I: Display namelist details.", pair("NAMELIST(APP.B)", "NAMCOUNT(0)")]
    assert execute(qm, "DISPLAY NL(APP.*) NAMES") == [
        "AMQ8550I: Display namelist details.", pair("NAMELIST(APP.A)", "NAMCOUNT(2)"),
        "   NAMES(X", "        ,Y)",
        "AMQ8550I: Display namelist details.", pair("NAMELIST(APP.B)", "NAMCOUNT(0)"),
        "   NAMES( )"]
    shown = execute(qm, "DISPLAY NL(*) WHERE(NAMES CT Y)")
    assert [line for line in shown if "NAMELIST(" in line] == [pair("NAMELIST(APP.A)", "NAMCOUNT(2)")]
    shown = execute(qm, "DISPLAY NL(*) WHERE(NAMCOUNT GE 2)")
    assert [line.split()[0] for line in shown if "NAMELIST(" in line] == [
        "NAMELIST(APP.A)", "NAMELIST(SYSTEM.QPUBSUB.QUEUE.NAMELIST)"]


def test_refusals(qm: QueueManager) -> None:
    execute(qm, "DEFINE NL(N) NAMES(A)")
    too_many = ",".join(f"N{i}" for i in range(257))
    result = run_mqsc(qm, "\n".join([
        "DEFINE NL(N) NAMES(B)",  # exists, no REPLACE
        "DEFINE NL(N2) NAMCOUNT(2)",  # derived, not settable
        "DEFINE NL(N2) NLTYPE(TOPIC)",
        "DEFINE NL(N2) NAMES(" + "X" * 49 + ")",
        f"DEFINE NL(N2) NAMES({too_many})",
        "DEFINE NL(N2) LIKE(NO.SUCH)",
        "ALTER NL(NO.SUCH) DESCR('x')",
        "DELETE NL(NO.SUCH)",
        "DISPLAY NL(NO.SUCH)",
        "DEFINE NL(N) NAMES(B) REPLACE",
    ]))
    text = "\n".join(result.lines)
    assert result.syntax_errors == 2 and result.failed == 7, text
    assert "AMQ8150E: WebSphere MQ object already exists." in text
    assert "NAMCOUNT of NAMELIST cannot be set" in text
    assert text.count("MQRCCF_PARM_VALUE_ERROR (3229)") == 2
    assert "AMQ8147E: WebSphere MQ object NO.SUCH not found." in text
    assert qm.admin.namelists.names("N") == ("B",)


def test_persisted_and_restored_through_the_store(store_mq: Any, recover: Any) -> None:
    assert run_mqsc(store_mq.qm, "DEFINE NL(KEPT) NAMES(CL1,CL2) DESCR('kept')\n").exit_code == 0
    store_mq.flush()
    again = recover().qm
    shown = execute(again, "DISPLAY NL(KEPT) NAMES DESCR")
    assert shown[1:] == [pair("NAMELIST(KEPT)", "NAMCOUNT(2)"),
                         "   NAMES(CL1", "        ,CL2)", "   DESCR(kept)"]


def test_checked_mqsc_for_an_administrator() -> None:
    qm = QueueManager("QM1", creator="owner")
    qm.bootstrap()
    admin = qm.admin_for(Principal("owner"))
    assert run_mqsc(admin, "DEFINE NL(N) NAMES(A)\nDISPLAY NL(N)\nDELETE NL(N)\n").exit_code == 0
    bob = qm.admin_for(Principal("bob"))
    assert execute(bob, "DEFINE NL(N) NAMES(A)") == ["AMQ8135E: Not authorized."]
