"""Core MQPUT / MQGET semantics: ordering, ids, matching, browse, truncation, waits, MQMD defaults.

IBM MQI behaviour (WebSphere MQ v7 Application Programming Reference); spec IDs where one applies.
"""

from __future__ import annotations

from typing import Any

import pytest

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.qmgr import GetResult, TruncatedError
from mqlite.core.waiters import Waiter
from mqlite.message import NULL_ID, MessageDescriptor

IO = C.MQOO_OUTPUT | C.MQOO_INPUT_SHARED | C.MQOO_BROWSE | C.MQOO_INQUIRE
BROWSE_FIRST = C.MQGMO_BROWSE_FIRST | C.MQGMO_NO_SYNCPOINT
BROWSE_NEXT = C.MQGMO_BROWSE_NEXT | C.MQGMO_NO_SYNCPOINT


# -- delivery order ----------------------------------------------------------------------------
PUTS = [(0, b"a0"), (5, b"a5"), (0, b"b0"), (9, b"a9"), (5, b"b5"), (5, b"c5")]


def test_priority_queue_delivers_highest_priority_first_fifo_within_priority(mq: Any, q: Any) -> None:
    for priority, body in PUTS:
        mq.put(q, body, Priority=priority)
    assert mq.bodies(q) == [b"a9", b"a5", b"b5", b"c5", b"a0", b"b0"]


def test_fifo_queue_ignores_priority_for_order(mq: Any) -> None:
    mq.define("APP.FIFO", MSGDLVSQ="FIFO")
    h = mq.open("APP.FIFO", IO)
    for priority, body in PUTS:
        mq.put(h, body, Priority=priority)
    results = [mq.get(h) for _ in PUTS]
    assert [r.body for r in results] == [body for _, body in PUTS]
    # The descriptor keeps each message's own priority even though it did not order delivery.
    assert [r.message.md.Priority for r in results] == [p for p, _ in PUTS]


def test_get_from_empty_queue_is_2033(mq: Any, q: Any) -> None:
    with mq.raises(C.MQRC_NO_MSG_AVAILABLE):
        mq.get(q)


def test_get_removes_the_message_and_returns_body_and_length(mq: Any, q: Any) -> None:
    mq.put(q, b"hello world")
    assert mq.depth("APP.Q") == 1
    result = mq.get(q)
    assert isinstance(result, GetResult)
    assert (result.body, result.data_length, result.reason) == (b"hello world", 11, 0)
    assert mq.depth("APP.Q") == 0
    with mq.raises(C.MQRC_NO_MSG_AVAILABLE):
        mq.get(q)


def test_properties_travel_with_the_message(mq: Any, q: Any) -> None:
    mq.put(q, b"x", props={"colour": "red", "n": 3})
    assert mq.get(q).message.properties == {"colour": "red", "n": 3}


def test_shared_consumers_each_message_goes_to_one_getter(mq: Any, q: Any) -> None:  # R-GET-3
    other = mq.connect()
    h2 = mq.open("APP.Q", C.MQOO_INPUT_SHARED, conn=other)
    for body in (b"1", b"2", b"3", b"4"):
        mq.put(q, body)
    got = [mq.get(q).body, mq.get(h2, conn=other).body, mq.get(q).body, mq.get(h2, conn=other).body]
    assert got == [b"1", b"2", b"3", b"4"]


# -- MsgId / CorrelId -------------------------------------------------------------------------
def test_generated_msg_ids_are_unique_24_bytes_amq_prefixed(mq: Any, q: Any) -> None:
    ids = [mq.put(q, b"x").MsgId for _ in range(200)]
    assert len(set(ids)) == 200
    for msg_id in ids:
        assert len(msg_id) == 24
        assert msg_id.startswith(b"AMQ ")
        assert msg_id[4:16] == b"QM1".ljust(12)  # IBM: "AMQ " + queue manager name, blank padded
    got = [mq.get(q).message.md.MsgId for _ in range(200)]
    assert got == ids


def test_msg_id_given_by_the_application_is_kept(mq: Any, q: Any) -> None:
    mine = b"MY-OWN-ID".ljust(24, b"\0")
    assert mq.put(q, MsgId=mine).MsgId == mine
    assert mq.get(q).message.md.MsgId == mine


def test_pmo_new_msg_id_replaces_the_given_msg_id(mq: Any, q: Any) -> None:
    mine = b"MY-OWN-ID".ljust(24, b"\0")
    md = mq.put(q, pmo=C.MQPMO_NO_SYNCPOINT | C.MQPMO_NEW_MSG_ID, MsgId=mine)
    assert md.MsgId != mine and md.MsgId.startswith(b"AMQ ") and len(md.MsgId) == 24
    assert mq.get(q).message.md.MsgId == md.MsgId


def test_correl_id_is_not_generated_unless_asked(mq: Any, q: Any) -> None:
    md = mq.put(q)
    assert md.CorrelId == NULL_ID


