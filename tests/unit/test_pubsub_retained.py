"""Retained publications in core (spec A §4, TV-RP; spec C §10.2, SC-RT)."""

from __future__ import annotations

from typing import Any

from mqlite import cmqc as C

RETAIN = C.MQPMO_RETAIN | C.MQPMO_NO_SYNCPOINT
ON_REQUEST = C.MQSO_PUBLICATIONS_ON_REQUEST


def bodies(mq: Any, handle: Any) -> list[bytes]:
    return [r.body for r in mq.got(handle)]


def test_without_retain_a_publication_is_discarded(mq: Any) -> None:  # A:TV-RP-01
    mq.pub("Stock/IBM", b"P1")
    _, q = mq.managed("Stock/IBM")
    assert bodies(mq, q) == []


def test_retained_publication_reaches_a_new_subscriber_flagged(mq: Any) -> None:  # A:TV-RP-02
    mq.pub("Stock/IBM", b"R1", RETAIN)
    _, q = mq.managed("Stock/IBM")
    [copy] = mq.got(q)
    assert copy.body == b"R1"
    assert copy.message.properties["MQIsRetained"] is True
    assert copy.message.properties["MQTopicString"] == "Stock/IBM"


def test_new_publications_only_skips_the_retained_one(mq: Any) -> None:  # A:TV-RP-03, C:SC-RT-01
    mq.pub("Stock/IBM", b"r1", RETAIN)
    _, q = mq.managed("Stock/IBM", C.MQSO_NEW_PUBLICATIONS_ONLY)
    assert bodies(mq, q) == []
    mq.pub("Stock/IBM", b"n1")
    assert bodies(mq, q) == [b"n1"]


def test_publications_on_request_get_only_what_subrq_sends(mq: Any) -> None:  # A:TV-RP-04, C:SC-RT-02
    mq.pub("Stock/IBM", b"r1", RETAIN)
    hsub, q = mq.managed("Stock/IBM", ON_REQUEST)
    assert bodies(mq, q) == []
    mq.pub("Stock/IBM", b"n1")
    assert bodies(mq, q) == []
    assert mq.qm.request_update(mq.conn, hsub.hobj, C.MQSR_ACTION_PUBLICATION) == 1
    [copy] = mq.got(q)
    assert copy.body == b"r1" and copy.message.properties["MQIsRetained"] is True
    mq.pub("Stock/IBM", b"r2", RETAIN)
    assert bodies(mq, q) == []
    mq.qm.request_update(mq.conn, hsub.hobj, C.MQSR_ACTION_PUBLICATION)
    assert bodies(mq, q) == [b"r2"]


def test_one_retained_publication_per_topic(mq: Any) -> None:  # A:TV-RP-05
    mq.pub("Stock/IBM", b"R1", RETAIN)
    mq.pub("Stock/IBM", b"R2", RETAIN)
    _, q = mq.managed("Stock/IBM")
    assert bodies(mq, q) == [b"R2"]


def test_subrq_sends_a_duplicate_to_an_existing_subscriber(mq: Any) -> None:  # A:TV-RP-06
    mq.pub("Stock/IBM", b"R1", RETAIN)
    hsub, q = mq.managed("Stock/IBM")
    assert bodies(mq, q) == [b"R1"]
    mq.qm.request_update(mq.conn, hsub.hobj, C.MQSR_ACTION_PUBLICATION)
    assert bodies(mq, q) == [b"R1"]


def test_live_copy_of_a_retained_publication_is_not_flagged(mq: Any) -> None:  # A:TV-RP-07, C:SC-PROP-03
    mq.pub("Stock/IBM", b"R1", RETAIN)
    _, q = mq.managed("Stock/IBM")
    mq.got(q)
    mq.pub("Stock/IBM", b"R2", RETAIN)
    [copy] = mq.got(q)
    assert copy.body == b"R2"
    assert "MQIsRetained" not in copy.message.properties
    assert copy.message.properties["MQPubOptions"] == C.MQPMO_RETAIN


def test_tpstatus_and_clear_retained(mq: Any) -> None:  # A:TV-RP-08, A:TV-RP-09
    mq.pub("USA/Alabama", b"R1", RETAIN)
    [row] = mq.qm.topic_status_rows("USA/Alabama")
    assert row["RETAINED"] == "YES"
    assert mq.qm.clear_retained("USA/Alabama") is True
    [row] = mq.qm.topic_status_rows("USA/Alabama")
    assert row["RETAINED"] == "NO"
    _, q = mq.managed("USA/Alabama")
    assert bodies(mq, q) == []
    assert mq.qm.clear_retained("USA/Alabama") is False


