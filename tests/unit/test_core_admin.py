"""Core admin API (what MQSC drives): system objects, DEFINE/ALTER/DELETE/CLEAR, DISPLAY rows, records.

IBM MQSC semantics (WebSphere MQ v7 Script (MQSC) Command Reference), reason codes as the core
raises them (IBM MQRC numbers).
"""

from __future__ import annotations

from typing import Any

import pytest

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.security.service import administrator
from mqlite.store.sqlite import decode_value
from mqlite.store.tx import DELETE_RECORD, PURGE_QUEUE, PUT_RECORD

IO = C.MQOO_OUTPUT | C.MQOO_INPUT_SHARED | C.MQOO_BROWSE | C.MQOO_INQUIRE


def _attrs(mq: Any, name: str) -> dict[str, Any]:
    [row] = mq.qm.objects("QUEUE", name)
    return row  # type: ignore[no-any-return]


# -- system objects ---------------------------------------------------------------------------
@pytest.mark.parametrize(("name", "qtype"), [
    ("SYSTEM.DEFAULT.LOCAL.QUEUE", "QLOCAL"),
    ("SYSTEM.DEFAULT.ALIAS.QUEUE", "QALIAS"),
    ("SYSTEM.DEFAULT.REMOTE.QUEUE", "QREMOTE"),
    ("SYSTEM.DEFAULT.MODEL.QUEUE", "QMODEL"),
    ("SYSTEM.DEFAULT.INITIATION.QUEUE", "QLOCAL"),
    ("SYSTEM.DEAD.LETTER.QUEUE", "QLOCAL"),
    ("SYSTEM.ADMIN.COMMAND.QUEUE", "QLOCAL"),
    ("SYSTEM.CHANNEL.INITQ", "QLOCAL"),
    ("SYSTEM.CHANNEL.SYNCQ", "QLOCAL"),
    ("SYSTEM.CLUSTER.TRANSMIT.QUEUE", "QLOCAL"),
    ("SYSTEM.DURABLE.MODEL.QUEUE", "QMODEL"),
    ("SYSTEM.NDURABLE.MODEL.QUEUE", "QMODEL"),
])
def test_system_objects_exist_after_bootstrap(mq: Any, name: str, qtype: str) -> None:
    row = _attrs(mq, name)
    assert row["TYPE"] == qtype
    assert (name in mq.qm.queues) == (qtype == "QLOCAL")


def test_system_object_attributes(mq: Any) -> None:
    assert mq.qm.attrs["DEADQ"] == "SYSTEM.DEAD.LETTER.QUEUE"
    assert _attrs(mq, "SYSTEM.DEFAULT.MODEL.QUEUE")["DEFTYPE"] == "TEMPDYN"
    assert _attrs(mq, "SYSTEM.DURABLE.MODEL.QUEUE")["DEFTYPE"] == "PERMDYN"
    assert _attrs(mq, "SYSTEM.DURABLE.MODEL.QUEUE")["DEFPSIST"] == "YES"
    assert _attrs(mq, "SYSTEM.NDURABLE.MODEL.QUEUE")["DEFTYPE"] == "TEMPDYN"
    assert _attrs(mq, "SYSTEM.CLUSTER.TRANSMIT.QUEUE")["USAGE"] == "XMITQ"
    assert _attrs(mq, "SYSTEM.DEFAULT.LOCAL.QUEUE")["MAXDEPTH"] == 5000
    [qmgr] = mq.qm.objects("QMGR", "")
    assert qmgr["QMNAME"] == "QM1" and qmgr["DEADQ"] == "SYSTEM.DEAD.LETTER.QUEUE"


def test_bootstrap_records_every_definition_for_the_store(clock: Any) -> None:
    from mqlite.core.qmgr import QueueManager

    qm = QueueManager("QM9", clock=clock)
    qm.bootstrap()
    tx = qm.take_effects().tx
    assert tx is not None
    keys = {row[1] for op, rows in tx.runs if op == PUT_RECORD for row in rows}
    assert "attrs" in keys
    assert {"QLOCAL/SYSTEM.DEAD.LETTER.QUEUE", "QMODEL/SYSTEM.DEFAULT.MODEL.QUEUE",
            "QALIAS/SYSTEM.DEFAULT.ALIAS.QUEUE", "QREMOTE/SYSTEM.DEFAULT.REMOTE.QUEUE"} <= keys