def test_pmo_new_correl_id_generates_a_correl_id(mq: Any, q: Any) -> None:
    md1 = mq.put(q, pmo=C.MQPMO_NO_SYNCPOINT | C.MQPMO_NEW_CORREL_ID, CorrelId=b"c" * 24)
    md2 = mq.put(q, pmo=C.MQPMO_NO_SYNCPOINT | C.MQPMO_NEW_CORREL_ID)
    for md in (md1, md2):
        assert md.CorrelId not in (NULL_ID, b"c" * 24) and len(md.CorrelId) == 24
    assert md1.CorrelId != md2.CorrelId
    assert mq.get(q).message.md.CorrelId == md1.CorrelId


# -- matching (R-GET-2) ----------------------------------------------------------------------
def _three(mq: Any, q: Any) -> list[MessageDescriptor]:
    c1, c2 = b"C1".ljust(24, b"\0"), b"C2".ljust(24, b"\0")
    return [mq.put(q, b"one", CorrelId=c1), mq.put(q, b"two", CorrelId=c2), mq.put(q, b"three", CorrelId=c1)]


def test_get_by_msg_id(mq: Any, q: Any) -> None:  # R-GET-2
    mds = _three(mq, q)
    assert mq.get(q, msg_id=mds[1].MsgId).body == b"two"
    with mq.raises(C.MQRC_NO_MSG_AVAILABLE):
        mq.get(q, msg_id=mds[1].MsgId)
    assert mq.bodies(q) == [b"one", b"three"]


def test_get_by_correl_id_takes_the_first_match_in_order(mq: Any, q: Any) -> None:  # R-GET-2
    _three(mq, q)
    c1 = b"C1".ljust(24, b"\0")
    assert mq.get(q, correl_id=c1).body == b"one"
    assert mq.get(q, correl_id=c1).body == b"three"
    with mq.raises(C.MQRC_NO_MSG_AVAILABLE):
        mq.get(q, correl_id=c1)
    assert mq.bodies(q) == [b"two"]


def test_get_by_msg_id_and_correl_id_needs_both(mq: Any, q: Any) -> None:  # R-GET-2
    mds = _three(mq, q)
    c1, c2 = b"C1".ljust(24, b"\0"), b"C2".ljust(24, b"\0")
    with mq.raises(C.MQRC_NO_MSG_AVAILABLE):
        mq.get(q, msg_id=mds[2].MsgId, correl_id=c2)
    assert mq.get(q, msg_id=mds[2].MsgId, correl_id=c1).body == b"three"
    assert mq.depth("APP.Q") == 2


def test_match_follows_priority_order(mq: Any, q: Any) -> None:
    corr = b"K".ljust(24, b"\0")
    mq.put(q, b"low", Priority=1, CorrelId=corr)
    mq.put(q, b"high", Priority=7, CorrelId=corr)
    assert mq.get(q, correl_id=corr).body == b"high"


# -- browse -----------------------------------------------------------------------------------
def test_browse_first_and_next_walk_the_queue_without_removing(mq: Any, q: Any) -> None:
    for body in (b"1", b"2", b"3"):
        mq.put(q, body)
    seen = [mq.get(q, BROWSE_FIRST).body, mq.get(q, BROWSE_NEXT).body, mq.get(q, BROWSE_NEXT).body]
    assert seen == [b"1", b"2", b"3"]
    with mq.raises(C.MQRC_NO_MSG_AVAILABLE):
        mq.get(q, BROWSE_NEXT)
    assert mq.depth("APP.Q") == 3
    assert mq.get(q, BROWSE_FIRST).body == b"1"  # BROWSE_FIRST starts again
    assert mq.bodies(q) == [b"1", b"2", b"3"]


def test_browse_next_without_a_cursor_starts_at_the_first(mq: Any, q: Any) -> None:
    mq.put(q, b"1")
    mq.put(q, b"2")
    assert mq.get(q, BROWSE_NEXT).body == b"1"
    assert mq.get(q, BROWSE_NEXT).body == b"2"


def test_browse_next_sees_later_puts_of_lower_priority_not_higher(mq: Any, q: Any) -> None:
    mq.put(q, b"p5", Priority=5)
    assert mq.get(q, BROWSE_FIRST).body == b"p5"
    mq.put(q, b"p9", Priority=9)  # sorts ahead of the cursor: not seen by BROWSE_NEXT
    mq.put(q, b"p5b", Priority=5)
    mq.put(q, b"p0", Priority=0)
    assert mq.get(q, BROWSE_NEXT).body == b"p5b"
    assert mq.get(q, BROWSE_NEXT).body == b"p0"
    with mq.raises(C.MQRC_NO_MSG_AVAILABLE):
        mq.get(q, BROWSE_NEXT)
    assert mq.get(q, BROWSE_FIRST).body == b"p9"


def test_browse_next_with_match_skips_non_matching(mq: Any, q: Any) -> None:
    _three(mq, q)
    c1 = b"C1".ljust(24, b"\0")
    assert mq.get(q, BROWSE_FIRST, correl_id=c1).body == b"one"
    assert mq.get(q, BROWSE_NEXT, correl_id=c1).body == b"three"


