"""REFRESH QMGR TYPE(CONFIGEV) (IBM: "REFRESH QMGR", "Refresh Object" configuration event,
MQRC_CONFIG_REFRESH_OBJECT 2370): which objects OBJECT, NAME and INCLINT select, on a core
queue manager through the MQSC executor and the PCF command's mapping. No spec in
../shared/spec covers configuration events; IBM's documentation is the reference."""

from __future__ import annotations

from typing import Any

from mqlite import cmqc as C
from mqlite.core.events import config
from mqlite.mqsc import commands, pcf_objects
from mqlite.mqsc.pcf_commands import Request
from mqlite.protocol import pcf


def _events(mq: Any) -> list[pcf.PcfMessage]:
    handle = mq.open("SYSTEM.ADMIN.CONFIG.EVENT", C.MQOO_INPUT_SHARED)
    return [pcf.decode(body) for body in mq.bodies(handle)]


def test_within_compares_altdate_and_alttime() -> None:
    row = {"ALTDATE": "2026-12-02", "ALTTIME": "10.15.00"}
    assert config.within(row, None) and config.within(row, ("2026-12-02", "10.15.00"))
    assert not config.within(row, ("2026-12-02", "10.15.01"))


def test_object_all_covers_every_type_mqlite_has() -> None:
    assert config.REFRESH_TYPES["ALL"] == ("QMGR", "QUEUE", "CHANNEL", "TOPIC", "NAMELIST", "AUTHINFO", "LISTENER")
    assert config.REFRESH_TYPES["QLOCAL"] == ("QLOCAL",) and config.REFRESH_TYPES["PROCESS"] == ()


def test_refresh_qlocal_by_generic_name(mq: Any) -> None:
    mq.define("REF.A")
    mq.define("REF.B", "QALIAS", TARGET="REF.A")
    mq.qm.alter("QMGR", "", {"CONFIGEV": "ENABLED"})
    _events(mq)
    result = commands.run_mqsc(mq.qm, "REFRESH QMGR TYPE(CONFIGEV) OBJECT(QLOCAL) NAME(REF.*)\n")
    assert result.failed == 0 and result.syntax_errors == 0, result.lines
    (event,) = _events(mq)
    assert (event.header.Command, event.header.Reason) == (C.MQCMD_CONFIG_EVENT, C.MQRC_CONFIG_REFRESH_OBJECT)
    assert event.get(C.MQCA_Q_NAME) == "REF.A" and event.get(C.MQIA_Q_TYPE) == C.MQQT_LOCAL


def test_refresh_all_includes_the_queue_manager_and_inclint_selects_recent_changes(mq: Any) -> None:
    mq.qm.alter("QMGR", "", {"CONFIGEV": "ENABLED"})
    _events(mq)
    mq.clock.advance(3600)
    mq.define("RECENT")
    _events(mq)
    commands.run_mqsc(mq.qm, "REFRESH QMGR TYPE(CONFIGEV) INCLINT(30)\n")
    names = [e.get(C.MQCA_Q_NAME) or e.get(C.MQCA_Q_MGR_NAME) for e in _events(mq)]
    assert names == ["RECENT"]  # the queue manager's own ALTER was an hour ago
    commands.run_mqsc(mq.qm, "REFRESH QMGR TYPE(CONFIGEV) OBJECT(QMGR)\n")
    (qmgr,) = _events(mq)
    assert qmgr.get(C.MQIACF_OBJECT_TYPE) == C.MQOT_Q_MGR and qmgr.get(C.MQCA_Q_MGR_NAME) == "QM1"


def test_no_refresh_events_while_configev_is_disabled(mq: Any) -> None:
    commands.run_mqsc(mq.qm, "REFRESH QMGR TYPE(CONFIGEV)\n")
    assert _events(mq) == []


def test_pcf_refresh_q_mgr_is_refresh_qmgr() -> None:
    request = Request([(C.MQIACF_REFRESH_TYPE, C.MQRT_CONFIGURATION), (C.MQIACF_OBJECT_TYPE, C.MQOT_LOCAL_Q),
                       (C.MQCACF_OBJECT_NAME, "REF.*"), (C.MQIACF_REFRESH_INTERVAL, 15)])
    command = pcf_objects.refresh_command(request)
    assert (command.verb, command.objtype) == ("REFRESH", "QMGR")
    assert command.options == {"TYPE": "CONFIGEV", "OBJECT": "QLOCAL", "NAME": "REF.*", "INCLINT": "15"}
