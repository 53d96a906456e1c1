"""``/metrics`` (issue 33, scope 3): the collector of ``mqlite.web.metrics`` against real queue
managers, its output read with prometheus_client's parser, each family moving when its quantity
moves: depth and put/get counts with puts and gets (DISPLAY QSTATUS's totals; with useResetQStats
from RESET QSTATS), the CPU, DISK and STATMQI publications' families and with a
queueSubscriptionSelector the STATQ ones (the queue managers publish every second here: qm.ini
MonitorPublishHeartBeat=1), a message's age, a channel's status when it starts and stops and its
message count when it carries one, subscriptions, connections, the store's commits."""

from __future__ import annotations

import json
import os
import signal
import urllib.request
from collections.abc import Iterator

import pytest
from prometheus_client.parser import text_string_to_metric_families

import mqlite.client as mqlite
from helpers.module_qmgrs import started
from helpers.mqsc import RunCli
from helpers.qmgrs import QMgr
from helpers.waiting import wait_until
from mqlite import cmqc as C
from mqlite.cli.state import process_alive
from mqlite.web.metrics import Collector

pytestmark = pytest.mark.xdist_group("web_metrics")

Samples = dict[str, list[tuple[dict[str, str], float]]]
MONITOR_EVERY_SECOND = "TuningParameters:\n   MonitorPublishHeartBeat=1\n"


@pytest.fixture(scope="module")
def installation(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[dict[str, QMgr], RunCli]]:
    with started(tmp_path_factory.mktemp("metrics") / "mqhome", ("QM1", "QM2"),
                 qm_ini=MONITOR_EVERY_SECOND) as (qmgrs, run_cli):
        yield qmgrs, run_cli


@pytest.fixture(scope="module")
def network(installation: tuple[dict[str, QMgr], RunCli]) -> dict[str, QMgr]:
    return installation[0]


@pytest.fixture
def collector(network: dict[str, QMgr]) -> Iterator[Collector]:
    collector = Collector(qmgrs=lambda: sorted(network))
    yield collector
    collector.close()


def scrape(collector: Collector) -> Samples:
    """Every sample by its name, as prometheus_client's parser reads the text."""
    samples: Samples = {}
    for family in text_string_to_metric_families(collector.text()):
        samples.setdefault(family.name, [])
        for sample in family.samples:
            samples.setdefault(sample.name, []).append((sample.labels, sample.value))
    return samples


def sample(samples: Samples, name: str, **labels: str) -> tuple[dict[str, str], float]:
    """The one sample of ``name`` whose labels include ``labels``: its labels and value."""
    found = [(have, v) for have, v in samples.get(name, []) if all(have.get(k) == w for k, w in labels.items())]
    assert len(found) == 1, (name, labels, samples.get(name))
    return found[0]


def value(samples: Samples, name: str, **labels: str) -> float:
    return sample(samples, name, **labels)[1]


def run(qmgr: str, text: str) -> list[str]:
    with mqlite.connect(qmgr) as qm:
        code, lines = qm.mqsc(text)
    assert code == 0, lines
    return lines


def test_every_family_is_there(collector: Collector) -> None:
    samples = scrape(collector)
    for name in ("ibmmq_qmgr_status", "ibmmq_qmgr_command_server_status", "ibmmq_qmgr_connection_count",
                 "ibmmq_qmgr_uptime", "ibmmq_qmgr_active_listeners", "ibmmq_qmgr_exporter_collection_time",
                 "ibmmq_queue_depth", "ibmmq_queue_mqput_mqput1_count", "ibmmq_queue_mqget_count",
                 "ibmmq_queue_oldest_message_age", "ibmmq_channel_status", "ibmmq_topic_subscriber_count",
                 "ibmmq_subscription_messsages_received", "mqlite_subscriptions", "mqlite_store_size_bytes",
                 "mqlite_store_commit_seconds_sum", "mqlite_store_commit_seconds_count",
                 "mqlite_store_group_transactions_sum", "mqlite_store_operations_total"):
        assert name in samples, name
    for qm in ("QM1", "QM2"):
        assert value(samples, "ibmmq_qmgr_status", qmgr=qm, platform="UNIX") == C.MQQMSTA_RUNNING
        assert value(samples, "ibmmq_qmgr_command_server_status", qmgr=qm) == C.MQSVC_STATUS_RUNNING
        assert value(samples, "ibmmq_qmgr_active_listeners", qmgr=qm) >= 1
        assert value(samples, "mqlite_store_size_bytes", qmgr=qm) > 0
    # SYSTEM.* queues are not monitored by default (IBM's exporter's usual configuration)
    assert not [labels for labels, _ in samples["ibmmq_queue_depth"] if labels["queue"].startswith("SYSTEM.")]