def test_browse_msg_under_cursor_returns_the_same_message_again(mq: Any, q: Any) -> None:
    mq.put(q, b"1")
    mq.put(q, b"2")
    mq.get(q, BROWSE_FIRST)
    mq.get(q, BROWSE_NEXT)
    under = C.MQGMO_BROWSE_MSG_UNDER_CURSOR | C.MQGMO_NO_SYNCPOINT
    assert mq.get(q, under).body == b"2"
    assert mq.get(q, under).body == b"2"
    assert mq.depth("APP.Q") == 2


def test_get_msg_under_cursor_removes_the_browsed_message(mq: Any, q: Any) -> None:
    for body in (b"1", b"2", b"3"):
        mq.put(q, body)
    mq.get(q, BROWSE_FIRST)
    mq.get(q, BROWSE_NEXT)
    assert mq.get(q, C.MQGMO_MSG_UNDER_CURSOR | C.MQGMO_NO_SYNCPOINT).body == b"2"
    assert mq.depth("APP.Q") == 2
    with mq.raises(C.MQRC_NO_MSG_UNDER_CURSOR):  # the cursor's message is gone now
        mq.get(q, C.MQGMO_MSG_UNDER_CURSOR | C.MQGMO_NO_SYNCPOINT)
    assert mq.get(q, BROWSE_NEXT).body == b"3"  # the cursor position survives the removal
    assert mq.bodies(q) == [b"1", b"3"]


def test_msg_under_cursor_without_a_browse_is_2034(mq: Any, q: Any) -> None:
    mq.put(q, b"1")
    with mq.raises(C.MQRC_NO_MSG_UNDER_CURSOR):
        mq.get(q, C.MQGMO_MSG_UNDER_CURSOR | C.MQGMO_NO_SYNCPOINT)
    with mq.raises(C.MQRC_NO_MSG_UNDER_CURSOR):
        mq.get(q, C.MQGMO_BROWSE_MSG_UNDER_CURSOR | C.MQGMO_NO_SYNCPOINT)
    assert mq.depth("APP.Q") == 1


def test_msg_under_cursor_taken_by_another_getter_is_2034(mq: Any, q: Any) -> None:
    mq.put(q, b"1")
    mq.get(q, BROWSE_FIRST)
    other = mq.connect()
    h2 = mq.open("APP.Q", C.MQOO_INPUT_SHARED, conn=other)
    assert mq.get(h2, conn=other).body == b"1"
    with mq.raises(C.MQRC_NO_MSG_UNDER_CURSOR):
        mq.get(q, C.MQGMO_MSG_UNDER_CURSOR | C.MQGMO_NO_SYNCPOINT)


def test_browse_cursors_are_per_handle(mq: Any, q: Any) -> None:
    h2 = mq.open("APP.Q", C.MQOO_BROWSE)
    mq.put(q, b"1")
    mq.put(q, b"2")
    assert mq.get(q, BROWSE_FIRST).body == b"1"
    assert mq.get(q, BROWSE_NEXT).body == b"2"
    assert mq.get(h2, BROWSE_NEXT).body == b"1"


def test_browse_order_is_kept_after_msgdlvsq_changes_to_fifo(mq: Any, q: Any) -> None:
    # IBM: changing MSGDLVSQ from PRIORITY to FIFO leaves the order of messages already on the
    # queue unchanged; later messages come after them. Browsing must see every message once.
    mq.put(q, b"a", Priority=5)
    mq.put(q, b"b", Priority=1)
    mq.qm.alter("QLOCAL", "APP.Q", {"MSGDLVSQ": "FIFO"})
    mq.put(q, b"c", Priority=9)
    seen = [mq.get(q, BROWSE_FIRST).body]
    while True:
        try:
            seen.append(mq.get(q, BROWSE_NEXT).body)
        except MQError as error:
            assert error.reason == C.MQRC_NO_MSG_AVAILABLE
            break
    assert seen == [b"a", b"b", b"c"]
    assert mq.bodies(q) == [b"a", b"b", b"c"]


# -- truncation -------------------------------------------------------------------------------
def test_buffer_too_small_is_2080_and_the_message_stays(mq: Any, q: Any) -> None:
    md = mq.put(q, b"0123456789")
    with mq.raises(C.MQRC_TRUNCATED_MSG_FAILED) as info:
        mq.get(q, max_length=4)
    error = info.value
    assert isinstance(error, TruncatedError)
    assert error.data_length == 10
    assert error.message.md.MsgId == md.MsgId
    assert mq.depth("APP.Q") == 1
    result = mq.get(q, max_length=10)
    assert (result.body, result.reason) == (b"0123456789", 0)


def test_accept_truncated_msg_is_2079_and_the_message_is_removed(mq: Any, q: Any) -> None:
    mq.put(q, b"0123456789")
    result = mq.get(q, C.MQGMO_NO_SYNCPOINT | C.MQGMO_ACCEPT_TRUNCATED_MSG, max_length=4)
    assert result.reason == C.MQRC_TRUNCATED_MSG_ACCEPTED
    assert (result.body, result.data_length) == (b"0123", 10)
    assert mq.depth("APP.Q") == 0


