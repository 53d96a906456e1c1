"""``mqlite.web.metrics``'s pure parts: the text format (read back by prometheus_client's parser),
runmqsc's output read into records, IBM's monitored-object patterns."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from mqlite.web.metrics import FAMILIES, Family, _generic_match, parse_interval, parse_selector, render
from mqlite.web.mqsc_text import records_by_command


def test_render_is_what_prometheus_reads() -> None:
    depth = Family("ibmmq_queue_depth", "Queue depth")
    depth.add({"qmgr": "QM1", "queue": "APP.1", "description": 'a "quoted"\\ (x)\nline'}, 3)
    depth.add({"qmgr": "QM1", "queue": "APP.2", "description": ""}, 0)
    puts = Family("ibmmq_queue_mqput_mqput1_count", "Put/Put1 Count", "counter")
    puts.add({"qmgr": "QM1", "queue": "APP.1"}, 12)
    latency = Family("mqlite_store_commit_seconds", "COMMIT time\nper commit", "summary")
    latency.add({"qmgr": "QM1"}, 0.25, "_sum")
    latency.add({"qmgr": "QM1"}, 4, "_count")
    odd = Family("mqlite_odd", "no labels")
    odd.add({}, math.inf)
    odd.add({"x": "y"}, 1.5)
    empty = Family("ibmmq_channel_status", "Channel Status")
    text = render([depth, puts, latency, odd, empty])
    assert "ibmmq_queue_mqput_mqput1_count{qmgr=\"QM1\",queue=\"APP.1\"} 12\n" in text  # IBM's name, no _total
    assert "# TYPE ibmmq_queue_mqput_mqput1_count counter" in text
    families = {f.name: f for f in text_string_to_metric_families(text)}
    assert set(families) == {"ibmmq_queue_depth", "ibmmq_queue_mqput_mqput1_count", "mqlite_store_commit_seconds",
                             "mqlite_odd", "ibmmq_channel_status"}
    samples = families["ibmmq_queue_depth"].samples
    assert [(s.labels["queue"], s.labels["description"], s.value) for s in samples] == [
        ("APP.1", 'a "quoted"\\ (x)\nline', 3), ("APP.2", "", 0)]
    assert families["ibmmq_queue_mqput_mqput1_count"].type == "counter"
    assert families["ibmmq_queue_mqput_mqput1_count"].samples[0].value == 12
    summary = families["mqlite_store_commit_seconds"]
    assert summary.type == "summary" and summary.documentation == "COMMIT time\nper commit"
    assert {s.name: s.value for s in summary.samples} == {"mqlite_store_commit_seconds_sum": 0.25,
                                                         "mqlite_store_commit_seconds_count": 4}
    assert [s.value for s in families["mqlite_odd"].samples] == [math.inf, 1.5]
    assert families["ibmmq_channel_status"].samples == []


RUNMQSC = """\
     1 : DISPLAY QLOCAL(*) CURDEPTH DESCR
AMQ8409I: Display Queue details.
   QUEUE(APP.1)                            TYPE(QLOCAL)
   CURDEPTH(2)                             DESCR(to b (x))
AMQ8409I: Display Queue details.
   QUEUE(SYSTEM.DEAD.LETTER.QUEUE)         TYPE(QLOCAL)
   DESCR(WebSphere MQ Default Dead Letter Queue)
   CURDEPTH(0)                             NOTRIGGER
     2 : DISPLAY CHSTATUS(*) ALL
AMQ8420I: Channel Status not found.
     3 : DISPLAY CHSTATUS(*) ALL
AMQ8417I: Display Channel Status details.
   CHANNEL(QA.QB)                          CHLTYPE(SDR)
   CONNAME(127.0.0.1(35791))               SUBSTATE( )
3 MQSC commands read.
No commands have a syntax error.
One valid MQSC command could not be processed.
"""


def test_records_by_command_one_list_a_command() -> None:
    queues, missing, channels = records_by_command(RUNMQSC.splitlines())
    assert queues == [
        {"QUEUE": "APP.1", "TYPE": "QLOCAL", "CURDEPTH": "2", "DESCR": "to b (x)"},
        {"QUEUE": "SYSTEM.DEAD.LETTER.QUEUE", "TYPE": "QLOCAL", "DESCR": "WebSphere MQ Default Dead Letter Queue",
         "CURDEPTH": "0", "NOTRIGGER": ""}]
    assert missing == []
    assert channels == [{"CHANNEL": "QA.QB", "CHLTYPE": "SDR", "CONNAME": "127.0.0.1(35791)", "SUBSTATE": ""}]


def test_monitored_patterns_last_match_decides() -> None:
    patterns = ("*", "!SYSTEM.*", "!AMQ.*", "SYSTEM.DEAD.LETTER.QUEUE")
    assert _generic_match(patterns, "APP.1")
    assert not _generic_match(patterns, "SYSTEM.ADMIN.COMMAND.QUEUE")
    assert not _generic_match(patterns, "AMQ.5F3A")
    assert _generic_match(patterns, "SYSTEM.DEAD.LETTER.QUEUE")
    assert not _generic_match(("APP.*",), "OTHER")


def test_the_grafana_dashboard_asks_for_families_metrics_has() -> None:
    dashboard = json.loads((Path(__file__).parents[2] / "examples" / "grafana" / "mqlite-mq.json").read_text())
    exprs = [target["expr"] for panel in dashboard["panels"] for target in panel.get("targets", [])]
    exprs += [var["query"]["query"] for var in dashboard["templating"]["list"] if isinstance(var.get("query"), dict)]
    names = {name for expr in exprs for name in re.findall(r"\b(?:ibmmq|mqlite)_\w+", expr)}
    assert {"ibmmq_queue_depth", "ibmmq_queue_mqput_mqput1_count", "ibmmq_channel_status_squash"} <= names
    for name in names:
        assert name in FAMILIES or name.removesuffix("_sum").removesuffix("_count") in FAMILIES, name


def test_exporter_settings_are_read_as_ibm_writes_them() -> None:
    assert [parse_interval(t) for t in ("1h", "5m", "30s", "90", "0")] == [3600, 300, 30, 90, 0]
    with pytest.raises(ValueError, match="not a duration"):
        parse_interval("soon")
    assert parse_selector(" put, GET,put ") == ("PUT", "GET") and parse_selector("") == ()
    with pytest.raises(ValueError, match="STATS is not one of"):
        parse_selector("PUT,STATS")
