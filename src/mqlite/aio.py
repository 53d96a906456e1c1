"""asyncio variants of the Pythonic API: ``qm = await mqlite.aio.connect("QM1")``.

``Queue(qm, "APP.IN")`` has awaitable ``put``/``get``/``close``/``inquire``/``set``, ``async for``
over messages and ``browse()``; ``Topic(qm, topic_string=...)`` awaits ``pub``;
``Subscription(qm, "price/#", ...)`` subscribes on first use and awaits ``get``. Every class is
an async context manager. Structures (``MD``, ``GMO``, ``PMO``...) and ``MQMIError`` are the
blocking client's.
"""

from mqlite.client.aio import AsyncConnection, Queue, QueueManager, Subscription, Topic, connect
from mqlite.client.common import ReceivedMessage
from mqlite.client.errors import MQMIError

__all__ = [
    "AsyncConnection", "MQMIError", "Queue", "QueueManager", "ReceivedMessage", "Subscription", "Topic", "connect",
]
