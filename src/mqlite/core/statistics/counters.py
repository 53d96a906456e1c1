"""Monotonic statistics counters, hung where the MQI counts cheaply, read by any number of readers.

API (what a reader codes against):

- ``Statistics`` (one per queue manager: ``QueueManager.statistics``):
  - ``want_queue(name) -> QueueCounters | None`` / ``release_queue(name)``: a reader asks for (or
    gives up) a local queue's counters; collection is on while at least one reader wants it
    (None: no such local queue). Wants are counted: release once per want.
  - ``queue(name) -> QueueCounters | None``: the counters while collected, else None.
  - ``want_mqi() / release_mqi()`` and ``mqi -> MQICounters | None``: the queue manager's MQI counts.
  - ``want_channel(name) / release_channel(name)``, ``channel(name) -> ChannelCounters | None``.
- ``QueueCounters.snapshot(depth) -> QueueSnapshot`` (frozen dataclass of ints, the current depth
  beside them), ``MQICounters.snapshot() -> MQISnapshot``, ``ChannelCounters.snapshot() ->
  ChannelSnapshot``. Subtract two snapshots of one object (``later - earlier``) for an
  interval's counts. Counters never reset: each reader keeps its own previous snapshot.
- Min/max depth are not counts: a reader opens its own ``DepthWindow`` (``QueueCounters.window()``),
  updated at every put and get while collected, and ``take(depth)`` gives (min, max) and starts
  the window again at ``depth``. ``close_window(w)`` when done.

Pairs are [non-persistent, persistent] (IBM's lists of 2). Bytes are message data lengths.
Time on queue is the sum, in microseconds, of the time the got messages had waited
(``time_on_q``), with ``timed`` the count it covers: AvgTimeOnQ = time_on_q / timed per persistence.

Where the counts are taken: a put in ``mqput.Puts.put`` (after the message is on the queue), its
failure in ``mqi.Connections.put``; a get and a browse in ``mqget.Gets._try_get`` (waiting getters
too), their failures in ``mqget.Gets.get``; expiry in ``mqget``'s sweeps; purges at CLEAR QLOCAL.
The hot path pays one attribute read and ``is not None`` (``queue.watch.stats``): the counters hang
off the queue's ``DepthWatch`` (a 30th LocalQueue attribute would cost every put and get).
The MQI counters are counted at the server's request dispatch (``server.native.conversation``).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from mqlite import cmqc as C
from mqlite.message import put_hundredths

NP, P = 0, 1  # index of a pair: non-persistent, persistent


class DepthWindow:
    """One reader's lowest and highest depth since its last ``take``."""

    __slots__ = ("high", "low")

    def __init__(self, depth: int) -> None:
        self.low = self.high = depth

    def take(self, depth: int) -> tuple[int, int]:
        low, high = self.low, self.high
        self.low = self.high = depth
        return low, high


@dataclass(frozen=True)
class QueueSnapshot:
    puts: tuple[int, int]
    put1s: tuple[int, int]
    put_bytes: tuple[int, int]
    put_fails: int
    put1_fails: int
    gets: tuple[int, int]
    get_bytes: tuple[int, int]
    get_fails: int
    browses: tuple[int, int]
    browse_bytes: tuple[int, int]
    browse_fails: int
    expired: int
    purged: int
    not_queued: int
    time_on_q: tuple[int, int]  # microseconds, summed over the got messages
    timed: tuple[int, int]
    depth: int = 0  # the depth when taken (not subtracted)
    # the monitoring topics' STATQ OPENCLOSE and INQSET (no field of the statistics message),
    # and STATQ GET's failures with 2033 and 2080 apart
    opens: int = 0
    closes: int = 0
    inqs: int = 0
    sets: int = 0
    get_fails_no_msg: int = 0
    get_fails_truncated: int = 0
    browse_fails_no_msg: int = 0
    browse_fails_truncated: int = 0

    def __sub__(self, other: QueueSnapshot) -> QueueSnapshot:
        return _subtract(self, other, keep=("depth",))  # type: ignore[no-any-return]

    @property
    def active(self) -> bool:
        """Any put, get, browse, failure, expiry or purge in it (IBM writes no record for an idle queue)."""
        return any(sum(v) if isinstance(v, tuple) else v for k, v in dataclasses.asdict(self).items()
                   if k not in _NOT_ACTIVITY)


