"""NAMELIST objects through runmqsc on a running queue manager (the server in this process, MQSC
over the native protocol, checked as the caller, written to its store) and after a restart."""

from __future__ import annotations

from pathlib import Path

import mqlite

QM = "NL.QM"


def test_namelists_through_runmqsc_survive_a_restart(tmp_path: Path) -> None:
    with mqlite.embedded(QM, home=tmp_path):
        qm = mqlite.connect(QM)
        code, lines = qm.mqsc("DEFINE NAMELIST(CLUSTERS) NAMES(CL1, CL2) DESCR('Clusters of APP')\n"
                              "DEFINE NAMELIST(GONE)\n"
                              "DELETE NAMELIST(GONE)\n"
                              "ALTER NAMELIST(SYSTEM.QPUBSUB.QUEUE.NAMELIST) +\n"
                              "  NAMES(SYSTEM.BROKER.DEFAULT.STREAM+\n"
                              "  ,SYSTEM.BROKER.ADMIN.STREAM,SYSTEM.FTE)\n"
                              "DEFINE NAMELIST(CLUSTERS) NAMES(CL3)\n")
        qm.disconnect()
    assert code == 10, lines
    assert [line for line in lines if line.startswith("AMQ")] == [
        "AMQ8552I: WebSphere MQ namelist created.", "AMQ8552I: WebSphere MQ namelist created.",
        "AMQ8553I: WebSphere MQ namelist deleted.", "AMQ8551I: WebSphere MQ namelist changed.",
        "AMQ8150E: WebSphere MQ object already exists."]

    with mqlite.embedded(QM, home=tmp_path):
        qm = mqlite.connect(QM)
        code, lines = qm.mqsc("DISPLAY NAMELIST(*) NAMES DESCR\n")
        qm.disconnect()
    assert code == 0, lines
    shown = [" ".join(line.split()) for line in lines]  # runmqsc's column padding aside
    assert shown[shown.index("NAMELIST(CLUSTERS) NAMCOUNT(2)") + 1:][:3] == [
        "NAMES(CL1", ",CL2)", "DESCR(Clusters of APP)"]
    assert "NAMELIST(GONE)" not in "\n".join(lines)
    assert shown[shown.index("NAMELIST(SYSTEM.QPUBSUB.QUEUE.NAMELIST) NAMCOUNT(3)") + 1:][:3] == [
        "NAMES(SYSTEM.BROKER.DEFAULT.STREAM", ",SYSTEM.BROKER.ADMIN.STREAM", ",SYSTEM.FTE)"]
    assert "NAMELIST(SYSTEM.DEFAULT.NAMELIST) NAMCOUNT(0)" in shown