def test_an_unreachable_queue_manager_is_status_0(network: dict[str, QMgr]) -> None:
    collector = Collector(qmgrs=lambda: ["QM1", "NOT.THERE"])
    try:
        samples = scrape(collector)
    finally:
        collector.close()
    assert value(samples, "ibmmq_qmgr_status", qmgr="NOT.THERE") == 0
    assert value(samples, "ibmmq_qmgr_status", qmgr="QM1") == C.MQQMSTA_RUNNING


def test_depth_and_put_get_counts_move(collector: Collector) -> None:
    """The counts are the queue's totals at the scrape: no publication to wait for, and no STATQ
    subscription (mqlite's default queueSubscriptionSelector is none)."""
    run("QM1", "DEFINE QLOCAL(APP.COUNTED) DESCR('counted (by metrics)') MAXDEPTH(500)\n")
    labels = {"qmgr": "QM1", "queue": "APP.COUNTED"}
    before = scrape(collector)
    assert value(before, "ibmmq_queue_depth", **labels) == 0
    assert value(before, "ibmmq_queue_attribute_max_depth", **labels) == 500
    assert sample(before, "ibmmq_queue_depth", **labels)[0] == {
        "qmgr": "QM1", "platform": "UNIX", "queue": "APP.COUNTED", "usage": "NORMAL",
        "description": "counted (by metrics)", "cluster": ""}
    assert value(before, "ibmmq_queue_mqput_mqput1_count_total", **labels) == 0
    assert value(before, "ibmmq_queue_mqget_count_total", **labels) == 0
    assert not [s for s in run("QM1", "DISPLAY SBSTATUS(*) SUBTYPE(ALL) TOPICSTR\n") if "APP.COUNTED" in s]
    with mqlite.connect("QM1") as qm, mqlite.Queue(qm, "APP.COUNTED", C.MQOO_OUTPUT | C.MQOO_INPUT_SHARED) as q:
        for n in range(3):
            q.put(b"m%d" % n)
        put = scrape(collector)
        assert value(put, "ibmmq_queue_mqput_mqput1_count_total", **labels) == 3
        assert value(put, "ibmmq_queue_depth", **labels) == 3
        assert value(put, "ibmmq_queue_mqget_count_total", **labels) == 0
        assert value(put, "ibmmq_queue_input_handles", **labels) == 1
        assert value(put, "ibmmq_queue_output_handles", **labels) == 1
        q.get()
        got = scrape(collector)
        assert value(got, "ibmmq_queue_mqget_count_total", **labels) == 1
        assert value(got, "ibmmq_queue_depth", **labels) == 2
        assert value(got, "ibmmq_queue_mqput_mqput1_count_total", **labels) == 3  # a counter: kept
        q.put(b"in a unit of work", syncpoint=True)
        uncommitted = scrape(collector)
        assert value(uncommitted, "ibmmq_queue_uncommitted_messages", **labels) == 1
        qm.commit()
    assert value(scrape(collector), "ibmmq_queue_uncommitted_messages", **labels) == 0


def test_scrapes_leave_reset_qstats_to_others(collector: Collector) -> None:
    """A scrape takes nothing from anyone's RESET QSTATS (IBM's exporter without useResetQStats),
    and anyone's RESET QSTATS takes nothing from the scrape's counters."""
    run("QM2", "DEFINE QLOCAL(APP.SHARED)\n")
    labels = {"qmgr": "QM2", "queue": "APP.SHARED"}
    run("QM2", "RESET QSTATS(APP.SHARED)\n")
    with mqlite.connect("QM2") as qm, mqlite.Queue(qm, "APP.SHARED") as q:
        for _ in range(4):
            q.put(b"shared")
    assert value(scrape(collector), "ibmmq_queue_mqput_mqput1_count_total", **labels) == 4
    reset = "".join(run("QM2", "RESET QSTATS(APP.SHARED)\n"))
    assert "ENQCOUNT(4)" in reset and "HIQDEPTH(4)" in reset, reset
    assert value(scrape(collector), "ibmmq_queue_mqput_mqput1_count_total", **labels) == 4


