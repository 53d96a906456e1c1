"""pymqi's RFH2 message calls (``Queue.put_rfh2``/``get_rfh2``, ``Topic.pub_rfh2``,
``Subscription.get_rfh2``) and what MQSUB with MQSO_RESUME returns in the SD's Options, the
way pymqi's own test_rfh2_put_get and test_pubsub use them, on a real queue manager."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

import mqlite as pymqi
from helpers.qmgrs import QMgr

CMQC = pymqi.CMQC
QUEUE = "TEST.RFH2"


@pytest.fixture
def qmgr(qmgr_factory: Callable[..., QMgr], run_cli: Callable[..., Any]) -> Iterator[pymqi.QueueManager]:
    started = qmgr_factory("QM1", port=False)
    defined = run_cli("runmqsc", started.name, input=f"DEFINE QLOCAL({QUEUE})\n")
    assert defined.returncode == 0, defined.stdout
    qmgr = pymqi.connect("QM1")
    yield qmgr
    qmgr.disconnect()


def _headers() -> list[pymqi.RFH2]:
    # folders that are no message properties (not mcd, jms, usr, mqext): kept as put under any PROPCTL
    first = pymqi.RFH2(Format=CMQC.MQFMT_RF_HEADER_2, Encoding=CMQC.MQENC_NATIVE)
    first.add_folder(b"<testFolder><testVar>testValue</testVar></testFolder>")
    second = pymqi.RFH2(Format=CMQC.MQFMT_STRING)
    second.add_folder(b"<other><colour>blue</colour></other>")
    return [first, second]


def test_put_and_get_a_chain_of_two(qmgr: pymqi.QueueManager) -> None:
    queue = pymqi.Queue(qmgr, QUEUE, CMQC.MQOO_INPUT_AS_Q_DEF | CMQC.MQOO_OUTPUT)
    md = pymqi.MD(Format=CMQC.MQFMT_RF_HEADER_2, Encoding=CMQC.MQENC_NATIVE)
    queue.put_rfh2(b"body", md, pymqi.PMO(), _headers())
    read: list[pymqi.RFH2] = []
    data = queue.get_rfh2(None, pymqi.MD(), pymqi.GMO(), read)
    assert data == b"body"
    assert [h.get_folders() for h in read] == [["testFolder"], ["other"]]
    assert read[1]["other"].strip() == b"<other><colour>blue</colour></other>"
    queue.put_rfh2(b"plain")  # no headers: a plain put
    assert queue.get_rfh2() == b"plain"
    with pytest.raises(TypeError):
        queue.put_rfh2(b"x", pymqi.MD(), pymqi.PMO(), "not a list")
    queue.close()


def test_get_rfh2_of_a_message_without_headers(qmgr: pymqi.QueueManager) -> None:
    queue = pymqi.Queue(qmgr, QUEUE)
    queue.put(b"no header")
    read: list[pymqi.RFH2] = []
    assert queue.get_rfh2(None, pymqi.MD(), pymqi.GMO(), read) == b"no header" and read == []


def test_pub_rfh2_and_resume_says_durable_and_managed(qmgr: pymqi.QueueManager) -> None:
    sd = pymqi.SD(Options=CMQC.MQSO_CREATE | CMQC.MQSO_DURABLE | CMQC.MQSO_MANAGED)
    sd.set_vs("SubName", "TEST.RFH2.SUB")
    sd.set_vs("ObjectString", "test/rfh2")
    sub = pymqi.Subscription(qmgr)
    sub.sub(sub_desc=sd)
    sub.close(sub_close_options=CMQC.MQCO_KEEP_SUB, close_sub_queue=True)

    resumed = pymqi.SD(Options=CMQC.MQSO_RESUME)
    resumed.set_vs("SubName", "TEST.RFH2.SUB")
    sub = pymqi.Subscription(qmgr)
    sub.sub(sub_desc=resumed)
    assert resumed.Options & CMQC.MQSO_DURABLE and resumed.Options & CMQC.MQSO_MANAGED

    topic = pymqi.Topic(qmgr, topic_string="test/rfh2")
    topic.open(open_opts=CMQC.MQOO_OUTPUT)
    topic.pub_rfh2(b"published", pymqi.MD(Format=CMQC.MQFMT_RF_HEADER_2), pymqi.PMO(), _headers()[1:])
    topic.close()
    read: list[pymqi.RFH2] = []
    gmo = pymqi.GMO(Options=CMQC.MQGMO_WAIT, WaitInterval=15000)
    assert sub.get_rfh2(None, pymqi.MD(), gmo, read) == b"published"
    assert read[0].get_folders() == ["other"]
    sub.close(sub_close_options=CMQC.MQCO_REMOVE_SUB, close_sub_queue=True)