def test_zero_length_buffer_on_an_empty_message_is_fine(mq: Any, q: Any) -> None:
    mq.put(q, b"")
    result = mq.get(q, max_length=0)
    assert (result.body, result.data_length, result.reason) == (b"", 0, 0)


def test_truncated_browse_leaves_the_message(mq: Any, q: Any) -> None:
    mq.put(q, b"0123456789")
    result = mq.get(q, BROWSE_FIRST | C.MQGMO_ACCEPT_TRUNCATED_MSG, max_length=3)
    assert (result.body, result.reason) == (b"012", C.MQRC_TRUNCATED_MSG_ACCEPTED)
    assert mq.depth("APP.Q") == 1


# -- MQMD defaults and checks -----------------------------------------------------------------
def test_persistence_as_q_def_takes_defpsist(mq: Any) -> None:
    mq.define("P.YES", DEFPSIST="YES")
    mq.define("P.NO", DEFPSIST="NO")
    yes, no = mq.open("P.YES", IO), mq.open("P.NO", IO)
    assert mq.put(yes).Persistence == C.MQPER_PERSISTENT
    assert mq.put(no).Persistence == C.MQPER_NOT_PERSISTENT
    assert mq.get(yes).message.md.Persistence == C.MQPER_PERSISTENT
    assert mq.get(no).message.md.Persistence == C.MQPER_NOT_PERSISTENT
    # An explicit value wins over the queue's default.
    assert mq.put(yes, Persistence=C.MQPER_NOT_PERSISTENT).Persistence == C.MQPER_NOT_PERSISTENT


def test_persistence_as_q_def_through_an_alias_takes_the_alias_defpsist(mq: Any) -> None:
    # IBM: the default is taken from the first definition in the resolution path (the alias).
    mq.define("BASE.Q", DEFPSIST="NO")
    mq.define("ALIAS.P", "QALIAS", TARGET="BASE.Q", DEFPSIST="YES")
    h = mq.open("ALIAS.P", C.MQOO_OUTPUT)
    assert mq.put(h).Persistence == C.MQPER_PERSISTENT
    direct = mq.open("BASE.Q", C.MQOO_OUTPUT)
    assert mq.put(direct).Persistence == C.MQPER_NOT_PERSISTENT


def test_priority_as_q_def_takes_defprty(mq: Any) -> None:
    mq.define("PRIO.Q", DEFPRTY=6)
    h = mq.open("PRIO.Q", IO)
    assert mq.put(h, b"dflt").Priority == 6
    mq.put(h, b"p7", Priority=7)
    mq.put(h, b"p5", Priority=5)
    results = [mq.get(h) for _ in range(3)]
    assert [r.body for r in results] == [b"p7", b"dflt", b"p5"]
    assert results[1].message.md.Priority == 6


def test_priority_as_q_def_through_an_alias_takes_the_alias_defprty(mq: Any) -> None:
    mq.define("PRIO.Q", DEFPRTY=6)
    mq.define("PRIO.ALIAS", "QALIAS", TARGET="PRIO.Q", DEFPRTY=8)
    assert mq.put(mq.open("PRIO.ALIAS", C.MQOO_OUTPUT)).Priority == 8


def test_priority_above_9_is_delivered_at_priority_9(mq: Any, q: Any) -> None:
    mq.put(q, b"nine", Priority=9)
    mq.put(q, b"twelve", Priority=12)
    mq.put(q, b"eight", Priority=8)
    assert mq.bodies(q) == [b"nine", b"twelve", b"eight"]  # FIFO among the priority-9 ones


def test_priority_above_maximum_keeps_the_application_value(mq: Any, q: Any) -> None:
    # IBM: "the message is placed on the queue at the queue manager's maximum priority ...
    # However, the Priority field retains the value specified by the application".
    mq.put(q, b"twelve", Priority=12)
    assert mq.conn.warning == C.MQRC_PRIORITY_EXCEEDS_MAXIMUM  # MQCC_WARNING, reason 2049
    assert mq.get(q).message.md.Priority == 12
    mq.put(q, b"nine", Priority=9)
    assert mq.conn.warning == 0  # the next put starts clean


def test_negative_priority_other_than_as_q_def_is_2050(mq: Any, q: Any) -> None:
    with mq.raises(C.MQRC_PRIORITY_ERROR):
        mq.put(q, Priority=-2)
    assert mq.depth("APP.Q") == 0


def test_invalid_persistence_is_2047(mq: Any, q: Any) -> None:
    with mq.raises(C.MQRC_PERSISTENCE_ERROR):
        mq.put(q, Persistence=5)
    assert mq.depth("APP.Q") == 0


@pytest.mark.parametrize("expiry", [0, -5])
def test_invalid_expiry_is_2013(mq: Any, q: Any, expiry: int) -> None:
    with mq.raises(C.MQRC_EXPIRY_ERROR):
        mq.put(q, Expiry=expiry)
    assert mq.depth("APP.Q") == 0


