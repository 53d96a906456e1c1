"""StoreTx: the persistent changes of one or more units of work, as plain data.

Core builds a StoreTx on its own thread; the store's writer thread applies it later. So every
value is encoded here, at the time of the call: the tx is a snapshot, and core may go on changing
its in-memory Message objects without racing the writer. Ops are kept as runs of the same kind
(``[(op, [row, row, ...]), ...]``) so the writer can hand each run to one ``executemany`` and does
no per-op Python work. No sqlite import here: this module is pure data.
"""

from __future__ import annotations

from typing import Any

import msgpack

from mqlite.message import NULL_ID, Message

# Op codes; the SQL for each lives in sqlite.py.
PUT_MESSAGE = 0
DELETE_MESSAGE = 1
SET_BACKOUT = 2
PURGE_QUEUE = 3
PUT_RECORD = 4
DELETE_RECORD = 5
FAIL = 6  # an op whose value could not be encoded: the writer raises the stored exception
MARK_SEQ = 7

Row = tuple[Any, ...]
Run = tuple[int, list[Row]]

# One Packer for the module: msgpack.packb builds a new one per call, which doubles its cost.
# Packer.pack never releases the GIL, so threads cannot interleave inside it.
_pack = msgpack.Packer(use_bin_type=True).pack


def encode_value(value: Any) -> bytes:
    """msgpack as the store writes it (records, properties, descriptors)."""
    data: bytes = _pack(value)
    return data


class StoreTx:
    """Ops of one or more units of work, applied atomically and in order.

    Once submitted, a tx belongs to the store: do not add to it. ``after_durable`` is core's own
    bookkeeping; the store never reads or changes it (``extend`` leaves it alone too).
    """

    __slots__ = ("_count", "after_durable", "runs")

    def __init__(self) -> None:
        self.runs: list[Run] = []
        self._count = 0
        self.after_durable: list[tuple[Any, Any]] = []  # core's (queue, entry or seq) pairs

    def _add(self, op: int, row: Row) -> None:
        runs = self.runs
        if runs and runs[-1][0] == op:
            runs[-1][1].append(row)
        else:
            runs.append((op, [row]))
        self._count += 1

    def put_message(self, queue: str, seq: int, message: Message, expiry_at: float) -> None:
        """Store a message; ``expiry_at`` is epoch seconds, 0.0 for never."""
        md = message.md
        msg_id = md.MsgId
        correl_id = md.CorrelId
        props = message.properties
        self._add(
            PUT_MESSAGE,
            (
                queue,
                seq,
                md.Priority,
                expiry_at,
                # All-zero ids are stored as NULL so the partial id indexes stay small.
                None if msg_id == NULL_ID else msg_id,
                None if correl_id == NULL_ID else correl_id,
                md.BackoutCount,
                _pack(md.to_list()),
                _pack(props) if props else None,
                message.body,
            ),
        )

    def delete_message(self, queue: str, seq: int) -> None:
        """Delete a stored message. Its seq is not marked: a number a stream reader was told of
        is marked when it is told (``mark_seq``, ``core.ranges``), and one no reader saw may
        come again after a restart, unseen; so a get writes no queue_meta row."""
        self._add(DELETE_MESSAGE, (queue, seq))

    def set_backout(self, queue: str, seq: int, count: int) -> None:
        self._add(SET_BACKOUT, (count, queue, seq))

    def purge_queue(self, queue: str) -> None:
        """Delete every message of the queue (the high-water mark rises to the highest of them)."""
        self._add(PURGE_QUEUE, (queue,))

    def mark_seq(self, queue: str, seq: int) -> None:
        """Raise the queue's sequence high-water mark to at least ``seq`` (``put_message`` raises it
        by itself; this covers numbers of messages that were never stored)."""
        self._add(MARK_SEQ, (queue, seq))

    def put_record(self, kind: str, key: str, value: Any) -> None:
        """Insert or replace a msgpack-able record.

        A value msgpack cannot encode does not raise here: it makes this tx fail, alone, through
        its ``done`` callback, the same way as any other store failure.
        """
        try:
            blob = encode_value(value)
        except Exception as exc:
            self._add(FAIL, (exc,))
            return
        self._add(PUT_RECORD, (kind, key, blob))

    def delete_record(self, kind: str, key: str) -> None:
        self._add(DELETE_RECORD, (kind, key))

    def only_records(self, kind: str) -> bool:
        """Whether every op puts a record of ``kind`` (a tx of message channel sync records only)."""
        return all(op == PUT_RECORD and all(row[0] == kind for row in rows) for op, rows in self.runs)

    def extend(self, other: StoreTx) -> None:
        """Append the ops of ``other`` after ours (``other`` is left as it was)."""
        for op, rows in other.runs:
            if self.runs and self.runs[-1][0] == op:
                self.runs[-1][1].extend(rows)
            else:
                self.runs.append((op, list(rows)))
        self._count += other._count

    def __len__(self) -> int:
        return self._count

    def __bool__(self) -> bool:
        return self._count > 0

    def __repr__(self) -> str:
        return f"<StoreTx {self._count} ops>"
