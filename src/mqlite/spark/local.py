"""A local SparkSession set up for mqlite: ``mqlite.spark.local_session("my-job")``.

Two things a pip-installed PySpark gets wrong for local work, fixed here:

- Spark's Python workers must run the driver's interpreter (``PYSPARK_PYTHON``), or streaming
  queries fail with "Python worker failed to connect back".
- Spark puts ``$SPARK_HOME/python/lib/pyspark.zip`` first on the workers' ``PYTHONPATH``. Modules
  imported from a zip are compiled from source every time (no bytecode cache), and each kind of
  worker (planning, streaming source, reader, writer) starts a fresh interpreter: about a second of
  CPU each, seconds per query. When ``SPARK_HOME`` is not set, the session gets a lean one: the
  pip package's ``bin`` and ``jars`` linked into a cache directory, without the zips, so workers
  import the installed (byte-compiled) PySpark instead. Its ``conf/log4j2.properties`` keeps
  warnings and leaves out the start-up chatter.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sys
from pathlib import Path
from typing import Any


def local_session(app_name: str, cores: int = 2, config: dict[str, str] | None = None,
                  log_level: str = "ERROR", task_attempts: int = 1) -> Any:
    """A ``local[cores]`` SparkSession with the mqlite data source registered; ``config`` adds
    Spark settings (``{"spark.sql.shuffle.partitions": "2"}``). Local mode runs a failed task
    once (``task_attempts=1``); more attempts retry it as a cluster would."""
    from pyspark.sql import SparkSession

    from mqlite.spark.datasource import MQDataSource

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    if "SPARK_HOME" not in os.environ:
        lean = lean_spark_home()
        if lean is not None:
            os.environ["SPARK_HOME"] = str(lean)
    builder = SparkSession.builder.master(f"local[{cores},{task_attempts}]").appName(app_name)
    builder = (builder.config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
               .config("spark.log.level", log_level))
    for key, value in (config or {}).items():
        builder = builder.config(key, value)
    session = builder.getOrCreate()
    session.sparkContext.setLogLevel(log_level)
    session.dataSource.register(MQDataSource)
    return session


def lean_spark_home(cache: Path | None = None) -> Path | None:
    """A SPARK_HOME of links to the pip-installed PySpark's ``bin``, ``sbin``, ``jars`` and
    ``conf``, without ``python/lib``; None when PySpark is not a pip install (it has no ``jars``)."""
    import pyspark

    package = Path(pyspark.__file__).resolve().parent
    if not (package / "jars").is_dir():
        return None
    root = (cache or Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))) / "mqlite"
    digest = hashlib.sha256(str(package).encode()).hexdigest()[:12]  # one per installation
    home = root / f"spark-home-{pyspark.__version__}-{digest}"
    home.mkdir(parents=True, exist_ok=True)
    for part in ("bin", "sbin", "jars", "conf"):
        target, link = package / part, home / part
        if target.exists() and not link.exists():
            with contextlib.suppress(FileExistsError):  # another process made it meanwhile
                link.symlink_to(target, target_is_directory=True)
    conf = home / "conf" / "log4j2.properties"
    if not (package / "conf").exists() and not conf.exists():
        conf.parent.mkdir(exist_ok=True)
        conf.write_text(_LOG4J2)
    return home


# Warnings and errors on stderr, without the start-up chatter of Spark's default profile
# (no native Hadoop library, loopback address) that says nothing about the job.
_LOG4J2 = """\
rootLogger.level = warn
rootLogger.appenderRef.stderr.ref = console
appender.console.type = Console
appender.console.name = console
appender.console.target = SYSTEM_ERR
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = %d{yy/MM/dd HH:mm:ss} %p %c{1}: %m%n%ex
logger.hadoop.name = org.apache.hadoop.util.NativeCodeLoader
logger.hadoop.level = error
logger.utils.name = org.apache.spark.util.Utils
logger.utils.level = error
"""
