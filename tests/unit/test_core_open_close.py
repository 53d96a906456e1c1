"""Core MQOPEN / MQCLOSE / MQINQ / MQSET: resolution, sharing, access options, dynamic and remote queues.

IBM MQI behaviour; R-CHN-1 (distributed queuing goes through transmission queues), R-CLS-5 (closing
an ordinary queue leaves its messages).
"""

from __future__ import annotations

from typing import Any

import pytest

from mqlite import cmqc as C
from mqlite.message import MessageDescriptor
from mqlite.protocol import xqh

IO = C.MQOO_OUTPUT | C.MQOO_INPUT_SHARED | C.MQOO_BROWSE | C.MQOO_INQUIRE


@pytest.fixture
def q(mq: Any) -> Any:
    mq.define("APP.Q")
    return mq.open("APP.Q", IO)


# -- resolution -------------------------------------------------------------------------------
def test_unknown_queue_is_2085(mq: Any) -> None:
    with mq.raises(C.MQRC_UNKNOWN_OBJECT_NAME):
        mq.open("NO.SUCH.Q", C.MQOO_OUTPUT)
    with mq.raises(C.MQRC_UNKNOWN_OBJECT_NAME):
        mq.open("", C.MQOO_OUTPUT)
    assert mq.conn.handles == {}


def test_open_needs_one_access_option_and_one_input_option(mq: Any, q: Any) -> None:
    with mq.raises(C.MQRC_OPTIONS_ERROR):
        mq.open("APP.Q", C.MQOO_FAIL_IF_QUIESCING)
    with mq.raises(C.MQRC_OPTIONS_ERROR):
        mq.open("APP.Q", C.MQOO_INPUT_SHARED | C.MQOO_INPUT_EXCLUSIVE)


def test_handles_are_distinct_and_a_closed_handle_is_2019(mq: Any, q: Any) -> None:
    h2 = mq.open("APP.Q", C.MQOO_OUTPUT)
    assert h2.hobj != q.hobj
    mq.close(h2)
    with mq.raises(C.MQRC_HOBJ_ERROR):
        mq.put(h2)
    with mq.raises(C.MQRC_HOBJ_ERROR):
        mq.close(h2)


def test_closing_an_ordinary_queue_keeps_its_messages(mq: Any, q: Any) -> None:  # R-CLS-5
    mq.put(q, b"stay")
    mq.close(q)
    assert mq.qm.queues["APP.Q"].open_input == 0 and mq.qm.queues["APP.Q"].open_output == 0
    h = mq.open("APP.Q", C.MQOO_INPUT_SHARED)
    assert mq.get(h).body == b"stay"


def test_alias_to_an_unknown_target_is_2082(mq: Any) -> None:
    mq.define("ALIAS.LOST", "QALIAS", TARGET="NOT.THERE")
    with mq.raises(C.MQRC_UNKNOWN_ALIAS_BASE_Q):
        mq.open("ALIAS.LOST", C.MQOO_OUTPUT)


def test_alias_to_an_alias_is_2001(mq: Any, q: Any) -> None:
    mq.define("ALIAS.ONE", "QALIAS", TARGET="APP.Q")
    mq.define("ALIAS.TWO", "QALIAS", TARGET="ALIAS.ONE")
    with mq.raises(C.MQRC_ALIAS_BASE_Q_TYPE_ERROR):
        mq.open("ALIAS.TWO", C.MQOO_OUTPUT)
    h = mq.open("ALIAS.ONE", C.MQOO_OUTPUT)  # one level is fine
    assert (h.name, h.opened_as) == ("APP.Q", "ALIAS.ONE")


# -- access options ---------------------------------------------------------------------------
def test_put_needs_output_2039(mq: Any, q: Any) -> None:
    h = mq.open("APP.Q", C.MQOO_INPUT_SHARED | C.MQOO_BROWSE | C.MQOO_INQUIRE)
    with mq.raises(C.MQRC_NOT_OPEN_FOR_OUTPUT):
        mq.put(h)
    assert mq.depth("APP.Q") == 0


