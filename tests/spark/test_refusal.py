"""Issue 31 part 5: a Spark read the queue manager refuses (MQRC_NOT_AUTHORIZED, 2035) says which
queue manager refused which user, in one line, instead of a traceback through the client's
internals (C:R-SEC: a TCP client authenticates and needs connect authority; browse authority on
the queue). Real PySpark (local[2]) against a real queue manager."""

from __future__ import annotations

from typing import Any

import pytest

import mqlite
from helpers.credentials import APP, Credentials, add_user

EVE = Credentials("eve", "eve-pass-1", "outsiders")  # in the users file, granted nothing


def _read(spark: Any, qmgr: Any, creds: Credentials) -> Any:
    return (spark.read.format("mqlite").option("host", "127.0.0.1").option("port", str(qmgr.port))
            .option("user", creds.user).option("password", creds.password)
            .option("qmgr", qmgr.name).option("queue", "ORDERS").load())


def _refusal(error: BaseException) -> str:
    """The one line of the failure that names the refusal."""
    lines = [line for line in str(error).splitlines() if "refused" in line]
    assert len(lines) == 1, str(error)
    return lines[0]


def test_a_user_without_connect_authority_is_named_with_the_queue_manager(spark: Any, qmgr: Any) -> None:
    add_user(qmgr.home, qmgr.name, EVE)
    with mqlite.connect(qmgr.name) as qm:
        qm.mqsc("DEFINE QLOCAL(ORDERS)")
    with pytest.raises(Exception) as failed:
        _read(spark, qmgr, EVE).collect()
    line = _refusal(failed.value)
    assert line.endswith(f"queue manager {qmgr.name} refused user 'eve': connect, MQRC_NOT_AUTHORIZED (2035)"), line
    assert "client/sync.py" not in str(failed.value) and "MQMIError" not in str(failed.value), str(failed.value)


def test_a_refused_stream_says_so_at_its_start(spark: Any, qmgr: Any, tmp_path: Any) -> None:
    """On the driver (the stream's first offsets), where Spark reports a data source's failure
    as its own error (PYTHON_STREAMING_DATA_SOURCE_RUNTIME_ERROR): the same one line."""
    add_user(qmgr.home, qmgr.name, EVE)
    with mqlite.connect(qmgr.name) as qm:
        qm.mqsc("DEFINE QLOCAL(ORDERS)")
    stream = (spark.readStream.format("mqlite").option("host", "127.0.0.1").option("port", str(qmgr.port))
              .option("user", EVE.user).option("password", EVE.password)
              .option("qmgr", qmgr.name).option("queue", "ORDERS").load())
    query = (stream.writeStream.format("noop").option("checkpointLocation", str(tmp_path / "cp"))
             .trigger(availableNow=True).start())
    with pytest.raises(Exception) as failed:
        query.awaitTermination()
    line = _refusal(failed.value)
    assert f"queue manager {qmgr.name} refused user 'eve': connect, MQRC_NOT_AUTHORIZED (2035)" in line, line


def test_a_user_without_browse_authority_is_named_with_the_queue(spark: Any, qmgr: Any) -> None:
    add_user(qmgr.home, qmgr.name, EVE)
    with mqlite.connect(qmgr.name) as qm:
        qm.mqsc("DEFINE QLOCAL(ORDERS)")
        qm.mqsc(f"SET AUTHREC OBJTYPE(QMGR) GROUP('{EVE.groups}') AUTHADD(CONNECT)")
    with pytest.raises(Exception) as failed:
        _read(spark, qmgr, EVE).collect()
    line = _refusal(failed.value)
    assert line.endswith(f"queue manager {qmgr.name} refused user 'eve': browse of queue ORDERS, "
                         "MQRC_NOT_AUTHORIZED (2035)"), line
    assert _read(spark, qmgr, APP).count() == 0  # a user who may browse reads it
