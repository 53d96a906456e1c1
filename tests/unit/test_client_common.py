"""Client logic shared by the blocking and asyncio clients: targets, requests, replies."""

from __future__ import annotations

from pathlib import Path

import pytest

import mqlite.client as mq
from mqlite import cmqc as CMQC
from mqlite import paths
from mqlite.client import common
from mqlite.client.common import Endpoint
from mqlite.client.mqi.queue import HandleSet
from mqlite.client.session import AsyncPuts, ReadAhead
from mqlite.message import MD_FIELDS, MessageDescriptor

FIELD = {name: i for i, name in enumerate(MD_FIELDS)}


def test_conn_info_forms() -> None:
    assert common.parse_conn_info("host.example(1415)") == (Endpoint(host="host.example", port=1415),)
    assert common.parse_conn_info("10.0.0.1") == (Endpoint(host="10.0.0.1", port=1414),)
    assert common.parse_conn_info("a(1), b(2)") == (Endpoint(host="a", port=1), Endpoint(host="b", port=2))
    assert common.parse_conn_info("127.0.0.1:5000") == (Endpoint(host="127.0.0.1", port=5000),)
    with pytest.raises(mq.MQMIError):
        common.parse_conn_info(" , ")


def test_mqserver() -> None:
    channel, endpoints = common.parse_mqserver("APP.SVRCONN/TCP/mq.example(1420)")
    assert channel == "APP.SVRCONN" and endpoints == (Endpoint(host="mq.example", port=1420),)
    with pytest.raises(mq.MQMIError):
        common.parse_mqserver("APP.SVRCONN/LU62/x")


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("MQLITE_HOME", str(tmp_path))
    monkeypatch.delenv("MQSERVER", raising=False)
    return tmp_path