def test_retention_impossible_fails_the_put_and_publishes_nothing(mq: Any) -> None:  # A:TV-RP-10
    _, q = mq.managed("Stock/IBM")
    mq.qm.alter("QLOCAL", "SYSTEM.RETAINED.PUB.QUEUE", {"PUT": "DISABLED"})
    with mq.raises(C.MQRC_PUT_NOT_RETAINED):
        mq.pub("Stock/IBM", b"R1", RETAIN)
    assert bodies(mq, q) == []


def test_persistent_retained_publication_survives_restart(store_mq: Any, recover: Any) -> None:  # A:TV-RP-11
    store_mq.pub("Stock/IBM", b"R1", RETAIN, Persistence=C.MQPER_PERSISTENT)
    store_mq.pub("Stock/HAL", b"N1", RETAIN, Persistence=C.MQPER_NOT_PERSISTENT)  # C:SC-LC-04
    store_mq.flush()
    mq = recover()
    _, q = mq.managed("Stock/IBM")
    assert bodies(mq, q) == [b"R1"]
    _, q2 = mq.managed("Stock/HAL")
    assert bodies(mq, q2) == []


def test_non_retained_publication_leaves_the_retained_one(mq: Any) -> None:  # A:TV-RP-12
    mq.pub("Stock/IBM", b"R1", RETAIN)
    mq.pub("Stock/IBM", b"P2")
    _, q = mq.managed("Stock/IBM")
    assert bodies(mq, q) == [b"R1"]


def test_wildcard_subscription_gets_every_matching_retained_one(mq: Any) -> None:  # A:TV-RP-13
    mq.pub("Stock/IBM", b"ibm", RETAIN)
    mq.pub("Stock/HAL", b"hal", RETAIN)
    mq.pub("Bonds/X", b"x", RETAIN)
    _, q = mq.managed("Stock/+")
    assert sorted(bodies(mq, q)) == [b"hal", b"ibm"]


def test_on_request_subscription_gets_no_live_publications(mq: Any) -> None:  # A:TV-RP-14
    hsub, q = mq.managed("Stock/IBM", ON_REQUEST)
    mq.pub("Stock/IBM", b"P1")
    assert bodies(mq, q) == []
    with mq.raises(C.MQRC_NO_RETAINED_MSG):  # C:SC-RT-05
        mq.qm.request_update(mq.conn, hsub.hobj, C.MQSR_ACTION_PUBLICATION)


def test_subrq_with_a_wildcard_sends_each_retained_topic(mq: Any) -> None:  # C:SC-RT-03
    mq.pub("W/a", b"a", RETAIN)
    mq.pub("W/b", b"b", RETAIN)
    mq.pub("W/c", b"c")
    hsub, q = mq.managed("W/+", ON_REQUEST)
    assert mq.qm.request_update(mq.conn, hsub.hobj, C.MQSR_ACTION_PUBLICATION) == 2
    topics = sorted(str(r.message.properties["MQTopicString"]) for r in mq.got(q))
    assert topics == ["W/a", "W/b"]


def test_on_request_is_kept_when_a_durable_subscription_resumes(mq: Any) -> None:  # C:SC-RT-04
    mq.pub("RT/4", b"r", RETAIN)
    hsub, q = mq.managed("RT/4", ON_REQUEST | C.MQSO_DURABLE, SubName="RT4")
    mq.close(hsub, C.MQCO_KEEP_SUB)
    mq.close(q)
    mq.pub("RT/4", b"n2")
    hsub, q, _ = mq.sub(options=C.MQSO_RESUME | C.MQSO_DURABLE, name="RT4")
    assert q is not None
    assert bodies(mq, q) == []
    assert mq.qm.request_update(mq.conn, hsub.hobj, C.MQSR_ACTION_PUBLICATION) == 1


def test_default_subscription_gets_the_retained_one_then_live_ones(mq: Any) -> None:  # C:SC-RT-06
    mq.pub("RT/6", b"r1", RETAIN)
    _, q = mq.managed("RT/6")
    mq.pub("RT/6", b"n1")
    assert bodies(mq, q) == [b"r1", b"n1"]


def test_retained_publication_under_syncpoint_is_retained_at_commit(mq: Any) -> None:
    mq.pub("RT/S", b"r1", C.MQPMO_RETAIN | C.MQPMO_SYNCPOINT)
    _, q = mq.managed("RT/S")
    assert bodies(mq, q) == []
    mq.qm.commit(mq.conn)
    _, q2 = mq.managed("RT/S")
    assert bodies(mq, q2) == [b"r1"]
    mq.pub("RT/S", b"r2", C.MQPMO_RETAIN | C.MQPMO_SYNCPOINT)
    mq.qm.backout(mq.conn)
    _, q3 = mq.managed("RT/S")
    assert bodies(mq, q3) == [b"r1"]
