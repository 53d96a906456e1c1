"""The queue manager at run time: core + store + the rounds that tie their effects to replies.

A *round* is everything one burst of input caused: the replies to its requests, the replies of
getters it woke on other connections and the read-ahead messages it released. When the round
changed persistent state, all of its output waits until the store says that change is durable
(group commit makes that cheap); a round with no persistent change goes out at once. Output per
connection keeps its order even when an earlier round is still waiting for the disk.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any, Final, Protocol, cast

from mypy_extensions import mypyc_attr

from mqlite.core.errors import MQError
from mqlite.core.handles import BROWSE_GETS
from mqlite.core.network.channels.transfer import SYNC_KIND
from mqlite.core.network.clusters.service import STORE_KIND as CLUSTER_KIND
from mqlite.core.network.clusters.service import SUBS_KIND as CLUSSUB_KIND
from mqlite.core.network.clusters.switch import STORE_KIND as CLUSXQ_KIND
from mqlite.core.network.pubsub.service import HIERARCHY_KIND, PROXY_KIND
from mqlite.core.network.routes.service import IN_KIND as ROUTE_IN_KIND
from mqlite.core.network.routes.service import IS_KIND as ROUTE_IS_KIND
from mqlite.core.qmgr import GetResult, QueueManager
from mqlite.core.security.chlauth_service import STORE_KIND as CHLAUTH_KIND
from mqlite.core.security.service import STORE_KIND as AUTHREC_KIND
from mqlite.core.waiters import Waiter
from mqlite.message import Message
from mqlite.protocol import native
from mqlite.server.busy_poll import BusyPoll, window_from_env
from mqlite.server.clock import Clock
from mqlite.server.memory import IDLE_SECONDS, trim_c_heap
from mqlite.store.sqlite import Store
from mqlite.store.tx import StoreTx

log = logging.getLogger("mqlite.server")

TICK_SECONDS: Final = 1.0
SWEEP_EVERY: Final = 5.0
# Flow control: asynchronous persistent puts can arrive faster than the disk takes them. Past
# this many store operations in flight, the server stops reading from clients until the writer
# has caught up (to the low mark), so memory stays bounded whatever the producers do.
STORE_BACKLOG_HIGH: Final = 20_000
STORE_BACKLOG_LOW: Final = 5_000


class Sink(Protocol):
    """Where a connection's output goes (a transport, in the server)."""

    def write(self, data: bytes) -> None: ...


class Round:
    """One burst of input's output, released together."""

    __slots__ = ("outputs", "ready", "size", "unsynced_ok", "urgent")

    def __init__(self, urgent: bool = False, unsynced_ok: bool = False) -> None:
        self.ready = False
        # Its sender can do nothing until it is released: commit it on this thread when the
        # store's writer is idle (``Store.commit_now``), a message channel's END_BATCH or CONFIRM.
        self.urgent = urgent
        # ... and without an fsync if all it changes is channel sync records: the batch it ends
        # held no persistent message (IBM's NPMSPEED(FAST) spares such batches the log too).
        self.unsynced_ok = unsynced_ok
        self.outputs: dict[Session, list[bytes]] = {}
        self.size = 0  # bytes of output so far

    def add(self, session: Session, data: bytes) -> None:
        self.size += len(data)
        chunks = self.outputs.get(session)
        if chunks is None:
            self.outputs[session] = [data]
        else:
            chunks.append(data)


@mypyc_attr(allow_interpreted_subclasses=True)  # the clients', channels' and MQTT's sessions
class Session:
    """A connection's output queue: keeps frames in order across rounds still waiting for disk."""

    __slots__ = ("closed", "conn", "on_drained", "on_stop", "pending", "sink", "waiters")

    def __init__(self, sink: Sink) -> None:
        self.sink = sink
        self.conn: Any = None  # the core Connection once CONNECT succeeded
        # Rounds still waiting for the disk, oldest first: a list, not a deque, since it is short
        # and an idle connection's empty deque would be 600 bytes of it.
        self.pending: list[tuple[Round, bytes]] = []
        self.closed = False
        self.waiters: dict[int, Waiter] = {}  # pending MQGETs by request id
        self.on_stop: Callable[[], None] | None = None  # STOP CONN ends the connection through this
        self.on_drained: Callable[[], None] | None = None  # called once nothing is pending any more

    def emit(self, round_: Round, data: bytes) -> None:
        if self.closed:
            return
        if round_.ready and not self.pending:
            self.sink.write(data)
        else:
            self.pending.append((round_, data))

    def complete(self, round_: Round, req_id: int, result: GetResult | MQError) -> None:
        """A waiting MQGET of this connection completed: its reply goes in the round."""
        round_.add(self, encode_get_reply(req_id, result))

    def flush(self) -> None:
        pending = self.pending
        ready = 0
        for round_, _ in pending:
            if not round_.ready:
                break
            ready += 1
        if ready:
            out = [data for _, data in pending[:ready]]
            del pending[:ready]
            if not self.closed:
                self.sink.write(b"".join(out))
        if not pending and self.on_drained is not None:
            drained, self.on_drained = self.on_drained, None
            drained()


