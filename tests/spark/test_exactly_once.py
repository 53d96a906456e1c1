"""Exactly once through real Spark failures (issue 5): a task that fails midway and is retried,
and a micro-batch Spark replays after a crash between the sink's commit and its own commit log."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import mqlite


def dedupe_qmgr(qmgr_factory: Any, mqlite_home: Path, run_cli: Any, name: str) -> Any:
    """A queue manager whose duplicate window drops a MsgId seen in the last 10 minutes."""
    qmgr = qmgr_factory(name, port=False)
    assert run_cli("endmqm", name).returncode == 0
    (mqlite_home / "qmgrs" / name / "qm.ini").write_text("Mqlite:\n   DuplicateWindow=600\n")
    assert run_cli("strmqm", name).returncode == 0
    return qmgr


def test_a_task_failing_midway_is_retried_without_duplicates(qmgr_factory: Any, mqlite_home: Path, run_cli: Any,
                                                            tmp_path: Path) -> None:
    """Partition 1 fails at its 91st row on its first attempt, once its writer has begun putting
    the rows before it (the queue shows uncommitted messages; one core, so they are partition 1's).
    Spark ends the writer's input as if the partition were complete (the Python writer cannot
    tell), so the first attempt commits the rows that reached it (10-row Arrow batches of 2 KB,
    past the workers' 64 KB output buffers); the retry sends those rows again with the same MsgIds
    (same query, batch, partition and row), and the duplicate window drops them: every row once.
    The retry counts what the first attempt committed, so the test knows there was something to
    drop (without the window: 400 + that many messages)."""
    qmgr = dedupe_qmgr(qmgr_factory, mqlite_home, run_cli, "QMRETRY")
    qm = mqlite.connect(qmgr.name)
    qm.mqsc("DEFINE QLOCAL(RETRIED.OUT) MAXDEPTH(10000)")
    script = tmp_path / "flaky_job.py"
    script.write_text(textwrap.dedent(f"""
        import sys
        import time

        import mqlite
        from pyspark import TaskContext
        from pyspark.sql import functions as F
        from mqlite.spark import local_session

        spark = local_session("flaky", cores=1, task_attempts=2,
                              config={{"spark.sql.execution.arrow.maxRecordsPerBatch": "10"}})

        def putting() -> bool:
            with mqlite.connect({qmgr.name!r}) as qm:
                _, lines = qm.mqsc("DISPLAY QSTATUS(RETRIED.OUT) UNCOM")
            return not any("UNCOM(NO)" in line for line in lines)

        def committed_of_partition_1() -> int:
            with mqlite.connect({qmgr.name!r}) as qm:
                bodies = [bytes(m).rstrip(b".") for m in mqlite.Queue(qm, "RETRIED.OUT").browse()]
            return sum(1 for body in bodies if 100 <= int(body[1:]) < 200)

        @F.udf("binary", useArrow=True)
        def flaky(n):
            context = TaskContext.get()
            if context.partitionId() == 1 and context.attemptNumber() == 1 and n == 100:
                print(f"first attempt committed {{committed_of_partition_1()}}", file=sys.stderr)
            if context.partitionId() == 1 and context.attemptNumber() == 0 and n == 190:
                deadline = time.monotonic() + 120
                while not putting() and time.monotonic() < deadline:
                    time.sleep(0.05)
                raise RuntimeError("injected failure")
            return f"m{{n}}".encode().ljust(2048, b".")

        rows = spark.range(0, 400, 1, 4).select(flaky("id").alias("body"))
        (rows.write.format("mqlite").option("qmgr", {qmgr.name!r}).option("home", {str(qmgr.home)!r})
             .option("queue", "RETRIED.OUT").mode("append").save())
        print("written")
    """))
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300)
    assert "written" in done.stdout, done.stderr[-3000:]
    assert "injected failure" in done.stderr  # the first attempt did fail
    committed = re.search(r"first attempt committed (\d+)", done.stderr)
    assert committed and int(committed[1]) > 0, done.stderr[-3000:]  # the retry had rows to send again
    bodies = [bytes(m).rstrip(b".") for m in mqlite.Queue(qm, "RETRIED.OUT").messages(wait=0)]
    assert sorted(bodies) == sorted(f"m{n}".encode() for n in range(400))
    qm.disconnect()


def test_a_replayed_micro_batch_is_dropped_by_the_duplicate_window(
        spark: Any, qmgr_factory: Any, mqlite_home: Path, run_cli: Any, tmp_path: Path) -> None:
    """The sink committed batch 0 but Spark died before writing commits/0: on restart Spark runs
    batch 0 again from its offset log (same query id, batch id and rows), so every MsgId repeats
    and the queue manager's duplicate window drops them all."""
    qmgr = dedupe_qmgr(qmgr_factory, mqlite_home, run_cli, "QMREPLAY")
    qm = mqlite.connect(qmgr.name)
    qm.mqsc("DEFINE QLOCAL(REPLAY.IN) MAXDEPTH(10000)\nDEFINE QLOCAL(REPLAY.OUT) MAXDEPTH(10000)")
    source = mqlite.Queue(qm, "REPLAY.IN")
    for i in range(40):
        source.put(f"r{i}")
    options = {"qmgr": qmgr.name, "home": str(qmgr.home)}
    checkpoint = tmp_path / "checkpoint"

    def run() -> None:
        query = (spark.readStream.format("mqlite").options(**options).option("queue", "REPLAY.IN")
                 .option("partitionSize", "15").load().select("body").writeStream.format("mqlite")
                 .options(**options).option("queue", "REPLAY.OUT").option("checkpointLocation", str(checkpoint))
                 .trigger(availableNow=True).start())
        query.awaitTermination(120)
        assert query.exception() is None, query.exception()

    run()
    out = mqlite.Queue(qm, "REPLAY.OUT")
    assert out.depth == 40
    commit = checkpoint / "commits" / "0"
    assert commit.exists()
    commit.unlink()  # the crash: Spark never recorded that batch 0 was done
    (checkpoint / "commits" / ".0.crc").unlink(missing_ok=True)
    run()
    assert commit.exists()  # batch 0 ran again...
    assert out.depth == 40  # ...and its 40 repeated MsgIds were dropped
    got = [out.get() for _ in range(40)]
    assert sorted(m.text for m in got) == sorted(f"r{i}" for i in range(40))
    qm.disconnect()
