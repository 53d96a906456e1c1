"""IBM's event messages beyond authority events (those are ``core.security.events``): performance
events (Queue Depth High, Low, Full: ``performance``), channel events (Channel Started, Stopped,
Stopped By User: ``channel``) and configuration events (Create, Change, Delete, Refresh object:
``config``). Each module's rules are pure functions (when an event fires, what it carries); the
small services beside them put the messages on the SYSTEM.ADMIN.*.EVENT queues.
"""