def test_get_needs_input_2037(mq: Any, q: Any) -> None:
    mq.put(q)
    h = mq.open("APP.Q", C.MQOO_OUTPUT | C.MQOO_BROWSE)
    with mq.raises(C.MQRC_NOT_OPEN_FOR_INPUT):
        mq.get(h)
    assert mq.depth("APP.Q") == 1


def test_browse_needs_browse_2036(mq: Any, q: Any) -> None:
    mq.put(q)
    h = mq.open("APP.Q", C.MQOO_INPUT_SHARED)
    with mq.raises(C.MQRC_NOT_OPEN_FOR_BROWSE):
        mq.get(h, C.MQGMO_BROWSE_FIRST)
    with mq.raises(C.MQRC_NOT_OPEN_FOR_BROWSE):
        mq.get(h, C.MQGMO_BROWSE_NEXT)


def test_inquire_needs_inquire_2038_and_set_needs_set_2040(mq: Any, q: Any) -> None:
    h = mq.open("APP.Q", C.MQOO_OUTPUT)
    with mq.raises(C.MQRC_NOT_OPEN_FOR_INQUIRE):
        mq.inq(h, C.MQIA_CURRENT_Q_DEPTH)
    with mq.raises(C.MQRC_NOT_OPEN_FOR_SET):
        mq.qm.set(mq.conn, h.hobj, {C.MQIA_INHIBIT_PUT: C.MQQA_PUT_INHIBITED})
    assert mq.qm.queues["APP.Q"].attrs["PUT"] == "ENABLED"


# -- shared and exclusive input ---------------------------------------------------------------
def test_exclusive_input_excludes_every_other_input(mq: Any, q: Any) -> None:
    mq.close(q)
    other = mq.connect()
    excl = mq.open("APP.Q", C.MQOO_INPUT_EXCLUSIVE)
    for options in (C.MQOO_INPUT_SHARED, C.MQOO_INPUT_EXCLUSIVE, C.MQOO_INPUT_AS_Q_DEF):
        with mq.raises(C.MQRC_OBJECT_IN_USE):
            mq.open("APP.Q", options, conn=other)
    mq.open("APP.Q", C.MQOO_OUTPUT | C.MQOO_BROWSE, conn=other)  # not input: allowed
    mq.close(excl)
    mq.open("APP.Q", C.MQOO_INPUT_SHARED, conn=other)


def test_exclusive_input_is_refused_while_shared_input_is_open(mq: Any, q: Any) -> None:
    other = mq.connect()
    with mq.raises(C.MQRC_OBJECT_IN_USE):
        mq.open("APP.Q", C.MQOO_INPUT_EXCLUSIVE, conn=other)
    mq.open("APP.Q", C.MQOO_INPUT_SHARED, conn=other)
    mq.close(q)
    with mq.raises(C.MQRC_OBJECT_IN_USE):  # other's shared handle is still open
        mq.open("APP.Q", C.MQOO_INPUT_EXCLUSIVE)


def test_noshare_queue_gives_exclusive_input_even_when_asked_shared(mq: Any) -> None:
    mq.define("LONELY.Q", SHARE=False)
    other = mq.connect()
    mq.open("LONELY.Q", C.MQOO_INPUT_SHARED)
    for options in (C.MQOO_INPUT_SHARED, C.MQOO_INPUT_AS_Q_DEF):
        with mq.raises(C.MQRC_OBJECT_IN_USE):
            mq.open("LONELY.Q", options, conn=other)
    [row] = mq.qm.queue_status("LONELY.Q", "HANDLE")
    assert row["INPUT"] == "EXCL"


