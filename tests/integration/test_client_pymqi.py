"""pymqi programs run unchanged with ``import mqlite as pymqi`` (here: ``mqlite.client``,
which is what the top-level package re-exports). The cases follow pymqi's own test suite
and examples: client connections, MD/GMO/PMO handling, truncation, put1, message handles."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import mqlite.client as pymqi
from helpers.credentials import APP, add_user, grant_app
from mqlite.server.embedded import embedded

CMQC = pymqi.CMQC
QUEUE = "TEST.PYMQI"


@pytest.fixture
def server(mqlite_home: Path) -> Iterator[Any]:
    with embedded("QM1", home=mqlite_home, port=0) as srv:
        admin = pymqi.connect("QM1")
        # the application user is no administrator: its group may use the test queues
        code, lines = admin.mqsc(f"DEFINE QLOCAL({QUEUE})\nDEFINE QLOCAL(TEST.OTHER)\n"
                                 f"SET AUTHREC PROFILE('TEST.**') OBJTYPE(QUEUE) GROUP('{APP.groups}') AUTHADD(ALLMQI)")
        assert code == 0, lines
        admin.disconnect()
        add_user(mqlite_home, "QM1", APP)
        grant_app(mqlite_home, "QM1")
        yield srv


@pytest.fixture
def qmgr(server: Any) -> Iterator[pymqi.QueueManager]:
    qmgr = pymqi.QueueManager(None)
    qmgr.connect_tcp_client("QM1", pymqi.CD(), "DEV.APP.SVRCONN", f"127.0.0.1({server.port})", APP.user,
                             APP.password)
    yield qmgr
    qmgr.disconnect()


def test_connect_forms(server: Any) -> None:
    conn_info = f"127.0.0.1({server.port})"
    qmgr = pymqi.connect("QM1", "DEV.APP.SVRCONN", conn_info, APP.user, APP.password)
    assert qmgr.get_handle().user == "app"
    qmgr.disconnect()
    with pytest.raises(pymqi.PYIFError):
        qmgr.disconnect()
    local = pymqi.QueueManager("QM1")  # bindings mode
    local.disconnect()
    cd = pymqi.CD(ChannelName=b"DEV.APP.SVRCONN", ConnectionName=conn_info.encode(),
                  ChannelType=CMQC.MQCHT_CLNTCONN, TransportType=CMQC.MQXPT_TCP)
    legacy = pymqi.QueueManager(None)
    csp = pymqi.CSP(CSPUserId=APP.user.encode(), CSPPassword=APP.password.encode(),
                    AuthenticationType=CMQC.MQCSP_AUTH_USER_ID_AND_PWD)
    legacy.connect_with_options("QM1", cd, pymqi.SCO(), csp=csp)
    assert legacy.get_handle().user == APP.user
    legacy.connectWithOptions  # noqa: B018 - the old spelling exists
    legacy.disconnect()
    with pytest.raises(ValueError):
        pymqi.QueueManager(None).connect_tcp_client("QM1", pymqi.CD(), "CH", conn_info, "app", None)


def test_put_get_with_md_and_gmo(qmgr: pymqi.QueueManager) -> None:
    queue = pymqi.Queue(qmgr, QUEUE, CMQC.MQOO_INPUT_AS_Q_DEF | CMQC.MQOO_OUTPUT)
    put_md = pymqi.MD()
    queue.put(b"12345", put_md)
    assert put_md.MsgId != bytes(24) and put_md.PutDate.strip()
    get_md = pymqi.MD()
    gmo = pymqi.GMO(Options=CMQC.MQGMO_WAIT | CMQC.MQGMO_FAIL_IF_QUIESCING, WaitInterval=1000)
    message = queue.get(None, get_md, gmo)
    assert message == b"12345" and get_md.MsgId == put_md.MsgId and get_md.PutDate == put_md.PutDate
    assert get_md.Format == CMQC.MQFMT_NONE and get_md.ReplyToQ == b" " * 48
    with pytest.raises(pymqi.MQMIError) as e:
        queue.get()
    assert e.value.reason == CMQC.MQRC_NO_MSG_AVAILABLE
    assert str(e.value) == "MQI Error. Comp: 2, Reason 2033: FAILED: MQRC_NO_MSG_AVAILABLE"
    queue.close()


def test_reusing_an_md_matches_its_ids_as_mq_does(qmgr: pymqi.QueueManager) -> None:
    queue = pymqi.Queue(qmgr, QUEUE)
    md = pymqi.MD()
    queue.put("тест", md)  # a str: encoded, Format MQSTR, CCSID 1208 (pymqi's rule)
    queue.put(b"other")
    message = queue.get(None, md)  # md still holds the first MsgId: that one comes back
    assert message == "тест".encode() and md.Format == CMQC.MQFMT_STRING and md.CodedCharSetId == 1208
    with pytest.raises(pymqi.MQMIError):
        queue.get(None, md)  # the same md again: nothing with that MsgId is left
    assert queue.get() == b"other"


def test_truncation_like_pymqi(qmgr: pymqi.QueueManager) -> None:
    queue = pymqi.Queue(qmgr, QUEUE, CMQC.MQOO_INPUT_AS_Q_DEF | CMQC.MQOO_OUTPUT)
    queue.put(b"12345")
    with pytest.raises(pymqi.MQMIError) as e:
        queue.get(3)
    assert e.value.reason == CMQC.MQRC_TRUNCATED_MSG_FAILED and e.value.original_length == 5
    assert queue.get(5) == b"12345"
    queue.put(bytes(4097))
    md, gmo = pymqi.MD(), pymqi.GMO(Options=CMQC.MQGMO_ACCEPT_TRUNCATED_MSG)
    with pytest.raises(pymqi.MQMIError) as e:
        queue.get(0, md, gmo)
    assert e.value.reason == CMQC.MQRC_TRUNCATED_MSG_ACCEPTED and e.value.comp == CMQC.MQCC_WARNING
    assert e.value.original_length == 4097 and len(e.value.message) == 0 and md.PutDate.strip()


def test_put1_and_default_open(qmgr: pymqi.QueueManager) -> None:
    qmgr.put1(QUEUE, b"Hello world!")
    md = pymqi.MD()
    qmgr.put1(pymqi.OD(ObjectName=QUEUE), b"second", md, pymqi.PMO())
    assert md.MsgId != bytes(24)
    queue = pymqi.Queue(qmgr, QUEUE)
    assert queue.get() == b"Hello world!" and queue.get() == b"second"


def test_browse_with_gmo_options(qmgr: pymqi.QueueManager) -> None:
    queue = pymqi.Queue(qmgr, QUEUE, CMQC.MQOO_BROWSE | CMQC.MQOO_OUTPUT | CMQC.MQOO_INQUIRE)
    for body in (b"a", b"b", b"c"):
        queue.put(body)
    gmo = pymqi.GMO(Options=CMQC.MQGMO_BROWSE_NEXT)
    seen = []
    while True:
        try:
            seen.append(bytes(queue.get(None, pymqi.MD(), gmo)))
        except pymqi.MQMIError as e:
            if e.reason == CMQC.MQRC_NO_MSG_AVAILABLE:
                break
            raise
    assert seen == [b"a", b"b", b"c"]
    assert queue.inquire(CMQC.MQIA_CURRENT_Q_DEPTH) == 3


def test_message_properties_through_handles(qmgr: pymqi.QueueManager) -> None:
    put_handle = pymqi.MessageHandle(qmgr, pymqi.CMHO())
    put_handle.properties.set(b"test_name", "test_value", property_type=CMQC.MQTYPE_STRING)
    put_handle.properties.set("count", -127, value_length=1, property_type=CMQC.MQTYPE_INT8)
    put_handle.properties.set("ratio", 2.5, property_type=CMQC.MQTYPE_FLOAT64)
    pmo = pymqi.PMO(Version=CMQC.MQPMO_CURRENT_VERSION)
    pmo.OriginalMsgHandle = put_handle.msg_handle
    md_put = pymqi.MD(Version=CMQC.MQMD_CURRENT_VERSION)
    queue_put = pymqi.Queue(qmgr, QUEUE, CMQC.MQOO_OUTPUT)
    queue_put.put(b"", md_put, pmo)
    queue_put.close()

    get_handle = pymqi.MessageHandle(qmgr, pymqi.CMHO(Version=CMQC.MQCMHO_CURRENT_VERSION))
    gmo = pymqi.GMO(Version=CMQC.MQGMO_CURRENT_VERSION)
    gmo.Options = CMQC.MQGMO_NO_WAIT | CMQC.MQGMO_PROPERTIES_IN_HANDLE
    gmo.MatchOptions = CMQC.MQMO_MATCH_MSG_ID
    gmo.MsgHandle = get_handle.msg_handle
    md_get = pymqi.MD()
    md_get.MsgId = md_put.MsgId
    queue_get = pymqi.Queue(qmgr, QUEUE, CMQC.MQOO_INPUT_AS_Q_DEF)
    queue_get.get(None, md_get, gmo)
    queue_get.close()
    assert get_handle.properties.get(b"test_name") == "test_value"
    assert get_handle.properties.get("count") == -127 and get_handle.properties.get("ratio") == 2.5
    with pytest.raises(pymqi.MQMIError) as e:
        get_handle.properties.get("absent")
    assert e.value.reason == CMQC.MQRC_PROPERTY_NOT_AVAILABLE


def test_get_no_jms_and_syncpoint(qmgr: pymqi.QueueManager) -> None:
    queue = pymqi.Queue(qmgr, QUEUE)
    queue.put(b"uow", pymqi.MD(), pymqi.PMO(Options=CMQC.MQPMO_SYNCPOINT))
    qmgr.begin()
    qmgr.backout()
    queue.put(b"kept", pymqi.MD(), pymqi.PMO(Options=CMQC.MQPMO_SYNCPOINT))
    qmgr.commit()
    assert queue.get_no_jms() == b"kept"


def test_queue_set_and_inquire(qmgr: pymqi.QueueManager) -> None:
    queue = pymqi.Queue(qmgr, "TEST.OTHER", CMQC.MQOO_SET | CMQC.MQOO_INQUIRE | CMQC.MQOO_OUTPUT)
    queue.set(CMQC.MQIA_INHIBIT_PUT, CMQC.MQQA_PUT_INHIBITED)
    assert queue.inquire(CMQC.MQIA_INHIBIT_PUT) == CMQC.MQQA_PUT_INHIBITED
    with pytest.raises(pymqi.MQMIError) as e:
        queue.put(b"x")
    assert e.value.reason == CMQC.MQRC_PUT_INHIBITED
    queue.set(CMQC.MQIA_INHIBIT_PUT, CMQC.MQQA_PUT_ALLOWED)
    queue.put(b"x")
    assert qmgr.inquire(CMQC.MQCA_Q_MGR_NAME).strip() == b"QM1"


def test_structure_versions_are_checked_as_ibm_does(qmgr: pymqi.QueueManager) -> None:
    queue = pymqi.Queue(qmgr, QUEUE)
    calls = [
        (lambda: queue.put(b"x", pymqi.MD(Version=3)), CMQC.MQRC_MD_ERROR),
        (lambda: queue.put(b"x", None, pymqi.PMO(Version=4)), CMQC.MQRC_PMO_ERROR),
        (lambda: qmgr.put1(QUEUE, b"x", None, pymqi.PMO(Version=0)), CMQC.MQRC_PMO_ERROR),
        (lambda: queue.get(None, pymqi.MD(), pymqi.GMO(Version=5)), CMQC.MQRC_GMO_ERROR),
        (lambda: pymqi.Subscription(qmgr).sub(pymqi.SD(Version=2, Options=CMQC.MQSO_CREATE | CMQC.MQSO_MANAGED)),
         CMQC.MQRC_SD_ERROR),
    ]
    for call, reason in calls:
        with pytest.raises(pymqi.MQMIError) as error:
            call()
        assert (error.value.comp, error.value.reason) == (CMQC.MQCC_FAILED, reason)
    assert queue.depth == 0  # nothing was put
    queue.put(b"v2", pymqi.MD(Version=CMQC.MQMD_VERSION_2), pymqi.PMO(Version=CMQC.MQPMO_VERSION_3))
    assert queue.get(None, pymqi.MD(Version=2), pymqi.GMO(Version=CMQC.MQGMO_VERSION_4)) == b"v2"
