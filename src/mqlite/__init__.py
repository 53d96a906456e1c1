"""mqlite: IBM MQ semantics in Python.

``import mqlite`` gives pymqi's API (``connect``, ``QueueManager``, ``Queue``, ``MD``, ``GMO``,
``PMO``, ``OD``, ``MQMIError``, ``CMQC``...) plus a Pythonic layer, and ``mqlite.embedded`` to
run a queue manager inside the calling process. See the README and docs/ARCHITECTURE.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

# first: before anything imports a hot module, their extensions or their sources are chosen
from mqlite import hot_modules as _hot_modules  # noqa: F401
from mqlite.client.public import *  # noqa: F403 - the public client API is the package's API
from mqlite.client.public import __all__ as _client_all

if TYPE_CHECKING:
    from mqlite.server.embedded import embedded

__version__ = "0.1.0"
__all__ = [*_client_all, "embedded"]


def __getattr__(name: str) -> Any:
    # The server half (asyncio, the store) loads only when an application embeds a queue
    # manager, so `import mqlite` and every CLI command start without it.
    if name == "embedded":
        from mqlite.server.embedded import embedded

        return embedded
    raise AttributeError(f"module 'mqlite' has no attribute {name!r}")