def test_defsopt_excl_makes_input_as_q_def_exclusive(mq: Any) -> None:
    mq.define("EXCL.Q", DEFSOPT="EXCL")
    other = mq.connect()
    first = mq.open("EXCL.Q", C.MQOO_INPUT_AS_Q_DEF)
    for options in (C.MQOO_INPUT_AS_Q_DEF, C.MQOO_INPUT_SHARED):
        with mq.raises(C.MQRC_OBJECT_IN_USE):
            mq.open("EXCL.Q", options, conn=other)
    mq.close(first)
    # Explicit MQOO_INPUT_SHARED stays shared on a DEFSOPT(EXCL) queue that is SHARE.
    mq.open("EXCL.Q", C.MQOO_INPUT_SHARED)
    mq.open("EXCL.Q", C.MQOO_INPUT_SHARED, conn=other)
    with mq.raises(C.MQRC_OBJECT_IN_USE):
        mq.open("EXCL.Q", C.MQOO_INPUT_AS_Q_DEF)


def test_defsopt_shared_makes_input_as_q_def_shared(mq: Any, q: Any) -> None:
    other = mq.connect()
    mq.open("APP.Q", C.MQOO_INPUT_AS_Q_DEF)
    mq.open("APP.Q", C.MQOO_INPUT_AS_Q_DEF, conn=other)
    assert mq.qm.queues["APP.Q"].open_input == 3


# -- model queues -----------------------------------------------------------------------------
def test_tempdyn_queue_is_created_with_the_prefix_and_deleted_on_close(mq: Any) -> None:
    h = mq.open("SYSTEM.DEFAULT.MODEL.QUEUE", IO, DynamicQName="APP.*")
    name = h.name
    assert name.startswith("APP.") and len(name) > len("APP.") and len(name) <= 48
    assert name in mq.qm.queues
    [row] = mq.qm.objects("QLOCAL", name)
    assert row["DEFTYPE"] == "TEMPDYN"
    mq.put(h, b"temp", Persistence=C.MQPER_NOT_PERSISTENT)
    assert mq.get(h).body == b"temp"
    h2 = mq.open("SYSTEM.DEFAULT.MODEL.QUEUE", IO, DynamicQName="APP.*")
    assert h2.name != name
    mq.close(h)
    assert name not in mq.qm.queues and name not in mq.qm.qdefs
    with mq.raises(C.MQRC_UNKNOWN_OBJECT_NAME):
        mq.open(name, C.MQOO_OUTPUT)
    assert h2.name in mq.qm.queues


def test_tempdyn_default_dynamic_name_and_exact_name(mq: Any) -> None:
    h = mq.open("SYSTEM.DEFAULT.MODEL.QUEUE", C.MQOO_INPUT_EXCLUSIVE)
    assert h.name.startswith("AMQ.")
    exact = mq.open("SYSTEM.DEFAULT.MODEL.QUEUE", C.MQOO_INPUT_EXCLUSIVE, DynamicQName="MY.REPLY.Q")
    assert exact.name == "MY.REPLY.Q"
    with mq.raises(C.MQRC_OBJECT_ALREADY_EXISTS):
        mq.open("SYSTEM.DEFAULT.MODEL.QUEUE", C.MQOO_INPUT_EXCLUSIVE, DynamicQName="MY.REPLY.Q")


def test_persistent_put_to_a_tempdyn_queue_is_2048(mq: Any) -> None:
    h = mq.open("SYSTEM.DEFAULT.MODEL.QUEUE", IO, DynamicQName="APP.*")
    with mq.raises(C.MQRC_PERSISTENT_NOT_ALLOWED):
        mq.put(h, Persistence=C.MQPER_PERSISTENT)
    assert mq.depth(h.name) == 0


def test_tempdyn_queue_is_deleted_when_its_creator_disconnects(mq: Any) -> None:
    conn = mq.connect()
    h = mq.open("SYSTEM.DEFAULT.MODEL.QUEUE", IO, conn=conn, DynamicQName="APP.*")
    mq.put(h, b"x", conn=conn)
    mq.qm.disconnect(conn)
    assert h.name not in mq.qm.qdefs


