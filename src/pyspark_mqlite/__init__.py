"""Spark finds Python data sources by themselves in top-level modules named ``pyspark_*`` that
define ``DefaultSource``: with mqlite installed, ``format("mqlite")`` works without
``spark.dataSource.register``."""

from mqlite.spark.datasource import MQDataSource as DefaultSource

__all__ = ["DefaultSource"]
