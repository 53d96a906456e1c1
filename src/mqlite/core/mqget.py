"""MQGET and everything that hands messages out: waiting getters, read-ahead, expiry sweeps.

``Gets`` owns no queue state of its own: the queues are ``ObjectDefinitions``', the waiting
MQGETs ``WaitingGetters``'; what the server must do afterwards goes to the ``Outbox``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from mqlite import cmqc as C
from mqlite.core.attributes import generic_match
from mqlite.core.errors import MQError
from mqlite.core.handles import BROWSE_GETS, INPUT_OPTIONS, Connection, GetResult, Handle, TruncatedError, handle_of
from mqlite.core.outbox import Outbox
from mqlite.core.properties_delivery import FORMAT_RFH2, PROPERTY_OPTIONS, Form, deliver, form
from mqlite.core.queues import AVAILABLE, Entry, LocalQueue, remaining_expiry
from mqlite.core.statistics.counters import waited
from mqlite.core.waiters import GetRequest, Waiter
from mqlite.core.waiting import WaitingGetters
from mqlite.message import Message
from mqlite.protocol.native import GMO_MSG_HANDLE, GMO_NO_MSG_HANDLE, SENT_AHEAD

_PROPERTY_CHECKS: Final = PROPERTY_OPTIONS | GMO_NO_MSG_HANDLE  # gets that change a message with properties
_SHAPED: Final = _PROPERTY_CHECKS | GMO_MSG_HANDLE  # an application's get (the queue manager's own: as put)


class Gets:
    """MQGET, delivery to waiting getters and read-ahead consumers, expiry sweeps."""

    qmgr_events: Any = None  # core.events.qmgr_events.QueueManagerEvents: Get Inhibited (set by the facade)

    def __init__(self, queues: dict[str, LocalQueue], qmgr_attrs: dict[str, Any], waiting: WaitingGetters,
                 outbox: Outbox, clock: Callable[[], float]) -> None:
        self.queues = queues
        self.qmgr_attrs = qmgr_attrs
        self.waiting = waiting
        self.outbox = outbox
        self.clock = clock

    # -- MQGET -------------------------------------------------------------------------
    def get(self, conn: Connection, hobj: int, request: GetRequest, token: object = None) -> GetResult | Waiter:
        """Get or browse a message; with MQGMO_WAIT and nothing there, return a Waiter."""
        handle = handle_of(conn, hobj)
        queue = handle.queue
        options = request.options
        browse = options & BROWSE_GETS
        if queue is None or handle.xmitq_for is not None:
            raise MQError(C.MQRC_NOT_OPEN_FOR_INPUT, f"{handle.opened_as} is not open for input")
        if browse:
            if not handle.options & C.MQOO_BROWSE:
                raise MQError(C.MQRC_NOT_OPEN_FOR_BROWSE, f"{handle.opened_as} is not open for browse")
        elif not handle.options & INPUT_OPTIONS:
            raise MQError(C.MQRC_NOT_OPEN_FOR_INPUT, f"{handle.opened_as} is not open for input")
        if (options & C.MQGMO_SYNCPOINT) and (options & C.MQGMO_NO_SYNCPOINT):
            raise MQError(C.MQRC_OPTIONS_ERROR, "both MQGMO_SYNCPOINT and MQGMO_NO_SYNCPOINT")
        if queue.deleted:
            raise MQError(C.MQRC_Q_DELETED, f"queue {queue.name} was deleted")
        if options & _PROPERTY_CHECKS:
            property_form(handle, queue, options)  # a bad combination fails before any message is chosen
        pushed, handle.pushed_since_get = handle.pushed_since_get, 0
        try:
            result = self._try_get(conn, handle, queue, request)
        except MQError as error:
            failed(queue, browse, error.reason)
            raise
        if result is not None:
            return result
        if not options & C.MQGMO_WAIT or request.wait_ms == 0 or options & C.MQGMO_BROWSE_MSG_UNDER_CURSOR:
            failed(queue, browse, C.MQRC_NO_MSG_AVAILABLE)
            raise MQError(C.MQRC_NO_MSG_AVAILABLE, "no message available")
        if pushed:
            # Messages went ahead to this consumer since its last MQGET and may still be on their
            # way: waiting here could hold it for the whole wait interval while one sits in its
            # socket. It reads them, and calls again if they were not what it wanted.
            raise MQError(C.MQRC_NO_MSG_AVAILABLE, SENT_AHEAD)
        if request.wait_ms < -1:
            raise MQError(C.MQRC_WAIT_INTERVAL_ERROR, f"WaitInterval {request.wait_ms}")
        now = self.clock()
        deadline = 0.0 if request.wait_ms == -1 else now + request.wait_ms / 1000
        waiter = Waiter(conn, hobj, request, deadline, token)
        self.waiting.add(queue, waiter)
        return waiter

    def browse_batch(self, conn: Connection, hobj: int, limit: int) -> list[tuple[Entry, Message]]:
        """MQGMO_BROWSE_NEXT up to ``limit`` times at once: the available messages after the
        browse cursor, with their entries, the cursor left on the last. For a consumer that
        removes what it browsed once it is done with it (``remove_entry``); [] when nothing
        follows, or before the first browse (which goes through ``get``)."""
        handle = handle_of(conn, hobj)
        queue = handle.queue
        if queue is None or not handle.options & C.MQOO_BROWSE:
            raise MQError(C.MQRC_NOT_OPEN_FOR_BROWSE, f"{handle.opened_as} is not open for browse")
        if queue.deleted:
            raise MQError(C.MQRC_Q_DELETED, f"queue {queue.name} was deleted")
        if handle.browse_pos is None or inhibited(handle, queue):
            return []
        now = self.clock()
        expired: list[Entry] = []
        entries = queue.available(now, expired, after=handle.browse_pos, limit=limit)
        if expired:
            self._discard_expired(queue, expired)
        if not entries:
            return []
        last = entries[-1]
        handle.browse_pos = (last.level, last.seq)
        handle.browse_entry = last
        return [(entry, delivered_copy(queue.load(entry), entry, now)) for entry in entries]

    def _try_get(self, conn: Connection, handle: Handle, queue: LocalQueue, request: GetRequest) -> GetResult | None:
        options = request.options
        if inhibited(handle, queue):
            if self.qmgr_events is not None:  # (only on the failure: the get path pays nothing)
                self.qmgr_events.inhibited(conn, C.MQRC_GET_INHIBITED, handle.opened_as)
            raise MQError(C.MQRC_GET_INHIBITED, f"gets from {handle.opened_as} are inhibited")
        now = self.clock()
        expired: list[Entry] = []
        try:
            entry = self._select(handle, queue, request, now, expired)
        finally:
            if expired:
                self._discard_expired(queue, expired)
        if entry is None:
            return None
        message = stored = queue.load(entry)
        # The fast path shapes nothing: the queue manager's own gets, and an application's of a
        # message with no MQRFH2 to read and either no properties or a get with a handle and no
        # property option from a queue without PROPCTL(FORCE) (properties beside the body).
        if options & _SHAPED and (message.md.Format == FORMAT_RFH2 or (
                message.properties and (options & _PROPERTY_CHECKS or forced(handle, queue)))):
            message = deliver(message, property_form(handle, queue, options))
        data_length = len(message.body)
        reason = 0
        body = message.body
        if 0 <= request.max_length < data_length:
            if not options & C.MQGMO_ACCEPT_TRUNCATED_MSG:
                raise TruncatedError(delivered_copy(message, entry, now), data_length)
            body = body[: request.max_length]
            reason = C.MQRC_TRUNCATED_MSG_ACCEPTED
        stats = queue.watch.stats  # statistics (core.statistics): None unless a reader collects them
        if options & BROWSE_GETS:
            if stats is not None:
                stats.browsed(stored.persistent, data_length)
            handle.browse_pos = (entry.level, entry.seq)
            handle.browse_entry = entry
            return GetResult(delivered_copy(message, entry, now), body, data_length, reason)
        syncpoint = bool(options & C.MQGMO_SYNCPOINT) or (
            bool(options & C.MQGMO_SYNCPOINT_IF_PERSISTENT) and stored.persistent
        )
        delivered = delivered_copy(message, entry, now)
        if syncpoint:
            if len(conn.uow) >= int(self.qmgr_attrs.get("MAXUMSGS", 10000)):
                raise MQError(C.MQRC_SYNCPOINT_LIMIT_REACHED, "too many messages in the unit of work")
            queue.lock(entry)
            conn.uow.add_get(queue, entry, now)
        else:
            if entry.persistent:
                self.outbox.tx.delete_message(queue.name, entry.seq)
            queue.remove(entry)
        if handle.browse_entry is entry:
            handle.browse_entry = None
        if stats is not None:
            stats.got(stored.persistent, data_length, waited(stored.md.PutDate, stored.md.PutTime, now), queue.depth)
        return GetResult(delivered, body, data_length, reason)

    @staticmethod
    def _select(
        handle: Handle, queue: LocalQueue, request: GetRequest, now: float, expired: list[Entry]
    ) -> Entry | None:
        options = request.options
        if options & (C.MQGMO_MSG_UNDER_CURSOR | C.MQGMO_BROWSE_MSG_UNDER_CURSOR):
            entry = handle.browse_entry
            if entry is None or entry.state != AVAILABLE:
                raise MQError(C.MQRC_NO_MSG_UNDER_CURSOR, "no message under the browse cursor")
            return entry
        match_id, match_correl = request.match_msg_id, request.match_correl_id
        if options & C.MQGMO_BROWSE_NEXT and handle.browse_pos is not None:
            def matches(entry: Entry) -> bool:
                md = queue.load(entry).md
                return ((match_id is None or md.MsgId == match_id)
                        and (match_correl is None or md.CorrelId == match_correl))

            accept = None if match_id is None and match_correl is None else matches
            found = queue.available(now, expired, after=handle.browse_pos, accept=accept)
            return found[0] if found else None
        if match_id is None and match_correl is None:
            return queue.first_available(now, expired)
        return queue.find_match(now, expired, match_id, match_correl)

    def _discard_expired(self, queue: LocalQueue, expired: list[Entry]) -> None:
        if queue.watch.stats is not None:
            queue.watch.stats.expired += len(expired)
        tx = self.outbox.tx
        for entry in expired:
            if entry.persistent:
                tx.delete_message(queue.name, entry.seq)

    # -- delivery to waiters and read-ahead consumers ------------------------------------
    def deliver(self, queue: LocalQueue) -> None:
        """Hand newly available messages to waiting getters, then to read-ahead handles."""
        waiters = queue.waiters
        if waiters:
            for waiter in list(waiters):
                conn = waiter.conn
                handle = conn.handles.get(waiter.hobj)
                if handle is None:
                    waiters.remove(waiter)
                    self.waiting.waiting.discard(waiter)
                    continue
                try:
                    result: GetResult | MQError | None = self._try_get(conn, handle, queue, waiter.request)
                except MQError as error:
                    result = error
                    failed(queue, waiter.request.options & BROWSE_GETS, error.reason)
                if result is None:
                    continue
                self.waiting.end(queue, waiter, result)
        if queue.read_ahead:
            self._push_read_ahead(queue)

    def _push_read_ahead(self, queue: LocalQueue) -> None:
        now = self.clock()
        pushes = self.outbox.effects.pushes
        for handle in list(queue.read_ahead):
            if inhibited(handle, queue):
                continue
            conn = handle.conn
            while handle.credit > 0:
                expired: list[Entry] = []
                entry = queue.first_available(now, expired)
                if expired:
                    self._discard_expired(queue, expired)
                if entry is None or entry.message is None or entry.message.persistent:
                    return  # persistent messages go by MQGET, never ahead
                message = entry.message
                if message.md.Format == FORMAT_RFH2 or (message.properties and forced(handle, queue)):
                    # Sent ahead in the form of a get with a message handle and no property option
                    # (what mqlite's own API asks); a get with other property options reads the
                    # buffer too (IBM fixes the form by the first get, MQRC_OPTIONS_CHANGED after).
                    message = deliver(message, property_form(handle, queue, 0))
                message = delivered_copy(message, entry, now)
                queue.remove(entry)
                handle.credit -= 1
                handle.pushed_since_get += 1
                if conn is not None:
                    pushes.append((conn, handle.hobj, message))

    def grant_credit(self, conn: Connection, hobj: int, count: int) -> None:
        """A read-ahead consumer can take ``count`` more messages ahead of its gets."""
        handle = conn.handles.get(hobj)
        if handle is None or not handle.read_ahead or handle.queue is None:
            return
        handle.credit += max(0, count)
        queue = handle.queue
        if handle not in queue.read_ahead:
            queue.read_ahead.append(handle)
        self._push_read_ahead(queue)

    # -- time --------------------------------------------------------------------------
    def sweep_expired(self, now: float, generic: str | None = None) -> int:
        """Remove expired messages from every queue (MQ does this periodically too), or from the
        queues a generic name matches (REFRESH QMGR TYPE(EXPIRY) NAME(...))."""
        removed = 0
        for queue in self.queues.values():
            if not queue.expiring or (generic is not None and not generic_match(generic, queue.name)):
                continue
            expired: list[Entry] = []
            queue.available(now, expired, limit=None, accept=_none)
            if expired:
                self._discard_expired(queue, expired)
                removed += len(expired)
        return removed

    def cancel_wait(self, waiter: Waiter) -> None:
        """The caller went away: forget its pending MQGET."""
        self.waiting.cancel(waiter, self.queues.values())


def _none(entry: Entry) -> bool:
    return False


def inhibited(handle: Handle, queue: LocalQueue) -> bool:
    """GET(DISABLED) on the queue, or on the alias it was opened through."""
    alias = handle.alias_attrs
    return queue.attrs.get("GET") == "DISABLED" or (alias is not None and alias.get("GET") == "DISABLED")


def forced(handle: Handle, queue: LocalQueue) -> bool:
    """PROPCTL(FORCE) on the queue, or on the alias it was opened through: the one PROPCTL that
    changes a get with a message handle and no property option of a message with no MQRFH2."""
    attrs = handle.alias_attrs if handle.alias_attrs is not None else queue.attrs
    return attrs.get("PROPCTL") == "FORCE"


def property_form(handle: Handle, queue: LocalQueue, options: int) -> Form:
    """The form of a got message's properties: the GMO's property option, else the PROPCTL of
    the queue (or of the alias it was opened through), with a message handle unless the get
    says it has none (and, without one, whether it takes properties beside the body)."""
    attrs = handle.alias_attrs if handle.alias_attrs is not None else queue.attrs
    no_handle = options & GMO_NO_MSG_HANDLE
    return form(options, str(attrs.get("PROPCTL", "COMPAT")), not no_handle,
                beside=bool(no_handle and options & GMO_MSG_HANDLE))


def delivered_copy(message: Message, entry: Entry, now: float) -> Message:
    """The message as the getter sees it: remaining expiry, current backout count."""
    if not entry.expiry_at:
        return message
    md = message.md.copy()
    md.Expiry = remaining_expiry(entry, now)
    return Message(md, message.body, message.properties)


def failed(queue: LocalQueue, browse: int, reason: int) -> None:
    """An MQGET (or browse) of ``queue`` that failed, counted while statistics are collected."""
    stats = queue.watch.stats
    if stats is not None:
        stats.failed(browse, reason)
