"""The parts of reading a cluster queue that need no queue manager nor Spark session: runmqsc's
DISPLAY output parsed, instances matched with their CONNAMEs, a micro-batch's budget shared
between instances, and the options checked."""

from __future__ import annotations

import pytest

from mqlite.spark.cluster import Instance, display_records, instances_from
from mqlite.spark.cluster_reader import InstanceRange, interleave, positions, share
from mqlite.spark.options import Options

QCLUSTER = """\
     1 : DISPLAY QCLUSTER('Q1') CLUSQMGR CLUSQT
AMQ8409I: Display Queue details.
   QUEUE(Q1)                               TYPE(QCLUSTER)
   CLUSQMGR(QM5)                           CLUSTER(DEMO)
   CLUSQT(QLOCAL)                          DESCR('it''s (here)')
AMQ8409I: Display Queue details.
   QUEUE(Q1)                               TYPE(QCLUSTER)
   CLUSQMGR(QM3)                           CLUSTER(DEMO)
   CLUSQT(QLOCAL)
AMQ8409I: Display Queue details.
   QUEUE(Q1)                               TYPE(QCLUSTER)
   CLUSQMGR(QM4)                           CLUSTER(DEMO)
   CLUSQT(QALIAS)
AMQ8409I: Display Queue details.
   QUEUE(Q1)                               TYPE(QCLUSTER)
   CLUSQMGR(QM6)                           CLUSTER(OTHER)
   CLUSQT(QLOCAL)
1 MQSC commands read.
No commands have a syntax error.
All valid MQSC commands were processed.""".splitlines()

CLUSQMGR = """\
     1 : DISPLAY CLUSQMGR(*) CONNAME
AMQ8441I: Display Cluster Queue Manager details.
   CLUSQMGR(QM3)                           CHANNEL(DEMO.QM3)
   CLUSTER(DEMO)                           CONNAME(127.0.0.1(40001))
AMQ8441I: Display Cluster Queue Manager details.
   CLUSQMGR(QM5)                           CHANNEL(DEMO.QM5)
   CLUSTER(DEMO)                           CONNAME(host-a(1414),host-b(1414))
AMQ8441I: Display Cluster Queue Manager details.
   CLUSQMGR(QM6)                           CHANNEL(OTHER.QM6)
   CLUSTER(OTHER)                          CONNAME(10.0.0.6(1414))
AMQ8441I: Display Cluster Queue Manager details.
   CLUSQMGR(SYSTEM.TEMPQMGR.127.0.0.1(9))  CHANNEL(DEMO.FR9)
   CLUSTER(DEMO)                           CONNAME(127.0.0.1(9))
1 MQSC commands read.""".splitlines()


def test_display_output_becomes_one_record_per_object() -> None:
    records = display_records(QCLUSTER)
    assert len(records) == 4
    assert records[0] == {"QUEUE": "Q1", "TYPE": "QCLUSTER", "CLUSQMGR": "QM5", "CLUSTER": "DEMO",
                          "CLUSQT": "QLOCAL", "DESCR": "it's (here)"}
    members = display_records(CLUSQMGR)
    assert members[1]["CONNAME"] == "host-a(1414),host-b(1414)"
    assert members[3]["CLUSQMGR"] == "SYSTEM.TEMPQMGR.127.0.0.1(9)"
    assert display_records(["AMQ8147E: WebSphere MQ object Q1 not found."]) == []


def test_instances_are_local_queues_with_their_connames_sorted_by_queue_manager() -> None:
    queues, members = display_records(QCLUSTER), display_records(CLUSQMGR)
    assert instances_from(queues, members) == [Instance("QM3", "127.0.0.1(40001)"),
                                               Instance("QM5", "host-a(1414),host-b(1414)"),
                                               Instance("QM6", "10.0.0.6(1414)")]
    assert [i.qmgr for i in instances_from(queues, members, "DEMO")] == ["QM3", "QM5"]  # QM4's is an alias
    assert instances_from(queues, members, "NONE") == []
    with pytest.raises(ValueError, match="QM5 hosts an instance of Q1 but its CONNAME is not known"):
        instances_from(queues, [m for m in members if m["CLUSQMGR"] != "QM5"], "DEMO")


def test_a_micro_batch_budget_is_shared_between_the_instances() -> None:
    assert share({"A": 0, "B": 0}, {"A": 40, "B": 25}, 20) == {"A": 10, "B": 10}
    assert share({"A": 20, "B": 20}, {"A": 40, "B": 25}, 20) == {"A": 35, "B": 25}  # B's leftover goes to A
    assert share({"A": 5, "B": 7}, {"A": 5, "B": 9}, 100) == {"A": 5, "B": 9}
    assert share({"A": 0, "B": 0, "C": 0}, {"A": 9, "B": 9, "C": 9}, 2) == {"A": 1, "B": 1, "C": 0}


def test_offsets_of_another_kind_of_stream_are_refused() -> None:
    assert positions({"qmgrs": {"QM3": "12"}}) == {"QM3": 12}
    with pytest.raises(ValueError, match="without option 'cluster'"):
        positions({"seq": 4})


@pytest.mark.parametrize(("value", "parsed"), [("true", ""), ("YES", ""), ("DEMO", "DEMO"), ("false", None),
                                               (None, None)])
def test_option_cluster(value: str | None, parsed: str | None) -> None:
    options = {"qmgr": "QM1", "queue": "Q1", **({"cluster": value} if value is not None else {})}
    assert Options.parse(options).cluster == parsed


def test_option_cluster_reads_queues_only() -> None:
    with pytest.raises(ValueError, match="reads a cluster queue"):
        Options.parse({"qmgr": "QM1", "topic": "t/#", "cluster": "true"})
    with pytest.raises(ValueError, match="reads a cluster queue"):
        Options.parse({"qmgr": "QM1", "queue": "Q1", "cluster": "true"}, writing=True)


def test_partitions_take_the_instances_in_turn() -> None:
    """Spark runs tasks in partition order: QMA's and QMB's alternate, so two cores read two
    queue managers at once (not every QMA range first)."""
    qma = [InstanceRange("QMA", "a(1)", after, through) for after, through in ((0, 10), (10, 20), (20, 25))]
    qmb = [InstanceRange("QMB", "b(1)", 0, 10)]
    assert [(p.qmgr, p.after) for p in interleave([qma, qmb])] == [("QMA", 0), ("QMB", 0), ("QMA", 10), ("QMA", 20)]
    assert interleave([]) == []
