"""Queue service interval events (IBM's "Rules for queue service interval events"), pure.

The service timer:

- is reset to zero and restarted after an MQPUT to an empty queue, and after a get that leaves
  the queue not empty; a get that empties the queue puts it OFF;
- is not reset by an event ("the resetting of the timer does not depend on whether an event has
  been generated");
- at queue manager start is set to the start time if the queue is not empty.

The events, with QSVCIEV the switch (HIGH: High armed; OK: OK armed; NONE: neither):

- Queue Service Interval High (2226): QSVCIEV(HIGH) and the service time is greater than QSVCINT;
  generated "on, or before, the next MQPUT or get" (a put, a get, or the queue manager's tick);
  it switches QSVCIEV to OK;
- Queue Service Interval OK (2227): QSVCIEV(OK) and a get comes with the service time at most
  QSVCINT; it switches QSVCIEV to HIGH.

``step`` is the whole decision: the switch, the timer, what happened and when, in; the switch,
the timer and the event (if any), out.
"""

from __future__ import annotations

from typing import NamedTuple

from mqlite import cmqc as C

OFF = -1.0  # the service timer's start while it is off
PUT, GET, TICK = "put", "get", "tick"
HIGH, OK, NONE = "HIGH", "OK", "NONE"
REASONS = {HIGH: C.MQRC_Q_SERVICE_INTERVAL_HIGH, OK: C.MQRC_Q_SERVICE_INTERVAL_OK}


class Step(NamedTuple):
    setting: str  # QSVCIEV afterwards
    start: float  # the service timer's start afterwards (OFF: off)
    event: str | None  # HIGH, OK or None


def step(setting: str, start: float, what: str, now: float, interval: float, depth: int) -> Step:
    """One put, get or tick on a queue: ``setting`` is QSVCIEV, ``start`` the timer's start (OFF
    when off), ``interval`` QSVCINT in seconds, ``depth`` the queue's depth after the operation."""
    running = start != OFF
    event: str | None = None
    if running and setting == HIGH and now - start > interval:
        event, setting = HIGH, OK
    elif running and setting == OK and what == GET and now - start <= interval:
        event, setting = OK, HIGH
    if what == PUT and not running:
        start = now  # a put to an empty queue starts the timer
    elif what == GET:
        start = now if depth > 0 else OFF
    elif what == TICK and not running and depth > 0:
        start = now  # messages there at start: the timer runs from then
    return Step(setting, start, event)


def interval_seconds(qsvcint: object) -> float:
    """QSVCINT (milliseconds) in seconds."""
    return int(str(qsvcint)) / 1000.0