def test_unlimited_expiry_is_returned_as_unlimited(mq: Any, q: Any) -> None:
    mq.put(q)
    assert mq.get(q).message.md.Expiry == C.MQEI_UNLIMITED


def test_syncpoint_and_no_syncpoint_together_is_2046(mq: Any, q: Any) -> None:
    with mq.raises(C.MQRC_OPTIONS_ERROR):
        mq.put(q, pmo=C.MQPMO_SYNCPOINT | C.MQPMO_NO_SYNCPOINT)
    mq.put(q)
    with mq.raises(C.MQRC_OPTIONS_ERROR):
        mq.get(q, C.MQGMO_SYNCPOINT | C.MQGMO_NO_SYNCPOINT)
    assert mq.depth("APP.Q") == 1


# -- context ----------------------------------------------------------------------------------
def test_default_context_is_set_by_the_queue_manager(mq: Any, q: Any) -> None:
    md = mq.put(q, UserIdentifier="mallory", PutApplName="fake", PutDate="19990101", PutTime="00000000")
    assert md.UserIdentifier == "alice"
    assert md.PutApplName == "app.py"
    assert (md.PutDate, md.PutTime) == ("20231114", "22132025")  # GMT of the fake clock
    got = mq.get(q).message.md
    assert (got.UserIdentifier, got.PutApplName, got.PutDate, got.PutTime) == (
        "alice", "app.py", "20231114", "22132025")
    assert got.PutApplType != 0


def test_reply_to_qmgr_is_filled_when_reply_to_q_is_set(mq: Any, q: Any) -> None:
    md = mq.put(q, ReplyToQ="REPLY.Q")
    assert (md.ReplyToQ, md.ReplyToQMgr) == ("REPLY.Q", "QM1")
    assert mq.put(q, ReplyToQ="REPLY.Q", ReplyToQMgr="QM9").ReplyToQMgr == "QM9"
    assert mq.put(q).ReplyToQMgr == ""
    assert mq.get(q).message.md.ReplyToQMgr == "QM1"


def test_no_context_blanks_the_context_fields(mq: Any, q: Any) -> None:
    md = mq.put(q, pmo=C.MQPMO_NO_SYNCPOINT | C.MQPMO_NO_CONTEXT, UserIdentifier="someone",
                PutApplName="x", ApplIdentityData="ident", PutDate="20200101", PutTime="12000000")
    got = mq.get(q).message.md
    for descriptor in (md, got):
        assert descriptor.UserIdentifier == ""
        assert descriptor.PutApplName == ""
        assert descriptor.ApplIdentityData == ""
        assert (descriptor.PutDate, descriptor.PutTime) == ("", "")
        assert descriptor.AccountingToken == bytes(32)



def test_set_all_context_keeps_the_application_context(mq: Any, q: Any) -> None:
    h = mq.open("APP.Q", C.MQOO_OUTPUT | C.MQOO_SET_ALL_CONTEXT)
    md = mq.put(h, pmo=C.MQPMO_NO_SYNCPOINT | C.MQPMO_SET_ALL_CONTEXT, UserIdentifier="batch",
                PutApplName="legacy", PutDate="20200102", PutTime="03040506")
    assert (md.UserIdentifier, md.PutApplName, md.PutDate, md.PutTime) == (
        "batch", "legacy", "20200102", "03040506")
    got = mq.get(q).message.md
    assert (got.UserIdentifier, got.PutApplName, got.PutDate) == ("batch", "legacy", "20200102")


def test_set_identity_context_keeps_identity_and_sets_origin(mq: Any, q: Any) -> None:
    h = mq.open("APP.Q", C.MQOO_OUTPUT | C.MQOO_SET_IDENTITY_CONTEXT)
    md = mq.put(h, pmo=C.MQPMO_NO_SYNCPOINT | C.MQPMO_SET_IDENTITY_CONTEXT, UserIdentifier="batch",
                ApplIdentityData="id-data", PutApplName="legacy", PutDate="20200102")
    assert (md.UserIdentifier, md.ApplIdentityData) == ("batch", "id-data")
    assert (md.PutApplName, md.PutDate) == ("app.py", "20231114")


@pytest.mark.parametrize(("pmo", "reason"), [
    (C.MQPMO_SET_ALL_CONTEXT, C.MQRC_NOT_OPEN_FOR_SET_ALL),
    (C.MQPMO_SET_IDENTITY_CONTEXT, C.MQRC_NOT_OPEN_FOR_SET_IDENT),
])
def test_setting_context_needs_the_matching_open_option(mq: Any, q: Any, pmo: int, reason: int) -> None:
    # IBM: MQPMO_SET_*_CONTEXT on a handle not opened with MQOO_SET_*_CONTEXT is 2095 / 2096;
    # otherwise any application could forge UserIdentifier.
    with mq.raises(reason):
        mq.put(q, pmo=C.MQPMO_NO_SYNCPOINT | pmo, UserIdentifier="root")
    assert mq.depth("APP.Q") == 0