def test_the_selected_statq_types_are_subscribed_to(network: dict[str, QMgr]) -> None:
    """queueSubscriptionSelector PUT: each monitored queue's STATQ PUT publications, under
    mq_prometheus's names, and no GET subscription (its counters stay off)."""
    run("QM1", "DEFINE QLOCAL(APP.SELECTED)\n")
    collector = Collector(qmgrs=lambda: ["QM1"], queue_subscription_selector=["put"])
    try:
        labels = {"qmgr": "QM1", "queue": "APP.SELECTED"}

        def put_bytes(samples: Samples) -> list[float]:
            return [v for have, v in samples.get("ibmmq_queue_mqput_bytes_total", [])
                    if have["queue"] == "APP.SELECTED"]

        wait_until(lambda: put_bytes(scrape(collector)), "APP.SELECTED's first STATQ PUT publication")
        topics = "".join(run("QM1", "DISPLAY SBSTATUS(*) SUBTYPE(ALL) TOPICSTR\n"))
        assert "STATQ/APP.SELECTED/PUT" in topics and "STATQ/APP.SELECTED/GET" not in topics, topics
        with mqlite.connect("QM1") as qm, mqlite.Queue(qm, "APP.SELECTED") as q:
            q.put(b"six by")
        wait_until(lambda: put_bytes(scrape(collector)) == [6.0], "the put's bytes are published")
        samples = scrape(collector)
        assert value(samples, "ibmmq_queue_mqput_mqput1_count_total", **labels) == 1  # (the totals, as ever)
        assert not [have for have, _ in samples.get("ibmmq_queue_mqget_bytes_total", [])
                    if have["queue"] == "APP.SELECTED"]
    finally:
        collector.close()
    with pytest.raises(ValueError, match="PUTS is not one of PUT, GET, GENERAL, OPENCLOSE, INQSET"):
        Collector(queue_subscription_selector=["PUTS"])


def test_definitions_are_read_each_rediscover_interval(network: dict[str, QMgr]) -> None:
    """The queues' definitions (MAXDEPTH, USAGE, DESCR, CLUSTER) are read again each
    rediscoverInterval, as IBM's exporter reads them, and at once for a queue new in DISPLAY
    QSTATUS; depths and handles are current at every scrape."""
    run("QM2", "DEFINE QLOCAL(APP.KEPT) DESCR('first') MAXDEPTH(10)\n")
    kept = Collector(qmgrs=lambda: ["QM2"], rediscover=3600)
    fresh = Collector(qmgrs=lambda: ["QM2"], rediscover=0)
    try:
        labels = {"qmgr": "QM2", "queue": "APP.KEPT"}
        assert sample(scrape(kept), "ibmmq_queue_depth", **labels)[0]["description"] == "first"
        run("QM2", "ALTER QLOCAL(APP.KEPT) DESCR('second') MAXDEPTH(20)\n")
        with mqlite.connect("QM2") as qm, mqlite.Queue(qm, "APP.KEPT") as q:
            q.put(b"counted at once")
        later = scrape(kept)
        assert sample(later, "ibmmq_queue_depth", **labels)[0]["description"] == "first"  # (until a reading)
        assert value(later, "ibmmq_queue_depth", **labels) == 1
        assert value(later, "ibmmq_queue_attribute_max_depth", **labels) == 10
        now = scrape(fresh)
        assert sample(now, "ibmmq_queue_depth", **labels)[0]["description"] == "second"
        assert value(now, "ibmmq_queue_attribute_max_depth", **labels) == 20
        run("QM2", "DEFINE QLOCAL(APP.NEW) DESCR('new')\n")  # a queue new in QSTATUS: all read again
        grown = scrape(kept)
        assert sample(grown, "ibmmq_queue_depth", queue="APP.NEW")[0]["description"] == "new"
        assert value(grown, "ibmmq_queue_attribute_max_depth", **labels) == 20
    finally:
        kept.close()
        fresh.close()


