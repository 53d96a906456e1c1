"""Queue managers linked, by subsystem: ``channels`` (message channels' decisions and sync
records), ``clusters`` (repositories, cluster queues, the workload algorithm), ``pubsub``
(distributed publish/subscribe: hierarchies, proxy subscriptions, publish/subscribe clusters) and
``routes`` (TIBCO EMS-style routes). No sockets here: the server's agents carry them out."""