def test_handles_on_a_deleted_tempdyn_queue_get_2052(mq: Any) -> None:
    creator = mq.connect()
    h = mq.open("SYSTEM.DEFAULT.MODEL.QUEUE", C.MQOO_INPUT_EXCLUSIVE, conn=creator, DynamicQName="REPLY.*")
    user = mq.open(h.name, C.MQOO_OUTPUT)  # a requester sends to the reply queue by name
    mq.put(user, b"reply")
    mq.close(h, conn=creator)
    assert h.name not in mq.qm.qdefs
    with mq.raises(C.MQRC_Q_DELETED):
        mq.put(user, b"too late")


def test_get_on_a_deleted_tempdyn_queue_is_2052(mq: Any) -> None:
    creator = mq.connect()
    h = mq.open("SYSTEM.DEFAULT.MODEL.QUEUE", C.MQOO_OUTPUT, conn=creator, DynamicQName="TEMP.*")
    reader = mq.open(h.name, C.MQOO_INPUT_SHARED)
    mq.close(h, conn=creator)
    with mq.raises(C.MQRC_Q_DELETED):
        mq.get(reader)
    mq.close(reader)  # closing the stale handle is fine


def test_permdyn_queue_survives_close_and_delete_needs_it_empty(mq: Any) -> None:
    mq.define("PERM.MODEL", "QMODEL", DEFTYPE="PERMDYN")
    h = mq.open("PERM.MODEL", IO, DynamicQName="PERM.*")
    name = h.name
    mq.put(h, b"kept", Persistence=C.MQPER_PERSISTENT)  # allowed on a permanent dynamic queue
    mq.close(h)
    assert name in mq.qm.queues
    [row] = mq.qm.objects("QLOCAL", name)
    assert row["DEFTYPE"] == "PERMDYN"
    h = mq.open(name, IO)
    with mq.raises(C.MQRC_Q_NOT_EMPTY):
        mq.close(h, C.MQCO_DELETE)
    assert mq.get(h).body == b"kept"  # the failed close left the handle open
    mq.close(h, C.MQCO_DELETE)
    assert name not in mq.qm.qdefs


def test_permdyn_queue_delete_purge_discards_messages(mq: Any) -> None:
    h = mq.open("SYSTEM.DEFAULT.MODEL.QUEUE.PERMDYN", IO, DynamicQName="PERM.*")
    mq.put(h, b"1")
    mq.put(h, b"2")
    mq.close(h, C.MQCO_DELETE_PURGE)
    assert h.name not in mq.qm.qdefs


def test_mqco_delete_on_a_predefined_queue_is_2045(mq: Any, q: Any) -> None:
    # IBM: MQCO_DELETE / MQCO_DELETE_PURGE on a queue that is not dynamic fails with
    # MQRC_OPTION_NOT_VALID_FOR_TYPE and the queue stays.
    mq.put(q, b"x")
    with mq.raises(C.MQRC_OPTION_NOT_VALID_FOR_TYPE):
        mq.close(q, C.MQCO_DELETE_PURGE)
    assert "APP.Q" in mq.qm.qdefs and mq.depth("APP.Q") == 1


# -- remote queues ----------------------------------------------------------------------------
def test_remote_queue_cannot_be_opened_for_input_or_browse_2045(mq: Any) -> None:
    mq.define("QM2", USAGE="XMITQ")
    mq.define("R.Q", "QREMOTE", RNAME="TARGET.Q", RQMNAME="QM2")
    for options in (C.MQOO_INPUT_SHARED, C.MQOO_INPUT_EXCLUSIVE, C.MQOO_BROWSE, C.MQOO_INPUT_AS_Q_DEF):
        with mq.raises(C.MQRC_OPTION_NOT_VALID_FOR_TYPE):
            mq.open("R.Q", options)


def test_remote_queue_without_a_transmission_queue_is_2087(mq: Any) -> None:
    mq.define("R.Q", "QREMOTE", RNAME="TARGET.Q", RQMNAME="QM2")
    with mq.raises(C.MQRC_UNKNOWN_REMOTE_Q_MGR):
        mq.open("R.Q", C.MQOO_OUTPUT)
    with mq.raises(C.MQRC_UNKNOWN_REMOTE_Q_MGR):
        mq.put1("R.Q")