def test_reset_qstats_when_configured(network: dict[str, QMgr]) -> None:
    """useResetQStats: counts and hi_depth from a RESET QSTATS per scrape."""
    run("QM1", "DEFINE QLOCAL(APP.RESET)\n")
    collector = Collector(qmgrs=lambda: ["QM1"], use_reset_qstats=True)
    try:
        labels = {"qmgr": "QM1", "queue": "APP.RESET"}
        assert value(scrape(collector), "ibmmq_queue_mqput_mqput1_count_total", **labels) == 0
        with mqlite.connect("QM1") as qm, mqlite.Queue(qm, "APP.RESET") as q:
            for _ in range(3):
                q.put(b"r")
        after = scrape(collector)  # no publication needed: the RESET answers now
        assert value(after, "ibmmq_queue_mqput_mqput1_count_total", **labels) == 3
        assert value(after, "ibmmq_queue_hi_depth", **labels) == 3
    finally:
        collector.close()


def test_qmgr_publications_families(collector: Collector) -> None:
    """CPU, DISK and STATMQI's families under mq_prometheus's names, in base units."""
    names = ("ibmmq_qmgr_user_cpu_time_percentage", "ibmmq_qmgr_ram_total_bytes",
             "ibmmq_qmgr_queue_manager_file_system_in_use_bytes", "ibmmq_qmgr_log_write_latency_seconds",
             "ibmmq_qmgr_commit_count_total")
    samples = wait_until(lambda: (s := scrape(collector)) and all(
        [v for have, v in s.get(name, []) if have["qmgr"] == "QM1"] for name in names) and s,
        "QM1's CPU, DISK and STATMQI publications are in /metrics")
    assert value(samples, "ibmmq_qmgr_ram_total_bytes", qmgr="QM1") > 1024 * 1024  # MB to bytes
    assert 0 <= value(samples, "ibmmq_qmgr_user_cpu_time_percentage", qmgr="QM1") <= 100


def test_oldest_message_age(collector: Collector) -> None:
    run("QM1", "DEFINE QLOCAL(APP.AGED)\n")
    labels = {"qmgr": "QM1", "queue": "APP.AGED"}
    assert value(scrape(collector), "ibmmq_queue_oldest_message_age", **labels) == 0
    with mqlite.connect("QM1") as qm:
        with mqlite.Queue(qm, "APP.AGED", C.MQOO_OUTPUT | C.MQOO_SET_ALL_CONTEXT) as q:
            # put in 2001, with set-all context: older than any clock can make a fresh message
            q.put(b"old", mqlite.MD(PutDate=b"20010101", PutTime=b"12000000"),
                  mqlite.PMO(Options=C.MQPMO_SET_ALL_CONTEXT))
        assert value(scrape(collector), "ibmmq_queue_oldest_message_age", **labels) > 365 * 86400
        with mqlite.Queue(qm, "APP.AGED", C.MQOO_INPUT_SHARED) as q:
            q.get()
    assert value(scrape(collector), "ibmmq_queue_oldest_message_age", **labels) == 0