# What does not make a queue's interval active: its statistics message has no field for the
# opens, closes, inquires and sets (they are the monitoring topics'), nor for the depth or times.
_NOT_ACTIVITY = frozenset({"depth", "time_on_q", "timed", "opens", "closes", "inqs", "sets"})


def _subtract(a: Any, b: Any, keep: tuple[str, ...] = ()) -> Any:
    values: dict[str, Any] = {}
    for f in dataclasses.fields(a):
        x, y = getattr(a, f.name), getattr(b, f.name)
        if f.name in keep:
            values[f.name] = x
        elif isinstance(x, tuple):
            values[f.name] = tuple(i - j for i, j in zip(x, y, strict=True))
        else:
            values[f.name] = x - y
    return type(a)(**values)


class QueueCounters:
    """One local queue's STATQ counts (IBM's fields), monotonic."""

    __slots__ = (
        "browse_bytes",
        "browse_fails",
        "browse_fails_no_msg",
        "browse_fails_truncated",
        "browses",
        "closes",
        "expired",
        "get_bytes",
        "get_fails",
        "get_fails_no_msg",
        "get_fails_truncated",
        "gets",
        "inqs",
        "not_queued",
        "opens",
        "purged",
        "put1_fails",
        "put1s",
        "put_bytes",
        "put_fails",
        "puts",
        "sets",
        "time_on_q",
        "timed",
        "windows",
    )

    def __init__(self) -> None:
        self.puts = [0, 0]
        self.put1s = [0, 0]
        self.put_bytes = [0, 0]
        self.put_fails = 0
        self.put1_fails = 0
        self.gets = [0, 0]
        self.get_bytes = [0, 0]
        self.get_fails = 0
        self.browses = [0, 0]
        self.browse_bytes = [0, 0]
        self.browse_fails = 0
        self.expired = 0
        self.purged = 0
        self.not_queued = 0
        self.time_on_q = [0, 0]
        self.timed = [0, 0]
        self.opens = self.closes = self.inqs = self.sets = 0
        self.get_fails_no_msg = self.get_fails_truncated = 0
        self.browse_fails_no_msg = self.browse_fails_truncated = 0
        self.windows: list[DepthWindow] = []

    # -- counting (called only while collected) ----------------------------------------
    def put(self, persistent: bool, length: int, depth: int) -> None:
        i = P if persistent else NP
        self.puts[i] += 1
        self.put_bytes[i] += length
        for w in self.windows:
            if depth > w.high:
                w.high = depth

    def as_put1(self, persistent: bool) -> None:
        """The put just counted was an MQPUT1's (mqi.put1 says so after it)."""
        i = P if persistent else NP
        self.puts[i] -= 1
        self.put1s[i] += 1

    def got(self, persistent: bool, length: int, waited: float, depth: int) -> None:
        i = P if persistent else NP
        self.gets[i] += 1
        self.get_bytes[i] += length
        if waited >= 0:
            self.time_on_q[i] += int(waited * 1_000_000)
            self.timed[i] += 1
        for w in self.windows:
            if depth < w.low:
                w.low = depth

    def failed(self, browse: int, reason: int) -> None:
        """An MQGET (or browse) that failed with ``reason``: STATQ GET counts 2033 and 2080 apart."""
        if browse:
            self.browse_fails += 1
            if reason == C.MQRC_NO_MSG_AVAILABLE:
                self.browse_fails_no_msg += 1
            elif reason == C.MQRC_TRUNCATED_MSG_FAILED:
                self.browse_fails_truncated += 1
        else:
            self.get_fails += 1
            if reason == C.MQRC_NO_MSG_AVAILABLE:
                self.get_fails_no_msg += 1
            elif reason == C.MQRC_TRUNCATED_MSG_FAILED:
                self.get_fails_truncated += 1

    def browsed(self, persistent: bool, length: int) -> None:
        i = P if persistent else NP
        self.browses[i] += 1
        self.browse_bytes[i] += length

    # -- readers -----------------------------------------------------------------------
    def window(self, depth: int) -> DepthWindow:
        w = DepthWindow(depth)
        self.windows.append(w)
        return w

    def close_window(self, w: DepthWindow) -> None:
        if w in self.windows:
            self.windows.remove(w)

    def snapshot(self, depth: int = 0) -> QueueSnapshot:
        return QueueSnapshot(
            tuple(self.puts), tuple(self.put1s), tuple(self.put_bytes), self.put_fails,  # type: ignore[arg-type]
            self.put1_fails, tuple(self.gets), tuple(self.get_bytes), self.get_fails,  # type: ignore[arg-type]
            tuple(self.browses), tuple(self.browse_bytes), self.browse_fails,  # type: ignore[arg-type]
            self.expired, self.purged, self.not_queued, tuple(self.time_on_q), tuple(self.timed),  # type: ignore[arg-type]
            depth, self.opens, self.closes, self.inqs, self.sets, self.get_fails_no_msg, self.get_fails_truncated,
            self.browse_fails_no_msg, self.browse_fails_truncated)