def test_put_to_a_remote_queue_lands_on_the_xmitq_with_an_mqxqh(mq: Any) -> None:  # R-CHN-1
    mq.define("QM2", USAGE="XMITQ")
    mq.define("R.Q", "QREMOTE", RNAME="TARGET.Q", RQMNAME="QM2")
    h = mq.open("R.Q", C.MQOO_OUTPUT)
    corr = b"CORR".ljust(24, b"\0")
    md = mq.put(h, b"for QM2", md=MessageDescriptor(Format="MQSTR", CorrelId=corr, ReplyToQ="BACK.Q",
                                                     Persistence=C.MQPER_NOT_PERSISTENT, Priority=3))
    assert mq.depth("QM2") == 1
    xq = mq.open("QM2", C.MQOO_INPUT_SHARED)
    got = mq.get(xq)
    assert got.message.md.Format == xqh.FORMAT_XMIT_Q_HEADER
    header, body = xqh.unwrap(got.body)
    assert (header.remote_q_name, header.remote_q_mgr_name) == ("TARGET.Q", "QM2")
    assert body == b"for QM2"
    inner = header.md
    assert inner.MsgId == md.MsgId and inner.MsgId.startswith(b"AMQ ")
    assert (inner.CorrelId, inner.Format, inner.Priority) == (corr, "MQSTR", 3)
    assert (inner.ReplyToQ, inner.ReplyToQMgr) == ("BACK.Q", "QM1")
    assert (inner.UserIdentifier, inner.PutApplName) == ("alice", "app.py")
    assert inner.Persistence == C.MQPER_NOT_PERSISTENT


def test_remote_queue_uses_its_xmitq_attribute(mq: Any) -> None:
    mq.define("TO.QM2", USAGE="XMITQ")
    mq.define("R.Q", "QREMOTE", RNAME="TARGET.Q", RQMNAME="QM2", XMITQ="TO.QM2")
    mq.put1("R.Q", b"routed")
    xq = mq.open("TO.QM2", C.MQOO_INPUT_SHARED)
    header, body = xqh.unwrap(mq.get(xq).body)
    assert (header.remote_q_name, header.remote_q_mgr_name, body) == ("TARGET.Q", "QM2", b"routed")


def test_object_qmgr_name_routes_through_the_xmitq_of_that_name(mq: Any) -> None:  # R-CHN-1
    mq.define("QM2", USAGE="XMITQ")
    h = mq.open("ANY.Q", C.MQOO_OUTPUT, ObjectQMgrName="QM2")
    mq.put(h, b"direct")
    xq = mq.open("QM2", C.MQOO_INPUT_SHARED)
    header, body = xqh.unwrap(mq.get(xq).body)
    assert (header.remote_q_name, header.remote_q_mgr_name, body) == ("ANY.Q", "QM2", b"direct")


def test_a_queue_manager_alias_names_the_way_to_a_further_one(mq: Any) -> None:  # B:R-CHN-3 (2)
    mq.define("QM2", USAGE="XMITQ")
    mq.define("QM3", "QREMOTE", RNAME="", RQMNAME="QM3", XMITQ="QM2")  # QM3 is reached through QM2
    h = mq.open("FAR.Q", C.MQOO_OUTPUT, ObjectQMgrName="QM3")
    mq.put(h, b"two hops")
    header, body = xqh.unwrap(mq.get(mq.open("QM2", C.MQOO_INPUT_SHARED)).body)
    assert (header.remote_q_name, header.remote_q_mgr_name, body) == ("FAR.Q", "QM3", b"two hops")


def test_default_xmitq_is_used_when_no_queue_is_named_after_the_qmgr(mq: Any) -> None:
    mq.define("DEFAULT.XQ", USAGE="XMITQ")
    mq.qm.alter("QMGR", "", {"DEFXMITQ": "DEFAULT.XQ"})
    mq.define("R.Q", "QREMOTE", RNAME="TARGET.Q", RQMNAME="QM3")
    mq.put1("R.Q", b"via default")
    assert mq.depth("DEFAULT.XQ") == 1


