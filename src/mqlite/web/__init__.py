"""mqlite's web server (IBM's mqweb): the REST API with IBM MQ's v2 paths and JSON shapes.

An application of the client layer, beside ``cli`` and ``spark``: it reaches queue managers only
through ``mqlite.client`` (native client, ``PCFExecute``, ``QueueManager.mqsc``), never core,
server or store, so a burst of REST calls cannot stall message traffic. ``mqlite strmqweb`` runs
it as its own process (``python -m mqlite.web``); ``app.create_app`` builds the ASGI app.
"""