# -- limits and inhibition --------------------------------------------------------------------
def test_maxdepth_is_2053(mq: Any) -> None:
    mq.define("SMALL.Q", MAXDEPTH=2)
    h = mq.open("SMALL.Q", IO)
    mq.put(h, b"1")
    mq.put(h, b"2")
    with mq.raises(C.MQRC_Q_FULL):
        mq.put(h, b"3")
    assert mq.depth("SMALL.Q") == 2
    mq.get(h)
    mq.put(h, b"3")
    assert mq.bodies(h) == [b"2", b"3"]


def test_maxmsgl_of_the_queue_is_2030(mq: Any) -> None:
    mq.define("SHORT.Q", MAXMSGL=10)
    h = mq.open("SHORT.Q", IO)
    mq.put(h, b"x" * 10)
    with mq.raises(C.MQRC_MSG_TOO_BIG_FOR_Q):
        mq.put(h, b"x" * 11)
    assert mq.depth("SHORT.Q") == 1


def test_maxmsgl_of_the_queue_manager_is_2031(mq: Any, q: Any) -> None:
    mq.qm.alter("QMGR", "", {"MAXMSGL": 32768})
    mq.put(q, b"x" * 32768)
    with mq.raises(C.MQRC_MSG_TOO_BIG_FOR_Q_MGR):
        mq.put(q, b"x" * 32769)
    assert mq.depth("APP.Q") == 1


def test_put_disabled_is_2051_for_put_and_put1(mq: Any, q: Any) -> None:
    mq.qm.alter("QLOCAL", "APP.Q", {"PUT": "DISABLED"})
    with mq.raises(C.MQRC_PUT_INHIBITED):
        mq.put(q)
    with mq.raises(C.MQRC_PUT_INHIBITED):
        mq.put1("APP.Q")
    mq.qm.alter("QLOCAL", "APP.Q", {"PUT": "ENABLED"})
    mq.put(q)
    assert mq.depth("APP.Q") == 1


def test_put_disabled_on_an_alias_is_2051(mq: Any, q: Any) -> None:
    mq.define("ALIAS.NOPUT", "QALIAS", TARGET="APP.Q", PUT="DISABLED")
    h = mq.open("ALIAS.NOPUT", C.MQOO_OUTPUT)
    with mq.raises(C.MQRC_PUT_INHIBITED):
        mq.put(h)
    mq.put(q)  # the base queue itself still takes puts
    assert mq.depth("APP.Q") == 1


def test_get_disabled_is_2016_and_browse_too(mq: Any, q: Any) -> None:
    mq.put(q)
    mq.qm.alter("QLOCAL", "APP.Q", {"GET": "DISABLED"})
    with mq.raises(C.MQRC_GET_INHIBITED):
        mq.get(q)
    with mq.raises(C.MQRC_GET_INHIBITED):
        mq.get(q, BROWSE_FIRST)
    mq.put(q)  # puts are still allowed
    mq.qm.alter("QLOCAL", "APP.Q", {"GET": "ENABLED"})
    assert len(mq.bodies(q)) == 2


def test_get_disabled_on_an_alias_is_2016_while_the_base_queue_serves(mq: Any, q: Any) -> None:
    mq.define("ALIAS.NOGET", "QALIAS", TARGET="APP.Q", GET="DISABLED")
    h = mq.open("ALIAS.NOGET", C.MQOO_INPUT_SHARED | C.MQOO_OUTPUT)
    mq.put(h, b"via alias")
    with mq.raises(C.MQRC_GET_INHIBITED):
        mq.get(h)
    assert mq.get(q).body == b"via alias"


def test_alias_resolves_puts_and_gets_to_its_target(mq: Any, q: Any) -> None:
    mq.define("ALIAS.Q", "QALIAS", TARGET="APP.Q")
    h = mq.open("ALIAS.Q", C.MQOO_INPUT_SHARED | C.MQOO_OUTPUT)
    mq.put(h, b"through the alias")
    assert mq.depth("APP.Q") == 1
    mq.put(q, b"direct")
    assert mq.bodies(h) == [b"through the alias", b"direct"]


def test_put1_puts_and_closes(mq: Any, q: Any) -> None:
    md = mq.put1("APP.Q", b"one shot")
    assert md.MsgId.startswith(b"AMQ ")
    assert mq.qm.queues["APP.Q"].open_output == 1  # only q's own handle
    assert mq.get(q).body == b"one shot"
    with mq.raises(C.MQRC_UNKNOWN_OBJECT_NAME):
        mq.put1("NO.SUCH.Q")


# -- waits (R-GET-1) --------------------------------------------------------------------------
def _completion(mq: Any) -> tuple[Waiter, GetResult | MQError]:
    completions = mq.qm.take_effects().completions
    assert len(completions) == 1, completions
    return completions[0]  # type: ignore[no-any-return]


def test_get_wait_on_an_empty_queue_returns_a_waiter(mq: Any, q: Any) -> None:
    waiter = mq.wait(q, wait_ms=5000, token=("session", 7))
    assert isinstance(waiter, Waiter)
    assert waiter.token == ("session", 7)
    assert not waiter.done
    assert not mq.qm.take_effects().completions


