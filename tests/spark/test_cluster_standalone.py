"""The cluster read on a Spark standalone cluster (issue 16 item 5): a master and two workers
started here from the installed PySpark (``bin/spark-class``, ports bound to 0 and read from
their logs), the driver a process of its own (``cluster_driver.py``), each executor a JVM its
worker starts. The job reads a cluster queue's two instances, in a batch and as a stream run
twice, and every message arrives exactly once. Slow (a minute or two: five JVMs on two cores), so
not part of ``make test``; it ends only the processes it started, by pid."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from spark_cluster import Cluster, running_cluster

from helpers.credentials import APP
from helpers.waiting import wait_until
from mqlite.spark.local import lean_spark_home

pytestmark = pytest.mark.slow

DRIVER = Path(__file__).with_name("cluster_driver.py")
# The daemons' own lines that say where they listen, and warnings; the executors' task lines.
LOG4J2 = """\
rootLogger.level = warn
rootLogger.appenderRef.stderr.ref = console
appender.console.type = Console
appender.console.name = console
appender.console.target = SYSTEM_ERR
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = %d{HH:mm:ss} %p %c{1}: %m%n%ex
logger.master.name = org.apache.spark.deploy.master.Master
logger.master.level = info
logger.worker.name = org.apache.spark.deploy.worker.Worker
logger.worker.level = info
logger.executor.name = org.apache.spark.executor.Executor
logger.executor.level = info
"""


@dataclass
class Standalone:
    """A running master (``url``) and workers, their logs and work directories."""

    url: str
    processes: list[subprocess.Popen[bytes]]
    work_dirs: list[Path]
    env: dict[str, str]


def stop(process: subprocess.Popen[bytes]) -> None:
    """End one daemon this test started: SIGTERM (a worker then ends its executors), SIGKILL
    if it is still there after 30 s."""
    if process.poll() is None:
        os.kill(process.pid, signal.SIGTERM)
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            os.kill(process.pid, signal.SIGKILL)
            process.wait(10)


@pytest.fixture(scope="module")
def standalone(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Standalone]:
    home = lean_spark_home()
    assert home is not None, "PySpark is not a pip install with its jars"
    root = tmp_path_factory.mktemp("spark-standalone")
    (root / "conf").mkdir()
    (root / "conf" / "log4j2.properties").write_text(LOG4J2)
    env = {**os.environ, "SPARK_HOME": str(home), "SPARK_CONF_DIR": str(root / "conf"), "SPARK_LOCAL_IP": "127.0.0.1",
           "SPARK_DAEMON_MEMORY": "512m", "PYSPARK_PYTHON": sys.executable}
    spark_class = str(home / "bin" / "spark-class")  # execs java: its pid is the daemon's
    processes: list[subprocess.Popen[bytes]] = []

    def start(args: list[str], log: Path) -> None:
        with log.open("wb") as out:
            processes.append(subprocess.Popen([spark_class, *args], stdout=out, stderr=subprocess.STDOUT, env=env,
                                              stdin=subprocess.DEVNULL))

    try:
        master_log = root / "master.log"
        start(["org.apache.spark.deploy.master.Master", "--host", "127.0.0.1", "--port", "0", "--webui-port", "0"],
              master_log)
        found = wait_until(lambda: re.search(r"Starting Spark master at (spark://\S+)", master_log.read_text()),
                           "the master listens", timeout=120, interval=0.2)
        url = found[1]
        work_dirs = []
        for n in (1, 2):
            work_dirs.append(root / f"worker{n}")
            work_dirs[-1].mkdir()
            start(["org.apache.spark.deploy.worker.Worker", "--host", "127.0.0.1", "--port", "0", "--webui-port", "0",
                   "--cores", "1", "--memory", "1g", "--work-dir", str(work_dirs[-1]), url], root / f"worker{n}.log")
        wait_until(lambda: master_log.read_text().count("Registering worker") == 2, "both workers registered",
                   timeout=120, interval=0.2)
        yield Standalone(url, processes, work_dirs, env)
    finally:
        for process in reversed(processes):  # the workers first, then the master
            stop(process)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    home = tmp_path_factory.mktemp("standalone-mq") / "mqhome"
    home.mkdir()
    with running_cluster(home) as running:
        yield running


@pytest.mark.timeout(900)
def test_a_spark_standalone_job_over_two_instances_reads_every_message_exactly_once(
        standalone: Standalone, cluster: Cluster, tmp_path: Path) -> None:
    queue = "CL.STANDALONE"
    cluster.define_queue(queue)
    cluster.put("QMA", queue, (f"m{i}" for i in range(60)))
    cluster.put("QMB", queue, (f"m{i}" for i in range(60, 100)))
    config = {"master": standalone.url, "options": cluster.options(queue), "out": str(tmp_path / "out"),
              "checkpoint": str(tmp_path / "checkpoint"), "user": APP.user, "password": APP.password,
              "ports": {name: cluster.port(name) for name in ("QMA", "QMB")}}
    done = subprocess.run([sys.executable, str(DRIVER), json.dumps(config)], capture_output=True, text=True,
                          timeout=600, env=standalone.env, cwd=tmp_path)
    lines = [line for line in done.stdout.splitlines() if line.startswith("RESULT ")]
    assert done.returncode == 0 and lines, done.stdout[-3000:] + done.stderr[:6000]
    result = json.loads(lines[-1].removeprefix("RESULT "))
    assert result["master"] == standalone.url and result["executors"] == 2

    first = {f"m{i}": "QMA" for i in range(60)} | {f"m{i}": "QMB" for i in range(60, 100)}
    assert sorted(result["batch"]) == sorted([text, qmgr] for text, qmgr in first.items())  # browsed, each once
    later = {f"n{i}": "QMA" for i in range(20)} | {f"n{i}": "QMB" for i in range(20, 50)}
    stream = {text: qmgr for text, qmgr, _ in result["stream"]}
    assert len(stream) == len(result["stream"]) == 150  # no message twice...
    assert stream == first | later  # ...none lost, each from its own instance
    assert len({msg_id for _, _, msg_id in result["stream"]}) == 150
    # What Spark committed is gone from the instances; the second run's last micro-batch waits for
    # the next run's commit (NOTES.md), so at most the 50 messages of that run are left.
    assert cluster.depth("QMA", queue) + cluster.depth("QMB", queue) <= 50
    for name, first_run in (("QMA", 60), ("QMB", 40)):
        with cluster.connect(name) as qm:
            assert qm.queue_offsets(queue)[0] >= first_run

    # Each worker ran an executor of the job in a JVM of its own, and both executors ran tasks.
    logs = [next(work_dir.glob("app-*/*/stderr")) for work_dir in standalone.work_dirs]
    assert logs[0].parent != logs[1].parent
    for log in logs:
        text = log.read_text()
        assert "CoarseGrainedExecutorBackend" in text and "Running task" in text, text[-2000:]
