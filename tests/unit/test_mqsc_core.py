"""MQSC against the real core engine (sans-IO, no store): the executor and QueueManager agree."""

from __future__ import annotations

from typing import Any

from mqlite.core.qmgr import QueueManager
from mqlite.mqsc.commands import AdminAPI, run_mqsc


def make_qmgr() -> QueueManager:
    qm = QueueManager("QM1")
    qm.bootstrap()
    return qm


def test_queue_manager_implements_admin_api() -> None:
    assert isinstance(make_qmgr(), AdminAPI)


def test_script_against_core() -> None:
    qm = make_qmgr()
    result = run_mqsc(qm, (
        "DEFINE QLOCAL(APP.IN) DESCR('My queue') MAXDEPTH(42) NOSHARE\n"
        "DEFINE QLOCAL(APP.IN) REPLACE MAXDEPTH(43)\n"
        "DEFINE QALIAS(APP.ALIAS) TARGQ(APP.IN)\n"
        "ALTER QMGR TREELIFE(900)\n"
        "DISPLAY QLOCAL(APP.IN) MAXDEPTH SHARE DESCR\n"
        "DISPLAY QMGR TREELIFE\n"
        "DISPLAY QSTATUS(APP.IN)\n"
        "CLEAR QLOCAL(APP.IN)\n"
        "DELETE QALIAS(APP.ALIAS)\n"
        "DELETE QLOCAL(APP.IN)\n"
    ))
    assert result.exit_code == 0, "\n".join(result.lines)
    text = "\n".join(result.lines)
    # REPLACE redefines: unspecified attributes return to their defaults (IBM's rule).
    assert "   DESCR( )                                MAXDEPTH(43)" in text
    assert "   SHARE" in text and "TREELIFE(900)" in text and "CURDEPTH(0)" in text
    assert "APP.IN" not in qm.qdefs


def test_errors_against_core() -> None:
    result = run_mqsc(make_qmgr(), "DEFINE QLOCAL(X)\nDEFINE QLOCAL(X)\nDELETE QLOCAL(NOPE)\nDIS QL(NOPE)\n")
    assert result.failed == 3 and result.exit_code == 10
    assert "AMQ8150E: WebSphere MQ object already exists." in result.lines
    assert result.lines.count("AMQ8147E: WebSphere MQ object NOPE not found.") == 2


def test_hstate_shows_a_handle_with_a_waiting_get(mq: Any, q: Any) -> None:
    """IBM's HSTATE(ACTIVE): an MQGET with MQGMO_WAIT is in progress on the handle."""
    def hstate() -> list[str]:
        lines = run_mqsc(mq.qm, "DISPLAY QSTATUS(APP.Q) TYPE(HANDLE) HSTATE\n").lines
        return [word for line in lines for word in line.split() if word.startswith("HSTATE(")]

    assert hstate() == ["HSTATE(INACTIVE)"]
    mq.wait(q, wait_ms=5000)
    assert hstate() == ["HSTATE(ACTIVE)"]
    mq.put(q, b"wake up")  # the waiting MQGET takes it and ends
    assert hstate() == ["HSTATE(INACTIVE)"]