def test_a_later_put_completes_the_waiter(mq: Any, q: Any) -> None:
    waiter = mq.wait(q, wait_ms=5000)
    other = mq.connect()
    h2 = mq.open("APP.Q", C.MQOO_OUTPUT, conn=other)
    md = mq.put(h2, b"wake up", conn=other)
    done, result = _completion(mq)
    assert done is waiter and waiter.done
    assert isinstance(result, GetResult)
    assert result.body == b"wake up" and result.message.md.MsgId == md.MsgId
    assert mq.depth("APP.Q") == 0  # the waiter took it
    with mq.raises(C.MQRC_NO_MSG_AVAILABLE):
        mq.get(q)


def test_a_waiting_browse_is_completed_and_leaves_the_message(mq: Any, q: Any) -> None:
    waiter = mq.wait(q, C.MQGMO_BROWSE_FIRST, wait_ms=5000)
    mq.put(q, b"look")
    done, result = _completion(mq)
    assert done is waiter and isinstance(result, GetResult) and result.body == b"look"
    assert mq.depth("APP.Q") == 1


def test_tick_past_the_deadline_completes_the_waiter_with_2033(mq: Any, q: Any, clock: Any) -> None:  # R-GET-1
    waiter = mq.wait(q, wait_ms=2000)
    mq.qm.tick(clock.now + 1.9)
    assert not mq.qm.take_effects().completions
    mq.qm.tick(clock.now + 2.0)
    done, result = _completion(mq)
    assert done is waiter and waiter.done
    assert isinstance(result, MQError) and result.reason == C.MQRC_NO_MSG_AVAILABLE
    # Once timed out, the waiter takes nothing: a later put stays on the queue.
    mq.put(q, b"late")
    assert not mq.qm.take_effects().completions
    assert mq.depth("APP.Q") == 1


def test_unlimited_wait_is_never_timed_out(mq: Any, q: Any, clock: Any) -> None:
    waiter = mq.wait(q, wait_ms=C.MQWI_UNLIMITED)
    mq.qm.tick(clock.now + 10 * 365 * 86400)
    assert not mq.qm.take_effects().completions
    mq.put(q, b"finally")
    done, result = _completion(mq)
    assert done is waiter and isinstance(result, GetResult) and result.body == b"finally"


def test_wait_interval_zero_does_not_wait(mq: Any, q: Any) -> None:
    with mq.raises(C.MQRC_NO_MSG_AVAILABLE):
        mq.qm.get(mq.conn, q.hobj, mq.request(C.MQGMO_WAIT, wait_ms=0))


def test_negative_wait_interval_other_than_unlimited_is_2090(mq: Any, q: Any) -> None:
    with mq.raises(C.MQRC_WAIT_INTERVAL_ERROR):
        mq.qm.get(mq.conn, q.hobj, mq.request(C.MQGMO_WAIT, wait_ms=-7))


def test_a_waiter_with_a_correl_id_is_completed_only_by_a_match(mq: Any, q: Any) -> None:
    corr = b"WANT".ljust(24, b"\0")
    waiter = mq.wait(q, wait_ms=5000, correl_id=corr)
    mq.put(q, b"other")
    assert not mq.qm.take_effects().completions
    mq.put(q, b"mine", CorrelId=corr)
    done, result = _completion(mq)
    assert done is waiter and isinstance(result, GetResult) and result.body == b"mine"
    assert mq.bodies(q) == [b"other"]


def test_one_message_completes_one_of_two_waiters(mq: Any, q: Any) -> None:  # R-GET-3
    other = mq.connect()
    h2 = mq.open("APP.Q", C.MQOO_INPUT_SHARED, conn=other)
    mq.wait(q, wait_ms=5000)
    mq.wait(h2, wait_ms=5000, conn=other)
    mq.put(q, b"only one")
    _completion(mq)
    mq.put(q, b"second")
    _completion(mq)
    assert mq.depth("APP.Q") == 0


def test_closing_the_handle_cancels_its_wait(mq: Any, q: Any, clock: Any) -> None:
    other = mq.connect()
    h2 = mq.open("APP.Q", C.MQOO_INPUT_SHARED, conn=other)
    waiter = mq.wait(h2, wait_ms=5000, conn=other)
    mq.close(h2, conn=other)
    # The waiting MQGET ends with its handle (2019), so its caller is not left hanging...
    completions = mq.qm.take_effects().completions
    assert [(w, r.reason) for w, r in completions] == [(waiter, C.MQRC_HOBJ_ERROR)]
    # ...and a later message is not handed to it.
    mq.put(q, b"nobody waits")
    mq.qm.tick(clock.now + 10)
    assert not mq.qm.take_effects().completions
    assert mq.depth("APP.Q") == 1


def test_alter_get_disabled_fails_waiting_getters_with_2016(mq: Any, q: Any) -> None:
    waiter = mq.wait(q, wait_ms=C.MQWI_UNLIMITED)
    mq.qm.alter("QLOCAL", "APP.Q", {"GET": "DISABLED"})
    done, result = _completion(mq)
    assert done is waiter and waiter.done
    assert isinstance(result, MQError) and result.reason == C.MQRC_GET_INHIBITED
    mq.qm.alter("QLOCAL", "APP.Q", {"GET": "ENABLED"})
    mq.put(q, b"stays")
    assert not mq.qm.take_effects().completions
    assert mq.depth("APP.Q") == 1


