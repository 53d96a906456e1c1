"""Issue 31 part 5: MQSC says what it accepts but does not do yet, where it is set. Event switches
of ALTER QMGR whose events mqlite does not produce yet answer with an informational AMQ8955I
(C: events; IBM's attributes are kept and shown as ever). Real queue manager processes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from helpers.mqsc import mqsc
from helpers.qmgrs import QMgr

RunCli = Callable[..., Any]


def test_alter_qmgr_says_which_events_are_not_produced_yet(qmgr: QMgr, run_cli: RunCli) -> None:
    """CHLEV(ENABLED) and SSLEV(ENABLED) are accepted and shown, as IBM's are; runmqsc says at once
    that mqlite does not produce TLS events yet (AMQ8955I), rather than leave an empty event
    queue to be found later. AUTHOREV, CHLEV and LOCALEV, which are produced, say nothing more."""
    out = mqsc(run_cli, qmgr, "ALTER QMGR CHLEV(ENABLED) SSLEV(ENABLED)\n")
    assert "AMQ8005I: WebSphere MQ queue manager changed." in out
    notes = [line for line in out.splitlines() if line.startswith("AMQ8955I")]
    assert len(notes) == 1, out  # channel events are produced now (issue 33): CHLEV says nothing more
    assert "SSLEV(ENABLED)" in notes[0], notes
    shown = mqsc(run_cli, qmgr, "DISPLAY QMGR CHLEV SSLEV\n")
    assert "CHLEV(ENABLED)" in shown and "SSLEV(ENABLED)" in shown
    quiet = mqsc(run_cli, qmgr, "ALTER QMGR AUTHOREV(ENABLED) LOCALEV(ENABLED) SSLEV(DISABLED)\n")
    assert "AMQ8955I" not in quiet, quiet
