"""Streams with version 6 (MQRFH) and MQRFH2 applications side by side, with a real queue
manager: the publisher x subscriber table of seed 004 (D:R-WMB-7), the WebSphere Message
Broker convention of ``$SYS/STREAM/<stream>/`` topics (D:S-27, D §11.3), Register Publisher as
a no-op (D:S-28), and the v6 commands' own refusals (3075, 3082)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import mqlite as pymqi
from helpers.module_qmgrs import started
from helpers.mqsc import mqsc
from helpers.qmgrs import QMgr
from helpers.queued import CONTROL, DEFAULT_STREAM, get, get_rfh1, nothing_on, put_command, put_rfh1
from mqlite import cmqc as C

QM = "QMS"
STREAM = "StreamX"
SUBSCRIBERS = {"S1": "RFH1.DEFAULT.Q", "S2": "RFH1.STREAMX.Q", "S3": "RFH2.DEFAULT.Q", "S4": "RFH2.STREAMX.Q"}


@pytest.fixture(scope="module")
def qm(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    home: Path = tmp_path_factory.mktemp("streams") / "mqhome"
    with started(home, (QM,)) as (_, run_cli):
        script = "".join(f"DEFINE QLOCAL({q})\n" for q in (*SUBSCRIBERS.values(), "REPLY.Q"))
        # The WMB convention in the v7 model (D §11.3): the stream's topic object has TOPICSTR
        # $SYS/STREAM/<stream>; its queue is in the stream namelist.
        script += (f"DEFINE QLOCAL('{STREAM}')\nDEFINE TOPIC('{STREAM}') TOPICSTR('$SYS/STREAM/{STREAM}')\n"
                   "DEFINE QLOCAL(STOCK.STREAM)\nDEFINE TOPIC(STOCK.STREAM) TOPICSTR('$SYS/STREAM/STOCK.STREAM')\n"
                   f"ALTER NAMELIST(SYSTEM.QPUBSUB.QUEUE.NAMELIST) NAMES('{STREAM}', STOCK.STREAM, "
                   "SYSTEM.BROKER.DEFAULT.STREAM, SYSTEM.BROKER.ADMIN.STREAM)\n")
        mqsc(run_cli, QMgr(QM, home), script)
        qm = pymqi.connect(QM)
        yield qm
        qm.disconnect()


def _ok_rfh1(qm: Any, msg_id: bytes) -> None:
    response = get_rfh1(qm, "REPLY.Q", correl_id=msg_id)
    assert response.header.get("MQPSCompCode") == "0", response.header.pairs


def test_seed_004_publisher_subscriber_table(qm: Any) -> None:
    """D:R-WMB-7: MQRFH and MQRFH2 subscribers (S1-S4) and publishers (P1-P4) on the default
    stream and on StreamX: every kind of subscriber gets every kind of publication of its stream,
    in its own header, and nothing of the other stream (D:R-WMB-3, D:R-WMB-4)."""
    topic = "T/Latest"
    _ok_rfh1(qm, put_rfh1(qm, CONTROL, [("MQPSCommand", "RegSub"), ("MQPSTopic", topic),
                                        ("MQPSQName", SUBSCRIBERS["S1"])]))
    _ok_rfh1(qm, put_rfh1(qm, CONTROL, [("MQPSCommand", "RegSub"), ("MQPSTopic", topic),
                                        ("MQPSStreamName", STREAM), ("MQPSQName", SUBSCRIBERS["S2"])]))
    for name, subscribed in (("S3", topic), ("S4", f"$SYS/STREAM/{STREAM}/{topic}")):
        msg_id = put_command(qm, CONTROL, f"<psc><Command>RegSub</Command><Topic>{subscribed}</Topic>"
                             f"<QName>{SUBSCRIBERS[name]}</QName></psc>", reply_q="REPLY.Q")
        assert get(qm, "REPLY.Q", correl_id=msg_id).completion == "ok"

    # P1, P2: MQRFH publishers on the default stream and on StreamX (its queue, its name)
    _ok_rfh1(qm, put_rfh1(qm, DEFAULT_STREAM, [("MQPSCommand", "Publish"), ("MQPSTopic", topic)], b"P1"))
    _ok_rfh1(qm, put_rfh1(qm, STREAM, [("MQPSCommand", "Publish"), ("MQPSTopic", topic),
                                       ("MQPSStreamName", STREAM)], b"P2"))
    # P3, P4: MQRFH2 publishers, the second writing the stream's prefix itself (R-WMB-4)
    for body, published in ((b"P3", topic), (b"P4", f"$SYS/STREAM/{STREAM}/{topic}")):
        msg_id = put_command(qm, DEFAULT_STREAM, f"<psc><Command>Publish</Command><Topic>{published}</Topic></psc>",
                             body, reply_q="REPLY.Q")
        assert get(qm, "REPLY.Q", correl_id=msg_id).completion == "ok"

    for name, expected in (("S1", [b"P1", b"P3"]), ("S2", [b"P2", b"P4"])):  # MQRFH subscribers
        got = [get_rfh1(qm, SUBSCRIBERS[name]) for _ in expected]
        assert [g.body for g in got] == expected, name
        for g in got:
            assert g.header.get("MQPSCommand") == "Publish" and g.header.get("MQPSTopic") == topic
            assert g.header.get("MQPSStreamName") == (STREAM if name == "S2" else DEFAULT_STREAM)
    for name, expected, seen in (("S3", [b"P1", b"P3"], topic),
                                 ("S4", [b"P2", b"P4"], f"$SYS/STREAM/{STREAM}/{topic}")):  # MQRFH2 subscribers
        got = [get(qm, SUBSCRIBERS[name]) for _ in expected]
        assert [g.decoded.body for g in got] == expected, name
        assert all(g.psc is not None and g.psc.values("Topic") == [seen] for g in got)
    assert all(nothing_on(qm, queue) for queue in SUBSCRIBERS.values())


def test_wmb_stream_convention(qm: Any) -> None:
    """D:S-27: an MQRFH publication on STOCK.STREAM reaches the MQRFH2 subscriber of
    $SYS/STREAM/STOCK.STREAM/IBM/Latest and an MQI subscriber through the topic object."""
    msg_id = put_command(qm, CONTROL, "<psc><Command>RegSub</Command><Topic>$SYS/STREAM/STOCK.STREAM/IBM/Latest"
                         f"</Topic><QName>{SUBSCRIBERS['S3']}</QName></psc>", reply_q="REPLY.Q")
    assert get(qm, "REPLY.Q", correl_id=msg_id).completion == "ok"
    sub = pymqi.Subscription(qm)
    sub.sub(topic_name="STOCK.STREAM", topic_string="IBM/Latest",
            sub_opts=C.MQSO_CREATE | C.MQSO_NON_DURABLE | C.MQSO_MANAGED)
    try:
        _ok_rfh1(qm, put_rfh1(qm, "STOCK.STREAM", [("MQPSCommand", "Publish"), ("MQPSTopic", "IBM/Latest"),
                                                   ("MQPSStreamName", "STOCK.STREAM")], b"98.70"))
        got = get(qm, SUBSCRIBERS["S3"])
        assert got.decoded.body == b"98.70" and got.psc is not None
        assert got.psc.values("Topic") == ["$SYS/STREAM/STOCK.STREAM/IBM/Latest"]
        assert sub.get(None, pymqi.MD(), pymqi.GMO(Options=C.MQGMO_NO_SYNCPOINT)) == b"98.70"
    finally:
        sub.close(sub_close_options=C.MQCO_REMOVE_SUB)
        msg_id = put_command(qm, CONTROL, "<psc><Command>DeregSub</Command><RegOpt>DeregAll</RegOpt>"
                             f"<QName>{SUBSCRIBERS['S3']}</QName></psc>", reply_q="REPLY.Q")
        get(qm, "REPLY.Q", correl_id=msg_id)


def test_version_6_commands(qm: Any) -> None:
    """D:S-28 (Register Publisher succeeds and does nothing; in an MQRFH2 it is 2336), a
    stream named on another stream's queue (3075), an unknown stream (3082), integer options,
    and a RegSub's character wildcards (A-12)."""
    _ok_rfh1(qm, put_rfh1(qm, DEFAULT_STREAM, [("MQPSCommand", "RegPub"), ("MQPSTopic", "X")]))
    msg_id = put_command(qm, CONTROL, "<psc><Command>RegPub</Command><Topic>X</Topic></psc>", reply_q="REPLY.Q")
    assert get(qm, "REPLY.Q", correl_id=msg_id).reasons == [2336]
    wrong = get_rfh1(qm, "REPLY.Q", put_rfh1(qm, STREAM, [("MQPSCommand", "Publish"), ("MQPSTopic", "X"),
                                                          ("MQPSStreamName", "STOCK.STREAM")]))
    assert (wrong.header.get("MQPSCompCode"), wrong.header.get("MQPSReason")) == ("2", "3075")
    unknown = get_rfh1(qm, "REPLY.Q", put_rfh1(qm, CONTROL, [("MQPSCommand", "RegSub"), ("MQPSTopic", "X"),
                                                             ("MQPSStreamName", "NO.SUCH.STREAM"),
                                                             ("MQPSQName", "REPLY.Q")]))
    assert unknown.header.get("MQPSReason") == "3082"
    assert unknown.header.get("MQPSReasonText") == "MQRCCF_UNKNOWN_STREAM"
    correl = b"V6".ljust(24, b"\0")
    # MQREGO_CORREL_ID_AS_IDENTITY | MQREGO_INFORM_IF_RETAINED as an integer; '*' matches a level's rest
    _ok_rfh1(qm, put_rfh1(qm, CONTROL, [("MQPSCommand", "RegSub"), ("MQPSRegOpts", str(0x101)),
                                        ("MQPSTopic", "Wild/*"), ("MQPSQName", SUBSCRIBERS["S1"])],
                          correl_id=correl))
    _ok_rfh1(qm, put_rfh1(qm, DEFAULT_STREAM, [("MQPSCommand", "Publish"), ("MQPSTopic", "Wild/a/b"),
                                               ("MQPSStringData", "hello")], b"w"))
    got = get_rfh1(qm, SUBSCRIBERS["S1"])
    assert got.body == b"w" and bytes(got.md.CorrelId) == correl
    assert got.header.get("MQPSTopic") == "Wild/a/b" and got.header.get("MQPSStringData") == "hello"
    bad = get_rfh1(qm, "REPLY.Q", put_rfh1(qm, CONTROL, [("MQPSCommand", "RegSub"), ("MQPSRegOpts", str(1 << 30)),
                                                         ("MQPSTopic", "X"), ("MQPSQName", "REPLY.Q")]))
    assert bad.header.get("MQPSReason") == "3083"
