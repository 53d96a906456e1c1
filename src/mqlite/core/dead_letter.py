"""Dead letters: wrap an undeliverable message in an MQDLH, as a queue manager does."""

from __future__ import annotations

from mqlite.message import Message, put_date_time
from mqlite.protocol import dlh

MQAT_QMGR = 7


def wrap(message: Message, reason: int, dest_q: str, dest_qmgr: str, now: float) -> Message:
    """The message to put on the dead-letter queue: MQDLH + original data, Format MQDEAD."""
    md = message.md.copy()
    put_date, put_time = put_date_time(now)
    header = dlh.DeadLetterHeader(
        reason=reason, dest_q_name=dest_q, dest_q_mgr_name=dest_qmgr, encoding=md.Encoding,
        ccsid=md.CodedCharSetId, format=md.Format, put_appl_type=MQAT_QMGR,
        put_appl_name="mqlite", put_date=put_date, put_time=put_time,
    )
    md.Format = dlh.FORMAT_DEAD_LETTER_HEADER
    return Message(md, dlh.encode(header) + message.body, dict(message.properties))


def unwrap(message: Message) -> tuple[dlh.DeadLetterHeader, Message]:
    """The header and the original message (for a dead-letter handler)."""
    header, body = dlh.decode(message.body)
    md = message.md.copy()
    md.Format = header.format
    md.Encoding = header.encoding
    md.CodedCharSetId = header.ccsid
    return header, Message(md, body, dict(message.properties))
