"""LISTENER objects (issue 15 item 4): crtmqm -p's port is SYSTEM.LISTENER.TCP.1, more listeners can
be defined, started and stopped, DISPLAY LSSTATUS shows the running ones, and every listener
serves both clients and message channels."""

from __future__ import annotations

import json
import socket
from collections.abc import Callable
from typing import Any

import mqlite.client as mqlite
from helpers.credentials import APP
from helpers.mqsc import mqsc
from helpers.ports import unused_port
from helpers.qmgrs import QMgr
from mqlite import paths

RunCli = Callable[..., Any]





def test_crtmqm_port_is_the_system_listener(qmgr: QMgr, run_cli: RunCli) -> None:
    shown = mqsc(run_cli, qmgr, "DISPLAY LISTENER(SYSTEM.LISTENER.TCP.1) ALL\nDISPLAY LSSTATUS(*) ALL\n")
    for item in ("TRPTYPE(TCP)", "CONTROL(QMGR)", "STATUS(RUNNING)", f"PORT({qmgr.port})"):
        assert item in shown, (item, shown)


def test_a_second_listener_serves_clients_and_stops(qmgr: QMgr, run_cli: RunCli) -> None:
    port = unused_port()
    assert "AMQ8626I" in mqsc(run_cli, qmgr, f"DEFINE LISTENER(APP.LISTENER) TRPTYPE(TCP) PORT({port}) "
                                             "IPADDR('127.0.0.1') DESCR('for applications')\n")
    assert "AMQ8021I" in mqsc(run_cli, qmgr, "START LISTENER(APP.LISTENER)\n")
    listening = json.loads(paths.listeners_path(qmgr.name).read_text())
    assert listening["listeners"]["APP.LISTENER"] == port
    with mqlite.connect(qmgr.name, "DEV.APP.SVRCONN", f"127.0.0.1({port})", APP.user, APP.password) as qm:
        qm.ping()
    status = mqsc(run_cli, qmgr, "DISPLAY LSSTATUS(APP.LISTENER) ALL\n")
    assert f"PORT({port})" in status and "IPADDR(127.0.0.1)" in status and "CONTROL(MANUAL)" in status
    again = mqsc(run_cli, qmgr, "START LISTENER(APP.LISTENER)\n", ok=False)
    assert "MQRCCF_LISTENER_RUNNING (3249)" in again
    assert "AMQ8706I" in mqsc(run_cli, qmgr, "STOP LISTENER(APP.LISTENER)\n")
    try:
        socket.create_connection(("127.0.0.1", port), timeout=2).close()
        raise AssertionError("the stopped listener still accepts connections")
    except OSError:
        pass
    assert "MQRCCF_LSTR_STATUS_NOT_FOUND (3250)" in mqsc(run_cli, qmgr, "DISPLAY LSSTATUS(APP.LISTENER)\n", ok=False)
    assert "AMQ8628I" in mqsc(run_cli, qmgr, "DELETE LISTENER(APP.LISTENER)\n")


def test_a_port_in_use_is_refused_and_startonly_listeners_start_with_the_queue_manager(
        qmgr_factory: Callable[..., QMgr], run_cli: RunCli) -> None:
    qm = qmgr_factory("QM1")
    taken = mqsc(run_cli, qm, f"DEFINE LISTENER(CLASH) TRPTYPE(TCP) PORT({qm.port})\nSTART LISTENER(CLASH)\n",
                 ok=False)
    assert "MQRCCF_PORT_IN_USE (3324)" in taken
    port = unused_port()
    mqsc(run_cli, qm, f"DEFINE LISTENER(AUTO) TRPTYPE(TCP) PORT({port}) CONTROL(STARTONLY)\n")
    assert run_cli("endmqm", "-i", "QM1").returncode == 0
    assert run_cli("strmqm", "QM1").returncode == 0
    assert f"PORT({port})" in mqsc(run_cli, qm, "DISPLAY LSSTATUS(AUTO) PORT\n")
    assert "SYSTEM.LISTENER.TCP.1" in mqsc(run_cli, qm, "DISPLAY LSSTATUS(*)\n")
