"""PySpark data source for mqlite: ``spark.dataSource.register(mqlite.spark.MQDataSource)``.

Importing this module needs PySpark (``pip install mqlite[spark]``; ``make install`` has it).
"""

from mqlite.spark.datasource import MQDataSource
from mqlite.spark.local import local_session

__all__ = ["MQDataSource", "local_session"]