def test_channel_status_and_messages_move(collector: Collector, network: dict[str, QMgr]) -> None:
    port = network["QM2"].port
    run("QM2", "DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(RCVR)\nDEFINE QLOCAL(APP.ARRIVED)\n"
               "SET CHLAUTH(QM1.TO.QM2) TYPE(QMGRMAP) QMNAME(QM1) USERSRC(CHANNEL)\n")
    run("QM1", f"DEFINE QLOCAL(QM2) USAGE(XMITQ)\n"
               f"DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) CONNAME('127.0.0.1({port})') XMITQ(QM2) DESCR('to QM2')\n"
               "DEFINE QREMOTE(APP.TO.QM2) RNAME(APP.ARRIVED) RQMNAME(QM2) XMITQ(QM2)\n")
    sender = {"qmgr": "QM1", "channel": "QM1.TO.QM2"}
    samples = scrape(collector)
    assert value(samples, "ibmmq_channel_status", **sender) == C.MQCHS_INACTIVE
    assert value(samples, "ibmmq_channel_status_squash", **sender) == 0
    assert value(samples, "ibmmq_queue_depth", qmgr="QM1", queue="QM2", usage="XMITQ") == 0
    run("QM1", "START CHANNEL(QM1.TO.QM2)\n")
    running = wait_until(lambda: (s := scrape(collector)) and value(s, "ibmmq_channel_status", **sender)
                         == C.MQCHS_RUNNING and s, "the sender is RUNNING in /metrics")
    assert value(running, "ibmmq_channel_status_squash", **sender) == 2
    labels = sample(running, "ibmmq_channel_status", **sender)[0]
    assert (labels["type"], labels["rqmname"], labels["description"]) == ("SENDER", "QM2", "to QM2")
    messages = value(running, "ibmmq_channel_messages", **sender)
    with mqlite.connect("QM1") as qm, mqlite.Queue(qm, "APP.TO.QM2") as q:
        q.put(b"across")
    moved = wait_until(lambda: (s := scrape(collector)) and value(s, "ibmmq_channel_messages", **sender) > messages
                       and value(s, "ibmmq_queue_depth", qmgr="QM2", queue="APP.ARRIVED") == 1 and s,
                       "the sender's message count grows and the message arrives")
    assert value(moved, "ibmmq_channel_bytes_sent", **sender) > 0
    assert value(moved, "ibmmq_channel_status", qmgr="QM2", channel="QM1.TO.QM2", type="RECEIVER") == C.MQCHS_RUNNING
    run("QM1", "STOP CHANNEL(QM1.TO.QM2)\n")
    stopped = (C.MQCHS_STOPPED, C.MQCHS_INACTIVE)
    wait_until(lambda: value(scrape(collector), "ibmmq_channel_status", **sender) in stopped,
               "the sender is STOPPED in /metrics")


def test_subscriptions_move(collector: Collector) -> None:
    run("QM1", "DEFINE TOPIC(APP.PRICES) TOPICSTR('app/prices')\nDEFINE QLOCAL(APP.PRICES.IN)\n")
    before = scrape(collector)
    durable = value(before, "mqlite_subscriptions", qmgr="QM1", durable="YES")
    assert value(before, "ibmmq_topic_subscriber_count", qmgr="QM1", topic="app/prices") == 0
    run("QM1", "DEFINE SUB(APP.PRICES.SUB) TOPICSTR('app/prices') DEST(APP.PRICES.IN)\n")
    after = scrape(collector)
    assert value(after, "mqlite_subscriptions", qmgr="QM1", durable="YES") == durable + 1
    assert value(after, "ibmmq_topic_subscriber_count", qmgr="QM1", topic="app/prices", type="TOPIC") == 1
    sub = {"qmgr": "QM1", "subscription": "APP.PRICES.SUB", "topic": "app/prices", "type": "ADMIN"}
    assert value(after, "ibmmq_subscription_messsages_received", **sub) == 0
    with mqlite.connect("QM1") as qm:
        topic = mqlite.Topic(qm, topic_string="app/prices")
        topic.open(open_opts=C.MQOO_OUTPUT)
        topic.pub(b"42")
        published = scrape(collector)
        assert value(published, "ibmmq_topic_publisher_count", qmgr="QM1", topic="app/prices") == 1
        topic.close()
    assert value(published, "ibmmq_subscription_messsages_received", **sub) == 1
    run("QM1", "DELETE SUB(APP.PRICES.SUB)\n")
    assert value(scrape(collector), "mqlite_subscriptions", qmgr="QM1", durable="YES") == durable


def test_connections_move(collector: Collector) -> None:
    before = value(scrape(collector), "ibmmq_qmgr_connection_count", qmgr="QM2")
    extra = mqlite.connect("QM2")
    try:
        assert value(scrape(collector), "ibmmq_qmgr_connection_count", qmgr="QM2") == before + 1
    finally:
        extra.disconnect()
    wait_until(lambda: value(scrape(collector), "ibmmq_qmgr_connection_count", qmgr="QM2") == before,
               "the connection is gone from the count")