# IBM's STATMQI counts: name -> how many values (1, or 2 for a persistence pair).
MQI_FIELDS: dict[str, int] = {
    "conns": 1, "conns_failed": 1, "conns_max": 1, "discs": 1,
    "opens": 1, "opens_failed": 1, "closes": 1, "closes_failed": 1,
    "inqs": 1, "inqs_failed": 1, "sets": 1, "sets_failed": 1,
    "puts": 2, "puts_failed": 1, "put1s": 2, "put1s_failed": 1, "put_bytes": 2,
    "gets": 2, "get_bytes": 2, "gets_failed": 1,
    "browses": 2, "browse_bytes": 2, "browses_failed": 1,
    "commits": 1, "commits_failed": 1, "backouts": 1,
    "subs": 1, "subs_failed": 1, "subrqs": 1, "subrqs_failed": 1,
    "cbs": 1, "cbs_failed": 1, "ctls": 1, "ctls_failed": 1, "stats": 1, "stats_failed": 1,
    "topic_puts": 2, "topic_puts_failed": 1, "topic_put_bytes": 2,
    "expired": 1, "purged": 1,
}


@dataclass(frozen=True)
class MQISnapshot:
    """The MQI counts at one moment: ``values[name]`` an int or a pair (``MQI_FIELDS``)."""

    values: tuple[tuple[str, int | tuple[int, int]], ...]

    def __getitem__(self, name: str) -> Any:
        return dict(self.values)[name]

    @property
    def active(self) -> bool:
        """Any MQI call counted (ConnsMax, a high-water mark, is no activity)."""
        return any((sum(v) if isinstance(v, tuple) else v) for k, v in self.values if k != "conns_max")

    def __sub__(self, other: MQISnapshot) -> MQISnapshot:
        before = dict(other.values)
        out: list[tuple[str, int | tuple[int, int]]] = []
        for name, value in self.values:
            old = before[name]
            if name == "conns_max":  # a high-water mark, not a count
                out.append((name, value))
            elif isinstance(value, tuple):
                assert isinstance(old, tuple)
                out.append((name, (value[0] - old[0], value[1] - old[1])))
            else:
                assert isinstance(old, int)
                out.append((name, value - old))
        return MQISnapshot(tuple(out))


_PERSISTENT = C.MQPER_PERSISTENT


