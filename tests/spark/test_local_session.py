"""mqlite.spark.local_session: the session Spark's Python workers can start quickly in."""

from __future__ import annotations

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
    assert lean_spark_home(tmp_path) == home  # made once, found again
