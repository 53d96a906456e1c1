"""The client: blocking and asyncio connections, pymqi's API and the Pythonic layer.

``mqlite.client.public`` lists what the top-level package re-exports.
"""

from mqlite.client.public import *  # noqa: F403
from mqlite.client.public import __all__ as __all__