def encode_get_reply(req_id: int, result: GetResult | MQError) -> bytes:
    """A GET reply: the message, or the failure (2080 still tells the length)."""
    if isinstance(result, GetResult):
        message = result.message
        cc = 1 if result.reason else 0
        return native.encode_reply(
            req_id, cc, result.reason,
            [message.md.to_list(), message.properties, result.body, result.data_length],
        )
    truncated = getattr(result, "data_length", None)
    if truncated is not None:
        message = result.message  # type: ignore[attr-defined]
        return native.encode_reply(
            req_id, result.comp, result.reason, [message.md.to_list(), message.properties, b"", truncated]
        )
    return native.encode_reply(req_id, result.comp, result.reason, None)


class Runtime:
    """Owns the core engine and the store, and releases output when it is safe to."""

    def __init__(self, name: str, store: Store, loop: asyncio.AbstractEventLoop,
                 clock: Clock | Callable[[], float] | None = None, creator: str = "") -> None:
        self.name = name
        self.store = store
        self.loop = loop
        # a Clock (the server's, which a test's offset file can move) or any function (tests' fakes)
        self.clock_source = clock if isinstance(clock, Clock) else Clock()
        self.clock = clock if clock is not None and not isinstance(clock, Clock) else self.clock_source.now
        self.core = QueueManager(name, reader=store, clock=self.clock, creator=creator)
        self.sessions: dict[str, Session] = {}  # by core conn_id, for pushes and wake-ups
        self.core.admin.connection_stopper = self.stop_connection
        self._timer: asyncio.TimerHandle | None = None
        self._next_deadline = 0.0
        self._getters = self.core.getters
        self._added_seen = -1
        self._last_sweep = 0.0
        self.ending = False
        self.readers: set[asyncio.Transport] = set()  # client transports, paused when the store lags
        self.backlog = 0  # store operations submitted and not yet durable
        self.reading_paused = False
        self.on_fatal: Callable[[], None] | None = None  # set by the host: end immediately
        self.tick_hooks: list[Callable[[float], None]] = []  # run every tick (MQTT session expiry)
        # Error-log lines core's services leave (written at the end of every round, whoever ran it).
        self.log_sources: list[list[str]] = []
        self.ping_channel: Callable[[Any], Awaitable[Any]] | None = None  # PING CHANNEL (the message channels')
        # Ask the cluster's full repositories about a queue name (the repository manager's).
        self.cluster_lookup: Callable[[str, str], Awaitable[bool]] | None = None
        # Takes over a native-port connection whose first frame is a message channel's HELLO.
        self.channel_acceptor: Callable[[asyncio.Transport, bytes], None] | None = None
        self.busy_poll = BusyPoll(loop, window_from_env(), self._poll_paused)
        self.rounds_out = 0  # rounds that released output or changed persistent state
        self._rounds_seen = 0
        self._quiet_since = 0.0
        self._memory_released = True
        self._durable: list[tuple[Round, StoreTx, BaseException | None]] = []  # done, not yet drained
        self._durable_lock = threading.Lock()
        self._drain_scheduled = False
        self.durable_wakeups = 0  # times the writer woke the loop to release durable rounds

    def _poll_paused(self) -> bool:
        """No busy polling while the store's writer may want the GIL (it has work and is not
        asleep gathering more txs), nor while ending. While it gathers, the next synchronous
        puts it waits for find the loop awake."""
        return self.ending or (self.backlog > 0 and not self.store.writer_waiting)

    # -- start-up ------------------------------------------------------------------------
    def recover(self) -> int:
        """Load definitions and rebuild every queue's index from the store; returns messages."""
        core = self.core
        qmgr_records = self.store.load_records("qmgr")
        if "attrs" not in qmgr_records:
            core.bootstrap()
            effects = core.take_effects()
            if effects.tx:
                self.store.write(effects.tx)
            log.info("AMQ8006I: created the system objects of queue manager %s", self.name)
            return 0
        core.restore(self.store.load_records("object"), qmgr_records["attrs"])
        core.restore_pubsub(self.store.load_records("sub"), self.store.load_records("retained"))
        core.dist_pubsub.restore(self.store.load_records(PROXY_KIND), self.store.load_records(HIERARCHY_KIND))
        core.routes.restore(self.store.load_records(ROUTE_IS_KIND), self.store.load_records(ROUTE_IN_KIND))
        core.restore_security(self.store.load_records(AUTHREC_KIND).values())
        core.restore_chlauth(self.store.load_records(CHLAUTH_KIND).values())
        core.transfer.restore(self.store.load_records(SYNC_KIND))
        core.cluster_state.restore(self.store.load_records(CLUSTER_KIND), self.store.load_records(CLUSSUB_KIND))
        core.cluster.associations.restore(self.store.load_records(CLUSXQ_KIND))
        core.cluster.sync_senders()
        count = 0
        orphans: list[tuple[str, int]] = []
        for row in self.store.scan_index():
            if core.restore_message(row.queue, row.seq, row.priority, row.expiry_at):
                count += 1
            else:
                orphans.append((row.queue, row.seq))
        if orphans:  # messages of a queue deleted in a unit the store never finished: drop them
            tx = StoreTx()
            for queue, seq in orphans:
                tx.delete_message(queue, seq)
            self.store.write(tx)
        return count

    # -- rounds ----------------------------------------------------------------------------
    def collect(self, round_: Round) -> None:
        """Move the wake-ups and read-ahead messages core produced so far into the round."""
        completions, pushes = self.core.take_deliveries()
        if completions or pushes:
            self._add_effects(round_, completions, pushes)

    def finish(self, round_: Round) -> None:
        """Collect core's effects into the round and release it now or once durable."""
        effects = self.core.take_effects()
        self._add_effects(round_, effects.completions, effects.pushes)
        tx = effects.tx
        round_.ready = not tx
        if tx or round_.outputs:
            self.rounds_out += 1
        for session, chunks in round_.outputs.items():
            session.emit(round_, chunks[0] if len(chunks) == 1 else b"".join(chunks))
        if tx and round_.urgent and self._commit_now(round_, tx):
            pass
        elif tx:
            try:
                self.store.submit(tx, partial(self._durable_done, round_, tx), round_.urgent)
            except RuntimeError as error:  # the store closed under us: the process is ending
                log.error("AMQ6118E: %s; %d changes not written", error, len(tx.runs))
                self._release(round_)
            else:
                self.backlog += len(tx)
                if self.backlog > STORE_BACKLOG_HIGH and not self.reading_paused:
                    self._pause_reading(True)
        if self._timer is None or self._getters.added != self._added_seen:
            self._schedule_timer()
        for lines in self.log_sources:
            if lines:
                for line in lines:
                    log.warning("%s", line)
                lines.clear()

    def _add_effects(
        self, round_: Round, completions: list[tuple[Waiter, GetResult | MQError]],
        pushes: list[tuple[Any, int, Message]],
    ) -> None:
        mqi = self.core.statistics.mqi  # STATMQI, while collected: waiting gets count as they end
        for waiter, result in completions:
            if mqi is not None:
                mqi.got(result, bool(waiter.request.options & BROWSE_GETS))
            session, req_id = cast("tuple[Session, int]", waiter.token)
            session.waiters.pop(req_id, None)
            session.complete(round_, req_id, result)
        if not pushes:
            return
        batches: dict[Session, list[list[Any]]] = {}
        for conn, hobj, message in pushes:  # one frame per connection (a fan-out pushes many)
            target = self.sessions.get(conn.conn_id)
            if target is not None:
                batch = batches.get(target)
                item = [hobj, message.md.to_list(), message.properties, message.body]
                if batch is None:
                    batches[target] = [item]
                else:
                    batch.append(item)
        for target, batch in batches.items():
            if len(batch) == 1:
                round_.add(target, native.encode_push_msg(*batch[0]))
            else:
                round_.add(target, native.encode_push_msgs(batch))

    def _commit_now(self, round_: Round, tx: StoreTx) -> bool:
        sync = not (round_.unsynced_ok and tx.only_records(SYNC_KIND))
        error: BaseException | None = None
        try:
            if not self.store.commit_now(tx, sync):
                return False
        except Exception as refused:  # the disk refused: as for a group the writer failed to commit
            error = refused
        self.backlog += len(tx)
        self._on_durable([(round_, tx, error)])
        return True

    def _durable_done(self, round_: Round, tx: StoreTx, error: BaseException | None) -> None:
        # Runs on the store's writer thread. A group's callbacks come in a burst: the first wakes
        # the loop, the others join its drain (one self-pipe write per group, not per tx).
        with self._durable_lock:
            self._durable.append((round_, tx, error))
            if self._drain_scheduled:
                return
            self._drain_scheduled = True
            self.durable_wakeups += 1
        self.loop.call_soon_threadsafe(self._drain_durable)

    def _drain_durable(self) -> None:
        with self._durable_lock:
            durable, self._durable = self._durable, []
            self._drain_scheduled = False
        self._on_durable(durable)

    def _pause_reading(self, pause: bool) -> None:
        self.reading_paused = pause
        for transport in list(self.readers):
            if transport.is_closing():
                continue
            if pause:
                transport.pause_reading()
            else:
                protocol = transport.get_protocol()
                if not getattr(protocol, "writing_paused", False) and not getattr(protocol, "input_paused", False):
                    transport.resume_reading()

    def _on_durable(self, durable: list[tuple[Round, StoreTx, BaseException | None]]) -> None:
        """The store is done with these rounds' txs (one commit's, usually): core's bookkeeping
        once for all the durable ones, then each round's output."""
        self.backlog -= sum([len(tx) for _, tx, _ in durable])
        if self.reading_paused and self.backlog < STORE_BACKLOG_LOW:
            self._pause_reading(False)
        self.core.on_durable_many([tx for _, tx, error in durable if error is None])
        for round_, _, error in durable:
            if error is None:
                self._release(round_)
                continue
            # The disk refused: what this round acknowledges is not durable. Like a queue manager
            # whose log fails, end at once rather than tell anyone it was: the callers see their
            # connection break (2009) and know the outcome is uncertain; nothing is lost that was
            # acknowledged.
            log.error("AMQ6118E: store write failed, ending the queue manager: %r", error)
            for session in round_.outputs:
                session.closed = True
            if self.on_fatal is not None:
                self.on_fatal()

    @staticmethod
    def _release(round_: Round) -> None:
        round_.ready = True
        for session in round_.outputs:
            session.flush()

    # -- timers ------------------------------------------------------------------------------
    def _schedule_timer(self) -> None:
        """Wake at the nearest MQGET wait deadline (and every second for housekeeping)."""
        self._added_seen = self._getters.added
        deadlines = [w.deadline for w in self.core.waiting if w.deadline]
        now = self.clock()
        target = min(deadlines) if deadlines else now + TICK_SECONDS
        target = min(target, now + TICK_SECONDS)
        if self._timer is not None and self._next_deadline <= target:
            return
        if self._timer is not None:
            self._timer.cancel()
        self._next_deadline = target
        self._timer = self.loop.call_later(max(0.0, target - now), self._on_timer)

    def _on_timer(self) -> None:
        self._timer = None
        self.clock_source.refresh()
        now = self.clock()
        self.core.tick(now)
        self.core.pubsub_tick(now)
        if now - self._last_sweep >= SWEEP_EVERY:
            self._last_sweep = now
            self.core.sweep_expired(now)
        for hook in self.tick_hooks:
            hook(now)
        self._release_memory_when_idle(now)
        if not self.ending:
            self.finish(Round())

    def stop_connection(self, conn_id: str) -> bool:
        """STOP CONN of a connection this runtime serves (False: none it can stop)."""
        session = self.sessions.get(conn_id)
        if session is None or session.on_stop is None:
            return False
        session.on_stop()
        return True

    def _release_memory_when_idle(self, now: float) -> None:
        """Once quiet for IDLE_SECONDS after work, give the caches' and heaps' memory back."""
        if self.rounds_out != self._rounds_seen:
            self._rounds_seen = self.rounds_out
            self._quiet_since = now
            self._memory_released = False
        elif not self._memory_released and now - self._quiet_since >= IDLE_SECONDS:
            self._memory_released = True
            self.store.release_memory()
            trim_c_heap()

    def stop_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def cancel_waiter(self, waiter: Waiter) -> None:
        self.core.cancel_wait(waiter)
