"""PySpark data source for mqlite: ``spark.dataSource.register(mqlite.spark.MQDataSource)``.

Importing this module needs PySpark (``pip install mqlite[spark]``; ``make install`` has it).
"""

from mqlite.spark.datasource import MQDataSource

__all__ = ["MQDataSource"]
