"""What message channel agents ask of their queue manager, beside the MQI they use like any program.

- Each end's **sync record** (``SyncState``, store kind ``chsync``, key ``S/<channel>`` for a
  sender, ``R/<channel>`` for a receiver), written in the same store transaction as the batch it
  describes, so a crash never separates a batch from its record (``core.network.channels.channel``).
- The **sender's** batch in doubt after a restart: its unit of work went with the process, so its
  messages are back on the transmission queue; if the receiver has them, they are removed by
  their sequence numbers on that queue (``remove_entries``).
- The **receiver's** put of each arriving message: the transmission header (MQXQH) names the
  destination queue and queue manager and carries the original MQMD; the message goes there in
  the batch's unit of work with all its context (IBM's MCAs pass it), under the channel's
  MCAUSER, or with PUTAUT(CTX) under the message's own user (alternate user authority). A
  destination that is missing, full or put-inhibited sends the message to the dead-letter queue
  behind an MQDLH naming the reason, in the same unit of work (USEDLQ(YES)); with no dead-letter
  queue the batch fails and is backed out, as IBM's channel then stops (AMQ9544E).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Mapping
from typing import Any

from mqlite import cmqc as C
from mqlite.core import dead_letter
from mqlite.core.errors import ClusterLookup, MQError
from mqlite.core.handles import Connection
from mqlite.core.mqi import Connections
from mqlite.core.network.channels.channel import SyncState, reset_to
from mqlite.core.outbox import Outbox
from mqlite.core.queues import AVAILABLE, LocalQueue
from mqlite.core.syncpoint import Syncpoint
from mqlite.message import Message, MessageDescriptor
from mqlite.protocol import xqh
from mqlite.protocol.fields import HeaderError

log = logging.getLogger("mqlite.server")

SYNC_KIND = "chsync"
_PASS_CONTEXT = C.MQPMO_SET_ALL_CONTEXT


def sender_key(channel: str) -> str:
    return f"S/{channel}"


def receiver_key(channel: str, partner: str = "") -> str:
    """A receiving channel's sync record; a cluster-receiver has one per partner queue manager
    (every member's cluster-sender to it has its name, each with its own sequence numbers)."""
    return f"R/{channel}@{partner}" if partner else f"R/{channel}"


class ChannelTransfer:
    """Sync records and the receiving end's puts."""

    def __init__(self, qmgr_name: str, qmgr_attrs: dict[str, Any], queues: dict[str, LocalQueue],
                 mqi: Connections, syncpoint: Syncpoint, outbox: Outbox) -> None:
        self.qmgr_name = qmgr_name
        self.qmgr_attrs = qmgr_attrs
        self.queues = queues
        self.mqi = mqi
        self.syncpoint = syncpoint
        self.outbox = outbox
        self.sync: dict[str, SyncState] = {}
        # qm.ini CHANNELS: PipeLineLength, the batches a sender may have awaiting CONFIRM at once
        # (IBM's default is 1; mqlite's 2, as nothing but speed changes with it).
        self.pipeline = 2
        self._handles: dict[str, dict[tuple[str, str, str], int]] = {}  # receivers' open destinations

    # -- sync records -----------------------------------------------------------------------
    def restore(self, records: Mapping[str, dict[str, Any]]) -> None:
        for key, record in records.items():
            self.sync[key] = SyncState.from_record(record)

    def state(self, key: str) -> SyncState:
        return self.sync.get(key) or SyncState()

    def save(self, key: str, state: SyncState) -> None:
        """Record ``state``; it goes to the store with whatever else this call changed."""
        self.sync[key] = state
        self.outbox.tx.put_record(SYNC_KIND, key, state.to_record())

    # -- RESET CHANNEL, RESOLVE CHANNEL (the channel not running) ----------------------------------
    def reset(self, channel: str, sending: bool, seqnum: int, seqwrap: int) -> None:
        """RESET CHANNEL SEQNUM: 4025 while a batch is in doubt (RESOLVE CHANNEL first)."""
        key = sender_key(channel) if sending else receiver_key(channel)
        if self.state(key).indoubt:
            raise MQError(C.MQRCCF_CHANNEL_INDOUBT, f"channel {channel} has a batch in doubt: RESOLVE CHANNEL first")
        try:
            self.save(key, reset_to(seqnum, seqwrap, sending))
        except ValueError as error:
            raise MQError(C.MQRCCF_SEQ_NUMBER_WRAP_ERROR, str(error)) from None

    def resolve_by_command(self, channel: str, xmitq: str, commit: bool) -> int:
        """RESOLVE CHANNEL ACTION(COMMIT|BACKOUT) of a sender's batches in doubt: COMMIT removes
        them from the transmission queue (the partner has them), BACKOUT leaves them to be sent
        again; how many messages they held. 3053 when nothing is in doubt."""
        key = sender_key(channel)
        state = self.state(key)
        if not state.indoubt:
            raise MQError(C.MQRCCF_INDOUBT_VALUE_ERROR, f"channel {channel} has no batch in doubt")
        last = state.indoubt[-1]
        if commit:
            for doubt in state.indoubt:
                self.remove_entries(xmitq, doubt.entries)
            self.save(key, SyncState(last.seq, last.luwid))
        else:
            self.save(key, state.backed_out())
        log.warning("AMQ9531I: Channel '%s': %d batch(es) in doubt (sequence %d) %s by RESOLVE CHANNEL", channel,
                    len(state.indoubt), last.seq, "committed" if commit else "backed out")
        return sum(len(doubt.entries) for doubt in state.indoubt)

    def forget_channel(self, channel: str) -> None:
        """DELETE CHANNEL: its sync records go with it (a channel of that name defined again
        starts at sequence number 0, as IBM's does); refused (4025) while a batch is in doubt."""
        if self.state(sender_key(channel)).indoubt:
            raise MQError(C.MQRCCF_CHANNEL_INDOUBT, f"channel {channel} has a batch in doubt: RESOLVE CHANNEL first")
        keys = [sender_key(channel), receiver_key(channel)]
        keys += [key for key in self.sync if key.startswith(receiver_key(channel) + "@")]  # a CLUSRCVR's partners
        for key in keys:
            if self.sync.pop(key, None) is not None:
                self.outbox.tx.delete_record(SYNC_KIND, key)

    def receiver_status(self, key: str, sender_seq: int, reset: bool) -> SyncState:
        """What a receiver (sync record ``key``) answers STATUS with; a sender's RESET CHANNEL is
        taken here."""
        if reset:
            self.save(key, SyncState(sender_seq, None))
        return self.state(key)

    # -- the sending end ---------------------------------------------------------------------
    @staticmethod
    def held_entries(conn: Connection) -> tuple[int, ...]:
        """The transmission queue sequence numbers of the persistent messages ``conn`` has got in
        its unit of work (the batch a sender is about to end)."""
        return tuple(entry.seq for _, entry in conn.uow.gets if entry.persistent)

    def remove_entries(self, queue_name: str, seqs: tuple[int, ...]) -> int:
        """Remove the available messages of ``seqs`` from a queue (a batch in doubt at a restart that
        the receiver has); how many were still there."""
        queue = self.queues.get(queue_name)
        if queue is None or not seqs:
            return 0
        wanted = set(seqs)
        found = [entry for level in queue.levels for entry in level.entries
                 if entry.seq in wanted and entry.state == AVAILABLE]
        for entry in found:
            if entry.persistent:
                self.outbox.tx.delete_message(queue.name, entry.seq)
            queue.remove(entry)
        return len(found)

    # -- the receiving end ----------------------------------------------------------------------
    def deliver(self, conn: Connection, md: list[Any], properties: dict[str, Any], body: bytes,
                in_unit: bool, putaut: str = "DEF", usedlq: bool = True, retry: bool = False) -> str:
        """Put one arriving transmission-queue message where its header says; returns where it went
        (``QUEUE@QMGR``, or ``DLQ:<reason>``). MQError when it can go nowhere (the batch must fail).
        ``md`` is the transmission queue message's own MQMD as a list: only a message without an
        MQXQH needs it (the header carries the original MQMD). With ``retry`` a failure that may
        pass (RETRYABLE: the queue full or put-inhibited) is raised for the channel to try again
        later (MRRTY, MRTMR) instead of dead-lettering the message."""
        sync_option = C.MQPMO_SYNCPOINT if in_unit else C.MQPMO_NO_SYNCPOINT
        try:
            header, data = xqh.unwrap(body)
        except HeaderError as error:  # not a transmission-queue message: nothing names its destination
            self._dead_letter(conn, Message(MessageDescriptor.from_list(md), body, properties), error.reason, "", "",
                              sync_option, usedlq)
            return f"DLQ:{error.reason}"
        target_qmgr = header.remote_q_mgr_name
        od: dict[str, Any] = {"ObjectName": header.remote_q_name,
                              "ObjectQMgrName": "" if target_qmgr in ("", self.qmgr_name) else target_qmgr}
        if putaut == "CTX":  # the message's own user must be allowed to put there
            od["AlternateUserId"] = header.md.UserIdentifier
        try:
            self._put(conn, od, header.md, _PASS_CONTEXT | sync_option, properties, data)
        except MQError as error:
            if error.reason in _FATAL_TO_BATCH or (error.reason in _WAIT_FOR_SYSTEM_QUEUE
                                                    and header.remote_q_name.startswith(_INTER_QMGR)):
                raise
            if retry and error.reason in RETRYABLE:
                raise
            self._dead_letter(conn, Message(header.md, data, properties), error.reason, header.remote_q_name,
                              target_qmgr, sync_option, usedlq)
            return f"DLQ:{error.reason}"
        return f"{header.remote_q_name}@{target_qmgr or self.qmgr_name}"

    def _put(self, conn: Connection, od: dict[str, Any], md: MessageDescriptor, options: int,
             properties: dict[str, Any], data: bytes) -> None:
        """MQPUT to the destination through a handle kept open for the batch (as IBM's MCAs keep
        theirs): the open's name resolution and authority check once per destination and batch,
        not per message. A handle gone stale (its queue deleted) is opened again."""
        key = (od["ObjectName"], od["ObjectQMgrName"], od.get("AlternateUserId", ""))
        handles = self._handles.setdefault(conn.conn_id, {})
        for attempt in (1, 2):
            hobj = handles.get(key)
            if hobj is None:
                if len(handles) >= _MAX_OPEN_HANDLES:
                    self.forget_connection(conn, close=True)
                    handles = self._handles.setdefault(conn.conn_id, {})
                open_options = C.MQOO_OUTPUT | C.MQOO_SET_ALL_CONTEXT
                if "AlternateUserId" in od:
                    open_options |= C.MQOO_ALTERNATE_USER_AUTHORITY
                try:
                    hobj = self.mqi.open(conn, od, open_options).hobj
                except ClusterLookup:  # an MCA does not wait for the full repositories: what is known now
                    hobj = self.mqi.open(conn, od, open_options).hobj
                handles[key] = hobj
            try:
                self.mqi.put(conn, hobj, md, options, properties, data)
                return
            except MQError as error:
                if attempt == 2 or error.reason not in (C.MQRC_Q_DELETED, C.MQRC_HOBJ_ERROR):
                    raise
                handles.pop(key, None)

    def forget_connection(self, conn: Connection, close: bool = False) -> None:
        """The channel's connection ends (its handles go with it), or its cache is full."""
        handles = self._handles.pop(conn.conn_id, {})
        if close:
            for hobj in handles.values():
                with contextlib.suppress(MQError):  # (already closed)
                    self.mqi.close(conn, hobj, 0)

    def _dead_letter(self, conn: Connection, message: Message, reason: int, dest_q: str, dest_qmgr: str,
                     sync_option: int, usedlq: bool) -> None:
        deadq = str(self.qmgr_attrs.get("DEADQ", "")).strip()
        if not usedlq or not deadq:
            raise MQError(reason, f"AMQ9544E: message for {dest_q}@{dest_qmgr} not put (reason {reason}) and "
                                  f"{'USEDLQ(NO)' if deadq else 'no dead-letter queue (DEADQ)'}")
        wrapped = dead_letter.wrap(message, reason, dest_q, dest_qmgr or self.qmgr_name, self.syncpoint.clock())
        self.mqi.put1(conn, {"ObjectName": deadq}, wrapped.md, _PASS_CONTEXT | sync_option, wrapped.properties,
                      wrapped.body)
        log.warning("AMQ9599W: message for %s@%s put on the dead-letter queue %s (reason %d)", dest_q,
                    dest_qmgr or self.qmgr_name, deadq, reason)

    def commit_batch(self, conn: Connection, key: str, seq: int, luwid: bytes) -> None:
        """The receiver's batch, final: its puts and its sync record in one store transaction."""
        self.syncpoint.commit(conn)
        self.save(key, self.state(key).committed(seq, luwid))
        # The destinations stay open for one batch only: an idle channel holds no queue open
        # (CLEAR QLOCAL and DELETE QLOCAL would find it in use).
        self.forget_connection(conn, close=True)


_MAX_OPEN_HANDLES = 256  # destinations a receiving channel keeps open at once

# A put failure that is about the channel, not the message: the batch fails rather than the
# message going to the dead-letter queue.
# Distributed publish/subscribe's messages wait on the sender's transmission queue while their
# system queue refuses them (B:R-ERR-3, A-40); a security refusal still dead-letters (R-DSEC-6).
_INTER_QMGR = "SYSTEM.INTER.QMGR."
_WAIT_FOR_SYSTEM_QUEUE = frozenset({C.MQRC_PUT_INHIBITED, C.MQRC_Q_FULL})
# Failures a receiving channel's message retry waits out (IBM's MCA retries these when it has no
# message-retry exit); anything else goes to the dead-letter queue at once.
RETRYABLE = frozenset({C.MQRC_PUT_INHIBITED, C.MQRC_Q_FULL, C.MQRC_Q_SPACE_NOT_AVAILABLE})
_FATAL_TO_BATCH = frozenset({C.MQRC_Q_MGR_QUIESCING, C.MQRC_Q_MGR_STOPPING, C.MQRC_SYNCPOINT_LIMIT_REACHED,
                             C.MQRC_HCONN_ERROR})