# -- DEFINE -----------------------------------------------------------------------------------
def test_define_creates_a_queue_with_default_attributes(mq: Any) -> None:
    mq.define("APP.NEW", DESCR="new one", MAXDEPTH=42)
    row = _attrs(mq, "APP.NEW")
    assert (row["TYPE"], row["DESCR"], row["MAXDEPTH"], row["CURDEPTH"]) == ("QLOCAL", "new one", 42, 0)
    assert (row["DEFPSIST"], row["GET"], row["PUT"], row["DEFTYPE"]) == ("NO", "ENABLED", "ENABLED", "PREDEFINED")
    h = mq.open("APP.NEW", IO)
    mq.put(h, b"works")
    assert mq.get(h).body == b"works"


def test_define_existing_without_replace_is_2100(mq: Any) -> None:
    mq.define("APP.Q", MAXDEPTH=10)
    with mq.raises(C.MQRC_OBJECT_ALREADY_EXISTS):
        mq.define("APP.Q", MAXDEPTH=20)
    with mq.raises(C.MQRC_OBJECT_ALREADY_EXISTS):  # one namespace for every queue type
        mq.define("APP.Q", "QALIAS", TARGET="X")
    assert _attrs(mq, "APP.Q")["MAXDEPTH"] == 10


def test_define_replace_resets_unspecified_attributes_and_keeps_messages(mq: Any) -> None:
    mq.define("APP.Q", MAXDEPTH=10, DESCR="old")
    h = mq.open("APP.Q", IO)
    mq.put(h, b"survivor")
    mq.qm.define("QLOCAL", "APP.Q", {"DESCR": "new"}, replace=True)
    row = _attrs(mq, "APP.Q")
    assert (row["DESCR"], row["MAXDEPTH"], row["CURDEPTH"]) == ("new", 5000, 1)
    assert mq.get(h).body == b"survivor"


def test_define_replace_of_another_type_is_refused(mq: Any) -> None:
    mq.define("APP.Q")
    with pytest.raises(MQError):
        mq.qm.define("QALIAS", "APP.Q", {"TARGET": "X"}, replace=True)
    assert _attrs(mq, "APP.Q")["TYPE"] == "QLOCAL"


def test_define_like_copies_the_model_object(mq: Any) -> None:
    mq.define("APP.MODEL", MAXDEPTH=33, DESCR="model", DEFPSIST="YES")
    mq.qm.define("QLOCAL", "APP.COPY", {"DESCR": "copy"}, like="APP.MODEL")
    row = _attrs(mq, "APP.COPY")
    assert (row["MAXDEPTH"], row["DEFPSIST"], row["DESCR"]) == (33, "YES", "copy")
    with mq.raises(C.MQRC_UNKNOWN_OBJECT_NAME):
        mq.qm.define("QLOCAL", "APP.COPY2", {}, like="NO.SUCH.Q")


def test_define_without_like_takes_the_default_local_queue(mq: Any) -> None:
    mq.define("APP.BEFORE")
    mq.qm.alter("QLOCAL", "SYSTEM.DEFAULT.LOCAL.QUEUE", {"MAXDEPTH": 77, "DEFPRTY": 4})
    mq.define("APP.AFTER")
    after = _attrs(mq, "APP.AFTER")
    assert (after["MAXDEPTH"], after["DEFPRTY"]) == (77, 4)
    assert _attrs(mq, "APP.BEFORE")["MAXDEPTH"] == 5000
    h = mq.open("APP.AFTER", IO)
    assert mq.put(h).Priority == 4


def test_define_alias_and_model_take_their_own_defaults(mq: Any) -> None:
    mq.qm.alter("QMODEL", "SYSTEM.DEFAULT.MODEL.QUEUE", {"MAXDEPTH": 55})
    mq.define("APP.MODEL", "QMODEL")
    assert _attrs(mq, "APP.MODEL")["MAXDEPTH"] == 55
    h = mq.open("APP.MODEL", C.MQOO_INPUT_EXCLUSIVE | C.MQOO_INQUIRE, DynamicQName="DYN.*")
    assert mq.inq(h, C.MQIA_MAX_Q_DEPTH) == [55]


def test_invalid_object_name_is_2152(mq: Any) -> None:
    for name in ("", "BAD NAME", "X" * 49, "A*B"):
        with mq.raises(C.MQRC_OBJECT_NAME_ERROR):
            mq.define(name)


def test_invalid_attribute_value_is_refused(mq: Any) -> None:
    with pytest.raises(MQError):
        mq.define("APP.Q", MAXDEPTH=-1)
    with pytest.raises(MQError):
        mq.define("APP.Q", NOSUCHATTR=1)
    assert "APP.Q" not in mq.qm.qdefs


