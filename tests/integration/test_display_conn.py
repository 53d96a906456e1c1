"""DISPLAY CONN against a real queue manager process: a client over TCP with a unit of work in
progress and a queue open, and a local connection, as runmqsc shows them (IBM's AMQ8276I
records: CONN, EXTCONN, TYPE(CONN|HANDLE) and the attributes asked for); WHERE filters; a
connection that is not there and an attribute DISPLAY CONN does not have are refused."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest

import mqlite
from helpers.credentials import APP
from helpers.mqsc import mqsc, records
from helpers.qmgrs import QMgr
from helpers.waiting import wait_until
from mqlite import cmqc as C

RunCli = Callable[..., Any]
HEADER = "AMQ8276I: Display Connection details."


def test_display_conn_shows_a_client_its_unit_of_work_and_its_handles(qmgr: QMgr, run_cli: RunCli) -> None:
    mqsc(run_cli, qmgr, "DEFINE QLOCAL(APP.Q)\n")
    with mqlite.connect("QM1", "DEV.APP.SVRCONN", f"127.0.0.1({qmgr.port})", **APP.kwargs) as client:
        queue = mqlite.Queue(client, "APP.Q", C.MQOO_OUTPUT | C.MQOO_INQUIRE)
        queue.put(b"in a unit of work", syncpoint=True)
        out = mqsc(run_cli, qmgr, "DISPLAY CONN(*) TYPE(ALL) ALL\n")
        rows = records(out, HEADER)
        conns = [r for r in rows if r["TYPE"] == "CONN"]
        app = next(r for r in conns if r["USERID"] == "app")
        assert app["CHANNEL"] == "DEV.APP.SVRCONN" and app["CONNAME"] == "127.0.0.1"
        assert app["APPLTYPE"] == "USER" and app["UOWSTATE"] == "ACTIVE" and app["UOWSTDA"] and app["UOWSTTI"]
        assert len(app["CONN"]) == 16 and app["EXTCONN"] == (b"AMQCQM1" + b" " * 9).hex().upper()
        local = [r for r in conns if r["APPLTYPE"] == "USER" and r["USERID"] != "app"]  # runmqsc, locally
        assert len(local) == 1 and local[0]["CHANNEL"].strip() == "" and local[0]["UOWSTATE"] == "NONE"
        assert {"amqrrmfa", "amqrte"} <= {r["APPLTAG"] for r in conns if r["APPLTYPE"] == "SYSTEM"}
        handle = next(r for r in rows if r["TYPE"] == "HANDLE" and r["CONN"] == app["CONN"])
        assert handle["OBJNAME"] == "APP.Q" and handle["OBJTYPE"] == "QUEUE"
        assert "MQOO_OUTPUT" in handle["OPENOPTS"] and "MQOO_INQUIRE" in handle["OPENOPTS"]

        # Without ALL: the identity only; with named attributes, those; WHERE picks the client.
        plain = records(mqsc(run_cli, qmgr, f"DISPLAY CONN({app['CONN']})\n"), HEADER)
        assert plain == [{"CONN": app["CONN"], "EXTCONN": app["EXTCONN"], "TYPE": "CONN"}]
        chosen = records(mqsc(run_cli, qmgr, "DISPLAY CONN(*) WHERE(CHANNEL EQ DEV.APP.SVRCONN) APPLTAG\n"), HEADER)
        assert [r["CONN"] for r in chosen] == [app["CONN"]] and "APPLTAG" in chosen[0] and "USERID" not in chosen[0]
        client.commit()
        after = records(mqsc(run_cli, qmgr, f"DISPLAY CONN({app['CONN']}) UOWSTATE UOWSTDA\n"), HEADER)
        assert after[0]["UOWSTATE"] == "NONE" and after[0]["UOWSTDA"].strip() == ""
        queue.close()
    gone = mqsc(run_cli, qmgr, f"DISPLAY CONN({app['CONN']})\n", ok=False)
    assert HEADER not in gone and "not found" in gone


def test_display_conn_refuses_what_it_does_not_have(qmgr: QMgr, run_cli: RunCli) -> None:
    out = mqsc(run_cli, qmgr, "DISPLAY CONN(*) MAXDEPTH\n", ok=False)
    assert HEADER not in out and "MAXDEPTH" in out
    out = mqsc(run_cli, qmgr, "DISPLAY CONN(*) TYPE(QUEUE)\n", ok=False)
    assert HEADER not in out and "TYPE" in out


def test_stop_conn_breaks_one_connection_and_backs_out_its_unit_of_work(qmgr: QMgr, run_cli: RunCli) -> None:
    """STOP CONN: the client's uncommitted put is backed out, its waiting MQGET and its next call
    fail with 2009, another connection of the same process goes on; the queue manager's own
    connections and unknown ids are refused with their PCF reasons (3260, 3174)."""
    mqsc(run_cli, qmgr, "DEFINE QLOCAL(APP.Q)\nDEFINE QLOCAL(APP.WAIT)\n")
    address = f"127.0.0.1({qmgr.port})"
    with mqlite.connect("QM1", "DEV.APP.SVRCONN", address, **APP.kwargs) as victim, \
            mqlite.connect("QM1", "DEV.APP.SVRCONN", address, **APP.kwargs) as bystander:
        mqlite.Queue(victim, "APP.Q", C.MQOO_OUTPUT).put(b"never committed", syncpoint=True)
        rows = records(mqsc(run_cli, qmgr, "DISPLAY CONN(*) WHERE(UOWSTATE EQ ACTIVE) USERID\n"), HEADER)
        assert [r["USERID"] for r in rows] == ["app"]
        target = rows[0]["CONN"]
        waiting = mqlite.Queue(victim, "APP.WAIT", C.MQOO_INPUT_SHARED)
        failures: list[int] = []

        def wait_for_a_message() -> None:
            try:
                waiting.get(wait=30)
            except mqlite.MQMIError as error:
                failures.append(error.reason)

        thread = threading.Thread(target=wait_for_a_message)
        thread.start()
        wait_until(lambda: "HSTATE(ACTIVE)" in mqsc(run_cli, qmgr, f"DISPLAY CONN({target}) TYPE(HANDLE) HSTATE\n"),
                   "the MQGET waiting")
        out = mqsc(run_cli, qmgr, f"STOP CONN({target})\n")
        assert "connection stopped" in out
        thread.join(60)
        assert failures == [C.MQRC_CONNECTION_BROKEN]
        with pytest.raises(mqlite.MQMIError) as later:
            mqlite.Queue(victim, "APP.Q", C.MQOO_OUTPUT)
        assert later.value.reason == C.MQRC_CONNECTION_BROKEN
        assert mqlite.Queue(bystander, "APP.Q", C.MQOO_INQUIRE).depth == 0  # the put was backed out
        assert target not in mqsc(run_cli, qmgr, "DISPLAY CONN(*)\n")
    system = next(r["CONN"] for r in records(mqsc(run_cli, qmgr, "DISPLAY CONN(*) WHERE(APPLTYPE EQ SYSTEM)\n"),
                                              HEADER))
    assert "3260" in mqsc(run_cli, qmgr, f"STOP CONN({system})\n", ok=False)
    assert "3174" in mqsc(run_cli, qmgr, "STOP CONN(00000000DEADBEEF)\n", ok=False)