def test_resolve_target_order(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    paths.qmgr_dir("QM1").mkdir(parents=True)
    local = common.resolve_target("QM1")
    assert local.local and local.endpoints[0].unix == paths.socket_address("QM1")
    tcp = common.resolve_target("QM1", host="h", port=9)
    assert tcp.endpoints == (Endpoint(host="h", port=9),) and tcp.qmgr == "QM1" and not tcp.local
    assert common.resolve_target(b"QM1", conn_info=b"h(7)", channel=b"CH").channel == "CH"
    with pytest.raises(mq.MQMIError) as e:
        common.resolve_target("NOPE")
    assert e.value.reason == CMQC.MQRC_Q_MGR_NAME_ERROR
    with pytest.raises(mq.MQMIError):
        common.resolve_target(None)  # no default queue manager, no MQSERVER
    paths.set_default_qmgr("QM1")
    assert common.resolve_target(None).qmgr == "QM1"
    monkeypatch.setenv("MQSERVER", "CH1/TCP/remote(1500)")
    assert common.resolve_target("QM1").local  # a local queue manager wins over MQSERVER
    remote = common.resolve_target("OTHER")
    assert remote.endpoints == (Endpoint(host="remote", port=1500),) and remote.channel == "CH1"


def test_put_md_keywords() -> None:
    wire = common.put_md(None, 1208, persistent=True, priority=3, expiry=1.5, correl_id=b"c",
                         format="MQSTR", reply_to="R", msg_type=CMQC.MQMT_REQUEST)
    assert wire[FIELD["Persistence"]] == 1 and wire[FIELD["Priority"]] == 3 and wire[FIELD["Expiry"]] == 15
    assert wire[FIELD["CorrelId"]] == b"c" + bytes(23) and wire[FIELD["Format"]] == "MQSTR"
    assert wire[FIELD["ReplyToQ"]] == "R" and wire[FIELD["MsgType"]] == CMQC.MQMT_REQUEST
    MessageDescriptor.from_list(wire)
    assert common.put_md(None, 1208) == MessageDescriptor().to_list()
    assert common.put_md(None, 850)[FIELD["CodedCharSetId"]] == 850


def test_put_options() -> None:
    pmo = mq.PMO(Options=CMQC.MQPMO_SYNCPOINT | CMQC.MQPMO_NEW_MSG_ID)
    assert common.put_options(pmo) == CMQC.MQPMO_SYNCPOINT | CMQC.MQPMO_NEW_MSG_ID
    options = common.put_options(pmo, syncpoint=False, asynchronous=True)
    assert options & CMQC.MQPMO_NO_SYNCPOINT and not options & CMQC.MQPMO_SYNCPOINT
    assert options & CMQC.MQPMO_ASYNC_RESPONSE


def test_async_puts_get_client_made_ids() -> None:
    puts = AsyncPuts()
    wire = common.put_md(None, 1208)
    options = common.prepare_async(wire, CMQC.MQPMO_ASYNC_RESPONSE | CMQC.MQPMO_NEW_MSG_ID, puts)
    first = wire[FIELD["MsgId"]]
    assert len(first) == 24 and first.startswith(b"AMQ ") and not options & CMQC.MQPMO_NEW_MSG_ID
    wire2 = common.put_md(None, 1208)
    common.prepare_async(wire2, CMQC.MQPMO_ASYNC_RESPONSE, puts)
    assert wire2[FIELD["MsgId"]] != first
    kept = common.put_md(None, 1208, msg_id=b"mine")
    common.prepare_async(kept, CMQC.MQPMO_ASYNC_RESPONSE, puts)
    assert kept[FIELD["MsgId"]] == b"mine" + bytes(20)  # the application's own id is kept


def test_async_failures_are_raised_once() -> None:
    puts = AsyncPuts()
    puts.raise_pending()  # nothing pending: nothing raised
    puts.failed(3, CMQC.MQRC_Q_FULL)
    puts.failed(3, CMQC.MQRC_Q_FULL)
    with pytest.raises(mq.MQMIError) as e:
        puts.raise_pending()
    assert e.value.reason == CMQC.MQRC_Q_FULL and e.value.failures == 2 and e.value.async_put
    puts.raise_pending()


def test_str_bodies_follow_pymqi() -> None:
    body, md = common.encode_body("тест", None, "utf8", 1208)
    assert body == "тест".encode() and md is not None and md.Format == CMQC.MQFMT_STRING
    body, md = common.encode_body(b"raw", None, "utf8", 1208)
    assert body == b"raw" and md is None
    with pytest.raises(TypeError):
        common.encode_body(5, None, "utf8", 1208)  # type: ignore[arg-type]


def test_get_request() -> None:
    md_wire, gmo = common.get_request(None, None, wait=1.5, msg_id=b"m")
    assert gmo["Options"] & CMQC.MQGMO_WAIT and gmo["WaitInterval"] == 1500
    assert md_wire[FIELD["MsgId"]] == b"m" + bytes(23) and gmo["MatchOptions"] & CMQC.MQMO_MATCH_MSG_ID
    _, gmo = common.get_request(None, mq.GMO(Options=CMQC.MQGMO_WAIT, WaitInterval=10), wait=-1)
    assert gmo["WaitInterval"] == CMQC.MQWI_UNLIMITED
    _, gmo = common.get_request(None, mq.GMO(Options=CMQC.MQGMO_WAIT, WaitInterval=10), wait=0)
    assert not gmo["Options"] & CMQC.MQGMO_WAIT
    _, gmo = common.get_request(None, None, syncpoint=True)
    assert gmo["Options"] & CMQC.MQGMO_SYNCPOINT
    assert common.max_length_of(None) == -1 and common.max_length_of(10) == 10


def test_read_ahead_eligibility_and_credit() -> None:
    md_wire, gmo = common.get_request(None, None)
    assert common.read_ahead_eligible(gmo, md_wire)
    assert not common.read_ahead_eligible(*reversed(common.get_request(None, None, msg_id=b"x")))
    assert not common.read_ahead_eligible(common.get_request(None, None, syncpoint=True)[1], md_wire)
    browse = common.get_request(None, mq.GMO(Options=CMQC.MQGMO_BROWSE_NEXT))[1]
    assert not common.read_ahead_eligible(browse, md_wire)
    buffer = ReadAhead(window=4)
    buffer.messages.extend([[md_wire, {}, b"a"], [md_wire, {}, b"b"]])
    assert buffer.take() is not None and buffer.credit_due() == 0
    assert buffer.take() is not None and buffer.credit_due() == 2 and buffer.take() is None
    buffer.messages.extend([[md_wire, {}, b"c"], [md_wire, {}, b"d"]])
    assert buffer.take_if_no_credit_due() is not None  # 1 of the 2 a grant waits for
    assert buffer.take_if_no_credit_due() is None and len(buffer.messages) == 1  # the 2nd needs a grant
    assert buffer.take() is not None and buffer.credit_due() == 2


def test_from_buffer_truncation() -> None:
    item = [MessageDescriptor().to_list(), {}, b"abcdef"]
    assert common.from_buffer(item, -1, 0)[:2] == (0, 0)
    cc, reason, result = common.from_buffer(item, 3, CMQC.MQGMO_ACCEPT_TRUNCATED_MSG)
    assert (cc, reason, result[2], result[3]) == (1, 2079, b"abc", 6)
    cc, reason, result = common.from_buffer(item, 3, 0)
    assert (cc, reason, result[2], result[3]) == (2, 2080, b"", 6)


def test_finish_get_fills_md_and_raises_like_pymqi() -> None:
    wire = MessageDescriptor(Format="MQSTR").to_list()
    md = mq.MD()
    message = common.finish_get(0, 0, [wire, {"p": 1}, b"body", 4], md, None)
    assert message == b"body" and message.body == b"body" and message.properties == {"p": 1}
    assert message.md is md and md.Format == b"MQSTR   " and message.text == "body"
    with pytest.raises(mq.MQMIError) as e:
        common.finish_get(1, 2079, [wire, {}, b"bo", 4], mq.MD(), None)
    assert e.value.original_length == 4 and e.value.message == b"bo"
    with pytest.raises(mq.MQMIError) as e:
        common.finish_get(2, 2033, None, None, None)
    assert e.value.reason == 2033
    handle = mq.MessageHandle()
    common.finish_get(0, 0, [wire, {"k": "v"}, b"", 0], None, mq.GMO(MsgHandle=handle.msg_handle))
    assert handle.properties.get("k") == "v"


def test_handle_set_plans() -> None:
    handles = HandleSet()
    assert handles.plan(CMQC.MQOO_OUTPUT) == (None, None, CMQC.MQOO_OUTPUT)
    handles.opened(5, CMQC.MQOO_OUTPUT)
    assert handles.plan(CMQC.MQOO_OUTPUT) == (5, None, 0)
    assert handles.plan(CMQC.MQOO_INPUT_AS_Q_DEF) == (None, None, CMQC.MQOO_INPUT_AS_Q_DEF)
    handles.opened(6, CMQC.MQOO_INPUT_AS_Q_DEF)
    # browse joins the read handle: re-open it with both, never touching the output handle
    assert handles.plan(CMQC.MQOO_BROWSE) == (None, 6, CMQC.MQOO_INPUT_AS_Q_DEF | CMQC.MQOO_BROWSE)
    handles.forget(6)
    handles.opened(7, CMQC.MQOO_INPUT_AS_Q_DEF | CMQC.MQOO_BROWSE)
    assert handles.plan(CMQC.MQOO_INPUT_AS_Q_DEF) == (7, None, 0) and handles.all() == [5, 7]
    explicit = HandleSet(explicit=9)
    assert explicit.plan(CMQC.MQOO_SET) == (9, None, 0) and explicit.all() == [9]


def test_a_get_reply_behind_messages_sent_ahead_comes_after_them() -> None:
    """Messages pushed ahead while a get was on its way were taken off the queue before the get's
    reply; the get returns the first of them, and the reply's message waits in the buffer."""
    from mqlite.client.mqi.queue import QueueCore
    from mqlite.client.session import Call, Session

    conn = Session()
    buffer = conn.read_ahead.setdefault(7, ReadAhead(window=4))
    md_wire, gmo = common.get_request(None, None)
    queue = QueueCore.__new__(QueueCore)
    plan = queue.plan_get(conn, 7, md_wire, gmo, None, None, None)
    step = next(plan)
    while not isinstance(step, Call):  # (the buffer is empty: it drains what has arrived first)
        step = plan.send(None)
    buffer.messages.extend([[md_wire, {}, b"first"], [md_wire, {}, b"second"]])  # arrived meanwhile
    try:
        plan.send((CMQC.MQCC_OK, CMQC.MQRC_NONE, [md_wire, {}, b"third", 5]))
    except StopIteration as done:
        assert done.value == b"first"
    else:
        raise AssertionError("the get should have ended with the first message sent ahead")
    assert [item[2] for item in buffer.messages] == [b"second", b"third"]
    assert buffer.taken == 0  # the reply's message, taken later, is no credit owed