def test_remote_queue_naming_an_unknown_xmitq_is_2196(mq: Any) -> None:
    # IBM: XMITQ not blank and not a locally defined queue -> MQRC_UNKNOWN_XMIT_Q.
    mq.define("R.Q", "QREMOTE", RNAME="TARGET.Q", RQMNAME="QM2", XMITQ="NO.SUCH.XQ")
    with mq.raises(C.MQRC_UNKNOWN_XMIT_Q):
        mq.open("R.Q", C.MQOO_OUTPUT)


def test_transmission_queue_without_usage_xmitq_is_2092(mq: Any) -> None:
    # IBM: the queue found as transmission queue must have Usage MQUS_TRANSMISSION.
    mq.define("QM2")  # USAGE(NORMAL)
    mq.define("R.Q", "QREMOTE", RNAME="TARGET.Q", RQMNAME="QM2")
    with mq.raises(C.MQRC_XMIT_Q_USAGE_ERROR):
        mq.open("R.Q", C.MQOO_OUTPUT)
    assert mq.depth("QM2") == 0


def test_a_transmission_queue_that_is_not_a_local_queue_is_2091(mq: Any) -> None:
    # IBM MQRC_XMIT_Q_TYPE_ERROR: XmitQName names a queue that is not a local queue, or it is blank
    # and the queue named after the remote queue manager is not one.
    mq.define("LOCAL.XQ", USAGE="XMITQ")
    mq.define("XQ.ALIAS", "QALIAS", TARGET="LOCAL.XQ")
    mq.define("QM2", "QALIAS", TARGET="LOCAL.XQ")
    mq.define("R.NAMED", "QREMOTE", RNAME="TARGET.Q", RQMNAME="QM2", XMITQ="XQ.ALIAS")
    mq.define("R.BLANK", "QREMOTE", RNAME="TARGET.Q", RQMNAME="QM2")
    for name in ("R.NAMED", "R.BLANK"):
        with mq.raises(C.MQRC_XMIT_Q_TYPE_ERROR):
            mq.open(name, C.MQOO_OUTPUT)
    with mq.raises(C.MQRC_XMIT_Q_TYPE_ERROR):
        mq.put1("R.NAMED")


@pytest.mark.parametrize(("define", "reason"), [
    (None, C.MQRC_UNKNOWN_DEF_XMIT_Q),  # DEFXMITQ names no queue: 2197
    ({"qtype": "QALIAS", "TARGET": "ELSEWHERE"}, C.MQRC_DEF_XMIT_Q_TYPE_ERROR),  # not a local queue: 2198
    ({"qtype": "QLOCAL"}, C.MQRC_DEF_XMIT_Q_USAGE_ERROR),  # not USAGE(XMITQ): 2199
])
def test_the_default_transmission_queue_has_its_own_reasons(mq: Any, define: dict[str, str] | None,
                                                             reason: int) -> None:
    # IBM's MQOPEN/MQPUT1 reasons when DEFXMITQ is the queue used (no queue named after QM3).
    if define is not None:
        attrs = dict(define)
        mq.define("DEF.XQ", attrs.pop("qtype"), **attrs)
    mq.qm.alter("QMGR", "", {"DEFXMITQ": "DEF.XQ"})
    mq.define("R.Q", "QREMOTE", RNAME="TARGET.Q", RQMNAME="QM3")
    with mq.raises(reason):
        mq.open("R.Q", C.MQOO_OUTPUT)
    with mq.raises(reason):
        mq.put1("R.Q")
    with mq.raises(reason):
        mq.qm.open(mq.conn, {"ObjectName": "ANY.Q", "ObjectQMgrName": "QM3"}, C.MQOO_OUTPUT)


