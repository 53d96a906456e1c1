"""IBM MQ statistics (STATQ, STATMQI, STATCHL): monotonic counters in core (``counters``), read by
the statistics-message writer and the resource-monitoring publisher, each with its own snapshots."""