def test_mqset_inhibit_get_fails_waiting_getters_with_2016(mq: Any, q: Any) -> None:
    waiter = mq.wait(q, wait_ms=C.MQWI_UNLIMITED)
    setter = mq.open("APP.Q", C.MQOO_SET)
    mq.qm.set(mq.conn, setter.hobj, {C.MQIA_INHIBIT_GET: C.MQQA_GET_INHIBITED})
    done, result = _completion(mq)
    assert done is waiter
    assert isinstance(result, MQError) and result.reason == C.MQRC_GET_INHIBITED


def test_alter_alias_get_disabled_fails_getters_waiting_through_it(mq: Any, q: Any) -> None:
    # IBM: a wait is cancelled with 2016 when gets become inhibited for the queue it was
    # opened as; for an alias, that is the alias's own GET attribute.
    mq.define("ALIAS.W", "QALIAS", TARGET="APP.Q")
    h = mq.open("ALIAS.W", C.MQOO_INPUT_SHARED)
    waiter = mq.wait(h, wait_ms=C.MQWI_UNLIMITED)
    mq.qm.alter("QALIAS", "ALIAS.W", {"GET": "DISABLED"})
    done, result = _completion(mq)
    assert done is waiter
    assert isinstance(result, MQError) and result.reason == C.MQRC_GET_INHIBITED


# -- persistence effects ----------------------------------------------------------------------
def test_a_persistent_put_outside_syncpoint_yields_a_tx_with_one_put(mq: Any, q: Any) -> None:
    from mqlite.store.tx import PUT_MESSAGE

    md = mq.put(q, b"durable", Persistence=C.MQPER_PERSISTENT)
    tx = mq.qm.take_effects().tx
    assert tx is not None and len(tx) == 1
    assert [(op, len(rows)) for op, rows in tx.runs] == [(PUT_MESSAGE, 1)]
    queue, _seq, _priority, _expiry, msg_id, *_rest, body = tx.runs[0][1][0]
    assert (queue, msg_id, body) == ("APP.Q", md.MsgId, b"durable")
    assert mq.qm.take_effects().tx is None  # taken once


def test_a_non_persistent_put_yields_no_tx(mq: Any, q: Any) -> None:
    mq.put(q, b"volatile", Persistence=C.MQPER_NOT_PERSISTENT)
    assert mq.qm.take_effects().tx is None
    mq.get(q)
    assert mq.qm.take_effects().tx is None


def test_a_persistent_get_outside_syncpoint_yields_a_delete(mq: Any, q: Any) -> None:
    from mqlite.store.tx import DELETE_MESSAGE

    mq.put(q, b"durable", Persistence=C.MQPER_PERSISTENT)
    mq.qm.take_effects()
    mq.get(q)
    tx = mq.qm.take_effects().tx
    assert tx is not None
    assert [(op, rows) for op, rows in tx.runs] == [(DELETE_MESSAGE, [("APP.Q", 1)])]


def test_put1_with_set_all_context_keeps_the_given_identity(mq: Any, q: Any) -> None:
    # MQPUT1 derives its open options from the PMO: SET_ALL_CONTEXT is allowed, and kept.
    md = MessageDescriptor(UserIdentifier="someone", PutApplName="loader", PutDate="20200101",
                           PutTime="12000000", Persistence=0)
    mq.qm.put1(mq.conn, {"ObjectName": "APP.Q"}, md, C.MQPMO_SET_ALL_CONTEXT, {}, b"reloaded")
    got = mq.get(q).message.md
    assert (got.UserIdentifier, got.PutApplName, got.PutDate) == ("someone", "loader", "20200101")


# -- read-ahead -------------------------------------------------------------------------------------
def test_waiting_get_after_messages_went_ahead_returns_at_once(mq: Any) -> None:
    """A consumer whose read-ahead messages may still be in flight must not be held for its whole
    wait interval: the queue manager answers 2033 at once, and waits on the next call."""
    mq.define("RA.Q", DEFREADA="YES")
    handle = mq.open("RA.Q", C.MQOO_INPUT_SHARED)
    assert handle.read_ahead
    mq.qm.grant_credit(mq.conn, handle.hobj, 10)
    producer = mq.open("RA.Q", C.MQOO_OUTPUT)
    mq.put(producer, b"ahead", Persistence=C.MQPER_NOT_PERSISTENT)
    pushes = mq.qm.take_deliveries()[1]
    assert [m.body for _, _, m in pushes] == [b"ahead"]
    with mq.raises(C.MQRC_NO_MSG_AVAILABLE):
        mq.qm.get(mq.conn, handle.hobj, mq.request(C.MQGMO_WAIT, wait_ms=5000))
    assert isinstance(mq.qm.get(mq.conn, handle.hobj, mq.request(C.MQGMO_WAIT, wait_ms=5000)), Waiter)