# -- ALTER ------------------------------------------------------------------------------------
def test_alter_changes_only_what_is_named(mq: Any) -> None:
    mq.define("APP.Q", MAXDEPTH=10, DESCR="keep")
    mq.qm.alter("QLOCAL", "APP.Q", {"MAXDEPTH": 20})
    row = _attrs(mq, "APP.Q")
    assert (row["MAXDEPTH"], row["DESCR"]) == (20, "keep")
    mq.qm.alter("QUEUE", "APP.Q", {"DESCR": "generic type"})
    assert _attrs(mq, "APP.Q")["DESCR"] == "generic type"


def test_alter_unknown_is_2085_and_wrong_type_is_refused(mq: Any) -> None:
    with mq.raises(C.MQRC_UNKNOWN_OBJECT_NAME):
        mq.qm.alter("QLOCAL", "NO.SUCH.Q", {"MAXDEPTH": 1})
    mq.define("APP.Q")
    with pytest.raises(MQError):
        mq.qm.alter("QALIAS", "APP.Q", {"DESCR": "x"})


def test_alter_updates_altdate_and_alttime(mq: Any, clock: Any) -> None:
    mq.define("APP.Q")
    before = _attrs(mq, "APP.Q")
    clock.advance(86400 + 3661)
    mq.qm.alter("QLOCAL", "APP.Q", {"DESCR": "later"})
    after = _attrs(mq, "APP.Q")
    assert (after["CRDATE"], after["CRTIME"]) == (before["CRDATE"], before["CRTIME"])
    assert (after["ALTDATE"], after["ALTTIME"]) != (before["ALTDATE"], before["ALTTIME"])


def test_alter_maxdepth_applies_to_open_handles(mq: Any) -> None:
    mq.define("APP.Q")
    h = mq.open("APP.Q", IO)
    mq.put(h)
    mq.qm.alter("QLOCAL", "APP.Q", {"MAXDEPTH": 1})
    with mq.raises(C.MQRC_Q_FULL):
        mq.put(h)


# -- DELETE -----------------------------------------------------------------------------------
def test_delete_an_empty_queue(mq: Any) -> None:
    mq.define("APP.Q")
    mq.qm.delete("QLOCAL", "APP.Q")
    assert "APP.Q" not in mq.qm.qdefs and "APP.Q" not in mq.qm.queues
    with mq.raises(C.MQRC_UNKNOWN_OBJECT_NAME):
        mq.open("APP.Q", C.MQOO_OUTPUT)
    with mq.raises(C.MQRC_UNKNOWN_OBJECT_NAME):
        mq.qm.delete("QLOCAL", "APP.Q")


def test_delete_a_non_empty_queue_is_2055_unless_purge(mq: Any) -> None:
    mq.define("APP.Q")
    h = mq.open("APP.Q", C.MQOO_OUTPUT)
    mq.put(h)
    mq.close(h)
    with mq.raises(C.MQRC_Q_NOT_EMPTY):
        mq.qm.delete("QLOCAL", "APP.Q")
    assert mq.depth("APP.Q") == 1
    mq.qm.delete("QLOCAL", "APP.Q", purge=True)
    assert "APP.Q" not in mq.qm.qdefs
    mq.define("APP.Q")  # a new queue of the same name starts empty
    assert mq.depth("APP.Q") == 0


def test_delete_an_open_queue_is_2042(mq: Any) -> None:
    mq.define("APP.Q")
    h = mq.open("APP.Q", C.MQOO_INPUT_SHARED)
    with mq.raises(C.MQRC_OBJECT_IN_USE):
        mq.qm.delete("QLOCAL", "APP.Q", purge=True)
    mq.close(h)
    mq.qm.delete("QLOCAL", "APP.Q")


def test_delete_with_uncommitted_messages_is_refused_even_with_purge(mq: Any) -> None:
    mq.define("APP.Q")
    h = mq.open("APP.Q", C.MQOO_OUTPUT)
    mq.put(h, pmo=C.MQPMO_SYNCPOINT)
    mq.close(h)
    with mq.raises(C.MQRC_Q_NOT_EMPTY):
        mq.qm.delete("QLOCAL", "APP.Q", purge=True)
    assert "APP.Q" in mq.qm.qdefs


def test_delete_alias_leaves_its_target(mq: Any) -> None:
    mq.define("APP.Q")
    mq.define("APP.ALIAS", "QALIAS", TARGET="APP.Q")
    mq.qm.delete("QALIAS", "APP.ALIAS")
    assert "APP.ALIAS" not in mq.qm.qdefs and "APP.Q" in mq.qm.queues