class MQICounters:
    """The queue manager's STATMQI counts (IBM's fields), monotonic: ``counts[name]`` is an int
    list of one or two (``MQI_FIELDS``); ``count(name, persistent)`` adds one. An MQPUT's and a
    destructive MQGET's are counted as cheaply as Python allows, in plain attributes by persistence
    (no dict, no list, no call: the native conversation adds to them itself, as ``get`` does),
    added into Puts/PutBytes and Gets/GetBytes by ``snapshot``."""

    __slots__ = ("counts", "get_bytes_np", "get_bytes_p", "gets_np", "gets_p", "put_bytes_np", "put_bytes_p",
                 "puts_np", "puts_p")

    def __init__(self) -> None:
        self.counts: dict[str, list[int]] = {name: [0] * n for name, n in MQI_FIELDS.items()}
        self.puts_np = self.puts_p = self.put_bytes_np = self.put_bytes_p = 0
        self.gets_np = self.gets_p = self.get_bytes_np = self.get_bytes_p = 0

    def count(self, name: str, persistent: bool = False, length: int = 0, bytes_name: str = "") -> None:
        values = self.counts[name]
        values[1 if persistent and len(values) == 2 else 0] += 1
        if bytes_name:
            self.counts[bytes_name][1 if persistent else 0] += length

    def got(self, result: Any, browse: bool) -> None:
        """An MQGET's outcome: a ``GetResult`` counted by its message's persistence and length, an
        error (``MQError``) as a failed get or browse."""
        message = getattr(result, "message", None)
        if message is None:
            self.counts["browses_failed" if browse else "gets_failed"][0] += 1
        elif browse:
            i = 1 if message.md.Persistence == _PERSISTENT else 0
            self.counts["browses"][i] += 1
            self.counts["browse_bytes"][i] += result.data_length
        else:
            self.get(message.md.Persistence, result.data_length)

    def get(self, persistence: int, length: int) -> None:
        """A destructive MQGET that returned a message: its Persistence, its data length."""
        if persistence == _PERSISTENT:
            self.gets_p += 1
            self.get_bytes_p += length
        else:
            self.gets_np += 1
            self.get_bytes_np += length

    def connections(self, current: int) -> None:
        """Raise ConnsMax to ``current`` connections if it is above it."""
        mark = self.counts["conns_max"]
        if current > mark[0]:
            mark[0] = current

    def snapshot(self) -> MQISnapshot:
        tallied = {"puts": (self.puts_np, self.puts_p), "put_bytes": (self.put_bytes_np, self.put_bytes_p),
                   "gets": (self.gets_np, self.gets_p), "get_bytes": (self.get_bytes_np, self.get_bytes_p)}
        values: list[tuple[str, int | tuple[int, int]]] = []
        for name, v in self.counts.items():
            extra = tallied.get(name)
            if extra is not None:  # (PutBytes: MQPUT1's counted in ``counts`` too)
                values.append((name, (v[0] + extra[0], v[1] + extra[1])))
            else:
                values.append((name, v[0] if len(v) == 1 else (v[0], v[1])))
        return MQISnapshot(tuple(values))


@dataclass(frozen=True)
class ChannelSnapshot:
    msgs: int
    bytes: int
    full_batches: int
    incomplete_batches: int
    batch_msgs: int  # messages in the batches counted (AvgBatchSize = batch_msgs / batches)
    put_retries: int

    def __sub__(self, other: ChannelSnapshot) -> ChannelSnapshot:
        return _subtract(self, other)  # type: ignore[no-any-return]

    @property
    def active(self) -> bool:
        return bool(self.msgs or self.full_batches or self.incomplete_batches or self.put_retries)


class ChannelCounters:
    """One message channel's STATCHL counts (IBM's fields), monotonic."""

    __slots__ = ("batch_msgs", "bytes", "full_batches", "incomplete_batches", "msgs", "put_retries")

    def __init__(self) -> None:
        self.msgs = self.bytes = self.full_batches = self.incomplete_batches = 0
        self.batch_msgs = self.put_retries = 0

    def batch(self, messages: int, length: int, full: bool) -> None:
        """A committed batch of ``messages`` (``length`` bytes of message data)."""
        self.msgs += messages
        self.bytes += length
        self.batch_msgs += messages
        if full:
            self.full_batches += 1
        else:
            self.incomplete_batches += 1

    def snapshot(self) -> ChannelSnapshot:
        return ChannelSnapshot(self.msgs, self.bytes, self.full_batches, self.incomplete_batches,
                               self.batch_msgs, self.put_retries)


