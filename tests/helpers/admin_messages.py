"""The PCF messages a queue manager put on one of its queues (event and statistics messages),
got and decoded: what the event and statistics tests read back."""

from __future__ import annotations

import mqlite
from mqlite import cmqc as C
from mqlite.protocol import pcf


def pcf_messages(qmgr: str, queue: str, fmt: str = C.MQFMT_EVENT) -> list[pcf.PcfMessage]:
    """Every message on ``queue`` of queue manager ``qmgr`` now (got, so the queue is left empty),
    each checked to be of format ``fmt`` and decoded in its MQMD's encoding."""
    out: list[pcf.PcfMessage] = []
    with mqlite.connect(qmgr) as conn:
        q = mqlite.Queue(conn, queue)
        while True:
            md = mqlite.MD()
            try:
                body = q.get(None, md)
            except mqlite.MQMIError as error:
                assert error.reason == C.MQRC_NO_MSG_AVAILABLE, error
                return out
            assert bytes(md.Format).strip() == fmt.strip().encode()
            out.append(pcf.decode(body, pcf.little_endian(md.Encoding)))