def test_define_and_delete_reach_the_store_as_records(mq: Any) -> None:
    mq.qm.take_effects()
    mq.define("APP.Q", MAXDEPTH=9)
    tx = mq.qm.take_effects().tx
    assert tx is not None
    [(op, [(kind, key, blob)])] = tx.runs
    assert (op, kind, key) == (PUT_RECORD, "object", "QLOCAL/APP.Q")
    assert decode_value(blob)["MAXDEPTH"] == 9
    mq.qm.delete("QLOCAL", "APP.Q")
    tx = mq.qm.take_effects().tx
    assert tx is not None
    ops = [(op, rows) for op, rows in tx.runs]
    assert (DELETE_RECORD, [("object", "QLOCAL/APP.Q")]) in ops


# -- CLEAR ------------------------------------------------------------------------------------
def test_clear_queue_removes_every_message(mq: Any) -> None:
    mq.define("APP.Q")
    h = mq.open("APP.Q", C.MQOO_OUTPUT)
    for i in range(5):
        mq.put(h, b"%d" % i, Persistence=C.MQPER_PERSISTENT if i % 2 else C.MQPER_NOT_PERSISTENT)
    mq.close(h)
    mq.qm.take_effects()
    mq.qm.clear_queue("APP.Q")
    assert mq.depth("APP.Q") == 0
    tx = mq.qm.take_effects().tx
    assert tx is not None and tx.runs == [(PURGE_QUEUE, [("APP.Q",)])]
    h = mq.open("APP.Q", C.MQOO_INPUT_SHARED)
    with mq.raises(C.MQRC_NO_MSG_AVAILABLE):
        mq.get(h)


def test_clear_queue_refused_while_open_or_unknown_or_not_local(mq: Any) -> None:
    mq.define("APP.Q")
    h = mq.open("APP.Q", C.MQOO_OUTPUT)
    mq.put(h)
    with mq.raises(C.MQRC_OBJECT_IN_USE):
        mq.qm.clear_queue("APP.Q")
    assert mq.depth("APP.Q") == 1
    with mq.raises(C.MQRC_UNKNOWN_OBJECT_NAME):
        mq.qm.clear_queue("NO.SUCH.Q")
    mq.define("APP.ALIAS", "QALIAS", TARGET="APP.Q")
    with pytest.raises(MQError):
        mq.qm.clear_queue("APP.ALIAS")


# -- DISPLAY QUEUE / QSTATUS ------------------------------------------------------------------
def test_objects_generic_names_and_types(mq: Any) -> None:
    mq.define("APP.B")
    mq.define("APP.A")
    mq.define("APP.ALIAS", "QALIAS", TARGET="APP.A")
    mq.define("OTHER.Q")
    assert [r["QUEUE"] for r in mq.qm.objects("QLOCAL", "APP.*")] == ["APP.A", "APP.B"]
    assert [r["QUEUE"] for r in mq.qm.objects("QUEUE", "APP.*")] == ["APP.A", "APP.ALIAS", "APP.B"]
    assert [r["QUEUE"] for r in mq.qm.objects("QALIAS", "*")] == ["APP.ALIAS", "SYSTEM.DEFAULT.ALIAS.QUEUE"]
    everything = [r["QUEUE"] for r in mq.qm.objects("QUEUE", "*")]
    assert {"APP.A", "OTHER.Q", "SYSTEM.DEAD.LETTER.QUEUE"} <= set(everything)
    assert everything == sorted(everything)
    assert mq.qm.objects("QLOCAL", "NOPE.*") == []
    with mq.raises(C.MQRC_UNKNOWN_OBJECT_NAME):
        mq.qm.objects("QLOCAL", "NOPE")


def test_objects_rows_carry_runtime_counts(mq: Any) -> None:
    mq.define("APP.Q")
    h = mq.open("APP.Q", C.MQOO_OUTPUT | C.MQOO_INPUT_SHARED)
    mq.open("APP.Q", C.MQOO_OUTPUT)
    mq.put(h)
    row = _attrs(mq, "APP.Q")
    assert (row["CURDEPTH"], row["IPPROCS"], row["OPPROCS"]) == (1, 1, 2)