class Statistics:
    """Who wants which counters. A queue's counters live on ``queue.watch.stats`` while wanted
    (None otherwise: the hot path's test); released counters are kept on ``watch.kept_stats`` so
    a reader that wants them again finds them where they were (monotonic)."""

    def __init__(self, queues: dict[str, Any]) -> None:
        self.queues = queues  # name -> LocalQueue (ObjectDefinitions.queues, shared)
        self._queue_wants: dict[str, tuple[int, int]] = {}  # name -> (id of its LocalQueue, readers)
        self._mqi_wants = 0
        self.mqi: MQICounters | None = None
        self._mqi_kept: MQICounters | None = None
        self._channels: dict[str, ChannelCounters] = {}
        self._channel_wants: dict[str, int] = {}

    # -- queues ------------------------------------------------------------------------
    def want_queue(self, name: str) -> QueueCounters | None:
        """One more reader of local queue ``name``'s counters; None if there is no such queue. A
        queue deleted and defined again is a new queue: its wants are a reader's to make again
        (``queue`` says None for it until then)."""
        queue = self.queues.get(name)
        if queue is None:
            return None
        held, wants = self._queue_wants.get(name, (id(queue), 0))
        # A queue deleted and defined again is another object: the old one's wants do not carry over.
        self._queue_wants[name] = (id(queue), (wants if held == id(queue) else 0) + 1)
        watch = queue.watch
        if watch.stats is None:
            watch.stats = watch.kept_stats or QueueCounters()
        counters: QueueCounters = watch.stats
        return counters

    def release_queue(self, name: str) -> None:
        queue = self.queues.get(name)
        held, wants = self._queue_wants.get(name, (0, 0))
        if queue is None or held != id(queue):  # gone, or not the queue that was wanted
            if queue is None:
                self._queue_wants.pop(name, None)
            return
        if wants > 1:
            self._queue_wants[name] = (held, wants - 1)
            return
        self._queue_wants.pop(name, None)
        if queue.watch.stats is not None:
            queue.watch.kept_stats, queue.watch.stats = queue.watch.stats, None

    def queue(self, name: str) -> QueueCounters | None:
        """Queue ``name``'s counters while collected, else None."""
        queue = self.queues.get(name)
        counters: QueueCounters | None = None if queue is None else queue.watch.stats
        return counters

    def wanted_queues(self) -> list[str]:
        return list(self._queue_wants)

    # -- MQI ---------------------------------------------------------------------------
    def want_mqi(self) -> MQICounters:
        self._mqi_wants += 1
        if self.mqi is None:
            self.mqi = self._mqi_kept or MQICounters()
        return self.mqi

    def release_mqi(self) -> None:
        self._mqi_wants = max(0, self._mqi_wants - 1)
        if not self._mqi_wants and self.mqi is not None:
            self._mqi_kept, self.mqi = self.mqi, None

    # -- channels ----------------------------------------------------------------------
    def want_channel(self, name: str) -> ChannelCounters:
        self._channel_wants[name] = self._channel_wants.get(name, 0) + 1
        return self._channels.setdefault(name, ChannelCounters())

    def release_channel(self, name: str) -> None:
        left = self._channel_wants.get(name, 0) - 1
        if left > 0:
            self._channel_wants[name] = left
        else:
            self._channel_wants.pop(name, None)

    def channel(self, name: str) -> ChannelCounters | None:
        """A channel's counters while some reader wants them (the agents count only then)."""
        return self._channels.get(name) if name in self._channel_wants else None


def waited(put_date: str, put_time: str, now: float) -> float:
    """Seconds since the MQMD's PutDate/PutTime (GMT, to the hundredth), or -1 if they are not a
    time (a put with no context, or context set by the application to something else)."""
    hundredths = put_hundredths(put_date, put_time)
    return -1.0 if hundredths is None else max(0.0, now - hundredths / 100)
