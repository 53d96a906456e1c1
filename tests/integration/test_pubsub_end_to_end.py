"""Publish/subscribe through real queue manager processes: the Python client (pymqi style and
Pythonic), the command line, restarts and the publish exit configured in qm.ini (spec A and C
scenarios end to end; the full vector tables run against core in tests/unit)."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest

import mqlite
from helpers.credentials import ADMIN, APP, add_user
from mqlite import CMQC as C


def test_publish_and_subscribe_pythonic(qmgr: Any) -> None:  # A:TV-RP-02, C:SC-PROP-01
    qm = mqlite.connect(qmgr.name)
    mqlite.Topic(qm, topic_string="price/fruit/apples").pub(b"1.20", retain=True)
    sub = mqlite.Subscription(qm, "price/#", name="desk1", durable=True)
    first = sub.get(wait=2.0)
    assert bytes(first) == b"1.20"
    assert first.properties["MQIsRetained"] is True and first.properties["mqps.Ret"] is True
    assert first.properties["mqps.Top"] == "price/fruit/apples"
    mqlite.Topic(qm, topic_string="price/fruit/pears").pub(b"0.90")
    assert bytes(sub.get(wait=2.0)) == b"0.90"
    sub.close()
    qm.disconnect()


def test_pymqi_style_over_tcp(qmgr: Any) -> None:  # C:SC-SUB-03, C:SC-PUB-01
    add_user(qmgr.home, qmgr.name, ADMIN)  # it defines topics too: an administrator
    qm = mqlite.connect(qmgr.name, "DEV.ADMIN.SVRCONN", f"127.0.0.1({qmgr.port})", ADMIN.user, ADMIN.password)
    qm.mqsc("DEFINE TOPIC(IBMSTOCKPRICE) TOPICSTR('NYSE/IBM/PRICE')\nDEFINE TOPIC(STOCKS) TOPICSTR('NYSE')")
    topic = mqlite.Topic(qm, topic_name="IBMSTOCKPRICE")
    topic.open(open_opts=C.MQOO_OUTPUT | C.MQOO_FAIL_IF_QUIESCING)
    assert topic.resolved_topic_string == "NYSE/IBM/PRICE"
    topic.pub(b"150", pmo=mqlite.PMO(Options=C.MQPMO_FAIL_IF_QUIESCING | C.MQPMO_RETAIN))
    sd = mqlite.SD(Options=C.MQSO_CREATE | C.MQSO_MANAGED | C.MQSO_NON_DURABLE | C.MQSO_FAIL_IF_QUIESCING)
    sd.ObjectName = "STOCKS"
    sd.set_vs("ObjectString", "IBM/PRICE")
    sub = mqlite.Subscription(qm)
    sub.sub(sub_desc=sd)
    assert sd.vs_text("ResObjectString") == "NYSE/IBM/PRICE"
    queue = sub.get_sub_queue()
    assert queue is not None and queue.name.startswith("SYSTEM.MANAGED.NDURABLE.")
    md = mqlite.MD()
    assert sub.get(None, md, mqlite.GMO(Options=C.MQGMO_WAIT, WaitInterval=2000)) == b"150"
    assert md.CorrelId == sub.sub_correl_id
    with pytest.raises(mqlite.MQMIError) as empty:
        sub.get(None, mqlite.MD(), mqlite.GMO(Options=C.MQGMO_WAIT, WaitInterval=100))
    assert empty.value.reason == C.MQRC_NO_MSG_AVAILABLE
    sub.close(sub_close_options=C.MQCO_REMOVE_SUB, close_sub_queue=True)
    with pytest.raises(mqlite.MQMIError) as none:
        topic.pub(b"x", pmo=mqlite.PMO(Options=C.MQPMO_WARN_IF_NO_SUBS_MATCHED))
    assert (none.value.comp, none.value.reason) == (C.MQCC_WARNING, C.MQRC_NO_SUBS_MATCHED)
    topic.close()
    qm.disconnect()


def test_unmanaged_subscription_selector_and_subrq(qmgr: Any) -> None:  # A:TV-SL-18, C:SC-RT-02
    qm = mqlite.connect(qmgr.name)
    qm.mqsc("DEFINE QLOCAL(APP.PRICES)")
    queue = mqlite.Queue(qm, "APP.PRICES", C.MQOO_INPUT_AS_Q_DEF)
    cheap = mqlite.Subscription(qm, "stock/+", queue=queue, selector="Price > 100")
    topic = mqlite.Topic(qm, topic_string="stock/ibm")
    for price in (50, 150):
        topic.pub(str(price), properties={"Price": price})
    assert [bytes(m) for m in queue.messages(wait=0.5)] == [b"150"]
    topic.pub(b"r1", retain=True)
    on_request = mqlite.Subscription(qm, "stock/ibm", publications_on_request=True)
    topic.pub(b"live")
    assert on_request.request_update() == 1
    got = on_request.get(wait=2.0)
    assert bytes(got) == b"r1" and got.properties["MQIsRetained"] is True
    cheap.close()
    on_request.close()
    qm.disconnect()


def test_bad_input_gets_reason_codes_and_the_queue_manager_serves_on(qmgr: Any) -> None:
    qm = mqlite.connect(qmgr.name)
    for kwargs, reason in [
        ({"selector": "Price >"}, C.MQRC_SELECTOR_SYNTAX_ERROR),
        ({"wildcard": "char", "sub_desc": "IBM/%Bad"}, C.MQRC_TOPIC_STRING_ERROR),
        ({"sub_desc": ""}, C.MQRC_TOPIC_STRING_ERROR),
        ({"level": 10}, C.MQRC_OPTIONS_ERROR),
    ]:
        topic = kwargs.pop("sub_desc", "a/b")
        with pytest.raises(mqlite.MQMIError) as info:
            mqlite.Subscription(qm, topic, **kwargs)
        assert info.value.reason == reason
    with pytest.raises(mqlite.MQMIError) as resume:
        mqlite.Subscription(qm).sub(sub_desc=_resume_sd("NOSUCH"))
    assert resume.value.reason == C.MQRC_NO_SUBSCRIPTION
    with pytest.raises(mqlite.MQMIError) as level:
        mqlite.Topic(qm, topic_string="a/b").pub(b"x", pub_level=10)
    assert level.value.reason == C.MQRC_PMO_ERROR
    sub = mqlite.Subscription(qm, "a/b")
    mqlite.Topic(qm, topic_string="a/b").pub(b"still serving")
    assert bytes(sub.get(wait=2.0)) == b"still serving"
    qm.disconnect()


def _resume_sd(name: str) -> Any:
    sd = mqlite.SD(Options=C.MQSO_RESUME | C.MQSO_DURABLE)
    sd.set_vs("SubName", name)
    return sd


def test_durable_subscription_and_retained_survive_a_restart(qmgr: Any, run_cli: Any) -> None:  # A:TV-SL-12
    qm = mqlite.connect(qmgr.name)
    sub = mqlite.Subscription(qm, "orders/#", name="ORDERS", durable=True)
    sub.close()  # kept
    mqlite.Topic(qm, topic_string="orders/1").pub(b"kept", persistent=True)
    mqlite.Topic(qm, topic_string="orders/1").pub(b"lost", persistent=False)
    mqlite.Topic(qm, topic_string="state/now").pub(b"retained", persistent=True, retain=True)
    non_durable = mqlite.Subscription(qm, "orders/#", name="TRANSIENT")
    assert non_durable.is_open
    qm.disconnect()
    assert run_cli("endmqm", qmgr.name).returncode == 0
    assert run_cli("strmqm", qmgr.name).returncode == 0
    qm = mqlite.connect(qmgr.name)
    sub = mqlite.Subscription(qm, "orders/#", name="ORDERS", durable=True)
    assert [bytes(m) for m in sub.messages(wait=0.5)] == [b"kept"]
    state = mqlite.Subscription(qm, "state/now")
    assert bytes(state.get(wait=2.0)) == b"retained"
    _, lines = qm.mqsc("DISPLAY SBSTATUS(*) SUBTYPE(ALL)")
    assert any("SUB(ORDERS)" in line for line in lines) and not any("TRANSIENT" in line for line in lines)
    sub.close(C.MQCO_REMOVE_SUB, close_sub_queue=True)
    qm.disconnect()


def test_cli_pub_and_sub(qmgr: Any, run_cli: Any) -> None:
    assert run_cli("pub", "-m", qmgr.name, "news/sport", "--retain", input="goal\n").returncode == 0
    first = run_cli("sub", "-m", qmgr.name, "news/#", "--durable", "NEWS", "-w", "0.5")
    assert first.returncode == 0 and first.stdout.splitlines() == ["goal"]
    assert run_cli("pub", "-m", qmgr.name, "news/tech", input="chip\nbattery\n").returncode == 0
    second = run_cli("sub", "-m", qmgr.name, "news/#", "--durable", "NEWS", "-w", "0.5", "-n", "1")
    assert second.stdout.splitlines() == ["chip"]
    third = run_cli("sub", "-m", qmgr.name, "news/#", "--durable", "NEWS", "-w", "0.5")
    assert third.stdout.splitlines() == ["battery"]
    bad = run_cli("sub", "-m", qmgr.name, "", "-w", "0.1")
    assert bad.returncode != 0 and "MQRC_TOPIC_STRING_ERROR (2425)" in bad.stderr


def test_publish_exit_from_qm_ini(qmgr_factory: Any, mqlite_home: Path, run_cli: Any) -> None:  # C:SC-PX-02
    exit_module = mqlite_home / "upper_exit.py"
    exit_module.write_text(textwrap.dedent("""
        from mqlite import cmqc as C

        def publish(parms, pub, sub):
            if parms.ExitReason == C.MQXR_PUBLICATION:
                parms.msg_in[:] = parms.msg_in.upper()
    """))
    qm_dir = mqlite_home / "qmgrs" / "QMX"
    qmgr_factory("QMX", port=False)
    assert run_cli("endmqm", "QMX").returncode == 0
    (qm_dir / "qm.ini").write_text(f"PublishSubscribe:\n   PublishExitPath={exit_module}\n"
                                   "   PublishExitFunction=publish\n   PublishExitData=ABC\n")
    assert run_cli("strmqm", "QMX").returncode == 0
    qm = mqlite.connect("QMX")
    sub = mqlite.Subscription(qm, "shout")
    mqlite.Topic(qm, topic_string="shout").pub(b"quiet")
    assert bytes(sub.get(wait=2.0)) == b"QUIET"
    qm.disconnect()


def test_fan_out_to_many_subscribers_with_read_ahead(qmgr: Any) -> None:
    qm = mqlite.connect(qmgr.name)
    subs = [mqlite.Subscription(qm, "fan/out", read_ahead=True) for _ in range(10)]
    topic = mqlite.Topic(qm, topic_string="fan/out")
    for i in range(250):  # more than one read-ahead window per subscriber
        topic.pub(str(i), asynchronous=True)
    topic.pub(b"end")
    for sub in subs:  # a get stalled by messages sent ahead would end messages() early
        got = [bytes(m) for m in sub.messages(wait=0.5)]
        assert got == [str(i).encode() for i in range(250)] + [b"end"]
    qm.disconnect()


def test_mqod_version_decides_whether_a_topic_opens(qmgr: Any) -> None:  # C:SC-PUB-05, C:R-PUB-1
    qm = mqlite.connect(qmgr.name, "DEV.APP.SVRCONN", f"127.0.0.1({qmgr.port})", APP.user, APP.password)
    sub = mqlite.Subscription(qm, "versions/#")
    for version in (C.MQOD_VERSION_1, C.MQOD_VERSION_3):  # IBM's MQOD_DEFAULT is version 1
        old = mqlite.OD(Version=version, ObjectType=C.MQOT_TOPIC)
        old.set_vs("ObjectString", "versions/old")
        with pytest.raises(mqlite.MQMIError) as opened:
            mqlite.Queue(qm, old, C.MQOO_OUTPUT)
        assert (opened.value.comp, opened.value.reason) == (C.MQCC_FAILED, C.MQRC_OD_ERROR)
        with pytest.raises(mqlite.MQMIError) as put1:
            qm.put1(old, b"never")
        assert put1.value.reason == C.MQRC_OD_ERROR
    assert mqlite.OD().Version == C.MQOD_VERSION_1
    current = mqlite.OD(Version=C.MQOD_VERSION_4, ObjectType=C.MQOT_TOPIC)
    current.set_vs("ObjectString", "versions/new")
    mqlite.Queue(qm, current, C.MQOO_OUTPUT).put(b"v4")
    qm.put1(current, b"v4 put1")
    mqlite.Topic(qm, topic_string="versions/topic").pub(b"Topic sets version 4")
    assert [bytes(m) for m in sub.messages(wait=1.0)] == [b"v4", b"v4 put1", b"Topic sets version 4"]
    qm.disconnect()