def test_queue_status_queue_rows(mq: Any) -> None:
    mq.define("APP.Q")
    mq.define("APP.R")
    h = mq.open("APP.Q", C.MQOO_OUTPUT | C.MQOO_INPUT_SHARED)
    mq.put(h, b"1")
    mq.put(h, b"2", pmo=C.MQPMO_SYNCPOINT)
    rows = mq.qm.queue_status("APP.*", "QUEUE")
    assert [r["QUEUE"] for r in rows] == ["APP.Q", "APP.R"]
    q_row = rows[0]
    assert (q_row["TYPE"], q_row["CURDEPTH"], q_row["IPPROCS"], q_row["OPPROCS"], q_row["UNCOM"]) == (
        "QUEUE", 2, 1, 1, 1)
    assert rows[1]["UNCOM"] == "NO" and rows[1]["CURDEPTH"] == 0
    with mq.raises(C.MQRC_UNKNOWN_OBJECT_NAME):
        mq.qm.queue_status("NO.SUCH.Q", "QUEUE")


def test_queue_status_handle_rows(mq: Any) -> None:
    mq.define("APP.Q")
    mq.open("APP.Q", C.MQOO_OUTPUT | C.MQOO_INQUIRE)
    bob = mq.qm.connect(administrator("bob"), "reader.py", pid=99)
    mq.qm.open(bob, {"ObjectName": "APP.Q"}, C.MQOO_INPUT_EXCLUSIVE | C.MQOO_BROWSE)
    rows = mq.qm.queue_status("APP.Q", "HANDLE")
    assert len(rows) == 2
    by_user = {r["USERID"]: r for r in rows}
    alice, reader = by_user["alice"], by_user["bob"]
    assert (alice["TYPE"], alice["APPLTAG"], alice["PID"], alice["CONNID"]) == (
        "HANDLE", "app.py", 4242, mq.conn.conn_id)
    assert (alice["INPUT"], alice["OUTPUT"], alice["BROWSE"], alice["INQUIRE"]) == ("NO", "YES", "NO", "YES")
    assert (reader["APPLTAG"], reader["PID"], reader["INPUT"], reader["OUTPUT"], reader["BROWSE"]) == (
        "reader.py", 99, "EXCL", "NO", "YES")
    mq.qm.disconnect(bob)
    assert [r["USERID"] for r in mq.qm.queue_status("APP.Q", "HANDLE")] == ["alice"]


# -- RESET QSTATS and the totals that never go back -------------------------------------------------
def test_reset_qstats_counts_from_the_last_reset_and_the_totals_run_on(mq: Any, q: Any) -> None:
    """RESET QSTATS answers ENQCOUNT/DEQCOUNT since the last reset (IBM's MQSC reference), while
    DISPLAY QSTATUS's ENQTOTAL/DEQTOTAL (mqlite's own, /metrics's put and get counters) keep
    counting, so one caller's reset takes nothing from another's counters."""
    for body in (b"1", b"2", b"3"):
        mq.put(q, body)
    mq.get(q)
    mq.clock.advance(7)
    first = mq.qm.reset_queue_stats("APP.Q")
    assert (first["ENQCOUNT"], first["DEQCOUNT"], first["HIQDEPTH"], first["RESETINT"]) == (3, 1, 3, 7)
    mq.put(q, b"4")
    mq.get(q)
    mq.get(q)
    second = mq.qm.reset_queue_stats("APP.Q")
    assert (second["ENQCOUNT"], second["DEQCOUNT"], second["HIQDEPTH"], second["RESETINT"]) == (1, 2, 3, 0)
    [status] = mq.qm.queue_status("APP.Q", "QUEUE")
    assert (status["ENQTOTAL"], status["DEQTOTAL"], status["CURDEPTH"]) == (4, 3, 1)


def test_a_performance_event_resets_the_statistics_but_not_the_totals(mq: Any) -> None:
    """A Queue Depth High event carries the statistics since the last reset and resets them
    (IBM: "the statistics are reset"); the totals run on."""
    mq.qm.alter("QMGR", "", {"PERFMEV": "ENABLED"})
    mq.define("DEEP", MAXDEPTH=10, QDEPTHHI=20, QDPHIEV="ENABLED")
    handle = mq.open("DEEP")
    mq.put(handle, b"a")
    mq.put(handle, b"b")  # 2 of 10: Queue Depth High
    stats = mq.qm.reset_queue_stats("DEEP")
    assert (stats["ENQCOUNT"], stats["DEQCOUNT"]) == (0, 0)
    [status] = mq.qm.queue_status("DEEP", "QUEUE")
    assert (status["ENQTOTAL"], status["DEQTOTAL"]) == (2, 0)
