"""mqlite.spark.local_session: the session Spark's Python workers can start quickly in."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

from mqlite.spark.local import lean_spark_home


def test_workers_import_the_installed_pyspark_not_the_zip(spark: Any) -> None:
    """A module imported from pyspark.zip is compiled from source in every new worker (no bytecode
    cache): the lean SPARK_HOME leaves the zip off the workers' path."""
    def origin(_: Any) -> str:
        import pyspark

        return str(pyspark.__file__)

    [path] = spark.sparkContext.parallelize([0], 1).map(origin).collect()
    assert ".zip" not in path and Path(path).exists()


def test_the_lean_spark_home_links_the_jars_and_leaves_out_python_lib(tmp_path: Path) -> None:
    home = lean_spark_home(tmp_path)
    assert home is not None and home.parent == tmp_path / "mqlite"
    assert (home / "jars").is_dir() and any((home / "jars").glob("spark-core*.jar"))
    assert (home / "bin" / "spark-submit").exists() and not (home / "python").exists()
    assert "rootLogger.level = warn" in (home / "conf" / "log4j2.properties").read_text()
    assert lean_spark_home(tmp_path) == home  # made once, found again


def test_format_mqlite_works_without_registering(qmgr: Any, tmp_path: Path) -> None:
    """Spark registers the ``DefaultSource`` of installed ``pyspark_*`` modules by itself: a plain
    session (no local_session, no register call) reads a queue with format("mqlite")."""
    import mqlite

    qm = mqlite.connect(qmgr.name)
    qm.mqsc("DEFINE QLOCAL(FOUND)")
    for i in range(3):
        mqlite.Queue(qm, "FOUND").put(f"m{i}")
    qm.disconnect()
    script = tmp_path / "plain_session.py"
    script.write_text(textwrap.dedent(f"""
        import os, sys
        os.environ["PYSPARK_PYTHON"] = sys.executable
        from pyspark.sql import SparkSession
        spark = SparkSession.builder.master("local[1]").config("spark.ui.enabled", "false").getOrCreate()
        df = (spark.read.format("mqlite").option("qmgr", {qmgr.name!r}).option("home", {str(qmgr.home)!r})
              .option("queue", "FOUND").load())
        print("texts", sorted(r.text for r in df.collect()))
        spark.stop()
    """))
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300)
    assert "texts ['m0', 'm1', 'm2']" in done.stdout, done.stderr[-2000:]
