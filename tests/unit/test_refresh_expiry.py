"""REFRESH QMGR TYPE(EXPIRY) NAME(generic) (IBM's MQSC "REFRESH QMGR": "requests that the queue
manager performs a scan to discard expired messages for every queue that matches the selection
criteria"), on a core queue manager with a fake clock, through the MQSC executor; RESET QMGR's
other IBM types answer 2298 rather than a syntax error."""

from __future__ import annotations

from typing import Any

from mqlite import cmqc as C
from mqlite.mqsc import commands, pcf_objects
from mqlite.mqsc.pcf_commands import Request


def test_refresh_expiry_discards_the_expired_messages_of_the_matching_queues_now(mq: Any) -> None:
    for name in ("EXP.A", "EXP.B", "OTHER"):
        mq.define(name)
        handle = mq.open(name, C.MQOO_OUTPUT)
        mq.put(handle, b"short", Expiry=10)  # a second
        mq.put(handle, b"kept")
    mq.clock.advance(5)
    result = commands.run_mqsc(mq.qm, "REFRESH QMGR TYPE(EXPIRY) NAME(EXP.*)\n")
    assert result.failed == 0 and result.syntax_errors == 0, result.lines
    assert (mq.depth("EXP.A"), mq.depth("EXP.B"), mq.depth("OTHER")) == (1, 1, 2)
    result = commands.run_mqsc(mq.qm, "REFRESH QMGR TYPE(EXPIRY)\n")  # NAME(*) by default
    assert result.failed == 0 and mq.depth("OTHER") == 1


def test_refresh_and_reset_types_ibm_has_and_mqlite_does_not(mq: Any) -> None:
    for command in ("REFRESH QMGR TYPE(EARLY)", "RESET QMGR TYPE(ADVANCELOG)", "RESET QMGR TYPE(REDUCELOG)"):
        result = commands.run_mqsc(mq.qm, command + "\n")
        assert result.syntax_errors == 0 and result.failed == 1, result.lines
        assert any("2298" in line for line in result.lines), result.lines
    result = commands.run_mqsc(mq.qm, "REFRESH QMGR TYPE(EXPIRY) OBJECT(QLOCAL)\n")
    assert result.syntax_errors == 1, result.lines


def test_pcf_refresh_q_mgr_of_type_expiry_is_the_same_command() -> None:
    command = pcf_objects.refresh_command(Request([(C.MQIACF_REFRESH_TYPE, C.MQRT_EXPIRY),
                                                   (C.MQCACF_OBJECT_NAME, "EXP.*")]))
    assert (command.verb, command.objtype, command.options) == ("REFRESH", "QMGR", {"TYPE": "EXPIRY", "NAME": "EXP.*"})
