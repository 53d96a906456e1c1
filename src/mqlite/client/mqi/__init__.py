"""The client's MQI calls, each written once, without I/O.

Each call is a plan (see ``mqlite.client.session``): a generator that yields the requests and
frames it needs and returns the call's result. ``QueueManagerCore``, ``QueueCore`` and the
publish/subscribe cores hold the state of pymqi's objects (handles, read-ahead buffers, the
object descriptor); the blocking classes (``pymqi_api``, ``pubsub``) and the asyncio ones
(``aio``) inherit them and only run their plans on their kind of connection.
"""
