"""core/connection_status.py: DISPLAY CONN's rows from the connections, pure (the records IBM's
runmqsc shows: TYPE(CONN) per connection, TYPE(HANDLE) per open object)."""

from __future__ import annotations

from typing import Any

import pytest

from mqlite import cmqc as C
from mqlite.core.connection_status import connection_rows, extconn
from mqlite.core.errors import MQError


def test_a_connection_with_a_unit_of_work_and_a_handle(mq: Any, q: Any, clock: Any) -> None:
    mq.put(q, b"held", pmo=C.MQPMO_SYNCPOINT)
    mine = mq.conn.conn_id
    rows = connection_rows(mq.qm.connections.values(), "QM1", mine, "ALL")
    conn, handle = rows
    assert conn["TYPE"] == "CONN" and conn["CONN"] == mine and conn["EXTCONN"] == extconn("QM1")
    assert conn["UOWSTATE"] == "ACTIVE" and conn["UOWSTDA"] and conn["APPLTYPE"] == "USER"
    assert conn["CHANNEL"] == "" and conn["CONNOPTS"] == ["MQCNO_SHARED_BINDING"]
    assert handle["TYPE"] == "HANDLE" and handle["OBJNAME"] == "APP.Q" and handle["OBJTYPE"] == "QUEUE"
    assert handle["OPENOPTS"] == ["MQOO_INPUT_SHARED", "MQOO_BROWSE", "MQOO_OUTPUT", "MQOO_INQUIRE"]
    mq.qm.commit(mq.conn)
    (after,) = connection_rows(mq.qm.connections.values(), "QM1", mine, "CONN")
    assert after["UOWSTATE"] == "NONE" and after["UOWSTDA"] == ""


def test_generic_ids_types_and_refusals(mq: Any) -> None:
    other = mq.qm.connect(mq.conn.principal, "svc", 7, channel="DEV.APP.SVRCONN", conname="10.0.0.9", system=True)
    rows = connection_rows(mq.qm.connections.values(), "QM1", "*", "CONN")
    assert [r["CONN"] for r in rows] == sorted([mq.conn.conn_id, other.conn_id])
    shown = next(r for r in rows if r["CONN"] == other.conn_id)
    assert (shown["CHANNEL"], shown["CONNAME"], shown["APPLTYPE"], shown["PID"]) == (
        "DEV.APP.SVRCONN", "10.0.0.9", "SYSTEM", 7)
    assert connection_rows(mq.qm.connections.values(), "QM1", "FFFF*", "*") == []
    with pytest.raises(MQError) as missing:
        connection_rows(mq.qm.connections.values(), "QM1", "00000000DEADBEEF", "CONN")
    assert missing.value.reason == C.MQRC_UNKNOWN_OBJECT_NAME
    with pytest.raises(MQError) as bad:
        connection_rows(mq.qm.connections.values(), "QM1", "*", "QUEUE")
    assert bad.value.reason == C.MQRCCF_PARM_SYNTAX_ERROR


def test_a_unit_of_work_that_begins_with_a_publication_shows_its_start(mq: Any, clock: Any) -> None:
    """A publication under syncpoint starts the unit of work as a put does (UOWSTDA, UOWSTTI)."""
    mq.managed("UOW/START")
    mq.pub("UOW/START", b"held", C.MQPMO_SYNCPOINT)
    (row,) = connection_rows(mq.qm.connections.values(), "QM1", mq.conn.conn_id, "CONN")
    assert row["UOWSTATE"] == "ACTIVE" and row["UOWSTDA"] and row["UOWSTTI"]
