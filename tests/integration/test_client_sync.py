"""The blocking client's Pythonic layer against a real (embedded) queue manager."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import mqlite.client as mqlite
from helpers.credentials import APP, add_user, grant_app
from helpers.waiting import wait_until, waiting_gets
from mqlite import cmqc as CMQC
from mqlite import paths
from mqlite.server.embedded import embedded


@pytest.fixture
def server(mqlite_home: Path) -> Iterator[Any]:
    with embedded("QM1", home=mqlite_home, port=0) as srv:
        with mqlite.connect("QM1") as admin:
            code, lines = admin.mqsc(
                "DEFINE QLOCAL(APP.IN)\n"
                "DEFINE QLOCAL(SMALL) MAXDEPTH(3)\n"
                "DEFINE QLOCAL(AHEAD) DEFREADA(YES) MAXDEPTH(100000)\n")
            assert code == 0, lines
        add_user(mqlite_home, "QM1", APP)
        grant_app(mqlite_home, "QM1")
        yield srv


@pytest.fixture
def qm(server: Any) -> Iterator[mqlite.QueueManager]:
    with mqlite.connect("QM1") as qm:
        yield qm


def test_design_snippet(qm: mqlite.QueueManager) -> None:
    q = mqlite.Queue(qm, "APP.IN"); q.put(b"hello"); msg = q.get(wait=1.0)  # noqa: E702 - DESIGN 3 verbatim
    assert msg == b"hello" and msg.body == b"hello" and isinstance(msg, bytes)
    assert msg.md.PutDate.strip() and len(msg.md.MsgId) == 24 and msg.properties == {}


def test_empty_queue_raises_2033_after_the_wait(qm: mqlite.QueueManager) -> None:
    q = mqlite.Queue(qm, "APP.IN")
    with pytest.raises(mqlite.MQMIError) as e:
        q.get(wait=0.3)
    assert e.value.reason == CMQC.MQRC_NO_MSG_AVAILABLE and e.value.comp == CMQC.MQCC_FAILED
    assert waiting_gets(qm, "APP.IN") == 0  # the expired wait left nothing behind on the server...
    with mqlite.connect("QM1") as other:
        mqlite.Queue(other, "APP.IN").put(b"later")
    assert q.depth == 1  # ...to take a later message
    assert q.get() == b"later"
    with pytest.raises(mqlite.MQMIError):
        q.get()  # no wait at all


def test_waiting_get_is_completed_by_a_put_from_another_connection(qm: mqlite.QueueManager) -> None:
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(mqlite.Queue(qm, "APP.IN").get(wait=120)))
    reader.start()
    with mqlite.connect("QM1") as other:
        wait_until(lambda: waiting_gets(other, "APP.IN") == 1, "the reader's MQGET waits")
        mqlite.Queue(other, "APP.IN").put(b"wake up")
    reader.join(120)
    assert got == [b"wake up"]


def test_keywords_properties_and_matching(qm: mqlite.QueueManager) -> None:
    q = mqlite.Queue(qm, "APP.IN")
    q.put(b"one", properties={"colour": "red", "n": 5, "ok": True, "raw": b"\x00"}, priority=2,
          correl_id=b"C1", persistent=True, format=CMQC.MQFMT_STRING)
    q.put(b"two", correl_id=b"C2", persistent=False)
    second = q.get(correl_id=b"C2")
    assert second == b"two" and second.md.Persistence == CMQC.MQPER_NOT_PERSISTENT
    first = q.get()
    assert first == b"one" and first.properties == {"colour": "red", "n": 5, "ok": True, "raw": b"\x00"}
    assert first.md.Priority == 2 and first.md.Persistence == CMQC.MQPER_PERSISTENT
    assert first.md.Format == CMQC.MQFMT_STRING and first.correl_id == b"C1" + bytes(22)


def test_iterators_and_browse(qm: mqlite.QueueManager) -> None:
    q = mqlite.Queue(qm, "APP.IN")
    for i in range(5):
        q.put(f"m{i}".encode())
    assert [bytes(m) for m in q.browse()] == [f"m{i}".encode() for i in range(5)]
    assert q.depth == 5  # browsing left them there
    assert [bytes(m) for m in q.messages(wait=0.1)] == [f"m{i}".encode() for i in range(5)]
    assert q.depth == 0


def test_queue_opens_lazily_for_each_need(qm: mqlite.QueueManager) -> None:
    q = mqlite.Queue(qm, "APP.IN")
    assert not q.is_open and q.get_handle() is None
    q.put(b"x")
    assert q.inquire(CMQC.MQIA_CURRENT_Q_DEPTH) == 1
    assert q.get() == b"x"
    q.put(b"y")  # after a get: no re-open needed, the output handle is still there
    assert q.inquire(CMQC.MQCA_Q_NAME).strip() == b"APP.IN"
    q.close()
    assert not q.is_open
    assert q.get() == b"y"  # and it opens again on demand


def test_explicit_open_options_are_kept(qm: mqlite.QueueManager) -> None:
    q = mqlite.Queue(qm, "APP.IN", CMQC.MQOO_OUTPUT)
    q.put(b"x")
    with pytest.raises(mqlite.MQMIError) as e:
        q.get()
    assert e.value.reason == CMQC.MQRC_NOT_OPEN_FOR_INPUT
    q.close()
    with pytest.raises(mqlite.PYIFError):
        q.close()


def test_context_managers_back_out_on_error(server: Any) -> None:
    with pytest.raises(RuntimeError), mqlite.connect("QM1") as qm, mqlite.Queue(qm, "APP.IN") as q:
        q.put(b"in a unit of work", syncpoint=True)
        raise RuntimeError("boom")
    with mqlite.connect("QM1") as qm:
        with pytest.raises(mqlite.MQMIError):
            mqlite.Queue(qm, "APP.IN").get()
        with mqlite.Queue(qm, "APP.IN") as q:
            q.put(b"kept", syncpoint=True)
            qm.commit()
        assert mqlite.Queue(qm, "APP.IN").get() == b"kept"


def test_commit_and_backout(qm: mqlite.QueueManager) -> None:
    q = mqlite.Queue(qm, "APP.IN")
    q.put(b"a", syncpoint=True)
    qm.backout()
    q.put(b"b", syncpoint=True)
    qm.commit()
    assert q.get(syncpoint=True) == b"b"
    qm.backout()
    again = q.get()
    assert again == b"b" and again.md.BackoutCount == 1


def test_unknown_queue(qm: mqlite.QueueManager) -> None:
    with pytest.raises(mqlite.MQMIError) as e:
        mqlite.Queue(qm, "NO.SUCH.Q").put(b"x")
    assert e.value.reason == CMQC.MQRC_UNKNOWN_OBJECT_NAME


def test_queue_manager_inquire_and_ping(qm: mqlite.QueueManager) -> None:
    name = qm.inquire(CMQC.MQCA_Q_MGR_NAME)
    assert len(name) == CMQC.MQ_Q_MGR_NAME_LENGTH and name.strip() == b"QM1"
    qm.ping()
    assert qm.is_connected and qm.name == "QM1"


def test_tcp_and_mqserver(server: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    with mqlite.connect("QM1", host="127.0.0.1", port=server.port, **APP.kwargs) as qm:
        assert qm.get_handle().user == APP.user
        mqlite.Queue(qm, "APP.IN").put(b"over tcp")
    monkeypatch.setenv("MQSERVER", f"DEV.APP.SVRCONN/TCP/127.0.0.1({server.port})")
    with mqlite.connect(**APP.kwargs) as qm:  # no name, no default queue manager: MQSERVER
        assert mqlite.Queue(qm, "APP.IN").get() == b"over tcp"
    with pytest.raises(mqlite.MQMIError) as e:
        mqlite.connect("QM9", host="127.0.0.1", port=server.port, **APP.kwargs)
    assert e.value.reason == CMQC.MQRC_Q_MGR_NAME_ERROR


def test_connection_failures(server: Any, refused_port: int) -> None:
    with pytest.raises(mqlite.MQMIError) as e:
        mqlite.connect("NOPE")
    assert (e.value.comp, e.value.reason) == (CMQC.MQCC_FAILED, CMQC.MQRC_Q_MGR_NAME_ERROR)
    paths.qmgr_dir("QM2").mkdir(parents=True)  # known here, never started
    with pytest.raises(mqlite.MQMIError) as e:
        mqlite.connect("QM2")
    assert e.value.reason == CMQC.MQRC_Q_MGR_NOT_AVAILABLE
    with pytest.raises(mqlite.MQMIError) as e:
        mqlite.connect("QM1", host="127.0.0.1", port=refused_port)
    assert e.value.reason == CMQC.MQRC_HOST_NOT_AVAILABLE


def test_connection_broken(server: Any) -> None:
    qm = mqlite.connect("QM1")
    q = mqlite.Queue(qm, "APP.IN")
    q.put(b"x")
    server.stop(immediate=True)
    with pytest.raises(mqlite.MQMIError) as e:
        q.put(b"y")
        q.put(b"z")
    assert e.value.reason in (CMQC.MQRC_CONNECTION_BROKEN, CMQC.MQRC_Q_MGR_STOPPING)
    with pytest.raises(mqlite.MQMIError) as e:
        q.put(b"y")
    assert e.value.reason == CMQC.MQRC_CONNECTION_BROKEN
    qm.disconnect()  # releasing a broken connection is fine
    with pytest.raises(mqlite.MQMIError) as e:
        mqlite.connect("QM1")
    assert e.value.reason == CMQC.MQRC_Q_MGR_NOT_AVAILABLE


def test_asynchronous_puts_and_stat(qm: mqlite.QueueManager) -> None:
    q = mqlite.Queue(qm, "APP.IN")
    md = mqlite.MD()
    q.put(b"first", md, mqlite.PMO(Options=CMQC.MQPMO_ASYNC_RESPONSE))
    assert len(md.MsgId) == 24 and md.MsgId != bytes(24)  # the client gave it its id
    for i in range(200):
        q.put(b"%d" % i, asynchronous=True)
    status = qm.stat()
    assert (status.CompCode, status.PutSuccessCount, status.PutFailureCount) == (0, 201, 0)
    assert q.get(msg_id=md.MsgId) == b"first"
    assert q.depth == 200


def test_asynchronous_put_failure_is_raised_by_the_next_put(qm: mqlite.QueueManager) -> None:
    q = mqlite.Queue(qm, "SMALL")
    for i in range(5):
        q.put(b"%d" % i, asynchronous=True)
    qm.ping()  # the failures are back
    with pytest.raises(mqlite.MQMIError) as e:
        q.put(b"next")
    assert e.value.reason == CMQC.MQRC_Q_FULL and e.value.failures == 2
    assert q.depth == 3  # the put that raised was not sent
    for i in range(2):
        q.put(b"%d" % i, asynchronous=True)
    status = qm.stat()  # counts since the connection started (never asked before)
    assert (status.PutSuccessCount, status.PutFailureCount) == (3, 4)
    assert status.Reason == CMQC.MQRC_Q_FULL and status.CompCode == CMQC.MQCC_FAILED
    mqlite.Queue(qm, "SMALL").get()
    q.put(b"fits")  # stat() reported the failures: nothing is raised any more


def test_failed_asynchronous_put_in_syncpoint_backs_out_the_commit(qm: mqlite.QueueManager) -> None:
    q = mqlite.Queue(qm, "SMALL")
    for i in range(4):
        q.put(b"%d" % i, asynchronous=True, syncpoint=True)
    with pytest.raises(mqlite.MQMIError) as e:
        qm.commit()
    assert e.value.reason == CMQC.MQRC_BACKED_OUT
    assert q.depth == 0


def test_read_ahead_delivers_everything_in_order(qm: mqlite.QueueManager) -> None:
    producer = mqlite.Queue(qm, "AHEAD")
    count = 700
    for i in range(count):
        producer.put(b"%d" % i, asynchronous=True, persistent=i % 100 == 0)
    qm.ping()
    with mqlite.connect("QM1") as consumer_qm:
        consumer = mqlite.Queue(consumer_qm, "AHEAD")
        got = [int(m) for m in consumer.messages(wait=0.5)]
        assert got == list(range(count))
        assert consumer_qm.get_handle().read_ahead  # it really read ahead


def test_read_ahead_buffer_is_discarded_at_close(qm: mqlite.QueueManager) -> None:
    for i in range(50):
        mqlite.Queue(qm, "AHEAD").put(b"%d" % i, persistent=False)
    with mqlite.connect("QM1") as consumer_qm:
        consumer = mqlite.Queue(consumer_qm, "AHEAD", CMQC.MQOO_INPUT_SHARED)
        assert consumer.get(wait=1) == b"0"
        consumer_qm.ping()
        consumer.close()  # IBM semantics: non-persistent messages read ahead are gone
    assert mqlite.Queue(qm, "AHEAD").depth == 0


def test_truncation(qm: mqlite.QueueManager) -> None:
    q = mqlite.Queue(qm, "APP.IN")
    q.put(b"12345")
    with pytest.raises(mqlite.MQMIError) as e:
        q.get(3)
    assert e.value.reason == CMQC.MQRC_TRUNCATED_MSG_FAILED and e.value.original_length == 5
    with pytest.raises(mqlite.MQMIError) as e:
        q.get(3, None, mqlite.GMO(Options=CMQC.MQGMO_ACCEPT_TRUNCATED_MSG))
    assert e.value.reason == CMQC.MQRC_TRUNCATED_MSG_ACCEPTED and e.value.message == b"123"
    assert q.depth == 0


def test_one_connection_shared_by_threads(qm: mqlite.QueueManager) -> None:
    q = mqlite.Queue(qm, "APP.IN")
    errors: list[BaseException] = []

    def work(tag: bytes) -> None:
        try:
            for i in range(100):
                q.put(tag + b"%d" % i)
        except BaseException as e:  # reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(t,)) for t in (b"a", b"b", b"c")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and q.depth == 300
