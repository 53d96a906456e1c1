"""The store's SQLite schema and the statements the store runs on it (store/sqlite.py)."""

from __future__ import annotations

from mqlite.store.tx import (
    DELETE_MESSAGE,
    DELETE_RECORD,
    MARK_SEQ,
    PURGE_QUEUE,
    PUT_MESSAGE,
    PUT_RECORD,
    SET_BACKOUT,
)

SCHEMA_VERSION = 1

# The primary key is the covering index the start-up scan reads (queue, seq, priority, expiry_at,
# backout): one index fewer to update per put than a key of (queue, seq) and a second covering
# index (a commit of 7 puts wrote 7.3 WAL pages instead of 8.8). A (queue, seq) is still unique in
# practice (core never reuses one); an older store keeps its (queue, seq) key and messages_index,
# which answer the same statements.
SCHEMA = """
CREATE TABLE IF NOT EXISTS messages (
    queue     TEXT    NOT NULL,
    seq       INTEGER NOT NULL,
    priority  INTEGER NOT NULL,
    expiry_at REAL    NOT NULL,
    msg_id    BLOB,
    correl_id BLOB,
    backout   INTEGER NOT NULL,
    md        BLOB    NOT NULL,
    props     BLOB,
    body      BLOB    NOT NULL,
    PRIMARY KEY (queue, seq, priority, expiry_at, backout)
);
CREATE INDEX IF NOT EXISTS messages_msg_id
    ON messages (queue, msg_id) WHERE msg_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS messages_correl_id
    ON messages (queue, correl_id) WHERE correl_id IS NOT NULL;
-- A queue's high-water mark: the numbers told to stream readers (StoreTx.mark_seq) and the seqs a
-- purge removes. A stored message holds its own seq, so puts write no mark, and deletes none
-- either (a number no reader was told of may come again after a restart, unseen).
CREATE TABLE IF NOT EXISTS queue_meta (
    queue   TEXT    PRIMARY KEY,
    max_seq INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS records (
    kind  TEXT NOT NULL,
    key   TEXT NOT NULL,
    value BLOB NOT NULL,
    PRIMARY KEY (kind, key)
) WITHOUT ROWID;
"""

HIGH_SQL = (
    "INSERT INTO queue_meta (queue, max_seq) VALUES (?, ?)"
    " ON CONFLICT (queue) DO UPDATE SET max_seq = max(max_seq, excluded.max_seq)"
)
# Before a purge: the high-water mark covers the messages it deletes.
PURGE_MARK_SQL = (
    "INSERT INTO queue_meta (queue, max_seq) SELECT queue, max(seq) FROM messages WHERE queue = ?"
    " GROUP BY queue ON CONFLICT (queue) DO UPDATE SET max_seq = max(max_seq, excluded.max_seq)"
)
OP_SQL: dict[int, str] = {
    PUT_MESSAGE: "INSERT INTO messages (queue, seq, priority, expiry_at, msg_id, correl_id, backout,"
    " md, props, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    DELETE_MESSAGE: "DELETE FROM messages WHERE queue = ? AND seq = ?",
    SET_BACKOUT: "UPDATE messages SET backout = ? WHERE queue = ? AND seq = ?",
    PURGE_QUEUE: "DELETE FROM messages WHERE queue = ?",  # after PURGE_MARK_SQL
    PUT_RECORD: "INSERT OR REPLACE INTO records (kind, key, value) VALUES (?, ?, ?)",
    DELETE_RECORD: "DELETE FROM records WHERE kind = ? AND key = ?",
    MARK_SEQ: HIGH_SQL,
}
PUT_HEAD = ("INSERT INTO messages (queue, seq, priority, expiry_at, msg_id, correl_id, backout, md, props,"
            " body)")
DELETE_HEAD = "DELETE FROM messages WHERE queue = ? AND seq"
READ_ONE = "SELECT md, props, body, backout FROM messages WHERE queue = ? AND seq = ?"
READ_MANY = (
    "SELECT seq, md, props, body, backout FROM messages WHERE queue = ? AND seq IN (SELECT value FROM json_each(?))"
)
SCAN = "SELECT queue, seq, priority, expiry_at, backout FROM messages"
ORDER = " ORDER BY queue, seq"