def test_store_commits_move(collector: Collector) -> None:
    run("QM2", "DEFINE QLOCAL(APP.DURABLE)\n")
    before = scrape(collector)
    commits = value(before, "mqlite_store_commit_seconds_count", qmgr="QM2")
    transactions = value(before, "mqlite_store_group_transactions_sum", qmgr="QM2")
    operations = value(before, "mqlite_store_operations_total", qmgr="QM2")
    seconds = value(before, "mqlite_store_commit_seconds_sum", qmgr="QM2")
    with mqlite.connect("QM2") as qm, mqlite.Queue(qm, "APP.DURABLE") as q:
        q.put(b"kept", mqlite.MD(Persistence=C.MQPER_PERSISTENT))
    after = scrape(collector)
    assert value(after, "mqlite_store_commit_seconds_count", qmgr="QM2") > commits
    assert value(after, "mqlite_store_group_transactions_sum", qmgr="QM2") > transactions
    assert value(after, "mqlite_store_operations_total", qmgr="QM2") > operations
    assert value(after, "mqlite_store_commit_seconds_sum", qmgr="QM2") > seconds


def test_scraped_over_http_from_strmqweb(installation: tuple[dict[str, QMgr], RunCli]) -> None:
    """The web server process ``mqlite strmqweb`` starts serves /metrics (app.py's hook), without
    credentials, as Prometheus scrapes it."""
    qmgrs, run_cli = installation
    home = qmgrs["QM1"].home
    assert run_cli("setmqweb", "properties", "-k", "httpPort", "-v", "0").returncode == 0
    result = run_cli("strmqweb")
    assert result.returncode == 0, result.stdout + result.stderr
    endpoints = json.loads((home / "web" / "endpoints.json").read_text())
    pid = int(endpoints["pid"])
    try:
        def scrape_http() -> Samples:
            with urllib.request.urlopen(f"http://127.0.0.1:{endpoints['port']}/metrics", timeout=60) as answer:
                assert answer.status == 200
                assert answer.headers["Content-Type"].startswith("text/plain; version=0.0.4")
                text = answer.read().decode()
            samples: Samples = {}
            for family in text_string_to_metric_families(text):
                for s in family.samples:
                    samples.setdefault(s.name, []).append((s.labels, s.value))
            return samples

        run("QM2", "DEFINE QLOCAL(APP.HTTP)\n")
        first = scrape_http()
        assert value(first, "ibmmq_qmgr_status", qmgr="QM1") == C.MQQMSTA_RUNNING
        assert value(first, "ibmmq_queue_depth", qmgr="QM2", queue="APP.HTTP") == 0
        assert value(first, "ibmmq_queue_mqput_mqput1_count_total", qmgr="QM2", queue="APP.HTTP") == 0
        with mqlite.connect("QM2") as qm, mqlite.Queue(qm, "APP.HTTP") as q:
            q.put(b"scraped")
        second = scrape_http()
        assert value(second, "ibmmq_queue_mqput_mqput1_count_total", qmgr="QM2", queue="APP.HTTP") == 1
        assert value(second, "ibmmq_queue_depth", qmgr="QM2", queue="APP.HTTP") == 1
    finally:
        os.kill(pid, signal.SIGTERM)
        wait_until(lambda: not process_alive(pid), "the web server has ended")


def test_a_restarted_queue_manager_is_scraped_at_once(installation: tuple[dict[str, QMgr], RunCli]) -> None:
    """The collector keeps its connections; the first scrape after a restart connects again."""
    _, run_cli = installation
    collector = Collector(qmgrs=lambda: ["QM2"])
    try:
        assert value(scrape(collector), "ibmmq_qmgr_status", qmgr="QM2") == C.MQQMSTA_RUNNING
        assert run_cli("endmqm", "QM2").returncode == 0
        assert value(scrape(collector), "ibmmq_qmgr_status", qmgr="QM2") == 0
        assert run_cli("strmqm", "QM2").returncode == 0
        assert value(scrape(collector), "ibmmq_qmgr_status", qmgr="QM2") == C.MQQMSTA_RUNNING
        assert run_cli("endmqm", "QM2").returncode == 0
        assert run_cli("strmqm", "QM2").returncode == 0
        assert value(scrape(collector), "ibmmq_qmgr_status", qmgr="QM2") == C.MQQMSTA_RUNNING  # the kept one failed
    finally:
        collector.close()