def test_remote_queue_definition_supplies_the_default_persistence(mq: Any) -> None:
    # IBM: AS_Q_DEF takes DefPersistence from the first definition in the resolution path,
    # here the local definition of the remote queue, not the transmission queue.
    mq.define("QM2", USAGE="XMITQ", DEFPSIST="NO")
    mq.define("R.Q", "QREMOTE", RNAME="TARGET.Q", RQMNAME="QM2", DEFPSIST="YES")
    md = mq.put1("R.Q", b"x")
    assert md.Persistence == C.MQPER_PERSISTENT
    xq = mq.open("QM2", C.MQOO_INPUT_SHARED)
    header, _ = xqh.unwrap(mq.get(xq).body)
    assert header.md.Persistence == C.MQPER_PERSISTENT


# -- MQINQ / MQSET ----------------------------------------------------------------------------
def test_mqinq_returns_queue_attributes(mq: Any) -> None:
    mq.define("INQ.Q", MAXDEPTH=123)
    h = mq.open("INQ.Q", IO)
    mq.put(h)
    mq.put(h)
    values = mq.inq(h, C.MQIA_CURRENT_Q_DEPTH, C.MQIA_MAX_Q_DEPTH, C.MQIA_Q_TYPE, C.MQIA_INHIBIT_GET,
                    C.MQIA_OPEN_INPUT_COUNT, C.MQCA_Q_NAME)
    assert values == [2, 123, C.MQQT_LOCAL, C.MQQA_GET_ALLOWED, 1, "INQ.Q"]
    mq.qm.alter("QLOCAL", "INQ.Q", {"GET": "DISABLED"})
    assert mq.inq(h, C.MQIA_INHIBIT_GET) == [C.MQQA_GET_INHIBITED]


def test_mqinq_of_an_alias_gives_the_alias_attributes(mq: Any, q: Any) -> None:
    mq.define("ALIAS.I", "QALIAS", TARGET="APP.Q", GET="DISABLED")
    h = mq.open("ALIAS.I", C.MQOO_INQUIRE)
    assert mq.inq(h, C.MQIA_Q_TYPE, C.MQIA_INHIBIT_GET) == [C.MQQT_ALIAS, C.MQQA_GET_INHIBITED]


def test_mqinq_unknown_selector_is_2067(mq: Any, q: Any) -> None:
    with mq.raises(C.MQRC_SELECTOR_ERROR):
        mq.inq(q, 999999)


def test_mqset_inhibit_put(mq: Any, q: Any) -> None:
    h = mq.open("APP.Q", C.MQOO_SET | C.MQOO_INQUIRE)
    mq.qm.set(mq.conn, h.hobj, {C.MQIA_INHIBIT_PUT: C.MQQA_PUT_INHIBITED})
    assert mq.inq(h, C.MQIA_INHIBIT_PUT) == [C.MQQA_PUT_INHIBITED]
    assert mq.qm.objects("QLOCAL", "APP.Q")[0]["PUT"] == "DISABLED"
    with mq.raises(C.MQRC_PUT_INHIBITED):
        mq.put(q)
    mq.qm.set(mq.conn, h.hobj, {C.MQIA_INHIBIT_PUT: C.MQQA_PUT_ALLOWED})
    mq.put(q)
    assert mq.depth("APP.Q") == 1


def test_mqset_of_a_non_settable_selector_is_2067(mq: Any, q: Any) -> None:
    h = mq.open("APP.Q", C.MQOO_SET)
    with mq.raises(C.MQRC_SELECTOR_ERROR):
        mq.qm.set(mq.conn, h.hobj, {C.MQIA_MAX_Q_DEPTH: 1})


def test_queue_manager_object_opens_for_inquire_only(mq: Any) -> None:
    h = mq.qm.open(mq.conn, {"ObjectType": C.MQOT_Q_MGR}, C.MQOO_INQUIRE)
    assert mq.inq(h, C.MQCA_Q_MGR_NAME, C.MQCA_DEAD_LETTER_Q_NAME) == ["QM1", "SYSTEM.DEAD.LETTER.QUEUE"]
    with mq.raises(C.MQRC_OPTION_NOT_VALID_FOR_TYPE):
        mq.qm.open(mq.conn, {"ObjectType": C.MQOT_Q_MGR}, C.MQOO_OUTPUT)
