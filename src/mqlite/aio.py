"""asyncio variants of the Pythonic API: ``qm = await mqlite.aio.connect("QM1")``.

``Queue(qm, "APP.IN")`` has awaitable ``put``/``get``/``close``/``inquire``, ``async for``
over messages and ``browse()``, and both classes are async context managers. Structures
(``MD``, ``GMO``, ``PMO``...) and ``MQMIError`` are the blocking client's.
"""

from mqlite.client.aio import AsyncConnection, Queue, QueueManager, connect
from mqlite.client.common import ReceivedMessage
from mqlite.client.errors import MQMIError

__all__ = ["AsyncConnection", "MQMIError", "Queue", "QueueManager", "ReceivedMessage", "connect"]
