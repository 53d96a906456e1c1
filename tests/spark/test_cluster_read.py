"""Spark reading a cluster queue from every instance (issue 16 item 5), through real PySpark
(local[2]) and a real cluster: QMA and QMB (partial repositories) host the instances, the job
connects to FR1 (the full repository) and discovers them there. Batch reads browse every
instance, one or more partitions each; a stream reads every message exactly once across
restarts, with an instance's queue manager ended and restarted (on a new port) in between, and
a micro-batch replayed after a crash reads the same messages again."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from spark_cluster import ENTRY, Cluster, running_cluster

from helpers.credentials import APP
from helpers.waiting import wait_until


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    home = tmp_path_factory.mktemp("spark-cluster") / "mqhome"
    home.mkdir()
    with running_cluster(home) as running:
        yield running


def test_batch_read_sees_every_message_of_both_instances_once(spark: Any, cluster: Cluster) -> None:
    cluster.define_queue("CL.ORDERS")
    cluster.put("QMA", "CL.ORDERS", (f"o{i}" for i in range(30)))
    cluster.put("QMB", "CL.ORDERS", (f"o{i}" for i in range(30, 50)))
    df = spark.read.format("mqlite").options(**cluster.options("CL.ORDERS")).option("partitionSize", "8").load()
    assert df.rdd.getNumPartitions() == 4 + 3  # 30 and 20 sequence numbers, 8 a partition, per instance
    rows = df.select("text", "qmgr").collect()
    assert sorted(int(r.text[1:]) for r in rows) == list(range(50))
    assert {r.text for r in rows if r.qmgr == "QMA"} == {f"o{i}" for i in range(30)}
    assert {r.text for r in rows if r.qmgr == "QMB"} == {f"o{i}" for i in range(30, 50)}
    assert (cluster.depth("QMA", "CL.ORDERS"), cluster.depth("QMB", "CL.ORDERS")) == (30, 20)  # browsed
    named = spark.read.format("mqlite").options(**cluster.options("CL.ORDERS")).option("cluster", "SPARKDEMO")
    assert named.schema("qmgr string").load().count() == 50  # the cluster named: the same instances
    # Without the option, a queue manager hosting an instance reads its own, as before.
    own = (spark.read.format("mqlite").option("host", "127.0.0.1").option("port", str(cluster.port("QMA")))
           .option("qmgr", "QMA").option("user", APP.user).option("password", APP.password)
           .option("queue", "CL.ORDERS").load().select("qmgr").collect())
    assert len(own) == 30 and {r.qmgr for r in own} == {"QMA"}


def test_discovery_errors_say_what_is_wrong(spark: Any, cluster: Cluster) -> None:
    cluster.define_queue("CL.FOUND")
    options = cluster.options("CL.FOUND")
    other = spark.read.format("mqlite").options(**options).option("cluster", "OTHER").load()
    with pytest.raises(Exception, match=r"FR1 knows no instance of cluster queue CL\.FOUND in cluster OTHER"):
        other.collect()
    del options["adminUser"], options["adminPassword"]  # APP may not administer over TCP
    with pytest.raises(Exception, match="only an administrator may: give options 'adminUser'"):
        spark.read.format("mqlite").options(**options).load().collect()


def run_once(reader: Any, out: Path, checkpoint: Path) -> None:
    """One availableNow run of the query: everything available now, then stop."""
    query = (reader.load().writeStream.format("parquet").option("path", str(out))
             .option("checkpointLocation", str(checkpoint)).trigger(availableNow=True).start())
    query.awaitTermination(180)
    assert query.exception() is None, query.exception()


def read_out(spark: Any, out: Path) -> dict[str, str]:
    """text -> qmgr of every row written, checking that no text came twice."""
    rows = spark.read.parquet(str(out)).select("text", "qmgr", "msg_id").collect()
    assert len({bytes(r.msg_id) for r in rows}) == len(rows)
    texts = {r.text: r.qmgr for r in rows}
    assert len(texts) == len(rows), "a message was delivered twice"
    return texts


def expected(fr1: range, fr2: range) -> dict[str, str]:
    return {**{f"e{i}": "QMA" for i in fr1}, **{f"e{i}": "QMB" for i in fr2}}


def test_stream_over_two_instances_reads_every_message_exactly_once(spark: Any, cluster: Cluster,
                                                                    tmp_path: Path) -> None:
    """Several micro-batches a run (maxMessagesPerTrigger 20 shared by the instances, partitions
    of 7 sequence numbers), three restarts from the checkpoint: only new messages each time; QMB
    ended for one run (QMA is read meanwhile) and restarted on a new port (found at its new
    CONNAME); what Spark committed is removed from each instance."""
    queue = "CL.EVENTS"
    cluster.define_queue(queue)
    reader = (spark.readStream.format("mqlite").options(**cluster.options(queue))
              .option("maxMessagesPerTrigger", "20").option("partitionSize", "7"))
    out, checkpoint = tmp_path / "out", tmp_path / "checkpoint"
    cluster.put("QMA", queue, (f"e{i}" for i in range(40)))
    cluster.put("QMB", queue, (f"e{i}" for i in range(40, 65)))
    run_once(reader, out, checkpoint)
    assert read_out(spark, out) == expected(range(40), range(40, 65))
    batches = sorted((p for p in (checkpoint / "offsets").iterdir() if p.name.isdigit()), key=lambda p: int(p.name))
    ends = [json.loads(p.read_text().splitlines()[-1]) for p in batches]  # an offset per instance
    assert ends == [{"qmgrs": {"QMA": 10, "QMB": 10}}, {"qmgrs": {"QMA": 20, "QMB": 20}},
                    {"qmgrs": {"QMA": 35, "QMB": 25}}, {"qmgrs": {"QMA": 40, "QMB": 25}}]  # 20 a batch, shared

    cluster.put("QMA", queue, (f"e{i}" for i in range(65, 80)))
    cluster.put("QMB", queue, (f"e{i}" for i in range(80, 95)))
    run_once(reader, out, checkpoint)  # from the checkpoint: only the new ones
    assert read_out(spark, out) == expected(range(40), range(40, 65)) | expected(range(65, 80), range(80, 95))
    # Spark commits a run's last micro-batch when the next run plans its first (NOTES.md): the
    # first run's messages are gone from both instances, at most this run's 15 each wait.
    assert cluster.depth("QMA", queue) <= 15 and cluster.depth("QMB", queue) <= 15
    for name, first_run in (("QMA", 40), ("QMB", 25)):
        with cluster.connect(name) as qm:
            assert qm.queue_offsets(queue)[0] >= first_run

    old_conname = cluster.conname(ENTRY, "QMB")
    assert cluster.run_cli("endmqm", "-i", "QMB").returncode == 0
    cluster.put("QMA", queue, (f"e{i}" for i in range(95, 105)))
    run_once(reader, out, checkpoint)  # QMB out of reach: QMA's new messages all the same
    so_far = expected(range(40), range(40, 65)) | expected(range(65, 80), range(80, 95))
    so_far |= expected(range(95, 105), range(0))
    assert read_out(spark, out) == so_far

    assert cluster.run_cli("strmqm", "QMB").returncode == 0  # on a port the system picks anew
    new_conname = f"127.0.0.1({cluster.port('QMB')})"
    assert new_conname != old_conname
    wait_until(lambda: cluster.conname(ENTRY, "QMB") == new_conname, "FR1 knows QMB's new CONNAME", timeout=60)
    cluster.put("QMB", queue, (f"e{i}" for i in range(105, 115)))
    run_once(reader, out, checkpoint)
    assert read_out(spark, out) == so_far | expected(range(0), range(105, 115))
    # Everything committed is gone, QMB's left from before its end too; this run's last batch waits.
    assert cluster.depth("QMA", queue) == 0 and cluster.depth("QMB", queue) <= 10


def test_a_micro_batch_replayed_after_a_crash_reads_the_same_messages(spark: Any, cluster: Cluster,
                                                                      tmp_path: Path) -> None:
    """Spark logged batch 1's offsets (an end per instance) but died before committing it:
    restarted from the checkpoint it runs batch 1 again, which reads the same messages from each
    instance (the source removes only what Spark committed), and then only the new ones."""
    queue, seen, checkpoint = "CL.REPLAY", tmp_path / "seen", tmp_path / "checkpoint"
    cluster.define_queue(queue)
    seen.mkdir()
    cluster.put("QMA", queue, (f"r{i}" for i in range(12)))
    cluster.put("QMB", queue, (f"r{i}" for i in range(12, 20)))

    def record(df: Any, batch_id: int) -> None:
        rows = sorted(f"{r.text}@{r.qmgr}" for r in df.select("text", "qmgr").collect())
        (seen / f"{batch_id}-{uuid.uuid4().hex}.json").write_text(json.dumps(rows))

    def run() -> None:
        query = (spark.readStream.format("mqlite").options(**cluster.options(queue))
                 .option("maxMessagesPerTrigger", "10").load().writeStream.foreachBatch(record)
                 .option("checkpointLocation", str(checkpoint)).trigger(availableNow=True).start())
        query.awaitTermination(180)
        assert query.exception() is None, query.exception()

    run()  # batch 0: 5 + 5 sequence numbers, batch 1: the other 7 + 3
    (checkpoint / "commits" / "1").unlink()  # the crash: Spark never recorded that batch 1 was done
    (checkpoint / "commits" / ".1.crc").unlink(missing_ok=True)
    cluster.put("QMA", queue, (f"r{i}" for i in range(20, 26)))
    cluster.put("QMB", queue, (f"r{i}" for i in range(26, 30)))
    run()
    batches: dict[int, list[list[str]]] = {}
    for path in sorted(seen.iterdir()):
        batches.setdefault(int(path.name.split("-")[0]), []).append(json.loads(path.read_text()))
    assert sorted(batches) == [0, 1, 2] and len(batches[1]) == 2
    assert batches[1][0] == batches[1][1]  # the replay: the same messages
    delivered = [row for batch_id in (0, 1, 2) for row in batches[batch_id][0]]
    expected_rows = [f"r{i}@{'QMA' if i < 12 or 20 <= i < 26 else 'QMB'}" for i in range(30)]
    assert sorted(delivered) == sorted(expected_rows)  # each once, from its instance
